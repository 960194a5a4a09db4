/* test_api.c — API misuse and failure paths: calls before sylva_init, NULL
 * arguments, bad solve arguments, pattern-only matrices, unknown policy, bad
 * user permutation, refactorization with another pattern, and not-positive-
 * definite matrices reporting the failing column in the user's numbering
 * under every ordering. Each must return its status and a message, never
 * crash. Also: a user permutation is honoured, status names/messages, and
 * the CHOLMOD view of a matrix round-trips, and the public structs keep
 * their sizes. */
#include "sylva_cholmod.h"
#include "test_util.h"

/* n × n diagonal with d[i] = i + 1 except d[bad] = −1 (if bad ≥ 0), plus a
 * tridiagonal coupling of 0.1 so the tree is not trivial. */
static sylva_matrix *tridiag(int64_t n, int64_t bad)
{
    int64_t *cp = malloc((size_t)(n + 1) * sizeof *cp), *ri = malloc((size_t)(2 * n) * sizeof *ri);
    double *v = malloc((size_t)(2 * n) * sizeof *v);
    int64_t nz = 0;
    for (int64_t j = 0; j < n; j++) {
        cp[j] = nz;
        ri[nz] = j;
        v[nz++] = j == bad ? -1.0 : (double)(j + 1);
        if (j + 1 < n) {
            ri[nz] = j + 1;
            v[nz++] = 0.1;
        }
    }
    cp[n] = nz;
    sylva_matrix *A = NULL;
    int st = sylva_matrix_from_csc(n, cp, ri, v, 1, &A);
    CHECK(st == SYLVA_OK, "from_csc: %s", sylva_last_error());
    free(cp);
    free(ri);
    free(v);
    return A;
}

static void not_spd(const char *ordering)
{
    sylva_options o;
    sylva_default_options(&o);
    o.ordering = sylva_ordering_from_name(ordering);
    for (int64_t bad = 0; bad < 40; bad += 13) {
        sylva_matrix *A = tridiag(40, bad);
        sylva_analysis_t *an = NULL;
        sylva_factor_t *F = NULL;
        sylva_factor_info fi;
        CHECK(sylva_analyze(A, &o, &an, NULL) == SYLVA_OK, "analyze: %s", sylva_last_error());
        int st = sylva_factorize(an, A, &F, &fi);
        /* The first failing pivot is column `bad` or later in elimination
         * order; with the diagonal −1 at `bad` and tiny coupling, column
         * `bad` is the one whatever the order. */
        CHECK(st == SYLVA_ERR_NOT_SPD, "%s: status %s", ordering, sylva_status_name(st));
        CHECK(fi.failed_column == bad, "%s: failed column %lld, expected %lld", ordering,
              (long long)fi.failed_column, (long long)bad);
        char want[64];
        snprintf(want, sizeof want, "column %lld", (long long)bad + 1);
        CHECK(strstr(sylva_last_error(), want) != NULL, "message '%s' lacks '%s'", sylva_last_error(), want);
        CHECK(F == NULL, "no factor on failure");
        sylva_analysis_free(an);
        sylva_matrix_free(A);
    }
}

