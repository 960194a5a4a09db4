/* test_solve.c — the parallel CPU solve against the sequential one on one
 * matrix, in one precision:
 *   test_solve SPEC [precision=double|single] [workers=N] [policy=P]
 * For 1, 3 and 64 random right-hand sides (and 13 in blocks of 5, and a
 * leading dimension larger than n): the solve on the CPU workers and the
 * sequential solve each have a backward error ≤ c·n·ε of the precision
 * (NaN fails), say where they ran and in how many blocks, and leave the
 * rows between ld and n alone (their relative difference is printed). With
 * a single-precision factor, double right-hand sides (mixed precision) are
 * solved to single-precision accuracy.
 */
#include <math.h>

#include "test_util.h"


static double get(sylva_dtype t, const void *X, int64_t i)
{
    return t == SYLVA_FLOAT32 ? (double)((const float *)X)[i] : ((const double *)X)[i];
}

/* Solve B (n × nrhs, ld ldb) in mode `mode` with block `block`; returns
 * the solution packed n × nrhs. */
static void *solve_mode(const sylva_matrix *M, sylva_factor_t *F, sylva_solve_mode mode, int64_t nrhs,
                        int64_t ldb, int64_t block, const void *B, const char *what)
{
    int64_t n = M->n;
    size_t es = sylva_dtype_size(M->dtype);
    char *W = calloc((size_t)(ldb * nrhs + 1), es), *X = malloc((size_t)(n * nrhs + 1) * es);
    for (int64_t c = 0; c < nrhs; c++) memcpy(W + (size_t)(c * ldb) * es, (const char *)B + (size_t)(c * n) * es, (size_t)n * es);
    sylva_options o;
    sylva_default_options(&o);
    o.solve_mode = mode;
    o.solve_block = block;
    sylva_solve_info info;
    int st = sylva_solve_ex(F, &o, M->dtype, nrhs, W, ldb, &info);
    CHECK(st == SYLVA_OK, "%s: %s solve: %s", what, sylva_solve_mode_name(mode), sylva_last_error());
    CHECK(info.mode == mode, "%s: asked %s, ran %s", what, sylva_solve_mode_name(mode),
          sylva_solve_mode_name(info.mode));
    int64_t eb = block > 0 && block < nrhs ? block : nrhs;
    CHECK(info.blocks == (nrhs + eb - 1) / eb, "%s: %lld blocks of %lld for %lld columns", what,
          (long long)info.blocks, (long long)eb, (long long)nrhs);
    CHECK(info.refine_steps == 0 && info.berr_before == -1 && info.berr_after == -1,
          "%s: no refinement asked, %d steps reported", what, info.refine_steps);
    /* Padding rows between columns stay untouched. */
    for (int64_t c = 0; c < nrhs; c++)
        for (int64_t i = n; i < ldb; i++)
            CHECK(get(M->dtype, W, i + c * ldb) == 0, "%s: padding row %lld of column %lld written", what,
                  (long long)i, (long long)c);
    for (int64_t c = 0; c < nrhs; c++) memcpy(X + (size_t)(c * n) * es, W + (size_t)(c * ldb) * es, (size_t)n * es);
    free(W);
    return X;
}

static void compare(const sylva_matrix *M, sylva_factor_t *F, int64_t nrhs, int64_t ldb, int64_t block)
{
    char what[96];
    snprintf(what, sizeof what, "nrhs %lld ld %lld block %lld", (long long)nrhs, (long long)ldb, (long long)block);
    int64_t n = M->n;
    void *B = test_random_block(M->dtype, n * nrhs);
    void *Xp = solve_mode(M, F, SYLVA_SOLVE_CPU, nrhs, ldb, block, B, what);
    void *Xs = solve_mode(M, F, SYLVA_SOLVE_SEQUENTIAL, nrhs, ldb, block, B, what);
    double ep = test_check_solution(M, Xp, B, nrhs, what);
    double es = test_check_solution(M, Xs, B, nrhs, what);
    double diff = 0, norm = 0;
    for (int64_t i = 0; i < n * nrhs; i++) {
        double d = fabs(get(M->dtype, Xp, i) - get(M->dtype, Xs, i)), a = fabs(get(M->dtype, Xs, i));
        if (!(d <= diff)) diff = d;
        if (a > norm) norm = a;
    }
    /* Both are checked by their backward errors; how far apart they are
     * depends on the condition number, so it is printed, not tested. */
    printf("  %-34s backward error parallel %.2e, sequential %.2e, difference %.1e\n", what, ep, es,
           norm > 0 ? diff / norm : diff);
    free(B);
    free(Xp);
    free(Xs);
}

