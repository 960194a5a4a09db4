/* matrix.c — the public matrix, file and vector entry points of sylva.h:
 * each clears the calling thread's last error and calls io/. */
#include "io.h"

int sylva_read_matrix_market(const char *path, sylva_matrix **A)
{
    sylva__clear_error();
    return sylva__read_matrix_market(path, NULL, A, NULL);
}

void sylva_default_read_options(sylva_read_options *o) { sylva__default_read_options(o); }

int sylva_read_matrix_market_opts(const char *path, const sylva_read_options *o, sylva_matrix **A)
{
    sylva__clear_error();
    return sylva__read_matrix_market(path, o, A, NULL);
}

int sylva_read_matrix_market_info(const char *path, const sylva_read_options *o, sylva_matrix **A,
                                  sylva_read_info *info)
{
    sylva__clear_error();
    return sylva__read_matrix_market(path, o, A, info);
}

int sylva_matrix_from_csc(int64_t n, const int64_t *colptr, const int64_t *rowind,
                          const double *values, int storage, sylva_matrix **A)
{
    sylva__clear_error();
    return sylva__matrix_from_csc(n, colptr, rowind, values, storage, A);
}

int sylva_matrix_wrap(int64_t n, int64_t *colptr, int64_t *rowind, double *values,
                      sylva_matrix **A)
{
    sylva__clear_error();
    return sylva__matrix_wrap(n, colptr, rowind, values, A);
}

void sylva_matrix_free(sylva_matrix *A) { sylva__matrix_free(A); }

int sylva_matrix_convert(const sylva_matrix *A, sylva_dtype dtype, sylva_matrix **out)
{
    sylva__clear_error();
    return sylva__matrix_convert(A, dtype, out);
}

void sylva_matrix_symv(const sylva_matrix *A, const void *x, void *y)
{
    sylva__matrix_symv(A, x, y);
}

double sylva_matrix_norm_inf(const sylva_matrix *A) { return sylva__matrix_norm_inf(A); }

double sylva_backward_error(const sylva_matrix *A, const void *x, const void *b)
{
    return sylva__backward_error(A, x, b);
}

int sylva_read_dense(const char *path, int64_t *n, int64_t *nrhs, double **X)
{
    sylva__clear_error();
    return sylva__read_dense(path, n, nrhs, X);
}

int sylva_write_dense(const char *path, int64_t n, int64_t nrhs, const double *X, int64_t ldx)
{
    sylva__clear_error();
    return sylva__write_dense(path, n, nrhs, X, ldx);
}

int sylva_write_file(const char *path, const void *data, size_t size)
{
    sylva__clear_error();
    if (!data && size > 0) return sylva__fail(SYLVA_ERR_ARGUMENT, "sylva_write_file: data is NULL");
    return sylva__write_file(path, data, size);
}
