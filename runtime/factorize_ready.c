/* factorize_ready.c — the factorization under a dynamic policy (`ready`):
 * batches are cut while it runs, from the pool of fronts whose children are
 * done (batching/ready_pool.c), instead of being fixed at analysis time.
 *
 * Mechanism (pull-based, one scheduler thread): the thread that called the
 * factorization cuts and submits every batch; StarPU's task callbacks only
 * report which batch ended (a queue under a mutex, and a condition
 * variable). The thread cuts a batch as soon as a bin of similar-sized
 * ready fronts holds batch_flops, a large front alone as soon as it is
 * ready, and a partial batch (the fullest bin) whenever fewer batches are
 * in flight than there are workers that could run one — a worker would
 * otherwise idle; then it sleeps until a batch ends, marks its fronts done
 * (their parents may join the pool) and cuts again. A tiled large front
 * (CPU-only runs) has ended when its L is readable again after its tile
 * tasks (starpu_data_acquire_cb). Callbacks never submit, so no StarPU call
 * is made from a worker thread and the plan has a single writer.
 *
 * Each batch is appended to the run's plan (batching/plan_grow.c: its L
 * slice next in L, its CB pool, its dependency list) before its task is
 * submitted, so the group codelet, its CPU twin and the GPU run read it
 * exactly as a static plan's group. On GPUs each batch's blob is built
 * when it is cut and uploaded with its task (a static plan's are built once
 * per analysis), and its workspace comes from STARPU_SCRATCH handles by
 * power-of-two size class. The run's plan is checked against the plan
 * contract at the end and kept as the factor's layout (N->plan).
 *
 * Failures as in factorize.c: a refused submission or a task error stops
 * the cutting; what is in flight is waited for and cleaned up; a front that
 * is not positive definite only spoils its ancestors.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "runtime_internal.h"

enum { WORK_CLASSES = 40, WORK_MIN_CLASS = 12 }; /* 4 KiB .. 512 GiB: sizes StarPU's uint32 element count holds */

/* A batch's task arguments and the run it belongs to (callback argument). */
typedef struct ready_task {
    sylva__group_args a; /* the codelet's cl_arg */
    struct ready_run *run;
} ready_task;

typedef struct ready_run {
    sylva__numeric *N;
    sylva__plan *pl; /* the plan being cut (N->run_plan) */
    sylva__ready_pool *pool;
    sylva__policy_params pp;
    int mode, gpu, workers;
    int64_t tile_rows;
    starpu_data_handle_t A, *CB;
    int64_t *cb_left; /* per group: its CBs that no submitted batch has read yet */
    ready_task *tasks;
    struct starpu_data_descr *descr;
    double **child_ptrs;
    sylva__tiled **tiled;
    void **cbmem;
    int64_t *cut;
    /* GPU modes: the blobs of the batches cut, their handles, workspaces. */
    sylva__gpu_plan gp;
    void **levels;
    starpu_data_handle_t *maps;
    starpu_data_handle_t work[WORK_CLASSES];
    /* Batches that ended and are not yet handled (callbacks → this thread). */
    starpu_pthread_mutex_t lock;
    starpu_pthread_cond_t cond;
    int64_t *ended, *handling, nended;
    int64_t in_flight;
} ready_run;

static void push_ended(ready_run *r, int64_t g)
{
    STARPU_PTHREAD_MUTEX_LOCK(&r->lock);
    r->ended[r->nended++] = g;
    STARPU_PTHREAD_COND_SIGNAL(&r->cond);
    STARPU_PTHREAD_MUTEX_UNLOCK(&r->lock);
}

/* Callback of a batch (or untiled large front) task. */
static void task_ended(void *arg)
{
    ready_task *t = arg;
    sylva__group_done(&t->a);
    push_ended(t->run, t->a.group);
}

/* A tiled front has ended: its L is readable after its tile tasks. */
static void tiled_ended(void *arg)
{
    ready_task *t = arg;
    starpu_data_release(t->run->N->L[t->a.group]);
    push_ended(t->run, t->a.group);
}

/* Workers that may run a batch task in this mode. */
static int batch_workers(int mode)
{
    int cpu = (int)starpu_cpu_worker_get_count(), gpu = (int)starpu_cuda_worker_get_count();
    int w = mode == SYLVA_MODE_CPU ? cpu : mode == SYLVA_MODE_GPU ? gpu : cpu + gpu;
    return w > 0 ? w : 1;
}

