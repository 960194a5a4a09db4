/* solve_gpu_direct.c — the GPU solve without a task (issue 12's "direct
 * stream", docs/gpu.md): when a single-process factor's every L group is
 * valid on the solving GPU (a GPU factorization left it there), the first
 * solve acquires on that GPU's memory node, for reading, every L slice, the
 * solve blob and (at the first refined solve) the pattern blob and A's
 * values, and for writing a workspace; it keeps those acquisitions, their
 * device pointers and a stream of its own (N->hold) between solves, and
 * every block runs the task's body (codelet_solve_gpu.c) on that stream from
 * the calling thread, StarPU's workers left paused. Why not a task: on the
 * H100 a one-column solve's task cost 0.1–0.55 ms around its kernels
 * (handles, submission to start, the end's wake and return; once in a while
 * a 3 ms late wake: docs/perf-log.md, "The solve, v13"), a fifth of
 * bcsstk13's solve. Coherency: an acquired copy is neither written, moved,
 * evicted nor freed by StarPU until released, and sylva__solve_gpu_unhold
 * releases everything before L or A's values are written, moved or
 * unregistered (numeric.c: factorization, keep_values, to_host, free;
 * init.c: the runtime's stop, sylva__solve_gpu_unhold_all). Anything else
 * — several processes, L on the host or over several GPUs, B on another
 * GPU, a workspace over SOLVE_HOLD_WORK_MAX, SYLVA_SOLVE_DIRECT=0 — takes
 * the task (solve_gpu.c). The held workspace is the largest block's so far.
 * N->hold_lock serializes the solves of one factor on the held workspace
 * and the release; N->hold_worker (atomic) lets the fit check skip its scan
 * of L while held.
 */
#include <stdlib.h>
#include <string.h>

#include "runtime_internal.h"

/* The largest workspace a hold takes (and keeps): a default block's is at
 * most 5 · SYLVA__SOLVE_BLOCK_BYTES (refined: 2.5 GiB); a larger one takes
 * the task.
 * Acquiring a fresh one for each call cost 4–13 ms on the H100 (64 columns,
 * docs/perf-log.md "The solve, v13"): the workspace stays held. */
#define SOLVE_HOLD_WORK_MAX ((size_t)6 * SYLVA__SOLVE_BLOCK_BYTES)

struct sylva__solve_hold {
    sylva__numeric *N;
    int device, node, worker;
    struct CUstream_st *stream;
    int64_t nL;                          /* L groups acquired (all of them once ready) */
    double **group_L;                    /* their device pointers */
    const void *blob, *pattern;          /* NULL until acquired */
    const double *avals;
    starpu_data_handle_t work;           /* NULL until acquired */
    void *work_ptr;
    size_t work_bytes;
    int lp_ready;                        /* work holds the fronts' L pointers (a solve made them) */
    struct sylva__solve_hold *prev, *next; /* every hold, for the runtime's stop */
};

static starpu_pthread_mutex_t holds_lock = STARPU_PTHREAD_MUTEX_INITIALIZER;
static sylva__solve_hold *holds;

/* 0 with SYLVA_SOLVE_DIRECT=0 (read once): every solve a task. */
static int direct_on(void)
{
    static int on = -1;
    return sylva__env_switch("SYLVA_SOLVE_DIRECT", 1, &on);
}

/* 1 when the direct solve may take a request needing a workspace of
 * work_bytes (else the task): on, one process, L on a GPU, the workspace
 * within what a hold keeps. */
static int direct_takes(const sylva__numeric *N, size_t work_bytes)
{
    return direct_on() && sylva__dist_size() <= 1 && N->on_device && work_bytes <= SOLVE_HOLD_WORK_MAX;
}

static void *ptr_on(starpu_data_handle_t h, int node)
{
    return sylva__buf_ptr(starpu_data_get_interface_on_node(h, (unsigned)node));
}

/* Release what h holds (the runtime held by the caller). */
static void release_all(sylva__solve_hold *h)
{
    sylva__numeric *N = h->N;
    for (int64_t g = 0; g < h->nL; g++) starpu_data_release_on_node(N->L[g], h->node);
    if (h->blob) starpu_data_release_on_node(N->rt->gsolve_blob, h->node);
    if (h->pattern) starpu_data_release_on_node(N->rt->gsolve_pattern, h->node);
    if (h->avals) starpu_data_release_on_node(N->avals_h, h->node);
    if (h->work) {
        starpu_data_release_on_node(h->work, h->node);
        starpu_data_unregister_submit(h->work);
    }
}

