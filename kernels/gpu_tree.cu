/* gpu_tree.cu — the tree launch (contract in gpu_tree.h): a persistent
 * kernel whose blocks claim the work list's fronts in order, wait for
 * their children's done words, assemble each front in shared memory (A's
 * entries, the children's CBs, by shared-memory atomics), factor it there
 * (gpu_fused.cuh, the fused kernel's core), write it out and publish.
 *
 * Memory order: a front's stores, then a fence in every thread, a barrier
 * and a release store of its done word by thread 0; a parent's warp 0 reads
 * the done words with acquire loads before a barrier, and reads the CBs
 * through L2 (ld.global.cg): a CB's memory may have been another CB's in an
 * earlier run, whose lines this SM's L1 may still hold. */
#include <atomic>

#include "gpu_context_impl.cuh"
#include "gpu_fused.cuh"
#include "gpu_tree.h"
#include "group_setup.h"

namespace sylva {

__device__ __forceinline__ int ld_acquire(const int *p)
{
    int v;
    asm volatile("ld.acquire.gpu.global.s32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}

__device__ __forceinline__ void st_release(int *p, int v)
{
    asm volatile("st.release.gpu.global.s32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

/* A wait longer than this (ns of the GPU's global timer) means the work
 * list or the child lists are wrong: the front is recorded as failed with
 * pivot 0 (never a real pivot) and goes on, so the run ends and reports it
 * instead of hanging. */
#define TREE_WAIT_NS 30000000000ull

__device__ __forceinline__ unsigned long long global_ns()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

/* Front record i of group G into sA (packed lower, m(m+1)/2 scalars, zero
 * first): A's entries, then every child's CB once its done word says so. */
template <int DIM>
__device__ __forceinline__ void assemble(const sylva__tree_launch &t, const sylva__tree_group &G, int i, int m,
                                         double *sA, sylva__gpu_failures *fail)
{
    constexpr int NT = DIM * DIM, NW = NT / 32;
    const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
    const sylva__group_layout &lay = G.lay;
    const void *blob = G.blob;
    const int c0 = SYLVA_BLOB(int, blob, lay.ch_ptr)[i], c1 = SYLVA_BLOB(int, blob, lay.ch_ptr)[i + 1];
    /* Warp 0 waits for the children while the others zero the front. */
    if (warp == 0) {
        const int64_t *ch_front = SYLVA_BLOB(int64_t, blob, lay.ch_front);
        for (int c = c0 + lane; c < c1; c += 32) {
            const int64_t ch = ch_front[c];
            if (__ldg(t.front_run + ch) != t.run) continue; /* done before the launch */
            unsigned long long t0 = 0;
            for (unsigned polls = 0; ld_acquire(t.done + ch) != t.epoch; polls++) {
                if (polls == 0) t0 = global_ns();
                if ((polls & 1023) == 1023 && global_ns() - t0 > TREE_WAIT_NS) {
                    const int slot = atomicAdd(&fail->count, 1);
                    if (slot < SYLVA__GPU_MAX_FAILURES) {
                        fail->front[slot] = SYLVA_BLOB(int64_t, blob, lay.front_id)[i];
                        fail->pivot[slot] = 0;
                    }
                    break;
                }
                __nanosleep(32);
            }
        }
    }
    for (int j = tid; j < m * (m + 1) / 2; j += NT) sA[j] = 0.0;
    __syncthreads();
    /* A's entries of the front (its first k columns; an entry above the
     * diagonal, which the dense kernels never read, is skipped). */
    const int64_t an = SYLVA_BLOB(int64_t, blob, lay.amap_n)[i], ao = SYLVA_BLOB(int64_t, blob, lay.amap_off)[i];
    const int64_t *src = SYLVA_BLOB(int64_t, blob, lay.amap_src) + ao;
    const int64_t *dst = SYLVA_BLOB(int64_t, blob, lay.amap_dst) + ao;
    for (int64_t j = tid; j < an; j += NT) {
        const int64_t d = dst[j];
        const int c = (int)(d / m), r = (int)(d - (int64_t)c * m);
        if (r >= c) atomicAdd(sA + pk(c, m) + r, __ldg(t.A + src[j]));
    }
    /* The children's CBs (lower triangles, ld mc), a column per warp. */
    const int *ch_mc = SYLVA_BLOB(int, blob, lay.ch_mc), *ch_src = SYLVA_BLOB(int, blob, lay.ch_src);
    const int64_t *ch_cbofs = SYLVA_BLOB(int64_t, blob, lay.ch_cbofs), *ch_rel = SYLVA_BLOB(int64_t, blob, lay.ch_relmap);
    const int64_t *relmap = SYLVA_BLOB(int64_t, blob, lay.relmap);
    for (int c = c0; c < c1; c++) {
        const int mc = ch_mc[c], s = ch_src[c];
        const double *cb = (s < 0 ? G.scratch : G.child_pools[s]) + ch_cbofs[c];
        const int64_t *rel = relmap + ch_rel[c];
        for (int b = warp; b < mc; b += NW) {
            const int ob = pk((int)rel[b], m);
            const double *col = cb + (size_t)b * mc;
            for (int a = b + lane; a < mc; a += 32) atomicAdd(sA + ob + (int)rel[a], __ldcg(col + a));
        }
    }
    __syncthreads();
}

/* The factored front out: P (m × k, ld m) whole, zeros above the diagonal,
 * and the CB's lower triangle. */
template <int DIM>
__device__ __forceinline__ void store(const double *sA, int m, int k, double *P, double *C, int ldc)
{
    constexpr int NW = DIM * DIM / 32;
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    for (int c = warp; c < m; c += NW) {
        const int o = pk(c, m);
        if (c < k) {
            for (int r = lane; r < m; r += 32) P[r + (size_t)c * m] = r >= c ? sA[o + r] : 0.0;
        } else {
            for (int r = c + lane; r < m; r += 32) C[(r - k) + (size_t)(c - k) * ldc] = sA[o + r];
        }
    }
}

template <int DIM, int PB, bool MMA>
__global__ void __launch_bounds__(DIM *DIM, DIM == 16 ? 3 : 12) tree_kernel(sylva__tree_launch t, sylva__gpu_failures *fail)
{
    extern __shared__ __align__(16) unsigned char smem[];
    double *sA = reinterpret_cast<double *>(smem);
    __shared__ int s_item;
    const int tid = threadIdx.x;
    for (;;) {
        if (tid == 0) s_item = atomicAdd(t.next, 1);
        __syncthreads();
        const int e = s_item;
        if (e >= t.nitems) break;
        const unsigned long long t_claim = t.gtime ? global_ns() : 0;
        const int gi = t.items[2 * e], i = t.items[2 * e + 1];
        const sylva__tree_group &G = t.groups[gi];
        const void *blob = G.blob;
        const int m = SYLVA_BLOB(int, blob, G.lay.m)[i], k = SYLVA_BLOB(int, blob, G.lay.k)[i];
        assemble<DIM>(t, G, i, m, sA, fail);
        const int info = k > 0 ? fused_factor_packed<double, DIM, 4, PB, MMA>(sA, m, k, [] {}) : 0;
        const int64_t fid = SYLVA_BLOB(int64_t, blob, G.lay.front_id)[i];
        if (info) {
            if (tid == 0) {
                const int slot = atomicAdd(&fail->count, 1);
                if (slot < SYLVA__GPU_MAX_FAILURES) {
                    fail->front[slot] = fid;
                    fail->pivot[slot] = info;
                }
            }
        } else {
            const int sel = SYLVA_BLOB(int, blob, G.lay.cbsel)[i];
            double *C = sel < 0 ? nullptr : (sel == 0 ? G.pool : G.scratch) + SYLVA_BLOB(int64_t, blob, G.lay.cbofs)[i];
            store<DIM>(sA, m, k, G.L + SYLVA_BLOB(int64_t, blob, G.lay.lofs)[i], C,
                       SYLVA_BLOB(int, blob, G.lay.ldc)[i]);
        }
        __threadfence();
        __syncthreads(); /* every store fenced; sA free for the next front */
        if (tid == 0) {
            st_release(t.done + fid, t.epoch);
            if (t.gtime) {
                atomicMin(t.gtime + 2 * gi, t_claim);
                atomicMin(t.gtime + 2 * gi + 1, ~global_ns());
            }
        }
    }
}

#define TREE_DEVICES 16 /* devices whose attributes and occupancies are kept */

/* One launch: as many blocks as fit at once (at most one per item). The
 * kernel's attributes (dynamic shared memory up to the largest front's,
 * all of L1 as shared memory) are set once per device and instance, to the
 * same values from any thread, and the occupancy query's answer is kept
 * per device and largest m (relaxed atomics; 0: not asked yet, else blocks
 * per SM + 1): both cost microseconds a call, on every factorization. */
template <int DIM, int PB, bool MMA>
static int launch(const sylva__tree_launch &t, sylva__gpu_failures *fail, cudaStream_t s)
{
    auto kern = tree_kernel<DIM, PB, MMA>;
    static std::atomic<int> ready[TREE_DEVICES];
    static std::atomic<int> occ[TREE_DEVICES][SYLVA_TREE_MAX_M + 1];
    const size_t smem = (size_t)t.max_m * (t.max_m + 1) / 2 * sizeof(double);
    const size_t cap = (size_t)SYLVA_TREE_MAX_M * (SYLVA_TREE_MAX_M + 1) / 2 * sizeof(double);
    int dev = -1;
    if (cudaGetDevice(&dev) != cudaSuccess) dev = -1, cudaGetLastError();
    const bool kept = dev >= 0 && dev < TREE_DEVICES;
    if (!kept || !ready[dev].load(std::memory_order_relaxed)) {
        if (cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)cap) != cudaSuccess ||
            cudaFuncSetAttribute(kern, cudaFuncAttributePreferredSharedMemoryCarveout,
                                 cudaSharedmemCarveoutMaxShared) != cudaSuccess)
            return sylva__launch_status();
        if (kept) ready[dev].store(1, std::memory_order_relaxed);
    }
    int per = kept ? occ[dev][t.max_m].load(std::memory_order_relaxed) - 1 : -1;
    if (per < 0) {
        if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, kern, DIM * DIM, smem) != cudaSuccess) {
            cudaGetLastError();
            per = 1;
        }
        if (kept) occ[dev][t.max_m].store(per + 1, std::memory_order_relaxed);
    }
    const int sms = device_sm_count();
    long grid = (long)(per > 0 ? per : 1) * (sms > 0 ? sms : 1);
    if (grid > t.nitems) grid = t.nitems;
    kern<<<(unsigned)grid, DIM * DIM, smem, s>>>(t, fail);
    return sylva__launch_status();
}

} // namespace sylva

