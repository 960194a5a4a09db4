/* t_front_batch_cpu.c — CPU twins of the batched GPU kernels for one scalar
 * type (a precision template, core/precision.h; contract in
 * front_batch_cpu.h): loops over front_cpu.h and CBLAS. */
#include "precision.h"

void SYLVA_TNAME(front_factor_batch_cpu)(int count, const int *m, const int *k, Scalar *const *P,
                                   const int *ldp, Scalar *const *C, const int *ldc, int *info)
{
    for (int i = 0; i < count; i++)
        if (info[i] == 0 && m[i] > 0 && k[i] > 0)
            info[i] = SYLVA_TNAME(front_factor_cpu)(m[i], k[i], P[i], ldp[i], m[i] > k[i] ? C[i] : 0,
                                              ldc[i]);
}

void SYLVA_TNAME(potrf_batch_cpu)(int count, const int *n, Scalar *const *A, const int *lda, int *info)
{
    for (int i = 0; i < count; i++)
        if (info[i] == 0 && n[i] > 0)
            info[i] = SYLVA_TNAME(front_factor_cpu)(n[i], n[i], A[i], lda[i], 0, lda[i]);
}

void SYLVA_TNAME(trsm_batch_cpu)(int count, const int *m, const int *n, Scalar *const *L,
                           const int *ldl, Scalar *const *B, const int *ldb)
{
    for (int i = 0; i < count; i++)
        if (m[i] > 0 && n[i] > 0)
            SYLVA_CBLAS(trsm)(CblasColMajor, CblasRight, CblasLower, SYLVA_CBLAS_CONJ_TRANS, CblasNonUnit, m[i],
                        n[i], 1, L[i], ldl[i], B[i], ldb[i]);
}

void SYLVA_TNAME(syrk_batch_cpu)(int count, const int *n, const int *k, Scalar alpha, Scalar *const *A,
                           const int *lda, Scalar beta, Scalar *const *C, const int *ldc)
{
    for (int i = 0; i < count; i++)
        if (n[i] > 0)
            SYLVA_CBLAS(syrk)(CblasColMajor, CblasLower, CblasNoTrans, n[i], k[i], alpha, A[i], lda[i],
                        beta, C[i], ldc[i]);
}

void SYLVA_TNAME(gemm_nt_batch_cpu)(int count, const int *m, const int *n, const int *k, Scalar alpha,
                              Scalar *const *A, const int *lda, Scalar *const *B, const int *ldb,
                              Scalar beta, Scalar *const *C, const int *ldc, int lower)
{
    for (int e = 0; e < count; e++) {
        if (m[e] <= 0 || n[e] <= 0) continue;
        if (!lower) {
            SYLVA_CBLAS(gemm)(CblasColMajor, CblasNoTrans, SYLVA_CBLAS_CONJ_TRANS, m[e], n[e], k[e], alpha, A[e],
                        lda[e], B[e], ldb[e], beta, C[e], ldc[e]);
            continue;
        }
        /* Lower only: column j gets rows j..m−1, one GEMV each. */
        for (int j = 0; j < n[e] && j < m[e]; j++) {
            Scalar *c = C[e] + (int64_t)j * ldc[e] + j;
            if (beta == 0)
                for (int i = 0; i < m[e] - j; i++) c[i] = 0;
            SYLVA_CBLAS(gemv)(CblasColMajor, CblasNoTrans, m[e] - j, k[e], alpha, A[e] + j, lda[e],
                        B[e] + j, ldb[e], beta == 0 ? 1 : beta, c, 1);
        }
    }
}

void SYLVA_TNAME(scatter_add_batch_cpu)(int count, const int64_t *n, const int64_t *const *src,
                                  const int64_t *const *dst, const Scalar *values,
                                  Scalar *const *out)
{
    for (int e = 0; e < count; e++) SYLVA_TNAME(scatter_add_cpu)(n[e], src[e], dst[e], values, out[e]);
}

void SYLVA_TNAME(extend_add_batch_cpu)(int count, const int *mc, const Scalar *const *cb,
                                 const int *ldcb, const int64_t *const *relmap, const int *kp,
                                 Scalar *const *P, const int *ldp, Scalar *const *C,
                                 const int *ldc)
{
    for (int e = 0; e < count; e++)
        SYLVA_TNAME(extend_add_cpu)(mc[e], cb[e], ldcb[e], relmap[e], kp[e], P[e], ldp[e], C[e],
                              ldc[e]);
}
