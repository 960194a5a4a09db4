/* gpu_solve.cu — the GPU solve's kernels around the sweeps (contract in
 * gpu_solve.h; the sweeps themselves are gpu_solve_flow.cu): every
 * front's L pointer from its group's base, the pivot check (a warp per
 * front, with its extremes for the pivot ratio), the permutations into
 * and out of the solve's numbering (the first with the sweeps' counters'
 * reset), and the refinement's residual (a warp per row), update and copies. Written once
 * on the scalar type T; the C entry points are double. Every launch is
 * checked and a failure names it. */
#include <climits>
#include <math_constants.h>

#include "gpu_common.cuh"
#include "gpu_context_impl.cuh"
#include "gpu_solve.h"

#define SOLVE_FULL 0xffffffffu

namespace sylva {

template <typename T> __device__ __forceinline__ T warp_sum(T v)
{
    for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(SOLVE_FULL, v, o);
    return v;
}

__global__ void solve_setup_kernel(int F, const int *group, const int64_t *lofs, double *const *gbase,
                                   double **Lp)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < F; i += gridDim.x * blockDim.x)
        Lp[i] = gbase[group[i]] + lofs[i];
}

/* A warp per front: its lanes read the diagonal in strides of 32, and the
 * smallest failing pivot index wins (a front's pivots are read in
 * parallel: a large front's k would otherwise run on one thread). With no
 * failing pivot the lanes' sums of log(pivot) are added (the
 * log-determinant's share of the front) and their smallest and largest
 * pivots reduced (the pivot ratio's share, lo[i] and hi[i]: min and max
 * are exact, so the order of the reduction does not matter). */
__global__ void pivots_kernel(int F, const int *m, const int *k, double *const *Lp, int *bad, double *badval,
                              double *lo, double *hi)
{
    const int lane = threadIdx.x % 32, warps = (int)(gridDim.x * blockDim.x / 32);
    for (int i = (int)((blockIdx.x * blockDim.x + threadIdx.x) / 32); i < F; i += warps) {
        int first = INT_MAX;
        double val = 0, logs = 0, pmin = CUDART_INF, pmax = 0;
        for (int j = lane; j < k[i]; j += 32) {
            const double p = Lp[i][j + (int64_t)j * m[i]];
            if (!(p > 0 && isfinite(p))) {
                first = j;
                val = p;
                break;
            }
            logs += log(p);
            pmin = fmin(pmin, p);
            pmax = fmax(pmax, p);
        }
        int least = first;
        for (int o = 16; o > 0; o /= 2) least = min(least, __shfl_xor_sync(SOLVE_FULL, least, o));
        if (least == INT_MAX) { /* the whole warp: least is the same in every lane */
            for (int o = 16; o > 0; o /= 2) {
                logs += __shfl_xor_sync(SOLVE_FULL, logs, o);
                pmin = fmin(pmin, __shfl_xor_sync(SOLVE_FULL, pmin, o));
                pmax = fmax(pmax, __shfl_xor_sync(SOLVE_FULL, pmax, o));
            }
            if (lane == 0) bad[i] = -1, badval[i] = logs, lo[i] = pmin, hi[i] = pmax;
        } else if (first == least) { /* one lane: pivot indices are distinct */
            bad[i] = least;
            badval[i] = val;
            lo[i] = CUDART_INF;
            hi[i] = 0;
        }
    }
}

/* to_permuted: X[i] = B[perm[i]], else B[perm[i]] = X[i]; and `nzero`
 * ints from `zero` set to 0 (the solve's first launch: both sweeps'
 * counters; else none), a grid-stride loop over the larger of the two. */
template <typename T>
__global__ void permute_kernel(int64_t n, int nrhs, const int64_t *perm, int to_permuted, T *B, int64_t ldb, T *X,
                               int *zero, int64_t nzero)
{
    const int64_t total = n * nrhs, most = total > nzero ? total : nzero;
    for (int64_t u = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; u < most; u += (int64_t)gridDim.x * blockDim.x) {
        if (u < total) {
            const int64_t i = u % n, c = u / n;
            if (to_permuted) X[u] = B[perm[i] + c * ldb];
            else B[perm[i] + c * ldb] = X[u];
        }
        if (u < nzero) zero[u] = 0;
    }
}

__device__ __forceinline__ double omega_ratio(double r, double den)
{
    const double a = fabs(r);
    if (den > 0) return a / den;
    if (a == 0) return 0;
    return isnan(a) || isnan(den) ? a + den : CUDART_INF;
}

/* A warp per row: R = B − A X, and the row's componentwise ratio into the
 * column's maximum (the bits of a non-negative double order like the
 * double; a NaN's bits exceed infinity's). */
