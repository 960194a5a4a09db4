/* io.h — what the io/ layer offers the layers above it (api/, frontal/):
 * reading Matrix Market files, building and checking lower CSC matrices
 * from caller arrays, dense vectors in and out, and the arithmetic used to
 * check solutions. The public entry points of sylva.h with the same names
 * (without the double underscore) are thin wrappers in api/. Every function
 * that can fail returns a sylva_status after recording the message
 * ("FILE:LINE: reason" for files). */
#ifndef SYLVA_IO_H
#define SYLVA_IO_H

#include <stdint.h>

#include "core.h"

/* path "-": standard input; o NULL: defaults; info may be NULL. */
int sylva__read_matrix_market(const char *path, const sylva_read_options *o, sylva_matrix **A,
                              sylva_read_info *info);
void sylva__default_read_options(sylva_read_options *o);
int sylva__matrix_from_csc(int64_t n, const int64_t *colptr, const int64_t *rowind,
                           const double *values, int storage, sylva_matrix **A);
int sylva__matrix_wrap(int64_t n, int64_t *colptr, int64_t *rowind, double *values,
                       sylva_matrix **A);
void sylva__matrix_free(sylva_matrix *A);
int sylva__matrix_convert(const sylva_matrix *A, sylva_dtype dtype, sylva_matrix **out);
/* dst[i] = (to) src[i], i < count (a copy when the types agree). */
void sylva__convert_values(int64_t count, sylva_dtype from, const void *src, sylva_dtype to,
                           void *dst);

/* A 64-bit fingerprint of A's pattern (n, colptr, rowind; FNV-1a): equal
 * patterns give equal hashes, different ones almost surely not. */
uint64_t sylva__pattern_hash(const sylva_matrix *A);

void sylva__matrix_symv(const sylva_matrix *A, const void *x, void *y);
double sylva__matrix_norm_inf(const sylva_matrix *A);
double sylva__backward_error(const sylva_matrix *A, const void *x, const void *b);

int sylva__read_dense(const char *path, int64_t *n, int64_t *nrhs, double **X);
int sylva__write_dense(const char *path, int64_t n, int64_t nrhs, const double *X, int64_t ldx);

#endif
