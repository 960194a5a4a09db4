/* gpu_plan.h — the plan as the GPU runs it, built once per sparsity
 * pattern (per analysis): for every group a sylva__group_desc (levels,
 * maxima) and its blob (sizes, offsets, A-scatter and extend-add maps; the
 * format is kernels/gpu_group.h's), registered as read-only StarPU handles
 * so that every factorization of the pattern reuses the copies already on
 * the GPU. Internal to runtime/; StarPU types only in the handle field.
 */
#ifndef SYLVA_RUNTIME_GPU_PLAN_H
#define SYLVA_RUNTIME_GPU_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "batching.h"
#include "gpu_group.h"

typedef struct sylva__gpu_plan {
    const sylva__plan *plan;
    int64_t ngroups;
    sylva__group_desc *groups;
    void **blobs;               /* host copy of each group's blob */
    int *ints;                  /* storage of the descs' level arrays */
    int64_t *amaps;             /* storage of the descs' level_max_amap */
    size_t max_work;            /* workspace of the largest group, native part excluded */
    int max_large_k;            /* largest k of a large group (native workspace) */
    int64_t blob_bytes;         /* Σ blob sizes */
    void *maps;                 /* starpu_data_handle_t[ngroups], NULL until registered */
} sylva__gpu_plan;

/* Build the descs and blobs of every group of `plan`. Fails with
 * SYLVA_ERR_NO_MEMORY or SYLVA_ERR_UNSUPPORTED (a front whose sizes do not
 * fit the GPU path's 32-bit sizes). */
int sylva__gpu_plan_build(const sylva__plan *plan, sylva__gpu_plan **out);
void sylva__gpu_plan_free(sylva__gpu_plan *gp);
/* One group's desc and blob on their own, for plans grown at run time (the
 * `ready` policy): *levels holds the desc's level arrays; the caller frees
 * *blob and *levels. Fails as sylva__gpu_plan_build. */
int sylva__gpu_group_build(const sylva__plan *plan, int64_t g, sylva__group_desc *d, void **blob,
                           void **levels);
/* 1 when a tree launch (kernels/gpu_tree.h) may take the group: not large,
 * at least one front, every front m ≤ SYLVA_TREE_MAX_M (or the lower
 * limit SYLVA_TREE_M in the environment). */
int sylva__gpu_group_tree_ok(const sylva__group_desc *d);

#endif
