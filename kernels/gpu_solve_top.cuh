/* gpu_solve_top.cuh — the triangle items of the top of the tree's launch
 * (gpu_solve.h, SYLVA_SOLVE_TOP; for gpu_solve_flow.cu alone): 64 pivot
 * rows an item (SYLVA_SOLVE_TOP_TB), by a block of 128 threads, a thread
 * per row (forward) or pivot (backward) and half of each arriving 64-row
 * tile, whose 32 L entries it loads into registers before it waits (a
 * one-column backward item instead a lane per row of a tile and a warp per
 * half of its pivots, so that its loads are coalesced). The
 * kernel that runs them has the registers for that (3 blocks an SM, no
 * spills: squeezed into 64 registers the same item spills and each step
 * costs 1.4× more, docs/perf-log.md v9). The 64 × 64 diagonal block is
 * two 32 × 32 halves A, B and L[B, A]: the item inverts A and B (two warps
 * at once) and loads L[B, A] into shared memory before it waits, so that
 * its step on the chain is three warp products (A⁻¹, L[B, A], B⁻¹; a
 * warp per right-hand side) instead of 64 dependent substitutions. Device
 * code only, no failure. */
#ifndef SYLVA_KERNELS_GPU_SOLVE_TOP_CUH
#define SYLVA_KERNELS_GPU_SOLVE_TOP_CUH

#include "gpu_solve_items.cuh"

#define TOP_TB SYLVA_SOLVE_TOP_TB
#define TOP_HALF (TOP_TB / 2)
#define TOP_THREADS (2 * TOP_TB) /* a thread per row and half tile */
static_assert(TOP_HALF == 32, "a half of a top triangle block is one warp's rows");
static_assert(TOP_THREADS == SYLVA_SOLVE_COLS * 32, "the top's items are written for blocks of 4 warps");
/* The item's shared doubles (in the kernel's s): the halves' inverses, L[B,
 * A] (first B itself, while it is inverted), the threads' partial sums,
 * the item's own rows of X1 and an arriving tile's X1 (FLOW_COLS each). */
#define TOP_INVA 0
#define TOP_INVB (TOP_INVA + TOP_HALF * FLOW_DLD)
#define TOP_LBA (TOP_INVB + TOP_HALF * FLOW_DLD)
#define TOP_PART (TOP_LBA + TOP_HALF * FLOW_DLD)
#define TOP_OWN (TOP_PART + TOP_THREADS * SYLVA_SOLVE_COLS)
#define TOP_XS (TOP_OWN + TOP_TB * SYLVA_SOLVE_COLS)
#define TOP_BUF (TOP_XS + TOP_TB * SYLVA_SOLVE_COLS)

