/* factorize.c — the numeric factorization through StarPU (the data and task
 * layout is runtime_internal.h's): registers what a run needs, submits one
 * task per group in plan order — on CPU workers, on GPU workers, or on both
 * for StarPU's perfmodels to choose — splitting large fronts into tile tasks
 * on CPU-only runs, unregisters each CB pool after its last reader is
 * submitted, waits (on one GPU building the GPU solve's blob meanwhile,
 * for the pivot check and the solve), and gathers what the GPUs recorded
 * (failed fronts, peak memory) and the run's transfers. Memory: on
 * CPU-only runs a CB pool has exactly the plan's size, a tiled front's CB
 * (host memory of its own) is freed when its last reader ends, and tasks
 * carry priorities falling with their plan position, so that the workers
 * follow the plan's postorder
 * (CBs consumed soon after they are made) whenever the DAG lets them. A
 * task StarPU refuses, or one that could not run (the failed flag, polled
 * between submissions), stops the submission (what was submitted still
 * runs and is waited for); a front that is not positive definite does not:
 * it only spoils its ancestors, so the failing column reported is the same
 * in every run. With several GPUs, a group below the analysis' split runs
 * on the GPU its subtree is mapped to (gpu_map.c), so its CBs stay there.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "runtime_internal.h"

/* CB pools are temporary data: StarPU allocates each where its task runs
 * and keeps freed allocations for reuse by size. Rounding sizes up to the
 * classes 2^(i/4) lets freed pools serve later ones (at most 19% more). */
uint32_t sylva__cb_class(int64_t n)
{
    if (n <= 64) return (uint32_t)n;
    double c = ceil(4.0 * log2((double)n));
    double r = ceil(exp2(c / 4.0));
    return (uint32_t)(r < (double)n ? n : r);
}

/* Group g's L handle, once per factor: a large front's slice as a matrix
 * (so a CPU-only run can tile it), the others as vectors; home in N->values
 * (STARPU_MAIN_RAM), or none (−1: a rank of a distributed run that neither
 * owns nor gathers it). */
void sylva__register_L_group(sylva__numeric *N, int64_t g, int home)
{
    const sylva__plan *pl = N->plan;
    size_t es = N->elem;
    if (N->L[g]) return;
    int64_t lo, len = sylva__plan_group_l(pl, g, &lo);
    uintptr_t at = home < 0 ? 0 : (uintptr_t)((char *)N->values + lo * es);
    if (pl->large[g]) {
        const sylva__front *f = &pl->tree->fronts[pl->front_list[pl->group_ptr[g]]];
        starpu_matrix_data_register(&N->L[g], home, at, (uint32_t)f->m, (uint32_t)f->m, (uint32_t)f->k, es);
    } else {
        starpu_vector_data_register(&N->L[g], home, at, (uint32_t)(len > 0 ? len : 1), es);
    }
}

static void register_L(sylva__numeric *N)
{
    for (int64_t g = 0; g < N->plan->ngroups; g++) sylva__register_L_group(N, g, STARPU_MAIN_RAM);
}

/* The GPU form of the plan (once per analysis) and the workspace handle
 * (once per factor): the largest group's pointer arrays, internal CBs and,
 * for large fronts, cuSOLVER's workspace. */
static int prepare_work(sylva__numeric *N)
{
    int status = sylva__rt_plan_gpu(N->rt);
    if (status || N->work) return status;
    const sylva__gpu_plan *gp = N->rt->gpu;
    int64_t native = 0;
    if (gp->max_large_k > 0) {
        native = sylva__gpu_workers_native_bytes(gp->max_large_k);
        if (native < 0)
            return sylva__fail(SYLVA_ERR_RUNTIME, "cuSOLVER gave no workspace size for POTRF of %d",
                               gp->max_large_k);
    }
    N->work_bytes = gp->max_work + (size_t)native + 256;
    starpu_vector_data_register(&N->work, -1, 0, (uint32_t)((N->work_bytes + 255) / 256), 256);
    return SYLVA_OK;
}

/* A GPU-only run cannot evict what a running task uses: its largest task
 * must fit the device memory StarPU may use. */
