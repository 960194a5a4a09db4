/* test_factor.c — factor + solve one matrix under one policy and ordering,
 *   test_factor SPEC POLICY ORDERING [small=N] [tile=N] [precision=double|single]
 * (small and tile force more fronts into the large class and choose their
 * tiling; precision runs the factor and solve in float, checked against the
 * float matrix at single-precision level), checking the backward error on:
 * one random RHS, 7 random RHS at once, b = A·x for a known x, and a
 * refactorization with new values on the same pattern (A + I, a different
 * matrix) — whose log det must also differ from the first one's as LAPACK
 * says for small n. */
#include <math.h>

#include "test_util.h"

void dpotrf_(const char *uplo, const int *n, double *a, const int *lda, int *info);

/* log det of A (double values) by dense LAPACK (small n only). */
static double dense_logdet(const sylva_matrix *A)
{
    int n = (int)A->n, info = 0;
    const double *v = A->values;
    double *D = calloc((size_t)n * (size_t)n, sizeof *D);
    for (int64_t j = 0; j < A->n; j++)
        for (int64_t p = A->colptr[j]; p < A->colptr[j + 1]; p++) D[A->rowind[p] + j * n] = v[p];
    dpotrf_("L", &n, D, &n, &info);
    double s = 0;
    for (int i = 0; i < n; i++) s += log(D[i + i * n]);
    free(D);
    return info ? NAN : 2 * s;
}

/* Solve with nrhs random right-hand sides; M is the matrix in the factor's
 * precision (the backward error is measured against it). */
static void solve_and_check(const sylva_matrix *M, sylva_factor_t *F, int64_t nrhs, const char *what)
{
    int64_t n = M->n;
    size_t bytes = (size_t)(n * nrhs + 1) * sylva_dtype_size(M->dtype);
    void *B = test_random_block(M->dtype, n * nrhs), *X = malloc(bytes);
    memcpy(X, B, bytes);
    int st = sylva_solve(F, nrhs, X, n > 0 ? n : 1);
    CHECK(st == SYLVA_OK, "%s: solve: %s", what, sylva_last_error());
    double e = test_check_solution(M, X, B, nrhs, what);
    printf("  %-28s nrhs %lld: backward error %.2e\n", what, (long long)nrhs, e);
    free(B);
    free(X);
}

