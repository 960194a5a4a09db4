/* front_cpu.h — CPU kernels for one front (LAPACK/BLAS): the reference
 * semantics every GPU kernel in kernels/ must match, and the arithmetic of
 * the CPU codelets and of the solve. One source per operation, compiled for
 * double (sylva__d_*) and float (sylva__s_*) from t_front_cpu.c.
 *
 * A front with m rows and k pivot columns is held as two column-major blocks:
 *   P  (m × k, leading dim ldp): the pivot columns [F11; F21], which become
 *      the columns of L: L11 = chol(F11), L21 = F21 · L11⁻ᵀ;
 *   C  ((m−k) × (m−k), leading dim ldc, lower triangle): the contribution
 *      block, updated C −= L21 · L21ᵀ.
 * A whole m × m front F with leading dim ld is the special case P = F,
 * ldp = ld, C = F + k + k·ld, ldc = ld. Only lower triangles are read or
 * written. No allocation, no threads of their own.
 */
#ifndef SYLVA_KERNELS_FRONT_CPU_H
#define SYLVA_KERNELS_FRONT_CPU_H

#include <stdint.h>

/* Partial Cholesky factorization (POTRF, TRSM, SYRK). Returns 0, or j > 0
 * when the leading j × j minor of F11 is not positive definite (LAPACK's
 * info; P and C are then partly updated). C may be NULL when m == k. */
int sylva__d_front_factor_cpu(int64_t m, int64_t k, double *P, int64_t ldp, double *C, int64_t ldc);
int sylva__s_front_factor_cpu(int64_t m, int64_t k, float *P, int64_t ldp, float *C, int64_t ldc);

/* Assembly of A's entries: out[dst[i]] += values[src[i]] for i < count
 * (dst are offsets into the front's storage, prepared at analysis). */
void sylva__d_scatter_add_cpu(int64_t count, const int64_t *src, const int64_t *dst,
                              const double *values, double *out);
void sylva__s_scatter_add_cpu(int64_t count, const int64_t *src, const int64_t *dst,
                              const float *values, float *out);

/* Extend-add of a child's contribution block into its parent.
 * cb: mc × mc lower (leading dim ldcb); relmap[i] is the parent's local row
 * of the child's CB row i (increasing). Parent rows < kp land in the parent's
 * pivot block P (ldp), the others in its CB C (ldc) at row/col − kp. */
void sylva__d_extend_add_cpu(int64_t mc, const double *cb, int64_t ldcb, const int64_t *relmap,
                             int64_t kp, double *P, int64_t ldp, double *C, int64_t ldc);
void sylva__s_extend_add_cpu(int64_t mc, const float *cb, int64_t ldcb, const int64_t *relmap,
                             int64_t kp, float *P, int64_t ldp, float *C, int64_t ldc);

/* Solve steps with a factored front (P = [L11; L21], m × k, ldp) on nrhs
 * right-hand sides. Forward: X1 (k × nrhs, ldx) ← L11⁻¹ X1, then
 * T (r × nrhs, ld r, r = m − k) ← L21 X1, which the caller subtracts from
 * the rows of the front's CB. Backward: with T holding those rows of the
 * solution, X1 ← L11⁻ᵀ (X1 − L21ᵀ T). One right-hand side uses level-2
 * BLAS (OpenBLAS's small level-3 calls cost more than their arithmetic). */
void sylva__d_front_solve_forward_cpu(int64_t m, int64_t k, const double *P, int64_t ldp,
                                      int64_t nrhs, double *X1, int64_t ldx, double *T);
void sylva__s_front_solve_forward_cpu(int64_t m, int64_t k, const float *P, int64_t ldp,
                                      int64_t nrhs, float *X1, int64_t ldx, float *T);
void sylva__d_front_solve_backward_cpu(int64_t m, int64_t k, const double *P, int64_t ldp,
                                       int64_t nrhs, const double *T, double *X1, int64_t ldx);
void sylva__s_front_solve_backward_cpu(int64_t m, int64_t k, const float *P, int64_t ldp,
                                       int64_t nrhs, const float *T, float *X1, int64_t ldx);

#endif
