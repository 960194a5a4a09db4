/* gpu_warp_potrf.cuh — Cholesky of a small diagonal block (jb ≤ NB ≤ 32) by
 * one warp in registers: lane r holds row r; column j is published in a
 * shared buffer and read back by broadcast, with __syncwarp only. Used for
 * the diagonal block of each panel by the fused and the panel kernels: the
 * column-at-a-time loop over shared memory it replaces ran one
 * load→FMA→store latency chain per entry (~2,000 cycles a column). On exit
 * lanes r < jb have written row r of L to L[r·(NB+1) + c] (c ≤ r) and
 * 1/L(r,r) to inv[r]. Returns 0 or the failing column + 1 (warp-uniform;
 * then L and inv are unspecified). `get(r, c)` reads the input entry; T is
 * the scalar type. */
#ifndef SYLVA_KERNELS_GPU_WARP_POTRF_CUH
#define SYLVA_KERNELS_GPU_WARP_POTRF_CUH

namespace sylva {

template <int NB, typename T, typename Get>
__device__ __forceinline__ int warp_potrf(Get get, int jb, T *L, T *inv, T *col)
{
    const int lane = threadIdx.x % 32;
    T a[NB];
#pragma unroll
    for (int c = 0; c < NB; c++) a[c] = lane < jb && c <= lane ? get(lane, c) : T(0);
    int info = 0;
#pragma unroll
    for (int j = 0; j < NB; j++) {
        if (j < jb && info == 0) {
            const T d = __shfl_sync(0xffffffffu, a[j], j);
            if (!(d > T(0))) info = j + 1; /* d came from one lane: uniform */
            const T s = rsqrt_t(d);
            const T l = lane == j ? d * s : a[j] * s; /* L(lane, j) */
            a[j] = l;
            if (lane < NB) col[lane] = l;
            __syncwarp();
#pragma unroll
            for (int c = j + 1; c < NB; c++)
                if (lane >= c) a[c] -= l * col[c];
            __syncwarp();
        }
    }
    if (lane < jb) {
#pragma unroll
        for (int c = 0; c < NB; c++) {
            if (c <= lane) L[lane * (NB + 1) + c] = a[c];
            if (c == lane) inv[c] = T(1) / a[c]; /* constant index: a[] stays in registers */
        }
    }
    return info;
}

} // namespace sylva

#endif
