/* test_alloc_fail.c FILE POLICY ORDERING SMALL TILE — the allocation-failure
 * sweep (CHOLMOD's Tcov idea): the workload below (read, analyze,
 * factorize, solve, refactorize, log-determinant, write and read back the
 * solution, copy and convert the matrix) is run once to count sylva's
 * allocations, then once for every k with the k-th allocation failing
 * (core/alloc.c's hook), then for every k with every allocation from the
 * k-th on failing. Each step that fails must return SYLVA_ERR_NO_MEMORY with
 * a message, leave its outputs NULL, and the handles usable: the step is
 * retried with the hook off and must then succeed, with an accurate
 * solution. Leaks are LeakSanitizer's job (the Asan build, tests/lsan.supp
 * for StarPU and hwloc). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "core.h"
#include "sylva.h"

static const char *file, *policy;
static sylva_options opts;
static char out_path[256];
static int64_t steps_failed;

/* A step failed (status st): it must be an out-of-memory failure with a
 * message; then the hook goes off so that the retry can succeed. Returns 1
 * when the step must be retried. */
static int failed(int st, const char *step, int64_t k)
{
    if (st == SYLVA_OK) return 0;
    steps_failed++;
    CHECK(st == SYLVA_ERR_NO_MEMORY, "k = %lld: %s: %s (%s), not no_memory", (long long)k, step,
          sylva_status_name(st), sylva_last_error());
    CHECK(sylva_last_error()[0] != '\0', "k = %lld: %s failed without a message", (long long)k,
          step);
    sylva__alloc_fault_set(-1, 0);
    return 1;
}

/* Run step (an expression giving a status) until it succeeds: at most once
 * more, with the hook off. */
#define STEP(name, expr)                                                                           \
    do {                                                                                           \
        int st_ = (expr);                                                                          \
        if (failed(st_, name, k)) {                                                                \
            st_ = (expr);                                                                          \
            CHECK(st_ == SYLVA_OK, "k = %lld: %s fails again with the hook off: %s", (long long)k, \
                  name, sylva_last_error());                                                       \
            if (st_ != SYLVA_OK) goto done;                                                        \
        }                                                                                          \
    } while (0)

/* y = A x (A symmetric, lower CSC), without sylva: the test's own
 * arithmetic is not under the hook. */
static void symv(const sylva_matrix *A, const double *x, double *y)
{
    const double *v = A->values;
    memset(y, 0, (size_t)A->n * sizeof *y);
    for (int64_t j = 0; j < A->n; j++)
        for (int64_t p = A->colptr[j]; p < A->colptr[j + 1]; p++) {
            int64_t i = A->rowind[p];
            y[i] += v[p] * x[j];
            if (i != j) y[j] += v[p] * x[i];
        }
}

/* max |b − A x| / max |b|: the solve's relative residual. */
static double residual(const sylva_matrix *A, const double *x, const double *b)
{
    double *r = malloc((size_t)A->n * sizeof *r), rn = 0, bn = 0;
    symv(A, x, r);
    for (int64_t i = 0; i < A->n; i++) {
        rn = fmax(rn, fabs(b[i] - r[i]));
        bn = fmax(bn, fabs(b[i]));
    }
    free(r);
    return rn / bn;
}

static int solve_check(const sylva_factor_t *F, const sylva_matrix *A, double *x, const double *b)
{
    memcpy(x, b, (size_t)A->n * sizeof *x);
    int st = sylva_solve(F, 1, x, A->n);
    return st;
}

