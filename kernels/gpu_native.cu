/* gpu_native.cu — partial factorization of one large front entirely on the
 * GPU (native mode): cuSOLVER POTRF on F11 and cuBLAS TRSM for L21 (or,
 * with tune->native_panel_nb > 0, right-looking panels whose updates are
 * GEMM), and the CB update either by cuBLAS SYRK or, when
 * tune->native_syrk_nb > 0, as column tiles of width nb: a SYRK on each
 * nb × nb diagonal block and one GEMM for everything below it (cuBLAS's
 * GEMM outruns its SYRK; the tuning sweep in docs/perf-log.md chose the
 * tiles).
 * Look-ahead (tune->native_lookahead_nb > 0 and a second stream from the
 * caller, sylva__gpu_native_aux): right-looking panels where the critical
 * path (each panel's POTRF and TRSM, then the update of the next panel's
 * columns) runs on the aux stream (high priority) while the rest of each
 * panel's update (later pivot columns and the CB, as DGEMM tiles) runs on
 * s, ordered by two events; the next panel's POTRF overlaps the previous
 * CB update. tune->native_lookahead_sms > 0 asks cuBLAS to size the bulk
 * GEMMs for that many SMs fewer (cublasSetSmCountTarget, restored after).
 * TRSM by inverted diagonal blocks (tune->native_trsm_nb > 0, one-POTRF
 * form, workspace from sylva__gpu_native_workspace_bytes_ex): the nb × nb
 * diagonal blocks of L11 inverted by small TRSMs on identity blocks, then
 * L21 right-looking by in-place TRMM + GEMM (cuBLAS's right-side TRSM ran at
 * 19 TFLOP/s on 6144 × 2048); with too small a workspace, cuBLAS TRSM.
 * Handles and workspace come from the caller; both handles are bound to the
 * stream s and to host pointer mode; nothing waits on the host. A failed
 * POTRF leaves its column in *info (device) and P, C unspecified. Written
 * once for any scalar type T over the overloads of gpu_blas.cuh; the C
 * entry points are double. */
#include "gpu_blas.cuh"
#include "gpu_common.cuh"

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

/* The pivot columns [a, b) of P (rows a..m−1) updated by the panel of
 * columns [j, j + jb): lower SYRK on the diagonal block, GEMM below it. */
template <typename T>
static cublasStatus_t update_cols(cublasHandle_t blas, int m, T *P, int ldp, int a, int b, int j,
                                  int jb)
{
    const T one = 1, minus_one = -1;
    if (b <= a) return CUBLAS_STATUS_SUCCESS;
    const T *La = P + a + (size_t)j * ldp;
    T *D = P + a + (size_t)a * ldp;
    cublasStatus_t st = syrk_ln(blas, b - a, jb, &minus_one, La, ldp, &one, D, ldp);
    if (st == CUBLAS_STATUS_SUCCESS && m > b)
        st = gemm_nt(blas, m - b, b - a, jb, &minus_one, La + (b - a), ldp, La, ldp, &one,
                     D + (b - a), ldp);
    return st;
}

/* C (r × r, lower) −= L·Lᵀ, L = r × kk (ldl): one SYRK, or nb-wide column
 * tiles (a SYRK on each diagonal block, one GEMM below it). */
template <typename T>
static cublasStatus_t update_cb(cublasHandle_t blas, int r, int kk, const T *L, int ldl, T *C,
                                int ldc, int nb)
{
    const T one = 1, minus_one = -1;
    if (nb <= 0 || nb >= r) return syrk_ln(blas, r, kk, &minus_one, L, ldl, &one, C, ldc);
    cublasStatus_t st = CUBLAS_STATUS_SUCCESS;
    for (int j = 0; j < r && st == CUBLAS_STATUS_SUCCESS; j += nb) {
        const int jb = r - j < nb ? r - j : nb, below = r - j - jb;
        st = syrk_ln(blas, jb, kk, &minus_one, L + j, ldl, &one, C + j + (size_t)j * ldc, ldc);
        if (st == CUBLAS_STATUS_SUCCESS && below > 0)
            st = gemm_nt(blas, below, jb, kk, &minus_one, L + j + jb, ldl, L + j, ldl, &one,
                         C + (j + jb) + (size_t)j * ldc, ldc);
    }
    return st;
}

/* Look-ahead panels of width w (see the contract above). The critical path
 * runs on the aux stream (which the caller makes with the highest priority,
 * so its small POTRF kernels get SMs as soon as any free up under the big
 * GEMMs): POTRF and TRSM of panel p, then (after the bulk stream has
 * applied the older panels to them: event ea) panel p + 1's columns
 * updated by panel p; event es. The bulk, on s after es: panel p + 2's
 * columns (event ea), then the later pivot columns and the CB. The solver
 * handle is bound to aux for the call and back to s at the end; s waits for
 * aux's last work. */
