/* t_solve_partial.c — the parts of the solve with P A Pᵀ = L Lᵀ, one at a
 * time, for one scalar type (a precision template, core/precision.h): the
 * forward sweep X ← L⁻¹ X (fronts in postorder) and the backward sweep
 * X ← L⁻ᵀ X (reverse postorder) on X in the permuted numbering, in place
 * with any leading dimension, and the permutations X ← P X, X ← Pᵀ X.
 * One front's step (solve_partial.h; the distributed solve's too) is
 * kernels/front_cpu.h's arithmetic and the scatter or gather of its CB
 * rows through X. Fails only on memory.
 */
#include "precision.h"

void SYLVA_TNAME(solve_front_forward)(const sylva__plan *plan, const Scalar *L, int64_t f, int64_t nrhs,
                                      Scalar *X, int64_t ldx, Scalar *T)
{
    const sylva__tree *t = plan->tree;
    const sylva__front *fr = &t->fronts[f];
    int64_t r = fr->m - fr->k, ldt = r > 0 ? r : 1;
    SYLVA_TNAME(front_solve_forward_cpu)(fr->m, fr->k, L + plan->l_off[f], fr->m, nrhs, X + fr->first_col, ldx, 0,
                                         T, ldt);
    SYLVA_TNAME(solve_scatter_sub_cpu)(r, nrhs, t->rows + fr->row_off + fr->k, T, ldt, X, ldx);
}

void SYLVA_TNAME(solve_front_backward)(const sylva__plan *plan, const Scalar *L, int64_t f, int64_t nrhs,
                                       Scalar *X, int64_t ldx, Scalar *T)
{
    const sylva__tree *t = plan->tree;
    const sylva__front *fr = &t->fronts[f];
    int64_t r = fr->m - fr->k, ldt = r > 0 ? r : 1;
    SYLVA_TNAME(solve_gather_cpu)(r, nrhs, t->rows + fr->row_off + fr->k, X, ldx, T, ldt);
    SYLVA_TNAME(front_solve_backward_cpu)(fr->m, fr->k, L + plan->l_off[f], fr->m, nrhs, T, ldt,
                                          X + fr->first_col, ldx);
}

static void SYLVA_TNAME(sweep_forward)(const sylva__plan *plan, const Scalar *L, int64_t nrhs,
                                       Scalar *X, int64_t ldx, Scalar *T)
{
    for (int64_t s = 0; s < plan->tree->nfronts; s++) SYLVA_TNAME(solve_front_forward)(plan, L, s, nrhs, X, ldx, T);
}

static void SYLVA_TNAME(sweep_backward)(const sylva__plan *plan, const Scalar *L, int64_t nrhs,
                                        Scalar *X, int64_t ldx, Scalar *T)
{
    for (int64_t s = plan->tree->nfronts - 1; s >= 0; s--)
        SYLVA_TNAME(solve_front_backward)(plan, L, s, nrhs, X, ldx, T);
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
