/* cmd_analyze.c — `sylva analyze`: ordering, fronts and the batching plan of
 * a matrix (values not needed: pattern files work), printed as a summary
 * with the front-size histogram; --json writes the same; --batches the plan's
 * batches; --save the analysis (--analysis loads one instead of ordering).
 * Files are written atomically; failing to write one exits 4. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int cli_cmd_analyze(const cli_args *a)
{
    sylva_matrix *A = NULL;
    sylva_analysis_t *an = NULL;
    sylva_analysis_info ai;
    memset(&ai, 0, sizeof ai);
    int output_failed = 0;
    double t0 = sylva_wtime();
    int status = sylva_read_matrix_market(a->file, &A);
    double t_read = sylva_wtime() - t0;
    if (!status) status = sylva_init(&a->opts);
    if (!status) status = cli_analysis_step(a, A, &an, &ai, &output_failed);
    cli_progress_end();
    int code = !status ? EXIT_OK : output_failed ? cli_fail_output(status) : cli_fail(status);
    if (!status && !a->quiet) {
        printf("%s: n = %lld, nnz(A) = %lld, nnz(L) = %lld, flops = %.3e\n", a->file,
               (long long)ai.n, (long long)ai.nnz_A, (long long)ai.nnz_L, ai.flops);
        printf("  ordering %s%s%s: %lld fronts, tree height %lld, largest front %lld rows\n",
               sylva_ordering_name(ai.ordering), a->analysis ? " from " : "",
               a->analysis ? a->analysis : "", (long long)ai.fronts, (long long)ai.tree_height,
               (long long)ai.max_front_rows);
        printf("  policy %s: %lld batches (%lld small fronts, %lld large), factor %.1f MB, "
               "peak CB %.1f MB\n",
               a->opts.policy, (long long)ai.batches, (long long)ai.small_fronts,
               (long long)ai.large_fronts, ai.factor_bytes / 1e6, ai.peak_cb_bytes / 1e6);
        printf("  front rows histogram:");
        for (int b = 0; b < SYLVA_FRONT_HIST_BINS; b++)
            if (ai.front_hist[b]) printf(" [%d,%d): %lld", 1 << b, 2 << b, (long long)ai.front_hist[b]);
        printf("\n  batches: %.1f fronts each on average, size spread %.2f, padding waste %.1f%%\n",
               ai.fronts_per_batch, ai.size_spread, 100 * ai.padding_waste);
        printf("  analyze %.3f s (ordering %.3f, symbolic %.3f, maps %.3f, plan %.3f)\n", ai.seconds,
               ai.seconds_ordering, ai.seconds_symbolic, ai.seconds_maps, ai.seconds_plan);
    }
    if (!status) {
        int st = a->batches ? cli_write_batches(a->batches, an) : SYLVA_OK;
        if (st) code = cli_fail_output(st);
    }
    if (a->json) {
        cli_json j;
        int st = cli_json_open(&j, a->json);
        if (st == SYLVA_OK) {
            cli_json_str(&j, "status", sylva_status_name(status));
            if (status) cli_json_str(&j, "message", cli_message(status));
            cli_json_int(&j, "n", ai.n);
            cli_json_int(&j, "nnz_A", ai.nnz_A);
            cli_json_int(&j, "nnz_L", ai.nnz_L);
            cli_json_num(&j, "flops", ai.flops);
            cli_json_int(&j, "fronts", ai.fronts);
            cli_json_int(&j, "tree_height", ai.tree_height);
            cli_json_int(&j, "batches", ai.batches);
            cli_json_str(&j, "policy", a->opts.policy);
            cli_json_str(&j, "ordering", status ? a->ordering : sylva_ordering_name(ai.ordering));
            cli_json_str(&j, "ordering_requested", a->ordering);
            if (a->analysis) cli_json_str(&j, "analysis_file", a->analysis);
            cli_json_num(&j, "fronts_per_batch", ai.fronts_per_batch);
            cli_json_num(&j, "size_spread", ai.size_spread);
            cli_json_num(&j, "padding_waste", ai.padding_waste);
            cli_json_num(&j, "peak_cb_bytes", ai.peak_cb_bytes);
            cli_json_begin(&j, "seconds");
            cli_json_num(&j, "read", t_read);
            cli_json_num(&j, "analyze", ai.seconds);
            cli_json_num(&j, "ordering", ai.seconds_ordering);
            cli_json_num(&j, "symbolic", ai.seconds_symbolic);
            cli_json_num(&j, "maps", ai.seconds_maps);
            cli_json_num(&j, "plan", ai.seconds_plan);
            cli_json_end(&j);
            st = cli_json_close(&j);
        }
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

int cli_write_batches(const char *path, const sylva_analysis_t *an)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) return cli_error(SYLVA_ERR_NO_MEMORY, "%s: out of memory", path);
    fputs("[\n", f);
    int64_t nb = sylva_analysis_batch_count(an);
    for (int64_t i = 0; i < nb; i++) {
        sylva_batch_info b;
        sylva_analysis_batch(an, i, &b);
        fprintf(f,
                "  {\"batch\": %lld, \"fronts\": %lld, \"min_rows\": %lld, \"max_rows\": %lld, "
                "\"child_batches\": %lld, \"flops\": %.6g, \"large\": %s}%s\n",
                (long long)i, (long long)b.fronts, (long long)b.min_rows, (long long)b.max_rows,
                (long long)b.child_batches, b.flops, b.large ? "true" : "false", i + 1 < nb ? "," : "");
    }
    fputs("]\n", f);
    int bad = ferror(f);
    int status = fclose(f) != 0 || bad ? cli_error(SYLVA_ERR_NO_MEMORY, "%s: out of memory", path)
                                       : sylva_write_file(path, text, len);
    free(text);
    return status;
}
