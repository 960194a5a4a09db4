/* test_gpu_stage.c — the GPU solve's staged host ↔ device copies
 * (kernels/gpu_stage.h) with slots small enough that every path runs:
 * columns cut into several pieces (rows > a slot), several whole columns
 * a piece, one piece alone (the calling thread), more threads than pieces,
 * leading dimensions past the rows on both sides, an empty block. Each
 * block goes up into a device array poisoned with NaN and comes back into
 * a host array poisoned the same way: the copy must be exact and must not
 * write the padding rows of either side. Exit: 0 pass, 1 fail, 77 no GPU.
 * Then the pinned path (sylva__gpu_pin_*): registered whole, in pieces,
 * below the minimum, the caller's own page-locked memory; exact, padding
 * untouched, unregistered after. `test_gpu_stage --rates MB` prints the
 * copy rates instead (below), registration's cost among them. */
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

/* The pinned path (sylva__gpu_pin_*): a block at `offset` doubles into a
 * host array (an unaligned start), up into a device array poisoned with
 * NaN and back into the host block poisoned the same way after the
 * upload; the copy must be exact, must not write the padding rows, and
 * must report `want` as the way it went; `caller_pinned` allocates the host
 * array with cudaMallocHost (the caller's own page-locked memory). */
typedef struct pin_case {
    int mode;
    size_t min_bytes, piece_bytes;
    int64_t rows, cols, ld, offset;
    int caller_pinned, want;
} pin_case;

