/* gpu_common.cuh — what the CUDA sources of kernels/ share: the status codes,
 * the size filter every batched kernel applies (a launch serves the fronts
 * with lo < m ≤ hi, the others exit at once), and the internal launchers the
 * dispatcher (gpu_front.cu) strings together. Internal to kernels/.
 *
 * Precision: every kernel and launcher is written once as a template on the
 * scalar type T, over the template mirrors below of gpu_front.h's C batch
 * structs (which C declares for double, the precision the entry points are
 * instantiated for); scalar_ops<T> holds the few operations whose name
 * depends on T. */
#ifndef SYLVA_KERNELS_GPU_COMMON_CUH
#define SYLVA_KERNELS_GPU_COMMON_CUH

#include <cuda_runtime.h>

#include "core.h"
#include "gpu_front.h"

#define SYLVA_DIV_UP(a, b) (((a) + (b) - 1) / (b))

namespace sylva {

template <typename T> struct front_batch {
    int count;
    const int *m, *k;
    T *const *P;
    const int *ldp;
    T *const *C;
    const int *ldc;
    int *info;
    int *work; /* optional scratch (gpu_front.h); the medium path's list lives there */
};

template <typename T> struct scatter_batch {
    int count;
    const int64_t *n;
    const int64_t *const *src, *const *dst;
    const T *values;
    T *const *out;
};

template <typename T> struct extend_add_batch {
    int count;
    const int *mc;
    const T *const *cb;
    const int *ldcb;
    const int64_t *const *relmap;
    const int *kp;
    T *const *P;
    const int *ldp;
    T *const *C;
    const int *ldc;
};

/* The C structs of gpu_front.h (double) as their mirrors. */
static inline front_batch<double> mirror(const sylva__front_batch &b)
{
    return {b.count, b.m, b.k, b.P, b.ldp, b.C, b.ldc, b.info, b.work};
}
static inline scatter_batch<double> mirror(const sylva__scatter_batch &b)
{
    return {b.count, b.n, b.src, b.dst, b.values, b.out};
}
static inline extend_add_batch<double> mirror(const sylva__extend_add_batch &b)
{
    return {b.count, b.mc, b.cb, b.ldcb, b.relmap, b.kp, b.P, b.ldp, b.C, b.ldc};
}

/* 1/√x in one instruction for each scalar type. */
__device__ __forceinline__ double rsqrt_t(double x) { return rsqrt(x); }
__device__ __forceinline__ float rsqrt_t(float x) { return rsqrtf(x); }

/* A global load neither compiler may sink below a later branch (a volatile
 * load: ptxas moved plain ones, even from volatile asm, past the size
 * filter's exit): a front's metadata is read in one round trip before its
 * size filter instead of a dependent load after each test. */
__device__ __forceinline__ int ld_early(const int *p)
{
    int v;
    asm volatile("ld.volatile.global.s32 %0, [%1];" : "=r"(v) : "l"(p));
    return v;
}
template <typename T> __device__ __forceinline__ T *ld_early(T *const *p)
{
    unsigned long long v;
    asm volatile("ld.volatile.global.u64 %0, [%1];" : "=l"(v) : "l"(p));
    return reinterpret_cast<T *>(v);
}

/* gpu_tiny.cu: fronts with lo < m ≤ hi ≤ 32, a lane group per front (the
 * kernels' forms from the tuning table t: tiny_min_blocks, tiny_fronts4,
 * tiny_min_blocks4, tiny_one_launch). */
template <typename T>
int launch_tiny(const front_batch<T> &b, int lo, int hi, const sylva__kernel_tuning *t,
                cudaStream_t s);
/* The fused class's lists (tuning key fused_list, a batch with a work
 * scratch; built by gpu_list.cu with the medium list, whose entries come
 * first): work[FL_START + q], q ≤ FL_BUCKETS: where the entries of fused
 * bucket q (fronts with 32q < m ≤ 32q + 32 inside the class, k > 0, info = 0)
 * start, so bucket q holds [work[FL_START + q], work[FL_START + q + 1]) at
 * SYLVA_FRONT_WORK_HDR, most pivots first (by FL_KSTEP columns);
 * work[FL_NEXT + q]: bucket q's next unclaimed entry (0 from the list
 * kernel; its launch's blocks claim entries by atomicAdd). */
#define FL_BUCKETS 6
#define FL_START 64
#define FL_NEXT 72
#define FL_KSTEP 16
/* gpu_fused.cu: fronts with lo < m ≤ hi ≤ 192, a block per front (threads,
 * panel width, DMMA and small-front crossovers from the tuning table t);
 * listed ≠ 0: the fused lists are in b.work, and each bucket's launch runs
 * as many blocks as fit the GPU, which claim its listed fronts in turn. */
template <typename T>
int launch_fused(const front_batch<T> &b, int lo, int hi, const sylva__kernel_tuning *t,
                 int listed, cudaStream_t s);
/* gpu_list.cu: the lists in b.work in one launch: the fused class's for
 * fronts with flo < m ≤ fhi (none when flo ≥ fhi), the medium path's
 * (gpu_gemm.cuh) for m > mlo by panels of nb (none when mlo < 0). */
template <typename T>
int launch_front_lists(const front_batch<T> &b, int flo, int fhi, int mlo, int nb, cudaStream_t s);
/* The current device's SM count (cached per device; 0 when CUDA cannot
 * say). */
int device_sm_count();
/* gpu_class_streams.cu: the calling thread's second stream on the current
 * device (high: at the device's greatest priority, else at its least, the
 * default) and its three events (fork, lists built, join), made at the
 * first need and kept for the thread's life; SYLVA_OK, or an error when
 * CUDA cannot make them (the caller then stays on one stream). */
int class_streams(bool high, cudaStream_t *aux, cudaEvent_t ev[3]);
/* gpu_panel.cu: fronts with m > lo by left-looking panels + lower GEMM;
 * mma 1: the GEMM tiles on FP64 tensor cores (gpu_mma.cuh), 2: those of
 * v9's grids only (without a list), 0: none; batches of at
 * least merge_min_count fronts (> 0): one block per front and panel;
 * medium_list > 0: the grids over the list of the path's fronts that
 * launch_front_lists built in b.work (gpu_gemm.cuh). */
template <typename T>
int launch_blocked(const front_batch<T> &b, int lo, int max_m, int max_k, int nb, int mma,
                   int merge_min_count, int medium_list, cudaStream_t s);
template <typename T>
int launch_trsm(int count, const int *m, const int *n, T *const *L, const int *ldl, T *const *B,
                const int *ldb, int max_m, int max_n, int nb, int mma, cudaStream_t s);

} // namespace sylva

/* Status after a launch: a launch error becomes SYLVA_ERR_RUNTIME with
 * CUDA's message. */
static inline int sylva__launch_status(void)
{
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess) return SYLVA_OK;
    return sylva__fail(SYLVA_ERR_RUNTIME, "kernel launch failed: %s", cudaGetErrorString(e));
}

#endif
