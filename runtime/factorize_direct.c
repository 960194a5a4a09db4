/* factorize_direct.c — the GPU factorization without tasks (docs/gpu.md,
 * "The direct factorization"): when one process factors a static plan on
 * one GPU in GPU mode, the calling thread runs every group of the plan in
 * plan order on a stream of its own — the group tasks' body
 * (kernels/gpu_group.h), one after another, no host wait between them —
 * then waits once and reads the failure list. Why not tasks: a task costs
 * its submission, scheduling, the worker's wake and the end's callback and
 * wake; with the workers' resets and gathers around a run, a one-group
 * factorization took 1.2 ms for 0.1–0.3 ms of GPU work, and on lap2d5:1000
 * the GPU was busy 13 of 26 ms between 21 tasks (docs/perf-log.md, "The
 * factorization, v1").
 *
 * What it keeps per factor (the hold, made at the first direct run and
 * kept until the factor is freed or the runtime stops): the stream, a GPU
 * context (failure list; cuBLAS/cuSOLVER handles only when a large group
 * needs them), events, and one device
 * allocation (starpu_malloc_on_node, so StarPU's memory limit counts it)
 * holding every group's blob (uploaded once, in one copy), A's values, the
 * CB pools (one arena laid out by sylva__plan_cb_arena: pools alive at once
 * never overlap) and the groups' workspace. L stays in its StarPU handles:
 * each run acquires every group's slice for writing on the GPU's memory
 * node and releases it at the end, so StarPU knows L is on the GPU (the
 * solves, sylva_factor_to_host and eviction work as after tasks).
 *
 * A refactorization moves A's values in, the failure count out, and
 * nothing else. It declines (the task path runs) when the hold and the
 * part of L not yet on the GPU would take more than 3/4 of what StarPU may
 * still allocate there. It runs only with SYLVA_FACTOR_DIRECT=1 for now:
 * no GPU has run it yet (docs/gpu.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_direct.h"
#include "gpu_solve.h"
#include "gpu_tree.h"
#include "runtime_internal.h"

/* Per-group device marks (the study's batch times) up to this many groups;
 * beyond, only the run's start and end are marked. */
#define DIRECT_MARKS_MAX 4096
#define ALIGN(x) (((x) + 255) & ~(size_t)255)

struct sylva__factor_hold {
    sylva__numeric *N;
    int device, node, worker;
    struct CUstream_st *stream;
    sylva__gpu_context *ctx;
    sylva__gpu_marks *marks;
    int nmarks;
    uintptr_t arena;
    size_t arena_bytes;
    size_t *blob_at;             /* per group: byte offset of its blob in the arena */
    size_t a_at, cb_at, work_at; /* byte offsets of A's values, the CB arena, the workspace */
    int64_t *cb_off;             /* per group: its pool's offset (scalars) in the CB arena */
    double **child_ptrs;         /* per dep entry: the device base of the pool it reads */
    double **L;                  /* per group: L's device pointer while acquired */
    int uploaded;                /* the blobs are on the device */
    /* The tree launches (kernels/gpu_tree.h): runs of consecutive groups
     * whose fronts are all small, each factored by one launch. */
    int64_t *run;                /* per group: its run, or −1 (a group run as before) */
    int64_t nruns;
    int64_t *run_end;            /* per run: one past its last group (runs are consecutive groups) */
    int64_t *run_item;           /* nruns + 1: each run's first item */
    int *run_max_m;              /* per run: its largest front */
    sylva__tree_group *tg;       /* per group: the device table's host copy (used for runs' groups) */
    size_t tg_at, items_at, pools_at, done_at, next_at, frun_at; /* byte offsets of the launches' tables */
    int epoch;                   /* the last run's done-word value */
    int handles;                 /* a large group: the context needs cuBLAS and cuSOLVER */
    /* The pivot check, queued after the groups on the same stream (the
     * solve plan's blob and a one-column solve workspace in the arena):
     * its per-record answers wait here for sylva__factor_direct_pivots. */
    size_t gsolve_at, pws_at;
    size_t gtime_at;             /* the tree launches' per-group device times (per-group marks only) */
    unsigned long long *gtime;   /* their host copy (2 per group) */
    sylva__solve_ws pws;
    char *pbuf;                  /* the four answer arrays as laid out in the workspace, copied at once */
    int *pbad;                   /* pointers into pbuf */
    double *pval, *plo, *phi;
    int pivots_fresh;
    struct sylva__factor_hold *prev, *next;
};

