/* gpu_direct.h — the few CUDA calls the direct GPU factorization
 * (runtime/factorize_direct.c) makes besides the group runs: a queued copy
 * of A's values to the device, and marks that time the GPU between points
 * of a stream (CUDA events, made once and reused). Every call is
 * queued on the caller's stream or reads what it queued; none allocates
 * device memory. Without CUDA every call answers SYLVA_ERR_UNSUPPORTED
 * (gpu_no_cuda.c).
 */
#ifndef SYLVA_KERNELS_GPU_DIRECT_H
#define SYLVA_KERNELS_GPU_DIRECT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct CUstream_st;

/* Queue a host → device copy of `bytes` bytes on s (src pageable or not). */
int sylva__gpu_copy_up(void *dst, const void *src, size_t bytes, struct CUstream_st *s);

/* n events on the current device (made once, reused): record queues
 * event i on s; seconds waits for event j and gives the GPU time from
 * event i to event j (both recorded). */
typedef struct sylva__gpu_marks sylva__gpu_marks;
int sylva__gpu_marks_create(int n, sylva__gpu_marks **m);
void sylva__gpu_marks_free(sylva__gpu_marks *m);
int sylva__gpu_marks_record(sylva__gpu_marks *m, int i, struct CUstream_st *s);
int sylva__gpu_marks_seconds(sylva__gpu_marks *m, int i, int j, double *seconds);

#ifdef __cplusplus
}
#endif

#endif
