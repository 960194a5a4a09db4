/* task_log.c — every task of a factorization run as StarPU's task profiling
 * saw it (profiling is on from sylva_init, init.c): its group, kind,
 * worker, and its submission, input-fetch, start and end times, relative to
 * the run's start; and the device memory StarPU had allocated on each GPU
 * over the run, sampled on the GPU's memory node at every GPU task's start
 * (once its buffers are allocated) and end (starpu_memory_get_total less
 * starpu_memory_get_available: what StarPU allocated there, its caches
 * included, not other processes' memory). Records and samples are appended
 * under the log's lock, into arrays reserved before the run and doubled
 * when full; one that finds no memory is dropped (a record also counted),
 * never a failure of the factorization. Nothing here times a kernel: the times are
 * StarPU's, or, for the direct factorization's groups (factorize_direct.c),
 * the device events it put between them (its memory, allocated before its
 * first group and held to its end, is sampled when each group is put).
 */
#include <stdlib.h>
#include <string.h>

#include "runtime_internal.h"

struct sylva__task_log {
    starpu_pthread_mutex_t lock;
    sylva__task_rec *rec;
    int64_t n, cap, dropped;
    sylva__mem_sample *ms; /* device memory samples */
    int64_t nms, capms;
    double t0; /* µs on StarPU's clock (that of the profiling dates) */
};

int sylva__task_log_start(sylva__numeric *N, int64_t expected)
{
    sylva__task_log *L = N->log;
    if (!L) {
        L = sylva__calloc(1, sizeof *L);
        if (!L) return sylva__fail(SYLVA_ERR_NO_MEMORY, "out of memory for the task log");
        STARPU_PTHREAD_MUTEX_INIT(&L->lock, NULL);
        N->log = L;
    }
    int64_t want = expected + 64;
    if (L->cap < want) {
        sylva__task_rec *r = realloc(L->rec, (size_t)want * sizeof *r);
        if (!r) return sylva__fail(SYLVA_ERR_NO_MEMORY, "out of memory for the task log");
        L->rec = r;
        L->cap = want;
    }
    int64_t want_ms = 2 * expected + 64; /* a start and an end per task */
    if (L->capms < want_ms) {
        sylva__mem_sample *m = realloc(L->ms, (size_t)want_ms * sizeof *m);
        if (!m) return sylva__fail(SYLVA_ERR_NO_MEMORY, "out of memory for the task log");
        L->ms = m;
        L->capms = want_ms;
    }
    L->n = L->dropped = L->nms = 0;
    L->t0 = starpu_timing_now();
    return SYLVA_OK;
}

static double since(const sylva__task_log *L, const struct timespec *t)
{
    if (t->tv_sec == 0 && t->tv_nsec == 0) return -1; /* StarPU did not record it */
    return (starpu_timing_timespec_to_us((struct timespec *)t) - L->t0) * 1e-6;
}

void sylva__task_log_add(sylva__numeric *N, int64_t group, int kind)
{
    sylva__task_log *L = N->log;
    struct starpu_task *task = starpu_task_get_current();
    const struct starpu_profiling_task_info *p = task ? task->profiling_info : NULL;
    if (!L || !p) return;
    sylva__task_rec r = {group, kind, p->workerid, since(L, &p->submit_time), since(L, &p->acquire_data_start_time),
                         since(L, &p->acquire_data_end_time), since(L, &p->start_time), since(L, &p->end_time)};
    STARPU_PTHREAD_MUTEX_LOCK(&L->lock);
    if (L->n == L->cap) {
        sylva__task_rec *grown = realloc(L->rec, (size_t)(2 * L->cap) * sizeof *grown);
        if (grown) {
            L->rec = grown;
            L->cap *= 2;
        }
    }
    if (L->n < L->cap) L->rec[L->n++] = r;
    else L->dropped++;
    STARPU_PTHREAD_MUTEX_UNLOCK(&L->lock);
    sylva__task_log_sample(N, p->workerid, sylva__task_log_now(N));
}

