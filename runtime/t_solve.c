/* t_solve.c — forward and backward substitution along the assembly tree
 * with the stored factor, for many right-hand sides at once, and the
 * log-determinant, for one scalar type (a precision template,
 * core/precision.h). Fronts in postorder for L y = b, in reverse for
 * Lᵀ x = y; the per-front steps are kernels/front_cpu.h's. Works in the
 * permuted numbering on a copy and writes the solution back in the user's
 * numbering. Fails only on memory.
 */
#include "precision.h"

int SYLVA_TNAME(solve_seq)(const sylva__plan *plan, const Scalar *L, int64_t nrhs, Scalar *X,
                           int64_t ldx)
{
    const sylva__tree *t = plan->tree;
    int64_t n = t->n;
    if (n == 0 || nrhs == 0) return SYLVA_OK;
    Scalar *W = sylva__malloc((size_t)n * (size_t)nrhs, sizeof *W);
    Scalar *T = sylva__malloc((size_t)(t->max_m + 1) * (size_t)nrhs, sizeof *T);
    if (!W || !T) {
        free(W);
        free(T);
        return SYLVA_ERR_NO_MEMORY;
    }
    for (int64_t r = 0; r < nrhs; r++)
        for (int64_t i = 0; i < n; i++) W[i + r * n] = X[t->perm[i] + r * ldx];

    for (int64_t s = 0; s < t->nfronts; s++) {
        const sylva__front *f = &t->fronts[s];
        const int64_t *rows = t->rows + f->row_off;
        int64_t r = f->m - f->k;
        SYLVA_TNAME(front_solve_forward_cpu)(f->m, f->k, L + plan->l_off[s], f->m, nrhs,
                                             W + f->first_col, n, 0, T, r > 0 ? r : 1);
        for (int64_t c = 0; c < nrhs; c++)
            for (int64_t i = 0; i < r; i++) W[rows[f->k + i] + c * n] -= T[i + c * r];
    }
    for (int64_t s = t->nfronts - 1; s >= 0; s--) {
        const sylva__front *f = &t->fronts[s];
        const int64_t *rows = t->rows + f->row_off;
        int64_t r = f->m - f->k;
        for (int64_t c = 0; c < nrhs; c++)
            for (int64_t i = 0; i < r; i++) T[i + c * r] = W[rows[f->k + i] + c * n];
        SYLVA_TNAME(front_solve_backward_cpu)(f->m, f->k, L + plan->l_off[s], f->m, nrhs, T,
                                              r > 0 ? r : 1, W + f->first_col, n);
    }
    for (int64_t r = 0; r < nrhs; r++)
        for (int64_t i = 0; i < n; i++) X[t->perm[i] + r * ldx] = W[i + r * n];
    free(W);
    free(T);
    return SYLVA_OK;
}

double SYLVA_TNAME(logdet)(const sylva__plan *plan, const Scalar *L)
{
    const sylva__tree *t = plan->tree;
    double sum = 0;
    for (int64_t s = 0; s < t->nfronts; s++) {
        const sylva__front *f = &t->fronts[s];
        const Scalar *P = L + plan->l_off[s];
        for (int64_t c = 0; c < f->k; c++) sum += log((double)P[c + c * f->m]);
    }
    return 2 * sum;
}
