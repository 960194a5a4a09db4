/* gpu_solve.cu — the level-by-level triangular solves on a GPU and the
 * refinement kernels (contract in gpu_solve.h). Per level, one batched
 * launch for the small fronts: a block per (front, chunk of SOLVE_COLS
 * right-hand sides); the pivot rows are solved in diagonal blocks of 32 by
 * one warp per column (shuffles), the rest of each step by the whole block;
 * forward then subtracts L21·X1 from the ancestors' rows with atomic adds,
 * backward gathers them (one warp per pivot column, coalesced down L21's
 * columns). The products with L21 are launches of their own, split over
 * blocks (SOLVE_ROWS rows, or SOLVE_WARPS pivot columns, each): near the
 * root a level has few fronts, and one block per front left most of the
 * GPU idle (measured: the level kernels took 4.3 ms of a 10 ms solve of
 * lap3d7:40, 50 times their bandwidth bound). Large fronts: cuBLAS on the worker's handle, with a gather or
 * scatter kernel through their rows. Written once on the scalar type T;
 * the C entry points are double. Every launch and library call is checked
 * and a failure names it. */
#include <climits>
#include <cublas_v2.h>
#include <math_constants.h>

#include "gpu_common.cuh"
#include "gpu_context_impl.cuh"
#include "gpu_solve.h"

#define SOLVE_THREADS 256
#define SOLVE_WARPS (SOLVE_THREADS / 32)
#define SOLVE_COLS SOLVE_WARPS /* right-hand sides per block: one warp each on the diagonal */
#define SOLVE_DIAG 32
#define SOLVE_FULL 0xffffffffu
#define SOLVE_MAX_CHUNKS 65535 /* gridDim.y */
#define SOLVE_ROWS SOLVE_THREADS /* CB rows per block of the forward update: a thread per row */

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
 * parallel: a large front's k would otherwise run on one thread). */
__global__ void pivots_kernel(int F, const int *m, const int *k, double *const *Lp, int *bad, double *badval)
{
    const int lane = threadIdx.x % 32, warps = (int)(gridDim.x * blockDim.x / 32);
    for (int i = (int)((blockIdx.x * blockDim.x + threadIdx.x) / 32); i < F; i += warps) {
        int first = INT_MAX;
        double val = 0;
        for (int j = lane; j < k[i]; j += 32) {
            const double p = Lp[i][j + (int64_t)j * m[i]];
            if (!(p > 0 && isfinite(p))) {
                first = j;
                val = p;
                break;
            }
        }
        int least = first;
        for (int o = 16; o > 0; o /= 2) least = min(least, __shfl_xor_sync(SOLVE_FULL, least, o));
        if (least == INT_MAX) {
            if (lane == 0) bad[i] = -1, badval[i] = 0;
        } else if (first == least) { /* one lane: pivot indices are distinct */
            bad[i] = least;
            badval[i] = val;
        }
    }
}

/* What a level launch reads: the blob's front arrays, the fronts' L
 * pointers, the right-hand side X (n × nrhs, ld ldx). */
template <typename T> struct level_args {
    int f0; /* the level's first record */
    const int *m, *k, *large;
    const int64_t *col, *rofs, *rows;
    T *const *Lp;
    T *X;
    int64_t ldx;
    int nrhs;
};

/* The front and columns of this block: record f0 + blockIdx.x, columns
 * blockIdx.y · SOLVE_COLS on; false for a large front (cuBLAS's). */
template <typename T> struct front_view {
    int fm, fk, r, c0, nc;
    const T *L;
    T *X1;             /* its pivot rows, the block's first column */
    const int64_t *rw; /* its CB rows */
};

template <typename T> __device__ __forceinline__ bool view_of(const level_args<T> &a, front_view<T> &v)
{
    const int f = a.f0 + blockIdx.x;
    if (a.large[f]) return false;
    v.c0 = blockIdx.y * SOLVE_COLS;
    v.nc = min(SOLVE_COLS, a.nrhs - v.c0);
    v.fm = a.m[f];
    v.fk = a.k[f];
    v.r = v.fm - v.fk;
    v.L = a.Lp[f];
    v.X1 = a.X + a.col[f] + (int64_t)v.c0 * a.ldx;
    v.rw = a.rows + a.rofs[f];
    return true;
}

