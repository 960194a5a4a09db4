/* plan_check.c — the plan contract of batching.h, checked on every plan
 * built (and by tests/batching on plans built and broken on purpose). Two
 * steps: the policy's grouping alone, before the layout relies on it, then
 * the laid-out plan. Each returns SYLVA_OK or SYLVA_ERR_RUNTIME with the
 * first violation, naming the policy, the group and the front; the only
 * other failure is memory. O(fronts log fronts).
 */
#include <stdlib.h>

#include "batching.h"

static int violation(const char *policy, const char *what, long long group, long long front)
{
    return sylva__fail(SYLVA_ERR_RUNTIME, "batching policy %s broke the plan contract: %s (group %lld, front %lld)",
                       policy, what, group, front);
}

int sylva__plan_check_grouping(const sylva__tree *t, const char *policy, const int64_t *order,
                               const int64_t *start, int64_t ngroups, const sylva__policy_params *p)
{
    int64_t ns = t->nfronts;
    if (ngroups < 0 || (ns > 0 && ngroups == 0) || ngroups > ns)
        return violation(policy, "group count out of range", (long long)ngroups, -1);
    if (ns == 0) return SYLVA_OK;
    if (start[0] != 0) return violation(policy, "first group does not start at 0", 0, -1);
    if (start[ngroups] != ns)
        return violation(policy, "groups do not cover every front", (long long)ngroups, -1);
    int64_t *pos = sylva__malloc((size_t)ns, sizeof *pos);
    if (!pos) return SYLVA_ERR_NO_MEMORY;
    for (int64_t f = 0; f < ns; f++) pos[f] = -1;
    int status = SYLVA_OK;
    for (int64_t g = 0; g < ngroups && !status; g++) {
        if (start[g + 1] <= start[g]) {
            status = violation(policy, "empty group", (long long)g, -1);
            break;
        }
        for (int64_t q = start[g]; q < start[g + 1]; q++) {
            int64_t f = order[q];
            if (f < 0 || f >= ns) {
                status = violation(policy, "front index out of range", (long long)g, (long long)f);
                break;
            }
            if (pos[f] >= 0) {
                status = violation(policy, "front listed twice", (long long)g, (long long)f);
                break;
            }
            pos[f] = q;
            if (t->fronts[f].m > p->small_front_rows && start[g + 1] - start[g] != 1) {
                status = violation(policy, "large front not alone in its group", (long long)g,
                                   (long long)f);
                break;
            }
        }
    }
    /* Every front listed once (ns entries, no repeats) and children first. */
    for (int64_t f = 0; f < ns && !status; f++)
        for (int64_t c = t->child_ptr[f]; c < t->child_ptr[f + 1]; c++)
            if (pos[t->child_list[c]] > pos[f]) {
                status = violation(policy, "front scheduled before its child", -1, (long long)f);
                break;
            }
    free(pos);
    return status;
}

typedef struct interval {
    int64_t lo, hi;
} interval;

static int by_lo(const void *a, const void *b)
{
    const interval *x = a, *y = b;
    return (x->lo > y->lo) - (x->lo < y->lo);
}

/* The CB regions of group g in its pool (internal = 0) or scratch (1) lie
 * inside it and do not overlap. */
static int check_regions(const sylva__plan *pl, int64_t g, int internal, interval *buf)
{
    const sylva__tree *t = pl->tree;
    int64_t n = 0, size = internal ? pl->scratch_size[g] : pl->cb_size[g];
    for (int64_t q = pl->group_ptr[g]; q < pl->group_ptr[g + 1]; q++) {
        int64_t f = pl->front_list[q], r = t->fronts[f].m - t->fronts[f].k;
        if (pl->cb_internal[f] != internal || r == 0) continue;
        if (pl->cb_off[f] < 0 || pl->cb_off[f] + r * r > size)
            return violation(pl->policy, "CB outside its pool", (long long)g, (long long)f);
        buf[n++] = (interval){pl->cb_off[f], pl->cb_off[f] + r * r};
    }
    qsort(buf, (size_t)n, sizeof *buf, by_lo);
    for (int64_t i = 1; i < n; i++)
        if (buf[i].lo < buf[i - 1].hi)
            return violation(pl->policy, "CBs overlap in a pool", (long long)g, -1);
    return SYLVA_OK;
}