void sylva__task_log_sample(sylva__numeric *N, int worker, double t)
{
    sylva__task_log *L = N ? N->log : NULL;
    if (!L || worker < 0 || starpu_worker_get_type(worker) != STARPU_CUDA_WORKER) return;
    unsigned node = starpu_worker_get_memory_node((unsigned)worker);
    starpu_ssize_t total = starpu_memory_get_total(node), avail = starpu_memory_get_available(node);
    if (total <= 0 || avail < 0 || avail > total) return; /* StarPU keeps no account of this node */
    int dev = starpu_worker_get_devid(worker);
    sylva__mem_sample s = {t, sylva__gpu_index(dev), dev, (int64_t)(total - avail)};
    STARPU_PTHREAD_MUTEX_LOCK(&L->lock);
    if (L->nms == L->capms) {
        sylva__mem_sample *grown = realloc(L->ms, (size_t)(2 * L->capms) * sizeof *grown);
        if (grown) {
            L->ms = grown;
            L->capms *= 2;
        }
    }
    if (L->nms < L->capms) L->ms[L->nms++] = s; /* else a gap in the counter, not a lost task record */
    STARPU_PTHREAD_MUTEX_UNLOCK(&L->lock);
}

double sylva__task_log_now(const sylva__numeric *N)
{
    return N->log ? (starpu_timing_now() - N->log->t0) * 1e-6 : 0;
}

void sylva__task_log_put(sylva__numeric *N, int64_t group, int kind, int worker, double start, double end)
{
    sylva__task_log *L = N->log;
    if (!L) return;
    sylva__task_rec r = {group, kind, worker, start, start, start, start, end};
    STARPU_PTHREAD_MUTEX_LOCK(&L->lock);
    if (L->n < L->cap) L->rec[L->n++] = r;
    else L->dropped++;
    STARPU_PTHREAD_MUTEX_UNLOCK(&L->lock);
    sylva__task_log_sample(N, worker, end);
}

void sylva__tile_done(void *arg)
{
    const sylva__group_args *a = arg;
    sylva__numeric *N = a->num;
    struct starpu_task *task = starpu_task_get_current();
    const struct starpu_codelet *cl = task ? task->cl : NULL;
    int kind = cl == &sylva__tile_potrf_codelet  ? SYLVA_TASK_TILE_POTRF
               : cl == &sylva__tile_trsm_codelet ? SYLVA_TASK_TILE_TRSM
               : cl == &sylva__tile_syrk_codelet ? SYLVA_TASK_TILE_SYRK
                                                 : SYLVA_TASK_TILE_GEMM;
    sylva__task_log_add(N, a->group, kind);
    if (!task) return;
    /* The tile tasks, not the front's assembly, count its flops: this
     * process's share in a distributed run, each GPU's on GPUs. */
    const struct starpu_profiling_task_info *p = task->profiling_info;
    int on_gpu = p && starpu_worker_get_type(p->workerid) == STARPU_CUDA_WORKER;
    int dev = on_gpu ? sylva__gpu_index(starpu_worker_get_devid(p->workerid)) : -1;
    double flops = task->flops; /* front_tiles.c's count */
    STARPU_PTHREAD_MUTEX_LOCK(&N->stat_lock);
    N->tile_flops += flops;
    if (on_gpu) {
        N->gpu_seconds[1] += starpu_timing_timespec_delay_us((struct timespec *)&p->start_time,
                                                             (struct timespec *)&p->end_time) * 1e-6;
        N->gpu_flops[1] += flops;
    }
    if (dev >= 0) N->gpu_dev_flops[dev] += flops;
    STARPU_PTHREAD_MUTEX_UNLOCK(&N->stat_lock);
}

const sylva__task_rec *sylva__numeric_tasks(const sylva__numeric *N, int64_t *count, int64_t *dropped)
{
    *count = N->log ? N->log->n : 0;
    if (dropped) *dropped = N->log ? N->log->dropped : 0;
    return N->log ? N->log->rec : NULL;
}

const sylva__mem_sample *sylva__numeric_memory_samples(const sylva__numeric *N, int64_t *count)
{
    *count = N->log ? N->log->nms : 0;
    return N->log ? N->log->ms : NULL;
}

void sylva__task_log_free(sylva__task_log *L)
{
    if (!L) return;
    STARPU_PTHREAD_MUTEX_DESTROY(&L->lock);
    free(L->ms);
    free(L->rec);
    free(L);
}

int sylva__runtime_worker(int id, int *kind, int *device, char *name, size_t size)
{
    if (!sylva__runtime_ready() || id < 0 || id >= (int)starpu_worker_get_count())
        return sylva__fail(SYLVA_ERR_ARGUMENT, "no worker %d (the runtime has %d)", id,
                           sylva__runtime_ready() ? (int)starpu_worker_get_count() : 0);
    *kind = starpu_worker_get_type(id) == STARPU_CUDA_WORKER;
    *device = starpu_worker_get_devid(id);
    starpu_worker_get_name(id, name, size);
    return SYLVA_OK;
}
