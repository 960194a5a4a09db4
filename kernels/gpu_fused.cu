/* gpu_fused.cu — partial factorization of a small front (m ≤ 192) by one
 * thread block in shared memory, one launch for POTRF + TRSM + SYRK. The
 * lower triangle of the whole m × m front is loaded once into packed
 * column-major storage (m(m+1)/2 scalars: 66 KB of doubles at m = 128, so three blocks
 * share an SM), factored right-looking by panels of PB columns: warp 0
 * factors the panel's diagonal block in registers (gpu_warp_potrf.cuh), all
 * threads solve the rows below it (a row each, in registers), and each
 * panel's trailing update (CB included) is a register-tiled rank-PB product
 * by all threads: every thread owns TR × TR entries of a DIM·TR square tile,
 * so shared memory is read 2·TR·PB times per TR²·PB multiply-adds. Written
 * back once. Shared memory is sized by the largest m of the launch, so the
 * dispatcher launches per 32-row bucket. Fronts outside (lo, hi], empty, or
 * with info set exit. With MMA (double, gpu_mma.cuh) the trailing update runs
 * on FP64 tensor cores instead: the lower triangle of the trailing matrix in
 * 16 × 16 blocks, a warp per block at a time (2 × 2 DMMA fragments, PB/4
 * k-steps), each block read-modified-written once per panel; blocks above
 * the diagonal are never formed; and with look-ahead: warp 0 updates the
 * block holding the next panel's diagonal block first and factors it while
 * the other warps finish the update (two barriers per panel instead of
 * three, the panel chain off the update's critical path). Buckets of small
 * fronts may run on 64-thread blocks (more fronts per SM). A front's
 * metadata is read in one round trip before the size filter. With the
 * batch's fused lists (fused_list, gpu_list.cu) a bucket's launch runs only
 * as many blocks as are resident at once, each factoring the listed fronts
 * it claims in turn (no block slots held by fronts of other buckets or
 * classes). Written once for any scalar type T. */
#include <atomic>

#include "gpu_fused.cuh"

#define OCC_DEVICES 16 /* devices whose list launches' occupancy is kept */