static int run_pin(const pin_case *c)
{
    cudaStream_t s;
    CK(cudaStreamCreate(&s));
    const int64_t total = c->offset + c->ld * c->cols + 1;
    double *host = NULL, *dev = NULL;
    if (c->caller_pinned) CK(cudaMallocHost((void **)&host, (size_t)total * sizeof *host));
    else host = malloc((size_t)total * sizeof *host);
    double *src = malloc((size_t)total * sizeof *src), *devh = malloc((size_t)(c->ld * c->cols) * sizeof *devh);
    CK(cudaMalloc((void **)&dev, (size_t)(c->ld * c->cols) * sizeof *dev));
    for (int64_t i = 0; i < total; i++) host[i] = src[i] = gt_rand();
    for (int64_t i = 0; i < c->ld * c->cols; i++) devh[i] = NAN;
    CK(cudaMemcpy(dev, devh, (size_t)(c->ld * c->cols) * sizeof *dev, cudaMemcpyHostToDevice));
    double *B = host + c->offset;
    sylva__gpu_pin pin;
    int bad = sylva__gpu_pin_upload(&pin, c->mode, c->min_bytes, c->piece_bytes, dev, c->ld, B, c->ld, c->rows,
                                    c->cols, s);
    const int how = pin.how;
    int64_t wrong = 0;
    CK(cudaMemcpy(devh, dev, (size_t)(c->ld * c->cols) * sizeof *dev, cudaMemcpyDeviceToHost));
    for (int64_t j = 0; j < c->cols; j++)
        for (int64_t i = 0; i < c->ld; i++) {
            const double got = devh[i + j * c->ld];
            if (i < c->rows ? got != src[c->offset + i + j * c->ld] : !isnan(got)) wrong++;
        }
    for (int64_t j = 0; j < c->cols; j++) /* the host block poisoned: the download must bring it all back */
        for (int64_t i = 0; i < c->rows; i++) B[i + j * c->ld] = NAN;
    if (!bad) bad = sylva__gpu_pin_download(&pin, B, c->ld, dev, c->ld, c->rows, c->cols, s);
    for (int64_t i = 0; i < total; i++) {
        const int64_t r = (i - c->offset) % c->ld;
        const int inside = i >= c->offset && i < c->offset + c->ld * c->cols && r < c->rows;
        if (inside ? host[i] != src[i] : host[i] != src[i] && !(isnan(host[i]) && isnan(src[i]))) wrong++;
    }
    /* Unregistered after the download: registering the block again succeeds. */
    int left = 0;
    if (!c->caller_pinned && c->rows > 0 && c->cols > 0) {
        cudaError_t e = cudaHostRegister(B, (size_t)((c->cols - 1) * c->ld + c->rows) * sizeof *B, 0);
        if (e == cudaSuccess) CK(cudaHostUnregister(B));
        else left = 1, cudaGetLastError();
    }
    printf("%s pin mode %d min %zu piece %zu, %lld x %lld (ld %lld, offset %lld)%s: went %d (want %d), "
           "%lld wrong entries%s%s\n",
           bad || wrong || how != c->want || left ? "FAIL" : "ok  ", c->mode, c->min_bytes, c->piece_bytes,
           (long long)c->rows, (long long)c->cols, (long long)c->ld, (long long)c->offset,
           c->caller_pinned ? ", caller-pinned" : "", how, c->want, (long long)wrong,
           bad ? ", a copy failed" : "", left ? ", still registered after the download" : "");
    CK(cudaFree(dev));
    CK(cudaStreamDestroy(s));
    if (c->caller_pinned) CK(cudaFreeHost(host));
    else free(host);
    free(src);
    free(devh);
    return bad || wrong || how != c->want || left;
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
    /* The caller's block page-locked for a solve: cudaHostRegister and
     * cudaHostUnregister of the whole block (ms, best of 3), then the pin
     * path's upload and download (registration included) whole and in
     * pieces of 4, 16 and 64 MB (GB/s, best of 3). */
    double reg = 1e30, unreg = 1e30;
    for (int k = 0; k < 3; k++) {
        double t0 = now();
        CK(cudaHostRegister(h, bytes, 0));
        double t1 = now();
        CK(cudaHostUnregister(h));
        double t2 = now();
        if (t1 - t0 < reg) reg = t1 - t0;
        if (t2 - t1 < unreg) unreg = t2 - t1;
    }
    printf("pin  %.0f MB: register %.3f ms (%.1f GB/s), unregister %.3f ms;", mb, 1e3 * reg, bytes / reg / 1e9,
           1e3 * unreg);
    const int modes[4] = {1, 2, 2, 2};
    const size_t pieces[4] = {0, 4 << 20, 16 << 20, 64 << 20};
    for (int v = 0; v < 4; v++) {
        double up = 1e30, down = 1e30;
        for (int k = 0; k < 3; k++) {
            sylva__gpu_pin pin;
            double t0 = now();
            if (sylva__gpu_pin_upload(&pin, modes[v], 0, pieces[v], d, (int64_t)n, h, (int64_t)n, (int64_t)n, 1, s))
                return 1;
            double t1 = now();
            if (sylva__gpu_pin_download(&pin, h, (int64_t)n, d, (int64_t)n, (int64_t)n, 1, s)) return 1;
            double t2 = now();
            if (t1 - t0 < up) up = t1 - t0;
            if (t2 - t1 < down) down = t2 - t1;
        }
        if (v == 0) printf(" whole up %.1f down %.1f", bytes / up / 1e9, bytes / down / 1e9);
        else printf(" | pieces %zu MB up %.1f down %.1f", pieces[v] >> 20, bytes / up / 1e9, bytes / down / 1e9);
    }
    printf(" GB/s\n");
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
    const pin_case pins[] = {
        {0, 0, 0, 1000, 3, 1000, 0, 0, SYLVA__PIN_PAGEABLE},            /* mode 0 */
        {1, 1 << 30, 0, 1000, 3, 1000, 0, 0, SYLVA__PIN_PAGEABLE},      /* below the minimum */
        {1, 0, 0, 1000, 3, 1000, 7, 0, SYLVA__PIN_WHOLE},               /* whole, unaligned start */
        {1, 0, 0, 999, 5, 1003, 3, 0, SYLVA__PIN_WHOLE},                /* ld past the rows */
        {2, 0, 4096, 3000, 7, 3000, 5, 0, SYLVA__PIN_PIECES},           /* pieces of a page, unaligned */
        {2, 0, 10000, 5000, 9, 5000, 0, 0, SYLVA__PIN_PIECES},          /* a piece rounded up to pages */
        {2, 0, 1 << 30, 5000, 9, 5000, 1, 0, SYLVA__PIN_PIECES},        /* one piece */
        {2, 0, 4096, 999, 5, 1003, 0, 0, SYLVA__PIN_WHOLE},             /* ld past the rows: whole */
        {2, 0, 4096, 3000, 4, 3000, 2, 1, SYLVA__PIN_CALLER},           /* the caller's pinned memory */
        {2, 0, 4096, 3000, 30, 3000, 3, 0, SYLVA__PIN_PIECES},          /* 176 pieces */
        {1, 0, 0, 0, 4, 1, 0, 0, SYLVA__PIN_PAGEABLE},                  /* empty */
    };
    for (size_t i = 0; i < sizeof pins / sizeof *pins; i++) failures += run_pin(&pins[i]);
    printf("%d failures\n", failures);
    return failures != 0;
}
