/* gpu_native_potrf.cu — F11's POTRF for the native path (or a panel's diagonal
 * block's) when its order is at most the table's native_potrf_tiles: the
 * lower Cholesky factor of an n × n block, in place, by
 * 32 × 32 tiles in ONE persistent launch (a block per SM, cooperative, so
 * all blocks are resident) with one grid barrier per tile column, instead
 * of cuSOLVER's POTRF (one kernel holding every SM for a chain of column
 * steps). Step k: every block with tile rows to solve factors the diagonal
 * tile (k,k) redundantly in one warp's registers; a block per tile row
 * i > k solves L(i,k), solves L(k+1,k) redundantly and updates tile (i,k+1)
 * by panels k−1 and k (so column k+1 is final at the barrier); every other
 * warp takes, by an atomic counter, the tiles (i,j), j ≥ k+2, of panel
 * k−1's update (DMMA m8n8k4). Column k's L tiles go to a double-buffered
 * panel copy, so no block reads a tile another block is overwriting; block
 * 0 writes the tiles the others still read at step k (L(k,k), L(k+1,k)) in
 * place at step k+1. Only the lower triangle of A is read or written.
 * Workspace (native_layout's tiles region, gpu_native_parts.cuh): the two
 * panel copies, the diagonal tile's copies, a barrier counter and a task
 * counter per step, zeroed here on the stream. Failure: *info = the first
 * column j (1-based) whose pivot is not positive (NaN included), as
 * LAPACK's; all blocks leave at the next barrier; A is then unspecified.
 * Double only (DMMA); nothing waits on the host. */
#include <stdio.h>
#include <stdlib.h>

#include "gpu_common.cuh"
#include "gpu_mma.cuh"
#include "gpu_native_parts.cuh"

