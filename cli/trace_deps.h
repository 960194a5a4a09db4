/* trace_deps.h — the dependencies, readiness and critical path of a
 * factorization's batches, for its trace (trace_deps.c). */
#ifndef SYLVA_CLI_TRACE_DEPS_H
#define SYLVA_CLI_TRACE_DEPS_H

#include "cli.h"

typedef struct trace_deps {
    int64_t nb;               /* batches of the run */
    int64_t *pred_ptr, *pred; /* batch b waits for pred[pred_ptr[b] .. pred_ptr[b + 1]) (sorted, unique) */
    int64_t edges;
    int64_t *first, *last;    /* per batch: its first-starting and last-ending task (index into t), −1 */
    double *ready;            /* per batch: when its predecessors were all done (−1: none) */
    char *critical;           /* per batch: 1 on the critical path */
    int64_t *order;           /* the batches by their first task's start (untimed ones last) */
    int64_t critical_batches;
    double critical_seconds;  /* from the path's first start to its last end */
    double critical_busy;     /* the path's batches' own time (first start to last end each) */
} trace_deps;

/* From the analysis' tree and the run's front → batch map, over the n
 * tasks t (timed ones); a status (memory). */
int trace_deps_build(const sylva_analysis_t *an, const sylva_factor_t *F, const sylva_task_record *t, int64_t n,
                     trace_deps *d);
void trace_deps_free(trace_deps *d);
/* When task i could have started: submitted, its batch's inputs done, and
 * for a batch's later tasks (tiles of a large front) its first task done. */
double trace_task_ready(const trace_deps *d, const sylva_task_record *t, int64_t i);

#endif
