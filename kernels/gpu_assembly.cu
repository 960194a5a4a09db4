/* gpu_assembly.cu — batched assembly on the GPU over index maps built at
 * analysis: scatter-add of A's entries into fronts, and extend-add of child
 * CBs into parents (semantics of front_cpu.h). grid.x = batch entry, grid.y
 * = chunks of the entry's work (capped, looped). Adds are atomicAdd so that
 * children of one parent may share a launch; with distinct targets the result
 * is bitwise the CPU twin's. Written once for any scalar type T. */
#include "gpu_common.cuh"

namespace sylva {

template <typename T> __global__ void __launch_bounds__(256) scatter_kernel(scatter_batch<T> b)
{
    const int e = blockIdx.x;
    const int64_t n = b.n[e];
    const int64_t *src = b.src[e], *dst = b.dst[e];
    T *out = b.out[e];
    for (int64_t i = (int64_t)blockIdx.y * blockDim.x + threadIdx.x; i < n;
         i += (int64_t)gridDim.y * blockDim.x)
        atomicAdd(out + dst[i], b.values[src[i]]);
}

template <typename T> __global__ void __launch_bounds__(256) extend_add_kernel(extend_add_batch<T> b)
{
    const int e = blockIdx.x;
    const int mc = b.mc[e];
    if (mc <= 0) return;
    const T *cb = b.cb[e];
    const int64_t *rel = b.relmap[e];
    const int ldcb = b.ldcb[e], kp = b.kp[e], ldp = b.ldp[e], ldc = b.ldc[e];
    T *P = b.P[e], *C = b.C[e];
    const int tx = threadIdx.x % 32, ty = threadIdx.x / 32;
    for (int j = blockIdx.y * 8 + ty; j < mc; j += gridDim.y * 8) {
        const int64_t pj = rel[j];
        const T *col = cb + (size_t)j * ldcb;
        /* Rows of a column at or past kp are all ≥ kp too (relmap grows). */
        T *dst = pj < kp ? P + pj * ldp : C + (pj - kp) * ldc - kp;
        for (int i = (j & ~31) + tx; i < mc; i += 32)
            if (i >= j) atomicAdd(dst + rel[i], col[i]);
    }
}

template <typename T> static int scatter_add(const scatter_batch<T> &b, int64_t max_n, cudaStream_t s)
{
    if (b.count <= 0 || max_n <= 0) return SYLVA_OK;
    int64_t chunks = SYLVA_DIV_UP(max_n, 256);
    dim3 grid(b.count, (unsigned)(chunks < 256 ? chunks : 256));
    scatter_kernel<T><<<grid, 256, 0, s>>>(b);
    return sylva__launch_status();
}

template <typename T>
static int extend_add(const extend_add_batch<T> &b, int max_mc, cudaStream_t s)
{
    if (b.count <= 0 || max_mc <= 0) return SYLVA_OK;
    int chunks = SYLVA_DIV_UP(max_mc, 8);
    dim3 grid(b.count, chunks < 128 ? chunks : 128);
    extend_add_kernel<T><<<grid, 256, 0, s>>>(b);
    return sylva__launch_status();
}

} // namespace sylva

extern "C" int sylva__gpu_scatter_add_vbatched_max_nocheck(const sylva__scatter_batch *b,
                                                           int64_t max_n, cudaStream_t s)
{
    return sylva::scatter_add(sylva::mirror(*b), max_n, s);
}

extern "C" int sylva__gpu_extend_add_vbatched_max_nocheck(const sylva__extend_add_batch *b,
                                                          int max_mc, cudaStream_t s)
{
    return sylva::extend_add(sylva::mirror(*b), max_mc, s);
}
