/* chain_step.cu — what one step of a dense triangle's forward chain costs on
 * the GPU, as the solve's persistent sweeps run it (kernels/gpu_solve_flow.cu:
 * an item per triangle block taken from an atomic ticket, a per-front counter
 * polled with acquire loads and counted with release adds), for the v10
 * design (docs/perf-log.md, "The solve, v9"): items of 32 rows, as the solve
 * has them, against items of 64 rows as cuDSS's top kernel has them (two
 * 32-row halves solved inside the item, through shared memory), each at 8
 * blocks an SM (64 registers) and at 3 (cuDSS's top kernel: 128 threads, 164
 * registers). One right-hand side. The diagonal blocks' inverses are made on
 * the host once (the "precomputed inverses in device memory" never built in
 * the solve) and loaded into shared memory before the item waits. Optional
 * background blocks poll a counter the whole time, as the sweeps' waiting
 * items do. The backward chain (Lᵀ x = b, v10) the same way, as the
 * sweeps' tri_backward and the top launch's 64-row items take it. Checks x
 * against the host's substitution. A stand-alone
 * measurement: it takes only the sweeps' acquire poll and release count
 * from kernels/gpu_solve_items.cuh and links nothing of the library.
 *   build: nvcc -O3 -arch=sm_90 -Ikernels -Icore -Iinclude -o chain-step bench/kernels/chain_step.cu
 *   usage: chain-step [K] [BACKGROUND]   (K pivots, default 5504) */
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

#include "gpu_solve_items.cuh"

#define CHECK(x)                                                                                   \
    do {                                                                                           \
        cudaError_t e_ = (x);                                                                      \
        if (e_ != cudaSuccess) {                                                                   \
            fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_));                               \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

/* The sweeps' own poll and count (kernels/gpu_solve_items.cuh). */
using sylva::add_release;
using sylva::load_acquire;

struct args {
    const double *L, *inv; /* L: k × k, ld k; inv: the 32 × 32 inverse of each diagonal block, column-major */
    double *x;
    int k, items, *ticket, *tdone, *stop;
};

/* Thread 0 polls until *p ≥ v, then the block passes a barrier. */
__device__ void wait_for(const int *p, int v, int *sh)
{
    if (threadIdx.x == 0) {
        int x;
        while ((x = load_acquire(p)) < v) __nanosleep(32);
        *sh = x;
    }
    __syncthreads();
}

/* The lane's row of inv · v (Transpose: of invᵀ · v; inv 32 × 32 in shared
 * memory, ld 33). */
template <bool Transpose> __device__ __forceinline__ double apply(const double *inv, double v)
{
    const int lane = threadIdx.x % 32;
    double acc = 0;
#pragma unroll 8
    for (int j = 0; j < 32; j++)
        acc += (Transpose ? inv[j + lane * 33] : inv[lane + j * 33]) * __shfl_sync(0xffffffffu, v, j);
    return acc;
}

/* Items of TT rows (32 or 64; k a multiple of TT), 128 threads. TT = 32: a
 * thread's row is its lane, its pivots 8 of each arriving block (by warp),
 * the arriving x read by broadcast loads (as the solve's tri_forward). TT =
 * 64: a thread's row is tid % 64, its pivots half of each arriving tile
 * (tid / 64), the arriving 64 values of x staged in shared memory by one
 * load a thread; the second half's rows less L[B, A] · x_A inside the item.
 *
 * Back: the backward chain (Lᵀ x = b), items from the last block up, as the
 * sweeps' tri_backward runs them. TT = 32: a lane per pivot of the item,
 * each warp 8 of an arriving block's rows (a lane reads 8 consecutive
 * entries of its column), x by broadcast loads. TT = 64: a thread per pivot
 * (tid % 64) and half an arriving tile's rows (tid / 64): 32 consecutive
 * entries of its column prefetched, the tile's x staged in shared memory;
 * the item's own block solved as x_B = B⁻ᵀ v_B, x_A = A⁻ᵀ (v_A − L[B, A]ᵀ
 * x_B). */
