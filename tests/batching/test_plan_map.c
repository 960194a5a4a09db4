/* test_plan_map.c — the plan's groups mapped onto parts (batching/plan_map.c)
 * on random and degenerate trees, every static policy, 1 to 7 parts,
 * against the contract checked here independently: every part in range;
 * top fronts closed upwards (a top front's parent is top); a front below
 * the split has its parent's part, or heads a subtree of its own when its
 * parent is top; one part maps nothing top; a group is top exactly when it
 * holds a top front or fronts of two parts, and a group below the split
 * belongs to its fronts' part; a single-front top group belongs to the
 * owner of its heaviest child's subtree; the flops add up; the subtrees
 * are dealt within the LPT bound (no part above the mean plus the heaviest
 * subtree); two equal subtrees per part balance exactly; the result is
 * deterministic. A plan built for the parts (params.parts) passes the plan
 * contract, holds the same fronts, and has no group mixing two parts or a
 * part and the top.
 *   test_plan_map [TREES]   (random trees per shape, default 40)
 */
#include <math.h>
#include <string.h>
#include <time.h>

#include "batching.h"
#include "check.h"
#include "random_trees.h"

/* Owner of front f as the contract defines it: its part, or for a top
 * front its heaviest child's owner (0 for a top leaf, which cannot be). */
static int owner_of(const sylva__tree *t, const sylva__plan_map *mp, const double *sub, int64_t f)
{
    while (mp->front_part[f] < 0) {
        int64_t heavy = -1;
        for (int64_t c = t->child_ptr[f]; c < t->child_ptr[f + 1]; c++) {
            int64_t ch = t->child_list[c];
            if (heavy < 0 || sub[ch] > sub[heavy]) heavy = ch;
        }
        if (heavy < 0) return 0;
        f = heavy;
    }
    return mp->front_part[f];
}

static void check_map(const sylva__plan *pl, const sylva__plan_map *mp, int parts, const char *what)
{
    const sylva__tree *t = pl->tree;
    int64_t nf = t->nfronts;
    CHECK(mp->parts == parts, "%s: %d parts, asked %d", what, mp->parts, parts);
    double *sub = calloc((size_t)nf + 1, sizeof *sub), *load = calloc((size_t)parts, sizeof *load);
    double total = 0, heaviest = 0, top_flops = 0;
    for (int64_t f = 0; f < nf; f++) {
        sub[f] += t->fronts[f].flops;
        if (t->fronts[f].parent >= 0) sub[t->fronts[f].parent] += sub[f];
        total += t->fronts[f].flops;
    }
    for (int64_t f = 0; f < nf; f++) {
        int p = mp->front_part[f];
        int64_t par = t->fronts[f].parent;
        CHECK(p >= -1 && p < parts, "%s: front %lld part %d", what, (long long)f, p);
        CHECK(parts > 1 || p == 0, "%s: one part, front %lld part %d", what, (long long)f, p);
        if (p < 0) {
            CHECK(par < 0 || mp->front_part[par] < 0, "%s: top front %lld under front %lld of part %d", what,
                  (long long)f, (long long)par, mp->front_part[par]);
            CHECK(t->child_ptr[f] < t->child_ptr[f + 1], "%s: top front %lld is a leaf", what, (long long)f);
            top_flops += t->fronts[f].flops;
        } else if (par >= 0 && mp->front_part[par] >= 0) {
            CHECK(mp->front_part[par] == p, "%s: front %lld of part %d under front %lld of part %d", what,
                  (long long)f, p, (long long)par, mp->front_part[par]);
        } else { /* heads a subtree */
            load[p] += sub[f];
            if (sub[f] > heaviest) heaviest = sub[f];
        }
    }
    double gtop = 0, gpart = 0;
    for (int64_t g = 0; g < pl->ngroups; g++) {
        int first = mp->front_part[pl->front_list[pl->group_ptr[g]]], mixed = 0;
        for (int64_t q = pl->group_ptr[g]; q < pl->group_ptr[g + 1]; q++) {
            int p = mp->front_part[pl->front_list[q]];
            if (p < 0 || p != first) mixed = 1;
        }
        CHECK(mp->group_part[g] >= 0 && mp->group_part[g] < parts, "%s: group %lld part %d", what, (long long)g,
              mp->group_part[g]);
        CHECK(mp->group_top[g] == mixed, "%s: group %lld top %d, fronts say %d", what, (long long)g,
              mp->group_top[g], mixed);
        if (!mixed)
            CHECK(mp->group_part[g] == first, "%s: group %lld of part %d, its fronts of %d", what, (long long)g,
                  mp->group_part[g], first);
        if (mixed && pl->group_ptr[g + 1] - pl->group_ptr[g] == 1) {
            int64_t f = pl->front_list[pl->group_ptr[g]];
            CHECK(mp->group_part[g] == owner_of(t, mp, sub, f), "%s: top group %lld on part %d, owner %d", what,
                  (long long)g, mp->group_part[g], owner_of(t, mp, sub, f));
        }
        if (mixed)
            gtop += pl->group_flops[g];
        else
            gpart += pl->group_flops[g];
    }
    double sum = mp->top_flops;
    for (int p = 0; p < parts; p++) {
        sum += mp->part_flops[p];
        CHECK(load[p] <= (total - top_flops) / parts + heaviest + 1e-9 * total,
              "%s: part %d holds %.6g flops, over the LPT bound %.6g", what, p, load[p],
              (total - top_flops) / parts + heaviest);
    }
    CHECK(fabs(mp->top_flops - gtop) <= 1e-12 * total && fabs(sum - gtop - gpart) <= 1e-12 * total,
          "%s: flops %.6g + %.6g, groups %.6g + %.6g", what, mp->top_flops, sum - mp->top_flops, gtop, gpart);
    free(sub);
    free(load);
}

