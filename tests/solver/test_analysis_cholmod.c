/* test_analysis_cholmod.c — sylva's analysis agrees with CHOLMOD's for the
 * same ordering and amalgamation settings (argv: SPEC ORDERING...):
 *  - fundamental supernodes (no relaxation): nnz(L) = CHOLMOD's lnz and
 *    flops = CHOLMOD's fl exactly;
 *  - default relaxation: same number of supernodes, and Σ m·k = L->xsize.
 * CHOLMOD is given sylva's final permutation (an etree postorder of it is
 * the same tree, so the counts are invariant). */
#include <cholmod.h>

#include "sylva_cholmod.h"
#include <math.h>

#include "test_util.h"

static void compare(const sylva_matrix *A, const char *spec, const char *ordering, int relaxed)
{
    sylva_options o;
    sylva_default_options(&o);
    o.ordering = sylva_ordering_from_name(ordering);
    if (!relaxed) {
        for (int i = 0; i < 3; i++) {
            o.nrelax[i] = 0;
            o.zrelax[i] = 0;
        }
    }
    sylva_analysis_t *an = NULL;
    sylva_analysis_info ai;
    int st = sylva_analyze(A, &o, &an, &ai);
    CHECK(st == SYLVA_OK, "analyze %s: %s", spec, sylva_last_error());
    if (st) return;

    cholmod_common cc;
    cholmod_l_start(&cc);
    cc.nmethods = 1;
    cc.method[0].ordering = CHOLMOD_GIVEN;
    cc.supernodal = CHOLMOD_SUPERNODAL;
    for (int i = 0; i < 3; i++) {
        cc.nrelax[i] = (size_t)o.nrelax[i];
        cc.zrelax[i] = o.zrelax[i];
    }
    cholmod_sparse S;
    sylva_matrix_cholmod_view(A, &S);
    S.xtype = CHOLMOD_PATTERN;
    cholmod_factor *L = cholmod_l_analyze_p(&S, (SuiteSparse_long *)sylva_analysis_perm(an), NULL, 0, &cc);
    CHECK(L != NULL, "CHOLMOD analyze failed");
    if (L) {
        if (!relaxed) {
            CHECK((double)ai.nnz_L == cc.lnz, "%s %s: nnz(L) %lld vs CHOLMOD %.0f", spec, ordering,
                  (long long)ai.nnz_L, cc.lnz);
            CHECK(fabs(ai.flops - cc.fl) <= 1e-12 * cc.fl, "%s %s: flops %.17g vs CHOLMOD %.17g", spec,
                  ordering, ai.flops, cc.fl);
        }
        CHECK((int64_t)L->nsuper == ai.fronts, "%s %s: %lld fronts vs %zu supernodes", spec, ordering,
              (long long)ai.fronts, L->nsuper);
        CHECK(ai.factor_bytes == 8.0 * (double)L->xsize, "%s %s: factor %.0f doubles vs xsize %zu", spec,
              ordering, ai.factor_bytes / 8, L->xsize);
        printf("  %-24s %-8s %s: nnz(L) %lld (CHOLMOD lnz %.0f), flops %.6e (CHOLMOD %.6e), fronts %lld\n",
               spec, ordering, relaxed ? "relaxed" : "fundamental", (long long)ai.nnz_L, cc.lnz,
               ai.flops, cc.fl, (long long)ai.fronts);
    }
    cholmod_l_free_factor(&L, &cc);
    cholmod_l_finish(&cc);
    sylva_analysis_free(an);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: test_analysis_cholmod SPEC ORDERING...\n");
        return 2;
    }
    sylva_matrix *A = NULL;
    if (test_load(argv[1], &A)) {
        fprintf(stderr, "cannot load %s: %s\n", argv[1], sylva_last_error());
        return 1;
    }
    for (int i = 2; i < argc; i++) {
        compare(A, argv[1], argv[i], 0);
        compare(A, argv[1], argv[i], 1);
    }
    sylva_matrix_free(A);
    printf("%s\n", test_failures ? "FAILED" : "ok");
    return test_failures ? 1 : 0;
}
