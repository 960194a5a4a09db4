/* gpu_solve_blas.cu — the BLAS fronts of a wide block (contract in
 * gpu_solve_blas.cuh; which fronts and why in gpu_solve.h): per front a
 * cublasDtrsm on its pivot rows of X in place (they are consecutive rows
 * of the permuted numbering, ld n), a cublasDgemm between L21 and the
 * workspace's copy of its CB rows (ws.bt, ld m − k), and a kernel that
 * gathers those rows or subtracts the product from them. One front after
 * another on one stream: a block reads each front's L once, and the
 * fronts are few (lap3d7:100: 38 of 226,402). */
#include <cublas_v2.h>

#include "gpu_common.cuh"
#include "gpu_solve_blas.cuh"

namespace sylva {
namespace {

/* Forward: X[rows[i], c] −= T[i, c]; backward: T[i, c] = X[rows[i], c]. */
__global__ void cb_rows_kernel(int64_t r, int nrhs, const int64_t *rows, double *T, double *X, int64_t ldx,
                               bool forward)
{
    const int64_t total = r * nrhs;
    for (int64_t u = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; u < total; u += (int64_t)gridDim.x * blockDim.x) {
        const int64_t i = u % r, c = u / r;
        double *x = X + rows[i] + c * ldx;
        if (forward) *x -= T[u];
        else T[u] = *x;
    }
}

__global__ void ready_kernel(int nblas, const int *rec, int nchunks, int64_t per_chunk, int *ready)
{
    const int64_t total = (int64_t)nblas * nchunks;
    for (int64_t u = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; u < total; u += (int64_t)gridDim.x * blockDim.x)
        ready[u / nblas * per_chunk + rec[u % nblas]] = 1;
}

unsigned grid_of(int64_t work)
{
    const int64_t b = (work + 255) / 256;
    return (unsigned)(b < 1 ? 1 : b > 65536 ? 65536 : b);
}

int blas_fail(const char *what, cublasStatus_t e)
{
    return sylva__fail(SYLVA_ERR_RUNTIME, "GPU solve, BLAS fronts: %s failed (cuBLAS status %d)", what, (int)e);
}

int cuda_fail(const char *what, cudaError_t e)
{
    return sylva__fail(SYLVA_ERR_RUNTIME, "GPU solve, BLAS fronts: %s: %s", what, cudaGetErrorString(e));
}

/* One front, forward or backward. */
int blas_front(cublasHandle_t h, const sylva__solve_desc *d, const sylva__solve_bufs *b, int i, int nrhs, double *X,
               bool forward, cudaStream_t s)
{
    const sylva__solve_layout *y = &d->lay;
    const char *hb = (const char *)d->host_blob;
    const int m = ((const int *)(hb + y->m))[i], k = ((const int *)(hb + y->k))[i], r = m - k;
    const int g = ((const int *)(hb + y->group))[i];
    const double *L = b->group_L[g] + ((const int64_t *)(hb + y->lofs))[i];
    double *X1 = X + ((const int64_t *)(hb + y->col))[i];
    const int64_t *rows = (const int64_t *)((const char *)b->blob + y->rows) + ((const int64_t *)(hb + y->rofs))[i];
    double *T = (double *)((char *)b->work + b->ws.bt);
    const int ldx = (int)d->n;
    const double one = 1, zero = 0, minus = -1;
    cublasStatus_t e;
    if (forward) {
        e = cublasDtrsm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, k, nrhs, &one,
                        L, m, X1, ldx);
        if (e != CUBLAS_STATUS_SUCCESS) return blas_fail("cublasDtrsm (forward)", e);
        if (r == 0) return SYLVA_OK;
        e = cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, r, nrhs, k, &one, L + k, m, X1, ldx, &zero, T, r);
        if (e != CUBLAS_STATUS_SUCCESS) return blas_fail("cublasDgemm (forward)", e);
    } else if (r > 0) {
        cb_rows_kernel<<<grid_of((int64_t)r * nrhs), 256, 0, s>>>(r, nrhs, rows, T, X, ldx, false);
        cudaError_t c = cudaGetLastError();
        if (c != cudaSuccess) return cuda_fail("cb_rows_kernel (gather)", c);
        e = cublasDgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, k, nrhs, r, &minus, L + k, m, T, r, &one, X1, ldx);
        if (e != CUBLAS_STATUS_SUCCESS) return blas_fail("cublasDgemm (backward)", e);
    }
    if (forward) {
        cb_rows_kernel<<<grid_of((int64_t)r * nrhs), 256, 0, s>>>(r, nrhs, rows, T, X, ldx, true);
        cudaError_t c = cudaGetLastError();
        return c == cudaSuccess ? SYLVA_OK : cuda_fail("cb_rows_kernel (scatter)", c);
    }
    e = cublasDtrsm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T, CUBLAS_DIAG_NON_UNIT, k, nrhs, &one, L,
                    m, X1, ldx);
    return e == CUBLAS_STATUS_SUCCESS ? SYLVA_OK : blas_fail("cublasDtrsm (backward)", e);
}

} // namespace

int blas_sweep(const sylva__solve_desc *d, const sylva__solve_bufs *b, int64_t nrhs, double *X, bool forward,
               cudaStream_t s)
{
    if (d->nblas == 0) return SYLVA_OK;
    cublasHandle_t h = (cublasHandle_t)b->blas;
    cudaStream_t was = NULL;
    cublasPointerMode_t mode = CUBLAS_POINTER_MODE_HOST;
    cublasStatus_t e = cublasGetStream(h, &was);
    if (e == CUBLAS_STATUS_SUCCESS) e = cublasGetPointerMode(h, &mode);
    if (e == CUBLAS_STATUS_SUCCESS) e = cublasSetStream(h, s);
    if (e == CUBLAS_STATUS_SUCCESS) e = cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST);
    if (e != CUBLAS_STATUS_SUCCESS) return blas_fail("setting the handle's stream", e);
    int rc = SYLVA_OK;
    for (int q = 0; q < d->nblas && rc == SYLVA_OK; q++)
        rc = blas_front(h, d, b, d->blas_rec[forward ? q : d->nblas - 1 - q], (int)nrhs, X, forward, s);
    cublasSetPointerMode(h, mode);
    cublasSetStream(h, was);
    return rc;
}

int blas_ready(const sylva__solve_desc *d, const sylva__solve_bufs *b, int nchunks, int *ready, cudaStream_t s)
{
    if (d->nblas == 0) return SYLVA_OK;
    const int *rec = (const int *)((const char *)b->blob + d->lay.blas_rec);
    ready_kernel<<<grid_of((int64_t)d->nblas * nchunks), 256, 0, s>>>(d->nblas, rec, nchunks,
                                                                      3 * (int64_t)d->nfronts, ready);
    cudaError_t c = cudaGetLastError();
    return c == cudaSuccess ? SYLVA_OK : cuda_fail("ready_kernel", c);
}

} // namespace sylva
