/* init.c — start and stop StarPU with the options' CPU and GPU workers,
 * scheduler and device-memory limit, make each GPU worker's context, and the
 * check every StarPU return code goes through. CPU workers run
 * single-threaded BLAS (StarPU supplies the parallelism); the host
 * program's BLAS thread count is put back when the runtime stops. Several
 * processes start StarPU through StarPU-MPI (dist_mpi.c). A second
 * start while running is accepted with the same runtime options and refused
 * (SYLVA_ERR_ARGUMENT, naming the option) with others. Fails with
 * SYLVA_ERR_RUNTIME when StarPU or a GPU context cannot start. StarPU's
 * worker threads do not survive fork(): in a child forked after the start
 * the runtime is not ready (frees touch no StarPU state, which may be
 * locked) and every call that needs it, a second start included, fails at
 * once with SYLVA_ERR_RUNTIME saying so (sylva__runtime_check), instead of
 * waiting forever for workers that are not there.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blas.h"
#include "gpu_solve.h"
#include "runtime_internal.h"

static int ready;
static pid_t owner; /* the process that started StarPU */
static char scheduler[32]; /* the running scheduler's name */

/* A fork() of the process that started StarPU, which is still running
 * there: the workers were not copied. */
static int forked_child(void) { return ready && owner != getpid(); }

static int fail_forked(const char *who)
{
    return sylva__fail(SYLVA_ERR_RUNTIME,
                       "%s: this process (pid %ld) is a fork() of the one that called sylva_init (pid %ld): "
                       "StarPU's worker threads do not survive fork, so sylva cannot run here; call sylva in "
                       "the parent, or start children by exec (Python multiprocessing: 'spawn' or "
                       "'forkserver'), before sylva_init, or after sylva_finalize",
                       who, (long)getpid(), (long)owner);
}

int sylva__runtime_check(const char *who)
{
    int status = sylva__runtime_wait();
    if (status) return status;
    if (forked_child()) return fail_forked(who);
    if (!ready) return sylva__fail(SYLVA_ERR_NOT_INITIALIZED, "%s: sylva_init has not been called", who);
    return SYLVA_OK;
}

int sylva__runtime_forked(const char *who)
{
    sylva__runtime_settle();
    return forked_child() ? fail_forked(who) : SYLVA_OK;
}

const char *sylva__runtime_scheduler_name(int i, const char **summary)
{
    struct starpu_sched_policy **p = starpu_sched_get_predefined_policies();
    for (int k = 0; p && p[k]; k++)
        if (k == i) {
            if (summary) *summary = p[k]->policy_description;
            return p[k]->policy_name;
        }
    return NULL;
}

/* SYLVA_OK when name is one of StarPU's scheduling policies; else
 * SYLVA_ERR_ARGUMENT listing them. */
static int check_scheduler(const char *name)
{
    char list[512];
    size_t len = 0;
    list[0] = '\0';
    const char *s;
    for (int i = 0; (s = sylva__runtime_scheduler_name(i, NULL)); i++) {
        if (!strcmp(s, name)) return SYLVA_OK;
        if (len < sizeof list) len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", i ? ", " : "", s);
    }
    return sylva__fail(SYLVA_ERR_ARGUMENT, "unknown scheduler '%s' (%s)", name, list);
}

/* The runtime options it started with (what a second start compares), and
 * the BLAS thread count the host program had. */
static struct {
    int ncpus, gpus; /* asked CPU workers; GPU workers asked (0 in CPU mode) */
    int64_t device_memory;
    char scheduler[64]; /* "" for the default */
    int blas_threads;
} running;

/* StarPU's host allocations on CPU-only runs (its temporary CB pools above
 * all): through sylva__host_map, so that a freed pool's memory leaves the
 * process at once instead of staying in malloc's arenas. The block's size
 * sits in a header, since starpu_free() passes none. With GPU workers
 * StarPU keeps its own (pinned) allocator. */
#define HOOK_HEADER 64
static int host_malloc_hook(unsigned node, void **A, size_t dim, int flags)
{
    (void)node;
    (void)flags;
    char *p = sylva__host_map(dim + HOOK_HEADER);
    if (!p) {
        *A = NULL;
        return -ENOMEM;
    }
    *(size_t *)p = dim + HOOK_HEADER;
    *A = p + HOOK_HEADER;
    return 0;
}

