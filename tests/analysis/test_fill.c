/* test_fill.c — fill of the threaded orderings against serial METIS_NodeND
 * on generated 2D/3D problems (argv: SPEC...): nnz(L) and flops from
 * CHOLMOD's analysis with each permutation. nd-parallel (2 threads) must be
 * within 5% of METIS on both; Scotch, measured beside it, within 50% (a
 * sanity bound: on these grids it runs 10-25% above METIS). */
#include <cholmod.h>

#include "frontal.h"
#include "sylva_cholmod.h"
#include "test_util.h"

static int fill(const sylva_matrix *A, const char *name, int threads, double *lnz, double *fl)
{
    sylva_options o;
    sylva_default_options(&o);
    o.ordering = sylva_ordering_from_name(name);
    o.ncpus = threads;
    int64_t *perm = malloc((size_t)A->n * sizeof *perm);
    int st = sylva__order(A, &o, perm);
    CHECK(st == SYLVA_OK, "%s: %s", name, sylva_last_error());
    if (st) {
        free(perm);
        return st;
    }
    cholmod_common cc;
    cholmod_l_start(&cc);
    cc.nmethods = 1;
    cc.method[0].ordering = CHOLMOD_GIVEN;
    cc.supernodal = CHOLMOD_SIMPLICIAL;
    cholmod_sparse S;
    sylva_matrix_cholmod_view(A, &S);
    S.xtype = CHOLMOD_PATTERN;
    cholmod_factor *L = cholmod_l_analyze_p(&S, (SuiteSparse_long *)perm, NULL, 0, &cc);
    int ok = L != NULL && cc.status == CHOLMOD_OK;
    CHECK(ok, "CHOLMOD analysis with %s failed", name);
    *lnz = cc.lnz;
    *fl = cc.fl;
    cholmod_l_free_factor(&L, &cc);
    cholmod_l_finish(&cc);
    free(perm);
    return ok ? 0 : -1;
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        sylva_matrix *A = NULL;
        if (test_load(argv[i], &A)) {
            fprintf(stderr, "cannot load %s: %s\n", argv[i], sylva_last_error());
            return 1;
        }
        double ml = 0, mf = 0, nl = 0, nf = 0, sl = 0, sf = 0;
        int st = fill(A, "metis", 1, &ml, &mf);
        if (!st) st = fill(A, "nd-parallel", 2, &nl, &nf);
        if (!st) st = fill(A, "scotch", 2, &sl, &sf);
        CHECK(st == 0 && ml > 0 && mf > 0, "%s: no fill measured", argv[i]);
        if (!st) {
            printf("  %-12s n %8lld | metis nnz(L) %.4g flops %.4g | nd-parallel x %.3f x %.3f | scotch x %.3f x %.3f\n",
                   argv[i], (long long)A->n, ml, mf, nl / ml, nf / mf, sl / ml, sf / mf);
            CHECK(nl <= 1.05 * ml && nf <= 1.05 * mf, "%s: nd-parallel fill %.4f / flops %.4f of METIS's", argv[i],
                  nl / ml, nf / mf);
            CHECK(sl <= 1.5 * ml && sf <= 1.5 * mf, "%s: Scotch fill %.4f / flops %.4f of METIS's", argv[i], sl / ml,
                  sf / mf);
        }
        sylva_matrix_free(A);
    }
    printf("%s\n", test_failures ? "FAILED" : "ok");
    return test_failures ? 1 : 0;
}
