/* run_cudss.c — one cuDSS row of bench-solver. cuDSS is no build
 * dependency: its library (libcudss.so.1 of the nvidia-cudss-cu13 wheel) is
 * opened at run time from a path the user gives, and the few entry points
 * and constants used here are declared below (checked against cuDSS 1.0's
 * headers). The matrix goes in as CSR of the upper triangle (sylva's lower
 * CSC read by rows), 32-bit indices, SPD; cuDSS orders it itself. Timed:
 * the analysis phase, the factorization phase (best of `repeat`, the device
 * synchronized around each; L stays on the device, as cuDSS keeps it) and
 * the solve; the backward error of the solution of b = A·1; then the solve
 * phase for each --nrhs count (random columns, best of `repeat`, device
 * synchronized around each; right-hand sides and solutions stay on the
 * device, as cuDSS's API has them). Its peak device memory is sampled
 * (cudaMemGetInfo) after every phase, less what was in use before its
 * arrays were allocated: the matrix, right-hand side and solution arrays,
 * cuDSS's handle and its data. Also the device buffers of sylva's own
 * device-array solve timing (bench_device_*, run_sylva.c). */
#include <cuda_profiler_api.h>
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_solver.h"

/* cuDSS 1.0 (cudss.h, cudss_data_types.h). */
enum {
    CUDSS_PHASE_ANALYSIS = 3,
    CUDSS_PHASE_FACTORIZATION = 4,
    CUDSS_PHASE_SOLVE = 1008,
    CUDSS_DATA_LU_NNZ = 1,
    CUDSS_MTYPE_SPD = 3,
    CUDSS_MVIEW_UPPER = 2,
    CUDSS_BASE_ZERO = 0,
    CUDSS_LAYOUT_COL_MAJOR = 0
};
typedef void *cudss_obj;
typedef struct cudss_api {
    void *lib;
    int (*create)(cudss_obj *);
    int (*destroy)(cudss_obj);
    int (*config_create)(cudss_obj *);
    int (*config_destroy)(cudss_obj);
    int (*data_create)(cudss_obj, cudss_obj *);
    int (*data_destroy)(cudss_obj, cudss_obj);
    int (*data_get)(cudss_obj, cudss_obj, int, void *, size_t, size_t *);
    int (*matrix_csr)(cudss_obj *, int64_t, int64_t, int64_t, const void *, const void *, const void *,
                      const void *, int, int, int, int, int, int);
    int (*matrix_dn)(cudss_obj *, int64_t, int64_t, int64_t, const void *, int, int);
    int (*matrix_destroy)(cudss_obj);
    int (*execute)(cudss_obj, int, cudss_obj, cudss_obj, cudss_obj, cudss_obj, cudss_obj);
} cudss_api;

static int load(const char *path, cudss_api *a, char *note, size_t cap)
{
    memset(a, 0, sizeof *a);
    a->lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!a->lib) {
        snprintf(note, cap, "cannot open %s: %s", path, dlerror());
        return -1;
    }
#define SYM(field, name)                                                                           \
    if (!(*(void **)&a->field = dlsym(a->lib, name))) {                                            \
        snprintf(note, cap, "%s: no symbol %s", path, name);                                       \
        return -1;                                                                                 \
    }
    SYM(create, "cudssCreate");
    SYM(destroy, "cudssDestroy");
    SYM(config_create, "cudssConfigCreate");
    SYM(config_destroy, "cudssConfigDestroy");
    SYM(data_create, "cudssDataCreate");
    SYM(data_destroy, "cudssDataDestroy");
    SYM(data_get, "cudssDataGet");
    SYM(matrix_csr, "cudssMatrixCreateCsr");
    SYM(matrix_dn, "cudssMatrixCreateDn");
    SYM(matrix_destroy, "cudssMatrixDestroy");
    SYM(execute, "cudssExecute");
#undef SYM
    return 0;
}

int bench_profile(int64_t k, int on)
{
    const char *e = getenv("BENCH_PROFILE_NRHS");
    if (!e || !*e || atoll(e) != k) return 0;
    cudaDeviceSynchronize();
    if (on) cudaProfilerStart();
    else cudaProfilerStop();
    return 1;
}

void *bench_device_alloc(size_t bytes)
{
    void *p = NULL;
    return cudaMalloc(&p, bytes > 0 ? bytes : 8) == cudaSuccess ? p : NULL;
}

int bench_device_copy(void *dst, const void *src, size_t bytes, int to_device)
{
    return cudaMemcpy(dst, src, bytes, to_device ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost) == cudaSuccess
               ? 0
               : -1;
}

void bench_device_free(void *p) { cudaFree(p); }

/* Device memory in use now (every process's), 0 when it cannot be read. */
static double device_used(void)
{
    size_t free_b = 0, total = 0;
    return cudaMemGetInfo(&free_b, &total) == cudaSuccess ? (double)(total - free_b) : 0;
}

