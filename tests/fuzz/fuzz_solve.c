/* fuzz_solve.c — read → analyze → factorize → solve → refactorize on small
 * inputs, with the options from the first four bytes (ordering, policy,
 * small/large threshold, tile size, precision, batch size, amalgamation,
 * and the solve's refinement, mode and block size);
 * the rest is a Matrix Market file (at most 400 rows, 6000 entries). What
 * must hold: a successful factorization has a finite log-determinant and a
 * finite solution for b = A·1 when b is finite (never a silent NaN); the
 * analysis may be freed before the factor; a refactorization with a NaN is
 * refused and leaves the factor usable; a refactorization with the same
 * values succeeds with the same log-determinant; a single-precision factor
 * also solves double right-hand sides (mixed precision) to a finite
 * solution. StarPU starts once. */
#include "fuzz_util.h"
#include "io_internal.h"

#include <math.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_limit_memory();
    setenv("STARPU_SILENT", "1", 1);
    sylva_options o;
    sylva_default_options(&o);
    o.ncpus = 2;
    o.ncuda = 0;
    o.mode = SYLVA_MODE_CPU;
    if (sylva_init(&o) != SYLVA_OK) {
        fprintf(stderr, "sylva_init: %s\n", sylva_last_error());
        abort();
    }
    return 0;
}

static void options_from(const uint8_t *b, sylva_options *o)
{
    static const sylva_ordering ord[] = {SYLVA_ORDERING_METIS,   SYLVA_ORDERING_AMD,
                                         SYLVA_ORDERING_NATURAL, SYLVA_ORDERING_ND_PARALLEL,
                                         SYLVA_ORDERING_SCOTCH,  SYLVA_ORDERING_AUTO,
                                         SYLVA_ORDERING_NATURAL, SYLVA_ORDERING_AMD};
    static const int64_t small[] = {0, 1, 2, 4, 8, 16, 64, 256};
    static const int64_t tile[] = {0, 1, 2, 3, 7, 16, 64, 256};
    static const double flops[] = {0, 1, 1e3, 1e6};
    sylva_default_options(o);
    o->ordering = ord[b[0] & 7];
    const char *pol = sylva_policy_name((b[0] >> 3) & 3);
    if (pol) o->policy = pol;
    o->small_front_rows = small[b[1] & 7];
    o->tile_rows = tile[(b[1] >> 3) & 7];
    o->precision = (b[2] & 1) ? SYLVA_FLOAT32 : SYLVA_FLOAT64;
    o->batch_flops = flops[(b[2] >> 1) & 3];
    if (b[3] & 1) {
        o->nrelax[0] = o->nrelax[1] = o->nrelax[2] = 0;
        o->zrelax[0] = o->zrelax[1] = o->zrelax[2] = 0;
    }
    static const int refine[] = {0, 1, 3, SYLVA_REFINE_AUTO};
    static const sylva_solve_mode mode[] = {SYLVA_SOLVE_AUTO, SYLVA_SOLVE_CPU, SYLVA_SOLVE_SEQUENTIAL,
                                            SYLVA_SOLVE_CPU};
    static const int64_t block[] = {0, 1, 2, 5};
    o->refine = refine[(b[3] >> 1) & 3];
    o->solve_mode = mode[(b[3] >> 3) & 3];
    o->solve_block = block[(b[3] >> 5) & 3];
    o->ncpus = 2;
    o->mode = SYLVA_MODE_CPU;
}

/* x ← A⁻¹ b in the factor's precision, b in double; status. */
static int solve(const sylva_factor_t *F, int64_t n, const double *b, double *x)
{
    if (sylva_factor_dtype(F) == SYLVA_FLOAT64) {
        memcpy(x, b, (size_t)n * sizeof *x);
        return sylva_solve(F, 1, x, n > 0 ? n : 1);
    }
    float *xs = malloc((size_t)(n + 1) * sizeof *xs);
    for (int64_t i = 0; i < n; i++) xs[i] = (float)b[i];
    int st = sylva_solve(F, 1, xs, n > 0 ? n : 1);
    for (int64_t i = 0; i < n; i++) x[i] = xs[i];
    free(xs);
    return st;
}

/* A successful factorization: finite log-determinant, and a finite
 * solution whenever A·1 is finite and representable in the precision. */
