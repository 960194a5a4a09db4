/* gpu_native_parts.cu — the TRSM of the native path (L21's) in the form
 * the tuning table may choose instead of one cuBLAS TRSM: B·L⁻ᵀ by the
 * inverses of L's nb × nb diagonal blocks (one batched cuBLAS TRSM on
 * identity blocks, or by doubling: batched TRSMs of the 32-blocks, then
 * batched GEMMs joining pairs), then per block column a GEMM by the inverse
 * (out of place, in row chunks, copied back) and one GEMM updating the
 * columns right of it: most of the TRSM's flops run as GEMM. Workspace from
 * the caller (layout in gpu_native_parts.cuh); the handle bound to s by the
 * caller; nothing waits on the host. (v8 also tried F11's POTRF by
 * recursive halves with batched-kernel leaves, 2.7× slower than cuSOLVER's,
 * and the TRSM by recursive halves with cuBLAS leaves, no faster than
 * cuBLAS's TRSM, which already is that recursion: both removed, perf-log
 * v8.) */
#include "gpu_blas.cuh"
#include "gpu_common.cuh"
#include "gpu_native_parts.cuh"

namespace sylva {

static int lib_fail(const char *call, int status)
{
    return sylva__fail(SYLVA_ERR_RUNTIME, "%s failed (library status %d)", call, status);
}

static int64_t align256(int64_t x) { return (x + 255) / 256 * 256; }

native_layout native_layout_for(int k, const sylva__kernel_tuning *t)
{
    native_layout l = {0, 0, 0, 0, 0, 0, 0, 0};
    int64_t o = 0;
    const int tb = t ? t->native_trsm_nb : 0;
    if (tb > 0 && k > tb) {
        const int64_t nblk = (k + tb - 1) / tb;
        l.trsm_doubling = t->native_trsm_doubling;
        l.inv = o, l.trsm_nb = tb, l.trsm_blocks = (int)nblk;
        l.inv_x = o += align256(nblk * tb * tb * (int64_t)sizeof(double));
        l.inv_ptr = o += align256((int64_t)NATIVE_TRSM_ROWS * tb * (int64_t)sizeof(double));
        /* the batched TRSM's two arrays, then those of the doubling's levels */
        o += align256((2 * nblk + 8 * ((int64_t)k / 32 + 1)) * (int64_t)sizeof(double *));
    }
    l.potrf = l.fixed = o;
    return l;
}

/* ---- TRSM by inverted diagonal blocks ---- */

/* Block j of W (jb × jb, leading dim jb, at j·nb² scalars) = identity, jb
 * = nb but for the last block; and the batched TRSM's pointers to the full
 * blocks. */
__global__ void inv_setup_kernel(const double *L, int ldl, int n, int nb, double *W,
                                 const double **A, double **B)
{
    const int j = blockIdx.y, jb = n - j * nb < nb ? n - j * nb : nb;
    double *Wj = W + (size_t)j * nb * nb;
    for (int e = blockIdx.x * blockDim.x + threadIdx.x; e < jb * jb; e += gridDim.x * blockDim.x)
        Wj[e] = e % jb == e / jb ? 1.0 : 0.0;
    if (blockIdx.x == 0 && threadIdx.x == 0 && jb == nb) {
        A[j] = L + (size_t)j * nb * (ldl + 1);
        B[j] = Wj;
    }
}

/* Inverses by doubling: the diagonal 32-blocks of every full nb-block of L
 * (one batched TRSM on W's identity sub-blocks), then for h = 32, 64, …,
 * nb/2 the lower-left h-block of each diagonal 2h-block, −D⁻¹·C·A⁻¹ (two
 * batched GEMMs, T = C·A⁻¹ in X). Pointers of the base (p = j·nb/32 + i). */
__global__ void inv_base_kernel(const double *L, int ldl, int nb, int count, double *W,
                                const double **A, double **B)
{
    const int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= count) return;
    const int j = p / (nb / 32), i = p % (nb / 32);
    A[p] = L + ((size_t)j * nb + 32 * i) * (ldl + 1);
    B[p] = W + (size_t)j * nb * nb + (size_t)32 * i * (nb + 1);
}

/* Pointers of level h: pair p = j·(nb/2h) + q, its 2h-block at o = 2hq of
 * block j. */
__global__ void inv_level_kernel(const double *L, int ldl, int nb, int h, int count, double *W,
                                 double *X, const double **C, const double **Ai, double **T,
                                 const double **Di, const double **Tc, double **Wl)
{
    const int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= count) return;
    const int per = nb / (2 * h), j = p / per, o = (p % per) * 2 * h;
    double *Wj = W + (size_t)j * nb * nb;
    C[p] = L + ((size_t)j * nb + o + h) + ((size_t)j * nb + o) * ldl;
    Ai[p] = Wj + (size_t)o * (nb + 1);
    Di[p] = Wj + (size_t)(o + h) * (nb + 1);
    Wl[p] = Wj + (o + h) + (size_t)o * nb;
    T[p] = X + (size_t)p * h * h;
    Tc[p] = T[p];
}

