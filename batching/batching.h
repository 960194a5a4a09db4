/* batching.h — batch-grouping policies and the plan they produce.
 *
 * A policy turns the assembly tree into an ordered list of groups (batches)
 * such that every front's children are in its own group or an earlier one.
 * One group becomes one StarPU task (one vbatched kernel sequence on a GPU).
 * Fronts with more than `small_front_rows` rows are "large": always alone in
 * their group (native mode). sylva__plan_build() checks the policy's result
 * against that contract (sylva__plan_check), orders the groups for memory
 * (the tree's postorder as far as the grouping allows) and then lays out memory and
 * dependencies the same way for every policy:
 *   - L pool: the factor columns of a group's fronts, contiguous, in one
 *     allocation for the whole factor (l_off[f] is global);
 *   - CB pool: a group's contribution blocks whose parent is in another group
 *     (cb_off[f] within the group's pool); CBs consumed inside the group live
 *     in the group's scratch (cb_off[f] within scratch, cb_internal[f] = 1);
 *   - deps: the groups whose CB pools a group reads, and for each front the
 *     index of its CB's group in its parent group's dep list (cb_slot).
 */
#ifndef SYLVA_BATCHING_H
#define SYLVA_BATCHING_H

#include <stdint.h>

#include "frontal.h"

/* Parameters every policy sees. */
typedef struct sylva__policy_params {
    int64_t small_front_rows;
    double batch_flops;
    /* > 1: the run is mapped onto this many GPUs or processes (plan_map.c);
     * a static policy's groups are split so that none mixes fronts of two
     * parts, or of a part and the top. */
    int parts;
} sylva__policy_params;

typedef struct sylva__plan {
    const sylva__tree *tree;
    const char *policy;
    int64_t ngroups;
    int64_t *group_ptr;   /* ngroups + 1, into front_list */
    int64_t *front_list;  /* fronts of each group, children before parents */
    int64_t *front_group; /* nfronts */
    int64_t *dep_ptr;     /* ngroups + 1, into dep_list */
    int64_t *dep_list;    /* child groups read by each group, increasing */
    int64_t *readers;     /* ngroups: how many groups read each group's CB pool */
    int64_t *l_off;       /* nfronts + 1: global offsets of L columns */
    int64_t *cb_off;      /* nfronts: offset in CB pool or scratch */
    char *cb_internal;    /* nfronts */
    int64_t *cb_slot;     /* nfronts: dep index of the front's group in its parent's group */
    int64_t *cb_size;     /* ngroups: scalars in the CB pool */
    int64_t *scratch_size;/* ngroups: scalars of internal CBs */
    char *large;          /* ngroups: 1 for a native (large-front) group */
    double *group_flops;  /* ngroups */
    int dynamic;          /* made by a dynamic policy: the runtime cuts the groups (below) */
    sylva__policy_params params; /* what the policy was run with */
} sylva__plan;

/* A policy fills `order` (a permutation of the fronts) and `start` (group
 * boundaries: group g is order[start[g] .. start[g+1])) and returns the
 * number of groups, or −1 on allocation failure. start has nfronts + 1 room. */
typedef int64_t (*sylva__policy_fn)(const sylva__tree *t, const sylva__policy_params *p,
                                    int64_t *order, int64_t *start);

/* A dynamic policy (dynamic = 1) cuts its groups at run time (the runtime
 * drives a sylva__ready_pool); its fn gives the plan a run on one worker,
 * finishing each batch before cutting the next, would make: what analysis
 * statistics describe, and the layout a factorization starts from. */
typedef struct sylva__policy {
    const char *name;
    const char *summary;
    sylva__policy_fn fn;
    int dynamic;
} sylva__policy;

/* Shared by the policies (level_groups.c): append groups for the fronts
 * with take[f] set, level by level (sorted by rows within a level when
 * by_size), starting at order[pos] and group ng; returns the new group count
 * (−1: no memory). */
int64_t sylva__group_by_level(const sylva__tree *t, const sylva__policy_params *p,
                              const char *take, int by_size, int64_t *order, int64_t *start,
                              int64_t pos, int64_t ng);