extern "C" int sylva__tree_factor_gpu(sylva__gpu_context *ctx, const sylva__tree_launch *t, cudaStream_t s)
{
    using namespace sylva;
    if (t->nitems <= 0) return SYLVA_OK;
    if (t->max_m < 1 || t->max_m > SYLVA_TREE_MAX_M)
        return sylva__fail(SYLVA_ERR_ARGUMENT, "tree launch: largest front %d outside 1..%d", t->max_m,
                           SYLVA_TREE_MAX_M);
    int rc = sylva__gpu_zero(t->next, sizeof(int), s);
    if (rc != SYLVA_OK) return rc;
    if (t->gtime && t->g1 > t->g0) {
        cudaError_t e = cudaMemsetAsync(t->gtime + 2 * t->g0, 0xff,
                                        (size_t)(t->g1 - t->g0) * 2 * sizeof(unsigned long long), s);
        if (e != cudaSuccess) return sylva__fail(SYLVA_ERR_RUNTIME, "tree launch: cudaMemsetAsync: %s",
                                                 cudaGetErrorString(e));
    }
    const sylva__kernel_tuning *tu = &ctx->tuning;
    const bool small = t->max_m <= tu->fused_small_m || tu->fused_threads == 64;
    const bool mma = t->max_m > tu->fused_mma_min_m;
    const bool p16 = tu->fused_panel == 16;
    if (small)
        return mma ? (p16 ? launch<8, 16, true>(*t, ctx->failures, s) : launch<8, 8, true>(*t, ctx->failures, s))
                   : (p16 ? launch<8, 16, false>(*t, ctx->failures, s) : launch<8, 8, false>(*t, ctx->failures, s));
    return mma ? (p16 ? launch<16, 16, true>(*t, ctx->failures, s) : launch<16, 8, true>(*t, ctx->failures, s))
               : (p16 ? launch<16, 16, false>(*t, ctx->failures, s) : launch<16, 8, false>(*t, ctx->failures, s));
}
