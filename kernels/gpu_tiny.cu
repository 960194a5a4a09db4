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
 * dependent load after another. A batch whose sizes span several G takes
 * one launch per G, or (tiny_one_launch) one launch whose grid is the
 * G-kernels' grids end to end, G = 32's first; several fronts per warp when
 * G < 32, so 4 × 4 fronts still fill the memory pipe, each group on its own
 * or (tiny_warp_uniform) all of a warp's groups in step; the G = 4 kernel
 * may give each lane group several fronts, or run with its registers
 * capped for 12 or 16 blocks/SM. Fronts outside (lo, hi], empty, or with
 * info set exit. Written once for any scalar type T. */
#include "gpu_common.cuh"

namespace sylva {

#define TINY_THREADS 128

/* Block blk of the G-lane grid over the batch (TINY_THREADS threads;
 * column: TINY_THREADS scalars of shared memory). WU (G < 32): every lane
 * group of a warp goes through each column together (updates predicated
 * per group, the loop left when no group of the warp is active), so the
 * shuffles and barriers name the whole warp; without it each group runs on
 * its own with a sub-warp mask, which the compiler guards by a convergence
 * check (MATCH, REDUX, VOTE) before every shuffle and barrier. */
template <typename T, int G, bool UNPRED, int NF, bool WU>
__device__ __forceinline__ void tiny_block(const front_batch<T> &b, int lo, int hi, int blk,
                                           T *column)
{
    constexpr int GPB = TINY_THREADS / G; /* lane groups per block */
    constexpr bool JOINT = G < 32 && WU;  /* the warp's groups in step */
    const int lane = threadIdx.x % G;     /* the row this thread holds */
    const int f0 = blk * GPB * NF + threadIdx.x / G; /* front s: f0 + s·GPB */
    const unsigned mask = G == 32 || JOINT
                              ? 0xffffffffu
                              : (((1u << G) - 1u) << ((threadIdx.x % 32) / G * G));
    /* Every field of every front in one round trip (the arrays hold count
     * entries each; C[f] is only dereferenced when m > k). */
    if (NF == 1 && !JOINT && f0 >= b.count) return; /* whole groups leave together */
    int m[NF], k[NF], ldp[NF], ldc[NF];
    T *P[NF], *C[NF];
    bool on[NF], any = false;
#pragma unroll
    for (int s = 0; s < NF; s++) {
        const int f = f0 + s * GPB;
        on[s] = false, m[s] = k[s] = ldp[s] = ldc[s] = 0, P[s] = C[s] = nullptr;
        if ((NF > 1 || JOINT) && f >= b.count) continue;
        m[s] = ld_early(b.m + f), k[s] = ld_early(b.k + f);
        const int info0 = ld_early(b.info + f);
        ldp[s] = ld_early(b.ldp + f), ldc[s] = ld_early(b.ldc + f);
        P[s] = ld_early(b.P + f), C[s] = ld_early(b.C + f);
        on[s] = m[s] > lo && m[s] <= hi && k[s] > 0 && info0 == 0; /* group-uniform */
        any |= on[s];
    }
    if (JOINT ? !__any_sync(0xffffffffu, any) : !any) return; /* JOINT: whole warps */

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
        if (JOINT ? !__any_sync(0xffffffffu, on[s]) : !on[s]) continue;
        int info = 0;
#pragma unroll
        for (int j = 0; j < G; j++) {
            const bool act = on[s] && j < k[s] && info == 0; /* group-uniform; stays false */
            if (JOINT ? !__any_sync(0xffffffffu, act) : !act) break;
            T d = __shfl_sync(mask, a[s][j], j, G);
            if (act && !(d > T(0))) info = j + 1; /* the group agrees: d came from one lane */
            const T inv = rsqrt_t(d); /* one rsqrt for sqrt and division */
            const T l = lane == j ? d * inv : a[s][j] * inv; /* L(lane, j) */
            if (act) a[s][j] = l;
            col[lane] = l; /* this group's own segment */
            __syncwarp(mask);
#pragma unroll
            for (int c = j + 1; c < G; c++)
                if (act && (UNPRED || lane >= c)) a[s][c] -= l * col[c]; /* L(c, j): a broadcast */
            __syncwarp(mask);
        }
        if (!on[s]) continue; /* after the warp's last shuffle of this front */
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

/* MINB: blocks per SM the register budget must allow (0: the compiler's
 * choice; G = 32 takes 128 registers then, 4 blocks/SM; 5 caps it at 96;
 * G = 4 at 12 / 16 caps it at 40 / 32 registers). UNPRED: the update
 * unpredicated (see above; more registers: G = 32 only, capped at 128). NF:
 * fronts per lane group, their metadata and entries all loaded before the
 * first is factored (NF times the bytes in flight per warp, for the 4-lane
 * kernel whose fronts are 128 bytes). WU: see tiny_block. */
template <typename T, int G, int MINB, bool UNPRED, int NF, bool WU>
__global__ void __launch_bounds__(TINY_THREADS, MINB)
    tiny_front_kernel(front_batch<T> b, int lo, int hi)
{
    __shared__ T column[TINY_THREADS];
    tiny_block<T, G, UNPRED, NF, WU>(b, lo, hi, blockIdx.x, column);
}

/* The lane-group sizes, largest first (the one-launch grid's order: the
 * longest blocks start first), and each one's share of a one-launch grid:
 * sizes (lo, hi] and first block; first[4] = the grid. */
static const int tiny_gs[4] = {32, 16, 8, 4};
struct tiny_grid {
    int lo[4], hi[4], first[5];
};

/* Every lane-group size in one launch; the 32-lane part in the form MINB /
 * UNPRED (the register budget is the whole kernel's), the others as their
 * own kernels with one front per lane group. */
template <typename T, int MINB, bool UNPRED, int WUMAX>
__global__ void __launch_bounds__(TINY_THREADS, MINB)
    tiny_one_launch_kernel(front_batch<T> b, tiny_grid g)
{
    __shared__ T column[TINY_THREADS];
    const int x = blockIdx.x;
    if (x < g.first[1])
        tiny_block<T, 32, UNPRED, 1, false>(b, g.lo[0], g.hi[0], x, column);
    else if (x < g.first[2])
        tiny_block<T, 16, false, 1, (16 <= WUMAX)>(b, g.lo[1], g.hi[1], x - g.first[1], column);
    else if (x < g.first[3])
        tiny_block<T, 8, false, 1, (8 <= WUMAX)>(b, g.lo[2], g.hi[2], x - g.first[2], column);
    else
        tiny_block<T, 4, false, 1, (4 <= WUMAX)>(b, g.lo[3], g.hi[3], x - g.first[3], column);
}

template <typename T, int G, bool WU, int MINB = 0, bool UNPRED = false, int NF = 1>
static int launch_g(const front_batch<T> &b, int lo, int hi, cudaStream_t s)
{
    const int per_block = TINY_THREADS / G * NF;
    const int blocks = SYLVA_DIV_UP(b.count, per_block);
    tiny_front_kernel<T, G, MINB, UNPRED, NF, WU><<<blocks, TINY_THREADS, 0, s>>>(b, lo, hi);
    return sylva__launch_status();
}

template <typename T, int MINB, bool UNPRED, int WUMAX>
static int launch_one(const front_batch<T> &b, const tiny_grid &g, cudaStream_t s)
{
    if (g.first[4] > 0)
        tiny_one_launch_kernel<T, MINB, UNPRED, WUMAX><<<g.first[4], TINY_THREADS, 0, s>>>(b, g);
    return sylva__launch_status();
}

/* The launches of grid g in the table's forms (WUMAX: tiny_warp_uniform,
 * the lane groups of G ≤ WUMAX go in step). */
template <typename T, int WUMAX>
static int launch_forms(const front_batch<T> &b, const tiny_grid &g, int classes,
                        const sylva__kernel_tuning *t, cudaStream_t s)
{
    const int mb32 = t->tiny_min_blocks;
    if (classes > 1 && t->tiny_one_launch && t->tiny_fronts4 == 1)
        return mb32 == 5   ? launch_one<T, 5, false, WUMAX>(b, g, s)
               : mb32 == 4 ? launch_one<T, 4, true, WUMAX>(b, g, s)
                           : launch_one<T, 0, false, WUMAX>(b, g, s);
    constexpr bool WU4 = 4 <= WUMAX, WU8 = 8 <= WUMAX, WU16 = 16 <= WUMAX;
    int rc = SYLVA_OK;
    for (int i = 3; i >= 0 && rc == SYLVA_OK; i--) {
        const int l = g.lo[i], h = g.hi[i];
        if (h <= l) continue;
        switch (tiny_gs[i]) {
        case 4:
            rc = t->tiny_fronts4 == 4   ? launch_g<T, 4, WU4, 0, false, 4>(b, l, h, s)
                 : t->tiny_fronts4 == 2 ? launch_g<T, 4, WU4, 0, false, 2>(b, l, h, s)
                 : t->tiny_min_blocks4 == 16 ? launch_g<T, 4, WU4, 16>(b, l, h, s)
                 : t->tiny_min_blocks4 == 12 ? launch_g<T, 4, WU4, 12>(b, l, h, s)
                                             : launch_g<T, 4, WU4>(b, l, h, s);
            break;
        case 8: rc = launch_g<T, 8, WU8>(b, l, h, s); break;
        case 16: rc = launch_g<T, 16, WU16>(b, l, h, s); break;
        default:
            rc = mb32 == 5   ? launch_g<T, 32, false, 5>(b, l, h, s)
                 : mb32 == 4 ? launch_g<T, 32, false, 4, true>(b, l, h, s)
                             : launch_g<T, 32, false>(b, l, h, s);
            break;
        }
    }
    return rc;
}

template <typename T>
int launch_tiny(const front_batch<T> &b, int lo, int hi, const sylva__kernel_tuning *t,
                cudaStream_t s)
{
    /* Each G serves the sizes above the next smaller G; the caller's
     * (lo, hi] clips them. */
    tiny_grid g;
    int classes = 0;
    g.first[0] = 0;
    for (int i = 0; i < 4; i++) {
        const int below = i < 3 ? tiny_gs[i + 1] : 0;
        g.lo[i] = below > lo ? below : lo, g.hi[i] = tiny_gs[i] < hi ? tiny_gs[i] : hi;
        const bool on = g.hi[i] > g.lo[i];
        classes += on;
        g.first[i + 1] = g.first[i] + (on ? SYLVA_DIV_UP(b.count, TINY_THREADS / tiny_gs[i]) : 0);
    }
    switch (t->tiny_warp_uniform) {
    case 16: return launch_forms<T, 16>(b, g, classes, t, s);
    case 8: return launch_forms<T, 8>(b, g, classes, t, s);
    case 4: return launch_forms<T, 4>(b, g, classes, t, s);
    default: return launch_forms<T, 0>(b, g, classes, t, s);
    }
}

template int launch_tiny<double>(const front_batch<double> &, int, int,
                                 const sylva__kernel_tuning *, cudaStream_t);

} // namespace sylva