static int check_device_memory(const sylva__numeric *N, int64_t nnz)
{
    const sylva__plan *pl = N->plan;
    const sylva__gpu_plan *gp = N->rt->gpu;
    int worker = starpu_worker_get_by_type(STARPU_CUDA_WORKER, 0);
    if (worker < 0) return SYLVA_OK;
    starpu_ssize_t total = starpu_memory_get_total(starpu_worker_get_memory_node((unsigned)worker));
    if (total <= 0) return SYLVA_OK;
    double es = (double)N->elem, worst = 0;
    int64_t worst_g = 0;
    for (int64_t g = 0; g < pl->ngroups; g++) {
        const sylva__group_desc *d = &gp->groups[g];
        double need = (double)d->lay.bytes + es * (double)(d->l_size + d->cb_pool);
        for (int64_t q = pl->dep_ptr[g]; q < pl->dep_ptr[g + 1]; q++)
            need += es * (double)sylva__cb_class(pl->cb_size[pl->dep_list[q]]);
        if (need > worst) {
            worst = need;
            worst_g = g;
        }
    }
    worst += (double)N->work_bytes + es * (double)nnz;
    if (worst <= (double)total) return SYLVA_OK;
    int64_t big = 0;
    for (int64_t q = pl->group_ptr[worst_g]; q < pl->group_ptr[worst_g + 1]; q++)
        if (pl->tree->fronts[pl->front_list[q]].m > big) big = pl->tree->fronts[pl->front_list[q]].m;
    return sylva__fail(SYLVA_ERR_NO_MEMORY,
                       "the largest task (batch %lld: %lld fronts, the largest of %lld rows) needs "
                       "%.1f MB of device memory, more than the %.1f MB the GPU may use: raise "
                       "--device-memory, use smaller batches (--batch-flops), or run --mode hybrid "
                       "or --mode cpu",
                       (long long)worst_g, (long long)(pl->group_ptr[worst_g + 1] - pl->group_ptr[worst_g]),
                       (long long)big, worst / 1e6, (double)total / 1e6);
}

int sylva__factor_prepare_gpu(sylva__numeric *N, int mode, int64_t nnz)
{
    int status = prepare_work(N);
    if (!status && mode == SYLVA_MODE_GPU) status = check_device_memory(N, nnz);
    return status;
}

/* Bytes of the tiled CB of large group g (its one front's (m − k)²). */
size_t sylva__tiled_cb_bytes(const sylva__plan *pl, int64_t g, size_t elem)
{
    const sylva__front *f = &pl->tree->fronts[pl->front_list[pl->group_ptr[g]]];
    return (size_t)(f->m - f->k) * (size_t)(f->m - f->k) * elem;
}

/* Per-run storage, freed by release(). */
typedef struct run {
    starpu_data_handle_t A, *CB;
    int64_t *left;
    int64_t *unread;           /* per group: readers of a tiled CB that have not ended */
    int64_t prio_band;         /* CPU runs: priorities one group's tasks span */
    sylva__group_args *args;
    sylva__tiled **tiled;
    void **cbmem;
    struct starpu_data_descr *descr;
    double **child_ptrs;
    sylva__gpu_masks masks;    /* several GPUs: each GPU's workers */
    const sylva__plan_map *map; /* several GPUs, sylva_gpu_map SUBTREES: the groups' GPUs */
} run;

static void release(run *r, const sylva__plan *pl, size_t elem)
{
    int64_t ng = pl->ngroups;
    if (r->tiled)
        for (int64_t g = 0; g < ng; g++) sylva__tiled_free(r->tiled[g]);
    if (r->cbmem) /* tiled CBs whose readers never ran */
        for (int64_t g = 0; g < ng; g++)
            sylva__host_unmap(__atomic_exchange_n(&r->cbmem[g], NULL, __ATOMIC_ACQ_REL),
                              sylva__tiled_cb_bytes(pl, g, elem));
    free(r->CB);
    free(r->left);
    free(r->unread);
    free(r->args);
    free(r->tiled);
    free(r->cbmem);
    free(r->descr);
    free(r->child_ptrs);
    sylva__gpu_masks_free(&r->masks);
}

/* The group's own CB pool: temporary, or host memory for a tiled front
 * (StarPU 1.3 plans partitions only on nodes where the handle has memory),
 * freed by the last of its readers (cb_read). Temporary pools are rounded
 * to size classes only where StarPU caches freed allocations (GPUs); on
 * the host it frees them at once, so they have the plan's size. */
