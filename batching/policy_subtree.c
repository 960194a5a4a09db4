/* policy_subtree.c — the `subtree` policy: maximal subtrees whose fronts are
 * all small and whose total flops fit in batch_flops become one task each
 * (factored bottom-up inside it, so their internal CBs never leave the
 * worker's memory); consecutive small subtrees are packed together up to
 * batch_flops. Fronts above the subtrees are grouped by level.
 */
#include <stdlib.h>

#include "batching.h"
#include "core.h"

int64_t sylva__policy_subtree(const sylva__tree *t, const sylva__policy_params *p, int64_t *order,
                              int64_t *start)
{
    int64_t ns = t->nfronts;
    double limit = p->batch_flops > 0 ? p->batch_flops : 1e300;
    double *sub_flops = sylva__malloc((size_t)ns + 1, sizeof *sub_flops);
    char *small = sylva__malloc((size_t)ns + 1, 1);
    int64_t *owner = sylva__malloc((size_t)ns + 1, sizeof *owner);
    char *rest = sylva__malloc((size_t)ns + 1, 1);
    int64_t ng = -1;
    if (!sub_flops || !small || !owner || !rest) goto done;
    /* Bottom-up: subtree flops, and whether the whole subtree is small. */
    for (int64_t f = 0; f < ns; f++) {
        sub_flops[f] = t->fronts[f].flops;
        small[f] = t->fronts[f].m <= p->small_front_rows;
    }
    for (int64_t f = 0; f < ns; f++) {
        int64_t q = t->fronts[f].parent;
        if (q < 0) continue;
        sub_flops[q] += sub_flops[f];
        if (!small[f]) small[q] = 0;
    }
    /* Top-down: owner[f] = root of the subtree task that holds f, or −1. */
    for (int64_t f = ns - 1; f >= 0; f--) {
        int64_t q = t->fronts[f].parent;
        int fits = small[f] && sub_flops[f] <= limit;
        owner[f] = q >= 0 && owner[q] >= 0 ? owner[q] : (fits ? f : -1);
    }
    /* Pack subtrees, in order of their roots, up to the flop limit. A
     * subtree's fronts are listed in increasing index: children first. */
    int64_t *members = sylva__malloc((size_t)ns + 1, sizeof *members);
    int64_t *mstart = sylva__calloc((size_t)ns + 2, sizeof *mstart);
    if (!members || !mstart) {
        free(members);
        free(mstart);
        goto done;
    }
    for (int64_t f = 0; f < ns; f++)
        if (owner[f] >= 0) mstart[owner[f] + 1]++;
    for (int64_t f = 0; f < ns; f++) mstart[f + 1] += mstart[f];
    for (int64_t f = 0; f < ns; f++)
        if (owner[f] >= 0) members[mstart[owner[f]]++] = f;
    for (int64_t f = ns; f > 0; f--) mstart[f] = mstart[f - 1];
    mstart[0] = 0;
    int64_t pos = 0;
    double flops = 0;
    ng = 0;
    int open = 0;
    for (int64_t r = 0; r < ns; r++) {
        if (owner[r] != r) continue;
        if (!open || flops + sub_flops[r] > limit) {
            start[ng++] = pos;
            flops = 0;
            open = 1;
        }
        for (int64_t q = mstart[r]; q < mstart[r + 1]; q++) order[pos++] = members[q];
        flops += sub_flops[r];
    }
    free(members);
    free(mstart);
    for (int64_t f = 0; f < ns; f++) rest[f] = owner[f] < 0;
    ng = sylva__group_by_level(t, p, rest, 0, order, start, pos, ng);
done:
    free(sub_flops);
    free(small);
    free(owner);
    free(rest);
    return ng;
}
