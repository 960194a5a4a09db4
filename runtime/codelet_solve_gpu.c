/* codelet_solve_gpu.c — the GPU solve task: one block of right-hand sides
 * solved, and refined, on one GPU in one task (or, with args->pivots, the
 * check of every pivot of L where L lives) (arguments in
 * runtime_internal.h's sylva__solve_gpu_args). Its buffers: the block B
 * when it lives on the device (RW; host right-hand sides are copied in and
 * out by the task itself, into the workspace's stage: the caller's block
 * page-locked for the solve and copied by DMA (SYLVA_SOLVE_PIN), pageable
 * copies, or with SYLVA_SOLVE_STAGE=1 the worker's pinned slots,
 * kernels/gpu_stage.h),
 * the solve
 * blob (R), the workspace (SCRATCH), every group's L slice (R) and, when
 * refining, the residual's pattern blob and A's values (R). On the
 * worker's stream: the L pointers, B permuted into x, the forward and
 * backward sweeps, then the refinement loop of refine.c on device buffers
 * (the residual kernel, a correction solve, x += d; each step reads the
 * per-column backward errors back, a few bytes), and x permuted back into
 * B (SYLVA_SOLVE_TRACE=FILE: the sweeps' per-item trace of the first
 * solve written there, a diagnostic). One task rather than one per group: a solve does O(m·k) work per
 * front, less than a task's fixed cost for most fronts, and every task
 * would write the same x, so they could not overlap anyway. CUDA only; a
 * failure is kept in the arguments (status and message) for the
 * submitter.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_stage.h"
#include "runtime_internal.h"

/* The refinement's operations on the device (refine.c's ops). */
typedef struct gpu_refine {
    sylva__solve_gpu_args *a;
    const sylva__solve_desc *d;
    const sylva__solve_bufs *b;
    sylva__solve_pattern pat;
    const double *avals;
    double *x, *rhs, *r, *dx, *omega_dev;
    struct CUstream_st *s;
} gpu_refine;

static int op_residual(void *c, double *omega)
{
    gpu_refine *g = c;
    int64_t nrhs = g->a->nrhs;
    int st = sylva__gpu_residual(&g->pat, g->avals, nrhs, g->x, g->rhs, g->r, g->omega_dev, g->s);
    return st ? st : sylva__gpu_copy_to_host(omega, g->omega_dev, (size_t)nrhs * sizeof(double), g->s);
}

static int op_solve(void *c)
{
    gpu_refine *g = c;
    size_t bytes = (size_t)(g->d->n * g->a->nrhs) * sizeof(double);
    int st = sylva__gpu_copy_device(g->dx, g->r, bytes, g->s);
    if (!st) st = sylva__gpu_solve_forward(g->d, g->b, g->a->nrhs, g->dx, 0, g->s);
    return st ? st : sylva__gpu_solve_backward(g->d, g->b, g->a->nrhs, g->dx, 0, g->s);
}

static int op_update(void *c, int sign)
{
    gpu_refine *g = c;
    return sylva__gpu_axpy(g->d->n, g->a->nrhs, sign, g->x, g->dx, g->s);
}

/* The pivot check: every front's first bad pivot (or log sum) and its
 * extreme pivots, copied back. */
static int check_pivots(sylva__solve_gpu_args *a, const sylva__solve_desc *d, const sylva__solve_bufs *b,
                        struct CUstream_st *s)
{
    const char *ws = b->work;
    int st = sylva__gpu_solve_setup(d, b, s);
    if (!st) st = sylva__gpu_solve_pivots(d, b, s);
    if (!st) st = sylva__gpu_copy_to_host(a->bad, ws + b->ws.bad, (size_t)d->nfronts * sizeof(int), s);
    if (!st) st = sylva__gpu_copy_to_host(a->badval, ws + b->ws.badval, (size_t)d->nfronts * sizeof(double), s);
    if (!st) st = sylva__gpu_copy_to_host(a->plo, ws + b->ws.plo, (size_t)d->nfronts * sizeof(double), s);
    if (!st) st = sylva__gpu_copy_to_host(a->phi, ws + b->ws.phi, (size_t)d->nfronts * sizeof(double), s);
    return st;
}

/* 1 with SYLVA_SOLVE_STAGE=1: host blocks through the staging slots. Off
 * by default: on the H100 host the staged copy with 8 threads ran at 33
 * (up) and 37 GB/s (down) in a plain process but at ~7 GB/s inside this
 * task, slower than the pageable copy (8.9 / 13.6 GB/s): the copy threads
 * share the cores with StarPU's 15 CPU workers (docs/perf-log.md, "The
 * solve, v5"). A switch for the work that makes them fit together. */
static int staging_on(void)
{
    static int on = -1;
    return sylva__env_switch("SYLVA_SOLVE_STAGE", 0, &on);
}

/* SYLVA_SOLVE_PIN=MODE[,MIN_KB[,PIECE_KB]] (read once): how the caller's
 * host block is page-locked for its copies (gpu_stage.h's
 * sylva__gpu_pin_upload: 0 pageable, 1 registered whole, 2 in pieces of
 * PIECE_KB), for blocks of at least MIN_KB; else the defaults below. */
