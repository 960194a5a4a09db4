/* test_factor.c — factor + solve one matrix under one policy and ordering
 * (argv: SPEC POLICY ORDERING [SMALL_FRONT_ROWS [TILE_ROWS]], the last two
 * forcing more fronts into the large class and choosing their tiling), checking backward error on: one random RHS,
 * 7 random RHS at once, b = A·x for a known x, and a refactorization with new
 * values on the same pattern (A + I, a different matrix) — whose log det must
 * also differ from the first one's as LAPACK says for small n. */
#include <math.h>

#include "test_util.h"

void dpotrf_(const char *uplo, const int *n, double *a, const int *lda, int *info);

/* log det of A by dense LAPACK (small n only). */
static double dense_logdet(const sylva_matrix *A)
{
    int n = (int)A->n, info = 0;
    double *D = calloc((size_t)n * (size_t)n, sizeof *D);
    for (int64_t j = 0; j < A->n; j++)
        for (int64_t p = A->colptr[j]; p < A->colptr[j + 1]; p++) D[A->rowind[p] + j * n] = ((double *)A->values)[p];
    dpotrf_("L", &n, D, &n, &info);
    double s = 0;
    for (int i = 0; i < n; i++) s += log(D[i + i * n]);
    free(D);
    return info ? NAN : 2 * s;
}

static void solve_and_check(const sylva_matrix *A, sylva_factor_t *F, int64_t nrhs, const char *what)
{
    int64_t n = A->n;
    double *B = malloc((size_t)(n * nrhs + 1) * sizeof *B), *X = malloc((size_t)(n * nrhs + 1) * sizeof *X);
    for (int64_t i = 0; i < n * nrhs; i++) B[i] = test_rand();
    memcpy(X, B, (size_t)(n * nrhs) * sizeof *X);
    int st = sylva_solve(F, nrhs, X, n);
    CHECK(st == SYLVA_OK, "%s: solve: %s", what, sylva_last_error());
    double e = test_check_solution(A, X, B, nrhs, what);
    printf("  %-28s nrhs %lld: backward error %.2e\n", what, (long long)nrhs, e);
    free(B);
    free(X);
}

int main(int argc, char **argv)
{
    if (argc < 4 || argc > 6) {
        fprintf(stderr, "usage: test_factor SPEC POLICY ORDERING [SMALL_FRONT_ROWS [TILE_ROWS]]\n");
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
    if (argc >= 5) o.small_front_rows = atoll(argv[4]);
    if (argc >= 6) o.tile_rows = atoll(argv[5]);
    CHECK(sylva_init(&o) == SYLVA_OK, "init: %s", sylva_last_error());
    sylva_analysis_t *an = NULL;
    sylva_analysis_info ai;
    st = sylva_analyze(A, &o, &an, &ai);
    CHECK(st == SYLVA_OK, "analyze: %s", sylva_last_error());
    if (st) return 1;
    printf("%s %s %s: n %lld, fronts %lld, batches %lld, nnz(L) %lld\n", argv[1], argv[2], argv[3],
           (long long)ai.n, (long long)ai.fronts, (long long)ai.batches, (long long)ai.nnz_L);
    sylva_factor_t *F = NULL;
    sylva_factor_info fi;
    st = sylva_factorize(an, A, &F, &fi);
    CHECK(st == SYLVA_OK, "factorize: %s", sylva_last_error());
    if (st) return 1;
    CHECK(fi.tasks == ai.batches, "tasks %lld != batches %lld", (long long)fi.tasks, (long long)ai.batches);
    solve_and_check(A, F, 1, "random rhs");
    solve_and_check(A, F, 7, "7 random rhs");

    /* b = A·x for a known x: the solution itself must come back closely. */
    int64_t n = A->n;
    double *x = malloc((size_t)(n + 1) * sizeof *x), *b = malloc((size_t)(n + 1) * sizeof *b);
    for (int64_t i = 0; i < n; i++) x[i] = 1.0 + 0.5 * test_rand();
    sylva_matrix_symv(A, x, b);
    double *y = malloc((size_t)(n + 1) * sizeof *y);
    memcpy(y, b, (size_t)n * sizeof *y);
    CHECK(sylva_solve(F, 1, y, n > 0 ? n : 1) == SYLVA_OK, "solve: %s", sylva_last_error());
    test_check_solution(A, y, b, 1, "b = A x");

    double ld1 = 0;
    CHECK(sylva_logdet(F, &ld1) == SYLVA_OK, "logdet");
    if (n <= 600) {
        double ref = dense_logdet(A);
        CHECK(fabs(ld1 - ref) <= 1e-10 * (fabs(ref) + 1), "logdet %.15g vs LAPACK %.15g", ld1, ref);
    }

    /* Refactorization: A + I on the same pattern (every diagonal is stored). */
    for (int64_t j = 0; j < n; j++)
        for (int64_t p = A->colptr[j]; p < A->colptr[j + 1]; p++)
            if (A->rowind[p] == j) ((double *)A->values)[p] += 1.0;
    st = sylva_refactorize(F, A, &fi);
    CHECK(st == SYLVA_OK, "refactorize: %s", sylva_last_error());
    solve_and_check(A, F, 3, "refactorized A + I");
    double ld2 = 0;
    sylva_logdet(F, &ld2);
    CHECK(ld2 > ld1, "log det of A + I (%.15g) must exceed that of A (%.15g)", ld2, ld1);
    if (n <= 600) {
        double ref = dense_logdet(A);
        CHECK(fabs(ld2 - ref) <= 1e-10 * (fabs(ref) + 1), "refactorized logdet %.15g vs %.15g", ld2, ref);
    }
    free(x);
    free(b);
    free(y);
    sylva_factor_free(F);
    sylva_analysis_free(an);
    sylva_matrix_free(A);
    sylva_finalize();
    printf("%s\n", test_failures ? "FAILED" : "ok");
    return test_failures ? 1 : 0;
}
