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

/* A front's solve step of at most this many entries of L times columns
 * runs as plain loops rather than OpenBLAS calls: every level-2/3 call
 * takes OpenBLAS's buffer lock (blas_memory_alloc), which CPU workers
 * solving tens of thousands of small fronts at once serialize on. */
#define SYLVA__SOLVE_LOOP_MAX 16384

/* Solve steps with a factored front (P = [L11; L21], m × k, ldp) on nrhs
 * right-hand sides. Forward: X1 (k × nrhs, ldx) ← L11⁻¹ X1, then
 * T (r × nrhs, ldt, r = m − k) ← beta·T + L21 X1: the amounts to subtract
 * from the rows of the front's CB (beta 0: T is only written). Backward:
 * with T holding those rows of the solution, X1 ← L11⁻ᵀ (X1 − L21ᵀ T). One
 * right-hand side uses level-2 BLAS (OpenBLAS's small level-3 calls cost
 * more than their arithmetic); steps of at most SYLVA__SOLVE_LOOP_MAX
 * entries times columns, plain loops. */
void sylva__d_front_solve_forward_cpu(int64_t m, int64_t k, const double *P, int64_t ldp,
                                      int64_t nrhs, double *X1, int64_t ldx, double beta,
                                      double *T, int64_t ldt);
void sylva__s_front_solve_forward_cpu(int64_t m, int64_t k, const float *P, int64_t ldp,
                                      int64_t nrhs, float *X1, int64_t ldx, float beta, float *T,
                                      int64_t ldt);
void sylva__d_front_solve_backward_cpu(int64_t m, int64_t k, const double *P, int64_t ldp,
                                       int64_t nrhs, const double *T, int64_t ldt, double *X1,
                                       int64_t ldx);
void sylva__s_front_solve_backward_cpu(int64_t m, int64_t k, const float *P, int64_t ldp,
                                       int64_t nrhs, const float *T, int64_t ldt, float *X1,
                                       int64_t ldx);

/* The products of the solve on a slice of a front, for tasks that share
 * one front: U (rows × nrhs, ldu) += alpha · Ls · X1 with Ls a rows × k
 * slice (ldl) and X1 k × nrhs (ldx); X1s (cols × nrhs, ldx) −= Lsᵀ · T
 * with Ls an r × cols slice and T r × nrhs (ldt). */
void sylva__d_solve_update_cpu(int64_t rows, int64_t k, const double *L21s, int64_t ldl, int64_t nrhs,
                               const double *X1, int64_t ldx, double alpha, double *U, int64_t ldu);
void sylva__s_solve_update_cpu(int64_t rows, int64_t k, const float *L21s, int64_t ldl, int64_t nrhs,
                               const float *X1, int64_t ldx, float alpha, float *U, int64_t ldu);
void sylva__d_solve_update_t_cpu(int64_t r, int64_t cols, const double *L21s, int64_t ldl, int64_t nrhs,
                                 const double *T, int64_t ldt, double *X1s, int64_t ldx);
void sylva__s_solve_update_t_cpu(int64_t r, int64_t cols, const float *L21s, int64_t ldl, int64_t nrhs,
                                 const float *T, int64_t ldt, float *X1s, int64_t ldx);

/* Multifrontal solve glue on nrhs columns. Extend-add of a child's update
 * U (mc × nrhs, ldu; amounts to subtract) into its parent: relmap[i] is the
 * parent's local row of U's row i (increasing); rows < kp are subtracted
 * from the parent's pivot rows X1 (ldx), the others added to the parent's
 * own update Up (ldup, row relmap[i] − kp; Up may be NULL when every row is
 * a pivot row). Gather T[i] = W[rows[i]] and scatter W[rows[i]] −= T[i]
 * through a front's row list (r rows, nrhs columns). */
void sylva__d_solve_extend_add_cpu(int64_t mc, int64_t nrhs, const double *U, int64_t ldu,
                                   const int64_t *relmap, int64_t kp, double *X1, int64_t ldx,
                                   double *Up, int64_t ldup);
void sylva__s_solve_extend_add_cpu(int64_t mc, int64_t nrhs, const float *U, int64_t ldu,
                                   const int64_t *relmap, int64_t kp, float *X1, int64_t ldx,
                                   float *Up, int64_t ldup);
void sylva__d_solve_gather_cpu(int64_t r, int64_t nrhs, const int64_t *rows, const double *W,
                               int64_t ldw, double *T, int64_t ldt);
void sylva__s_solve_gather_cpu(int64_t r, int64_t nrhs, const int64_t *rows, const float *W,
                               int64_t ldw, float *T, int64_t ldt);
void sylva__d_solve_scatter_sub_cpu(int64_t r, int64_t nrhs, const int64_t *rows, const double *T,
                                    int64_t ldt, double *W, int64_t ldw);
void sylva__s_solve_scatter_sub_cpu(int64_t r, int64_t nrhs, const int64_t *rows, const float *T,
                                    int64_t ldt, float *W, int64_t ldw);

#endif
