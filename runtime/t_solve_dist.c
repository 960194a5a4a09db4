/* t_solve_dist.c — the per-front steps of the distributed solve
 * (solve_dist.h) for one scalar type (a precision template,
 * core/precision.h): a unit's sweeps (its updates of rows above it kept in
 * its sink; one front's step is the one-process solve's, solve_partial.h),
 * a large front's step in parts (its pivot block in the caller, its L21
 * product in slices that tasks share), the packing of a rank's rows, and
 * rank 0's permutation of its block.
 */
#include "precision.h"

/* First index of v (n, increasing) not below x. */
static int64_t SYLVA_TNAME(lower_bound)(const int64_t *v, int64_t n, int64_t x)
{
    int64_t lo = 0, hi = n;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (v[mid] < x) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

void SYLVA_TNAME(solve_dist_pivots)(const sylva__plan *pl, const Scalar *L, int64_t f, int backward, int64_t nrhs,
                                     Scalar *X, int64_t ldx)
{
    const sylva__front *fr = &pl->tree->fronts[f];
    const Scalar *P = L + pl->l_off[f];
    Scalar *X1 = X + fr->first_col, unused = 0;
    /* The pivot block alone: a front of k rows (ld m) has no CB rows. */
    if (backward) SYLVA_TNAME(front_solve_backward_cpu)(fr->k, fr->k, P, fr->m, nrhs, &unused, 1, X1, ldx);
    else SYLVA_TNAME(front_solve_forward_cpu)(fr->k, fr->k, P, fr->m, nrhs, X1, ldx, 0, &unused, 1);
}

void SYLVA_TNAME(solve_dist_slice)(const sylva__plan *pl, const Scalar *L, int64_t f, int backward, int64_t lo,
                                   int64_t hi, int64_t nrhs, Scalar *X, int64_t ldx, Scalar *T)
{
    const sylva__front *fr = &pl->tree->fronts[f];
    const Scalar *L21 = L + pl->l_off[f] + fr->k;
    Scalar *X1 = X + fr->first_col;
    int64_t m = fr->m, k = fr->k, r = m - k, ldt = r > 0 ? r : 1, h = hi - lo;
    if (h <= 0) return;
    if (!backward) { /* T[lo:hi] ← L21[lo:hi, :] X1 */
        if (nrhs == 1)
            SYLVA_CBLAS(gemv)(CblasColMajor, CblasNoTrans, (int)h, (int)k, 1, L21 + lo, (int)m, X1, 1, 0, T + lo, 1);
        else
            SYLVA_CBLAS(gemm)(CblasColMajor, CblasNoTrans, CblasNoTrans, (int)h, (int)nrhs, (int)k, 1, L21 + lo,
                              (int)m, X1, (int)ldx, 0, T + lo, (int)ldt);
    } else { /* X1[lo:hi] ← X1[lo:hi] − L21[:, lo:hi]ᵀ T */
        if (nrhs == 1)
            SYLVA_CBLAS(gemv)(CblasColMajor, SYLVA_CBLAS_CONJ_TRANS, (int)r, (int)h, -1, L21 + lo * m, (int)m, T, 1,
                              1, X1 + lo, 1);
        else
            SYLVA_CBLAS(gemm)(CblasColMajor, SYLVA_CBLAS_CONJ_TRANS, CblasNoTrans, (int)h, (int)nrhs, (int)r, -1,
                              L21 + lo * m, (int)m, T, (int)ldt, 1, X1 + lo, (int)ldx);
    }
}

void SYLVA_TNAME(solve_dist_unit_forward)(const sylva__plan *pl, const Scalar *L, int64_t a, int64_t b,
                                          int64_t nrhs, Scalar *X, int64_t ldx, Scalar *T, Scalar *sink)
{
    const sylva__tree *t = pl->tree;
    const sylva__front *root = &t->fronts[b];
    int64_t end = root->first_col + root->k; /* rows below end are the unit's own */
    int64_t rs = root->m - root->k;
    const int64_t *srows = t->rows + root->row_off + root->k;
    for (int64_t s = a; s <= b; s++) {
        const sylva__front *fr = &t->fronts[s];
        const int64_t *rows = t->rows + fr->row_off + fr->k;
        int64_t r = fr->m - fr->k, ldt = r > 0 ? r : 1;
        SYLVA_TNAME(front_solve_forward_cpu)(fr->m, fr->k, L + pl->l_off[s], fr->m, nrhs, X + fr->first_col, ldx,
                                             0, T, ldt);
        /* rows sorted: the unit's own first, then those above it */
        int64_t in = SYLVA_TNAME(lower_bound)(rows, r, end);
        SYLVA_TNAME(solve_scatter_sub_cpu)(in, nrhs, rows, T, ldt, X, ldx);
        for (int64_t i = in; i < r; i++) {
            int64_t at = SYLVA_TNAME(lower_bound)(srows, rs, rows[i]);
            for (int64_t c = 0; c < nrhs; c++) sink[at + c * rs] += T[i + c * ldt];
        }
    }
}

void SYLVA_TNAME(solve_dist_unit_backward)(const sylva__plan *pl, const Scalar *L, int64_t a, int64_t b,
                                           int64_t nrhs, Scalar *X, int64_t ldx, Scalar *T)
{
    for (int64_t s = b; s >= a; s--) SYLVA_TNAME(solve_front_backward)(pl, L, s, nrhs, X, ldx, T);
}

void SYLVA_TNAME(solve_dist_pack)(const sylva__solve_dist_plan *dp, const sylva__tree *t, int r, int unpack,
                                  int64_t nrhs, Scalar *X, int64_t ldx, Scalar *P)
{
    int64_t rows = dp->own_rows[r], at = 0;
    for (int64_t f = 0; f < t->nfronts; f++) {
        if (dp->owner[f] != r) continue;
        const sylva__front *fr = &t->fronts[f];
        for (int64_t c = 0; c < nrhs; c++) {
            Scalar *x = X + fr->first_col + c * ldx, *p = P + at + c * rows;
            if (unpack) memcpy(x, p, (size_t)fr->k * sizeof *x);
            else memcpy(p, x, (size_t)fr->k * sizeof *x);
        }
        at += fr->k;
    }
}

void SYLVA_TNAME(solve_dist_permute)(const sylva__tree *t, int to_x, int64_t nrhs, Scalar *X, Scalar *B, int64_t ldb)
{
    for (int64_t c = 0; c < nrhs; c++) {
        Scalar *x = X + c * t->n, *b = B + c * ldb;
        if (to_x)
            for (int64_t k = 0; k < t->n; k++) x[k] = b[t->perm[k]];
        else
            for (int64_t k = 0; k < t->n; k++) b[t->perm[k]] = x[k];
    }
}
