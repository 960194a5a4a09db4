/* gpu_no_cuda.c — the GPU entry points of gpu_front.h, gpu_context.h,
 * gpu_group.h, gpu_solve.h, gpu_stage.h, gpu_tiles.h and gpu_tree.h in a build without
 * CUDA: there is no device, and each call answers SYLVA_ERR_UNSUPPORTED (no
 * pointer is device memory), so callers need no #ifdef. */
#include <string.h>

#include "gpu_direct.h"
#include "gpu_front.h"
#include "gpu_group.h"
#include "gpu_solve.h"
#include "gpu_stage.h"
#include "gpu_tiles.h"
#include "gpu_tree.h"
#include "sylva.h"

int sylva__gpu_device_count(void) { return 0; }
int64_t sylva__gpu_device_memory(int dev)
{
    (void)dev;
    return 0;
}
int sylva__gpu_context_create(struct CUstream_st *s, sylva__gpu_context **ctx)
{
    (void)s;
    *ctx = 0;
    return SYLVA_ERR_UNSUPPORTED;
}
int sylva__gpu_context_create_bare(struct CUstream_st *s, sylva__gpu_context **ctx)
{
    return sylva__gpu_context_create(s, ctx);
}
void sylva__gpu_context_free(sylva__gpu_context *ctx) { (void)ctx; }
const sylva__kernel_tuning *sylva__gpu_context_tuning(const sylva__gpu_context *ctx)
{
    (void)ctx;
    return 0;
}
const char *sylva__gpu_context_name(const sylva__gpu_context *ctx)
{
    (void)ctx;
    return "";
}
int sylva__gpu_context_reset(sylva__gpu_context *ctx)
{
    (void)ctx;
    return SYLVA_ERR_UNSUPPORTED;
}
int sylva__gpu_context_failures(sylva__gpu_context *ctx, int64_t *fronts, int *pivots, int cap,
                                int *count)
{
    (void)ctx, (void)fronts, (void)pivots, (void)cap;
    *count = 0;
    return SYLVA_ERR_UNSUPPORTED;
}
void sylva__gpu_context_sample(sylva__gpu_context *ctx) { (void)ctx; }
size_t sylva__gpu_context_peak(const sylva__gpu_context *ctx)
{
    (void)ctx;
    return 0;
}
int64_t sylva__gpu_context_native_bytes(sylva__gpu_context *ctx, int k)
{
    (void)ctx, (void)k;
    return -1;
}
int sylva__gpu_zero(void *p, size_t bytes, struct CUstream_st *s)
{
    (void)p, (void)bytes, (void)s;
    return SYLVA_ERR_UNSUPPORTED;
}
int sylva__group_factor_gpu(sylva__gpu_context *ctx, const sylva__group_desc *g,
                            const sylva__group_buffers *b, int factor, struct CUstream_st *s)
{
    (void)ctx, (void)g, (void)b, (void)factor, (void)s;
    return SYLVA_ERR_UNSUPPORTED;
}

int sylva__tree_factor_gpu(sylva__gpu_context *ctx, const sylva__tree_launch *t, struct CUstream_st *s)
{
    (void)ctx, (void)t, (void)s;
    return SYLVA_ERR_UNSUPPORTED;
}

