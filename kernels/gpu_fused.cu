/* gpu_fused.cu — partial factorization of a small front (m ≤ 160) by one
 * thread block in shared memory, one launch for POTRF + TRSM + SYRK. The
 * lower triangle of the whole m × m front is loaded once, factored
 * right-looking by panels of PB columns (a column at a time inside the
 * panel), and each panel's trailing update (CB included) is a register-tiled
 * rank-PB product: every thread owns TR × TR entries of a DIM·TR square tile,
 * so shared memory is read (2·TR·PB) times per TR²·PB multiply-adds instead
 * of once per multiply-add. Written back once. Shared memory is m²·8 bytes,
 * sized by the largest m of the launch, so the dispatcher launches per
 * 32-row bucket. Fronts outside (lo, hi], empty, or with info set exit. */
#include "gpu_common.cuh"

template <int DIM, int TR, int PB>
__global__ void __launch_bounds__(DIM *DIM)
    fused_front_kernel(sylva__front_batch b, int lo, int hi)
{
    extern __shared__ double sA[];
    constexpr int NT = DIM * DIM, S = DIM * TR, NW = NT / 32;
    const int f = blockIdx.x;
    const int m = b.m[f], k = b.k[f];
    if (m <= lo || m > hi || k <= 0 || b.info[f] != 0) return;
    const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
    double *P = b.P[f];
    const int ldp = b.ldp[f];
    double *C = m > k ? b.C[f] : nullptr;
    const int ldc = m > k ? b.ldc[f] : 0;
    const int lds = m;

    for (int c = warp; c < m; c += NW)
        for (int r = (c & ~31) + lane; r < m; r += 32)
            if (r >= c)
                sA[r + c * lds] = c < k ? P[r + (size_t)c * ldp] : C[(r - k) + (size_t)(c - k) * ldc];
    __syncthreads();

    int info = 0;
    for (int j0 = 0; j0 < k && !info; j0 += PB) {
        const int t0 = j0 + PB < k ? j0 + PB : k; /* first column after the panel */
        for (int jj = j0; jj < t0; jj++) {
            double d = sA[jj + jj * lds];
            if (!(d > 0.0)) { /* every thread read the same value: uniform */
                info = jj + 1;
                break;
            }
            d = sqrt(d);
            __syncthreads(); /* all have read the diagonal before it changes */
            for (int r = jj + tid; r < m; r += NT)
                sA[r + jj * lds] = r == jj ? d : sA[r + jj * lds] / d;
            __syncthreads();
            for (int c = jj + 1 + warp; c < t0; c += NW) {
                const double lc = sA[c + jj * lds];
                for (int r = c + lane; r < m; r += 32) sA[r + c * lds] -= sA[r + jj * lds] * lc;
            }
            __syncthreads();
        }
        if (info) break;
        /* Trailing update of columns ≥ t0 (lower): reads only the panel's
         * columns, writes only later ones — no barrier between tiles. */
        const int n2 = m - t0;
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
                double acc[TR][TR];
#pragma unroll
                for (int i = 0; i < TR; i++)
#pragma unroll
                    for (int j = 0; j < TR; j++) acc[i][j] = 0.0;
                for (int t = j0; t < t0; t++) {
                    double av[TR], bv[TR];
#pragma unroll
                    for (int i = 0; i < TR; i++) {
                        av[i] = rr[i] < m ? sA[rr[i] + t * lds] : 0.0;
                        bv[i] = cc[i] < m ? sA[cc[i] + t * lds] : 0.0;
                    }
#pragma unroll
                    for (int i = 0; i < TR; i++)
#pragma unroll
                        for (int j = 0; j < TR; j++) acc[i][j] += av[i] * bv[j];
                }
#pragma unroll
                for (int i = 0; i < TR; i++)
#pragma unroll
                    for (int j = 0; j < TR; j++)
                        if (rr[i] < m && cc[j] < m && rr[i] >= cc[j])
                            sA[rr[i] + cc[j] * lds] -= acc[i][j];
            }
        }
        __syncthreads();
    }
    if (info) {
        if (tid == 0) b.info[f] = info;
        return;
    }
    for (int c = warp; c < m; c += NW)
        for (int r = (c & ~31) + lane; r < m; r += 32)
            if (r >= c) {
                if (c < k)
                    P[r + (size_t)c * ldp] = sA[r + c * lds];
                else
                    C[(r - k) + (size_t)(c - k) * ldc] = sA[r + c * lds];
            }
}

template <int DIM, int PB>
static int launch_v(const sylva__front_batch *b, int lo, int hi, cudaStream_t s)
{
    const size_t smem = (size_t)hi * hi * sizeof(double);
    auto kern = fused_front_kernel<DIM, 4, PB>;
    if (smem > 48 * 1024 &&
        cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem) !=
            cudaSuccess)
        return SYLVA_ERR_RUNTIME;
    kern<<<b->count, DIM * DIM, smem, s>>>(*b, lo, hi);
    return sylva__launch_status();
}

int sylva__launch_fused(const sylva__front_batch *b, int lo, int hi, int threads, int panel,
                        cudaStream_t s)
{
    if (hi > 160) return SYLVA_ERR_ARGUMENT;
    int rc = SYLVA_OK;
    /* 32-row buckets: a block of small fronts does not reserve the shared
     * memory of the largest. */
    for (int l = lo; l < hi && rc == SYLVA_OK;) {
        int h = (l / 32 + 1) * 32;
        if (h > hi) h = hi;
        if (threads == 64)
            rc = panel == 16 ? launch_v<8, 16>(b, l, h, s) : launch_v<8, 8>(b, l, h, s);
        else
            rc = panel == 16 ? launch_v<16, 16>(b, l, h, s) : launch_v<16, 8>(b, l, h, s);
        l = h;
    }
    return rc;
}
