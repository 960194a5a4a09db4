/* gpu_front.h — GPU kernels on fronts: variable-size batched (vbatched)
 * partial factorization and its parts (POTRF, TRSM, SYRK, GEMM), GPU assembly
 * (scatter of A, extend-add), and the native partial factorization of one big
 * front. Semantics are those of front_cpu.h (two-pointer front P, C; lower
 * triangles only), computed on device arrays.
 *
 * Rules for every call (MAGMA's vbatched layering): sizes, leading dims and
 * pointers live in DEVICE arrays; `*_max_nocheck` entries take host-known
 * maxima and trust them; checked entries take host copies of the sizes,
 * validate them and derive the maxima. No allocation, no handle creation, no
 * synchronization inside; all work is queued on the given stream (except:
 * with the tuning key class_streams ≠ 0 the vbatched factorization queues
 * its medium path on the calling thread's second stream, made with three
 * events at that thread's first such call on the device and kept until the
 * thread ends, forked from and joined back to the given stream within the
 * call, so that later work on the given stream follows all of it). One `info`
 * per front (device array): 0, or j > 0 when the leading j × j minor of F11 is
 * not positive definite (that front's P and C are then unspecified; the other
 * fronts are unaffected). Fronts whose info is already non-zero on entry are
 * skipped (early termination). Return: 0, SYLVA_ERR_ARGUMENT, SYLVA_ERR_RUNTIME
 * (launch failed), SYLVA_ERR_UNSUPPORTED (built without CUDA).
 * Plain C: the CUDA handle types are named by their struct tags only. The
 * kernels are templates on the scalar type (gpu_common.cuh); these entry
 * points are their double instantiation.
 */
#ifndef SYLVA_KERNELS_GPU_FRONT_H
#define SYLVA_KERNELS_GPU_FRONT_H

#include <stddef.h>
#include <stdint.h>

#include "kernel_tuning.h"

