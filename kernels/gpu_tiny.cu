/* gpu_tiny.cu — partial factorization of tiny fronts (m ≤ 32) entirely in
 * registers: a group of G lanes (G = 4, 8, 16, 32) per front, lane i holds
 * row i of the lower triangle. POTRF, TRSM and SYRK are one loop here
 * (right-looking over the k pivot columns, updating every later column, CB
 * included); column j is published in shared memory and read back by
 * broadcast under __syncwarp (shuffles took 255 registers and spilled at
 * G = 32; this form takes 128), and one rsqrt per column replaces a sqrt and
 * a division. The G = 32 kernel may run its update unpredicated over the
 * whole row (entries right of a lane's diagonal then hold garbage that is
 * never stored nor published to a column that is read): no per-entry
 * predicates, fewer instructions. A front's metadata (sizes, info, pointers,
 * leading dims) is read in one round trip before the size filter, not one
 * dependent load after another. One launch per G; several fronts per warp
 * when G < 32, so 4 × 4 fronts still fill the memory pipe; the G = 4 kernel
 * may give each lane group several fronts. Fronts outside (lo, hi], empty,
 * or with info set exit. Written once for any scalar type T. */
#include "gpu_common.cuh"

namespace sylva {

#define TINY_THREADS 128

/* MINB: blocks per SM the register budget must allow (0: the compiler's
 * choice; G = 32 takes 128 registers then, 4 blocks/SM; 5 caps it at 96).
 * UNPRED: the update unpredicated (see above; more registers: G = 32 only,
 * capped at 128). NF: fronts per lane group, their metadata and entries all
 * loaded before the first is factored (NF times the bytes in flight per
 * warp, for the 4-lane kernel whose fronts are 128 bytes). */
template <typename T, int G, int MINB, bool UNPRED, int NF>
__global__ void __launch_bounds__(TINY_THREADS, MINB)
    tiny_front_kernel(front_batch<T> b, int lo, int hi)
{
    constexpr int GPB = TINY_THREADS / G; /* lane groups per block */
    const int lane = threadIdx.x % G;     /* the row this thread holds */
    const int f0 = blockIdx.x * GPB * NF + threadIdx.x / G; /* front s: f0 + s·GPB */
    const unsigned mask =
        G == 32 ? 0xffffffffu : (((1u << G) - 1u) << ((threadIdx.x % 32) / G * G));
    /* Every field of every front in one round trip (the arrays hold count
     * entries each; C[f] is only dereferenced when m > k). */
    if (NF == 1 && f0 >= b.count) return; /* whole groups leave together */
    int m[NF], k[NF], ldp[NF], ldc[NF];
    T *P[NF], *C[NF];
    bool on[NF], any = false;
#pragma unroll
    for (int s = 0; s < NF; s++) {
        const int f = f0 + s * GPB;
        on[s] = false, m[s] = k[s] = ldp[s] = ldc[s] = 0, P[s] = C[s] = nullptr;
        if (NF > 1 && f >= b.count) continue;
        m[s] = ld_early(b.m + f), k[s] = ld_early(b.k + f);
        const int info0 = ld_early(b.info + f);
        ldp[s] = ld_early(b.ldp + f), ldc[s] = ld_early(b.ldc + f);
        P[s] = ld_early(b.P + f), C[s] = ld_early(b.C + f);
        on[s] = m[s] > lo && m[s] <= hi && k[s] > 0 && info0 == 0; /* group-uniform */
        any |= on[s];
    }
    if (!any) return;

    __shared__ T column[TINY_THREADS];
    T *col = column + threadIdx.x / G * G; /* this group's column j */
    T a[NF][G];
#pragma unroll
    for (int s = 0; s < NF; s++)
#pragma unroll
        for (int c = 0; c < G; c++) {
            a[s][c] = T(0);
            if (on[s] && c <= lane && lane < m[s])
                a[s][c] = c < k[s] ? P[s][lane + (size_t)c * ldp[s]]
                                   : C[s][(lane - k[s]) + (size_t)(c - k[s]) * ldc[s]];
        }
#pragma unroll
    for (int s = 0; s < NF; s++) {
        if (!on[s]) continue;
        int info = 0;
#pragma unroll
        for (int j = 0; j < G; j++) {
            if (j < k[s] && info == 0) {
                T d = __shfl_sync(mask, a[s][j], j, G);
                if (!(d > T(0))) info = j + 1; /* the group agrees: d came from one lane */
                const T inv = rsqrt_t(d); /* one rsqrt for sqrt and division */
                const T l = lane == j ? d * inv : a[s][j] * inv; /* L(lane, j) */
                a[s][j] = l;
                col[lane] = l;
                __syncwarp(mask);
#pragma unroll
                for (int c = j + 1; c < G; c++)
                    if (UNPRED || lane >= c) a[s][c] -= l * col[c]; /* L(c, j): a broadcast read */
                __syncwarp(mask);
            }
        }
        if (info) {
            if (lane == 0) b.info[f0 + s * GPB] = info;
            continue;
        }
#pragma unroll
        for (int c = 0; c < G; c++) {
            if (c <= lane && lane < m[s]) {
                if (c < k[s])
                    P[s][lane + (size_t)c * ldp[s]] = a[s][c];
                else
                    C[s][(lane - k[s]) + (size_t)(c - k[s]) * ldc[s]] = a[s][c];
            }
        }
    }
}

template <typename T, int G, int MINB = 0, bool UNPRED = false, int NF = 1>
static int launch_g(const front_batch<T> &b, int lo, int hi, cudaStream_t s)
{
    const int per_block = TINY_THREADS / G * NF;
    const int blocks = SYLVA_DIV_UP(b.count, per_block);
    tiny_front_kernel<T, G, MINB, UNPRED, NF><<<blocks, TINY_THREADS, 0, s>>>(b, lo, hi);
    return sylva__launch_status();
}

template <typename T>
int launch_tiny(const front_batch<T> &b, int lo, int hi, int min_blocks32, int fronts4,
                cudaStream_t s)
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
        case 4:
            rc = fronts4 == 4   ? launch_g<T, 4, 0, false, 4>(b, l, h, s)
                 : fronts4 == 2 ? launch_g<T, 4, 0, false, 2>(b, l, h, s)
                                : launch_g<T, 4>(b, l, h, s);
            break;
        case 8: rc = launch_g<T, 8>(b, l, h, s); break;
        case 16: rc = launch_g<T, 16>(b, l, h, s); break;
        default:
            rc = min_blocks32 == 5   ? launch_g<T, 32, 5>(b, l, h, s)
                 : min_blocks32 == 4 ? launch_g<T, 32, 4, true>(b, l, h, s)
                                     : launch_g<T, 32>(b, l, h, s);
            break;
        }
    }
    return rc;
}

template int launch_tiny<double>(const front_batch<double> &, int, int, int, int, cudaStream_t);

} // namespace sylva
