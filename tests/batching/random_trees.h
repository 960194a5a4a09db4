/* random_trees.h — the batching tests' trees: postorder trees from a
 * parent array (children lists, heights and flops as frontal/ computes
 * them) and six shapes (a single front, chains, stars, forests of small
 * trees, random trees and random forests) with sizes growing toward the
 * roots and some fronts above the default large threshold, drawn from a
 * seeded xorshift generator (rng, set by the test). Header-only. */
#ifndef SYLVA_TESTS_RANDOM_TREES_H
#define SYLVA_TESTS_RANDOM_TREES_H

#include <stdlib.h>

#include "frontal.h"

static uint64_t rng;
static int64_t rnd(int64_t lo, int64_t hi)
{
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return lo + (int64_t)((rng * 2685821657736338717ull) % (uint64_t)(hi - lo + 1));
}

/* A tree in postorder from parent[] (parent[f] > f or −1) and front sizes:
 * children lists, heights and flops as frontal/ computes them. */
static sylva__tree *make_tree(int64_t ns, const int64_t *parent, const int64_t *m, const int64_t *k)
{
    sylva__tree *t = calloc(1, sizeof *t);
    t->nfronts = ns;
    t->fronts = calloc((size_t)ns + 1, sizeof *t->fronts);
    t->child_ptr = calloc((size_t)ns + 2, sizeof *t->child_ptr);
    t->child_list = calloc((size_t)ns + 1, sizeof *t->child_list);
    for (int64_t f = 0; f < ns; f++) {
        sylva__front *fr = &t->fronts[f];
        fr->m = m[f];
        fr->k = k[f];
        fr->parent = parent[f];
        fr->flops = 0;
        for (int64_t c = 0; c < k[f]; c++) fr->flops += (double)(m[f] - c) * (double)(m[f] - c);
        if (parent[f] >= 0) t->child_ptr[parent[f] + 1]++;
        if (m[f] > t->max_m) t->max_m = m[f];
    }
    for (int64_t f = 0; f < ns; f++) t->child_ptr[f + 1] += t->child_ptr[f];
    int64_t *fill = calloc((size_t)ns + 1, sizeof *fill);
    for (int64_t f = 0; f < ns; f++)
        if (parent[f] >= 0) t->child_list[t->child_ptr[parent[f]] + fill[parent[f]]++] = f;
    free(fill);
    for (int64_t f = 0; f < ns; f++) { /* children have smaller indices */
        int64_t h = 0;
        for (int64_t c = t->child_ptr[f]; c < t->child_ptr[f + 1]; c++) {
            int64_t hc = t->fronts[t->child_list[c]].height + 1;
            if (hc > h) h = hc;
        }
        t->fronts[f].height = h;
        if (h + 1 > t->height) t->height = h + 1;
    }
    return t;
}

static void free_tree(sylva__tree *t)
{
    free(t->fronts);
    free(t->child_ptr);
    free(t->child_list);
    free(t);
}

/* Shapes: 0 single front, 1 chain, 2 star, 3 forest of small trees,
 * 4 random tree, 5 random forest. Sizes grow toward the roots, some fronts
 * above the large threshold. */
static sylva__tree *shape_tree(int shape, int64_t ns)
{
    if (shape == 0) ns = 1;
    int64_t *parent = malloc((size_t)ns * sizeof *parent), *m = malloc((size_t)ns * sizeof *m),
            *k = malloc((size_t)ns * sizeof *k);
    for (int64_t f = 0; f < ns; f++) {
        int64_t p = -1;
        if (f + 1 < ns) {
            if (shape == 1) p = f + 1;
            else if (shape == 2) p = ns - 1;
            else if (shape == 3) p = (f % 5 == 4) ? -1 : f + 1;
            else if (shape == 4) p = rnd(f + 1, ns - 1);
            else if (shape == 5) p = rnd(0, 3) == 0 ? -1 : rnd(f + 1, ns - 1);
        }
        parent[f] = p;
        k[f] = rnd(1, 12);
        m[f] = k[f] + (p >= 0 ? rnd(0, 40) : 0);
        if (rnd(0, 15) == 0) m[f] += 300; /* above the default large threshold */
    }
    sylva__tree *t = make_tree(ns, parent, m, k);
    free(parent);
    free(m);
    free(k);
    return t;
}

#endif