static int host_free_hook(unsigned node, void *A, size_t dim, int flags)
{
    (void)node;
    (void)dim;
    (void)flags;
    if (A) {
        char *p = (char *)A - HOOK_HEADER;
        sylva__host_unmap(p, *(size_t *)p);
    }
    return 0;
}

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

/* The options' scheduler as compared and kept ("" for the default). */
static const char *scheduler_name(const sylva_options *o) { return o->scheduler ? o->scheduler : ""; }

/* SYLVA_OK when opts asks for the runtime that is running. */
static int same_runtime(const sylva_options *opts)
{
    const char *w = "sylva_init: the runtime is running with";
    const char *tail = "call sylva_finalize first to restart it with other options";
    int gpus = cuda_workers(opts);
    if (opts->ncpus != running.ncpus)
        return sylva__fail(SYLVA_ERR_ARGUMENT, "%s options.ncpus = %d, not %d: %s", w, running.ncpus,
                           opts->ncpus, tail);
    if (gpus != running.gpus)
        return sylva__fail(SYLVA_ERR_ARGUMENT,
                           "%s %d GPU workers asked (options.ncuda, options.mode), not %d: %s", w,
                           running.gpus, gpus, tail);
    if (opts->device_memory != running.device_memory)
        return sylva__fail(SYLVA_ERR_ARGUMENT, "%s options.device_memory = %lld, not %lld: %s", w,
                           (long long)running.device_memory, (long long)opts->device_memory, tail);
    if (strcmp(scheduler_name(opts), running.scheduler) != 0)
        return sylva__fail(SYLVA_ERR_ARGUMENT, "%s options.scheduler = \"%s\", not \"%s\": %s", w,
                           running.scheduler[0] ? running.scheduler : "(default)",
                           opts->scheduler ? opts->scheduler : "(default)", tail);
    return SYLVA_OK;
}

int sylva__runtime_prepare(const sylva_options *opts, int *running_already)
{
    *running_already = 0;
    if (opts->scheduler) {
        int status = check_scheduler(opts->scheduler);
        if (status) return status;
    }
    if (forked_child()) return fail_forked("sylva_init");
    if (ready) {
        *running_already = 1;
        return same_runtime(opts);
    }
    if (strlen(scheduler_name(opts)) >= sizeof running.scheduler)
        return sylva__fail(SYLVA_ERR_ARGUMENT, "sylva_init: options.scheduler \"%.40s...\" is too long",
                           opts->scheduler);
    if (!opts->verbose) setenv("STARPU_SILENT", "1", 0);
    /* StarPU writes dirty device buffers back to the host whenever fewer
     * than 5% of them are clean (starpu_memchunk_tidy), to have buffers to
     * evict: during a GPU factorization that copies contribution blocks and
     * L to the host for nothing. Eviction under memory pressure, which the
     * device-memory limit relies on, does not need it. */
    setenv("STARPU_MINIMUM_CLEAN_BUFFERS", "0", 0);
    /* StarPU catches SIGINT (to flush FxT traces, which sylva does not
     * make) and so hides the default action from core/out_signals.c, which
     * removes an output's temporary on SIGINT only where the action is the
     * default: leave the signals to the program. */
    setenv("STARPU_CATCH_SIGNALS", "0", 0);
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
    return SYLVA_OK;
}

int sylva__runtime_start(const sylva_options *opts)
{
    int running_already, status = sylva__runtime_prepare(opts, &running_already);
    return status || running_already ? status : sylva__runtime_launch(opts);
}

