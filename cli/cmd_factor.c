/* cmd_factor.c — `sylva factor`: read, analyze, factor (optionally several
 * times: refactorization), solve, check the backward error, print a summary
 * and write --json / -o (--analysis loads a saved analysis, --save writes
 * it; --quiet prints no summary). Any failure still writes the JSON with its status
 * before exiting with the mapped code; -o is written only for an accurate
 * solution, and a file that cannot be written exits 4 (both go through
 * sylva_write_file: never a truncated file). The default right-hand side
 * is b = A·1, scaled by a power of two when A·1 overflows. With --precision
 * single the factor and the solve run in float; the backward error is
 * measured against the double matrix read from the file. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* The backward error above which a solution in this precision is called
 * inaccurate (exit 4). */
static double accurate_limit(const cli_args *a)
{
    return a->opts.precision == SYLVA_FLOAT32 ? SYLVA_ACCURATE_BACKWARD_ERROR_FLOAT32
                                              : SYLVA_ACCURATE_BACKWARD_ERROR_FLOAT64;
}

typedef struct report {
    int status;
    sylva_analysis_info ai;
    sylva_factor_info fi;
    double t_read, t_analyze, t_factor, t_factor_first, t_to_host, t_solve, berr, logdet;
    int inaccurate;    /* solved, but the backward error exceeds accurate_limit() */
    int output_failed; /* the status is a failure to write -o */
    int64_t nrhs;
} report;

/* The JSON summary; a status (the write's). */
static int write_json(const cli_args *a, const report *r)
{
    cli_json j;
    int st = cli_json_open(&j, a->json);
    if (st) return st;
    cli_json_str(&j, "status", r->inaccurate ? "inaccurate" : sylva_status_name(r->status));
    if (r->status) cli_json_str(&j, "message", cli_message(r->status));
    if (r->inaccurate) {
        char msg[64];
        snprintf(msg, sizeof msg, "backward error exceeds %.0e", accurate_limit(a));
        cli_json_str(&j, "message", msg);
    }
    cli_json_str(&j, "file", a->file);
    cli_json_int(&j, "n", r->ai.n);
    cli_json_int(&j, "nnz_A", r->ai.nnz_A);
    cli_json_int(&j, "nnz_L", r->ai.nnz_L);
    cli_json_num(&j, "flops", r->ai.flops);
    cli_json_int(&j, "fronts", r->ai.fronts);
    cli_json_int(&j, "tree_height", r->ai.tree_height);
    cli_json_int(&j, "tasks", r->fi.tasks);
    cli_json_int(&j, "batches", r->ai.batches);
    cli_json_str(&j, "policy", a->opts.policy);
    cli_json_str(&j, "ordering", r->ai.n || !r->status ? sylva_ordering_name(r->ai.ordering) : a->ordering);
    cli_json_str(&j, "ordering_requested", a->ordering);
    if (a->analysis) cli_json_str(&j, "analysis_file", a->analysis);
    cli_json_str(&j, "precision", sylva_dtype_name(a->opts.precision));
    cli_json_int(&j, "threads", a->threads);
    cli_json_str(&j, "mode", sylva_exec_mode_name(r->fi.mode));
    cli_json_int(&j, "gpus", r->fi.mode == SYLVA_MODE_CPU ? 0 : r->fi.gpus);
    cli_json_str(&j, "device", r->fi.mode == SYLVA_MODE_CPU ? "cpu" : sylva_gpu_name());
    cli_json_begin(&j, "seconds");
    cli_json_num(&j, "read", r->t_read);
    cli_json_num(&j, "analyze", r->t_analyze);
    cli_json_num(&j, "ordering", r->ai.seconds_ordering);
    cli_json_num(&j, "symbolic", r->ai.seconds_symbolic);
    cli_json_num(&j, "maps", r->ai.seconds_maps);
    cli_json_num(&j, "plan", r->ai.seconds_plan);
    cli_json_num(&j, "factorize", r->t_factor);
    cli_json_num(&j, "factorize_first", r->t_factor_first);
    cli_json_num(&j, "to_host", r->t_to_host);
    cli_json_num(&j, "solve", r->t_solve);
    cli_json_end(&j);
    cli_json_begin(&j, "workers");
    cli_json_int(&j, "tasks_cpu", r->fi.tasks_cpu);
    cli_json_int(&j, "tasks_gpu", r->fi.tasks_gpu);
    cli_json_num(&j, "gpu_busy_seconds", r->fi.gpu_busy_seconds);
    cli_json_num(&j, "gpu_wait_seconds", r->fi.mode == SYLVA_MODE_CPU ? 0 : r->fi.seconds - r->fi.gpu_busy_seconds);
    cli_json_num(&j, "bytes_to_device", r->fi.bytes_to_device);
    cli_json_num(&j, "bytes_to_host", r->fi.bytes_to_host);
    cli_json_num(&j, "peak_device_bytes", r->fi.peak_device_bytes);
    cli_json_num(&j, "gpu_seconds_batched", r->fi.gpu_seconds_batched);
    cli_json_num(&j, "gpu_flops_batched", r->fi.gpu_flops_batched);
    cli_json_num(&j, "gpu_seconds_large", r->fi.gpu_seconds_large);
    cli_json_num(&j, "gpu_flops_large", r->fi.gpu_flops_large);
    cli_json_end(&j);
    cli_json_num(&j, "gflops", r->t_factor > 0 ? r->ai.flops / r->t_factor * 1e-9 : 0);
    cli_json_int(&j, "nrhs", r->nrhs);
    cli_json_num(&j, "backward_error", r->berr);
    cli_json_num(&j, "logdet", r->logdet);
    cli_json_int(&j, "failed_column", r->fi.failed_column >= 0 ? r->fi.failed_column + 1 : -1);
    return cli_json_close(&j);
}

