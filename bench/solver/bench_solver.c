/* bench_solver.c — sylva against CHOLMOD (supernodal, Debian's SuiteSparse)
 * on the same matrices, in one run, with the same ordering (sylva's
 * permutation handed to CHOLMOD as CHOLMOD_GIVEN) and the same number of
 * threads (StarPU CPU workers for sylva, OpenBLAS threads for CHOLMOD).
 * Times: analyze, factorize (best of --repeat), solve; backward errors of
 * both. Prints a table and writes JSON (a list of rows) with --json FILE.
 *   bench-solver [--threads T] [--repeat R] [--policy P] [--json F] SPEC...
 * SPEC: lap2d5:N, lap3d7:N, lap3d27:N, elast3d:N (N per side) or a .mtx path.
 */
#include <cholmod.h>

#include "sylva_cholmod.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sylva.h"
#include "sylva_gen.h"

void openblas_set_num_threads(int);

typedef struct row {
    const char *spec;
    int64_t n, nnz_L;
    double flops;
    double s_an, s_fa, s_so, s_berr; /* sylva */
    double c_an, c_fa, c_so, c_berr; /* CHOLMOD */
    int64_t tasks, fronts;
} row;

static double cholmod_run(const sylva_matrix *A, const int64_t *perm, int threads, int repeat, row *r)
{
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
    r->c_an = sylva_wtime() - t0;
    r->c_fa = 1e300;
    for (int k = 0; k < repeat; k++) {
        t0 = sylva_wtime();
        cholmod_l_factorize(&S, L, &cc);
        double t = sylva_wtime() - t0;
        if (t < r->c_fa) r->c_fa = t;
    }
    cholmod_dense *b = cholmod_l_zeros(A->n, 1, CHOLMOD_REAL, &cc);
    double *ones = malloc((size_t)A->n * sizeof *ones);
    for (int64_t i = 0; i < A->n; i++) ones[i] = 1;
    sylva_matrix_symv(A, ones, b->x);
    t0 = sylva_wtime();
    cholmod_dense *x = cholmod_l_solve(CHOLMOD_A, L, b, &cc);
    r->c_so = sylva_wtime() - t0;
    r->c_berr = cc.status == CHOLMOD_OK ? sylva_backward_error(A, x->x, b->x) : -1;
    free(ones);
    cholmod_l_free_dense(&x, &cc);
    cholmod_l_free_dense(&b, &cc);
    cholmod_l_free_factor(&L, &cc);
    cholmod_l_finish(&cc);
    openblas_set_num_threads(1);
    return r->c_fa;
}

static int sylva_run(const sylva_matrix *A, const char *policy, int threads, int repeat, row *r,
                     int64_t **perm_out)
{
    sylva_options o;
    sylva_default_options(&o);
    o.ncpus = threads;
    o.policy = policy;
    if (sylva_init(&o)) return -1;
    sylva_analysis_t *an = NULL;
    sylva_analysis_info ai;
    sylva_factor_t *F = NULL;
    sylva_factor_info fi;
    if (sylva_analyze(A, &o, &an, &ai)) return -1;
    r->s_an = ai.seconds;
    r->n = ai.n;
    r->nnz_L = ai.nnz_L;
    r->flops = ai.flops;
    r->fronts = ai.fronts;
    r->s_fa = 1e300;
    for (int k = 0; k < repeat; k++) {
        int st = k == 0 ? sylva_factorize(an, A, &F, &fi) : sylva_refactorize(F, A, &fi);
        if (st) return -1;
        if (fi.seconds < r->s_fa) r->s_fa = fi.seconds;
    }
    r->tasks = fi.tasks;
    double *b = malloc((size_t)A->n * sizeof *b), *x = malloc((size_t)A->n * sizeof *x);
    double *ones = malloc((size_t)A->n * sizeof *ones);
    for (int64_t i = 0; i < A->n; i++) ones[i] = 1;
    sylva_matrix_symv(A, ones, b);
    memcpy(x, b, (size_t)A->n * sizeof *x);
    double t0 = sylva_wtime();
    sylva_solve(F, 1, x, A->n);
    r->s_so = sylva_wtime() - t0;
    r->s_berr = sylva_backward_error(A, x, b);
    *perm_out = malloc((size_t)A->n * sizeof **perm_out);
    memcpy(*perm_out, sylva_analysis_perm(an), (size_t)A->n * sizeof **perm_out);
    free(b);
    free(x);
    free(ones);
    sylva_factor_free(F);
    sylva_analysis_free(an);
    sylva_finalize();
    return 0;
}

