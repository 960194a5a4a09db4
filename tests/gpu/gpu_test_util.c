/* gpu_test_util.c — fronts, poison and error metrics for the GPU tests and
 * benchmark (contract in gpu_test_util.h). */
#include "gpu_test_util.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "blas.h"

static const uint64_t poison_bits = 0x7ff4dead0badf00dull; /* a signalling-NaN payload */
const double gt_poison = NAN;
int gt_pad_max = 3;

static double poison_value(void)
{
    double d;
    memcpy(&d, &poison_bits, sizeof d);
    return d;
}

int gt_is_poison(double x)
{
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    return b == poison_bits;
}

void gt_cuda_check(cudaError_t e, const char *file, int line, const char *what)
{
    if (e == cudaSuccess) return;
    fprintf(stderr, "%s:%d: %s: %s\n", file, line, what, cudaGetErrorString(e));
    exit(2);
}

void gt_require_gpu(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
        printf("no CUDA device: skipped\n");
        exit(77);
    }
}

static uint64_t rng_state;

uint64_t gt_seed(void)
{
    const char *e = getenv("SYLVA_TEST_SEED");
    uint64_t s = e ? strtoull(e, NULL, 10) : (uint64_t)time(NULL) ^ ((uint64_t)clock() << 20);
    printf("seed %llu (SYLVA_TEST_SEED to repeat)\n", (unsigned long long)s);
    rng_state = s * 2654435761u + 1;
    return s;
}