static int finish(const cli_args *a, report *r, int status)
{
    r->status = status;
    int code = !status ? EXIT_OK : r->output_failed ? cli_fail_output(status) : cli_fail(status);
    if (!status && !(r->berr <= accurate_limit(a))) {
        /* A solve that is not accurate is a failure, not a success. */
        fprintf(stderr, "sylva: backward error %.3e exceeds %.0e%s\n", r->berr, accurate_limit(a),
                a->output ? "; the solution is not written" : "");
        r->inaccurate = 1;
        code = EXIT_RUNTIME;
    }
    int st = a->json ? write_json(a, r) : SYLVA_OK;
    if (st) {
        int c = cli_fail_output(st);
        if (code == EXIT_OK) code = c;
    }
    return code;
}

/* b = A·x0 with x0 = 1, or x0 = 2^-e·1 when A·1 overflows: rows of at most
 * 2^e entries of at most DBL_MAX cannot. */
static int default_rhs(const sylva_matrix *A, double *B)
{
    int64_t n = A->n;
    double *x0 = malloc((size_t)(n ? n : 1) * sizeof *x0);
    int64_t *count = calloc((size_t)(n ? n : 1), sizeof *count);
    if (!x0 || !count) {
        free(x0);
        free(count);
        return cli_error(SYLVA_ERR_NO_MEMORY, "out of memory forming the right-hand side");
    }
    double scale = 1.0;
    for (int pass = 0; pass < 2; pass++) {
        for (int64_t i = 0; i < n; i++) x0[i] = scale;
        sylva_matrix_symv(A, x0, B);
        int finite = 1;
        for (int64_t i = 0; i < n && finite; i++) finite = isfinite(B[i]);
        if (finite) break;
        if (pass == 1) {
            free(x0);
            free(count);
            return cli_error(SYLVA_ERR_BAD_VALUE,
                             "cannot form the right-hand side: A·x overflows "
                             "double precision even for x = %g·1",
                             scale);
        }
        int64_t widest = 1; /* entries of the widest row of the full matrix */
        for (int64_t j = 0; j < n; j++)
            for (int64_t p = A->colptr[j]; p < A->colptr[j + 1]; p++) {
                count[A->rowind[p]]++;
                if (A->rowind[p] != j) count[j]++;
            }
        for (int64_t i = 0; i < n; i++)
            if (count[i] > widest) widest = count[i];
        int e = 0;
        while (((int64_t)1 << e) < widest && e < 62) e++;
        scale = ldexp(1.0, -e);
        fprintf(stderr,
                "sylva: b = A·1 overflows double precision; using b = A·x with x = 2^-%d·1\n", e);
    }
    free(x0);
    free(count);
    return SYLVA_OK;
}

