/* gpu_workers.c — the GPU contexts of StarPU's CUDA workers (one each,
 * kernels/gpu_context.h), made in the worker's own thread at start so they
 * are bound to the worker's device and stream, and the collective calls a
 * factorization makes on all of them: reset the failure lists and the memory
 * high-water marks before, gather both after (the peaks per GPU too). Fails with SYLVA_ERR_RUNTIME
 * naming the worker and the call.
 */
#include <stdlib.h>
#include <string.h>

#include "runtime_internal.h"

static sylva__gpu_context *contexts[STARPU_NMAXWORKERS];

/* A collective call's result, written by each worker under the lock. */
typedef struct collect {
    starpu_pthread_mutex_t lock;
    int status;
    char message[512];
    /* failures: */
    int64_t *fronts;
    int *pivots;
    int cap, count, total;
    size_t peak, dev_peak[SYLVA__MAX_GPUS];
} collect;

static void note_error(collect *c, int status)
{
    STARPU_PTHREAD_MUTEX_LOCK(&c->lock);
    if (c->status == SYLVA_OK) {
        c->status = status;
        snprintf(c->message, sizeof c->message, "GPU worker %d: %s", starpu_worker_get_id(),
                 sylva__last_error());
    }
    STARPU_PTHREAD_MUTEX_UNLOCK(&c->lock);
}

static void create_one(void *arg)
{
    sylva__gpu_context *ctx = NULL;
    int status = sylva__gpu_context_create(sylva__worker_stream(), &ctx);
    if (status) note_error(arg, status);
    contexts[starpu_worker_get_id()] = ctx;
}

static void free_one(void *arg)
{
    (void)arg;
    int w = starpu_worker_get_id();
    sylva__gpu_context_free(contexts[w]);
    contexts[w] = NULL;
}

static void reset_one(void *arg)
{
    int status = sylva__gpu_context_reset(contexts[starpu_worker_get_id()]);
    if (status) note_error(arg, status);
}

static void gather_one(void *arg)
{
    collect *c = arg;
    sylva__gpu_context *ctx = contexts[starpu_worker_get_id()];
    int n = 0;
    int status = sylva__gpu_context_failures(ctx, NULL, NULL, 0, &n); /* the count */
    int64_t *fronts = n > 0 ? malloc((size_t)n * sizeof *fronts) : NULL;
    int *pivots = n > 0 ? malloc((size_t)n * sizeof *pivots) : NULL;
    if (!status && n > 0 && (!fronts || !pivots))
        status = sylva__fail(SYLVA_ERR_NO_MEMORY, "out of memory reading %d GPU failures", n);
    int got = n;
    if (!status && n > 0) status = sylva__gpu_context_failures(ctx, fronts, pivots, n, &got);
    if (status) note_error(c, status);
    STARPU_PTHREAD_MUTEX_LOCK(&c->lock);
    if (!status) {
        int kept = got < n ? got : n;
        if (kept > SYLVA__GPU_MAX_FAILURES) kept = SYLVA__GPU_MAX_FAILURES;
        for (int i = 0; i < kept && c->count < c->cap; i++) {
            c->fronts[c->count] = fronts[i];
            c->pivots[c->count++] = pivots[i];
        }
        c->total += got;
    }
    size_t peak = sylva__gpu_context_peak(ctx);
    int d = sylva__gpu_index(starpu_worker_get_devid(starpu_worker_get_id()));
    if (peak > c->peak) c->peak = peak;
    if (d >= 0 && peak > c->dev_peak[d]) c->dev_peak[d] = peak;
    STARPU_PTHREAD_MUTEX_UNLOCK(&c->lock);
    free(fronts);
    free(pivots);
}

static int run_on_gpus(void (*fn)(void *), collect *c, const char *name)
{
    STARPU_PTHREAD_MUTEX_INIT(&c->lock, NULL);
    c->status = SYLVA_OK;
    starpu_execute_on_each_worker_ex(fn, c, STARPU_CUDA, name);
    STARPU_PTHREAD_MUTEX_DESTROY(&c->lock);
    if (c->status) return sylva__fail(c->status, "%s", c->message);
    return SYLVA_OK;
}

int sylva__gpu_workers_start(void)
{
    if (starpu_cuda_worker_get_count() == 0) return SYLVA_OK;
    collect c;
    memset(&c, 0, sizeof c);
    return run_on_gpus(create_one, &c, "sylva_gpu_context_create");
}

void sylva__gpu_workers_stop(void)
{
    if (starpu_cuda_worker_get_count() == 0) return;
    collect c;
    memset(&c, 0, sizeof c);
    run_on_gpus(free_one, &c, "sylva_gpu_context_free");
}

sylva__gpu_context *sylva__gpu_worker_context(int workerid)
{
    return workerid >= 0 && workerid < STARPU_NMAXWORKERS ? contexts[workerid] : NULL;
}

int sylva__gpu_workers_reset(void)
{
    collect c;
    memset(&c, 0, sizeof c);
    return run_on_gpus(reset_one, &c, "sylva_gpu_reset");
}

int sylva__gpu_workers_gather(int64_t *fronts, int *pivots, int cap, int *count, size_t *peak,
                              size_t dev_peak[SYLVA__MAX_GPUS])
{
    collect c;
    memset(&c, 0, sizeof c);
    c.fronts = fronts;
    c.pivots = pivots;
    c.cap = cap;
    int status = run_on_gpus(gather_one, &c, "sylva_gpu_gather");
    *count = c.count;
    *peak = c.peak;
    memcpy(dev_peak, c.dev_peak, sizeof c.dev_peak);
    if (!status && c.total > c.count)
        status = sylva__fail(SYLVA_ERR_RUNTIME, "%d GPU front failures, %d could be recorded",
                             c.total, c.count);
    return status;
}

const char *sylva__gpu_workers_name(void)
{
    for (int w = 0; w < STARPU_NMAXWORKERS; w++)
        if (contexts[w]) return sylva__gpu_context_name(contexts[w]);
    return "";
}

int64_t sylva__gpu_workers_native_bytes(int k)
{
    for (int w = 0; w < STARPU_NMAXWORKERS; w++)
        if (contexts[w]) return sylva__gpu_context_native_bytes(contexts[w], k);
    return -1;
}

const sylva__kernel_tuning *sylva__gpu_workers_tuning(void)
{
    for (int w = 0; w < STARPU_NMAXWORKERS; w++)
        if (contexts[w]) return sylva__gpu_context_tuning(contexts[w]);
    return NULL;
}
