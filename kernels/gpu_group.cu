/* gpu_group.cu — a group of the plan on the GPU (contract in gpu_group.h):
 * zero the group's L slice, CB pool and scratch; one setup kernel derives
 * every pointer array from the blob and the base pointers (group_setup.h,
 * the same code as the CPU twin's); then per level a batched scatter of A's
 * entries, a batched extend-add of the children's CBs and the vbatched
 * partial factorization — or, for a large front, the native path with the
 * worker's cuSOLVER/cuBLAS handles; last, a kernel appends each failed
 * front (front, pivot) to the worker's device failure list. All on one
 * stream; nothing waits. */
#include "gpu_common.cuh"
#include "gpu_context_impl.cuh"
#include "group_setup.h"

/* CB pool bases a setup launch carries as kernel parameters (the 4 KB
 * parameter space); groups that read more pools take several launches. */
#define SETUP_POOLS 256
#define SETUP_THREADS 256

struct pool_bases {
    const double *base[SETUP_POOLS];
};

__global__ void __launch_bounds__(SETUP_THREADS)
    group_setup_kernel(sylva__group_layout lay, sylva__group_ws w, const void *blob, void *ws,
                       int nfronts, int nchildren, double *L, double *pool, pool_bases pools,
                       int slot0, int fronts_too)
{
    const int stride = gridDim.x * blockDim.x;
    const int t0 = blockIdx.x * blockDim.x + threadIdx.x;
    if (fronts_too)
        for (int i = t0; i < nfronts; i += stride) sylva__group_setup_front(&lay, &w, blob, ws, i, L, pool);
    const int *src = SYLVA_BLOB(int, blob, lay.ch_src);
    const double *scratch = SYLVA_WS(double, ws, w.scratch);
    for (int c = t0; c < nchildren; c += stride) {
        const int s = src[c];
        if (s < 0 && fronts_too)
            sylva__group_setup_child(&lay, &w, blob, ws, c, scratch, L, pool);
        else if (s >= slot0 && s < slot0 + SETUP_POOLS)
            sylva__group_setup_child(&lay, &w, blob, ws, c, pools.base[s - slot0], L, pool);
    }
}

__global__ void group_record_kernel(const long long *front_id, const int *info, int nfronts,
                                    sylva__gpu_failures *fail)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < nfronts; i += gridDim.x * blockDim.x) {
        if (info[i] <= 0) continue;
        const int slot = atomicAdd(&fail->count, 1);
        if (slot < SYLVA__GPU_MAX_FAILURES) {
            fail->front[slot] = front_id[i];
            fail->pivot[slot] = info[i];
        }
    }
}

static unsigned blocks_for(int n) { return (unsigned)(n < 1 ? 1 : n > 64 * SETUP_THREADS ? 64 : SYLVA_DIV_UP(n, SETUP_THREADS)); }

static int setup(const sylva__group_desc *g, const sylva__group_buffers *b, const sylva__group_ws *w,
                 cudaStream_t s)
{
    const int n = g->nfronts > g->nchildren ? g->nfronts : g->nchildren;
    for (int slot0 = 0; slot0 == 0 || slot0 < g->nchild_pools; slot0 += SETUP_POOLS) {
        pool_bases pools;
        for (int i = 0; i < SETUP_POOLS; i++)
            pools.base[i] = slot0 + i < g->nchild_pools ? b->child_pools[slot0 + i] : nullptr;
        group_setup_kernel<<<blocks_for(n), SETUP_THREADS, 0, s>>>(
            g->lay, *w, b->blob, b->work, g->nfronts, g->nchildren, b->L, b->cb_pool, pools, slot0,
            slot0 == 0);
        int rc = sylva__launch_status();
        if (rc != SYLVA_OK) return rc;
    }
    return SYLVA_OK;
}

/* One level's scatter and extend-add (device arrays at the level's records). */
static int assemble_level(const sylva__group_desc *g, const sylva__group_buffers *b,
                          const sylva__group_ws *w, int l, cudaStream_t s)
{
    const sylva__group_layout *lay = &g->lay;
    const void *blob = b->blob;
    void *ws = b->work;
    const int f0 = g->level_ptr[l], nf = g->level_ptr[l + 1] - f0;
    const int c0 = g->clevel_ptr[l], nc = g->clevel_ptr[l + 1] - c0;
    sylva__scatter_batch sb = {nf,
                               SYLVA_BLOB(int64_t, blob, lay->amap_n) + f0,
                               SYLVA_WS(const int64_t *, ws, w->src) + f0,
                               SYLVA_WS(const int64_t *, ws, w->dst) + f0,
                               b->A,
                               SYLVA_WS(double *, ws, w->P) + f0};
    int rc = sylva__gpu_scatter_add_vbatched_max_nocheck(&sb, g->level_max_amap[l], s);
    if (rc != SYLVA_OK || nc == 0) return rc;
    const int *mc = SYLVA_BLOB(int, blob, lay->ch_mc) + c0;
    sylva__extend_add_batch eb = {nc,
                                  mc,
                                  SYLVA_WS(const double *, ws, w->cb) + c0,
                                  mc,
                                  SYLVA_WS(const int64_t *, ws, w->rel) + c0,
                                  SYLVA_BLOB(int, blob, lay->ch_kp) + c0,
                                  SYLVA_WS(double *, ws, w->cP) + c0,
                                  SYLVA_BLOB(int, blob, lay->ch_pm) + c0,
                                  SYLVA_WS(double *, ws, w->cC) + c0,
                                  SYLVA_BLOB(int, blob, lay->ch_pldc) + c0};
    return sylva__gpu_extend_add_vbatched_max_nocheck(&eb, g->level_max_mc[l], s);
}

