/* solve_items.c — cuts every front's share of the triangular solves into
 * the items of gpu_solve.h and lists them in the order the GPU's blocks
 * take them. Each item gets an estimated start, in steps of one item's
 * time, from what it needs: forward, a front starts when its children are
 * done, its triangle block b one step after block b − 1, an update item
 * with the last triangle block of its pivots (it takes the blocks as they
 * finish); backward, a front starts when its parent is done, its
 * updates at once, its triangle blocks from the last up after them. Items
 * are listed by estimated start (ties in front order), so every item comes
 * after everything it needs (which starts earlier, or at the same step
 * and earlier in front order: a forward update after its last triangle
 * block), and the
 * fronts of a level run their triangle chains side by side instead of one
 * front's updates taking every block while they wait for its chain (front
 * by front, lap3d7:100's solve took 41 ms). The top of the tree
 * (SYLVA_SOLVE_TOP, gpu_solve.h) is a phase of its own, listed after the
 * bottom forward and before it backward (each phase its own launch), its
 * triangle items SYLVA_SOLVE_TOP_TB rows. Small leaves go several to a
 * LEAF item (SYLVA_SOLVE_LEAF), which starts at once forward and after its
 * leaves' parents backward; SYLVA_SOLVE_FOLD moves the fold threshold
 * down for measurements. Called twice per pattern by
 * runtime/gpu_solve_plan.c (count, then fill); fails on memory or when
 * counts pass the encoding's limits.
 */
#include <limits.h>
#include <stdlib.h>

#include "core.h"
#include "gpu_solve.h"

static int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

typedef struct item {
    int phase;     /* forward: 1 for the top; backward: 1 for the bottom (listed after the other) */
    int64_t start; /* estimated start, in item steps */
    int seq;       /* position in front order: ties keep it */
    int rec, code;
} item;

static int by_start(const void *x, const void *y)
{
    const item *a = x, *b = y;
    if (a->phase != b->phase) return a->phase < b->phase ? -1 : 1;
    if (a->start != b->start) return a->start < b->start ? -1 : 1;
    return (a->seq > b->seq) - (a->seq < b->seq);
}

static void put(item *list, int64_t *count, int phase, int64_t start, int rec, int kind, int64_t index)
{
    list[*count] = (item){phase, start, (int)*count, rec, SYLVA_SOLVE_ITEM(kind, (int)index)};
    ++*count;
}

/* Sort by estimated start and write the (front, code) pairs. */
static void emit(item *list, int64_t count, int *out)
{
    qsort(list, (size_t)count, sizeof *list, by_start);
    for (int64_t q = 0; q < count; q++) {
        out[2 * q] = list[q].rec;
        out[2 * q + 1] = list[q].code;
    }
}

/* SYLVA_SOLVE_TOP from the environment (pivots, ≥ 0; 0: no top), else the
 * default; read at each call (once per analysis). */
static int top_pivots(void)
{
    const char *e = getenv("SYLVA_SOLVE_TOP");
    long v = e && *e ? strtol(e, NULL, 10) : SYLVA_SOLVE_TOP_DEFAULT;
    return v < 0 ? SYLVA_SOLVE_TOP_DEFAULT : v > INT_MAX ? INT_MAX : (int)v;
}

/* SYLVA_SOLVE_LEAF from the environment (leaves an item, ≥ 0; 0 or 1: a
 * FOLD item each), else the default; read at each call. */
static int leaf_group(void)
{
    const char *e = getenv("SYLVA_SOLVE_LEAF");
    long v = e && *e ? strtol(e, NULL, 10) : SYLVA_SOLVE_LEAF_DEFAULT;
    return v < 0 ? SYLVA_SOLVE_LEAF_DEFAULT : v > SYLVA_SOLVE_LEAF_MAX ? SYLVA_SOLVE_LEAF_MAX : (int)v;
}

/* Cuts the small leaves into LEAF items (gpu_solve.h): lead[i] is the
 * number of leaves of the item that record i heads, 0 for a record that
 * is not a grouped leaf, −1 for one that follows its item's head. A group
 * is a run of consecutive records, each a leaf of at most LEAF_M rows and
 * LEAF_K pivots. */
static void mark_leaves(int F, const int *m, const int *k, const int *parent, int group, int *lead)
{
    for (int i = 0; i < F; i++) lead[i] = 1;
    for (int i = 0; i < F; i++)
        if (parent[i] >= 0) lead[parent[i]] = 0; /* has a child */
    for (int i = 0; i < F; i++) lead[i] = lead[i] && m[i] <= SYLVA_SOLVE_LEAF_M && k[i] <= SYLVA_SOLVE_LEAF_K;
    if (group < 2) {
        for (int i = 0; i < F; i++) lead[i] = 0;
        return;
    }
    for (int i = 0; i < F;) {
        if (!lead[i]) {
            i++;
            continue;
        }
        int j = i + 1;
        while (j < F && j - i < group && lead[j]) lead[j++] = -1;
        lead[i] = j - i;
        i = j;
    }
}

