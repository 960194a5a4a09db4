/* solve_dist.h — the solve over the ranks of a distributed factorization,
 * where L stays: each front is solved by the rank that holds its L (its
 * group's owner), moving only rows of the right-hand sides.
 *
 * The schedule (solve_dist_plan.c, the same on every rank but for the
 * rank's own lists): a front is "shared" when some descendant's L is on
 * another rank (these are the fronts at the top of the tree; their
 * ancestors are shared too), else it belongs to its owner alone, and so
 * does its whole subtree. A rank's own fronts are cut into "units" —
 * subtrees, each solved by one task on the rank's CPU workers — and the
 * "local" fronts above them (subtrees heavier than 1/(4·workers) of the
 * rank's work are split at their roots, which the calling thread solves
 * after the units in the forward sweep and before them in the backward
 * one). The shared fronts are solved in postorder by every rank in step:
 * forward, the pivot rows' partial sums of all ranks are added on the
 * owner (a reduction), which solves and subtracts the update from its rows;
 * backward, the owner solves and broadcasts the pivot rows' solution.
 *
 * The steps (t_solve_dist.c, per precision) work on a full-length
 * permuted block X (n × nrhs, ldx) of which each rank fills the rows of its
 * own fronts. A unit's forward sweep writes the rows of its own fronts in
 * X and the rows above the unit (its root's CB rows, sorted: srows) into
 * its own sink (rs × nrhs, amounts to subtract), which the caller subtracts
 * once every unit has ended: units run at once without sharing a row.
 * Internal to runtime/; no StarPU, no MPI. */
#ifndef SYLVA_RUNTIME_SOLVE_DIST_H
#define SYLVA_RUNTIME_SOLVE_DIST_H

#include <stdint.h>

#include "batching.h"

typedef struct sylva__solve_dist_plan {
    int me, nranks, workers;  /* what it was made for */
    int *owner;               /* nfronts: the rank holding each front's L */
    int64_t nunits;
    int64_t *unit_first, *unit_root; /* nunits: fronts unit_first .. unit_root (postorder) */
    int64_t *sink_off;        /* nunits + 1: each unit's sink rows (its root's m − k) */
    int64_t nlocal, *local;   /* this rank's fronts above its units, postorder */
    int64_t nshared, *shared; /* fronts with a descendant on another rank, postorder */
    int64_t max_m;            /* the largest front this rank solves */
    int64_t *own_rows;        /* nranks: pivot rows of each rank's fronts */
    int64_t max_own_rows;
} sylva__solve_dist_plan;

/* The schedule of rank me of nranks with `workers` CPU workers, from the
 * owner of each group of pl. Fails on memory, or with SYLVA_ERR_RUNTIME on
 * a tree whose fronts' pivot columns are not consecutive in postorder. */
int sylva__solve_dist_plan_build(const sylva__plan *pl, const int *group_owner, int me, int nranks,
                                 int workers, sylva__solve_dist_plan **out);
void sylva__solve_dist_plan_free(sylva__solve_dist_plan *dp);

/* Per precision (t_solve_dist.c; one front's step is solve_partial.h's).
 * A unit's forward sweep (fronts a .. b; it adds to its sink, which the
 * caller zeroes) and backward sweep. */
void sylva__d_solve_dist_unit_forward(const sylva__plan *pl, const double *L, int64_t a, int64_t b,
                                      int64_t nrhs, double *X, int64_t ldx, double *T, double *sink);
void sylva__s_solve_dist_unit_forward(const sylva__plan *pl, const float *L, int64_t a, int64_t b,
                                      int64_t nrhs, float *X, int64_t ldx, float *T, float *sink);
void sylva__d_solve_dist_unit_backward(const sylva__plan *pl, const double *L, int64_t a, int64_t b,
                                       int64_t nrhs, double *X, int64_t ldx, double *T);
void sylva__s_solve_dist_unit_backward(const sylva__plan *pl, const float *L, int64_t a, int64_t b,
                                       int64_t nrhs, float *X, int64_t ldx, float *T);
/* A large front's step in parts: its pivot block (X1 ← L11⁻¹ X1, or
 * L11⁻ᵀ X1 backward), and a slice of its L21 product — forward rows lo..hi
 * of T ← L21 X1 (T: the CB rows, ld m − k), backward rows lo..hi of
 * X1 ← X1 − L21ᵀ T — which tasks share; the scatter of T into X (forward,
 * after the slices) and its gather (backward, before them) are
 * front_cpu.h's. */
void sylva__d_solve_dist_pivots(const sylva__plan *pl, const double *L, int64_t f, int backward, int64_t nrhs,
                                double *X, int64_t ldx);
void sylva__s_solve_dist_pivots(const sylva__plan *pl, const float *L, int64_t f, int backward, int64_t nrhs,
                                float *X, int64_t ldx);
void sylva__d_solve_dist_slice(const sylva__plan *pl, const double *L, int64_t f, int backward, int64_t lo,
                               int64_t hi, int64_t nrhs, double *X, int64_t ldx, double *T);
void sylva__s_solve_dist_slice(const sylva__plan *pl, const float *L, int64_t f, int backward, int64_t lo,
                               int64_t hi, int64_t nrhs, float *X, int64_t ldx, float *T);
/* Rows of rank r's fronts (pivot rows, front order) of X copied into the
 * packed P (rows × nrhs) or back (unpack). */
void sylva__d_solve_dist_pack(const sylva__solve_dist_plan *dp, const sylva__tree *t, int r, int unpack,
                              int64_t nrhs, double *X, int64_t ldx, double *P);
void sylva__s_solve_dist_pack(const sylva__solve_dist_plan *dp, const sylva__tree *t, int r, int unpack,
                              int64_t nrhs, float *X, int64_t ldx, float *P);
/* Rank 0's block B (ld ldb, user's numbering) permuted into X (n × nrhs;
 * to_x) or back. */
void sylva__d_solve_dist_permute(const sylva__tree *t, int to_x, int64_t nrhs, double *X, double *B, int64_t ldb);
void sylva__s_solve_dist_permute(const sylva__tree *t, int to_x, int64_t nrhs, float *X, float *B, int64_t ldb);

#endif
