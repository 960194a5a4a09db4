/* cholmod_input.c — sylva fed from CHOLMOD's own data structure: a 2D
 * Poisson matrix assembled as a cholmod_triplet (upper triangle stored,
 * stype 1), converted by CHOLMOD to a cholmod_sparse, handed to sylva with
 * sylva_matrix_from_cholmod (sylva_cholmod.h), factored and solved; prints
 * the backward error. Built against the installed package with CMake
 * (find_package(sylva)) and with pkg-config; it calls CHOLMOD itself, so it
 * links CHOLMOD too. */
#include <stdio.h>
#include <stdlib.h>

#include <sylva_cholmod.h>

int main(void)
{
    const SuiteSparse_long g = 60, n = g * g;
    cholmod_common cc;
    cholmod_l_start(&cc);
    cholmod_triplet *T = cholmod_l_allocate_triplet(n, n, 3 * n, 1, CHOLMOD_REAL, &cc);
    SuiteSparse_long *ti = T->i, *tj = T->j;
    double *tx = T->x;
    for (SuiteSparse_long j = 0; j < n; j++) { /* upper: A(i, j), i <= j */
        ti[T->nnz] = j, tj[T->nnz] = j, tx[T->nnz++] = 4.0;
        if (j % g != 0) ti[T->nnz] = j - 1, tj[T->nnz] = j, tx[T->nnz++] = -1.0;
        if (j >= g) ti[T->nnz] = j - g, tj[T->nnz] = j, tx[T->nnz++] = -1.0;
    }
    cholmod_sparse *S = cholmod_l_triplet_to_sparse(T, T->nnz, &cc);

    sylva_matrix *A = NULL;
    sylva_analysis_t *an = NULL;
    sylva_factor_t *F = NULL;
    int st = S ? sylva_matrix_from_cholmod(S, &A) : SYLVA_ERR_NO_MEMORY;
    if (!st) st = sylva_init(NULL);
    if (!st) st = sylva_analyze(A, NULL, &an, NULL);
    if (!st) st = sylva_factorize(an, A, &F, NULL);
    double *b = malloc((size_t)n * sizeof *b), *x = malloc((size_t)n * sizeof *x);
    if (!st) {
        for (SuiteSparse_long i = 0; i < n; i++) b[i] = x[i] = 1.0;
        st = sylva_solve(F, 1, x, n);
    }
    if (st) fprintf(stderr, "sylva: %s (%s)\n", sylva_last_error(), sylva_status_name(st));
    else printf("from CHOLMOD: n = %ld, backward error %.2e\n", (long)n, sylva_backward_error(A, x, b));
    sylva_factor_free(F);
    sylva_analysis_free(an);
    sylva_matrix_free(A);
    sylva_finalize();
    cholmod_l_free_sparse(&S, &cc);
    cholmod_l_free_triplet(&T, &cc);
    cholmod_l_finish(&cc);
    free(b), free(x);
    return st ? 1 : 0;
}
