/* gpu_gemm.cu — the vbatched GEMM C ← alpha·A·Bᵀ + beta·C under the medium
 * path: 64 × BN tiles of C per block, k-steps of 16 staged in shared memory,
 * 4 × BN/16 register tile per thread (256 threads); BN = 64 for SYRK and
 * GEMM entries, 32 for the panel updates (a panel is ≤ 32 wide, so a 64-wide
 * tile would compute half zeros). With `lower`, tiles wholly
 * above the diagonal exit and entries above it are neither read nor written
 * (the SYRK of a front, and the update of a diagonal block). The operands of
 * each front are derived inside the kernel from the batch arrays and a step
 * index (MAGMA's offset variants), so no per-step pointer arrays are built:
 *   generic      plain arrays (SYRK / GEMM entries);
 *   front panel  P[j:m, j:j+jb] −= P[j:m, 0:j]·P[j:j+jb, 0:j]ᵀ (left-looking);
 *   front syrk   C −= P[k:m, :]·P[k:m, :]ᵀ;
 *   trsm panel   B[:, j:j+jb] −= B[:, 0:j]·L[j:j+jb, 0:j]ᵀ.
 * grid.x = batch entry, grid.y = tile of C (over the launch's maxima).
 * With MMA (double only, gpu_mma.cuh) the same staging feeds FP64 tensor-core
 * steps instead: each of the 8 warps owns a (64/WM) × (BN/WN) part of the
 * tile as 8 × 8 accumulator fragments; shared rows are padded to 8 mod 16
 * doubles so a fragment load takes the minimum two wavefronts. Warps whose
 * whole part lies above the diagonal skip the products (warp-uniform).
 * Written once for any scalar type T. */

#include "gpu_common.cuh"
#include "gpu_gemm.cuh"
#include "gpu_mma.cuh"