static starpu_pthread_mutex_t holds_lock = STARPU_PTHREAD_MUTEX_INITIALIZER;
static sylva__factor_hold *holds;

/* 1 with SYLVA_FACTOR_DIRECT=1 (read once). Off by default until the
 * GPU tests and the benchmark have run it on a GPU (docs/gpu.md). */
int sylva__factor_direct_on(void)
{
    static int on = -1;
    return sylva__env_switch("SYLVA_FACTOR_DIRECT", 0, &on);
}

static void hold_free(sylva__factor_hold *h)
{
    if (!h) return;
    STARPU_PTHREAD_MUTEX_LOCK(&holds_lock);
    if (h->prev) h->prev->next = h->next;
    else if (holds == h) holds = h->next;
    if (h->next) h->next->prev = h->prev;
    STARPU_PTHREAD_MUTEX_UNLOCK(&holds_lock);
    if (sylva__runtime_ready()) { /* else the device memory went with StarPU's shutdown */
        int prev = 0;
        if (!sylva__gpu_device_enter(h->device, &prev)) {
            sylva__gpu_marks_free(h->marks);
            sylva__gpu_context_free(h->ctx);
            sylva__gpu_device_leave(prev);
        }
        if (h->arena) starpu_free_on_node((unsigned)h->node, h->arena, h->arena_bytes);
        sylva__gpu_stream_close(h->device, h->stream);
    }
    free(h->blob_at);
    free(h->cb_off);
    free(h->child_ptrs);
    free(h->L);
    free(h->run);
    free(h->run_end);
    free(h->run_item);
    free(h->run_max_m);
    free(h->tg);
    free(h->gtime);
    free(h->pbuf);
    free(h);
}

void sylva__factor_direct_free(sylva__numeric *N)
{
    sylva__factor_hold *h = N->fhold;
    N->fhold = NULL;
    hold_free(h);
}

void sylva__factor_direct_free_all(void)
{
    for (;;) {
        STARPU_PTHREAD_MUTEX_LOCK(&holds_lock);
        sylva__numeric *N = holds ? holds->N : NULL;
        STARPU_PTHREAD_MUTEX_UNLOCK(&holds_lock);
        if (!N) return;
        sylva__factor_direct_free(N);
    }
}

/* 1 unless SYLVA_TREE_LAUNCH=0 (read once): the tree launches for runs of
 * small groups, else every group level by level as before. */
static int tree_launch_on(void)
{
    static int on = -1;
    return sylva__env_switch("SYLVA_TREE_LAUNCH", 1, &on);
}

/* The runs (after the arena gave h->run): their groups, items and largest
 * fronts. */
static int runs_layout(sylva__factor_hold *h, int64_t ng, const sylva__gpu_plan *gp)
{
    int64_t nr = 0, items = 0;
    for (int64_t g = 0; g < ng; g++)
        if (h->run[g] >= 0 && h->run[g] + 1 > nr) nr = h->run[g] + 1;
    h->nruns = nr;
    h->run_end = sylva__malloc((size_t)nr + 1, sizeof *h->run_end);
    h->run_item = sylva__malloc((size_t)nr + 1, sizeof *h->run_item);
    h->run_max_m = sylva__calloc((size_t)nr + 1, sizeof *h->run_max_m);
    h->tg = sylva__calloc((size_t)ng + 1, sizeof *h->tg);
    if (!h->run_end || !h->run_item || !h->run_max_m || !h->tg)
        return sylva__fail(SYLVA_ERR_NO_MEMORY, "out of memory for the tree launches");
    for (int64_t g = 0; g < ng; g++) {
        int64_t r = h->run[g];
        if (r < 0) continue;
        const sylva__group_desc *d = &gp->groups[g];
        if (g == 0 || h->run[g - 1] != r) h->run_item[r] = items;
        h->run_end[r] = g + 1;
        items += d->nfronts;
        for (int l = 0; l < d->nlevels; l++)
            if (d->level_max_m[l] > h->run_max_m[r]) h->run_max_m[r] = d->level_max_m[l];
    }
    h->run_item[nr] = items;
    return SYLVA_OK;
}

/* The layout of the hold's allocation and its host tables (no device
 * memory yet): the blobs, the tree launches' tables (group table, items,
 * dep-slot pool bases, done words, claim counters, each front's run), A's
 * values, the CB arena, the workspace. */
