/* gpu_solve_items.cuh — the GPU solve's item bodies, for gpu_solve_flow.cu
 * alone: what a sweep reads and writes (flow_args), the waits and signals
 * on the per-front counters, and the work of each item kind (a folded
 * front, a triangle block, an update chunk; forward and backward) for one
 * chunk of right-hand-side columns, by one block of W warps. Device code
 * only: no launch, no allocation, no failure (the kernel and its launch
 * are in gpu_solve_flow.cu; the contract of the items in gpu_solve.h). */
#ifndef SYLVA_KERNELS_GPU_SOLVE_ITEMS_CUH
#define SYLVA_KERNELS_GPU_SOLVE_ITEMS_CUH

#include "gpu_common.cuh"
#include "gpu_solve.h"

/* A block of FLOW_WARPS = SYLVA_SOLVE_COLS warps takes a chunk of up to
 * that many right-hand sides (a warp each on a diagonal block); FLOW_Q
 * columns of a 32-column block per warp. The item code is compiled for W
 * columns a chunk (FLOW_COLS accumulators a thread): SYLVA_SOLVE_COLS, or
 * 1 for a one-column solve (gpu_solve_flow.cu), whose steps then neither
 * carry nor stage three columns of zeros. The shared layout is the same
 * for both. */
#define FLOW_WARPS SYLVA_SOLVE_COLS
#define FLOW_THREADS (FLOW_WARPS * 32)
#define FLOW_COLS W
#define FLOW_Q (32 / FLOW_WARPS)
#define FLOW_FULL 0xffffffffu
#define FLOW_TB SYLVA_SOLVE_TB
#define FLOW_MAX(a, b) ((a) > (b) ? (a) : (b))
#define FLOW_DLD 33 /* leading dimension of a diagonal block in shared memory */
#define FLOW_W SYLVA_SOLVE_COLS
/* Rows of the widest staging in s (an update item's pivot rows, a folded
 * front's or a backward chunk's CB rows), w columns each. */
#define FLOW_STAGE_ROWS FLOW_MAX(SYLVA_SOLVE_UK, FLOW_MAX(SYLVA_SOLVE_FOLD_R, SYLVA_SOLVE_BR))
/* Shared doubles s of a block for w columns a chunk: the widest staging,
 * or a triangle item's partial sums (FLOW_THREADS · w), own rows
 * (FLOW_TB · w) and inverted diagonal block. Sized by the kernel's W, not
 * SYLVA_SOLVE_COLS: a one-column block takes 18 KB instead of 24 KB, so
 * eight of them leave the SM 92 KB of L1 instead of 28. With 28 KB the
 * forward top's items ran 15–20% slower when its launch overlapped the
 * bottom's (lap3d7:100; the SM keeps the bottom's split of shared memory
 * and L1); now they run as fast as alone, and the one-column solve is
 * 1–5% faster (docs/perf-log.md, the solve v20). */
#define FLOW_BUF_OF(w) FLOW_MAX((w) * FLOW_STAGE_ROWS, FLOW_THREADS * (w) + FLOW_TB * (w) + FLOW_TB * FLOW_DLD)
#define FLOW_BUF FLOW_BUF_OF(W)
/* A triangle item's inverted diagonal block: the end of s, past the
 * partial sums and its own rows. */
#define FLOW_INV_OFF (FLOW_BUF - FLOW_TB * FLOW_DLD)
/* Rows per thread of a forward update (SYLVA_SOLVE_UR of them per item). */
#define FLOW_UPD_RPT (SYLVA_SOLVE_UR / (FLOW_W * 32))
static_assert(SYLVA_SOLVE_UR % (FLOW_W * 32) == 0, "a forward update item's rows are whole rounds of the block");

static_assert(FLOW_TB == 32, "a triangle block is one warp's rows");
/* A triangle item's own rows of X1 (FLOW_TB × FLOW_COLS), staged before
 * its waits (SYLVA_SOLVE_STEP_OWN): between the partial sums and the
 * inverted block. */
#define FLOW_OWN_OFF (FLOW_THREADS * W)
static_assert(SYLVA_SOLVE_FOLD_K <= FLOW_STAGE_ROWS, "a folded front's pivot rows fit the staging buffer");
static_assert((FLOW_BUF_OF(FLOW_W) + FLOW_TB * FLOW_DLD) * sizeof(double) <= 48 * 1024,
              "s and d are static shared memory");

