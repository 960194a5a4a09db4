/* plan.c — runs a policy, orders its groups (plan_order.c) and lays out the
 * plan every policy shares: L pool offsets, CB pools (external CBs) and scratch (internal CBs), the group
 * dependency lists and reader counts (contract in batching.h). The policy's
 * grouping is split by part when the run is mapped onto several GPUs or
 * processes (plan_map.c), checked before the layout relies on it, and the finished plan
 * against the whole contract (plan_check.c); a violation fails with
 * SYLVA_ERR_RUNTIME naming the policy and the front.
 */
#include <stdlib.h>
#include <string.h>

#include "batching.h"
#include "core.h"

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static int64_t cb_scalars(const sylva__front *f) { return (f->m - f->k) * (f->m - f->k); }

/* Group membership, L and CB layout (the grouping is already checked). */
static void layout(sylva__plan *pl, const sylva__policy_params *pp)
{
    const sylva__tree *t = pl->tree;
    int64_t ns = t->nfronts, ng = pl->ngroups;
    for (int64_t g = 0; g < ng; g++)
        for (int64_t q = pl->group_ptr[g]; q < pl->group_ptr[g + 1]; q++)
            pl->front_group[pl->front_list[q]] = g;
    int64_t loff = 0;
    for (int64_t g = 0; g < ng; g++) {
        pl->cb_size[g] = pl->scratch_size[g] = 0;
        pl->group_flops[g] = 0;
        pl->large[g] = 0;
        for (int64_t q = pl->group_ptr[g]; q < pl->group_ptr[g + 1]; q++) {
            int64_t f = pl->front_list[q];
            const sylva__front *fr = &t->fronts[f];
            pl->l_off[f] = loff;
            loff += fr->m * fr->k;
            pl->group_flops[g] += fr->flops;
            if (fr->m > pp->small_front_rows) pl->large[g] = 1;
            int internal = fr->parent >= 0 && pl->front_group[fr->parent] == g;
            pl->cb_internal[f] = (char)internal;
            if (internal) {
                pl->cb_off[f] = pl->scratch_size[g];
                pl->scratch_size[g] += cb_scalars(fr);
            } else {
                pl->cb_off[f] = pl->cb_size[g];
                pl->cb_size[g] += cb_scalars(fr);
            }
        }
    }
    pl->l_off[ns] = loff;
}

/* Child groups each group reads (external CBs), reader counts, cb_slot. */
static int dependencies(sylva__plan *pl)
{
    const sylva__tree *t = pl->tree;
    int64_t ns = t->nfronts, ng = pl->ngroups;
    int64_t cap = ns + 1, len = 0;
    pl->dep_list = sylva__malloc((size_t)cap, sizeof *pl->dep_list);
    if (!pl->dep_list) return SYLVA_ERR_NO_MEMORY;
    for (int64_t g = 0; g < ng; g++) {
        pl->dep_ptr[g] = len;
        for (int64_t q = pl->group_ptr[g]; q < pl->group_ptr[g + 1]; q++) {
            int64_t f = pl->front_list[q];
            for (int64_t c = t->child_ptr[f]; c < t->child_ptr[f + 1]; c++) {
                int64_t ch = t->child_list[c];
                if (!pl->cb_internal[ch]) pl->dep_list[len++] = pl->front_group[ch];
            }
        }
        int64_t *d = pl->dep_list + pl->dep_ptr[g], nd = len - pl->dep_ptr[g], u = 0;
        qsort(d, (size_t)nd, sizeof *d, cmp_i64);
        for (int64_t i = 0; i < nd; i++)
            if (u == 0 || d[u - 1] != d[i]) d[u++] = d[i];
        len = pl->dep_ptr[g] + u;
        for (int64_t i = 0; i < u; i++) pl->readers[d[i]]++;
    }
    pl->dep_ptr[ng] = len;
    for (int64_t f = 0; f < ns; f++) {
        pl->cb_slot[f] = -1;
        int64_t p = t->fronts[f].parent;
        if (p < 0 || pl->cb_internal[f]) continue;
        int64_t gp = pl->front_group[p], gc = pl->front_group[f];
        const int64_t *d = pl->dep_list + pl->dep_ptr[gp];
        const int64_t *hit = bsearch(&gc, d, (size_t)(pl->dep_ptr[gp + 1] - pl->dep_ptr[gp]),
                                     sizeof *d, cmp_i64);
        pl->cb_slot[f] = hit - d;
    }
    return SYLVA_OK;
}

