/* gpu_native_chain.cu — the native front (m × k pivot columns P, CB C) as
 * a pivot chain beside the CB update, so that F11's POTRF no longer holds
 * the GPU alone (cuSOLVER's POTRF of 2048 is one kernel on every SM at 10%
 * throughput, perf-log v5/v8):
 * - on the aux's high-priority stream (the chain), right-looking panels of
 *   nb = tune->native_chain_nb columns of P: POTRF of the nb × nb diagonal
 *   block by our batched kernels as a one-front batch (one block for nb ≤
 *   fused_max_m) or, with tune->native_chain_potrf = 1, by cuSOLVER; TRSM
 *   of all the panel's rows below it (cuBLAS's, or with
 *   tune->native_chain_trsm = 1 one GEMM by the block's inverse); the
 *   rank-nb update of P's
 *   remaining pivot columns (SYRK on F11's part, GEMM on L21's) — with
 *   tune->native_chain_lookahead = 1 only of the next panel's columns, the
 *   columns beyond it on the aux's second high-priority stream (rest),
 *   beside the next panel's POTRF and TRSM; the chain waits for it (event
 *   up) before it updates the following panel's columns itself;
 * - on the caller's stream s, as soon as tune->native_chain_cb columns of
 *   L21 are final (an event per group), the CB's rank-update by those
 *   columns (SYRK/GEMM tiles of native_syrk_nb, native_cb_update), its
 *   cuBLAS calls sized for tune->native_chain_sms fewer SMs when > 0.
 * The streams write disjoint memory at any time (the chain panel i's
 * columns and the next's, the rest stream the columns beyond them, the CB
 * update C from finished columns). s waits for both aux streams' last work
 * before returning, so the caller sees one stream. A failed diagonal block's info is folded into
 * *info in the front's numbering (first failure wins; P, C then
 * unspecified). Nothing waits on the host.
 * Also: the aux (two streams, two cuBLAS handles, events) create/free. */
#include <stdlib.h>

#include "gpu_blas.cuh"
#include "gpu_common.cuh"
#include "gpu_front.h"
#include "gpu_native_parts.cuh"

struct sylva__gpu_native_aux {
    cudaStream_t chain, rest;    /* highest priority, non-blocking */
    cublasHandle_t blas, blas_rest; /* bound to chain / rest, host pointer mode */
    cudaEvent_t fork, join, tr, grp, up;
    int sms;                     /* the device's multiprocessors */
};

extern "C" int sylva__gpu_native_aux_create(sylva__gpu_native_aux **out)
{
    *out = NULL;
    sylva__gpu_native_aux *a = (sylva__gpu_native_aux *)calloc(1, sizeof *a);
    if (!a) return sylva__fail(SYLVA_ERR_NO_MEMORY, "out of memory for the native aux");
    int lo = 0, hi = 0;
    int dev = 0;
    cudaError_t e = cudaDeviceGetStreamPriorityRange(&lo, &hi);
    if (e == cudaSuccess) e = cudaGetDevice(&dev);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&a->sms, cudaDevAttrMultiProcessorCount, dev);
    if (e == cudaSuccess) e = cudaStreamCreateWithPriority(&a->chain, cudaStreamNonBlocking, hi);
    if (e == cudaSuccess) e = cudaStreamCreateWithPriority(&a->rest, cudaStreamNonBlocking, hi);
    cudaEvent_t *ev[5] = {&a->fork, &a->join, &a->tr, &a->grp, &a->up};
    for (int i = 0; i < 5 && e == cudaSuccess; i++)
        e = cudaEventCreateWithFlags(ev[i], cudaEventDisableTiming);
    if (e != cudaSuccess) {
        sylva__gpu_native_aux_free(a);
        return sylva__fail(SYLVA_ERR_RUNTIME, "native aux: %s", cudaGetErrorString(e));
    }
    if (cublasCreate(&a->blas) != CUBLAS_STATUS_SUCCESS) a->blas = NULL;
    if (a->blas && cublasCreate(&a->blas_rest) != CUBLAS_STATUS_SUCCESS) a->blas_rest = NULL;
    if (!a->blas || !a->blas_rest) {
        sylva__gpu_native_aux_free(a);
        return sylva__fail(SYLVA_ERR_RUNTIME, "native aux: cublasCreate failed");
    }
    if (cublasSetStream(a->blas, a->chain) != CUBLAS_STATUS_SUCCESS ||
        cublasSetPointerMode(a->blas, CUBLAS_POINTER_MODE_HOST) != CUBLAS_STATUS_SUCCESS ||
        cublasSetStream(a->blas_rest, a->rest) != CUBLAS_STATUS_SUCCESS ||
        cublasSetPointerMode(a->blas_rest, CUBLAS_POINTER_MODE_HOST) != CUBLAS_STATUS_SUCCESS) {
        sylva__gpu_native_aux_free(a);
        return sylva__fail(SYLVA_ERR_RUNTIME, "native aux: binding cuBLAS to its stream failed");
    }
    *out = a;
    return SYLVA_OK;
}

