/* solve_dist.c — the solve over the ranks of a distributed factorization
 * (runtime.h's sylva__numeric_solve_serve / _end and solve_run.c's
 * sylva__solve_dist_block; the schedule and the steps in solve_dist.h).
 * L never moves: every front is solved on the rank that holds it.
 *
 * One block of columns: rank 0 permutes its block and sends each rank the
 * rows of that rank's fronts; each rank solves its units as CPU tasks and
 * its local fronts in the calling thread; the shared fronts are solved in
 * postorder by every rank in step (forward: a reduction of the pivot
 * rows' partial sums onto the owner, which solves them; backward: the
 * owner's solution broadcast); then the local fronts and the units
 * backward, and each rank sends rank 0 the solution rows of its fronts.
 * A large front solved in the calling thread (a local or shared one) has
 * its L21 product cut into slices, one task per CPU worker (the largest
 * fronts, read once a sweep, would otherwise be one core's reads).
 * Rank 0 drives (the solve and its refinement run there, each block and
 * each correction solve through here); the other ranks serve blocks until
 * rank 0 ends. Every step is collective; the statuses are agreed before
 * the first message and at the end of each block, so no rank waits on one
 * that failed. Bytes sent between ranks are counted here.
 */
#include <stdlib.h>
#include <string.h>

#include "blas.h"
#include "front_cpu.h"
#include "runtime_internal.h"
#include "solve_dist.h"
#include "solve_partial.h"

#define SYLVA_DOUBLE
#include "t_solve_dist.c"
#define SYLVA_SINGLE
#include "t_solve_dist.c"

/* Message tags (sylva's own communicator). */
#define TAG_ROWS_OUT 11
#define TAG_ROWS_BACK 12

/* One block's run, shared with its tasks. */
typedef struct drun {
    const sylva__plan *pl;
    const sylva__solve_dist_plan *dp;
    const void *L;
    int single;
    size_t es;
    int64_t nb;
    void *X;       /* n × nb, permuted: this rank's rows */
    void *sinks;   /* per unit: sink_off rows × nb */
    void *T;       /* (workers + 1) × max_m × nb: one per worker, the last the caller's */
    int64_t tsize; /* scalars of one T */
    int nslices;        /* tasks sharing a large front's product (0: none) */
    int64_t slice_min;  /* the product's entries from which a front is cut */
    struct starpu_task *stasks;
    struct slice_args *sargs;
} drun;

typedef struct slice_args {
    const struct drun *run;
    int64_t f, lo, hi;
    int backward;
} slice_args;

typedef struct unit_args {
    const drun *run;
    int64_t unit;
    int backward;
} unit_args;

static void *slot(const drun *r, void *base, int64_t scalars) { return (char *)base + (size_t)scalars * r->es; }

static void unit_cpu(void *buffers[], void *cl_arg)
{
    (void)buffers;
    const unit_args *a = cl_arg;
    const drun *r = a->run;
    const sylva__solve_dist_plan *dp = r->dp;
    int64_t u = a->unit, first = dp->unit_first[u], root = dp->unit_root[u], n = r->pl->tree->n;
    void *T = slot(r, r->T, (int64_t)starpu_worker_get_id() * r->tsize);
    void *sink = slot(r, r->sinks, dp->sink_off[u] * r->nb);
    if (r->single) {
        if (a->backward) sylva__s_solve_dist_unit_backward(r->pl, r->L, first, root, r->nb, r->X, n, T);
        else sylva__s_solve_dist_unit_forward(r->pl, r->L, first, root, r->nb, r->X, n, T, sink);
    } else {
        if (a->backward) sylva__d_solve_dist_unit_backward(r->pl, r->L, first, root, r->nb, r->X, n, T);
        else sylva__d_solve_dist_unit_forward(r->pl, r->L, first, root, r->nb, r->X, n, T, sink);
    }
}

static struct starpu_codelet unit_codelet = {
    .cpu_funcs = {unit_cpu},
    .nbuffers = 0,
    .name = "sylva_solve_dist_unit",
};

