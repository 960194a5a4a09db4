/* test_util.h — helpers shared by the solver tests: load a matrix from a
 * spec ("lap2d5:NX", "lap2d9:NX", "lap3d7:NX", "lap3d27:NX", "elast3d:NX",
 * cubes/squares of side NX, or a Matrix Market path; and "neumann1d:N",
 * issue 36's singular 1-D Neumann Laplacian, which rounding lets factor),
 * fresh random vectors
 * and blocks (seed printed), and the backward-error check ‖b−Ax‖∞/(‖A‖∞‖x‖∞+‖b‖∞) ≤ c·n·ε
 * that fails on NaN. Header-only: each test is one small program. */
#ifndef SYLVA_TEST_UTIL_H
#define SYLVA_TEST_UTIL_H

#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "sylva.h"
#include "sylva_gen.h"

#define BERR_C 4.0 /* c in c·n·ε */

static inline unsigned test_seed(void)
{
    const char *s = getenv("SYLVA_TEST_SEED");
    unsigned seed = s ? (unsigned)strtoul(s, NULL, 10) : (unsigned)time(NULL) ^ (unsigned)clock();
    printf("seed %u (set SYLVA_TEST_SEED to replay)\n", seed);
    srand(seed);
    return seed;
}

static inline double test_rand(void) { return 2.0 * rand() / (double)RAND_MAX - 1.0; }

/* The 1-D Laplacian of n ≥ 2 points with Neumann ends (1 at both ends of
 * the diagonal, 2 inside, −1 beside it): singular (the constants are its
 * null space), lower CSC. */
static inline int test_neumann1d(int64_t n, sylva_matrix **A)
{
    int64_t nnz = 2 * n - 1, *cp = malloc((size_t)(n + 1) * sizeof *cp), *ri = malloc((size_t)nnz * sizeof *ri);
    double *v = malloc((size_t)nnz * sizeof *v);
    int status = cp && ri && v ? SYLVA_OK : SYLVA_ERR_NO_MEMORY;
    for (int64_t j = 0, p = 0; !status && j < n; j++) {
        cp[j] = p;
        ri[p] = j;
        v[p++] = j == 0 || j == n - 1 ? 1 : 2;
        if (j + 1 < n) ri[p] = j + 1, v[p++] = -1;
        cp[j + 1] = p;
    }
    if (!status) status = sylva_matrix_from_csc(n, cp, ri, v, SYLVA_CSC_LOWER, A);
    free(cp);
    free(ri);
    free(v);
    return status;
}

static inline int test_load(const char *spec, sylva_matrix **A)
{
    if (!strncmp(spec, "neumann1d:", 10)) return test_neumann1d(strtoll(spec + 10, NULL, 10), A);
    return sylva_gen_from_spec(spec, A);
}

/* count random values in [−1, 1] of dtype t (malloc'ed, one spare). */
static inline void *test_random_block(sylva_dtype t, int64_t count)
{
    void *B = malloc((size_t)(count + 1) * sylva_dtype_size(t));
    for (int64_t i = 0; i < count; i++) {
        double v = test_rand();
        if (t == SYLVA_FLOAT32) ((float *)B)[i] = (float)v;
        else ((double *)B)[i] = v;
    }
    return B;
}

/* Unit roundoff of a dtype. */
static inline double test_eps(sylva_dtype t) { return t == SYLVA_FLOAT32 ? FLT_EPSILON : DBL_EPSILON; }

/* Backward error of X (n × nrhs, A's dtype) for B, every column, against
 * c·n·ε of A's dtype; returns the worst. */
static inline double test_check_solution(const sylva_matrix *A, const void *X, const void *B,
                                         int64_t nrhs, const char *what)
{
    size_t es = sylva_dtype_size(A->dtype);
    double worst = 0, tol = BERR_C * (double)(A->n > 1 ? A->n : 1) * test_eps(A->dtype);
    for (int64_t c = 0; c < nrhs; c++) {
        double e = sylva_backward_error(A, (const char *)X + (size_t)(c * A->n) * es,
                                        (const char *)B + (size_t)(c * A->n) * es);
        CHECK(e <= tol, "%s: rhs %lld backward error %.3e > %.3e", what, (long long)c, e, tol);
        if (!(e <= worst)) worst = e;
    }
    return worst;
}

#endif