/* Dependency lists: sorted, unique, earlier groups, exactly the groups of
 * the external children; reader counts match; every external CB's slot
 * names its own group in its parent's list. */
static int check_dependencies(const sylva__plan *pl, int64_t *mark)
{
    const sylva__tree *t = pl->tree;
    int64_t ng = pl->ngroups;
    for (int64_t g = 0; g < ng; g++) mark[g] = 0;
    for (int64_t g = 0; g < ng; g++) {
        for (int64_t d = pl->dep_ptr[g]; d < pl->dep_ptr[g + 1]; d++) {
            int64_t c = pl->dep_list[d];
            if (c < 0 || c >= g || (d > pl->dep_ptr[g] && c <= pl->dep_list[d - 1]))
                return violation(pl->policy, "dependency list not sorted or not earlier", (long long)g, -1);
            mark[c]++;
        }
        for (int64_t q = pl->group_ptr[g]; q < pl->group_ptr[g + 1]; q++) {
            int64_t f = pl->front_list[q];
            for (int64_t c = t->child_ptr[f]; c < t->child_ptr[f + 1]; c++) {
                int64_t ch = t->child_list[c];
                if (pl->cb_internal[ch]) continue;
                int64_t slot = pl->cb_slot[ch], nd = pl->dep_ptr[g + 1] - pl->dep_ptr[g];
                if (slot < 0 || slot >= nd || pl->dep_list[pl->dep_ptr[g] + slot] != pl->front_group[ch])
                    return violation(pl->policy, "child CB slot does not name the child's group",
                                     (long long)g, (long long)ch);
            }
        }
    }
    for (int64_t g = 0; g < ng; g++)
        if (mark[g] != pl->readers[g])
            return violation(pl->policy, "reader count differs from the dependency lists", (long long)g, -1);
    return SYLVA_OK;
}

int sylva__plan_check(const sylva__plan *pl, const sylva__policy_params *p)
{
    const sylva__tree *t = pl->tree;
    int64_t ns = t->nfronts, ng = pl->ngroups;
    int status = sylva__plan_check_grouping(t, pl->policy, pl->front_list, pl->group_ptr, ng, p);
    if (status) return status;
    int64_t loff = 0;
    for (int64_t g = 0; g < ng; g++) {
        int large = 0;
        for (int64_t q = pl->group_ptr[g]; q < pl->group_ptr[g + 1]; q++) {
            int64_t f = pl->front_list[q];
            const sylva__front *fr = &t->fronts[f];
            if (pl->front_group[f] != g)
                return violation(pl->policy, "front_group disagrees with the groups", (long long)g, (long long)f);
            if (pl->l_off[f] != loff)
                return violation(pl->policy, "L offsets do not tile the factor", (long long)g, (long long)f);
            loff += fr->m * fr->k;
            large |= fr->m > p->small_front_rows;
            int internal = fr->parent >= 0 && pl->front_group[fr->parent] == g;
            if (pl->cb_internal[f] != internal)
                return violation(pl->policy, "CB placed in the wrong pool", (long long)g, (long long)f);
        }
        if (pl->large[g] != large)
            return violation(pl->policy, "large flag disagrees with the fronts", (long long)g, -1);
    }
    if (pl->l_off[ns] != loff)
        return violation(pl->policy, "L size differs from the fronts", -1, (long long)ns);
    int64_t *mark = sylva__malloc((size_t)ng + 1, sizeof *mark);
    interval *buf = sylva__malloc((size_t)ns + 1, sizeof *buf);
    if (!mark || !buf) status = SYLVA_ERR_NO_MEMORY;
    for (int64_t g = 0; g < ng && !status; g++)
        if (!(status = check_regions(pl, g, 0, buf))) status = check_regions(pl, g, 1, buf);
    if (!status) status = check_dependencies(pl, mark);
    free(mark);
    free(buf);
    return status;
}