/* Every unit in one direction, as tasks; waits for them all. */
static int run_units(const drun *r, int backward, struct starpu_task *tasks, unit_args *args)
{
    int64_t nu = r->dp->nunits, submitted = 0;
    int status = SYLVA_OK;
    sylva__runtime_hold(); /* workers are paused between phases (init.c) */
    for (int64_t u = 0; u < nu && !status; u++) {
        args[u] = (unit_args){r, u, backward};
        struct starpu_task *task = &tasks[u];
        starpu_task_init(task);
        task->cl = &unit_codelet;
        task->cl_arg = &args[u];
        task->cl_arg_size = sizeof args[u];
        task->detach = 0;
        task->destroy = 0;
        task->name = backward ? "solve_dist_bwd" : "solve_dist_fwd";
        if (!(status = SYLVA_STARPU(starpu_task_submit(task)))) submitted++;
    }
    for (int64_t u = 0; u < submitted; u++) {
        int rc = starpu_task_wait(&tasks[u]);
        if (!status && rc) status = SYLVA_STARPU(rc);
        starpu_task_clean(&tasks[u]);
    }
    sylva__runtime_release();
    return status;
}

/* The caller's workspace (the last T). */
static void *caller_T(const drun *r) { return slot(r, r->T, (int64_t)starpu_worker_get_count() * r->tsize); }

/* Entries of L21 from which a front's product is cut into slices (below,
 * a task's overhead outweighs a slice's share of the reads). */
#define SLICE_MIN_ENTRIES ((int64_t)1 << 20)

/* Rows (forward) or columns (backward) lo..hi of front f's L21 product. */
static void slice_here(const drun *r, int64_t f, int backward, int64_t lo, int64_t hi)
{
    int64_t n = r->pl->tree->n;
    if (r->single) sylva__s_solve_dist_slice(r->pl, r->L, f, backward, lo, hi, r->nb, r->X, n, caller_T(r));
    else sylva__d_solve_dist_slice(r->pl, r->L, f, backward, lo, hi, r->nb, r->X, n, caller_T(r));
}

static void slice_cpu(void *buffers[], void *cl_arg)
{
    (void)buffers;
    const slice_args *a = cl_arg;
    slice_here(a->run, a->f, a->backward, a->lo, a->hi);
}

static struct starpu_codelet slice_codelet = {
    .cpu_funcs = {slice_cpu},
    .nbuffers = 0,
    .name = "sylva_solve_dist_slice",
};

/* Front f's L21 product in slices over the CPU workers (rows of L21
 * forward, its columns backward), waited for; the slices StarPU refuses
 * are done here (a backward slice subtracts: each runs exactly once). */
static void slices(const drun *r, int64_t f, int backward)
{
    const sylva__front *fr = &r->pl->tree->fronts[f];
    int64_t len = backward ? fr->k : fr->m - fr->k, ns = r->nslices, submitted = 0;
    sylva__runtime_hold();
    for (; submitted < ns; submitted++) {
        int64_t i = submitted;
        r->sargs[i] = (slice_args){r, f, len * i / ns, len * (i + 1) / ns, backward};
        struct starpu_task *task = &r->stasks[i];
        starpu_task_init(task);
        task->cl = &slice_codelet;
        task->cl_arg = &r->sargs[i];
        task->cl_arg_size = sizeof r->sargs[i];
        task->detach = 0;
        task->destroy = 0;
        task->name = backward ? "solve_dist_slice_bwd" : "solve_dist_slice_fwd";
        if (starpu_task_submit(task)) break;
    }
    for (int64_t i = submitted; i < ns; i++) slice_here(r, f, backward, len * i / ns, len * (i + 1) / ns);
    for (int64_t i = 0; i < submitted; i++) {
        int rc = starpu_task_wait(&r->stasks[i]); /* fails only on a detached task: these are not */
        (void)rc;
        starpu_task_clean(&r->stasks[i]);
    }
    sylva__runtime_release();
}

/* A large front's step in parts: pivot block here, L21's product in
 * slices, the CB rows scattered (forward) or gathered (backward) here. */
