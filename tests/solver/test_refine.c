/* test_refine.c — iterative refinement (options.refine) on the CPU:
 *   test_refine [graded=NX] [mode=cpu|sequential|gpu]
 * 1. A graded-coefficient operator: K, 2D diffusion with edge coefficients
 *    log-uniform in 10^±4.5, squared (A = K², 13 points: K itself is an
 *    M-matrix, whose Cholesky factor is componentwise backward stable —
 *    nothing to rescue —, its square is not). The componentwise backward
 *    error of the plain solve is above 20ε (about 1e-13 measured); one
 *    step of refinement must improve it tenfold, the automatic mode bring
 *    it to (m+1)ε or less, m the most nonzeros in a row of A: refinement
 *    with residuals in working precision is componentwise backward stable
 *    to a small multiple of γ_{m+1} ≈ (m+1)u (Skeel 1980; Higham, ASNA
 *    §12.2), so (m+1)ε = 2γ_{m+1} is the bound — 14ε for K²'s 13-point
 *    rows (an earlier 8ε was below it: one seed stopped at 2.7e-15 ≈ 12ε);
 *    the reported errors agree with the test's own computation (in long
 *    double).
 * 2. A single-precision factor with double data (lap3d7:12): the plain
 *    solve is float-accurate; automatic refinement in double reaches double
 *    accuracy (normwise and componentwise); N steps are exactly N.
 * 3. Misuse: refinement on a factor made without it, options out of range.
 * mode=gpu runs the same checks through the GPU solve (exit 77 without a
 * GPU).
 */
#include <math.h>

#include "test_util.h"

static sylva_solve_mode solve_mode = SYLVA_SOLVE_CPU;

/* Edge coefficients span 10^±GRADED_DECADES. */
#define GRADED_DECADES 4.5

/* The coefficients' own generator, seeded once: the graded case is the
 * same matrix on every run (its hardness was checked for this seed; with
 * the test's seed some draws gave an easy case, plain 3e-14), while the
 * right-hand side still varies with SYLVA_TEST_SEED. Uniform in [−1, 1]. */
static double coefficient_rand(uint64_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return (double)(*state >> 11) * 0x1p-52 - 1.0;
}

/* K: graded-coefficient diffusion on an nx × nx grid (5 points, Dirichlet
 * boundary), edge coefficients 10^(g·u), u uniform in [−1, 1]; stored as
 * every node's (column, value) pairs, itself first. Returns A = K²
 * (13 points; SPD, not an M-matrix), lower CSC. */
static sylva_matrix *graded(int64_t nx, double g)
{
    int64_t n = nx * nx;
    int64_t *nb = malloc((size_t)n * 5 * sizeof *nb), *cnt = calloc((size_t)n, sizeof *cnt);
    double *kv = calloc((size_t)n * 5, sizeof *kv);
    uint64_t state = 88172645463325252ull; /* coefficient_rand's fixed seed */
    for (int64_t i = 0; i < n; i++) nb[5 * i] = i, cnt[i] = 1;
    for (int64_t y = 0; y < nx; y++)
        for (int64_t x = 0; x < nx; x++) {
            int64_t i = x + nx * y;
            for (int d = 0; d < 4; d++) {
                int64_t xx = x + (d == 0) - (d == 2), yy = y + (d == 1) - (d == 3);
                if (d >= 2 && xx >= 0 && yy >= 0) continue; /* made from the other end */
                double w = pow(10.0, g * coefficient_rand(&state));
                kv[5 * i] += w;
                if (xx < 0 || xx >= nx || yy < 0 || yy >= nx) continue;
                int64_t j = xx + nx * yy;
                kv[5 * j] += w;
                nb[5 * i + cnt[i]] = j, kv[5 * i + cnt[i]++] = -w;
                nb[5 * j + cnt[j]] = i, kv[5 * j + cnt[j]++] = -w;
            }
        }
    /* A = K K, column by column (K is symmetric): column c gathers
     * K(r, j) K(j, c) over j ∈ N(c), r ∈ N(j), rows r ≥ c. */
    int64_t *colptr = calloc((size_t)n + 1, sizeof *colptr), *rows = malloc((size_t)n * 13 * sizeof *rows);
    double *vals = malloc((size_t)n * 13 * sizeof *vals);
    int64_t nnz = 0;
    for (int64_t c = 0; c < n; c++) {
        int64_t first = nnz;
        for (int64_t a = 0; a < cnt[c]; a++) {
            int64_t j = nb[5 * c + a];
            for (int64_t b = 0; b < cnt[j]; b++) {
                int64_t r = nb[5 * j + b];
                if (r < c) continue;
                double t = kv[5 * c + a] * kv[5 * j + b];
                int64_t q = first;
                while (q < nnz && rows[q] != r) q++;
                if (q == nnz) rows[nnz] = r, vals[nnz++] = 0;
                vals[q] += t;
            }
        }
        colptr[c + 1] = nnz;
    }
    sylva_matrix *A = NULL;
    CHECK(sylva_matrix_from_csc(n, colptr, rows, vals, 1, &A) == SYLVA_OK, "graded matrix: %s",
          sylva_last_error());
    free(nb);
    free(cnt);
    free(kv);
    free(colptr);
    free(rows);
    free(vals);
    return A;
}

