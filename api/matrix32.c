/* matrix32.c — matrices from CSC arrays with 32-bit indices, each read
 * once: sylva_matrix_from_csc32 hands them to io/'s triplet builder as
 * they are (it reads 32-bit indices in place; only a 32-bit column index
 * per entry is made), which writes A's own arrays — the one copy;
 * sylva_matrix_wrap32 widens the indices into one block that also holds
 * the matrix struct (released together by sylva_matrix_free) and uses the
 * caller's values in place, with sylva_matrix_wrap's checks. Fails with
 * SYLVA_ERR_ARGUMENT naming the argument or the column (as the 64-bit
 * entry points), SYLVA_ERR_BAD_VALUE, SYLVA_ERR_NOT_SYMMETRIC,
 * SYLVA_ERR_NO_MEMORY. */
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "io.h"
#include "io_internal.h"

static int check32(const char *who, int64_t n, const int32_t *colptr, const int32_t *rowind,
                   sylva_matrix **A)
{
    if (!A) return sylva__fail(SYLVA_ERR_ARGUMENT, "%s: A is NULL", who);
    *A = NULL;
    if (n < 0 || n > INT32_MAX)
        return sylva__fail(SYLVA_ERR_ARGUMENT, "%s: n = %lld is out of range 0..%d", who,
                           (long long)n, INT32_MAX);
    if (!colptr) return sylva__fail(SYLVA_ERR_ARGUMENT, "%s: colptr is NULL", who);
    if (colptr[0] != 0)
        return sylva__fail(SYLVA_ERR_ARGUMENT, "%s: colptr[0] = %d, expected 0", who, colptr[0]);
    for (int64_t j = 0; j < n; j++)
        if (colptr[j + 1] < colptr[j])
            return sylva__fail(SYLVA_ERR_ARGUMENT,
                               "%s: column %lld: colptr decreases (colptr[%lld] = %d > colptr[%lld] = %d)",
                               who, (long long)j, (long long)j, colptr[j], (long long)(j + 1),
                               colptr[j + 1]);
    if (colptr[n] > 0 && !rowind) return sylva__fail(SYLVA_ERR_ARGUMENT, "%s: rowind is NULL", who);
    return SYLVA_OK;
}

int sylva_matrix_from_csc32(int64_t n, const int32_t *colptr, const int32_t *rowind,
                            const double *values, int storage, sylva_matrix **A)
{
    sylva__clear_error();
    const char *who = "sylva_matrix_from_csc32";
    int st = check32(who, n, colptr, rowind, A);
    if (st) return st;
    sylva__tri_mode mode;
    if ((st = sylva__csc_storage_mode(who, storage, &mode))) return st;
    int64_t nz = colptr[n];
    int32_t *col = sylva__malloc((size_t)nz, sizeof *col);
    if (!col) return SYLVA_ERR_NO_MEMORY;
    for (int64_t j = 0; j < n; j++)
        for (int64_t p = colptr[j]; p < colptr[j + 1]; p++) col[p] = (int32_t)j;
    sylva__triplets t = {rowind, col, values, nz, 1};
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

/* Room for the struct at the head of the block, keeping the arrays aligned. */
#define HEAD ((sizeof(sylva_matrix) + 63) / 64 * 64)

int sylva_matrix_wrap32(int64_t n, const int32_t *colptr, const int32_t *rowind, double *values,
                        sylva_matrix **A)
{
    sylva__clear_error();
    const char *who = "sylva_matrix_wrap32";
    int st = check32(who, n, colptr, rowind, A);
    if (st) return st;
    int64_t nz = colptr[n];
    char *block = sylva__malloc(HEAD + (size_t)(n + 1 + nz) * sizeof(int64_t), 1);
    if (!block) return SYLVA_ERR_NO_MEMORY;
    int64_t *cp = (int64_t *)(block + HEAD), *ri = cp + n + 1;
    for (int64_t j = 0; j <= n; j++) cp[j] = colptr[j];
    for (int64_t p = 0; p < nz; p++) ri[p] = rowind[p];
    sylva_matrix *checked = NULL;
    st = sylva__matrix_wrap(n, cp, ri, values, &checked);
    if (st) {
        /* The checks are sylva_matrix_wrap's; the message names this call. */
        const char *msg = sylva__last_error(), *tail = strchr(msg, ':');
        char copy[512];
        snprintf(copy, sizeof copy, "%s", tail ? tail + 1 : msg);
        free(block);
        return sylva__fail(st, "%s:%s", who, copy);
    }
    sylva_matrix *M = (sylva_matrix *)block;
    *M = *checked;
    M->owns_arrays = 0; /* the indices go with the block, the values stay the caller's */
    sylva__matrix_free(checked);
    *A = M;
    return SYLVA_OK;
}