/* Forward on the small fronts of a level, first part: X1 ← L11⁻¹ X1. */
template <typename T> __global__ void __launch_bounds__(SOLVE_THREADS) forward_diag_kernel(level_args<T> a)
{
    front_view<T> fv;
    if (!view_of(a, fv)) return;
    const int fm = fv.fm, fk = fv.fk, nc = fv.nc;
    const T *L = fv.L;
    T *X1 = fv.X1;
    const int64_t ldx = a.ldx;
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    for (int j0 = 0; j0 < fk; j0 += SOLVE_DIAG) {
        const int jb = min(SOLVE_DIAG, fk - j0);
        if (warp < nc) { /* L11's diagonal block, one column per warp */
            T *x = X1 + (int64_t)warp * ldx + j0;
            T v = lane < jb ? x[lane] : T(0);
            for (int jj = 0; jj < jb; jj++) {
                const T xj = __shfl_sync(SOLVE_FULL, v, jj) / L[(j0 + jj) + (int64_t)(j0 + jj) * fm];
                if (lane == jj) v = xj;
                else if (lane > jj && lane < jb) v -= L[(j0 + lane) + (int64_t)(j0 + jj) * fm] * xj;
            }
            if (lane < jb) x[lane] = v;
        }
        __syncthreads();
        const int below = fk - j0 - jb; /* pivot rows under the block */
        for (int u = threadIdx.x; u < below * nc; u += blockDim.x) {
            const int i = j0 + jb + u % below, c = u / below;
            const T *xc = X1 + (int64_t)c * ldx + j0;
            T acc = 0;
            for (int jj = 0; jj < jb; jj++) acc += L[i + (int64_t)(j0 + jj) * fm] * xc[jj];
            X1[i + (int64_t)c * ldx] -= acc;
        }
        __syncthreads();
    }
}

/* Forward, second part: X[rows] −= L21 · X1; a block per (front, column
 * chunk, chunk of SOLVE_ROWS CB rows), a thread per row, its products
 * summed over the pivots in order. */
template <typename T> __global__ void __launch_bounds__(SOLVE_THREADS) forward_update_kernel(level_args<T> a)
{
    front_view<T> fv;
    if (!view_of(a, fv)) return;
    const int i = (int)blockIdx.z * SOLVE_ROWS + (int)threadIdx.x;
    if (i >= fv.r) return;
    const int fm = fv.fm, fk = fv.fk, nc = fv.nc;
    const T *Li = fv.L + fk + i;
    const T *X1 = fv.X1;
    const int64_t ldx = a.ldx;
    T acc[SOLVE_COLS];
#pragma unroll
    for (int c = 0; c < SOLVE_COLS; c++) acc[c] = 0;
    for (int j = 0; j < fk; j++) {
        const T l = Li[(int64_t)j * fm];
#pragma unroll
        for (int c = 0; c < SOLVE_COLS; c++)
            if (c < nc) acc[c] += l * X1[j + (int64_t)c * ldx];
    }
    T *X = a.X + fv.rw[i] + (int64_t)fv.c0 * ldx;
#pragma unroll
    for (int c = 0; c < SOLVE_COLS; c++)
        if (c < nc) atomicAdd(&X[(int64_t)c * ldx], -acc[c]);
}

/* Backward, first part: X1 −= L21ᵀ X(rows); a block per (front, column
 * chunk, SOLVE_WARPS pivot columns), a warp per pivot column summing down
 * L21's column (coalesced) for every right-hand side of the chunk. */