static int hold_layout(sylva__numeric *N, sylva__factor_hold *h, int64_t nnz)
{
    const sylva__plan *pl = N->plan;
    const sylva__gpu_plan *gp = N->rt->gpu;
    int64_t ng = pl->ngroups, ndep = pl->dep_ptr[ng];
    h->blob_at = sylva__malloc((size_t)ng + 1, sizeof *h->blob_at);
    h->cb_off = sylva__malloc((size_t)ng + 1, sizeof *h->cb_off);
    h->child_ptrs = sylva__malloc((size_t)ndep + 1, sizeof *h->child_ptrs);
    h->L = sylva__calloc((size_t)ng + 1, sizeof *h->L);
    h->run = sylva__malloc((size_t)ng + 1, sizeof *h->run);
    int64_t *size = sylva__malloc((size_t)ng + 1, sizeof *size);
    char *eligible = sylva__calloc((size_t)ng + 1, 1);
    if (!h->blob_at || !h->cb_off || !h->child_ptrs || !h->L || !h->run || !size || !eligible) {
        free(size);
        free(eligible);
        return sylva__fail(SYLVA_ERR_NO_MEMORY, "out of memory for the direct factorization");
    }
    size_t at = 0;
    int tree = tree_launch_on();
    for (int64_t g = 0; g < ng; g++) {
        const sylva__group_desc *d = &gp->groups[g];
        h->blob_at[g] = at;
        at += ALIGN((size_t)d->lay.bytes);
        eligible[g] = (char)(tree && sylva__gpu_group_tree_ok(d));
        if (d->large) h->handles = 1;
        /* A tree launch's group keeps its internal CBs behind its pool
         * (the launch runs groups at once: no shared scratch). */
        size[g] = d->cb_pool + (eligible[g] ? d->scratch : 0);
    }
    /* A run holds back the pools it read until it ends: at most a quarter
     * of L's size (at least 32 MB) before a new launch starts. */
    int64_t l_total = pl->l_off[pl->tree->nfronts], budget = l_total / 4;
    if (budget < ((int64_t)32 << 20) / 8) budget = ((int64_t)32 << 20) / 8;
    int64_t cb_total = 0;
    int status = sylva__plan_cb_arena_runs(pl, size, eligible, budget, h->run, h->cb_off, &cb_total);
    free(size);
    free(eligible);
    if (!status) status = runs_layout(h, ng, gp);
    if (status) return status;
    h->tg_at = at;
    at += ALIGN((size_t)(ng + 1) * sizeof(sylva__tree_group));
    h->items_at = at;
    at += ALIGN((size_t)(h->run_item[h->nruns] + 1) * 2 * sizeof(int));
    h->pools_at = at;
    at += ALIGN((size_t)(ndep + 1) * sizeof(double *));
    h->done_at = at;
    at += ALIGN((size_t)(pl->tree->nfronts + 1) * sizeof(int));
    h->next_at = at;
    at += ALIGN((size_t)(h->nruns + 1) * sizeof(int));
    h->frun_at = at;
    at += ALIGN((size_t)(pl->tree->nfronts + 1) * sizeof(int));
    const sylva__solve_desc *sd = &N->rt->gsolve->desc;
    h->gsolve_at = at;
    at += ALIGN((size_t)sd->lay.bytes);
    h->gtime_at = at;
    at += ALIGN((size_t)(ng + 1) * 2 * sizeof(unsigned long long));
    h->gtime = sylva__malloc((size_t)(ng + 1) * 2, sizeof *h->gtime);
    if (!h->gtime) return sylva__fail(SYLVA_ERR_NO_MEMORY, "out of memory for the direct factorization");
    h->a_at = at;
    at += ALIGN((size_t)(nnz > 0 ? nnz : 1) * sizeof(double));
    h->cb_at = at;
    at += ALIGN((size_t)(cb_total > 0 ? cb_total : 1) * sizeof(double));
    h->work_at = at;
    at += ALIGN(N->work_bytes);
    sylva__solve_ws_layout(sd, 1, 0, &h->pws);
    h->pws_at = at;
    at += ALIGN(h->pws.bytes);
    /* bad, badval, plo, phi follow one another in the workspace. */
    h->pbuf = sylva__malloc(h->pws.phi + (size_t)sd->nfronts * sizeof(double) - h->pws.bad + 1, 1);
    if (!h->pbuf) return sylva__fail(SYLVA_ERR_NO_MEMORY, "out of memory for the direct factorization");
    h->pbad = (int *)h->pbuf;
    h->pval = (double *)(h->pbuf + (h->pws.badval - h->pws.bad));
    h->plo = (double *)(h->pbuf + (h->pws.plo - h->pws.bad));
    h->phi = (double *)(h->pbuf + (h->pws.phi - h->pws.bad));
    h->arena_bytes = at;
    return SYLVA_OK;
}

