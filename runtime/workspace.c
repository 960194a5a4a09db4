/* workspace.c — the runtime's part of the memory model (api/memory.c):
 * resident memory a CPU factorization holds besides the plan's data (L,
 * contribution blocks, scratch), namely the descriptors of the StarPU tasks
 * it keeps submitted (factorize.c waits above SYLVA__MAX_SUBMITTED_TASKS)
 * and each CPU worker's BLAS packing buffers, at most the largest front.
 * The per-task and per-worker sizes are measured constants (core.h,
 * docs/limits.md). Pure computation. */
#include "runtime_internal.h"

double sylva__runtime_workspace_bytes(const sylva__plan *pl, int64_t tile_rows, int workers, size_t es)
{
    double tasks = (double)pl->ngroups, biggest = 0;
    for (int64_t g = 0; g < pl->ngroups; g++) {
        const sylva__front *f = &pl->tree->fronts[pl->front_list[pl->group_ptr[g]]];
        if (pl->large[g] && tile_rows > 0) tasks += sylva__tiled_task_count(f->m, f->k, tile_rows);
    }
    for (int64_t f = 0; f < pl->tree->nfronts; f++) {
        double b = (double)pl->tree->fronts[f].m * (double)pl->tree->fronts[f].k * (double)es;
        if (b > biggest) biggest = b;
    }
    if (tasks > SYLVA__MAX_SUBMITTED_TASKS) tasks = SYLVA__MAX_SUBMITTED_TASKS;
    if (biggest > SYLVA__WORKER_BLAS_BYTES) biggest = SYLVA__WORKER_BLAS_BYTES;
    if (sylva__runtime_ready()) workers = (int)starpu_cpu_worker_get_count();
    return tasks * SYLVA__TASK_DESCRIPTOR_BYTES + biggest * (double)(workers > 0 ? workers : 1);
}
