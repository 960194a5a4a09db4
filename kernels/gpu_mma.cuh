/* gpu_mma.cuh — the FP64 tensor-core step (DMMA, `mma.sync.aligned.m8n8k4`,
 * sm_80 and later) the trailing updates of gpu_fused.cu and the GEMM tiles
 * of gpu_gemm.cu are built from, and the trait that says for which scalar
 * type it exists (double only: the kernels keep their SIMT form for other
 * types). One warp computes D(8 × 8) += A(8 × 4)·B(8 × 4)ᵀ; lane l, with
 * g = l / 4 and q = l % 4, supplies A(g, q) and B(g, q) (both operands
 * K-major, as an NT product reads them) and holds D(g, 2q) and D(g, 2q + 1).
 * Every lane of the warp must take part (mma.sync is warp-collective).
 * Internal to kernels/. */
#ifndef SYLVA_KERNELS_GPU_MMA_CUH
#define SYLVA_KERNELS_GPU_MMA_CUH

namespace sylva {

template <typename T> struct has_mma {
    static constexpr bool value = false;
};
template <> struct has_mma<double> {
    static constexpr bool value = true;
};

__device__ __forceinline__ void mma_8x8x4(double (&d)[2], double a, double b)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%0, %1};"
                 : "+d"(d[0]), "+d"(d[1])
                 : "d"(a), "d"(b));
#else
    /* Same fragments through shuffles (pre-sm_80 builds only). */
    const int lane = threadIdx.x % 32, g = lane / 4, q = lane % 4;
#pragma unroll
    for (int t = 0; t < 4; t++) {
        const double x = __shfl_sync(0xffffffffu, a, g * 4 + t);
        d[0] += x * __shfl_sync(0xffffffffu, b, (2 * q) * 4 + t);
        d[1] += x * __shfl_sync(0xffffffffu, b, (2 * q + 1) * 4 + t);
    }
#endif
}

} // namespace sylva

#endif