template <typename T>
static int lookahead(cusolverDnHandle_t solver, cublasHandle_t blas,
                     const sylva__gpu_native_aux *aux, int m, int k, T *P, int ldp, T *C, int ldc,
                     T *work, int lwork, int *pinfo, int *info, int w, int cb_nb, int sms,
                     cudaStream_t s)
{
    const T one = 1;
    cudaStream_t cs = aux->stream;
    cublasHandle_t cblas = aux->blas;
    cudaEvent_t es = aux->ev[0], ea = aux->ev[1];
    if (cublasSetStream(cblas, cs) != CUBLAS_STATUS_SUCCESS ||
        cublasSetPointerMode(cblas, CUBLAS_POINTER_MODE_HOST) != CUBLAS_STATUS_SUCCESS ||
        cusolverDnSetStream(solver, cs) != CUSOLVER_STATUS_SUCCESS)
        return sylva__fail(SYLVA_ERR_RUNTIME, "binding the handles to the look-ahead stream failed");
    /* The critical stream starts after everything queued on s. */
    if (cudaEventRecord(es, s) != cudaSuccess || cudaStreamWaitEvent(cs, es, 0) != cudaSuccess)
        return sylva__fail(SYLVA_ERR_RUNTIME, "look-ahead stream fork failed");
    /* Leave `sms` SMs to the critical chain: without it each of the chain's
     * many small kernels waits for a bulk GEMM block to finish before it
     * gets an SM, the whole chain stalls and nothing overlaps. */
    int nsm = 0, old_target = 0, dev = 0;
    if (sms > 0 && cudaGetDevice(&dev) == cudaSuccess &&
        cudaDeviceGetAttribute(&nsm, cudaDevAttrMultiProcessorCount, dev) == cudaSuccess &&
        nsm > sms && cublasGetSmCountTarget(blas, &old_target) == CUBLAS_STATUS_SUCCESS)
        cublasSetSmCountTarget(blas, nsm - sms);
    else
        sms = 0;
    cublasStatus_t st = CUBLAS_STATUS_SUCCESS;
    cusolverStatus_t ss = CUSOLVER_STATUS_SUCCESS;
    for (int j = 0; j < k && st == CUBLAS_STATUS_SUCCESS; j += w) {
        const int jb = k - j < w ? k - j : w, below = m - j - jb;
        const int j2 = j + jb, j3 = j2 + w < k ? j2 + w : k, j4 = j3 + w < k ? j3 + w : k;
        T *D = P + j + (size_t)j * ldp;
        ss = potrf(solver, jb, D, ldp, work, lwork, pinfo);
        if (ss != CUSOLVER_STATUS_SUCCESS) break;
        fold_info_kernel<<<1, 1, 0, cs>>>(pinfo, info, j);
        if (below == 0) break;
        st = trsm_right_lt(cblas, below, jb, &one, D, ldp, D + jb, ldp);
        if (st != CUBLAS_STATUS_SUCCESS) break;
        if (j > 0 && cudaStreamWaitEvent(cs, ea, 0) != cudaSuccess) break;
        st = update_cols(cblas, m, P, ldp, j2, j3, j, jb); /* the next panel */
        if (st != CUBLAS_STATUS_SUCCESS || cudaEventRecord(es, cs) != cudaSuccess ||
            cudaStreamWaitEvent(s, es, 0) != cudaSuccess)
            break;
        st = update_cols(blas, m, P, ldp, j3, j4, j, jb); /* the one after */
        if (st != CUBLAS_STATUS_SUCCESS || cudaEventRecord(ea, s) != cudaSuccess) break;
        if (st == CUBLAS_STATUS_SUCCESS) st = update_cols(blas, m, P, ldp, j4, k, j, jb);
        if (st == CUBLAS_STATUS_SUCCESS && m > k)
            st = update_cb(blas, m - k, jb, P + k + (size_t)j * ldp, ldp, C, ldc, cb_nb);
    }
    if (sms > 0) cublasSetSmCountTarget(blas, old_target);
    /* Join: s waits for all of the critical stream's work (error paths too). */
    if (cusolverDnSetStream(solver, s) != CUSOLVER_STATUS_SUCCESS ||
        cudaEventRecord(es, cs) != cudaSuccess || cudaStreamWaitEvent(s, es, 0) != cudaSuccess)
        return sylva__fail(SYLVA_ERR_RUNTIME, "look-ahead stream join failed");
    if (ss != CUSOLVER_STATUS_SUCCESS) return lib_fail("cuSOLVER POTRF (look-ahead)", ss);
    if (st != CUBLAS_STATUS_SUCCESS) return lib_fail("cuBLAS (look-ahead)", st);
    return sylva__launch_status();
}