namespace sylva {

/* Front f by the whole block (every test before a barrier is uniform over
 * the block); loaded() runs in every thread once the front is in shared
 * memory (the list form's next claim there). */
template <typename T, int DIM, int TR, int PB, bool MMA, int QR, typename F>
__device__ __forceinline__ void fused_front(const front_batch<T> &b, int f, int lo, int hi, F loaded)
{
    /* Dynamic shared memory is untyped: one declaration serves every T. */
    extern __shared__ __align__(16) unsigned char smem[];
    T *sA = reinterpret_cast<T *>(smem);
    constexpr int NW = DIM * DIM / 32;
    /* The front's metadata in one round trip (gpu_common.cuh: ld_early). */
    const int m = ld_early(b.m + f), k = ld_early(b.k + f), info0 = ld_early(b.info + f);
    const int ldp = ld_early(b.ldp + f), ldc0 = ld_early(b.ldc + f);
    T *P = ld_early(b.P + f), *C0 = ld_early(b.C + f);
    if (m <= lo || m > hi || k <= 0 || info0 != 0) return;
    const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
    T *C = m > k ? C0 : nullptr;
    const int ldc = m > k ? ldc0 : 0;

    /* Load: CB columns × QR rows per lane into registers first, then store.
     * (Through generic pointers a load after a shared store may alias it, so
     * a plain load/store loop runs one global latency per element.) */
    constexpr int CB = 12 / QR; /* QR·32 ≥ the bucket's largest m; 12 loads in flight */
    for (int c0 = warp; c0 < m; c0 += NW * CB) {
        T v[CB][QR];
#pragma unroll
        for (int w = 0; w < CB; w++) {
            const int c = c0 + NW * w;
#pragma unroll
            for (int q = 0; q < QR; q++) {
                const int r = c + lane + 32 * q;
                v[w][q] = T(0);
                if (c < m && r < m)
                    v[w][q] = c < k ? P[r + (size_t)c * ldp] : C[(r - k) + (size_t)(c - k) * ldc];
            }
        }
#pragma unroll
        for (int w = 0; w < CB; w++) {
            const int c = c0 + NW * w;
            if (c >= m) break;
            const int o = pk(c, m);
#pragma unroll
            for (int q = 0; q < QR; q++) {
                const int r = c + lane + 32 * q;
                if (r < m) sA[o + r] = v[w][q];
            }
        }
    }
    const int info = fused_factor_packed<T, DIM, TR, PB, MMA>(sA, m, k, loaded);
    if (info) {
        if (tid == 0) b.info[f] = info;
        return;
    }
    fused_store_packed<T, DIM>(sA, m, k, P, ldp, C, ldc);
}

/* LIST: the bucket's listed fronts (gpu_common.cuh), claimed one at a
 * time by thread 0: the next claim issued when a front starts and its list
 * word read once that front is loaded (both latencies under the front's
 * work); else front blockIdx.x. */
template <typename T, int DIM, int TR, int PB, bool MMA, int QR, bool LIST>
__global__ void __launch_bounds__(DIM *DIM, DIM == 16 ? 3 : 12) /* 3 blocks of m ≤ 128 per SM; 12 of m ≤ 64 */
    fused_front_kernel(front_batch<T> b, int lo, int hi)
{
    if constexpr (!LIST) {
        fused_front<T, DIM, TR, PB, MMA, QR>(b, blockIdx.x, lo, hi, [] {});
    } else {
        __shared__ int s_f;
        int *w = b.work;
        const int q = (hi - 1) / 32, first = w[FL_START + q], end = w[FL_START + q + 1];
        if (threadIdx.x == 0) {
            const int e = first + atomicAdd(w + FL_NEXT + q, 1);
            s_f = e < end ? w[SYLVA_FRONT_WORK_HDR + e] : -1;
        }
        for (;;) {
            __syncthreads(); /* s_f set; the previous front's shared memory free */
            const int f = s_f;
            if (f < 0) break;
            __syncthreads(); /* every thread has read s_f */
            int e = end, nf = -1;
            if (threadIdx.x == 0) e = first + atomicAdd(w + FL_NEXT + q, 1);
            fused_front<T, DIM, TR, PB, MMA, QR>(b, f, lo, hi, [&] {
                if (threadIdx.x == 0 && e < end) nf = ld_early(w + SYLVA_FRONT_WORK_HDR + e); /* issued here */
            });
            /* nf < 0 with e < end: the front exited before its load */
            if (threadIdx.x == 0) s_f = e < end && nf < 0 ? w[SYLVA_FRONT_WORK_HDR + e] : nf;
        }
    }
}

template <typename T, int DIM, int PB, bool MMA, int QR, bool LIST>
static int launch_q(const front_batch<T> &b, int lo, int hi, cudaStream_t s)
{
    const size_t smem = (size_t)hi * (hi + 1) / 2 * sizeof(T); /* packed lower */
    auto kern = fused_front_kernel<T, DIM, 4, PB, MMA, QR, LIST>;
    /* The dynamic shared memory this instance may be launched with: that of
     * its largest bucket (QR·32 rows), the same value from every worker
     * thread. Set per launch to `smem` instead, one worker could lower it
     * between another's setting and launch; and the 48 KB default includes
     * the kernel's static arrays, so skipping it up to smem = 48 KB failed
     * for buckets ending at m = 108–110 (lap3d7:26 and :28, "invalid
     * argument"). */
    const size_t cap = (size_t)(QR * 32) * (QR * 32 + 1) / 2 * sizeof(T);
    if (cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)cap) != cudaSuccess)
        return sylva__launch_status();
    /* All of the unified L1/shared storage as shared memory: at m ≤ 64 the
     * default carveout held 8 blocks per SM where registers allow 12 (ncu,
     * docs/perf-log.md v5). */
    if (cudaFuncSetAttribute(kern, cudaFuncAttributePreferredSharedMemoryCarveout,
                             cudaSharedmemCarveoutMaxShared) != cudaSuccess)
        return SYLVA_ERR_RUNTIME;
    unsigned grid = (unsigned)b.count;
    if constexpr (LIST) {
        /* As many blocks as are resident at once (unknown: a block per
         * front). The occupancy query costs microseconds of host time a
         * launch (v14): its answer is kept per device and bucket end hi
         * (the shared memory) for this instance, whose buckets end within
         * (32·(QR − 2), 32·QR]; relaxed atomics (any thread stores the same
         * answer; 0: not asked yet, else blocks per SM + 1). */
        static std::atomic<int> occ[OCC_DEVICES][64];
        int dev = -1, per = 0;
        const int slot = hi - 1 - 32 * (QR - 2);
        if (cudaGetDevice(&dev) != cudaSuccess) dev = -1, cudaGetLastError();
        std::atomic<int> *c = dev >= 0 && dev < OCC_DEVICES && slot >= 0 && slot < 64 ? &occ[dev][slot] : nullptr;
        const int known = c ? c->load(std::memory_order_relaxed) : 0;
        if (known > 0) {
            per = known - 1;
        } else if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, kern, DIM * DIM, smem) != cudaSuccess) {
            per = 0, cudaGetLastError();
        } else if (c) {
            c->store(per + 1, std::memory_order_relaxed);
        }
        const int sms = device_sm_count();
        if (per > 0 && sms > 0 && (long)per * sms < b.count) grid = (unsigned)(per * sms);
    }
    kern<<<grid, DIM * DIM, smem, s>>>(b, lo, hi);
    return sylva__launch_status();
}