int sylva__gpu_front_factor_vbatched(const sylva__front_batch *b, const int *h_m, const int *h_k,
                                     const int *h_ldp, const int *h_ldc,
                                     const sylva__kernel_tuning *tune, struct CUstream_st *s)
{
    (void)b, (void)h_m, (void)h_k, (void)h_ldp, (void)h_ldc, (void)tune, (void)s;
    return SYLVA_ERR_UNSUPPORTED;
}
int sylva__gpu_front_factor_vbatched_max_nocheck(const sylva__front_batch *b, int max_m,
                                                 int max_k, const sylva__kernel_tuning *tune,
                                                 struct CUstream_st *s)
{
    (void)b, (void)max_m, (void)max_k, (void)tune, (void)s;
    return SYLVA_ERR_UNSUPPORTED;
}
int sylva__gpu_front_factor_vbatched_range_nocheck(const sylva__front_batch *b, int min_m,
                                                   int max_m, int max_k,
                                                   const sylva__kernel_tuning *tune,
                                                   struct CUstream_st *s)
{
    (void)b, (void)min_m, (void)max_m, (void)max_k, (void)tune, (void)s;
    return SYLVA_ERR_UNSUPPORTED;
}
int sylva__gpu_potrf_vbatched(int count, const int *n, double *const *A, const int *lda, int *info,
                              const int *h_n, const int *h_lda, const sylva__kernel_tuning *tune,
                              struct CUstream_st *s)
{
    (void)count, (void)n, (void)A, (void)lda, (void)info, (void)h_n, (void)h_lda, (void)tune,
        (void)s;
    return SYLVA_ERR_UNSUPPORTED;
}
int sylva__gpu_potrf_vbatched_max_nocheck(int count, const int *n, double *const *A,
                                          const int *lda, int *info, int max_n,
                                          const sylva__kernel_tuning *tune, struct CUstream_st *s)
{
    (void)count, (void)n, (void)A, (void)lda, (void)info, (void)max_n, (void)tune, (void)s;
    return SYLVA_ERR_UNSUPPORTED;
}
int sylva__gpu_trsm_vbatched(int count, const int *m, const int *n, double *const *L,
                             const int *ldl, double *const *B, const int *ldb, const int *h_m,
                             const int *h_n, const int *h_ldl, const int *h_ldb,
                             const sylva__kernel_tuning *tune, struct CUstream_st *s)
{
    (void)count, (void)m, (void)n, (void)L, (void)ldl, (void)B, (void)ldb, (void)h_m, (void)h_n,
        (void)h_ldl, (void)h_ldb, (void)tune, (void)s;
    return SYLVA_ERR_UNSUPPORTED;
}
int sylva__gpu_trsm_vbatched_max_nocheck(int count, const int *m, const int *n,
                                         double *const *L, const int *ldl, double *const *B,
                                         const int *ldb, int max_m, int max_n,
                                         const sylva__kernel_tuning *tune, struct CUstream_st *s)
{
    (void)count, (void)m, (void)n, (void)L, (void)ldl, (void)B, (void)ldb, (void)max_m,
        (void)max_n, (void)tune, (void)s;
    return SYLVA_ERR_UNSUPPORTED;
}
int sylva__gpu_syrk_vbatched(int count, const int *n, const int *k, double alpha,
                             double *const *A, const int *lda, double beta, double *const *C,
                             const int *ldc, const int *h_n, const int *h_k, const int *h_lda,
                             const int *h_ldc, struct CUstream_st *s)
{
    (void)count, (void)n, (void)k, (void)alpha, (void)A, (void)lda, (void)beta, (void)C,
        (void)ldc, (void)h_n, (void)h_k, (void)h_lda, (void)h_ldc, (void)s;
    return SYLVA_ERR_UNSUPPORTED;
}
int sylva__gpu_syrk_vbatched_max_nocheck(int count, const int *n, const int *k, double alpha,
                                         double *const *A, const int *lda, double beta,
                                         double *const *C, const int *ldc, int max_n, int max_k,
                                         struct CUstream_st *s)
{
    (void)count, (void)n, (void)k, (void)alpha, (void)A, (void)lda, (void)beta, (void)C,
        (void)ldc, (void)max_n, (void)max_k, (void)s;
    return SYLVA_ERR_UNSUPPORTED;
}
int sylva__gpu_gemm_nt_vbatched_max_nocheck(int count, const int *m, const int *n, const int *k,
                                            double alpha, double *const *A, const int *lda,
                                            double *const *B, const int *ldb, double beta,
                                            double *const *C, const int *ldc, int lower,
                                            int max_m, int max_n, int max_k,
                                            struct CUstream_st *s)
{
    (void)count, (void)m, (void)n, (void)k, (void)alpha, (void)A, (void)lda, (void)B, (void)ldb,
        (void)beta, (void)C, (void)ldc, (void)lower, (void)max_m, (void)max_n, (void)max_k,
        (void)s;
    return SYLVA_ERR_UNSUPPORTED;
}
int sylva__gpu_scatter_add_vbatched_max_nocheck(const sylva__scatter_batch *b, int64_t max_n,
                                                struct CUstream_st *s)
{
    (void)b, (void)max_n, (void)s;
    return SYLVA_ERR_UNSUPPORTED;
}
int sylva__gpu_extend_add_vbatched_max_nocheck(const sylva__extend_add_batch *b, int max_mc,
                                               struct CUstream_st *s)
{
    (void)b, (void)max_mc, (void)s;
    return SYLVA_ERR_UNSUPPORTED;
}
int64_t sylva__gpu_native_workspace_bytes(struct cusolverDnContext *solver, int k, double *P,
                                          int ldp, const sylva__kernel_tuning *tune)
{
    (void)solver, (void)k, (void)P, (void)ldp, (void)tune;
    return -1;
}
int sylva__gpu_native_trsm(struct cublasContext *blas, int m, int k, const double *L, int ldl,
                           double *B, int ldb, void *work, int64_t work_bytes,
                           const sylva__kernel_tuning *tune, struct CUstream_st *s)
{
    (void)blas, (void)m, (void)k, (void)L, (void)ldl, (void)B, (void)ldb, (void)work,
        (void)work_bytes, (void)tune, (void)s;
    return SYLVA_ERR_UNSUPPORTED;
}
int sylva__gpu_front_factor_native(struct cusolverDnContext *solver, struct cublasContext *blas,
                                   int m, int k, double *P, int ldp, double *C, int ldc,
                                   void *work, int64_t work_bytes, int *info,
                                   const sylva__kernel_tuning *tune, struct CUstream_st *s)
{
    (void)solver, (void)blas, (void)m, (void)k, (void)P, (void)ldp, (void)C, (void)ldc,
        (void)work, (void)work_bytes, (void)info, (void)tune, (void)s;
    return SYLVA_ERR_UNSUPPORTED;
}