/* The componentwise backward error of x for b, in long double. */
/* (m+1)ε, m the most nonzeros in a row of A (both triangles): the
 * componentwise backward error refinement can reach (header). */
static double attainable(const sylva_matrix *A)
{
    int64_t n = A->n, *cnt = calloc((size_t)n + 1, sizeof *cnt), m = 0;
    for (int64_t j = 0; j < n; j++)
        for (int64_t p = A->colptr[j]; p < A->colptr[j + 1]; p++) {
            cnt[A->rowind[p]]++;
            if (A->rowind[p] != j) cnt[j]++;
        }
    for (int64_t i = 0; i < n; i++)
        if (cnt[i] > m) m = cnt[i];
    free(cnt);
    return (double)(m + 1) * DBL_EPSILON;
}

static double omega(const sylva_matrix *A, const double *x, const double *b)
{
    int64_t n = A->n;
    long double *r = calloc((size_t)n, sizeof *r), *s = calloc((size_t)n, sizeof *s);
    const double *v = A->values;
    for (int64_t j = 0; j < n; j++)
        for (int64_t p = A->colptr[j]; p < A->colptr[j + 1]; p++) {
            int64_t i = A->rowind[p];
            r[i] += (long double)v[p] * x[j];
            s[i] += fabsl((long double)v[p] * x[j]);
            if (i != j) {
                r[j] += (long double)v[p] * x[i];
                s[j] += fabsl((long double)v[p] * x[i]);
            }
        }
    double w = 0;
    for (int64_t i = 0; i < n; i++) {
        long double num = fabsl(b[i] - r[i]), den = s[i] + fabsl((long double)b[i]);
        double q = den > 0 ? (double)(num / den) : (num > 0 ? INFINITY : 0);
        if (!(q <= w)) w = q;
    }
    free(r);
    free(s);
    return w;
}

typedef struct setup {
    sylva_analysis_t *an;
    sylva_factor_t *F;
} setup;

static setup make(const sylva_matrix *A, sylva_dtype precision, int refine)
{
    sylva_options o;
    sylva_default_options(&o);
    o.precision = precision;
    o.refine = refine;
    setup s = {NULL, NULL};
    CHECK(sylva_analyze(A, &o, &s.an, NULL) == SYLVA_OK, "analyze: %s", sylva_last_error());
    CHECK(s.an && sylva_factorize(s.an, A, &s.F, NULL) == SYLVA_OK, "factorize: %s", sylva_last_error());
    return s;
}

static void drop(setup *s)
{
    sylva_factor_free(s->F);
    sylva_analysis_free(s->an);
}

/* Solve b with `refine`; returns x (malloc), fills info. */
static double *solve(const setup *s, const double *b, int64_t n, int refine, sylva_solve_info *info)
{
    double *x = malloc((size_t)(n + 1) * sizeof *x);
    memcpy(x, b, (size_t)n * sizeof *x);
    sylva_options o;
    sylva_default_options(&o);
    o.refine = refine;
    o.solve_mode = solve_mode;
    int st = sylva_solve_ex(s->F, &o, SYLVA_FLOAT64, 1, x, n, info);
    CHECK(st == SYLVA_OK, "solve (refine %d): %s", refine, sylva_last_error());
    CHECK(info->mode == solve_mode, "ran in %s", sylva_solve_mode_name(info->mode));
    return x;
}

