/* gpu_blas.cuh — the cuSOLVER/cuBLAS calls of the native path as overloads
 * on the scalar type, so the code that uses them is written once (the one
 * place a precision's library names appear). Lower triangles, column-major,
 * host pointer mode; each returns the library's status. Internal to
 * kernels/. */
#ifndef SYLVA_KERNELS_GPU_BLAS_CUH
#define SYLVA_KERNELS_GPU_BLAS_CUH

#include "gpu_libs.cuh" /* cuBLAS and cuSOLVER, opened at run time */

namespace sylva {

/* A (n × n, lower) = L·Lᵀ. */
static inline cusolverStatus_t potrf_buffer_size(cusolverDnHandle_t h, int n, double *A, int lda, int *lwork)
{
    return cusolverDnDpotrf_bufferSize(h, CUBLAS_FILL_MODE_LOWER, n, A, lda, lwork);
}
static inline cusolverStatus_t potrf_buffer_size(cusolverDnHandle_t h, int n, float *A, int lda, int *lwork)
{
    return cusolverDnSpotrf_bufferSize(h, CUBLAS_FILL_MODE_LOWER, n, A, lda, lwork);
}
static inline cusolverStatus_t potrf(cusolverDnHandle_t h, int n, double *A, int lda, double *work,
                                     int lwork, int *info)
{
    return cusolverDnDpotrf(h, CUBLAS_FILL_MODE_LOWER, n, A, lda, work, lwork, info);
}
static inline cusolverStatus_t potrf(cusolverDnHandle_t h, int n, float *A, int lda, float *work,
                                     int lwork, int *info)
{
    return cusolverDnSpotrf(h, CUBLAS_FILL_MODE_LOWER, n, A, lda, work, lwork, info);
}

/* B (m × n) ← alpha·B·L⁻ᵀ, L (n × n) lower, non-unit. */
static inline cublasStatus_t trsm_right_lt(cublasHandle_t h, int m, int n, const double *alpha,
                                           const double *L, int ldl, double *B, int ldb)
{
    return cublasDtrsm(h, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T,
                       CUBLAS_DIAG_NON_UNIT, m, n, alpha, L, ldl, B, ldb);
}
static inline cublasStatus_t trsm_right_lt(cublasHandle_t h, int m, int n, const float *alpha,
                                           const float *L, int ldl, float *B, int ldb)
{
    return cublasStrsm(h, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T,
                       CUBLAS_DIAG_NON_UNIT, m, n, alpha, L, ldl, B, ldb);
}

/* C (n × n, lower) ← alpha·A·Aᵀ + beta·C, A n × k. */
static inline cublasStatus_t syrk_ln(cublasHandle_t h, int n, int k, const double *alpha,
                                     const double *A, int lda, const double *beta, double *C, int ldc)
{
    return cublasDsyrk(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, n, k, alpha, A, lda, beta, C, ldc);
}
static inline cublasStatus_t syrk_ln(cublasHandle_t h, int n, int k, const float *alpha,
                                     const float *A, int lda, const float *beta, float *C, int ldc)
{
    return cublasSsyrk(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, n, k, alpha, A, lda, beta, C, ldc);
}

/* C (m × n) ← alpha·A·Bᵀ + beta·C. */
static inline cublasStatus_t gemm_nt(cublasHandle_t h, int m, int n, int k, const double *alpha,
                                     const double *A, int lda, const double *B, int ldb,
                                     const double *beta, double *C, int ldc)
{
    return cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_T, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}
static inline cublasStatus_t gemm_nt(cublasHandle_t h, int m, int n, int k, const float *alpha,
                                     const float *A, int lda, const float *B, int ldb,
                                     const float *beta, float *C, int ldc)
{
    return cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_T, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

} // namespace sylva

#endif