typedef struct pin_setting {
    int mode;
    size_t min_bytes, piece_bytes;
} pin_setting;

#define SOLVE_PIN_MODE 2
#define SOLVE_PIN_MIN_KB 4096
#define SOLVE_PIN_PIECE_KB 65536

static pin_setting pin_settings(void)
{
    static pin_setting p = {-1, 0, 0};
    static starpu_pthread_mutex_t lock = STARPU_PTHREAD_MUTEX_INITIALIZER;
    STARPU_PTHREAD_MUTEX_LOCK(&lock);
    if (p.mode < 0) {
        long mode = SOLVE_PIN_MODE, min_kb = SOLVE_PIN_MIN_KB, piece_kb = SOLVE_PIN_PIECE_KB;
        const char *e = getenv("SYLVA_SOLVE_PIN");
        if (e && *e) {
            char *end = NULL;
            long v = strtol(e, &end, 10);
            if (end != e && v >= 0 && v <= 2) mode = v;
            if (end && *end == ',') {
                v = strtol(end + 1, &end, 10);
                if (v >= 0) min_kb = v;
            }
            if (end && *end == ',') {
                v = strtol(end + 1, &end, 10);
                if (v > 0) piece_kb = v;
            }
        }
        p = (pin_setting){(int)mode, (size_t)min_kb << 10, (size_t)piece_kb << 10};
    }
    pin_setting r = p;
    STARPU_PTHREAD_MUTEX_UNLOCK(&lock);
    return r;
}

/* The caller's host block to the device: one pageable
 * cudaMemcpy2DAsync, the block page-locked for the solve (pin_settings),
 * or (staging_on) through the worker's pinned staging slots filled by
 * several threads (gpu_stage.h; a block of at most 256 KB goes straight:
 * threads and slots would not pay for themselves). */
static int copy_up(sylva__gpu_pin *pin, double *dst, int64_t ldd, const double *src, int64_t lds, int64_t rows,
                   int64_t cols, struct CUstream_st *s)
{
    memset(pin, 0, sizeof *pin);
    sylva__gpu_context *ctx = sylva__gpu_worker_context(starpu_worker_get_id());
    if (ctx && staging_on() && (double)rows * (double)cols * sizeof(double) > 256 * 1024.0) {
        sylva__gpu_stage *stage = NULL;
        int st = sylva__gpu_context_stage(ctx, &stage);
        return st ? st : sylva__gpu_stage_copy(stage, dst, ldd, src, lds, rows, cols, 1, s);
    }
    pin_setting ps = pin_settings();
    return sylva__gpu_pin_upload(pin, ps.mode, ps.min_bytes, ps.piece_bytes, dst, ldd, src, lds, rows, cols, s);
}

/* And back, the way copy_up went (its pin unregistered after). */
static int copy_down(sylva__gpu_pin *pin, double *dst, int64_t ldd, const double *src, int64_t lds, int64_t rows,
                     int64_t cols, struct CUstream_st *s)
{
    sylva__gpu_context *ctx = sylva__gpu_worker_context(starpu_worker_get_id());
    if (ctx && staging_on() && (double)rows * (double)cols * sizeof(double) > 256 * 1024.0) {
        sylva__gpu_stage *stage = NULL;
        int st = sylva__gpu_context_stage(ctx, &stage);
        return st ? st : sylva__gpu_stage_copy(stage, dst, ldd, src, lds, rows, cols, 0, s);
    }
    return sylva__gpu_pin_download(pin, dst, ldd, src, lds, rows, cols, s);
}