/* A + I on the same pattern (every diagonal is stored), in both copies. */
static void add_identity(sylva_matrix *A)
{
    for (int64_t j = 0; j < A->n; j++)
        for (int64_t p = A->colptr[j]; p < A->colptr[j + 1]; p++)
            if (A->rowind[p] == j) {
                if (A->dtype == SYLVA_FLOAT32) ((float *)A->values)[p] += 1.0f;
                else ((double *)A->values)[p] += 1.0;
            }
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: test_factor SPEC POLICY ORDERING [small=N] [tile=N] [precision=P]\n");
        return 2;
    }
    test_seed();
    sylva_matrix *A = NULL;
    int st = test_load(argv[1], &A);
    if (st) {
        fprintf(stderr, "cannot load %s: %s\n", argv[1], sylva_last_error());
        return 1;
    }
    sylva_options o;
    sylva_default_options(&o);
    o.policy = argv[2];
    o.ordering = sylva_ordering_from_name(argv[3]);
    o.ncpus = 2;
    for (int i = 4; i < argc; i++) {
        if (!strncmp(argv[i], "small=", 6)) o.small_front_rows = atoll(argv[i] + 6);
        else if (!strncmp(argv[i], "tile=", 5)) o.tile_rows = atoll(argv[i] + 5);
        else if (!strncmp(argv[i], "precision=", 10)) o.precision = sylva_dtype_from_name(argv[i] + 10);
        else {
            fprintf(stderr, "test_factor: unknown argument %s\n", argv[i]);
            return 2;
        }
    }
    /* M: the matrix in the factor's precision, what solutions are checked
     * against. The first factorization gets A itself (double: converted
     * inside when the factor is single), the refactorization gets M. */
    sylva_matrix *M = A;
    if (o.precision != A->dtype) CHECK(sylva_matrix_convert(A, o.precision, &M) == SYLVA_OK, "convert");
    double eps = test_eps(o.precision);
    CHECK(sylva_init(&o) == SYLVA_OK, "init: %s", sylva_last_error());
    sylva_analysis_t *an = NULL;
    sylva_analysis_info ai;
    st = sylva_analyze(A, &o, &an, &ai);
    CHECK(st == SYLVA_OK, "analyze: %s", sylva_last_error());
    if (st) return 1;
    printf("%s %s %s %s: n %lld, fronts %lld, batches %lld, nnz(L) %lld\n", argv[1], argv[2], argv[3],
           sylva_dtype_name(o.precision), (long long)ai.n, (long long)ai.fronts, (long long)ai.batches,
           (long long)ai.nnz_L);
    sylva_factor_t *F = NULL;
    sylva_factor_info fi;
    st = sylva_factorize(an, A, &F, &fi);
    CHECK(st == SYLVA_OK, "factorize: %s", sylva_last_error());
    if (st) return 1;
    CHECK(sylva_factor_dtype(F) == o.precision, "factor dtype %d", (int)sylva_factor_dtype(F));
    /* One group task per batch. A dynamic policy cuts its batches at run
     * time: the analysis' count is its one-worker simulation, not the run's. */
    CHECK(fi.tasks == fi.batches, "tasks %lld != batches %lld", (long long)fi.tasks, (long long)fi.batches);
    if (strcmp(o.policy, "ready") != 0)
        CHECK(fi.batches == ai.batches, "run batches %lld != plan batches %lld", (long long)fi.batches,
              (long long)ai.batches);
    CHECK(sylva_factor_batch_count(F) == fi.batches, "batch records %lld", (long long)sylva_factor_batch_count(F));
    solve_and_check(M, F, 1, "random rhs");
    solve_and_check(M, F, 7, "7 random rhs");

    /* b = M·x for a known x. */
    int64_t n = M->n;
    size_t es = sylva_dtype_size(M->dtype);
    void *x = test_random_block(M->dtype, n), *b = malloc((size_t)(n + 1) * es), *y = malloc((size_t)(n + 1) * es);
    for (int64_t i = 0; i < n; i++) { /* x in [0.5, 1.5] */
        if (M->dtype == SYLVA_FLOAT32) ((float *)x)[i] = 1.0f + 0.5f * ((float *)x)[i];
        else ((double *)x)[i] = 1.0 + 0.5 * ((double *)x)[i];
    }
    sylva_matrix_symv(M, x, b);
    memcpy(y, b, (size_t)n * es);
    CHECK(sylva_solve(F, 1, y, n > 0 ? n : 1) == SYLVA_OK, "solve: %s", sylva_last_error());
    test_check_solution(M, y, b, 1, "b = A x");

    double ld1 = 0, ld_tol = o.precision == SYLVA_FLOAT32 ? 50.0 * (double)n * eps : 1e-10;
    CHECK(sylva_logdet(F, &ld1) == SYLVA_OK, "logdet");
    if (n <= 600 && A->dtype == SYLVA_FLOAT64) {
        double ref = dense_logdet(A);
        CHECK(fabs(ld1 - ref) <= ld_tol * (fabs(ref) + 1), "logdet %.15g vs LAPACK %.15g", ld1, ref);
    }

    /* Refactorization: A + I on the same pattern. */
    add_identity(A);
    if (M != A) add_identity(M);
    st = sylva_refactorize(F, M, &fi);
    CHECK(st == SYLVA_OK, "refactorize: %s", sylva_last_error());
    solve_and_check(M, F, 3, "refactorized A + I");
    double ld2 = 0;
    sylva_logdet(F, &ld2);
    CHECK(ld2 > ld1, "log det of A + I (%.15g) must exceed that of A (%.15g)", ld2, ld1);
    if (n <= 600 && A->dtype == SYLVA_FLOAT64) {
        double ref = dense_logdet(A);
        CHECK(fabs(ld2 - ref) <= ld_tol * (fabs(ref) + 1), "refactorized logdet %.15g vs %.15g", ld2, ref);
    }
    free(x);
    free(b);
    free(y);
    sylva_factor_free(F);
    sylva_analysis_free(an);
    if (M != A) sylva_matrix_free(M);
    sylva_matrix_free(A);
    sylva_finalize();
    return test_exit("test_factor");
}
