/* test_plan.c — every registered batching policy on generated and random
 * trees (a single front, chains, stars, forests, random trees with large
 * fronts mixed in) under several size and flop thresholds: the plan must be
 * built, and its contract is checked here independently of
 * sylva__plan_check (every front once, children first, large fronts alone,
 * dependency lists and CB slots naming the right groups, CB regions inside
 * their pools and disjoint, L offsets tiling the factor), and the group
 * order (the first front in postorder first among the ready groups), and the
 * CB arena of a run in plan order (pools alive at once disjoint). Then the checker
 * itself must refuse plans broken on purpose.
 *   test_plan [TREES]   (random trees per shape, default 40; seed printed)
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "batching.h"
#include "check.h"

#include "random_trees.h"

/* The contract, checked without sylva__plan_check. */
static void check_contract(const sylva__plan *pl, const sylva__policy_params *pp, const char *what)
{
    const sylva__tree *t = pl->tree;
    int64_t ns = t->nfronts, ng = pl->ngroups;
    int64_t *pos = malloc((size_t)ns * sizeof *pos), *grp = malloc((size_t)ns * sizeof *grp);
    for (int64_t f = 0; f < ns; f++) pos[f] = grp[f] = -1;
    CHECK(pl->group_ptr[0] == 0 && pl->group_ptr[ng] == ns, "%s: groups cover %lld of %lld", what,
          (long long)pl->group_ptr[ng], (long long)ns);
    int64_t loff = 0;
    for (int64_t g = 0; g < ng; g++) {
        int64_t cnt = pl->group_ptr[g + 1] - pl->group_ptr[g];
        CHECK(cnt >= 1, "%s: group %lld is empty", what, (long long)g);
        for (int64_t q = pl->group_ptr[g]; q < pl->group_ptr[g + 1]; q++) {
            int64_t f = pl->front_list[q];
            CHECK(pos[f] < 0, "%s: front %lld listed twice", what, (long long)f);
            pos[f] = q;
            grp[f] = g;
            if (t->fronts[f].m > pp->small_front_rows)
                CHECK(cnt == 1, "%s: large front %lld shares group %lld", what, (long long)f,
                      (long long)g);
            CHECK(pl->l_off[f] == loff, "%s: L offset of front %lld", what, (long long)f);
            loff += t->fronts[f].m * t->fronts[f].k;
        }
    }
    for (int64_t f = 0; f < ns; f++) {
        CHECK(pos[f] >= 0, "%s: front %lld missing", what, (long long)f);
        int64_t p = t->fronts[f].parent;
        if (p >= 0) CHECK(pos[f] < pos[p], "%s: front %lld after its parent", what, (long long)f);
    }
    /* Dependencies: exactly the groups of external children, with slots. */
    char *need = calloc((size_t)ng + 1, 1);
    for (int64_t g = 0; g < ng; g++) {
        memset(need, 0, (size_t)ng + 1);
        for (int64_t q = pl->group_ptr[g]; q < pl->group_ptr[g + 1]; q++) {
            int64_t f = pl->front_list[q];
            for (int64_t c = t->child_ptr[f]; c < t->child_ptr[f + 1]; c++) {
                int64_t ch = t->child_list[c];
                if (grp[ch] == g) {
                    CHECK(pl->cb_internal[ch], "%s: child %lld in the same group not internal", what,
                          (long long)ch);
                    continue;
                }
                need[grp[ch]] = 1;
                int64_t slot = pl->cb_slot[ch];
                CHECK(slot >= 0 && slot < pl->dep_ptr[g + 1] - pl->dep_ptr[g] &&
                          pl->dep_list[pl->dep_ptr[g] + slot] == grp[ch],
                      "%s: CB slot of front %lld", what, (long long)ch);
            }
        }
        int64_t nd = 0;
        for (int64_t c = 0; c < ng; c++) nd += need[c];
        CHECK(nd == pl->dep_ptr[g + 1] - pl->dep_ptr[g], "%s: group %lld reads %lld groups, lists %lld",
              what, (long long)g, (long long)nd, (long long)(pl->dep_ptr[g + 1] - pl->dep_ptr[g]));
        for (int64_t d = pl->dep_ptr[g]; d < pl->dep_ptr[g + 1]; d++)
            CHECK(need[pl->dep_list[d]], "%s: group %lld lists group %lld it does not read", what,
                  (long long)g, (long long)pl->dep_list[d]);
    }
    free(need);
    /* CB regions: inside the pool or scratch, disjoint (pairwise, small trees). */
    for (int64_t a = 0; a < ns; a++) {
        int64_t ra = t->fronts[a].m - t->fronts[a].k;
        if (ra == 0) continue;
        int64_t size = pl->cb_internal[a] ? pl->scratch_size[grp[a]] : pl->cb_size[grp[a]];
        CHECK(pl->cb_off[a] >= 0 && pl->cb_off[a] + ra * ra <= size, "%s: CB of %lld outside", what,
              (long long)a);
        for (int64_t b = a + 1; b < ns; b++) {
            int64_t rb = t->fronts[b].m - t->fronts[b].k;
            if (rb == 0 || grp[a] != grp[b] || pl->cb_internal[a] != pl->cb_internal[b]) continue;
            int disjoint = pl->cb_off[a] + ra * ra <= pl->cb_off[b] || pl->cb_off[b] + rb * rb <= pl->cb_off[a];
            CHECK(disjoint, "%s: CBs of %lld and %lld overlap", what, (long long)a, (long long)b);
        }
    }
    free(pos);
    free(grp);
}