static void front_step_sliced(const drun *r, int64_t f, int backward)
{
    const sylva__tree *t = r->pl->tree;
    const sylva__front *fr = &t->fronts[f];
    int64_t n = t->n, rr = fr->m - fr->k;
    const int64_t *rows = t->rows + fr->row_off + fr->k;
    void *T = caller_T(r);
    if (!backward) {
        if (r->single) sylva__s_solve_dist_pivots(r->pl, r->L, f, 0, r->nb, r->X, n);
        else sylva__d_solve_dist_pivots(r->pl, r->L, f, 0, r->nb, r->X, n);
        slices(r, f, 0);
        if (r->single) sylva__s_solve_scatter_sub_cpu(rr, r->nb, rows, T, rr, r->X, n);
        else sylva__d_solve_scatter_sub_cpu(rr, r->nb, rows, T, rr, r->X, n);
    } else {
        if (r->single) sylva__s_solve_gather_cpu(rr, r->nb, rows, r->X, n, T, rr);
        else sylva__d_solve_gather_cpu(rr, r->nb, rows, r->X, n, T, rr);
        slices(r, f, 1);
        if (r->single) sylva__s_solve_dist_pivots(r->pl, r->L, f, 1, r->nb, r->X, n);
        else sylva__d_solve_dist_pivots(r->pl, r->L, f, 1, r->nb, r->X, n);
    }
}

/* One front's step in the calling thread. */
static void front_step(const drun *r, int64_t f, int backward)
{
    const sylva__front *fr = &r->pl->tree->fronts[f];
    if (r->nslices > 0 && fr->m > fr->k && (fr->m - fr->k) * fr->k >= r->slice_min) {
        front_step_sliced(r, f, backward);
        return;
    }
    int64_t n = r->pl->tree->n;
    void *T = caller_T(r);
    if (r->single) {
        if (backward) sylva__s_solve_front_backward(r->pl, r->L, f, r->nb, r->X, n, T);
        else sylva__s_solve_front_forward(r->pl, r->L, f, r->nb, r->X, n, T);
    } else {
        if (backward) sylva__d_solve_front_backward(r->pl, r->L, f, r->nb, r->X, n, T);
        else sylva__d_solve_front_forward(r->pl, r->L, f, r->nb, r->X, n, T);
    }
}

/* A shared front's pivot rows of X into buf (k × nb) or back. */
static void pivots_copy(const drun *r, int64_t f, void *buf, int to_x)
{
    const sylva__front *fr = &r->pl->tree->fronts[f];
    int64_t n = r->pl->tree->n;
    for (int64_t c = 0; c < r->nb; c++) {
        void *x = slot(r, r->X, fr->first_col + c * n), *b = slot(r, buf, c * fr->k);
        memcpy(to_x ? x : b, to_x ? b : x, (size_t)fr->k * r->es);
    }
}

/* The shared fronts in step: forward (postorder; reduction onto the owner)
 * or backward (reverse; the owner's solution broadcast). */
static int shared_fronts(const drun *r, int backward, void *buf, double *sent)
{
    const sylva__solve_dist_plan *dp = r->dp;
    int status = SYLVA_OK;
    for (int64_t i = 0; i < dp->nshared && !status; i++) {
        int64_t f = dp->shared[backward ? dp->nshared - 1 - i : i];
        int o = dp->owner[f];
        int64_t count = r->pl->tree->fronts[f].k * r->nb;
        if (backward) {
            if (o == dp->me) {
                front_step(r, f, 1);
                pivots_copy(r, f, buf, 0);
                *sent += (double)count * (double)r->es * (dp->nranks - 1);
            }
            status = sylva__dist_bcast_from(buf, count * (int64_t)r->es, o);
            if (!status && o != dp->me) pivots_copy(r, f, buf, 1);
        } else {
            pivots_copy(r, f, buf, 0);
            if (o != dp->me) *sent += (double)count * (double)r->es;
            status = sylva__dist_reduce_sum(buf, count, r->single, o);
            if (!status && o == dp->me) {
                pivots_copy(r, f, buf, 1);
                front_step(r, f, 0);
            }
        }
    }
    return status;
}

static void pack(const drun *r, int rank, int unpack, void *P)
{
    if (r->single) sylva__s_solve_dist_pack(r->dp, r->pl->tree, rank, unpack, r->nb, r->X, r->pl->tree->n, P);
    else sylva__d_solve_dist_pack(r->dp, r->pl->tree, rank, unpack, r->nb, r->X, r->pl->tree->n, P);
}