template <typename T> __global__ void __launch_bounds__(SOLVE_THREADS) backward_update_kernel(level_args<T> a)
{
    front_view<T> fv;
    if (!view_of(a, fv)) return;
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int j = (int)blockIdx.z * SOLVE_WARPS + warp;
    if (fv.r == 0 || j >= fv.fk) return;
    const int r = fv.r, nc = fv.nc;
    const T *Lj = fv.L + fv.fk + (int64_t)j * fv.fm, *X = a.X + (int64_t)fv.c0 * a.ldx;
    const int64_t ldx = a.ldx, *rw = fv.rw;
    T acc[SOLVE_COLS];
#pragma unroll
    for (int c = 0; c < SOLVE_COLS; c++) acc[c] = 0;
    for (int i = lane; i < r; i += 32) {
        const T l = Lj[i];
        const int64_t row = rw[i];
#pragma unroll
        for (int c = 0; c < SOLVE_COLS; c++)
            if (c < nc) acc[c] += l * X[row + (int64_t)c * ldx];
    }
#pragma unroll
    for (int c = 0; c < SOLVE_COLS; c++) {
        const T v = warp_sum(acc[c]);
        if (lane == 0 && c < nc) fv.X1[j + (int64_t)c * ldx] -= v;
    }
}

/* Backward, second part: X1 ← L11⁻ᵀ X1 (diagonal blocks, bottom up). */
template <typename T> __global__ void __launch_bounds__(SOLVE_THREADS) backward_diag_kernel(level_args<T> a)
{
    front_view<T> fv;
    if (!view_of(a, fv)) return;
    const int fm = fv.fm, fk = fv.fk, nc = fv.nc;
    const T *L = fv.L;
    T *X1 = fv.X1;
    const int64_t ldx = a.ldx;
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    for (int j0 = (fk - 1) / SOLVE_DIAG * SOLVE_DIAG; j0 >= 0; j0 -= SOLVE_DIAG) {
        const int jb = min(SOLVE_DIAG, fk - j0);
        if (warp < nc) { /* L11ᵀ's diagonal block, bottom up */
            T *x = X1 + (int64_t)warp * ldx + j0;
            T v = lane < jb ? x[lane] : T(0);
            for (int jj = jb - 1; jj >= 0; jj--) {
                const T xj = __shfl_sync(SOLVE_FULL, v, jj) / L[(j0 + jj) + (int64_t)(j0 + jj) * fm];
                if (lane == jj) v = xj;
                else if (lane < jj) v -= L[(j0 + jj) + (int64_t)(j0 + lane) * fm] * xj;
            }
            if (lane < jb) x[lane] = v;
        }
        __syncthreads();
        for (int u = warp; u < j0 * nc; u += SOLVE_WARPS) { /* rows above: a warp per (row, column) */
            const int i = u % j0, c = u / j0;
            const T *xc = X1 + (int64_t)c * ldx + j0;
            T acc = lane < jb ? L[(j0 + lane) + (int64_t)i * fm] * xc[lane] : T(0);
            acc = warp_sum(acc);
            if (lane == 0) X1[i + (int64_t)c * ldx] -= acc;
        }
        __syncthreads();
    }
}

/* X[rows[i], c] −= T[i, c] (one large front; nothing else runs beside it). */
template <typename T>
__global__ void scatter_sub_kernel(int r, int nrhs, const int64_t *rows, const T *Tm, T *X, int64_t ldx)
{
    const int64_t total = (int64_t)r * nrhs;
    for (int64_t u = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; u < total; u += (int64_t)gridDim.x * blockDim.x)
        X[rows[u % r] + (u / r) * ldx] -= Tm[u];
}

template <typename T>
__global__ void gather_kernel(int r, int nrhs, const int64_t *rows, const T *X, int64_t ldx, T *Tm)
{
    const int64_t total = (int64_t)r * nrhs;
    for (int64_t u = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; u < total; u += (int64_t)gridDim.x * blockDim.x)
        Tm[u] = X[rows[u % r] + (u / r) * ldx];
}

