/* runtime.h — what the runtime/ layer offers api/: starting and stopping the
 * task runtime (StarPU), and the numeric phases on a planned tree — the
 * factorization as tasks over data handles, the solve and the
 * log-determinant. StarPU stays inside runtime/ (runtime_internal.h); nothing
 * declared here names it. Every call returns a sylva_status with a message.
 */
#ifndef SYLVA_RUNTIME_H
#define SYLVA_RUNTIME_H

#include <stdint.h>

#include "batching.h"
#include "core.h"

/* Start StarPU with the options' workers and scheduler (once; a second call
 * while running is a no-op) / stop it. */
int sylva__runtime_start(const sylva_options *opts);
void sylva__runtime_stop(void);
int sylva__runtime_ready(void);
/* Workers StarPU runs (0 before start). */
int sylva__runtime_workers(void);

/* The numeric factor of one plan: L's values laid out by the plan (front f
 * at plan->l_off[f], m × k column-major, ld m), in one precision. */
typedef struct sylva__numeric sylva__numeric;

int sylva__numeric_create(const sylva__plan *plan, sylva_dtype precision, sylva__numeric **out);
void sylva__numeric_free(sylva__numeric *N);

typedef struct sylva__factor_report {
    int64_t tasks;         /* StarPU tasks submitted */
    int64_t failed_column; /* SYLVA_ERR_NOT_SPD: user's numbering, 0-based; else −1 */
} sylva__factor_report;

/* Factor the values of A (A_values: nnz scalars of N's precision, the
 * pattern the plan was built for) into N. tile_rows: tile size of large
 * fronts on CPU workers (0: one task each). Fails with SYLVA_ERR_NOT_SPD
 * (the smallest failing column in the user's numbering, the same in every
 * run), SYLVA_ERR_NO_MEMORY or SYLVA_ERR_RUNTIME. */
int sylva__numeric_factor(sylva__numeric *N, const void *A_values, int64_t nnz, int64_t tile_rows,
                          sylva__factor_report *rep);
/* 1 once a factorization into N succeeded. */
int sylva__numeric_ok(const sylva__numeric *N);
sylva_dtype sylva__numeric_dtype(const sylva__numeric *N);

/* B (n × nrhs, ld ldb, N's precision, user's numbering) ← A⁻¹ B. */
int sylva__numeric_solve(const sylva__numeric *N, int64_t nrhs, void *B, int64_t ldb);
/* log det A = 2 Σ log diag L. */
double sylva__numeric_logdet(const sylva__numeric *N);

#endif
