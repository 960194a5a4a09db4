/* plan_grow.c — a plan grown one group at a time while a dynamic policy
 * cuts batches at run time (contract in batching.h). Arrays have room for
 * one group per front from the start, so a group's entries never move once
 * written: tasks already submitted keep reading them while later groups are
 * appended (by one thread). Each group is laid out as sylva__plan_build lays
 * out a static one — L slice after the previous group's, external CBs in
 * its own pool — so the finished plan meets the same contract
 * (sylva__plan_check), which the runtime checks after every run. Fails on
 * memory, or with SYLVA_ERR_RUNTIME for fronts a dynamic policy must not
 * cut (a child not yet in a group, a large front not alone, a front twice).
 */
#include <stdlib.h>

#include "batching.h"

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

int sylva__plan_grow_create(const sylva__tree *t, const char *policy, const sylva__policy_params *p,
                            sylva__plan **out)
{
    *out = NULL;
    int64_t ns = t->nfronts;
    sylva__plan *pl = sylva__calloc(1, sizeof *pl);
    if (!pl) return SYLVA_ERR_NO_MEMORY;
    pl->tree = t;
    pl->policy = policy;
    pl->dynamic = 1;
    pl->params = *p;
    pl->group_ptr = sylva__calloc((size_t)ns + 2, sizeof(int64_t));
    pl->front_list = sylva__malloc((size_t)ns + 1, sizeof(int64_t));
    pl->front_group = sylva__malloc((size_t)ns + 1, sizeof(int64_t));
    pl->dep_ptr = sylva__calloc((size_t)ns + 2, sizeof(int64_t));
    pl->dep_list = sylva__malloc((size_t)ns + 1, sizeof(int64_t));
    pl->readers = sylva__calloc((size_t)ns + 1, sizeof(int64_t));
    pl->l_off = sylva__malloc((size_t)ns + 1, sizeof(int64_t));
    pl->cb_off = sylva__malloc((size_t)ns + 1, sizeof(int64_t));
    pl->cb_internal = sylva__calloc((size_t)ns + 1, 1);
    pl->cb_slot = sylva__malloc((size_t)ns + 1, sizeof(int64_t));
    pl->cb_size = sylva__calloc((size_t)ns + 1, sizeof(int64_t));
    pl->scratch_size = sylva__calloc((size_t)ns + 1, sizeof(int64_t));
    pl->large = sylva__calloc((size_t)ns + 1, 1);
    pl->group_flops = sylva__calloc((size_t)ns + 1, sizeof(double));
    if (!pl->group_ptr || !pl->front_list || !pl->front_group || !pl->dep_ptr || !pl->dep_list ||
        !pl->readers || !pl->l_off || !pl->cb_off || !pl->cb_internal || !pl->cb_slot || !pl->cb_size ||
        !pl->scratch_size || !pl->large || !pl->group_flops) {
        sylva__plan_free(pl);
        return SYLVA_ERR_NO_MEMORY;
    }
    int64_t total = 0;
    for (int64_t f = 0; f < ns; f++) {
        pl->front_group[f] = pl->cb_slot[f] = pl->cb_off[f] = -1;
        total += t->fronts[f].m * t->fronts[f].k;
    }
    pl->l_off[ns] = total;
    *out = pl;
    return SYLVA_OK;
}

static int64_t refuse(const sylva__plan *pl, const char *what, int64_t f)
{
    sylva__fail(SYLVA_ERR_RUNTIME, "batching policy %s cut an ineligible batch: %s (group %lld, front %lld)",
                pl->policy, what, (long long)pl->ngroups, (long long)f);
    return -1;
}

int64_t sylva__plan_grow_add(sylva__plan *pl, const int64_t *fronts, int64_t n, const sylva__policy_params *p)
{
    const sylva__tree *t = pl->tree;
    int64_t g = pl->ngroups, q0 = pl->group_ptr[g];
    if (n <= 0 || q0 + n > t->nfronts) return refuse(pl, "empty batch or more fronts than the tree has", -1);
    for (int64_t i = 0; i < n; i++) {
        int64_t f = fronts[i];
        if (f < 0 || f >= t->nfronts || pl->front_group[f] >= 0) return refuse(pl, "front out of range or cut twice", f);
        if (t->fronts[f].m > p->small_front_rows && n != 1) return refuse(pl, "large front not alone", f);
        for (int64_t c = t->child_ptr[f]; c < t->child_ptr[f + 1]; c++)
            if (pl->front_group[t->child_list[c]] < 0) return refuse(pl, "a child is not done", f);
    }
    int64_t loff = 0;
    if (g > 0) {
        int64_t last = pl->front_list[q0 - 1];
        loff = pl->l_off[last] + t->fronts[last].m * t->fronts[last].k;
    }
    int64_t d0 = pl->dep_ptr[g], len = d0;
    for (int64_t i = 0; i < n; i++) {
        int64_t f = fronts[i];
        const sylva__front *fr = &t->fronts[f];
        pl->front_list[q0 + i] = f;
        pl->front_group[f] = g;
        pl->l_off[f] = loff;
        loff += fr->m * fr->k;
        pl->group_flops[g] += fr->flops;
        if (fr->m > p->small_front_rows) pl->large[g] = 1;
        pl->cb_internal[f] = 0; /* its parent is not ready yet: never in this group */
        pl->cb_off[f] = pl->cb_size[g];
        pl->cb_size[g] += (fr->m - fr->k) * (fr->m - fr->k);
        for (int64_t c = t->child_ptr[f]; c < t->child_ptr[f + 1]; c++)
            pl->dep_list[len++] = pl->front_group[t->child_list[c]];
    }
    /* Sorted, unique child groups; each child's slot in them. */
    int64_t *d = pl->dep_list + d0, nd = len - d0, u = 0;
    qsort(d, (size_t)nd, sizeof *d, cmp_i64);
    for (int64_t i = 0; i < nd; i++)
        if (u == 0 || d[u - 1] != d[i]) d[u++] = d[i];
    for (int64_t i = 0; i < u; i++) pl->readers[d[i]]++;
    for (int64_t i = 0; i < n; i++)
        for (int64_t c = t->child_ptr[fronts[i]]; c < t->child_ptr[fronts[i] + 1]; c++) {
            int64_t ch = t->child_list[c], gc = pl->front_group[ch];
            pl->cb_slot[ch] = (const int64_t *)bsearch(&gc, d, (size_t)u, sizeof *d, cmp_i64) - d;
        }
    pl->dep_ptr[g + 1] = d0 + u;
    pl->group_ptr[g + 1] = q0 + n;
    pl->ngroups = g + 1;
    return g;
}
