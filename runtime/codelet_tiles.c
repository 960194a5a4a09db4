/* codelet_tiles.c — the dense tile codelets of a tiled front: POTRF, TRSM,
 * SYRK and GEMM on tiles of a front's pivot block P and contribution block
 * C, and the copy that moves tiles out of a whole front and back (fronts
 * shared by GPUs, whose tiles are buffers of their own). One concept — the
 * tile kernels of a right-looking Cholesky — so they share a file; the CPU
 * twins are t_tiles_cpu.c, instantiated here per precision, the GPU ones
 * kernels/gpu_tiles.h on the worker's context (double; STARPU_CUDA_ASYNC).
 * Every task's cl_arg is a sylva__tile_args (the POTRF's also names the
 * front and its status slot) or, for copies, a sylva__tile_copy_args. A GPU
 * call that fails is the factorization's task error.
 */
#include <string.h>

#include "blas.h"
#include "gpu_tiles.h"
#include "runtime_internal.h"

#define SYLVA_DOUBLE
#include "t_tiles_cpu.c"
#define SYLVA_SINGLE
#include "t_tiles_cpu.c"

static int single(const void *cl_arg)
{
    return ((const sylva__tile_args *)cl_arg)->precision == SYLVA_FLOAT32;
}

static void potrf_cpu(void *buffers[], void *cl_arg)
{
    if (single(cl_arg)) sylva__s_tile_potrf_cpu(buffers, cl_arg);
    else sylva__d_tile_potrf_cpu(buffers, cl_arg);
}
static void trsm_cpu(void *buffers[], void *cl_arg)
{
    if (single(cl_arg)) sylva__s_tile_trsm_cpu(buffers);
    else sylva__d_tile_trsm_cpu(buffers);
}
static void syrk_cpu(void *buffers[], void *cl_arg)
{
    if (single(cl_arg)) sylva__s_tile_syrk_cpu(buffers);
    else sylva__d_tile_syrk_cpu(buffers);
}
static void gemm_cpu(void *buffers[], void *cl_arg)
{
    if (single(cl_arg)) sylva__s_tile_gemm_cpu(buffers);
    else sylva__d_tile_gemm_cpu(buffers);
}

/* The GPU twins: matrix buffers on the worker's device. */
#define PTR(b) ((double *)STARPU_MATRIX_GET_PTR(b))
#define NX(b) ((int)STARPU_MATRIX_GET_NX(b))
#define NY(b) ((int)STARPU_MATRIX_GET_NY(b))
#define LD(b) ((int)STARPU_MATRIX_GET_LD(b))

static void gpu_status(const sylva__tile_args *a, int status)
{
    if (status) sylva__numeric_task_error(a->num, status, sylva__last_error());
}
/* The worker's GPU context, at a tile task's start: the device memory
 * sampled for the run's log (its buffers are allocated by now). */
static sylva__gpu_context *context_at_start(const sylva__tile_args *a)
{
    sylva__task_log_sample(a->num, starpu_worker_get_id(), sylva__task_log_now(a->num));
    return sylva__gpu_worker_context(starpu_worker_get_id());
}
static sylva__gpu_context *context(void) { return sylva__gpu_worker_context(starpu_worker_get_id()); }

static void potrf_cuda(void *buffers[], void *cl_arg)
{
    const sylva__tile_args *a = cl_arg;
    gpu_status(a, sylva__gpu_tile_potrf(context_at_start(a), NX(buffers[0]), PTR(buffers[0]), LD(buffers[0]),
                                        sylva__buf_ptr(buffers[1]), (int64_t)sylva__buf_bytes(buffers[1]),
                                        a->front, a->col0));
}
static void trsm_cuda(void *buffers[], void *cl_arg)
{
    gpu_status(cl_arg, sylva__gpu_tile_trsm(context_at_start(cl_arg), NX(buffers[1]), NY(buffers[1]), PTR(buffers[0]),
                                            LD(buffers[0]), PTR(buffers[1]), LD(buffers[1])));
}
static void syrk_cuda(void *buffers[], void *cl_arg)
{
    gpu_status(cl_arg, sylva__gpu_tile_syrk(context_at_start(cl_arg), NX(buffers[1]), NY(buffers[0]), PTR(buffers[0]),
                                            LD(buffers[0]), PTR(buffers[1]), LD(buffers[1])));
}
static void gemm_cuda(void *buffers[], void *cl_arg)
{
    gpu_status(cl_arg, sylva__gpu_tile_gemm(context_at_start(cl_arg), NX(buffers[2]), NY(buffers[2]), NY(buffers[0]),
                                            PTR(buffers[0]), LD(buffers[0]), PTR(buffers[1]),
                                            LD(buffers[1]), PTR(buffers[2]), LD(buffers[2])));
}

/* Copies: buffer 0 is the whole matrix (leading dimension a->ld, a matrix
 * or a vector pool), buffers 1.. the tiles at (row0[t], col0[t]). */
