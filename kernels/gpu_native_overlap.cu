/* gpu_native_overlap.cu — the native front (v15, tuning key native_overlap
 * = G > 0) with F11's POTRF hidden beside its bulk instead of before it.
 * F11 (k × k, lower, in place) is factored by 32 × 32 tiles on G
 * persistent blocks (v12's kernel, form 0: one grid barrier per tile
 * column, the diagonal tile in one warp's registers, F11's own trailing
 * updates on DMMA), one cooperative launch per 256 columns (8 tile
 * columns) on the calling thread's second stream at the device's greatest
 * priority (gpu_class_streams.cu), an event after each launch. On the
 * caller's stream s, once launch J's event fires: L21(:, J) = (A21(:, J) −
 * L21(:, <J)·L11(J, <J)ᵀ)·L11(J, J)⁻ᵀ (a GEMM and a TRSM) and C −=
 * L21(:, J)·L21(:, J)ᵀ (lower; SYRK + GEMM column tiles of syrk_nb, as
 * gpu_native.cu's). Launch J leaves F11's columns of block J final in
 * place (its diagonal tile written back after its last barrier) and
 * touches only F11's columns ≥ J's, so s reads nothing the chain writes.
 * Step k's tile kernel: every block with tile rows to solve factors tile
 * (k,k) redundantly; a block per tile row i > k solves L(i,k) and,
 * redundantly, L(k+1,k), and updates tile (i,k+1) by panels k−1 and k;
 * every warp then takes tiles (i,j), j ≥ k+2, of panel k−1's update by an
 * atomic counter; column k's L tiles go to a double-buffered panel copy
 * (no block reads a tile another overwrites in the same step); block 0
 * writes L(k−1,k−1), L(k,k−1) in place at step k. Workspace: the layout's
 * tiles region (panel copies, diagonal copies, barrier and task counters,
 * zeroed on the second stream first). Failure: *info = the first column
 * (1-based, F11's) whose pivot is not positive (NaN included); the chain's
 * blocks leave at the next barrier and its later launches at once; P, C
 * then unspecified. Everything is joined into s (its last wait is on the
 * last launch's event); nothing waits on the host. Double only (DMMA). */
#include <stdlib.h>

#include "gpu_blas.cuh"
#include "gpu_common.cuh"
#include "gpu_mma.cuh"
#include "gpu_native_parts.cuh"

