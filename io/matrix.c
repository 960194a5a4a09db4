/* matrix.c — making and releasing sylva_matrix from caller arrays:
 * sylva_matrix_from_csc (copies; unsorted, duplicated; the lower, the
 * upper or both triangles: sylva_csc_storage), sylva_matrix_wrap (no copy; checks the contract and names the
 * first offending column), sylva_matrix_free. Bad arguments are
 * SYLVA_ERR_ARGUMENT, NaN/Inf SYLVA_ERR_BAD_VALUE, an unsymmetric full matrix
 * SYLVA_ERR_NOT_SYMMETRIC; indices in messages are 0-based like the arrays. */
#include "io_internal.h"

#include <math.h>
#include <stdlib.h>

static int check_colptr(const char *who, int64_t n, const int64_t *colptr)
{
    if (colptr[0] != 0)
        return sylva__fail(SYLVA_ERR_ARGUMENT, "%s: colptr[0] = %lld, expected 0", who,
                           (long long)colptr[0]);
    for (int64_t j = 0; j < n; j++)
        if (colptr[j + 1] < colptr[j])
            return sylva__fail(SYLVA_ERR_ARGUMENT,
                               "%s: column %lld: colptr decreases (colptr[%lld] = %lld > "
                               "colptr[%lld] = %lld)",
                               who, (long long)j, (long long)j, (long long)colptr[j],
                               (long long)(j + 1), (long long)colptr[j + 1]);
    return SYLVA_OK;
}

static int check_args(const char *who, int64_t n, const int64_t *colptr, const int64_t *rowind,
                      sylva_matrix **A)
{
    if (!A) return sylva__fail(SYLVA_ERR_ARGUMENT, "%s: A is NULL", who);
    *A = NULL;
    if (n < 0) return sylva__fail(SYLVA_ERR_ARGUMENT, "%s: n = %lld is negative", who, (long long)n);
    if (!colptr) return sylva__fail(SYLVA_ERR_ARGUMENT, "%s: colptr is NULL", who);
    int st = check_colptr(who, n, colptr);
    if (st != SYLVA_OK) return st;
    if (colptr[n] > 0 && !rowind) return sylva__fail(SYLVA_ERR_ARGUMENT, "%s: rowind is NULL", who);
    return SYLVA_OK;
}

int sylva__csc_storage_mode(const char *who, int storage, sylva__tri_mode *mode)
{
    switch (storage) {
    case SYLVA_CSC_FULL: *mode = SYLVA__TRI_FULL; return SYLVA_OK;
    case SYLVA_CSC_LOWER: *mode = SYLVA__TRI_LOWER; return SYLVA_OK;
    case SYLVA_CSC_UPPER: *mode = SYLVA__TRI_UPPER; return SYLVA_OK;
    }
    return sylva__fail(SYLVA_ERR_ARGUMENT,
                       "%s: storage = %d is not SYLVA_CSC_FULL (0), SYLVA_CSC_LOWER (1) or "
                       "SYLVA_CSC_UPPER (2)",
                       who, storage);
}

int sylva__matrix_from_csc(int64_t n, const int64_t *colptr, const int64_t *rowind,
                          const double *values, int storage, sylva_matrix **A)
{
    const char *who = "sylva_matrix_from_csc";
    int st = check_args(who, n, colptr, rowind, A);
    if (st != SYLVA_OK) return st;
    sylva__tri_mode mode;
    if ((st = sylva__csc_storage_mode(who, storage, &mode))) return st;
    int64_t nz = colptr[n];
    int64_t *col = sylva__malloc((size_t)nz, sizeof(int64_t));
    if (!col) return SYLVA_ERR_NO_MEMORY;
    for (int64_t j = 0; j < n; j++)
        for (int64_t p = colptr[j]; p < colptr[j + 1]; p++) col[p] = j;
    sylva__triplets t = {rowind, col, values, nz, 0};
    sylva__build_opts o = {.mode = mode,
                           .pattern = values == NULL,
                           .check_values = 1,
                           .index_base = 0,
                           .who = who,
                           .nthreads = 1};
    st = sylva__csc_from_triplets(n, &t, 1, &o, A);
    free(col);
    return st;
}

int sylva__matrix_wrap(int64_t n, int64_t *colptr, int64_t *rowind, double *values,
                      sylva_matrix **A)
{
    const char *who = "sylva_matrix_wrap";
    int st = check_args(who, n, colptr, rowind, A);
    if (st != SYLVA_OK) return st;
    for (int64_t j = 0; j < n; j++) {
        for (int64_t p = colptr[j]; p < colptr[j + 1]; p++) {
            int64_t i = rowind[p];
            if (i < 0 || i >= n)
                return sylva__fail(SYLVA_ERR_ARGUMENT, "%s: column %lld: row %lld is out of range 0..%lld",
                                   who, (long long)j, (long long)i, (long long)(n - 1));
            if (i < j)
                return sylva__fail(SYLVA_ERR_ARGUMENT,
                                   "%s: column %lld: row %lld is above the diagonal (lower "
                                   "triangle expected)",
                                   who, (long long)j, (long long)i);
            if (p > colptr[j] && i == rowind[p - 1])
                return sylva__fail(SYLVA_ERR_ARGUMENT, "%s: column %lld: row %lld is duplicated",
                                   who, (long long)j, (long long)i);
            if (p > colptr[j] && i < rowind[p - 1])
                return sylva__fail(SYLVA_ERR_ARGUMENT,
                                   "%s: column %lld: rows not sorted (row %lld after row %lld)",
                                   who, (long long)j, (long long)i, (long long)rowind[p - 1]);
            if (values && !isfinite(values[p]))
                return sylva__fail(SYLVA_ERR_BAD_VALUE, "%s: column %lld, row %lld: value is %s",
                                   who, (long long)j, (long long)i,
                                   isnan(values[p]) ? "NaN" : "infinite");
        }
    }
    sylva_matrix *M = sylva__matrix_alloc();
    if (!M) return SYLVA_ERR_NO_MEMORY;
    M->n = n;
    M->nnz = colptr[n];
    M->colptr = colptr;
    M->rowind = rowind;
    M->values = values;
    M->owns_arrays = 0;
    *A = M;
    return SYLVA_OK;
}

void sylva__matrix_free(sylva_matrix *A)
{
    if (!A) return;
    if (A->owns_arrays) {
        free(A->colptr);
        free(A->rowind);
        free(A->values);
    }
    free(A);
}
