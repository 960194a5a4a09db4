/* gpu_stage.h — copies of a column block between the caller's pageable
 * host memory and the device through pinned staging slots, filled and
 * drained by several host threads while the copy engine moves the slots
 * already full: a pageable cudaMemcpy2DAsync moved the GPU solve's 64
 * right-hand sides at 7–10 GB/s, more time than the solve's kernels;
 * staged with 8 threads, 33 (up) and 37 GB/s (down) on the H100 host in a
 * plain process, but ~7 GB/s inside the solve task, so the solve uses it
 * only with SYLVA_SOLVE_STAGE=1 (docs/perf-log.md, "The solve, v5"). A
 * stage belongs to one GPU worker
 * (its context makes it at the first need and frees it) and serves one
 * copy at a time. Without CUDA every call answers SYLVA_ERR_UNSUPPORTED.
 */
#ifndef SYLVA_KERNELS_GPU_STAGE_H
#define SYLVA_KERNELS_GPU_STAGE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct CUstream_st;
typedef struct sylva__gpu_stage sylva__gpu_stage;

/* Two pinned slots of `piece_bytes` for each of `threads` threads (at
 * least 1 and 8 bytes), on the current device. On failure *st is NULL and
 * the message names the call. */
int sylva__gpu_stage_create(int threads, size_t piece_bytes, sylva__gpu_stage **st);
void sylva__gpu_stage_free(sylva__gpu_stage *st);

/* Copy `cols` columns of `rows` doubles (ld in elements each side;
 * to_device: host src to device dst, else device src to host dst) on
 * stream s, and wait for it. The block goes in pieces of at most a slot
 * (whole columns, or one column's rows): thread t takes pieces t, t + T, …
 * with its two slots in turn. Copies of at most one slot run on the
 * calling thread alone. */
int sylva__gpu_stage_copy(sylva__gpu_stage *st, double *dst, int64_t ldd, const double *src, int64_t lds,
                          int64_t rows, int64_t cols, int to_device, struct CUstream_st *s);

/* The other way to move a block at the link's rate: page-lock the caller's
 * own memory for the solve (cudaHostRegister) and copy it by DMA, no host
 * thread touching the data. A pin records what was done to the block so
 * that the download and the release undo exactly that:
 *   SYLVA__PIN_PAGEABLE  nothing (small block, registration refused, or
 *                        mode 0): plain pageable copies;
 *   SYLVA__PIN_CALLER    the caller's memory was page-locked already
 *                        (cudaMallocHost, or registered by the caller):
 *                        asynchronous copies, nothing to undo;
 *   SYLVA__PIN_WHOLE     registered here in one call, unregistered by the
 *                        download (or the release);
 *   SYLVA__PIN_PIECES    registered here in page-aligned pieces of
 *                        `piece_bytes`, each piece's copy queued as soon
 *                        as it is registered (the DMA of piece p overlaps
 *                        the registration of piece p + 1); only for a
 *                        contiguous block (ld = rows both sides), else as
 *                        WHOLE; the download unregisters them after
 *                        the whole copy. */
enum { SYLVA__PIN_PAGEABLE, SYLVA__PIN_CALLER, SYLVA__PIN_WHOLE, SYLVA__PIN_PIECES };
typedef struct sylva__gpu_pin {
    int how;                  /* SYLVA__PIN_* (set by the upload) */
    char *base;               /* the block's span in host memory */
    size_t bytes;
    size_t piece;             /* SYLVA__PIN_PIECES: bytes a piece (a multiple of the page) */
    int64_t registered;       /* pieces registered so far (WHOLE: 0 or 1) */
    double seconds_register;  /* host time in cudaHostRegister, cudaHostUnregister */
    double seconds_unregister;
} sylva__gpu_pin;

/* Upload `cols` columns of `rows` doubles from the caller's host src (ld
 * lds) to device dst (ld ldd) on stream s, and wait: mode 0 pageable,
 * 1 registered whole, 2 in pieces of piece_bytes (rounded up to pages);
 * a block of fewer than min_bytes, or one whose registration is refused,
 * goes pageable (the refusal is no failure). Fills *p for the download
 * and the release. */
int sylva__gpu_pin_upload(sylva__gpu_pin *p, int mode, size_t min_bytes, size_t piece_bytes, double *dst,
                          int64_t ldd, const double *src, int64_t lds, int64_t rows, int64_t cols,
                          struct CUstream_st *s);
/* Download into the same host block (dst, ld ldd) from device src (ld
 * lds) as *p says, wait, and unregister what the upload registered. */
int sylva__gpu_pin_download(sylva__gpu_pin *p, double *dst, int64_t ldd, const double *src, int64_t lds,
                            int64_t rows, int64_t cols, struct CUstream_st *s);
/* Unregister whatever *p still holds registered (a solve that failed
 * between upload and download); no-op otherwise. Cannot fail. */
void sylva__gpu_pin_release(sylva__gpu_pin *p);

#ifdef __cplusplus
}
#endif

#endif
