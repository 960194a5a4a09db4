/* factor_report.h — what one `sylva factor` run found, filled as it goes
 * (cmd_factor.c) and written out as the summary and the JSON record
 * (factor_report.c), on success and on every failure after the command
 * line parsed. */
#ifndef SYLVA_CLI_FACTOR_REPORT_H
#define SYLVA_CLI_FACTOR_REPORT_H

#include "cli.h"
#include "run_summary.h"

typedef struct factor_report {
    int status;
    sylva_analysis_info ai;
    sylva_factor_info fi;
    sylva_runtime_info ri;
    sylva_read_info input;
    double t_read, t_rhs, t_factor, t_factor_first, t_to_host, t_solve, t_rcond;
    double t_startup, t_startup_wait; /* the runtime's start, and the part of it the command waited for */
    double berr;          /* the worst column's */
    double *berr_columns; /* nrhs of them (NULL before the solve) */
    double logdet, rcond; /* NaN when not computed */
    double max_berr;      /* the limit this run was held to */
    int64_t nrhs;
    char rhs[96];         /* which right-hand side (cli_make_rhs) */
    int inaccurate;       /* solved, but berr > max_berr */
    int singular;         /* the pivot ratio or rcond is below the precision's epsilon */
    int output_failed;    /* the status is a failure to write an output */
    run_summary measured; /* the last factorization's tasks, when have_measured */
    int have_measured;
    sylva_solve_info si;  /* the solve's, when solved */
    int solved;
    int ngpu;             /* GPUs of the last factorization with statistics (gpu[]) */
    sylva_gpu_stats gpu[SYLVA_MAX_GPU_STATS];
    sylva_rank_info *ranks; /* every rank's share of a distributed run (nranks), or NULL */
    int nranks;
} factor_report;

/* Every rank's share of F's last factorization into r (a distributed run;
 * nothing for one process); -v prints it. */
int factor_report_ranks(const sylva_factor_t *F, factor_report *r);
void factor_report_print_ranks(const factor_report *r);

/* The summary on stdout (not with --quiet). */
void factor_report_print(const cli_args *a, const factor_report *r);
/* The JSON record; the write's status. */
int factor_report_json(const cli_args *a, const factor_report *r);

#endif