/* The plan's group order (plan_order.c): every group, when it comes, is the
 * one with the first front in postorder among those whose child groups
 * have all come — so groups of single fronts come in postorder. */
static void check_order(const sylva__plan *pl, const char *what)
{
    const sylva__tree *t = pl->tree;
    int64_t ng = pl->ngroups;
    int64_t *key = malloc((size_t)(ng + 1) * sizeof *key);
    char *done = calloc((size_t)ng + 1, 1);
    for (int64_t g = 0; g < ng; g++) {
        key[g] = INT64_MAX;
        for (int64_t q = pl->group_ptr[g]; q < pl->group_ptr[g + 1]; q++)
            if (pl->front_list[q] < key[g]) key[g] = pl->front_list[q];
    }
    for (int64_t g = 0; g < ng; g++) {
        for (int64_t h = g + 1; h < ng; h++) {
            int ready = 1;
            for (int64_t q = pl->group_ptr[h]; q < pl->group_ptr[h + 1] && ready; q++) {
                int64_t f = pl->front_list[q];
                for (int64_t c = t->child_ptr[f]; c < t->child_ptr[f + 1]; c++) {
                    int64_t cg = pl->front_group[t->child_list[c]];
                    if (cg != h && !done[cg]) ready = 0;
                }
            }
            CHECK(!ready || key[h] > key[g], "%s: group %lld (first front %lld) was ready before group %lld "
                  "(first front %lld)", what, (long long)h, (long long)key[h], (long long)g, (long long)key[g]);
        }
        done[g] = 1;
    }
    if (pl->ngroups == t->nfronts)
        for (int64_t q = 0; q < t->nfronts; q++)
            CHECK(pl->front_list[q] == q, "%s: single-front groups not in postorder", what);
    free(key);
    free(done);
}

/* The checker must refuse broken plans: each mutation of a valid plan, one
 * at a time, then restored. */