/* Group g's blob, its handle and its workspace handle (GPU modes). */
static int prepare_gpu_group(ready_run *r, int64_t g, sylva__group_args *a, struct starpu_data_descr *descr,
                             int *nbuf)
{
    sylva__group_desc *d = &r->gp.groups[g];
    int status = sylva__gpu_group_build(r->pl, g, d, &r->gp.blobs[g], &r->levels[g]);
    if (status) return status;
    r->gp.ngroups = g + 1;
    r->gp.blob_bytes += d->lay.bytes;
    starpu_vector_data_register(&r->maps[g], STARPU_MAIN_RAM, (uintptr_t)r->gp.blobs[g],
                                (uint32_t)((d->lay.bytes + 15) / 16), 16);
    int64_t native = 0;
    if (d->large) {
        native = sylva__gpu_workers_native_bytes(d->level_max_k[0]);
        if (native < 0)
            return sylva__fail(SYLVA_ERR_RUNTIME, "cuSOLVER gave no workspace size for POTRF of %d",
                               d->level_max_k[0]);
    }
    size_t need = sylva__group_workspace_bytes(d, 0) + (size_t)native + 256;
    int c = WORK_MIN_CLASS;
    while (c < WORK_CLASSES - 1 && ((size_t)1 << c) < need) c++;
    if (((size_t)1 << c) < need)
        return sylva__fail(SYLVA_ERR_NO_MEMORY, "batch %lld needs a %.1f GB workspace", (long long)g, need / 1e9);
    if (!r->work[c])
        starpu_vector_data_register(&r->work[c], -1, 0, (uint32_t)(((size_t)1 << c) / 256), 256);
    a->buf_maps = *nbuf;
    descr[(*nbuf)++] = (struct starpu_data_descr){r->maps[g], STARPU_R};
    a->buf_work = *nbuf;
    descr[(*nbuf)++] = (struct starpu_data_descr){r->work[c], STARPU_SCRATCH};
    return SYLVA_OK;
}

/* The batch's own CB pool: temporary, or host memory for a tiled front
 * (as in factorize.c: StarPU 1.3 plans partitions only where a handle has
 * memory). */
static int register_pool(ready_run *r, int64_t g, int tiled)
{
    const sylva__plan *pl = r->pl;
    sylva__numeric *N = r->N;
    for (int64_t q = pl->group_ptr[g]; q < pl->group_ptr[g + 1]; q++) {
        const sylva__front *f = &pl->tree->fronts[pl->front_list[q]];
        if (f->m > f->k && f->parent >= 0) r->cb_left[g]++;
    }
    if (pl->cb_size[g] == 0) return SYLVA_OK;
    if (!tiled) {
        starpu_vector_data_register(&r->CB[g], -1, 0, sylva__cb_class(pl->cb_size[g]), N->elem);
        return SYLVA_OK;
    }
    const sylva__front *f = &pl->tree->fronts[pl->front_list[pl->group_ptr[g]]];
    uint32_t rr = (uint32_t)(f->m - f->k);
    r->cbmem[g] = sylva__malloc((size_t)rr * rr, N->elem);
    if (!r->cbmem[g]) return sylva__fail(SYLVA_ERR_NO_MEMORY, "out of memory for a CB of %u rows", rr);
    starpu_matrix_data_register(&r->CB[g], STARPU_MAIN_RAM, (uintptr_t)r->cbmem[g], rr, rr, rr, N->elem);
    return SYLVA_OK;
}

