/* gpu_fused_regs.cuh — the fused kernel's register form (v13, key
 * fused_regs_max_m): one block of NW warps per front (m ≤ MAXM ≤ 128,
 * double only: DMMA), the lower triangle held in registers for the whole
 * factorization as 8 × 8 DMMA accumulator fragments (fragment rows dealt to
 * the warps in pairs, slot_pos below; lane l holds entries
 * (8i + l/4, 8j + 2(l%4) + v), v = 0, 1), so only the panel travels through
 * shared memory. Panel p (columns 8p.., jb ≤ 8 of them factored): the owners
 * of fragment column p store it to sP; barrier; every warp factors the jb ×
 * jb diagonal block in its lanes 0–7 (identical in every warp, so a
 * non-positive pivot is seen by all without a barrier) and its lanes 8–31
 * solve the panel's other rows (24 a warp, RS rounds); the solved panel goes
 * to sL (zero above the diagonal and right of jb); barrier; each warp
 * subtracts sL·sLᵀ from its fragments right of the panel (two DMMA k-steps a
 * fragment), and the owners of column p take its final values from sL (a
 * partial last panel also updates its CB columns that way). Two barriers a
 * panel; no read-modify-write of the trailing matrix in shared memory.
 * Loaded from and written to P / C straight from the fragments (lower
 * triangle only); on a non-positive pivot nothing is written and info is
 * the failing column (LAPACK's numbering). Internal to kernels/ (included by
 * gpu_fused.cu, which provides front_batch, ld_early and rsqrt_t). */
#ifndef SYLVA_KERNELS_GPU_FUSED_REGS_CUH
#define SYLVA_KERNELS_GPU_FUSED_REGS_CUH

#include "gpu_mma.cuh"