/* SYLVA_SOLVE_FOLD from the environment (pivots: fronts of more are split
 * even under FOLD_R CB rows; LEAF_K to FOLD_K, the default), read at each
 * call: an experiment (docs/perf-log.md v21). */
static int fold_pivots(void)
{
    const char *e = getenv("SYLVA_SOLVE_FOLD");
    long v = e && *e ? strtol(e, NULL, 10) : SYLVA_SOLVE_FOLD_K;
    return v < SYLVA_SOLVE_LEAF_K ? SYLVA_SOLVE_LEAF_K : v > SYLVA_SOLVE_FOLD_K ? SYLVA_SOLVE_FOLD_K : (int)v;
}

/* Marks the top of the tree in top[F] (records children first): the fronts
 * of at least `least` pivots that are split, and their ancestors (closed
 * upwards, so that the bottom, closed downwards, runs whole before the top
 * forward and after it backward). */
static void mark_top(int F, const int *m, const int *k, const int *parent, int least, int fold, char *top)
{
    for (int i = 0; i < F; i++) top[i] = 0;
    for (int i = 0; i < F; i++) {
        const int split = k[i] > fold || (int64_t)m[i] - k[i] > SYLVA_SOLVE_FOLD_R;
        if (least > 0 && split && k[i] >= least) top[i] = 1;
        if (top[i] && parent[i] >= 0) top[parent[i]] = 1;
    }
}