/* The policies, one file each (policy_NAME.c). */
int64_t sylva__policy_none(const sylva__tree *t, const sylva__policy_params *p, int64_t *order,
                           int64_t *start);
int64_t sylva__policy_level(const sylva__tree *t, const sylva__policy_params *p, int64_t *order,
                            int64_t *start);
int64_t sylva__policy_sized(const sylva__tree *t, const sylva__policy_params *p, int64_t *order,
                            int64_t *start);
int64_t sylva__policy_subtree(const sylva__tree *t, const sylva__policy_params *p, int64_t *order,
                              int64_t *start);
int64_t sylva__policy_ready(const sylva__tree *t, const sylva__policy_params *p, int64_t *order,
                            int64_t *start);

/* The ready pool of the dynamic `ready` policy (ready_pool.c): the fronts
 * whose children are all done, in bins of rows [2^i, 2^(i+1)), from which
 * batches are cut. Leaves are ready at creation. */
typedef struct sylva__ready_pool sylva__ready_pool;
int sylva__ready_pool_create(const sylva__tree *t, const sylva__policy_params *p, sylva__ready_pool **out);
void sylva__ready_pool_free(sylva__ready_pool *rp);
/* Fronts finished: a parent joins the pool when its last child finishes. */
void sylva__ready_pool_done(sylva__ready_pool *rp, const int64_t *fronts, int64_t n);
/* Cut the next batch into out (room for every front) and return its size,
 * 0 when nothing is to be cut now: a ready large front alone; else a bin
 * whose flops reached batch_flops (fronts taken oldest first up to
 * batch_flops); else, when `idle` (a worker would otherwise wait), the
 * fullest bin, up to batch_flops. */
int64_t sylva__ready_pool_cut(sylva__ready_pool *rp, int idle, int64_t *out);
/* Fronts in the pool, not yet cut. */
int64_t sylva__ready_pool_size(const sylva__ready_pool *rp);

/* A plan grown at run time (plan_grow.c): empty, with room for one group
 * per front and L's total size known; groups are appended as a dynamic
 * policy cuts them. sylva__plan_grow_add lays out the group like
 * sylva__plan_build would (its L slice after the previous group's, its CB
 * pool, its dependency list, its children's CB slots) and returns its
 * index, or −1 with SYLVA_ERR_RUNTIME when the fronts are not eligible (a
 * child not in an earlier group, a large front not alone, a front cut
 * twice). A finished plan meets sylva__plan_check. */
int sylva__plan_grow_create(const sylva__tree *t, const char *policy, const sylva__policy_params *p,
                            sylva__plan **out);
int64_t sylva__plan_grow_add(sylva__plan *pl, const int64_t *fronts, int64_t n,
                             const sylva__policy_params *p);

/* The registry (policies.c): the i-th policy (NULL past the last), lookup
 * by name (NULL: the default), and the default's name. */
const sylva__policy *sylva__policy_at(int i);
const sylva__policy *sylva__policy_find(const char *name);
extern const char sylva__policy_default[];

/* Reorder a checked grouping (order, start, ng groups) into the
 * topological order closest to the tree's postorder (plan_order.c): groups
 * whose contribution blocks are read soon after they are made. The fronts
 * of a group keep their order. SYLVA_ERR_NO_MEMORY on allocation failure. */
int sylva__plan_order_groups(const sylva__tree *t, int64_t *order, int64_t *start, int64_t ng);

/* Group g's slice of L: its first scalar's offset (*lo) and its length in
 * scalars (its fronts are contiguous, l_off). */
int64_t sylva__plan_group_l(const sylva__plan *pl, int64_t g, int64_t *lo);

/* Run a policy, check its grouping, order its groups and lay out the plan. Fails on an
 * unknown policy, a broken contract (SYLVA_ERR_RUNTIME naming the policy
 * and the front) or memory. */
int sylva__plan_build(const sylva__tree *t, const char *policy, const sylva__policy_params *p,
                      sylva__plan **plan);
/* 1 when the policy of that name is dynamic. */
int sylva__policy_is_dynamic(const char *name);
void sylva__plan_free(sylva__plan *plan);