namespace sylva {
namespace {

/* Lane `lane`'s column of the inverse of the lower triangle d (jb × jb,
 * ld FLOW_DLD, its pivots' reciprocals in row 32) into inv (ld FLOW_DLD). */
__device__ __forceinline__ void invert_column(const double *d, int jb, double *inv, int lane)
{
    double *col = inv + lane * FLOW_DLD;
    for (int i = 0; i < TOP_HALF; i++) col[i] = i == lane ? 1.0 : 0.0;
    for (int jj = 0; jj < jb; jj++) {
        const double xjj = col[jj] * d[32 + jj * FLOW_DLD];
        col[jj] = xjj;
        for (int i = jj + 1; i < jb; i++) col[i] -= d[i + jj * FLOW_DLD] * xjj;
    }
}

/* Before the item waits: its own rows of X1 (SYLVA_SOLVE_STEP_OWN), the
 * inverses of its diagonal halves (A's raw block in d, B's in the L[B, A]
 * slot; warps 0 and 1 at once), then L[B, A] (zero past the block). */
template <int W>
__device__ void top_prepare(const front &F, const flow_args &a, int r0, int jb, int c0, int nc, double *s, double *d)
{
    const int tid = threadIdx.x, ja = min(TOP_HALF, jb), jbb = jb - ja;
    double *const rawb = s + TOP_LBA;
    if (a.step & SYLVA_SOLVE_STEP_OWN) stage_own<W>(F, a, r0, jb, c0, nc, s + TOP_OWN);
    for (int u = tid; u < TOP_HALF * TOP_HALF; u += TOP_THREADS) {
        const int i = u % TOP_HALF, j = u / TOP_HALF;
        if (i < ja && j < ja) d[i + j * FLOW_DLD] = __ldg(F.L + (r0 + i) + (int64_t)(r0 + j) * F.m);
        if (i < jbb && j < jbb)
            rawb[i + j * FLOW_DLD] = __ldg(F.L + (r0 + TOP_HALF + i) + (int64_t)(r0 + TOP_HALF + j) * F.m);
    }
    if (tid < jb) {
        const double p = 1.0 / __ldg(F.L + (r0 + tid) * (F.m + (int64_t)1));
        if (tid < TOP_HALF) d[32 + tid * FLOW_DLD] = p;
        else rawb[32 + (tid - TOP_HALF) * FLOW_DLD] = p;
    }
    __syncthreads();
    if (tid < 32) invert_column(d, ja, s + TOP_INVA, tid);
    else if (tid < 64 && jbb > 0) invert_column(rawb, jbb, s + TOP_INVB, tid - 32);
    __syncthreads();
    for (int u = tid; u < TOP_HALF * TOP_HALF; u += TOP_THREADS) {
        const int i = u % TOP_HALF, j = u / TOP_HALF;
        rawb[i + j * FLOW_DLD] =
            i < jbb && j < ja ? __ldg(F.L + (r0 + TOP_HALF + i) + (int64_t)(r0 + j) * F.m) : 0.0;
    }
    /* Read after the next barrier (the waits', or the finish's). */
}

/* The end of a top triangle item: the partial sums reduced through shared
 * memory and subtracted from the item's rows, then the 64 × 64 diagonal
 * block solved by a warp per column of the chunk, a lane per row of each
 * half. Forward: x_A = A⁻¹ v_A, x_B = B⁻¹ (v_B − L[B, A] x_A); Backward
 * (the block transposed): x_B = B⁻ᵀ v_B, x_A = A⁻ᵀ (v_A − L[B, A]ᵀ x_B). */
template <int W, bool Backward>
__device__ __forceinline__ void top_finish(const front &F, const flow_args &a, const double (&acc)[FLOW_COLS],
                                           int r0, int jb, int c0, int nc, double *s)
{
    const bool staged = a.step & SYLVA_SOLVE_STEP_OWN;
    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32, ja = min(TOP_HALF, jb), jbb = jb - ja;
    double *const part = s + TOP_PART;
#pragma unroll
    for (int c = 0; c < FLOW_COLS; c++) part[tid * FLOW_COLS + c] = acc[c];
    __syncthreads();
    if (warp < nc) {
        double *x = F.X1 + (int64_t)(c0 + warp) * a.ldx + r0;
        const double *lba = s + TOP_LBA;
        auto row_value = [&](int i) { /* row i of the block less the partial sums */
            double v = staged ? s[TOP_OWN + i * FLOW_COLS + warp] : __ldcg(x + i);
            return v - part[i * FLOW_COLS + warp] - part[(TOP_TB + i) * FLOW_COLS + warp];
        };
        double va = lane < ja ? row_value(lane) : 0.0, vb = lane < jbb ? row_value(TOP_HALF + lane) : 0.0;
        if (!Backward) {
            const double xa = apply_inverse<false>(s + TOP_INVA, ja, va);
#pragma unroll 8
            for (int j = 0; j < TOP_HALF; j++) vb -= lba[lane + j * FLOW_DLD] * __shfl_sync(FLOW_FULL, xa, j);
            const double xb = jbb > 0 ? apply_inverse<false>(s + TOP_INVB, jbb, vb) : 0.0;
            if (lane < ja) __stcg(x + lane, xa);
            if (lane < jbb) __stcg(x + TOP_HALF + lane, xb);
        } else {
            const double xb = jbb > 0 ? apply_inverse<true>(s + TOP_INVB, jbb, vb) : 0.0;
#pragma unroll 8
            for (int j = 0; j < TOP_HALF; j++) va -= lba[j + lane * FLOW_DLD] * __shfl_sync(FLOW_FULL, xb, j);
            const double xa = apply_inverse<true>(s + TOP_INVA, ja, va);
            if (lane < ja) __stcg(x + lane, xa);
            if (lane < jbb) __stcg(x + TOP_HALF + lane, xb);
        }
    }
    __syncthreads();
}

/* The X1 entries of a tile's rows [p0, p1) (at most TOP_TB, from p0) into
 * shared xs[(p − p0) · FLOW_COLS + c], zero past p1, then a barrier. */
template <int W> __device__ __forceinline__ void top_stage(const front &F, const flow_args &a, int p0, int p1,
                                                           int c0, int nc, double *xs)
{
    for (int u = threadIdx.x; u < TOP_TB * FLOW_COLS; u += TOP_THREADS) {
        const int i = u / FLOW_COLS, c = u % FLOW_COLS;
        xs[u] = c < nc && p0 + i < p1 ? __ldcg(F.X1 + p0 + i + (int64_t)(c0 + c) * a.ldx) : 0.0;
    }
    __syncthreads();
}

/* acc[c] += l[q] · xs[half's row q][c] over the thread's half tile, then a
 * barrier (xs is staged again next). */
template <int W>
__device__ __forceinline__ void top_take(const double (&l)[TOP_HALF], const double *xs, double (&acc)[FLOW_COLS])
{
    const int h = threadIdx.x / TOP_TB;
#pragma unroll
    for (int q = 0; q < TOP_HALF; q++)
#pragma unroll
        for (int c = 0; c < FLOW_COLS; c++) acc[c] += l[q] * xs[(h * TOP_HALF + q) * FLOW_COLS + c];
    __syncthreads();
}

/* Forward top triangle item b: its 64 rows less L[rows, earlier pivots] ·
 * X1, tile by tile as the earlier items finish (those that finished before
 * it ran, one after another without waiting), then its diagonal block. */
template <int W>
__device__ void top_tri_forward(const front &F, const flow_args &a, const int *tdone, int b, int c0, int nc,
                                double *s, double *d, int *flag)
{
    const int h = threadIdx.x / TOP_TB, r0 = b * TOP_TB, jb = min(TOP_TB, F.k - r0);
    const double *Lr = F.L + min(r0 + (int)threadIdx.x % TOP_TB, F.k - 1); /* the thread's row */
    top_prepare<W>(F, a, r0, jb, c0, nc, s, d);
    double acc[FLOW_COLS];
#pragma unroll
    for (int c = 0; c < FLOW_COLS; c++) acc[c] = 0;
    /* Tile t's pivots of the thread's half (earlier tiles are whole). */
    auto load = [&](int t, double (&l)[TOP_HALF]) {
        const double *p = Lr + (int64_t)(t * TOP_TB + h * TOP_HALF) * F.m;
#pragma unroll
        for (int q = 0; q < TOP_HALF; q++) l[q] = __ldg(p + (int64_t)q * F.m);
    };
    for (int done = 0; done < b;) {
        double l[TOP_HALF];
        load(done, l);
        const int hi = min(block_wait(tdone + F.f, done + 1, flag, a), b);
        top_stage<W>(F, a, done * TOP_TB, (done + 1) * TOP_TB, c0, nc, s + TOP_XS);
        top_take<W>(l, s + TOP_XS, acc);
#pragma unroll 1
        for (int t = done + 1; t < hi; t++) {
            load(t, l);
            top_stage<W>(F, a, t * TOP_TB, (t + 1) * TOP_TB, c0, nc, s + TOP_XS);
            top_take<W>(l, s + TOP_XS, acc);
        }
        done = hi;
    }
    top_finish<W, false>(F, a, acc, r0, jb, c0, nc, s);
}

/* Backward top triangle item b: its 64 rows less L[later pivots, rows]ᵀ ·
 * X1, tile by tile from the last as the later items finish, then its
 * diagonal block transposed. A thread per pivot of the item: its half of a
 * tile's rows are 32 consecutive entries of its column. */
template <int W>
__device__ void top_tri_backward(const front &F, const flow_args &a, const int *tdone, int b, int nt, int c0, int nc,
                                 double *s, double *d, int *flag)
{
    const int h = threadIdx.x / TOP_TB, r0 = b * TOP_TB, jb = min(TOP_TB, F.k - r0), need = nt - 1 - b;
    const double *Lj = F.L + (int64_t)(r0 + min((int)threadIdx.x % TOP_TB, jb - 1)) * F.m; /* its column */
    top_prepare<W>(F, a, r0, jb, c0, nc, s, d);
    double acc[FLOW_COLS];
#pragma unroll
    for (int c = 0; c < FLOW_COLS; c++) acc[c] = 0;
    /* Tile t (counted from the last; the last may be short): the thread's half. */
    auto load = [&](int t, double (&l)[TOP_HALF]) {
        const int p = (nt - 1 - t) * TOP_TB + h * TOP_HALF;
#pragma unroll
        for (int q = 0; q < TOP_HALF; q++) l[q] = p + q < F.k ? __ldg(Lj + p + q) : 0.0;
    };
    auto step = [&](int t, const double (&l)[TOP_HALF]) {
        const int p0 = (nt - 1 - t) * TOP_TB;
        top_stage<W>(F, a, p0, min(p0 + TOP_TB, F.k), c0, nc, s + TOP_XS);
        top_take<W>(l, s + TOP_XS, acc);
    };
    for (int done = 0; done < need;) {
        double l[TOP_HALF];
        load(done, l);
        const int hi = min(block_wait(tdone + F.f, done + 1, flag, a), need);
        step(done, l);
#pragma unroll 1
        for (int t = done + 1; t < hi; t++) {
            load(t, l);
            step(t, l);
        }
        done = hi;
    }
    top_finish<W, true>(F, a, acc, r0, jb, c0, nc, s);
}

/* One level of a warp's reduce-scatter of 2·O sums a lane (acc[0, 2O)):
 * the lanes with bit O keep the upper O, the others the lower, each adding
 * its partner's (across bit O); after the levels 16, 8, 4, 2, 1 of 32 sums,
 * lane j holds in acc[0] the warp's sum of acc[j]. */
template <int O> __device__ __forceinline__ void reduce_scatter_level(double (&acc)[TOP_HALF], int lane)
{
    const bool upper = lane & O;
#pragma unroll
    for (int j = 0; j < O; j++) {
        const double keep = upper ? acc[j + O] : acc[j], send = upper ? acc[j] : acc[j + O];
        acc[j] = keep + __shfl_xor_sync(FLOW_FULL, send, O);
    }
}

/* The same item for one column (W = 1), its loads coalesced: a warp per
 * half of the item's pivots and half of each arriving tile's rows, a lane
 * per row (the 32 L entries it loads before the wait are its row's in the
 * half's 32 columns: each load a warp's 32 consecutive rows of a column,
 * where a thread per pivot read 32 lines a load), 32 sums a thread that
 * need no staged x (each lane loads its row's) and no barrier a tile; the
 * warp's sums are reduced once, at the end, lane j keeping its column j's. */
__device__ void top_tri_backward_one(const front &F, const flow_args &a, const int *tdone, int b, int nt, int c0,
                                     double *s, double *d, int *flag)
{
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, r0 = b * TOP_TB, jb = min(TOP_TB, F.k - r0);
    const int need = nt - 1 - b, jh = (warp & 1) * TOP_HALF, rh = (warp >> 1) * TOP_HALF;
    const int ncol = max(0, min(TOP_HALF, jb - jh)); /* the warp's pivots */
    const double *Lc = F.L + (int64_t)(r0 + jh) * F.m;
    const double *x = F.X1 + (int64_t)c0 * a.ldx;
    top_prepare<1>(F, a, r0, jb, c0, 1, s, d);
    double acc[TOP_HALF];
#pragma unroll
    for (int j = 0; j < TOP_HALF; j++) acc[j] = 0;
    /* Tile t (counted from the last; the last may be short): the lane's row
     * of the warp's half, and its entries in the warp's columns. */
    auto load = [&](int t, double (&l)[TOP_HALF]) {
        const int row = (nt - 1 - t) * TOP_TB + rh + lane;
#pragma unroll
        for (int j = 0; j < TOP_HALF; j++) l[j] = row < F.k && j < ncol ? __ldg(Lc + row + (int64_t)j * F.m) : 0.0;
    };
    auto take = [&](int t, const double (&l)[TOP_HALF]) {
        const int row = (nt - 1 - t) * TOP_TB + rh + lane;
        const double xr = row < F.k ? __ldcg(x + row) : 0.0;
#pragma unroll
        for (int j = 0; j < TOP_HALF; j++) acc[j] += l[j] * xr;
    };
    for (int done = 0; done < need;) {
        double l[TOP_HALF];
        load(done, l);
        const int hi = min(block_wait(tdone + F.f, done + 1, flag, a), need);
        take(done, l);
#pragma unroll 1
        for (int t = done + 1; t < hi; t++) {
            load(t, l);
            take(t, l);
        }
        done = hi;
    }
    /* Lane j ends with the warp's sum for column j. */
    reduce_scatter_level<16>(acc, lane);
    reduce_scatter_level<8>(acc, lane);
    reduce_scatter_level<4>(acc, lane);
    reduce_scatter_level<2>(acc, lane);
    reduce_scatter_level<1>(acc, lane);
    /* Thread warp · 32 + lane holds pivot jh + lane's sum over row half
     * rh: top_finish's partial sum of half warp / 2 for that pivot. */
    const double part[1] = {acc[0]};
    top_finish<1, true>(F, a, part, r0, jb, c0, 1, s);
}

} // namespace
} // namespace sylva

#endif
