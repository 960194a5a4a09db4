/* t_tiles_cpu.c — the CPU twins of the four dense tile kernels of a tiled
 * front (right-looking Cholesky on tiles of P and C, matrix interfaces,
 * column-major, lower) for one scalar type (a precision template,
 * core/precision.h). A failing POTRF records its front column (LAPACK info
 * offset by the tile's first column) unless one is already recorded. */
#include "precision.h"

static void SYLVA_TNAME(tile_potrf_cpu)(void *buffers[], const sylva__tile_args *a)
{
    Scalar *T = (Scalar *)STARPU_MATRIX_GET_PTR(buffers[0]);
    int n = (int)STARPU_MATRIX_GET_NX(buffers[0]), ld = (int)STARPU_MATRIX_GET_LD(buffers[0]);
    int info = 0;
    SYLVA_LAPACK(potrf)("L", &n, T, &ld, &info);
    if (info && *a->front_info == SYLVA__FRONT_OK) *a->front_info = (int)(a->col0 + info);
}

/* B := B · L⁻ᴴ (B below the diagonal tile L). */
static void SYLVA_TNAME(tile_trsm_cpu)(void *buffers[])
{
    const Scalar *L = (const Scalar *)STARPU_MATRIX_GET_PTR(buffers[0]);
    Scalar *B = (Scalar *)STARPU_MATRIX_GET_PTR(buffers[1]);
    SYLVA_CBLAS(trsm)(CblasColMajor, CblasRight, CblasLower, SYLVA_CBLAS_CONJ_TRANS, CblasNonUnit,
                      (int)STARPU_MATRIX_GET_NX(buffers[1]), (int)STARPU_MATRIX_GET_NY(buffers[1]),
                      1, L, (int)STARPU_MATRIX_GET_LD(buffers[0]), B,
                      (int)STARPU_MATRIX_GET_LD(buffers[1]));
}

/* C := C − A · Aᴴ (lower). */
static void SYLVA_TNAME(tile_syrk_cpu)(void *buffers[])
{
    const Scalar *A = (const Scalar *)STARPU_MATRIX_GET_PTR(buffers[0]);
    Scalar *C = (Scalar *)STARPU_MATRIX_GET_PTR(buffers[1]);
    SYLVA_CBLAS(syrk)(CblasColMajor, CblasLower, CblasNoTrans, (int)STARPU_MATRIX_GET_NX(buffers[1]),
                      (int)STARPU_MATRIX_GET_NY(buffers[0]), -1, A,
                      (int)STARPU_MATRIX_GET_LD(buffers[0]), 1, C,
                      (int)STARPU_MATRIX_GET_LD(buffers[1]));
}

/* C := C − A · Bᴴ. */
static void SYLVA_TNAME(tile_gemm_cpu)(void *buffers[])
{
    const Scalar *A = (const Scalar *)STARPU_MATRIX_GET_PTR(buffers[0]);
    const Scalar *B = (const Scalar *)STARPU_MATRIX_GET_PTR(buffers[1]);
    Scalar *C = (Scalar *)STARPU_MATRIX_GET_PTR(buffers[2]);
    SYLVA_CBLAS(gemm)(CblasColMajor, CblasNoTrans, SYLVA_CBLAS_CONJ_TRANS,
                      (int)STARPU_MATRIX_GET_NX(buffers[2]), (int)STARPU_MATRIX_GET_NY(buffers[2]),
                      (int)STARPU_MATRIX_GET_NY(buffers[0]), -1, A,
                      (int)STARPU_MATRIX_GET_LD(buffers[0]), B,
                      (int)STARPU_MATRIX_GET_LD(buffers[1]), 1, C,
                      (int)STARPU_MATRIX_GET_LD(buffers[2]));
}