static uint64_t next(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

double gt_rand(void) { return (double)(next() >> 11) * (2.0 / 9007199254740992.0) - 1.0; }

int gt_randint(int lo, int hi) { return lo + (int)(next() % (uint64_t)(hi - lo + 1)); }

double gt_front_flops(double m, double k)
{
    double r = m - k;
    return k * k * k / 3.0 + r * k * k + r * (r + 1) * k;
}

static double *Fat(const frontset *s, double *pool, int i, int r, int c)
{
    /* Element (r, c) of front i's lower triangle, r ≥ c. */
    int k = s->k[i];
    if (c < k) return pool + s->offP[i] + r + (size_t)c * s->ldp[i];
    return pool + s->offC[i] + (r - k) + (size_t)(c - k) * s->ldc[i];
}

void fs_make(frontset *s, int count, const int *m, const int *k, const int *whole,
             const int *bad_col)
{
    memset(s, 0, sizeof *s);
    s->count = count;
    int n = count > 0 ? count : 1;
    s->m = calloc(n, sizeof(int)), s->k = calloc(n, sizeof(int));
    s->ldp = calloc(n, sizeof(int)), s->ldc = calloc(n, sizeof(int));
    s->info = calloc(n, sizeof(int)), s->bad_col = calloc(n, sizeof(int));
    s->whole = calloc(n, sizeof(int));
    s->offP = calloc(n, sizeof(size_t)), s->offC = calloc(n, sizeof(size_t));
    size_t len = 0;
    for (int i = 0; i < count; i++) {
        int mi = m[i], ki = k[i], r = mi - ki, pad = gt_randint(0, gt_pad_max);
        s->m[i] = mi, s->k[i] = ki, s->bad_col[i] = bad_col ? bad_col[i] : 0;
        s->whole[i] = whole && whole[i];
        if (s->whole[i]) {
            int ld = (mi > 1 ? mi : 1) + pad;
            s->ldp[i] = s->ldc[i] = ld;
            s->offP[i] = len;
            s->offC[i] = len + ki + (size_t)ki * ld;
            len += (size_t)ld * (mi > 0 ? mi : 1);
        } else {
            s->ldp[i] = (mi > 1 ? mi : 1) + pad;
            s->ldc[i] = (r > 1 ? r : 1) + gt_randint(0, gt_pad_max);
            s->offP[i] = len;
            len += (size_t)s->ldp[i] * (ki > 0 ? ki : 1);
            s->offC[i] = len;
            len += (size_t)s->ldc[i] * (r > 0 ? r : 1);
        }
        len = (len + 3) & ~(size_t)3;
    }
    s->len = len ? len : 1;
    s->orig = malloc(s->len * sizeof(double));
    s->res = malloc(s->len * sizeof(double));
    double pv = poison_value();
    for (size_t t = 0; t < s->len; t++) s->orig[t] = pv;
    for (int i = 0; i < count; i++) {
        int mi = s->m[i];
        for (int c = 0; c < mi; c++)
            for (int r = c; r < mi; r++)
                *Fat(s, s->orig, i, r, c) = r == c ? mi + 1.0 + gt_rand() * 0.5 : gt_rand();
        if (s->bad_col[i] > 0) {
            int j = s->bad_col[i] - 1;
            *Fat(s, s->orig, i, j, j) = -1.0;
        }
    }
    CK(cudaMalloc((void **)&s->dpool, s->len * sizeof(double)));
    size_t ib = n * sizeof(int), pb = n * sizeof(double *);
    CK(cudaMalloc((void **)&s->dm, ib));
    CK(cudaMalloc((void **)&s->dk, ib));
    CK(cudaMalloc((void **)&s->dldp, ib));
    CK(cudaMalloc((void **)&s->dldc, ib));
    CK(cudaMalloc((void **)&s->dinfo, ib));
    CK(cudaMalloc((void **)&s->dwork, SYLVA_FRONT_WORK_BYTES(count)));
    CK(cudaMalloc((void **)&s->dP, pb));
    CK(cudaMalloc((void **)&s->dC, pb));
    double **hP = malloc(pb), **hC = malloc(pb);
    for (int i = 0; i < count; i++) hP[i] = s->dpool + s->offP[i], hC[i] = s->dpool + s->offC[i];
    CK(cudaMemcpy(s->dm, s->m, ib, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(s->dk, s->k, ib, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(s->dldp, s->ldp, ib, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(s->dldc, s->ldc, ib, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(s->dP, hP, pb, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(s->dC, hC, pb, cudaMemcpyHostToDevice));
    free(hP), free(hC);
}

void fs_upload(frontset *s)
{
    CK(cudaMemcpy(s->dpool, s->orig, s->len * sizeof(double), cudaMemcpyHostToDevice));
    CK(cudaMemset(s->dinfo, 0, (s->count > 0 ? s->count : 1) * sizeof(int)));
    CK(cudaMemset(s->dwork, 0xff, SYLVA_FRONT_WORK_BYTES(s->count)));
}

void fs_download(frontset *s)
{
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(s->res, s->dpool, s->len * sizeof(double), cudaMemcpyDeviceToHost));
    if (s->count > 0)
        CK(cudaMemcpy(s->info, s->dinfo, s->count * sizeof(int), cudaMemcpyDeviceToHost));
}

void fs_free(frontset *s)
{
    free(s->m), free(s->k), free(s->ldp), free(s->ldc), free(s->info), free(s->bad_col), free(s->whole);
    free(s->offP), free(s->offC), free(s->orig), free(s->res);
    cudaFree(s->dpool), cudaFree(s->dm), cudaFree(s->dk), cudaFree(s->dldp), cudaFree(s->dldc);
    cudaFree(s->dinfo), cudaFree(s->dP), cudaFree(s->dC), cudaFree(s->dwork);
}

int gt_batch_work = 1;

sylva__front_batch fs_batch(const frontset *s)
{
    sylva__front_batch b = {s->count, s->dm, s->dk, s->dP, s->dldp, s->dC, s->dldc, s->dinfo,
                            gt_batch_work ? s->dwork : NULL};
    return b;
}

void fs_host_ptrs(const frontset *s, double *pool, double **P, double **C)
{
    for (int i = 0; i < s->count; i++) P[i] = pool + s->offP[i], C[i] = pool + s->offC[i];
}

/* Every position of front i's storage outside its lower triangles must be
 * the poison it started as. */
int fs_poison_intact(const frontset *s, int i, const double *out)
{
    int m = s->m[i], k = s->k[i], r = m - k;
    if (s->whole[i]) { /* the ld × m block: poison iff above the diagonal or padding */
        for (int c = 0; c < m; c++)
            for (int t = 0; t < s->ldp[i]; t++)
                if ((t < c || t >= m) && !gt_is_poison(out[s->offP[i] + t + (size_t)c * s->ldp[i]]))
                    return 0;
        return 1;
    }
    for (int c = 0; c < k; c++)
        for (int t = 0; t < s->ldp[i]; t++)
            if ((t < c || t >= m) && !gt_is_poison(out[s->offP[i] + t + (size_t)c * s->ldp[i]]))
                return 0;
    for (int c = 0; c < r; c++)
        for (int t = 0; t < s->ldc[i]; t++)
            if ((t < c || t >= r) && !gt_is_poison(out[s->offC[i] + t + (size_t)c * s->ldc[i]]))
                return 0;
    return 1;
}

double fs_backward_error(const frontset *s, int i, const double *out)
{
    int m = s->m[i], k = s->k[i];
    if (m == 0) return 0.0;
    if (!fs_poison_intact(s, i, out)) return 1e300;
    double *L = calloc((size_t)m * (k > 0 ? k : 1), sizeof(double));
    double *R = calloc((size_t)m * m, sizeof(double));
    for (int c = 0; c < k; c++)
        for (int r = c; r < m; r++) L[r + (size_t)c * m] = *Fat(s, (double *)out, i, r, c);
    if (k > 0)
        cblas_dsyrk(CblasColMajor, CblasLower, CblasNoTrans, m, k, 1.0, L, m, 0.0, R, m);
    double num = 0, den = 0;
    for (int c = 0; c < m; c++)
        for (int r = c; r < m; r++) {
            double f = *Fat(s, s->orig, i, r, c);
            double g = R[r + (size_t)c * m] + (c >= k ? *Fat(s, (double *)out, i, r, c) : 0.0);
            double w = r == c ? 1.0 : 2.0;
            num += w * (f - g) * (f - g), den += w * f * f;
        }
    free(L), free(R);
    double e = sqrt(num / den);
    return e == e ? e : 1e300;
}

double fs_diff(const frontset *s, int i, const double *out, const double *ref)
{
    double num = 0, den = 0;
    for (int c = 0; c < s->m[i]; c++)
        for (int r = c; r < s->m[i]; r++) {
            double a = *Fat(s, (double *)out, i, r, c), b = *Fat(s, (double *)ref, i, r, c);
            num += (a - b) * (a - b), den += b * b;
        }
    double e = den > 0 ? sqrt(num / den) : sqrt(num);
    return e == e ? e : 1e300;
}