static int register_cb(sylva__numeric *N, run *r, int64_t g, int tiled, int gpu)
{
    const sylva__plan *pl = N->plan;
    if (pl->cb_size[g] == 0) return SYLVA_OK;
    if (!tiled) {
        uint32_t size = gpu ? sylva__cb_class(pl->cb_size[g]) : (uint32_t)pl->cb_size[g];
        starpu_vector_data_register(&r->CB[g], -1, 0, size, N->elem);
        return SYLVA_OK;
    }
    const sylva__front *f = &pl->tree->fronts[pl->front_list[pl->group_ptr[g]]];
    uint32_t rr = (uint32_t)(f->m - f->k);
    r->cbmem[g] = sylva__host_alloc((size_t)rr * rr, N->elem);
    if (!r->cbmem[g]) return sylva__fail(SYLVA_ERR_NO_MEMORY, "out of memory for a CB of %u rows", rr);
    starpu_matrix_data_register(&r->CB[g], STARPU_MAIN_RAM, (uintptr_t)r->cbmem[g], rr, rr, rr, N->elem);
    r->unread[g] = pl->readers[g];
    return SYLVA_OK;
}

/* A group task ended: the tiled CBs it was the last to read are freed now
 * (nothing touches them after their readers; their handles are
 * unregistered without coherency). */
static void cb_read(const sylva__group_args *a)
{
    const sylva__plan *pl = a->plan;
    for (int64_t d = pl->dep_ptr[a->group]; d < pl->dep_ptr[a->group + 1]; d++) {
        int64_t c = pl->dep_list[d];
        if (__atomic_load_n(&a->cbmem[c], __ATOMIC_ACQUIRE) &&
            __atomic_sub_fetch(&a->cb_unread[c], 1, __ATOMIC_ACQ_REL) == 0)
            sylva__host_unmap(__atomic_exchange_n(&a->cbmem[c], NULL, __ATOMIC_ACQ_REL),
                              sylva__tiled_cb_bytes(pl, c, a->num->elem));
    }
}

/* CPU runs: the priority band of group g (its tasks take base .. base +
 * band − 1), falling with the plan position so that workers take ready
 * tasks in plan order; bands are squeezed when the plan is too long for an
 * int (they may then overlap, which only blurs the order). */
int sylva__group_priority_base(int64_t g, int64_t ng, int64_t band)
{
    const double room = (double)(INT_MAX / 2);
    double rank = (double)(ng - 1 - g);
    if ((double)ng * (double)band <= room) return (int)(rank * (double)band);
    return (int)(rank / (double)ng * (room - (double)band));
}

/* After each group task: its record in the task log, GPU time by kind and
 * flops and L bytes per GPU (StarPU's task profiling), and the progress
 * callback with the flops of finished tasks. */
void sylva__group_done(void *arg)
{
    const sylva__group_args *a = arg;
    sylva__numeric *N = a->num;
    double flops = a->plan->group_flops[a->group];
    /* A tiled front's assembly: on a GPU its tile tasks count its flops. */
    double gpu_flops = a->factor ? flops : 0;
    struct starpu_task *task = starpu_task_get_current();
    const struct starpu_profiling_task_info *p = task ? task->profiling_info : NULL;
    sylva__task_log_add(N, a->group, a->plan->large[a->group] ? SYLVA_TASK_FRONT : SYLVA_TASK_BATCH);
    int on_gpu = p && starpu_worker_get_type(p->workerid) == STARPU_CUDA_WORKER;
    int dev = on_gpu ? sylva__gpu_index(starpu_worker_get_devid(p->workerid)) : -1;
    STARPU_PTHREAD_MUTEX_LOCK(&N->stat_lock);
    if (on_gpu) {
        int kind = a->plan->large[a->group] != 0;
        N->gpu_seconds[kind] += starpu_timing_timespec_delay_us((struct timespec *)&p->start_time,
                                                                (struct timespec *)&p->end_time) * 1e-6;
        N->gpu_flops[kind] += gpu_flops;
    }
    if (dev >= 0) {
        N->gpu_dev_flops[dev] += gpu_flops;
        int64_t lo;
        N->gpu_dev_lbytes[dev] += (double)sylva__plan_group_l(a->plan, a->group, &lo) * (double)N->elem;
    }
    N->flops_done += flops;
    if (N->progress && a->plan->tree->flops > 0)
        N->progress(N->progress_arg, "factorize", N->flops_done / a->plan->tree->flops);
    STARPU_PTHREAD_MUTEX_UNLOCK(&N->stat_lock);
    if (a->cbmem) cb_read(a);
}

