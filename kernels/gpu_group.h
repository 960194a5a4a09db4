/* gpu_group.h — one group of the batching plan run on a GPU in one go: the
 * fronts level by level (one batched scatter of A's entries, one batched
 * extend-add of the children's CBs and one vbatched partial factorization
 * per level), or a large front alone through the native path. Everything a
 * group needs that depends only on the sparsity pattern is one byte blob
 * (sizes, offsets, the A-scatter and extend-add maps), built once by the
 * runtime from the plan and uploaded once; per factorization the device
 * only gets base pointers (L slice, CB pools, A's values, workspace), from
 * which a setup kernel derives every pointer array the batched kernels take.
 * No host loop per front, no allocation, no synchronization: everything is
 * queued on the caller's stream.
 *
 * The CPU twin (sylva__group_factor_cpu) reads the same blob and computes
 * the same thing with front_cpu.h, so the blob and its offsets are tested
 * without a GPU. double only (the kernels' C entry points).
 */
#ifndef SYLVA_KERNELS_GPU_GROUP_H
#define SYLVA_KERNELS_GPU_GROUP_H

#include <stddef.h>
#include <stdint.h>

#include "gpu_context.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Byte offsets of the blob's arrays (each 16-byte aligned). F fronts in
 * level order, Cc child records grouped by their parent's level. */
typedef struct sylva__group_layout {
    int64_t m, k, ldc;           /* int[F]: rows, pivots, max(1, m − k) */
    int64_t cbsel;               /* int[F]: 0 own CB pool, 1 scratch, −1 no CB */
    int64_t lofs, cbofs;         /* int64[F]: offsets (scalars) in the L slice, in the pool/scratch */
    int64_t amap_n, amap_off;    /* int64[F]: A entries of the front, first one in amap_* */
    int64_t front_id;            /* int64[F]: global front number (failure records) */
    int64_t ch_mc, ch_kp, ch_pm, ch_pldc; /* int[Cc]: CB order, parent's k, m, ldc */
    int64_t ch_parent, ch_src;   /* int[Cc]: parent's record; −1 scratch, else dep slot */
    int64_t ch_cbofs, ch_relmap; /* int64[Cc]: CB offset in its pool; first entry in relmap */
    int64_t amap_src, amap_dst;  /* int64[Σ amap_n]: A value index, offset in the front's P */
    int64_t relmap;              /* int64[Σ mc]: child CB row → parent row */
    int64_t ch_ptr;              /* int[F + 1]: front i's child records are [ch_ptr[i], ch_ptr[i + 1]) */
    int64_t ch_front;            /* int64[Cc]: the child's global front number (the tree launch's waits) */
    int64_t bytes;               /* the whole blob */
} sylva__group_layout;

/* A group as the host drives it (host memory, built once per pattern). */
typedef struct sylva__group_desc {
    int nfronts, nchildren, nlevels;
    int large;                  /* one front, factored by the native path */
    int nchild_pools;           /* dep slots (CB pools of other groups read) */
    sylva__group_layout lay;
    const int *level_ptr;       /* nlevels + 1: front records of each level */
    const int *clevel_ptr;      /* nlevels + 1: child records of each level */
    const int *level_min_m;     /* per level: the smallest m (the range entry's lower end) */
    const int *level_max_m, *level_max_k, *level_max_mc; /* per level */
    const int64_t *level_max_amap;
    int64_t scratch;            /* scalars of internal CBs */
    int64_t cb_pool;            /* scalars of the group's own CB pool */
    int64_t l_size;             /* scalars of the group's L slice */
} sylva__group_desc;

/* Bytes of workspace the group needs (pointer arrays, statuses, internal
 * CBs, and the native path's cuSOLVER workspace when large:
 * native_bytes from sylva__gpu_native_workspace_bytes for its k). */
size_t sylva__group_workspace_bytes(const sylva__group_desc *g, int64_t native_bytes);

/* Device (or, for the twin, host) memory of one run of a group. */
typedef struct sylva__group_buffers {
    const void *blob;            /* the group's blob */
    const double *A;             /* A's values */
    double *L;                   /* the group's L slice (l_size scalars) */
    double *cb_pool;             /* own CB pool (cb_pool scalars) or NULL */
    double *const *child_pools;  /* HOST array: base of the CB pool in each dep slot */
    void *work;                  /* sylva__group_workspace_bytes bytes */
    size_t work_bytes;
} sylva__group_buffers;

/* Assemble (and, when factor ≠ 0, factor) the group's fronts on the GPU of
 * ctx, queued on stream s. A front whose pivot fails is recorded in ctx's
 * failure list (sylva__gpu_context_failures); the others go on, so fronts
 * above a failure compute garbage that the caller ignores. Returns 0, or
 * SYLVA_ERR_RUNTIME (a launch or library call failed; message set) or
 * SYLVA_ERR_UNSUPPORTED (built without CUDA). */
int sylva__group_factor_gpu(sylva__gpu_context *ctx, const sylva__group_desc *g,
                            const sylva__group_buffers *b, int factor, struct CUstream_st *s);

/* The CPU twin, on host buffers: info[i] of each front record (0 or the
 * failing pivot) in b->work like the GPU's. Returns 0 or SYLVA_ERR_ARGUMENT
 * (workspace too small). */
int sylva__group_factor_cpu(const sylva__group_desc *g, const sylva__group_buffers *b, int factor);
/* After either run: the front records' statuses inside the workspace. */
const int *sylva__group_info(const sylva__group_desc *g, const void *work);

#ifdef __cplusplus
}
#endif

#endif
