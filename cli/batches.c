/* batches.c — `--batches FILE`: the batches as a JSON array, atomically
 * (json.h). After a factorization, the batches that run made (for the
 * dynamic `ready` policy, those cut while it ran) with what StarPU measured
 * of their tasks; for `analyze`, the analysis' plan. Keys in docs/cli.md. */
#include "cli.h"
#include "json.h"

int cli_write_batches(const char *path, const sylva_analysis_t *an, const sylva_factor_t *F)
{
    json_writer j;
    if (json_open(&j, path, '[')) return cli_error(SYLVA_ERR_NO_MEMORY, "%s: out of memory", path);
    int64_t nb = F ? sylva_factor_batch_count(F) : sylva_analysis_batch_count(an);
    for (int64_t i = 0; i < nb; i++) {
        json_begin(&j, NULL, '{');
        json_int(&j, "batch", i);
        if (!F) {
            sylva_batch_info b;
            sylva_analysis_batch(an, i, &b);
            json_int(&j, "fronts", b.fronts);
            json_int(&j, "min_rows", b.min_rows);
            json_int(&j, "max_rows", b.max_rows);
            json_int(&j, "child_batches", b.child_batches);
            json_num(&j, "flops", b.flops);
            json_bool(&j, "large", b.large);
            json_end(&j);
            continue;
        }
        sylva_batch_record b;
        if (sylva_factor_batch_record(F, i, &b) != SYLVA_OK) {
            json_discard(&j);
            return SYLVA_ERR_NO_MEMORY;
        }
        json_int(&j, "fronts", b.fronts);
        json_int(&j, "min_rows", b.min_rows);
        json_int(&j, "max_rows", b.max_rows);
        json_num(&j, "mean_rows", b.mean_rows);
        json_int(&j, "min_cols", b.min_cols);
        json_int(&j, "max_cols", b.max_cols);
        json_num(&j, "mean_cols", b.mean_cols);
        json_int(&j, "child_batches", b.child_batches);
        json_num(&j, "flops", b.flops);
        json_bool(&j, "large", b.large);
        json_num(&j, "padding", b.padding);
        json_num(&j, "padding_level", b.padding_level);
        json_int(&j, "tasks", b.tasks);
        json_int(&j, "worker", b.worker);
        json_str(&j, "worker_kind", b.worker < 0 ? NULL : b.worker_kind == SYLVA_WORKER_GPU ? "gpu" : "cpu");
        json_num(&j, "submitted", b.submitted);
        json_num(&j, "start", b.start);
        json_num(&j, "end", b.end);
        json_num(&j, "seconds", b.seconds);
        json_num(&j, "fetch_seconds", b.fetch_seconds);
        json_num(&j, "gflops", b.gflops);
        json_end(&j);
    }
    return json_close(&j);
}
