/* frontal.h — the assembly tree and everything built once per sparsity
 * pattern: ordering, supernodal fronts (from CHOLMOD's supernodal analysis),
 * parent/children, levels, flops, and the index maps that assembly and
 * extend-add reuse on every (re)factorization. Symbolic only: the numeric
 * steps on a front are in kernels/, the factorization and the solve that
 * walk the tree in runtime/.
 *
 * Numbering: "global" rows/columns are in the permuted order (column j of
 * P·A·Pᵀ); perm[new] = old maps back to the user's numbering. Fronts are in
 * postorder: every child has a smaller index than its parent.
 */
#ifndef SYLVA_FRONTAL_H
#define SYLVA_FRONTAL_H

#include <stdint.h>

#include "core.h"

typedef struct sylva__front {
    int64_t first_col; /* first pivot column (global) */
    int64_t k;         /* pivot columns */
    int64_t m;         /* rows: k pivots, then m − k CB rows */
    int64_t row_off;   /* rows of this front: tree->rows[row_off .. row_off + m) */
    int64_t parent;    /* −1 for a root */
    int64_t height;    /* 0 for a leaf, 1 + max over children otherwise */
    double flops;      /* Σ_{t<k} (m − t)², CHOLMOD's convention */
} sylva__front;

typedef struct sylva__tree {
    int64_t n;
    int64_t nfronts;
    sylva__front *fronts;
    int64_t *rows;       /* Σ m, sorted global rows per front */
    int64_t *relmap;     /* aligned with rows: for i ≥ k, the parent's local row
                            of this front's row i (the extend-add map) */
    int64_t *child_ptr;  /* nfronts + 1 */
    int64_t *child_list; /* children of each front, increasing */
    int64_t *col2front;  /* n: front holding each pivot column */
    int64_t *perm;       /* n: new → old (user's numbering) */
    int64_t *iperm;      /* n: old → new */
    /* Assembly of A: for front f, entries amap_ptr[f] .. amap_ptr[f+1]:
     * P_f[amap_dst[e]] += A->values[amap_src[e]] (P_f is m × k, ld m). */
    int64_t *amap_ptr;
    int64_t *amap_src;
    int64_t *amap_dst;
    int64_t nnz_A;       /* stored entries of the analyzed A (pattern check) */
    int64_t nnz_L;       /* Σ k·m − k(k−1)/2 */
    double flops;
    int64_t height;      /* fronts on the longest leaf → root path */
    int64_t max_m;
    double seconds_symbolic, seconds_maps; /* how long sylva__tree_build took for each */
} sylva__tree;

/* The ordering opts->ordering stands for on a matrix of order n (AUTO
 * resolved for the analysis' threads; the others as they are). */
int sylva__order_resolved(int64_t n, const sylva_options *opts);

/* Fill-reducing ordering of A (lower CSC): perm[new] = old. */
int sylva__order(const sylva_matrix *A, const sylva_options *opts, int64_t *perm);

/* Supernodal symbolic analysis of A under `perm` (CHOLMOD, with the
 * options' relaxed amalgamation; CHOLMOD's etree postorder is composed into
 * the final permutation) and construction of the tree and its maps. */
int sylva__tree_build(const sylva_matrix *A, const int64_t *perm, const sylva_options *opts,
                      sylva__tree **tree);
void sylva__tree_free(sylva__tree *tree);

/* Check that A has the pattern the tree was built for (same n, nnz and
 * structure); a cheap O(nnz) pass. */
int sylva__tree_check_pattern(const sylva__tree *tree, const sylva_matrix *A);

/* A's pattern in the permuted numbering, both triangles, as rows
 * (full_pattern.c): row i holds colind[rowptr[i] .. rowptr[i+1]) and, for
 * each, valind: the index of the entry's value among A's stored (lower)
 * values, so any values array of the analyzed pattern can be used. */
typedef struct sylva__full_pattern {
    int64_t n, nnz;
    int64_t *rowptr; /* n + 1 */
    int64_t *colind; /* nnz */
    int64_t *valind; /* nnz */
} sylva__full_pattern;
int sylva__full_pattern_build(const sylva__tree *t, sylva__full_pattern **out);
void sylva__full_pattern_free(sylva__full_pattern *fp);

#endif