/* W (nb × k, ld nb) ← nb × nb identity blocks side by side. */
template <typename T> __global__ void identity_blocks_kernel(T *W, int nb, int k)
{
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < (int64_t)nb * k;
         i += (int64_t)gridDim.x * blockDim.x)
        W[i] = (int)(i % nb) == (int)(i / nb) % nb ? T(1) : T(0);
}

/* L21 (r × k, in P below L11) ← L21·L11⁻ᵀ with GEMM-rate work: the nb × nb
 * diagonal blocks of L11 inverted into W (nb × k: identity, then a
 * left TRSM each), then per block column j, right-looking: X_j ← B_j·W_jᵀ
 * (in-place TRMM), B_{>j} −= X_j·L11(>j, j)ᵀ (one GEMM). */
template <typename T>
static cublasStatus_t trsm_by_inverse(cublasHandle_t blas, int r, int k, T *P, int ldp, T *W,
                                      int nb, cudaStream_t s)
{
    const T one = 1, minus_one = -1;
    const int threads = 256, blocks = (int)SYLVA_DIV_UP((int64_t)nb * k, threads * 8) + 1;
    identity_blocks_kernel<<<blocks < 4096 ? blocks : 4096, threads, 0, s>>>(W, nb, k);
    cublasStatus_t st = CUBLAS_STATUS_SUCCESS;
    for (int j = 0; j < k && st == CUBLAS_STATUS_SUCCESS; j += nb) {
        const int jb = k - j < nb ? k - j : nb;
        st = trsm_left_ln(blas, jb, &one, P + j + (size_t)j * ldp, ldp, W + (size_t)j * nb, nb);
    }
    for (int j = 0; j < k && st == CUBLAS_STATUS_SUCCESS; j += nb) {
        const int jb = k - j < nb ? k - j : nb, rest = k - j - jb;
        T *Bj = P + k + (size_t)j * ldp;
        st = trmm_right_lt(blas, r, jb, &one, W + (size_t)j * nb, nb, Bj, ldp);
        if (st == CUBLAS_STATUS_SUCCESS && rest > 0)
            st = gemm_nt(blas, r, rest, jb, &minus_one, Bj, ldp, P + (j + jb) + (size_t)j * ldp,
                         ldp, &one, Bj + (size_t)jb * ldp, ldp);
    }
    return st;
}

/* Bytes of the potrf workspace at the front of work (the rest: the
 * inverted diagonal blocks, then the panel info). */
template <typename T>
static int64_t potrf_bytes(cusolverDnHandle_t solver, int k, T *P, int ldp)
{
    int lwork = 0;
    if (k <= 0) return 0;
    if (potrf_buffer_size(solver, k, P, ldp, &lwork) != CUSOLVER_STATUS_SUCCESS) return -1;
    return ((int64_t)lwork * (int64_t)sizeof(T) + 255) / 256 * 256;
}

template <typename T>
static int64_t workspace_bytes(cusolverDnHandle_t solver, int k, T *P, int ldp)
{
    int lwork = 0;
    if (k <= 0) return 0;
    if (potrf_buffer_size(solver, k, P, ldp, &lwork) != CUSOLVER_STATUS_SUCCESS) return -1;
    return (int64_t)lwork * (int64_t)sizeof(T) + 16; /* + the panel info */
}

/* Room for the TRSM by inverted diagonal blocks (tune->native_trsm_nb). */
template <typename T>
static int64_t workspace_bytes_ex(cusolverDnHandle_t solver, int k, T *P, int ldp,
                                  const sylva__kernel_tuning *tune)
{
    const int64_t base = workspace_bytes(solver, k, P, ldp);
    const int nb = tune ? tune->native_trsm_nb : 0;
    if (base < 0 || nb <= 0 || k <= 0) return base;
    const int64_t pb = potrf_bytes(solver, k, P, ldp);
    if (pb < 0) return -1;
    const int64_t ex = pb + (int64_t)nb * k * (int64_t)sizeof(T) + 16;
    return ex > base ? ex : base;
}