int sylva__gpu_solve_setup(const sylva__solve_desc *d, const sylva__solve_bufs *b, struct CUstream_st *s)
{
    (void)d, (void)b, (void)s;
    return SYLVA_ERR_UNSUPPORTED;
}
int sylva__gpu_solve_forward(const sylva__solve_desc *d, const sylva__solve_bufs *b, int64_t nrhs, double *X,
                             int zeroed, struct CUstream_st *s)
{
    (void)d, (void)b, (void)nrhs, (void)X, (void)zeroed, (void)s;
    return SYLVA_ERR_UNSUPPORTED;
}
int sylva__gpu_solve_backward(const sylva__solve_desc *d, const sylva__solve_bufs *b, int64_t nrhs, double *X,
                              int zeroed, struct CUstream_st *s)
{
    (void)d, (void)b, (void)nrhs, (void)X, (void)zeroed, (void)s;
    return SYLVA_ERR_UNSUPPORTED;
}
int sylva__gpu_solve_permute(const sylva__solve_desc *d, const sylva__solve_bufs *b, int to_permuted,
                             int64_t nrhs, double *B, int64_t ldb, double *X, struct CUstream_st *s)
{
    (void)d, (void)b, (void)to_permuted, (void)nrhs, (void)B, (void)ldb, (void)X, (void)s;
    return SYLVA_ERR_UNSUPPORTED;
}
int sylva__gpu_solve_begin(const sylva__solve_desc *d, const sylva__solve_bufs *b, int64_t nrhs, double *B,
                           int64_t ldb, double *X, struct CUstream_st *s)
{
    (void)d, (void)b, (void)nrhs, (void)B, (void)ldb, (void)X, (void)s;
    return SYLVA_ERR_UNSUPPORTED;
}
int sylva__gpu_residual(const sylva__solve_pattern *A, const double *values, int64_t nrhs,
                        const double *X, const double *B, double *R, double *omega,
                        struct CUstream_st *s)
{
    (void)A, (void)values, (void)nrhs, (void)X, (void)B, (void)R, (void)omega, (void)s;
    return SYLVA_ERR_UNSUPPORTED;
}
int sylva__gpu_axpy(int64_t n, int64_t nrhs, int sign, double *X, const double *D, struct CUstream_st *s)
{
    (void)n, (void)nrhs, (void)sign, (void)X, (void)D, (void)s;
    return SYLVA_ERR_UNSUPPORTED;
}
int sylva__gpu_copy_to_host(void *dst, const void *src, size_t bytes, struct CUstream_st *s)
{
    (void)dst, (void)src, (void)bytes, (void)s;
    return SYLVA_ERR_UNSUPPORTED;
}
int sylva__gpu_copy_columns(double *dst, int64_t ldd, const double *src, int64_t lds, int64_t rows, int64_t cols,
                            int to_device, struct CUstream_st *s)
{
    (void)dst, (void)ldd, (void)src, (void)lds, (void)rows, (void)cols, (void)to_device, (void)s;
    return SYLVA_ERR_UNSUPPORTED;
}
int sylva__gpu_copy_device(void *dst, const void *src, size_t bytes, struct CUstream_st *s)
{
    (void)dst, (void)src, (void)bytes, (void)s;
    return SYLVA_ERR_UNSUPPORTED;
}
int sylva__gpu_sync(struct CUstream_st *s)
{
    (void)s;
    return SYLVA_ERR_UNSUPPORTED;
}
int sylva__gpu_pointer_device(const void *p)
{
    (void)p;
    return -1;
}
int sylva__gpu_memcpy(void *dst, const void *src, size_t bytes, int to_device)
{
    (void)dst, (void)src, (void)bytes, (void)to_device;
    return SYLVA_ERR_UNSUPPORTED;
}
int sylva__gpu_stream_open(int device, struct CUstream_st **s)
{
    (void)device;
    *s = NULL;
    return SYLVA_ERR_UNSUPPORTED;
}
void sylva__gpu_stream_close(int device, struct CUstream_st *s) { (void)device, (void)s; }
int sylva__gpu_device_enter(int device, int *prev)
{
    (void)device;
    *prev = 0;
    return SYLVA_ERR_UNSUPPORTED;
}
void sylva__gpu_device_leave(int prev) { (void)prev; }
int sylva__gpu_solve_pivots(const sylva__solve_desc *d, const sylva__solve_bufs *b, struct CUstream_st *s)
{
    (void)d, (void)b, (void)s;
    return SYLVA_ERR_UNSUPPORTED;
}