int main(void)
{
    test_seed();
    sylva_matrix *A = tridiag(30, -1);
    sylva_analysis_t *an = NULL;
    sylva_factor_t *F = NULL;
    double b[30];

    /* Before init: analysis works (no runtime needed), factorization refuses. */
    CHECK(sylva_analyze(A, NULL, &an, NULL) == SYLVA_OK, "analyze before init: %s", sylva_last_error());
    CHECK(sylva_factorize(an, A, &F, NULL) == SYLVA_ERR_NOT_INITIALIZED, "factorize before init");
    CHECK(strlen(sylva_last_error()) > 0, "message set");
    CHECK(sylva_init(NULL) == SYLVA_OK, "init: %s", sylva_last_error());
    CHECK(sylva_init(NULL) == SYLVA_OK, "second init is harmless");

    /* NULL and bad arguments. */
    sylva_analysis_t *scratch = NULL;
    CHECK(sylva_analyze(NULL, NULL, &scratch, NULL) == SYLVA_ERR_ARGUMENT && !scratch, "NULL matrix");
    CHECK(sylva_analyze(A, NULL, NULL, NULL) == SYLVA_ERR_ARGUMENT, "NULL out");
    CHECK(sylva_factorize(NULL, A, &F, NULL) == SYLVA_ERR_ARGUMENT, "NULL analysis");
    CHECK(sylva_solve(NULL, 1, b, 30) == SYLVA_ERR_ARGUMENT, "NULL factor");
    CHECK(sylva_refactorize(NULL, A, NULL) == SYLVA_ERR_ARGUMENT, "NULL refactor");
    sylva_options o;
    sylva_default_options(&o);
    o.policy = "no-such-policy";
    sylva_analysis_t *an2 = NULL;
    CHECK(sylva_analyze(A, &o, &an2, NULL) == SYLVA_ERR_ARGUMENT && an2 == NULL, "unknown policy");
    CHECK(strstr(sylva_last_error(), "no-such-policy") != NULL, "message names the policy");
    sylva_default_options(&o);
    o.ordering = SYLVA_ORDERING_USER;
    int64_t perm[30];
    for (int i = 0; i < 30; i++) perm[i] = i;
    perm[3] = 4; /* duplicate */
    o.user_perm = perm;
    CHECK(sylva_analyze(A, &o, &an2, NULL) == SYLVA_ERR_ARGUMENT, "bad user perm");
    o.user_perm = NULL;
    CHECK(sylva_analyze(A, &o, &an2, NULL) == SYLVA_ERR_ARGUMENT, "missing user perm");
    /* A reversed user permutation is used as given (up to CHOLMOD's postorder). */
    for (int i = 0; i < 30; i++) perm[i] = 29 - i;
    o.user_perm = perm;
    CHECK(sylva_analyze(A, &o, &an2, NULL) == SYLVA_OK, "user perm: %s", sylva_last_error());
    sylva_analysis_free(an2);

    /* Factor, then bad solves. */
    CHECK(sylva_factorize(an, A, &F, NULL) == SYLVA_OK, "factorize: %s", sylva_last_error());
    for (int i = 0; i < 30; i++) b[i] = 1;
    CHECK(sylva_solve(F, 1, b, 29) == SYLVA_ERR_ARGUMENT, "ldb < n");
    CHECK(sylva_solve(F, -1, b, 30) == SYLVA_ERR_ARGUMENT, "nrhs < 0");
    CHECK(sylva_solve(F, 0, b, 30) == SYLVA_OK, "nrhs = 0 is a no-op");
    /* Per-GPU statistics: none after a CPU factorization, and bad calls. */
    sylva_gpu_stats gs;
    if (sylva_gpu_count() == 0) CHECK(sylva_factor_gpu_stats(F, 0, &gs) == SYLVA_ERR_ARGUMENT, "GPU stats of a CPU run");
    CHECK(sylva_factor_gpu_stats(F, -1, &gs) == SYLVA_ERR_ARGUMENT, "GPU stats of GPU -1");
    CHECK(sylva_factor_gpu_stats(F, 0, NULL) == SYLVA_ERR_ARGUMENT, "GPU stats into NULL");
    CHECK(sylva_factor_gpu_stats(NULL, 0, &gs) == SYLVA_ERR_ARGUMENT, "GPU stats of NULL");

    /* Refactorization with another pattern. */
    sylva_matrix *B = tridiag(31, -1);
    CHECK(sylva_refactorize(F, B, NULL) == SYLVA_ERR_PATTERN_MISMATCH, "other n");
    sylva_matrix_free(B);
    sylva_matrix *P = NULL;
    CHECK(sylva_matrix_from_csc(A->n, A->colptr, A->rowind, NULL, 1, &P) == SYLVA_OK, "pattern copy");
    CHECK(sylva_refactorize(F, P, NULL) == SYLVA_ERR_PATTERN_ONLY, "pattern-only refactorize");
    sylva_factor_t *F2 = NULL;
    CHECK(sylva_factorize(an, P, &F2, NULL) == SYLVA_ERR_PATTERN_ONLY && F2 == NULL, "pattern-only");
    sylva_matrix_free(P);

    /* Not positive definite, every ordering. */
    not_spd("natural");
    not_spd("amd");
    not_spd("metis");

    /* CHOLMOD view round trip: view A, copy it back, same matrix. */
    {
        cholmod_sparse S;
        sylva_matrix_cholmod_view(A, &S);
        sylva_matrix *A2 = NULL;
        CHECK(sylva_matrix_from_cholmod(&S, &A2) == SYLVA_OK, "from_cholmod(view): %s", sylva_last_error());
        int same = A2 && A2->n == A->n && A2->nnz == A->nnz;
        for (int64_t p = 0; same && p < A->nnz; p++)
            same = A2->rowind[p] == A->rowind[p] && ((double *)A2->values)[p] == ((double *)A->values)[p];
        for (int64_t j = 0; same && j <= A->n; j++) same = A2->colptr[j] == A->colptr[j];
        CHECK(same, "view round trip changed the matrix");
        sylva_matrix_free(A2);
    }

    /* Status table. */
    CHECK(!strcmp(sylva_status_name(SYLVA_ERR_NOT_SPD), "not_spd"), "name");
    CHECK(!strcmp(sylva_status_name(SYLVA_OK), "ok"), "ok name");
    CHECK(strlen(sylva_strerror(SYLVA_ERR_FORMAT)) > 0, "strerror");
    CHECK(!strcmp(sylva_status_name(12345), "unknown"), "unknown status");

    /* The public structs keep their size as fields are added (they come out
     * of `reserved`): the sizes of release 0.1.0 on LP64. */
    if (sizeof(void *) == 8 && sizeof(long) == 8) {
        CHECK(sizeof(sylva_options) == 248, "sizeof(sylva_options) = %zu, was 248", sizeof(sylva_options));
        CHECK(sizeof(sylva_analysis_info) == 384, "sizeof(sylva_analysis_info) = %zu, was 384",
              sizeof(sylva_analysis_info));
        CHECK(sizeof(sylva_factor_info) == 264, "sizeof(sylva_factor_info) = %zu, was 264",
              sizeof(sylva_factor_info));
        CHECK(sizeof(sylva_batch_info) == 104, "sizeof(sylva_batch_info) = %zu, was 104", sizeof(sylva_batch_info));
    }

    sylva_factor_free(F);
    sylva_analysis_free(an);
    sylva_matrix_free(A);
    CHECK(sylva_finalize() == SYLVA_OK, "finalize");
    printf("%s\n", test_failures ? "FAILED" : "ok");
    return test_failures ? 1 : 0;
}
