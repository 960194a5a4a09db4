/* gpu_panel.cu — the medium path (fronts too big for one block's shared
 * memory): left-looking blocked POTF2 over the whole pivot block P (m × k),
 * which yields L11 and L21 together, then SYRK of the CB as a lower-only
 * GEMM. Per panel of nb columns: (1) update it with all columns left of it
 * (vbatched GEMM, gpu_gemm.cu); (2) this file's panel kernel factors its
 * nb × nb diagonal block (one warp, in registers) and solves the rows below with it,
 * one thread per row, the row held in registers. Every block of a front
 * factors the diagonal block itself (cheap: nb ≤ 32) and none writes it
 * there, since other blocks may still be reading it; (3) a one-block-per-
 * front launch of the same kernel writes the factored block and the info
 * (nothing later reads that block before then); batches of at least
 * panel_merge_min_count fronts run one block per front instead, which does
 * all three in one launch (rows looped over). Lazy scheduling: the
 * number of steps follows the launch's largest k, and fronts already done
 * (k ≤ j), failed (info ≠ 0) or outside the size filter exit at once.
 * The same panel kernel with a given (already factored) diagonal block is
 * the vbatched TRSM B ← B·L⁻ᵀ. Written once for any scalar type T. */
#include "gpu_common.cuh"
#include "gpu_gemm.cuh"
#include "gpu_warp_potrf.cuh"