/* The plan contract, checked on every plan built: every front in exactly
 * one group, children before parents (in an earlier group, or earlier in
 * the same one), a large front alone in its group, dependency lists sorted
 * and naming the groups that hold each external child's CB, CB slots and
 * offsets inside their pool or scratch without overlap, L offsets tiling
 * the factor. SYLVA_OK, or SYLVA_ERR_RUNTIME with the first violation. */
int sylva__plan_check(const sylva__plan *plan, const sylva__policy_params *p);
/* Its first part, on a policy's raw result (order, start, ngroups). */
int sylva__plan_check_grouping(const sylva__tree *t, const char *policy, const int64_t *order,
                               const int64_t *start, int64_t ngroups,
                               const sylva__policy_params *p);

/* Per-plan statistics for policy studies. */
typedef struct sylva__plan_stats {
    int64_t groups, large_groups, small_fronts, large_fronts;
    double fronts_per_group_mean;
    int64_t fronts_per_group_max;
    double size_spread_mean;  /* mean over groups of max_m / min_m */
    double padding_waste;     /* 1 − Σ flops / Σ (group size × max front flops) */
    double peak_cb_scalars;   /* CB pools alive at once, groups run in order */
    double peak_factor_cb_scalars; /* the most of L written so far plus CB pools alive,
                                      groups run in order (a first factorization's peak) */
    double max_task_scalars;  /* the largest task's data: its L slice, own CB pool,
                                 internal CBs and the CB pools it reads */
} sylva__plan_stats;
void sylva__plan_stats_compute(const sylva__plan *plan, sylva__plan_stats *st);

/* The plan's run on `workers` CPU workers, simulated for its memory
 * (plan_memory.c; `tiled`: large fronts are shared by the workers): the
 * peak, in scalars, of L written so far plus the CB pools and scratch
 * alive (a first factorization), and of the CB pools and scratch alive
 * alone (a refactorization adds all of L). 0 and 0 when out of memory. */
void sylva__plan_memory_sim(const sylva__plan *plan, int workers, int tiled, double *peak_first,
                            double *peak_cb);

/* The plan's CB pools in one arena for a run of its groups one after
 * another in plan order (plan_arena.c): size[g] scalars for group g's pool
 * (0: none); offset[g] gets its place, *total the arena's scalars. Pools
 * alive at once (from their group's start to their last reader's end)
 * never overlap. Fails only on memory. */
int sylva__plan_cb_arena(const sylva__plan *plan, const int64_t *size, int64_t *offset, int64_t *total);
/* The same with runs of groups that run concurrently (the tree launch):
 * consecutive groups with eligible[g] ≠ 0 form a run (run[g] its number
 * from 0, −1 outside runs; run may be NULL); a pool whose last reader is
 * in a run stays taken until the run ends, so every pool a run takes is
 * disjoint from every pool the run reads. A run ends before a group when
 * the pools it holds back that way exceed `budget` scalars (so a run holds
 * at most budget plus one group's worth). eligible NULL: no runs (the
 * function above). */
int sylva__plan_cb_arena_runs(const sylva__plan *plan, const int64_t *size, const char *eligible, int64_t budget,
                              int64_t *run, int64_t *offset, int64_t *total);

/* The plan's groups mapped onto `parts` GPUs or processes (plan_map.c):
 * proportional mapping by subtree flops. The tree is split from the roots
 * down, the heaviest subtree first, and the subtrees are dealt to the
 * parts heaviest first onto the least loaded; the split with the best
 * estimated makespan is kept. Fronts above the split ("top") are shared:
 * front_part = −1, owned by the part of their heaviest child. A group is
 * top when it holds a top front or fronts of several parts; group_part is
 * always a part (the one holding most of the group's flops), its owner in
 * a run that must place every group. part_flops: the flops of each part's
 * non-top groups; top_flops: the top groups'. Deterministic. Fails only
 * on memory (the map is then empty). */
