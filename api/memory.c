/* memory.c — the memory model behind sylva_analysis_info's predictions:
 * the resident memory a factorization adds to the process, from the plan
 * (docs/limits.md, "Memory"). On CPU runs: L as it is written (group by
 * group, in plan order) plus the contribution-block pools and task scratch
 * alive at once when the groups run in plan order — the factorization runs
 * them in that order as far as the workers and the DAG allow (task
 * priorities, runtime/factorize.c) — plus the runtime's workspaces. On GPU
 * runs the host holds L only. A converted copy of A's values is added when
 * A's type is not the factor's. Pure computation. */
#include <unistd.h>

#include "api.h"

void sylva__memory_predict(const sylva_analysis_t *an, const sylva_matrix *A, int on_gpu,
                           double *first, double *refactor)
{
    const sylva__plan *pl = an->plan;
    double es = (double)sylva__dtype_size(an->opts.precision);
    double factor = es * (double)pl->l_off[pl->tree->nfronts];
    double convert = A->values && A->dtype != an->opts.precision ? es * (double)A->nnz : 0;
    if (on_gpu) {
        *first = *refactor = factor + convert;
        return;
    }
    int workers = an->opts.ncpus > 0 ? an->opts.ncpus : (int)sysconf(_SC_NPROCESSORS_ONLN);
    double work = sylva__runtime_workspace_bytes(pl, an->opts.tile_rows, workers, (size_t)es);
    double peak_first, peak_cb;
    sylva__plan_memory_sim(pl, workers, an->opts.tile_rows > 0, &peak_first, &peak_cb);
    *first = es * peak_first + convert + work;
    *refactor = factor + es * peak_cb + convert + work;
}
