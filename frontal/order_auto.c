/* order_auto.c — the default ordering: the fastest one whose fill stays
 * within 5% of serial METIS_NodeND, given the threads the analysis may use.
 * With one thread nothing beats METIS itself; with more, the parallel nested
 * dissection (its top levels and leaves are METIS's own bisection and
 * NodeND, so its fill tracks METIS's; Scotch's does not, on grids).
 * Measurements behind the choice: docs/analysis.md. Never fails.
 */
#include "order_internal.h"

/* Below this size a graph is one leaf of the parallel dissection anyway
 * (it would call METIS_NodeND on the whole graph). */
enum { AUTO_PARALLEL_MIN_N = 16384 };

int sylva__order_auto(int64_t n, int nthreads)
{
    if (nthreads > 1 && n >= AUTO_PARALLEL_MIN_N) return SYLVA_ORDERING_ND_PARALLEL;
    return SYLVA_ORDERING_METIS;
}
