/* gpu_solve_blas.cuh — the GPU solve's BLAS fronts (gpu_solve.h): the
 * largest fronts of the top and their ancestors, run by cuBLAS one after
 * another when a block of right-hand sides is wide (the sweeps of
 * gpu_solve_flow.cu call these and skip their items). Internal to
 * kernels/. */
#ifndef SYLVA_KERNELS_GPU_SOLVE_BLAS_CUH
#define SYLVA_KERNELS_GPU_SOLVE_BLAS_CUH

#include <cuda_runtime.h>

#include "gpu_solve.h"

namespace sylva {

/* X (n × nrhs, ld n, permuted) through d's BLAS fronts on s with b->blas:
 * forward (children first) each front's pivot rows ← L11⁻¹ · them, its CB
 * rows −= L21 · them; backward (parents first) its pivot rows −= L21ᵀ ·
 * its CB rows, then ← L11⁻ᵀ · them. Queued; b->blas's stream and pointer
 * mode are put back after. */
int blas_sweep(const sylva__solve_desc *d, const sylva__solve_bufs *b, int64_t nrhs, double *X, bool forward,
               cudaStream_t s);
/* Backward: every BLAS front's ready counter (the first of its three in
 * each of nchunks column chunks of 3 F counters from `ready`) set to 1, so
 * that the launches' items under them start at once. */
int blas_ready(const sylva__solve_desc *d, const sylva__solve_bufs *b, int nchunks, int *ready, cudaStream_t s);

} // namespace sylva

#endif
