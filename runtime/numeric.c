/* numeric.c — the numeric factor object of runtime.h: L's storage laid out
 * by the plan, the factorization (submission in factorize.c) and the
 * reduction of per-front status to one answer — the smallest failing column
 * in the user's numbering among the fronts that failed with correct input
 * (a front above a failed one is skipped, never reported) — and the solve
 * and log-determinant dispatched to the factor's precision.
 */
#include <stdlib.h>
#include <string.h>

#include "runtime_internal.h"

int sylva__numeric_create(const sylva__plan *plan, sylva_dtype precision, sylva__numeric **out)
{
    *out = NULL;
    size_t es = sylva__dtype_size(precision);
    if (!es) return sylva__fail(SYLVA_ERR_ARGUMENT, "unknown precision %d", (int)precision);
    const sylva__tree *t = plan->tree;
    sylva__numeric *N = sylva__calloc(1, sizeof *N);
    if (!N) return SYLVA_ERR_NO_MEMORY;
    N->plan = plan;
    N->precision = precision;
    N->elem = es;
    N->values = sylva__malloc((size_t)plan->l_off[t->nfronts] + 1, es);
    N->front_info = sylva__calloc((size_t)t->nfronts + 1, sizeof *N->front_info);
    if (!N->values || !N->front_info) {
        sylva__numeric_free(N);
        return SYLVA_ERR_NO_MEMORY;
    }
    *out = N;
    return SYLVA_OK;
}

void sylva__numeric_free(sylva__numeric *N)
{
    if (!N) return;
    free(N->values);
    free(N->front_info);
    free(N);
}

/* The public status of a finished factorization from its front statuses. */
static int reduce_status(const sylva__numeric *N, int64_t *failed_column)
{
    const sylva__tree *t = N->plan->tree;
    *failed_column = -1;
    for (int64_t f = 0; f < t->nfronts; f++) {
        int fi = N->front_info[f];
        if (fi == SYLVA__FRONT_NO_MEMORY)
            return sylva__fail(SYLVA_ERR_NO_MEMORY, "out of memory in a factorization task");
        if (fi > 0) {
            int64_t col = t->perm[t->fronts[f].first_col + fi - 1];
            if (*failed_column < 0 || col < *failed_column) *failed_column = col;
        }
    }
    if (*failed_column >= 0)
        return sylva__fail(SYLVA_ERR_NOT_SPD,
                           "matrix is not positive definite: pivot of column %lld (1-based) is "
                           "not positive",
                           (long long)*failed_column + 1);
    return SYLVA_OK;
}

int sylva__numeric_factor(sylva__numeric *N, const void *A_values, int64_t nnz, int64_t tile_rows,
                          sylva__factor_report *rep)
{
    const sylva__tree *t = N->plan->tree;
    memset(rep, 0, sizeof *rep);
    rep->failed_column = -1;
    memset(N->front_info, 0, (size_t)(t->nfronts + 1) * sizeof *N->front_info);
    N->ok = 0;
    int status = sylva__factor_submit(N, A_values, nnz, tile_rows, &rep->tasks);
    if (!status) status = reduce_status(N, &rep->failed_column);
    N->ok = status == SYLVA_OK;
    return status;
}

int sylva__numeric_ok(const sylva__numeric *N) { return N->ok; }

sylva_dtype sylva__numeric_dtype(const sylva__numeric *N) { return N->precision; }

int sylva__numeric_solve(const sylva__numeric *N, int64_t nrhs, void *B, int64_t ldb)
{
    if (N->precision == SYLVA_FLOAT32) return sylva__s_solve_seq(N->plan, N->values, nrhs, B, ldb);
    return sylva__d_solve_seq(N->plan, N->values, nrhs, B, ldb);
}

double sylva__numeric_logdet(const sylva__numeric *N)
{
    if (N->precision == SYLVA_FLOAT32) return sylva__s_logdet(N->plan, N->values);
    return sylva__d_logdet(N->plan, N->values);
}
