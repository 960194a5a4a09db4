/* solve_poisson.c — the smallest complete use of sylva as a library: build a
 * 2D Poisson matrix from CSC arrays, analyze, factor, solve A x = b, print
 * the backward error. Links the installed package (find_package(sylva) or
 * pkg-config sylva). */
#include <stdio.h>
#include <stdlib.h>

#include <sylva.h>

int main(void)
{
    const int64_t g = 100, n = g * g; /* 100 × 100 grid, 5-point stencil */
    int64_t *colptr = malloc((size_t)(n + 1) * sizeof *colptr);
    int64_t *rowind = malloc((size_t)(3 * n) * sizeof *rowind);
    double *values = malloc((size_t)(3 * n) * sizeof *values);
    int64_t nz = 0;
    for (int64_t j = 0; j < n; j++) { /* lower triangle, column by column */
        colptr[j] = nz;
        rowind[nz] = j, values[nz++] = 4.0;
        if ((j + 1) % g != 0) rowind[nz] = j + 1, values[nz++] = -1.0;
        if (j + g < n) rowind[nz] = j + g, values[nz++] = -1.0;
    }
    colptr[n] = nz;

    sylva_matrix *A = NULL;
    sylva_analysis_t *an = NULL;
    sylva_factor_t *F = NULL;
    sylva_options opts;
    sylva_default_options(&opts); /* METIS ordering, subtree batching */
    int st = sylva_matrix_from_csc(n, colptr, rowind, values, SYLVA_CSC_LOWER, &A);
    if (!st) st = sylva_init(&opts);
    if (!st) st = sylva_analyze(A, &opts, &an, NULL);
    if (!st) st = sylva_factorize(an, A, &F, NULL);
    double *b = malloc((size_t)n * sizeof *b), *x = malloc((size_t)n * sizeof *x);
    if (!st) {
        for (int64_t i = 0; i < n; i++) b[i] = x[i] = 1.0;
        st = sylva_solve(F, 1, x, n);
    }
    if (st) fprintf(stderr, "sylva: %s (%s)\n", sylva_last_error(), sylva_status_name(st));
    else printf("n = %lld, backward error %.2e\n", (long long)n, sylva_backward_error(A, x, b));
    sylva_factor_free(F);
    sylva_analysis_free(an);
    sylva_matrix_free(A);
    sylva_finalize();
    free(colptr), free(rowind), free(values), free(b), free(x);
    return st ? 1 : 0;
}