int main(int argc, char **argv)
{
    int threads = 2, repeat = 3;
    const char *policy = "subtree", *json = NULL;
    row rows[64];
    int nrows = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--threads") && i + 1 < argc) threads = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--repeat") && i + 1 < argc) repeat = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--policy") && i + 1 < argc) policy = argv[++i];
        else if (!strcmp(argv[i], "--json") && i + 1 < argc) json = argv[++i];
        else if (nrows < 64) {
            row *r = &rows[nrows];
            memset(r, 0, sizeof *r);
            r->spec = argv[i];
            sylva_matrix *A = NULL;
            if (sylva_gen_from_spec(argv[i], &A)) {
                fprintf(stderr, "bench-solver: %s: %s\n", argv[i], sylva_last_error());
                return 1;
            }
            int64_t *perm = NULL;
            if (sylva_run(A, policy, threads, repeat, r, &perm)) {
                fprintf(stderr, "bench-solver: %s: %s\n", argv[i], sylva_last_error());
                return 1;
            }
            cholmod_run(A, perm, threads, repeat, r);
            free(perm);
            sylva_matrix_free(A);
            fprintf(stderr, "done %s\n", argv[i]);
            nrows++;
        }
    }
    printf("threads %d, policy %s, best of %d factorizations; times in seconds\n", threads, policy, repeat);
    printf("%-22s %9s %11s %9s | %8s %8s %8s %9s | %8s %8s %8s %9s | %6s\n", "matrix", "n", "nnz(L)",
           "GFLOP", "an", "fact", "solve", "berr", "an", "fact", "solve", "berr", "fact x");
    printf("%-22s %9s %11s %9s | %-37s | %-37s |\n", "", "", "", "", "sylva", "CHOLMOD (same ordering)");
    for (int i = 0; i < nrows; i++) {
        row *r = &rows[i];
        printf("%-22s %9lld %11lld %9.2f | %8.3f %8.3f %8.4f %9.1e | %8.3f %8.3f %8.4f %9.1e | %6.2f\n",
               r->spec, (long long)r->n, (long long)r->nnz_L, r->flops * 1e-9, r->s_an, r->s_fa, r->s_so,
               r->s_berr, r->c_an, r->c_fa, r->c_so, r->c_berr, r->s_fa / r->c_fa);
    }
    printf("(fact x = sylva factorize time / CHOLMOD factorize time: < 1 means sylva is faster)\n");
    if (json) {
        FILE *f = fopen(json, "w");
        if (!f) return 1;
        fprintf(f, "[\n");
        for (int i = 0; i < nrows; i++) {
            row *r = &rows[i];
            fprintf(f,
                    "  {\"matrix\": \"%s\", \"threads\": %d, \"policy\": \"%s\", \"n\": %lld, \"nnz_L\": %lld, "
                    "\"flops\": %.6g, \"fronts\": %lld, \"tasks\": %lld,\n   \"sylva\": {\"analyze\": %.6g, "
                    "\"factorize\": %.6g, \"solve\": %.6g, \"backward_error\": %.3g},\n   \"cholmod\": "
                    "{\"analyze\": %.6g, \"factorize\": %.6g, \"solve\": %.6g, \"backward_error\": %.3g},\n"
                    "   \"factorize_ratio\": %.4g}%s\n",
                    r->spec, threads, policy, (long long)r->n, (long long)r->nnz_L, r->flops,
                    (long long)r->fronts, (long long)r->tasks, r->s_an, r->s_fa, r->s_so, r->s_berr,
                    r->c_an, r->c_fa, r->c_so, r->c_berr, r->s_fa / r->c_fa, i + 1 < nrows ? "," : "");
        }
        fprintf(f, "]\n");
        fclose(f);
    }
    return 0;
}