/* Append the n fronts in r->cut as the next batch and submit its task. */
static int submit_batch(ready_run *r, int64_t n, sylva__factor_report *rep)
{
    sylva__numeric *N = r->N;
    const sylva__plan *pl = r->pl;
    int64_t g = sylva__plan_grow_add(r->pl, r->cut, n, &r->pp);
    if (g < 0) return SYLVA_ERR_RUNTIME;
    sylva__register_L_group(N, g, STARPU_MAIN_RAM);
    int tile_it = !r->gpu && pl->large[g] && r->tile_rows > 0;
    int status = register_pool(r, g, tile_it);
    if (status) return status;
    ready_task *t = &r->tasks[g];
    sylva__group_args *a = &t->a;
    t->run = r;
    sylva__group_args_init(a, pl, N, g, tile_it, r->child_ptrs + pl->dep_ptr[g], sylva__group_cost(pl, g));
    a->gpu = r->gpu ? &r->gp : NULL;
    struct starpu_data_descr *descr = r->descr;
    int nbuf = 0;
    descr[nbuf++] = (struct starpu_data_descr){r->A, STARPU_R};
    descr[nbuf++] = (struct starpu_data_descr){N->L[g], STARPU_W};
    if (r->gpu && (status = prepare_gpu_group(r, g, a, descr, &nbuf))) return status;
    if (pl->cb_size[g] > 0) {
        a->buf_cb = nbuf;
        descr[nbuf++] = (struct starpu_data_descr){r->CB[g], STARPU_W};
    }
    a->buf_child0 = nbuf;
    for (int64_t d = pl->dep_ptr[g]; d < pl->dep_ptr[g + 1]; d++)
        descr[nbuf++] = (struct starpu_data_descr){r->CB[pl->dep_list[d]], STARPU_R};
    uint32_t where = sylva__group_where(r->mode, pl->large[g]);
    status = SYLVA_STARPU(starpu_task_insert(
        &sylva__group_codelet, STARPU_CL_ARGS_NFREE, a, sizeof *a, STARPU_DATA_MODE_ARRAY, descr, nbuf,
        STARPU_EXECUTE_WHERE, where, STARPU_FLOPS, pl->group_flops[g], STARPU_NAME,
        pl->large[g] ? "front" : "batch", STARPU_CALLBACK_WITH_ARG_NFREE, tile_it ? sylva__group_done : task_ended,
        tile_it ? (void *)a : (void *)t, 0));
    if (status) {
        if (pl->cb_size[g] > 0) starpu_data_unregister_submit(r->CB[g]);
        r->CB[g] = NULL;
        return status;
    }
    rep->tasks++;
    r->in_flight++;
    if (tile_it) {
        sylva__tiled_spec spec = sylva__tiled_spec_of(N, r->CB[g], g, r->tile_rows, 0, a);
        r->tiled[g] = sylva__tiled_submit(&spec, &status);
        int acq = SYLVA_STARPU(starpu_data_acquire_cb(N->L[g], STARPU_R, tiled_ended, t));
        if (acq) r->in_flight--; /* never reported: the loop must not wait for it */
        if (!status) status = acq;
    }
    /* The CB pools this batch read: unregistered once every CB in them is read. */
    for (int64_t q = pl->group_ptr[g]; q < pl->group_ptr[g + 1]; q++) {
        int64_t f = pl->front_list[q];
        for (int64_t c = pl->tree->child_ptr[f]; c < pl->tree->child_ptr[f + 1]; c++) {
            const sylva__front *ch = &pl->tree->fronts[pl->tree->child_list[c]];
            int64_t gc = pl->front_group[pl->tree->child_list[c]];
            if (ch->m > ch->k && --r->cb_left[gc] == 0 && r->CB[gc]) {
                starpu_data_unregister_submit(r->CB[gc]);
                r->CB[gc] = NULL;
            }
        }
    }
    return status;
}

/* Cut and submit until every front has ended or the run failed; after a
 * failure, only wait for what is in flight. */
static int drive(ready_run *r, sylva__factor_report *rep)
{
    sylva__numeric *N = r->N;
    int64_t ns = r->pl->tree->nfronts, done = 0;
    int status = SYLVA_OK;
    while (done < ns || r->in_flight > 0) {
        if (!status && __atomic_load_n(&N->failed, __ATOMIC_ACQUIRE))
            status = N->error_set ? sylva__fail(SYLVA_ERR_RUNTIME, "%s", N->error)
                                  : sylva__fail(SYLVA_ERR_NO_MEMORY, "out of memory in a factorization task");
        int64_t n;
        while (!status && (n = sylva__ready_pool_cut(r->pool, r->in_flight < r->workers, r->cut)) > 0)
            status = submit_batch(r, n, rep);
        if (r->in_flight == 0) {
            if (!status && done < ns)
                status = sylva__fail(SYLVA_ERR_RUNTIME, "ready policy stalled: %lld fronts left, none ready",
                                     (long long)(ns - done));
            break;
        }
        STARPU_PTHREAD_MUTEX_LOCK(&r->lock);
        while (r->nended == 0) STARPU_PTHREAD_COND_WAIT(&r->cond, &r->lock);
        int64_t *batch = r->ended, count = r->nended;
        r->ended = r->handling;
        r->handling = batch;
        r->nended = 0;
        STARPU_PTHREAD_MUTEX_UNLOCK(&r->lock);
        for (int64_t i = 0; i < count; i++) {
            const sylva__plan *pl = r->pl;
            int64_t g = batch[i], q0 = pl->group_ptr[g], q1 = pl->group_ptr[g + 1];
            sylva__ready_pool_done(r->pool, pl->front_list + q0, q1 - q0);
            done += q1 - q0;
            r->in_flight--;
        }
    }
    return status;
}

