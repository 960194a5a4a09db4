/* policy_sized.c — the `sized` policy: like `level`, but within a level the
 * fronts are sorted by rows and a batch also ends where rows double, so a
 * batch holds fronts of similar size (less padding, fewer idle threads in a
 * variable-size batched kernel). Fails only on memory (−1). */
#include <stdlib.h>

#include "batching.h"

int64_t sylva__policy_sized(const sylva__tree *t, const sylva__policy_params *p, int64_t *order,
                            int64_t *start)
{
    char *take = sylva__malloc((size_t)t->nfronts + 1, 1);
    if (!take) return -1;
    for (int64_t f = 0; f < t->nfronts; f++) take[f] = 1;
    int64_t ng = sylva__group_by_level(t, p, take, 1, order, start, 0, 0);
    free(take);
    return ng;
}