#ifdef __cplusplus
extern "C" {
#endif

struct CUstream_st;        /* cudaStream_t */
struct cublasContext;      /* cublasHandle_t */
struct cusolverDnContext;  /* cusolverDnHandle_t */

/* A batch of fronts, all arrays on the device, `count` entries each. */
typedef struct sylva__front_batch {
    int count;
    const int *m, *k;       /* rows, pivot columns (0 ≤ k ≤ m) */
    double *const *P;       /* m × k pivot columns, leading dim ldp ≥ max(1, m) */
    const int *ldp;
    double *const *C;       /* (m−k)² CB, lower, leading dim ldc ≥ max(1, m−k) */
    const int *ldc;
    int *info;              /* set to 0 by the caller before the first call */
    /* Optional device scratch of SYLVA_FRONT_WORK_BYTES(count) bytes (NULL:
     * none; ints, 16-byte aligned), private to the call until its work on
     * the stream is done: with the tuning key medium_list ≠ 0 the medium path
     * lists its fronts there (built on the device, in the call) and launches
     * its grids over that list only, and with fused_list ≠ 0 so do the fused
     * buckets (docs/kernels.md). */
    int *work;
} sylva__front_batch;

/* The scratch's layout: SYLVA_FRONT_WORK_HDR ints of counts, then one int
 * per front of the batch (since v11 the fused class's lists too). */
#define SYLVA_FRONT_WORK_HDR 88
#define SYLVA_FRONT_WORK_BYTES(count) (((size_t)(count) + SYLVA_FRONT_WORK_HDR) * sizeof(int))

/* ---- Whole partial factorization of every front: tiny fronts (m ≤ 32) in
 * registers, one warp group per front; small fronts in one thread block's
 * shared memory; larger fronts by left-looking panels + lower-only GEMM. */
int sylva__gpu_front_factor_vbatched(const sylva__front_batch *b, const int *h_m, const int *h_k,
                                     const int *h_ldp, const int *h_ldc,
                                     const sylva__kernel_tuning *tune, struct CUstream_st *s);
int sylva__gpu_front_factor_vbatched_max_nocheck(const sylva__front_batch *b, int max_m,
                                                 int max_k, const sylva__kernel_tuning *tune,
                                                 struct CUstream_st *s);
/* The same with a host-known smallest m as well (0 or 1: unknown): the
 * launches of size classes wholly below it are skipped (a fixed-size batch
 * gets min_m = max_m and one launch). Fronts with m < min_m are an error
 * the call does not detect (they may be left unfactored). The checked entries
 * (and sylva__gpu_potrf_vbatched) derive min_m from the host sizes. */
int sylva__gpu_front_factor_vbatched_range_nocheck(const sylva__front_batch *b, int min_m,
                                                   int max_m, int max_k,
                                                   const sylva__kernel_tuning *tune,
                                                   struct CUstream_st *s);

/* ---- The parts, for callers that split the factorization.
 * POTRF: A (n × n, lower) = L·Lᵀ in place. */
int sylva__gpu_potrf_vbatched(int count, const int *n, double *const *A, const int *lda, int *info,
                              const int *h_n, const int *h_lda, const sylva__kernel_tuning *tune,
                              struct CUstream_st *s);
int sylva__gpu_potrf_vbatched_max_nocheck(int count, const int *n, double *const *A,
                                          const int *lda, int *info, int max_n,
                                          const sylva__kernel_tuning *tune, struct CUstream_st *s);
/* TRSM: B (m × n) ← B·L⁻ᵀ, L (n × n) lower, non-unit (the L21 step). */
int sylva__gpu_trsm_vbatched(int count, const int *m, const int *n, double *const *L,
                             const int *ldl, double *const *B, const int *ldb, const int *h_m,
                             const int *h_n, const int *h_ldl, const int *h_ldb,
                             const sylva__kernel_tuning *tune, struct CUstream_st *s);
int sylva__gpu_trsm_vbatched_max_nocheck(int count, const int *m, const int *n,
                                         double *const *L, const int *ldl, double *const *B,
                                         const int *ldb, int max_m, int max_n,
                                         const sylva__kernel_tuning *tune, struct CUstream_st *s);
/* SYRK: C (n × n, lower) ← alpha·A·Aᵀ + beta·C, A n × k. */
int sylva__gpu_syrk_vbatched(int count, const int *n, const int *k, double alpha,
                             double *const *A, const int *lda, double beta, double *const *C,
                             const int *ldc, const int *h_n, const int *h_k, const int *h_lda,
                             const int *h_ldc, struct CUstream_st *s);
int sylva__gpu_syrk_vbatched_max_nocheck(int count, const int *n, const int *k, double alpha,
                                         double *const *A, const int *lda, double beta,
                                         double *const *C, const int *ldc, int max_n, int max_k,
                                         struct CUstream_st *s);
/* GEMM: C (m × n) ← alpha·A·Bᵀ + beta·C, A m × k, B n × k; lower ≠ 0 writes
 * only C(i, j) with i ≥ j and skips tiles above the diagonal. */
int sylva__gpu_gemm_nt_vbatched_max_nocheck(int count, const int *m, const int *n, const int *k,
                                            double alpha, double *const *A, const int *lda,
                                            double *const *B, const int *ldb, double beta,
                                            double *const *C, const int *ldc, int lower,
                                            int max_m, int max_n, int max_k,
                                            struct CUstream_st *s);

/* ---- Assembly. Scatter: for entry e, out[e][dst[e][i]] += values[src[e][i]],
 * i < count[e]; extend-add: entry e adds child CB cb[e] (mc[e]², lower, ldcb)
 * into its parent (kp, P, ldp, C, ldc) through relmap[e] (front_cpu.h).
 * Entries may share a parent: adds are atomic, so summation order (and the
 * last bits) may differ from the CPU twin. */
typedef struct sylva__scatter_batch {
    int count;
    const int64_t *n;                    /* entries per item */
    const int64_t *const *src, *const *dst;
    const double *values;                /* A's values (one array for the batch) */
    double *const *out;
} sylva__scatter_batch;
int sylva__gpu_scatter_add_vbatched_max_nocheck(const sylva__scatter_batch *b, int64_t max_n,
                                                struct CUstream_st *s);

typedef struct sylva__extend_add_batch {
    int count;
    const int *mc;                       /* child CB order */
    const double *const *cb;
    const int *ldcb;
    const int64_t *const *relmap;
    const int *kp;                       /* parent's pivot count */
    double *const *P;
    const int *ldp;
    double *const *C;
    const int *ldc;
} sylva__extend_add_batch;
int sylva__gpu_extend_add_vbatched_max_nocheck(const sylva__extend_add_batch *b, int max_mc,
                                               struct CUstream_st *s);

/* ---- Native: one big front, all on the device, through cuSOLVER/cuBLAS
 * handles the caller made (bound to stream s here). P, C, info on the device;
 * work of sylva__gpu_native_workspace_bytes() bytes for the same k and
 * table (the table's native_trsm_nb adds buffers).
 * SYRK as lower-triangle tiles of DGEMM when tune->native_syrk_nb > 0, else
 * cublasDsyrk. */
int64_t sylva__gpu_native_workspace_bytes(struct cusolverDnContext *solver, int k, double *P,
                                          int ldp, const sylva__kernel_tuning *tune);
int sylva__gpu_front_factor_native(struct cusolverDnContext *solver, struct cublasContext *blas,
                                   int m, int k, double *P, int ldp, double *C, int ldc,
                                   void *work, int64_t work_bytes, int *info,
                                   const sylva__kernel_tuning *tune, struct CUstream_st *s);
/* The native path's TRSM alone, in the table's form (the bench times each
 * phase): B (m × k) ← B·L⁻ᵀ, L (k × k) lower; work as for the whole front
 * of k pivots. */
int sylva__gpu_native_trsm(struct cublasContext *blas, int m, int k, const double *L, int ldl,
                           double *B, int ldb, void *work, int64_t work_bytes,
                           const sylva__kernel_tuning *tune, struct CUstream_st *s);

#ifdef __cplusplus
}
#endif

#endif