namespace sylva {
namespace {

/* What a sweep reads and writes. */
struct flow_args {
    const int *m, *k, *parent, *nchild, *nt, *nu; /* nu: this sweep's update items */
    const int64_t *col, *rofs, *rows;
    const int *items;
    int nitems, nchunks, nfronts; /* tickets: nitems · nchunks */
    double *const *Lp;
    double *X;
    int64_t ldx;
    int nrhs;
    int *ticket, *ready; /* ready, tdone, udone: F ints each, per column chunk */
    int *pdone;          /* backward top: update items done per BK-pivot chunk, at its first pivot (n a chunk) */
    unsigned long long *trace; /* NULL, or 4 per ticket (sylva__gpu_solve_trace_*) */
    int step;            /* SYLVA_SOLVE_STEP_* bits (gpu_solve.h) */
    int poll_min, poll_max; /* a poll's sleep (ns): from poll_min, doubling up to poll_max */
};

__device__ __forceinline__ unsigned long long flow_clock()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

/* One front as an item sees it. */
struct front {
    int f, m, k, r;
    const double *L;   /* ld m */
    double *X1;        /* its pivot rows of X */
    const int64_t *rw; /* its CB rows */
};

__device__ __forceinline__ double warp_sum(double v)
{
    for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(FLOW_FULL, v, o);
    return v;
}

__device__ __forceinline__ int load_acquire(const int *p)
{
    int v;
    asm volatile("ld.acquire.gpu.global.s32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}

__device__ __forceinline__ void add_release(int *p)
{
    asm volatile("red.release.gpu.global.add.s32 [%0], 1;" ::"l"(p) : "memory");
}

__device__ __forceinline__ int add_acq_rel(int *p)
{
    int old;
    asm volatile("atom.acq_rel.gpu.global.add.s32 %0, [%1], 1;" : "=r"(old) : "l"(p) : "memory");
    return old;
}

/* One thread's poll until *p ≥ v (the value seen), as block_wait's thread
 * 0 does it; the caller's barrier then orders the block's reads. */
__device__ __forceinline__ int poll_until(const int *p, int v, const flow_args &a)
{
    int x;
    unsigned ns = (unsigned)a.poll_min;
    const unsigned most = (unsigned)a.poll_max;
    if (a.step & SYLVA_SOLVE_STEP_SYNC) {
        while ((x = load_acquire(p)) < v) {
            __nanosleep(ns);
            ns = min(2 * ns, most);
        }
    } else {
        while ((x = *(volatile const int *)p) < v) {
            __nanosleep(ns);
            ns = min(2 * ns, most);
        }
        __threadfence();
    }
    return x;
}

/* The block waits until *p ≥ v; returns the value seen (≥ v), or v when v
 * ≤ 0 (nothing to wait for: no load). Thread 0 polls: with acquire loads
 * (SYLVA_SOLVE_STEP_SYNC; the barrier then orders the block's reads after
 * it), else volatile loads and a full fence; between polls it sleeps
 * a.poll_min ns, doubling up to a.poll_max (SYLVA_SOLVE_POLL; most
 * resident blocks wait at once, ~900 of 1,056 in lap3d7:60's backward
 * sweep, but longer sleeps measured no faster: gpu_solve.h). */
__device__ int block_wait(const int *p, int v, int *shared, const flow_args &a)
{
    if (v <= 0) return v;
    if (threadIdx.x == 0) *shared = poll_until(p, v, a);
    __syncthreads();
    const int x = *shared;
    __syncthreads();
    return x;
}

/* Every thread's writes made visible, then thread 0 counts p (and q):
 * with SYLVA_SOLVE_STEP_SYNC a barrier then thread 0's release adds (the
 * barrier orders the block's writes before them, as cooperative groups'
 * grid barrier does), else a full fence by every thread first. */
__device__ void block_signal(int *p, int *q, int step)
{
    if (step & SYLVA_SOLVE_STEP_SYNC) {
        __syncthreads();
        if (threadIdx.x == 0) {
            add_release(p);
            if (q) add_release(q);
        }
        return;
    }
    __threadfence();
    __syncthreads();
    if (threadIdx.x == 0) {
        atomicAdd(p, 1);
        if (q) atomicAdd(q, 1);
    }
}

/* X1[r0, r0 + jb) of columns c0 .. c0 + nc into shared own[i · FLOW_COLS +
 * c] (SYLVA_SOLVE_STEP_OWN; a triangle item's own rows: final once the item
 * may start, since only the item itself writes them after that), so that
 * its step on the chain does not wait for them. Synchronized by the next
 * barrier (load_diag's). */
template <int W>
__device__ __forceinline__ void stage_own(const front &F, const flow_args &a, int r0, int jb, int c0, int nc, double *own)
{
    for (int u = threadIdx.x; u < jb * FLOW_COLS; u += FLOW_THREADS) {
        const int i = u / FLOW_COLS, c = u % FLOW_COLS;
        own[u] = c < nc ? __ldcg(F.X1 + r0 + i + (int64_t)(c0 + c) * a.ldx) : 0.0;
    }
}

/* The diagonal block [j0, j0 + jb)² of L11 into shared d (column-major,
 * ld FLOW_DLD), by the whole block. The solves below read it from there:
 * read from global memory, each of their 32 dependent steps waited for a
 * load (v3a: 16 µs a block, most of a 19 ms solve of lap3d7:60). */
template <int W> __device__ void load_diag(const front &F, int j0, int jb, double *d)
{
    for (int u = threadIdx.x; u < jb * jb; u += FLOW_THREADS) {
        const int i = u % jb, j = u / jb;
        d[i + j * FLOW_DLD] = __ldg(F.L + (j0 + i) + (int64_t)(j0 + j) * F.m);
    }
    /* Row 32 (the padding) holds the pivots' reciprocals: a double
     * division is a long instruction sequence on every dependent step. */
    if (threadIdx.x < jb) d[32 + threadIdx.x * FLOW_DLD] = 1.0 / __ldg(F.L + (j0 + threadIdx.x) * (F.m + (int64_t)1));
    __syncthreads();
}

/* Diagonal block d (jb × jb) forward, one column of right-hand sides: a
 * warp holds the block's rows in its lanes. v: the lane's row (minus what
 * the rows above contributed); returns the lane's solution. */
__device__ __forceinline__ double diag_forward(const double *d, int jb, double v)
{
    const int lane = threadIdx.x % 32;
    for (int jj = 0; jj < jb; jj++) {
        const double xj = __shfl_sync(FLOW_FULL, v, jj) * d[32 + jj * FLOW_DLD];
        if (lane == jj) v = xj;
        else if (lane > jj && lane < jb) v -= d[lane + jj * FLOW_DLD] * xj;
    }
    return v;
}

/* The same with its transpose, bottom up. */
__device__ __forceinline__ double diag_backward(const double *d, int jb, double v)
{
    const int lane = threadIdx.x % 32;
    for (int jj = jb - 1; jj >= 0; jj--) {
        const double xj = __shfl_sync(FLOW_FULL, v, jj) * d[32 + jj * FLOW_DLD];
        if (lane == jj) v = xj;
        else if (lane < jj) v -= d[jj + lane * FLOW_DLD] * xj;
    }
    return v;
}

/* The inverse of the diagonal block in d (jb × jb, its pivots'
 * reciprocals in row 32) into shared inv (ld FLOW_DLD), by warp 0: a lane
 * per column of the identity, substituted column-wise. A triangle item
 * that will wait for earlier blocks does this while it waits, so its step
 * on the chain is a product (independent shuffles) rather than a
 * substitution (32 dependent ones). All threads call it. */
__device__ void invert_diag(const double *d, int jb, double *inv)
{
    if (threadIdx.x < 32) {
        const int lane = threadIdx.x;
        double *col = inv + lane * FLOW_DLD;
        for (int i = 0; i < FLOW_TB; i++) col[i] = i == lane ? 1.0 : 0.0;
        for (int jj = 0; jj < jb; jj++) {
            const double xjj = col[jj] * d[32 + jj * FLOW_DLD];
            col[jj] = xjj;
            for (int i = jj + 1; i < jb; i++) col[i] -= d[i + jj * FLOW_DLD] * xjj;
        }
    }
    __syncthreads();
}

/* The lane's row of inv · v (Transpose: of invᵀ · v); v one value a lane
 * (0 past jb). */
template <bool Transpose> __device__ __forceinline__ double apply_inverse(const double *inv, int jb, double v)
{
    const int lane = threadIdx.x % 32;
    double acc = 0;
    for (int k = 0; k < jb; k++) {
        const double vk = __shfl_sync(FLOW_FULL, v, k);
        acc += (Transpose ? inv[k + lane * FLOW_DLD] : inv[lane + k * FLOW_DLD]) * vk;
    }
    return lane < jb ? acc : 0.0;
}

/* X1[j0, j1) of columns c0 .. c0 + nc into shared s[(j − j0) · FLOW_COLS + c]. */
template <int W> __device__ void stage_pivots(const front &F, const flow_args &a, int j0, int j1, int c0, int nc, double *s)
{
    for (int u = threadIdx.x; u < (j1 - j0) * FLOW_COLS; u += FLOW_THREADS) {
        const int j = j0 + u / FLOW_COLS, c = u % FLOW_COLS;
        s[u] = c < nc ? __ldcg(F.X1 + j + (int64_t)(c0 + c) * a.ldx) : 0.0;
    }
    __syncthreads();
}

/* acc[q] += L21[i0 + threadIdx.x + q · FLOW_THREADS, j0 .. j1) · X1[j0 .. j1)
 * (staged in s from j0), for RPT rows per thread at once: a row's loads
 * are a dependent stream of the whole item, so several rows interleaved
 * keep RPT times as many loads in flight. */
template <int W, int RPT>
__device__ __forceinline__ void accumulate_rows(const front &F, int i0, int i1, int j0, int j1, const double *s,
                                                double (&acc)[RPT][FLOW_COLS])
{
    const double *Li[RPT];
    bool in[RPT];
#pragma unroll
    for (int q = 0; q < RPT; q++) {
        const int i = i0 + (int)threadIdx.x + q * FLOW_THREADS;
        in[q] = i < i1;
        Li[q] = F.L + F.k + (in[q] ? i : i0);
    }
#pragma unroll 8
    for (int j = j0; j < j1; j++) {
        double l[RPT];
#pragma unroll
        for (int q = 0; q < RPT; q++) l[q] = in[q] ? __ldg(Li[q] + (int64_t)j * F.m) : 0.0;
#pragma unroll
        for (int q = 0; q < RPT; q++)
#pragma unroll
            for (int c = 0; c < FLOW_COLS; c++) acc[q][c] += l[q] * s[(j - j0) * FLOW_COLS + c];
    }
}

/* X[rows[i]] −= acc for the thread's rows (atomic adds: other fronts update
 * the same rows). */
template <int W, int RPT>
__device__ __forceinline__ void subtract_rows(const front &F, const flow_args &a, int i0, int i1, int c0, int nc,
                                              const double (&acc)[RPT][FLOW_COLS])
{
#pragma unroll
    for (int q = 0; q < RPT; q++) {
        const int i = i0 + (int)threadIdx.x + q * FLOW_THREADS;
        if (i >= i1) continue;
        double *x = a.X + F.rw[i];
#pragma unroll
        for (int c = 0; c < FLOW_COLS; c++)
            if (c < nc) atomicAdd(x + (int64_t)(c0 + c) * a.ldx, -acc[q][c]);
    }
}

/* X[rows[i0 .. i1)] −= L21[i0 .. i1, j0 .. j1) · X1[j0 .. j1) (staged in s),
 * FLOW_UPD_RPT rows per thread at a time. */
template <int W> __device__ void update_rows(const front &F, const flow_args &a, int i0, int i1, int j0, int j1, int c0, int nc,
                            const double *s)
{
    constexpr int R = FLOW_UPD_RPT;
    for (int b = i0; b < i1; b += R * FLOW_THREADS) {
        double acc[R][FLOW_COLS];
#pragma unroll
        for (int q = 0; q < R; q++)
#pragma unroll
            for (int c = 0; c < FLOW_COLS; c++) acc[q][c] = 0;
        accumulate_rows<W, R>(F, b, i1, j0, j1, s, acc);
        subtract_rows<W, R>(F, a, b, i1, c0, nc, acc);
    }
}

/* The solution's CB rows i0 .. i1 of columns c0 .. c0 + nc into shared
 * s[(i − i0) · FLOW_COLS + c]: gathered once, read by every pivot's warp
 * (v3b gathered them again for every pivot: the backward sweep took twice
 * the forward's time). */
template <int W> __device__ void stage_rows(const front &F, const flow_args &a, int i0, int i1, int c0, int nc, double *s)
{
    /* A thread per row: its index read once, then its columns; unrolled
     * so that several rows' two dependent loads are in flight at once. */
#pragma unroll 4
    for (int i = i0 + (int)threadIdx.x; i < i1; i += FLOW_THREADS) {
        const double *x = a.X + F.rw[i] + (int64_t)c0 * a.ldx;
#pragma unroll
        for (int c = 0; c < FLOW_COLS; c++) s[(i - i0) * FLOW_COLS + c] = c < nc ? __ldcg(x + (int64_t)c * a.ldx) : 0.0;
    }
    __syncthreads();
}

/* For pivots j0 .. j1 (a warp takes GATHER_PJ(W) adjacent ones at a time):
 * L21[i0 .. i1, j]ᵀ · the staged rows, summed over the warp; out(j, c,
 * sum) by lane 0 for the pass's nc columns. The warp's pivots share the
 * staged rows' reads and keep as many loads of L in flight (one pivot at a
 * time, a folded front's backward work took twice its forward's on
 * bcsstk13: docs/perf-log.md v15, v18). */
#define GATHER_PJ(W) ((W) == 1 ? 4 : 2)
template <int W, typename Out>
__device__ void gather_update(const front &F, int i0, int i1, int j0, int j1, int nc, const double *s, Out out)
{
    constexpr int PJ = GATHER_PJ(W);
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    for (int jp = j0 + warp * PJ; jp < j1; jp += FLOW_WARPS * PJ) {
        const int np = min(PJ, j1 - jp); /* the warp's pivots this pass */
        const double *Lj = F.L + F.k + (int64_t)jp * F.m;
        double acc[PJ][FLOW_COLS];
#pragma unroll
        for (int q = 0; q < PJ; q++)
#pragma unroll
            for (int c = 0; c < FLOW_COLS; c++) acc[q][c] = 0;
#pragma unroll 4
        for (int i = i0 + lane; i < i1; i += 32) {
            double l[PJ];
#pragma unroll
            for (int q = 0; q < PJ; q++) l[q] = q < np ? __ldg(Lj + (int64_t)q * F.m + i) : 0.0;
#pragma unroll
            for (int c = 0; c < FLOW_COLS; c++) {
                const double x = s[(i - i0) * FLOW_COLS + c];
#pragma unroll
                for (int q = 0; q < PJ; q++) acc[q][c] += l[q] * x;
            }
        }
#pragma unroll
        for (int q = 0; q < PJ; q++) {
            if (q >= np) break; /* the same for every lane */
#pragma unroll
            for (int c = 0; c < FLOW_COLS; c++) {
                if (c >= nc) break; /* the block's column count: no lane diverges */
                const double v = warp_sum(acc[q][c]);
                if (lane == 0) out(jp + q, c, v);
            }
        }
    }
}

/* A folded front's L panel (m × k, contiguous: ld m) and CB row indices
 * asked of the memory before the item waits (prefetches: into L1 when
 * small, as the block itself reads them next, else L2). Its work is a few
 * dependent rounds of loads (the rows' indices then x, L's blocks), each
 * a DRAM latency without this: a backward folded front of lap3d7:60
 * worked 4.7 µs, a forward one 3.7 (docs/perf-log.md v12). */
__device__ __forceinline__ void prefetch_lines(const void *p, int64_t bytes)
{
    /* Each line's address, the first one's being p itself (never before
     * the array). */
    const uintptr_t b = (uintptr_t)p, a = b & ~(uintptr_t)127, end = b + (uintptr_t)bytes;
    if (bytes <= 16384) {
        for (uintptr_t q = a + threadIdx.x * 128u; q < end; q += FLOW_THREADS * 128u)
            asm volatile("prefetch.global.L1 [%0];" ::"l"(q < b ? b : q));
    } else {
        for (uintptr_t q = a + threadIdx.x * 128u; q < end; q += FLOW_THREADS * 128u)
            asm volatile("prefetch.global.L2 [%0];" ::"l"(q < b ? b : q));
    }
}

__device__ __forceinline__ void fold_prefetch(const front &F)
{
    prefetch_lines(F.L, (int64_t)F.m * F.k * (int64_t)sizeof(double));
    if (F.r > 0) prefetch_lines(F.rw, (int64_t)F.r * (int64_t)sizeof(int64_t));
}

/* X1[0, k) of columns c0 .. c0 + nc into shared x[j · FLOW_COLS + c]
 * (stage_pivots' layout), without a barrier: a folded front works on its
 * pivot rows there, so that its steps read and write shared memory rather
 * than wait for L2. */
template <int W> __device__ __forceinline__ void stage_front(const front &F, const flow_args &a, int c0, int nc,
                                                             double *x)
{
    for (int u = threadIdx.x; u < F.k * FLOW_COLS; u += FLOW_THREADS) {
        const int j = u / FLOW_COLS, c = u % FLOW_COLS;
        x[u] = c < nc ? __ldcg(F.X1 + j + (int64_t)(c0 + c) * a.ldx) : 0.0;
    }
}

/* The folded front's solved pivot rows from shared x back to X1 (read by
 * nothing else in this sweep; the item's signal publishes them). */
template <int W> __device__ __forceinline__ void unstage_front(const front &F, const flow_args &a, int c0, int nc,
                                                               const double *x)
{
    for (int u = threadIdx.x; u < F.k * FLOW_COLS; u += FLOW_THREADS) {
        const int j = u / FLOW_COLS, c = u % FLOW_COLS;
        if (c < nc) __stcg(F.X1 + j + (int64_t)(c0 + c) * a.ldx, x[u]);
    }
}

/* A whole small front forward: X1 ← L11⁻¹ X1 in diagonal blocks, then its
 * ancestors' rows less L21 · X1, the pivot rows staged in s throughout
 * (loaded beside the first diagonal block: one wait for both, where each
 * block's solve and the rows below it waited for L2 in turn,
 * docs/perf-log.md v17). */
template <int W> __device__ void fold_forward(const front &F, const flow_args &a, int c0, int nc, double *s, double *d)
{
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    stage_front<W>(F, a, c0, nc, s); /* ordered by load_diag's barrier */
    for (int j0 = 0; j0 < F.k; j0 += FLOW_TB) {
        const int jb = min(FLOW_TB, F.k - j0);
        load_diag<W>(F, j0, jb, d);
        if (warp < nc) {
            double *x = s + j0 * FLOW_COLS + warp;
            const double v = diag_forward(d, jb, lane < jb ? x[lane * FLOW_COLS] : 0.0);
            if (lane < jb) x[lane * FLOW_COLS] = v;
        }
        __syncthreads();
        const int below = F.k - j0 - jb;
        for (int u = threadIdx.x; u < below * nc; u += FLOW_THREADS) {
            const int i = j0 + jb + u % below, c = u / below;
            double acc = 0;
#pragma unroll 8
            for (int jj = 0; jj < jb; jj++)
                acc += __ldg(F.L + i + (int64_t)(j0 + jj) * F.m) * s[(j0 + jj) * FLOW_COLS + c];
            s[i * FLOW_COLS + c] -= acc;
        }
        __syncthreads();
    }
    unstage_front<W>(F, a, c0, nc, s);
    if (F.r == 0) return;
    update_rows<W>(F, a, 0, F.r, 0, F.k, c0, nc, s);
    __syncthreads();
}

/* A whole small front backward: X1 −= L21ᵀ X(rows) (gather_update), then
 * X1 ← L11⁻ᵀ X1 in diagonal blocks, bottom up. X1 is staged beside
 * the CB rows (in d, which holds no diagonal block yet), updated there,
 * then moved to the start of s for the solve (the CB rows are done with);
 * its steps read and write shared memory and X1 is written once. */
template <int W> __device__ void fold_backward(const front &F, const flow_args &a, int c0, int nc, double *s, double *d)
{
    static_assert(SYLVA_SOLVE_FOLD_K * FLOW_W <= FLOW_TB * FLOW_DLD, "a folded front's pivot rows fit d");
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    stage_front<W>(F, a, c0, nc, d);
    if (F.r > 0) {
        stage_rows<W>(F, a, 0, F.r, c0, nc, s); /* its barrier orders d's staging too */
        gather_update<W>(F, 0, F.r, 0, F.k, nc, s, [&](int j, int c, double v) {
            if (c < nc) d[j * FLOW_COLS + c] -= v; /* lane 0 of pivot j's warp: one writer */
        });
    }
    __syncthreads();
    for (int u = threadIdx.x; u < F.k * FLOW_COLS; u += FLOW_THREADS) s[u] = d[u];
    __syncthreads();
    for (int j0 = (F.k - 1) / FLOW_TB * FLOW_TB; j0 >= 0; j0 -= FLOW_TB) {
        const int jb = min(FLOW_TB, F.k - j0);
        load_diag<W>(F, j0, jb, d);
        if (warp < nc) {
            double *x = s + j0 * FLOW_COLS + warp;
            const double v = diag_backward(d, jb, lane < jb ? x[lane * FLOW_COLS] : 0.0);
            if (lane < jb) x[lane * FLOW_COLS] = v;
        }
        __syncthreads();
        for (int u = warp; u < j0 * nc; u += FLOW_WARPS) { /* rows above: a warp per (row, column) */
            const int i = u % j0, c = u / j0;
            double acc = lane < jb ? __ldg(F.L + (j0 + lane) + (int64_t)i * F.m) * s[(j0 + lane) * FLOW_COLS + c] : 0.0;
            acc = warp_sum(acc);
            if (lane == 0) s[i * FLOW_COLS + c] -= acc;
        }
        __syncthreads();
    }
    unstage_front<W>(F, a, c0, nc, s);
}

/* The end of a triangle block (forward, or Backward with the diagonal
 * block transposed): the threads' partial sums acc reduced through shared
 * memory, subtracted from the block's rows of X1 and the diagonal block
 * solved — by its inverse when the item inverted it while waiting. A warp
 * per column of the chunk, a lane per row. */
template <int W, bool Backward>
__device__ __forceinline__ void finish_block(const front &F, const flow_args &a, const double (&acc)[FLOW_COLS],
                                             int r0, int jb, int c0, int nc, bool inverted, const double *inv,
                                             const double *d, double *s)
{
    const bool staged = a.step & SYLVA_SOLVE_STEP_OWN;
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
#pragma unroll
    for (int c = 0; c < FLOW_COLS; c++) s[(warp * 32 + lane) * FLOW_COLS + c] = acc[c];
    __syncthreads();
    if (warp < nc) {
        double *x = F.X1 + (int64_t)(c0 + warp) * a.ldx;
        double v = 0;
        if (lane < jb) {
            v = staged ? s[FLOW_OWN_OFF + lane * FLOW_COLS + warp] : __ldcg(x + r0 + lane);
            for (int w = 0; w < FLOW_WARPS; w++) v -= s[(w * 32 + lane) * FLOW_COLS + warp];
        }
        v = inverted ? apply_inverse<Backward>(inv, jb, v)
                     : (Backward ? diag_backward(d, jb, v) : diag_forward(d, jb, v));
        if (lane < jb) __stcg(x + r0 + lane, v);
    }
    __syncthreads();
}

/* Forward triangle block b of a split front: its 32 rows less
 * L[rows, earlier pivots] · X1, taken block by block as the earlier
 * triangle items finish, then solved with the diagonal block. */
template <int W>
__device__ void tri_forward(const front &F, const flow_args &a, const int *tdone, int b, int c0, int nc, double *s,
                            double *d, int *flag)
{
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int r0 = b * FLOW_TB, jb = min(FLOW_TB, F.k - r0), row = min(r0 + lane, F.k - 1);
    if (a.step & SYLVA_SOLVE_STEP_OWN) stage_own<W>(F, a, r0, jb, c0, nc, s + FLOW_OWN_OFF);
    load_diag<W>(F, r0, jb, d);
    double *const inv = s + FLOW_INV_OFF;
    const bool inverted = b > 0; /* block 0 waits for nothing: it substitutes */
    if (inverted) invert_diag(d, jb, inv);
    double acc[FLOW_COLS];
#pragma unroll
    for (int c = 0; c < FLOW_COLS; c++) acc[c] = 0;
    for (int done = 0; done < b;) {
        /* The next block's L entries do not depend on the wait: load first. */
        double l[FLOW_Q];
#pragma unroll
        for (int q = 0; q < FLOW_Q; q++) l[q] = __ldg(F.L + row + (int64_t)(done * FLOW_TB + warp * FLOW_Q + q) * F.m);
        const int hi = min(block_wait(tdone + F.f, done + 1, flag, a), b);
#pragma unroll
        for (int q = 0; q < FLOW_Q; q++) {
            const int j = done * FLOW_TB + warp * FLOW_Q + q;
#pragma unroll
            for (int c = 0; c < FLOW_COLS; c++)
                if (c < nc) acc[c] += l[q] * __ldcg(F.X1 + j + (int64_t)(c0 + c) * a.ldx);
        }
        /* Blocks that finished while this item was not yet running (it
         * was taken late): their loads are independent, so several
         * blocks' are in flight at once. */
#pragma unroll 4
        for (int jj = done + 1; jj < hi; jj++) {
#pragma unroll
            for (int q = 0; q < FLOW_Q; q++) {
                const int j = jj * FLOW_TB + warp * FLOW_Q + q;
                const double lq = __ldg(F.L + row + (int64_t)j * F.m);
#pragma unroll
                for (int c = 0; c < FLOW_COLS; c++)
                    if (c < nc) acc[c] += lq * __ldcg(F.X1 + j + (int64_t)(c0 + c) * a.ldx);
            }
        }
        done = hi;
    }
    finish_block<W, false>(F, a, acc, r0, jb, c0, nc, inverted, inv, d, s);
}

/* Backward triangle block b of a split front: its rows less
 * L[later pivots, rows]ᵀ · X1, taken as the later triangle items finish
 * (from the last one up), then solved with the diagonal block transposed.
 * A lane per pivot of the block, each warp FLOW_Q of an arriving block's
 * rows (lanes read a row of L: strided, but the warp's next rows share
 * the cache lines), partial sums through shared memory as in the forward
 * block: 4 accumulators a thread, where a lane per row needed FLOW_Q ×
 * FLOW_COLS and a warp reduction for each. The next block's L entries are
 * loaded before waiting for it; blocks that finished before this item
 * ran are taken several at once. */
template <int W>
__device__ void tri_backward(const front &F, const flow_args &a, const int *tdone, int b, int nt, int c0, int nc,
                             double *s, double *d, int *flag)
{
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int r0 = b * FLOW_TB, jb = min(FLOW_TB, F.k - r0), need = nt - 1 - b;
    const double *Lj = F.L + (int64_t)(r0 + min(lane, jb - 1)) * F.m; /* our pivot's column */
    if (a.step & SYLVA_SOLVE_STEP_OWN) stage_own<W>(F, a, r0, jb, c0, nc, s + FLOW_OWN_OFF);
    load_diag<W>(F, r0, jb, d);
    double *const inv = s + FLOW_INV_OFF;
    const bool inverted = need > 0; /* the last block waits for nothing: it substitutes */
    if (inverted) invert_diag(d, jb, inv);
    double acc[FLOW_COLS];
#pragma unroll
    for (int c = 0; c < FLOW_COLS; c++) acc[c] = 0;
    /* Block t (counted from the last): the warp's rows of it. */
    auto load = [&](int t, double (&l)[FLOW_Q]) {
        const int i = (nt - 1 - t) * FLOW_TB + warp * FLOW_Q;
#pragma unroll
        for (int q = 0; q < FLOW_Q; q++) l[q] = i + q < F.k ? __ldg(Lj + i + q) : 0.0;
    };
    auto take = [&](int t, const double (&l)[FLOW_Q]) {
        const int i = (nt - 1 - t) * FLOW_TB + warp * FLOW_Q;
#pragma unroll
        for (int q = 0; q < FLOW_Q; q++)
#pragma unroll
            for (int c = 0; c < FLOW_COLS; c++)
                if (c < nc && i + q < F.k) acc[c] += l[q] * __ldcg(F.X1 + i + q + (int64_t)(c0 + c) * a.ldx);
    };
    /* This load-wait-take loop is written out in each item that takes a
     * chain's blocks as they finish (also gpu_solve_top.cuh's): one shared
     * __forceinline__ template changed the top kernels' machine code and
     * measured 3% slower on bcsstk13 (docs/perf-log.md, "Merged main,
     * 2026-11-25 (tenth session)"). */
    for (int done = 0; done < need;) {
        double l[FLOW_Q];
        load(done, l);
        const int hi = min(block_wait(tdone + F.f, done + 1, flag, a), need);
        take(done, l);
#pragma unroll 1
        for (int t = done + 1; t < hi; t++) {
            double lt[FLOW_Q];
            load(t, lt);
            take(t, lt);
        }
        done = hi;
    }
    finish_block<W, true>(F, a, acc, r0, jb, c0, nc, inverted, inv, d, s);
}

/* Forward update item u of a split front: X[its rows] −= L21[its rows,
 * its pivots] · X1[its pivots], taken triangle block (of tb rows) by
 * triangle block as they finish (the item runs beside its front's triangle
 * chain, and only the last block's share is left once the chain ends),
 * FLOW_UPD_RPT rows per thread, atomic adds at the end. */
template <int W>
__device__ void upd_forward(const front &F, const flow_args &a, const int *tdone, int u, int tb, int c0, int nc,
                            double *s, int *flag)
{
    constexpr int R = FLOW_UPD_RPT;
    const int nku = (F.k + SYLVA_SOLVE_UK - 1) / SYLVA_SOLVE_UK;
    const int i0 = u / nku * SYLVA_SOLVE_UR, j0 = u % nku * SYLVA_SOLVE_UK;
    const int i1 = min(F.r, i0 + SYLVA_SOLVE_UR), j1 = min(F.k, j0 + SYLVA_SOLVE_UK);
    double acc[R][FLOW_COLS];
#pragma unroll
    for (int q = 0; q < R; q++)
#pragma unroll
        for (int c = 0; c < FLOW_COLS; c++) acc[q][c] = 0;
    for (int j = j0; j < j1;) {
        /* Triangle blocks done so far (at least the one holding pivot j). */
        const int done = block_wait(tdone + F.f, j / tb + 1, flag, a);
        const int jh = min(j1, done * tb);
        stage_pivots<W>(F, a, j, jh, c0, nc, s);
        accumulate_rows<W, R>(F, i0, i1, j, jh, s, acc);
        __syncthreads(); /* s is staged again next round */
        j = jh;
    }
    subtract_rows<W, R>(F, a, i0, i1, c0, nc, acc);
}

/* Backward update item u of a split front: X1[its pivots] −= L21[its rows,
 * its pivots]ᵀ · X(rows), a warp per pivot, atomic adds (the front's other
 * row chunks add to the same pivots). */
template <int W> __device__ void upd_backward(const front &F, const flow_args &a, int u, int c0, int nc, double *s)
{
    const int nbr = (F.r + SYLVA_SOLVE_BR - 1) / SYLVA_SOLVE_BR;
    const int j0 = u / nbr * SYLVA_SOLVE_BK, i0 = u % nbr * SYLVA_SOLVE_BR;
    const int j1 = min(F.k, j0 + SYLVA_SOLVE_BK), i1 = min(F.r, i0 + SYLVA_SOLVE_BR);
    stage_rows<W>(F, a, i0, i1, c0, nc, s);
    gather_update<W>(F, i0, i1, j0, j1, nc, s, [&](int j, int c, double v) {
        if (c < nc) atomicAdd(F.X1 + j + (int64_t)(c0 + c) * a.ldx, -v);
    });
    __syncthreads();
}

} // namespace
} // namespace sylva

#endif
