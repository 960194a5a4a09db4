/* factor_values.c — the two checks that keep a NaN out of a "successful"
 * factorization, on every path (CPU, GPU, hybrid): the values of A are
 * finite before they are factored (a NaN in A->values, the natural way to
 * pass new values to sylva_refactorize, is SYLVA_ERR_BAD_VALUE naming the
 * entry), and after a factorization every pivot of L is finite and positive
 * (OpenBLAS's potrf lets a NaN pivot through, and finite values can
 * overflow in a matrix that is not positive definite): SYLVA_ERR_NOT_SPD
 * naming the column, found as numeric.c finds a failing pivot. The pivot
 * check reads the root fronts only: a NaN pivot makes its front's
 * contribution block NaN (every front but a root has one), hence its
 * parent's, up to the root, where it leaves the last pivots NaN; the whole
 * diagonal is read only to name the column once a root is bad. The values
 * check is a pass over nnz(A). Both cost under a percent of a
 * factorization (docs/limits.md). */
#include <math.h>
#include <stdlib.h>

#include "api.h"

int sylva__check_values(const sylva_matrix *A, const char *who)
{
    if (!A->values) return SYLVA_OK;
    for (int64_t j = 0; j < A->n; j++)
        for (int64_t p = A->colptr[j]; p < A->colptr[j + 1]; p++) {
            double v = A->dtype == SYLVA_FLOAT32 ? (double)((const float *)A->values)[p]
                                                 : ((const double *)A->values)[p];
            if (!isfinite(v))
                return sylva__fail(SYLVA_ERR_BAD_VALUE,
                                   "%s: A(%lld,%lld) (values[%lld]) is %s: values must be finite",
                                   who, (long long)A->rowind[p], (long long)j, (long long)p,
                                   isnan(v) ? "NaN"
                                   : v > 0  ? "inf"
                                            : "-inf");
        }
    return SYLVA_OK;
}

/* The first pivot of front s (0-based within it) that is not finite and
 * positive, or -1. */
static int64_t bad_pivot(const sylva__plan *pl, const void *L, sylva_dtype dt, int64_t s)
{
    const sylva__front *f = &pl->tree->fronts[s];
    for (int64_t c = 0; c < f->k; c++) {
        int64_t at = pl->l_off[s] + c + c * f->m;
        double d = dt == SYLVA_FLOAT32 ? (double)((const float *)L)[at] : ((const double *)L)[at];
        if (!(d > 0 && isfinite(d))) return c;
    }
    return -1;
}

int sylva__check_pivots(const sylva_analysis_t *an, sylva__numeric *num, int64_t *failed_column)
{
    const sylva__plan *pl = an->plan;
    const sylva__tree *t = an->tree;
    *failed_column = -1;
    const void *L = sylva__numeric_host_values(num);
    if (!L) return SYLVA_ERR_RUNTIME;
    sylva_dtype dt = sylva__numeric_dtype(num);
    int root_bad = 0;
    for (int64_t f = 0; f < t->nfronts && !root_bad; f++)
        root_bad = t->fronts[f].parent < 0 && bad_pivot(pl, L, dt, f) >= 0;
    if (!root_bad) return SYLVA_OK;
    char *below = sylva__calloc((size_t)t->nfronts + 1, 1); /* a descendant has a bad pivot */
    if (!below) return SYLVA_ERR_NO_MEMORY;
    int64_t col = -1;
    double value = 0;
    for (int64_t f = 0; f < t->nfronts; f++) { /* postorder: children first */
        int64_t c = bad_pivot(pl, L, dt, f);
        for (int64_t q = t->child_ptr[f]; q < t->child_ptr[f + 1]; q++)
            below[f] |= below[t->child_list[q]];
        if (c >= 0 && !below[f]) {
            int64_t user = t->perm[t->fronts[f].first_col + c];
            if (col < 0 || user < col) {
                col = user;
                int64_t at = pl->l_off[f] + c + c * t->fronts[f].m;
                value =
                    dt == SYLVA_FLOAT32 ? (double)((const float *)L)[at] : ((const double *)L)[at];
            }
        }
        if (c >= 0) below[f] = 1;
    }
    free(below);
    if (col < 0) return SYLVA_OK;
    *failed_column = col;
    return sylva__fail(SYLVA_ERR_NOT_SPD,
                       "matrix is not positive definite: pivot of column %lld (1-based) is %s "
                       "(the elimination overflowed or met a NaN)",
                       (long long)col + 1,
                       isnan(value) ? "NaN"
                       : value > 0  ? "inf"
                                    : "not positive");
}