uint32_t sylva__group_where(int mode, int large)
{
    /* Hybrid runs let StarPU place batches of small fronts on either kind
     * of worker; a large front stays on a GPU: its CPU twin is one core's
     * dense factorization, never faster, and the perfmodels' calibration
     * would otherwise send some there (measured: a 100³ run did not end in
     * 200 s). */
    return mode == SYLVA_MODE_GPU                ? STARPU_CUDA
           : mode == SYLVA_MODE_HYBRID && large ? STARPU_CUDA
           : mode == SYLVA_MODE_HYBRID          ? STARPU_CPU | STARPU_CUDA
                                                : STARPU_CPU;
}

void sylva__group_args_init(sylva__group_args *a, const sylva__plan *pl, sylva__numeric *N, int64_t g,
                            int tile_it, double **child_ptrs, double cost)
{
    *a = (sylva__group_args){.plan = pl,
                             .num = N,
                             .group = g,
                             .precision = N->precision,
                             .factor = !tile_it,
                             .buf_maps = -1,
                             .buf_work = -1,
                             .buf_cb = -1,
                             .child_ptrs = child_ptrs,
                             .front_info = N->front_info,
                             .failed = &N->failed,
                             .cost = cost};
}

/* GPU runs: the tile rows of large group g's front when it is factored as
 * tile tasks that any GPU may run (front_tiles.c), or 0 (one task on one
 * GPU, the native path). options.gpu_tile_rows: > 0 every large front of
 * more rows, < 0 none; 0 (automatic) the fronts of more than two tiles of
 * SYLVA__GPU_TILE_ROWS that no GPU owns — above the subtree split, or every
 * one under --gpu-map scheduler — when there are several GPUs. */
static int64_t gpu_tile_rows(const sylva__numeric *N, const run *r, int64_t g)
{
    const sylva__plan *pl = N->plan;
    int64_t m = pl->tree->fronts[pl->front_list[pl->group_ptr[g]]].m;
    if (!pl->large[g] || N->gpu_tile_rows < 0) return 0;
    if (N->gpu_tile_rows > 0) return m > N->gpu_tile_rows ? N->gpu_tile_rows : 0;
    if (r->masks.gpus < 2 || sylva__gpu_mask_of(&r->masks, r->map, g)) return 0;
    return m > 2 * SYLVA__GPU_TILE_ROWS ? SYLVA__GPU_TILE_ROWS : 0;
}

static int submit_group(sylva__numeric *N, run *r, int64_t g, int mode, int64_t tile_rows)
{
    const sylva__plan *pl = N->plan;
    int gpu = mode != SYLVA_MODE_CPU;
    int64_t nb = gpu ? gpu_tile_rows(N, r, g) : pl->large[g] ? tile_rows : 0;
    int tile_it = nb > 0;
    int status = register_cb(N, r, g, tile_it && !gpu, gpu);
    if (status) return status;
    struct starpu_data_descr *descr = r->descr;
    sylva__group_args *a = &r->args[g];
    sylva__group_args_init(a, pl, N, g, tile_it, r->child_ptrs + pl->dep_ptr[g], N->rt->cost[g]);
    a->gpu = gpu ? N->rt->gpu : NULL;
    a->cbmem = gpu ? NULL : r->cbmem;
    a->cb_unread = gpu ? NULL : r->unread;
    /* GPU runs keep StarPU's default order (priority 0) they were tuned with. */
    int prio = gpu ? 0 : sylva__group_priority_base(g, pl->ngroups, r->prio_band);
    int nbuf = 0;
    descr[nbuf++] = (struct starpu_data_descr){r->A, STARPU_R};
    descr[nbuf++] = (struct starpu_data_descr){N->L[g], STARPU_W};
    if (gpu) {
        a->buf_maps = nbuf;
        descr[nbuf++] = (struct starpu_data_descr){N->rt->maps[g], STARPU_R};
        a->buf_work = nbuf;
        descr[nbuf++] = (struct starpu_data_descr){N->work, STARPU_SCRATCH};
    }
    if (pl->cb_size[g] > 0) {
        a->buf_cb = nbuf;
        descr[nbuf++] = (struct starpu_data_descr){r->CB[g], STARPU_W};
    }
    a->buf_child0 = nbuf;
    for (int64_t d = pl->dep_ptr[g]; d < pl->dep_ptr[g + 1]; d++)
        descr[nbuf++] = (struct starpu_data_descr){r->CB[pl->dep_list[d]], STARPU_R};
    uint32_t where = sylva__group_where(mode, pl->large[g]);
    const uint32_t *mask = gpu ? sylva__gpu_mask_of(&r->masks, r->map, g) : NULL;
    status = SYLVA_STARPU(starpu_task_insert(
        &sylva__group_codelet, STARPU_CL_ARGS_NFREE, a, sizeof *a, STARPU_DATA_MODE_ARRAY, descr,
        nbuf, STARPU_EXECUTE_WHERE, where, STARPU_TASK_WORKERIDS, mask ? r->masks.words : 0u, mask,
        STARPU_PRIORITY, gpu ? 0 : prio + (int)r->prio_band - 1,
        STARPU_FLOPS, pl->group_flops[g], STARPU_NAME,
        pl->large[g] ? "front" : "batch", STARPU_CALLBACK_WITH_ARG_NFREE, sylva__group_done, a, 0));
    if (status || !tile_it) return status;
    sylva__tiled_spec spec = sylva__tiled_spec_of(N, r->CB[g], g, nb, prio, a);
    if (gpu) {
        /* Tiles of their own, on the GPUs (a large front stays off the
         * CPU workers, sylva__group_where), POTRF's workspace the groups'. */
        spec.copies = 1;
        spec.where = where;
        spec.work = N->work;
    }
    r->tiled[g] = sylva__tiled_submit(&spec, &status);
    return status;
}

