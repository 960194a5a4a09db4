/* map_span.c — the multi-GPU mapping of a matrix's plan, measured without
 * running it: for each GPU count, each GPU's share of the flops in the
 * subtrees mapped to it (batching/plan_map.c; the plan rebuilt with its
 * groups split by part, as a run on that many GPUs makes it), the top
 * groups' share, the
 * longest chain of top fronts, and the speedup the flops allow: total /
 * (most loaded GPU + the top chain + the rest of the top shared evenly).
 * A bound on flops only: it ignores that small fronts run slower than
 * large ones, and transfers.
 *   map-span SPEC [GPUS,...] [small=N]   (default 2,4; small: the large-front threshold, default 2048)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "sylva_gen.h"

static void report(const sylva__plan *an_plan, int parts, const char *name)
{
    const sylva__tree *t = an_plan->tree;
    sylva__policy_params pp = an_plan->params;
    pp.parts = parts; /* the plan a run on that many GPUs makes: groups split by part */
    sylva__plan *pl = NULL;
    sylva__plan_map mp;
    if (sylva__plan_build(t, an_plan->policy, &pp, &pl) || sylva__plan_map_build(pl, parts, &mp)) {
        fprintf(stderr, "map-span: %s\n", sylva_last_error());
        sylva__plan_free(pl);
        return;
    }
    double total = t->flops, most = 0, crit = 0, *path = calloc((size_t)t->nfronts + 1, sizeof *path);
    int64_t ntop = 0;
    for (int p = 0; p < parts; p++)
        if (mp.part_flops[p] > most) most = mp.part_flops[p];
    for (int64_t f = 0; f < t->nfronts; f++) { /* children before parents */
        if (mp.front_part[f] >= 0) continue;
        double below = 0;
        for (int64_t c = t->child_ptr[f]; c < t->child_ptr[f + 1]; c++)
            if (path[t->child_list[c]] > below) below = path[t->child_list[c]];
        path[f] = below + t->fronts[f].flops;
        if (path[f] > crit) crit = path[f];
        ntop++;
    }
    double T = most + crit + (mp.top_flops - crit) / parts;
    printf("%s, %d GPUs: %.3e flops; per GPU", name, parts, total);
    for (int p = 0; p < parts; p++) printf(" %.1f%%", 100 * mp.part_flops[p] / total);
    printf("; top groups %.1f%% (%lld top fronts, chain %.1f%%); flop-bound speedup %.2f\n",
           100 * mp.top_flops / total, (long long)ntop, 100 * crit / total, T > 0 ? total / T : 0);
    free(path);
    sylva__plan_map_free(&mp);
    sylva__plan_free(pl);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: map-span SPEC [GPUS,...] [small=N]\n");
        return 2;
    }
    const char *counts = "2,4";
    sylva_options o;
    sylva_default_options(&o);
    o.ncuda = 0;
    o.small_front_rows = 2048; /* the H100's tuned threshold: the GPU runs' plan */
    for (int i = 2; i < argc; i++) {
        if (!strncmp(argv[i], "small=", 6)) o.small_front_rows = atoll(argv[i] + 6);
        else counts = argv[i];
    }
    sylva_matrix *A = NULL;
    sylva_analysis_t *an = NULL;
    if (sylva_init(&o) || sylva_gen_from_spec(argv[1], &A) || sylva_analyze(A, &o, &an, NULL)) {
        fprintf(stderr, "map-span: %s\n", sylva_last_error());
        return 1;
    }
    char buf[256];
    snprintf(buf, sizeof buf, "%s", counts);
    for (char *w = strtok(buf, ","); w; w = strtok(NULL, ",")) report(an->plan, atoi(w), argv[1]);
    sylva_analysis_free(an);
    sylva_matrix_free(A);
    sylva_finalize();
    return 0;
}
