/* codelet_tiles.c — the four dense tile codelets of a tiled (native) front:
 * POTRF, TRSM, SYRK and GEMM on tiles of a front's pivot block P and
 * contribution block C (matrix interfaces, column-major, lower). One concept
 * — the tile kernels of a right-looking Cholesky — so they share a file; CPU
 * twins here (OpenBLAS). A failing POTRF records its front column (LAPACK
 * info offset by the tile's first column) unless one is already recorded.
 */
#include "blas.h"
#include "runtime.h"

static void potrf_cpu(void *buffers[], void *cl_arg)
{
    const sylva__tile_args *a = cl_arg;
    double *T = (double *)STARPU_MATRIX_GET_PTR(buffers[0]);
    int n = (int)STARPU_MATRIX_GET_NX(buffers[0]), ld = (int)STARPU_MATRIX_GET_LD(buffers[0]), info = 0;
    dpotrf_("L", &n, T, &ld, &info);
    if (info && *a->front_info == 0) *a->front_info = (int)(a->col0 + info);
}

/* B := B · L⁻ᵀ (B below the diagonal tile L). */
static void trsm_cpu(void *buffers[], void *cl_arg)
{
    (void)cl_arg;
    const double *L = (const double *)STARPU_MATRIX_GET_PTR(buffers[0]);
    double *B = (double *)STARPU_MATRIX_GET_PTR(buffers[1]);
    cblas_dtrsm(CblasColMajor, CblasRight, CblasLower, CblasTrans, CblasNonUnit,
                (int)STARPU_MATRIX_GET_NX(buffers[1]), (int)STARPU_MATRIX_GET_NY(buffers[1]), 1.0, L,
                (int)STARPU_MATRIX_GET_LD(buffers[0]), B, (int)STARPU_MATRIX_GET_LD(buffers[1]));
}

/* C := C − A · Aᵀ (lower). */
static void syrk_cpu(void *buffers[], void *cl_arg)
{
    (void)cl_arg;
    const double *A = (const double *)STARPU_MATRIX_GET_PTR(buffers[0]);
    double *C = (double *)STARPU_MATRIX_GET_PTR(buffers[1]);
    cblas_dsyrk(CblasColMajor, CblasLower, CblasNoTrans, (int)STARPU_MATRIX_GET_NX(buffers[1]),
                (int)STARPU_MATRIX_GET_NY(buffers[0]), -1.0, A, (int)STARPU_MATRIX_GET_LD(buffers[0]),
                1.0, C, (int)STARPU_MATRIX_GET_LD(buffers[1]));
}

/* C := C − A · Bᵀ. */
static void gemm_cpu(void *buffers[], void *cl_arg)
{
    (void)cl_arg;
    const double *A = (const double *)STARPU_MATRIX_GET_PTR(buffers[0]);
    const double *B = (const double *)STARPU_MATRIX_GET_PTR(buffers[1]);
    double *C = (double *)STARPU_MATRIX_GET_PTR(buffers[2]);
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, (int)STARPU_MATRIX_GET_NX(buffers[2]),
                (int)STARPU_MATRIX_GET_NY(buffers[2]), (int)STARPU_MATRIX_GET_NY(buffers[0]), -1.0, A,
                (int)STARPU_MATRIX_GET_LD(buffers[0]), B, (int)STARPU_MATRIX_GET_LD(buffers[1]), 1.0, C,
                (int)STARPU_MATRIX_GET_LD(buffers[2]));
}

/* History-based models keyed by tile shape (StarPU's default footprint). */
static struct starpu_perfmodel potrf_model = {.type = STARPU_HISTORY_BASED, .symbol = "sylva_tile_potrf"};
static struct starpu_perfmodel trsm_model = {.type = STARPU_HISTORY_BASED, .symbol = "sylva_tile_trsm"};
static struct starpu_perfmodel syrk_model = {.type = STARPU_HISTORY_BASED, .symbol = "sylva_tile_syrk"};
static struct starpu_perfmodel gemm_model = {.type = STARPU_HISTORY_BASED, .symbol = "sylva_tile_gemm"};

struct starpu_codelet sylva__tile_potrf_codelet = {
    .cpu_funcs = {potrf_cpu}, .nbuffers = 1, .modes = {STARPU_RW}, .model = &potrf_model,
    .name = "tile_potrf"};
struct starpu_codelet sylva__tile_trsm_codelet = {
    .cpu_funcs = {trsm_cpu}, .nbuffers = 2, .modes = {STARPU_R, STARPU_RW}, .model = &trsm_model,
    .name = "tile_trsm"};
struct starpu_codelet sylva__tile_syrk_codelet = {
    .cpu_funcs = {syrk_cpu}, .nbuffers = 2, .modes = {STARPU_R, STARPU_RW}, .model = &syrk_model,
    .name = "tile_syrk"};
struct starpu_codelet sylva__tile_gemm_codelet = {
    .cpu_funcs = {gemm_cpu}, .nbuffers = 3, .modes = {STARPU_R, STARPU_R, STARPU_RW},
    .model = &gemm_model, .name = "tile_gemm"};
