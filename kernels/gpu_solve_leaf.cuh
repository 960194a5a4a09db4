/* gpu_solve_leaf.cuh — the LEAF item of the GPU solve (gpu_solve.h:
 * several small leaves, each at most SYLVA_SOLVE_LEAF_M rows and
 * SYLVA_SOLVE_LEAF_K pivots, from consecutive records; for
 * gpu_solve_flow.cu alone): a warp per leaf and a lane per row, the row
 * of L and the chunk's columns in registers, the pivot chain by shuffles;
 * its waits (backward: each leaf's parent) and counts (forward: each
 * leaf's parent) by a thread per leaf. Device code only, no failure. */
#ifndef SYLVA_KERNELS_GPU_SOLVE_LEAF_CUH
#define SYLVA_KERNELS_GPU_SOLVE_LEAF_CUH

#include "gpu_solve_items.cuh"

namespace sylva {
namespace {

/* A LEAF item: `count` small leaves from record `first` (gpu_solve.h), a
 * warp each (warp w takes leaves w, w + FLOW_WARPS, ...), a lane per row:
 * its row of L (at most LEAF_K pivots) in registers, its rows of the
 * chunk's columns in registers, the chain by shuffles. Forward: X1 ←
 * L11⁻¹ X1, then X(rows) −= L21 X1 by atomic adds (the leaf's pivot rows
 * need no wait: nothing below a leaf updates them). Backward (the parents
 * done): X1 ← L11⁻ᵀ (X1 − L21ᵀ X(rows)). No barrier: the caller's signal
 * or the next ticket's passes one. */
template <int W, bool Forward>
__device__ void leaf_items(const flow_args &a, int first, int count, int c0, int nc)
{
    static_assert(SYLVA_SOLVE_LEAF_M <= 32, "a leaf's rows are one warp's lanes");
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    for (int g = warp; g < count; g += FLOW_WARPS) {
        const int f = first + g, m = a.m[f], k = a.k[f];
        const bool mine = lane < m;
        const double *const L = a.Lp[f];
        double *const X1 = a.X + a.col[f];
        double *const xr = !mine ? nullptr : lane < k ? X1 + lane : a.X + a.rows[a.rofs[f] + lane - k];
        double l[SYLVA_SOLVE_LEAF_K]; /* L[lane, j] */
#pragma unroll
        for (int j = 0; j < SYLVA_SOLVE_LEAF_K; j++) l[j] = mine && j < k ? __ldg(L + lane + (int64_t)j * m) : 0.0;
        double x[FLOW_COLS];
#pragma unroll
        for (int c = 0; c < FLOW_COLS; c++)
            x[c] = c < nc && mine && (!Forward || lane < k) ? __ldcg(xr + (int64_t)(c0 + c) * a.ldx) : 0.0;
        if (Forward) {
#pragma unroll
            for (int j = 0; j < SYLVA_SOLVE_LEAF_K; j++) {
                if (j >= k) break;
#pragma unroll
                for (int c = 0; c < FLOW_COLS; c++) {
                    if (lane == j) x[c] /= l[j];
                    const double xj = __shfl_sync(FLOW_FULL, x[c], j);
                    if (lane > j) x[c] -= l[j] * xj; /* pivot rows: solved; CB rows: −(L21 X1) */
                }
            }
#pragma unroll
            for (int c = 0; c < FLOW_COLS; c++) {
                if (c >= nc || !mine) continue;
                if (lane < k) __stcg(xr + (int64_t)(c0 + c) * a.ldx, x[c]);
                else atomicAdd(xr + (int64_t)(c0 + c) * a.ldx, x[c]);
            }
        } else {
#pragma unroll
            for (int j = SYLVA_SOLVE_LEAF_K - 1; j >= 0; j--) {
                if (j >= k) continue;
#pragma unroll
                for (int c = 0; c < FLOW_COLS; c++) {
                    double v = lane > j ? l[j] * x[c] : 0.0;
                    for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(FLOW_FULL, v, o);
                    if (lane == j) x[c] = (x[c] - v) / l[j];
                }
            }
#pragma unroll
            for (int c = 0; c < FLOW_COLS; c++)
                if (c < nc && lane < k) __stcg(xr + (int64_t)(c0 + c) * a.ldx, x[c]);
        }
    }
}

/* A LEAF item's counts forward: after the block's barrier (as
 * block_signal), thread t counts leaf t's parent, all at once. */
__device__ void leaf_signal(const flow_args &a, int *ready, int first, int count)
{
    static_assert(SYLVA_SOLVE_LEAF_MAX <= FLOW_THREADS, "a thread per leaf of a LEAF item");
    if (!(a.step & SYLVA_SOLVE_STEP_SYNC)) __threadfence();
    __syncthreads();
    const int p = threadIdx.x < count ? a.parent[first + threadIdx.x] : -1;
    if (p < 0) return;
    if (a.step & SYLVA_SOLVE_STEP_SYNC) add_release(ready + p);
    else atomicAdd(ready + p, 1);
}

/* A LEAF item's waits backward: thread t polls leaf t's parent (as
 * block_wait's thread 0), all at once, then the block's barrier. */
__device__ void leaf_wait(const flow_args &a, const int *ready, int first, int count)
{
    const int p = threadIdx.x < count ? a.parent[first + threadIdx.x] : -1;
    if (p >= 0) poll_until(ready + p, 1, a);
    __syncthreads();
}

} // namespace
} // namespace sylva

#endif
