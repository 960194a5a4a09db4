/* gpu_tiny.cu — partial factorization of tiny fronts (m ≤ 32) entirely in
 * registers: a group of G lanes (G = 4, 8, 16, 32) per front, lane i holds
 * row i of the lower triangle. POTRF, TRSM and SYRK are one loop here
 * (right-looking over the k pivot columns, updating every later column, CB
 * included); column j is published in shared memory and read back by
 * broadcast under __syncwarp (shuffles took 255 registers and spilled at
 * G = 32; this form takes 128), and one rsqrt per column replaces a sqrt and
 * a division. One launch per G; several fronts per warp when G < 32, so
 * 4 × 4 fronts still fill the memory pipe. Fronts outside (lo, hi], empty,
 * or with info set exit. Written once for any scalar type T. */
#include "gpu_common.cuh"

namespace sylva {

#define TINY_THREADS 128

/* MINB: blocks per SM the register budget must allow (0: the compiler's
 * choice; G = 32 takes 128 registers then, 4 blocks/SM; 5 caps it at 96). */
template <typename T, int G, int MINB>
__global__ void __launch_bounds__(TINY_THREADS, MINB)
    tiny_front_kernel(front_batch<T> b, int lo, int hi)
{
    const int lane = threadIdx.x % G; /* the row this thread holds */
    const int f = blockIdx.x * (TINY_THREADS / G) + threadIdx.x / G;
    if (f >= b.count) return; /* whole groups leave together */
    const int m = b.m[f], k = b.k[f];
    if (m <= lo || m > hi || k <= 0 || b.info[f] != 0) return;
    const unsigned mask =
        G == 32 ? 0xffffffffu : (((1u << G) - 1u) << ((threadIdx.x % 32) / G * G));
    T *P = b.P[f];
    const int ldp = b.ldp[f];
    T *C = m > k ? b.C[f] : nullptr;
    const int ldc = m > k ? b.ldc[f] : 0;

    __shared__ T column[TINY_THREADS];
    T *col = column + threadIdx.x / G * G; /* this group's column j */
    T a[G];
#pragma unroll
    for (int c = 0; c < G; c++) {
        a[c] = T(0);
        if (c <= lane && lane < m)
            a[c] = c < k ? P[lane + (size_t)c * ldp] : C[(lane - k) + (size_t)(c - k) * ldc];
    }
    int info = 0;
#pragma unroll
    for (int j = 0; j < G; j++) {
        if (j < k && info == 0) {
            T d = __shfl_sync(mask, a[j], j, G);
            if (!(d > T(0))) info = j + 1; /* the group agrees: d came from one lane */
            const T inv = rsqrt_t(d); /* one rsqrt for sqrt and division */
            const T l = lane == j ? d * inv : a[j] * inv; /* L(lane, j) */
            a[j] = l;
            col[lane] = l;
            __syncwarp(mask);
#pragma unroll
            for (int c = j + 1; c < G; c++)
                if (lane >= c) a[c] -= l * col[c]; /* L(c, j): a broadcast read */
            __syncwarp(mask);
        }
    }
    if (info) {
        if (lane == 0) b.info[f] = info;
        return;
    }
#pragma unroll
    for (int c = 0; c < G; c++) {
        if (c <= lane && lane < m) {
            if (c < k)
                P[lane + (size_t)c * ldp] = a[c];
            else
                C[(lane - k) + (size_t)(c - k) * ldc] = a[c];
        }
    }
}

template <typename T, int G, int MINB = 0>
static int launch_g(const front_batch<T> &b, int lo, int hi, cudaStream_t s)
{
    const int per_block = TINY_THREADS / G;
    const int blocks = SYLVA_DIV_UP(b.count, per_block);
    tiny_front_kernel<T, G, MINB><<<blocks, TINY_THREADS, 0, s>>>(b, lo, hi);
    return sylva__launch_status();
}

template <typename T>
int launch_tiny(const front_batch<T> &b, int lo, int hi, int min_blocks32, cudaStream_t s)
{
    /* Each G serves the sizes above the previous G; the caller's (lo, hi]
     * clips them. */
    static const int gs[4] = {4, 8, 16, 32};
    int prev = 0, rc = SYLVA_OK;
    for (int i = 0; i < 4 && rc == SYLVA_OK; i++) {
        int l = prev > lo ? prev : lo, h = gs[i] < hi ? gs[i] : hi;
        prev = gs[i];
        if (h <= l) continue;
        switch (gs[i]) {
        case 4: rc = launch_g<T, 4>(b, l, h, s); break;
        case 8: rc = launch_g<T, 8>(b, l, h, s); break;
        case 16: rc = launch_g<T, 16>(b, l, h, s); break;
        default:
            rc = min_blocks32 == 5 ? launch_g<T, 32, 5>(b, l, h, s) : launch_g<T, 32>(b, l, h, s);
            break;
        }
    }
    return rc;
}

template int launch_tiny<double>(const front_batch<double> &, int, int, int, cudaStream_t);

} // namespace sylva
