/* plan_map.c — the plan's groups mapped onto `parts` devices or processes
 * (contract in batching.h): subtrees of the assembly tree are split from
 * the roots down, the heaviest first (Geist and Ng), and dealt to the parts
 * heaviest first onto the least loaded (LPT); the split that gives the
 * best estimated makespan (the most loaded part plus the split fronts'
 * flops shared by all) is kept. A front above the split is "top"; it is
 * owned by the part of its heaviest child subtree, so that the largest CB
 * under it does not move. A group is top when it holds a top front or
 * fronts of several parts, and is owned by the part holding most of its
 * flops. Deterministic (ties go to the lower index). O(nfronts +
 * splits · subtrees log subtrees); fails only on memory. The same front
 * mapping splits a policy's groups by part before the plan is laid out
 * (sylva__groups_split_by_part), so that only the top is shared.
 */
#include <stdlib.h>
#include <string.h>

#include "batching.h"

/* Splits tried at most per part: enough to balance trees whose top is a
 * long chain, bounded so that the analysis stays linear in practice. */
#define MAP_SPLITS_PER_PART 64

/* The subtrees are balanced well enough when the most loaded part is
 * within this factor of the mean. */
#define MAP_BALANCED 1.02

typedef struct mapper {
    const sylva__tree *t;
    const double *sub; /* subtree flops per front */
    int parts;
    int64_t *cand, ncand; /* candidate subtree roots */
    int64_t *sorted, *tmp; /* scratch: candidates by decreasing flops */
    double *load;         /* per part */
} mapper;

/* Work budget of the split search (candidates dealt, summed over the
 * splits): a forest of very many small trees stops early. */
#define MAP_WORK 5e7

/* x before y: heavier first, then lower index. */
static int heavier(const double *key, int64_t x, int64_t y)
{
    return key[x] != key[y] ? key[x] > key[y] : x < y;
}

/* Sort a[0..n) heavier first (merge sort through tmp). */
static void sort_heavier(int64_t *a, int64_t *tmp, int64_t n, const double *key)
{
    for (int64_t w = 1; w < n; w *= 2) {
        for (int64_t lo = 0; lo < n; lo += 2 * w) {
            int64_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            int64_t i = lo, j = mid, o = lo;
            while (i < mid && j < hi) tmp[o++] = heavier(key, a[j], a[i]) ? a[j++] : a[i++];
            while (i < mid) tmp[o++] = a[i++];
            while (j < hi) tmp[o++] = a[j++];
        }
        memcpy(a, tmp, (size_t)n * sizeof *a);
    }
}

/* LPT of the candidates onto the parts; part_of[root] set when non-NULL.
 * Returns the most loaded part's flops. */
static double deal(mapper *m, int *part_of)
{
    memcpy(m->sorted, m->cand, (size_t)m->ncand * sizeof *m->sorted);
    sort_heavier(m->sorted, m->tmp, m->ncand, m->sub);
    for (int p = 0; p < m->parts; p++) m->load[p] = 0;
    for (int64_t i = 0; i < m->ncand; i++) {
        int best = 0;
        for (int p = 1; p < m->parts; p++)
            if (m->load[p] < m->load[best]) best = p;
        m->load[best] += m->sub[m->sorted[i]];
        if (part_of) part_of[m->sorted[i]] = best;
    }
    double worst = 0;
    for (int p = 0; p < m->parts; p++)
        if (m->load[p] > worst) worst = m->load[p];
    return worst;
}

/* Replace the heaviest splittable candidate by its children; its front
 * becomes top. Returns that front, or −1 when no candidate has children. */
static int64_t split_heaviest(mapper *m, char *top)
{
    int64_t best = -1;
    for (int64_t i = 0; i < m->ncand; i++) {
        int64_t f = m->cand[i];
        if (m->t->child_ptr[f] == m->t->child_ptr[f + 1]) continue;
        if (best < 0 || m->sub[f] > m->sub[m->cand[best]]) best = i;
    }
    if (best < 0) return -1;
    int64_t f = m->cand[best];
    top[f] = 1;
    m->cand[best] = m->cand[--m->ncand];
    for (int64_t c = m->t->child_ptr[f]; c < m->t->child_ptr[f + 1]; c++)
        m->cand[m->ncand++] = m->t->child_list[c];
    return f;
}

