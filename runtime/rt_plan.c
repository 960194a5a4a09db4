/* rt_plan.c — the runtime's side of an analysis: the perfmodels' size of
 * every group (made with the plan), the GPU form of the plan with one
 * read-only StarPU handle per group blob (made at the first GPU
 * factorization and kept until the analysis is freed, so refactorizations
 * find the blobs already on the GPU), and what solves make at their first
 * need and keep the same way (CPU pieces, A's full pattern, the GPU
 * solve's blobs; solve_cpu.c, solve_gpu.c). Fails only on memory (or a
 * front too large for the GPU path).
 */
#include <stdlib.h>

#include "runtime_internal.h"

/* The perfmodels' size of a group: its flops plus, as flop-equivalents,
 * the entries its fronts assemble (zero fill, scatter, extend-add), which
 * dominate small fronts' time. StarPU 1.3 as built here has no
 * multiple-regression models, so both go into the one size a non-linear
 * regression (a·size^b + c, per kind of worker) is fitted on. */
#define SYLVA__COST_PER_ENTRY 64.0

double sylva__group_cost(const sylva__plan *plan, int64_t g)
{
    const sylva__tree *t = plan->tree;
    double entries = 0;
    for (int64_t q = plan->group_ptr[g]; q < plan->group_ptr[g + 1]; q++) {
        const sylva__front *f = &t->fronts[plan->front_list[q]];
        entries += (double)f->m * (double)f->m;
    }
    return plan->group_flops[g] + SYLVA__COST_PER_ENTRY * entries;
}

int sylva__rt_plan_create(const sylva__plan *plan, sylva__rt_plan **out)
{
    *out = NULL;
    sylva__rt_plan *rt = sylva__calloc(1, sizeof *rt);
    if (!rt) return SYLVA_ERR_NO_MEMORY;
    rt->plan = plan;
    STARPU_PTHREAD_MUTEX_INIT(&rt->solve_lock, NULL);
    rt->cost = sylva__malloc((size_t)plan->ngroups + 1, sizeof *rt->cost);
    if (!rt->cost) {
        STARPU_PTHREAD_MUTEX_DESTROY(&rt->solve_lock);
        free(rt);
        return SYLVA_ERR_NO_MEMORY;
    }
    for (int64_t g = 0; g < plan->ngroups; g++) rt->cost[g] = sylva__group_cost(plan, g);
    *out = rt;
    return SYLVA_OK;
}

int sylva__rt_plan_gpu(sylva__rt_plan *rt)
{
    if (rt->maps) return SYLVA_OK;
    int status = rt->gpu ? SYLVA_OK : sylva__gpu_plan_build(rt->plan, &rt->gpu);
    if (status) return status;
    int64_t ng = rt->plan->ngroups;
    starpu_data_handle_t *maps = sylva__calloc((size_t)ng + 1, sizeof *maps);
    if (!maps) return SYLVA_ERR_NO_MEMORY;
    for (int64_t g = 0; g < ng; g++) {
        /* Bytes in 16-byte elements (the blob's alignment). */
        const sylva__group_desc *d = &rt->gpu->groups[g];
        starpu_vector_data_register(&maps[g], STARPU_MAIN_RAM, (uintptr_t)rt->gpu->blobs[g],
                                    (uint32_t)((d->lay.bytes + 15) / 16), 16);
    }
    rt->maps = maps;
    return SYLVA_OK;
}

void sylva__rt_plan_free(sylva__rt_plan *rt)
{
    if (!rt) return;
    if (rt->maps) {
        /* Read-only data: its home copy is valid, nothing to fetch back. */
        for (int64_t g = 0; g < rt->plan->ngroups; g++) starpu_data_unregister_no_coherency(rt->maps[g]);
        free(rt->maps);
    }
    /* Without a runtime the handles went with StarPU's shutdown. */
    if (rt->gsolve_blob && sylva__runtime_ready()) starpu_data_unregister_no_coherency(rt->gsolve_blob);
    if (rt->gsolve_pattern && sylva__runtime_ready()) starpu_data_unregister_no_coherency(rt->gsolve_pattern);
    sylva__gpu_solve_plan_free(rt->gsolve);
    sylva__plan_map_free(&rt->gpu_map);
    sylva__full_pattern_free(rt->full);
    sylva__solve_pieces_free(rt->pieces);
    STARPU_PTHREAD_MUTEX_DESTROY(&rt->solve_lock);
    sylva__gpu_plan_free(rt->gpu);
    free(rt->cost);
    free(rt);
}

int sylva__rt_plan_full(sylva__rt_plan *rt, const sylva__full_pattern **out)
{
    STARPU_PTHREAD_MUTEX_LOCK(&rt->solve_lock);
    int status = rt->full ? SYLVA_OK : sylva__full_pattern_build(rt->plan->tree, &rt->full);
    *out = rt->full;
    STARPU_PTHREAD_MUTEX_UNLOCK(&rt->solve_lock);
    return status;
}