int sylva__solve_items(int F, const int *m, const int *k, const int *parent, int *nt, int *nuf, int *nub,
                       int *fitems, int *bitems, int *nitems_f, int *nitems_b, int *ntop_f, int *ntop_b)
{
    int64_t nf = 0, nb = 0, tf = 0, tb = 0;
    char *top = sylva__malloc((size_t)F + 1, 1);
    int *lead = sylva__malloc((size_t)F + 1, sizeof *lead);
    if (!top || !lead) {
        free(top);
        free(lead);
        return SYLVA_ERR_NO_MEMORY;
    }
    const int fold_k = fold_pivots();
    mark_top(F, m, k, parent, top_pivots(), fold_k, top);
    mark_leaves(F, m, k, parent, leaf_group(), lead);
    for (int i = 0; i < F; i++) {
        int64_t r = (int64_t)m[i] - k[i];
        if (k[i] <= fold_k && r <= SYLVA_SOLVE_FOLD_R) {
            nt[i] = nuf[i] = nub[i] = 0;
        } else {
            int64_t t = ceil_div(k[i], top[i] ? SYLVA_SOLVE_TOP_TB : SYLVA_SOLVE_TB);
            int64_t uf = ceil_div(r, SYLVA_SOLVE_UR) * ceil_div(k[i], SYLVA_SOLVE_UK);
            int64_t ub = ceil_div(k[i], SYLVA_SOLVE_BK) * ceil_div(r, SYLVA_SOLVE_BR);
            if (t > 0xffffff || uf > 0xffffff || ub > 0xffffff) {
                free(top);
                free(lead);
                return sylva__fail(SYLVA_ERR_UNSUPPORTED, "GPU solve: a front of %d rows and %d pivots needs "
                                   "more than 2^24 items", m[i], k[i]);
            }
            nt[i] = (int)t, nuf[i] = (int)uf, nub[i] = (int)ub;
        }
        const int fold = nt[i] == 0 && lead[i] >= 0; /* its own item, or heads a LEAF item */
        nf += nt[i] + nuf[i] + fold;
        nb += nt[i] + nub[i] + fold;
        if (top[i]) tf += nt[i] + nuf[i] + fold, tb += nt[i] + nub[i] + fold;
        if (nf > INT_MAX / 2 || nb > INT_MAX / 2) {
            free(top);
            free(lead);
            return sylva__fail(SYLVA_ERR_UNSUPPORTED, "GPU solve: more than %d items", INT_MAX / 2);
        }
    }
    *nitems_f = (int)nf;
    *nitems_b = (int)nb;
    *ntop_f = (int)tf;
    *ntop_b = (int)tb;
    int64_t most = nf > nb ? nf : nb;
    item *list = fitems ? sylva__malloc((size_t)most + 1, sizeof *list) : NULL;
    int64_t *start = fitems ? sylva__calloc((size_t)F + 1, sizeof *start) : NULL;
    if (!fitems || !list || !start) {
        free(list);
        free(start);
        free(top);
        free(lead);
        return fitems ? SYLVA_ERR_NO_MEMORY : SYLVA_OK;
    }
    /* Forward: records come children first, so a front's start is final
     * when its turn comes. */
    int64_t count = 0;
    for (int i = 0; i < F; i++) {
        const int ph = top[i], tbi = top[i] ? SYLVA_SOLVE_TOP_TB : SYLVA_SOLVE_TB;
        int64_t s = start[i], done;
        if (lead[i] != 0) { /* a grouped leaf: starts at once */
            if (lead[i] > 0) put(list, &count, ph, s, i, SYLVA_SOLVE_LEAF, lead[i]);
            done = s + 1;
        } else if (nt[i] == 0) {
            put(list, &count, ph, s, i, SYLVA_SOLVE_FOLD, 0);
            done = s + 1;
        } else {
            for (int b = 0; b < nt[i]; b++) put(list, &count, ph, s + b, i, SYLVA_SOLVE_TRI, b);
            /* An update item takes its pivots' triangle blocks as they
             * finish: listed with the last of them. */
            int64_t nku = ceil_div(k[i], SYLVA_SOLVE_UK), nru = nuf[i] / nku;
            for (int64_t pc = 0; pc < nku; pc++) {
                int64_t j1 = (pc + 1) * SYLVA_SOLVE_UK < k[i] ? (pc + 1) * SYLVA_SOLVE_UK : k[i];
                for (int64_t rc = 0; rc < nru; rc++)
                    put(list, &count, ph, s + ceil_div(j1, tbi) - 1, i, SYLVA_SOLVE_UPD, rc * nku + pc);
            }
            done = s + nt[i] + 1;
        }
        /* The top's launch begins when the bottom's has ended: a top front
         * over the bottom starts at 0. */
        if (parent[i] >= 0 && top[parent[i]] == top[i] && start[parent[i]] < done) start[parent[i]] = done;
    }
    emit(list, count, fitems);
    /* Backward: parents first; start[i] becomes the front's finish. The
     * bottom's launch begins when the top's has ended, so a bottom front
     * under the top starts at 0: counted from its top parent's finish, the
     * bottom's list ran subtree by subtree, each subtree's middle chains
     * alone at its turn with ~1,000 blocks waiting on them (lap3d7:60's
     * backward bottom 1,073 µs against 428 forward, docs/perf-log.md v12). */
    count = 0;
    int64_t latest = 0; /* a LEAF item's start: its leaves' latest (visited from its last record down) */
    for (int i = F - 1; i >= 0; i--) {
        const int ph = !top[i];
        int64_t s = parent[i] >= 0 && top[parent[i]] == top[i] ? start[parent[i]] : 0;
        if (lead[i] != 0) {
            latest = s > latest ? s : latest;
            if (lead[i] > 0) {
                put(list, &count, ph, latest, i, SYLVA_SOLVE_LEAF, lead[i]);
                latest = 0;
            }
            start[i] = s + 1;
        } else if (nt[i] == 0) {
            put(list, &count, ph, s, i, SYLVA_SOLVE_FOLD, 0);
            start[i] = s + 1;
        } else if (!top[i] || nub[i] == 0) {
            for (int u = 0; u < nub[i]; u++) put(list, &count, ph, s, i, SYLVA_SOLVE_UPD, u);
            for (int b = nt[i] - 1; b >= 0; b--) put(list, &count, ph, s + nt[i] - b, i, SYLVA_SOLVE_TRI, b);
            start[i] = s + nt[i] + 1;
        } else {
            /* A top front (gpu_solve.h): its update items by pivot chunk
             * (BK pivots, every CB row chunk), the last pivots' first,
             * each listed one step before the triangle item of its pivots,
             * which waits for its own pivots' chunks only
             * (gpu_solve_flow.cu). */
            const int64_t nbk = ceil_div(k[i], SYLVA_SOLVE_BK), nbr = nub[i] / nbk;
            for (int64_t jc = nbk - 1; jc >= 0; jc--)
                for (int64_t rc = 0; rc < nbr; rc++)
                    put(list, &count, ph, s + nt[i] - 1 - jc * SYLVA_SOLVE_BK / SYLVA_SOLVE_TOP_TB, i, SYLVA_SOLVE_UPD,
                        (int)(jc * nbr + rc));
            for (int b = nt[i] - 1; b >= 0; b--) put(list, &count, ph, s + nt[i] - b, i, SYLVA_SOLVE_TRI, b);
            start[i] = s + nt[i] + 1;
        }
    }
    emit(list, count, bitems);
    free(list);
    free(start);
    free(top);
    free(lead);
    return SYLVA_OK;
}