int sylva__plan_build(const sylva__tree *t, const char *policy, const sylva__policy_params *pp,
                      sylva__plan **out)
{
    *out = NULL;
    const sylva__policy *pol = sylva__policy_find(policy);
    if (!pol) return sylva__fail(SYLVA_ERR_ARGUMENT, "unknown batching policy '%s'", policy);
    int64_t ns = t->nfronts;
    sylva__plan *pl = sylva__calloc(1, sizeof *pl);
    if (!pl) return SYLVA_ERR_NO_MEMORY;
    pl->tree = t;
    pl->policy = pol->name;
    pl->dynamic = pol->dynamic;
    pl->params = *pp;
    pl->front_list = sylva__malloc((size_t)ns + 1, sizeof(int64_t));
    pl->group_ptr = sylva__malloc((size_t)ns + 2, sizeof(int64_t));
    pl->front_group = sylva__malloc((size_t)ns + 1, sizeof(int64_t));
    pl->l_off = sylva__malloc((size_t)ns + 1, sizeof(int64_t));
    pl->cb_off = sylva__malloc((size_t)ns + 1, sizeof(int64_t));
    pl->cb_internal = sylva__malloc((size_t)ns + 1, 1);
    pl->cb_slot = sylva__malloc((size_t)ns + 1, sizeof(int64_t));
    int status = SYLVA_ERR_NO_MEMORY;
    if (!pl->front_list || !pl->group_ptr || !pl->front_group || !pl->l_off || !pl->cb_off ||
        !pl->cb_internal || !pl->cb_slot)
        goto fail;
    pl->ngroups = ns ? pol->fn(t, pp, pl->front_list, pl->group_ptr) : 0;
    if (ns == 0) pl->group_ptr[0] = 0;
    if (pl->ngroups < 0) goto fail;
    /* A run mapped onto parts shares only the top of the tree. */
    if (pp->parts > 1 && !pol->dynamic) {
        if ((status = sylva__groups_split_by_part(t, pp->parts, pl->front_list, pl->group_ptr, &pl->ngroups)))
            goto fail;
        status = SYLVA_ERR_NO_MEMORY; /* what the allocations below fail with */
    }
    int64_t ng = pl->ngroups;
    pl->dep_ptr = sylva__malloc((size_t)ng + 1, sizeof(int64_t));
    pl->readers = sylva__calloc((size_t)ng + 1, sizeof(int64_t));
    pl->cb_size = sylva__malloc((size_t)ng + 1, sizeof(int64_t));
    pl->scratch_size = sylva__malloc((size_t)ng + 1, sizeof(int64_t));
    pl->large = sylva__malloc((size_t)ng + 1, 1);
    pl->group_flops = sylva__malloc((size_t)ng + 1, sizeof(double));
    if (!pl->dep_ptr || !pl->readers || !pl->cb_size || !pl->scratch_size || !pl->large ||
        !pl->group_flops)
        goto fail;
    status = sylva__plan_check_grouping(t, pol->name, pl->front_list, pl->group_ptr, ng, pp);
    if (status) goto fail;
    if ((status = sylva__plan_order_groups(t, pl->front_list, pl->group_ptr, ng))) goto fail;
    layout(pl, pp);
    if ((status = dependencies(pl)) || (status = sylva__plan_check(pl, pp))) goto fail;
    *out = pl;
    return SYLVA_OK;
fail:
    sylva__plan_free(pl);
    return status;
}

void sylva__plan_free(sylva__plan *pl)
{
    if (!pl) return;
    free(pl->group_ptr);
    free(pl->front_list);
    free(pl->front_group);
    free(pl->dep_ptr);
    free(pl->dep_list);
    free(pl->readers);
    free(pl->l_off);
    free(pl->cb_off);
    free(pl->cb_internal);
    free(pl->cb_slot);
    free(pl->cb_size);
    free(pl->scratch_size);
    free(pl->large);
    free(pl->group_flops);
    free(pl);
}

int64_t sylva__plan_group_l(const sylva__plan *pl, int64_t g, int64_t *lo)
{
    int64_t first = pl->front_list[pl->group_ptr[g]], last = pl->front_list[pl->group_ptr[g + 1] - 1];
    const sylva__front *f = &pl->tree->fronts[last];
    *lo = pl->l_off[first];
    return pl->l_off[last] + f->m * f->k - *lo;
}