/* The peak of device_used since *base, into r. */
static void sample_peak(bench_row *r, double base)
{
    double used = device_used() - base;
    if (used > r->peak_device) r->peak_device = used;
}

/* The solve phase on k device columns: best of `repeat`; the worst
 * backward error. Returns 0 or the failing call's status (*where names it). */
static int time_solves(cudss_api *api, cudss_obj h, cudss_obj cfg, cudss_obj data, cudss_obj mA,
                       const sylva_matrix *A, int64_t k, int repeat, bench_solve *bs, const char **where)
{
    int64_t n = A->n;
    size_t bytes = (size_t)(n * k) * sizeof(double);
    double *B = bench_rhs(n, k), *X = malloc(bytes + 8), *d_b = NULL, *d_x = NULL;
    cudss_obj mb = NULL, mx = NULL;
    int st = !B || !X;
    *where = "malloc";
    if (!st && (cudaMalloc((void **)&d_b, bytes + 8) || cudaMalloc((void **)&d_x, bytes + 8))) st = -1, *where = "cudaMalloc";
    if (!st && cudaMemcpy(d_b, B, bytes, cudaMemcpyHostToDevice)) st = -1, *where = "cudaMemcpy";
    if (!st && (st = api->matrix_dn(&mb, n, k, n, d_b, CUDA_R_64F, CUDSS_LAYOUT_COL_MAJOR))) *where = "cudssMatrixCreateDn";
    if (!st && (st = api->matrix_dn(&mx, n, k, n, d_x, CUDA_R_64F, CUDSS_LAYOUT_COL_MAJOR))) *where = "cudssMatrixCreateDn";
    bs->nrhs = k;
    bs->gpu = 1e300;
    for (int q = 0; q < repeat && !st; q++) {
        double t0 = sylva_wtime();
        if ((st = api->execute(h, CUDSS_PHASE_SOLVE, cfg, data, mA, mx, mb))) *where = "solve";
        if (!st && (st = cudaDeviceSynchronize())) *where = "cudaDeviceSynchronize";
        double t = sylva_wtime() - t0;
        if (t < bs->gpu) bs->gpu = t;
    }
    if (!st && bench_profile(k, 1)) {
        st = api->execute(h, CUDSS_PHASE_SOLVE, cfg, data, mA, mx, mb);
        bench_profile(k, 0);
        if (st) *where = "solve (profiled)";
    }
    if (!st && !(st = cudaMemcpy(X, d_x, bytes, cudaMemcpyDeviceToHost))) bs->berr = bench_worst_berr(A, X, B, k);
    if (st) bs->gpu = 0;
    if (mb) api->matrix_destroy(mb);
    if (mx) api->matrix_destroy(mx);
    cudaFree(d_b);
    cudaFree(d_x);
    free(B);
    free(X);
    return st;
}

