/* gpu_native.cu — partial factorization of one large front entirely on the
 * GPU (native mode): cuSOLVER POTRF on F11 and TRSM for L21 (cuBLAS's, or
 * the inverted-block form of gpu_native_parts.cu that the table's
 * native_trsm_nb chooses; or, with tune->native_panel_nb > 0, right-looking
 * panels whose updates are GEMM), and the CB update either by cuBLAS SYRK or, when
 * tune->native_syrk_nb > 0, as column tiles of width nb: a SYRK on each
 * nb × nb diagonal block and one GEMM for everything below it (cuBLAS's
 * GEMM outruns its SYRK; the tuning sweep in docs/perf-log.md chose the
 * tiles).
 * Handles and workspace come from the caller; both handles are bound to the
 * stream s and to host pointer mode; nothing waits on the host. A failed
 * POTRF leaves its column in *info (device) and P, C unspecified. Written
 * once for any scalar type T over the overloads of gpu_blas.cuh; the C
 * entry points are double. */
#include "gpu_blas.cuh"
#include "gpu_common.cuh"
#include "gpu_native_parts.cuh"

namespace sylva {

static int lib_fail(const char *call, int status)
{
    return sylva__fail(SYLVA_ERR_RUNTIME, "%s failed (library status %d)", call, status);
}

/* With panels, each panel's POTRF reports into a scratch int at the end of
 * the workspace; this folds it into the front's info (first failure wins,
 * numbered in the front's columns) without a host round trip. */
__global__ void fold_info_kernel(const int *panel_info, int *info, int col0)
{
    if (*panel_info != 0 && *info == 0) *info = col0 + *panel_info;
}

/* Right-looking panels of width nb over P (m × k): POTRF of the diagonal
 * block, TRSM of the rows below it, then the remaining pivot columns are
 * updated by SYRK (their diagonal part, lower only) and GEMM (rows ≥ k),
 * so most of the TRSM's flops run as GEMM. */
template <typename T>
static int panels(cusolverDnHandle_t solver, cublasHandle_t blas, int m, int k, T *P, int ldp,
                  T *work, int lwork, int *pinfo, int *info, int nb, cudaStream_t s)
{
    const T one = 1, minus_one = -1;
    for (int j = 0; j < k; j += nb) {
        const int jb = k - j < nb ? k - j : nb, rest = k - j - jb, below = m - j - jb;
        T *D = P + j + (size_t)j * ldp;
        cusolverStatus_t ss = potrf(solver, jb, D, ldp, work, lwork, pinfo);
        if (ss != CUSOLVER_STATUS_SUCCESS) return lib_fail("cuSOLVER POTRF (panel)", ss);
        fold_info_kernel<<<1, 1, 0, s>>>(pinfo, info, j);
        if (below == 0) continue;
        cublasStatus_t bs = trsm_right_lt(blas, below, jb, &one, D, ldp, D + jb, ldp);
        if (bs != CUBLAS_STATUS_SUCCESS) return lib_fail("cuBLAS TRSM (panel)", bs);
        if (rest == 0) continue;
        T *Lp = D + jb, *Tr = P + (j + jb) + (size_t)(j + jb) * ldp;
        bs = syrk_ln(blas, rest, jb, &minus_one, Lp, ldp, &one, Tr, ldp);
        if (bs != CUBLAS_STATUS_SUCCESS) return lib_fail("cuBLAS SYRK (panel)", bs);
        if (m > k) bs = gemm_nt(blas, m - k, rest, jb, &minus_one, Lp + rest, ldp, Lp, ldp, &one, Tr + rest, ldp);
        if (bs != CUBLAS_STATUS_SUCCESS) return lib_fail("cuBLAS GEMM (panel)", bs);
    }
    return sylva__launch_status();
}

template <typename T>
static int64_t workspace_bytes(cusolverDnHandle_t solver, int k, T *P, int ldp,
                               const sylva__kernel_tuning *tune)
{
    int lwork = 0;
    if (k <= 0) return 0;
    if (potrf_buffer_size(solver, k, P, ldp, &lwork) != CUSOLVER_STATUS_SUCCESS) return -1;
    /* the parts' buffers, cuSOLVER's workspace, the panel info */
    return native_layout_for(k, tune).fixed + (int64_t)lwork * (int64_t)sizeof(T) + 16;
}

template <typename T>
static int factor_native(cusolverDnHandle_t solver, cublasHandle_t blas, int m, int k, T *P,
                         int ldp, T *C, int ldc, void *work, int64_t work_bytes, int *info,
                         const sylva__kernel_tuning *tune, cudaStream_t s)
{
    if (m < 0 || k < 0 || k > m || ldp < (m > 1 ? m : 1) || (m > k && ldc < m - k) || !info)
        return SYLVA_ERR_ARGUMENT;
    if (k == 0) return SYLVA_OK;
    const native_layout lay = native_layout_for(k, tune);
    const int r = m - k, lwork = (int)((work_bytes - 16 - lay.fixed) / (int64_t)sizeof(T));
    if (!work || lwork < 0) return SYLVA_ERR_ARGUMENT;
    int *pinfo = (int *)((char *)work + (work_bytes - 16));
    const T one = 1, minus_one = -1;
    const int nb = tune ? tune->native_syrk_nb : 0;
    if (cusolverDnSetStream(solver, s) != CUSOLVER_STATUS_SUCCESS ||
        cublasSetStream(blas, s) != CUBLAS_STATUS_SUCCESS ||
        cublasSetPointerMode(blas, CUBLAS_POINTER_MODE_HOST) != CUBLAS_STATUS_SUCCESS)
        return sylva__fail(SYLVA_ERR_RUNTIME, "binding the cuSOLVER/cuBLAS handles to the stream failed");
    const int pnb = tune ? tune->native_panel_nb : 0;
    cublasStatus_t st = CUBLAS_STATUS_SUCCESS;
    if (pnb > 0 && pnb < k) {
        int rc = panels(solver, blas, m, k, P, ldp, (T *)((char *)work + lay.potrf), lwork,
                        pinfo, info, pnb, s);
        if (rc != SYLVA_OK) return rc;
    } else {
        cusolverStatus_t ss = potrf(solver, k, P, ldp, (T *)((char *)work + lay.potrf), lwork, info);
        if (ss != CUSOLVER_STATUS_SUCCESS) return lib_fail("cuSOLVER POTRF", ss);
        int rc = native_trsm(blas, r, k, P, ldp, P + k, ldp, work, lay, s);
        if (rc != SYLVA_OK) return rc;
    }
    if (r == 0) return SYLVA_OK;
    T *L21 = P + k;
    if (nb <= 0 || nb >= r) st = syrk_ln(blas, r, k, &minus_one, L21, ldp, &one, C, ldc);
    for (int j = 0; nb > 0 && nb < r && j < r && st == CUBLAS_STATUS_SUCCESS; j += nb) {
        const int jb = r - j < nb ? r - j : nb, below = r - j - jb;
        st = syrk_ln(blas, jb, k, &minus_one, L21 + j, ldp, &one, C + j + (size_t)j * ldc, ldc);
        if (st == CUBLAS_STATUS_SUCCESS && below > 0)
            st = gemm_nt(blas, below, jb, k, &minus_one, L21 + j + jb, ldp, L21 + j, ldp, &one,
                         C + (j + jb) + (size_t)j * ldc, ldc);
    }
    return st == CUBLAS_STATUS_SUCCESS ? SYLVA_OK : lib_fail("cuBLAS SYRK/GEMM (CB update)", st);
}

} // namespace sylva

