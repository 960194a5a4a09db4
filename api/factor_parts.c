/* factor_parts.c — the factor in parts: sylva_solve_system (the solve one
 * system at a time: A, LLᵀ, L, Lᵀ, P, Pᵀ, runtime/solve_partial.c), L as
 * compressed sparse columns in the permuted or the user's numbering
 * (sylva_factor_nnz, sylva_factor_csc), and the supernodal view
 * (sylva_factor_supernode_count, sylva_factor_supernode: pointers into the
 * factor, no copy). Each checks its arguments and that the factor is
 * usable, and brings L to host memory when it is on a GPU. Fails with
 * SYLVA_ERR_ARGUMENT (naming the argument) or SYLVA_ERR_NO_MEMORY.
 */
#include <stdlib.h>
#include <string.h>

#include "api.h"

int sylva_solve_system(const sylva_factor_t *F, sylva_system system, int64_t nrhs, void *B,
                       int64_t ldb)
{
    sylva__clear_error();
    const char *w = "sylva_solve_system";
    if (!F || (!B && nrhs > 0)) return sylva__fail(SYLVA_ERR_ARGUMENT, "%s: NULL argument", w);
    if ((unsigned)system > SYLVA_SYS_PT)
        return sylva__fail(SYLVA_ERR_ARGUMENT, "%s: system = %d is not a sylva_system (0..5)", w,
                           (int)system);
    int64_t n = F->an->tree->n;
    if (nrhs < 0 || ldb < n || ldb < 1)
        return sylva__fail(SYLVA_ERR_ARGUMENT, "%s: nrhs = %lld, ldb = %lld for n = %lld", w,
                           (long long)nrhs, (long long)ldb, (long long)n);
    int status = sylva__factor_usable(F, w, NULL);
    if (status || nrhs == 0 || n == 0) return status;
    /* as sylva_solve: checked, scaled away from overflow (solve_scale.c) */
    sylva_dtype dt = sylva__numeric_dtype(F->num);
    int *exps = NULL;
    if ((status = sylva__solve_scale(dt, dt, n, nrhs, B, ldb, &exps, w))) return status;
    status = sylva__numeric_solve_system(F->num, system, nrhs, B, ldb);
    int st = sylva__solve_unscale(dt, n, nrhs, B, ldb, exps, w);
    return status ? status : st;
}

int64_t sylva_factor_nnz(const sylva_factor_t *F) { return F ? F->an->tree->nnz_L : 0; }

/* L's values on the host (*L), once the factor is known usable. */
static int host_values(const sylva_factor_t *F, const char *who, const char **L)
{
    int status = sylva__factor_usable(F, who, NULL);
    if (status) return status;
    *L = sylva__numeric_host_values(F->num);
    if (!*L)
        return sylva__fail(SYLVA_ERR_RUNTIME, "%s: L could not be brought to host memory (%s)", who,
                           sylva__last_error());
    return SYLVA_OK;
}

/* A column's (row, source) pairs, sorted by row. */
typedef struct row_src {
    int64_t row, src;
} row_src;

static int by_row(const void *a, const void *b)
{
    int64_t x = ((const row_src *)a)->row, y = ((const row_src *)b)->row;
    return (x > y) - (x < y);
}

int sylva_factor_csc(const sylva_factor_t *F, sylva_numbering numbering, int64_t *colptr,
                     int64_t *rowind, void *values)
{
    sylva__clear_error();
    const char *w = "sylva_factor_csc";
    if (!F || !colptr || !rowind)
        return sylva__fail(SYLVA_ERR_ARGUMENT, "%s: F, colptr or rowind is NULL", w);
    if ((unsigned)numbering > SYLVA_NUMBERING_USER)
        return sylva__fail(SYLVA_ERR_ARGUMENT, "%s: numbering = %d is not a sylva_numbering (0, 1)", w,
                           (int)numbering);
    const char *L = NULL;
    int status = host_values(F, w, &L);
    if (status) return status;
    const sylva__tree *t = F->an->tree;
    const sylva__plan *pl = F->an->plan;
    size_t es = sylva__dtype_size(sylva__numeric_dtype(F->num));
    int user = numbering == SYLVA_NUMBERING_USER;
    row_src *pairs = user ? sylva__malloc((size_t)t->max_m + 1, sizeof *pairs) : NULL;
    if (user && !pairs) return SYLVA_ERR_NO_MEMORY;
    /* Column lengths: column j of front f (local c) has its rows c .. m − 1. */
    colptr[0] = 0;
    for (int64_t u = 0; u < t->n; u++) {
        int64_t j = user ? t->iperm[u] : u;
        const sylva__front *f = &t->fronts[t->col2front[j]];
        colptr[u + 1] = colptr[u] + f->m - (j - f->first_col);
    }
    for (int64_t u = 0; u < t->n; u++) {
        int64_t j = user ? t->iperm[u] : u, s = t->col2front[j];
        const sylva__front *f = &t->fronts[s];
        int64_t c = j - f->first_col, len = f->m - c, q = colptr[u];
        const int64_t *rows = t->rows + f->row_off + c;
        size_t first = (size_t)(pl->l_off[s] + c + c * f->m); /* L(j, j) */
        if (!user) {
            memcpy(rowind + q, rows, (size_t)len * sizeof *rowind);
            if (values) memcpy((char *)values + (size_t)q * es, L + first * es, (size_t)len * es);
            continue;
        }
        for (int64_t i = 0; i < len; i++) pairs[i] = (row_src){t->perm[rows[i]], i};
        qsort(pairs, (size_t)len, sizeof *pairs, by_row);
        for (int64_t i = 0; i < len; i++) {
            rowind[q + i] = pairs[i].row;
            if (values)
                memcpy((char *)values + (size_t)(q + i) * es, L + (first + (size_t)pairs[i].src) * es, es);
        }
    }
    free(pairs);
    return SYLVA_OK;
}

int64_t sylva_factor_supernode_count(const sylva_factor_t *F) { return F ? F->an->tree->nfronts : 0; }

int sylva_factor_supernode(const sylva_factor_t *F, int64_t s, sylva_supernode *out)
{
    sylva__clear_error();
    const char *w = "sylva_factor_supernode";
    if (!F || !out) return sylva__fail(SYLVA_ERR_ARGUMENT, "%s: F or out is NULL", w);
    const sylva__tree *t = F->an->tree;
    if (s < 0 || s >= t->nfronts)
        return sylva__fail(SYLVA_ERR_ARGUMENT, "%s: supernode %lld is out of range 0..%lld", w,
                           (long long)s, (long long)t->nfronts - 1);
    const char *L = NULL;
    int status = host_values(F, w, &L);
    if (status) return status;
    const sylva__front *f = &t->fronts[s];
    size_t es = sylva__dtype_size(sylva__numeric_dtype(F->num));
    memset(out, 0, sizeof *out);
    out->first_col = f->first_col;
    out->ncols = f->k;
    out->nrows = f->m;
    out->rows = t->rows + f->row_off;
    out->values = L + (size_t)F->an->plan->l_off[s] * es;
    out->parent = f->parent;
    return SYLVA_OK;
}
