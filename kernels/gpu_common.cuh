/* gpu_common.cuh — what the CUDA sources of kernels/ share: the status codes,
 * the size filter every batched kernel applies (a launch serves the fronts
 * with lo < m ≤ hi, the others exit at once), and the internal launchers the
 * dispatcher (gpu_front.cu) strings together. Internal to kernels/. */
#ifndef SYLVA_KERNELS_GPU_COMMON_CUH
#define SYLVA_KERNELS_GPU_COMMON_CUH

#include <cuda_runtime.h>

#include "gpu_front.h"
#include "sylva.h"

#define SYLVA_DIV_UP(a, b) (((a) + (b) - 1) / (b))

/* Status after a launch: a launch error becomes SYLVA_ERR_RUNTIME. */
static inline int sylva__launch_status(void)
{
    return cudaGetLastError() == cudaSuccess ? SYLVA_OK : SYLVA_ERR_RUNTIME;
}

/* gpu_tiny.cu: fronts with lo < m ≤ hi ≤ 32, a lane group per front. */
int sylva__launch_tiny(const sylva__front_batch *b, int lo, int hi, cudaStream_t s);
/* gpu_fused.cu: fronts with lo < m ≤ hi ≤ 192, a block per front. */
int sylva__launch_fused(const sylva__front_batch *b, int lo, int hi, int threads, int panel,
                        cudaStream_t s);
/* gpu_panel.cu: fronts with m > lo by left-looking panels + lower GEMM. */
int sylva__launch_blocked(const sylva__front_batch *b, int lo, int max_m, int max_k, int nb,
                          cudaStream_t s);
int sylva__launch_trsm(int count, const int *m, const int *n, double *const *L, const int *ldl,
                       double *const *B, const int *ldb, int max_m, int max_n, int nb,
                       cudaStream_t s);

#endif
