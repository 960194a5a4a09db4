/* factor_values.c — the two checks that keep a NaN out of a "successful"
 * factorization, on every path (CPU, GPU, hybrid): the values of A are
 * finite before they are factored (a NaN in A->values, the natural way to
 * pass new values to sylva_refactorize, is SYLVA_ERR_BAD_VALUE naming the
 * entry), and after a factorization every pivot of L is finite and positive
 * (OpenBLAS's potrf lets a NaN pivot through, and finite values can
 * overflow in a matrix that is not positive definite): SYLVA_ERR_NOT_SPD
 * naming the column, found as numeric.c finds a failing pivot. Both are a
 * pass over nnz(A) or n values, negligible beside the factorization; the
 * pivots are read where L is (on a GPU by a small task: checking them does
 * not bring L to the host). */
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

int sylva__check_pivots(const sylva_analysis_t *an, sylva__numeric *num, int64_t *failed_column, double *to_host)
{
    const sylva__tree *t = an->tree;
    *failed_column = -1;
    int64_t *bad = sylva__malloc((size_t)t->nfronts + 1, sizeof *bad);
    double *val = sylva__malloc((size_t)t->nfronts + 1, sizeof *val);
    char *below = sylva__calloc((size_t)t->nfronts + 1, 1); /* a descendant has a bad pivot */
    /* Distributed: the scan is collective, so the room is agreed first. */
    int status = sylva__dist_agree(bad && val && below ? SYLVA_OK : SYLVA_ERR_NO_MEMORY);
    if (!status) status = sylva__numeric_pivot_scan(num, bad, val, to_host);
    int64_t col = -1;
    double value = 0;
    for (int64_t f = 0; !status && f < t->nfronts; f++) { /* postorder: children first */
        int64_t c = bad[f];
        for (int64_t q = t->child_ptr[f]; q < t->child_ptr[f + 1]; q++)
            below[f] |= below[t->child_list[q]];
        if (c >= 0 && !below[f]) {
            int64_t user = t->perm[t->fronts[f].first_col + c];
            if (col < 0 || user < col) {
                col = user;
                value = val[f];
            }
        }
        if (c >= 0) below[f] = 1;
    }
    free(bad);
    free(val);
    free(below);
    if (status || col < 0) return status;
    *failed_column = col;
    return sylva__fail(SYLVA_ERR_NOT_SPD,
                       "matrix is not positive definite: pivot of column %lld (1-based) is %s "
                       "(the elimination overflowed or met a NaN)",
                       (long long)col + 1,
                       isnan(value) ? "NaN"
                       : value > 0  ? "inf"
                                    : "not positive");
}
