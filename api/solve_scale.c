/* solve_scale.c — right-hand sides near the overflow threshold, and the
 * solution's check. A finite right-hand side whose entries are large (1e306
 * in double) overflows inside the triangular solves, although the solution
 * may be finite: such a column is scaled by a power of two (exact) to a
 * largest entry in [0.5, 1) before the solve and the solution scaled back
 * after, as the command's default b already is. A right-hand side with a
 * NaN or an infinity, and a solution that still is not finite (it exceeds
 * the type's range, or the factor is numerically singular), are
 * SYLVA_ERR_BAD_VALUE naming the entry: the library never returns
 * SYLVA_OK with a non-finite solution. Host right-hand sides only. */
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "api.h"

/* Column c's largest |entry|, or the first non-finite entry's row in *bad. */
static double column_max(sylva_dtype dtype, const void *B, int64_t ldb, int64_t n, int64_t c, int64_t *bad)
{
    double m = 0;
    *bad = -1;
    for (int64_t i = 0; i < n; i++) {
        double v = dtype == SYLVA_FLOAT32 ? (double)((const float *)B)[c * ldb + i] : ((const double *)B)[c * ldb + i];
        if (!isfinite(v)) {
            *bad = i;
            return v;
        }
        if (fabs(v) > m) m = fabs(v);
    }
    return m;
}

static void column_scale(sylva_dtype dtype, void *B, int64_t ldb, int64_t n, int64_t c, int e)
{
    for (int64_t i = 0; i < n; i++) {
        if (dtype == SYLVA_FLOAT32) {
            float *p = (float *)B + c * ldb + i;
            *p = ldexpf(*p, e);
        } else {
            double *p = (double *)B + c * ldb + i;
            *p = ldexp(*p, e);
        }
    }
}

int sylva__solve_scale(sylva_dtype dtype, sylva_dtype factor_dtype, int64_t n, int64_t nrhs, void *B, int64_t ldb,
                       int **exps, const char *who)
{
    *exps = NULL;
    /* Above the square root of the factor's largest number, the solves'
     * intermediate values may overflow. */
    double above = factor_dtype == SYLVA_FLOAT32 ? ldexp(1.0, FLT_MAX_EXP / 2) : ldexp(1.0, DBL_MAX_EXP / 2);
    for (int64_t c = 0; c < nrhs; c++) {
        int64_t bad;
        double m = column_max(dtype, B, ldb, n, c, &bad);
        if (bad >= 0)
            return sylva__fail(SYLVA_ERR_BAD_VALUE,
                               "%s: B(%lld, %lld) is %s (1-based row, column): right-hand sides must be finite", who,
                               (long long)bad + 1, (long long)c + 1, isnan(m) ? "NaN" : "infinite");
        if (!(m > above)) continue;
        if (!*exps && !(*exps = sylva__calloc((size_t)nrhs, sizeof **exps))) return SYLVA_ERR_NO_MEMORY;
        int e;
        frexp(m, &e); /* m = f·2^e, f in [0.5, 1) */
        (*exps)[c] = e;
        column_scale(dtype, B, ldb, n, c, -e);
    }
    return SYLVA_OK;
}

int sylva__solve_unscale(sylva_dtype dtype, int64_t n, int64_t nrhs, void *B, int64_t ldb, int *exps,
                         const char *who)
{
    int status = SYLVA_OK;
    for (int64_t c = 0; c < nrhs; c++) {
        if (exps && exps[c]) column_scale(dtype, B, ldb, n, c, exps[c]);
        int64_t bad;
        double v = column_max(dtype, B, ldb, n, c, &bad);
        if (bad >= 0 && !status)
            status = sylva__fail(SYLVA_ERR_BAD_VALUE,
                                 "%s: the solution is not finite: X(%lld, %lld) is %s (1-based row, column): it "
                                 "exceeds the range of %s, or the matrix is numerically singular",
                                 who, (long long)bad + 1, (long long)c + 1, isnan(v) ? "NaN" : "infinite",
                                 sylva_dtype_name(dtype));
    }
    free(exps);
    return status;
}
