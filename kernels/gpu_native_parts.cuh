/* gpu_native_parts.cuh — the native path's parts: the TRSM in the form the
 * tuning table may choose instead of cuBLAS's and the CB update
 * (gpu_native_parts.cu), the pivot chain beside the CB update
 * (gpu_native_chain.cu), and the layout of the native workspace they share
 * with gpu_native.cu. Internal to kernels/; the C entries are in
 * gpu_front.h. */
#ifndef SYLVA_KERNELS_GPU_NATIVE_PARTS_CUH
#define SYLVA_KERNELS_GPU_NATIVE_PARTS_CUH

#include <cublas_v2.h>
#include <cusolverDn.h>
#include <stdint.h>

#include "gpu_front.h"
#include "kernel_tuning.h"

namespace sylva {

/* Rows of L21 per GEMM of the inverted-block TRSM (its buffer's height). */
#define NATIVE_TRSM_ROWS 8192

/* Byte offsets into the native workspace, for k pivot columns under the
 * table t: the inverted-block TRSM's buffers, the chain's one-front batch
 * arrays (3 ints and a pointer per diagonal block; with native_chain_trsm
 * the diagonal block's inverse and a buffer of NATIVE_TRSM_ROWS × nb),
 * then cuSOLVER's POTRF
 * workspace (lwork scalars) and a 16-byte status at the very end of
 * whatever the caller gives (work_bytes − 16). */
struct native_layout {
    int64_t inv, inv_x, inv_ptr, chain, chain_ptr, potrf; /* offsets (0 when unused) */
    int chain_nb, chain_blocks;         /* the chain's block width (0: no chain), ⌈k / chain_nb⌉ */
    int64_t chain_w, chain_x;           /* the chain's TRSM by inverse: W (nb²), X (8192 × nb); 0: none */
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

/* C (r × r, lower) −= L·Lᵀ, L (r × kk): cuBLAS's SYRK (nb ≤ 0 or ≥ r), else
 * column tiles of width nb, a SYRK on each diagonal block and one GEMM below
 * it. The handle bound to its stream by the caller. */
int native_cb_update(cublasHandle_t blas, int r, int kk, const double *L, int ldl, double *C,
                     int ldc, int nb);

/* The whole front by the pivot chain on aux's stream beside the CB update
 * on s (gpu_native_chain.cu); lay.chain_nb > 0; blas and solver bound to
 * s by the caller; work/work_bytes as for factor_native. */
int native_chain(cusolverDnHandle_t solver, cublasHandle_t blas, const sylva__gpu_native_aux *aux,
                 int m, int k, double *P, int ldp, double *C, int ldc, void *work,
                 int64_t work_bytes, const native_layout &lay, int *info,
                 const sylva__kernel_tuning *t, cudaStream_t s);

} // namespace sylva

#endif
