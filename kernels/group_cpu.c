/* group_cpu.c — the CPU twin of a GPU group run (gpu_group.h): the same
 * blob, the same workspace and setup (group_setup.h), then per level the
 * same scatter, extend-add and partial factorization with the CPU front
 * kernels. It exists to test the blob and the level schedule without a GPU
 * and to be the reference of the GPU run; the CPU codelets use
 * runtime/t_group_cpu.c, which needs no blob. */
#include "front_batch_cpu.h"
#include "front_cpu.h"
#include "group_setup.h"
#include "sylva.h"

size_t sylva__group_workspace_bytes(const sylva__group_desc *g, int64_t native_bytes)
{
    sylva__group_ws w;
    sylva__group_ws_layout(g, native_bytes, &w);
    return w.bytes;
}

const int *sylva__group_info(const sylva__group_desc *g, const void *work)
{
    sylva__group_ws w;
    sylva__group_ws_layout(g, 0, &w);
    return SYLVA_WS(const int, work, w.info);
}

int sylva__group_factor_cpu(const sylva__group_desc *g, const sylva__group_buffers *b, int factor)
{
    sylva__group_ws w;
    sylva__group_ws_layout(g, 0, &w);
    if (b->work_bytes < w.bytes) return SYLVA_ERR_ARGUMENT;
    const sylva__group_layout *lay = &g->lay;
    const void *blob = b->blob;
    void *ws = b->work;
    double *scratch = SYLVA_WS(double, ws, w.scratch);
    for (int64_t i = 0; i < g->l_size; i++) b->L[i] = 0;
    for (int64_t i = 0; i < g->cb_pool; i++) b->cb_pool[i] = 0;
    for (int64_t i = 0; i < g->scratch; i++) scratch[i] = 0;
    for (int i = 0; i < g->nfronts; i++)
        sylva__group_setup_front(lay, &w, blob, ws, i, b->L, b->cb_pool);
    const int *src = SYLVA_BLOB(int, blob, lay->ch_src);
    for (int c = 0; c < g->nchildren; c++) {
        const double *base = src[c] < 0 ? scratch : b->child_pools[src[c]];
        sylva__group_setup_child(lay, &w, blob, ws, c, base, b->L, b->cb_pool);
    }
    const int *m = SYLVA_BLOB(int, blob, lay->m), *k = SYLVA_BLOB(int, blob, lay->k);
    const int *ldc = SYLVA_BLOB(int, blob, lay->ldc);
    const int *mc = SYLVA_BLOB(int, blob, lay->ch_mc), *kp = SYLVA_BLOB(int, blob, lay->ch_kp);
    const int *pm = SYLVA_BLOB(int, blob, lay->ch_pm), *pldc = SYLVA_BLOB(int, blob, lay->ch_pldc);
    const int64_t *an = SYLVA_BLOB(int64_t, blob, lay->amap_n);
    int *info = SYLVA_WS(int, ws, w.info);
    double **P = SYLVA_WS(double *, ws, w.P), **C = SYLVA_WS(double *, ws, w.C);
    for (int l = 0; l < g->nlevels; l++) {
        const int f0 = g->level_ptr[l], nf = g->level_ptr[l + 1] - f0;
        const int c0 = g->clevel_ptr[l], nc = g->clevel_ptr[l + 1] - c0;
        sylva__d_scatter_add_batch_cpu(nf, an + f0, SYLVA_WS(const int64_t *, ws, w.src) + f0,
                                       SYLVA_WS(const int64_t *, ws, w.dst) + f0, b->A, P + f0);
        sylva__d_extend_add_batch_cpu(nc, mc + c0, SYLVA_WS(const double *, ws, w.cb) + c0, mc + c0,
                                      SYLVA_WS(const int64_t *, ws, w.rel) + c0, kp + c0,
                                      SYLVA_WS(double *, ws, w.cP) + c0, pm + c0,
                                      SYLVA_WS(double *, ws, w.cC) + c0, pldc + c0);
        if (factor)
            sylva__d_front_factor_batch_cpu(nf, m + f0, k + f0, P + f0, m + f0, C + f0, ldc + f0,
                                            info + f0);
    }
    return SYLVA_OK;
}