/* Priorities one group's tasks need: its own, and the tiled fronts' (the
 * largest front's tile rows, sylva__tiled_submit). */
int64_t sylva__tiled_priority_band(const sylva__plan *pl, int64_t tile_rows)
{
    int64_t band = 1;
    for (int64_t g = 0; tile_rows > 0 && g < pl->ngroups; g++) {
        if (!pl->large[g]) continue;
        const sylva__front *f = &pl->tree->fronts[pl->front_list[pl->group_ptr[g]]];
        int64_t b = sylva__tiled_priorities(f->m, f->k, tile_rows) + 1;
        if (b > band) band = b;
    }
    return band;
}

/* The GPUs' failed fronts into front_info, their peak memory, and the
 * flops and L bytes each GPU's tasks did (after sylva__stats_read). */
int sylva__factor_gather_gpu(sylva__numeric *N, sylva__factor_report *rep)
{
    int cap = SYLVA__GPU_MAX_FAILURES * (rep->gpus > 0 ? rep->gpus : 1), count = 0;
    int64_t *fronts = sylva__malloc((size_t)cap, sizeof *fronts);
    int *pivots = sylva__malloc((size_t)cap, sizeof *pivots);
    size_t peak = 0, dev_peak[SYLVA__MAX_GPUS] = {0};
    int status = fronts && pivots ? sylva__gpu_workers_gather(fronts, pivots, cap, &count, &peak, dev_peak)
                                  : SYLVA_ERR_NO_MEMORY;
    /* A tiled front may record several failures (the tiles after the
     * first failing one compute on garbage): its first failing pivot. */
    for (int i = 0; i < count; i++) {
        int *fi = &N->front_info[fronts[i]];
        if (*fi <= 0 || pivots[i] < *fi) *fi = pivots[i];
    }
    rep->peak_device = (double)peak;
    for (int d = 0; d < SYLVA__MAX_GPUS; d++) {
        rep->gpu[d].peak_device_bytes = (double)dev_peak[d];
        rep->gpu[d].flops = N->gpu_dev_flops[d];
        rep->gpu[d].factor_bytes = N->gpu_dev_lbytes[d];
    }
    free(fronts);
    free(pivots);
    return status;
}

int sylva__factor_read_run(sylva__numeric *N, sylva__factor_report *rep, int gpu)
{
    sylva__stats_read(rep);
    memcpy(rep->gpu_seconds, N->gpu_seconds, sizeof rep->gpu_seconds);
    memcpy(rep->gpu_flops, N->gpu_flops, sizeof rep->gpu_flops);
    int status = gpu ? sylva__factor_gather_gpu(N, rep) : SYLVA_OK;
    N->on_device = gpu;
    return status;
}

