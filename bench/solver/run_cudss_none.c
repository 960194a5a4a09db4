/* run_cudss_none.c — bench-solver's cuDSS row in a build without CUDA:
 * there is no GPU to run it on. */
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
