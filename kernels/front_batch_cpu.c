/* front_batch_cpu.c — CPU twins of the batched GPU kernels (contract in
 * front_batch_cpu.h): loops over front_cpu.h and CBLAS. */
#include "front_batch_cpu.h"

#include "blas.h"
#include "front_cpu.h"

void sylva__front_factor_batch_cpu(int count, const int *m, const int *k, double *const *P,
                                   const int *ldp, double *const *C, const int *ldc, int *info)
{
    for (int i = 0; i < count; i++)
        if (info[i] == 0 && m[i] > 0 && k[i] > 0)
            info[i] = sylva__front_factor_cpu(m[i], k[i], P[i], ldp[i], m[i] > k[i] ? C[i] : 0,
                                              ldc[i]);
}

void sylva__potrf_batch_cpu(int count, const int *n, double *const *A, const int *lda, int *info)
{
    for (int i = 0; i < count; i++)
        if (info[i] == 0 && n[i] > 0)
            info[i] = sylva__front_factor_cpu(n[i], n[i], A[i], lda[i], 0, lda[i]);
}

void sylva__trsm_batch_cpu(int count, const int *m, const int *n, double *const *L,
                           const int *ldl, double *const *B, const int *ldb)
{
    for (int i = 0; i < count; i++)
        if (m[i] > 0 && n[i] > 0)
            cblas_dtrsm(CblasColMajor, CblasRight, CblasLower, CblasTrans, CblasNonUnit, m[i],
                        n[i], 1.0, L[i], ldl[i], B[i], ldb[i]);
}

void sylva__syrk_batch_cpu(int count, const int *n, const int *k, double alpha, double *const *A,
                           const int *lda, double beta, double *const *C, const int *ldc)
{
    for (int i = 0; i < count; i++)
        if (n[i] > 0)
            cblas_dsyrk(CblasColMajor, CblasLower, CblasNoTrans, n[i], k[i], alpha, A[i], lda[i],
                        beta, C[i], ldc[i]);
}

void sylva__gemm_nt_batch_cpu(int count, const int *m, const int *n, const int *k, double alpha,
                              double *const *A, const int *lda, double *const *B, const int *ldb,
                              double beta, double *const *C, const int *ldc, int lower)
{
    for (int e = 0; e < count; e++) {
        if (m[e] <= 0 || n[e] <= 0) continue;
        if (!lower) {
            cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, m[e], n[e], k[e], alpha, A[e],
                        lda[e], B[e], ldb[e], beta, C[e], ldc[e]);
            continue;
        }
        /* Lower only: column j gets rows j..m−1, one GEMV each. */
        for (int j = 0; j < n[e] && j < m[e]; j++) {
            double *c = C[e] + (int64_t)j * ldc[e] + j;
            if (beta == 0.0)
                for (int i = 0; i < m[e] - j; i++) c[i] = 0.0;
            cblas_dgemv(CblasColMajor, CblasNoTrans, m[e] - j, k[e], alpha, A[e] + j, lda[e],
                        B[e] + j, ldb[e], beta == 0.0 ? 1.0 : beta, c, 1);
        }
    }
}

void sylva__scatter_add_batch_cpu(int count, const int64_t *n, const int64_t *const *src,
                                  const int64_t *const *dst, const double *values,
                                  double *const *out)
{
    for (int e = 0; e < count; e++) sylva__scatter_add_cpu(n[e], src[e], dst[e], values, out[e]);
}

void sylva__extend_add_batch_cpu(int count, const int *mc, const double *const *cb,
                                 const int *ldcb, const int64_t *const *relmap, const int *kp,
                                 double *const *P, const int *ldp, double *const *C,
                                 const int *ldc)
{
    for (int e = 0; e < count; e++)
        sylva__extend_add_cpu(mc[e], cb[e], ldcb[e], relmap[e], kp[e], P[e], ldp[e], C[e],
                              ldc[e]);
}
