/* solve_partial.h — the solve in parts (t_solve_partial.c): with
 * P A Pᵀ = L Lᵀ, X (n × nrhs, ld ldx, in place) ← A⁻¹X, (LLᵀ)⁻¹X, L⁻¹X,
 * L⁻ᵀX, PX or PᵀX (sylva_system), per precision, on a factor laid out by
 * a plan. Internal to runtime/; no StarPU. Fails only on memory. */
#ifndef SYLVA_RUNTIME_SOLVE_PARTIAL_H
#define SYLVA_RUNTIME_SOLVE_PARTIAL_H

#include <stdint.h>

#include "batching.h"

int sylva__d_solve_partial(const sylva__plan *plan, const double *L, sylva_system sys,
                           int64_t nrhs, double *X, int64_t ldx);
int sylva__s_solve_partial(const sylva__plan *plan, const float *L, sylva_system sys,
                           int64_t nrhs, float *X, int64_t ldx);
/* One front f's step on X (permuted, ld ldx): forward X1 ← L11⁻¹ X1 and
 * its update subtracted from its CB rows of X; backward with its CB rows'
 * solution read from X. T: (m − k) × nrhs of workspace. */
void sylva__d_solve_front_forward(const sylva__plan *plan, const double *L, int64_t f, int64_t nrhs, double *X,
                                  int64_t ldx, double *T);
void sylva__s_solve_front_forward(const sylva__plan *plan, const float *L, int64_t f, int64_t nrhs, float *X,
                                  int64_t ldx, float *T);
void sylva__d_solve_front_backward(const sylva__plan *plan, const double *L, int64_t f, int64_t nrhs, double *X,
                                   int64_t ldx, double *T);
void sylva__s_solve_front_backward(const sylva__plan *plan, const float *L, int64_t f, int64_t nrhs, float *X,
                                   int64_t ldx, float *T);

#endif