int sylva__gpu_solve_trace_begin(const sylva__solve_desc *d, int64_t nrhs, sylva__solve_bufs *b)
{
    (void)d, (void)nrhs, (void)b;
    return SYLVA_ERR_UNSUPPORTED;
}

int sylva__gpu_solve_trace_end(const sylva__solve_desc *d, sylva__solve_bufs *b, int64_t nrhs, const char *path,
                               struct CUstream_st *s)
{
    (void)d, (void)b, (void)nrhs, (void)path, (void)s;
    return SYLVA_ERR_UNSUPPORTED;
}

int sylva__gpu_tile_potrf(sylva__gpu_context *ctx, int n, double *T, int ld, void *work,
                          int64_t work_bytes, int64_t front, int64_t col0)
{
    (void)ctx, (void)n, (void)T, (void)ld, (void)work, (void)work_bytes, (void)front, (void)col0;
    return SYLVA_ERR_UNSUPPORTED;
}
int sylva__gpu_tile_trsm(sylva__gpu_context *ctx, int m, int n, const double *L, int ldl, double *B,
                         int ldb)
{
    (void)ctx, (void)m, (void)n, (void)L, (void)ldl, (void)B, (void)ldb;
    return SYLVA_ERR_UNSUPPORTED;
}
int sylva__gpu_tile_syrk(sylva__gpu_context *ctx, int n, int k, const double *A, int lda, double *C,
                         int ldc)
{
    (void)ctx, (void)n, (void)k, (void)A, (void)lda, (void)C, (void)ldc;
    return SYLVA_ERR_UNSUPPORTED;
}
int sylva__gpu_tile_gemm(sylva__gpu_context *ctx, int m, int n, int k, const double *A, int lda,
                         const double *B, int ldb, double *C, int ldc)
{
    (void)ctx, (void)m, (void)n, (void)k, (void)A, (void)lda, (void)B, (void)ldb, (void)C, (void)ldc;
    return SYLVA_ERR_UNSUPPORTED;
}
int sylva__gpu_tile_copy(sylva__gpu_context *ctx, int64_t rows, int64_t cols, const double *src,
                         int64_t lds, double *dst, int64_t ldd)
{
    (void)ctx, (void)rows, (void)cols, (void)src, (void)lds, (void)dst, (void)ldd;
    return SYLVA_ERR_UNSUPPORTED;
}

