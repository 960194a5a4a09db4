/* gpu_native_leaf.cu — the native front's pivot columns (F11's POTRF and
 * L21's TRSM together) by recursive halves of the m × k panel P, each half
 * of at most nb columns (nb = 32 or 64: the table's native_leaf_nb)
 * factored by one launch of leaf_kernel, the halves joined by cuBLAS SYRK
 * (the right half's diagonal block) and GEMM (its rows below), so that most
 * flops run at GEMM speed and the column chain stays inside one block.
 *
 * leaf_kernel: every block loads the leaf's nb × nb diagonal block into
 * shared memory and factors it by panels of 4 columns (two barriers a
 * panel), while each thread's row of the panel below is on its way into
 * registers; then each thread solves its row. The diagonal factorization
 * is repeated in every block: no block waits for another. The last block to
 * finish (a ticket on a device counter, back to 0 after) writes the
 * factored diagonal block: by then every block has read the unfactored one.
 *
 * Contract: P column-major (ld ≥ m), lower triangle read and written, upper
 * untouched; *info ← 0, or the front's first column (1-based) whose pivot is
 * not positive, P then unspecified. Stream-ordered; nothing waits on the
 * host. */
#include "gpu_blas.cuh"
#include "gpu_common.cuh"
#include "gpu_native_parts.cuh"