/* Roots as the first candidates, no front top. */
static void start(mapper *m, char *top)
{
    m->ncand = 0;
    memset(top, 0, (size_t)m->t->nfronts);
    for (int64_t f = 0; f < m->t->nfronts; f++)
        if (m->t->fronts[f].parent < 0) m->cand[m->ncand++] = f;
}

/* The split with the best makespan estimate: runs the splits, remembers
 * the best count, replays up to it and deals the subtrees. */
static void choose_split(mapper *m, char *top, int *root_part, double total)
{
    start(m, top);
    double top_flops = 0, worst = deal(m, NULL), best_est = worst, work = (double)m->ncand;
    int64_t best_splits = 0, limit = (int64_t)MAP_SPLITS_PER_PART * m->parts;
    for (int64_t s = 1; s <= limit && worst > MAP_BALANCED * (total - top_flops) / m->parts &&
                        work < MAP_WORK;
         s++) {
        int64_t f = split_heaviest(m, top);
        if (f < 0) break;
        top_flops += m->t->fronts[f].flops;
        worst = deal(m, NULL);
        work += (double)m->ncand;
        double est = worst + top_flops / m->parts;
        if (est < best_est) {
            best_est = est;
            best_splits = s;
        }
    }
    start(m, top);
    for (int64_t s = 0; s < best_splits; s++) split_heaviest(m, top);
    deal(m, root_part);
}

/* Subtree flops (CHOLMOD's trees put children before parents); returns
 * the total. */
static double subtree_flops(const sylva__tree *t, double *sub)
{
    double total = 0;
    for (int64_t f = 0; f < t->nfronts; f++) sub[f] = t->fronts[f].flops;
    for (int64_t f = 0; f < t->nfronts; f++) {
        total += t->fronts[f].flops;
        if (t->fronts[f].parent >= 0) sub[t->fronts[f].parent] += sub[f];
    }
    return total;
}

/* front_part from the split (top) and the candidate roots' parts:
 * downwards from the roots (parents come after their children, so walk
 * from the end). */
static void parts_down(const sylva__tree *t, const char *top, const int *root_part, int *front_part)
{
    for (int64_t f = t->nfronts - 1; f >= 0; f--) {
        int64_t p = t->fronts[f].parent;
        front_part[f] = top[f] ? -1 : (p >= 0 && !top[p]) ? front_part[p] : root_part[f];
    }
}

int sylva__tree_map(const sylva__tree *t, int parts, int *front_part)
{
    int64_t nf = t->nfronts;
    size_t nfs = (size_t)(nf ? nf : 1);
    if (parts < 1) parts = 1;
    double *sub = sylva__malloc(nfs, sizeof *sub);
    char *top = sylva__malloc(nfs, 1);
    int *root_part = sylva__malloc(nfs, sizeof *root_part);
    mapper m = {t, sub, parts, sylva__malloc(nfs, sizeof *m.cand), 0, sylva__malloc(nfs, sizeof *m.sorted),
                sylva__malloc(nfs, sizeof *m.tmp), sylva__calloc((size_t)parts, sizeof *m.load)};
    int status = SYLVA_OK;
    if (!sub || !top || !root_part || !m.cand || !m.sorted || !m.tmp || !m.load) {
        status = sylva__fail(SYLVA_ERR_NO_MEMORY, "out of memory mapping %lld fronts onto %d parts", (long long)nf,
                             parts);
    } else {
        choose_split(&m, top, root_part, subtree_flops(t, sub));
        parts_down(t, top, root_part, front_part);
    }
    free(sub);
    free(top);
    free(root_part);
    free(m.cand);
    free(m.sorted);
    free(m.tmp);
    free(m.load);
    return status;
}