/* b = A·1 (default_rhs), or the --rhs file (n × nrhs). */
static int make_rhs(const cli_args *a, const sylva_matrix *A, double **B, int64_t *nrhs)
{
    if (!a->rhs) {
        *B = malloc((size_t)(A->n ? A->n : 1) * sizeof **B);
        if (!*B) return cli_error(SYLVA_ERR_NO_MEMORY, "out of memory forming the right-hand side");
        *nrhs = 1;
        return default_rhs(A, *B);
    }
    int64_t n;
    int status = sylva_read_dense(a->rhs, &n, nrhs, B);
    if (status) return status;
    if (n != A->n) {
        free(*B);
        *B = NULL;
        return cli_error(SYLVA_ERR_ARGUMENT,
                         "%s: the right-hand side has %lld rows, the matrix (%s) %lld", a->rhs,
                         (long long)n, a->file, (long long)A->n);
    }
    return SYLVA_OK;
}

/* -v: where the factorization ran, and why not on a GPU when it could not. */
static void report_where(const cli_args *a, const sylva_factor_info *fi)
{
    if (fi->mode != SYLVA_MODE_CPU) {
        fprintf(stderr, "sylva: factorized in %s mode on %d GPU%s (%s)\n", sylva_exec_mode_name(fi->mode),
                fi->gpus, fi->gpus == 1 ? "" : "s", sylva_gpu_name());
        return;
    }
    const char *why = a->opts.mode == SYLVA_MODE_CPU        ? "--mode cpu"
                      : a->opts.ncuda == 0                  ? "--gpus 0"
                      : sylva_gpu_count() == 0              ? "no GPU found (or sylva built without CUDA)"
                      : a->opts.precision != SYLVA_FLOAT64 ? "GPUs factor in double precision only"
                                                            : "CPU run";
    fprintf(stderr, "sylva: factorized on the CPU (%s)\n", why);
}

/* X (n × nrhs, double) ← A⁻¹ X through the factor, in its precision. */
static int solve_in_precision(const sylva_factor_t *F, int64_t n, int64_t nrhs, double *X)
{
    int64_t ld = n > 0 ? n : 1;
    if (sylva_factor_dtype(F) == SYLVA_FLOAT64) return sylva_solve(F, nrhs, X, ld);
    float *Xs = malloc((size_t)(n * nrhs + 1) * sizeof *Xs);
    if (!Xs) return cli_error(SYLVA_ERR_NO_MEMORY, "out of memory for the solution");
    for (int64_t i = 0; i < n * nrhs; i++) Xs[i] = (float)X[i];
    int status = sylva_solve(F, nrhs, Xs, ld);
    for (int64_t i = 0; i < n * nrhs; i++) X[i] = (double)Xs[i];
    free(Xs);
    return status;
}

