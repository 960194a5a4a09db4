/* solve.h — the sequential solve and the log-determinant on a factor laid
 * out by a plan (front f at plan->l_off[f], m × k, ld m), per precision
 * (t_solve.c). Internal to runtime/ (and its tests); no StarPU. */
#ifndef SYLVA_RUNTIME_SOLVE_H
#define SYLVA_RUNTIME_SOLVE_H

#include <stdint.h>

#include "batching.h"

/* X (n × nrhs, ld ldx, user's numbering) ← A⁻¹ X. Fails only on memory. */
int sylva__d_solve_seq(const sylva__plan *plan, const double *L, int64_t nrhs, double *X,
                       int64_t ldx);
int sylva__s_solve_seq(const sylva__plan *plan, const float *L, int64_t nrhs, float *X,
                       int64_t ldx);
/* log det A = 2 Σ log diag L; with owner (each group's rank), the fronts
 * of rank me's groups only (a distributed factor: the ranks' sums add). */
double sylva__d_logdet(const sylva__plan *plan, const double *L, const int *owner, int me);
double sylva__s_logdet(const sylva__plan *plan, const float *L, const int *owner, int me);

#endif
