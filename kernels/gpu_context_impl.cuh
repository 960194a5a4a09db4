/* gpu_context_impl.cuh — the inside of a GPU worker's context (the
 * contract is gpu_context.h), shared by gpu_context.cu and the group runs
 * that append to its failure list. Internal to kernels/. */
#ifndef SYLVA_KERNELS_GPU_CONTEXT_IMPL_CUH
#define SYLVA_KERNELS_GPU_CONTEXT_IMPL_CUH

#include "gpu_libs.cuh" /* cuBLAS and cuSOLVER, opened at run time */

#include "gpu_context.h"
#include "gpu_stage.h"

/* The device failure list: count, then (front, pivot) pairs. */
typedef struct sylva__gpu_failures {
    int count;
    int pivot[SYLVA__GPU_MAX_FAILURES];
    long long front[SYLVA__GPU_MAX_FAILURES];
} sylva__gpu_failures;

struct sylva__gpu_context {
    cudaStream_t stream;
    cublasHandle_t blas;
    cusolverDnHandle_t solver;
    sylva__gpu_failures *failures; /* device */
    sylva__kernel_tuning tuning;
    char name[256];
    size_t peak;
    sylva__gpu_stage *stage; /* pinned staging of the solve's host blocks: at the first need */
};

#endif