template <typename T>
__global__ void residual_kernel(int64_t n, const int64_t *rowptr, const int64_t *colind, const int64_t *valind,
                                const T *values, int nrhs, const T *X, const T *B, T *R,
                                unsigned long long *omega)
{
    const int lane = threadIdx.x % 32;
    const int64_t warps = (int64_t)gridDim.x * (blockDim.x / 32);
    for (int64_t i = (blockIdx.x * (int64_t)blockDim.x + threadIdx.x) / 32; i < n; i += warps)
        for (int c = 0; c < nrhs; c++) {
            const T *x = X + (int64_t)c * n;
            double ax = 0, aax = 0;
            for (int64_t q = rowptr[i] + lane; q < rowptr[i + 1]; q += 32) {
                const double t = (double)values[valind[q]] * (double)x[colind[q]];
                ax += t;
                aax += fabs(t);
            }
            ax = warp_sum(ax);
            aax = warp_sum(aax);
            if (lane == 0) {
                const double b = (double)B[i + (int64_t)c * n], r = b - ax;
                R[i + (int64_t)c * n] = (T)r;
                const double w = omega_ratio(r, aax + fabs(b));
                atomicMax(&omega[c], (unsigned long long)__double_as_longlong(w));
            }
        }
}

template <typename T> __global__ void axpy_kernel(int64_t count, T sign, T *X, const T *D)
{
    for (int64_t u = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; u < count; u += (int64_t)gridDim.x * blockDim.x)
        X[u] += sign * D[u];
}

static unsigned grid_for(int64_t work, int threads)
{
    int64_t b = (work + threads - 1) / threads;
    return (unsigned)(b < 1 ? 1 : b > 65536 ? 65536 : b);
}

static int cuda_fail(const char *what, cudaError_t e)
{
    return sylva__fail(SYLVA_ERR_RUNTIME, "%s: %s", what, cudaGetErrorString(e));
}

static int launched(const char *what)
{
    cudaError_t e = cudaGetLastError();
    return e == cudaSuccess ? SYLVA_OK : cuda_fail(what, e);
}

} // namespace sylva

using namespace sylva;

extern "C" int sylva__gpu_solve_setup(const sylva__solve_desc *d, const sylva__solve_bufs *b, cudaStream_t s)
{
    char *ws = (char *)b->work;
    if (d->ngroups > 0) {
        cudaError_t e = cudaMemcpyAsync(ws + b->ws.gbase, b->group_L, (size_t)d->ngroups * sizeof(double *),
                                        cudaMemcpyHostToDevice, s);
        if (e != cudaSuccess) return cuda_fail("cudaMemcpyAsync (L slice bases)", e);
    }
    if (d->nfronts == 0) return SYLVA_OK;
    const char *bl = (const char *)b->blob;
    solve_setup_kernel<<<grid_for(d->nfronts, 256), 256, 0, s>>>(
        d->nfronts, (const int *)(bl + d->lay.group), (const int64_t *)(bl + d->lay.lofs),
        (double *const *)(ws + b->ws.gbase), (double **)(ws + b->ws.Lp));
    return launched("solve_setup_kernel");
}

extern "C" int sylva__gpu_solve_pivots(const sylva__solve_desc *d, const sylva__solve_bufs *b, cudaStream_t s)
{
    if (d->nfronts == 0) return SYLVA_OK;
    char *ws = (char *)b->work;
    const char *bl = (const char *)b->blob;
    pivots_kernel<<<grid_for(d->nfronts, 256), 256, 0, s>>>(
        d->nfronts, (const int *)(bl + d->lay.m), (const int *)(bl + d->lay.k), (double *const *)(ws + b->ws.Lp),
        (int *)(ws + b->ws.bad), (double *)(ws + b->ws.badval), (double *)(ws + b->ws.plo),
        (double *)(ws + b->ws.phi));
    return launched("pivots_kernel");
}

/* The permutation kernel over nrhs columns, resetting nzero ints from zero. */
static int permute(const sylva__solve_desc *d, const sylva__solve_bufs *b, int to_permuted, int64_t nrhs, double *B,
                   int64_t ldb, double *X, int *zero, int64_t nzero, cudaStream_t s)
{
    const int64_t total = d->n * nrhs, most = total > nzero ? total : nzero;
    if (most == 0) return SYLVA_OK;
    const int64_t *perm = (const int64_t *)((const char *)b->blob + d->lay.perm);
    permute_kernel<double><<<grid_for(most, 256), 256, 0, s>>>(d->n, (int)nrhs, perm, to_permuted, B, ldb, X, zero,
                                                                nzero);
    return launched("permute_kernel");
}

extern "C" int sylva__gpu_solve_permute(const sylva__solve_desc *d, const sylva__solve_bufs *b, int to_permuted,
                                        int64_t nrhs, double *B, int64_t ldb, double *X, cudaStream_t s)
{
    return permute(d, b, to_permuted, nrhs, B, ldb, X, NULL, 0, s);
}

extern "C" int sylva__gpu_solve_begin(const sylva__solve_desc *d, const sylva__solve_bufs *b, int64_t nrhs,
                                      double *B, int64_t ldb, double *X, cudaStream_t s)
{
    int *zero = (int *)((char *)b->work + b->ws.flow);
    return permute(d, b, 1, nrhs, B, ldb, X, zero, (int64_t)((b->ws.bad - b->ws.flow) / sizeof(int)), s);
}