int sylva__solve_gpu_body(sylva__solve_gpu_args *a, const sylva__solve_gpu_ptrs *p, struct CUstream_st *s)
{
    const sylva__solve_desc *d = &a->gs->desc;
    int64_t n = d->n, nrhs = a->nrhs;
    sylva__solve_bufs b = {.blob = p->blob, .group_L = a->group_L, .work = p->work};
    sylva__solve_ws_layout(d, nrhs, a->refine != 0, &b.ws);
    if (p->work_bytes < b.ws.bytes)
        return sylva__fail(SYLVA_ERR_RUNTIME, "GPU solve workspace of %zu bytes, %zu needed", p->work_bytes,
                           b.ws.bytes);
    if (a->pivots) return check_pivots(a, d, &b, s);
    char *ws = b.work;
    double *x = (double *)(ws + b.ws.x);
    double *B;
    int64_t ldb;
    int st = SYLVA_OK;
    double t0 = sylva__now();
    sylva__gpu_pin pin;
    memset(&pin, 0, sizeof pin);
    if (a->host_B) { /* the caller's host arrays: copied in here, not by StarPU (see solve_gpu.c) */
        B = (double *)(ws + b.ws.stage);
        ldb = n > 0 ? n : 1;
        st = copy_up(&pin, B, ldb, a->host_B, a->host_ldb, n, nrhs, s);
        a->seconds_upload = sylva__now() - t0;
        t0 = sylva__now();
    } else {
        B = p->B;
        ldb = p->ldb;
    }
    /* A diagnostic: SYLVA_SOLVE_TRACE=FILE writes the first solve's
     * per-item times there (gpu_solve.h); it allocates and waits. */
    const char *trace = getenv("SYLVA_SOLVE_TRACE");
    if (!st && trace && *trace) st = sylva__gpu_solve_trace_begin(d, nrhs, &b);
    if (!st && (!p->lp_ready || b.trace[0])) st = sylva__gpu_solve_setup(d, &b, s);
    if (!st) st = sylva__gpu_solve_begin(d, &b, nrhs, B, ldb, x, s); /* and the sweeps' counters zeroed */
    if (!st && a->refine)
        st = sylva__gpu_copy_device(ws + b.ws.b, x, (size_t)(n * nrhs) * sizeof(double), s);
    if (!st) st = sylva__gpu_solve_forward(d, &b, nrhs, x, 1, s);
    if (!st) st = sylva__gpu_solve_backward(d, &b, nrhs, x, 1, s);
    /* A wait here only to split the solve's seconds from the refinement's
     * (the trace waits anyway): without refinement the permutation back is
     * queued behind the sweeps and its wait ends the solve's seconds, one
     * host round trip fewer (docs/perf-log.md, "The solve, v24"). */
    const int split = a->refine || b.trace[0];
    if (!st && split) st = sylva__gpu_sync(s);
    a->seconds_solve = sylva__now() - t0;
    if (b.trace[0]) {
        int traced = sylva__gpu_solve_trace_end(d, &b, nrhs, trace, s);
        if (!st) st = traced;
    }
    if (!st && a->refine) {
        t0 = sylva__now();
        const char *pat = p->pattern;
        const sylva__gpu_solve_plan *gs = a->gs;
        gpu_refine g = {.a = a, .d = d, .b = &b, .avals = p->avals,
                        .x = x, .rhs = (double *)(ws + b.ws.b), .r = (double *)(ws + b.ws.r),
                        .dx = (double *)(ws + b.ws.d),
                        .omega_dev = (double *)(ws + b.ws.omega), .s = s};
        g.pat = (sylva__solve_pattern){n, (const int64_t *)(pat + gs->pat_rowptr),
                                       (const int64_t *)(pat + gs->pat_colind),
                                       (const int64_t *)(pat + gs->pat_valind)};
        sylva__refine_ops ops = {&g, op_residual, op_solve, op_update};
        st = sylva__refine(&ops, a->refine, a->eps, nrhs, a->omega, &a->steps, &a->berr_before,
                           &a->berr_after);
        a->seconds_refine = sylva__now() - t0;
    }
    if (!st) st = sylva__gpu_solve_permute(d, &b, 0, nrhs, B, ldb, x, s);
    if (!st) st = sylva__gpu_sync(s);
    if (!split) a->seconds_solve = sylva__now() - t0;
    if (!st && a->host_B) {
        t0 = sylva__now();
        st = copy_down(&pin, a->host_B, a->host_ldb, B, ldb, n, nrhs, s);
        a->seconds_download = sylva__now() - t0;
    }
    sylva__gpu_pin_release(&pin); /* a failure between the copies: the block unregistered all the same */
    a->pin_how = pin.how;
    a->seconds_register = pin.seconds_register;
    a->seconds_unregister = pin.seconds_unregister;
    return st;
}

static void solve_gpu_cuda(void *buffers[], void *cl_arg)
{
    sylva__solve_gpu_args *a = cl_arg;
    a->t_start = sylva__now();
    const sylva__solve_desc *d = &a->gs->desc;
    for (int g = 0; g < d->ngroups; g++) a->group_L[g] = sylva__buf_ptr(buffers[a->buf_L0 + g]);
    sylva__solve_gpu_ptrs p = {.blob = sylva__buf_ptr(buffers[a->buf_blob]),
                               .work = sylva__buf_ptr(buffers[a->buf_work]),
                               .work_bytes = sylva__buf_bytes(buffers[a->buf_work])};
    if (a->buf_B >= 0) {
        p.B = (double *)STARPU_MATRIX_GET_PTR(buffers[a->buf_B]);
        p.ldb = STARPU_MATRIX_GET_LD(buffers[a->buf_B]);
    }
    if (a->buf_pattern >= 0) p.pattern = sylva__buf_ptr(buffers[a->buf_pattern]);
    if (a->buf_avals >= 0) p.avals = sylva__buf_ptr(buffers[a->buf_avals]);
    a->status = sylva__solve_gpu_body(a, &p, sylva__worker_stream());
    a->t_end = sylva__now();
    if (a->status) snprintf(a->error, sizeof a->error, "%s", sylva__last_error());
}

struct starpu_codelet sylva__solve_gpu_codelet = {
    .cuda_funcs = {solve_gpu_cuda},
    .nbuffers = STARPU_VARIABLE_NBUFFERS,
    .name = "sylva_solve_gpu",
};
