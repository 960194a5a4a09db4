/* reliability_util.h — what the reliability tests share: a small SPD
 * tridiagonal matrix made through the public API, the runtime started on
 * CPU workers, and a substring test for messages. Header-only, public API
 * only (the tests build against any sylva.h). */
#ifndef SYLVA_RELIABILITY_UTIL_H
#define SYLVA_RELIABILITY_UTIL_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "sylva.h"

#ifndef SYLVA_MAX_WORKERS /* a sylva.h older than the limits */
#define SYLVA_MAX_WORKERS 4096
#endif

static inline int contains(const char *hay, const char *needle)
{
    return strstr(hay, needle) != NULL;
}

/* n × n tridiagonal SPD: 4 on the diagonal, -1 beside it. */
static inline sylva_matrix *tridiag(int64_t n)
{
    int64_t *cp = malloc((size_t)(n + 1) * sizeof *cp), *ri = malloc((size_t)(2 * n) * sizeof *ri);
    double *v = malloc((size_t)(2 * n) * sizeof *v);
    int64_t nz = 0;
    for (int64_t j = 0; j < n; j++) {
        cp[j] = nz;
        ri[nz] = j;
        v[nz++] = 4.0;
        if (j + 1 < n) {
            ri[nz] = j + 1;
            v[nz++] = -1.0;
        }
    }
    cp[n] = nz;
    sylva_matrix *A = NULL;
    CHECK(sylva_matrix_from_csc(n, cp, ri, v, 1, &A) == SYLVA_OK, "from_csc: %s",
          sylva_last_error());
    free(cp);
    free(ri);
    free(v);
    return A;
}

static inline int start(void)
{
    sylva_options o;
    sylva_default_options(&o);
    o.ncpus = 2;
    o.ncuda = 0;
    o.mode = SYLVA_MODE_CPU;
    int st = sylva_init(&o);
    CHECK(st == SYLVA_OK, "init: %s", sylva_last_error());
    return st;
}

/* The backward error of F's solve of A x = A·1 (NaN when the solve fails). */
static inline double solve_berr(const sylva_factor_t *F, const sylva_matrix *A)
{
    int64_t n = A->n;
    double *one = malloc((size_t)n * sizeof *one), *b = malloc((size_t)n * sizeof *b);
    double *x = malloc((size_t)n * sizeof *x);
    for (int64_t i = 0; i < n; i++) one[i] = 1.0;
    sylva_matrix_symv(A, one, b);
    memcpy(x, b, (size_t)n * sizeof *x);
    int st = sylva_solve(F, 1, x, n);
    double e = st == SYLVA_OK ? sylva_backward_error(A, x, b) : NAN;
    free(one);
    free(b);
    free(x);
    return e;
}

#endif