namespace sylva {

#define NP_TS 32       /* tile size: a warp's lane holds one tile row */
#define NP_THREADS 256 /* 8 warps: 0–3 factor/solve/update a tile row, all take bulk tiles */
#define NP_TILE (NP_TS * NP_TS)
#define NP_LD 33    /* shared tiles' row stride (doubles) */
#define NO_BLOCK 256 /* columns of F11 per launch (a multiple of NP_TS) */

struct np_args {
    double *A;
    int n, lda, nt;
    double *panel;     /* [2][nt] tiles, column-major inside a tile (ld 32): L(i,k) at step k */
    double *diag;      /* [2] tiles: L(k,k) at step k (block 0's copy for its write-back) */
    unsigned *counter; /* [0]: the grid barrier; [1 + k]: step k's bulk task counter */
    int *info;
    int k0, k1; /* this launch's tile columns (steps) */
};

__device__ __forceinline__ unsigned ld_acquire(const unsigned *p)
{
    unsigned v;
    asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}

/* Every block arrives once per step: the counter reaches target = steps·G. */
__device__ __forceinline__ void grid_barrier(unsigned *bar, unsigned target)
{
    __syncthreads();
    if (threadIdx.x == 0) { /* the block's writes (ordered by the barrier above) released with the add */
        asm volatile("red.release.gpu.global.add.u32 [%0], 1;" ::"l"(bar) : "memory");
        while (ld_acquire(bar) < target) {
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

__global__ void __launch_bounds__(NP_THREADS, 1) np_chain_kernel(np_args a)
{
    __shared__ double Lkk[NP_TS][NP_LD], Lik[NP_TS][NP_LD], Lk1[NP_TS][NP_LD], Ct[NP_TS][NP_LD];
    __shared__ double inv[NP_TS];
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, G = gridDim.x, b = blockIdx.x;
    if (__ldcg(a.info) != 0) return; /* an earlier launch failed: every block leaves */
    int k = a.k0;
    for (; k < a.k1; k++) {
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
                double x[NP_TS]; /* warp 1: L(i,k); warp 2: L(k+1,k) */
                if (warp == 0 && first) {
                    const int f = np_potrf_tile(a, k, Lkk, inv);
                    if (f != 0 && lane == 0) *a.info = f;
                    if (b == 0) {
                        double *D = k + 1 < a.nt ? a.diag + (size_t)(k & 1) * NP_TILE : nullptr;
#pragma unroll
                        for (int c = 0; c < NP_TS; c++) {
                            if (D) D[c * NP_TS + lane] = Lkk[lane][c];
                            else np_st(a, k, k, lane, c, Lkk[lane][c]);
                        }
                    }
                }
                if (i >= a.nt) break; /* block 0 at the last step: the diagonal tile only */
                if (warp == 1 || (warp == 2 && first)) {
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
                np_group_sync();
                /* L(i,k) and (first) L(k+1,k): to the panel copy, shared memory, in place */
                if (warp == 1 || (warp == 2 && first)) {
                    np_trsm_row(x, Lkk, inv);
                    if (warp == 1) {
                        double *Pt = a.panel + ((size_t)(k & 1) * a.nt + i) * NP_TILE;
#pragma unroll
                        for (int c = 0; c < NP_TS; c++) {
                            Pt[c * NP_TS + lane] = x[c];
                            Lik[lane][c] = x[c];
                            if (i >= k + 2) np_st(a, i, k, lane, c, x[c]);
                        }
                    } else {
#pragma unroll
                        for (int c = 0; c < NP_TS; c++) Lk1[lane][c] = x[c];
                    }
                }
                np_group_sync();
                /* A(i,k+1) = C − L(i,k)·L(k+1,k)ᵀ, a 16 × 16 quadrant a warp */
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
        /* a tile row's block takes bulk tiles only once its row is done (v12, call 3) */
        if (chain) __syncthreads();
        np_bulk(a, k);
        if (k + 1 == a.nt) return;
        /* one barrier a step, the launch's last step's too (its diagonal tile goes in place after it) */
        grid_barrier(a.counter, (unsigned)(k + 1) * (unsigned)G);
        if (__ldcg(a.info) != 0) return;
    }
    /* F11's columns of this launch final in place: L(k1−1,k1−1) from block 0's copy (the others
     * read it from A until the barrier above; step k1 writes it again, the same values) */
    if (b == 0) {
        const double *D = a.diag + (size_t)((k - 1) & 1) * NP_TILE;
        for (int e = threadIdx.x; e < NP_TILE; e += NP_THREADS)
            np_st(a, k - 1, k - 1, e % NP_TS, e / NP_TS, __ldcg(D + e));
    }
}

static int lib_fail(const char *call, int status)
{
    return sylva__fail(SYLVA_ERR_RUNTIME, "%s failed (library status %d)", call, status);
}

int64_t native_chain_bytes(int k)
{
    const int64_t nt = SYLVA_DIV_UP(k, NP_TS);
    return (2 * nt + 2) * NP_TILE * (int64_t)sizeof(double) + (nt + 1) * (int64_t)sizeof(unsigned);
}

/* L21's block column J (c0, jb) and its CB update, on s. */
static cublasStatus_t bulk_block(cublasHandle_t blas, int r, int k, double *P, int ldp, double *C,
                                 int ldc, int c0, int jb, int nb)
{
    const double one = 1, minus_one = -1;
    double *L21 = P + k, *B = L21 + (size_t)c0 * ldp;
    cublasStatus_t st = CUBLAS_STATUS_SUCCESS;
    if (c0 > 0) st = gemm_nt(blas, r, jb, c0, &minus_one, L21, ldp, P + c0, ldp, &one, B, ldp);
    if (st == CUBLAS_STATUS_SUCCESS)
        st = trsm_right_lt(blas, r, jb, &one, P + c0 + (size_t)c0 * ldp, ldp, B, ldp);
    if (st == CUBLAS_STATUS_SUCCESS && (nb <= 0 || nb >= r))
        return syrk_ln(blas, r, jb, &minus_one, B, ldp, &one, C, ldc);
    for (int j = 0; j < r && st == CUBLAS_STATUS_SUCCESS; j += nb) {
        const int w = r - j < nb ? r - j : nb, below = r - j - w;
        st = syrk_ln(blas, w, jb, &minus_one, B + j, ldp, &one, C + j + (size_t)j * ldc, ldc);
        if (st == CUBLAS_STATUS_SUCCESS && below > 0)
            st = gemm_nt(blas, below, w, jb, &minus_one, B + j + w, ldp, B + j, ldp, &one,
                         C + (j + w) + (size_t)j * ldc, ldc);
    }
    return st;
}

int native_overlapped(cublasHandle_t blas, int m, int k, double *P, int ldp, double *C, int ldc,
                      void *work, const native_layout &lay, int *info, int G, int syrk_nb,
                      cudaStream_t s)
{
    cudaStream_t aux;
    cudaEvent_t ev[3];
    const int sms = device_sm_count(), nt = SYLVA_DIV_UP(k, NP_TS), r = m - k;
    if (k <= 0 || G <= 0 || sms <= 0 || !lay.tiles || class_streams(true, &aux, ev) != SYLVA_OK)
        return SYLVA_ERR_UNSUPPORTED;
    const long want = (long)nt * (nt + 1) / 2; /* more blocks than tiles only lengthen the barrier */
    if (G > sms) G = sms;
    if (G > want) G = (int)want;
    np_args a;
    a.A = P, a.n = k, a.lda = ldp, a.nt = nt, a.info = info;
    a.panel = (double *)((char *)work + lay.tiles);
    a.diag = a.panel + (size_t)2 * nt * NP_TILE;
    a.counter = (unsigned *)(a.diag + 2 * NP_TILE);
    /* fork: the chain after s's work so far (P assembled); its counters and info zeroed there */
    if (cudaEventRecord(ev[0], s) != cudaSuccess || cudaStreamWaitEvent(aux, ev[0], 0) != cudaSuccess ||
        cudaMemsetAsync(a.counter, 0, (size_t)(nt + 1) * sizeof(unsigned), aux) != cudaSuccess ||
        cudaMemsetAsync(info, 0, sizeof(int), aux) != cudaSuccess)
        return sylva__fail(SYLVA_ERR_RUNTIME, "forking the native chain failed: %s",
                           cudaGetErrorString(cudaGetLastError()));
    const int steps = NO_BLOCK / NP_TS, nblk = SYLVA_DIV_UP(k, NO_BLOCK);
    /* SYLVA_NO_PART (v15's experiment only): "chain" the chain's launches alone, "bulk" the
     * blocks' L21 and CB work alone (F11 not factored: times only) */
    const char *part = getenv("SYLVA_NO_PART");
    const bool no_bulk = part && part[0] == 'c', no_chain = part && part[0] == 'b';
    /* launch J records ev[J % 3]; s waits on it before block J's bulk, so launch J + 3 (which
     * records the same event again) is enqueued only after that wait */
    auto launch = [&](int J) -> int {
        a.k0 = J * steps, a.k1 = (J + 1) * steps < nt ? (J + 1) * steps : nt;
        void *args[] = {&a};
        cudaError_t e = no_chain ? cudaSuccess : cudaLaunchCooperativeKernel((const void *)np_chain_kernel, dim3(G), dim3(NP_THREADS),
                                                    args, 0, aux);
        if (e == cudaSuccess) e = cudaEventRecord(ev[J % 3], aux);
        return e == cudaSuccess ? SYLVA_OK
                                : sylva__fail(SYLVA_ERR_RUNTIME, "native chain launch failed: %s",
                                              cudaGetErrorString(e));
    };
    int rc = SYLVA_OK;
    for (int J = 0; J < 3 && J < nblk && rc == SYLVA_OK; J++) rc = launch(J);
    for (int J = 0; J < nblk && rc == SYLVA_OK; J++) {
        if (cudaStreamWaitEvent(s, ev[J % 3], 0) != cudaSuccess)
            return sylva__fail(SYLVA_ERR_RUNTIME, "joining the native chain failed");
        if (J + 3 < nblk) rc = launch(J + 3);
        const int c0 = J * NO_BLOCK, jb = k - c0 < NO_BLOCK ? k - c0 : NO_BLOCK;
        if (rc == SYLVA_OK && r > 0 && !no_bulk) {
            cublasStatus_t st = bulk_block(blas, r, k, P, ldp, C, ldc, c0, jb, syrk_nb);
            if (st != CUBLAS_STATUS_SUCCESS) rc = lib_fail("cuBLAS GEMM/TRSM/SYRK (native block)", st);
        }
    }
    return rc;
}

} // namespace sylva
