/* gpu_fused.cuh — the partial factorization of one front held in shared
 * memory by one thread block: the core of the fused kernel (gpu_fused.cu)
 * and of the tree launch (gpu_tree.cu), which differ only in how the front
 * gets into shared memory (a copy of P and C, or the assembly itself).
 *
 * The front is the lower triangle of m × m scalars in packed column-major
 * storage (pk below). fused_factor_packed factors its first k columns and
 * updates the rest (the CB) in place, right-looking by panels of PB
 * columns — warp 0 factors the panel's diagonal block in registers, all
 * threads solve the rows below it, and the trailing update is
 * register-tiled (TR × TR per thread), or with MMA on FP64 tensor cores
 * with look-ahead (gpu_fused.cu's header tells the details). Called by
 * every thread of a DIM × DIM block with block-uniform m and k, after the
 * front is in shared memory and before any barrier-free use of it;
 * loaded() runs in every thread after the first barrier. Returns 0, or the
 * 1-based column of the front whose pivot failed (the same value in every
 * thread). fused_store_packed writes the factored front back: columns < k
 * to P (ld ldp), the rest to C (ld ldc), lower triangles only. */
#ifndef SYLVA_KERNELS_GPU_FUSED_CUH
#define SYLVA_KERNELS_GPU_FUSED_CUH

#include "gpu_common.cuh"
#include "gpu_mma.cuh"
#include "gpu_warp_potrf.cuh"

