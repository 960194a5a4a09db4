/* init.c — start and stop StarPU with the options' CPU and GPU workers,
 * scheduler and device-memory limit, make each GPU worker's context, and the
 * check every StarPU return code goes through. CPU workers run
 * single-threaded BLAS: StarPU supplies the parallelism. Fails with
 * SYLVA_ERR_RUNTIME when StarPU or a GPU context cannot start.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "blas.h"
#include "gpu_solve.h"
#include "runtime_internal.h"

static int ready;
static starpu_pthread_mutex_t hold_lock = STARPU_PTHREAD_MUTEX_INITIALIZER;
static int holders;

void sylva__runtime_hold(void)
{
    STARPU_PTHREAD_MUTEX_LOCK(&hold_lock);
    if (holders++ == 0) starpu_resume();
    STARPU_PTHREAD_MUTEX_UNLOCK(&hold_lock);
}

void sylva__runtime_release(void)
{
    STARPU_PTHREAD_MUTEX_LOCK(&hold_lock);
    if (--holders == 0) starpu_pause();
    STARPU_PTHREAD_MUTEX_UNLOCK(&hold_lock);
}

int sylva__starpu_status(int rc, const char *call, const char *file, int line)
{
    if (rc == 0) return SYLVA_OK;
    return sylva__fail(SYLVA_ERR_RUNTIME, "%s:%d: StarPU failed (code %d%s): %s", file, line, rc,
                       rc == -ENODEV ? ", no worker can run the task" : "", call);
}

/* GPU workers to ask StarPU for: none in CPU mode or without a device
 * (StarPU built without CUDA, or no GPU here); else the option. */
static int cuda_workers(const sylva_options *o)
{
    if (o->mode == SYLVA_MODE_CPU || o->ncuda == 0) return 0;
    return sylva__gpu_device_count() > 0 ? o->ncuda : 0;
}

int sylva__runtime_start(const sylva_options *opts)
{
    if (ready) return SYLVA_OK;
    if (!opts->verbose) setenv("STARPU_SILENT", "1", 0);
    /* StarPU writes dirty device buffers back to the host whenever fewer
     * than 5% of them are clean (starpu_memchunk_tidy), to have buffers to
     * evict: during a GPU factorization that copies contribution blocks and
     * L to the host for nothing. Eviction under memory pressure, which the
     * device-memory limit relies on, does not need it. */
    setenv("STARPU_MINIMUM_CLEAN_BUFFERS", "0", 0);
    setenv("STARPU_TARGET_CLEAN_BUFFERS", "0", 0);
    /* Two workers (two streams) per GPU: independent fronts of one level of
     * the tree run at once (measured on an H100, docs/performance.md). */
    setenv("STARPU_NWORKER_PER_CUDA", SYLVA__WORKERS_PER_GPU, 0);
    if (opts->device_memory > 0) {
        /* StarPU's per-GPU limit, in MiB; it evicts (or, for what cannot be
         * evicted, waits) to stay under it. */
        char mib[32];
        snprintf(mib, sizeof mib, "%lld", (long long)(opts->device_memory >> 20));
        setenv("STARPU_LIMIT_CUDA_MEM", mib, 1);
    }
    struct starpu_conf conf;
    starpu_conf_init(&conf);
    if (opts->ncpus >= 0) conf.ncpus = opts->ncpus;
    conf.ncuda = cuda_workers(opts);
    conf.nopencl = 0;
    conf.sched_policy_name = opts->scheduler ? opts->scheduler : conf.ncuda != 0 ? "dmdas" : "lws";
    int rc = starpu_init(&conf);
    if (rc != 0)
        return sylva__fail(SYLVA_ERR_RUNTIME, "StarPU failed to start (%s)",
                           rc == -ENODEV ? "no worker available" : "starpu_init error");
    if (starpu_cpu_worker_get_count() == 0 && starpu_cuda_worker_get_count() == 0) {
        starpu_shutdown();
        return sylva__fail(SYLVA_ERR_RUNTIME, "StarPU started without workers");
    }
    openblas_set_num_threads(1);
    /* Transfer and worker statistics (stats.c) come from StarPU's profiling. */
    starpu_profiling_status_set(STARPU_PROFILING_ENABLE);
    int status = sylva__gpu_workers_start();
    if (status) {
        sylva__gpu_workers_stop();
        starpu_shutdown();
        return status;
    }
    /* Idle workers poll for work and take cores from the main thread's own
     * phases (analysis; docs/performance.md). They are paused outside the
     * phases that submit tasks (sylva__runtime_hold). */
    starpu_pause();
    holders = 0;
    ready = 1;
    return SYLVA_OK;
}

void sylva__runtime_stop(void)
{
    if (!ready) return;
    starpu_resume();
    sylva__gpu_workers_stop();
    starpu_shutdown();
    ready = 0;
}

int sylva__runtime_ready(void) { return ready; }

int sylva__runtime_workers(void) { return ready ? (int)starpu_worker_get_count() : 0; }

int sylva__runtime_gpus(void) { return ready ? (int)starpu_cuda_worker_get_count() : 0; }

int64_t sylva__runtime_gpu_memory(void)
{
    int w = ready ? starpu_worker_get_by_type(STARPU_CUDA_WORKER, 0) : -1;
    if (w < 0) return 0;
    starpu_ssize_t total = starpu_memory_get_total(starpu_worker_get_memory_node((unsigned)w));
    return total > 0 ? (int64_t)total : 0;
}

int sylva__runtime_cuda_devices(void) { return sylva__gpu_device_count(); }

int sylva__runtime_pointer_device(const void *p) { return sylva__gpu_pointer_device(p); }

const char *sylva__runtime_gpu_name(void) { return ready ? sylva__gpu_workers_name() : ""; }

int64_t sylva__runtime_gpu_small_rows(void)
{
    const sylva__kernel_tuning *t = ready ? sylva__gpu_workers_tuning() : NULL;
    return t ? t->native_min_m : 0;
}
