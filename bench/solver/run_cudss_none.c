/* run_cudss_none.c — bench-solver's cuDSS row and device buffers in a
 * build without CUDA: there is no GPU to run them on. */
#include <stdio.h>

#include "bench_solver.h"

int bench_cudss(const sylva_matrix *A, const char *path, const bench_opts *o, bench_row *r)
{
    (void)A, (void)path, (void)o;
    snprintf(r->solver, sizeof r->solver, "cudss");
    snprintf(r->note, sizeof r->note, "sylva was built without CUDA");
    return -1;
}

int bench_profile(int64_t k, int on)
{
    (void)k, (void)on;
    return 0;
}

void *bench_device_alloc(size_t bytes)
{
    (void)bytes;
    return NULL;
}

int bench_device_copy(void *dst, const void *src, size_t bytes, int to_device)
{
    (void)dst, (void)src, (void)bytes, (void)to_device;
    return -1;
}

void bench_device_free(void *p) { (void)p; }
