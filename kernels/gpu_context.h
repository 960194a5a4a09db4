/* gpu_context.h — what one GPU worker keeps for its whole life: cuBLAS and
 * cuSOLVER handles bound to the worker's stream, the tuning table of its GPU
 * model, a device-side failure list the group runs append to (front, pivot)
 * without a host round trip, and the device-memory high-water mark sampled
 * by the runtime, and (at the solve's first need) pinned staging slots for
 * host right-hand sides. Created once per worker at start (never per task); every
 * call is queued on, or synchronizes, the context's stream only. Without
 * CUDA every call answers SYLVA_ERR_UNSUPPORTED (gpu_no_cuda.c).
 */
#ifndef SYLVA_KERNELS_GPU_CONTEXT_H
#define SYLVA_KERNELS_GPU_CONTEXT_H

#include <stddef.h>
#include <stdint.h>

#include "kernel_tuning.h"

#ifdef __cplusplus
extern "C" {
#endif

struct CUstream_st; /* cudaStream_t */
typedef struct sylva__gpu_context sylva__gpu_context;

/* Failures one context can hold between resets; more are counted. */
#define SYLVA__GPU_MAX_FAILURES 4096

/* Number of CUDA devices (0 without CUDA or without a usable device). */
int sylva__gpu_device_count(void);
/* Total memory of CUDA device dev in bytes (0 when it cannot be read). */
int64_t sylva__gpu_device_memory(int dev);

/* For the current device and stream s (the worker's): handles, failure
 * list, tuning table (kernels/tuning/<model>.txt if present, else
 * defaults). On failure *ctx is NULL and the message says which call. */
int sylva__gpu_context_create(struct CUstream_st *s, sylva__gpu_context **ctx);
/* The same without the cuBLAS and cuSOLVER handles (their creation costs
 * milliseconds), for work that never calls the libraries: kernels of our
 * own and the failure list only (a large front's native path needs the
 * full context). */
int sylva__gpu_context_create_bare(struct CUstream_st *s, sylva__gpu_context **ctx);
void sylva__gpu_context_free(sylva__gpu_context *ctx);

const sylva__kernel_tuning *sylva__gpu_context_tuning(const sylva__gpu_context *ctx);
/* "NVIDIA H100 80GB HBM3". */
const char *sylva__gpu_context_name(const sylva__gpu_context *ctx);

/* Empty the failure list (queued on the stream, then synchronized). */
int sylva__gpu_context_reset(sylva__gpu_context *ctx);
/* Synchronize the stream and copy the failure list to the host: up to cap
 * (front, pivot) pairs; *count is the number of failures recorded (may
 * exceed cap). */
int sylva__gpu_context_failures(sylva__gpu_context *ctx, int64_t *fronts, int *pivots, int cap,
                                int *count);
/* Device memory in use on this GPU now (total − free, every process), and
 * the largest value seen by sylva__gpu_context_sample since the reset. */
void sylva__gpu_context_sample(sylva__gpu_context *ctx);
size_t sylva__gpu_context_peak(const sylva__gpu_context *ctx);

/* Bytes of workspace the native path needs for a front of k pivots
 * (cuSOLVER's POTRF workspace and the panel status), −1 on failure. */
int64_t sylva__gpu_context_native_bytes(sylva__gpu_context *ctx, int k);

/* The worker's staging slots for host blocks (gpu_stage.h), made at the
 * first call (pinned memory: a few milliseconds once) and kept until the
 * context is freed. */
struct sylva__gpu_stage;
int sylva__gpu_context_stage(sylva__gpu_context *ctx, struct sylva__gpu_stage **st);

/* Queue a zero fill of `bytes` bytes at device pointer p on s. */
int sylva__gpu_zero(void *p, size_t bytes, struct CUstream_st *s);

#ifdef __cplusplus
}
#endif

#endif
