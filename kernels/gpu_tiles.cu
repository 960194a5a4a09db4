/* gpu_tiles.cu — the tile kernels of a large front factored as tile tasks
 * on GPUs (contract in gpu_tiles.h): cuSOLVER's POTRF and cuBLAS's TRSM,
 * SYRK and GEMM on the worker's handles and stream, a one-thread kernel
 * that appends a failed POTRF to the worker's failure list without a host
 * round trip, and cudaMemcpy2DAsync for the copies. */
#include "gpu_blas.cuh"
#include "gpu_common.cuh"
#include "gpu_context_impl.cuh"
#include "gpu_tiles.h"

using namespace sylva;

namespace {

int lib_fail(const char *call, int status)
{
    return sylva__fail(SYLVA_ERR_RUNTIME, "%s on a tile failed (library status %d)", call, status);
}

/* Both handles on the worker's stream, scalars from the host. */
int bind(sylva__gpu_context *ctx)
{
    if (cusolverDnSetStream(ctx->solver, ctx->stream) != CUSOLVER_STATUS_SUCCESS ||
        cublasSetStream(ctx->blas, ctx->stream) != CUBLAS_STATUS_SUCCESS ||
        cublasSetPointerMode(ctx->blas, CUBLAS_POINTER_MODE_HOST) != CUBLAS_STATUS_SUCCESS)
        return sylva__fail(SYLVA_ERR_RUNTIME, "binding the cuSOLVER/cuBLAS handles to the stream failed");
    return SYLVA_OK;
}

__global__ void record_tile_failure(const int *info, long long front, int col0, sylva__gpu_failures *fail)
{
    if (*info <= 0) return;
    const int slot = atomicAdd(&fail->count, 1);
    if (slot < SYLVA__GPU_MAX_FAILURES) {
        fail->front[slot] = front;
        fail->pivot[slot] = col0 + *info;
    }
}

} // namespace

extern "C" int sylva__gpu_tile_potrf(sylva__gpu_context *ctx, int n, double *T, int ld, void *work,
                                     int64_t work_bytes, int64_t front, int64_t col0)
{
    const int64_t lwork = (work_bytes - 16) / (int64_t)sizeof(double);
    if (n < 1) return SYLVA_OK;
    if (!work || lwork < 1 || ld < n)
        return sylva__fail(SYLVA_ERR_ARGUMENT, "tile POTRF of %d rows given %lld bytes of workspace", n,
                           (long long)work_bytes);
    int rc = bind(ctx);
    if (rc != SYLVA_OK) return rc;
    int *info = (int *)((char *)work + (work_bytes - 16));
    cusolverStatus_t s = potrf(ctx->solver, n, T, ld, (double *)work, (int)(lwork > INT32_MAX ? INT32_MAX : lwork), info);
    if (s != CUSOLVER_STATUS_SUCCESS) return lib_fail("cuSOLVER POTRF", s);
    record_tile_failure<<<1, 1, 0, ctx->stream>>>(info, front, (int)col0, ctx->failures);
    return sylva__launch_status();
}

extern "C" int sylva__gpu_tile_trsm(sylva__gpu_context *ctx, int m, int n, const double *L, int ldl,
                                    double *B, int ldb)
{
    const double one = 1;
    if (m < 1 || n < 1) return SYLVA_OK;
    int rc = bind(ctx);
    if (rc != SYLVA_OK) return rc;
    cublasStatus_t s = trsm_right_lt(ctx->blas, m, n, &one, L, ldl, B, ldb);
    return s == CUBLAS_STATUS_SUCCESS ? SYLVA_OK : lib_fail("cuBLAS TRSM", s);
}

extern "C" int sylva__gpu_tile_syrk(sylva__gpu_context *ctx, int n, int k, const double *A, int lda,
                                    double *C, int ldc)
{
    const double one = 1, minus_one = -1;
    if (n < 1 || k < 1) return SYLVA_OK;
    int rc = bind(ctx);
    if (rc != SYLVA_OK) return rc;
    cublasStatus_t s = syrk_ln(ctx->blas, n, k, &minus_one, A, lda, &one, C, ldc);
    return s == CUBLAS_STATUS_SUCCESS ? SYLVA_OK : lib_fail("cuBLAS SYRK", s);
}

extern "C" int sylva__gpu_tile_gemm(sylva__gpu_context *ctx, int m, int n, int k, const double *A,
                                    int lda, const double *B, int ldb, double *C, int ldc)
{
    const double one = 1, minus_one = -1;
    if (m < 1 || n < 1 || k < 1) return SYLVA_OK;
    int rc = bind(ctx);
    if (rc != SYLVA_OK) return rc;
    cublasStatus_t s = gemm_nt(ctx->blas, m, n, k, &minus_one, A, lda, B, ldb, &one, C, ldc);
    return s == CUBLAS_STATUS_SUCCESS ? SYLVA_OK : lib_fail("cuBLAS GEMM", s);
}

extern "C" int sylva__gpu_tile_copy(sylva__gpu_context *ctx, int64_t rows, int64_t cols,
                                    const double *src, int64_t lds, double *dst, int64_t ldd)
{
    if (rows < 1 || cols < 1) return SYLVA_OK;
    cudaError_t e = cudaMemcpy2DAsync(dst, (size_t)ldd * sizeof(double), src, (size_t)lds * sizeof(double),
                                      (size_t)rows * sizeof(double), (size_t)cols, cudaMemcpyDeviceToDevice,
                                      ctx->stream);
    if (e != cudaSuccess)
        return sylva__fail(SYLVA_ERR_RUNTIME, "copying a tile of %lld × %lld failed: %s", (long long)rows,
                           (long long)cols, cudaGetErrorString(e));
    return SYLVA_OK;
}