static void check_factor(const sylva_factor_t *F, const sylva_matrix *A, const char *what)
{
    double ld = NAN;
    FUZZ_ASSERT(sylva_logdet(F, &ld) == SYLVA_OK, "%s: logdet: %s", what, sylva_last_error());
    FUZZ_ASSERT(isfinite(ld), "%s: factorization OK but log det %g", what, ld);
    int64_t n = A->n;
    double *one = malloc((size_t)(n + 1) * sizeof *one), *b = malloc((size_t)(n + 1) * sizeof *b);
    double *x = malloc((size_t)(n + 1) * sizeof *x);
    for (int64_t i = 0; i < n; i++) one[i] = 1.0;
    sylva_matrix_symv(A, one, b);
    int finite_b = 1;
    double lim = sylva_factor_dtype(F) == SYLVA_FLOAT32 ? 1e30 : 1e300;
    for (int64_t i = 0; i < n; i++) finite_b &= fabs(b[i]) < lim;
    FUZZ_ASSERT(solve(F, n, b, x) == SYLVA_OK, "%s: solve: %s", what, sylva_last_error());
    int finite_x = 1;
    for (int64_t i = 0; i < n; i++) finite_x &= !isnan(x[i]);
    FUZZ_ASSERT(!finite_b || finite_x, "%s: factorization OK but the solution has a NaN", what);
    if (sylva_factor_dtype(F) == SYLVA_FLOAT32) { /* mixed precision: double data */
        memcpy(x, b, (size_t)n * sizeof *x);
        sylva_solve_info info;
        FUZZ_ASSERT(sylva_solve_ex(F, NULL, SYLVA_FLOAT64, 1, x, n > 0 ? n : 1, &info) == SYLVA_OK,
                    "%s: mixed-precision solve: %s", what, sylva_last_error());
        finite_x = 1;
        for (int64_t i = 0; i < n; i++) finite_x &= !isnan(x[i]);
        FUZZ_ASSERT(!finite_b || finite_x, "%s: mixed-precision solution has a NaN", what);
    }
    free(one);
    free(b);
    free(x);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 4) return 0;
    sylva_options o;
    options_from(data, &o);
    char *text = fuzz_text(data + 4, size - 4);
    sylva_matrix *A = NULL;
    setenv("SYLVA_IO_THREADS", "1", 1);
    int st = sylva__mm_read_buffer("fuzz.mtx", text, size - 4, NULL, NULL, &A);
    free(text);
    if (st != SYLVA_OK) return 0;
    if (A->n > 400 || A->nnz > 6000) {
        sylva_matrix_free(A);
        return 0;
    }
    sylva_analysis_t *an = NULL;
    sylva_factor_t *F = NULL;
    sylva_factor_info fi;
    st = sylva_analyze(A, &o, &an, NULL);
    if (st == SYLVA_OK && A->values) st = sylva_factorize(an, A, &F, &fi);
    sylva_analysis_free(an); /* the factor keeps what it needs */
    if (st != SYLVA_OK || !F) {
        FUZZ_ASSERT(st == SYLVA_OK || *sylva_last_error(), "status %d without a message", st);
        FUZZ_ASSERT(F == NULL, "a factor after a failure");
        sylva_matrix_free(A);
        return 0;
    }
    check_factor(F, A, "factorize");
    double ld0 = NAN, ld1 = NAN;
    sylva_logdet(F, &ld0);
    if (A->nnz > 0) {
        double *v = A->values, keep = v[A->nnz / 2];
        v[A->nnz / 2] = NAN;
        st = sylva_refactorize(F, A, NULL);
        FUZZ_ASSERT(st != SYLVA_OK, "refactorize with a NaN value returned OK");
        v[A->nnz / 2] = keep;
    }
    st = sylva_refactorize(F, A, NULL);
    FUZZ_ASSERT(st == SYLVA_OK, "refactorize with the same values: %s", sylva_last_error());
    check_factor(F, A, "refactorize");
    sylva_logdet(F, &ld1);
    double tol =
        (sylva_factor_dtype(F) == SYLVA_FLOAT32 ? 1e-3 : 1e-9) * (fabs(ld0) + (double)A->n + 1);
    FUZZ_ASSERT(fabs(ld0 - ld1) <= tol, "log det %.17g then %.17g", ld0, ld1);
    sylva_factor_free(F);
    sylva_matrix_free(A);
    return 0;
}