/* Bytes of L's groups without a copy on `node`. */
static double L_missing(const sylva__numeric *N, int node)
{
    double bytes = 0;
    for (int64_t g = 0; g < N->plan->ngroups; g++) {
        if (N->L[g] && starpu_data_is_on_node(N->L[g], (unsigned)node)) continue;
        int64_t lo, len = sylva__plan_group_l(N->plan, g, &lo);
        bytes += (double)(len > 0 ? len : 1) * (double)N->elem;
    }
    return bytes;
}

/* The device side of a new hold: stream, context, marks, the allocation
 * (a status; h->arena stays 0 when StarPU has no room for it). */
static int hold_open(sylva__factor_hold *h)
{
    int prev = 0;
    int status = sylva__gpu_stream_open(h->device, &h->stream);
    if (!status) status = sylva__gpu_device_enter(h->device, &prev);
    if (status) return status;
    status = h->handles ? sylva__gpu_context_create(h->stream, &h->ctx) : sylva__gpu_context_create_bare(h->stream, &h->ctx);
    if (!status) status = sylva__gpu_marks_create(h->nmarks, &h->marks);
    if (!status) h->arena = starpu_malloc_on_node((unsigned)h->node, h->arena_bytes);
    sylva__gpu_device_leave(prev); /* StarPU may have switched the device */
    return status;
}

/* N's hold on the one GPU, made at the first call; NULL (and SYLVA_OK)
 * when the direct run declines: too little device memory for it. */
static int hold_get(sylva__numeric *N, int64_t nnz, sylva__factor_hold **out)
{
    *out = NULL;
    int worker = starpu_worker_get_by_type(STARPU_CUDA_WORKER, 0);
    if (worker < 0) return SYLVA_OK;
    int node = (int)starpu_worker_get_memory_node((unsigned)worker);
    sylva__factor_hold *h = N->fhold;
    int fresh = h == NULL;
    if (fresh) {
        h = sylva__calloc(1, sizeof *h);
        if (!h) return sylva__fail(SYLVA_ERR_NO_MEMORY, "out of memory for the direct factorization");
        h->N = N;
        h->worker = worker;
        h->node = node;
        h->device = starpu_worker_get_devid(worker);
        h->nmarks = N->plan->ngroups <= DIRECT_MARKS_MAX ? (int)N->plan->ngroups + 1 : 2;
        int status = hold_layout(N, h, nnz);
        if (status) {
            hold_free(h);
            return status;
        }
    }
    starpu_ssize_t avail = starpu_memory_get_available((unsigned)node);
    double need = L_missing(N, node) + (fresh ? (double)h->arena_bytes : 0);
    if (avail >= 0 && need > 0.75 * (double)avail) {
        if (fresh) hold_free(h);
        return SYLVA_OK;
    }
    if (!fresh) {
        *out = h;
        return SYLVA_OK;
    }
    int status = hold_open(h);
    if (status || !h->arena) { /* no room after all: the task path evicts */
        if (!h->arena) h->arena_bytes = 0;
        hold_free(h);
        return status;
    }
    const sylva__plan *pl = N->plan;
    double *cb = (double *)(h->arena + h->cb_at);
    for (int64_t g = 0; g < pl->ngroups; g++)
        for (int64_t d = pl->dep_ptr[g]; d < pl->dep_ptr[g + 1]; d++)
            h->child_ptrs[d] = cb + h->cb_off[pl->dep_list[d]];
    STARPU_PTHREAD_MUTEX_LOCK(&holds_lock);
    h->next = holds;
    if (holds) holds->prev = h;
    holds = h;
    STARPU_PTHREAD_MUTEX_UNLOCK(&holds_lock);
    N->fhold = h;
    *out = h;
    return SYLVA_OK;
}

