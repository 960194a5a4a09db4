/* gpu_solve.h — the triangular solves L y = b, Lᵀ x = y on a GPU in two
 * launches per direction (the top of the tree, the rest), driven by the
 * assembly tree's dependencies rather than by its levels. The work of each
 * front is cut into items (below): a small front is one item, a larger one
 * is split into triangle items (32 pivot rows each, 64 on the top, solved
 * one after another as their inputs arrive) and
 * update items (L21 products over chunks of rows and pivots). Items are
 * listed by an estimated start, so every item comes after those it needs;
 * the launch's blocks take items in that order from an atomic ticket and
 * wait, on per-front counters in device memory, until what an item needs
 * is done (a child's updates of its rows, the earlier triangle items of
 * its front, its parent in the backward sweep). A block only waits for
 * items with lower tickets, taken by blocks already running, so the sweep
 * always progresses. Updates of ancestors' rows are atomic adds (fronts
 * may share ancestor rows). The right-hand side is an n × nrhs block in the permuted
 * numbering on the device (permute kernels bring it from and to the user's
 * numbering), plus the residual, update and backward-error kernels of
 * iterative refinement. Every per-pattern array is one blob built once per
 * analysis (runtime/gpu_solve_plan.c, items by solve_items.c) and uploaded
 * once; per solve the device gets only the base pointers of the factor's L
 * slices, from which a setup kernel makes every front's pointer.
 * Everything is queued on the caller's stream; only sylva__gpu_copy_to_host
 * waits. double precision (the GPU factor's).
 *
 * The CPU twin (sylva__solve_items_cpu) runs the same blob's items in their
 * list order with the same arithmetic per item, so CI tests the blob and
 * the item lists without a GPU. Without CUDA every GPU call answers
 * SYLVA_ERR_UNSUPPORTED (gpu_no_cuda.c).
 */
#ifndef SYLVA_KERNELS_GPU_SOLVE_H
#define SYLVA_KERNELS_GPU_SOLVE_H

#include <stddef.h>
#include <stdint.h>

#include "gpu_context.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How a front's work is cut into items. A front of at most FOLD_K pivots
 * and FOLD_R CB rows is one item. Otherwise: triangle items of TB pivot
 * rows; forward update items of UR CB rows × UK pivots; backward update
 * items of BK pivots × BR CB rows. Smaller update items (UK = 64, BR =
 * 128, measured in v6, docs/perf-log.md) end a level's forward update
 * wave ~15 µs after its chain instead of ~90 µs (lap3d7:60 forward 1.9
 * → 1.6 ms), but waiting on their chains they hold more of the resident
 * blocks: lap3d7:100 took 16.3 → 19.3 ms (17.6 with UK = 64 alone) and
 * every 64-column solve was slower. SYLVA_SOLVE_FOLD=K in the environment
 * when the lists are made lowers the pivot bound (LEAF_K to FOLD_K): at
 * 32 one column took 1–3% less on four benchmark matrices and 12% more on
 * bcsstk13, 64 columns the other way round (v21), so the default stays. */
#define SYLVA_SOLVE_FOLD_K 96
#define SYLVA_SOLVE_FOLD_R 512
#define SYLVA_SOLVE_TB 32
#define SYLVA_SOLVE_UR 256
#define SYLVA_SOLVE_UK 256
#define SYLVA_SOLVE_BK 32
#define SYLVA_SOLVE_BR 512
/* The top of the tree (SYLVA_SOLVE_TOP=K in the environment when the lists
 * are made overrides the default; 0: none): the split fronts of at least
 * K pivots and their ancestors. Each sweep is two launches: the bottom in
 * the kernel above, the top in a kernel of its own at 3 blocks an SM
 * (registers for 64-row items without spills), whose triangle items are
 * TOP_TB pivot rows (a chain of half as many steps, each about as long).
 * The forward list gives the bottom's items, then the top's; the backward
 * list the top's, then the bottom's (ntop_f, ntop_b of them). The default
 * crossover is the fastest one-column solve of 128, 256, 512, 1,024 and
 * 4,096 on five matrices (H100, docs/perf-log.md v10), moved down to 96
 * once the top's items got faster (of 64, 96, 128 and 192, H100: 96 took
 * 0.96–1.00 of 128 on four matrices and 1.004 on bcsstk13; v20, v21);
 * the lower ones put the middle's chains on 64-row steps too. */
