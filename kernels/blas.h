/* blas.h — the BLAS/LAPACK entry points sylva calls on the CPU (OpenBLAS).
 * CBLAS for levels 2 and 3, Fortran LAPACK for POTRF (LAPACKE's would scan
 * the whole input for NaN first, an O(n²) pass per call we do not want).
 * Precision templates name them through SYLVA_CBLAS/SYLVA_LAPACK
 * (core/precision.h). */
#ifndef SYLVA_KERNELS_BLAS_H
#define SYLVA_KERNELS_BLAS_H

#include <cblas.h>

void dpotrf_(const char *uplo, const int *n, double *a, const int *lda, int *info);
void spotrf_(const char *uplo, const int *n, float *a, const int *lda, int *info);
void openblas_set_num_threads(int num_threads);
int openblas_get_num_threads(void);

#endif