/* The tree launches' group table from the hold (L as acquired now). */
static void fill_tree_groups(sylva__factor_hold *h)
{
    const sylva__plan *pl = h->N->plan;
    const sylva__gpu_plan *gp = h->N->rt->gpu;
    double *cb = (double *)(h->arena + h->cb_at);
    double **pools = (double **)(h->arena + h->pools_at);
    for (int64_t g = 0; g < pl->ngroups; g++) {
        if (h->run[g] < 0) continue;
        const sylva__group_desc *d = &gp->groups[g];
        h->tg[g] = (sylva__tree_group){
            .blob = (const void *)(h->arena + h->blob_at[g]),
            .L = h->L[g],
            .pool = d->cb_pool > 0 ? cb + h->cb_off[g] : NULL,
            .scratch = cb + h->cb_off[g] + d->cb_pool,
            .child_pools = pools + pl->dep_ptr[g],
            .lay = d->lay,
        };
    }
}

/* The blobs and the launches' tables into the arena (done words zero), in
 * one copy from one host buffer. */
static int upload_blobs(sylva__factor_hold *h, double *bytes)
{
    const sylva__plan *pl = h->N->plan;
    const sylva__gpu_plan *gp = h->N->rt->gpu;
    int64_t ng = pl->ngroups;
    size_t total = h->a_at;
    char *host = sylva__malloc(total + 1, 1);
    if (!host) return sylva__fail(SYLVA_ERR_NO_MEMORY, "out of memory staging the GPU plan");
    memset(host, 0, total);
    for (int64_t g = 0; g < ng; g++) memcpy(host + h->blob_at[g], gp->blobs[g], (size_t)gp->groups[g].lay.bytes);
    fill_tree_groups(h);
    memcpy(host + h->tg_at, h->tg, (size_t)ng * sizeof *h->tg);
    int *items = (int *)(host + h->items_at);
    for (int64_t g = 0, e = 0; g < ng; g++)
        for (int i = 0; h->run[g] >= 0 && i < gp->groups[g].nfronts; i++, e++) {
            items[2 * e] = (int)g;
            items[2 * e + 1] = i;
        }
    memcpy(host + h->pools_at, h->child_ptrs, (size_t)pl->dep_ptr[ng] * sizeof(double *));
    const sylva__gpu_solve_plan *gs = h->N->rt->gsolve;
    memcpy(host + h->gsolve_at, gs->blob, (size_t)gs->desc.lay.bytes);
    int *frun = (int *)(host + h->frun_at);
    for (int64_t f = 0; f < pl->tree->nfronts; f++) frun[f] = (int)h->run[pl->front_group[f]];
    int status = sylva__gpu_memcpy((void *)h->arena, host, total, 1);
    free(host);
    if (!status) {
        h->uploaded = 1;
        *bytes += (double)total;
    }
    return status;
}

/* A later run: the group table again only where StarPU moved an L slice. */
static int refresh_tree_groups(sylva__factor_hold *h, double *bytes)
{
    const sylva__plan *pl = h->N->plan;
    int moved = 0;
    for (int64_t g = 0; g < pl->ngroups && !moved; g++) moved = h->run[g] >= 0 && h->tg[g].L != h->L[g];
    if (!moved) return SYLVA_OK;
    fill_tree_groups(h);
    size_t n = (size_t)pl->ngroups * sizeof *h->tg;
    *bytes += (double)n;
    return sylva__gpu_memcpy((void *)(h->arena + h->tg_at), h->tg, n, 1);
}

/* Queue every group on the hold's stream, marks between them: a run of
 * small groups as one tree launch (a mark after its last group only). */
