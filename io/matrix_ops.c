/* matrix_ops.c — arithmetic on a stored-lower symmetric sylva_matrix:
 * y = A x, ‖A‖∞, and the backward error ‖b − A x‖∞ / (‖A‖∞ ‖x‖∞ + ‖b‖∞).
 * These cannot fail loudly: a pattern-only matrix, a NULL argument or an
 * allocation failure gives NaN (so a test comparing against a tolerance
 * fails), and any NaN in A, x or b comes out as NaN. */
#include "io_internal.h"

#include <math.h>
#include <stdlib.h>

void sylva_matrix_symv(const sylva_matrix *A, const double *x, double *y)
{
    if (!A || !y) return;
    int64_t n = A->n;
    if (!A->values || !x) {
        for (int64_t i = 0; i < n; i++) y[i] = NAN;
        return;
    }
    for (int64_t i = 0; i < n; i++) y[i] = 0.0;
    const int64_t *cp = A->colptr, *ri = A->rowind;
    const double *v = A->values;
    for (int64_t j = 0; j < n; j++) {
        double xj = x[j], yj = 0.0;
        for (int64_t p = cp[j]; p < cp[j + 1]; p++) {
            int64_t i = ri[p];
            y[i] += v[p] * xj;
            if (i != j) yj += v[p] * x[i];
        }
        y[j] += yj;
    }
}

double sylva_matrix_norm_inf(const sylva_matrix *A)
{
    if (!A || !A->values) return NAN;
    int64_t n = A->n;
    double *r = calloc((size_t)(n > 0 ? n : 1), sizeof *r);
    if (!r) return NAN;
    for (int64_t j = 0; j < n; j++)
        for (int64_t p = A->colptr[j]; p < A->colptr[j + 1]; p++) {
            int64_t i = A->rowind[p];
            double a = fabs(A->values[p]);
            r[i] += a;
            if (i != j) r[j] += a;
        }
    double m = 0.0;
    for (int64_t i = 0; i < n; i++) {
        if (isnan(r[i])) {
            m = NAN;
            break;
        }
        if (r[i] > m) m = r[i];
    }
    free(r);
    return m;
}

/* max |v_i|, NaN if any v_i is NaN. */
static double vec_norm_inf(const double *v, int64_t n)
{
    double m = 0.0;
    for (int64_t i = 0; i < n; i++) {
        double a = fabs(v[i]);
        if (isnan(a)) return NAN;
        if (a > m) m = a;
    }
    return m;
}

double sylva_backward_error(const sylva_matrix *A, const double *x, const double *b)
{
    if (!A || !x || !b || !A->values) return NAN;
    int64_t n = A->n;
    if (n == 0) return 0.0;
    double *r = malloc((size_t)n * sizeof *r);
    if (!r) return NAN;
    sylva_matrix_symv(A, x, r);
    for (int64_t i = 0; i < n; i++) r[i] = b[i] - r[i];
    double rn = vec_norm_inf(r, n);
    free(r);
    double an = sylva_matrix_norm_inf(A), xn = vec_norm_inf(x, n), bn = vec_norm_inf(b, n);
    if (isnan(rn) || isnan(an) || isnan(xn) || isnan(bn)) return NAN;
    double den = an * xn + bn;
    if (den == 0.0) return rn == 0.0 ? 0.0 : INFINITY;
    return rn / den;
}