int sylva__factor_submit(sylva__numeric *N, const void *A_values, int64_t nnz, int64_t tile_rows,
                         int mode, sylva__factor_report *rep)
{
    const sylva__plan *pl = N->plan;
    int64_t ng = pl->ngroups;
    int gpu = mode != SYLVA_MODE_CPU, status = SYLVA_OK;
    rep->tasks = 0;
    if (ng == 0) return SYLVA_OK;
    register_L(N);
    if (gpu && (status = sylva__factor_prepare_gpu(N, mode, nnz))) return status;
    run r;
    memset(&r, 0, sizeof r);
    r.CB = sylva__calloc((size_t)ng, sizeof *r.CB);
    r.left = sylva__calloc((size_t)ng, sizeof *r.left);
    r.args = sylva__calloc((size_t)ng, sizeof *r.args);
    r.tiled = sylva__calloc((size_t)ng, sizeof *r.tiled);
    r.cbmem = sylva__calloc((size_t)ng, sizeof *r.cbmem);
    r.unread = sylva__calloc((size_t)ng, sizeof *r.unread);
    r.descr = sylva__malloc((size_t)pl->tree->nfronts + 6, sizeof *r.descr);
    r.child_ptrs = sylva__calloc((size_t)pl->dep_ptr[ng] + 1, sizeof *r.child_ptrs);
    if (!r.CB || !r.left || !r.args || !r.tiled || !r.cbmem || !r.unread || !r.descr || !r.child_ptrs) {
        release(&r, pl, N->elem);
        return sylva__fail(SYLVA_ERR_NO_MEMORY, "out of memory submitting the factorization");
    }
    r.prio_band = sylva__tiled_priority_band(pl, gpu ? 0 : tile_rows);
    if (gpu && (status = sylva__gpu_masks_make(mode == SYLVA_MODE_HYBRID, &r.masks))) {
        release(&r, pl, N->elem);
        return status;
    }
    if (r.masks.bits && N->gpu_map == SYLVA_GPU_MAP_SUBTREES &&
        !(r.map = sylva__rt_plan_gpu_map(N->rt, r.masks.gpus, &status))) {
        release(&r, pl, N->elem);
        return status;
    }
    sylva__runtime_hold(); /* workers are paused between phases (init.c) */
    if (gpu) status = sylva__gpu_workers_reset();
    if (!status) status = sylva__task_log_start(N, ng);
    sylva__stats_reset();
    starpu_vector_data_register(&r.A, STARPU_MAIN_RAM, (uintptr_t)A_values,
                                (uint32_t)(nnz ? nnz : 1), N->elem);
    for (int64_t g = 0; g < ng; g++) r.left[g] = pl->readers[g];
    N->failed = 0;
    memset(N->gpu_seconds, 0, sizeof N->gpu_seconds);
    memset(N->gpu_flops, 0, sizeof N->gpu_flops);
    memset(N->gpu_dev_flops, 0, sizeof N->gpu_dev_flops);
    memset(N->gpu_dev_lbytes, 0, sizeof N->gpu_dev_lbytes);
    N->flops_done = 0;
    N->tile_flops = 0;
    int64_t stopped = -1; /* the group whose submission failed */
    for (int64_t g = 0; g < ng && !status; g++) {
        /* A task that could not run ends the submission: nothing above it
         * can succeed. */
        if (__atomic_load_n(&N->failed, __ATOMIC_ACQUIRE)) {
            status = N->error_set ? sylva__fail(SYLVA_ERR_RUNTIME, "%s", N->error)
                                  : sylva__fail(SYLVA_ERR_NO_MEMORY, "out of memory in a factorization task");
            break;
        }
        if ((status = submit_group(N, &r, g, mode, tile_rows))) {
            stopped = g;
            break;
        }
        rep->tasks++;
        for (int64_t d = pl->dep_ptr[g]; d < pl->dep_ptr[g + 1]; d++)
            if (--r.left[pl->dep_list[d]] == 0) starpu_data_unregister_submit(r.CB[pl->dep_list[d]]);
        if (pl->cb_size[g] > 0 && pl->readers[g] == 0) starpu_data_unregister_submit(r.CB[g]);
        sylva__submit_throttle();
    }
    /* The submitting thread is idle until the tasks end: the GPU solve's
     * blob, which the pivot check needs next, is built meanwhile. */
    if (gpu && !status) sylva__solve_gpu_prepare_early(N);
    int waited = SYLVA_STARPU(starpu_task_wait_for_all());
    if (!status) status = waited;
    /* CB pools whose readers were never submitted. */
    if (status)
        for (int64_t g = 0; g < ng; g++)
            if (r.CB[g] && (r.left[g] > 0 || g == stopped)) starpu_data_unregister_submit(r.CB[g]);
    int read = sylva__factor_read_run(N, rep, gpu);
    if (!status) status = read;
    starpu_data_unregister(r.A);
    starpu_task_wait_for_all(); /* the unregistrations submitted above */
    sylva__runtime_release();
    release(&r, pl, N->elem);
    return status;
}