static int run_groups(sylva__factor_hold *h)
{
    sylva__numeric *N = h->N;
    const sylva__plan *pl = N->plan;
    const sylva__gpu_plan *gp = N->rt->gpu;
    int64_t ng = pl->ngroups;
    int per_group = h->nmarks == ng + 1, status = sylva__gpu_marks_record(h->marks, 0, h->stream);
    double *cb = (double *)(h->arena + h->cb_at);
    if (++h->epoch <= 0) h->epoch = 1;
    for (int64_t g = 0; g < ng && !status;) {
        int64_t r = h->run[g], next = g + 1;
        if (r >= 0) {
            next = h->run_end[r];
            sylva__tree_launch t = {
                .groups = (const sylva__tree_group *)(h->arena + h->tg_at),
                .items = (const int *)(h->arena + h->items_at) + 2 * h->run_item[r],
                .nitems = (int)(h->run_item[r + 1] - h->run_item[r]),
                .max_m = h->run_max_m[r],
                .next = (int *)(h->arena + h->next_at) + r,
                .done = (int *)(h->arena + h->done_at),
                .front_run = (const int *)(h->arena + h->frun_at),
                .run = (int)r,
                .epoch = h->epoch,
                .A = (const double *)(h->arena + h->a_at),
                .gtime = per_group ? (unsigned long long *)(h->arena + h->gtime_at) : NULL,
                .g0 = (int)g,
                .g1 = (int)next,
            };
            status = sylva__tree_factor_gpu(h->ctx, &t, h->stream);
        } else {
            const sylva__group_desc *d = &gp->groups[g];
            sylva__group_buffers b = {
                .blob = (const void *)(h->arena + h->blob_at[g]),
                .A = (const double *)(h->arena + h->a_at),
                .L = h->L[g],
                .cb_pool = d->cb_pool > 0 ? cb + h->cb_off[g] : NULL,
                .child_pools = h->child_ptrs + pl->dep_ptr[g],
                .work = (void *)(h->arena + h->work_at),
                .work_bytes = N->work_bytes,
            };
            status = sylva__group_factor_gpu(h->ctx, d, &b, 1, h->stream);
        }
        if (!status && (per_group || next == ng))
            status = sylva__gpu_marks_record(h->marks, per_group ? (int)next : 1, h->stream);
        g = next;
    }
    return status;
}

/* The pivot check on the run's stream, after the last group: every
 * front's first bad pivot, log sum and extreme pivots (kernels/gpu_solve.h),
 * copied back in one copy for sylva__factor_direct_pivots (it waits on
 * the stream, so it ends when the run does). */
static int queue_pivots(sylva__factor_hold *h)
{
    const sylva__solve_desc *d = &h->N->rt->gsolve->desc;
    char *ws = (char *)(h->arena + h->pws_at);
    sylva__solve_bufs b = {.blob = (const void *)(h->arena + h->gsolve_at), .group_L = h->L, .work = ws,
                           .ws = h->pws};
    h->pivots_fresh = 0;
    int st = sylva__gpu_solve_setup(d, &b, h->stream);
    if (!st) st = sylva__gpu_solve_pivots(d, &b, h->stream);
    size_t span = h->pws.phi + (size_t)d->nfronts * sizeof(double) - h->pws.bad;
    if (!st) st = sylva__gpu_copy_to_host(h->pbuf, ws + h->pws.bad, span, h->stream); /* the run's one wait */
    h->pivots_fresh = st == SYLVA_OK;
    return st;
}

int sylva__factor_direct_pivots(sylva__numeric *N, int *bad, double *badval, double *lo, double *hi)
{
    sylva__factor_hold *h = N->fhold;
    if (!h || !h->pivots_fresh || !N->direct) return 0;
    size_t nf = (size_t)N->rt->gsolve->desc.nfronts;
    memcpy(bad, h->pbad, nf * sizeof *bad);
    memcpy(badval, h->pval, nf * sizeof *badval);
    memcpy(lo, h->plo, nf * sizeof *lo);
    memcpy(hi, h->phi, nf * sizeof *hi);
    h->pivots_fresh = 0;
    return 1;
}

