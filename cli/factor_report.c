/* factor_report.c — `sylva factor`'s summary and JSON record (contract in
 * factor_report.h; the keys are listed in docs/cli.md). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "factor_report.h"
#include "json.h"

void factor_report_print(const cli_args *a, const factor_report *r)
{
    fprintf(a->report, "%s: n = %lld, nnz(A) = %lld, nnz(L) = %lld, flops = %.3e\n", a->file, (long long)r->ai.n,
           (long long)r->ai.nnz_A, (long long)r->ai.nnz_L, r->ai.flops);
    fprintf(a->report, "  fronts %lld (tree height %lld, largest %lld rows), ordering %s, policy %s: %lld tasks, %s\n",
           (long long)r->ai.fronts, (long long)r->ai.tree_height, (long long)r->ai.max_front_rows,
           sylva_ordering_name(r->ai.ordering), a->opts.policy, (long long)r->fi.tasks,
           sylva_dtype_name(a->opts.precision));
    fprintf(a->report, "  time: read %.3f s, analyze %.3f s, factorize %.3f s (%.2f GFLOP/s), solve %.3f s\n", r->t_read,
           r->ai.seconds, r->t_factor, r->t_factor > 0 ? r->ai.flops / r->t_factor * 1e-9 : 0, r->t_solve);
    fprintf(a->report, "  wall %.3f s so far; runtime start-up %.3f s, %.3f s of it waited for\n", sylva_wtime() - a->t_main,
            r->t_startup, r->t_startup_wait);
    if (r->fi.mode == SYLVA_MODE_CPU)
        fprintf(a->report, "  on the CPU: %d worker%s (%s)\n", r->ri.cpu_workers, r->ri.cpu_workers == 1 ? "" : "s",
               cli_where_cpu(a, &r->fi));
    else if (r->fi.direct)
        fprintf(a->report, "  %s on %d GPU (%s): direct (%lld batches on one stream, no task): GPU busy %.3f s; %.1f MB "
               "to the GPU, %.1f MB back; peak device memory %.1f MB; L to host %.3f s\n",
               sylva_exec_mode_name(r->fi.mode), r->fi.gpus, sylva_gpu_name(), (long long)r->fi.batches,
               r->fi.gpu_busy_seconds, r->fi.bytes_to_device / 1e6, r->fi.bytes_to_host / 1e6,
               r->fi.peak_device_bytes / 1e6, r->t_to_host);
    else
        fprintf(a->report, "  %s on %d GPU%s (%s): GPU busy %.3f s, %lld GPU + %lld CPU tasks; %.1f MB to the "
               "GPU, %.1f MB back; peak device memory %.1f MB; L to host %.3f s\n",
               sylva_exec_mode_name(r->fi.mode), r->fi.gpus, r->fi.gpus == 1 ? "" : "s", sylva_gpu_name(),
               r->fi.gpu_busy_seconds, (long long)r->fi.tasks_gpu, (long long)r->fi.tasks_cpu,
               r->fi.bytes_to_device / 1e6, r->fi.bytes_to_host / 1e6, r->fi.peak_device_bytes / 1e6,
               r->t_to_host);
    for (int i = 0; r->ngpu > 1 && i < r->ngpu; i++) {
        const sylva_gpu_stats *g = &r->gpu[i];
        fprintf(a->report, "    GPU %d: %lld tasks, busy %.3f s, %.1f%% of the flops, L %.1f MB, peak %.1f MB; %.1f MB from "
               "the host, %.1f MB from other GPUs, %.1f MB to them\n",
               g->device, (long long)g->tasks, g->busy_seconds, r->ai.flops > 0 ? 100 * g->flops / r->ai.flops : 0,
               g->factor_bytes / 1e6, g->peak_device_bytes / 1e6, g->bytes_from_host / 1e6, g->bytes_from_gpus / 1e6,
               g->bytes_to_gpus / 1e6);
    }
    if (r->solved) {
        fprintf(a->report, "  solve (%s): %.3f s", sylva_solve_mode_name(r->si.mode), r->si.seconds);
        if (r->si.mode == SYLVA_SOLVE_GPU)
            fprintf(a->report, " (upload %.3f, solve %.3f, refine %.3f, download %.3f)", r->si.seconds_upload,
                   r->si.seconds_solve, r->si.seconds_refine, r->si.seconds_download);
        if (r->si.ranks > 1)
            fprintf(a->report, " on %d ranks (%.1f MB of right-hand sides between them)", r->si.ranks,
                   r->si.bytes_between_ranks / 1e6);
        if (r->si.refine_steps > 0 || a->opts.refine)
            fprintf(a->report, "; %d refinement step%s, componentwise backward error %.3e -> %.3e", r->si.refine_steps,
                   r->si.refine_steps == 1 ? "" : "s", r->si.berr_before, r->si.berr_after);
        if (r->si.why_not_gpu) fprintf(a->report, "; not on a GPU: %s", r->si.why_not_gpu);
        fprintf(a->report, "\n");
    }
    if (r->nranks > 1) {
        double sent = 0, busy = 0;
        for (int q = 0; q < r->nranks; q++) {
            sent += r->ranks[q].bytes_sent;
            busy += r->ranks[q].busy_seconds;
        }
        fprintf(a->report, "  %d ranks (StarPU-MPI): %.1f MB sent between ranks, workers busy %.3f s in all (-v: per rank)\n",
               r->nranks, sent / 1e6, busy);
    }
    fprintf(a->report, "  memory: peak %.1f MB resident (predicted %.1f MB%s; L %.1f MB)\n", r->fi.peak_rss_bytes / 1e6,
           r->ai.predicted_peak_bytes / 1e6, r->ai.memory_on_gpu ? ", host side of a GPU run" : "",
           r->ai.factor_bytes / 1e6);
    fprintf(a->report, "  backward error %.3e (%lld right-hand side%s%s%s), log det %.10g", r->berr, (long long)r->nrhs,
           r->nrhs == 1 ? "" : "s", a->rhs ? "" : ", b = ", a->rhs ? "" : r->rhs, r->logdet);
    if (a->rcond) fprintf(a->report, ", rcond %.3e", r->rcond);
    if (!isnan(r->fi.pivot_ratio)) fprintf(a->report, ", pivot ratio %.3e", r->fi.pivot_ratio);
    fprintf(a->report, "\n");
}

int factor_report_ranks(const sylva_factor_t *F, factor_report *r)
{
    if (r->ri.ranks < 2 || r->ranks) return SYLVA_OK;
    r->ranks = calloc((size_t)r->ri.ranks, sizeof *r->ranks);
    if (!r->ranks) return cli_error(SYLVA_ERR_NO_MEMORY, "out of memory");
    r->nranks = r->ri.ranks;
    for (int q = 0; q < r->nranks; q++) {
        int st = sylva_factor_rank_info(F, q, &r->ranks[q]);
        if (st) return st;
    }
    return SYLVA_OK;
}

/* -v in a distributed run: each rank's share of the factorization. */
void factor_report_print_ranks(const factor_report *r)
{
    for (int q = 0; q < r->nranks; q++) {
        const sylva_rank_info *k = &r->ranks[q];
        fprintf(stderr,
                "sylva: rank %d: %lld tasks, busy %.3f s, %.1f%% of the flops (%.1f%% in tiles), L %.1f MB; "
                "sent %.1f MB, received %.1f MB\n",
                q, (long long)k->tasks, k->busy_seconds, r->ai.flops > 0 ? 100 * k->flops / r->ai.flops : 0,
                r->ai.flops > 0 ? 100 * k->tile_flops / r->ai.flops : 0, k->factor_bytes / 1e6, k->bytes_sent / 1e6,
                k->bytes_received / 1e6);
        if (k->gpus > 0)
            fprintf(stderr,
                    "sylva: rank %d: %d GPU%s busy %.3f s, peak device memory %.1f MB, %.1f MB between host "
                    "and GPU\n",
                    q, k->gpus, k->gpus == 1 ? "" : "s", k->gpu_busy_seconds, k->peak_device_bytes / 1e6,
                    k->bytes_host_device / 1e6);
    }
}