/* Rank 0's B (user's numbering) permuted into its X (to_x) or back. */
static void permute(const drun *r, void *B, int64_t ldb, int to_x)
{
    if (r->single) sylva__s_solve_dist_permute(r->pl->tree, to_x, r->nb, r->X, B, ldb);
    else sylva__d_solve_dist_permute(r->pl->tree, to_x, r->nb, r->X, B, ldb);
}

/* Rows out from rank 0 (out) or back to it, one message per rank. */
static int move_rows(const drun *r, void *P, int out, double *sent)
{
    const sylva__solve_dist_plan *dp = r->dp;
    int status = SYLVA_OK;
    for (int q = 1; q < dp->nranks && !status; q++) {
        int64_t bytes = dp->own_rows[q] * r->nb * (int64_t)r->es;
        if (out && dp->me == 0) pack(r, q, 0, P);
        if (!out && dp->me == q) pack(r, q, 0, P);
        if (dp->me == (out ? 0 : q)) *sent += (double)bytes;
        status = sylva__dist_send_recv(P, bytes, out ? 0 : q, out ? q : 0, out ? TAG_ROWS_OUT : TAG_ROWS_BACK);
        if (!status && ((out && dp->me == q) || (!out && dp->me == 0))) pack(r, q, 1, P);
    }
    return status;
}

/* The rows of X that are not this rank's set to zero (rank 0 after it
 * has sent them): the ranks' sums then add each right-hand side once. */
static void keep_own_rows(const drun *r)
{
    const sylva__tree *t = r->pl->tree;
    for (int64_t f = 0; f < t->nfronts; f++) {
        if (r->dp->owner[f] == r->dp->me) continue;
        const sylva__front *fr = &t->fronts[f];
        for (int64_t c = 0; c < r->nb; c++) memset(slot(r, r->X, fr->first_col + c * t->n), 0, (size_t)fr->k * r->es);
    }
}

/* The schedule for this rank and worker count (kept in N). */
static int schedule(sylva__numeric *N, const sylva__solve_dist_plan **out)
{
    int me = sylva__dist_rank(), nranks = sylva__dist_size(), workers = (int)starpu_cpu_worker_get_count();
    sylva__solve_dist_plan *dp = N->dsolve;
    if (dp && (dp->me != me || dp->nranks != nranks || dp->workers != workers)) {
        sylva__solve_dist_plan_free(dp);
        N->dsolve = dp = NULL;
    }
    int status = dp ? SYLVA_OK
                    : sylva__solve_dist_plan_build(N->plan, N->owner, me, nranks, workers, &N->dsolve);
    *out = N->dsolve;
    return status;
}