/* After the run: failures into front_info, times into rep and the log. */
static int read_run(sylva__factor_hold *h, double t_queue, sylva__factor_report *rep)
{
    sylva__numeric *N = h->N;
    const sylva__plan *pl = N->plan;
    int64_t ng = pl->ngroups;
    double busy = 0;
    int status = sylva__gpu_marks_seconds(h->marks, 0, h->nmarks - 1, &busy);
    int count = 0;
    int64_t fronts[64];
    int pivots[64];
    if (!status) status = sylva__gpu_context_failures(h->ctx, fronts, pivots, 64, &count);
    int64_t *fr = fronts;
    int *pv = pivots;
    if (!status && count > 64) { /* rare: read them all */
        fr = sylva__malloc((size_t)count, sizeof *fr);
        pv = sylva__malloc((size_t)count, sizeof *pv);
        int got = count;
        status = fr && pv ? sylva__gpu_context_failures(h->ctx, fr, pv, count, &got)
                          : sylva__fail(SYLVA_ERR_NO_MEMORY, "out of memory reading %d GPU failures", count);
        if (!status && got > SYLVA__GPU_MAX_FAILURES)
            status = sylva__fail(SYLVA_ERR_RUNTIME, "%d GPU front failures, %d could be recorded", got,
                                 SYLVA__GPU_MAX_FAILURES);
    }
    for (int i = 0; !status && i < count; i++) {
        if (pv[i] == 0) { /* a tree launch's wait that never ended (gpu_tree.h) */
            status = sylva__fail(SYLVA_ERR_RUNTIME,
                                 "tree launch: front %lld waited ~30 s for a child that never finished "
                                 "(a wrong work list; set SYLVA_TREE_LAUNCH=0 to go around it)",
                                 (long long)fr[i]);
            break;
        }
        int *fi = &N->front_info[fr[i]];
        if (*fi <= 0 || pv[i] < *fi) *fi = pv[i];
    }
    if (fr != fronts) free(fr);
    if (pv != pivots) free(pv);
    rep->gpu_busy = busy;
    rep->gpu_seconds[0] = busy;
    for (int64_t g = 0; g < ng; g++) rep->gpu_flops[pl->large[g] != 0] += pl->group_flops[g];
    if (!status && h->nmarks == ng + 1) {
        rep->gpu_seconds[0] = rep->gpu_seconds[1] = 0;
        double t_prev = 0;
        if (h->nruns > 0)
            status = sylva__gpu_copy_to_host(h->gtime, (const void *)(h->arena + h->gtime_at),
                                             (size_t)ng * 2 * sizeof *h->gtime, h->stream);
        for (int64_t g = 0; g < ng && !status;) {
            int64_t end = h->run[g] >= 0 ? h->run_end[h->run[g]] : g + 1;
            double t = 0;
            status = sylva__gpu_marks_seconds(h->marks, 0, (int)end, &t);
            rep->gpu_seconds[pl->large[g] != 0] += t - t_prev;
            if (h->run[g] < 0) {
                sylva__task_log_put(N, g, pl->large[g] ? SYLVA_TASK_FRONT : SYLVA_TASK_BATCH, h->worker,
                                    t_queue + t_prev, t_queue + t);
                g = end;
            } else {
                /* A tree launch's groups: from the first claim of one of
                 * their fronts to the last end (the GPU's global timer),
                 * placed from the launch's earliest claim at the mark
                 * before it, and clipped to the mark after it. */
                unsigned long long base = ~0ull;
                for (int64_t r = g; r < end; r++)
                    if (h->gtime[2 * r] < base) base = h->gtime[2 * r];
                for (; g < end; g++) {
                    double s0 = t_prev + 1e-9 * (double)(h->gtime[2 * g] - base);
                    double s1 = t_prev + 1e-9 * (double)(~h->gtime[2 * g + 1] - base);
                    if (h->gtime[2 * g] == ~0ull) s0 = s1 = t_prev; /* a group without a front (none) */
                    if (s1 > t) s1 = t;
                    if (s0 > s1) s0 = s1;
                    sylva__task_log_put(N, g, SYLVA_TASK_BATCH, h->worker, t_queue + s0, t_queue + s1);
                }
            }
            t_prev = t;
        }
    }
    return status;
}

/* SYLVA_FACTOR_PHASES=1: each direct run prints where its host time went
 * (stderr, one line: the preparation, StarPU's resume and the hold, the
 * acquisitions of L, the uploads and queueing, the wait and the reads, the
 * releases, StarPU's pause). */
int sylva__factor_phases_on(void)
{
    static int on = -1;
    return sylva__env_switch("SYLVA_FACTOR_PHASES", 0, &on);
}