/* The options in effect (requested values; "auto"/0 where the library
 * chooses, with what it chose in the record's other keys). */
static void json_options(json_writer *j, const cli_args *a, const factor_report *r)
{
    const sylva_options *o = &a->opts;
    json_begin(j, "options", '{');
    json_str(j, "ordering", a->ordering);
    json_str(j, "perm", a->perm);
    json_str(j, "analysis", a->analysis);
    json_str(j, "policy", o->policy);
    json_str(j, "precision", sylva_dtype_name(o->precision));
    json_str(j, "mode", sylva_exec_mode_name(o->mode));
    json_str(j, "gpu_map", sylva_gpu_map_name(o->gpu_map));
    json_int(j, "threads", a->threads);
    json_int(j, "gpus", o->ncuda);
    json_int(j, "device_memory", o->device_memory);
    json_str(j, "scheduler", o->scheduler);
    json_int(j, "small_rows", o->small_front_rows);
    json_int(j, "tile_rows", o->tile_rows);
    json_int(j, "gpu_tile_rows", o->gpu_tile_rows);
    json_num(j, "batch_flops", o->batch_flops);
    json_int(j, "repeat", a->repeat);
    json_str(j, "rhs", a->rhs);
    json_str(j, "output", a->output);
    json_str(j, "batches", a->batches);
    json_str(j, "trace", a->trace);
    json_num(j, "max_backward_error", r->max_berr);
    json_bool(j, "rcond", a->rcond);
    json_bool(j, "fail_singular", a->fail_singular);
    json_int(j, "nrhs", a->nrhs);
    if (o->refine == SYLVA_REFINE_AUTO) json_str(j, "refine", "auto");
    else json_int(j, "refine", o->refine);
    json_str(j, "solve_mode", sylva_solve_mode_name(o->solve_mode));
    json_int(j, "solve_block", o->solve_block);
    static const char *both[] = {"refuse", "sum", "lower", "average"}, *sym[] = {"none", "lower", "upper", "average"};
    json_str(j, "symmetric_both", both[a->read.symmetric_both & 3]);
    json_str(j, "symmetrize", sym[a->read.symmetrize & 3]);
    json_num(j, "symmetrize_tol", a->read.symmetrize_tol);
    json_end(j);
}

