/* t_solve_partial.c — the parts of the solve with P A Pᵀ = L Lᵀ, one at a
 * time, for one scalar type (a precision template, core/precision.h): the
 * forward sweep X ← L⁻¹ X (fronts in postorder) and the backward sweep
 * X ← L⁻ᵀ X (reverse postorder) on X in the permuted numbering, in place
 * with any leading dimension, and the permutations X ← P X, X ← Pᵀ X. The
 * per-front steps are kernels/front_cpu.h's, as in the full solve
 * (t_solve.c); this file only walks the tree. Fails only on memory.
 */
#include "precision.h"

static void SYLVA_TNAME(sweep_forward)(const sylva__plan *plan, const Scalar *L, int64_t nrhs,
                                       Scalar *X, int64_t ldx, Scalar *T)
{
    const sylva__tree *t = plan->tree;
    for (int64_t s = 0; s < t->nfronts; s++) {
        const sylva__front *f = &t->fronts[s];
        const int64_t *rows = t->rows + f->row_off;
        int64_t r = f->m - f->k;
        SYLVA_TNAME(front_solve_forward_cpu)(f->m, f->k, L + plan->l_off[s], f->m, nrhs,
                                             X + f->first_col, ldx, 0, T, r > 0 ? r : 1);
        for (int64_t c = 0; c < nrhs; c++)
            for (int64_t i = 0; i < r; i++) X[rows[f->k + i] + c * ldx] -= T[i + c * r];
    }
}

static void SYLVA_TNAME(sweep_backward)(const sylva__plan *plan, const Scalar *L, int64_t nrhs,
                                        Scalar *X, int64_t ldx, Scalar *T)
{
    const sylva__tree *t = plan->tree;
    for (int64_t s = t->nfronts - 1; s >= 0; s--) {
        const sylva__front *f = &t->fronts[s];
        const int64_t *rows = t->rows + f->row_off;
        int64_t r = f->m - f->k;
        for (int64_t c = 0; c < nrhs; c++)
            for (int64_t i = 0; i < r; i++) T[i + c * r] = X[rows[f->k + i] + c * ldx];
        SYLVA_TNAME(front_solve_backward_cpu)(f->m, f->k, L + plan->l_off[s], f->m, nrhs, T,
                                              r > 0 ? r : 1, X + f->first_col, ldx);
    }
}

/* X ← P X (to_permuted: x[k] = b[perm[k]]) or X ← Pᵀ X, through W (n). */
static void SYLVA_TNAME(permute)(const sylva__tree *t, int to_permuted, int64_t nrhs, Scalar *X,
                                 int64_t ldx, Scalar *W)
{
    int64_t n = t->n;
    for (int64_t c = 0; c < nrhs; c++) {
        Scalar *x = X + c * ldx;
        if (to_permuted)
            for (int64_t k = 0; k < n; k++) W[k] = x[t->perm[k]];
        else
            for (int64_t k = 0; k < n; k++) W[t->perm[k]] = x[k];
        memcpy(x, W, (size_t)n * sizeof *x);
    }
}

int SYLVA_TNAME(solve_partial)(const sylva__plan *plan, const Scalar *L, sylva_system sys,
                               int64_t nrhs, Scalar *X, int64_t ldx)
{
    const sylva__tree *t = plan->tree;
    if (t->n == 0 || nrhs == 0) return SYLVA_OK;
    int sweeps = sys == SYLVA_SYS_A || sys == SYLVA_SYS_LLT || sys == SYLVA_SYS_L || sys == SYLVA_SYS_LT;
    int perms = sys == SYLVA_SYS_A || sys == SYLVA_SYS_P || sys == SYLVA_SYS_PT;
    Scalar *T = sweeps ? sylva__malloc((size_t)(t->max_m + 1) * (size_t)nrhs, sizeof *T) : NULL;
    Scalar *W = perms ? sylva__malloc((size_t)t->n, sizeof *W) : NULL;
    if ((sweeps && !T) || (perms && !W)) {
        free(T);
        free(W);
        return SYLVA_ERR_NO_MEMORY;
    }
    if (sys == SYLVA_SYS_A || sys == SYLVA_SYS_P) SYLVA_TNAME(permute)(t, 1, nrhs, X, ldx, W);
    if (sys == SYLVA_SYS_A || sys == SYLVA_SYS_LLT || sys == SYLVA_SYS_L)
        SYLVA_TNAME(sweep_forward)(plan, L, nrhs, X, ldx, T);
    if (sys == SYLVA_SYS_A || sys == SYLVA_SYS_LLT || sys == SYLVA_SYS_LT)
        SYLVA_TNAME(sweep_backward)(plan, L, nrhs, X, ldx, T);
    if (sys == SYLVA_SYS_A || sys == SYLVA_SYS_PT) SYLVA_TNAME(permute)(t, 0, nrhs, X, ldx, W);
    free(T);
    free(W);
    return SYLVA_OK;
}
