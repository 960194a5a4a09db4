/* front_cpu.c — partial factorization, A-scatter and extend-add of one front
 * on the CPU with OpenBLAS (contract in front_cpu.h). */
#include "front_cpu.h"

#include "blas.h"

int sylva__front_factor_cpu(int64_t m, int64_t k, double *P, int64_t ldp, double *C,
                            int64_t ldc)
{
    if (k <= 0) return 0;
    int kk = (int)k, ld = (int)ldp, info = 0;
    dpotrf_("L", &kk, P, &ld, &info);
    if (info != 0) return info;
    int64_t r = m - k;
    if (r <= 0) return 0;
    /* L21 = F21 · L11⁻ᵀ */
    cblas_dtrsm(CblasColMajor, CblasRight, CblasLower, CblasTrans, CblasNonUnit, (int)r, kk, 1.0,
                P, ld, P + k, ld);
    /* C −= L21 · L21ᵀ (lower) */
    cblas_dsyrk(CblasColMajor, CblasLower, CblasNoTrans, (int)r, kk, -1.0, P + k, ld, 1.0, C,
                (int)ldc);
    return 0;
}

void sylva__scatter_add_cpu(int64_t count, const int64_t *src, const int64_t *dst,
                            const double *values, double *out)
{
    for (int64_t i = 0; i < count; i++) out[dst[i]] += values[src[i]];
}

void sylva__extend_add_cpu(int64_t mc, const double *cb, int64_t ldcb, const int64_t *relmap,
                           int64_t kp, double *P, int64_t ldp, double *C, int64_t ldc)
{
    for (int64_t j = 0; j < mc; j++) {
        const double *col = cb + j * ldcb;
        int64_t pj = relmap[j];
        if (pj < kp) {
            double *dst = P + pj * ldp;
            for (int64_t i = j; i < mc; i++) dst[relmap[i]] += col[i];
        } else {
            /* Rows of a column at or past kp are all ≥ kp too (relmap grows). */
            double *dst = C + (pj - kp) * ldc - kp;
            for (int64_t i = j; i < mc; i++) dst[relmap[i]] += col[i];
        }
    }
}