int factor_report_json(const cli_args *a, const factor_report *r)
{
    json_writer j;
    int st = json_open(&j, a->json, '{');
    if (st) return st;
    int failed_singular = !r->status && !r->inaccurate && r->singular && a->fail_singular;
    json_str(&j, "status", r->inaccurate ? "inaccurate" : failed_singular ? "singular" : sylva_status_name(r->status));
    if (r->status) json_str(&j, "message", cli_message(r->status));
    if (failed_singular) json_str(&j, "message", "numerically singular: pivot ratio or rcond below epsilon");
    if (r->inaccurate) {
        char msg[64];
        snprintf(msg, sizeof msg, "backward error exceeds %.3g", r->max_berr);
        json_str(&j, "message", msg);
    }
    json_str(&j, "command", "factor");
    json_str(&j, "version", sylva_version());
    json_str(&j, "file", a->file);
    json_options(&j, a, r);
    json_begin(&j, "input", '{');
    json_str(&j, "compression", r->input.compression ? r->input.compression : "");
    json_int(&j, "mirrored", r->input.mirrored);
    json_int(&j, "asymmetric", r->input.asymmetric);
    json_num(&j, "max_asymmetry", r->input.max_asymmetry);
    json_end(&j);
    json_int(&j, "n", r->ai.n);
    json_int(&j, "nnz_A", r->ai.nnz_A);
    json_int(&j, "nnz_L", r->ai.nnz_L);
    json_num(&j, "flops", r->ai.flops);
    json_int(&j, "fronts", r->ai.fronts);
    json_int(&j, "tree_height", r->ai.tree_height);
    json_int(&j, "max_front_rows", r->ai.max_front_rows);
    json_int(&j, "tasks", r->fi.tasks);
    json_int(&j, "batches", r->fi.batches ? r->fi.batches : r->ai.batches); /* the run's (ready: cut at run time) */
    json_str(&j, "policy", a->opts.policy);
    json_str(&j, "ordering", r->ai.n || !r->status ? sylva_ordering_name(r->ai.ordering) : a->ordering);
    json_str(&j, "ordering_requested", a->ordering);
    if (a->analysis) json_str(&j, "analysis_file", a->analysis);
    json_str(&j, "precision", sylva_dtype_name(a->opts.precision));
    json_int(&j, "threads", r->ri.cpu_workers);
    json_str(&j, "mode", sylva_exec_mode_name(r->fi.mode));
    json_int(&j, "gpus", r->fi.mode == SYLVA_MODE_CPU ? 0 : r->fi.gpus);
    json_str(&j, "device", r->fi.mode == SYLVA_MODE_CPU ? "cpu" : sylva_gpu_name());
    json_begin(&j, "gpu_devices", '[');
    for (int i = 0; i < r->ngpu; i++) {
        const sylva_gpu_stats *g = &r->gpu[i];
        json_begin(&j, NULL, '{');
        json_int(&j, "device", g->device);
        json_int(&j, "tasks", g->tasks);
        json_num(&j, "busy_seconds", g->busy_seconds);
        json_num(&j, "flops", g->flops);
        json_num(&j, "factor_bytes", g->factor_bytes);
        json_num(&j, "peak_device_bytes", g->peak_device_bytes);
        json_num(&j, "bytes_from_host", g->bytes_from_host);
        json_num(&j, "bytes_to_host", g->bytes_to_host);
        json_num(&j, "bytes_from_gpus", g->bytes_from_gpus);
        json_num(&j, "bytes_to_gpus", g->bytes_to_gpus);
        json_end(&j);
    }
    json_end(&j);
    json_begin(&j, "runtime", '{');
    json_int(&j, "cpu_workers", r->ri.cpu_workers);
    json_int(&j, "gpu_workers", r->ri.gpu_workers);
    json_int(&j, "gpus", r->ri.gpus);
    json_str(&j, "scheduler", r->ri.scheduler);
    json_int(&j, "ranks", r->ri.ranks > 0 ? r->ri.ranks : 1);
    json_end(&j);
    /* A distributed run: each rank's share (its tasks, workers' busy time,
     * bytes sent to and received from the other ranks). */
    json_begin(&j, "ranks", '[');
    for (int q = 0; q < r->nranks; q++) {
        const sylva_rank_info *k = &r->ranks[q];
        json_begin(&j, NULL, '{');
        json_int(&j, "rank", q);
        json_int(&j, "tasks", k->tasks);
        json_num(&j, "busy_seconds", k->busy_seconds);
        json_num(&j, "flops", k->flops);
        json_num(&j, "tile_flops", k->tile_flops);
        json_num(&j, "factor_bytes", k->factor_bytes);
        json_num(&j, "bytes_sent", k->bytes_sent);
        json_num(&j, "bytes_received", k->bytes_received);
        json_int(&j, "gpus", k->gpus);
        json_num(&j, "gpu_busy_seconds", k->gpu_busy_seconds);
        json_num(&j, "peak_device_bytes", k->peak_device_bytes);
        json_num(&j, "bytes_host_device", k->bytes_host_device);
        json_end(&j);
    }
    json_end(&j);
    json_begin(&j, "memory", '{');
    json_num(&j, "factor_bytes", r->ai.factor_bytes);
    json_num(&j, "peak_cb_bytes", r->ai.peak_cb_bytes);
    json_bool(&j, "on_gpu", r->ai.memory_on_gpu);
    json_num(&j, "baseline_bytes", r->ai.memory_baseline_bytes);
    json_num(&j, "predicted_peak_bytes", r->ai.predicted_peak_bytes);
    json_num(&j, "predicted_refactor_peak_bytes", r->ai.predicted_refactor_peak_bytes);
    json_num(&j, "peak_rss_bytes", r->fi.peak_rss_bytes);
    json_num(&j, "peak_device_bytes", r->fi.peak_device_bytes);
    json_end(&j);
    if (r->solved) {
        json_begin(&j, "solve", '{');
        json_str(&j, "mode", sylva_solve_mode_name(r->si.mode));
        json_int(&j, "nrhs", r->si.nrhs);
        json_int(&j, "blocks", r->si.blocks);
        json_int(&j, "refine_steps", r->si.refine_steps);
        json_num(&j, "backward_error_before", r->si.berr_before);
        json_num(&j, "backward_error_after", r->si.berr_after);
        json_num(&j, "seconds", r->si.seconds);
        json_num(&j, "seconds_to_host", r->si.seconds_to_host);
        json_num(&j, "seconds_upload", r->si.seconds_upload);
        json_num(&j, "seconds_solve", r->si.seconds_solve);
        json_num(&j, "seconds_refine", r->si.seconds_refine);
        json_num(&j, "seconds_download", r->si.seconds_download);
        json_num(&j, "bytes_to_device", r->si.bytes_to_device);
        json_num(&j, "bytes_to_host", r->si.bytes_to_host);
        json_int(&j, "ranks", r->si.ranks);
        json_num(&j, "bytes_between_ranks", r->si.bytes_between_ranks);
        json_str(&j, "why_not_gpu", r->si.why_not_gpu);
        json_end(&j);
    }
    json_begin(&j, "seconds", '{');
    json_num(&j, "wall", sylva_wtime() - a->t_main);
    json_num(&j, "startup", r->t_startup);
    json_num(&j, "startup_wait", r->t_startup_wait);
    json_num(&j, "read", r->t_read);
    json_num(&j, "rhs", r->t_rhs);
    json_num(&j, "analyze", r->ai.seconds);
    json_num(&j, "ordering", r->ai.seconds_ordering);
    json_num(&j, "symbolic", r->ai.seconds_symbolic);
    json_num(&j, "maps", r->ai.seconds_maps);
    json_num(&j, "plan", r->ai.seconds_plan);
    json_num(&j, "factorize", r->t_factor);
    json_num(&j, "factorize_first", r->t_factor_first);
    json_num(&j, "to_host", r->t_to_host);
    json_num(&j, "solve", r->t_solve);
    json_num(&j, "rcond", r->t_rcond);
    json_end(&j);
    json_begin(&j, "workers", '{');
    json_int(&j, "tasks_cpu", r->fi.tasks_cpu);
    json_int(&j, "tasks_gpu", r->fi.tasks_gpu);
    json_bool(&j, "direct", r->fi.direct);
    json_num(&j, "gpu_busy_seconds", r->fi.gpu_busy_seconds);
    json_num(&j, "gpu_wait_seconds", r->fi.mode == SYLVA_MODE_CPU ? 0 : r->fi.seconds - r->fi.gpu_busy_seconds);
    json_num(&j, "bytes_to_device", r->fi.bytes_to_device);
    json_num(&j, "bytes_to_host", r->fi.bytes_to_host);
    json_num(&j, "bytes_between_gpus", r->fi.bytes_between_gpus);
    json_num(&j, "peak_device_bytes", r->fi.peak_device_bytes);
    json_num(&j, "gpu_seconds_batched", r->fi.gpu_seconds_batched);
    json_num(&j, "gpu_flops_batched", r->fi.gpu_flops_batched);
    json_num(&j, "gpu_seconds_large", r->fi.gpu_seconds_large);
    json_num(&j, "gpu_flops_large", r->fi.gpu_flops_large);
    json_end(&j);
    if (r->have_measured) run_summary_json(&j, "measured", &r->measured);
    json_num(&j, "gflops", r->t_factor > 0 ? r->ai.flops / r->t_factor * 1e-9 : 0);
    json_str(&j, "rhs", r->rhs);
    json_int(&j, "nrhs", r->nrhs);
    json_num(&j, "backward_error", r->berr);
    json_begin(&j, "backward_errors", '[');
    for (int64_t c = 0; r->berr_columns && c < r->nrhs; c++) json_num(&j, NULL, r->berr_columns[c]);
    json_end(&j);
    json_num(&j, "logdet", r->logdet);
    json_num(&j, "rcond", r->rcond);
    json_num(&j, "pivot_ratio", r->fi.pivot_ratio);
    json_bool(&j, "singular", r->singular);
    json_int(&j, "failed_column", r->fi.failed_column >= 0 ? r->fi.failed_column + 1 : -1);
    return json_close(&j);
}
