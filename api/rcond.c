/* rcond.c — sylva_rcond: the reciprocal 1-norm condition number
 * 1 / (‖A‖₁ ‖A⁻¹‖₁), with ‖A⁻¹‖₁ estimated by Hager's method as refined by
 * Higham (LAPACK's dlacn2 drives, the factor's solves answer; A is
 * symmetric, so A⁻ᵀ = A⁻¹ and every step is one solve). Usually 4 or 5
 * solves; the estimate is a lower bound of ‖A⁻¹‖₁, almost always within a
 * factor of 3 of it (Higham, Accuracy and Stability of Numerical
 * Algorithms, ch. 15). In a distributed run: rank 0 only, once
 * sylva_factor_to_host has gathered L there (its solves are then rank 0's
 * own). */
#include <limits.h>
#include <stdlib.h>

#include "api.h"
#include "io.h"

/* LAPACK's estimator (Fortran; OpenBLAS exports it, LAPACKE's wrapper is in
 * a library we do not link). */
void dlacn2_(const int *n, double *v, double *x, int *isgn, double *est, int *kase, int *isave);

int sylva_rcond(const sylva_factor_t *F, const sylva_matrix *A, double *rcond)
{
    sylva__clear_error();
    if (!F || !A || !rcond) return sylva__fail(SYLVA_ERR_ARGUMENT, "sylva_rcond: NULL argument");
    *rcond = 0;
    /* Distributed: rank 0 alone, on L gathered before. */
    if (sylva__dist_size() > 1 && (sylva__dist_rank() != 0 || !sylva__numeric_gathered(F->num)))
        return sylva__fail(SYLVA_ERR_UNSUPPORTED,
                           "sylva_rcond: in a distributed run it runs on rank 0, after "
                           "sylva_factor_to_host has gathered L there");
    int status = sylva__api_check_matrix(A);
    if (status) return status;
    if (!A->values) return sylva__fail(SYLVA_ERR_PATTERN_ONLY, "sylva_rcond: the matrix has no values");
    int64_t n = A->n;
    if (n == 0) {
        *rcond = 1;
        return SYLVA_OK;
    }
    if (n > INT_MAX)
        return sylva__fail(SYLVA_ERR_ARGUMENT, "sylva_rcond: n = %lld exceeds LAPACK's int range", (long long)n);
    /* ‖A‖₁ = ‖A‖∞ for a symmetric matrix. */
    double anorm = sylva__matrix_norm_inf(A);
    if (!(anorm > 0)) {
        if (anorm == 0) return SYLVA_OK; /* the zero matrix: rcond 0 */
        return sylva__fail(SYLVA_ERR_BAD_VALUE, "sylva_rcond: ‖A‖ is not finite");
    }
    sylva_dtype dt = sylva_factor_dtype(F);
    double *v = sylva__malloc((size_t)n, sizeof *v), *x = sylva__malloc((size_t)n, sizeof *x);
    float *xs = dt == SYLVA_FLOAT32 ? sylva__malloc((size_t)n, sizeof *xs) : NULL;
    int *isgn = sylva__malloc((size_t)n, sizeof *isgn);
    if (!v || !x || !isgn || (dt == SYLVA_FLOAT32 && !xs)) {
        status = sylva__fail(SYLVA_ERR_NO_MEMORY, "sylva_rcond: out of memory (n = %lld)", (long long)n);
        goto out;
    }
    double est = 0;
    int kase = 0, nn = (int)n, isave[3] = {0, 0, 0};
    for (int step = 0; step < 20; step++) {
        dlacn2_(&nn, v, x, isgn, &est, &kase, isave);
        if (kase == 0) break;
        if (dt == SYLVA_FLOAT32) {
            for (int64_t i = 0; i < n; i++) xs[i] = (float)x[i];
            status = sylva__solve_local(F, 1, xs, n);
            for (int64_t i = 0; i < n; i++) x[i] = xs[i];
        } else {
            status = sylva__solve_local(F, 1, x, n);
        }
        if (status) goto out;
    }
    *rcond = est > 0 ? 1.0 / (anorm * est) : 0;
out:
    free(v);
    free(x);
    free(xs);
    free(isgn);
    return status;
}