template <typename T>
__global__ void permute_kernel(int64_t n, int nrhs, const int64_t *perm, int to_permuted, T *B, int64_t ldb, T *X)
{
    const int64_t total = n * nrhs;
    for (int64_t u = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; u < total; u += (int64_t)gridDim.x * blockDim.x) {
        const int64_t i = u % n, c = u / n;
        if (to_permuted) X[u] = B[perm[i] + c * ldb];
        else B[perm[i] + c * ldb] = X[u];
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

static int blas_fail(const char *call, cublasStatus_t st, int m, int k, int nrhs)
{
    return sylva__fail(SYLVA_ERR_RUNTIME, "%s failed on a front of %d rows, %d pivots, %d right-hand sides "
                       "(cuBLAS status %d)", call, m, k, nrhs, (int)st);
}

/* One large front's record, read from the host copy of the blob. */
struct large_front {
    int m, k, r;
    int64_t col;
    const double *L;
    const int64_t *rows; /* device */
};

static large_front large_at(const sylva__solve_desc *d, const sylva__solve_bufs *bf, int f)
{
    const sylva__solve_layout *y = &d->lay;
    const char *h = (const char *)d->host_blob;
    large_front F;
    F.m = ((const int *)(h + y->m))[f];
    F.k = ((const int *)(h + y->k))[f];
    F.r = F.m - F.k;
    F.col = ((const int64_t *)(h + y->col))[f];
    F.L = bf->group_L[((const int *)(h + y->group))[f]] + ((const int64_t *)(h + y->lofs))[f];
    F.rows = (const int64_t *)((const char *)bf->blob + y->rows) + ((const int64_t *)(h + y->rofs))[f];
    return F;
}

static int bind(sylva__gpu_context *ctx, cudaStream_t s)
{
    if (cublasSetStream(ctx->blas, s) != CUBLAS_STATUS_SUCCESS ||
        cublasSetPointerMode(ctx->blas, CUBLAS_POINTER_MODE_HOST) != CUBLAS_STATUS_SUCCESS)
        return sylva__fail(SYLVA_ERR_RUNTIME, "binding the cuBLAS handle to the stream failed");
    return SYLVA_OK;
}

static int large_forward(sylva__gpu_context *ctx, const large_front &F, int64_t n, int nrhs, double *X,
                         double *Tm, cudaStream_t s)
{
    const double one = 1, zero = 0;
    double *X1 = X + F.col;
    cublasStatus_t st;
    if (nrhs == 1)
        st = cublasDtrsv(ctx->blas, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, F.k, F.L, F.m, X1, 1);
    else
        st = cublasDtrsm(ctx->blas, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT,
                         F.k, nrhs, &one, F.L, F.m, X1, (int)n);
    if (st != CUBLAS_STATUS_SUCCESS) return blas_fail(nrhs == 1 ? "cublasDtrsv" : "cublasDtrsm", st, F.m, F.k, nrhs);
    if (F.r == 0) return SYLVA_OK;
    if (nrhs == 1)
        st = cublasDgemv(ctx->blas, CUBLAS_OP_N, F.r, F.k, &one, F.L + F.k, F.m, X1, 1, &zero, Tm, 1);
    else
        st = cublasDgemm(ctx->blas, CUBLAS_OP_N, CUBLAS_OP_N, F.r, nrhs, F.k, &one, F.L + F.k, F.m, X1, (int)n,
                         &zero, Tm, F.r);
    if (st != CUBLAS_STATUS_SUCCESS) return blas_fail(nrhs == 1 ? "cublasDgemv" : "cublasDgemm", st, F.m, F.k, nrhs);
    scatter_sub_kernel<double><<<grid_for((int64_t)F.r * nrhs, 256), 256, 0, s>>>(F.r, nrhs, F.rows, Tm, X, n);
    return launched("scatter_sub_kernel (large front)");
}

static int large_backward(sylva__gpu_context *ctx, const large_front &F, int64_t n, int nrhs, double *X,
                          double *Tm, cudaStream_t s)
{
    const double one = 1, minus_one = -1;
    double *X1 = X + F.col;
    cublasStatus_t st = CUBLAS_STATUS_SUCCESS;
    if (F.r > 0) {
        gather_kernel<double><<<grid_for((int64_t)F.r * nrhs, 256), 256, 0, s>>>(F.r, nrhs, F.rows, X, n, Tm);
        int rc = launched("gather_kernel (large front)");
        if (rc != SYLVA_OK) return rc;
        if (nrhs == 1)
            st = cublasDgemv(ctx->blas, CUBLAS_OP_T, F.r, F.k, &minus_one, F.L + F.k, F.m, Tm, 1, &one, X1, 1);
        else
            st = cublasDgemm(ctx->blas, CUBLAS_OP_T, CUBLAS_OP_N, F.k, nrhs, F.r, &minus_one, F.L + F.k, F.m, Tm,
                             F.r, &one, X1, (int)n);
        if (st != CUBLAS_STATUS_SUCCESS)
            return blas_fail(nrhs == 1 ? "cublasDgemv (transposed)" : "cublasDgemm (transposed)", st, F.m, F.k, nrhs);
    }
    if (nrhs == 1)
        st = cublasDtrsv(ctx->blas, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T, CUBLAS_DIAG_NON_UNIT, F.k, F.L, F.m, X1, 1);
    else
        st = cublasDtrsm(ctx->blas, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T, CUBLAS_DIAG_NON_UNIT,
                         F.k, nrhs, &one, F.L, F.m, X1, (int)n);
    if (st != CUBLAS_STATUS_SUCCESS)
        return blas_fail(nrhs == 1 ? "cublasDtrsv (transposed)" : "cublasDtrsm (transposed)", st, F.m, F.k, nrhs);
    return SYLVA_OK;
}

/* The most blocks one small front of level l needs along the grid's third
 * dimension: its CB rows over SOLVE_ROWS (forward update) or its pivots
 * over SOLVE_WARPS (backward update); 0 when no small front of the level
 * has a CB (nothing to update). From the blob's host copy. */
static unsigned level_chunks(const sylva__solve_desc *d, int l, int forward)
{
    const sylva__solve_layout *y = &d->lay;
    const char *h = (const char *)d->host_blob;
    const int *m = (const int *)(h + y->m), *k = (const int *)(h + y->k), *large = (const int *)(h + y->large);
    int most = 0;
    for (int f = d->level_ptr[l]; f < d->level_ptr[l + 1]; f++) {
        if (large[f] || m[f] == k[f]) continue;
        int c = forward ? (m[f] - k[f] + SOLVE_ROWS - 1) / SOLVE_ROWS : (k[f] + SOLVE_WARPS - 1) / SOLVE_WARPS;
        if (c > most) most = c;
    }
    return (unsigned)most;
}

/* Launch `kernel` on level l's small fronts: a block per (front, column
 * chunk, one of `chunks`); nothing when chunks is 0 or all are large. */
template <typename Kernel>
static int level_launch(Kernel kernel, const char *name, const sylva__solve_desc *d, const sylva__solve_bufs *bf,
                        int l, unsigned chunks, int64_t nrhs, double *X, cudaStream_t s)
{
    const int f0 = d->level_ptr[l], nf = d->level_ptr[l + 1] - f0;
    if (nf == 0 || chunks == 0 || d->large_ptr[l + 1] - d->large_ptr[l] == nf) return SYLVA_OK; /* all large */
    if (chunks > SOLVE_MAX_CHUNKS)
        return sylva__fail(SYLVA_ERR_UNSUPPORTED, "GPU solve: a front of level %d needs %u blocks", l, chunks);
    const sylva__solve_layout *y = &d->lay;
    const char *b = (const char *)bf->blob;
    level_args<double> a = {f0,
                            (const int *)(b + y->m),
                            (const int *)(b + y->k),
                            (const int *)(b + y->large),
                            (const int64_t *)(b + y->col),
                            (const int64_t *)(b + y->rofs),
                            (const int64_t *)(b + y->rows),
                            (double *const *)((char *)bf->work + bf->ws.Lp),
                            X,
                            d->n,
                            (int)nrhs};
    dim3 grid((unsigned)nf, (unsigned)((nrhs + SOLVE_COLS - 1) / SOLVE_COLS), chunks);
    kernel<<<grid, SOLVE_THREADS, 0, s>>>(a);
    return launched(name);
}

static int check_sizes(const sylva__solve_desc *d, int64_t nrhs)
{
    if (d->n > INT32_MAX || nrhs < 1 || (nrhs + SOLVE_COLS - 1) / SOLVE_COLS > SOLVE_MAX_CHUNKS)
        return sylva__fail(SYLVA_ERR_UNSUPPORTED, "GPU solve of n = %lld with %lld right-hand sides at once: "
                           "beyond the kernels' 32-bit sizes", (long long)d->n, (long long)nrhs);
    return SYLVA_OK;
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
        (int *)(ws + b->ws.bad), (double *)(ws + b->ws.badval));
    return launched("pivots_kernel");
}

extern "C" int sylva__gpu_solve_forward(sylva__gpu_context *ctx, const sylva__solve_desc *d,
                                        const sylva__solve_bufs *b, int64_t nrhs, double *X, cudaStream_t s)
{
    int rc = check_sizes(d, nrhs);
    if (rc == SYLVA_OK) rc = bind(ctx, s);
    double *Tm = (double *)((char *)b->work + b->ws.T);
    for (int l = 0; l < d->nlevels && rc == SYLVA_OK; l++) {
        rc = level_launch(forward_diag_kernel<double>, "forward_diag_kernel", d, b, l, 1, nrhs, X, s);
        if (rc == SYLVA_OK)
            rc = level_launch(forward_update_kernel<double>, "forward_update_kernel", d, b, l,
                              level_chunks(d, l, 1), nrhs, X, s);
        for (int q = d->large_ptr[l]; q < d->large_ptr[l + 1] && rc == SYLVA_OK; q++)
            rc = large_forward(ctx, large_at(d, b, d->large_list[q]), d->n, (int)nrhs, X, Tm, s);
    }
    return rc;
}

extern "C" int sylva__gpu_solve_backward(sylva__gpu_context *ctx, const sylva__solve_desc *d,
                                         const sylva__solve_bufs *b, int64_t nrhs, double *X, cudaStream_t s)
{
    int rc = check_sizes(d, nrhs);
    if (rc == SYLVA_OK) rc = bind(ctx, s);
    double *Tm = (double *)((char *)b->work + b->ws.T);
    for (int l = d->nlevels - 1; l >= 0 && rc == SYLVA_OK; l--) {
        for (int q = d->large_ptr[l]; q < d->large_ptr[l + 1] && rc == SYLVA_OK; q++)
            rc = large_backward(ctx, large_at(d, b, d->large_list[q]), d->n, (int)nrhs, X, Tm, s);
        if (rc == SYLVA_OK)
            rc = level_launch(backward_update_kernel<double>, "backward_update_kernel", d, b, l,
                              level_chunks(d, l, 0), nrhs, X, s);
        if (rc == SYLVA_OK)
            rc = level_launch(backward_diag_kernel<double>, "backward_diag_kernel", d, b, l, 1, nrhs, X, s);
    }
    return rc;
}

extern "C" int sylva__gpu_solve_permute(const sylva__solve_desc *d, const sylva__solve_bufs *b, int to_permuted,
                                        int64_t nrhs, double *B, int64_t ldb, double *X, cudaStream_t s)
{
    if (d->n == 0 || nrhs == 0) return SYLVA_OK;
    const int64_t *perm = (const int64_t *)((const char *)b->blob + d->lay.perm);
    permute_kernel<double><<<grid_for(d->n * nrhs, 256), 256, 0, s>>>(d->n, (int)nrhs, perm, to_permuted, B, ldb, X);
    return launched("permute_kernel");
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

extern "C" int sylva__gpu_memcpy(void *dst, const void *src, size_t bytes, int to_device)
{
    if (bytes == 0) return SYLVA_OK;
    cudaError_t e = cudaMemcpy(dst, src, bytes, to_device ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost);
    return e == cudaSuccess ? SYLVA_OK : cuda_fail(to_device ? "cudaMemcpy (host to device)" : "cudaMemcpy (device to host)", e);
}