static void workload(int64_t k)
{
    sylva_matrix *A = NULL, *C = NULL, *S = NULL;
    sylva_analysis_t *an = NULL;
    sylva_factor_t *F = NULL;
    double *one = NULL, *b = NULL, *x = NULL, *X = NULL;
    int64_t n = 0, nr = 0;
    double ld = 0;
    STEP("read", (sylva_matrix_free(A), A = NULL, sylva_read_matrix_market(file, &A)));
    CHECK(A != NULL, "no matrix");
    one = malloc((size_t)A->n * sizeof *one);
    b = malloc((size_t)A->n * sizeof *b);
    x = malloc((size_t)A->n * sizeof *x);
    for (int64_t i = 0; i < A->n; i++) one[i] = 1.0;
    symv(A, one, b);
    STEP("analyze", sylva_analyze(A, &opts, &an, NULL));
    CHECK(an != NULL, "no analysis");
    STEP("factorize", sylva_factorize(an, A, &F, NULL));
    CHECK(F != NULL, "no factor");
    STEP("solve", solve_check(F, A, x, b));
    STEP("refactorize", sylva_refactorize(F, A, NULL));
    STEP("logdet", sylva_logdet(F, &ld));
    CHECK(isfinite(ld), "k = %lld: log det %g", (long long)k, ld);
    STEP("solve again", solve_check(F, A, x, b));
    double e = residual(A, x, b);
    CHECK(e <= 1e-9, "k = %lld: relative residual %g", (long long)k, e);
    STEP("write", sylva_write_dense(out_path, A->n, 1, x, A->n));
    STEP("read back", (free(X), X = NULL, sylva_read_dense(out_path, &n, &nr, &X)));
    CHECK(X && n == A->n && nr == 1 && !memcmp(X, x, (size_t)n * sizeof *x), "k = %lld: read back",
          (long long)k);
    STEP("copy", sylva_matrix_from_csc(A->n, A->colptr, A->rowind, A->values, 1, &C));
    STEP("convert", sylva_matrix_convert(C, SYLVA_FLOAT32, &S));
done:
    sylva__alloc_fault_set(-1, 0);
    sylva_factor_free(F);
    sylva_analysis_free(an);
    sylva_matrix_free(A);
    sylva_matrix_free(C);
    sylva_matrix_free(S);
    free(one);
    free(b);
    free(x);
    free(X);
    unlink(out_path);
}

int main(int argc, char **argv)
{
    if (argc < 6) {
        fprintf(stderr, "usage: test_alloc_fail FILE POLICY ORDERING SMALL TILE\n");
        return 2;
    }
    file = argv[1];
    policy = argv[2];
    sylva_default_options(&opts);
    opts.policy = policy;
    opts.ordering = sylva_ordering_from_name(argv[3]);
    opts.small_front_rows = atoll(argv[4]);
    opts.tile_rows = atoll(argv[5]);
    opts.ncpus = 2;
    opts.ncuda = 0;
    opts.mode = SYLVA_MODE_CPU;
    snprintf(out_path, sizeof out_path, "%s/sylva-alloc-%d.mtx",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
    setenv("SYLVA_IO_THREADS", "2", 1); /* the parallel reader and its serial fallback */
    if (sylva_init(&opts) != SYLVA_OK) {
        fprintf(stderr, "init: %s\n", sylva_last_error());
        return 1;
    }
    sylva__alloc_fault_set(0, 0); /* count only */
    workload(0);
    int64_t total = sylva__alloc_fault_count();
    CHECK(total > 0 && steps_failed == 0, "the counting run failed (%lld allocations)",
          (long long)total);
    printf("%s, %s, %s, small %s, tile %s: %lld allocations\n", file, policy, argv[3], argv[4],
           argv[5], (long long)total);
    /* A few more than counted: worker threads allocate in any order. */
    for (int persistent = 0; persistent < 2; persistent++) {
        int64_t before = steps_failed;
        for (int64_t k = 1; k <= total + 4; k++) {
            sylva__alloc_fault_set(k, persistent);
            workload(k);
        }
        printf("%s: %lld runs, %lld failed steps, each reported and recovered\n",
               persistent ? "every allocation from the k-th on fails" : "the k-th allocation fails",
               (long long)total + 4, (long long)(steps_failed - before));
    }
    sylva_finalize();
    return test_exit("alloc_fail");
}
