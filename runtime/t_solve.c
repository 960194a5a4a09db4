/* t_solve.c — the sequential solve (the parts' A⁻¹: t_solve_partial.c
 * walks the tree) and the log-determinant, for one scalar type (a
 * precision template, core/precision.h). Fails only on memory.
 */
#include "precision.h"

int SYLVA_TNAME(solve_seq)(const sylva__plan *plan, const Scalar *L, int64_t nrhs, Scalar *X,
                           int64_t ldx)
{
    return SYLVA_TNAME(solve_partial)(plan, L, SYLVA_SYS_A, nrhs, X, ldx); /* P, both sweeps, Pᵀ */
}

double SYLVA_TNAME(logdet)(const sylva__plan *plan, const Scalar *L, const int *owner, int me)
{
    const sylva__tree *t = plan->tree;
    double sum = 0;
    for (int64_t s = 0; s < t->nfronts; s++) {
        if (owner && owner[plan->front_group[s]] != me) continue;
        const sylva__front *f = &t->fronts[s];
        const Scalar *P = L + plan->l_off[s];
        for (int64_t c = 0; c < f->k; c++) sum += log((double)P[c + c * f->m]);
    }
    return 2 * sum;
}
