/* cmd_factor.c — `sylva factor`: check the outputs, read the matrix and the
 * right-hand sides (both checked before any work), analyze (or load a saved
 * analysis), factor (several times with --repeat: refactorization), solve
 * (where the factor is unless --solve-mode says; --refine steps), check the backward error against --max-backward-error, estimate the
 * condition number (--rcond), warn when the pivot ratio or rcond is below
 * epsilon (--fail-singular: exit 5), write -o, print the summary and write the
 * JSON record (factor_report.c). Any failure still writes the JSON with its
 * status before exiting with the mapped code; -o is written only for an
 * accurate solution; a file that cannot be written once the work is done
 * exits 4 (never a truncated file: sylva_write_file). With --precision
 * single the factor and the solves run in float on double right-hand
 * sides (mixed precision: residuals and the solution in double, so
 * --refine reaches double accuracy); the backward error is measured
 * against the double matrix read from the file. The runtime starts on a
 * thread beside the read and the analysis (one process); at exit the host
 * memory the OS frees is left to it (leave). */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "factor_report.h"

/* The backward error above which a solution is called inaccurate (exit 4). */
static double max_backward_error(const cli_args *a)
{
    if (a->max_berr > 0) return a->max_berr;
    return a->opts.precision == SYLVA_FLOAT32 ? SYLVA_ACCURATE_BACKWARD_ERROR_FLOAT32
                                              : SYLVA_ACCURATE_BACKWARD_ERROR_FLOAT64;
}

/* Rank 0 of a distributed run, or the one process (before sylva_init too). */
static int root_rank(const factor_report *r) { return r->ri.rank == 0; }

static int finish(const cli_args *a, factor_report *r, int status)
{
    r->status = status;
    if (!root_rank(r)) { /* the report is rank 0's; every rank says why it stops */
        if (status) fprintf(stderr, "sylva: %s\n", cli_message(status));
        return status ? cli_exit_code(status) : EXIT_OK;
    }
    int code = !status ? EXIT_OK : r->output_failed ? cli_fail_output(status) : cli_fail(status);
    if (!status && r->singular && a->fail_singular && r->berr <= r->max_berr) {
        fprintf(stderr, "sylva: %s is numerically singular (--fail-singular)%s\n", a->file,
                a->output ? "; the solution is not written" : "");
        code = EXIT_SINGULAR;
    }
    if (!status && !(r->berr <= r->max_berr)) {
        /* A solve that is not accurate is a failure, not a success. */
        fprintf(stderr, "sylva: backward error %.3e exceeds %.3g%s\n", r->berr, r->max_berr,
                a->output ? "; the solution is not written" : "");
        r->inaccurate = 1;
        code = EXIT_RUNTIME;
    }
    int st = a->json ? factor_report_json(a, r) : SYLVA_OK;
    if (st) {
        int c = cli_fail_output(st);
        if (code == EXIT_OK) code = c;
    }
    return code;
}

/* -v: where the factorization ran, and why not on a GPU when it could not. */
static void report_where(const cli_args *a, const sylva_factor_info *fi)
{
    if (fi->mode != SYLVA_MODE_CPU) {
        fprintf(stderr, "sylva: factorized in %s mode on %d GPU%s (%s)\n", sylva_exec_mode_name(fi->mode),
                fi->gpus, fi->gpus == 1 ? "" : "s", sylva_gpu_name());
        return;
    }
    fprintf(stderr, "sylva: factorized on the CPU (%s) in %.3f s\n", cli_where_cpu(a, fi), fi->seconds);
}

/* The not-positive-definite message, with the file and the likely causes. */
static void explain_not_spd(const cli_args *a, const factor_report *r)
{
    if (a->opts.precision == SYLVA_FLOAT32) {
        /* The float32 copy of the matrix, not the file, failed. */
        fprintf(stderr,
                "sylva: %s is not positive definite in single precision (column %lld, 1-based, in the file's "
                "numbering): rounding its values to float can make a positive definite matrix indefinite;\n"
                "       try --precision double.\n",
                a->file, (long long)(r->fi.failed_column + 1));
        return;
    }
    fprintf(stderr, "sylva: %s is not positive definite (column %lld, 1-based, in the file's numbering).\n",
            a->file, (long long)(r->fi.failed_column + 1));
    if (r->input.mirrored > 0)
        fprintf(stderr,
                "       It stores %lld entries in both triangles, combined by --symmetric-both %s:\n"
                "       if the file holds the full matrix, --symmetric-both lower reads it as meant.\n",
                (long long)r->input.mirrored,
                a->read.symmetric_both == SYLVA_BOTH_SUM ? "sum" : a->read.symmetric_both == SYLVA_BOTH_LOWER ? "lower" : "average");
    fprintf(stderr, "       Likely causes: the matrix is indefinite or singular, or a sign convention (-A is SPD)%s.\n",
            r->input.asymmetric > 0 ? ", or the symmetrization changed it" : "");
}