static void check_checker(sylva__plan *pl, const sylva__policy_params *pp, const char *what)
{
    const sylva__tree *t = pl->tree;
    int64_t ns = t->nfronts;
    CHECK(sylva__plan_check(pl, pp) == SYLVA_OK, "%s: valid plan refused: %s", what, sylva_last_error());
    /* A child placed after its parent: swap a parent-child pair in the list. */
    for (int64_t q = 0; q < ns; q++) {
        int64_t f = pl->front_list[q], p = t->fronts[f].parent;
        if (p < 0) continue;
        int64_t qp = 0;
        while (pl->front_list[qp] != p) qp++;
        pl->front_list[q] = p;
        pl->front_list[qp] = f;
        CHECK(sylva__plan_check(pl, pp) == SYLVA_ERR_RUNTIME, "%s: child after parent accepted", what);
        pl->front_list[q] = f;
        pl->front_list[qp] = p;
        break;
    }
    /* A front listed twice. */
    if (ns >= 2) {
        int64_t keep = pl->front_list[1];
        pl->front_list[1] = pl->front_list[0];
        CHECK(sylva__plan_check(pl, pp) == SYLVA_ERR_RUNTIME, "%s: duplicate front accepted", what);
        pl->front_list[1] = keep;
    }
    /* A large front sharing its group: lower the threshold under a front of
     * a group with several fronts. */
    for (int64_t g = 0; g < pl->ngroups; g++)
        if (pl->group_ptr[g + 1] - pl->group_ptr[g] > 1) {
            sylva__policy_params low = *pp;
            low.small_front_rows = t->fronts[pl->front_list[pl->group_ptr[g]]].m - 1;
            CHECK(sylva__plan_check(pl, &low) == SYLVA_ERR_RUNTIME, "%s: shared large front accepted",
                  what);
            break;
        }
    /* A CB slot naming the wrong group, and overlapping CBs. */
    for (int64_t f = 0; f < ns; f++) {
        if (pl->cb_internal[f] || t->fronts[f].parent < 0) continue;
        int64_t keep = pl->cb_slot[f];
        pl->cb_slot[f] = keep + 1;
        CHECK(sylva__plan_check(pl, pp) == SYLVA_ERR_RUNTIME, "%s: bad CB slot accepted", what);
        pl->cb_slot[f] = keep;
        break;
    }
    for (int64_t a = 0; a < ns; a++) {
        if (t->fronts[a].m == t->fronts[a].k) continue;
        for (int64_t b = a + 1; b < ns; b++) {
            if (t->fronts[b].m == t->fronts[b].k || pl->front_group[a] != pl->front_group[b] ||
                pl->cb_internal[a] != pl->cb_internal[b])
                continue;
            int64_t keep = pl->cb_off[b];
            pl->cb_off[b] = pl->cb_off[a];
            CHECK(sylva__plan_check(pl, pp) == SYLVA_ERR_RUNTIME, "%s: overlapping CBs accepted", what);
            pl->cb_off[b] = keep;
            a = ns;
            break;
        }
    }
    CHECK(sylva__plan_check(pl, pp) == SYLVA_OK, "%s: restored plan refused", what);
}

/* The dynamic policy as a parallel run drives it: batches cut from the
 * ready pool, several in flight, ending in random order, each appended to a
 * grown plan; the finished plan must meet the contract, and so must the
 * checker's verdict. `workers`: batches in flight before a partial cut. */
static void check_grown(const sylva__tree *t, const sylva__policy_params *pp, int workers, const char *what)
{
    sylva__ready_pool *rp = NULL;
    sylva__plan *pl = NULL;
    CHECK(sylva__ready_pool_create(t, pp, &rp) == SYLVA_OK, "%s: pool", what);
    CHECK(sylva__plan_grow_create(t, "ready", pp, &pl) == SYLVA_OK, "%s: grown plan", what);
    int64_t ns = t->nfronts, *cut = malloc((size_t)ns * sizeof *cut), *flight = malloc((size_t)ns * sizeof *flight);
    int64_t nflight = 0, done = 0, n;
    while (done < ns) {
        while ((n = sylva__ready_pool_cut(rp, nflight < workers, cut)) > 0) {
            int64_t g = sylva__plan_grow_add(pl, cut, n, pp);
            CHECK(g >= 0, "%s: cut refused: %s", what, sylva_last_error());
            if (g < 0) break;
            flight[nflight++] = g;
        }
        CHECK(nflight > 0, "%s: stalled with %lld fronts left", what, (long long)(ns - done));
        if (nflight == 0) break;
        int64_t i = rnd(0, nflight - 1), g = flight[i];
        flight[i] = flight[--nflight];
        sylva__ready_pool_done(rp, pl->front_list + pl->group_ptr[g], pl->group_ptr[g + 1] - pl->group_ptr[g]);
        done += pl->group_ptr[g + 1] - pl->group_ptr[g];
    }
    CHECK(sylva__ready_pool_size(rp) == 0, "%s: fronts left in the pool", what);
    if (done == ns) {
        check_contract(pl, pp, what);
        CHECK(sylva__plan_check(pl, pp) == SYLVA_OK, "%s: grown plan refused: %s", what, sylva_last_error());
        /* No batch holds a front and its child (its parent is not ready). */
        for (int64_t f = 0; f < ns; f++)
            CHECK(!pl->cb_internal[f], "%s: front %lld shares a batch with its parent", what, (long long)f);
    }
    /* Ineligible cuts are refused: a front twice, a parent before its child. */
    sylva__plan *bad = NULL;
    sylva__plan_grow_create(t, "ready", pp, &bad);
    int64_t f0 = 0;
    CHECK(sylva__plan_grow_add(bad, &f0, 1, pp) == 0, "%s: leaf 0 refused", what); /* postorder: a leaf */
    CHECK(sylva__plan_grow_add(bad, &f0, 1, pp) < 0, "%s: front cut twice accepted", what);
    for (int64_t f = 0; f < ns; f++)
        if (t->child_ptr[f + 1] > t->child_ptr[f] && bad->front_group[t->child_list[t->child_ptr[f]]] < 0) {
            CHECK(sylva__plan_grow_add(bad, &f, 1, pp) < 0, "%s: parent before its child accepted", what);
            break;
        }
    sylva__plan_free(bad);
    sylva__plan_free(pl);
    sylva__ready_pool_free(rp);
    free(cut);
    free(flight);
}