template <typename T>
static int factor_native(cusolverDnHandle_t solver, cublasHandle_t blas,
                         const sylva__gpu_native_aux *aux, int m, int k, T *P, int ldp, T *C,
                         int ldc, void *work, int64_t work_bytes, int *info,
                         const sylva__kernel_tuning *tune, cudaStream_t s)
{
    if (m < 0 || k < 0 || k > m || ldp < (m > 1 ? m : 1) || (m > k && ldc < m - k) || !info)
        return SYLVA_ERR_ARGUMENT;
    if (k == 0) return SYLVA_OK;
    const int r = m - k, lwork = (int)((work_bytes - 16) / (int64_t)sizeof(T));
    if (!work || lwork < 0) return SYLVA_ERR_ARGUMENT;
    int *pinfo = (int *)((char *)work + (work_bytes - 16));
    const T one = 1;
    const int nb = tune ? tune->native_syrk_nb : 0;
    if (cusolverDnSetStream(solver, s) != CUSOLVER_STATUS_SUCCESS ||
        cublasSetStream(blas, s) != CUBLAS_STATUS_SUCCESS ||
        cublasSetPointerMode(blas, CUBLAS_POINTER_MODE_HOST) != CUBLAS_STATUS_SUCCESS)
        return sylva__fail(SYLVA_ERR_RUNTIME, "binding the cuSOLVER/cuBLAS handles to the stream failed");
    const int pnb = tune ? tune->native_panel_nb : 0;
    const int lnb = tune ? tune->native_lookahead_nb : 0;
    if (aux && aux->stream && aux->blas && aux->ev[0] && aux->ev[1] && lnb > 0 && lnb < k)
        return lookahead(solver, blas, aux, m, k, P, ldp, C, ldc, (T *)work, lwork, pinfo, info,
                         lnb, nb, tune->native_lookahead_sms, s);
    cublasStatus_t st = CUBLAS_STATUS_SUCCESS;
    if (pnb > 0 && pnb < k) {
        int rc = panels(solver, blas, m, k, P, ldp, (T *)work, lwork, pinfo, info, pnb, s);
        if (rc != SYLVA_OK) return rc;
    } else {
        /* TRSM by inverted diagonal blocks when asked for and the
         * workspace holds them (sylva__gpu_native_workspace_bytes_ex). */
        const int tnb = tune ? tune->native_trsm_nb : 0;
        const int64_t pb = tnb > 0 && tnb < k && r > 0 ? potrf_bytes(solver, k, P, ldp) : -1;
        const bool inv = pb >= 0 && pb + (int64_t)tnb * k * (int64_t)sizeof(T) + 16 <= work_bytes;
        cusolverStatus_t ss =
            potrf(solver, k, P, ldp, (T *)work, inv ? (int)(pb / (int64_t)sizeof(T)) : lwork, info);
        if (ss != CUSOLVER_STATUS_SUCCESS) return lib_fail("cuSOLVER POTRF", ss);
        if (r > 0 && inv)
            st = trsm_by_inverse(blas, r, k, P, ldp, (T *)((char *)work + pb), tnb, s);
        else if (r > 0)
            st = trsm_right_lt(blas, r, k, &one, P, ldp, P + k, ldp);
        if (st != CUBLAS_STATUS_SUCCESS) return lib_fail("cuBLAS TRSM", st);
    }
    if (r == 0) return SYLVA_OK;
    st = update_cb(blas, r, k, P + k, ldp, C, ldc, nb);
    return st == CUBLAS_STATUS_SUCCESS ? SYLVA_OK : lib_fail("cuBLAS SYRK/GEMM (CB update)", st);
}

} // namespace sylva

extern "C" int64_t sylva__gpu_native_workspace_bytes(cusolverDnHandle_t solver, int k, double *P,
                                                     int ldp)
{
    return sylva::workspace_bytes(solver, k, P, ldp);
}

extern "C" int64_t sylva__gpu_native_workspace_bytes_ex(cusolverDnHandle_t solver, int k,
                                                        double *P, int ldp,
                                                        const sylva__kernel_tuning *tune)
{
    return sylva::workspace_bytes_ex(solver, k, P, ldp, tune);
}

extern "C" int sylva__gpu_front_factor_native(cusolverDnHandle_t solver, cublasHandle_t blas,
                                              int m, int k, double *P, int ldp, double *C, int ldc,
                                              void *work, int64_t work_bytes, int *info,
                                              const sylva__kernel_tuning *tune, cudaStream_t s)
{
    return sylva::factor_native(solver, blas, (const sylva__gpu_native_aux *)nullptr, m, k, P, ldp,
                                C, ldc, work, work_bytes, info, tune, s);
}

extern "C" int sylva__gpu_front_factor_native_aux(cusolverDnHandle_t solver, cublasHandle_t blas,
                                                  const sylva__gpu_native_aux *aux, int m, int k,
                                                  double *P, int ldp, double *C, int ldc,
                                                  void *work, int64_t work_bytes, int *info,
                                                  const sylva__kernel_tuning *tune,
                                                  cudaStream_t s)
{
    return sylva::factor_native(solver, blas, aux, m, k, P, ldp, C, ldc, work, work_bytes, info,
                                tune, s);
}