namespace sylva {

/* One leaf kernel: NB (32 or 64) columns at most, NT threads, NT rows below
 * a block (a thread a row). */
template <int NB, int NT> struct leaf_shape {
    static constexpr int PW = 4;      /* the diagonal block's panel width */
    static constexpr int S = NB + 2;  /* shared leading dimension: even, so every column is 16-byte aligned */
    static constexpr int GR = NT / NB; /* column groups of the trailing update */
    static constexpr size_t SHARED = sizeof(double) * ((size_t)NB * S + (size_t)NB * PW + NB);
    static_assert(NB % PW == 0 && NT % NB == 0 && NB <= NT, "leaf shape");
};

/* The diagonal block, factored in shared memory A (column-major, ld S) by
 * panels of PW columns: each thread of a row (tid < NB) factors the PW × PW
 * diagonal block of the panel in registers (the same in every thread) and
 * then its own row of the panel, a barrier, every thread updates the
 * trailing lower part by the panel's rank-PW product (the panel's rows
 * also row by row in Pt, so that a row's PW values are two 16-byte loads),
 * a barrier. Columns past jb were made the identity, so they factor to it.
 * Returns the failing column (1-based, within the leaf) or 0; the same in
 * every thread. */
template <int NB, int NT> __device__ int leaf_diag(double *A, double *Pt, double *rinv, int *fail_at)
{
    using sh = leaf_shape<NB, NT>;
    constexpr int PW = sh::PW, S = sh::S, GR = sh::GR;
    const int tid = threadIdx.x, r = tid % NB, g = tid / NB;
    double d[PW][PW], dinv[PW];
    for (int c0 = 0; c0 < NB; c0 += PW) {
        if (tid < NB) {
            int bad = 0;
#pragma unroll
            for (int j = 0; j < PW; j++)
#pragma unroll
                for (int i = j; i < PW; i++) d[i][j] = A[(c0 + j) * S + c0 + i];
#pragma unroll
            for (int j = 0; j < PW; j++) {
                double p = d[j][j];
#pragma unroll
                for (int q = 0; q < j; q++) p -= d[j][q] * d[j][q];
                if (!(p > 0.0) && !bad) bad = j + 1;
                d[j][j] = sqrt(p), dinv[j] = 1.0 / d[j][j];
#pragma unroll
                for (int i = j + 1; i < PW; i++) {
                    double v = d[i][j];
#pragma unroll
                    for (int q = 0; q < j; q++) v -= d[i][q] * d[j][q];
                    d[i][j] = v * dinv[j];
                }
            }
            if (bad && tid == 0) *fail_at = c0 + bad;
            if (r >= c0 + PW) { /* this row of the panel: l = (a − l·dᵀ) / d */
                double l[PW];
#pragma unroll
                for (int j = 0; j < PW; j++) {
                    double v = A[(c0 + j) * S + r];
#pragma unroll
                    for (int q = 0; q < j; q++) v -= l[q] * d[j][q];
                    l[j] = v * dinv[j];
                    A[(c0 + j) * S + r] = l[j];
                    Pt[r * PW + j] = l[j];
                }
            }
        }
        __syncthreads();
        if (*fail_at) return *fail_at;
        if (tid < PW) { /* the panel's diagonal block, read by no one in this step */
#pragma unroll
            for (int j = 0; j < PW; j++)
#pragma unroll
                for (int i = j; i < PW; i++)
                    if (i == tid) A[(c0 + j) * S + c0 + i] = d[i][j];
#pragma unroll
            for (int j = 0; j < PW; j++)
                if (j == tid) rinv[c0 + j] = dinv[j];
        }
        /* A(r, cc) −= L(r, panel) · L(cc, panel)ᵀ for c0 + PW ≤ cc ≤ r */
        if (r >= c0 + PW) {
            const double2 *pr = (const double2 *)(Pt + r * PW);
            const double2 r01 = pr[0], r23 = pr[1];
            for (int cc = c0 + PW + g; cc <= r; cc += GR) {
                const double2 *pc = (const double2 *)(Pt + cc * PW);
                const double2 c01 = pc[0], c23 = pc[1];
                double a = A[cc * S + r];
                a -= r01.x * c01.x;
                a -= r01.y * c01.y;
                a -= r23.x * c23.x;
                a -= r23.y * c23.y;
                A[cc * S + r] = a;
            }
        }
        __syncthreads();
    }
    return 0;
}

/* A leaf: its diagonal block by leaf_diag, then each thread solves its row
 * of the panel below in registers, L's columns read from shared memory by
 * every thread at once (broadcasts), two entries a load. Column loop
 * unrolled: every register index is a constant. */
template <int NB, int NT>
__global__ void __launch_bounds__(NT, 1) leaf_kernel(double *D, int ld, int rows, int jb, int *info, int col0,
                                                     int *tickets)
{
    using sh = leaf_shape<NB, NT>;
    constexpr int S = sh::S;
    extern __shared__ __align__(16) double smem[];
    double *A = smem;                 /* the diagonal block, then L; zero above the diagonal */
    double *Pt = A + NB * S;          /* the panel's rows, row by row */
    double *rinv = Pt + NB * sh::PW;  /* 1 / L(c, c) */
    __shared__ int fail_at, last;
    const int tid = threadIdx.x;

    /* this thread's row below, loaded first (its latency under the diagonal block's work) */
    const int row = jb + blockIdx.x * NT + tid;
    const bool live = row < rows;
    double b[NB];
#pragma unroll
    for (int c = 0; c < NB; c++) b[c] = live && c < jb ? D[(size_t)c * ld + row] : 0.0;

    for (int e = tid; e < NB * NB; e += NT) {
        const int r = e % NB, c = e / NB;
        A[c * S + r] = r < jb && c < jb ? (r >= c ? D[(size_t)c * ld + r] : 0.0) : (r == c ? 1.0 : 0.0);
    }
    if (tid == 0) fail_at = 0;
    __syncthreads();
    const int failed = leaf_diag<NB, NT>(A, Pt, rinv, &fail_at);
    if (failed) {
        if (blockIdx.x == 0 && tid == 0) atomicCAS(info, 0, col0 + failed);
        return;
    }
    /* x_c = b_c / L(c, c); b_cc −= x_c · L(cc, c) for cc > c (past jb: L is the identity's) */
#pragma unroll
    for (int c = 0; c < NB; c++) {
        const double x = b[c] * rinv[c];
        b[c] = x;
        const double2 *col = (const double2 *)(A + c * S);
#pragma unroll
        for (int p = (c + 1) / 2; p < NB / 2; p++) {
            const double2 v = col[p];
            if (2 * p > c) b[2 * p] -= x * v.x;
            b[2 * p + 1] -= x * v.y;
        }
    }
    if (live) {
#pragma unroll
        for (int c = 0; c < NB; c++)
            if (c < jb) D[(size_t)c * ld + row] = b[c];
    }
    /* the last block out writes the diagonal block: by then every block has read it */
    __syncthreads();
    if (tid == 0) {
        last = atomicAdd(tickets, 1) == (int)gridDim.x - 1;
        if (last) *tickets = 0;
    }
    __syncthreads();
    if (last) {
        for (int e = tid; e < jb * jb; e += NT) {
            const int rr = e % jb, cc = e / jb;
            if (rr >= cc) D[(size_t)cc * ld + rr] = A[cc * S + rr];
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

template <int NB, int NT>
static int leaf_launch(double *D, int ld, int rows, int jb, const leaf_ctx &x, int col0)
{
    using sh = leaf_shape<NB, NT>;
    /* the dynamic shared memory's limit, per launch (per device; the same value from every thread) */
    if (cudaFuncSetAttribute(leaf_kernel<NB, NT>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             (int)sh::SHARED) != cudaSuccess)
        return sylva__launch_status();
    const int below = rows - jb, blocks = below > 0 ? (below + NT - 1) / NT : 1;
    leaf_kernel<NB, NT><<<blocks, NT, sh::SHARED, x.s>>>(D, ld, rows, jb, x.info, col0, x.tickets);
    return sylva__launch_status();
}

static int leaf(double *D, int ld, int rows, int jb, const leaf_ctx &x, int col0)
{
    return x.nb == 32 ? leaf_launch<32, 128>(D, ld, rows, jb, x, col0)
                      : leaf_launch<64, 256>(D, ld, rows, jb, x, col0);
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
    const leaf_ctx x = {blas, info, tickets, nb == 32 ? 32 : 64, s};
    return halves(x, P, ldp, m, k, 0);
}

} // namespace sylva
