/* cholmod_input.c — sylva_matrix_from_cholmod: copy a real (or pattern)
 * cholmod_sparse with SuiteSparse_long indices into a new lower sylva_matrix.
 * stype > 0 uses the upper triangle (lower entries ignored, as CHOLMOD does),
 * stype < 0 the lower one, stype = 0 both (checked numerically symmetric).
 * Packed or unpacked, sorted or not. Fails with SYLVA_ERR_ARGUMENT,
 * _UNSUPPORTED (complex, single, int indices), _NOT_SQUARE, _NOT_SYMMETRIC,
 * _BAD_VALUE, _NO_MEMORY. */
#include <stdlib.h>
#include <string.h>

#include "io_cholmod.h"
#include "io_internal.h"

int sylva__matrix_from_cholmod(const cholmod_sparse *S, sylva_matrix **A)
{
    const char *who = "sylva_matrix_from_cholmod";
    if (!A) return sylva__fail(SYLVA_ERR_ARGUMENT, "%s: A is NULL", who);
    *A = NULL;
    if (!S) return sylva__fail(SYLVA_ERR_ARGUMENT, "%s: S is NULL", who);
    if (S->itype != CHOLMOD_LONG)
        return sylva__fail(SYLVA_ERR_UNSUPPORTED, "%s: int indices (use the cholmod_l_ interface)", who);
    if (S->xtype != CHOLMOD_REAL && S->xtype != CHOLMOD_PATTERN)
        return sylva__fail(SYLVA_ERR_UNSUPPORTED, "%s: complex matrix (real only)", who);
    if (S->xtype == CHOLMOD_REAL && S->dtype != CHOLMOD_DOUBLE)
        return sylva__fail(SYLVA_ERR_UNSUPPORTED, "%s: single precision (double only)", who);
    if (S->nrow != S->ncol)
        return sylva__fail(SYLVA_ERR_NOT_SQUARE, "%s: matrix is %zu x %zu, not square", who,
                           S->nrow, S->ncol);
    int64_t n = (int64_t)S->ncol;
    const SuiteSparse_long *Sp = S->p, *Si = S->i, *Snz = S->nz;
    const double *Sx = S->xtype == CHOLMOD_REAL ? S->x : NULL;
    if (n > 0 && (!Sp || (!S->packed && !Snz)))
        return sylva__fail(SYLVA_ERR_ARGUMENT, "%s: S->p or S->nz is NULL", who);
    int64_t total = 0;
    for (int64_t j = 0; j < n; j++) {
        int64_t len = S->packed ? (int64_t)(Sp[j + 1] - Sp[j]) : (int64_t)Snz[j];
        if (len < 0)
            return sylva__fail(SYLVA_ERR_ARGUMENT, "%s: column %lld has a negative length", who,
                               (long long)j);
        total += len;
    }
    if (total > 0 && (!Si || (S->xtype == CHOLMOD_REAL && !Sx)))
        return sylva__fail(SYLVA_ERR_ARGUMENT, "%s: S->i or S->x is NULL", who);
    int64_t *row = sylva__malloc((size_t)total, sizeof *row);
    int64_t *col = sylva__malloc((size_t)total, sizeof *col);
    double *val = Sx ? sylva__malloc((size_t)total, sizeof *val) : NULL;
    if (!row || !col || (Sx && !val)) {
        free(row);
        free(col);
        free(val);
        return SYLVA_ERR_NO_MEMORY;
    }
    int64_t k = 0;
    for (int64_t j = 0; j < n; j++) {
        int64_t p0 = (int64_t)Sp[j];
        int64_t p1 = S->packed ? (int64_t)Sp[j + 1] : p0 + (int64_t)Snz[j];
        for (int64_t p = p0; p < p1; p++, k++) {
            row[k] = (int64_t)Si[p];
            col[k] = j;
            if (val) val[k] = Sx[p];
        }
    }
    sylva__triplets t = {row, col, val, total, 0};
    sylva__build_opts o = {.mode = S->stype > 0   ? SYLVA__TRI_KEEP_UPPER
                                   : S->stype < 0 ? SYLVA__TRI_KEEP_LOWER
                                                  : SYLVA__TRI_FULL,
                           .pattern = val == NULL,
                           .check_values = 1,
                           .index_base = 0,
                           .who = who,
                           .nthreads = 1};
    int st = sylva__csc_from_triplets(n, &t, 1, &o, A);
    free(row);
    free(col);
    free(val);
    return st;
}

void sylva__matrix_cholmod_view(const sylva_matrix *A, cholmod_sparse *S)
{
    memset(S, 0, sizeof *S);
    S->nrow = S->ncol = (size_t)A->n;
    S->nzmax = (size_t)A->nnz;
    S->p = A->colptr;
    S->i = A->rowind;
    /* CHOLMOD 3 has no single precision: a float32 matrix is a pattern. */
    int real = A->values && A->dtype == SYLVA_FLOAT64;
    S->x = real ? A->values : NULL;
    S->stype = -1;
    S->itype = CHOLMOD_LONG;
    S->xtype = real ? CHOLMOD_REAL : CHOLMOD_PATTERN;
    S->dtype = CHOLMOD_DOUBLE;
    S->sorted = 1;
    S->packed = 1;
}