static int invert_by_doubling(cublasHandle_t blas, const double *L, int ldl, int nb, int full,
                              double *W, double *X, const double **ptr, cudaStream_t s)
{
    const double one = 1, zero = 0, minus_one = -1;
    const int count0 = full * (nb / 32);
    inv_base_kernel<<<SYLVA_DIV_UP(count0, 128), 128, 0, s>>>(L, ldl, nb, count0, W, ptr,
                                                              (double **)(ptr + count0));
    int rc = sylva__launch_status();
    if (rc != SYLVA_OK) return rc;
    cublasStatus_t bs = cublasDtrsmBatched(blas, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER,
                                           CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, 32, 32, &one, ptr,
                                           ldl, (double *const *)(ptr + count0), nb, count0);
    for (int h = 32; h < nb && bs == CUBLAS_STATUS_SUCCESS; h *= 2) {
        const int cnt = full * (nb / (2 * h));
        const double **C = ptr, **Ai = ptr + cnt, **Di = ptr + 3 * cnt, **Tc = ptr + 4 * cnt;
        double **T = (double **)(ptr + 2 * cnt), **Wl = (double **)(ptr + 5 * cnt);
        inv_level_kernel<<<SYLVA_DIV_UP(cnt, 128), 128, 0, s>>>(L, ldl, nb, h, cnt, W, X, C, Ai,
                                                                T, Di, Tc, Wl);
        rc = sylva__launch_status();
        if (rc != SYLVA_OK) return rc;
        bs = cublasDgemmBatched(blas, CUBLAS_OP_N, CUBLAS_OP_N, h, h, h, &one, C, ldl, Ai, nb,
                                &zero, T, h, cnt);
        if (bs == CUBLAS_STATUS_SUCCESS)
            bs = cublasDgemmBatched(blas, CUBLAS_OP_N, CUBLAS_OP_N, h, h, h, &minus_one, Di, nb,
                                    Tc, h, &zero, Wl, nb, cnt);
    }
    return bs == CUBLAS_STATUS_SUCCESS ? SYLVA_OK
                                       : lib_fail("cuBLAS batched TRSM/GEMM (inverses by doubling)", bs);
}

int native_trsm(cublasHandle_t blas, int m, int n, const double *L, int ldl, double *B, int ldb,
                void *work, const native_layout &lay, cudaStream_t s)
{
    const double one = 1, zero = 0, minus_one = -1;
    const int nb = lay.trsm_nb;
    if (m <= 0 || n <= 0) return SYLVA_OK;
    if (nb <= 0 || n <= nb) {
        cublasStatus_t bs = trsm_right_lt(blas, m, n, &one, L, ldl, B, ldb);
        return bs == CUBLAS_STATUS_SUCCESS ? SYLVA_OK : lib_fail("cuBLAS TRSM", bs);
    }
    const int nblk = (n + nb - 1) / nb, full = n / nb, tail = n - full * nb;
    double *W = (double *)((char *)work + lay.inv), *X = (double *)((char *)work + lay.inv_x);
    const double **Ap = (const double **)((char *)work + lay.inv_ptr);
    double **Bp = (double **)(Ap + lay.trsm_blocks);
    dim3 grid(SYLVA_DIV_UP(nb * nb, 256 * 4), nblk);
    inv_setup_kernel<<<grid, 256, 0, s>>>(L, ldl, n, nb, W, Ap, Bp);
    int rc = sylva__launch_status();
    if (rc != SYLVA_OK) return rc;
    cublasStatus_t bs = CUBLAS_STATUS_SUCCESS;
    /* by doubling: nb = 32·2^p, and T's pairs fit in X (n·nb/4 ≤ 8192·nb) */
    const bool doubling = lay.trsm_doubling && nb % 32 == 0 && ((nb / 32) & (nb / 32 - 1)) == 0 &&
                          (int64_t)n <= 4 * (int64_t)NATIVE_TRSM_ROWS;
    if (doubling && full > 0) {
        rc = invert_by_doubling(blas, L, ldl, nb, full, W, X, (const double **)(Bp + lay.trsm_blocks), s);
        if (rc != SYLVA_OK) return rc;
    } else if (full > 0)
        bs = cublasDtrsmBatched(blas, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N,
                                CUBLAS_DIAG_NON_UNIT, nb, nb, &one, Ap, ldl, Bp, nb, full);
    if (bs == CUBLAS_STATUS_SUCCESS && tail > 0)
        bs = cublasDtrsm(blas, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N,
                         CUBLAS_DIAG_NON_UNIT, tail, tail, &one, L + (size_t)full * nb * (ldl + 1),
                         ldl, W + (size_t)full * nb * nb, tail);
    if (bs != CUBLAS_STATUS_SUCCESS) return lib_fail("cuBLAS TRSM (diagonal blocks' inverses)", bs);
    for (int j = 0; j < n; j += nb) {
        const int jb = n - j < nb ? n - j : nb, rest = n - j - jb;
        const double *Wj = W + (size_t)(j / nb) * nb * nb;
        double *Bj = B + (size_t)j * ldb;
        for (int r0 = 0; r0 < m; r0 += NATIVE_TRSM_ROWS) {
            const int rows = m - r0 < NATIVE_TRSM_ROWS ? m - r0 : NATIVE_TRSM_ROWS;
            bs = gemm_nt(blas, rows, jb, jb, &one, Bj + r0, ldb, Wj, jb, &zero, X,
                         NATIVE_TRSM_ROWS);
            if (bs != CUBLAS_STATUS_SUCCESS) return lib_fail("cuBLAS GEMM (by an inverse)", bs);
            if (cudaMemcpy2DAsync(Bj + r0, (size_t)ldb * sizeof(double), X,
                                  (size_t)NATIVE_TRSM_ROWS * sizeof(double),
                                  (size_t)rows * sizeof(double), jb, cudaMemcpyDeviceToDevice,
                                  s) != cudaSuccess)
                return sylva__launch_status();
        }
        if (rest == 0) continue;
        bs = gemm_nt(blas, m, rest, jb, &minus_one, Bj, ldb, L + (j + jb) + (size_t)j * ldl, ldl,
                     &one, Bj + (size_t)jb * ldb, ldb);
        if (bs != CUBLAS_STATUS_SUCCESS) return lib_fail("cuBLAS GEMM (TRSM update)", bs);
    }
    return SYLVA_OK;
}

} // namespace sylva