template <int TT, int MINB, bool Back> __global__ void __launch_bounds__(128, MINB) chain(args a, int background)
{
    __shared__ double inv[2][32 * 33], lba[32 * 33], part[128], xs[64], own[64];
    __shared__ int sh, item;
    const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
    if ((int)blockIdx.x >= (int)gridDim.x - background) { /* a waiting item elsewhere in the sweep */
        if (tid == 0)
            while (load_acquire(a.stop) == 0) __nanosleep(32);
        return;
    }
    for (;;) {
        if (tid == 0) item = atomicAdd(a.ticket, 1);
        __syncthreads();
        const int t = item;
        __syncthreads();
        if (t >= a.items) return;
        /* Item t solves block t forward, block items − 1 − t backward (it
         * needs the t blocks below). */
        const int r0 = (Back ? a.items - 1 - t : t) * TT;
        /* Before the wait: the item's own rows of x (final: nothing else
         * writes them), the inverses (and L[B, A]) into shared memory. */
        if (tid < TT) own[tid] = __ldcg(a.x + r0 + tid);
        for (int u = tid; u < 32 * 32; u += 128) {
            const int i = u % 32, j = u / 32;
            inv[0][i + j * 33] = a.inv[(int64_t)(r0 / 32) * 1024 + u];
            if (TT == 64) {
                inv[1][i + j * 33] = a.inv[(int64_t)(r0 / 32 + 1) * 1024 + u];
                lba[i + j * 33] = a.L[(r0 + 32 + i) + (int64_t)(r0 + j) * a.k];
            }
        }
        if (!Back) {
            double acc = 0;
            if (TT == 32) {
                for (int done = 0; done < t;) {
                    double l[8];
    #pragma unroll
                    for (int q = 0; q < 8; q++)
                        l[q] = __ldg(a.L + (r0 + lane) + (int64_t)(done * 32 + warp * 8 + q) * a.k);
                    wait_for(a.tdone, done + 1, &sh);
                    const int hi = min(sh, t);
                    __syncthreads();
    #pragma unroll
                    for (int q = 0; q < 8; q++) acc += l[q] * __ldcg(a.x + done * 32 + warp * 8 + q);
                    for (int jj = done + 1; jj < hi; jj++)
    #pragma unroll
                        for (int q = 0; q < 8; q++)
                            acc += __ldg(a.L + (r0 + lane) + (int64_t)(jj * 32 + warp * 8 + q) * a.k) *
                                   __ldcg(a.x + jj * 32 + warp * 8 + q);
                    done = hi;
                }
                part[tid] = acc;
                __syncthreads();
                if (warp == 0) {
                    double v = own[lane] - part[lane] - part[32 + lane] - part[64 + lane] - part[96 + lane];
                    __stcg(a.x + r0 + lane, apply<false>(inv[0], v));
                }
            } else {
                const int row = tid % 64, h = tid / 64;
                for (int done = 0; done < t;) {
                    double l[32];
    #pragma unroll
                    for (int q = 0; q < 32; q++)
                        l[q] = __ldg(a.L + (r0 + row) + (int64_t)(done * 64 + h * 32 + q) * a.k);
                    wait_for(a.tdone, done + 1, &sh);
                    const int hi = min(sh, t);
                    if (tid < 64) xs[tid] = __ldcg(a.x + done * 64 + tid);
                    __syncthreads();
    #pragma unroll
                    for (int q = 0; q < 32; q++) acc += l[q] * xs[h * 32 + q];
                    __syncthreads();
                    for (int jj = done + 1; jj < hi; jj++) {
                        if (tid < 64) xs[tid] = __ldcg(a.x + jj * 64 + tid);
                        __syncthreads();
                        for (int q = 0; q < 32; q++)
                            acc += __ldg(a.L + (r0 + row) + (int64_t)(jj * 64 + h * 32 + q) * a.k) * xs[h * 32 + q];
                        __syncthreads();
                    }
                    done = hi;
                }
                part[tid] = acc;
                __syncthreads();
                if (warp == 0) { /* half A: rows r0 .. r0 + 31 */
                    double v = own[lane] - part[lane] - part[64 + lane];
                    v = apply<false>(inv[0], v);
                    xs[lane] = v;
                    __stcg(a.x + r0 + lane, v);
                }
                __syncthreads();
                if (warp == 1) { /* half B: less L[B, A] · x_A, then its own inverse */
                    double v = own[32 + lane] - part[32 + lane] - part[96 + lane];
    #pragma unroll 8
                    for (int j = 0; j < 32; j++) v -= lba[lane + j * 33] * xs[j];
                    __stcg(a.x + r0 + 32 + lane, apply<false>(inv[1], v));
                }
            }
        } else {
            double acc = 0;
            if (TT == 32) {
                const double *Lj = a.L + (int64_t)(r0 + lane) * a.k; /* the lane's pivot's column */
                for (int done = 0; done < t;) {
                    const int i0 = (a.items - 1 - done) * 32 + warp * 8;
                    double l[8];
    #pragma unroll
                    for (int q = 0; q < 8; q++) l[q] = __ldg(Lj + i0 + q);
                    wait_for(a.tdone, done + 1, &sh);
                    const int hi = min(sh, t);
                    __syncthreads();
    #pragma unroll
                    for (int q = 0; q < 8; q++) acc += l[q] * __ldcg(a.x + i0 + q);
                    for (int jj = done + 1; jj < hi; jj++) {
                        const int i1 = (a.items - 1 - jj) * 32 + warp * 8;
    #pragma unroll
                        for (int q = 0; q < 8; q++) acc += __ldg(Lj + i1 + q) * __ldcg(a.x + i1 + q);
                    }
                    done = hi;
                }
                part[tid] = acc;
                __syncthreads();
                if (warp == 0) {
                    double v = own[lane] - part[lane] - part[32 + lane] - part[64 + lane] - part[96 + lane];
                    __stcg(a.x + r0 + lane, apply<true>(inv[0], v));
                }
            } else {
                const int col = tid % 64, h = tid / 64;
                const double *Lj = a.L + (int64_t)(r0 + col) * a.k;
                for (int done = 0; done < t;) {
                    const int p0 = (a.items - 1 - done) * 64;
                    double l[32];
    #pragma unroll
                    for (int q = 0; q < 32; q++) l[q] = __ldg(Lj + p0 + h * 32 + q);
                    wait_for(a.tdone, done + 1, &sh);
                    const int hi = min(sh, t);
                    if (tid < 64) xs[tid] = __ldcg(a.x + p0 + tid);
                    __syncthreads();
    #pragma unroll
                    for (int q = 0; q < 32; q++) acc += l[q] * xs[h * 32 + q];
                    __syncthreads();
                    for (int jj = done + 1; jj < hi; jj++) {
                        const int p1 = (a.items - 1 - jj) * 64;
                        if (tid < 64) xs[tid] = __ldcg(a.x + p1 + tid);
                        __syncthreads();
                        for (int q = 0; q < 32; q++) acc += __ldg(Lj + p1 + h * 32 + q) * xs[h * 32 + q];
                        __syncthreads();
                    }
                    done = hi;
                }
                part[tid] = acc;
                __syncthreads();
                if (warp == 0) { /* one warp: B first, then A less L[B, A]ᵀ x_B */
                    const double xb = apply<true>(inv[1], own[32 + lane] - part[32 + lane] - part[96 + lane]);
                    double v = own[lane] - part[lane] - part[64 + lane];
    #pragma unroll 8
                    for (int j = 0; j < 32; j++) v -= lba[j + lane * 33] * __shfl_sync(0xffffffffu, xb, j);
                    __stcg(a.x + r0 + lane, apply<true>(inv[0], v));
                    __stcg(a.x + r0 + 32 + lane, xb);
                }
            }
        }
        __syncthreads();
        if (tid == 0) {
            add_release(a.tdone);
            if (t == a.items - 1) add_release(a.stop);
        }
    }
}

