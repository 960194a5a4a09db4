/* gpu_gemm.cuh — launchers of the vbatched NT GEMM (gpu_gemm.cu) for the
 * medium path and the SYRK/GEMM entries. Internal to kernels/. */
#ifndef SYLVA_KERNELS_GPU_GEMM_CUH
#define SYLVA_KERNELS_GPU_GEMM_CUH

#include "gpu_common.cuh"

namespace sylva {

/* Device arrays of one GEMM batch (C ← alpha·A·Bᵀ + beta·C). */
template <typename T> struct gemm_args {
    int count;
    const int *m, *n, *k;
    T *const *A;
    const int *lda;
    T *const *B;
    const int *ldb;
    T *const *C;
    const int *ldc;
    int tiles; /* set by the launcher: tiles of C over the maxima */
};

/* mma ≠ 0: the FP64 tensor-core tiles (gpu_mma.cuh) where T has them. */
template <typename T>
int launch_gemm_generic(const gemm_args<T> &g, T alpha, T beta, int lower, int max_m, int max_n,
                        int mma, cudaStream_t s);
template <typename T>
int launch_gemm_front_panel(const front_batch<T> &b, int lo, int max_m, int j, int nb, int mma,
                            cudaStream_t s);
template <typename T>
int launch_gemm_front_syrk(const front_batch<T> &b, int lo, int max_m, int mma, cudaStream_t s);
/* g: m = rows of B, n = order of L, A = L (lda), B = B (ldb). */
template <typename T>
int launch_gemm_trsm_panel(const gemm_args<T> &g, int max_m, int j, int nb, int mma,
                           cudaStream_t s);

} // namespace sylva

#endif
