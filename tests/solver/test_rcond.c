/* test_rcond.c — sylva_rcond against the exact 1-norm condition number
 * (argv: SPEC..., small matrices): ‖A⁻¹‖₁ from n solves with unit vectors,
 * ‖A‖₁ from the entries. The estimate of ‖A⁻¹‖₁ is a lower bound, so the
 * estimated rcond is never below the exact one; Hager–Higham is within a
 * factor of 3 in practice (Higham, ch. 15), which the test holds it to.
 * Also in single precision (solves in float: the bound is then relative
 * to float's accuracy), and the misuse cases. */
#include <math.h>

#include "test_util.h"

static double exact_rcond(const sylva_factor_t *F, const sylva_matrix *A)
{
    int64_t n = A->n;
    double *e = malloc((size_t)n * sizeof *e), inv = 0;
    for (int64_t j = 0; j < n; j++) {
        for (int64_t i = 0; i < n; i++) e[i] = i == j;
        sylva_solve(F, 1, e, n);
        double s = 0;
        for (int64_t i = 0; i < n; i++) s += fabs(e[i]);
        if (s > inv) inv = s;
    }
    free(e);
    double *colsum = calloc((size_t)n, sizeof *colsum), anorm = 0;
    const double *v = A->values;
    for (int64_t j = 0; j < n; j++)
        for (int64_t p = A->colptr[j]; p < A->colptr[j + 1]; p++) {
            colsum[j] += fabs(v[p]);
            if (A->rowind[p] != j) colsum[A->rowind[p]] += fabs(v[p]);
        }
    for (int64_t j = 0; j < n; j++) anorm = fmax(anorm, colsum[j]);
    free(colsum);
    return 1.0 / (anorm * inv);
}

int main(int argc, char **argv)
{
    if (sylva_init(NULL)) return 1;
    for (int k = 1; k < argc; k++) {
        sylva_matrix *A = NULL;
        if (test_load(argv[k], &A)) {
            fprintf(stderr, "%s: %s\n", argv[k], sylva_last_error());
            return 1;
        }
        for (int single = 0; single < 2; single++) {
            sylva_options o;
            sylva_default_options(&o);
            o.precision = single ? SYLVA_FLOAT32 : SYLVA_FLOAT64;
            sylva_analysis_t *an = NULL;
            sylva_factor_t *F = NULL, *Fd = NULL;
            sylva_analysis_t *and_ = NULL;
            sylva_options od;
            sylva_default_options(&od);
            int st = sylva_analyze(A, &o, &an, NULL) || sylva_factorize(an, A, &F, NULL) ||
                     sylva_analyze(A, &od, &and_, NULL) || sylva_factorize(and_, A, &Fd, NULL);
            CHECK(!st, "%s: %s", argv[k], sylva_last_error());
            double est = -1, exact = exact_rcond(Fd, A);
            CHECK(sylva_rcond(F, A, &est) == SYLVA_OK, "%s: rcond: %s", argv[k], sylva_last_error());
            double slack = single ? 1e-3 : 1e-10; /* the solves' own accuracy */
            CHECK(est >= exact * (1 - slack) && est <= 3 * exact * (1 + slack),
                  "%s (%s): rcond %.6e, exact %.6e (ratio %.3f)", argv[k], single ? "single" : "double", est,
                  exact, est / exact);
            printf("  %-28s %s: rcond %.6e, exact %.6e, ratio %.4f\n", argv[k], single ? "single" : "double",
                   est, exact, est / exact);
            sylva_factor_free(F);
            sylva_factor_free(Fd);
            sylva_analysis_free(an);
            sylva_analysis_free(and_);
        }
        double r;
        CHECK(sylva_rcond(NULL, A, &r) == SYLVA_ERR_ARGUMENT, "NULL factor accepted");
        sylva_matrix_free(A);
    }
    sylva_finalize();
    return test_exit("test_rcond");
}
