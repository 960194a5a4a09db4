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

#ifdef __cplusplus
}
#endif

#endif