template <int TT, int MINB, bool Back = false>
static void run(const char *name, const args &a0, const std::vector<double> &b, const std::vector<double> &ref,
                int bg_want)
{
    auto kernel = chain<TT, MINB, Back>;
    int per_sm = 0, sms = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, 128, 0));
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    cudaFuncAttributes fa;
    CHECK(cudaFuncGetAttributes(&fa, kernel));
    args a = a0;
    a.items = a.k / TT;
    const int resident = per_sm * sms, bg = std::min(bg_want, resident - a.items);
    if (bg < 0) {
        printf("%-22s does not fit: %d items, %d resident blocks\n", name, a.items, resident);
        return;
    }
    cudaEvent_t e0, e1;
    CHECK(cudaEventCreate(&e0));
    CHECK(cudaEventCreate(&e1));
    std::vector<float> ms;
    double err = 0;
    for (int rep = 0; rep < 7; rep++) {
        CHECK(cudaMemcpy(a.x, b.data(), b.size() * sizeof(double), cudaMemcpyHostToDevice));
        CHECK(cudaMemset(a.ticket, 0, 3 * sizeof(int)));
        CHECK(cudaEventRecord(e0));
        kernel<<<a.items + bg, 128>>>(a, bg);
        CHECK(cudaGetLastError());
        CHECK(cudaEventRecord(e1));
        CHECK(cudaEventSynchronize(e1));
        float t;
        CHECK(cudaEventElapsedTime(&t, e0, e1));
        ms.push_back(t);
        std::vector<double> x(b.size());
        CHECK(cudaMemcpy(x.data(), a.x, x.size() * sizeof(double), cudaMemcpyDeviceToHost));
        double num = 0, den = 0;
        for (size_t i = 0; i < x.size(); i++) num += (x[i] - ref[i]) * (x[i] - ref[i]), den += ref[i] * ref[i];
        err = std::max(err, std::sqrt(num / den));
    }
    std::sort(ms.begin(), ms.end());
    const double med = ms[ms.size() / 2];
    printf("%-22s regs %3d local %3zu B  %2d blocks/SM  %4d items + %4d waiting  median %8.1f us  %6.2f us/step"
           "  rel.err %.1e%s\n",
           name, fa.numRegs, (size_t)fa.localSizeBytes, per_sm, a.items, bg, 1e3 * med, 1e3 * med / a.items, err,
           err < 1e-10 ? "" : "  FAILED");
}

