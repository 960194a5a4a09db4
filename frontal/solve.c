/* solve.c — forward and backward substitution along the assembly tree with
 * the stored factor (L = P_f blocks, m × k, ld m), for many right-hand
 * sides at once (level-3 BLAS per front; level 2 for one right-hand side,
 * where OpenBLAS's small TRSM/GEMM calls cost more than the arithmetic),
 * and the log-determinant.
 * Works in the permuted numbering on a copy and writes the solution back in
 * the user's numbering. Fails only on memory.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "blas.h"
#include "error.h"
#include "frontal.h"

int sylva__solve(const sylva__factor_store *L, int64_t nrhs, double *X, int64_t ldx)
{
    const sylva__tree *t = L->tree;
    int64_t n = t->n;
    if (n == 0 || nrhs == 0) return SYLVA_OK;
    double *W = sylva__malloc((size_t)n * (size_t)nrhs, sizeof *W);
    double *T = sylva__malloc((size_t)(t->max_m + 1) * (size_t)nrhs, sizeof *T);
    if (!W || !T) {
        free(W);
        free(T);
        return SYLVA_ERR_NO_MEMORY;
    }
    for (int64_t r = 0; r < nrhs; r++)
        for (int64_t i = 0; i < n; i++) W[i + r * n] = X[t->perm[i] + r * ldx];

    /* Forward: L y = b, fronts in postorder. */
    for (int64_t s = 0; s < t->nfronts; s++) {
        const sylva__front *f = &t->fronts[s];
        const double *P = L->values + L->l_off[s];
        const int64_t *rows = t->rows + f->row_off;
        int64_t r = f->m - f->k;
        double *y1 = W + f->first_col;
        if (nrhs == 1) {
            cblas_dtrsv(CblasColMajor, CblasLower, CblasNoTrans, CblasNonUnit, (int)f->k, P, (int)f->m,
                        y1, 1);
            if (r == 0) continue;
            cblas_dgemv(CblasColMajor, CblasNoTrans, (int)r, (int)f->k, 1.0, P + f->k, (int)f->m, y1, 1,
                        0.0, T, 1);
        } else {
            cblas_dtrsm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasNonUnit, (int)f->k,
                        (int)nrhs, 1.0, P, (int)f->m, y1, (int)n);
            if (r == 0) continue;
            cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, (int)r, (int)nrhs, (int)f->k, 1.0,
                        P + f->k, (int)f->m, y1, (int)n, 0.0, T, (int)r);
        }
        for (int64_t c = 0; c < nrhs; c++)
            for (int64_t i = 0; i < r; i++) W[rows[f->k + i] + c * n] -= T[i + c * r];
    }
    /* Backward: Lᵀ x = y, fronts in reverse postorder. */
    for (int64_t s = t->nfronts - 1; s >= 0; s--) {
        const sylva__front *f = &t->fronts[s];
        const double *P = L->values + L->l_off[s];
        const int64_t *rows = t->rows + f->row_off;
        int64_t r = f->m - f->k;
        double *x1 = W + f->first_col;
        if (r > 0) {
            for (int64_t c = 0; c < nrhs; c++)
                for (int64_t i = 0; i < r; i++) T[i + c * r] = W[rows[f->k + i] + c * n];
            if (nrhs == 1)
                cblas_dgemv(CblasColMajor, CblasTrans, (int)r, (int)f->k, -1.0, P + f->k, (int)f->m, T,
                            1, 1.0, x1, 1);
            else
                cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, (int)f->k, (int)nrhs, (int)r, -1.0,
                            P + f->k, (int)f->m, T, (int)r, 1.0, x1, (int)n);
        }
        if (nrhs == 1)
            cblas_dtrsv(CblasColMajor, CblasLower, CblasTrans, CblasNonUnit, (int)f->k, P, (int)f->m, x1,
                        1);
        else
            cblas_dtrsm(CblasColMajor, CblasLeft, CblasLower, CblasTrans, CblasNonUnit, (int)f->k,
                        (int)nrhs, 1.0, P, (int)f->m, x1, (int)n);
    }
    for (int64_t r = 0; r < nrhs; r++)
        for (int64_t i = 0; i < n; i++) X[t->perm[i] + r * ldx] = W[i + r * n];
    free(W);
    free(T);
    return SYLVA_OK;
}

double sylva__logdet(const sylva__factor_store *L)
{
    const sylva__tree *t = L->tree;
    double sum = 0;
    for (int64_t s = 0; s < t->nfronts; s++) {
        const sylva__front *f = &t->fronts[s];
        const double *P = L->values + L->l_off[s];
        for (int64_t c = 0; c < f->k; c++) sum += log(P[c + c * f->m]);
    }
    return 2 * sum;
}
