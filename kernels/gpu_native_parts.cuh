/* gpu_native_parts.cuh — the native path's TRSM in the form the tuning
 * table may choose instead of cuBLAS's (gpu_native_parts.cu), and the
 * layout of the native workspace it shares with gpu_native.cu. Internal to
 * kernels/; the C entry is in gpu_front.h. */
#ifndef SYLVA_KERNELS_GPU_NATIVE_PARTS_CUH
#define SYLVA_KERNELS_GPU_NATIVE_PARTS_CUH

#include "gpu_libs.cuh" /* cuBLAS and cuSOLVER, opened at run time */
#include <stdint.h>

#include "kernel_tuning.h"

namespace sylva {

/* Rows of L21 per GEMM of the inverted-block TRSM (its buffer's height). */
#define NATIVE_TRSM_ROWS 8192

/* Byte offsets into the native workspace, for k pivot columns under the
 * table t: the inverted-block TRSM's buffers, then cuSOLVER's POTRF
 * workspace (lwork scalars) and a 16-byte status at the very end of
 * whatever the caller gives (work_bytes − 16). */
struct native_layout {
    int64_t inv, inv_x, inv_ptr, potrf; /* offsets (0 when unused) */
    int trsm_nb, trsm_blocks;           /* trsm_blocks: ⌈k / trsm_nb⌉ */
    int trsm_doubling;                  /* the inverses by doubling (else one batched TRSM) */
    int64_t fixed;            /* bytes before cuSOLVER's workspace */
};
native_layout native_layout_for(int k, const sylva__kernel_tuning *t);

/* B (m × n) ← B·L⁻ᵀ, L (n × n) lower non-unit: cuBLAS's TRSM, or (n above
 * lay's trsm_nb) by inverted diagonal blocks and GEMM; n ≤ the k lay was
 * made for. */
int native_trsm(cublasHandle_t blas, int m, int n, const double *L, int ldl, double *B, int ldb,
                void *work, const native_layout &lay, cudaStream_t s);

} // namespace sylva

#endif
