/* policy_ready.c — the `ready` policy, dynamic: its batches are cut while
 * the factorization runs (runtime/factorize_ready.c drives the pool of
 * ready_pool.c from StarPU's task completions). This function is its static
 * face: the grouping a run on one worker would make, cutting a batch, running
 * it to the end, then cutting the next — what `sylva analyze` reports for
 * the policy and what its plan-contract tests run. A parallel run cuts
 * differently (more fronts are done at once, fewer batches are partial);
 * sylva_factor_batch_record gives the batches a run actually made. Fails only
 * on memory (−1). */
#include "batching.h"

int64_t sylva__policy_ready(const sylva__tree *t, const sylva__policy_params *p, int64_t *order,
                            int64_t *start)
{
    sylva__ready_pool *rp = NULL;
    if (sylva__ready_pool_create(t, p, &rp)) return -1;
    int64_t pos = 0, ng = 0, n;
    while ((n = sylva__ready_pool_cut(rp, 1, order + pos)) > 0) {
        start[ng++] = pos;
        sylva__ready_pool_done(rp, order + pos, n);
        pos += n;
    }
    start[ng] = pos;
    sylva__ready_pool_free(rp);
    return ng;
}