/* The CB arena of a run in plan order (plan_arena.c): every pool inside
 * the arena, pools alive at once disjoint, and the arena between the most
 * alive at once and the sum of all pools. */
static void check_arena(const sylva__plan *pl, const char *what)
{
    int64_t ng = pl->ngroups, total = -1, sum = 0;
    int64_t *off = calloc((size_t)ng + 1, sizeof *off), *last = calloc((size_t)ng + 1, sizeof *last);
    int64_t *size = calloc((size_t)ng + 1, sizeof *size);
    for (int64_t g = 0; g < ng; g++) {
        /* Pools of other sizes than the plan's (the GPU rounds them up). */
        size[g] = pl->cb_size[g] > 0 ? pl->cb_size[g] + (g % 3) : 0;
        sum += size[g];
        last[g] = g;
    }
    CHECK(sylva__plan_cb_arena(pl, size, off, &total) == SYLVA_OK, "%s: arena: %s", what, sylva_last_error());
    for (int64_t g = 0; g < ng; g++)
        for (int64_t d = pl->dep_ptr[g]; d < pl->dep_ptr[g + 1]; d++)
            if (g > last[pl->dep_list[d]]) last[pl->dep_list[d]] = g;
    int64_t peak = 0;
    for (int64_t g = 0; g < ng; g++) {
        int64_t alive = 0;
        for (int64_t c = 0; c <= g; c++) {
            if (!size[c] || last[c] < g) continue;
            alive += size[c];
            CHECK(off[c] >= 0 && off[c] + size[c] <= total, "%s: pool %lld at %lld+%lld outside %lld", what,
                  (long long)c, (long long)off[c], (long long)size[c], (long long)total);
            for (int64_t e = 0; e < c; e++)
                if (size[e] && last[e] >= g)
                    CHECK(off[e] + size[e] <= off[c] || off[c] + size[c] <= off[e],
                          "%s: pools %lld and %lld overlap while group %lld runs", what, (long long)e,
                          (long long)c, (long long)g);
        }
        if (alive > peak) peak = alive;
    }
    CHECK(total >= peak && total <= sum, "%s: arena %lld, peak alive %lld, sum %lld", what, (long long)total,
          (long long)peak, (long long)sum);

    /* With runs (random eligible groups, a small budget): the plan-order
     * property still holds, runs are the maximal stretches of eligible
     * groups cut only where the budget says, and inside a run every pool
     * taken there is disjoint from every other pool the run touches. */
    char *elig = calloc((size_t)ng + 1, 1);
    int64_t *run = calloc((size_t)ng + 1, sizeof *run);
    for (int64_t g = 0; g < ng; g++) elig[g] = rnd(0, 3) > 0;
    int64_t budget = rnd(0, 2) ? sum : sum / 4, maxrun = -1;
    CHECK(sylva__plan_cb_arena_runs(pl, size, elig, budget, run, off, &total) == SYLVA_OK, "%s: runs: %s", what,
          sylva_last_error());
    for (int64_t g = 0; g < ng; g++) {
        CHECK((run[g] >= 0) == (elig[g] != 0), "%s: group %lld eligible %d in run %lld", what, (long long)g,
              elig[g], (long long)run[g]);
        if (run[g] >= 0) {
            /* A run goes on (or is cut by the budget) or a new one opens. */
            int ok = g > 0 && run[g - 1] >= 0 ? run[g] == run[g - 1] || run[g] == run[g - 1] + 1
                                              : run[g] == maxrun + 1;
            CHECK(ok, "%s: run %lld out of order at group %lld", what, (long long)run[g], (long long)g);
            if (run[g] > maxrun) maxrun = run[g];
        }
        if (!size[g]) continue;
        CHECK(off[g] >= 0 && off[g] + size[g] <= total, "%s: runs: pool %lld outside the arena", what, (long long)g);
        /* Plan order: pools alive at once disjoint. */
        for (int64_t e = 0; e < g; e++)
            if (size[e] && last[e] >= g)
                CHECK(off[e] + size[e] <= off[g] || off[g] + size[g] <= off[e],
                      "%s: runs: pools %lld and %lld overlap while group %lld runs", what, (long long)e, (long long)g,
                      (long long)g);
        if (run[g] < 0) continue;
        /* Every pool the run of g touches (its owner or a reader in the
         * run) is disjoint from g's. */
        for (int64_t e = 0; e < ng; e++) {
            if (e == g || !size[e]) continue;
            int touched = run[e] == run[g];
            for (int64_t r = 0; r < ng && !touched; r++)
                if (run[r] == run[g])
                    for (int64_t d = pl->dep_ptr[r]; d < pl->dep_ptr[r + 1]; d++)
                        if (pl->dep_list[d] == e) touched = 1;
            if (touched)
                CHECK(off[e] + size[e] <= off[g] || off[g] + size[g] <= off[e],
                      "%s: runs: pool %lld, taken in run %lld, overlaps pool %lld that the run touches", what,
                      (long long)g, (long long)run[g], (long long)e);
        }
    }
    free(elig);
    free(run);
    free(off);
    free(last);
    free(size);
}