/* The load loop sized by the bucket: QR rows of 32 per lane. */
template <typename T, int DIM, int PB, bool MMA, bool LIST>
static int launch_v(const front_batch<T> &b, int lo, int hi, cudaStream_t s)
{
    if (hi <= 64) return launch_q<T, DIM, PB, MMA, 2, LIST>(b, lo, hi, s);
    if (hi <= 128) return launch_q<T, DIM, PB, MMA, 4, LIST>(b, lo, hi, s);
    return launch_q<T, DIM, PB, MMA, 6, LIST>(b, lo, hi, s);
}

template <typename T, bool MMA, bool LIST>
static int launch_p(const front_batch<T> &b, int lo, int hi, int threads, int panel,
                    cudaStream_t s)
{
    if (threads == 64)
        return panel == 16 ? launch_v<T, 8, 16, MMA, LIST>(b, lo, hi, s)
                           : launch_v<T, 8, 8, MMA, LIST>(b, lo, hi, s);
    return panel == 16 ? launch_v<T, 16, 16, MMA, LIST>(b, lo, hi, s)
                       : launch_v<T, 16, 8, MMA, LIST>(b, lo, hi, s);
}

template <typename T, bool LIST>
static int launch_m(const front_batch<T> &b, int lo, int hi, int threads, int panel, bool mma,
                    cudaStream_t s)
{
    return mma ? launch_p<T, true, LIST>(b, lo, hi, threads, panel, s)
               : launch_p<T, false, LIST>(b, lo, hi, threads, panel, s);
}

template <typename T>
int launch_fused(const front_batch<T> &b, int lo, int hi, const sylva__kernel_tuning *t,
                 int listed, cudaStream_t s)
{
    if (hi > 192) return SYLVA_ERR_ARGUMENT;
    int rc = SYLVA_OK;
    /* 32-row buckets: a block of small fronts does not reserve the shared
     * memory of the largest. Each bucket picks its block size and update
     * form by its largest m. */
    for (int l = lo; l < hi && rc == SYLVA_OK;) {
        int h = (l / 32 + 1) * 32;
        if (h > hi) h = hi;
        const int threads = h <= t->fused_small_m ? 64 : t->fused_threads;
        const bool mma = has_mma<T>::value && h > t->fused_mma_min_m;
        if (listed)
            rc = launch_m<T, true>(b, l, h, threads, t->fused_panel, mma, s);
        else
            rc = launch_m<T, false>(b, l, h, threads, t->fused_panel, mma, s);
        l = h;
    }
    return rc;
}

template int launch_fused<double>(const front_batch<double> &, int, int,
                                  const sylva__kernel_tuning *, int, cudaStream_t);

} // namespace sylva
