/* gpu_list.cu — the lists of a batch's fronts that the fused buckets and
 * the medium path launch over (tuning keys fused_list and medium_list; the
 * layouts in gpu_common.cuh and gpu_gemm.cuh), built in the batch's work
 * scratch by one block at the start of the call: a shared-memory histogram
 * of the fronts by class and key (one atomic per key and warp), then each
 * front written at its key's next slot. The medium path's key is its count of pivot panels (most first),
 * the fused class's its 32-row bucket, then its pivots by FL_KSTEP (most
 * first: the longest fronts are claimed first). Fronts with k = 0 or info
 * ≠ 0 are not listed. Also the SM count the grids are sized by. Written
 * once for any scalar type T. */
#include <atomic>

#include "gpu_common.cuh"
#include "gpu_gemm.cuh"

namespace sylva {

#define LIST_THREADS 1024
#define LIST_PER 8
#define FL_KBINS (192 / FL_KSTEP)                   /* pivot bins of a fused bucket */
#define LIST_BINS (MED_PMAX + FL_BUCKETS * FL_KBINS) /* medium: 1..MED_PMAX; fused after */

/* The key of front (m, k, info): 1..MED_PMAX for the medium path, above for
 * the fused class, 0 for none. */
__device__ __forceinline__ static int list_bin(int m, int k, int info, int flo, int fhi, int mlo,
                                               int nb)
{
    if (k <= 0 || info != 0) return 0;
    if (mlo >= 0 && m > mlo) {
        const int p = SYLVA_DIV_UP(k, nb);
        return p < MED_PMAX ? p : MED_PMAX;
    }
    if (m > flo && m <= fhi)
        return MED_PMAX + 1 + (m - 1) / 32 * FL_KBINS + (FL_KBINS - 1 - (k - 1) / FL_KSTEP);
    return 0;
}

/* The fronts of the batch in chunks of LIST_THREADS × LIST_PER, each
 * thread's loads all in flight before their use. */
template <typename T>
__global__ void __launch_bounds__(LIST_THREADS)
    front_list_kernel(front_batch<T> b, int flo, int fhi, int mlo, int nb)
{
    __shared__ int slot[LIST_BINS + 1];
    int *w = b.work;
    const int tid = threadIdx.x;
    for (int i = tid; i <= LIST_BINS; i += LIST_THREADS) slot[i] = 0;
    __syncthreads();
    for (int pass = 0; pass < 2; pass++) {
        for (int c0 = 0; c0 < b.count; c0 += LIST_THREADS * LIST_PER) {
            int m[LIST_PER], k[LIST_PER], bad[LIST_PER];
#pragma unroll
            for (int u = 0; u < LIST_PER; u++) {
                const int f = c0 + u * LIST_THREADS + tid;
                m[u] = f < b.count ? b.m[f] : 0;
                k[u] = f < b.count ? b.k[f] : 0;
                bad[u] = f < b.count ? b.info[f] : 1;
            }
#pragma unroll
            for (int u = 0; u < LIST_PER; u++) {
                /* One shared atomic per key present in the warp (a batch's
                 * fronts fall in few keys: per-lane atomics serialize). */
                const int p = list_bin(m[u], k[u], bad[u], flo, fhi, mlo, nb);
                const unsigned act = __ballot_sync(0xffffffffu, p != 0);
                if (p == 0) continue;
                const unsigned peers = __match_any_sync(act, p);
                const int lead = __ffs(peers) - 1, lane = tid % 32;
                int at = 0;
                if (lane == lead) at = atomicAdd(&slot[p], __popc(peers));
                at = __shfl_sync(peers, at, lead) + __popc(peers & ((1u << lane) - 1));
                if (pass == 1) w[SYLVA_FRONT_WORK_HDR + at] = c0 + u * LIST_THREADS + tid;
            }
        }
        __syncthreads();
        if (pass == 0 && tid == 0) {
            /* slot[p] ← where key p starts: the medium path's most panels
             * first, w[s] ← its fronts with more than s panels; then the
             * fused buckets in order, w[FL_START + q] ← where bucket q starts. */
            int run = 0;
            for (int p = MED_PMAX; p >= 1; p--) {
                const int h = slot[p];
                slot[p] = run;
                run += h;
                w[p - 1] = run;
            }
            for (int q = 0; q < FL_BUCKETS; q++) {
                w[FL_START + q] = run, w[FL_NEXT + q] = 0;
                for (int p = MED_PMAX + 1 + q * FL_KBINS; p < MED_PMAX + 1 + (q + 1) * FL_KBINS; p++) {
                    const int h = slot[p];
                    slot[p] = run;
                    run += h;
                }
            }
            w[FL_START + FL_BUCKETS] = run;
        }
        __syncthreads();
    }
}

template <typename T>
int launch_front_lists(const front_batch<T> &b, int flo, int fhi, int mlo, int nb, cudaStream_t s)
{
    if (!b.work || b.count <= 0) return SYLVA_OK;
    if (fhi > 192) return SYLVA_ERR_ARGUMENT;
    front_list_kernel<<<1, LIST_THREADS, 0, s>>>(b, flo, fhi, mlo, nb);
    return sylva__launch_status();
}

int device_sm_count()
{
    static std::atomic<int> sms[64];
    int dev = 0, n = 0;
    if (cudaGetDevice(&dev) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    if (dev >= 0 && dev < 64) n = sms[dev].load(std::memory_order_relaxed);
    if (n <= 0) {
        if (cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess || n <= 0) {
            cudaGetLastError();
            return 0;
        }
        if (dev >= 0 && dev < 64) sms[dev].store(n, std::memory_order_relaxed);
    }
    return n;
}

template int launch_front_lists<double>(const front_batch<double> &, int, int, int, int, cudaStream_t);

} // namespace sylva