/* The command's exit: its outputs are written (finish) and durable (each
 * written to a temporary, synced and renamed: core/out_file.c), so host
 * memory that the OS frees at exit is not freed here — the matrix, the
 * right-hand sides, the solution, the analysis (its tree and plan): they
 * are left in `left`, static, so that ASan's leak check and valgrind see
 * them reachable, not lost. The factor is still freed (its StarPU data
 * must be unregistered before StarPU's shutdown, which warns otherwise)
 * and the runtime stopped (StarPU saves there the performance models its
 * GPU scheduler learns from). */
static volatile struct { /* volatile: the stores stay, though nothing reads them */
    sylva_matrix *A;
    sylva_analysis_t *an;
    double *B, *X, *berr_columns;
    sylva_rank_info *ranks;
} left;

static void leave(sylva_matrix *A, sylva_analysis_t *an, double *B, double *X, factor_report *r)
{
    left.A = A;
    left.an = an;
    left.B = B;
    left.X = X;
    left.berr_columns = r->berr_columns;
    left.ranks = r->ranks;
}

int cli_cmd_factor(const cli_args *a)
{
    factor_report r;
    memset(&r, 0, sizeof r);
    r.berr = r.logdet = r.rcond = r.fi.pivot_ratio = NAN;
    r.fi.failed_column = -1;
    r.max_berr = max_backward_error(a);
    sylva_matrix *A = NULL;
    sylva_analysis_t *an = NULL;
    sylva_factor_t *F = NULL;
    double *B = NULL, *X = NULL;
    int status;
    if ((status = cli_check_overlaps(a)) || (status = cli_check_output("--json", a->json)))
        return cli_fail(status);
    if ((status = cli_check_outputs(a))) return finish(a, &r, status);
    /* One process: the runtime (StarPU, CUDA) starts on a thread of its
     * own beside the read and the analysis, which waits for it before its
     * plan. Under mpirun it starts here: only rank 0 reads, and its outcome
     * is every rank's (sylva_agree); the others follow each collective
     * call with no data of their own. */
    int on_thread = 0;
    if ((status = sylva_init_begin(&a->opts, &on_thread))) goto out;
    /* An explicit request for GPUs that are not there fails before any
     * work once the runtime has started: here, or after the analysis. */
    if (!on_thread) {
        sylva_runtime_query(&r.ri);
        if ((status = cli_agree(cli_check_gpus(a)))) goto out;
    }
    int root = on_thread || r.ri.rank == 0;
    double t0 = sylva_wtime();
    if (root) status = cli_read_matrix(a, &A, &r.input);
    r.t_read = sylva_wtime() - t0;
    if (root && !status && !A->values)
        status = cli_error(SYLVA_ERR_PATTERN_ONLY,
                           "%s: pattern matrix (no values): it can be analyzed, not factored", a->file);
    t0 = sylva_wtime();
    if (root && !status) status = cli_make_rhs(a, A, &B, &r.nrhs, r.rhs, sizeof r.rhs);
    r.t_rhs = sylva_wtime() - t0;
    if ((status = cli_agree(status))) goto out;
    status = cli_analysis_step(a, A, &an, &r.ai, &r.output_failed);
    /* The start has ended (the analysis waited for it): its outcome. */
    int started = sylva_init_wait(&r.t_startup, &r.t_startup_wait);
    if (status || (status = started)) goto out;
    if (on_thread) {
        sylva_runtime_query(&r.ri);
        if ((status = cli_check_gpus(a))) goto out;
    }
    cli_progress_end();
    if (a->opts.verbose && root) cli_verbose_analysis(a, &r.ai);
    /* The plan's batches now (a failed factorization still leaves them),
     * the measured ones once it ran. */
    if (a->batches && root && (status = cli_write_batches(a->batches, an, NULL))) r.output_failed = 1;
    if ((status = cli_agree(status))) goto out;
    cli_progress_flops(r.ai.flops);
    for (int rep = 0; rep < a->repeat; rep++) {
        sylva_factor_info fi;
        status = rep == 0 ? sylva_factorize(an, A, &F, &fi) : sylva_refactorize(F, A, &fi);
        r.fi = fi;
        if (status) goto out;
        if (rep == 0) r.t_factor_first = fi.seconds;
        if (rep == 0 || fi.seconds < r.t_factor) r.t_factor = fi.seconds;
    }
    cli_progress_end();
    for (r.ngpu = 0; r.ngpu < SYLVA_MAX_GPU_STATS && sylva_factor_gpu_stats(F, r.ngpu, &r.gpu[r.ngpu]) == SYLVA_OK;)
        r.ngpu++;
    if (a->opts.verbose && root) report_where(a, &r.fi);
    /* What the last factorization's tasks measured (StarPU's profiling;
     * this rank's tasks in a distributed run), and every rank's share. */
    if ((status = run_summary_compute(F, &r.measured))) goto out;
    r.have_measured = 1;
    if ((status = factor_report_ranks(F, &r))) goto out;
    if (a->opts.verbose && root) factor_report_print_ranks(&r);
    if (a->batches && root && (status = cli_write_batches(a->batches, an, F))) r.output_failed = 1;
    if (a->trace && root && !status) {
        char title[512];
        snprintf(title, sizeof title, "sylva factor %s, policy %s", a->file, a->opts.policy);
        if ((status = cli_write_trace(a->trace, an, F, title))) r.output_failed = 1;
    }
    if (root && !status) {
        X = malloc((size_t)(A->n * r.nrhs + 1) * sizeof *X);
        r.berr_columns = malloc((size_t)(r.nrhs + 1) * sizeof *r.berr_columns);
        if (!X || !r.berr_columns) status = cli_error(SYLVA_ERR_NO_MEMORY, "out of memory for the solution");
        else memcpy(X, B, (size_t)(A->n * r.nrhs) * sizeof *X);
    }
    if ((status = cli_agree(status))) goto out;
    /* Where the factor is (a GPU solve after a GPU factorization) unless
     * --solve-mode says; double right-hand sides on a single-precision
     * factor are mixed precision (float solves, double residuals). In a
     * distributed run each rank solves the fronts it holds. */
    t0 = sylva_wtime();
    int64_t n = root ? A->n : 0;
    if ((status = sylva_solve_ex(F, &a->opts, SYLVA_FLOAT64, root ? r.nrhs : 0, X, n > 0 ? n : 1, &r.si)))
        goto out;
    r.t_solve = sylva_wtime() - t0;
    r.solved = 1;
    /* L comes to host memory only when something needs it there, timed
     * (to_host): a CPU solve (the solve's own count), the log det when the
     * GPU did not sum it (the call's time: then mostly the copy), and
     * --rcond in a distributed run (L gathered on rank 0). */
    if (r.fi.ranks >= 2 && a->rcond && (status = sylva_factor_to_host(F, &r.t_to_host))) goto out;
    r.t_to_host += r.si.seconds_to_host;
    r.berr = 0;
    for (int64_t c = 0; root && c < r.nrhs; c++) {
        double e = sylva_backward_error(A, X + c * A->n, B + c * A->n);
        r.berr_columns[c] = e;
        if (!(e <= r.berr)) r.berr = e; /* NaN wins */
    }
    t0 = sylva_wtime();
    sylva_logdet(F, &r.logdet);
    if (r.fi.mode != SYLVA_MODE_CPU) r.t_to_host += sylva_wtime() - t0;
    if (a->rcond && root) {
        t0 = sylva_wtime();
        status = sylva_rcond(F, A, &r.rcond);
        r.t_rcond = sylva_wtime() - t0;
    }
    /* Singular to working precision: CHOLMOD's pivot ratio (every
     * factorization on the host) or the --rcond estimate below epsilon. A
     * warning, or with --fail-singular a failure (finish). */
    double eps = a->opts.precision == SYLVA_FLOAT32 ? FLT_EPSILON : DBL_EPSILON;
    r.singular = r.fi.pivot_ratio < eps || (a->rcond && r.rcond < eps);
    if (r.singular && root && !a->fail_singular)
        fprintf(stderr,
                "sylva: warning: %s is singular to working precision (%s %.3e below epsilon %.3g): the "
                "solution may be meaningless even with a small backward error (--fail-singular makes this an "
                "error)\n",
                a->file, r.fi.pivot_ratio < eps ? "pivot ratio (min/max diag L)^2" : "rcond",
                r.fi.pivot_ratio < eps ? r.fi.pivot_ratio : r.rcond, eps);
    /* An inaccurate solution is a failure (finish): it is not written. */
    if (!status && root && a->output && r.berr <= r.max_berr && !(r.singular && a->fail_singular) &&
        (status = sylva_write_dense(a->output, A->n, r.nrhs, X, A->n > 0 ? A->n : 1)))
        r.output_failed = 1;
    if ((status = cli_agree(status))) goto out;
    if (!a->quiet && root) factor_report_print(a, &r);
out:;
    cli_progress_end();
    int code = finish(a, &r, status);
    if (status == SYLVA_ERR_NOT_SPD && r.fi.failed_column >= 0 && root_rank(&r)) explain_not_spd(a, &r);
    leave(A, an, B, X, &r);
    sylva_factor_free(F);
    sylva_finalize();
    return code;
}
