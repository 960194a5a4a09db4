/* matrix_ops.c — arithmetic on a stored-lower symmetric sylva_matrix of
 * either scalar type: y = A x, ‖A‖∞, the backward error
 * ‖b − A x‖∞ / (‖A‖∞ ‖x‖∞ + ‖b‖∞) (t_matrix_ops.c, per precision), and the
 * conversion to another type, and a fingerprint of the pattern. The arithmetic cannot fail loudly: a
 * pattern-only matrix, a NULL argument or an allocation failure gives NaN
 * (so a test comparing against a tolerance fails), and any NaN in A, x or b
 * comes out as NaN. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "io_internal.h"

#define SYLVA_DOUBLE
#include "t_matrix_ops.c"
#define SYLVA_SINGLE
#include "t_matrix_ops.c"

void sylva__matrix_symv(const sylva_matrix *A, const void *x, void *y)
{
    if (!A || !y) return;
    if (!A->values || !x) {
        for (int64_t i = 0; i < A->n; i++) {
            if (A->dtype == SYLVA_FLOAT32) ((float *)y)[i] = NAN;
            else ((double *)y)[i] = NAN;
        }
        return;
    }
    if (A->dtype == SYLVA_FLOAT32) sylva__s_symv(A, x, y);
    else sylva__d_symv(A, x, y);
}

double sylva__matrix_norm_inf(const sylva_matrix *A)
{
    if (!A || !A->values) return NAN;
    return A->dtype == SYLVA_FLOAT32 ? sylva__s_norm_inf(A) : sylva__d_norm_inf(A);
}

double sylva__backward_error(const sylva_matrix *A, const void *x, const void *b)
{
    if (!A || !x || !b || !A->values) return NAN;
    if (A->n == 0) return 0.0;
    return A->dtype == SYLVA_FLOAT32 ? sylva__s_backward_error(A, x, b)
                                     : sylva__d_backward_error(A, x, b);
}

void sylva__convert_values(int64_t count, sylva_dtype from, const void *src, sylva_dtype to,
                           void *dst)
{
    if (from == to) {
        memcpy(dst, src, (size_t)count * sylva__dtype_size(to));
    } else if (to == SYLVA_FLOAT32) {
        const double *s = src;
        float *d = dst;
        for (int64_t i = 0; i < count; i++) d[i] = (float)s[i];
    } else {
        const float *s = src;
        double *d = dst;
        for (int64_t i = 0; i < count; i++) d[i] = (double)s[i];
    }
}

int sylva__matrix_convert(const sylva_matrix *A, sylva_dtype dtype, sylva_matrix **out)
{
    if (!A || !out) return sylva__fail(SYLVA_ERR_ARGUMENT, "sylva_matrix_convert: NULL argument");
    *out = NULL;
    size_t es = sylva__dtype_size(dtype);
    if (!es) return sylva__fail(SYLVA_ERR_ARGUMENT, "sylva_matrix_convert: unknown dtype %d", (int)dtype);
    sylva_matrix *M = sylva__matrix_alloc();
    if (!M) return SYLVA_ERR_NO_MEMORY;
    M->n = A->n;
    M->nnz = A->nnz;
    M->dtype = dtype;
    M->colptr = sylva__malloc((size_t)A->n + 1, sizeof(int64_t));
    M->rowind = sylva__malloc((size_t)A->nnz, sizeof(int64_t));
    M->values = A->values ? sylva__malloc((size_t)A->nnz, es) : NULL;
    if (!M->colptr || !M->rowind || (A->values && !M->values)) {
        sylva__matrix_free(M);
        return SYLVA_ERR_NO_MEMORY;
    }
    memcpy(M->colptr, A->colptr, ((size_t)A->n + 1) * sizeof(int64_t));
    memcpy(M->rowind, A->rowind, (size_t)A->nnz * sizeof(int64_t));
    if (A->values) sylva__convert_values(A->nnz, A->dtype, A->values, dtype, M->values);
    *out = M;
    return SYLVA_OK;
}

static uint64_t fnv1a(uint64_t h, const void *data, size_t bytes)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < bytes; i++) h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

uint64_t sylva__pattern_hash(const sylva_matrix *A)
{
    uint64_t h = 14695981039346656037ull;
    h = fnv1a(h, &A->n, sizeof A->n);
    h = fnv1a(h, A->colptr, ((size_t)A->n + 1) * sizeof *A->colptr);
    return fnv1a(h, A->rowind, (size_t)A->nnz * sizeof *A->rowind);
}