int sylva__gpu_context_stage(sylva__gpu_context *ctx, struct sylva__gpu_stage **st)
{
    (void)ctx;
    *st = 0;
    return SYLVA_ERR_UNSUPPORTED;
}
int sylva__gpu_stage_create(int threads, size_t piece_bytes, sylva__gpu_stage **st)
{
    (void)threads;
    (void)piece_bytes;
    *st = 0;
    return SYLVA_ERR_UNSUPPORTED;
}
void sylva__gpu_stage_free(sylva__gpu_stage *st) { (void)st; }
int sylva__gpu_stage_copy(sylva__gpu_stage *st, double *dst, int64_t ldd, const double *src, int64_t lds,
                          int64_t rows, int64_t cols, int to_device, struct CUstream_st *s)
{
    (void)st, (void)dst, (void)ldd, (void)src, (void)lds, (void)rows, (void)cols, (void)to_device, (void)s;
    return SYLVA_ERR_UNSUPPORTED;
}
int sylva__gpu_pin_upload(sylva__gpu_pin *p, int mode, size_t min_bytes, size_t piece_bytes, double *dst,
                          int64_t ldd, const double *src, int64_t lds, int64_t rows, int64_t cols,
                          struct CUstream_st *s)
{
    (void)mode, (void)min_bytes, (void)piece_bytes, (void)dst, (void)ldd, (void)src, (void)lds, (void)rows;
    (void)cols, (void)s;
    memset(p, 0, sizeof *p);
    return SYLVA_ERR_UNSUPPORTED;
}
int sylva__gpu_pin_download(sylva__gpu_pin *p, double *dst, int64_t ldd, const double *src, int64_t lds,
                            int64_t rows, int64_t cols, struct CUstream_st *s)
{
    (void)p, (void)dst, (void)ldd, (void)src, (void)lds, (void)rows, (void)cols, (void)s;
    return SYLVA_ERR_UNSUPPORTED;
}
void sylva__gpu_pin_release(sylva__gpu_pin *p) { (void)p; }

int sylva__gpu_copy_up(void *dst, const void *src, size_t bytes, struct CUstream_st *s)
{
    (void)dst, (void)src, (void)bytes, (void)s;
    return SYLVA_ERR_UNSUPPORTED;
}
int sylva__gpu_marks_create(int n, sylva__gpu_marks **m)
{
    (void)n;
    *m = NULL;
    return SYLVA_ERR_UNSUPPORTED;
}
void sylva__gpu_marks_free(sylva__gpu_marks *m) { (void)m; }
int sylva__gpu_marks_record(sylva__gpu_marks *m, int i, struct CUstream_st *s)
{
    (void)m, (void)i, (void)s;
    return SYLVA_ERR_UNSUPPORTED;
}
int sylva__gpu_marks_seconds(sylva__gpu_marks *m, int i, int j, double *seconds)
{
    (void)m, (void)i, (void)j;
    *seconds = 0;
    return SYLVA_ERR_UNSUPPORTED;
}