void sylva__solve_gpu_unhold(sylva__numeric *N)
{
    STARPU_PTHREAD_MUTEX_LOCK(&N->hold_lock);
    sylva__solve_hold *h = N->hold;
    N->hold = NULL;
    __atomic_store_n(&N->hold_worker, -1, __ATOMIC_RELEASE);
    if (h) {
        STARPU_PTHREAD_MUTEX_LOCK(&holds_lock);
        if (h->prev) h->prev->next = h->next;
        else holds = h->next;
        if (h->next) h->next->prev = h->prev;
        STARPU_PTHREAD_MUTEX_UNLOCK(&holds_lock);
        if (sylva__runtime_ready()) { /* else the handles went with StarPU's shutdown */
            sylva__runtime_hold();
            release_all(h);
            sylva__runtime_release();
            sylva__gpu_stream_close(h->device, h->stream);
        }
        free(h->group_L);
        free(h);
    }
    STARPU_PTHREAD_MUTEX_UNLOCK(&N->hold_lock);
}

void sylva__solve_gpu_unhold_all(void)
{
    for (;;) {
        STARPU_PTHREAD_MUTEX_LOCK(&holds_lock);
        sylva__numeric *N = holds ? holds->N : NULL;
        STARPU_PTHREAD_MUTEX_UNLOCK(&holds_lock);
        if (!N) return;
        sylva__solve_gpu_unhold(N);
    }
}

/* A new hold on `node` (device `device`): the stream, L, the blob. */
static int hold_create(sylva__numeric *N, int device, int node, sylva__solve_hold **out)
{
    *out = NULL;
    int64_t ng = N->plan->ngroups;
    sylva__solve_hold *h = sylva__calloc(1, sizeof *h);
    if (h) h->group_L = sylva__calloc((size_t)ng + 1, sizeof *h->group_L);
    if (!h || !h->group_L) {
        if (h) free(h);
        return sylva__fail(SYLVA_ERR_NO_MEMORY, "out of memory for the direct GPU solve");
    }
    h->N = N;
    h->device = device;
    h->node = node;
    int status = sylva__gpu_stream_open(device, &h->stream);
    sylva__runtime_hold();
    for (int64_t g = 0; g < ng && !status; g++) {
        status = SYLVA_STARPU(starpu_data_acquire_on_node(N->L[g], node, STARPU_R));
        if (!status) h->group_L[h->nL++] = ptr_on(N->L[g], node);
    }
    if (!status) status = SYLVA_STARPU(starpu_data_acquire_on_node(N->rt->gsolve_blob, node, STARPU_R));
    if (!status) h->blob = ptr_on(N->rt->gsolve_blob, node);
    if (status) release_all(h);
    sylva__runtime_release();
    if (status) {
        sylva__gpu_stream_close(device, h->stream);
        free(h->group_L);
        free(h);
        return status;
    }
    STARPU_PTHREAD_MUTEX_LOCK(&holds_lock);
    h->next = holds;
    if (holds) holds->prev = h;
    holds = h;
    STARPU_PTHREAD_MUTEX_UNLOCK(&holds_lock);
    *out = h;
    return SYLVA_OK;
}

/* The refinement's data and a workspace of at least `bytes`. */
static int hold_complete(sylva__solve_hold *h, int refine, size_t bytes)
{
    sylva__numeric *N = h->N;
    int need_ref = refine && (!h->pattern || !h->avals), need_work = h->work_bytes < bytes;
    if (!need_ref && !need_work) return SYLVA_OK;
    int status = SYLVA_OK;
    sylva__runtime_hold();
    if (need_ref && !h->pattern) {
        status = SYLVA_STARPU(starpu_data_acquire_on_node(N->rt->gsolve_pattern, h->node, STARPU_R));
        if (!status) h->pattern = ptr_on(N->rt->gsolve_pattern, h->node);
    }
    if (need_ref && !status && !h->avals) {
        status = SYLVA_STARPU(starpu_data_acquire_on_node(N->avals_h, h->node, STARPU_R));
        if (!status) h->avals = ptr_on(N->avals_h, h->node);
    }
    if (need_work && !status) {
        if (h->work) {
            starpu_data_release_on_node(h->work, h->node);
            starpu_data_unregister_submit(h->work);
            h->work = NULL;
            h->work_bytes = 0;
        }
        starpu_data_handle_t w;
        starpu_vector_data_register(&w, -1, 0, (uint32_t)((bytes + 255) / 256), 256);
        status = SYLVA_STARPU(starpu_data_acquire_on_node(w, h->node, STARPU_W));
        if (status) starpu_data_unregister_submit(w);
        else {
            h->work = w;
            h->work_ptr = ptr_on(w, h->node);
            h->work_bytes = (bytes + 255) / 256 * 256;
            h->lp_ready = 0;
        }
    }
    sylva__runtime_release();
    return status;
}