extern "C" int64_t sylva__gpu_native_workspace_bytes(cusolverDnHandle_t solver, int k, double *P,
                                                     int ldp, const sylva__kernel_tuning *tune)
{
    return sylva::workspace_bytes(solver, k, P, ldp, tune);
}

extern "C" int sylva__gpu_front_factor_native(cusolverDnHandle_t solver, cublasHandle_t blas,
                                              int m, int k, double *P, int ldp, double *C, int ldc,
                                              void *work, int64_t work_bytes, int *info,
                                              const sylva__kernel_tuning *tune, cudaStream_t s)
{
    return sylva::factor_native(solver, blas, m, k, P, ldp, C, ldc, work, work_bytes, info, tune,
                                s);
}

static int bind(cublasHandle_t blas, cudaStream_t s)
{
    if (cublasSetStream(blas, s) != CUBLAS_STATUS_SUCCESS ||
        cublasSetPointerMode(blas, CUBLAS_POINTER_MODE_HOST) != CUBLAS_STATUS_SUCCESS)
        return sylva__fail(SYLVA_ERR_RUNTIME, "binding the cuBLAS handle to the stream failed");
    return SYLVA_OK;
}

extern "C" int sylva__gpu_native_trsm(cublasHandle_t blas, int m, int k, const double *L, int ldl,
                                      double *B, int ldb, void *work, int64_t work_bytes,
                                      const sylva__kernel_tuning *tune, cudaStream_t s)
{
    const sylva::native_layout lay = sylva::native_layout_for(k, tune);
    if (m < 0 || k < 0 || ldl < (k > 1 ? k : 1) || ldb < (m > 1 ? m : 1) || !work ||
        work_bytes < lay.fixed)
        return SYLVA_ERR_ARGUMENT;
    int rc = bind(blas, s);
    return rc == SYLVA_OK ? sylva::native_trsm(blas, m, k, L, ldl, B, ldb, work, lay, s) : rc;
}