extern "C" int sylva__group_factor_gpu(sylva__gpu_context *ctx, const sylva__group_desc *g,
                                       const sylva__group_buffers *b, int factor, cudaStream_t s)
{
    sylva__group_ws w;
    sylva__group_ws_layout(g, 0, &w);
    if (b->work_bytes < w.bytes)
        return sylva__fail(SYLVA_ERR_RUNTIME, "group workspace of %zu bytes, %zu needed",
                           b->work_bytes, w.bytes);
    const sylva__group_layout *lay = &g->lay;
    void *ws = b->work;
    int rc = sylva__gpu_zero(b->L, (size_t)g->l_size * sizeof(double), s);
    if (rc == SYLVA_OK && b->cb_pool)
        rc = sylva__gpu_zero(b->cb_pool, (size_t)g->cb_pool * sizeof(double), s);
    if (rc == SYLVA_OK)
        rc = sylva__gpu_zero(SYLVA_WS(char, ws, w.scratch), (size_t)g->scratch * sizeof(double), s);
    if (rc == SYLVA_OK) rc = setup(g, b, &w, s);
    const int *m = SYLVA_BLOB(int, b->blob, lay->m), *k = SYLVA_BLOB(int, b->blob, lay->k);
    const int *ldc = SYLVA_BLOB(int, b->blob, lay->ldc);
    int *info = SYLVA_WS(int, ws, w.info);
    for (int l = 0; l < g->nlevels && rc == SYLVA_OK; l++) {
        rc = assemble_level(g, b, &w, l, s);
        if (rc != SYLVA_OK || !factor) continue;
        const int f0 = g->level_ptr[l], nf = g->level_ptr[l + 1] - f0;
        if (g->large) {
            /* One front: its P is the whole slice, its CB the whole pool. */
            const int fm = g->level_max_m[l], fk = g->level_max_k[l];
            rc = sylva__gpu_front_factor_native(ctx->solver, ctx->blas, fm, fk, b->L, fm, b->cb_pool,
                                                fm > fk ? fm - fk : 1, SYLVA_WS(char, ws, w.native),
                                                (int64_t)(b->work_bytes - w.native), info,
                                                &ctx->tuning, s);
            if (rc != SYLVA_OK) {
                char msg[256];
                snprintf(msg, sizeof msg, "%s", sylva__last_error());
                rc = sylva__fail(rc, "native factorization of a front of %d rows, %d pivots: %s", fm, fk, msg);
            }
        } else {
            sylva__front_batch fb = {nf, m + f0, k + f0, SYLVA_WS(double *, ws, w.P) + f0, m + f0,
                                     SYLVA_WS(double *, ws, w.C) + f0, ldc + f0, info + f0,
                                     SYLVA_WS(int, ws, w.list)};
            /* The level's smallest m too: no launch for classes below it. */
            rc = sylva__gpu_front_factor_vbatched_range_nocheck(&fb, g->level_min_m[l],
                                                                g->level_max_m[l],
                                                                g->level_max_k[l], &ctx->tuning, s);
        }
    }
    if (rc == SYLVA_OK && factor) {
        group_record_kernel<<<blocks_for(g->nfronts), SETUP_THREADS, 0, s>>>(
            SYLVA_BLOB(long long, b->blob, lay->front_id), info, g->nfronts, ctx->failures);
        rc = sylva__launch_status();
    }
    return rc;
}

extern "C" int64_t sylva__gpu_context_native_bytes(sylva__gpu_context *ctx, int k)
{
    /* The size query reads no entry, but is given a real device pointer. */
    double *probe = nullptr;
    if (cudaMalloc((void **)&probe, 256) != cudaSuccess) return -1;
    int64_t bytes = sylva__gpu_native_workspace_bytes(ctx->solver, k, probe, k > 1 ? k : 1,
                                                      &ctx->tuning);
    cudaFree(probe);
    return bytes;
}
