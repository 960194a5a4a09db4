/* run_sylva.c — one sylva row of bench-solver: start the runtime for the
 * mode (CPU workers only for cpu), analyze (METIS, or the permutation of an
 * earlier row so that every policy and solver factors the same ordering),
 * factorize `repeat` times (the first with the per-pattern uploads, the
 * others refactorizations); after a GPU factorization, time the GPU solve
 * of each --nrhs count (host arrays: upload, solve, download); bring L to
 * the host, solve b = A·1 and measure the backward error, then time the
 * CPU solve (StarPU tasks) and the sequential solve of each count. Solve
 * times are the best of `repeat`. Only the public API. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_solver.h"

/* The solve of nrhs random columns in `mode` (fresh copies each time),
 * best of `repeat` into *best (and its info); with best_device (GPU), the
 * same on device arrays (sylva_solve_device, the whole call) into it, 0
 * when there is no device memory. *berr: the worst backward error of the
 * last solutions. */
/* Why time_solve's last failure was not the library's ("" when it was). */
static char solve_note[512];

static int time_solve(const sylva_matrix *A, sylva_factor_t *F, sylva_solve_mode mode, int64_t nrhs,
                      const bench_opts *bo, double *best, sylva_solve_info *best_info, double *best_device,
                      double *berr)
{
    int64_t n = A->n;
    const int repeat = bo->repeat;
    double *B = bench_rhs(n, nrhs), *X = malloc((size_t)(n * nrhs + 1) * sizeof *X);
    sylva_options o;
    sylva_default_options(&o);
    o.solve_mode = mode;
    o.solve_block = bo->solve_block;
    int st = B && X ? SYLVA_OK : SYLVA_ERR_NO_MEMORY;
    solve_note[0] = 0;
    *best = 1e300;
    for (int k = 0; k < repeat && !st; k++) {
        memcpy(X, B, (size_t)(n * nrhs) * sizeof *X);
        sylva_solve_info info;
        double t0 = sylva_wtime();
        st = sylva_solve_ex(F, &o, SYLVA_FLOAT64, nrhs, X, n > 0 ? n : 1, &info);
        double t = sylva_wtime() - t0;
        if (!st && t < *best) {
            *best = t;
            if (best_info) *best_info = info;
        }
        if (!st && info.mode != mode) {
            /* Not the library's failure (it solved, elsewhere): why, from the info. */
            snprintf(solve_note, sizeof solve_note, "a %s solve ran in %s mode: %s", sylva_solve_mode_name(mode),
                     sylva_solve_mode_name(info.mode), info.why_not_gpu ? info.why_not_gpu : "no reason given");
            fprintf(stderr, "bench-solver: %s\n", solve_note);
            st = SYLVA_ERR_RUNTIME;
        }
    }
    if (!st && mode == SYLVA_SOLVE_GPU && bench_profile(nrhs, 1)) {
        memcpy(X, B, (size_t)(n * nrhs) * sizeof *X);
        sylva_solve_info info;
        st = sylva_solve_ex(F, &o, SYLVA_FLOAT64, nrhs, X, n > 0 ? n : 1, &info);
        bench_profile(nrhs, 0);
    }
    if (!st) *berr = bench_worst_berr(A, X, B, nrhs);
    if (!st && best_device) {
        const size_t bytes = (size_t)(n * nrhs) * sizeof(double);
        void *dB = bench_device_alloc(bytes);
        *best_device = 0;
        for (int k = 0; k < repeat && dB && !st; k++) {
            if (bench_device_copy(dB, B, bytes, 1)) break;
            sylva_solve_info info;
            double t0 = sylva_wtime();
            st = sylva_solve_device(F, &o, nrhs, dB, n > 0 ? n : 1, &info);
            double t = sylva_wtime() - t0;
            if (!st && (*best_device == 0 || t < *best_device)) *best_device = t;
        }
        if (!st && *best_device > 0) {
            double e = bench_device_copy(X, dB, bytes, 0) ? 1.0 : bench_worst_berr(A, X, B, nrhs);
            if (!(e <= *berr)) *berr = e;
        }
        bench_device_free(dB);
    }
    free(B);
    free(X);
    return st;
}

