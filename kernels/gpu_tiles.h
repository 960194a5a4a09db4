/* gpu_tiles.h — the dense tile kernels of a large front factored as tile
 * tasks on GPUs (the right-looking tiled Cholesky of runtime/front_tiles.c),
 * on one GPU worker's context: POTRF of a diagonal tile (cuSOLVER; a
 * failing pivot goes to the context's failure list as (front, column of the
 * front)), TRSM, SYRK and GEMM of the updates (cuBLAS), and the strided
 * copy that moves a tile between a whole front and the tile's own buffer.
 * Column-major, lower triangles, double; the semantics are those of the CPU
 * twins (runtime/t_tiles_cpu.c). Everything is queued on the context's
 * stream with host pointer mode; nothing waits. Return 0, or
 * SYLVA_ERR_RUNTIME (a library call or launch failed; message set), or
 * SYLVA_ERR_UNSUPPORTED (built without CUDA).
 */
#ifndef SYLVA_KERNELS_GPU_TILES_H
#define SYLVA_KERNELS_GPU_TILES_H

#include <stddef.h>
#include <stdint.h>

#include "gpu_context.h"

#ifdef __cplusplus
extern "C" {
#endif

/* T (n × n, lower) = L·Lᵀ in place, with work_bytes of workspace at work
 * (cuSOLVER's POTRF workspace for n, then a 16-byte status: what
 * sylva__gpu_context_native_bytes gives for k ≥ n). When the leading
 * j × j minor is not positive definite, (front, col0 + j) is appended to
 * ctx's failure list. */
int sylva__gpu_tile_potrf(sylva__gpu_context *ctx, int n, double *T, int ld, void *work,
                          int64_t work_bytes, int64_t front, int64_t col0);
/* B (m × n) ← B · L⁻ᵀ, L (n × n) lower, non-unit. */
int sylva__gpu_tile_trsm(sylva__gpu_context *ctx, int m, int n, const double *L, int ldl, double *B,
                         int ldb);
/* C (n × n, lower) ← C − A·Aᵀ, A n × k. */
int sylva__gpu_tile_syrk(sylva__gpu_context *ctx, int n, int k, const double *A, int lda, double *C,
                         int ldc);
/* C (m × n) ← C − A·Bᵀ, A m × k, B n × k. */
int sylva__gpu_tile_gemm(sylva__gpu_context *ctx, int m, int n, int k, const double *A, int lda,
                         const double *B, int ldb, double *C, int ldc);
/* dst (rows × cols, leading dim ldd) ← src (leading dim lds), device to
 * device, on the context's stream. */
int sylva__gpu_tile_copy(sylva__gpu_context *ctx, int64_t rows, int64_t cols, const double *src,
                         int64_t lds, double *dst, int64_t ldd);

#ifdef __cplusplus
}
#endif

#endif
