/* run_summary.c — a run summarised from its batch and task records
 * (contract in run_summary.h). Medians by sorting a copy; cannot fail but
 * for memory. */
#include "run_summary.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int64_t n)
{
    if (n == 0) return 0;
    qsort(v, (size_t)n, sizeof *v, by_value);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

int run_summary_compute(const sylva_factor_t *F, run_summary *s)
{
    memset(s, 0, sizeof *s);
    sylva_runtime_info ri;
    if (sylva_runtime_query(&ri) == SYLVA_OK) {
        s->workers[0] = ri.cpu_workers;
        s->workers[1] = ri.gpu_workers;
    }
    s->batches = sylva_factor_batch_count(F);
    s->tasks = sylva_factor_task_count(F);
    double *secs = malloc((size_t)(s->batches + 1) * sizeof *secs), *rate = malloc((size_t)(s->batches + 1) * sizeof *rate);
    if (!secs || !rate) {
        free(secs);
        free(rate);
        return SYLVA_ERR_NO_MEMORY;
    }
    double first = INFINITY, last = -INFINITY, flops = 0, padded = 0, padded_level = 0;
    int64_t fronts = 0, measured = 0;
    for (int64_t i = 0; i < s->batches; i++) {
        sylva_batch_record b;
        if (sylva_factor_batch_record(F, i, &b) != SYLVA_OK) continue;
        fronts += b.fronts;
        flops += b.flops;
        padded += b.padding < 1 ? b.flops / (1 - b.padding) : 0;
        padded_level += b.padding_level < 1 ? b.flops / (1 - b.padding_level) : 0;
        int bin = 0;
        while (bin < RUN_SIZE_BINS - 1 && (b.fronts >> (bin + 1)) > 0) bin++;
        s->size_hist[bin]++;
        int pb = (int)(b.padding * RUN_PADDING_BINS);
        s->padding_hist[pb < 0 ? 0 : pb >= RUN_PADDING_BINS ? RUN_PADDING_BINS - 1 : pb]++;
        if (b.worker < 0) continue;
        secs[measured] = b.seconds;
        rate[measured++] = b.gflops;
    }
    for (int64_t i = 0; i < s->tasks; i++) {
        sylva_task_record t;
        if (sylva_factor_task_record(F, i, &t) != SYLVA_OK || t.start < 0 || t.end < t.start) continue;
        sylva_worker_info w;
        int kind = sylva_worker_query(t.worker, &w) == SYLVA_OK ? w.kind : 0;
        s->busy[kind != 0] += t.end - t.start;
        if (t.fetch_start >= 0 && t.fetch_end >= t.fetch_start) s->fetch += t.fetch_end - t.fetch_start;
        if (t.start < first) first = t.start;
        if (t.end > last) last = t.end;
    }
    s->span = last > first ? last - first : 0;
    for (int k = 0; k < 2; k++) s->idle[k] = s->workers[k] ? s->span * (double)s->workers[k] - s->busy[k] : 0;
    s->fronts_per_batch = s->batches ? (double)fronts / (double)s->batches : 0;
    s->padding = padded > 0 ? 1 - flops / padded : 0;
    s->padding_level = padded_level > 0 ? 1 - flops / padded_level : 0;
    s->batch_seconds_median = median(secs, measured);
    if (measured) {
        s->gflops_median = median(rate, measured); /* sorts rate */
        s->gflops_min = rate[0];
        s->gflops_max = rate[measured - 1];
    }
    free(secs);
    free(rate);
    return SYLVA_OK;
}

void run_summary_json(json_writer *j, const char *key, const run_summary *s)
{
    json_begin(j, key, '{');
    json_int(j, "batches", s->batches);
    json_int(j, "tasks", s->tasks);
    json_num(j, "span_seconds", s->span);
    json_num(j, "cpu_busy_seconds", s->busy[0]);
    json_num(j, "cpu_idle_seconds", s->idle[0]);
    json_num(j, "gpu_busy_seconds", s->busy[1]);
    json_num(j, "gpu_idle_seconds", s->idle[1]);
    json_num(j, "fetch_seconds", s->fetch);
    json_num(j, "batch_seconds_median", s->batch_seconds_median);
    json_num(j, "gflops_min", s->gflops_min);
    json_num(j, "gflops_median", s->gflops_median);
    json_num(j, "gflops_max", s->gflops_max);
    json_num(j, "fronts_per_batch", s->fronts_per_batch);
    json_num(j, "padding", s->padding);
    json_num(j, "padding_level", s->padding_level);
    json_begin(j, "batch_size_hist", '[');
    for (int i = 0; i < RUN_SIZE_BINS; i++) json_int(j, NULL, s->size_hist[i]);
    json_end(j);
    json_begin(j, "padding_hist", '[');
    for (int i = 0; i < RUN_PADDING_BINS; i++) json_int(j, NULL, s->padding_hist[i]);
    json_end(j);
    json_end(j);
}