int bench_sylva(const sylva_matrix *A, const bench_opts *o, sylva_exec_mode mode, const char *policy,
                int64_t small_rows, const int64_t *perm, int64_t **perm_out, bench_row *r)
{
    sylva_options opt;
    sylva_default_options(&opt);
    opt.ncpus = o->threads;
    opt.mode = mode;
    opt.policy = policy;
    opt.small_front_rows = small_rows;
    if (perm) {
        opt.ordering = SYLVA_ORDERING_USER;
        opt.user_perm = perm;
    }
    snprintf(r->solver, sizeof r->solver, "sylva-%s", sylva_exec_mode_name(mode));
    if (small_rows > 0) snprintf(r->config, sizeof r->config, "%s/s%lld", policy, (long long)small_rows);
    else snprintf(r->config, sizeof r->config, "%s", policy);
    int st = sylva_init(&opt);
    sylva_analysis_t *an = NULL;
    sylva_factor_t *F = NULL;
    sylva_analysis_info ai;
    double *b = NULL, *x = NULL, *ones = NULL;
    if (!st) st = sylva_analyze(A, &opt, &an, &ai);
    if (st) goto out;
    r->analyze = ai.seconds;
    /* Repeats refactorize, when all of L is already resident. */
    r->predicted_peak = o->repeat > 1 ? ai.predicted_refactor_peak_bytes : ai.predicted_peak_bytes;
    snprintf(r->device, sizeof r->device, "%s", sylva_gpu_count() ? sylva_gpu_name() : "cpu");
    r->n = ai.n;
    r->nnz_L = ai.nnz_L;
    r->flops = ai.flops;
    r->factor_best = 1e300;
    for (int k = 0; k < o->repeat && !st; k++) {
        sylva_factor_info fi;
        st = k == 0 ? sylva_factorize(an, A, &F, &fi) : sylva_refactorize(F, A, &fi);
        if (st) break;
        if (k == 0) r->factor_first = fi.seconds;
        if (fi.seconds < r->factor_best) {
            r->factor_best = fi.seconds;
            r->gpu_busy = fi.gpu_busy_seconds;
            r->tasks_gpu = fi.tasks_gpu;
            r->direct = fi.direct;
            r->tasks_cpu = fi.tasks_cpu;
            r->bytes_to_device = fi.bytes_to_device;
            r->bytes_to_host = fi.bytes_to_host;
            r->gpu_s_batched = fi.gpu_seconds_batched;
            r->gpu_f_batched = fi.gpu_flops_batched;
            r->gpu_s_large = fi.gpu_seconds_large;
            r->gpu_f_large = fi.gpu_flops_large;
        }
        if (fi.peak_device_bytes > r->peak_device) r->peak_device = fi.peak_device_bytes;
        r->peak_rss = fi.peak_rss_bytes; /* in process; bench_isolated replaces it */
        r->tasks = fi.tasks;
        if (fi.mode != mode && mode != SYLVA_MODE_AUTO)
            snprintf(r->note, sizeof r->note, "ran in %s mode", sylva_exec_mode_name(fi.mode));
    }
    if (st) goto out;
    r->nsolves = o->n_nrhs;
    for (int q = 0; q < o->n_nrhs; q++) r->solves[q].nrhs = o->nrhs[q];
    /* GPU solves first: the copy of L to the host comes after them. */
    for (int q = 0; q < o->n_nrhs && (r->tasks_gpu > 0 || r->direct); q++) {
        bench_solve *bs = &r->solves[q];
        sylva_solve_info gi;
        st = time_solve(A, F, SYLVA_SOLVE_GPU, bs->nrhs, o, &bs->gpu, &gi, &bs->gpu_device, &bs->berr);
        if (st) {
            snprintf(r->note, sizeof r->note, "GPU solve: %.140s", solve_note[0] ? solve_note : sylva_last_error());
            bs->gpu = 0;
            st = 0;
            break;
        }
        bs->gpu_upload = gi.seconds_upload;
        bs->gpu_solve = gi.seconds_solve;
        bs->gpu_download = gi.seconds_download;
    }
    if ((st = sylva_factor_to_host(F, &r->to_host))) goto out;
    b = malloc((size_t)(A->n + 1) * sizeof *b);
    x = malloc((size_t)(A->n + 1) * sizeof *x);
    ones = malloc((size_t)(A->n + 1) * sizeof *ones);
    for (int64_t i = 0; i < A->n; i++) ones[i] = 1;
    sylva_matrix_symv(A, ones, b);
    memcpy(x, b, (size_t)A->n * sizeof *x);
    double t0 = sylva_wtime();
    if ((st = sylva_solve(F, 1, x, A->n > 0 ? A->n : 1))) goto out;
    r->solve = sylva_wtime() - t0;
    r->berr = sylva_backward_error(A, x, b);
    for (int q = 0; q < o->n_nrhs && !st && !o->gpu_solves_only; q++) {
        bench_solve *bs = &r->solves[q];
        double e = 0;
        st = time_solve(A, F, SYLVA_SOLVE_CPU, bs->nrhs, o, &bs->cpu, NULL, NULL, &e);
        if (!st) st = time_solve(A, F, SYLVA_SOLVE_SEQUENTIAL, bs->nrhs, o, &bs->seq, NULL, NULL, &e);
        if (!(e <= bs->berr)) bs->berr = e;
        fprintf(stderr, "  solve %lld rhs: gpu %.4f cpu %.4f sequential %.4f s\n", (long long)bs->nrhs,
                bs->gpu, bs->cpu, bs->seq);
    }
    if (st) goto out;
    if (perm_out) {
        *perm_out = malloc((size_t)(A->n + 1) * sizeof **perm_out);
        memcpy(*perm_out, sylva_analysis_perm(an), (size_t)A->n * sizeof **perm_out);
    }
    r->ok = 1;
out:
    if (st) snprintf(r->note, sizeof r->note, "%s", sylva_last_error());
    free(b);
    free(x);
    free(ones);
    sylva_factor_free(F);
    sylva_analysis_free(an);
    sylva_finalize();
    return st;
}
