/* residual_cpu.h — the residual of iterative refinement on the CPU (also
 * the GPU residual kernel's twin): for rows row0 .. row1 − 1 of A, given
 * as its permuted full pattern (rowptr, colind, valind: frontal.h's
 * sylva__full_pattern) and A's stored values in double,
 *   R = B − A X   and   omega[c] = max_i |R_ic| / (|A| |X| + |B|)_ic
 * (the componentwise backward error of column c over these rows; a row
 * whose denominator is 0 counts 0 when its residual is 0, else +inf). Sums
 * in double. perm == NULL: X, B and R are in the permuted numbering;
 * otherwise in the user's (row i of the pattern is user row perm[i]).
 * omega has nrhs entries and is overwritten. One precision per scalar type
 * of X, B, R (t_residual_cpu.c). No allocation, no threads. */
#ifndef SYLVA_KERNELS_RESIDUAL_CPU_H
#define SYLVA_KERNELS_RESIDUAL_CPU_H

#include <math.h>
#include <stdint.h>

void sylva__d_residual_cpu(int64_t row0, int64_t row1, const int64_t *rowptr,
                           const int64_t *colind, const int64_t *valind, const double *values,
                           const int64_t *perm, int64_t nrhs, const double *X, int64_t ldx,
                           const double *B, int64_t ldb, double *R, int64_t ldr, double *omega);
void sylva__s_residual_cpu(int64_t row0, int64_t row1, const int64_t *rowptr,
                           const int64_t *colind, const int64_t *valind, const double *values,
                           const int64_t *perm, int64_t nrhs, const float *X, int64_t ldx,
                           const float *B, int64_t ldb, float *R, int64_t ldr, double *omega);

/* The componentwise ratio of one row: |r| / den, 0 for 0/0, +inf for r/0
 * (r ≠ 0), NaN when either is NaN. */
static inline double sylva__omega_ratio(double r, double den)
{
    double a = r < 0 ? -r : r;
    if (den > 0) return a / den;
    if (a == 0) return 0;
    return a != a || den != den ? a + den : INFINITY;
}

#endif