extern "C" int sylva__gpu_residual(const sylva__solve_pattern *A, const double *values, int64_t nrhs,
                                   const double *X, const double *B, double *R, double *omega, cudaStream_t s)
{
    cudaError_t e = cudaMemsetAsync(omega, 0, (size_t)nrhs * sizeof(double), s);
    if (e != cudaSuccess) return cuda_fail("cudaMemsetAsync (backward errors)", e);
    if (A->n == 0) return SYLVA_OK;
    residual_kernel<double><<<grid_for(A->n * 32, 256), 256, 0, s>>>(
        A->n, A->rowptr, A->colind, A->valind, values, (int)nrhs, X, B, R, (unsigned long long *)omega);
    return launched("residual_kernel");
}

extern "C" int sylva__gpu_axpy(int64_t n, int64_t nrhs, int sign, double *X, const double *D, cudaStream_t s)
{
    if (n * nrhs == 0) return SYLVA_OK;
    axpy_kernel<double><<<grid_for(n * nrhs, 256), 256, 0, s>>>(n * nrhs, (double)sign, X, D);
    return launched("axpy_kernel");
}

extern "C" int sylva__gpu_copy_to_host(void *dst, const void *src, size_t bytes, cudaStream_t s)
{
    cudaError_t e = cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, s);
    if (e == cudaSuccess) e = cudaStreamSynchronize(s);
    return e == cudaSuccess ? SYLVA_OK : cuda_fail("cudaMemcpyAsync (device to host)", e);
}

extern "C" int sylva__gpu_copy_columns(double *dst, int64_t ldd, const double *src, int64_t lds, int64_t rows,
                                       int64_t cols, int to_device, cudaStream_t s)
{
    if (rows == 0 || cols == 0) return SYLVA_OK;
    cudaError_t e = cudaMemcpy2DAsync(dst, (size_t)ldd * sizeof(double), src, (size_t)lds * sizeof(double),
                                      (size_t)rows * sizeof(double), (size_t)cols,
                                      to_device ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost, s);
    if (e == cudaSuccess) e = cudaStreamSynchronize(s);
    return e == cudaSuccess ? SYLVA_OK
                            : cuda_fail(to_device ? "cudaMemcpy2DAsync (right-hand sides to the device)"
                                                  : "cudaMemcpy2DAsync (solution to the host)", e);
}

extern "C" int sylva__gpu_copy_device(void *dst, const void *src, size_t bytes, cudaStream_t s)
{
    if (bytes == 0) return SYLVA_OK;
    cudaError_t e = cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, s);
    return e == cudaSuccess ? SYLVA_OK : cuda_fail("cudaMemcpyAsync (device to device)", e);
}

extern "C" int sylva__gpu_sync(cudaStream_t s)
{
    cudaError_t e = cudaStreamSynchronize(s);
    return e == cudaSuccess ? SYLVA_OK : cuda_fail("cudaStreamSynchronize", e);
}

extern "C" int sylva__gpu_pointer_device(const void *p)
{
    if (!p) return -1;
    cudaPointerAttributes a;
    if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
        cudaGetLastError(); /* not a pointer CUDA knows: host memory */
        return -1;
    }
    return a.type == cudaMemoryTypeDevice || a.type == cudaMemoryTypeManaged ? a.device : -1;
}

extern "C" int sylva__gpu_device_enter(int device, int *prev)
{
    cudaError_t e = cudaGetDevice(prev);
    if (e == cudaSuccess && *prev != device) e = cudaSetDevice(device);
    return e == cudaSuccess ? SYLVA_OK : cuda_fail("cudaSetDevice (the direct solve's device)", e);
}

extern "C" void sylva__gpu_device_leave(int prev) { cudaSetDevice(prev); }

extern "C" int sylva__gpu_stream_open(int device, cudaStream_t *s)
{
    int prev = 0;
    int st = sylva__gpu_device_enter(device, &prev);
    if (st) return st;
    cudaError_t e = cudaStreamCreate(s);
    sylva__gpu_device_leave(prev);
    return e == cudaSuccess ? SYLVA_OK : cuda_fail("cudaStreamCreate (the direct solve's stream)", e);
}

extern "C" void sylva__gpu_stream_close(int device, cudaStream_t s)
{
    int prev = 0;
    if (!s || sylva__gpu_device_enter(device, &prev)) return;
    cudaStreamDestroy(s);
    sylva__gpu_device_leave(prev);
}

extern "C" int sylva__gpu_memcpy(void *dst, const void *src, size_t bytes, int to_device)
{
    if (bytes == 0) return SYLVA_OK;
    cudaError_t e = cudaMemcpy(dst, src, bytes, to_device ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost);
    return e == cudaSuccess ? SYLVA_OK : cuda_fail(to_device ? "cudaMemcpy (host to device)" : "cudaMemcpy (device to host)", e);
}