#define SYLVA_SOLVE_TOP_TB 64
#define SYLVA_SOLVE_TOP_DEFAULT 96
/* Backward, every top front with update items waits by pivot chunk: its
 * update items are listed by BK-pivot chunk (every CB row chunk), the last
 * pivots' first, each one step before the triangle item of its pivots,
 * which waits for its own pivots' chunks only (pdone counters,
 * gpu_solve_flow.cu), so its chain starts after one chunk's updates, not
 * after the front's whole wave. The bottom's fronts list their update
 * items at the front's start and their triangle items wait for them all.
 * Measured 5–6% faster on lap3d7:100 (many top chains side by side; the
 * largest fronts' waves several rounds of the top grid's resident blocks)
 * and from 1.1% faster to 2.6% slower on the other four (docs/perf-log.md
 * v13–v15); a threshold on the update items (v14) took only the long waves
 * and lost most of the gain. */
/* A ticket per launch of a sweep (the bottom's, the top's), ahead of the
 * counters in the workspace. */
#define SYLVA_SOLVE_TICKETS 2
/* Right-hand sides per column chunk: each chunk runs through the items with
 * counters of its own (a block of as many warps: one per column on a
 * diagonal block). */
#define SYLVA_SOLVE_COLS 4
/* How a sweep's chain steps synchronize (bits; SYLVA_SOLVE_STEP=N in the
 * environment overrides the default, for measurements): OWN, a triangle
 * item stages its own rows of the right-hand side in shared memory before
 * it waits, so its step on the chain does not wait for an L2 load of
 * them; SYNC, counters polled with acquire loads and counted with release
 * adds by one thread after a barrier, instead of full fences by every
 * thread. Both: lap3d7:60's forward root chain 4.0 → 3.4 µs a step; the
 * solve's kernels 2–6% faster on the four large matrices (docs/perf-log.md,
 * v6). */
#define SYLVA_SOLVE_STEP_OWN 1
#define SYLVA_SOLVE_STEP_SYNC 2
#define SYLVA_SOLVE_STEP_DEFAULT (SYLVA_SOLVE_STEP_OWN | SYLVA_SOLVE_STEP_SYNC)
/* A waiting block's sleep between polls of a counter (ns): from MIN,
 * doubling up to MAX (SYLVA_SOLVE_POLL=MIN,MAX overrides, for
 * measurements). Longer sleeps did not shorten the chains' steps (32,512:
 * the same; 32,4096: 3–8% slower; v6): the polls are not what loads them. */
#define SYLVA_SOLVE_POLL_MIN 32
#define SYLVA_SOLVE_POLL_MAX 32
/* Which sweeps' second launch may overlap the first (gpu_solve_flow.cu;
 * bits: 1 forward, 2 backward; SYLVA_SOLVE_OVERLAP=N in the environment
 * overrides, 0 launches them one after the other). Both: 1–8% faster than
 * backward alone on the five benchmark matrices (docs/perf-log.md, v20). */
#define SYLVA_SOLVE_OVERLAP_DEFAULT 3
/* An item is two ints: the front record, then kind << 24 | index. FOLD:
 * the whole front. TRI: triangle block `index`. UPD: update chunk `index`
 * (forward: row chunk · ceil(k/UK) + pivot chunk; backward: pivot chunk ·
 * ceil(r/BR) + row chunk). LEAF: `index` small leaves, whole, from this
 * record on (below). */
enum { SYLVA_SOLVE_FOLD = 0, SYLVA_SOLVE_TRI = 1, SYLVA_SOLVE_UPD = 2, SYLVA_SOLVE_LEAF = 3 };
/* Small leaves (no children, at most LEAF_M rows and LEAF_K pivots) that
 * are consecutive records (the leaves are level 0) go LEAF_DEFAULT to an
 * item (SYLVA_SOLVE_LEAF=G in the environment when the lists are made
 * overrides, at most LEAF_MAX; 0 or 1: a FOLD item each), a warp a leaf
 * and a lane a row. Most fronts of a nested-dissection tree are such
 * leaves (lap2d5:1000: 136,708 of its 182,522 fronts, 106,344 of them of
 * one pivot and at most 8 rows; lap3d7:60: 42,216 of 49,992), and as FOLD
 * items each took a ticket, its waits and its signal per column chunk, a
 * block's item latency for a few dozen flops. The default group is the
 * fastest of 8, 16 and 32 (16 and 32 within 1%; docs/perf-log.md v21). */
