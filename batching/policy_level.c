/* policy_level.c — the `level` policy: the small fronts of one tree level
 * (height: distance to the leaves) per batch, cut into chunks of at most
 * batch_flops; the common baseline of batched multifrontal codes. Fails
 * only on memory (−1). */
#include <stdlib.h>

#include "batching.h"

int64_t sylva__policy_level(const sylva__tree *t, const sylva__policy_params *p, int64_t *order,
                            int64_t *start)
{
    char *take = sylva__malloc((size_t)t->nfronts + 1, 1);
    if (!take) return -1;
    for (int64_t f = 0; f < t->nfronts; f++) take[f] = 1;
    int64_t ng = sylva__group_by_level(t, p, take, 0, order, start, 0, 0);
    free(take);
    return ng;
}