/* Double right-hand sides on a single-precision factor. */
static void mixed(const sylva_matrix *A64, sylva_factor_t *F)
{
    int64_t n = A64->n, nrhs = 3;
    double *B = test_random_block(SYLVA_FLOAT64, n * nrhs), *X = malloc((size_t)(n * nrhs + 1) * sizeof *X);
    memcpy(X, B, (size_t)(n * nrhs) * sizeof *X);
    sylva_solve_info info;
    CHECK(sylva_solve_ex(F, NULL, SYLVA_FLOAT64, nrhs, X, n, &info) == SYLVA_OK, "mixed: %s", sylva_last_error());
    double worst = 0, tol = BERR_C * (double)(n > 1 ? n : 1) * FLT_EPSILON;
    for (int64_t c = 0; c < nrhs; c++) {
        double e = sylva_backward_error(A64, X + c * n, B + c * n);
        CHECK(e <= tol, "mixed precision: rhs %lld backward error %.3e > %.3e", (long long)c, e, tol);
        if (!(e <= worst)) worst = e;
    }
    printf("  mixed precision (float factor, double data): backward error %.2e\n", worst);
    free(B);
    free(X);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_solve SPEC [precision=double|single] [workers=N] [policy=P]\n");
        return 2;
    }
    test_seed();
    sylva_options o;
    sylva_default_options(&o);
    for (int i = 2; i < argc; i++) {
        if (!strncmp(argv[i], "precision=", 10)) o.precision = (sylva_dtype)sylva_dtype_from_name(argv[i] + 10);
        else if (!strncmp(argv[i], "workers=", 8)) o.ncpus = atoi(argv[i] + 8);
        else if (!strncmp(argv[i], "policy=", 7)) o.policy = argv[i] + 7;
    }
    sylva_matrix *A = NULL, *M = NULL;
    if (test_load(argv[1], &A)) {
        fprintf(stderr, "cannot load %s: %s\n", argv[1], sylva_last_error());
        return 2;
    }
    CHECK(sylva_matrix_convert(A, o.precision, &M) == SYLVA_OK, "convert: %s", sylva_last_error());
    CHECK(sylva_init(&o) == SYLVA_OK, "init: %s", sylva_last_error());
    sylva_analysis_t *an = NULL;
    sylva_factor_t *F = NULL;
    CHECK(sylva_analyze(A, &o, &an, NULL) == SYLVA_OK, "analyze: %s", sylva_last_error());
    CHECK(an && sylva_factorize(an, A, &F, NULL) == SYLVA_OK, "factorize: %s", sylva_last_error());
    if (F && M) {
        printf("%s: n = %lld, %s\n", argv[1], (long long)A->n, sylva_dtype_name(o.precision));
        int64_t n = A->n;
        compare(M, F, 1, n, 0);
        compare(M, F, 3, n, 0);
        compare(M, F, 64, n, 0);
        compare(M, F, 13, n + 3, 5);
        compare(M, F, 1, n + 1, 1);
        if (o.precision == SYLVA_FLOAT32) mixed(A, F);
    }
    sylva_factor_free(F);
    sylva_analysis_free(an);
    sylva_finalize();
    sylva_matrix_free(M);
    sylva_matrix_free(A);
    return test_exit("test_solve");
}