int sylva__solve_dist_block(sylva__numeric *N, int64_t nb, void *B, int64_t ldb, double *bytes)
{
    const sylva__solve_dist_plan *dp = NULL;
    int status = N->owner ? schedule(N, &dp)
                          : sylva__fail(SYLVA_ERR_RUNTIME, "distributed solve before a distributed factorization");
    const sylva__tree *t = N->plan->tree;
    drun r = {.pl = N->plan, .dp = dp, .L = N->values, .single = N->precision == SYLVA_FLOAT32, .es = N->elem,
              .nb = nb};
    int64_t shared_max = 0, nu = dp ? dp->nunits : 0;
    for (int64_t i = 0; dp && i < dp->nshared; i++)
        if (t->fronts[dp->shared[i]].k > shared_max) shared_max = t->fronts[dp->shared[i]].k;
    void *buf = NULL;
    struct starpu_task *tasks = NULL;
    unit_args *args = NULL;
    double to_host; /* after a GPU factorization, this rank's part of L comes to its host, once */
    if (!status) status = sylva__numeric_own_to_host(N, &to_host);
    if (!status) {
        size_t workers = starpu_worker_get_count() + 1;
        r.tsize = (dp->max_m > 0 ? dp->max_m : 1) * nb;
        r.X = sylva__calloc((size_t)(t->n * nb) + 1, r.es);
        r.sinks = sylva__calloc((size_t)(dp->sink_off[nu] * nb) + 1, r.es);
        r.T = sylva__malloc(workers * (size_t)r.tsize, r.es);
        int64_t bufs = dp->max_own_rows > shared_max ? dp->max_own_rows : shared_max;
        buf = sylva__malloc((size_t)(bufs * nb) + 1, r.es);
        tasks = sylva__calloc((size_t)nu + 1, sizeof *tasks);
        args = sylva__calloc((size_t)nu + 1, sizeof *args);
        /* SYLVA_SOLVE_DIST_SLICES (a test and measurement switch): 0 keeps
         * every front in one thread, N > 0 cuts every front with CB rows
         * into N slices; unset, the large ones into one per CPU worker. */
        const char *sl = getenv("SYLVA_SOLVE_DIST_SLICES");
        int forced = sl ? atoi(sl) : -1, ncpu = (int)starpu_cpu_worker_get_count();
        r.nslices = forced >= 0 ? forced : ncpu > 1 ? ncpu : 0;
        r.slice_min = forced > 0 ? 1 : SLICE_MIN_ENTRIES;
        r.stasks = sylva__calloc((size_t)r.nslices + 1, sizeof *r.stasks);
        r.sargs = sylva__calloc((size_t)r.nslices + 1, sizeof *r.sargs);
        if (!r.X || !r.sinks || !r.T || !buf || !tasks || !args || !r.stasks || !r.sargs)
            status = sylva__fail(SYLVA_ERR_NO_MEMORY,
                                 "out of memory for a distributed solve of %lld right-hand sides (n = %lld)",
                                 (long long)nb, (long long)t->n);
    }
    /* Every rank has its room, or every rank stops here. */
    if ((status = sylva__dist_agree(status))) goto out;
    double sent = 0;
    int failed = SYLVA_OK;
    if (dp->me == 0) permute(&r, B, ldb, 1);
    status = move_rows(&r, buf, 1, &sent);
    if (dp->me == 0) keep_own_rows(&r);
    /* A task that fails leaves its rows wrong, not the others waiting: the
     * messages go on and the statuses are agreed at the end. */
    if (!status) failed = run_units(&r, 0, tasks, args);
    for (int64_t u = 0; !status && u < nu; u++) {
        const sylva__front *root = &t->fronts[dp->unit_root[u]];
        int64_t rs = root->m - root->k;
        const int64_t *srows = t->rows + root->row_off + root->k;
        void *sink = slot(&r, r.sinks, dp->sink_off[u] * nb);
        if (r.single) sylva__s_solve_scatter_sub_cpu(rs, nb, srows, sink, rs > 0 ? rs : 1, r.X, t->n);
        else sylva__d_solve_scatter_sub_cpu(rs, nb, srows, sink, rs > 0 ? rs : 1, r.X, t->n);
    }
    for (int64_t i = 0; !status && i < dp->nlocal; i++) front_step(&r, dp->local[i], 0);
    if (!status) status = shared_fronts(&r, 0, buf, &sent);
    if (!status) status = shared_fronts(&r, 1, buf, &sent);
    for (int64_t i = dp->nlocal - 1; !status && i >= 0; i--) front_step(&r, dp->local[i], 1);
    if (!status && !failed) failed = run_units(&r, 1, tasks, args);
    if (!status) status = move_rows(&r, buf, 0, &sent);
    if (!status && dp->me == 0) permute(&r, B, ldb, 0);
    if (!status) status = failed;
    if (!(status = sylva__dist_agree(status)) && !(status = sylva__dist_sum_double(&sent, 1)) && bytes)
        *bytes += sent;
out:
    free(r.X);
    free(r.sinks);
    free(r.T);
    free(r.stasks);
    free(r.sargs);
    free(buf);
    free(tasks);
    free(args);
    return status;
}

/* The block header rank 0 broadcasts: its columns, 0 to end. */
static int header(int64_t *nb) { return sylva__dist_bcast(nb, (int64_t)sizeof *nb); }

int sylva__solve_dist_drive(sylva__numeric *N, int64_t nb, void *B, int64_t ldb, double *bytes)
{
    int status = header(&nb);
    return status ? status : sylva__solve_dist_block(N, nb, B, ldb, bytes);
}

int sylva__numeric_solve_end(void)
{
    int64_t nb = 0;
    return header(&nb);
}

int sylva__numeric_solve_serve(sylva__numeric *N)
{
    int status = SYLVA_OK;
    for (;;) {
        int64_t nb = 0;
        int st = header(&nb);
        if (st) return st;
        if (nb <= 0) return status;
        if ((st = sylva__solve_dist_block(N, nb, NULL, 0, NULL))) status = st;
    }
}
