/* gpu_native_leaf.cu — the native front's pivot columns (F11's POTRF and
 * L21's TRSM together) by recursive halves of the m × k panel P, each half
 * of at most nb columns (nb = 32, 64 or 128: the table's native_leaf_nb)
 * factored by one launch of leaf_kernel, the halves joined by cuBLAS SYRK
 * (the right half's diagonal block) and GEMM (its rows below), so that most
 * flops run at GEMM speed and the column chain stays inside one block.
 *
 * leaf_kernel: every block loads the leaf's nb × nb diagonal block, factors
 * it in registers (a thread owns one row's columns g, g + GD, …; one barrier
 * a column, among the threads that hold the block), then solves its R rows
 * of the panel below (a lane group of G lanes owns one row; the solved entry
 * passes along the group by shuffle).
 * The diagonal factorization is repeated in every block: it costs the
 * blocks no more time than one copy would cost the launch, and no block
 * waits for another. The last block to finish (a ticket on a device
 * counter, back to 0 after) writes the factored diagonal block: by then
 * every block has read the unfactored one.
 *
 * Contract: P column-major (ld ≥ m), lower triangle read and written, upper
 * untouched; *info ← 0, or the front's first column (1-based) whose pivot is
 * not positive, P then unspecified. Stream-ordered; nothing waits on the
 * host. */
#include "gpu_blas.cuh"
#include "gpu_common.cuh"
#include "gpu_native_parts.cuh"

