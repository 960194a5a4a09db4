/* run_cholmod.c — one CHOLMOD row of bench-solver: supernodal analysis with
 * the given permutation (CHOLMOD_GIVEN, so the fill is sylva's), `repeat`
 * numeric factorizations (best kept) with `threads` OpenBLAS threads, a
 * solve of b = A·1 and its backward error. */
#include <cholmod.h>

#include "sylva_cholmod.h"
#include <stdio.h>
#include <stdlib.h>

#include "bench_solver.h"

void openblas_set_num_threads(int);

int bench_cholmod(const sylva_matrix *A, const int64_t *perm, int threads, int repeat, bench_row *r)
{
    snprintf(r->solver, sizeof r->solver, "cholmod");
    snprintf(r->config, sizeof r->config, "%d threads", threads);
    snprintf(r->device, sizeof r->device, "cpu");
    openblas_set_num_threads(threads);
    cholmod_common cc;
    cholmod_l_start(&cc);
    cc.nmethods = 1;
    cc.method[0].ordering = CHOLMOD_GIVEN;
    cc.supernodal = CHOLMOD_SUPERNODAL;
    cholmod_sparse S;
    sylva_matrix_cholmod_view(A, &S);
    double t0 = sylva_wtime();
    cholmod_factor *L = cholmod_l_analyze_p(&S, (SuiteSparse_long *)perm, NULL, 0, &cc);
    r->analyze = sylva_wtime() - t0;
    r->factor_best = 1e300;
    for (int k = 0; L && k < repeat; k++) {
        t0 = sylva_wtime();
        cholmod_l_factorize(&S, L, &cc);
        double t = sylva_wtime() - t0;
        if (k == 0) r->factor_first = t;
        if (t < r->factor_best) r->factor_best = t;
    }
    r->n = A->n;
    r->flops = cc.fl;
    r->nnz_L = (int64_t)cc.lnz;
    cholmod_dense *b = cholmod_l_zeros(A->n, 1, CHOLMOD_REAL, &cc);
    double *ones = malloc((size_t)(A->n + 1) * sizeof *ones);
    for (int64_t i = 0; i < A->n; i++) ones[i] = 1;
    sylva_matrix_symv(A, ones, b->x);
    t0 = sylva_wtime();
    cholmod_dense *x = L && cc.status == CHOLMOD_OK ? cholmod_l_solve(CHOLMOD_A, L, b, &cc) : NULL;
    r->solve = sylva_wtime() - t0;
    r->berr = x ? sylva_backward_error(A, x->x, b->x) : -1;
    r->ok = x != NULL;
    if (!r->ok) snprintf(r->note, sizeof r->note, "CHOLMOD status %d", cc.status);
    free(ones);
    cholmod_l_free_dense(&x, &cc);
    cholmod_l_free_dense(&b, &cc);
    cholmod_l_free_factor(&L, &cc);
    cholmod_l_finish(&cc);
    openblas_set_num_threads(1);
    return r->ok ? 0 : -1;
}
