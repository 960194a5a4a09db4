/* gpu_native_parts.cuh — the two phases of the native path that the tuning
 * table may take off cuSOLVER/cuBLAS (gpu_native_parts.cu), and the layout
 * of the native workspace they share with gpu_native.cu. Internal to
 * kernels/; the C entries are in gpu_front.h. */
#ifndef SYLVA_KERNELS_GPU_NATIVE_PARTS_CUH
#define SYLVA_KERNELS_GPU_NATIVE_PARTS_CUH

#include <cublas_v2.h>
#include <cusolverDn.h>
#include <stdint.h>

#include "kernel_tuning.h"

namespace sylva {

/* Rows of L21 per GEMM of the inverted-block TRSM (its buffer's height). */
#define NATIVE_TRSM_ROWS 8192

/* Byte offsets into the native workspace, for k pivot columns under the
 * table t: leaf descriptors, the inverted-block TRSM's buffers, then
 * cuSOLVER's POTRF workspace (lwork scalars) and a 16-byte status at the
 * very end of whatever the caller gives (work_bytes − 16). */
struct native_layout {
    int64_t leaf, inv, inv_x, inv_ptr, potrf; /* offsets (0 when unused) */
    int nleaves, leaf_nb, trsm_nb, trsm_blocks; /* trsm_blocks: ⌈k / trsm_nb⌉ */
    int trsm_inv;             /* 1: by inverted blocks (buffers at inv); 0: recursive */
    int64_t fixed;            /* bytes before cuSOLVER's workspace */
};
native_layout native_layout_for(int k, const sylva__kernel_tuning *t);

/* F11 (k × k, lower) = L11·L11ᵀ in place, cuSOLVER's POTRF or (t's
 * native_potrf_leaf) recursive halves with batched-kernel leaves; info on
 * the device as LAPACK numbers it. work: the native workspace laid out
 * as lay (native_layout_for(k, t)). */
int native_potrf(cusolverDnHandle_t solver, cublasHandle_t blas, int k, double *P, int ldp,
                 void *work, int64_t work_bytes, const native_layout &lay, int *info,
                 const sylva__kernel_tuning *t, cudaStream_t s);
/* B (m × n) ← B·L⁻ᵀ, L (n × n) lower non-unit: cuBLAS's TRSM, or (n above
 * lay's trsm_nb) by recursive halves with cuBLAS TRSM leaves or by inverted
 * diagonal blocks, GEMM between; n ≤ the k lay was made for. */
int native_trsm(cublasHandle_t blas, int m, int n, const double *L, int ldl, double *B, int ldb,
                void *work, const native_layout &lay, cudaStream_t s);

} // namespace sylva

#endif