/* A GPU-only run cannot evict what a running task uses. Batches are cut
 * at run time, so only a large front's own need is known up front: its L,
 * its CB and its children's CBs, A, and cuSOLVER's workspace. */
static int check_large_fronts(const sylva__numeric *N, int64_t nnz, const sylva__policy_params *pp)
{
    int worker = starpu_worker_get_by_type(STARPU_CUDA_WORKER, 0);
    if (worker < 0) return SYLVA_OK;
    starpu_ssize_t total = starpu_memory_get_total(starpu_worker_get_memory_node((unsigned)worker));
    const sylva__tree *t = N->plan->tree;
    double es = (double)N->elem;
    for (int64_t f = 0; total > 0 && f < t->nfronts; f++) {
        const sylva__front *fr = &t->fronts[f];
        if (fr->m <= pp->small_front_rows) continue;
        double need = es * ((double)fr->m * (double)fr->k + (double)sylva__cb_class((fr->m - fr->k) * (fr->m - fr->k)) +
                            (double)nnz);
        for (int64_t c = t->child_ptr[f]; c < t->child_ptr[f + 1]; c++) {
            const sylva__front *ch = &t->fronts[t->child_list[c]];
            need += es * (double)sylva__cb_class((ch->m - ch->k) * (ch->m - ch->k));
        }
        int64_t native = sylva__gpu_workers_native_bytes((int)fr->k);
        need += native > 0 ? (double)native : 0;
        if (need > (double)total)
            return sylva__fail(SYLVA_ERR_NO_MEMORY,
                               "front %lld (%lld rows) needs %.1f MB of device memory, more than the %.1f MB "
                               "the GPU may use: raise --device-memory, or run --mode hybrid or --mode cpu",
                               (long long)f, (long long)fr->m, need / 1e6, (double)total / 1e6);
    }
    return SYLVA_OK;
}

static void release(ready_run *r)
{
    int64_t ng = r->pl ? r->pl->ngroups : 0;
    for (int64_t g = 0; g < ng; g++) {
        if (r->tiled) sylva__tiled_free(r->tiled[g]);
        if (r->cbmem) free(r->cbmem[g]);
        if (r->maps && r->maps[g]) starpu_data_unregister_no_coherency(r->maps[g]);
        if (r->gp.blobs) free(r->gp.blobs[g]);
        if (r->levels) free(r->levels[g]);
    }
    for (int c = 0; c < WORK_CLASSES; c++)
        if (r->work[c]) starpu_data_unregister_no_coherency(r->work[c]);
    sylva__ready_pool_free(r->pool);
    free(r->CB);
    free(r->cb_left);
    free(r->tasks);
    free(r->descr);
    free(r->child_ptrs);
    free(r->tiled);
    free(r->cbmem);
    free(r->cut);
    free(r->gp.groups);
    free(r->gp.blobs);
    free(r->levels);
    free(r->maps);
    free(r->ended);
    free(r->handling);
    STARPU_PTHREAD_MUTEX_DESTROY(&r->lock);
    STARPU_PTHREAD_COND_DESTROY(&r->cond);
}

/* A fresh plan for this run; the previous run's L handles go (its layout
 * differs), and N->plan becomes the new plan. */
static int new_run_plan(sylva__numeric *N, const sylva__policy_params *pp)
{
    for (int64_t g = 0; g < N->plan->ngroups; g++)
        if (N->L[g]) {
            starpu_data_unregister_no_coherency(N->L[g]);
            N->L[g] = NULL;
        }
    sylva__plan_free(N->run_plan);
    N->run_plan = NULL;
    N->plan = N->rt->plan;
    int status = sylva__plan_grow_create(N->rt->plan->tree, N->rt->plan->policy, pp, &N->run_plan);
    if (!status) N->plan = N->run_plan;
    return status;
}

