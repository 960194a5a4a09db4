/* study.h — `sylva study`: one matrix factored under several batching
 * configurations (every policy; with --thresholds, small/large thresholds
 * and batch sizes around each policy's), each --repeat times, every result's
 * backward error checked; then study.json, study.html and a trace per run
 * in the -o folder. cmd_study.c drives it, study_run.c runs one
 * configuration, study_html.c and study_svg.c draw the report. */
#ifndef SYLVA_CLI_STUDY_H
#define SYLVA_CLI_STUDY_H

#include "cli.h"
#include "run_summary.h"

/* One task of the kept repetition, for the timelines. */
typedef struct study_task {
    int worker, kind;
    int64_t batch;
    double start, end;
} study_task;

/* One configuration and what its kept repetition (the median) measured. */
typedef struct study_run {
    char label[96];         /* "level", "level small=128", "ready flops=2.5e+06" */
    char file_label[96];    /* the label with [^A-Za-z0-9_.-] as '_' (file names, HTML ids) */
    const char *policy;
    int64_t small_rows;     /* requested (0: the library's choice) */
    double batch_flops;
    int64_t small_rows_used;/* what the analysis resolved */
    double batch_flops_used;
    int status;             /* of the analysis, a factorization or the solve */
    char message[256];
    int repeat, done;       /* repetitions asked, made */
    double *seconds;        /* each repetition's factorization time (the first, then refactorizations) */
    double first;           /* the first factorization (allocation and first touch of L included) */
    /* The times a run is ranked by: its refactorizations (steady state),
     * or the first factorization alone when there is none: their count,
     * median, minimum (best) and maximum (the spread is max − min). */
    int nranked;
    double median, best, worst;
    int kept;               /* the repetition whose measurements are kept (the ranked median's) */
    double gflops;          /* flops / median */
    double berr;
    int accurate;
    int inaccurate;         /* solved, backward error above the limit (status SYLVA_ERR_RUNTIME) */
    int mode;               /* sylva_exec_mode it ran in */
    int64_t plan_batches;   /* the analysis' batches (ready: its one-worker simulation) */
    double plan_padding;
    run_summary sum;
    int64_t *front_batch;   /* nfronts: each front's batch in the kept repetition */
    study_task *tasks;
    int64_t ntasks;
    char trace[128];        /* its trace's file name in the folder ("" when not written) */
} study_run;

typedef struct study {
    const cli_args *a;
    const char *dir;
    sylva_matrix *A;
    double *b;              /* A · ones, or the fallbacks of cli_make_rhs */
    char rhs[96];
    sylva_analysis_info ai; /* the first configuration's analysis */
    int64_t *perm;          /* its permutation, reused by the others (same tree) */
    sylva_runtime_info ri;
    int nworkers;
    sylva_worker_info *workers;
    int64_t nfronts;
    sylva_front_info *fronts;
    study_run *runs;
    int nruns;
    int best, worst;        /* fastest and slowest accurate runs (by median), −1 when none */
    int runner;             /* the second fastest, −1 when none */
    int starred;            /* the fastest leads the runner-up by more than the spread (study_rank) */
    char verdict[512];      /* why the fastest is, or is not, called best */
    double max_berr;
} study;

/* --repeat's default for a study: a spread needs a few refactorizations. */
#define STUDY_DEFAULT_REPEAT 5

/* Rank the accurate runs (best, worst, runner, starred, verdict): the
 * fastest median is starred `best` only when its lead over the runner-up
 * exceeds the spread, max − min of the ranked times of either run (the
 * ranges over the repetitions do not come closer than the widest of them
 * is wide); never from one repetition (no spread measured) or one run. */
void study_rank(study *s);

/* Run configuration r (analysis, factorizations, solve, trace); a status
 * only for what stops the whole study (memory, an output that cannot be
 * written); a run's own failure is in r->status. */
int study_run_one(study *s, study_run *r, int index);
void study_run_free(study_run *r);

/* The report (study_html.c): study.html in the folder; a status. */
int study_write_html(const study *s, const char *path);

/* SVG pieces (study_svg.c), appended to f. */
#include <stdio.h>
void svg_time_bars(FILE *f, const study *s);
void svg_histograms(FILE *f, const study *s, const study_run *r);
void svg_timeline(FILE *f, const study *s, const study_run *r, const char *id);
void svg_tree(FILE *f, const study *s, const study_run *r, const char *id);
/* Text with &, <, >, " escaped. */
void html_text(FILE *f, const char *text);

#endif