int main(int argc, char **argv)
{
    int trees = argc > 1 ? atoi(argv[1]) : 40;
    const char *s = getenv("SYLVA_TEST_SEED");
    rng = s ? strtoull(s, NULL, 10) : (uint64_t)time(NULL) * 2654435761u + 1;
    printf("seed %llu (set SYLVA_TEST_SEED to repeat)\n", (unsigned long long)rng);
    const sylva__policy_params params[] = {{256, 0, 1}, {256, 2e3, 1}, {16, 1e5, 1}, {64, 1e300, 1}, {1, 0, 1}};
    int npol = 0;
    for (int sh = 0; sh < 6; sh++)
        for (int r = 0; r < (sh == 0 ? 1 : trees); r++) {
            sylva__tree *t = shape_tree(sh, rnd(2, 60));
            for (int i = 0; sylva__policy_at(i); i++) {
                const sylva__policy *pol = sylva__policy_at(i);
                npol = i + 1;
                for (size_t q = 0; q < sizeof params / sizeof params[0]; q++) {
                    char what[96];
                    snprintf(what, sizeof what, "%s, shape %d tree %d, small %lld flops %g", pol->name,
                             sh, r, (long long)params[q].small_front_rows, params[q].batch_flops);
                    sylva__plan *pl = NULL;
                    int st = sylva__plan_build(t, pol->name, &params[q], &pl);
                    CHECK(st == SYLVA_OK, "%s: %s", what, sylva_last_error());
                    if (st) continue;
                    check_contract(pl, &params[q], what);
                    check_order(pl, what);
                    check_arena(pl, what);
                    check_checker(pl, &params[q], what);
                    sylva__plan_free(pl);
                }
            }
            for (size_t q = 0; q < sizeof params / sizeof params[0]; q++)
                for (int w = 1; w <= 8; w *= 2) {
                    char what[96];
                    snprintf(what, sizeof what, "ready grown, shape %d tree %d, small %lld flops %g, %d workers",
                             sh, r, (long long)params[q].small_front_rows, params[q].batch_flops, w);
                    check_grown(t, &params[q], w, what);
                }
            free_tree(t);
        }
    CHECK(npol >= 5, "only %d policies registered", npol);
    CHECK(sylva__policy_is_dynamic("ready") && !sylva__policy_is_dynamic("level"), "dynamic flags");
    /* A raw grouping that skips a front, or lists an empty group. */
    sylva__tree *t = shape_tree(1, 4);
    int64_t order[4] = {0, 1, 2, 3}, start_missing[3] = {0, 2, 3}, start_empty[4] = {0, 2, 2, 4};
    sylva__policy_params pp = {256, 0, 1};
    CHECK(sylva__plan_check_grouping(t, "test", order, start_missing, 2, &pp) == SYLVA_ERR_RUNTIME,
          "a grouping without front 3 accepted");
    CHECK(sylva__plan_check_grouping(t, "test", order, start_empty, 3, &pp) == SYLVA_ERR_RUNTIME,
          "an empty group accepted");
    int64_t reversed[4] = {3, 2, 1, 0}, start_one[2] = {0, 4};
    CHECK(sylva__plan_check_grouping(t, "test", reversed, start_one, 1, &pp) == SYLVA_ERR_RUNTIME,
          "parents before children accepted");
    free_tree(t);
    return test_exit("test_plan");
}