#define SYLVA_SOLVE_LEAF_M 32
#define SYLVA_SOLVE_LEAF_K 8
#define SYLVA_SOLVE_LEAF_DEFAULT 16
#define SYLVA_SOLVE_LEAF_MAX 64
#define SYLVA_SOLVE_ITEM(kind, index) ((kind) << 24 | (index))
#define SYLVA_SOLVE_KIND(code) ((code) >> 24)
#define SYLVA_SOLVE_INDEX(code) ((code) & 0xffffff)

/* Byte offsets of the solve blob's arrays (16-byte aligned); F fronts in
 * level order (by height, so children come before their parents). */
typedef struct sylva__solve_layout {
    int64_t m, k;   /* int[F]: rows, pivots */
    int64_t large;  /* int[F]: 1 when the factorization's native path made the front */
    int64_t group;  /* int[F]: the plan group whose L slice holds it */
    int64_t parent; /* int[F]: the parent's record, −1 for a root */
    int64_t nchild; /* int[F]: children */
    int64_t nt;     /* int[F]: triangle items, 0 for a folded front */
    int64_t nuf, nub; /* int[F]: forward and backward update items */
    int64_t fitems, bitems; /* int[2 · nitems_*]: the items of each sweep, in order */
    int64_t col;    /* int64[F]: first pivot column (permuted numbering) */
    int64_t lofs;   /* int64[F]: offset (scalars) of its columns in its group's slice */
    int64_t rofs;   /* int64[F]: its first CB row in `rows` */
    int64_t rows;   /* int64[Σ (m − k)]: CB rows (permuted numbering) */
    int64_t perm;   /* int64[n]: permuted → user's numbering */
    int64_t bytes;  /* the whole blob */
} sylva__solve_layout;

/* The solve as the host drives it (host memory, built once per pattern). */
typedef struct sylva__solve_desc {
    int64_t n;
    int nfronts, nlevels, ngroups;
    int nitems_f, nitems_b;    /* items of the forward and the backward sweep */
    int ntop_f, ntop_b;        /* of them the top's (SYLVA_SOLVE_TOP): the forward list's last, the backward's first */
    sylva__solve_layout lay;
    const void *host_blob;     /* the blob's host copy */
    const int *level_ptr;      /* nlevels + 1: front records of each level */
    int64_t max_cb_rows;       /* largest m − k of any front (the CPU twin's workspace) */
} sylva__solve_desc;

/* Items of F fronts (m, k, parent record; records children first): fills
 * nt, nuf, nub, the counts (the top's too) and, when fitems is not NULL,
 * both item lists (2 ints per item; room for the counts a first call with
 * NULL lists returned), each ordered by phase (the bottom, then the top
 * forward; the top, then the bottom backward) and by estimated start
 * (solve_items.c). Fails with
 * SYLVA_ERR_UNSUPPORTED when a front needs more than 2^24 items or the
 * lists more than INT_MAX / 2, SYLVA_ERR_NO_MEMORY. */
int sylva__solve_items(int F, const int *m, const int *k, const int *parent, int *nt, int *nuf, int *nub,
                       int *fitems, int *bitems, int *nitems_f, int *nitems_b, int *ntop_f, int *ntop_b);

/* A's full pattern (permuted, both triangles; frontal.h's
 * sylva__full_pattern) as device arrays, for the residual. */
typedef struct sylva__solve_pattern {
    int64_t n;
    const int64_t *rowptr, *colind, *valind;
} sylva__solve_pattern;