extern "C" void sylva__gpu_native_aux_free(sylva__gpu_native_aux *a)
{
    if (!a) return;
    if (a->blas) cublasDestroy(a->blas);
    if (a->blas_rest) cublasDestroy(a->blas_rest);
    cudaEvent_t ev[5] = {a->fork, a->join, a->tr, a->grp, a->up};
    for (int i = 0; i < 5; i++)
        if (ev[i]) cudaEventDestroy(ev[i]);
    if (a->chain) cudaStreamDestroy(a->chain);
    if (a->rest) cudaStreamDestroy(a->rest);
    free(a);
}

namespace sylva {

static int lib_fail(const char *call, int status)
{
    return sylva__fail(SYLVA_ERR_RUNTIME, "%s failed (library status %d)", call, status);
}

/* Diagonal block i: columns [i·nb, min(k, (i+1)·nb)) of P as a one-front
 * batch (m = k = its width); its info zeroed; the front's info zeroed. */
__global__ void chain_desc_kernel(double *P, int ldp, int k, int nb, int nbl, int *n, int *ld,
                                  int *binfo, double **Pp, int *info)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 0) *info = 0;
    if (i >= nbl) return;
    const int c0 = i * nb;
    n[i] = k - c0 < nb ? k - c0 : nb;
    ld[i] = ldp;
    binfo[i] = 0;
    Pp[i] = P + c0 + (size_t)c0 * ldp;
}

/* W (n × n, leading dim n) = identity. */
__global__ void chain_identity_kernel(double *W, int n)
{
    for (int e = blockIdx.x * blockDim.x + threadIdx.x; e < n * n; e += gridDim.x * blockDim.x)
        W[e] = e % n == e / n ? 1.0 : 0.0;
}

/* B (rows × jb) ← B·D⁻ᵀ by D's inverse W (made here on the chain by a small
 * TRSM on identity) and one GEMM per 8192 rows into X, copied back: the
 * panel's TRSM as GEMM (cuBLAS's TRSM of a narrow panel is a chain of
 * small leaves). */
static int trsm_by_inverse(cublasHandle_t blas, int rows, int jb, const double *D, int ldp,
                           double *B, double *W, double *X, cudaStream_t c)
{
    const double one = 1, zero = 0;
    chain_identity_kernel<<<SYLVA_DIV_UP(jb * jb, 256 * 4), 256, 0, c>>>(W, jb);
    int rc = sylva__launch_status();
    if (rc != SYLVA_OK) return rc;
    cublasStatus_t bs = cublasDtrsm(blas, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N,
                                    CUBLAS_DIAG_NON_UNIT, jb, jb, &one, D, ldp, W, jb);
    for (int r0 = 0; r0 < rows && bs == CUBLAS_STATUS_SUCCESS; r0 += NATIVE_TRSM_ROWS) {
        const int nr = rows - r0 < NATIVE_TRSM_ROWS ? rows - r0 : NATIVE_TRSM_ROWS;
        bs = gemm_nt(blas, nr, jb, jb, &one, B + r0, ldp, W, jb, &zero, X, NATIVE_TRSM_ROWS);
        if (bs == CUBLAS_STATUS_SUCCESS &&
            cudaMemcpy2DAsync(B + r0, (size_t)ldp * sizeof(double), X,
                              (size_t)NATIVE_TRSM_ROWS * sizeof(double), (size_t)nr * sizeof(double),
                              jb, cudaMemcpyDeviceToDevice, c) != cudaSuccess)
            return sylva__launch_status();
    }
    return bs == CUBLAS_STATUS_SUCCESS ? SYLVA_OK : lib_fail("cuBLAS TRSM/GEMM (chain, by inverse)", bs);
}

