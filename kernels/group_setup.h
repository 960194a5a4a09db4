/* group_setup.h — the workspace layout of a group run and the setup that
 * fills it from the blob and the base pointers, shared word for word by the
 * GPU setup kernel (gpu_group.cu) and the CPU twin (group_cpu.c): the same
 * offsets, the same pointer arithmetic. Plain C that nvcc also compiles as
 * host and device code. Internal to kernels/.
 *
 * Workspace: int info[F] | double *P[F], *C[F] | const int64_t *src[F],
 * *dst[F] | const double *cb[Cc] | const int64_t *rel[Cc] | double *cP[Cc],
 * *cC[Cc] | the batches' scratch (gpu_front.h's work, for the largest level;
 * one level at a time uses it) | internal CBs (scratch scalars) | native
 * cuSOLVER workspace.
 */
#ifndef SYLVA_KERNELS_GROUP_SETUP_H
#define SYLVA_KERNELS_GROUP_SETUP_H

#include <stddef.h>
#include <stdint.h>

#include "gpu_front.h"
#include "gpu_group.h"

#if defined(__CUDACC__)
#define SYLVA_HD __host__ __device__ __forceinline__
#else
#define SYLVA_HD static inline
#endif

#define SYLVA_GROUP_ALIGN 256

typedef struct sylva__group_ws {
    size_t info, P, C, src, dst, cb, rel, cP, cC, list, scratch, native, bytes;
} sylva__group_ws;

SYLVA_HD size_t sylva__ws_round(size_t x) { return (x + SYLVA_GROUP_ALIGN - 1) / SYLVA_GROUP_ALIGN * SYLVA_GROUP_ALIGN; }

SYLVA_HD void sylva__group_ws_layout(const sylva__group_desc *g, int64_t native_bytes, sylva__group_ws *w)
{
    size_t F = (size_t)g->nfronts, Cc = (size_t)g->nchildren, p = sizeof(void *), o = 0;
    w->info = o;
    o = sylva__ws_round(o + F * sizeof(int));
    w->P = o;
    o += F * p;
    w->C = o;
    o += F * p;
    w->src = o;
    o += F * p;
    w->dst = o;
    o += F * p;
    w->cb = o;
    o += Cc * p;
    w->rel = o;
    o += Cc * p;
    w->cP = o;
    o += Cc * p;
    w->cC = o;
    o += Cc * p;
    w->list = o = sylva__ws_round(o);
    o += SYLVA_FRONT_WORK_BYTES(F);
    w->scratch = o = sylva__ws_round(o);
    o = sylva__ws_round(o + (size_t)g->scratch * sizeof(double));
    w->native = o;
    o += g->large && native_bytes > 0 ? (size_t)native_bytes : 0;
    w->bytes = o;
}

#define SYLVA_BLOB(type, blob, off) ((const type *)((const char *)(blob) + (off)))
#define SYLVA_WS(type, ws, off) ((type *)((char *)(ws) + (off)))

/* Front record i: its pointers and a zero status. */
SYLVA_HD void sylva__group_setup_front(const sylva__group_layout *lay, const sylva__group_ws *w,
                                       const void *blob, void *ws, int i, double *L, double *pool)
{
    double *scratch = SYLVA_WS(double, ws, w->scratch);
    const int sel = SYLVA_BLOB(int, blob, lay->cbsel)[i];
    const int64_t cbofs = SYLVA_BLOB(int64_t, blob, lay->cbofs)[i];
    const int64_t aoff = SYLVA_BLOB(int64_t, blob, lay->amap_off)[i];
    SYLVA_WS(int, ws, w->info)[i] = 0;
    SYLVA_WS(double *, ws, w->P)[i] = L + SYLVA_BLOB(int64_t, blob, lay->lofs)[i];
    SYLVA_WS(double *, ws, w->C)[i] = sel < 0 ? (double *)0 : (sel == 0 ? pool : scratch) + cbofs;
    SYLVA_WS(const int64_t *, ws, w->src)[i] = SYLVA_BLOB(int64_t, blob, lay->amap_src) + aoff;
    SYLVA_WS(const int64_t *, ws, w->dst)[i] = SYLVA_BLOB(int64_t, blob, lay->amap_dst) + aoff;
}

/* Child record c, whose CB lies at `base` (its pool, or the scratch when
 * its source is −1) + its offset; parent pointers as the front setup makes
 * them. */
SYLVA_HD void sylva__group_setup_child(const sylva__group_layout *lay, const sylva__group_ws *w,
                                       const void *blob, void *ws, int c, const double *base,
                                       double *L, double *pool)
{
    double *scratch = SYLVA_WS(double, ws, w->scratch);
    const int p = SYLVA_BLOB(int, blob, lay->ch_parent)[c];
    const int sel = SYLVA_BLOB(int, blob, lay->cbsel)[p];
    const int64_t pcb = SYLVA_BLOB(int64_t, blob, lay->cbofs)[p];
    SYLVA_WS(const double *, ws, w->cb)[c] = base + SYLVA_BLOB(int64_t, blob, lay->ch_cbofs)[c];
    SYLVA_WS(const int64_t *, ws, w->rel)[c] =
        SYLVA_BLOB(int64_t, blob, lay->relmap) + SYLVA_BLOB(int64_t, blob, lay->ch_relmap)[c];
    SYLVA_WS(double *, ws, w->cP)[c] = L + SYLVA_BLOB(int64_t, blob, lay->lofs)[p];
    SYLVA_WS(double *, ws, w->cC)[c] = sel < 0 ? (double *)0 : (sel == 0 ? pool : scratch) + pcb;
}

#endif