namespace sylva {

#define GT 64
#define GK 16

template <int BN, typename T>
__device__ static void gemm_nt_tile(int M, int N, int K, T alpha, const T *A, int lda, const T *B,
                                    int ldb, T beta, T *C, int ldc, int lower, int tile)
{
    constexpr int TN = BN / 16; /* columns per thread */
    const int tilesM = SYLVA_DIV_UP(M, GT);
    if (M <= 0 || N <= 0 || tile >= tilesM * SYLVA_DIV_UP(N, BN)) return;
    const int r0 = (tile % tilesM) * GT, c0 = (tile / tilesM) * BN;
    if (lower && r0 + GT - 1 < c0) return;
    __shared__ T As[GK][GT], Bs[GK][BN];
    const int tid = threadIdx.x, tx = tid % 16, ty = tid / 16;
    T acc[4][TN];
#pragma unroll
    for (int i = 0; i < 4; i++)
#pragma unroll
        for (int j = 0; j < TN; j++) acc[i][j] = T(0);
    /* Next k-step's operands are fetched into registers while this one is
     * multiplied (and all loads are in flight before the shared stores). */
    T ra[4], rb[TN];
    auto fetch = [&](int k0) {
#pragma unroll
        for (int q = 0; q < 4; q++) {
            const int r = tid % GT, kk = tid / GT + 4 * q;
            ra[q] = k0 + kk < K && r0 + r < M ? A[(r0 + r) + (size_t)(k0 + kk) * lda] : T(0);
        }
#pragma unroll
        for (int q = 0; q < TN; q++) {
            const int r = tid % BN, kk = tid / BN + (256 / BN) * q;
            rb[q] = k0 + kk < K && c0 + r < N ? B[(c0 + r) + (size_t)(k0 + kk) * ldb] : T(0);
        }
    };
    if (K > 0) fetch(0);
    for (int k0 = 0; k0 < K; k0 += GK) {
#pragma unroll
        for (int q = 0; q < 4; q++) As[tid / GT + 4 * q][tid % GT] = ra[q];
#pragma unroll
        for (int q = 0; q < TN; q++) Bs[tid / BN + (256 / BN) * q][tid % BN] = rb[q];
        __syncthreads();
        if (k0 + GK < K) fetch(k0 + GK);
#pragma unroll
        for (int kk = 0; kk < GK; kk++) {
            T a[4], bb[TN];
#pragma unroll
            for (int i = 0; i < 4; i++) a[i] = As[kk][tx + 16 * i];
#pragma unroll
            for (int j = 0; j < TN; j++) bb[j] = Bs[kk][ty + 16 * j];
#pragma unroll
            for (int i = 0; i < 4; i++)
#pragma unroll
                for (int j = 0; j < TN; j++) acc[i][j] += a[i] * bb[j];
        }
        __syncthreads();
    }
#pragma unroll
    for (int j = 0; j < TN; j++) {
        const int c = c0 + ty + 16 * j;
#pragma unroll
        for (int i = 0; i < 4; i++) {
            const int r = r0 + tx + 16 * i;
            if (r < M && c < N && (!lower || r >= c)) {
                T *p = C + r + (size_t)c * ldc;
                *p = beta == T(0) ? alpha * acc[i][j] : alpha * acc[i][j] + beta * *p;
            }
        }
    }
}

/* The DMMA form of gemm_nt_tile (same contract; T = double). */
template <int BN, typename T>
__device__ static void gemm_nt_tile_mma(int M, int N, int K, T alpha, const T *A, int lda,
                                        const T *B, int ldb, T beta, T *C, int ldc, int lower,
                                        int tile)
{
    constexpr int WN = BN == 64 ? 4 : 2, WM = 8 / WN; /* warps along N and M */
    constexpr int SM = GT / WM, SN = BN / WN;         /* a warp's part */
    constexpr int MI = SM / 8, NI = SN / 8;           /* its 8 × 8 fragments */
    constexpr int PA = GT + 8, PBN = BN + 8;          /* padded shared rows */
    const int tilesM = SYLVA_DIV_UP(M, GT);
    if (M <= 0 || N <= 0 || tile >= tilesM * SYLVA_DIV_UP(N, BN)) return;
    const int r0 = (tile % tilesM) * GT, c0 = (tile / tilesM) * BN;
    if (lower && r0 + GT - 1 < c0) return;
    __shared__ __align__(16) T As[GK][PA], Bs[GK][PBN];
    const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32, g = lane / 4, q = lane % 4;
    const int rb = (warp % WM) * SM, cb = (warp / WM) * SN;
    const bool live = !lower || r0 + rb + SM - 1 >= c0 + cb; /* warp-uniform */
    T acc[MI][NI][2];
#pragma unroll
    for (int i = 0; i < MI; i++)
#pragma unroll
        for (int j = 0; j < NI; j++) acc[i][j][0] = acc[i][j][1] = T(0);
    T ra[4], rbv[BN / 16];
    auto fetch = [&](int k0) {
#pragma unroll
        for (int u = 0; u < 4; u++) {
            const int r = tid % GT, kk = tid / GT + 4 * u;
            ra[u] = k0 + kk < K && r0 + r < M ? A[(r0 + r) + (size_t)(k0 + kk) * lda] : T(0);
        }
#pragma unroll
        for (int u = 0; u < BN / 16; u++) {
            const int r = tid % BN, kk = tid / BN + (256 / BN) * u;
            rbv[u] = k0 + kk < K && c0 + r < N ? B[(c0 + r) + (size_t)(k0 + kk) * ldb] : T(0);
        }
    };
    if (K > 0) fetch(0);
    for (int k0 = 0; k0 < K; k0 += GK) {
#pragma unroll
        for (int u = 0; u < 4; u++) As[tid / GT + 4 * u][tid % GT] = ra[u];
#pragma unroll
        for (int u = 0; u < BN / 16; u++) Bs[tid / BN + (256 / BN) * u][tid % BN] = rbv[u];
        __syncthreads();
        if (k0 + GK < K) fetch(k0 + GK);
        if (live) {
#pragma unroll
            for (int kk = 0; kk < GK; kk += 4) {
                T a[MI], bb[NI];
#pragma unroll
                for (int i = 0; i < MI; i++) a[i] = As[kk + q][rb + 8 * i + g];
#pragma unroll
                for (int j = 0; j < NI; j++) bb[j] = Bs[kk + q][cb + 8 * j + g];
#pragma unroll
                for (int i = 0; i < MI; i++)
#pragma unroll
                    for (int j = 0; j < NI; j++) mma_8x8x4(acc[i][j], a[i], bb[j]);
            }
        }
        __syncthreads();
    }
    if (!live) return;
#pragma unroll
    for (int j = 0; j < NI; j++)
#pragma unroll
        for (int v = 0; v < 2; v++) {
            const int c = c0 + cb + 8 * j + 2 * q + v;
#pragma unroll
            for (int i = 0; i < MI; i++) {
                const int r = r0 + rb + 8 * i + g;
                if (r < M && c < N && (!lower || r >= c)) {
                    T *p = C + r + (size_t)c * ldc;
                    *p = beta == T(0) ? alpha * acc[i][j][v] : alpha * acc[i][j][v] + beta * *p;
                }
            }
        }
}

/* One tile by the form the launch chose (MMA only where the type has it). */
template <int BN, bool MMA, typename T>
__device__ __forceinline__ void gemm_tile(int M, int N, int K, T alpha, const T *A, int lda,
                                          const T *B, int ldb, T beta, T *C, int ldc, int lower,
                                          int tile)
{
    if constexpr (MMA && has_mma<T>::value)
        gemm_nt_tile_mma<BN>(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc, lower, tile);
    else
        gemm_nt_tile<BN>(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc, lower, tile);
}

template <typename T, bool MMA>
__global__ void __launch_bounds__(256) gemm_generic_kernel(gemm_args<T> g, T alpha, T beta, int lower)
{
    const int e = blockIdx.x;
    for (int t = blockIdx.y; t < g.tiles; t += gridDim.y)
        gemm_tile<64, MMA>(g.m[e], g.n[e], g.k[e], alpha, g.A[e], g.lda[e], g.B[e], g.ldb[e],
                           beta, g.C[e], g.ldc[e], lower, t);
}

/* The medium path's kernels over front f (LIST: entry i of the list, from
 * blockIdx.x on every gridDim.x-th; else front blockIdx.x, v9's form). */
template <typename T, bool MMA, bool LIST>
__device__ __forceinline__ void front_panel(front_batch<T> &b, int f, int lo, int j, int nb)
{
    int m, k, info, ld;
    T *P;
    front_meta<T, LIST>(b, f, m, k, info, ld, P);
    if (m <= lo || j >= k || info != 0) return;
    const int jb = k - j < nb ? k - j : nb;
    const int tiles = SYLVA_DIV_UP(m - j, GT) * SYLVA_DIV_UP(jb, 32);
    for (int t = blockIdx.y; t < tiles; t += gridDim.y)
        gemm_tile<32, MMA>(m - j, jb, j, T(-1), P + j, ld, P + j, ld, T(1), P + j + (size_t)j * ld,
                           ld, 1, t);
}

template <typename T, bool MMA, bool LIST>
__global__ void __launch_bounds__(256, 4)
    gemm_front_panel_kernel(front_batch<T> b, const int *lw, int lo, int j, int nb)
{
    if constexpr (LIST) {
        const int n = med_count(lw, b.count, j / nb);
        for (int i = blockIdx.x; i < n; i += gridDim.x)
            front_panel<T, MMA, true>(b, med_front(lw, i), lo, j, nb);
    } else {
        front_panel<T, MMA, false>(b, blockIdx.x, lo, j, nb);
    }
}

/* The t-th lower tile (row tile ≥ column tile, column by column) of a
 * T_ × T_ grid of tiles as gemm_nt_tile's index (row tile + T_·column tile). */
__device__ __forceinline__ int lower_tile(int t, int T_)
{
    int tj = 0;
    while (t >= T_ - tj) t -= T_ - tj, tj++;
    return tj + t + tj * T_;
}

/* With LIST, blockIdx.y runs over the lower tiles only. */
template <typename T, bool MMA, bool LIST>
__device__ __forceinline__ void front_syrk(front_batch<T> &b, int f, int lo)
{
    int m, k, info, ld;
    T *P;
    front_meta<T, LIST>(b, f, m, k, info, ld, P);
    if (m <= lo || k <= 0 || m == k || info != 0) return;
    const T *L21 = P + k;
    const int T_ = SYLVA_DIV_UP(m - k, GT), tiles = LIST ? T_ * (T_ + 1) / 2 : T_ * T_;
    for (int t = blockIdx.y; t < tiles; t += gridDim.y)
        gemm_tile<64, MMA>(m - k, m - k, k, T(-1), L21, ld, L21, ld, T(1), b.C[f], b.ldc[f], 1,
                           LIST ? lower_tile(t, T_) : t);
}

template <typename T, bool MMA, bool LIST>
__global__ void __launch_bounds__(256) gemm_front_syrk_kernel(front_batch<T> b, const int *lw, int lo)
{
    if constexpr (LIST) {
        const int n = med_count(lw, b.count, 0);
        for (int i = blockIdx.x; i < n; i += gridDim.x) front_syrk<T, MMA, true>(b, med_front(lw, i), lo);
    } else {
        front_syrk<T, MMA, false>(b, blockIdx.x, lo);
    }
}

template <typename T, bool MMA>
__global__ void __launch_bounds__(256, 4) gemm_trsm_panel_kernel(gemm_args<T> g, int j, int nb)
{
    /* g.m: rows of B, g.n: order of L, g.A: L, g.B: B. */
    const int e = blockIdx.x;
    const int n = g.n[e];
    if (j >= n) return;
    const int jb = n - j < nb ? n - j : nb, ldb = g.ldb[e], ldl = g.lda[e];
    T *B = g.B[e];
    const int tiles = SYLVA_DIV_UP(g.m[e], GT) * SYLVA_DIV_UP(jb, 32);
    for (int t = blockIdx.y; t < tiles; t += gridDim.y)
        gemm_tile<32, MMA>(g.m[e], jb, j, T(-1), B, ldb, g.A[e] + j, ldl, T(1),
                           B + (size_t)j * ldb, ldb, 0, t);
}

/* Tiles beyond grid.y's limit are looped over inside the block. */
static unsigned grid_y(int tiles) { return tiles < 1 ? 1u : tiles > 65535 ? 65535u : (unsigned)tiles; }

template <typename T>
int launch_gemm_generic(const gemm_args<T> &g, T alpha, T beta, int lower, int max_m, int max_n,
                        int mma, cudaStream_t s)
{
    if (g.count == 0 || max_m <= 0 || max_n <= 0) return SYLVA_OK;
    gemm_args<T> a = g;
    a.tiles = SYLVA_DIV_UP(max_m, GT) * SYLVA_DIV_UP(max_n, GT);
    dim3 grid(g.count, grid_y(a.tiles));
    if (mma)
        gemm_generic_kernel<T, true><<<grid, 256, 0, s>>>(a, alpha, beta, lower);
    else
        gemm_generic_kernel<T, false><<<grid, 256, 0, s>>>(a, alpha, beta, lower);
    return sylva__launch_status();
}

unsigned med_grid_x(int count, int medium_list)
{
    if (medium_list <= 1 || count <= 0) return count < 1 ? 1u : (unsigned)count;
    /* unknown SM count: a block per entry */
    const int n = device_sm_count();
    if (n <= 0) return (unsigned)count;
    const long g = (long)medium_list * n;
    return (unsigned)(g < count ? g : count);
}

template <typename T>
int launch_gemm_front_panel(const front_batch<T> &b, const int *lw, unsigned gx, int lo,
                            int max_m, int j, int nb, int mma, cudaStream_t s)
{
    dim3 grid(gx, grid_y(SYLVA_DIV_UP(max_m - j, GT) * SYLVA_DIV_UP(nb, 32)));
    if (mma && lw)
        gemm_front_panel_kernel<T, true, true><<<grid, 256, 0, s>>>(b, lw, lo, j, nb);
    else if (mma)
        gemm_front_panel_kernel<T, true, false><<<grid, 256, 0, s>>>(b, lw, lo, j, nb);
    else if (lw)
        gemm_front_panel_kernel<T, false, true><<<grid, 256, 0, s>>>(b, lw, lo, j, nb);
    else
        gemm_front_panel_kernel<T, false, false><<<grid, 256, 0, s>>>(b, lw, lo, j, nb);
    return sylva__launch_status();
}

template <typename T>
int launch_gemm_front_syrk(const front_batch<T> &b, const int *lw, unsigned gx, int lo, int max_m,
                           int mma, cudaStream_t s)
{
    const int t = SYLVA_DIV_UP(max_m, GT);
    dim3 grid(gx, grid_y(lw ? t * (t + 1) / 2 : t * t));
    if (mma && lw)
        gemm_front_syrk_kernel<T, true, true><<<grid, 256, 0, s>>>(b, lw, lo);
    else if (mma)
        gemm_front_syrk_kernel<T, true, false><<<grid, 256, 0, s>>>(b, lw, lo);
    else if (lw)
        gemm_front_syrk_kernel<T, false, true><<<grid, 256, 0, s>>>(b, lw, lo);
    else
        gemm_front_syrk_kernel<T, false, false><<<grid, 256, 0, s>>>(b, lw, lo);
    return sylva__launch_status();
}

template <typename T>
int launch_gemm_trsm_panel(const gemm_args<T> &g, int max_m, int j, int nb, int mma,
                           cudaStream_t s)
{
    dim3 grid(g.count, grid_y(SYLVA_DIV_UP(max_m, GT) * SYLVA_DIV_UP(nb, 32)));
    if (mma)
        gemm_trsm_panel_kernel<T, true><<<grid, 256, 0, s>>>(g, j, nb);
    else
        gemm_trsm_panel_kernel<T, false><<<grid, 256, 0, s>>>(g, j, nb);
    return sylva__launch_status();
}

template int launch_gemm_generic<double>(const gemm_args<double> &, double, double, int, int, int,
                                         int, cudaStream_t);
template int launch_gemm_front_panel<double>(const front_batch<double> &, const int *, unsigned,
                                             int, int, int, int, int, cudaStream_t);
template int launch_gemm_front_syrk<double>(const front_batch<double> &, const int *, unsigned, int,
                                            int, int, cudaStream_t);
template int launch_gemm_trsm_panel<double>(const gemm_args<double> &, int, int, int, int,
                                            cudaStream_t);

} // namespace sylva
