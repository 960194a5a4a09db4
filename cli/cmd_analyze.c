/* cmd_analyze.c — `sylva analyze`: ordering, fronts and the batching plan of
 * a matrix (values not needed: pattern files work), printed as a summary
 * with the front-size histogram and the phases' times; --json writes the
 * same (on failure too), --batches the plan's batches, --save the analysis
 * (--analysis loads one instead of ordering). Outputs are checked before
 * the matrix is read; a failure to write one later exits 4. */
#include <string.h>

#include "cli.h"
#include "json.h"

static void print_summary(const cli_args *a, const sylva_analysis_info *ai)
{
    fprintf(a->report, "%s: n = %lld, nnz(A) = %lld, nnz(L) = %lld, flops = %.3e\n", a->file, (long long)ai->n,
           (long long)ai->nnz_A, (long long)ai->nnz_L, ai->flops);
    fprintf(a->report, "  ordering %s%s%s: %lld fronts, tree height %lld, largest front %lld rows\n",
           sylva_ordering_name(ai->ordering), a->analysis ? " from " : "", a->analysis ? a->analysis : "",
           (long long)ai->fronts, (long long)ai->tree_height, (long long)ai->max_front_rows);
    fprintf(a->report, "  policy %s: %lld batches (%lld small fronts, %lld large), factor %.1f MB, peak CB %.1f MB\n",
           a->opts.policy, (long long)ai->batches, (long long)ai->small_fronts, (long long)ai->large_fronts,
           ai->factor_bytes / 1e6, ai->peak_cb_bytes / 1e6);
    fprintf(a->report, "  front rows histogram:");
    for (int b = 0; b < SYLVA_FRONT_HIST_BINS; b++)
        if (ai->front_hist[b]) fprintf(a->report, " [%d,%d): %lld", 1 << b, 2 << b, (long long)ai->front_hist[b]);
    fprintf(a->report, "\n  batches: %.1f fronts each on average, size spread %.2f, padding waste %.1f%%\n",
           ai->fronts_per_batch, ai->size_spread, 100 * ai->padding_waste);
    fprintf(a->report, "  analyze %.3f s (ordering %.3f, symbolic %.3f, maps %.3f, plan %.3f)\n", ai->seconds,
           ai->seconds_ordering, ai->seconds_symbolic, ai->seconds_maps, ai->seconds_plan);
}

/* t: the read's, the runtime start's and the wait for it, in seconds. */
static int write_json(const cli_args *a, int status, const sylva_analysis_info *ai, const double t[3])
{
    json_writer j;
    int st = json_open(&j, a->json, '{');
    if (st) return st;
    json_str(&j, "status", sylva_status_name(status));
    if (status) json_str(&j, "message", cli_message(status));
    json_str(&j, "command", "analyze");
    json_str(&j, "version", sylva_version());
    json_str(&j, "file", a->file);
    json_int(&j, "n", ai->n);
    json_int(&j, "nnz_A", ai->nnz_A);
    json_int(&j, "nnz_L", ai->nnz_L);
    json_num(&j, "flops", ai->flops);
    json_int(&j, "fronts", ai->fronts);
    json_int(&j, "tree_height", ai->tree_height);
    json_int(&j, "max_front_rows", ai->max_front_rows);
    json_int(&j, "batches", ai->batches);
    json_int(&j, "small_fronts", ai->small_fronts);
    json_int(&j, "large_fronts", ai->large_fronts);
    json_str(&j, "policy", a->opts.policy);
    json_str(&j, "ordering", ai->n || !status ? sylva_ordering_name(ai->ordering) : a->ordering);
    json_str(&j, "ordering_requested", a->ordering);
    if (a->analysis) json_str(&j, "analysis_file", a->analysis);
    json_num(&j, "fronts_per_batch", ai->fronts_per_batch);
    json_num(&j, "size_spread", ai->size_spread);
    json_num(&j, "padding_waste", ai->padding_waste);
    json_num(&j, "factor_bytes", ai->factor_bytes);
    json_num(&j, "peak_cb_bytes", ai->peak_cb_bytes);
    json_begin(&j, "seconds", '{');
    json_num(&j, "wall", sylva_wtime() - a->t_main);
    json_num(&j, "startup", t[1]);
    json_num(&j, "startup_wait", t[2]);
    json_num(&j, "read", t[0]);
    json_num(&j, "analyze", ai->seconds);
    json_num(&j, "ordering", ai->seconds_ordering);
    json_num(&j, "symbolic", ai->seconds_symbolic);
    json_num(&j, "maps", ai->seconds_maps);
    json_num(&j, "plan", ai->seconds_plan);
    json_end(&j);
    return json_close(&j);
}

int cli_cmd_analyze(const cli_args *a)
{
    /* One process's command (the analysis is the same on every rank, and
     * each would write the same outputs): `sylva factor` under mpirun
     * analyzes on rank 0 and shares the result. */
    if (cli_launcher_size() > 1) {
        fprintf(stderr, "sylva: analyze runs in one process: start it without mpirun (each of the %d ranks would "
                        "run the whole analysis and write its outputs); `sylva factor` is the distributed "
                        "command\n",
                cli_launcher_size());
        return EXIT_USAGE;
    }
    sylva_matrix *A = NULL;
    sylva_analysis_t *an = NULL;
    sylva_analysis_info ai;
    memset(&ai, 0, sizeof ai);
    int output_failed = 0;
    double t_read = 0;
    int status = cli_check_overlaps(a);
    if (!status) status = cli_check_output("--json", a->json);
    if (status) return cli_fail(status);
    status = cli_check_outputs(a);
    /* One process (the distributed path is `sylva factor`'s): the runtime
     * starts on its thread beside the read and the ordering. */
    sylva_options one = a->opts;
    one.mpi = SYLVA_MPI_OFF;
    if (!status) status = sylva_init_begin(&one, NULL);
    if (!status) {
        double t0 = sylva_wtime();
        sylva_read_info info;
        status = cli_read_matrix(a, &A, &info);
        t_read = sylva_wtime() - t0;
    }
    if (!status) status = cli_analysis_step(a, A, &an, &ai, &output_failed);
    double startup = 0, startup_wait = 0;
    int started = sylva_init_wait(&startup, &startup_wait);
    if (!status) status = started;
    if (!status) status = cli_check_gpus(a);
    cli_progress_end();
    if (!status && a->opts.verbose) cli_verbose_analysis(a, &ai);
    if (!status && !a->quiet) print_summary(a, &ai);
    if (!status && a->batches && (status = cli_write_batches(a->batches, an, NULL))) output_failed = 1;
    int code = !status ? EXIT_OK : output_failed ? cli_fail_output(status) : cli_fail(status);
    if (a->json) {
        double t[3] = {t_read, startup, startup_wait};
        int st = write_json(a, status, &ai, t);
        if (st) {
            int c = cli_fail_output(st);
            if (code == EXIT_OK) code = c;
        }
    }
    sylva_analysis_free(an);
    sylva_matrix_free(A);
    sylva_finalize();
    return code;
}
