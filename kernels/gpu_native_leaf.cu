/* gpu_native_leaf.cu — the native front's pivot columns (F11's POTRF and
 * L21's TRSM together) by recursive halves of the m × k panel P, each half
 * of at most nb columns (nb = 32, 64 or 128: the table's native_leaf_nb)
 * factored by one launch of leaf_kernel, the halves joined by cuBLAS SYRK
 * (the right half's diagonal block) and GEMM (its rows below), so that most
 * flops run at GEMM speed and the column chain stays inside one block.
 *
 * leaf_kernel: every block loads the leaf's nb × nb diagonal block, factors
 * it in registers (a thread owns one row's columns g, g + GD, …; one barrier
 * a column), then solves its R rows of the panel below (a lane group of G
 * lanes owns one row; the solved entry passes along the group by shuffle).
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

/* Shape of one leaf kernel: NB columns at most, NT threads; the diagonal
 * block as NB rows × GD column groups, the rows below as R rows × G lanes. */
template <int NB, int NT> struct leaf_shape {
    static constexpr int GD = NT / NB;      /* column groups of the diagonal block */
    static constexpr int CD = NB / GD;      /* its columns a thread owns */
    static constexpr int G = NB >= 128 ? 16 : 4; /* lanes a row of the panel below */
    static constexpr int R = NT / G;        /* rows below a block */
    static constexpr int CB = NB / G;       /* their columns a thread owns */
    static constexpr int S = NB + 1;        /* shared leading dimension */
    static constexpr size_t SHARED = sizeof(double) * ((size_t)NB * S + 4 * NB);
};

template <int NB, int NT>
__global__ void __launch_bounds__(NT) leaf_kernel(double *D, int ld, int rows, int jb, int *info, int col0,
                                                  int *tickets)
{
    using sh = leaf_shape<NB, NT>;
    extern __shared__ double smem[];
    double *Ls = smem;                  /* L(r, c) at Ls[c·S + r] */
    double *colbuf = Ls + NB * sh::S;   /* two columns of the diagonal block in flight */
    double *dsq = colbuf + 2 * NB;      /* sqrt of each pivot */
    double *rinv = dsq + NB;            /* 1 / L(c, c) */
    const int tid = threadIdx.x;

    /* ---- the diagonal block, in registers: thread (r, g) owns A(r, g + GD·i) */
    const int r = tid % NB, g = tid / NB;
    double a[sh::CD];
#pragma unroll
    for (int i = 0; i < sh::CD; i++) {
        const int cc = g + sh::GD * i;
        a[i] = (cc <= r && r < jb) ? D[(size_t)cc * ld + r] : 0.0;
    }
    if (g == 0 && r < jb) colbuf[r] = a[0];
    __syncthreads();
    int failed = 0;
    for (int c = 0; c < jb; c++) {
        const double *buf = colbuf + (c & 1) * NB;
        const double piv = buf[c];
        if (!(piv > 0.0)) { /* the same in every thread: no barrier is skipped by some only */
            failed = c + 1;
            break;
        }
        if (tid == 0) dsq[c] = sqrt(piv), rinv[c] = 1.0 / sqrt(piv);
        const double f = r > c && r < jb ? buf[r] / piv : 0.0;
        double *next = colbuf + ((c + 1) & 1) * NB;
#pragma unroll
        for (int i = 0; i < sh::CD; i++) {
            const int cc = g + sh::GD * i;
            if (cc > c && cc <= r) a[i] -= f * buf[cc];
            if (cc == c + 1 && r < jb) next[r] = a[i];
        }
        __syncthreads();
    }
    if (failed) {
        if (blockIdx.x == 0 && tid == 0) atomicCAS(info, 0, col0 + failed);
        return;
    }
    /* scale: L(r, c) = A(r, c) / sqrt(A(c, c)); the block to shared memory */
#pragma unroll
    for (int i = 0; i < sh::CD; i++) {
        const int cc = g + sh::GD * i;
        if (cc < jb && r < jb && cc <= r) {
            const double l = cc == r ? dsq[cc] : a[i] * rinv[cc];
            Ls[cc * sh::S + r] = l;
        }
    }
    __syncthreads();

    /* ---- the rows below: lane group (row q, lane g2) owns B(q, g2 + G·i) */
    const int q = tid / sh::G, g2 = tid % sh::G, lane = tid & 31;
    const int row = jb + blockIdx.x * sh::R + q;
    const bool live = row < rows;
    double b[sh::CB];
#pragma unroll
    for (int i = 0; i < sh::CB; i++) {
        const int cc = g2 + sh::G * i;
        b[i] = live && cc < jb ? D[(size_t)cc * ld + row] : 0.0;
    }
    const int base = lane & ~(sh::G - 1);
#pragma unroll
    for (int c = 0; c < NB; c++) {
        if (c < jb) { /* the same in every thread (no break: the loop must unroll, b in registers) */
            /* x = B(q, c) / L(c, c), held by lane c mod G of the group */
            const double mine = b[c / sh::G] * rinv[c];
            const double x = __shfl_sync(0xffffffffu, mine, base | (c % sh::G));
            if (g2 == c % sh::G) b[c / sh::G] = x;
#pragma unroll
            for (int i = c / sh::G; i < sh::CB; i++) {
                const int cc = g2 + sh::G * i;
                if (cc > c && cc < jb) b[i] -= x * Ls[c * sh::S + cc];
            }
        }
    }
    if (live) {
#pragma unroll
        for (int i = 0; i < sh::CB; i++) {
            const int cc = g2 + sh::G * i;
            if (cc < jb) D[(size_t)cc * ld + row] = b[i];
        }
    }
    /* the last block out writes the diagonal block */
    __shared__ int last;
    __syncthreads();
    if (tid == 0) {
        last = atomicAdd(tickets, 1) == (int)gridDim.x - 1;
        if (last) *tickets = 0;
    }
    __syncthreads();
    if (last) {
        for (int e = tid; e < jb * jb; e += NT) {
            const int rr = e % jb, cc = e / jb;
            if (rr >= cc) D[(size_t)cc * ld + rr] = Ls[cc * sh::S + rr];
        }
    }
}

/* Launch one leaf: D its diagonal entry, rows ≥ jb rows from there down,
 * jb ≤ NB columns, col0 its first column in the front (0-based). */
/* What every leaf of one front shares. */
struct leaf_ctx {
    cublasHandle_t blas;
    int *info, *tickets;
    int nb;
    cudaStream_t s;
};

template <int NB, int NT>
static int leaf_launch(double *D, int ld, int rows, int jb, const leaf_ctx &x, int col0)
{
    using sh = leaf_shape<NB, NT>;
    /* the opt-in above 48 KB, per launch (per device; the same value from every thread) */
    if (cudaFuncSetAttribute(leaf_kernel<NB, NT>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             (int)sh::SHARED) != cudaSuccess)
        return sylva__launch_status();
    const int below = rows - jb, blocks = below > 0 ? (below + sh::R - 1) / sh::R : 1;
    leaf_kernel<NB, NT><<<blocks, NT, sh::SHARED, x.s>>>(D, ld, rows, jb, x.info, col0, x.tickets);
    return sylva__launch_status();
}

static int leaf(double *D, int ld, int rows, int jb, const leaf_ctx &x, int col0)
{
    switch (x.nb) {
    case 32: return leaf_launch<32, 256>(D, ld, rows, jb, x, col0);
    case 64: return leaf_launch<64, 256>(D, ld, rows, jb, x, col0);
    default: return leaf_launch<128, 512>(D, ld, rows, jb, x, col0);
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