int sylva__factor_direct(sylva__numeric *N, const void *A_values, int64_t nnz, int mode, sylva__factor_report *rep,
                         int *taken)
{
    *taken = 0;
    const sylva__plan *pl = N->plan;
    int64_t ng = pl->ngroups;
    if (!sylva__factor_direct_on() || mode != SYLVA_MODE_GPU || pl->dynamic || ng == 0 || N->precision != SYLVA_FLOAT64 ||
        sylva__dist_size() > 1 || sylva__runtime_gpus() != 1 || N->gpu_tile_rows > 0)
        return SYLVA_OK;
    double ph[8] = {sylva__now()};
    for (int64_t g = 0; g < ng; g++) sylva__register_L_group(N, g, STARPU_MAIN_RAM);
    int status = sylva__factor_prepare_gpu(N, mode, nnz);
    if (!status) status = sylva__solve_gpu_plan_ready(N); /* the pivot check's plan */
    if (status) return status;
    ph[6] = sylva__now();
    /* StarPU's workers take part in allocations and transfers, so they run
     * for a first factorization, or when some of L is not on the GPU. A
     * refactorization whose L is all there acquires it without them, and
     * leaves them paused: resumed, 16 workers polling for tasks took the
     * calling thread's core for a scheduler slice (~5 ms) at random points
     * of the run (docs/perf-log.md, "The factorization, v2"). */
    int fresh = N->fhold == NULL;
    int workers = fresh || L_missing(N, N->fhold->node) > 0;
    if (workers) sylva__runtime_hold();
    sylva__factor_hold *h = NULL;
    status = hold_get(N, nnz, &h);
    ph[1] = sylva__now();
    if (status || !h) {
        if (workers) sylva__runtime_release();
        return status;
    }
    *taken = 1;
    rep->tasks = 0;
    sylva__stats_reset();
    status = sylva__task_log_start(N, ng);
    int64_t acquired = 0;
    for (; acquired < ng && !status; acquired++) {
        status = SYLVA_STARPU(starpu_data_acquire_on_node(N->L[acquired], h->node, STARPU_W));
        if (status) break;
        h->L[acquired] = sylva__buf_ptr(starpu_data_get_interface_on_node(N->L[acquired], (unsigned)h->node));
    }
    double uploaded = 0;
    int prev = 0;
    ph[2] = sylva__now();
    if (!status) status = sylva__gpu_device_enter(h->device, &prev);
    if (!status) {
        status = h->uploaded ? refresh_tree_groups(h, &uploaded) : upload_blobs(h, &uploaded);
        if (!status) status = sylva__gpu_context_reset(h->ctx);
        sylva__gpu_context_sample(h->ctx);
        double t_queue = sylva__task_log_now(N);
        if (!status) status = sylva__gpu_copy_up((void *)(h->arena + h->a_at), A_values, (size_t)nnz * sizeof(double),
                                                 h->stream);
        if (!status) status = run_groups(h);
        ph[3] = sylva__now();
        if (!status) status = queue_pivots(h); /* waits for the stream */
        if (!status) status = read_run(h, t_queue, rep);
        sylva__gpu_device_leave(prev);
    }
    ph[4] = sylva__now();
    for (int64_t g = 0; g < acquired; g++) starpu_data_release_on_node(N->L[g], h->node);
    ph[5] = sylva__now();
    sylva__stats_read(rep);
    if (workers) sylva__runtime_release();
    ph[7] = sylva__now();
    uploaded += (double)nnz * sizeof(double);
    rep->bytes_to_device += uploaded;
    rep->tasks_gpu = rep->tasks_cpu = 0;
    rep->gpu_busy = rep->gpu_seconds[0] + rep->gpu_seconds[1];
    rep->peak_device = (double)sylva__gpu_context_peak(h->ctx);
    int d = sylva__gpu_index(h->device);
    if (d >= 0) {
        rep->gpu[d].device = h->device;
        rep->gpu[d].busy_seconds = rep->gpu_busy;
        rep->gpu[d].flops = pl->tree->flops;
        rep->gpu[d].factor_bytes = (double)pl->l_off[pl->tree->nfronts] * (double)N->elem;
        rep->gpu[d].peak_device_bytes = rep->peak_device;
        rep->gpu[d].bytes_from_host += uploaded;
    }
    N->on_device = 1;
    if (sylva__factor_phases_on())
        fprintf(stderr,
                "sylva direct%s: prepare %.3f ms, resume+hold %.3f ms, acquire %.3f ms (%lld groups, %lld runs), "
                "upload+queue %.3f ms, wait+read %.3f ms (GPU %.3f ms), release %.3f ms, pause %.3f ms\n",
                fresh ? " (first)" : "", 1e3 * (ph[6] - ph[0]), 1e3 * (ph[1] - ph[6]), 1e3 * (ph[2] - ph[1]),
                (long long)ng, (long long)h->nruns, 1e3 * (ph[3] - ph[2]), 1e3 * (ph[4] - ph[3]),
                1e3 * rep->gpu_busy, 1e3 * (ph[5] - ph[4]), 1e3 * (ph[7] - ph[5]));
    if (N->progress && !status) N->progress(N->progress_arg, "factorize", 1);
    return status;
}
