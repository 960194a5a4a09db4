/* t_matrix_ops.c — y = A x, ‖A‖∞ and the backward error for one scalar type
 * (a precision template, see core/precision.h; instantiated by
 * matrix_ops.c). Sums are formed in double whatever the type, so a float32
 * matrix's residual is not polluted by the check itself. When ‖A‖∞
 * overflows (entries near DBL_MAX), the backward error is the same ratio
 * with A scaled by a power of two, and when x or b is so large that A x
 * could overflow (entries near 1e306), with x and b scaled likewise, so a
 * good solution is not reported as NaN or 0. */
#include "precision.h"

static void SYLVA_TNAME(symv)(const sylva_matrix *A, const Scalar *x, Scalar *y)
{
    int64_t n = A->n;
    const int64_t *cp = A->colptr, *ri = A->rowind;
    const Scalar *v = A->values;
    double *acc = sylva__calloc((size_t)(n > 0 ? n : 1), sizeof *acc);
    if (!acc) {
        for (int64_t i = 0; i < n; i++) y[i] = (Scalar)NAN;
        return;
    }
    for (int64_t j = 0; j < n; j++) {
        double xj = (double)x[j], yj = 0.0;
        for (int64_t p = cp[j]; p < cp[j + 1]; p++) {
            int64_t i = ri[p];
            acc[i] += (double)v[p] * xj;
            if (i != j) yj += (double)v[p] * (double)x[i];
        }
        acc[j] += yj;
    }
    for (int64_t i = 0; i < n; i++) y[i] = (Scalar)acc[i];
    free(acc);
}

/* ‖s·A‖∞ (s a power of two: exact unless it underflows). */
static double SYLVA_TNAME(norm_inf_scaled)(const sylva_matrix *A, double s)
{
    int64_t n = A->n;
    const Scalar *v = A->values;
    double *r = sylva__calloc((size_t)(n > 0 ? n : 1), sizeof *r);
    if (!r) return NAN;
    for (int64_t j = 0; j < n; j++)
        for (int64_t p = A->colptr[j]; p < A->colptr[j + 1]; p++) {
            int64_t i = A->rowind[p];
            double a = fabs((double)v[p]) * s;
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

static double SYLVA_TNAME(norm_inf)(const sylva_matrix *A)
{
    return SYLVA_TNAME(norm_inf_scaled)(A, 1.0);
}

/* max |v_i|, NaN if any v_i is NaN. */
static double SYLVA_TNAME(vec_norm_inf)(const Scalar *v, int64_t n)
{
    double m = 0.0;
    for (int64_t i = 0; i < n; i++) {
        double a = fabs((double)v[i]);
        if (isnan(a)) return NAN;
        if (a > m) m = a;
    }
    return m;
}

static double SYLVA_TNAME(backward_error)(const sylva_matrix *A, const Scalar *x, const Scalar *b)
{
    int64_t n = A->n;
    const int64_t *cp = A->colptr, *ri = A->rowind;
    const Scalar *v = A->values;
    double xn = SYLVA_TNAME(vec_norm_inf)(x, n), bn = SYLVA_TNAME(vec_norm_inf)(b, n);
    if (isnan(xn) || isnan(bn)) return NAN;
    /* x and b scaled by sx (a power of two) when A x could overflow: the
     * ratio below is the same for s·x and s·b. */
    double big = xn > bn ? xn : bn, sx = 1.0;
    if (big > 0x1p500) {
        int e;
        frexp(big, &e);
        sx = ldexp(1.0, -e);
    }
    xn *= sx;
    bn *= sx;
    /* r = b − A x in double. */
    double *r = sylva__malloc((size_t)n, sizeof *r);
    if (!r) return NAN;
    for (int64_t i = 0; i < n; i++) r[i] = sx * (double)b[i];
    for (int64_t j = 0; j < n; j++) {
        double xj = sx * (double)x[j], rj = 0.0;
        for (int64_t p = cp[j]; p < cp[j + 1]; p++) {
            int64_t i = ri[p];
            r[i] -= (double)v[p] * xj;
            if (i != j) rj += (double)v[p] * (sx * (double)x[i]);
        }
        r[j] -= rj;
    }
    double rn = 0.0;
    for (int64_t i = 0; i < n; i++) {
        double a = fabs(r[i]);
        if (isnan(a)) {
            rn = NAN;
            break;
        }
        if (a > rn) rn = a;
    }
    free(r);
    double an = SYLVA_TNAME(norm_inf)(A);
    if (isnan(rn) || isnan(an)) return NAN;
    if (isinf(an)) {
        /* ‖A‖∞ overflows: rn / (‖A‖ xn + bn) = s·rn / (‖s·A‖ xn + s·bn). */
        double amax = SYLVA_TNAME(vec_norm_inf)(v, cp[n]);
        int e;
        frexp(amax, &e);
        double s = ldexp(1.0, -e);
        return s * rn / (SYLVA_TNAME(norm_inf_scaled)(A, s) * xn + s * bn);
    }
    double den = an * xn + bn;
    if (den == 0.0) return rn == 0.0 ? 0.0 : INFINITY;
    return rn / den;
}