namespace sylva {

#define NP_TS 32       /* tile size: a warp's lane holds one tile row */
#define NP_THREADS 256 /* 8 warps: 0–3 factor/solve/update a tile row, all take bulk tiles */
#define NP_TILE (NP_TS * NP_TS)
#define NP_LD 33 /* shared tiles' row stride (doubles) */

struct np_args {
    double *A;
    int n, lda, nt;
    double *panel;     /* [2][nt] tiles, column-major inside a tile (ld 32): L(i,k) at step k */
    double *diag;      /* [2] tiles: L(k,k) at step k (block 0's copy for its write-back) */
    unsigned *counter; /* [0]: the grid barrier; [1 + k]: step k's bulk task counter */
    int *info;
    int trace, sleep_ns;
};

__device__ __forceinline__ unsigned ld_acquire(const unsigned *p)
{
    unsigned v;
    asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}

/* Every block arrives once per step: the counter reaches target = steps·G. */
__device__ __forceinline__ void grid_barrier(unsigned *bar, unsigned target, int sleep_ns)
{
    __syncthreads();
    if (threadIdx.x == 0) { /* the block's writes (ordered by the barrier above) released with the add */
        asm volatile("red.release.gpu.global.add.u32 [%0], 1;" ::"l"(bar) : "memory");
        while (ld_acquire(bar) < target) {
            if (sleep_ns) __nanosleep(sleep_ns);
        }
    }
    __syncthreads();
}

/* Element (r, c) of tile (i, j) of A, or z outside the n × n block. Reads
 * bypass L1 (__ldcg): other blocks wrote these since the last barrier. */
__device__ __forceinline__ double np_ld(const np_args &a, int i, int j, int r, int c, double z)
{
    const int gr = i * NP_TS + r, gc = j * NP_TS + c;
    return gr < a.n && gc < a.n ? __ldcg(a.A + gr + (size_t)gc * a.lda) : z;
}
__device__ __forceinline__ void np_st(const np_args &a, int i, int j, int r, int c, double v)
{
    const int gr = i * NP_TS + r, gc = j * NP_TS + c;
    if (gr < a.n && gc < a.n && (i != j || r >= c)) a.A[gr + (size_t)gc * a.lda] = v;
}

/* Warp: POTRF of the 32 × 32 diagonal tile (k,k) in registers (lane r holds
 * row r; the upper part starts as 0; rows past n as identity). Writes L
 * (lower, 0 above) and the pivots' inverses to shared memory; returns the
 * first failing column (1-based, in A's numbering) or 0. */
__device__ int np_potrf_tile(const np_args &a, int k, double (*L)[NP_LD], double *inv)
{
    const int r = threadIdx.x % 32;
    double x[NP_TS];
#pragma unroll
    for (int c = 0; c < NP_TS; c++)
        x[c] = c <= r ? np_ld(a, k, k, r, c, c == r ? 1.0 : 0.0) : 0.0;
    int fail = 0;
#pragma unroll
    for (int j = 0; j < NP_TS; j++) {
        const double d = __shfl_sync(0xffffffffu, x[j], j);
        if (!(d > 0) && fail == 0 && k * NP_TS + j < a.n) fail = k * NP_TS + j + 1;
        const double rs = rsqrt(d);
        x[j] *= rs;
        if (r == 0) inv[j] = rs;
#pragma unroll
        for (int c = j + 1; c < NP_TS; c++) x[c] -= x[j] * __shfl_sync(0xffffffffu, x[j], c);
    }
#pragma unroll
    for (int c = 0; c < NP_TS; c++) L[r][c] = c <= r ? x[c] : 0.0;
    return fail;
}

/* Warp: the same POTRF with a tile row's TRSM riding on its column loop
 * (lane r: row r of tile (ri,k) in y): each column's broadcast serves
 * both, so the solve adds no step to the chain. L and the pivots'
 * inverses to shared memory when L is given; y ← L(ri,k). */
__device__ int np_potrf_trsm(const np_args &a, int k, int ri, double (*L)[NP_LD], double *inv,
                             double (&y)[NP_TS])
{
    const int r = threadIdx.x % 32;
    double x[NP_TS];
#pragma unroll
    for (int c = 0; c < NP_TS; c++) {
        x[c] = c <= r ? np_ld(a, k, k, r, c, c == r ? 1.0 : 0.0) : 0.0;
        y[c] = np_ld(a, ri, k, r, c, 0.0);
    }
    int fail = 0;
#pragma unroll
    for (int j = 0; j < NP_TS; j++) {
        const double d = __shfl_sync(0xffffffffu, x[j], j);
        if (!(d > 0) && fail == 0 && k * NP_TS + j < a.n) fail = k * NP_TS + j + 1;
        const double rs = rsqrt(d);
        x[j] *= rs, y[j] *= rs;
        if (L && r == 0) inv[j] = rs;
#pragma unroll
        for (int c = j + 1; c < NP_TS; c++) {
            const double l = __shfl_sync(0xffffffffu, x[j], c);
            x[c] -= x[j] * l, y[c] -= y[j] * l;
        }
    }
    if (L) {
#pragma unroll
        for (int c = 0; c < NP_TS; c++) L[r][c] = c <= r ? x[c] : 0.0;
    }
    return fail;
}

/* Warp: x ← x·L⁻ᵀ for the tile row held in x (lane r: row r), L and the
 * pivots' inverses in shared memory. */
__device__ __forceinline__ void np_trsm_row(double (&x)[NP_TS], double (*L)[NP_LD], const double *inv)
{
#pragma unroll
    for (int j = 0; j < NP_TS; j++) {
        x[j] *= inv[j];
#pragma unroll
        for (int c = j + 1; c < NP_TS; c++) x[c] -= x[j] * L[c][j];
    }
}

/* Warp: the bulk update of tile (i,j) by panel p's tiles (in panel copy
 * pc): A(i,j) −= L(i,p)·L(j,p)ᵀ, on DMMA (4 × 4 fragments of 8 × 8). */
__device__ void np_bulk_tile(const np_args &a, const double *pc, int i, int j)
{
    const int lane = threadIdx.x % 32, g = lane / 4, q = lane % 4;
    const double *Li = pc + (size_t)i * NP_TILE, *Lj = pc + (size_t)j * NP_TILE;
    double acc[4][4][2];
#pragma unroll
    for (int u = 0; u < 4; u++)
#pragma unroll
        for (int v = 0; v < 4; v++)
#pragma unroll
            for (int e = 0; e < 2; e++) acc[u][v][e] = np_ld(a, i, j, u * 8 + g, v * 8 + 2 * q + e, 0.0);
#pragma unroll
    for (int kk = 0; kk < NP_TS; kk += 4) {
        double fa[4], fb[4];
#pragma unroll
        for (int u = 0; u < 4; u++) {
            fa[u] = -__ldcg(Li + (kk + q) * NP_TS + u * 8 + g);
            fb[u] = __ldcg(Lj + (kk + q) * NP_TS + u * 8 + g);
        }
#pragma unroll
        for (int u = 0; u < 4; u++)
#pragma unroll
            for (int v = 0; v < 4; v++) mma_8x8x4(acc[u][v], fa[u], fb[v]);
    }
#pragma unroll
    for (int u = 0; u < 4; u++)
#pragma unroll
        for (int v = 0; v < 4; v++)
#pragma unroll
            for (int e = 0; e < 2; e++) np_st(a, i, j, u * 8 + g, v * 8 + 2 * q + e, acc[u][v][e]);
}

/* Warp: take step k's bulk tiles (panel k−1 on columns ≥ k+2) until none
 * is left. */
__device__ void np_bulk(const np_args &a, int k)
{
    const int qn = a.nt - k - 2; /* columns k+2 … nt−1 */
    if (k < 1 || qn <= 0) return;
    const unsigned total = (unsigned)qn * (unsigned)(qn + 1) / 2;
    const double *pc = a.panel + (size_t)((k - 1) & 1) * a.nt * NP_TILE;
    for (;;) {
        unsigned t = 0;
        if (threadIdx.x % 32 == 0) t = atomicAdd(a.counter + 1 + k, 1u);
        t = __shfl_sync(0xffffffffu, t, 0);
        if (t >= total) return;
        int u = (int)((sqrt(8.0 * t + 1.0) - 1.0) / 2.0); /* t = u(u+1)/2 + v, v ≤ u */
        while ((unsigned)u * (u + 1) / 2 > t) u--;
        while ((unsigned)(u + 1) * (u + 2) / 2 <= t) u++;
        const int v = (int)(t - (unsigned)u * (u + 1) / 2);
        np_bulk_tile(a, pc, k + 2 + u, k + 2 + v);
    }
}

/* Named barrier of warps 0–3 (the tile-row group). */
__device__ __forceinline__ void np_group_sync() { asm volatile("bar.sync 1, 128;" ::: "memory"); }

__device__ __forceinline__ unsigned long long np_now()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

/* FUSE: warp 0's POTRF carries the two TRSMs (np_potrf_trsm); else warps
 * 1 and 2 solve after it (np_trsm_row). */
template <bool FUSE>
__global__ void __launch_bounds__(NP_THREADS, 1) np_potrf_kernel(np_args a)
{
    __shared__ double Lkk[NP_TS][NP_LD], Lik[NP_TS][NP_LD], Lk1[NP_TS][NP_LD], Ct[NP_TS][NP_LD];
    __shared__ double inv[NP_TS];
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, G = gridDim.x, b = blockIdx.x;
    unsigned long long tr[5] = {0, 0, 0, 0, 0}, t0 = 0, t1 = 0; /* trace: W1, chain, bulk, barrier */
    const bool tracer = a.trace && threadIdx.x == 0 && (b == 0 || b == G - 1);
    for (int k = 0; k < a.nt; k++) {
        if (tracer) t0 = np_now();
        const int rows = a.nt - 1 - k; /* tile rows k+1 … nt−1 to solve */
        /* block 0: write back what the others read last step (L(k−1,k−1), L(k,k−1)) */
        if (b == 0 && k > 0 && warp >= 4) {
            const double *D = a.diag + (size_t)((k - 1) & 1) * NP_TILE,
                         *P = a.panel + ((size_t)((k - 1) & 1) * a.nt + k) * NP_TILE;
            for (int e = threadIdx.x - 128; e < NP_TILE; e += 128) {
                np_st(a, k - 1, k - 1, e % NP_TS, e / NP_TS, __ldcg(D + e));
                np_st(a, k, k - 1, e % NP_TS, e / NP_TS, __ldcg(P + e));
            }
        }
        const bool chain = b == 0 || b < rows;
        if (chain && warp < 4) {
            bool first = true;
            for (int i = k + 1 + b; first || i < a.nt; i += G) {
                /* (a) the diagonal tile; the rows to solve; C = A(i,k+1) − panel k−1's part */
                double x[NP_TS]; /* warp 0: L(i,k); warp 1: L(k+1,k) (warp 2 too, unfused) */
                if (FUSE && warp == 1 && i < a.nt) /* L(k+1,k) beside warp 0, its own POTRF */
                    np_potrf_trsm(a, k, k + 1, nullptr, nullptr, x);
                if (warp == 0 && (first || FUSE)) {
                    const int f = FUSE && i < a.nt ? np_potrf_trsm(a, k, i, Lkk, inv, x)
                                                   : np_potrf_tile(a, k, Lkk, inv);
                    if (f != 0 && lane == 0) *a.info = f;
                    if (b == 0 && first) {
                        double *D = k + 1 < a.nt ? a.diag + (size_t)(k & 1) * NP_TILE : nullptr;
#pragma unroll
                        for (int c = 0; c < NP_TS; c++) {
                            if (D) D[c * NP_TS + lane] = Lkk[lane][c];
                            else np_st(a, k, k, lane, c, Lkk[lane][c]);
                        }
                    }
                    if (tracer && first) tr[0] += np_now() - t0;
                }
                if (i >= a.nt) break; /* block 0 at the last step: the diagonal tile only */
                if (!FUSE && (warp == 1 || (warp == 2 && first))) {
                    const int row = warp == 1 ? i : k + 1;
#pragma unroll
                    for (int c = 0; c < NP_TS; c++) x[c] = np_ld(a, row, k, lane, c, 0.0);
                }
                if (warp == 3) {
                    const int g = lane / 4, q = lane % 4;
                    double acc[4][4][2];
#pragma unroll
                    for (int u = 0; u < 4; u++)
#pragma unroll
                        for (int v = 0; v < 4; v++)
#pragma unroll
                            for (int e = 0; e < 2; e++)
                                acc[u][v][e] = np_ld(a, i, k + 1, u * 8 + g, v * 8 + 2 * q + e, 0.0);
                    if (k > 0) {
                        const double *pc = a.panel + (size_t)((k - 1) & 1) * a.nt * NP_TILE,
                                     *Li = pc + (size_t)i * NP_TILE, *Lj = pc + (size_t)(k + 1) * NP_TILE;
#pragma unroll
                        for (int kk = 0; kk < NP_TS; kk += 4) {
                            double fa[4], fb[4];
#pragma unroll
                            for (int u = 0; u < 4; u++) {
                                fa[u] = -__ldcg(Li + (kk + q) * NP_TS + u * 8 + g);
                                fb[u] = __ldcg(Lj + (kk + q) * NP_TS + u * 8 + g);
                            }
#pragma unroll
                            for (int u = 0; u < 4; u++)
#pragma unroll
                                for (int v = 0; v < 4; v++) mma_8x8x4(acc[u][v], fa[u], fb[v]);
                        }
                    }
#pragma unroll
                    for (int u = 0; u < 4; u++)
#pragma unroll
                        for (int v = 0; v < 4; v++)
#pragma unroll
                            for (int e = 0; e < 2; e++) Ct[u * 8 + g][v * 8 + 2 * q + e] = acc[u][v][e];
                }
                if (!FUSE) np_group_sync();
                /* (b) L(i,k) and (first) L(k+1,k): to the panel copy, shared memory, in place */
                if (FUSE ? warp == 0 : (warp == 1 || (warp == 2 && first))) {
                    if (!FUSE) np_trsm_row(x, Lkk, inv);
                    if (FUSE || warp == 1) {
                        double *Pt = a.panel + ((size_t)(k & 1) * a.nt + i) * NP_TILE;
#pragma unroll
                        for (int c = 0; c < NP_TS; c++) {
                            Pt[c * NP_TS + lane] = x[c];
                            Lik[lane][c] = x[c];
                            if (i >= k + 2) np_st(a, i, k, lane, c, x[c]);
                        }
                    }
                    if (!FUSE && warp == 2) {
#pragma unroll
                        for (int c = 0; c < NP_TS; c++) Lk1[lane][c] = x[c];
                    }
                }
                if (FUSE && warp == 1) {
#pragma unroll
                    for (int c = 0; c < NP_TS; c++) Lk1[lane][c] = x[c];
                }
                np_group_sync();
                /* (c) A(i,k+1) = C − L(i,k)·L(k+1,k)ᵀ, a 16 × 16 quadrant a warp */
                {
                    const int g = lane / 4, q = lane % 4, r0 = (warp >> 1) * 16, c0 = (warp & 1) * 16;
                    double acc[2][2][2];
#pragma unroll
                    for (int u = 0; u < 2; u++)
#pragma unroll
                        for (int v = 0; v < 2; v++)
#pragma unroll
                            for (int e = 0; e < 2; e++) acc[u][v][e] = Ct[r0 + u * 8 + g][c0 + v * 8 + 2 * q + e];
#pragma unroll
                    for (int kk = 0; kk < NP_TS; kk += 4) {
                        double fa[2], fb[2];
#pragma unroll
                        for (int u = 0; u < 2; u++) {
                            fa[u] = -Lik[r0 + u * 8 + g][kk + q];
                            fb[u] = Lk1[c0 + u * 8 + g][kk + q];
                        }
#pragma unroll
                        for (int u = 0; u < 2; u++)
#pragma unroll
                            for (int v = 0; v < 2; v++) mma_8x8x4(acc[u][v], fa[u], fb[v]);
                    }
#pragma unroll
                    for (int u = 0; u < 2; u++)
#pragma unroll
                        for (int v = 0; v < 2; v++)
#pragma unroll
                            for (int e = 0; e < 2; e++)
                                np_st(a, i, k + 1, r0 + u * 8 + g, c0 + v * 8 + 2 * q + e, acc[u][v][e]);
                }
                np_group_sync(); /* Ct, Lik reused by this block's next row */
                first = false;
            }
        }
        if (tracer) t1 = np_now(), tr[1] += t1 - t0;
        /* a tile row's block takes bulk tiles only once its row is done: DMMA beside the POTRF's
         * DFMA slows the chain (v12, call 2) */
        if (chain) __syncthreads();
        np_bulk(a, k);
        if (tracer) tr[2] += np_now() - t1, t1 = np_now();
        if (k + 1 == a.nt) break;
        grid_barrier(a.counter, (unsigned)(k + 1) * (unsigned)G, a.sleep_ns);
        if (tracer) tr[3] += np_now() - t1;
        if (__ldcg(a.info) != 0) break;
    }
    if (tracer)
        printf("np trace n %d block %d of %d: W1 %.1f chain %.1f bulk %.1f barrier %.1f us\n", a.n, b, G,
               tr[0] * 1e-3, tr[1] * 1e-3, tr[2] * 1e-3, tr[3] * 1e-3);
}

int native_potrf_tiles(int n, double *A, int lda, void *work, const native_layout &lay, int *info,
                       cudaStream_t s)
{
    if (n <= 0) return SYLVA_OK;
    const int nt = SYLVA_DIV_UP(n, NP_TS);
    np_args a;
    a.A = A, a.n = n, a.lda = lda, a.nt = nt, a.info = info;
    a.panel = (double *)((char *)work + lay.tiles);
    a.diag = a.panel + (size_t)2 * nt * NP_TILE;
    a.counter = (unsigned *)(a.diag + 2 * NP_TILE);
    int sms = device_sm_count();
    if (sms <= 0) return sylva__fail(SYLVA_ERR_RUNTIME, "no SM count for the tile POTRF");
    /* more blocks than tiles to update only lengthen the barrier */
    const long want = (long)nt * (nt + 1) / 2;
    int G = want < sms ? (int)want : sms;
    const char *gv = getenv("SYLVA_NP_G"), *sv = getenv("SYLVA_NP_SLEEP");
    if (gv && atoi(gv) > 0 && atoi(gv) < G) G = atoi(gv);
    a.sleep_ns = sv ? atoi(sv) : 0;
    if (cudaMemsetAsync(a.counter, 0, (size_t)(nt + 1) * sizeof(unsigned), s) != cudaSuccess ||
        cudaMemsetAsync(info, 0, sizeof(int), s) != cudaSuccess)
        return sylva__fail(SYLVA_ERR_RUNTIME, "zeroing the tile POTRF's counters failed");
    /* SYLVA_NP_TRACE / _FORM / _G / _SLEEP: v12's experiment only (phase times from the device; the
     * TRSM beside or inside warp 0's POTRF) */
    const char *tv = getenv("SYLVA_NP_TRACE"), *fv = getenv("SYLVA_NP_FORM");
    a.trace = tv && *tv == '1';
    void *args[] = {&a};
    const void *fn = fv && *fv == '0' ? (const void *)np_potrf_kernel<false> : (const void *)np_potrf_kernel<true>;
    cudaError_t e = cudaLaunchCooperativeKernel(fn, dim3(G), dim3(NP_THREADS), args, 0, s);
    if (e != cudaSuccess)
        return sylva__fail(SYLVA_ERR_RUNTIME, "tile POTRF launch failed: %s", cudaGetErrorString(e));
    return SYLVA_OK;
}

int64_t native_potrf_tiles_bytes(int n)
{
    const int64_t nt = SYLVA_DIV_UP(n, NP_TS);
    return (2 * nt + 2) * NP_TILE * (int64_t)sizeof(double) + (nt + 1) * (int64_t)sizeof(unsigned);
}

} // namespace sylva