int bench_cudss(const sylva_matrix *A, const char *path, const bench_opts *o, bench_row *r)
{
    int repeat = o->repeat;
    snprintf(r->solver, sizeof r->solver, "cudss");
    snprintf(r->config, sizeof r->config, "own ordering");
    r->n = A->n;
    struct cudaDeviceProp prop;
    if (cudaGetDeviceProperties(&prop, 0) == cudaSuccess) snprintf(r->device, sizeof r->device, "%.63s", prop.name);
    cudss_api api;
    if (load(path, &api, r->note, sizeof r->note)) return -1;
    if (A->n >= 2147483647 || A->nnz >= 2147483647) {
        snprintf(r->note, sizeof r->note, "too large for 32-bit indices");
        return -1;
    }
    int64_t n = A->n, nnz = A->nnz;
    int *rp = malloc((size_t)(n + 1) * sizeof *rp), *ci = malloc((size_t)(nnz + 1) * sizeof *ci);
    double *b = malloc((size_t)(n + 1) * sizeof *b), *x = malloc((size_t)(n + 1) * sizeof *x);
    double *ones = malloc((size_t)(n + 1) * sizeof *ones);
    for (int64_t i = 0; i <= n; i++) rp[i] = (int)A->colptr[i];
    for (int64_t p = 0; p < nnz; p++) ci[p] = (int)A->rowind[p];
    for (int64_t i = 0; i < n; i++) ones[i] = 1;
    sylva_matrix_symv(A, ones, b);
    void *d_rp = NULL, *d_ci = NULL, *d_v = NULL, *d_b = NULL, *d_x = NULL;
    cudss_obj h = NULL, cfg = NULL, data = NULL, mA = NULL, mb = NULL, mx = NULL;
    const char *where = "cudaMalloc";
    int st = 0;
    cudaDeviceSynchronize();
    const double base = device_used();
    if (cudaMalloc(&d_rp, (size_t)(n + 1) * sizeof(int)) || cudaMalloc(&d_ci, (size_t)(nnz + 1) * sizeof(int)) ||
        cudaMalloc(&d_v, (size_t)(nnz + 1) * sizeof(double)) || cudaMalloc(&d_b, (size_t)(n + 1) * sizeof(double)) ||
        cudaMalloc(&d_x, (size_t)(n + 1) * sizeof(double)))
        st = -1;
    if (!st) {
        where = "cudaMemcpy";
        st = cudaMemcpy(d_rp, rp, (size_t)(n + 1) * sizeof(int), cudaMemcpyHostToDevice) ||
             cudaMemcpy(d_ci, ci, (size_t)nnz * sizeof(int), cudaMemcpyHostToDevice) ||
             cudaMemcpy(d_v, A->values, (size_t)nnz * sizeof(double), cudaMemcpyHostToDevice) ||
             cudaMemcpy(d_b, b, (size_t)n * sizeof(double), cudaMemcpyHostToDevice);
    }
#define CALL(name, expr)                                                                           \
    if (!st && (st = (expr)) != 0) where = name
    CALL("cudssCreate", api.create(&h));
    CALL("cudssConfigCreate", api.config_create(&cfg));
    CALL("cudssDataCreate", api.data_create(h, &data));
    CALL("cudssMatrixCreateCsr", api.matrix_csr(&mA, n, n, nnz, d_rp, NULL, d_ci, d_v, CUDA_R_32I, CUDA_R_32I,
                                                CUDA_R_64F, CUDSS_MTYPE_SPD, CUDSS_MVIEW_UPPER, CUDSS_BASE_ZERO));
    CALL("cudssMatrixCreateDn", api.matrix_dn(&mb, n, 1, n, d_b, CUDA_R_64F, CUDSS_LAYOUT_COL_MAJOR));
    CALL("cudssMatrixCreateDn", api.matrix_dn(&mx, n, 1, n, d_x, CUDA_R_64F, CUDSS_LAYOUT_COL_MAJOR));
    double t0 = sylva_wtime();
    CALL("analysis", api.execute(h, CUDSS_PHASE_ANALYSIS, cfg, data, mA, mx, mb));
    if (!st) st = cudaDeviceSynchronize();
    r->analyze = sylva_wtime() - t0;
    sample_peak(r, base);
    r->factor_best = 1e300;
    for (int k = 0; k < repeat && !st; k++) {
        t0 = sylva_wtime();
        CALL("factorization", api.execute(h, CUDSS_PHASE_FACTORIZATION, cfg, data, mA, mx, mb));
        if (!st) st = cudaDeviceSynchronize();
        double t = sylva_wtime() - t0;
        if (k == 0) r->factor_first = t;
        if (t < r->factor_best) r->factor_best = t;
        sample_peak(r, base);
    }
    t0 = sylva_wtime();
    CALL("solve", api.execute(h, CUDSS_PHASE_SOLVE, cfg, data, mA, mx, mb));
    if (!st) st = cudaDeviceSynchronize();
    r->solve = sylva_wtime() - t0;
    sample_peak(r, base);
    if (!st && cudaMemcpy(x, d_x, (size_t)n * sizeof(double), cudaMemcpyDeviceToHost) == cudaSuccess) {
        r->berr = sylva_backward_error(A, x, b);
        int64_t lnz = 0;
        size_t got = 0;
        if (api.data_get(h, data, CUDSS_DATA_LU_NNZ, &lnz, sizeof lnz, &got) == 0) r->nnz_L = lnz;
        r->ok = 1;
    }
    for (int q = 0; q < o->n_nrhs && r->ok; q++) {
        const char *w = "";
        int sst = time_solves(&api, h, cfg, data, mA, A, o->nrhs[q], repeat, &r->solves[q], &w);
        if (sst) {
            snprintf(r->note, sizeof r->note, "cuDSS solve of %lld columns failed in %s (status %d)",
                     (long long)o->nrhs[q], w, sst);
            break;
        }
        r->nsolves = q + 1;
    }
#undef CALL
    if (!r->ok) snprintf(r->note, sizeof r->note, "cuDSS failed in %s (status %d)", where, st);
    if (mA) api.matrix_destroy(mA);
    if (mb) api.matrix_destroy(mb);
    if (mx) api.matrix_destroy(mx);
    if (data) api.data_destroy(h, data);
    if (cfg) api.config_destroy(cfg);
    if (h) api.destroy(h);
    cudaFree(d_rp);
    cudaFree(d_ci);
    cudaFree(d_v);
    cudaFree(d_b);
    cudaFree(d_x);
    free(rp);
    free(ci);
    free(b);
    free(x);
    free(ones);
    return r->ok ? 0 : -1;
}