namespace sylva {

/* Shape of one leaf kernel: NB columns at most, NT threads, R rows below a
 * block. The diagonal block is factored by its first DT = NB·GD threads
 * (NB rows × GD column groups, CD columns a thread; the others go on to
 * load their rows meanwhile), the rows below by R rows × G lanes (CB
 * columns a thread). */
template <int NB, int NT, int R, int GD> struct leaf_shape {
    static constexpr int DT = NB * GD, CD = NB / GD;
    static constexpr int G = NT / R, CB = NB / G;
    static constexpr int S = NB + 1; /* shared leading dimension */
    static constexpr size_t SHARED = sizeof(double) * ((size_t)NB * S + 6 * NB);
    static_assert(G <= 32 && 32 % G == 0 && NB % G == 0 && NB % GD == 0 && DT <= NT && DT % 32 == 0,
                  "leaf shape");
};

/* The diagonal threads' barrier: the whole block's when they are all of it,
 * else barrier 1 for those DT threads alone. */
template <int DT, int NT> __device__ __forceinline__ void diag_sync()
{
    if constexpr (DT == NT) __syncthreads();
    else asm volatile("bar.sync 1, %0;" ::"n"(DT) : "memory");
}

/* Both loops over the columns are unrolled, so every register index is a
 * constant; the updates are branch-free (selects) and the solve loads each
 * column of L one column ahead (perf-log v16: a guard on each update, then
 * each shared load waited for by its own FMA, made a leaf of 64 columns take
 * 88, then 40 µs). */
template <int NB, int NT, int R, int GD>
__global__ void __launch_bounds__(NT) leaf_kernel(double *D, int ld, int rows, int jb, int *info, int col0,
                                                  int *tickets)
{
    using sh = leaf_shape<NB, NT, R, GD>;
    constexpr int DT = sh::DT, CD = sh::CD, G = sh::G, CB = sh::CB, S = sh::S;
    extern __shared__ double smem[];
    double *Ls = smem;               /* L(r, c) at Ls[c·S + r], zero outside L's jb × jb lower part */
    double *colbuf = Ls + NB * S;    /* two columns of the diagonal block in flight */
    double *pv = colbuf + 2 * NB;    /* the pivots */
    double *prcp = pv + NB;          /* their reciprocals */
    double *dsq = prcp + NB;         /* their square roots */
    double *rinv = dsq + NB;         /* 1 / L(c, c) */
    __shared__ int fail_at, last;
    const int tid = threadIdx.x;

    /* the rows below, loaded first: lane group (row q, lane g2) owns B(q, g2 + G·i) */
    const int q = tid / G, g2 = tid % G, lane = tid & 31;
    const int row = jb + blockIdx.x * R + q;
    const bool live = row < rows;
    double b[CB];
#pragma unroll
    for (int i = 0; i < CB; i++) {
        const int cc = g2 + G * i;
        b[i] = live && cc < jb ? D[(size_t)cc * ld + row] : 0.0;
    }

    if (tid < DT) {
        /* ---- the diagonal block, in registers: thread (r, g) owns A(r, g + GD·i) */
        const int r = tid % NB, g = tid / NB;
        double a[CD];
#pragma unroll
        for (int i = 0; i < CD; i++) {
            const int cc = g + GD * i;
            a[i] = (cc <= r && r < jb) ? D[(size_t)cc * ld + r] : 0.0;
        }
        if (g == 0 && r < jb) colbuf[r] = a[0];
        if (tid == 0) pv[0] = a[0], prcp[0] = 1.0 / a[0];
        diag_sync<DT, NT>();
        int failed = 0;
#pragma unroll
        for (int c = 0; c < NB; c++) {
            if (c < jb && !failed) { /* the same in every diagonal thread */
                const double *buf = colbuf + (c & 1) * NB;
                if (!(buf[c] > 0.0)) {
                    failed = c + 1;
                } else {
                    const double f = r > c && r < jb ? buf[r] * prcp[c] : 0.0;
                    /* columns cc ≤ c are final: i < c / GD never reaches them, i = c / GD by a
                     * select; entries above the diagonal take garbage that nothing reads */
                    double v = 0.0;
#pragma unroll
                    for (int i = c / GD; i < CD; i++) {
                        const int cc = g + GD * i;
                        const double fi = i == c / GD ? (cc > c ? f : 0.0) : f;
                        a[i] -= fi * buf[cc];
                        if (i == (c + 1) / GD) v = cc == c + 1 ? a[i] : v;
                    }
                    /* the next column to its buffer (read last in phase c − 1, before the
                     * barrier); its pivot's owner makes the reciprocal the next phase needs */
                    if (c + 1 < jb && g == (c + 1) % GD && r < jb) {
                        colbuf[((c + 1) & 1) * NB + r] = v;
                        if (r == c + 1) pv[c + 1] = v, prcp[c + 1] = 1.0 / v;
                    }
                    diag_sync<DT, NT>();
                }
            }
        }
        if (tid == 0) fail_at = failed;
        if (!failed) {
            if (tid < NB) {
                const double d = tid < jb ? sqrt(pv[tid]) : 1.0;
                dsq[tid] = d, rinv[tid] = 1.0 / d;
            }
            diag_sync<DT, NT>();
            /* L(r, c) = A(r, c) / sqrt(A(c, c)) into shared memory: every (r, c) of the square */
#pragma unroll
            for (int i = 0; i < CD; i++) {
                const int cc = g + GD * i;
                Ls[cc * S + r] = cc < jb && r < jb && cc <= r ? (cc == r ? dsq[cc] : a[i] * rinv[cc]) : 0.0;
            }
        }
    }
    __syncthreads();
    if (fail_at) {
        if (blockIdx.x == 0 && tid == 0) atomicCAS(info, 0, col0 + fail_at);
        return;
    }

    /* ---- the rows below: x = B(q, c) / L(c, c) passes along the lane group by shuffle; past jb,
     * L is zero and 1 / L(c, c) one, so those columns change nothing */
    const int base = lane & ~(G - 1);
    double lc[CB], ln[CB], rc = rinv[0], rn = 0.0;
#pragma unroll
    for (int i = 0; i < CB; i++) lc[i] = Ls[g2 + G * i], ln[i] = 0.0;
#pragma unroll
    for (int c = 0; c < NB; c++) {
        if (c + 1 < NB) { /* the next column's L, loaded while this one is used */
#pragma unroll
            for (int i = (c + 1) / G; i < CB; i++) ln[i] = Ls[(c + 1) * S + g2 + G * i];
            rn = rinv[c + 1];
        }
        const double x = __shfl_sync(0xffffffffu, b[c / G] * rc, base | (c % G));
        b[c / G] = g2 == c % G ? x : b[c / G];
#pragma unroll
        for (int i = c / G; i < CB; i++) b[i] -= x * (i == c / G ? (g2 > c % G ? lc[i] : 0.0) : lc[i]);
#pragma unroll
        for (int i = 0; i < CB; i++) lc[i] = ln[i];
        rc = rn;
    }
    if (live) {
#pragma unroll
        for (int i = 0; i < CB; i++) {
            const int cc = g2 + G * i;
            if (cc < jb) D[(size_t)cc * ld + row] = b[i];
        }
    }
    /* the last block out writes the diagonal block */
    __syncthreads();
    if (tid == 0) {
        last = atomicAdd(tickets, 1) == (int)gridDim.x - 1;
        if (last) *tickets = 0;
    }
    __syncthreads();
    if (last) {
        for (int e = tid; e < jb * jb; e += NT) {
            const int rr = e % jb, cc = e / jb;
            if (rr >= cc) D[(size_t)cc * ld + rr] = Ls[cc * S + rr];
        }
    }
}

/* What every leaf of one front shares. */
struct leaf_ctx {
    cublasHandle_t blas;
    int *info, *tickets;
    int nb;
    cudaStream_t s;
};

template <int NB, int NT, int R, int GD>
static int leaf_launch(double *D, int ld, int rows, int jb, const leaf_ctx &x, int col0)
{
    using sh = leaf_shape<NB, NT, R, GD>;
    /* the opt-in above 48 KB, per launch (per device; the same value from every thread) */
    if (cudaFuncSetAttribute(leaf_kernel<NB, NT, R, GD>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             (int)sh::SHARED) != cudaSuccess)
        return sylva__launch_status();
    const int below = rows - jb, blocks = below > 0 ? (below + R - 1) / R : 1;
    leaf_kernel<NB, NT, R, GD><<<blocks, NT, sh::SHARED, x.s>>>(D, ld, rows, jb, x.info, col0, x.tickets);
    return sylva__launch_status();
}

static int leaf(double *D, int ld, int rows, int jb, const leaf_ctx &x, int col0)
{
    switch (x.nb) {
    case 32: return leaf_launch<32, 256, 64, 2>(D, ld, rows, jb, x, col0);
    case 64: return leaf_launch<64, 512, 64, 2>(D, ld, rows, jb, x, col0);
    default: return leaf_launch<128, 512, 32, 4>(D, ld, rows, jb, x, col0);
    }
}

/* The panel D (rows × cols, rows ≥ cols, D its diagonal entry, col0 its
 * first column in the front) by halves: the left half, then the right half
 * less the left's product (SYRK on its diagonal block, GEMM below), then the
 * right half. The split is a multiple of nb, so every leaf but the last is
 * nb wide. */
static int halves(const leaf_ctx &x, double *D, int ld, int rows, int cols, int col0)
{
    const int nb = x.nb;
    if (cols <= nb) return leaf(D, ld, rows, cols, x, col0);
    const int h = (cols / 2 + nb - 1) / nb * nb, w = cols - h;
    int rc = halves(x, D, ld, rows, h, col0);
    if (rc != SYLVA_OK) return rc;
    const double one = 1, minus_one = -1;
    double *L = D + h, *T = D + h + (size_t)h * ld;
    cublasStatus_t st = syrk_ln(x.blas, w, h, &minus_one, L, ld, &one, T, ld);
    if (st == CUBLAS_STATUS_SUCCESS && rows > cols)
        st = gemm_nt(x.blas, rows - cols, w, h, &minus_one, L + w, ld, L, ld, &one, T + w, ld);
    if (st != CUBLAS_STATUS_SUCCESS)
        return sylva__fail(SYLVA_ERR_RUNTIME, "cuBLAS SYRK/GEMM (native halves) failed (status %d)", st);
    return halves(x, T, ld, rows - h, w, col0 + h);
}

int native_leaf_factor(cublasHandle_t blas, int m, int k, double *P, int ldp, int *info,
                       int *tickets, int nb, cudaStream_t s)
{
    if (cudaMemsetAsync(info, 0, sizeof(int), s) != cudaSuccess ||
        cudaMemsetAsync(tickets, 0, sizeof(int), s) != cudaSuccess)
        return sylva__fail(SYLVA_ERR_RUNTIME, "clearing the native info failed");
    const leaf_ctx x = {blas, info, tickets, nb == 32 || nb == 64 ? nb : 128, s};
    return halves(x, P, ldp, m, k, 0);
}

} // namespace sylva