static void copy_cpu(void *buffers[], void *cl_arg)
{
    const sylva__tile_copy_args *a = cl_arg;
    char *whole = sylva__buf_ptr(buffers[0]);
    for (int64_t t = 0; t < a->ntiles; t++) {
        void *b = buffers[1 + t];
        size_t es = STARPU_MATRIX_GET_ELEMSIZE(b), rows = STARPU_MATRIX_GET_NX(b) * es;
        char *tile = (char *)STARPU_MATRIX_GET_PTR(b);
        for (int64_t j = 0; j < NY(b); j++) {
            char *w = whole + ((size_t)(a->col0[t] + j) * (size_t)a->ld + (size_t)a->row0[t]) * es;
            char *x = tile + (size_t)j * (size_t)LD(b) * es;
            if (a->gather) memcpy(w, x, rows);
            else memcpy(x, w, rows);
        }
    }
}
static void copy_cuda(void *buffers[], void *cl_arg)
{
    const sylva__tile_copy_args *a = cl_arg;
    sylva__gpu_context *ctx = context();
    double *whole = sylva__buf_ptr(buffers[0]);
    int status = SYLVA_OK;
    for (int64_t t = 0; t < a->ntiles && !status; t++) {
        void *b = buffers[1 + t];
        double *w = whole + a->col0[t] * a->ld + a->row0[t];
        status = a->gather ? sylva__gpu_tile_copy(ctx, NX(b), NY(b), PTR(b), LD(b), w, a->ld)
                           : sylva__gpu_tile_copy(ctx, NX(b), NY(b), w, a->ld, PTR(b), LD(b));
    }
    if (status) sylva__numeric_task_error(a->num, status, sylva__last_error());
}

/* GPUs run double precision only (both argument kinds start with it). */
static int tile_can_execute(unsigned workerid, struct starpu_task *task, unsigned nimpl)
{
    (void)nimpl;
    if (starpu_worker_get_type((int)workerid) != STARPU_CUDA_WORKER) return 1;
    return *(const sylva_dtype *)task->cl_arg == SYLVA_FLOAT64;
}

/* History-based models keyed by tile shape (StarPU's default footprint). */
static struct starpu_perfmodel potrf_model = {.type = STARPU_HISTORY_BASED, .symbol = "sylva_tile_potrf"};
static struct starpu_perfmodel trsm_model = {.type = STARPU_HISTORY_BASED, .symbol = "sylva_tile_trsm"};
static struct starpu_perfmodel syrk_model = {.type = STARPU_HISTORY_BASED, .symbol = "sylva_tile_syrk"};
static struct starpu_perfmodel gemm_model = {.type = STARPU_HISTORY_BASED, .symbol = "sylva_tile_gemm"};

static struct starpu_perfmodel copy_model = {.type = STARPU_HISTORY_BASED, .symbol = "sylva_tile_copy"};

struct starpu_codelet sylva__tile_potrf_codelet = {
    .cpu_funcs = {potrf_cpu}, .cuda_funcs = {potrf_cuda}, .cuda_flags = {STARPU_CUDA_ASYNC},
    .can_execute = tile_can_execute, .nbuffers = 2, .modes = {STARPU_RW, STARPU_SCRATCH},
    .model = &potrf_model, .name = "tile_potrf"};
struct starpu_codelet sylva__tile_trsm_codelet = {
    .cpu_funcs = {trsm_cpu}, .cuda_funcs = {trsm_cuda}, .cuda_flags = {STARPU_CUDA_ASYNC},
    .can_execute = tile_can_execute, .nbuffers = 2, .modes = {STARPU_R, STARPU_RW},
    .model = &trsm_model, .name = "tile_trsm"};
struct starpu_codelet sylva__tile_syrk_codelet = {
    .cpu_funcs = {syrk_cpu}, .cuda_funcs = {syrk_cuda}, .cuda_flags = {STARPU_CUDA_ASYNC},
    .can_execute = tile_can_execute, .nbuffers = 2, .modes = {STARPU_R, STARPU_RW},
    .model = &syrk_model, .name = "tile_syrk"};
struct starpu_codelet sylva__tile_gemm_codelet = {
    .cpu_funcs = {gemm_cpu}, .cuda_funcs = {gemm_cuda}, .cuda_flags = {STARPU_CUDA_ASYNC},
    .can_execute = tile_can_execute, .nbuffers = 3, .modes = {STARPU_R, STARPU_R, STARPU_RW},
    .model = &gemm_model, .name = "tile_gemm"};
struct starpu_codelet sylva__tile_copy_codelet = {
    .cpu_funcs = {copy_cpu}, .cuda_funcs = {copy_cuda}, .cuda_flags = {STARPU_CUDA_ASYNC},
    .can_execute = tile_can_execute, .nbuffers = STARPU_VARIABLE_NBUFFERS, .model = &copy_model,
    .name = "tile_copy"};
