/* plan_order.c — the order in which a plan's groups are laid out and
 * submitted: a topological order of the group DAG (children's groups first)
 * that follows the tree's postorder as closely as the grouping allows, so
 * that contribution blocks are consumed soon after they are made (the
 * multifrontal stack) instead of piling up level by level. Kahn's
 * algorithm, taking among the ready groups the one whose first front comes
 * first in postorder: for groups of single fronts it gives the postorder
 * itself. A policy decides what goes together; this decides when. Fails
 * only on memory (SYLVA_ERR_NO_MEMORY), leaving order/start untouched.
 */
#include <stdlib.h>
#include <string.h>

#include "batching.h"
#include "group_heap.h"

int sylva__plan_order_groups(const sylva__tree *t, int64_t *order, int64_t *start, int64_t ng)
{
    int64_t ns = t->nfronts;
    if (ng <= 1) return SYLVA_OK;
    int64_t *fg = sylva__malloc((size_t)ns, sizeof *fg);
    int64_t *key = sylva__malloc((size_t)ng, sizeof *key);
    int64_t *indeg = sylva__calloc((size_t)ng, sizeof *indeg);
    int64_t *heapv = sylva__malloc((size_t)ng, sizeof *heapv);
    int64_t *norder = sylva__malloc((size_t)ns, sizeof *norder);
    int64_t *nstart = sylva__malloc((size_t)ng + 1, sizeof *nstart);
    int status = SYLVA_ERR_NO_MEMORY;
    if (!fg || !key || !indeg || !heapv || !norder || !nstart) goto done;
    for (int64_t g = 0; g < ng; g++) {
        key[g] = INT64_MAX;
        for (int64_t q = start[g]; q < start[g + 1]; q++) {
            fg[order[q]] = g;
            if (order[q] < key[g]) key[g] = order[q];
        }
    }
    /* One edge per front whose parent is in another group (multiplicity
     * is counted the same way on both sides). */
    for (int64_t f = 0; f < ns; f++) {
        int64_t p = t->fronts[f].parent;
        if (p >= 0 && fg[p] != fg[f]) indeg[fg[p]]++;
    }
    sylva__group_heap h = {heapv, 0, key};
    for (int64_t g = 0; g < ng; g++)
        if (indeg[g] == 0) sylva__group_heap_push(&h, g);
    int64_t pos = 0, out = 0;
    while (h.n > 0) {
        int64_t g = sylva__group_heap_pop(&h);
        nstart[out++] = pos;
        for (int64_t q = start[g]; q < start[g + 1]; q++) {
            int64_t f = order[q], p = t->fronts[f].parent;
            norder[pos++] = f;
            if (p >= 0 && fg[p] != g && --indeg[fg[p]] == 0) sylva__group_heap_push(&h, fg[p]);
        }
    }
    nstart[out] = pos;
    /* The grouping was checked (children before parents), so the group DAG
     * has no cycle and every group came out. */
    if (out == ng && pos == ns) {
        memcpy(order, norder, (size_t)ns * sizeof *order);
        memcpy(start, nstart, (size_t)(ng + 1) * sizeof *start);
        status = SYLVA_OK;
    } else {
        status = sylva__fail(SYLVA_ERR_RUNTIME, "plan order: %lld of %lld groups ordered (a cycle)",
                             (long long)out, (long long)ng);
    }
done:
    free(fg);
    free(key);
    free(indeg);
    free(heapv);
    free(norder);
    free(nstart);
    return status;
}