static void graded_case(int64_t nx)
{
    sylva_matrix *A = graded(nx, GRADED_DECADES);
    if (!A) return;
    int64_t n = A->n;
    setup s = make(A, SYLVA_FLOAT64, SYLVA_REFINE_AUTO);
    double *b = malloc((size_t)n * sizeof *b);
    for (int64_t i = 0; i < n; i++) b[i] = test_rand();
    sylva_solve_info i0, i1, ia;
    double *x0 = solve(&s, b, n, 0, &i0), *x1 = solve(&s, b, n, 1, &i1), *xa = solve(&s, b, n, SYLVA_REFINE_AUTO, &ia);
    double w0 = omega(A, x0, b), w1 = omega(A, x1, b), wa = omega(A, xa, b);
    printf("graded %lldx%lld: componentwise backward error plain %.2e, one step %.2e (reported %.2e -> %.2e), "
           "auto %.2e in %d steps (reported %.2e)\n",
           (long long)nx, (long long)nx, w0, w1, i1.berr_before, i1.berr_after, wa, ia.refine_steps, ia.berr_after);
    CHECK(i0.refine_steps == 0 && i0.berr_before == -1, "no refinement asked: %d steps", i0.refine_steps);
    CHECK(w0 > 20 * DBL_EPSILON, "the graded case is not hard: plain solve's backward error %.2e", w0);
    CHECK(i1.refine_steps == 1, "refine = 1 took %d steps", i1.refine_steps);
    CHECK(w1 <= w0 / 10, "one step did not improve the backward error tenfold: %.3e -> %.3e", w0, w1);
    /* The GPU solve is not bitwise reproducible (its forward sweep adds
     * children's updates with atomic adds, in any order), so the refined
     * call's first solution is not x0: on this ill-conditioned case two
     * GPU solves of the same system differed by up to 8.2× in backward
     * error (H100, 60 seeds). The reported "before" cannot be compared
     * with another solution's there; it must be the unrefined solution's
     * kind — above 20ε, as w0 is, and at least tenfold the reported
     * "after" (the step's improvement, checked on x1 itself below). The
     * CPU solves repeat exactly: 1% of w0. */
    int agrees = solve_mode == SYLVA_SOLVE_GPU
                     ? i1.berr_before > 20 * DBL_EPSILON && i1.berr_before >= 10 * i1.berr_after
                     : fabs(i1.berr_before - w0) <= 0.01 * w0 + 4 * DBL_EPSILON;
    CHECK(agrees, "reported before %.3e, computed %.3e", i1.berr_before, w0);
    CHECK(fabs(i1.berr_after - w1) <= 0.01 * w1 + 4 * DBL_EPSILON, "reported after %.3e, computed %.3e",
          i1.berr_after, w1);
    CHECK(wa <= attainable(A), "automatic refinement stopped at %.3e (bound %.3e)", wa, attainable(A));
    CHECK(ia.refine_steps >= 1 && ia.refine_steps <= SYLVA_REFINE_AUTO_STEPS, "automatic steps %d",
          ia.refine_steps);
    CHECK(ia.seconds_refine > 0 && ia.seconds_solve > 0, "timings %.3g %.3g", ia.seconds_solve, ia.seconds_refine);
    free(x0);
    free(x1);
    free(xa);
    free(b);
    drop(&s);
    sylva_matrix_free(A);
}

static void mixed_case(void)
{
    sylva_matrix *A = NULL;
    CHECK(test_load("lap3d7:12", &A) == SYLVA_OK, "load");
    int64_t n = A->n;
    setup s = make(A, SYLVA_FLOAT32, SYLVA_REFINE_AUTO);
    double *b = malloc((size_t)n * sizeof *b);
    for (int64_t i = 0; i < n; i++) b[i] = test_rand();
    sylva_solve_info i0, i3, ia;
    double *x0 = solve(&s, b, n, 0, &i0), *x3 = solve(&s, b, n, 3, &i3), *xa = solve(&s, b, n, SYLVA_REFINE_AUTO, &ia);
    double e0 = sylva_backward_error(A, x0, b), ea = sylva_backward_error(A, xa, b);
    double w0 = omega(A, x0, b), wa = omega(A, xa, b);
    printf("mixed lap3d7:12: normwise %.2e -> %.2e, componentwise %.2e -> %.2e in %d steps; refine=3: %d steps, "
           "%.2e -> %.2e\n",
           e0, ea, w0, wa, ia.refine_steps, i3.refine_steps, i3.berr_before, i3.berr_after);
    CHECK(e0 > 1e3 * DBL_EPSILON, "a float factor's plain solve is this accurate: %.3e", e0);
    CHECK(ea <= BERR_C * (double)n * DBL_EPSILON, "refined normwise backward error %.3e", ea);
    CHECK(wa <= attainable(A) && ia.berr_after <= attainable(A), "refined componentwise %.3e (reported %.3e, bound %.3e)",
          wa, ia.berr_after, attainable(A));
    CHECK(ia.refine_steps >= 2, "float to double accuracy in %d steps", ia.refine_steps);
    CHECK(i3.refine_steps == 3, "refine = 3 took %d steps", i3.refine_steps);
    CHECK(i3.berr_after < i3.berr_before, "three steps: %.3e -> %.3e", i3.berr_before, i3.berr_after);
    free(x0);
    free(x3);
    free(xa);
    free(b);
    drop(&s);
    sylva_matrix_free(A);
}

