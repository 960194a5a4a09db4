/* plan_stats.c — statistics of a plan for policy studies: group counts and
 * sizes, size spread inside a group, padding waste (the share of a
 * fixed-size batch's work that would be padding: 1 − Σ flops / Σ_g (fronts_g
 * × max front flops_g)), and the peak of CB memory when groups run one after
 * another in plan order. Pure computation, cannot fail. */
#include <stdlib.h>

#include "batching.h"

void sylva__plan_stats_compute(const sylva__plan *pl, sylva__plan_stats *st)
{
    const sylva__tree *t = pl->tree;
    *st = (sylva__plan_stats){0};
    st->groups = pl->ngroups;
    double spread = 0, useful = 0, padded = 0;
    for (int64_t g = 0; g < pl->ngroups; g++) {
        int64_t cnt = pl->group_ptr[g + 1] - pl->group_ptr[g];
        if (pl->large[g]) st->large_groups++;
        if (cnt > st->fronts_per_group_max) st->fronts_per_group_max = cnt;
        int64_t mmin = INT64_MAX, mmax = 0;
        double fmax = 0;
        for (int64_t q = pl->group_ptr[g]; q < pl->group_ptr[g + 1]; q++) {
            const sylva__front *f = &t->fronts[pl->front_list[q]];
            if (f->m < mmin) mmin = f->m;
            if (f->m > mmax) mmax = f->m;
            if (f->flops > fmax) fmax = f->flops;
            useful += f->flops;
            if (pl->large[g]) st->large_fronts++;
            else st->small_fronts++;
        }
        spread += mmin > 0 ? (double)mmax / (double)mmin : 1.0;
        padded += (double)cnt * fmax;
    }
    if (pl->ngroups) {
        st->fronts_per_group_mean = (double)t->nfronts / (double)pl->ngroups;
        st->size_spread_mean = spread / (double)pl->ngroups;
    }
    st->padding_waste = padded > 0 ? 1.0 - useful / padded : 0.0;
    for (int64_t g = 0; g < pl->ngroups; g++) {
        int64_t first = pl->front_list[pl->group_ptr[g]], last = pl->front_list[pl->group_ptr[g + 1] - 1];
        double s = (double)(pl->l_off[last] + t->fronts[last].m * t->fronts[last].k - pl->l_off[first]) +
                   (double)pl->cb_size[g] + (double)pl->scratch_size[g];
        for (int64_t d = pl->dep_ptr[g]; d < pl->dep_ptr[g + 1]; d++) s += (double)pl->cb_size[pl->dep_list[d]];
        if (s > st->max_task_scalars) st->max_task_scalars = s;
    }
    /* CB pools alive: group g's pool lives from g until its last reader. */
    int64_t *left = sylva__malloc((size_t)pl->ngroups + 1, sizeof *left);
    if (!left) return;
    double alive = 0, factor = 0;
    for (int64_t g = 0; g < pl->ngroups; g++) left[g] = pl->readers[g];
    for (int64_t g = 0; g < pl->ngroups; g++) {
        alive += (double)pl->cb_size[g] + (double)pl->scratch_size[g];
        int64_t first = pl->front_list[pl->group_ptr[g]], last = pl->front_list[pl->group_ptr[g + 1] - 1];
        factor += (double)(pl->l_off[last] + t->fronts[last].m * t->fronts[last].k - pl->l_off[first]);
        if (alive > st->peak_cb_scalars) st->peak_cb_scalars = alive;
        if (factor + alive > st->peak_factor_cb_scalars) st->peak_factor_cb_scalars = factor + alive;
        alive -= (double)pl->scratch_size[g];
        for (int64_t d = pl->dep_ptr[g]; d < pl->dep_ptr[g + 1]; d++)
            if (--left[pl->dep_list[d]] == 0) alive -= (double)pl->cb_size[pl->dep_list[d]];
        if (pl->readers[g] == 0) alive -= (double)pl->cb_size[g];
    }
    free(left);
}
