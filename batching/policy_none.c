/* policy_none.c — the `none` policy: one group per front, in postorder. The
 * unbatched reference every batching policy is measured against. */
#include "batching.h"

int64_t sylva__policy_none(const sylva__tree *t, const sylva__policy_params *p, int64_t *order,
                           int64_t *start)
{
    (void)p;
    for (int64_t f = 0; f < t->nfronts; f++) {
        order[f] = f;
        start[f] = f;
    }
    start[t->nfronts] = t->nfronts;
    return t->nfronts;
}
