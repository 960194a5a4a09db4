/* front_batch_cpu.h — CPU twins of the GPU kernels of gpu_front.h: the same
 * batches, in host arrays, computed front by front with LAPACK/BLAS through
 * front_cpu.h — the GPU tests' reference (the CPU codelets call front_cpu.h
 * directly). Written once (t_front_batch_cpu.c) and instantiated for double,
 * the precision of the GPU entry points. No allocation, no threads of their
 * own. */
#ifndef SYLVA_KERNELS_FRONT_BATCH_CPU_H
#define SYLVA_KERNELS_FRONT_BATCH_CPU_H

#include <stdint.h>

/* Partial factorization of each front; info[i] as sylva__front_factor_cpu.
 * Fronts whose info is non-zero on entry are skipped, as on the GPU. */
void sylva__d_front_factor_batch_cpu(int count, const int *m, const int *k, double *const *P,
                                   const int *ldp, double *const *C, const int *ldc, int *info);
/* A (n × n, lower) = L·Lᵀ. */
void sylva__d_potrf_batch_cpu(int count, const int *n, double *const *A, const int *lda, int *info);
/* B (m × n) ← B·L⁻ᵀ. */
void sylva__d_trsm_batch_cpu(int count, const int *m, const int *n, double *const *L,
                           const int *ldl, double *const *B, const int *ldb);
/* C (n × n, lower) ← alpha·A·Aᵀ + beta·C, A n × k. */
void sylva__d_syrk_batch_cpu(int count, const int *n, const int *k, double alpha, double *const *A,
                           const int *lda, double beta, double *const *C, const int *ldc);
/* C (m × n) ← alpha·A·Bᵀ + beta·C; lower ≠ 0: only entries i ≥ j. */
void sylva__d_gemm_nt_batch_cpu(int count, const int *m, const int *n, const int *k, double alpha,
                              double *const *A, const int *lda, double *const *B, const int *ldb,
                              double beta, double *const *C, const int *ldc, int lower);
/* out[e][dst[e][i]] += values[src[e][i]], i < n[e]. */
void sylva__d_scatter_add_batch_cpu(int count, const int64_t *n, const int64_t *const *src,
                                  const int64_t *const *dst, const double *values,
                                  double *const *out);
/* Extend-add of each child CB into its parent, in entry order. */
void sylva__d_extend_add_batch_cpu(int count, const int *mc, const double *const *cb,
                                 const int *ldcb, const int64_t *const *relmap, const int *kp,
                                 double *const *P, const int *ldp, double *const *C,
                                 const int *ldc);

#endif