static void misuse(void)
{
    sylva_matrix *A = NULL;
    CHECK(test_load("lap2d5:10", &A) == SYLVA_OK, "load");
    setup s = make(A, SYLVA_FLOAT64, 0); /* no copy of A kept */
    double x[100];
    for (int i = 0; i < 100; i++) x[i] = 1;
    sylva_options o;
    sylva_default_options(&o);
    o.refine = 2;
    sylva_solve_info info;
    CHECK(sylva_solve_ex(s.F, &o, SYLVA_FLOAT64, 1, x, 100, &info) == SYLVA_ERR_ARGUMENT,
          "refinement without A's copy accepted");
    CHECK(strstr(sylva_last_error(), "sylva_analyze") != NULL, "message: %s", sylva_last_error());
    int bad_refine[] = {-2, SYLVA_MAX_REFINE_STEPS + 1};
    for (int i = 0; i < 2; i++) {
        o.refine = bad_refine[i];
        CHECK(sylva_solve_ex(s.F, &o, SYLVA_FLOAT64, 1, x, 100, &info) == SYLVA_ERR_ARGUMENT,
              "refine = %d accepted", bad_refine[i]);
        CHECK(strstr(sylva_last_error(), "options.refine") != NULL, "message: %s", sylva_last_error());
        CHECK(sylva_analyze(A, &o, &(sylva_analysis_t *){NULL}, NULL) == SYLVA_ERR_ARGUMENT,
              "sylva_analyze took refine = %d", bad_refine[i]);
    }
    sylva_default_options(&o);
    o.solve_mode = (sylva_solve_mode)9;
    CHECK(sylva_solve_ex(s.F, &o, SYLVA_FLOAT64, 1, x, 100, &info) == SYLVA_ERR_ARGUMENT, "solve_mode 9 accepted");
    o.solve_mode = SYLVA_SOLVE_AUTO;
    o.solve_block = -1;
    CHECK(sylva_solve_ex(s.F, &o, SYLVA_FLOAT64, 1, x, 100, &info) == SYLVA_ERR_ARGUMENT, "solve_block -1 accepted");
    CHECK(sylva_solve_ex(s.F, NULL, SYLVA_FLOAT32, 1, x, 100, &info) == SYLVA_ERR_ARGUMENT,
          "float data for a double factor accepted");
    CHECK(sylva_solve_ex(s.F, NULL, (sylva_dtype)7, 1, x, 100, &info) == SYLVA_ERR_ARGUMENT, "dtype 7 accepted");
    CHECK(sylva_solve_device(s.F, NULL, 1, x, 100, &info) != SYLVA_OK, "host memory taken as device memory");
    CHECK(sylva_solve_mode_from_name("sequential") == SYLVA_SOLVE_SEQUENTIAL &&
              sylva_solve_mode_from_name("gpu") == SYLVA_SOLVE_GPU && sylva_solve_mode_from_name("x") == -1 &&
              !strcmp(sylva_solve_mode_name(SYLVA_SOLVE_CPU), "cpu"),
          "solve mode names");
    drop(&s);
    sylva_matrix_free(A);
}

int main(int argc, char **argv)
{
    int64_t nx = 40;
    for (int i = 1; i < argc; i++) {
        if (!strncmp(argv[i], "graded=", 7)) nx = atoll(argv[i] + 7);
        else if (!strncmp(argv[i], "mode=", 5)) solve_mode = (sylva_solve_mode)sylva_solve_mode_from_name(argv[i] + 5);
    }
    test_seed();
    sylva_options o;
    sylva_default_options(&o);
    CHECK(sylva_init(&o) == SYLVA_OK, "init: %s", sylva_last_error());
    if (solve_mode == SYLVA_SOLVE_GPU && sylva_gpu_count() == 0) {
        printf("no GPU: skipped\n");
        sylva_finalize();
        return 77;
    }
    graded_case(nx);
    if (solve_mode != SYLVA_SOLVE_GPU) mixed_case(); /* a float factor never solves on a GPU */
    misuse();
    sylva_finalize();
    return test_exit("test_refine");
}