int cli_cmd_factor(const cli_args *a)
{
    report r;
    memset(&r, 0, sizeof r);
    r.berr = NAN;
    r.logdet = NAN;
    r.fi.failed_column = -1;
    sylva_matrix *A = NULL;
    sylva_analysis_t *an = NULL;
    sylva_factor_t *F = NULL;
    double *B = NULL, *X = NULL;
    int status;
    double t0 = sylva_wtime();
    if ((status = sylva_read_matrix_market(a->file, &A))) return finish(a, &r, status);
    r.t_read = sylva_wtime() - t0;
    if (!A->values) {
        status =
            cli_error(SYLVA_ERR_PATTERN_ONLY,
                      "%s: pattern matrix (no values): it can be analyzed, not factored", a->file);
        goto out;
    }
    if ((status = sylva_init(&a->opts))) goto out;
    if ((status = cli_analysis_step(a, A, &an, &r.ai, &r.output_failed))) goto out;
    r.t_analyze = r.ai.seconds;
    if (a->batches && (status = cli_write_batches(a->batches, an))) {
        r.output_failed = 1;
        goto out;
    }
    for (int rep = 0; rep < a->repeat; rep++) {
        sylva_factor_info fi;
        status = rep == 0 ? sylva_factorize(an, A, &F, &fi) : sylva_refactorize(F, A, &fi);
        r.fi = fi;
        if (status) goto out;
        if (rep == 0) r.t_factor_first = fi.seconds;
        if (rep == 0 || fi.seconds < r.t_factor) r.t_factor = fi.seconds;
    }
    cli_progress_end();
    if (a->opts.verbose) report_where(a, &r.fi);
    /* After a GPU factorization L is on the GPU: time bringing it here. */
    if ((status = sylva_factor_to_host(F, &r.t_to_host))) goto out;
    if ((status = make_rhs(a, A, &B, &r.nrhs))) goto out;
    X = malloc((size_t)(A->n * r.nrhs + 1) * sizeof *X);
    if (!X) {
        status = cli_error(SYLVA_ERR_NO_MEMORY, "out of memory for the solution");
        goto out;
    }
    memcpy(X, B, (size_t)(A->n * r.nrhs) * sizeof *X);
    t0 = sylva_wtime();
    if ((status = solve_in_precision(F, A->n, r.nrhs, X))) goto out;
    r.t_solve = sylva_wtime() - t0;
    r.berr = 0;
    for (int64_t c = 0; c < r.nrhs; c++) {
        double e = sylva_backward_error(A, X + c * A->n, B + c * A->n);
        if (!(e <= r.berr)) r.berr = e; /* NaN wins */
    }
    sylva_logdet(F, &r.logdet);
    /* An inaccurate solution is a failure (finish): it is not written. */
    if (a->output && r.berr <= accurate_limit(a) &&
        (status = sylva_write_dense(a->output, A->n, r.nrhs, X, A->n > 0 ? A->n : 1))) {
        r.output_failed = 1;
        goto out;
    }
    if (a->quiet) goto out;
    printf("%s: n = %lld, nnz(A) = %lld, nnz(L) = %lld, flops = %.3e\n", a->file,
           (long long)r.ai.n, (long long)r.ai.nnz_A, (long long)r.ai.nnz_L, r.ai.flops);
    printf("  fronts %lld (tree height %lld, largest %lld rows), policy %s: %lld tasks, %s\n",
           (long long)r.ai.fronts, (long long)r.ai.tree_height, (long long)r.ai.max_front_rows,
           a->opts.policy, (long long)r.fi.tasks, sylva_dtype_name(a->opts.precision));
    printf("  time: read %.3f s, analyze %.3f s, factorize %.3f s (%.2f GFLOP/s), solve %.3f s\n",
           r.t_read, r.t_analyze, r.t_factor, r.t_factor > 0 ? r.ai.flops / r.t_factor * 1e-9 : 0,
           r.t_solve);
    if (r.fi.mode != SYLVA_MODE_CPU)
        printf("  %s on %d GPU%s (%s): GPU busy %.3f s, %lld GPU + %lld CPU tasks; %.1f MB to the "
               "GPU, %.1f MB back; peak device memory %.1f MB; L to host %.3f s\n",
               sylva_exec_mode_name(r.fi.mode), r.fi.gpus, r.fi.gpus == 1 ? "" : "s", sylva_gpu_name(),
               r.fi.gpu_busy_seconds, (long long)r.fi.tasks_gpu, (long long)r.fi.tasks_cpu,
               r.fi.bytes_to_device / 1e6, r.fi.bytes_to_host / 1e6, r.fi.peak_device_bytes / 1e6,
               r.t_to_host);
    printf("  backward error %.3e (%lld right-hand side%s), log det %.10g\n", r.berr,
           (long long)r.nrhs, r.nrhs == 1 ? "" : "s", r.logdet);
out:;
    cli_progress_end();
    int code = finish(a, &r, status);
    free(B);
    free(X);
    sylva_factor_free(F);
    sylva_analysis_free(an);
    sylva_matrix_free(A);
    sylva_finalize();
    return code;
}