/* 1 when every L group has a valid copy on `node`. */
static int L_on(const sylva__numeric *N, int node)
{
    for (int64_t g = 0; g < N->plan->ngroups; g++)
        if (!N->L[g] || !starpu_data_is_on_node(N->L[g], (unsigned)node)) return 0;
    return 1;
}

int sylva__solve_gpu_direct_begin(sylva__numeric *N, const sylva__solve_request *q, int device, size_t work_bytes,
                                  sylva__solve_hold **out)
{
    *out = NULL;
    if (!direct_takes(N, work_bytes)) return SYLVA_OK;
    STARPU_PTHREAD_MUTEX_LOCK(&N->hold_lock);
    sylva__solve_hold *h = N->hold;
    int status = SYLVA_OK;
    if (!h || (device >= 0 && device != h->device)) {
        int w = sylva__solve_gpu_worker(N, device);
        int node = w >= 0 ? (int)starpu_worker_get_memory_node((unsigned)w) : -1;
        if (w < 0 || !L_on(N, node)) { /* the task's way (it moves what it needs) */
            STARPU_PTHREAD_MUTEX_UNLOCK(&N->hold_lock);
            return SYLVA_OK;
        }
        if (h) { /* B on another GPU that holds all of L too: the hold moves there */
            STARPU_PTHREAD_MUTEX_UNLOCK(&N->hold_lock);
            sylva__solve_gpu_unhold(N);
            STARPU_PTHREAD_MUTEX_LOCK(&N->hold_lock);
        }
        if (!N->hold) status = hold_create(N, starpu_worker_get_devid(w), node, &N->hold);
        h = N->hold;
        if (h) h->worker = w;
    }
    if (!status) status = hold_complete(h, q->refine != 0, work_bytes);
    if (status) {
        STARPU_PTHREAD_MUTEX_UNLOCK(&N->hold_lock);
        return status;
    }
    __atomic_store_n(&N->hold_worker, h->worker, __ATOMIC_RELEASE);
    *out = h;
    return SYLVA_OK;
}

int sylva__solve_gpu_direct_block(sylva__solve_hold *h, sylva__solve_gpu_args *a, const sylva__solve_request *q,
                                  double *B, int64_t ldb)
{
    a->host_B = q->on_device ? NULL : B;
    a->host_ldb = ldb;
    a->buf_B = a->buf_blob = a->buf_work = a->buf_L0 = a->buf_pattern = a->buf_avals = -1;
    memcpy(a->group_L, h->group_L, (size_t)h->nL * sizeof *h->group_L);
    /* The fronts' L pointers in the workspace (its first array, whatever
     * the block's width) stay right while L and the workspace are held:
     * made by the first solve only (a copy and a kernel fewer each time). */
    sylva__solve_gpu_ptrs p = {.blob = h->blob, .work = h->work_ptr, .work_bytes = h->work_bytes,
                               .lp_ready = h->lp_ready && !a->pivots, .B = q->on_device ? B : NULL, .ldb = ldb,
                               .pattern = h->pattern, .avals = h->avals};
    int prev = 0;
    int status = sylva__gpu_device_enter(h->device, &prev);
    if (status) return status;
    a->t_start = sylva__now();
    status = sylva__solve_gpu_body(a, &p, h->stream);
    a->t_end = sylva__now();
    if (!status && !a->pivots) h->lp_ready = 1;
    sylva__gpu_device_leave(prev);
    return status;
}

size_t sylva__solve_gpu_held_work(sylva__numeric *N, size_t work_bytes)
{
    if (!direct_takes(N, work_bytes)) return 0;
    STARPU_PTHREAD_MUTEX_LOCK(&N->hold_lock);
    size_t held = N->hold ? N->hold->work_bytes : 0;
    STARPU_PTHREAD_MUTEX_UNLOCK(&N->hold_lock);
    return held;
}

void sylva__solve_gpu_direct_end(sylva__numeric *N, sylva__solve_hold *h)
{
    (void)h;
    STARPU_PTHREAD_MUTEX_UNLOCK(&N->hold_lock);
}

int sylva__numeric_solve_held(sylva__numeric *N)
{
    STARPU_PTHREAD_MUTEX_LOCK(&N->hold_lock);
    int held = N->hold != NULL;
    STARPU_PTHREAD_MUTEX_UNLOCK(&N->hold_lock);
    return held;
}