int sylva__plan_map_build(const sylva__plan *pl, int parts, sylva__plan_map *map)
{
    const sylva__tree *t = pl->tree;
    int64_t nf = t->nfronts, ng = pl->ngroups;
    memset(map, 0, sizeof *map);
    map->parts = parts < 1 ? 1 : parts;
    size_t nfs = (size_t)(nf ? nf : 1), ngs = (size_t)(ng ? ng : 1), np = (size_t)map->parts;
    map->front_part = sylva__malloc(nfs, sizeof *map->front_part);
    map->group_part = sylva__malloc(ngs, sizeof *map->group_part);
    map->group_top = sylva__calloc(ngs, 1);
    map->part_flops = sylva__calloc(np, sizeof *map->part_flops);
    double *sub = sylva__malloc(nfs, sizeof *sub), *gflops = sylva__calloc(np, sizeof *gflops);
    int *owner = sylva__malloc(nfs, sizeof *owner); /* a front's part, or a top front's owner */
    int status = SYLVA_OK;
    if (!map->front_part || !map->group_part || !map->group_top || !map->part_flops || !sub || !gflops || !owner) {
        status = sylva__fail(SYLVA_ERR_NO_MEMORY, "out of memory mapping %lld groups onto %d parts",
                             (long long)ng, map->parts);
        goto done;
    }
    if ((status = sylva__tree_map(t, map->parts, map->front_part))) goto done;
    subtree_flops(t, sub);
    /* Top fronts upwards from their heaviest child. */
    for (int64_t f = 0; f < nf; f++) {
        if (map->front_part[f] >= 0) {
            owner[f] = map->front_part[f];
            continue;
        }
        int64_t heavy = -1;
        for (int64_t c = t->child_ptr[f]; c < t->child_ptr[f + 1]; c++)
            if (heavy < 0 || sub[t->child_list[c]] > sub[heavy]) heavy = t->child_list[c];
        owner[f] = heavy >= 0 ? owner[heavy] : 0;
    }
    for (int64_t g = 0; g < ng; g++) {
        memset(gflops, 0, np * sizeof *gflops);
        int first = map->front_part[pl->front_list[pl->group_ptr[g]]];
        for (int64_t q = pl->group_ptr[g]; q < pl->group_ptr[g + 1]; q++) {
            int64_t f = pl->front_list[q];
            if (map->front_part[f] < 0 || map->front_part[f] != first) map->group_top[g] = 1;
            gflops[owner[f]] += t->fronts[f].flops;
        }
        int best = 0;
        for (int p = 1; p < map->parts; p++)
            if (gflops[p] > gflops[best]) best = p;
        map->group_part[g] = best;
        if (map->group_top[g])
            map->top_flops += pl->group_flops[g];
        else
            map->part_flops[best] += pl->group_flops[g];
    }
done:
    free(sub);
    free(gflops);
    free(owner);
    if (status) sylva__plan_map_free(map);
    return status;
}

int sylva__groups_split_by_part(const sylva__tree *t, int parts, int64_t *order, int64_t *start, int64_t *ngroups)
{
    int64_t nf = t->nfronts, ng = *ngroups;
    size_t nfs = (size_t)(nf ? nf : 1);
    int *part = sylva__malloc(nfs, sizeof *part);
    int64_t *o2 = sylva__malloc(nfs, sizeof *o2), *s2 = sylva__malloc(nfs + 2, sizeof *s2);
    int status = part && o2 && s2 ? sylva__tree_map(t, parts, part)
                                  : sylva__fail(SYLVA_ERR_NO_MEMORY, "out of memory splitting groups by part");
    if (!status) {
        int64_t n2 = 0, pos = 0;
        for (int64_t g = 0; g < ng; g++)
            for (int p = 0; p <= parts; p++) { /* parts 0..parts−1, then the top (−1) */
                int want = p < parts ? p : -1;
                int64_t first = pos;
                for (int64_t q = start[g]; q < start[g + 1]; q++)
                    if (part[order[q]] == want) o2[pos++] = order[q];
                if (pos > first) s2[n2++] = first;
            }
        s2[n2] = pos;
        memcpy(order, o2, (size_t)pos * sizeof *order);
        memcpy(start, s2, (size_t)(n2 + 1) * sizeof *start);
        *ngroups = n2;
    }
    free(part);
    free(o2);
    free(s2);
    return status;
}

void sylva__plan_map_free(sylva__plan_map *map)
{
    if (!map) return;
    free(map->front_part);
    free(map->group_part);
    free(map->group_top);
    free(map->part_flops);
    memset(map, 0, sizeof *map);
}