typedef struct sylva__plan_map {
    int parts;
    int *front_part;          /* nfronts: 0..parts−1, or −1 for a top front */
    int *group_part;          /* ngroups: 0..parts−1 */
    unsigned char *group_top; /* ngroups: 1 for a group above the split */
    double *part_flops;       /* parts */
    double top_flops;
} sylva__plan_map;
int sylva__plan_map_build(const sylva__plan *pl, int parts, sylva__plan_map *map);
void sylva__plan_map_free(sylva__plan_map *map);
/* The fronts' part alone (front_part above), from the tree. */
int sylva__tree_map(const sylva__tree *t, int parts, int *front_part);
/* Split each of a grouping's ngroups groups (order, start as a policy
 * makes them) into its fronts of part 0, 1, …, parts − 1 and then its top
 * fronts, each keeping its order; *ngroups grows (start has room for one
 * group per front). Children stay before parents. Fails only on memory. */
int sylva__groups_split_by_part(const sylva__tree *t, int parts, int64_t *order, int64_t *start, int64_t *ngroups);

/* The CPU solve's pieces (solve_pieces.c): the tree cut into ranges of
 * consecutive fronts (postorder), each solved by one task per direction and
 * column chunk. A piece is either a single "top" front or a run of whole
 * subtrees; subtrees are split from the roots down (the heaviest first)
 * until none holds more than 1/(SYLVA__SOLVE_PIECES_PER_WORKER · workers)
 * of the solve's work (Σ m·k), then consecutive ones are packed up to that
 * much. A front whose parent lies in another piece "exports" its update
 * (its m − k rows) through an out buffer at out_off[f]; updates that stay
 * inside a piece live on the piece's stack, whose peak is stack_rows[p]
 * rows. Forward deps: the pieces holding external children; backward
 * deps: the pieces holding the parents of exported fronts. A single-front
 * piece with a large L21 is split (split_fwd, split_bwd > 1): its forward
 * task solves the pivot rows only and split_fwd tasks multiply row ranges
 * of L21; split_bwd tasks multiply column ranges of L21ᵀ before its
 * backward task solves the pivot rows. With SYLVA__SOLVE_DIAG_MIN_WORKERS
 * workers or more, a single-front piece with more than
 * SYLVA__SOLVE_DIAG_BLOCK pivots (diag_blocks > 1) solves them in diagonal
 * blocks: a task per block, and after each the rows beyond it (below
 * forward, above backward) updated by up to split_cap tasks, one group of
 * blocks each (sylva__solve_diag_groups). */
typedef struct sylva__solve_pieces {
    const sylva__tree *tree;
    int workers;             /* the worker count it was cut for */
    int64_t npieces;
    int64_t *first;          /* npieces + 1: fronts first[p] .. first[p+1] − 1 */
    int64_t *piece_of;       /* nfronts */
    int64_t *fwd_ptr, *fwd_list; /* npieces + 1; sorted, unique */
    int64_t *bwd_ptr, *bwd_list; /* npieces + 1; sorted, unique */
    int64_t *out_off;        /* nfronts: rows into the out buffer, −1 if not exported */
    int64_t out_rows;        /* Σ rows of the exported updates */
    int64_t *stack_rows;     /* npieces */
    int64_t max_stack_rows, max_rows; /* over pieces; the largest front's m */
    double *work;            /* npieces: Σ m·k */
    int64_t *split_fwd, *split_bwd; /* npieces: tasks for L21's products (1: none apart) */
    int64_t *diag_blocks;    /* npieces: diagonal blocks of L11 (1: solved whole) */
    int64_t split_cap;       /* most tasks one product or one block's update is cut into */
    int64_t *split_tasks_of; /* npieces: the part, block and update tasks of each piece */
    int64_t split_tasks;     /* their sum */
} sylva__solve_pieces;

/* Update groups after diagonal block j of a blocked piece's forward
 * (rows below: blocks j+1 .. nb−1) or backward (rows above: blocks
 * 0 .. j−1) solve, and group g's first and last-plus-one block. */
int64_t sylva__solve_diag_groups(const sylva__solve_pieces *sp, int64_t p, int backward, int64_t j);
void sylva__solve_diag_group(const sylva__solve_pieces *sp, int64_t p, int backward, int64_t j, int64_t g,
                             int64_t *b0, int64_t *b1);

/* Cut t (in postorder: every subtree a range of fronts) for `workers` CPU
 * workers. Fails on memory, or on a tree not in postorder. */
int sylva__solve_pieces_build(const sylva__tree *t, int workers, sylva__solve_pieces **out);
void sylva__solve_pieces_free(sylva__solve_pieces *sp);

#endif
