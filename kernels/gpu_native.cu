/* gpu_native.cu — partial factorization of one large front entirely on the
 * GPU (native mode): cusolverDnDpotrf on F11 and cublasDtrsm for L21 (or,
 * with tune->native_panel_nb > 0, right-looking panels whose updates are
 * DGEMM), and the CB
 * update either by cublasDsyrk or, when tune->native_syrk_nb > 0, as column
 * tiles of width nb: a DSYRK on each nb × nb diagonal block and one DGEMM for
 * everything below it (cuBLAS DGEMM runs ~4× faster than DSYRK on an H100).
 * Handles and workspace come from the caller; both handles are bound to the
 * stream s and to host pointer mode; nothing waits on the host. A failed
 * POTRF leaves its column in *info (device) and P, C unspecified. */
#include <cublas_v2.h>
#include <cusolverDn.h>

#include "gpu_common.cuh"

/* With panels, each panel's POTRF reports into a scratch int at the end of
 * the workspace; this folds it into the front's info (first failure wins,
 * numbered in the front's columns) without a host round trip. */
__global__ void fold_info_kernel(const int *panel_info, int *info, int col0)
{
    if (*panel_info != 0 && *info == 0) *info = col0 + *panel_info;
}

extern "C" int64_t sylva__gpu_native_workspace_bytes(cusolverDnHandle_t solver, int k, double *P,
                                                     int ldp)
{
    int lwork = 0;
    if (k <= 0) return 0;
    if (cusolverDnDpotrf_bufferSize(solver, CUBLAS_FILL_MODE_LOWER, k, P, ldp, &lwork) !=
        CUSOLVER_STATUS_SUCCESS)
        return -1;
    return (int64_t)lwork * (int64_t)sizeof(double) + 16; /* + the panel info */
}

/* Right-looking panels of width nb over P (m × k): POTRF of the diagonal
 * block, TRSM of the rows below it, then the remaining pivot columns are
 * updated by DSYRK (their diagonal part, lower only) and DGEMM (rows ≥ k),
 * so most of the TRSM's flops run as DGEMM. */
static int panels(cusolverDnHandle_t solver, cublasHandle_t blas, int m, int k, double *P, int ldp,
                  double *work, int lwork, int *pinfo, int *info, int nb, cudaStream_t s)
{
    const double one = 1.0, minus_one = -1.0;
    for (int j = 0; j < k; j += nb) {
        const int jb = k - j < nb ? k - j : nb, rest = k - j - jb, below = m - j - jb;
        double *D = P + j + (size_t)j * ldp;
        if (cusolverDnDpotrf(solver, CUBLAS_FILL_MODE_LOWER, jb, D, ldp, work, lwork, pinfo) !=
            CUSOLVER_STATUS_SUCCESS)
            return SYLVA_ERR_RUNTIME;
        fold_info_kernel<<<1, 1, 0, s>>>(pinfo, info, j);
        if (below == 0) continue;
        if (cublasDtrsm(blas, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T,
                        CUBLAS_DIAG_NON_UNIT, below, jb, &one, D, ldp, D + jb, ldp) !=
            CUBLAS_STATUS_SUCCESS)
            return SYLVA_ERR_RUNTIME;
        if (rest == 0) continue;
        double *Lp = D + jb, *T = P + (j + jb) + (size_t)(j + jb) * ldp;
        if (cublasDsyrk(blas, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, rest, jb, &minus_one, Lp, ldp,
                        &one, T, ldp) != CUBLAS_STATUS_SUCCESS)
            return SYLVA_ERR_RUNTIME;
        if (m > k &&
            cublasDgemm(blas, CUBLAS_OP_N, CUBLAS_OP_T, m - k, rest, jb, &minus_one, Lp + rest, ldp,
                        Lp, ldp, &one, T + rest, ldp) != CUBLAS_STATUS_SUCCESS)
            return SYLVA_ERR_RUNTIME;
    }
    return sylva__launch_status();
}

extern "C" int sylva__gpu_front_factor_native(cusolverDnHandle_t solver, cublasHandle_t blas,
                                              int m, int k, double *P, int ldp, double *C, int ldc,
                                              void *work, int64_t work_bytes, int *info,
                                              const sylva__kernel_tuning *tune, cudaStream_t s)
{
    if (m < 0 || k < 0 || k > m || ldp < (m > 1 ? m : 1) || (m > k && ldc < m - k) || !info)
        return SYLVA_ERR_ARGUMENT;
    if (k == 0) return SYLVA_OK;
    const int r = m - k, lwork = (int)((work_bytes - 16) / (int64_t)sizeof(double));
    if (!work || lwork < 0) return SYLVA_ERR_ARGUMENT;
    int *pinfo = (int *)((char *)work + (work_bytes - 16));
    const double one = 1.0, minus_one = -1.0;
    const int nb = tune ? tune->native_syrk_nb : 0;
    if (cusolverDnSetStream(solver, s) != CUSOLVER_STATUS_SUCCESS ||
        cublasSetStream(blas, s) != CUBLAS_STATUS_SUCCESS ||
        cublasSetPointerMode(blas, CUBLAS_POINTER_MODE_HOST) != CUBLAS_STATUS_SUCCESS)
        return SYLVA_ERR_RUNTIME;
    const int pnb = tune ? tune->native_panel_nb : 0;
    cublasStatus_t st = CUBLAS_STATUS_SUCCESS;
    if (pnb > 0 && pnb < k) {
        int rc = panels(solver, blas, m, k, P, ldp, (double *)work, lwork, pinfo, info, pnb, s);
        if (rc != SYLVA_OK) return rc;
    } else {
        if (cusolverDnDpotrf(solver, CUBLAS_FILL_MODE_LOWER, k, P, ldp, (double *)work, lwork,
                             info) != CUSOLVER_STATUS_SUCCESS)
            return SYLVA_ERR_RUNTIME;
        if (r > 0)
            st = cublasDtrsm(blas, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T,
                             CUBLAS_DIAG_NON_UNIT, r, k, &one, P, ldp, P + k, ldp);
        if (st != CUBLAS_STATUS_SUCCESS) return SYLVA_ERR_RUNTIME;
    }
    if (r == 0) return SYLVA_OK;
    double *L21 = P + k;
    if (nb <= 0 || nb >= r)
        st = cublasDsyrk(blas, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, r, k, &minus_one, L21, ldp,
                         &one, C, ldc);
    for (int j = 0; nb > 0 && nb < r && j < r && st == CUBLAS_STATUS_SUCCESS; j += nb) {
        const int jb = r - j < nb ? r - j : nb, below = r - j - jb;
        st = cublasDsyrk(blas, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, jb, k, &minus_one, L21 + j,
                         ldp, &one, C + j + (size_t)j * ldc, ldc);
        if (st == CUBLAS_STATUS_SUCCESS && below > 0)
            st = cublasDgemm(blas, CUBLAS_OP_N, CUBLAS_OP_T, below, jb, k, &minus_one,
                             L21 + j + jb, ldp, L21 + j, ldp, &one, C + (j + jb) + (size_t)j * ldc,
                             ldc);
    }
    return st == CUBLAS_STATUS_SUCCESS ? SYLVA_OK : SYLVA_ERR_RUNTIME;
}
