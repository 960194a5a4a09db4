/* run_summary.h — one factorization run summarised from its measurements
 * (sylva_factor_batch_record, sylva_factor_task_record): what `factor
 * --json` writes under "measured" and what `sylva study` compares. Every
 * field is defined in docs/policies.md. */
#ifndef SYLVA_CLI_RUN_SUMMARY_H
#define SYLVA_CLI_RUN_SUMMARY_H

#include "json.h"
#include "sylva.h"

enum { RUN_SIZE_BINS = 16, RUN_PADDING_BINS = 10 };

typedef struct run_summary {
    int64_t batches, tasks, workers[2]; /* workers: CPU, GPU */
    double span;               /* first task start to last task end, seconds */
    double busy[2];            /* seconds in tasks, CPU and GPU workers */
    double idle[2];            /* span × workers − busy, per kind */
    double fetch;              /* input-fetch seconds of all tasks */
    double batch_seconds_median, gflops_min, gflops_median, gflops_max; /* over batches */
    double fronts_per_batch;
    double padding;            /* Σ padded work − flops over Σ padded work: the batches' padding, weighted */
    double padding_level;
    int64_t size_hist[RUN_SIZE_BINS];       /* batches with [2^i, 2^(i+1)) fronts */
    int64_t padding_hist[RUN_PADDING_BINS]; /* batches with padding in [i/10, (i+1)/10) */
} run_summary;

/* The summary of F's last run; a status (memory). */
int run_summary_compute(const sylva_factor_t *F, run_summary *s);
/* Write it as an object member named key. */
void run_summary_json(json_writer *j, const char *key, const run_summary *s);

#endif
