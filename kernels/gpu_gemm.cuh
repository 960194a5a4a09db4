/* gpu_gemm.cuh — launchers of the vbatched NT GEMM (gpu_gemm.cu) for the
 * medium path and the SYRK/GEMM entries. Internal to kernels/. */
#ifndef SYLVA_KERNELS_GPU_GEMM_CUH
#define SYLVA_KERNELS_GPU_GEMM_CUH

#include "gpu_common.cuh"

/* Device arrays of one GEMM batch (C ← alpha·A·Bᵀ + beta·C). */
typedef struct sylva__gemm_args {
    int count;
    const int *m, *n, *k;
    double *const *A;
    const int *lda;
    double *const *B;
    const int *ldb;
    double *const *C;
    const int *ldc;
    int tiles; /* set by the launcher: tiles of C over the maxima */
} sylva__gemm_args;

int sylva__launch_gemm_generic(const sylva__gemm_args *g, double alpha, double beta, int lower,
                               int max_m, int max_n, cudaStream_t s);
int sylva__launch_gemm_front_panel(const sylva__front_batch *b, int lo, int max_m, int j, int nb,
                                   cudaStream_t s);
int sylva__launch_gemm_front_syrk(const sylva__front_batch *b, int lo, int max_m, cudaStream_t s);
/* g: m = rows of B, n = order of L, A = L (lda), B = B (ldb). */
int sylva__launch_gemm_trsm_panel(const sylva__gemm_args *g, int max_m, int j, int nb,
                                  cudaStream_t s);

#endif
