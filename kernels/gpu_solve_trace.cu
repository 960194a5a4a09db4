/* gpu_solve_trace.cu — the GPU solve's per-ticket trace (contract in
 * gpu_solve.h): device buffers for both sweeps' tickets, and their dump as
 * text, one line per ticket, with each item's front sizes from the host
 * blob. A diagnostic only (SYLVA_SOLVE_TRACE, codelet_solve_gpu.c): it
 * allocates and synchronizes. Fails with SYLVA_ERR_RUNTIME (CUDA) or
 * SYLVA_ERR_NO_MEMORY; the buffers are freed either way at end. */
#include <stdio.h>
#include <stdlib.h>

#include "gpu_common.cuh"
#include "gpu_solve.h"

static size_t trace_words(const sylva__solve_desc *d, int64_t nrhs, int sweep)
{
    int64_t chunks = (nrhs + SYLVA_SOLVE_COLS - 1) / SYLVA_SOLVE_COLS;
    return (size_t)(4 * (int64_t)(sweep == 0 ? d->nitems_f : d->nitems_b) * chunks + 4);
}

extern "C" int sylva__gpu_solve_trace_begin(const sylva__solve_desc *d, int64_t nrhs, sylva__solve_bufs *b)
{
    for (int w = 0; w < 2; w++) {
        size_t bytes = trace_words(d, nrhs, w) * sizeof(unsigned long long);
        cudaError_t e = cudaMalloc((void **)&b->trace[w], bytes);
        if (e == cudaSuccess) e = cudaMemset(b->trace[w], 0, bytes);
        if (e != cudaSuccess)
            return sylva__fail(SYLVA_ERR_RUNTIME, "solve trace buffers: %s", cudaGetErrorString(e));
    }
    return SYLVA_OK;
}

extern "C" int sylva__gpu_solve_trace_end(const sylva__solve_desc *d, sylva__solve_bufs *b, int64_t nrhs,
                                          const char *path, struct CUstream_st *s)
{
    size_t words[2] = {trace_words(d, nrhs, 0), trace_words(d, nrhs, 1)};
    unsigned long long *h[2] = {(unsigned long long *)malloc(words[0] * 8), (unsigned long long *)malloc(words[1] * 8)};
    int st = h[0] && h[1] ? SYLVA_OK : sylva__fail(SYLVA_ERR_NO_MEMORY, "solve trace: host copies");
    cudaError_t e = cudaStreamSynchronize(s);
    for (int w = 0; w < 2 && !st && e == cudaSuccess; w++) e = cudaMemcpy(h[w], b->trace[w], words[w] * 8, cudaMemcpyDeviceToHost);
    if (!st && e != cudaSuccess) st = sylva__fail(SYLVA_ERR_RUNTIME, "solve trace copy: %s", cudaGetErrorString(e));
    FILE *f = st ? NULL : fopen(path, "w");
    if (!st && !f) st = sylva__fail(SYLVA_ERR_RUNTIME, "solve trace: cannot write %s", path);
    if (f) {
        const char *bl = (const char *)d->host_blob;
        const sylva__solve_layout *y = &d->lay;
        const int *m = (const int *)(bl + y->m), *k = (const int *)(bl + y->k);
        const int *parent = (const int *)(bl + y->parent), *nt = (const int *)(bl + y->nt);
        const int chunks = (int)((nrhs + SYLVA_SOLVE_COLS - 1) / SYLVA_SOLVE_COLS);
        unsigned long long t0 = ~0ull;
        for (int w = 0; w < 2; w++)
            for (size_t q = 0; q + 4 < words[w]; q += 4) /* the last 4 words: padding */
                if (h[w][q] && h[w][q] < t0) t0 = h[w][q];
        /* After the times: the front's parent record, triangle items, this
         * sweep's update items, and its part (1: the top's launch). */
        fprintf(f, "sweep ticket front m k kind index chunk take ready done sm block parent nt nu top\n");
        for (int w = 0; w < 2; w++) {
            const int *items = (const int *)(bl + (w == 0 ? y->fitems : y->bitems));
            const int *nu = (const int *)(bl + (w == 0 ? y->nuf : y->nub));
            int count = w == 0 ? d->nitems_f : d->nitems_b;
            for (int64_t t = 0; t < (int64_t)count * chunks; t++) {
                const unsigned long long *r = h[w] + 4 * t;
                int it = (int)(t / chunks), fr = items[2 * it], code = items[2 * it + 1];
                const int top = w == 0 ? it >= count - d->ntop_f : it < d->ntop_b;
                /* A LEAF item: a line per leaf, its place in the item as the index. */
                const int kind = SYLVA_SOLVE_KIND(code), lines = kind == SYLVA_SOLVE_LEAF ? SYLVA_SOLVE_INDEX(code) : 1;
                for (int g = fr; g < fr + lines; g++)
                    fprintf(f, "%d %lld %d %d %d %d %d %d %lld %lld %lld %u %u %d %d %d %d\n", w, (long long)t, g, m[g],
                            k[g], kind, kind == SYLVA_SOLVE_LEAF ? g - fr : SYLVA_SOLVE_INDEX(code), (int)(t % chunks),
                            (long long)(r[0] - t0), (long long)(r[1] - t0), (long long)(r[2] - t0),
                            (unsigned)(r[3] >> 32), (unsigned)(r[3] & 0xffffffffu), parent[g], nt[g], nu[g], top);
            }
        }
        if (fclose(f)) st = sylva__fail(SYLVA_ERR_RUNTIME, "solve trace: writing %s", path);
    }
    for (int w = 0; w < 2; w++) {
        cudaFree(b->trace[w]);
        b->trace[w] = NULL;
        free(h[w]);
    }
    return st;
}
