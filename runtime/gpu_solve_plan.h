/* gpu_solve_plan.h — the GPU solve's per-pattern data, built once per
 * analysis (at the first GPU solve): the solve blob (every front's sizes,
 * first column, offset in its group's L slice, CB rows, in level order,
 * and the permutation; format kernels/gpu_solve.h) with its host
 * description, and the residual's pattern blob (A's full permuted pattern:
 * rowptr | colind | valind). Internal to runtime/; no StarPU type.
 */
#ifndef SYLVA_RUNTIME_GPU_SOLVE_PLAN_H
#define SYLVA_RUNTIME_GPU_SOLVE_PLAN_H

#include <stdint.h>

#include "batching.h"
#include "gpu_solve.h"

typedef struct sylva__gpu_solve_plan {
    sylva__solve_desc desc;
    void *blob;             /* host copy of the solve blob (desc.lay.bytes) */
    int *ints;              /* storage of desc's level arrays */
    void *pattern;          /* host copy of the pattern blob, NULL until made */
    int64_t pattern_bytes;
    int64_t pat_rowptr, pat_colind, pat_valind; /* byte offsets in it */
} sylva__gpu_solve_plan;

/* Build the solve blob of `plan`. Fails with SYLVA_ERR_NO_MEMORY or
 * SYLVA_ERR_UNSUPPORTED (sizes beyond the kernels' 32-bit ints). */
int sylva__gpu_solve_plan_build(const sylva__plan *plan, sylva__gpu_solve_plan **out);
/* Add the pattern blob from A's full pattern (once). */
int sylva__gpu_solve_plan_pattern(sylva__gpu_solve_plan *gs, const sylva__full_pattern *fp);
void sylva__gpu_solve_plan_free(sylva__gpu_solve_plan *gs);

#endif
