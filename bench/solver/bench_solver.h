/* bench_solver.h — what the parts of bench-solver share: one measured row
 * (a matrix under one solver and configuration) and the three runners.
 * Times are seconds; a runner that cannot run leaves ok = 0 and a note. */
#ifndef SYLVA_BENCH_SOLVER_H
#define SYLVA_BENCH_SOLVER_H

#include <stdint.h>

#include "sylva.h"

/* Right-hand-side counts a row times solves for (--nrhs). */
#define BENCH_MAX_NRHS 4

/* Solve timings for one right-hand-side count, best of the repeats
 * (seconds; 0: not run). gpu: sylva's GPU solve on host arrays (its
 * phases: upload, solve, download) or cuDSS's solve phase; gpu_device:
 * sylva's GPU solve on device arrays (sylva_solve_device, the whole call:
 * what cuDSS's solve phase is compared with); cpu: sylva's
 * solve on the CPU workers (L already on the host); seq: the sequential
 * solve. */
typedef struct bench_solve {
    int64_t nrhs;
    double gpu, gpu_upload, gpu_solve, gpu_download, gpu_device, cpu, seq;
    double berr; /* worst backward error of the columns, last solve timed */
} bench_solve;

typedef struct bench_row {
    char matrix[64], solver[24], config[48], note[160], device[64];
    int ok;
    int64_t n, nnz_L;
    double flops;              /* sylva's analysis (CHOLMOD's for the same ordering) */
    double analyze, factor_first, factor_best, to_host, solve, berr;
    double gpu_busy, bytes_to_device, bytes_to_host, peak_device;
    int direct; /* the best factorization ran direct (no task: the GPU solves still run) */
    double gpu_s_batched, gpu_f_batched, gpu_s_large, gpu_f_large;
    int64_t tasks, tasks_gpu, tasks_cpu;
    double peak_rss;       /* bytes: the row's process' peak resident memory */
    double predicted_peak; /* bytes: sylva's prediction of it (analysis info), 0 for others */
    int nsolves;
    bench_solve solves[BENCH_MAX_NRHS];
} bench_row;

typedef struct bench_opts {
    int threads;       /* CPU workers / BLAS threads; -1 all */
    int repeat;        /* factorizations timed: first, then refactorizations */
    const char *cudss; /* path of libcudss.so.1, or NULL */
    int gpu_solves_only; /* --gpu-solves-only: no CPU or sequential solve timings (quick GPU A/B runs) */
    int64_t solve_block; /* --solve-block (or BENCH_SOLVE_BLOCK): options.solve_block of the solves, 0 automatic */
    int n_nrhs;        /* right-hand-side counts of the solve timings */
    int64_t nrhs[BENCH_MAX_NRHS];
} bench_opts;

/* Random columns (fixed seed) of n × nrhs; the worst backward error of X. */
double *bench_rhs(int64_t n, int64_t nrhs);
double bench_worst_berr(const sylva_matrix *A, const double *X, const double *B, int64_t nrhs);

/* sylva on A in one mode with one policy; perm: a permutation to reuse
 * (NULL: METIS) — *perm_out receives the analysis' (caller frees). */
int bench_sylva(const sylva_matrix *A, const bench_opts *o, sylva_exec_mode mode, const char *policy,
                int64_t small_rows, const int64_t *perm, int64_t **perm_out, bench_row *r);
/* CHOLMOD (supernodal, the given permutation) with `threads` OpenBLAS threads. */
int bench_cholmod(const sylva_matrix *A, const int64_t *perm, int threads, int repeat, bench_row *r);
/* cuDSS from the library at `path` (dlopen), its own ordering; the
 * factorization phase timed with L on the device. */
int bench_cudss(const sylva_matrix *A, const char *path, const bench_opts *o, bench_row *r);
/* BENCH_PROFILE_NRHS=K: one more solve of K columns after the timed ones,
 * inside cudaProfilerStart/Stop (for `ncu --profile-from-start off`);
 * bench_profile(k, on) says whether k is profiled and starts or stops the
 * range (a no-op without CUDA). */
int bench_profile(int64_t k, int on);
/* Device memory for the timing of sylva_solve_device (the like of cuDSS's
 * solve phase, whose columns live on the device): bench_device_alloc gives
 * NULL without CUDA or memory; bench_device_copy (to_device: host src to
 * device dst, else back) synchronizes and returns 0 or -1. */
void *bench_device_alloc(size_t bytes);
int bench_device_copy(void *dst, const void *src, size_t bytes, int to_device);
void bench_device_free(void *p);

/* Run fn(arg, perm_out, r) in a child process and fill r from it, with
 * r->peak_rss the child's peak resident memory (isolate.c); perm_out (n
 * entries) comes back too when not NULL. Returns fn's status. */
typedef int (*bench_row_fn)(void *arg, int64_t **perm_out, bench_row *r);
int bench_isolated(bench_row_fn fn, void *arg, int64_t n, int64_t **perm_out, bench_row *r);

#endif
