/* order_scotch.c — Scotch's nested dissection (Debian's libscotch 7.0, its
 * default ordering strategy without leaf amalgamation) on a private
 * context: its own pool of `nthreads` threads (left unbound: a library must
 * not pin its caller's threads) for the threaded parts of the multilevel
 * framework, its own random generator with a fixed seed, and deterministic
 * mode, so the permutation is reproducible for a thread count. Scotch prints
 * its own diagnostics on stderr; failures return SYLVA_ERR_ORDERING or
 * SYLVA_ERR_NO_MEMORY.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <scotch.h>

#include "core.h"
#include "order_internal.h"

_Static_assert(sizeof(SCOTCH_Num) == sizeof(int32_t), "sylva expects Debian's 32-bit libscotch");

/* Imbalance tolerated between the two halves of a separator (Scotch's
 * usual value for orderings). */
#define SCOTCH_BALANCE 0.2
/* Room for Scotch's default strategy string (about 1 KB in 7.0). */
enum { STRATEGY_MAX = 8192 };

int sylva__strategy_cmin0(char *text)
{
    int changed = 0;
    for (char *p = strstr(text, "cmin="); p; p = strstr(p + 5, "cmin=")) {
        char *end = p + 5;
        while (*end >= '0' && *end <= '9') end++;
        if (end == p + 5) continue;
        p[5] = '0';
        memmove(p + 6, end, strlen(end) + 1);
        changed = 1;
    }
    return changed;
}

/* Scotch's default ordering strategy, except that the leaves' halo
 * minimum-fill ordering does not amalgamate column blocks (cmin=N becomes
 * cmin=0): the amalgamation makes BLAS-sized blocks at the price of fill
 * (docs/analysis.md), and CHOLMOD makes its own relaxed supernodes from our
 * permutation. The default string is read back from Scotch, so a future
 * default still applies; if it cannot be read, the default is used as is. */
static int build_strategy(SCOTCH_Strat *strat)
{
    if (SCOTCH_stratGraphOrderBuild(strat, SCOTCH_STRATDEFAULT, 0, SCOTCH_BALANCE)) return 1;
    char text[STRATEGY_MAX];
    FILE *f = fmemopen(text, sizeof text, "w");
    if (!f) return 0; /* keep the default as built */
    int bad = SCOTCH_stratSave(strat, f);
    long len = ftell(f);
    fclose(f);
    if (bad || len <= 0 || len >= (long)sizeof text) return 0;
    text[len] = '\0';
    if (!sylva__strategy_cmin0(text)) return 0;
    SCOTCH_stratExit(strat);
    SCOTCH_stratInit(strat);
    return SCOTCH_stratGraphOrder(strat, text);
}

static int context_setup(SCOTCH_Context *ctx, int nthreads)
{
    if (SCOTCH_contextInit(ctx)) return sylva__fail(SYLVA_ERR_ORDERING, "Scotch: cannot create a context");
    int bad = SCOTCH_contextOptionSetNum(ctx, SCOTCH_OPTIONNUMDETERMINISTIC, 1) ||
              SCOTCH_contextOptionSetNum(ctx, SCOTCH_OPTIONNUMRANDOMFIXEDSEED, 1) ||
              SCOTCH_contextRandomClone(ctx);
    if (!bad) {
        SCOTCH_contextRandomSeed(ctx, 1);
        SCOTCH_contextRandomReset(ctx);
        int *cores = sylva__malloc((size_t)nthreads, sizeof *cores);
        if (!cores) {
            SCOTCH_contextExit(ctx);
            return SYLVA_ERR_NO_MEMORY;
        }
        for (int i = 0; i < nthreads; i++) cores[i] = -1; /* unbound */
        bad = SCOTCH_contextThreadSpawn(ctx, nthreads, cores);
        free(cores);
    }
    if (bad) {
        SCOTCH_contextExit(ctx);
        return sylva__fail(SYLVA_ERR_ORDERING, "Scotch: cannot set up a context of %d threads", nthreads);
    }
    return SYLVA_OK;
}

int sylva__order_scotch(int64_t n, const int64_t *colptr, const int64_t *rowind, int nthreads,
                        int64_t *perm)
{
    if (n <= 0) return SYLVA_OK;
    if (nthreads < 1) nthreads = 1;
    int32_t *xadj, *adj;
    int status = sylva__adjacency32(n, colptr, rowind, "Scotch", &xadj, &adj);
    if (status) return status;
    SCOTCH_Num *peri = sylva__malloc((size_t)n, sizeof *peri);
    SCOTCH_Context ctx;
    SCOTCH_Graph graph, bound;
    SCOTCH_Strat strat;
    if (!peri) status = SYLVA_ERR_NO_MEMORY;
    else status = context_setup(&ctx, nthreads);
    if (status) {
        free(xadj);
        free(adj);
        free(peri);
        return status;
    }
    SCOTCH_graphInit(&graph);
    SCOTCH_graphInit(&bound);
    SCOTCH_stratInit(&strat);
    if (SCOTCH_graphBuild(&graph, 0, (SCOTCH_Num)n, xadj, NULL, NULL, NULL, xadj[n], adj, NULL))
        status = sylva__fail(SYLVA_ERR_ORDERING, "Scotch: graph of %lld vertices rejected", (long long)n);
    else if (SCOTCH_contextBindGraph(&ctx, &graph, &bound))
        status = sylva__fail(SYLVA_ERR_ORDERING, "Scotch: cannot bind the graph to its context");
    else if (build_strategy(&strat))
        status = sylva__fail(SYLVA_ERR_ORDERING, "Scotch: cannot build the ordering strategy");
    else if (SCOTCH_graphOrder(&bound, &strat, NULL, peri, NULL, NULL, NULL))
        status = sylva__fail(SYLVA_ERR_ORDERING, "Scotch ordering failed on %lld vertices", (long long)n);
    else
        for (int64_t i = 0; i < n; i++) perm[i] = peri[i]; /* peritab: new → old, as ours */
    SCOTCH_stratExit(&strat);
    SCOTCH_graphExit(&bound);
    SCOTCH_graphExit(&graph);
    SCOTCH_contextExit(&ctx);
    free(xadj);
    free(adj);
    free(peri);
    return status;
}