/* Workspace of one solve of nrhs columns (offsets in bytes): the fronts' L
 * pointers, the groups' base pointers, each sweep's counters (flow: the
 * forward's, flowb: the backward's right after it, so that one launch
 * zeroes both: every int from flow up to bad; two
 * tickets, three ints per front and column chunk, and the backward top's
 * per pivot chunk: n ints per column chunk, the entry of a chunk's first
 * pivot), the pivot check's results (an
 * int and a double per front record, then two doubles per front record:
 * plo and phi, its smallest and largest pivot), the permuted solution x (n × nrhs,
 * ld n) and, with refinement, the permuted right-hand side b, the residual
 * r, the correction d and the per-column backward errors; stage: the block as the caller's host
 * arrays hold it (n × nrhs, ld n), copied in and out by the task. */
typedef struct sylva__solve_ws {
    size_t Lp, gbase, flow, flowb, bad, badval, plo, phi, x, b, r, d, omega, stage, bytes;
} sylva__solve_ws;
void sylva__solve_ws_layout(const sylva__solve_desc *d, int64_t nrhs, int refine, sylva__solve_ws *w);

/* The device memory of one solve. */
typedef struct sylva__solve_bufs {
    const void *blob;         /* the solve blob (device) */
    double *const *group_L;   /* HOST array: device base of each plan group's L slice */
    void *work;               /* ws.bytes of device memory */
    sylva__solve_ws ws;       /* its layout (sylva__solve_ws_layout) */
    unsigned long long *trace[2]; /* NULL, or each sweep's trace (sylva__gpu_solve_trace_begin) */
} sylva__solve_bufs;

/* A diagnostic: when trace is set, each sweep records per ticket the
 * global timer (ns) when a block took it, when what it waits for had
 * arrived, when it was counted done, and the SM and block; begin
 * allocates the device buffers for nrhs columns, end waits for the stream,
 * writes one line per ticket to `path` (sweep, ticket, front record, m, k,
 * kind, index, chunk, the three times in ns from the first, SM, block,
 * then the front's parent record, triangle items, this sweep's update
 * items and 1 when the item is the top launch's; a LEAF item's ticket a
 * line per leaf, its place in the item as the index) and frees them. Costs an
 * allocation and a copy: never on a timed path. */
int sylva__gpu_solve_trace_begin(const sylva__solve_desc *d, int64_t nrhs, sylva__solve_bufs *b);
int sylva__gpu_solve_trace_end(const sylva__solve_desc *d, sylva__solve_bufs *b, int64_t nrhs, const char *path,
                               struct CUstream_st *s);

/* The fronts' L pointers in b->work from b->group_L (queued). */
int sylva__gpu_solve_setup(const sylva__solve_desc *d, const sylva__solve_bufs *b, struct CUstream_st *s);
/* X (n × nrhs, ld n, permuted) ← L⁻¹ X; then, backward, ← L⁻ᵀ X. The
 * workspace must have been laid out for at least nrhs columns. zeroed:
 * the sweep's counters are zero already (sylva__gpu_solve_begin since the
 * last sweep of that direction), else the sweep zeroes them. */
int sylva__gpu_solve_forward(const sylva__solve_desc *d, const sylva__solve_bufs *b, int64_t nrhs, double *X,
                             int zeroed, struct CUstream_st *s);
int sylva__gpu_solve_backward(const sylva__solve_desc *d, const sylva__solve_bufs *b, int64_t nrhs, double *X,
                              int zeroed, struct CUstream_st *s);
/* For every front record i (level order): bad[i] = the first of its pivots
 * (diagonal entries of L11) that is not finite and positive, −1 if none,
 * and badval[i] = that pivot, or when there is none the sum of the natural
 * logarithms of the front's pivots and lo[i], hi[i] its smallest and
 * largest pivot (+inf and 0 for a front with a failing pivot); in the
 * workspace (ws.bad, ws.badval, ws.plo, ws.phi). */
int sylva__gpu_solve_pivots(const sylva__solve_desc *d, const sylva__solve_bufs *b,
                            struct CUstream_st *s);
/* The same on the host (solve_pivots_cpu.c, the twin): the blob on the
 * host, group_L the host bases of the L slices; bad, badval, lo and hi
 * arrays of d->nfronts. The log sums may differ from the GPU's by
 * rounding (another order of the additions); the rest is exact. */