int main(int argc, char **argv)
{
    const int k = argc > 1 ? atoi(argv[1]) / 64 * 64 : 5504, bg = argc > 2 ? atoi(argv[2]) : 0;
    /* L: unit-ish diagonal, small random entries below (well conditioned). */
    std::vector<double> L((size_t)k * k, 0.0), b(k), ref(k), refb(k), inv((size_t)k / 32 * 1024, 0.0);
    srand(12);
    for (int j = 0; j < k; j++) {
        L[j + (size_t)j * k] = 1.0 + (double)rand() / RAND_MAX;
        for (int i = j + 1; i < k; i++) L[i + (size_t)j * k] = ((double)rand() / RAND_MAX - 0.5) / std::sqrt((double)k);
    }
    for (int i = 0; i < k; i++) b[i] = (double)rand() / RAND_MAX - 0.5;
    ref = b;
    for (int j = 0; j < k; j++) {
        ref[j] /= L[j + (size_t)j * k];
        for (int i = j + 1; i < k; i++) ref[i] -= L[i + (size_t)j * k] * ref[j];
    }
    refb = b; /* Lᵀ x = b, bottom up */
    for (int j = k - 1; j >= 0; j--) {
        for (int i = j + 1; i < k; i++) refb[j] -= L[i + (size_t)j * k] * refb[i];
        refb[j] /= L[j + (size_t)j * k];
    }
    for (int blk = 0; blk < k / 32; blk++) /* inverse of each 32 × 32 diagonal block, column by column */
        for (int c = 0; c < 32; c++) {
            double col[32] = {0};
            col[c] = 1;
            for (int j = 0; j < 32; j++) {
                col[j] /= L[(blk * 32 + j) * (size_t)(k + 1)];
                for (int i = j + 1; i < 32; i++) col[i] -= L[(blk * 32 + i) + (size_t)(blk * 32 + j) * k] * col[j];
            }
            for (int i = 0; i < 32; i++) inv[(size_t)blk * 1024 + i + 32 * c] = col[i];
        }
    args a{};
    a.k = k;
    double *dL, *dinv;
    CHECK(cudaMalloc(&dL, L.size() * sizeof(double)));
    CHECK(cudaMalloc(&dinv, inv.size() * sizeof(double)));
    CHECK(cudaMalloc(&a.x, (size_t)k * sizeof(double)));
    CHECK(cudaMalloc(&a.ticket, 3 * sizeof(int)));
    CHECK(cudaMemcpy(dL, L.data(), L.size() * sizeof(double), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dinv, inv.data(), inv.size() * sizeof(double), cudaMemcpyHostToDevice));
    a.L = dL, a.inv = dinv, a.tdone = a.ticket + 1, a.stop = a.ticket + 2;
    printf("chain-step: k = %d (L %.0f MB), %d background blocks wanted\n", k, 8e-6 * k * k / 2, bg);
    run<32, 8>("32 rows, 8 blocks/SM", a, b, ref, bg);
    run<64, 8>("64 rows, 8 blocks/SM", a, b, ref, bg);
    run<64, 3>("64 rows, 3 blocks/SM", a, b, ref, bg);
    run<32, 3>("32 rows, 3 blocks/SM", a, b, ref, bg);
    run<32, 8, true>("backward 32 rows, 8/SM", a, b, refb, bg);
    run<64, 8, true>("backward 64 rows, 8/SM", a, b, refb, bg);
    run<64, 3, true>("backward 64 rows, 3/SM", a, b, refb, bg);
    return 0;
}
