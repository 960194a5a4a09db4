/* test_gpu_stage.c — the GPU solve's staged host ↔ device copies
 * (kernels/gpu_stage.h) with slots small enough that every path runs:
 * columns cut into several pieces (rows > a slot), several whole columns
 * a piece, one piece alone (the calling thread), more threads than pieces,
 * leading dimensions past the rows on both sides, an empty block. Each
 * block goes up into a device array poisoned with NaN and comes back into
 * a host array poisoned the same way: the copy must be exact and must not
 * write the padding rows of either side. Exit: 0 pass, 1 fail, 77 no GPU.
 * `test_gpu_stage --rates MB` prints the copy rates instead (below). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gpu_stage.h"
#include "gpu_test_util.h"

typedef struct shape {
    int threads;
    size_t piece_bytes;
    int64_t rows, cols, lds, ldd;
} shape;

static int run(const shape *c)
{
    sylva__gpu_stage *st = NULL;
    if (sylva__gpu_stage_create(c->threads, c->piece_bytes, &st)) {
        fprintf(stderr, "sylva__gpu_stage_create failed\n");
        return 1;
    }
    cudaStream_t s;
    CK(cudaStreamCreate(&s));
    const int64_t hn = c->lds * (c->cols > 0 ? c->cols : 1), dn = c->ldd * (c->cols > 0 ? c->cols : 1);
    double *src = malloc((size_t)hn * sizeof *src), *back = malloc((size_t)hn * sizeof *back);
    double *dev_host = malloc((size_t)dn * sizeof *dev_host), *dev = NULL;
    CK(cudaMalloc((void **)&dev, (size_t)dn * sizeof *dev));
    for (int64_t i = 0; i < hn; i++) src[i] = gt_rand(), back[i] = NAN;
    for (int64_t i = 0; i < dn; i++) dev_host[i] = NAN;
    CK(cudaMemcpy(dev, dev_host, (size_t)dn * sizeof *dev, cudaMemcpyHostToDevice));
    int bad = sylva__gpu_stage_copy(st, dev, c->ldd, src, c->lds, c->rows, c->cols, 1, s);
    if (!bad) bad = sylva__gpu_stage_copy(st, back, c->lds, dev, c->ldd, c->rows, c->cols, 0, s);
    CK(cudaMemcpy(dev_host, dev, (size_t)dn * sizeof *dev, cudaMemcpyDeviceToHost));
    int64_t wrong = 0;
    for (int64_t j = 0; j < c->cols; j++) {
        for (int64_t i = 0; i < c->lds; i++) {
            const double want = i < c->rows ? src[i + j * c->lds] : NAN, got = back[i + j * c->lds];
            if (i < c->rows ? got != want : !isnan(got)) wrong++;
        }
        for (int64_t i = 0; i < c->ldd; i++) {
            const double got = dev_host[i + j * c->ldd];
            if (i < c->rows ? got != src[i + j * c->lds] : !isnan(got)) wrong++;
        }
    }
    printf("%s threads %d slot %zu B, %lld x %lld (lds %lld, ldd %lld): %lld wrong entries%s\n",
           bad || wrong ? "FAIL" : "ok  ", c->threads, c->piece_bytes, (long long)c->rows, (long long)c->cols,
           (long long)c->lds, (long long)c->ldd, (long long)wrong, bad ? ", the copy failed" : "");
    CK(cudaFree(dev));
    CK(cudaStreamDestroy(s));
    free(src);
    free(back);
    free(dev_host);
    sylva__gpu_stage_free(st);
    return bad || wrong;
}

/* Seconds of the best of 3 of fn's copy (a host clock around a copy that waits). */
static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* --rates MB: the copy rates a solve's host blocks can have here, outside
 * StarPU: one pageable cudaMemcpy, one from pinned memory (the link), and
 * the staged copy with 1, 2, 4 and 8 threads of 1 MB slots (GB/s, best of 3). */
static int rates(double mb)
{
    const size_t n = (size_t)(mb * (1 << 20)) / sizeof(double), bytes = n * sizeof(double);
    double *h = malloc(bytes), *pinned = NULL, *d = NULL;
    CK(cudaMallocHost((void **)&pinned, bytes));
    CK(cudaMalloc((void **)&d, bytes));
    for (size_t i = 0; i < n; i++) h[i] = pinned[i] = (double)i;
    cudaStream_t s;
    CK(cudaStreamCreate(&s));
    for (int up = 1; up >= 0; up--) {
        double best[2] = {1e30, 1e30};
        for (int k = 0; k < 3; k++)
            for (int p = 0; p < 2; p++) {
                double *hp = p ? pinned : h, t0 = now();
                CK(cudaMemcpy(up ? (void *)d : (void *)hp, up ? (void *)hp : (void *)d, bytes,
                              up ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost));
                double t = now() - t0;
                if (t < best[p]) best[p] = t;
            }
        printf("%s %.0f MB: pageable %.1f GB/s, pinned %.1f GB/s;", up ? "up  " : "down", mb, bytes / best[0] / 1e9,
               bytes / best[1] / 1e9);
        for (int T = 1; T <= 8; T *= 2) {
            sylva__gpu_stage *st = NULL;
            if (sylva__gpu_stage_create(T, 1 << 20, &st)) return 1;
            double b = 1e30;
            for (int k = 0; k < 3; k++) {
                double t0 = now();
                if (up ? sylva__gpu_stage_copy(st, d, (int64_t)n, h, (int64_t)n, (int64_t)n, 1, 1, s)
                       : sylva__gpu_stage_copy(st, h, (int64_t)n, d, (int64_t)n, (int64_t)n, 1, 0, s))
                    return 1;
                double t = now() - t0;
                if (t < b) b = t;
            }
            printf(" staged %d thr %.1f", T, bytes / b / 1e9);
            sylva__gpu_stage_free(st);
        }
        printf(" GB/s\n");
    }
    CK(cudaStreamDestroy(s));
    CK(cudaFreeHost(pinned));
    CK(cudaFree(d));
    free(h);
    return 0;
}

int main(int argc, char **argv)
{
    gt_require_gpu();
    if (argc > 2 && !strcmp(argv[1], "--rates")) return rates(atof(argv[2]));
    gt_seed();
    const shape cases[] = {
        {3, 1000, 1000, 3, 1003, 1000},  /* 8 pieces a column (125 doubles a slot), 3 threads */
        {4, 1000, 50, 37, 61, 50},       /* 2 whole columns a piece, the last piece short */
        {2, 1000, 125, 5, 125, 130},     /* a column exactly a slot */
        {8, 4096, 300, 2, 300, 301},     /* more threads than pieces */
        {1, 800, 777, 4, 800, 777},      /* one thread, many pieces through its two slots */
        {3, 1 << 20, 2000, 3, 2000, 2000}, /* one piece: the calling thread alone */
        {3, 1000, 0, 4, 1, 1},           /* empty */
    };
    int failures = 0;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) failures += run(&cases[i]);
    printf("%d failures\n", failures);
    return failures != 0;
}