int sylva__runtime_launch(const sylva_options *opts)
{
    struct starpu_conf conf;
    starpu_conf_init(&conf);
    if (opts->ncpus >= 0) conf.ncpus = opts->ncpus;
    conf.ncuda = cuda_workers(opts);
    conf.nopencl = 0;
    conf.sched_policy_name = opts->scheduler ? opts->scheduler : conf.ncuda != 0 ? "dmdas" : "lws";
    snprintf(scheduler, sizeof scheduler, "%s", conf.sched_policy_name);
    if (conf.ncuda == 0) starpu_malloc_set_hooks(host_malloc_hook, host_free_hook);
    /* With StarPU-MPI when several processes run (dist_mpi.c). */
    int started = sylva__dist_start(&conf, opts->mpi);
    if (started) {
        starpu_malloc_set_hooks(NULL, NULL);
        return started;
    }
    if (starpu_cpu_worker_get_count() == 0 && starpu_cuda_worker_get_count() == 0) {
        sylva__dist_stop();
        starpu_malloc_set_hooks(NULL, NULL);
        return sylva__fail(SYLVA_ERR_RUNTIME, "StarPU started without workers");
    }
    running.blas_threads = openblas_get_num_threads();
    openblas_set_num_threads(1);
    /* Transfer and worker statistics (stats.c) come from StarPU's profiling. */
    starpu_profiling_status_set(STARPU_PROFILING_ENABLE);
    int status = sylva__gpu_workers_start();
    if (status) {
        sylva__gpu_workers_stop();
        sylva__dist_stop();
        starpu_malloc_set_hooks(NULL, NULL);
        openblas_set_num_threads(running.blas_threads > 0 ? running.blas_threads : 1);
        return status;
    }
    /* Idle workers poll for work and take cores from the main thread's own
     * phases (analysis; docs/performance.md). They are paused outside the
     * phases that submit tasks (sylva__runtime_hold). */
    starpu_pause();
    running.ncpus = opts->ncpus;
    running.gpus = cuda_workers(opts);
    running.device_memory = opts->device_memory;
    snprintf(running.scheduler, sizeof running.scheduler, "%s", scheduler_name(opts));
    holders = 0;
    owner = getpid();
    ready = 1;
    return SYLVA_OK;
}

void sylva__runtime_stop(void)
{
    sylva__runtime_join();
    if (!ready || forked_child()) return; /* a child cannot stop the parent's workers */
    sylva__solve_gpu_unhold_all(); /* the direct GPU solves' acquisitions (solve_gpu_direct.c) */
    sylva__factor_direct_free_all(); /* the direct factorizations' streams and memory (factorize_direct.c) */
    starpu_resume();
    sylva__gpu_workers_stop();
    sylva__dist_stop();
    starpu_malloc_set_hooks(NULL, NULL);
    openblas_set_num_threads(running.blas_threads > 0 ? running.blas_threads : 1);
    ready = 0;
}

int sylva__runtime_ready(void)
{
    sylva__runtime_settle();
    return ready && !forked_child();
}

int sylva__runtime_workers(void)
{
    sylva__runtime_settle();
    return ready ? (int)starpu_worker_get_count() : 0;
}

int sylva__runtime_cpu_workers(void)
{
    sylva__runtime_settle();
    return ready ? (int)starpu_cpu_worker_get_count() : 0;
}

int sylva__runtime_gpu_workers(void)
{
    sylva__runtime_settle();
    return ready ? (int)starpu_cuda_worker_get_count() : 0;
}

int sylva__runtime_gpus(void)
{
    sylva__runtime_settle();
    if (!ready) return 0;
    /* Several workers may share a GPU (STARPU_NWORKER_PER_CUDA): count devices. */
    int count = 0, seen[STARPU_NMAXWORKERS];
    for (unsigned w = 0; w < starpu_worker_get_count(); w++) {
        if (starpu_worker_get_type((int)w) != STARPU_CUDA_WORKER) continue;
        int dev = starpu_worker_get_devid((int)w), known = 0;
        for (int k = 0; k < count; k++) known |= seen[k] == dev;
        if (!known && count < STARPU_NMAXWORKERS) seen[count++] = dev;
    }
    return count;
}

const char *sylva__runtime_scheduler(void)
{
    sylva__runtime_settle();
    return ready ? scheduler : "";
}

int64_t sylva__runtime_gpu_memory(void)
{
    sylva__runtime_settle();
    int w = ready ? starpu_worker_get_by_type(STARPU_CUDA_WORKER, 0) : -1;
    if (w < 0) return 0;
    starpu_ssize_t total = starpu_memory_get_total(starpu_worker_get_memory_node((unsigned)w));
    return total > 0 ? (int64_t)total : 0;
}

int sylva__runtime_cuda_devices(void) { return sylva__gpu_device_count(); }

int sylva__runtime_pointer_device(const void *p) { return sylva__gpu_pointer_device(p); }

const char *sylva__runtime_gpu_name(void)
{
    sylva__runtime_settle();
    return ready ? sylva__gpu_workers_name() : "";
}

int64_t sylva__runtime_gpu_small_rows(void)
{
    sylva__runtime_settle();
    const sylva__kernel_tuning *t = ready ? sylva__gpu_workers_tuning() : NULL;
    return t ? t->native_min_m : 0;
}