void sylva__solve_pivots_cpu(const sylva__solve_desc *d, const void *blob, double *const *group_L, int *bad,
                             double *badval, double *lo, double *hi);
/* The extremes over the records of a pivot check (either of the above):
 * *lo and *hi the smallest and largest pivot of the fronts; returns 1 when
 * no front has a failing pivot (else 0, and *lo, *hi cover the others). */
int sylva__solve_pivot_extremes(int nfronts, const int *bad, const double *lo, const double *hi, double *min,
                                double *max);

/* to_permuted: X[i] = B[perm[i]]; else B[perm[i]] = X[i] (nrhs columns;
 * X ld n, B ld ldb). */
int sylva__gpu_solve_permute(const sylva__solve_desc *d, const sylva__solve_bufs *b, int to_permuted,
                             int64_t nrhs, double *B, int64_t ldb, double *X, struct CUstream_st *s);
/* The start of a solve in one launch: X[i] = B[perm[i]] (as the permute's
 * to_permuted) and both sweeps' counters zeroed, so that the sweeps run
 * with `zeroed` (two resets fewer a solve: docs/perf-log.md, "The solve,
 * v24"). */
int sylva__gpu_solve_begin(const sylva__solve_desc *d, const sylva__solve_bufs *b, int64_t nrhs, double *B,
                           int64_t ldb, double *X, struct CUstream_st *s);
/* R = B − A X and omega[c] = the componentwise backward error of column c
 * (residual_cpu.h's definition), all permuted, ld n; A's stored values in
 * `values` (device). omega is a device array of nrhs doubles. */
int sylva__gpu_residual(const sylva__solve_pattern *A, const double *values, int64_t nrhs,
                        const double *X, const double *B, double *R, double *omega,
                        struct CUstream_st *s);
/* X += sign·D (n × nrhs, ld n; sign ±1). */
int sylva__gpu_axpy(int64_t n, int64_t nrhs, int sign, double *X, const double *D, struct CUstream_st *s);
/* Copy `cols` columns of `rows` doubles between host and device (ld in
 * elements each side; to_device: host src to device dst), then wait for
 * the stream: the caller's host arrays, pageable or not. */
int sylva__gpu_copy_columns(double *dst, int64_t ldd, const double *src, int64_t lds, int64_t rows, int64_t cols,
                            int to_device, struct CUstream_st *s);
/* Copy device → host and wait for the stream. */
int sylva__gpu_copy_to_host(void *dst, const void *src, size_t bytes, struct CUstream_st *s);
/* Queue a device → device copy. */
int sylva__gpu_copy_device(void *dst, const void *src, size_t bytes, struct CUstream_st *s);
/* Wait for the stream. */
int sylva__gpu_sync(struct CUstream_st *s);
/* The CUDA device that holds p, or −1 when p is not device memory (host,
 * NULL, or no CUDA). */
int sylva__gpu_pointer_device(const void *p);
/* Plain copies between host and device memory of the current device (for a
 * device-pointer solve without GPU workers): synchronous. */
int sylva__gpu_memcpy(void *dst, const void *src, size_t bytes, int to_device);
/* A stream of the calling thread's own on CUDA device `device` (the direct
 * solve, solve_gpu_direct.c: blocking, so ordered after the legacy default
 * stream's work as a StarPU task's start was), and its end. The calling
 * thread's current device is the same after either call. */
int sylva__gpu_stream_open(int device, struct CUstream_st **s);
void sylva__gpu_stream_close(int device, struct CUstream_st *s);
/* Make `device` the calling thread's current device; *prev gets the one it
 * was, for sylva__gpu_device_leave(prev). */
int sylva__gpu_device_enter(int device, int *prev);
void sylva__gpu_device_leave(int prev);

/* The CPU twin: X (n × nrhs, ld n, permuted) ← L⁻¹ X then L⁻ᵀ X with the
 * blob on the host and group_L the host bases of the L slices, item by
 * item in list order; T is a workspace of max_cb_rows · nrhs scalars. */
void sylva__solve_items_cpu(const sylva__solve_desc *d, const void *blob, double *const *group_L,
                            int64_t nrhs, double *X, double *T);

#ifdef __cplusplus
}
#endif

#endif