namespace sylva {

#define PANEL_ROWS 128

template <int NB, typename T>
__device__ __forceinline__ static void solve_row(T *R, int ldr, int jb, int i, const T *sF,
                                                 const T *sInv);

/* D: diagonal block (jb × jb, ldd); R: nrows × jb to solve (ldr). With
 * `factor`, D is factored first, and with `write` (a launch that solves no
 * rows) stored back, its failure in *info (`col0` numbers its columns). */
template <int NB, typename T>
__device__ static void panel_solve(T *D, int ldd, int jb, bool factor, bool write, T *R, int ldr,
                                   int nrows, int col0, int *info)
{
    __shared__ T sL[NB][NB + 1], sF[NB * (NB + 1)], sInv[NB], sCol[32];
    __shared__ int s_bad;
    const int tid = threadIdx.x;
    { /* all loads in flight before the shared stores (they could alias) */
        constexpr int U = NB * NB / PANEL_ROWS;
        T v[U];
#pragma unroll
        for (int u = 0; u < U; u++) {
            const int idx = tid + u * PANEL_ROWS, r = idx % NB, c = idx / NB;
            v[u] = r < jb && c < jb && r >= c ? D[r + (size_t)c * ldd] : T(0);
        }
#pragma unroll
        for (int u = 0; u < U; u++) {
            const int idx = tid + u * PANEL_ROWS, r = idx % NB, c = idx / NB;
            if (r < jb && c < jb && r >= c) sL[r][c] = v[u];
        }
    }
    __syncthreads();
    if (factor) {
        /* Warp 0 factors the block in registers (gpu_warp_potrf.cuh). */
        if (tid < 32) {
            const int bad = warp_potrf<NB>([&](int r, int c) { return sL[r][c]; }, jb, sF, sInv,
                                           sCol);
            if (tid == 0) s_bad = bad;
        }
        __syncthreads();
        if (s_bad) {
            if (write && tid == 0) *info = col0 + s_bad;
            return;
        }
        if (write)
            for (int idx = tid; idx < jb * jb; idx += PANEL_ROWS) {
                const int r = idx % jb, c = idx / jb;
                if (r >= c) D[r + (size_t)c * ldd] = sF[r * (NB + 1) + c];
            }
    } else {
        for (int c = tid; c < jb; c += PANEL_ROWS) sInv[c] = T(1) / sL[c][c];
        for (int idx = tid; idx < jb * jb; idx += PANEL_ROWS) {
            const int r = idx % jb, c = idx / jb;
            if (r >= c) sF[r * (NB + 1) + c] = sL[r][c];
        }
        __syncthreads();
    }
    for (int i = blockIdx.y * PANEL_ROWS + tid; i < nrows; i += gridDim.y * PANEL_ROWS)
        solve_row<NB>(R, ldr, jb, i, sF, sInv);
}

/* Row i of R (jb columns) solved against the factored block in shared
 * memory, the row in registers. (A column-by-column form, independent FMAs
 * instead of a chain of c per column, ran 11–20% slower: perf-log v10.) */
template <int NB, typename T>
__device__ __forceinline__ static void solve_row(T *R, int ldr, int jb, int i, const T *sF,
                                                 const T *sInv)
{
    T x[NB];
#pragma unroll
    for (int c = 0; c < NB; c++)
        if (c < jb) x[c] = R[i + (size_t)c * ldr];
#pragma unroll
    for (int c = 0; c < NB; c++) {
        if (c < jb) {
            T sum = x[c];
#pragma unroll
            for (int t = 0; t < c; t++) sum -= x[t] * sF[c * (NB + 1) + t];
            x[c] = sum * sInv[c];
        }
    }
#pragma unroll
    for (int c = 0; c < NB; c++)
        if (c < jb) R[i + (size_t)c * ldr] = x[c];
}

/* write: store the factored block and info; rows: solve the rows below it
 * (both at once only with one block per front: then no other block reads
 * the block being overwritten). EARLY: the front's metadata in one round
 * trip (gpu_common.cuh's ld_early; the list forms); every test below is
 * uniform over the block, so each barrier inside is reached by all its
 * threads. */
template <typename T, int NB, bool EARLY>
__device__ __forceinline__ static void panel_front(front_batch<T> &b, int f, int lo, int j,
                                                   bool write, bool rows)
{
    int m, k, info0, ld;
    T *P;
    if constexpr (EARLY)
        front_meta<T, true>(b, f, m, k, info0, ld, P);
    else
        m = b.m[f], k = b.k[f], info0 = b.info[f]; /* ld and P only past the test (v9) */
    if (m <= lo || j >= k || info0 != 0) return;
    if constexpr (!EARLY) ld = b.ldp[f], P = b.P[f];
    const int jb = k - j < NB ? k - j : NB;
    panel_solve<NB>(P + j + (size_t)j * ld, ld, jb, true, write, P + j + jb + (size_t)j * ld, ld,
                    rows ? m - j - jb : 0, j, &b.info[f]);
}

/* Entries as in gpu_gemm.cuh (lw: the medium list or nullptr). MODE 0:
 * front blockIdx.x (no list, v9); 1: the list's entry blockIdx.x (the list
 * word read beside the count, so one round trip); 2: the list's entries
 * from blockIdx.x on, every gridDim.x-th. */
template <typename T, int NB, int MODE>
__global__ void __launch_bounds__(PANEL_ROWS, MODE == 0 ? 1 : 3)
    panel_front_kernel(front_batch<T> b, const int *lw, int lo, int j, bool write, bool rows)
{
    if constexpr (MODE == 0) {
        panel_front<T, NB, false>(b, blockIdx.x, lo, j, write, rows);
    } else if constexpr (MODE == 1) {
        const int s = j / NB;
        const int n = ld_early(lw + (s < MED_PMAX - 1 ? s : MED_PMAX - 1));
        const int f = ld_early(lw + SYLVA_FRONT_WORK_HDR + blockIdx.x); /* < count: in the scratch */
        if ((int)blockIdx.x < n) panel_front<T, NB, true>(b, f, lo, j, write, rows);
    } else {
        const int n = med_count(lw, b.count, j / NB);
        for (int i = blockIdx.x; i < n; i += gridDim.x)
            panel_front<T, NB, true>(b, med_front(lw, i), lo, j, write, rows);
    }
}

template <typename T, int NB>
__global__ void __launch_bounds__(PANEL_ROWS) panel_trsm_kernel(gemm_args<T> g, int j)
{
    const int e = blockIdx.x;
    const int n = g.n[e];
    if (j >= n) return;
    const int jb = n - j < NB ? n - j : NB, ldl = g.lda[e], ldb = g.ldb[e];
    panel_solve<NB>(g.A[e] + j + (size_t)j * ldl, ldl, jb, false, false, g.B[e] + (size_t)j * ldb,
                    ldb, g.m[e], j, (int *)nullptr);
}

/* One panel step's launches (merged: one; else the row blocks, then the
 * write of the factored block), in the kernel's form MODE. */
template <typename T, int NB, int MODE>
static void launch_panel_mode(const front_batch<T> &b, const int *lw, bool merged, dim3 grid,
                              dim3 one, int lo, int j, cudaStream_t s)
{
    if (merged) {
        panel_front_kernel<T, NB, MODE><<<one, PANEL_ROWS, 0, s>>>(b, lw, lo, j, true, true);
    } else {
        panel_front_kernel<T, NB, MODE><<<grid, PANEL_ROWS, 0, s>>>(b, lw, lo, j, false, true);
        panel_front_kernel<T, NB, MODE><<<one, PANEL_ROWS, 0, s>>>(b, lw, lo, j, true, false);
    }
}
template <typename T, int NB>
static int launch_panel(const front_batch<T> &b, const int *lw, bool loop, bool merged, dim3 grid,
                        dim3 one, int lo, int j, cudaStream_t s)
{
    if (!lw)
        launch_panel_mode<T, NB, 0>(b, lw, merged, grid, one, lo, j, s);
    else if (!loop)
        launch_panel_mode<T, NB, 1>(b, lw, merged, grid, one, lo, j, s);
    else
        launch_panel_mode<T, NB, 2>(b, lw, merged, grid, one, lo, j, s);
    return sylva__launch_status();
}

template <typename T>
int launch_blocked(const front_batch<T> &b, int lo, int max_m, int max_k, int nb, int mma,
                   int merge_min_count, int medium_list, cudaStream_t s)
{
    if (max_m <= lo || max_k <= 0) return SYLVA_OK;
    int rc = SYLVA_OK;
    /* With a list (built by launch_front_lists), every launch's grid.x runs
     * over its entries only. */
    const int *lw = medium_list > 0 ? b.work : nullptr;
    const unsigned gx = lw ? med_grid_x(b.count, medium_list) : (unsigned)b.count;
    const bool loop = gx < (unsigned)b.count;
    /* mma 2: DMMA tiles on v9's grids, SIMT on the list's forms (v10's final
     * call: SIMT ran the list's forms 3–6% faster on the vbatched batches,
     * DMMA v9's grids 10–20% faster on the fixed ones). */
    if (mma == 2) mma = lw ? 0 : 1;
    /* Batches of many fronts: one block per front and panel, which factors,
     * solves all rows below and writes the block in one launch; else row
     * blocks over the front and a second launch that writes the block. */
    const bool merged = merge_min_count > 0 && b.count >= merge_min_count;
    for (int j = 0; j < max_k && rc == SYLVA_OK; j += nb) {
        if (j > 0) rc = launch_gemm_front_panel(b, lw, gx, lo, max_m, j, nb, mma, s);
        if (rc != SYLVA_OK) break;
        dim3 grid(gx, SYLVA_DIV_UP(max_m - j, PANEL_ROWS)), one(gx);
        if (nb == 16)
            rc = launch_panel<T, 16>(b, lw, loop, merged, grid, one, lo, j, s);
        else
            rc = launch_panel<T, 32>(b, lw, loop, merged, grid, one, lo, j, s);
    }
    if (rc == SYLVA_OK) rc = launch_gemm_front_syrk(b, lw, gx, lo, max_m, mma, s);
    return rc;
}

template <typename T>
int launch_trsm(int count, const int *m, const int *n, T *const *L, const int *ldl, T *const *B,
                const int *ldb, int max_m, int max_n, int nb, int mma, cudaStream_t s)
{
    if (count == 0 || max_m <= 0 || max_n <= 0) return SYLVA_OK;
    gemm_args<T> g = {count, m, n, nullptr, L, ldl, B, ldb, nullptr, nullptr, 0};
    int rc = SYLVA_OK;
    for (int j = 0; j < max_n && rc == SYLVA_OK; j += nb) {
        if (j > 0) rc = launch_gemm_trsm_panel(g, max_m, j, nb, mma, s);
        if (rc != SYLVA_OK) break;
        dim3 grid(count, SYLVA_DIV_UP(max_m, PANEL_ROWS));
        if (nb == 16)
            panel_trsm_kernel<T, 16><<<grid, PANEL_ROWS, 0, s>>>(g, j);
        else
            panel_trsm_kernel<T, 32><<<grid, PANEL_ROWS, 0, s>>>(g, j);
        rc = sylva__launch_status();
    }
    return rc;
}

template int launch_blocked<double>(const front_batch<double> &, int, int, int, int, int, int,
                                    int, cudaStream_t);
template int launch_trsm<double>(int, const int *, const int *, double *const *, const int *,
                                 double *const *, const int *, int, int, int, int, cudaStream_t);

} // namespace sylva
