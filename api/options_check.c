/* options_check.c — every field of sylva_options held to its range before
 * it is used, with a message naming the option and the range (the table of
 * docs/limits.md): sylva_init checks the runtime fields (workers, mode,
 * device memory), sylva_analyze the analysis fields (ordering, amalgamation,
 * policy, thresholds, batch size, precision) and, once the fronts are known,
 * that tiled large fronts do not dissolve into millions of tiny tasks;
 * sylva_analyze and the solves check the solve's fields (refine,
 * solve_mode, solve_block). Fails with SYLVA_ERR_ARGUMENT; never changes
 * the options. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "api.h"

int sylva__options_check_init(const sylva_options *o)
{
    const char *w = "sylva_init";
    if (o->ncpus < -1 || o->ncpus > SYLVA_MAX_WORKERS)
        return sylva__fail(SYLVA_ERR_ARGUMENT, "%s: options.ncpus = %d is out of range -1..%d", w,
                           o->ncpus, SYLVA_MAX_WORKERS);
    if (o->ncuda < -1 || o->ncuda > SYLVA_MAX_WORKERS)
        return sylva__fail(SYLVA_ERR_ARGUMENT, "%s: options.ncuda = %d is out of range -1..%d", w,
                           o->ncuda, SYLVA_MAX_WORKERS);
    if (o->ncpus == 0 && (o->ncuda == 0 || o->mode == SYLVA_MODE_CPU))
        return sylva__fail(SYLVA_ERR_ARGUMENT,
                           "%s: options.ncpus = 0 leaves no worker (no GPU is asked for)", w);
    if ((unsigned)o->mode > SYLVA_MODE_CPU)
        return sylva__fail(SYLVA_ERR_ARGUMENT,
                           "%s: options.mode = %d is not a sylva_exec_mode (0..3)", w,
                           (int)o->mode);
    if (o->device_memory < 0)
        return sylva__fail(SYLVA_ERR_ARGUMENT,
                           "%s: options.device_memory = %lld is negative (0: all of it)", w,
                           (long long)o->device_memory);
    if ((unsigned)o->mpi > SYLVA_MPI_OFF)
        return sylva__fail(SYLVA_ERR_ARGUMENT, "%s: options.mpi = %d is not a sylva_mpi_mode (0..2)", w, o->mpi);
    return SYLVA_OK;
}

int sylva__options_check_analysis(const sylva_options *o)
{
    const char *w = "sylva_analyze";
    if ((unsigned)o->gpu_map > SYLVA_GPU_MAP_SCHEDULER)
        return sylva__fail(SYLVA_ERR_ARGUMENT, "%s: options.gpu_map = %d is not a sylva_gpu_map (0..1)", w,
                           (int)o->gpu_map);
    if ((unsigned)o->ordering > SYLVA_ORDERING_AUTO)
        return sylva__fail(SYLVA_ERR_ARGUMENT,
                           "%s: options.ordering = %d is not a sylva_ordering (0..%d)", w,
                           (int)o->ordering, (int)SYLVA_ORDERING_AUTO);
    for (int i = 0; i < 3; i++) {
        if (o->nrelax[i] < 0 || o->nrelax[i] > INT32_MAX)
            return sylva__fail(SYLVA_ERR_ARGUMENT,
                               "%s: options.nrelax[%d] = %lld is out of range 0..%d", w, i,
                               (long long)o->nrelax[i], INT32_MAX);
        char num[40];
        if (!(o->zrelax[i] >= 0 && o->zrelax[i] <= 1))
            return sylva__fail(SYLVA_ERR_ARGUMENT,
                               "%s: options.zrelax[%d] = %s is out of range 0..1", w, i,
                               sylva__exact(num, sizeof num, o->zrelax[i]));
    }
    if (o->small_front_rows < 0 || o->small_front_rows > INT32_MAX)
        return sylva__fail(
            SYLVA_ERR_ARGUMENT,
            "%s: options.small_front_rows = %lld is out of range 0..%d (0: automatic)", w,
            (long long)o->small_front_rows, INT32_MAX);
    if (o->tile_rows < 0 || o->tile_rows > INT32_MAX)
        return sylva__fail(
            SYLVA_ERR_ARGUMENT,
            "%s: options.tile_rows = %lld is out of range 0..%d (0: large fronts untiled)", w,
            (long long)o->tile_rows, INT32_MAX);
    if (o->gpu_tile_rows < -1 || o->gpu_tile_rows > INT32_MAX)
        return sylva__fail(
            SYLVA_ERR_ARGUMENT,
            "%s: options.gpu_tile_rows = %lld is out of range -1..%d (0: automatic, -1: never)", w,
            (long long)o->gpu_tile_rows, INT32_MAX);
    if (!(o->batch_flops >= 0 && isfinite(o->batch_flops)))
        return sylva__fail(
            SYLVA_ERR_ARGUMENT,
            "%s: options.batch_flops = %g is not a finite number >= 0 (0: automatic)", w,
            o->batch_flops);
    if (!sylva__dtype_size(o->precision))
        return sylva__fail(SYLVA_ERR_ARGUMENT,
                           "%s: options.precision = %d is not a sylva_dtype (0, 1)", w,
                           (int)o->precision);
    if ((unsigned)o->mode > SYLVA_MODE_CPU)
        return sylva__fail(SYLVA_ERR_ARGUMENT,
                           "%s: options.mode = %d is not a sylva_exec_mode (0..3)", w,
                           (int)o->mode);
    return sylva__options_check_solve(o, w);
}

int sylva__options_check_solve(const sylva_options *o, const char *w)
{
    if (o->refine < SYLVA_REFINE_AUTO || o->refine > SYLVA_MAX_REFINE_STEPS)
        return sylva__fail(SYLVA_ERR_ARGUMENT,
                           "%s: options.refine = %d is out of range -1..%d (-1: automatic, 0: none)", w,
                           o->refine, SYLVA_MAX_REFINE_STEPS);
    if ((unsigned)o->solve_mode > SYLVA_SOLVE_SEQUENTIAL)
        return sylva__fail(SYLVA_ERR_ARGUMENT,
                           "%s: options.solve_mode = %d is not a sylva_solve_mode (0..3)", w,
                           (int)o->solve_mode);
    if (o->solve_block < 0 || o->solve_block > INT32_MAX)
        return sylva__fail(SYLVA_ERR_ARGUMENT,
                           "%s: options.solve_block = %lld is out of range 0..%d (0: automatic)", w,
                           (long long)o->solve_block, INT32_MAX);
    return SYLVA_OK;
}

int sylva__options_check_tiles(const sylva__tree *t, int64_t small_rows, int64_t tile_rows, const char *name)
{
    if (tile_rows <= 0) return SYLVA_OK;
    double tasks = 0, flops = 0;
    for (int64_t f = 0; f < t->nfronts; f++)
        if (t->fronts[f].m > small_rows) {
            tasks += sylva__tiled_task_count(t->fronts[f].m, t->fronts[f].k, tile_rows);
            flops += t->fronts[f].flops;
        }
    if (tasks <= SYLVA_MAX_TINY_TILE_TASKS || flops >= SYLVA_MIN_TILE_TASK_FLOPS * tasks)
        return SYLVA_OK;
    return sylva__fail(
        SYLVA_ERR_ARGUMENT,
        "sylva_analyze: options.%s = %lld splits the large fronts (more than %lld "
        "rows) into %.3g tile tasks of %.3g flops on average; at most %.0f tasks may "
        "average under %.0f flops: use a larger %s, or %s (one task per front)",
        name, (long long)tile_rows, (long long)small_rows, tasks, tasks > 0 ? flops / tasks : 0,
        (double)SYLVA_MAX_TINY_TILE_TASKS, (double)SYLVA_MIN_TILE_TASK_FLOPS, name,
        strcmp(name, "tile_rows") ? "-1" : "0");
}
