/* gpu_context.cu — a GPU worker's context (gpu_context.h): handles bound to
 * its stream, the failure list on the device, the tuning table of its GPU
 * model, and the device-memory high-water mark. The first context opens
 * cuBLAS and cuSOLVER (gpu_libs.cu). Every failing CUDA, cuBLAS or cuSOLVER
 * call is reported with its name and the library's message. */
#include <stdio.h>
#include <stdlib.h>

#include "core.h"
#include "gpu_common.cuh"
#include "gpu_context_impl.cuh"

static int cuda_fail(const char *what, cudaError_t e)
{
    return sylva__fail(SYLVA_ERR_RUNTIME, "%s: %s", what, cudaGetErrorString(e));
}

extern "C" int sylva__gpu_device_count(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
        cudaGetLastError(); /* no driver or no device: not an error here */
        return 0;
    }
    return n;
}

extern "C" int64_t sylva__gpu_device_memory(int dev)
{
    cudaDeviceProp p;
    if (cudaGetDeviceProperties(&p, dev) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return (int64_t)p.totalGlobalMem;
}

static int context_create(cudaStream_t s, bool handles, sylva__gpu_context **out)
{
    *out = NULL;
    int loaded = sylva__gpu_libs_load(); /* cuBLAS and cuSOLVER: opened with the first context */
    if (loaded) return loaded;
    sylva__gpu_context *c = (sylva__gpu_context *)calloc(1, sizeof *c);
    if (!c) return sylva__fail(SYLVA_ERR_NO_MEMORY, "out of memory for a GPU context");
    c->stream = s;
    int dev = 0;
    cudaDeviceProp prop;
    cudaError_t e = cudaGetDevice(&dev);
    if (e == cudaSuccess) e = cudaGetDeviceProperties(&prop, dev);
    if (e != cudaSuccess) {
        free(c);
        return cuda_fail("cudaGetDeviceProperties", e);
    }
    snprintf(c->name, sizeof c->name, "%s", prop.name);
    char path[1024], msg[256];
    sylva__kernel_tuning_path(prop.name, path, sizeof path);
    if (sylva__kernel_tuning_load(path, &c->tuning, msg, sizeof msg) < 0) {
        free(c);
        return sylva__fail(SYLVA_ERR_RUNTIME, "%s: %s", path, msg);
    }
    int status = SYLVA_OK;
    if (!handles) {
        if ((e = cudaMalloc((void **)&c->failures, sizeof *c->failures)) != cudaSuccess) {
            c->failures = NULL;
            status = cuda_fail("cudaMalloc (failure list)", e);
        }
    } else if (cublasCreate(&c->blas) != CUBLAS_STATUS_SUCCESS) {
        c->blas = NULL;
        status = sylva__fail(SYLVA_ERR_RUNTIME, "cublasCreate failed on %s", c->name);
    } else if (cublasSetStream(c->blas, s) != CUBLAS_STATUS_SUCCESS) {
        status = sylva__fail(SYLVA_ERR_RUNTIME, "cublasSetStream failed");
    } else if (cusolverDnCreate(&c->solver) != CUSOLVER_STATUS_SUCCESS) {
        c->solver = NULL;
        status = sylva__fail(SYLVA_ERR_RUNTIME, "cusolverDnCreate failed on %s", c->name);
    } else if (cusolverDnSetStream(c->solver, s) != CUSOLVER_STATUS_SUCCESS) {
        status = sylva__fail(SYLVA_ERR_RUNTIME, "cusolverDnSetStream failed");
    } else if ((e = cudaMalloc((void **)&c->failures, sizeof *c->failures)) != cudaSuccess) {
        c->failures = NULL;
        status = cuda_fail("cudaMalloc (failure list)", e);
    }
    if (status == SYLVA_OK) status = sylva__gpu_context_reset(c);
    if (status != SYLVA_OK) {
        sylva__gpu_context_free(c);
        return status;
    }
    *out = c;
    return SYLVA_OK;
}

extern "C" int sylva__gpu_context_create(cudaStream_t s, sylva__gpu_context **out)
{
    return context_create(s, true, out);
}

extern "C" int sylva__gpu_context_create_bare(cudaStream_t s, sylva__gpu_context **out)
{
    return context_create(s, false, out);
}

extern "C" void sylva__gpu_context_free(sylva__gpu_context *c)
{
    if (!c) return;
    sylva__gpu_stage_free(c->stage);
    if (c->solver) cusolverDnDestroy(c->solver);
    if (c->blas) cublasDestroy(c->blas);
    if (c->failures) cudaFree(c->failures);
    free(c);
}

/* 8 threads of two 1 MB slots: 64 columns of lap3d7:60 (110 MB) in 128
 * pieces, one column of n = 10⁶ in 8; 16 MB pinned per GPU worker. */
#define STAGE_THREADS 8
#define STAGE_PIECE_BYTES ((size_t)1 << 20)

extern "C" int sylva__gpu_context_stage(sylva__gpu_context *c, sylva__gpu_stage **st)
{
    if (!c->stage) {
        int status = sylva__gpu_stage_create(STAGE_THREADS, STAGE_PIECE_BYTES, &c->stage);
        if (status) return status;
    }
    *st = c->stage;
    return SYLVA_OK;
}

extern "C" const sylva__kernel_tuning *sylva__gpu_context_tuning(const sylva__gpu_context *c)
{
    return &c->tuning;
}

extern "C" const char *sylva__gpu_context_name(const sylva__gpu_context *c) { return c->name; }

extern "C" int sylva__gpu_context_reset(sylva__gpu_context *c)
{
    c->peak = 0;
    cudaError_t e = cudaMemsetAsync(&c->failures->count, 0, sizeof(int), c->stream);
    if (e == cudaSuccess) e = cudaStreamSynchronize(c->stream);
    return e == cudaSuccess ? SYLVA_OK : cuda_fail("resetting the failure list", e);
}

extern "C" int sylva__gpu_context_failures(sylva__gpu_context *c, int64_t *fronts, int *pivots,
                                           int cap, int *count)
{
    *count = 0;
    int n = 0;
    cudaError_t e = cudaStreamSynchronize(c->stream);
    if (e == cudaSuccess) e = cudaMemcpy(&n, &c->failures->count, sizeof n, cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) return cuda_fail("reading the failure list", e);
    *count = n;
    int take = n < cap ? n : cap;
    if (take > SYLVA__GPU_MAX_FAILURES) take = SYLVA__GPU_MAX_FAILURES;
    if (take <= 0) return SYLVA_OK;
    long long fr[SYLVA__GPU_MAX_FAILURES];
    e = cudaMemcpy(pivots, c->failures->pivot, (size_t)take * sizeof(int), cudaMemcpyDeviceToHost);
    if (e == cudaSuccess)
        e = cudaMemcpy(fr, c->failures->front, (size_t)take * sizeof(long long), cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) return cuda_fail("reading the failure list", e);
    for (int i = 0; i < take; i++) fronts[i] = fr[i];
    return SYLVA_OK;
}

extern "C" void sylva__gpu_context_sample(sylva__gpu_context *c)
{
    size_t free_b = 0, total_b = 0;
    if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess) {
        cudaGetLastError();
        return;
    }
    if (total_b - free_b > c->peak) c->peak = total_b - free_b;
}

extern "C" size_t sylva__gpu_context_peak(const sylva__gpu_context *c) { return c->peak; }

extern "C" int sylva__gpu_zero(void *p, size_t bytes, cudaStream_t s)
{
    if (!bytes) return SYLVA_OK;
    cudaError_t e = cudaMemsetAsync(p, 0, bytes, s);
    return e == cudaSuccess ? SYLVA_OK : cuda_fail("cudaMemsetAsync", e);
}
