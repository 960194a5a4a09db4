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

/* The medium path's front list (tuning key medium_list, a batch with a
 * work scratch; built by gpu_panel.cu's list kernel at the start of the
 * path): work[s], s < MED_PMAX: how many listed fronts have more than s
 * panels of nb columns (the count of panels capped at MED_PMAX); then, at
 * SYLVA_FRONT_WORK_HDR, the fronts with m > lo, k > 0 and info = 0 when the
 * path starts, most panels first (the order inside one count unspecified).
 * A launch at panel step s serves entries [0, work[min(s, MED_PMAX − 1)]):
 * every front with k > s·nb (and, past MED_PMAX panels, some without, which
 * the kernels' own tests skip). Without a list (lw = nullptr) entry i is
 * front i, and all count fronts are served. */
#define MED_PMAX 64
__device__ __forceinline__ int med_count(const int *lw, int count, int step)
{
    return lw ? lw[step < MED_PMAX - 1 ? step : MED_PMAX - 1] : count;
}
__device__ __forceinline__ int med_front(const int *lw, int i)
{
    return lw ? lw[SYLVA_FRONT_WORK_HDR + i] : i;
}
/* The front's rows, pivots, status, leading dim and P: with EARLY in one
 * round trip (gpu_common.cuh's ld_early: the list forms), else as v9 read them. */
template <typename T, bool EARLY>
__device__ __forceinline__ void front_meta(const front_batch<T> &b, int f, int &m, int &k, int &info,
                                           int &ld, T *&P)
{
    if constexpr (EARLY) {
        m = ld_early(b.m + f), k = ld_early(b.k + f), info = ld_early(b.info + f);
        ld = ld_early(b.ldp + f), P = ld_early(b.P + f);
    } else {
        m = b.m[f], k = b.k[f], info = b.info[f], ld = b.ldp[f], P = b.P[f];
    }
}

/* Host: the grid's x extent of a medium launch over count fronts: count
 * (a block per entry; those past the served entries exit) for medium_list
 * ≤ 1, else medium_list blocks per SM (looping over the entries). */
unsigned med_grid_x(int count, int medium_list);

/* mma ≠ 0: the FP64 tensor-core tiles (gpu_mma.cuh) where T has them. */
template <typename T>
int launch_gemm_generic(const gemm_args<T> &g, T alpha, T beta, int lower, int max_m, int max_n,
                        int mma, cudaStream_t s);
/* lw: the medium list or nullptr; gx: the grid's x extent (med_grid_x). */
template <typename T>
int launch_gemm_front_panel(const front_batch<T> &b, const int *lw, unsigned gx, int lo,
                            int max_m, int j, int nb, int mma, cudaStream_t s);
/* With a list, a block per lower tile of C only (without, every tile). */
template <typename T>
int launch_gemm_front_syrk(const front_batch<T> &b, const int *lw, unsigned gx, int lo, int max_m,
                           int mma, cudaStream_t s);
/* g: m = rows of B, n = order of L, A = L (lda), B = B (ldb). */
template <typename T>
int launch_gemm_trsm_panel(const gemm_args<T> &g, int max_m, int j, int nb, int mma,
                           cudaStream_t s);

} // namespace sylva

#endif
