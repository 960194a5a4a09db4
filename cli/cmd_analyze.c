/* cmd_analyze.c — `sylva analyze`: ordering, fronts and the batching plan of
 * a matrix (values not needed: pattern files work), printed as a summary
 * with the front-size histogram; --json writes the same. Also the status →
 * exit code mapping shared by the subcommands. */
#include <string.h>

#include "cli.h"

int cli_exit_code(int status)
{
    switch (status) {
    case SYLVA_OK: return EXIT_OK;
    case SYLVA_ERR_NOT_SPD: return EXIT_NOT_SPD;
    case SYLVA_ERR_NO_MEMORY:
    case SYLVA_ERR_RUNTIME:
    case SYLVA_ERR_NOT_INITIALIZED:
    case SYLVA_ERR_ORDERING: return EXIT_RUNTIME;
    default: return EXIT_INPUT;
    }
}

int cli_fail(int status)
{
    const char *msg = sylva_last_error();
    fprintf(stderr, "sylva: %s\n", msg && *msg ? msg : sylva_strerror(status));
    return cli_exit_code(status);
}

int cli_cmd_analyze(const cli_args *a)
{
    sylva_matrix *A = NULL;
    sylva_analysis_t *an = NULL;
    sylva_analysis_info ai;
    memset(&ai, 0, sizeof ai);
    int status = sylva_read_matrix_market(a->file, &A);
    if (!status) status = sylva_init(&a->opts);
    if (!status) status = sylva_analyze(A, &a->opts, &an, &ai);
    int code = status ? cli_fail(status) : EXIT_OK;
    if (!status) {
        printf("%s: n = %lld, nnz(A) = %lld, nnz(L) = %lld, flops = %.3e\n", a->file,
               (long long)ai.n, (long long)ai.nnz_A, (long long)ai.nnz_L, ai.flops);
        printf("  ordering %s: %lld fronts, tree height %lld, largest front %lld rows\n",
               a->ordering, (long long)ai.fronts, (long long)ai.tree_height,
               (long long)ai.max_front_rows);
        printf("  policy %s: %lld batches (%lld small fronts, %lld large), factor %.1f MB, "
               "peak CB %.1f MB\n",
               a->opts.policy, (long long)ai.batches, (long long)ai.small_fronts,
               (long long)ai.large_fronts, ai.factor_bytes / 1e6, ai.peak_cb_bytes / 1e6);
        printf("  front rows histogram:");
        for (int b = 0; b < 16; b++)
            if (ai.front_hist[b]) printf(" [%d,%d): %lld", 1 << b, 2 << b, (long long)ai.front_hist[b]);
        printf("\n  analyze %.3f s\n", ai.seconds);
    }
    if (a->json) {
        cli_json j;
        if (cli_json_open(&j, a->json) == 0) {
            cli_json_str(&j, "status", sylva_status_name(status));
            if (status) cli_json_str(&j, "message", sylva_last_error());
            cli_json_int(&j, "n", ai.n);
            cli_json_int(&j, "nnz_A", ai.nnz_A);
            cli_json_int(&j, "nnz_L", ai.nnz_L);
            cli_json_num(&j, "flops", ai.flops);
            cli_json_int(&j, "fronts", ai.fronts);
            cli_json_int(&j, "tree_height", ai.tree_height);
            cli_json_int(&j, "batches", ai.batches);
            cli_json_str(&j, "policy", a->opts.policy);
            cli_json_str(&j, "ordering", a->ordering);
            cli_json_num(&j, "seconds", ai.seconds);
            cli_json_close(&j);
        }
    }
    sylva_analysis_free(an);
    sylva_matrix_free(A);
    sylva_finalize();
    return code;
}
