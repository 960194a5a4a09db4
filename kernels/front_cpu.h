/* front_cpu.h — CPU kernels for one front (LAPACK/BLAS): the reference
 * semantics every GPU kernel in kernels/ must match, and the arithmetic of
 * the CPU codelets.
 *
 * A front with m rows and k pivot columns is held as two column-major blocks:
 *   P  (m × k, leading dim ldp): the pivot columns [F11; F21], which become
 *      the columns of L: L11 = chol(F11), L21 = F21 · L11⁻ᵀ;
 *   C  ((m−k) × (m−k), leading dim ldc, lower triangle): the contribution
 *      block, updated C −= L21 · L21ᵀ.
 * A whole m × m front F with leading dim ld is the special case P = F,
 * ldp = ld, C = F + k + k·ld, ldc = ld. Only lower triangles are read or
 * written. No allocation, no threads of its own.
 */
#ifndef SYLVA_KERNELS_FRONT_CPU_H
#define SYLVA_KERNELS_FRONT_CPU_H

#include <stdint.h>

/* Partial Cholesky factorization (POTRF, TRSM, SYRK). Returns 0, or j > 0
 * when the leading j × j minor of F11 is not positive definite (LAPACK's
 * info; P and C are then partly updated). C may be NULL when m == k. */
int sylva__front_factor_cpu(int64_t m, int64_t k, double *P, int64_t ldp, double *C,
                            int64_t ldc);

/* Assembly of A's entries: P_or_C[dst[i]] += values[src[i]] for i < count
 * (dst are offsets into the front's storage, prepared at analysis). */
void sylva__scatter_add_cpu(int64_t count, const int64_t *src, const int64_t *dst,
                            const double *values, double *out);

/* Extend-add of a child's contribution block into its parent.
 * cb: mc × mc lower (leading dim ldcb); relmap[i] is the parent's local row
 * of the child's CB row i (increasing). Parent rows < kp land in the parent's
 * pivot block P (ldp), the others in its CB C (ldc) at row/col − kp. */
void sylva__extend_add_cpu(int64_t mc, const double *cb, int64_t ldcb, const int64_t *relmap,
                           int64_t kp, double *P, int64_t ldp, double *C, int64_t ldc);

#endif