/* Two equal chains per part under one root: the root alone is top and
 * every part gets exactly two chains. */
static void check_balanced(const sylva__policy_params *pp)
{
    for (int parts = 2; parts <= 4; parts++) {
        int64_t chains = 2 * parts, len = 3, ns = chains * len + 1;
        int64_t *parent = malloc((size_t)ns * sizeof *parent), *m = malloc((size_t)ns * sizeof *m),
                *k = malloc((size_t)ns * sizeof *k);
        for (int64_t f = 0; f < ns; f++) {
            parent[f] = f == ns - 1 ? -1 : (f % len == len - 1) ? ns - 1 : f + 1;
            k[f] = 4;
            m[f] = f == ns - 1 ? 8 : 12;
        }
        sylva__tree *t = make_tree(ns, parent, m, k);
        sylva__plan *pl = NULL;
        CHECK(sylva__plan_build(t, "none", pp, &pl) == SYLVA_OK, "balanced tree: plan");
        sylva__plan_map mp;
        CHECK(sylva__plan_map_build(pl, parts, &mp) == SYLVA_OK, "balanced tree: map");
        check_map(pl, &mp, parts, "balanced tree");
        CHECK(mp.front_part[ns - 1] == -1, "balanced tree: root part %d", mp.front_part[ns - 1]);
        for (int p = 1; p < parts; p++)
            CHECK(mp.part_flops[p] == mp.part_flops[0], "balanced tree, %d parts: part %d %.6g, part 0 %.6g", parts,
                  p, mp.part_flops[p], mp.part_flops[0]);
        sylva__plan_map_free(&mp);
        sylva__plan_free(pl);
        free_tree(t);
        free(parent);
        free(m);
        free(k);
    }
}

int main(int argc, char **argv)
{
    int trees = argc > 1 ? atoi(argv[1]) : 40;
    rng = (uint64_t)time(NULL) | 1;
    printf("seed %llu\n", (unsigned long long)rng);
    sylva__policy_params pp = {256, 2e3, 1};
    const int parts_list[] = {1, 2, 3, 4, 7};
    for (int sh = 0; sh < 6; sh++)
        for (int r = 0; r < trees; r++) {
            sylva__tree *t = shape_tree(sh, rnd(2, 200));
            for (int i = 0; sylva__policy_at(i); i++) {
                const sylva__policy *pol = sylva__policy_at(i);
                if (pol->dynamic) continue;
                sylva__plan *pl = NULL;
                CHECK(sylva__plan_build(t, pol->name, &pp, &pl) == SYLVA_OK, "plan %s", pol->name);
                if (!pl) continue;
                for (size_t q = 0; q < sizeof parts_list / sizeof *parts_list; q++) {
                    char what[96];
                    snprintf(what, sizeof what, "shape %d tree %d policy %s parts %d", sh, r, pol->name,
                             parts_list[q]);
                    sylva__plan_map a, b;
                    CHECK(sylva__plan_map_build(pl, parts_list[q], &a) == SYLVA_OK, "%s: map", what);
                    CHECK(sylva__plan_map_build(pl, parts_list[q], &b) == SYLVA_OK, "%s: map again", what);
                    check_map(pl, &a, parts_list[q], what);
                    CHECK(!memcmp(a.front_part, b.front_part, (size_t)t->nfronts * sizeof *a.front_part) &&
                              !memcmp(a.group_part, b.group_part, (size_t)pl->ngroups * sizeof *a.group_part),
                          "%s: two maps differ", what);
                    sylva__plan_map_free(&a);
                    sylva__plan_map_free(&b);
                    /* The plan built for these parts. */
                    sylva__policy_params pq = pp;
                    pq.parts = parts_list[q];
                    sylva__plan *ps = NULL;
                    CHECK(sylva__plan_build(t, pol->name, &pq, &ps) == SYLVA_OK, "%s: plan for the parts: %s", what,
                          sylva_last_error());
                    if (!ps) continue;
                    CHECK(ps->ngroups >= pl->ngroups, "%s: %lld groups for the parts, %lld without", what,
                          (long long)ps->ngroups, (long long)pl->ngroups);
                    sylva__plan_map c;
                    CHECK(sylva__plan_map_build(ps, parts_list[q], &c) == SYLVA_OK, "%s: map of the split plan", what);
                    check_map(ps, &c, parts_list[q], what);
                    for (int64_t g = 0; g < ps->ngroups; g++) {
                        int p0 = c.front_part[ps->front_list[ps->group_ptr[g]]];
                        for (int64_t x = ps->group_ptr[g]; x < ps->group_ptr[g + 1]; x++)
                            CHECK(c.front_part[ps->front_list[x]] == p0, "%s: split group %lld holds parts %d and %d",
                                  what, (long long)g, p0, c.front_part[ps->front_list[x]]);
                    }
                    sylva__plan_map_free(&c);
                    sylva__plan_free(ps);
                }
                sylva__plan_free(pl);
            }
            free_tree(t);
        }
    check_balanced(&pp);
    return test_exit("test_plan_map");
}
