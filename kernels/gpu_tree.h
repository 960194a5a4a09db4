/* gpu_tree.h — the tree launch: a run of the plan's groups whose fronts are
 * all small (m ≤ SYLVA_TREE_MAX_M) factored by one persistent kernel, in
 * which a front starts as soon as its children are done — no launch per
 * level, no host round trip between fronts or groups (docs/gpu.md, "The
 * tree launch").
 *
 * The work list holds every front of the run, group by group in plan order
 * and, inside a group, level by level (the blob's record order), so every
 * child comes before its parent. Each thread block claims the next item
 * (an atomic counter), waits until the done word of each child with a CB
 * inside the same launch (global front number, the blob's ch_front) holds
 * this factorization's epoch (children outside it finished before the
 * launch started, in stream order),
 * assembles the front in shared memory — A's entries (amap), then each
 * child's CB (relmap) — factors it there (gpu_fused.cuh), writes P to its
 * L slice and the CB to its group's pool or scratch, and publishes its
 * done word. A block only waits on items claimed before its own, by blocks
 * already running, so the launch cannot deadlock whatever the grid.
 *
 * The caller guarantees what the level-by-level path got from running
 * groups one at a time: the CB memory that fronts of one launch write
 * (pools and scratch) is disjoint from every CB any front of the launch
 * reads or writes (runtime/factorize_direct.c lays out the arena so,
 * batching/plan_arena.c). A failed pivot is appended to ctx's failure list
 * (front, pivot) and the front's done word is still published: fronts above
 * it compute garbage that the caller ignores, as on the group path. A
 * front that waits for a child for ~30 s (a wrong work list: a bug) is
 * recorded with pivot 0 and goes on, so the launch ends instead of hanging;
 * the caller reports such a record as an error. double
 * only. Without CUDA the GPU entry point returns SYLVA_ERR_UNSUPPORTED;
 * the CPU twin (tree_cpu.c) is always built.
 */
#ifndef SYLVA_KERNELS_GPU_TREE_H
#define SYLVA_KERNELS_GPU_TREE_H

#include <stddef.h>
#include <stdint.h>

#include "gpu_context.h"
#include "gpu_group.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The largest front a tree launch takes: the fused kernel's (its packed
 * lower triangle in one block's shared memory). */
#define SYLVA_TREE_MAX_M 192

/* One group of a launch, as the device reads it (an array in device
 * memory; every pointer a device pointer). */
typedef struct sylva__tree_group {
    const void *blob;            /* the group's blob (gpu_group.h layout lay) */
    double *L;                   /* its L slice */
    double *pool;                /* its own CB pool (NULL without one) */
    double *scratch;             /* its internal CBs (the blob's cbsel 1), its own */
    double *const *child_pools;  /* the base of the pool in each dep slot */
    sylva__group_layout lay;
} sylva__tree_group;

typedef struct sylva__tree_launch {
    const sylva__tree_group *groups; /* device */
    const int *items;                /* device: 2 ints an item, (group, record), in work order */
    int nitems;
    int max_m;                       /* the largest front of the launch (≤ SYLVA_TREE_MAX_M) */
    int *next;                       /* device: the claim counter; 0 when the launch starts */
    int *done;                       /* device: a word per global front */
    const int *front_run;            /* device: per global front, its launch's run number, or −1 */
    int run;                         /* this launch's run number: children of other runs or of
                                        groups outside runs are done before it starts (stream order) */
    int epoch;                       /* this run's value of a done word (never 0) */
    const double *A;                 /* A's values */
    unsigned long long *gtime;       /* device, or NULL: per group g of the launch, [2g] the
                                        earliest claim of one of its fronts and [2g + 1] the
                                        bitwise NOT of the latest end (the GPU's global timer,
                                        ns); the launch sets them to all ones first */
    int g0, g1;                      /* the launch's groups are g0..g1−1 (gtime's range) */
} sylva__tree_launch;

/* Queue the launch on stream s (nothing waits). Returns 0, or
 * SYLVA_ERR_RUNTIME (a launch failed; message set), SYLVA_ERR_ARGUMENT
 * (max_m out of range), SYLVA_ERR_UNSUPPORTED (built without CUDA). */
int sylva__tree_factor_gpu(sylva__gpu_context *ctx, const sylva__tree_launch *t, struct CUstream_st *s);

/* The CPU twin (tree_cpu.c) on host memory: the items in `order` (a
 * permutation of 0..nitems−1 in which children come first; NULL: list
 * order), each front's failing pivot into front_info[global front] (left
 * alone when it factors), done words set as the GPU sets them. Returns 0,
 * or SYLVA_ERR_ARGUMENT (message set) when a front starts before one of its
 * children is done or is larger than max_m. */
int sylva__tree_factor_cpu(const sylva__tree_launch *t, const int *order, int *front_info);

#ifdef __cplusplus
}
#endif

#endif