namespace sylva {

/* Fragment rows are dealt to the NW warps in pairs (2u·NW + w, 2u·NW + 2NW −
 * 1 − w): pair u gives every warp 4u·NW + 2NW + 1 fragments, the same for
 * all; with an odd number R = FR / NW of rows a warp, the last row
 * (R − 1)·NW + w alone (slots past its diagonal unused). Slot s (a
 * constant after unrolling) of warp w holds fragment (fi, fj); valid when
 * fj ≤ fi. Plain selects: v13's first form dealt fragments round-robin and
 * walked the numbering with a loop, and those loops and branches were ~60%
 * of the instructions executed (ncu). */
template <int NW, int FR> struct regs_slots {
    static constexpr int P = FR / NW / 2; /* pairs */
    static constexpr int value = 2 * NW * P * (P - 1) + P * (2 * NW + 1) + (FR / NW % 2 ? FR : 0);
};

/* x, opaque to the compiler: the slots' positions are recomputed in each
 * phase from it instead of hoisted out of the panel loop (34 live
 * registers: spills). */
__device__ __forceinline__ int opaque(int x)
{
    int y;
    asm volatile("mov.b32 %0, %1;" : "=r"(y) : "r"(x));
    return y;
}

template <int NW, int FR>
__device__ __forceinline__ void slot_pos(int s, int w, int &fi, int &fj)
{
    int base = 0;
#pragma unroll
    for (int u = 0; u < FR / NW / 2; u++) {
        const int n = 4 * u * NW + 2 * NW + 1;
        if (s >= base && s < base + n) {
            const int ra = 2 * u * NW + w, t = s - base;
            fi = t <= ra ? ra : 2 * u * NW + 2 * NW - 1 - w;
            fj = t <= ra ? t : t - ra - 1;
            return;
        }
        base += n;
    }
    fi = (FR / NW - 1) * NW + w, fj = s - base;
}

/* A shared-memory load kept in program order among the DMMA steps (both
 * asm volatile): left free, the compiler hoists every fragment's operands
 * of a panel ahead of the first DMMA and spills. */
__device__ __forceinline__ double lds_ordered(const double *p)
{
    double v;
    asm volatile("ld.shared.f64 %0, [%1];" : "=d"(v) : "r"((unsigned)__cvta_generic_to_shared(p)));
    return v;
}

template <typename T, int NW, int MAXM, typename F>
__device__ __forceinline__ void regs_front(const front_batch<T> &b, int f, int lo, int hi, F loaded)
{
    constexpr int PB = 8, FR = MAXM / 8, NS = regs_slots<NW, FR>::value;
    constexpr int BL = 24, RS = (MAXM - 8 + NW * BL - 1) / (NW * BL); /* solve rounds */
    constexpr int LD = 12; /* panel row stride: DMMA operand loads 2 wavefronts, the fewest */
    static_assert(MAXM % (8 * NW) == 0 && MAXM <= 128, "MAXM: whole rows of fragments a warp");
    __shared__ __align__(16) T sP[MAXM * LD], sL[MAXM * LD];
    const int m = ld_early(b.m + f), k = ld_early(b.k + f), info0 = ld_early(b.info + f);
    const int ldp = ld_early(b.ldp + f), ldc0 = ld_early(b.ldc + f);
    T *P = ld_early(b.P + f), *C0 = ld_early(b.C + f);
    if (m <= lo || m > hi || k <= 0 || info0 != 0) return;
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32, g = lane / 4, q = lane % 4;
    T *C = m > k ? C0 : nullptr;
    const int ldc = m > k ? ldc0 : 0;
    auto at = [&](int r, int c) -> T * {
        return c < k ? P + r + (size_t)c * ldp : C + (r - k) + (size_t)(c - k) * ldc;
    };
    T acc[NS][2];
#pragma unroll
    for (int s = 0; s < NS; s++) {
        int fi, fj;
        slot_pos<NW, FR>(s, warp, fi, fj);
#pragma unroll
        for (int v = 0; v < 2; v++) {
            const int r = 8 * fi + g, c = 8 * fj + 2 * q + v;
            acc[s][v] = fj <= fi && r < m && c <= r ? *at(r, c) : T(0);
        }
    }
    loaded();

    int info = 0;
    for (int p = 0; PB * p < k; p++) {
        const int j0 = PB * p, jb = k - j0 < PB ? k - j0 : PB;
        /* (A) fragment column p to sP */
        const int wa = opaque(warp);
#pragma unroll
        for (int s = 0; s < NS; s++) {
            int fi, fj;
            slot_pos<NW, FR>(s, wa, fi, fj);
            const int r = 8 * fi + g;
            if (fj == p && fj <= fi && r < m)
                sP[(r - j0) * LD + 2 * q] = acc[s][0], sP[(r - j0) * LD + 2 * q + 1] = acc[s][1];
        }
        __syncthreads();
        /* (B) lanes 0–7: diagonal rows j0 + lane (below rows where lane ≥ jb);
         * lanes 8–31: rows j0 + 8 + 24·warp + lane − 8 + 24·NW·t */
        T a[RS][PB];
        int row[RS];
#pragma unroll
        for (int t = 0; t < RS; t++) {
            row[t] = lane < 8 ? (t == 0 ? j0 + lane : m) : j0 + BL * (warp + NW * t) + lane;
#pragma unroll
            for (int c = 0; c < PB; c++) a[t][c] = row[t] < m ? sP[(row[t] - j0) * LD + c] : T(0);
        }
#pragma unroll
        for (int j = 0; j < PB; j++) {
            if (j < jb && info == 0) {
                const T d = __shfl_sync(0xffffffffu, a[0][j], j);
                if (!(d > T(0))) info = j0 + j + 1; /* d came from one lane: uniform */
                const T s = rsqrt_t(d);
#pragma unroll
                for (int t = 0; t < RS; t++) a[t][j] = t == 0 && lane == j ? d * s : a[t][j] * s;
#pragma unroll
                for (int c = j + 1; c < PB; c++) {
                    const T lc = __shfl_sync(0xffffffffu, a[0][j], c); /* L(j0 + c, j0 + j) */
                    if (c < jb) {
#pragma unroll
                        for (int t = 0; t < RS; t++) a[t][c] -= a[t][j] * lc;
                    }
                }
            }
        }
        if (info) break; /* the same in every warp */
#pragma unroll
        for (int t = 0; t < RS; t++) {
            if (row[t] >= m || (lane < 8 && warp != 0)) continue;
            const bool diag = lane < jb && t == 0;
#pragma unroll
            for (int c = 0; c < PB; c++)
                sL[(row[t] - j0) * LD + c] = c < jb && (!diag || c <= lane) ? a[t][c] : T(0);
        }
        __syncthreads();
        /* (C) the update right of the panel; column p's final values */
        {
            const int wc = opaque(warp);
#pragma unroll
            for (int s = 0; s < NS; s++) {
                int fi, fj;
                slot_pos<NW, FR>(s, wc, fi, fj);
                const int r = 8 * fi + g;
                if (fj <= fi && 8 * fi < m && fj >= p) {
                    if (fj > p || jb < PB) {
                        /* rows ≥ m read sL rows no panel wrote: their products land
                         * only in entries never stored */
                        const T *pa = sL + (r - j0) * LD + q, *pb = sL + (8 * fj + g - j0) * LD + q;
                        const T a0 = lds_ordered(pa), a1 = lds_ordered(pa + 4);
                        const T b0 = lds_ordered(pb), b1 = lds_ordered(pb + 4);
                        mma_8x8x4(acc[s], -a0, b0);
                        mma_8x8x4(acc[s], -a1, b1);
                    }
                    if (fj == p && r < m) {
#pragma unroll
                        for (int v = 0; v < 2; v++)
                            if (2 * q + v < jb) acc[s][v] = sL[(r - j0) * LD + 2 * q + v];
                    }
                }
            }
        }
    }
    if (info) {
        if (threadIdx.x == 0) b.info[f] = info;
        return;
    }
    const int wd = opaque(warp);
#pragma unroll
    for (int s = 0; s < NS; s++) {
        int fi, fj;
        slot_pos<NW, FR>(s, wd, fi, fj);
#pragma unroll
        for (int v = 0; v < 2; v++) {
            const int r = 8 * fi + g, c = 8 * fj + 2 * q + v;
            if (fj <= fi && r < m && c <= r) *at(r, c) = acc[s][v];
        }
    }
}

} // namespace sylva

#endif
