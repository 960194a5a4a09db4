/* gpu_direct.cu — the direct factorization's copy and marks (contract in
 * gpu_direct.h). */
#include <stdlib.h>

#include "gpu_common.cuh"
#include "gpu_direct.h"

static int cuda_fail(const char *what, cudaError_t e)
{
    return sylva__fail(SYLVA_ERR_RUNTIME, "%s: %s", what, cudaGetErrorString(e));
}

struct sylva__gpu_marks {
    int n;
    cudaEvent_t ev[1]; /* n of them */
};

extern "C" int sylva__gpu_copy_up(void *dst, const void *src, size_t bytes, cudaStream_t s)
{
    if (bytes == 0) return SYLVA_OK;
    cudaError_t e = cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, s);
    return e == cudaSuccess ? SYLVA_OK : cuda_fail("cudaMemcpyAsync (A's values to the device)", e);
}

extern "C" void sylva__gpu_marks_free(sylva__gpu_marks *m)
{
    if (!m) return;
    for (int i = 0; i < m->n; i++) cudaEventDestroy(m->ev[i]);
    free(m);
}

extern "C" int sylva__gpu_marks_create(int n, sylva__gpu_marks **out)
{
    *out = NULL;
    sylva__gpu_marks *m =
        (sylva__gpu_marks *)calloc(1, sizeof *m + (size_t)(n > 1 ? n - 1 : 0) * sizeof(cudaEvent_t));
    if (!m) return sylva__fail(SYLVA_ERR_NO_MEMORY, "out of memory for %d GPU events", n);
    for (; m->n < n; m->n++) {
        cudaError_t e = cudaEventCreate(&m->ev[m->n]);
        if (e != cudaSuccess) {
            sylva__gpu_marks_free(m);
            return cuda_fail("cudaEventCreate (the direct factorization's marks)", e);
        }
    }
    *out = m;
    return SYLVA_OK;
}

extern "C" int sylva__gpu_marks_record(sylva__gpu_marks *m, int i, cudaStream_t s)
{
    cudaError_t e = cudaEventRecord(m->ev[i], s);
    return e == cudaSuccess ? SYLVA_OK : cuda_fail("cudaEventRecord", e);
}

extern "C" int sylva__gpu_marks_seconds(sylva__gpu_marks *m, int i, int j, double *seconds)
{
    float ms = 0;
    cudaError_t e = cudaEventSynchronize(m->ev[j]);
    if (e == cudaSuccess) e = cudaEventElapsedTime(&ms, m->ev[i], m->ev[j]);
    *seconds = e == cudaSuccess ? 1e-3 * (double)ms : 0;
    return e == cudaSuccess ? SYLVA_OK : cuda_fail("cudaEventElapsedTime", e);
}