namespace sylva {

/* Packed lower storage: column c holds rows c..m−1; (r, c) is at pk(c) + r. */
__device__ __forceinline__ int pk(int c, int m) { return c * (2 * m - c - 1) / 2; }

template <typename T, int DIM, int TR, int PB, bool MMA, typename F>
__device__ __forceinline__ int fused_factor_packed(T *sA, int m, int k, F loaded)
{
    __shared__ int s_info;
    __shared__ T sD[PB * (PB + 1)], sInv[PB], sCol[32];
    constexpr int NT = DIM * DIM, S = DIM * TR, NW = NT / 32;
    constexpr bool LA = MMA && has_mma<T>::value; /* DMMA update with look-ahead */
    const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
    if (tid == 0) s_info = 0;
    __syncthreads();
    loaded();

    for (int j0 = 0; j0 < k; j0 += PB) {
        const int t0 = j0 + PB < k ? j0 + PB : k; /* first column after the panel */
        const int jb = t0 - j0;
        /* (1) the panel's diagonal block by warp 0 in registers (with MMA,
         * after the first panel, already done by the previous panel's
         * look-ahead); */
        if (!LA || j0 == 0) {
            if (warp == 0) {
                const int bad = warp_potrf<PB>(
                    [&](int r, int c) { return sA[pk(j0 + c, m) + j0 + r]; }, jb, sD, sInv, sCol);
                if (bad && lane == 0) s_info = j0 + bad;
            }
            __syncthreads();
        }
        if (s_info) break;
        /* (2) every other row of the panel solved against it, a row per
         * thread in registers (loads, then FMAs, then stores); the block's
         * own rows are written back from sD. */
        for (int r = j0 + tid; r < m; r += NT) {
            T x[PB];
            if (r < t0) {
#pragma unroll
                for (int c = 0; c < PB; c++)
                    if (c <= r - j0 && c < jb) sA[pk(j0 + c, m) + r] = sD[(r - j0) * (PB + 1) + c];
                continue;
            }
#pragma unroll
            for (int c = 0; c < PB; c++) x[c] = c < jb ? sA[pk(j0 + c, m) + r] : T(0);
            /* An opaque zero: without it the compiler hoists all PB(PB+1)/2
             * loads of sD out of the row loop into registers, and spills. */
            int z;
            asm volatile("mov.u32 %0, 0;" : "=r"(z));
            const T *Lb = sD + z;
#pragma unroll
            for (int c = 0; c < PB; c++) {
                T sum = x[c];
#pragma unroll
                for (int t = 0; t < c; t++) sum -= x[t] * Lb[c * (PB + 1) + t];
                x[c] = sum * sInv[c];
            }
#pragma unroll
            for (int c = 0; c < PB; c++)
                if (c < jb) sA[pk(j0 + c, m) + r] = x[c];
        }
        __syncthreads();
        /* Trailing update of columns ≥ t0 (lower): reads only the panel's
         * columns, writes only later ones — no barrier between tiles. */
        const int n2 = m - t0;
        if constexpr (LA) {
            /* 16 × 16 blocks of the lower trailing triangle, numbered row by
             * row (blk = bi(bi+1)/2 + bj). Warp 0 takes block 0, which holds
             * the next panel's diagonal block, and then factors that block
             * (look-ahead) while the other warps update the rest. */
            const int g = lane / 4, q = lane % 4, nb = SYLVA_DIV_UP(n2, 16);
            auto update = [&](int blk) {
                int bi = (int)((sqrtf(8.0f * blk + 1.0f) - 1.0f) * 0.5f);
                while (bi * (bi + 1) / 2 > blk) bi--;
                while ((bi + 1) * (bi + 2) / 2 <= blk) bi++;
                const int R0 = t0 + 16 * bi, C0 = t0 + 16 * (blk - bi * (bi + 1) / 2);
                T acc[2][2][2];
#pragma unroll
                for (int i = 0; i < 2; i++)
#pragma unroll
                    for (int j = 0; j < 2; j++) acc[i][j][0] = acc[i][j][1] = T(0);
#pragma unroll
                for (int kk = 0; kk < PB; kk += 4) {
                    const int t = j0 + kk + q; /* this lane's k index */
                    const bool tv = t < t0;
                    const int ot = tv ? pk(t, m) : 0;
                    T a[2], bb[2];
#pragma unroll
                    for (int i = 0; i < 2; i++) {
                        const int r = R0 + 8 * i + g, c = C0 + 8 * i + g;
                        a[i] = tv && r < m ? sA[ot + r] : T(0);
                        bb[i] = tv && c < m ? sA[ot + c] : T(0);
                    }
#pragma unroll
                    for (int i = 0; i < 2; i++)
#pragma unroll
                        for (int j = 0; j < 2; j++) mma_8x8x4(acc[i][j], a[i], bb[j]);
                }
#pragma unroll
                for (int j = 0; j < 2; j++)
#pragma unroll
                    for (int v = 0; v < 2; v++) {
                        const int c = C0 + 8 * j + 2 * q + v;
                        if (c >= m) continue;
                        const int oc = pk(c, m);
#pragma unroll
                        for (int i = 0; i < 2; i++) {
                            const int r = R0 + 8 * i + g;
                            if (r < m && r >= c) sA[oc + r] -= acc[i][j][v];
                        }
                    }
            };
            if (warp == 0) {
                if (n2 > 0) update(0);
                if (t0 < k) {
                    __syncwarp();
                    const int jn = k - t0 < PB ? k - t0 : PB;
                    const int bad = warp_potrf<PB>(
                        [&](int r, int c) { return sA[pk(t0 + c, m) + t0 + r]; }, jn, sD, sInv,
                        sCol);
                    if (bad && lane == 0) s_info = t0 + bad;
                }
            } else {
                for (int blk = warp; blk < nb * (nb + 1) / 2; blk += NW - 1) update(blk);
            }
            __syncthreads();
            continue;
        }
        const int nt = SYLVA_DIV_UP(n2, S);
        const int tx = tid % DIM, ty = tid / DIM;
        for (int ti = 0; ti < nt; ti++) {
            for (int tj = 0; tj <= ti; tj++) {
                int rr[TR], cc[TR];
#pragma unroll
                for (int i = 0; i < TR; i++) {
                    rr[i] = t0 + ti * S + tx + DIM * i;
                    cc[i] = t0 + tj * S + ty + DIM * i;
                }
                T acc[TR][TR];
#pragma unroll
                for (int i = 0; i < TR; i++)
#pragma unroll
                    for (int j = 0; j < TR; j++) acc[i][j] = T(0);
#pragma unroll 2 /* fully unrolled, the loads of all PB steps were hoisted: spills */
                for (int t = j0; t < t0; t++) {
                    const int ot = pk(t, m);
                    T av[TR], bv[TR];
#pragma unroll
                    for (int i = 0; i < TR; i++) {
                        av[i] = rr[i] < m ? sA[ot + rr[i]] : T(0);
                        bv[i] = cc[i] < m ? sA[ot + cc[i]] : T(0);
                    }
#pragma unroll
                    for (int i = 0; i < TR; i++)
#pragma unroll
                        for (int j = 0; j < TR; j++) acc[i][j] += av[i] * bv[j];
                }
#pragma unroll
                for (int j = 0; j < TR; j++) {
                    if (cc[j] >= m) continue;
                    const int oc = pk(cc[j], m);
#pragma unroll
                    for (int i = 0; i < TR; i++)
                        if (rr[i] < m && rr[i] >= cc[j]) sA[oc + rr[i]] -= acc[i][j];
                }
            }
        }
        __syncthreads();
    }
    return s_info;
}

template <typename T, int DIM>
__device__ __forceinline__ void fused_store_packed(const T *sA, int m, int k, T *P, int ldp, T *C, int ldc)
{
    constexpr int NW = DIM * DIM / 32;
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    for (int c = warp; c < m; c += NW) {
        const int o = pk(c, m);
        for (int r = c + lane; r < m; r += 32) {
            if (c < k)
                P[r + (size_t)c * ldp] = sA[o + r];
            else
                C[(r - k) + (size_t)(c - k) * ldc] = sA[o + r];
        }
    }
}

} // namespace sylva

#endif