int sylva__factor_submit_ready(sylva__numeric *N, const void *A_values, int64_t nnz, int64_t tile_rows,
                               int mode, sylva__factor_report *rep)
{
    const sylva__plan *apl = N->rt->plan;
    const sylva__tree *t = apl->tree;
    int64_t ns = t->nfronts;
    rep->tasks = 0;
    ready_run r;
    memset(&r, 0, sizeof r);
    STARPU_PTHREAD_MUTEX_INIT(&r.lock, NULL);
    STARPU_PTHREAD_COND_INIT(&r.cond, NULL);
    r.N = N;
    r.pp = apl->params;
    r.mode = mode;
    r.gpu = mode != SYLVA_MODE_CPU;
    r.workers = batch_workers(mode);
    r.tile_rows = tile_rows;
    int status = new_run_plan(N, &r.pp);
    if (status) {
        release(&r);
        return status;
    }
    r.pl = N->run_plan;
    if (ns == 0) {
        release(&r);
        return SYLVA_OK;
    }
    if (mode == SYLVA_MODE_GPU && (status = check_large_fronts(N, nnz, &r.pp))) {
        release(&r);
        return status;
    }
    size_t n1 = (size_t)ns + 1;
    r.CB = sylva__calloc(n1, sizeof *r.CB);
    r.cb_left = sylva__calloc(n1, sizeof *r.cb_left);
    r.tasks = sylva__calloc(n1, sizeof *r.tasks);
    r.descr = sylva__malloc(n1 + 6, sizeof *r.descr);
    r.child_ptrs = sylva__calloc(n1, sizeof *r.child_ptrs);
    r.tiled = sylva__calloc(n1, sizeof *r.tiled);
    r.cbmem = sylva__calloc(n1, sizeof *r.cbmem);
    r.cut = sylva__malloc(n1, sizeof *r.cut);
    r.ended = sylva__malloc(n1, sizeof *r.ended);
    r.handling = sylva__malloc(n1, sizeof *r.handling);
    int mem = r.CB && r.cb_left && r.tasks && r.descr && r.child_ptrs && r.tiled && r.cbmem && r.cut &&
              r.ended && r.handling;
    if (mem && r.gpu) {
        r.gp.plan = r.pl;
        r.gp.groups = sylva__calloc(n1, sizeof *r.gp.groups);
        r.gp.blobs = sylva__calloc(n1, sizeof *r.gp.blobs);
        r.levels = sylva__calloc(n1, sizeof *r.levels);
        r.maps = sylva__calloc(n1, sizeof *r.maps);
        mem = r.gp.groups && r.gp.blobs && r.levels && r.maps;
    }
    if (!mem || sylva__ready_pool_create(t, &r.pp, &r.pool)) {
        release(&r);
        return sylva__fail(SYLVA_ERR_NO_MEMORY, "out of memory submitting the factorization");
    }
    sylva__runtime_hold(); /* workers are paused between phases (init.c) */
    if (r.gpu) status = sylva__gpu_workers_reset();
    sylva__stats_reset();
    if (!status) status = sylva__task_log_start(N, ns / 4);
    starpu_vector_data_register(&r.A, STARPU_MAIN_RAM, (uintptr_t)A_values, (uint32_t)(nnz ? nnz : 1), N->elem);
    N->failed = 0;
    memset(N->gpu_seconds, 0, sizeof N->gpu_seconds);
    memset(N->gpu_flops, 0, sizeof N->gpu_flops);
    memset(N->gpu_dev_flops, 0, sizeof N->gpu_dev_flops);
    memset(N->gpu_dev_lbytes, 0, sizeof N->gpu_dev_lbytes);
    N->flops_done = 0;
    if (!status) status = drive(&r, rep);
    int waited = SYLVA_STARPU(starpu_task_wait_for_all());
    if (!status) status = waited;
    for (int64_t g = 0; g < r.pl->ngroups; g++) /* pools whose readers were never cut */
        if (r.CB[g]) starpu_data_unregister_submit(r.CB[g]);
    if (!status && r.pl->group_ptr[r.pl->ngroups] == ns) status = sylva__plan_check(r.pl, &r.pp);
    int read = sylva__factor_read_run(N, rep, r.gpu);
    if (!status) status = read;
    starpu_data_unregister(r.A);
    starpu_task_wait_for_all(); /* the unregistrations submitted above */
    release(&r);
    sylva__runtime_release();
    return status;
}
