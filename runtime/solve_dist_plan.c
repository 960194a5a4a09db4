/* solve_dist_plan.c — the schedule of the distributed solve
 * (solve_dist.h): each front's owner, the shared fronts (a descendant on
 * another rank), and this rank's own fronts cut into units (subtrees
 * solved by one task each) and the local fronts above them. Deterministic:
 * every rank makes the same owners and shared list. Fails on memory, or on
 * a tree whose pivot columns are not consecutive in postorder (each unit
 * must own the rows first_col(first) .. end of its root).
 */
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "solve_dist.h"

void sylva__solve_dist_plan_free(sylva__solve_dist_plan *dp)
{
    if (!dp) return;
    free(dp->owner);
    free(dp->unit_first);
    free(dp->unit_root);
    free(dp->sink_off);
    free(dp->local);
    free(dp->shared);
    free(dp->own_rows);
    free(dp);
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

int sylva__solve_dist_plan_build(const sylva__plan *pl, const int *group_owner, int me, int nranks,
                                 int workers, sylva__solve_dist_plan **out)
{
    *out = NULL;
    const sylva__tree *t = pl->tree;
    int64_t nf = t->nfronts;
    size_t n1 = (size_t)nf + 1;
    sylva__solve_dist_plan *dp = sylva__calloc(1, sizeof *dp);
    int64_t *size = sylva__malloc(n1, sizeof *size);  /* fronts in each subtree */
    double *work = sylva__malloc(n1, sizeof *work);   /* Σ m·k over each subtree */
    char *pure = sylva__malloc(n1, 1);                /* every descendant on the front's owner */
    int64_t *stack = sylva__malloc(n1, sizeof *stack);
    if (dp) {
        dp->owner = sylva__malloc(n1, sizeof *dp->owner);
        dp->unit_first = sylva__malloc(n1, sizeof *dp->unit_first);
        dp->unit_root = sylva__malloc(n1, sizeof *dp->unit_root);
        dp->sink_off = sylva__malloc(n1 + 1, sizeof *dp->sink_off);
        dp->local = sylva__malloc(n1, sizeof *dp->local);
        dp->shared = sylva__malloc(n1, sizeof *dp->shared);
        dp->own_rows = sylva__calloc((size_t)nranks, sizeof *dp->own_rows);
    }
    if (!dp || !size || !work || !pure || !stack || !dp->owner || !dp->unit_first || !dp->unit_root ||
        !dp->sink_off || !dp->local || !dp->shared || !dp->own_rows) {
        free(size);
        free(work);
        free(pure);
        free(stack);
        sylva__solve_dist_plan_free(dp);
        return sylva__fail(SYLVA_ERR_NO_MEMORY, "out of memory for the distributed solve's schedule");
    }
    dp->me = me;
    dp->nranks = nranks;
    dp->workers = workers;
    int status = SYLVA_OK;
    int64_t col = 0;
    for (int64_t f = 0; f < nf; f++) { /* postorder: children first */
        const sylva__front *fr = &t->fronts[f];
        if (fr->first_col != col) {
            status = sylva__fail(SYLVA_ERR_RUNTIME, "distributed solve: front %lld starts at column %lld, not %lld",
                                 (long long)f, (long long)fr->first_col, (long long)col);
            break;
        }
        col += fr->k;
        int o = dp->owner[f] = group_owner[pl->front_group[f]];
        dp->own_rows[o] += fr->k;
        size[f] = 1;
        work[f] = (double)fr->m * (double)fr->k;
        pure[f] = 1;
        for (int64_t q = t->child_ptr[f]; q < t->child_ptr[f + 1]; q++) {
            int64_t c = t->child_list[q];
            size[f] += size[c];
            work[f] += work[c];
            pure[f] &= pure[c] && dp->owner[c] == o;
        }
        if (!pure[f]) dp->shared[dp->nshared++] = f;
        if (o == me && !pure[f]) dp->max_m = fr->m > dp->max_m ? fr->m : dp->max_m;
    }
    /* This rank's subtrees (a pure front of its own under a shared parent,
     * or a root), split from the top while heavier than the cut. */
    int64_t top = 0;
    double mine = 0;
    for (int64_t f = 0; !status && f < nf; f++) {
        int64_t p = t->fronts[f].parent;
        if (pure[f] && dp->owner[f] == me && (p < 0 || !pure[p])) {
            stack[top++] = f;
            mine += work[f];
        }
    }
    double cut = workers > 1 ? mine / (4.0 * workers) : mine;
    dp->sink_off[0] = 0;
    while (top > 0) {
        int64_t f = stack[--top];
        const sylva__front *fr = &t->fronts[f];
        dp->max_m = fr->m > dp->max_m ? fr->m : dp->max_m;
        if (work[f] > cut && t->child_ptr[f + 1] > t->child_ptr[f]) {
            dp->local[dp->nlocal++] = f;
            for (int64_t q = t->child_ptr[f]; q < t->child_ptr[f + 1]; q++) stack[top++] = t->child_list[q];
            continue;
        }
        dp->unit_root[dp->nunits] = f;
        dp->unit_first[dp->nunits++] = f - size[f] + 1;
        for (int64_t s = f - size[f] + 1; s < f; s++)
            dp->max_m = t->fronts[s].m > dp->max_m ? t->fronts[s].m : dp->max_m;
    }
    qsort(dp->local, (size_t)dp->nlocal, sizeof *dp->local, cmp_i64);
    for (int64_t u = 0; u < dp->nunits; u++) {
        const sylva__front *fr = &t->fronts[dp->unit_root[u]];
        dp->sink_off[u + 1] = dp->sink_off[u] + fr->m - fr->k;
    }
    for (int r = 0; r < nranks; r++)
        dp->max_own_rows = dp->own_rows[r] > dp->max_own_rows ? dp->own_rows[r] : dp->max_own_rows;
    free(size);
    free(work);
    free(pure);
    free(stack);
    if (status) {
        sylva__solve_dist_plan_free(dp);
        return status;
    }
    *out = dp;
    return SYLVA_OK;
}