__global__ void chain_fold_kernel(const int *block_info, int *info, int col0)
{
    if (*block_info != 0 && *info == 0) *info = col0 + *block_info;
}

static int sylva_wait(cudaEvent_t e, cudaStream_t to)
{
    cudaError_t r = cudaStreamWaitEvent(to, e, 0);
    return r == cudaSuccess ? SYLVA_OK
                            : sylva__fail(SYLVA_ERR_RUNTIME, "native chain: %s", cudaGetErrorString(r));
}

static int record_wait(cudaEvent_t e, cudaStream_t from, cudaStream_t to)
{
    cudaError_t r = cudaEventRecord(e, from);
    if (r == cudaSuccess) r = cudaStreamWaitEvent(to, e, 0);
    return r == cudaSuccess ? SYLVA_OK
                            : sylva__fail(SYLVA_ERR_RUNTIME, "native chain: %s", cudaGetErrorString(r));
}

int native_chain(cusolverDnHandle_t solver, cublasHandle_t blas, const sylva__gpu_native_aux *aux,
                 int m, int k, double *P, int ldp, double *C, int ldc, void *work,
                 int64_t work_bytes, const native_layout &lay, int *info,
                 const sylva__kernel_tuning *t, cudaStream_t s)
{
    const int nb = lay.chain_nb, nbl = lay.chain_blocks, r = m - k;
    const int group = t->native_chain_cb > 0 ? t->native_chain_cb : k;
    const bool by_cusolver = t->native_chain_potrf == 1;
    const double one = 1, minus_one = -1;
    cudaStream_t c = aux->chain;
    int *n = (int *)((char *)work + lay.chain), *ld = n + nbl, *binfo = ld + nbl;
    double **Pp = (double **)((char *)work + lay.chain_ptr);
    const bool ahead = t->native_chain_lookahead == 1;
    int rc = record_wait(aux->fork, s, c);
    if (rc == SYLVA_OK && ahead) rc = sylva_wait(aux->fork, aux->rest);
    if (rc != SYLVA_OK) return rc;
    chain_desc_kernel<<<SYLVA_DIV_UP(nbl, 128), 128, 0, c>>>(P, ldp, k, nb, nbl, n, ld, binfo, Pp,
                                                             info);
    if ((rc = sylva__launch_status()) != SYLVA_OK) return rc;
    if (by_cusolver && cusolverDnSetStream(solver, c) != CUSOLVER_STATUS_SUCCESS)
        return lib_fail("cusolverDnSetStream (chain)", 0);
    /* the CB update sized for the SMs the chain does not keep */
    const int keep = t->native_chain_sms;
    if (keep > 0 && keep < aux->sms && cublasSetSmCountTarget(blas, aux->sms - keep) != CUBLAS_STATUS_SUCCESS)
        return lib_fail("cublasSetSmCountTarget", 0);
    const int64_t lwork64 = (work_bytes - 16 - lay.potrf) / (int64_t)sizeof(double);
    const int lwork = (int)(lwork64 > INT32_MAX ? INT32_MAX : lwork64);
    int g0 = 0;
    for (int j = 0, i = 0; j < k && rc == SYLVA_OK; j += nb, i++) {
        const int jb = k - j < nb ? k - j : nb, below = m - j - jb, rest = k - j - jb;
        double *D = P + j + (size_t)j * ldp;
        if (by_cusolver) {
            cusolverStatus_t ss = potrf(solver, jb, D, ldp, (double *)((char *)work + lay.potrf),
                                        lwork, binfo + i);
            if (ss != CUSOLVER_STATUS_SUCCESS) rc = lib_fail("cuSOLVER POTRF (chain)", ss);
        } else {
            sylva__front_batch b = {1, n + i, n + i, Pp + i, ld + i, Pp + i, ld + i, binfo + i};
            rc = sylva__gpu_front_factor_vbatched_range_nocheck(&b, jb, jb, jb, t, c);
        }
        if (rc != SYLVA_OK) break;
        chain_fold_kernel<<<1, 1, 0, c>>>(binfo + i, info, j);
        if ((rc = sylva__launch_status()) != SYLVA_OK) break;
        cublasStatus_t bs = CUBLAS_STATUS_SUCCESS;
        if (below > 0 && lay.chain_w > 0) {
            rc = trsm_by_inverse(aux->blas, below, jb, D, ldp, D + jb,
                                 (double *)((char *)work + lay.chain_w),
                                 (double *)((char *)work + lay.chain_x), c);
            if (rc != SYLVA_OK) break;
        } else if (below > 0)
            bs = trsm_right_lt(aux->blas, below, jb, &one, D, ldp, D + jb, ldp);
        /* columns [c1, c1 + next) on the chain; [c1 + next, k) on the rest
         * stream with look-ahead, else on the chain too */
        const int c1 = j + jb, next = ahead && rest > nb ? nb : rest, far = rest - next;
        const double *Lj = P + (size_t)j * ldp; /* panel i's column block, row 0 */
        /* with look-ahead the next panel's columns take panel i−1's update on
         * the rest stream (its last record of up, before panel i's is
         * queued) before panel i's here; POTRF and TRSM of panel i ran beside
         * it, and panel i's update of the columns beyond the next runs beside
         * this one */
        if (ahead && i >= 1 && next > 0 && (rc = sylva_wait(aux->up, c)) != SYLVA_OK) break;
        if (bs == CUBLAS_STATUS_SUCCESS && far > 0) {
            const int c0 = c1 + next;
            rc = record_wait(aux->tr, c, aux->rest);
            if (rc != SYLVA_OK) break;
            bs = syrk_ln(aux->blas_rest, far, jb, &minus_one, Lj + c0, ldp, &one,
                         P + c0 + (size_t)c0 * ldp, ldp);
            if (bs == CUBLAS_STATUS_SUCCESS && r > 0)
                bs = gemm_nt(aux->blas_rest, r, far, jb, &minus_one, Lj + k, ldp, Lj + c0, ldp,
                             &one, P + k + (size_t)c0 * ldp, ldp);
            if (cudaEventRecord(aux->up, aux->rest) != cudaSuccess) {
                rc = sylva__launch_status();
                break;
            }
        }
        if (bs == CUBLAS_STATUS_SUCCESS && next > 0) {
            bs = syrk_ln(aux->blas, next, jb, &minus_one, Lj + c1, ldp, &one,
                         P + c1 + (size_t)c1 * ldp, ldp);
            if (bs == CUBLAS_STATUS_SUCCESS && m - c1 - next > 0)
                bs = gemm_nt(aux->blas, m - c1 - next, next, jb, &minus_one, Lj + c1 + next, ldp,
                             Lj + c1, ldp, &one, P + (c1 + next) + (size_t)c1 * ldp, ldp);
        }
        if (bs != CUBLAS_STATUS_SUCCESS) {
            rc = lib_fail("cuBLAS TRSM/SYRK/GEMM (chain)", bs);
            break;
        }
        const int done = j + jb;
        if (r > 0 && (done - g0 >= group || done == k)) {
            /* columns [g0, done) of L21 are final: the CB's update by them on s */
            rc = record_wait(aux->grp, c, s);
            if (rc == SYLVA_OK)
                rc = native_cb_update(blas, r, done - g0, P + k + (size_t)g0 * ldp, ldp, C, ldc,
                                      t->native_syrk_nb);
            g0 = done;
        }
    }
    if (keep > 0 && keep < aux->sms && cublasSetSmCountTarget(blas, 0) != CUBLAS_STATUS_SUCCESS &&
        rc == SYLVA_OK)
        rc = lib_fail("cublasSetSmCountTarget", 0);
    if (by_cusolver && cusolverDnSetStream(solver, s) != CUSOLVER_STATUS_SUCCESS && rc == SYLVA_OK)
        rc = lib_fail("cusolverDnSetStream", 0);
    /* s sees all of the chain and the rest stream (also when r = 0 or on an
     * error above) */
    int rj = record_wait(aux->join, c, s);
    if (rj == SYLVA_OK && ahead) rj = record_wait(aux->join, aux->rest, s);
    return rc != SYLVA_OK ? rc : rj;
}

} // namespace sylva
