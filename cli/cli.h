/* cli.h — shared pieces of the `sylva` command: parsed arguments, exit codes
 * (0 ok, 1 bad input, 2 usage, 3 not positive definite, 4 runtime or
 * resource failure, 5 numerically singular with --fail-singular), the steps the subcommands share and the subcommands. */
#ifndef SYLVA_CLI_H
#define SYLVA_CLI_H

#include <stdio.h>

#include "sylva.h"

enum { EXIT_OK = 0, EXIT_INPUT = 1, EXIT_USAGE = 2, EXIT_NOT_SPD = 3, EXIT_RUNTIME = 4, EXIT_SINGULAR = 5 };

/* The commands an option applies to (options.c). */
enum { CMD_FACTOR = 1, CMD_ANALYZE = 2, CMD_STUDY = 4 };

typedef struct cli_args {
    const char *command; /* "factor", "analyze" or "study" */
    int cmd;             /* CMD_FACTOR, CMD_ANALYZE or CMD_STUDY */
    const char *file;    /* the matrix; "-" is standard input */
    const char *rhs;
    int64_t nrhs;         /* --nrhs K: K generated right-hand sides (0: one, b = A·1) */
    const char *output;   /* -o: the solution (factor), the report's folder (study) */
    const char *json;
    const char *batches;  /* --batches FILE: per-batch JSON */
    const char *trace;    /* --trace FILE: Chrome/Perfetto trace of the factorization */
    const char *policies; /* study --policies a,b,c (checked names) */
    int thresholds;       /* study --thresholds */
    const char *save;     /* --save FILE: write the analysis */
    const char *analysis; /* --analysis FILE: load it instead of analyzing */
    const char *perm;     /* --perm FILE: the user's permutation */
    const char *ordering; /* the --ordering text ("auto" when not given) */
    sylva_options opts;
    int threads;          /* --threads, -1: every core */
    int repeat;           /* factorizations timed (refactorize after the first) */
    int progress;         /* -1: on a terminal after 1 s, 0: never (--quiet), 1: always */
    int quiet;            /* --quiet: no progress, no summary on stdout */
    FILE *report;         /* the summary's stream: stdout, or stderr when an output is "-" */
    int rcond;            /* --rcond: estimate the condition number */
    int fail_singular;    /* --fail-singular: a pivot ratio or rcond below epsilon exits 5 */
    double max_berr;      /* --max-backward-error; 0: the precision's default */
    sylva_read_options read; /* --symmetric-both, --symmetrize */
    double t_main;        /* sylva_wtime() on entering main: the wall time's origin */
} cli_args;

/* Parse the command line (argv[1] is the command): SYLVA_OK-like -1 to go
 * on, or the exit code to return (0 after printing help). */
int cli_parse(int argc, char **argv, cli_args *a);
/* The help of one command (CMD_FACTOR, CMD_ANALYZE) or of all (0). */
void cli_print_help(FILE *f, int cmd);
/* `sylva help [factor | analyze | schedulers]`: the exit code. */
int cli_help_command(int argc, char **argv);

/* Map a library status to the command's exit code. */
int cli_exit_code(int status);
/* Record the command's own message for a failure (printed and written to
 * the JSON instead of the library's last error); returns status. */
int cli_error(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Under mpirun: the outcome of a step only rank 0 took (reading, writing),
 * with its message, on every rank (sylva_agree); one process: status. */
int cli_agree(int status);
/* The number of processes an MPI launcher started this one among (the
 * variables runtime/dist_mpi.c reads; 1 without a launcher): `analyze` and
 * `study` are one process's commands and refuse to run once per rank. */
int cli_launcher_size(void);
/* The failure's message: the command's own, else the library's, else the
 * status text. */
const char *cli_message(int status);
/* Print "sylva: <message>" on stderr; return the exit code. */
int cli_fail(int status);
/* The same for a file the command failed to write: exit 4. */
int cli_fail_output(int status);

/* An output the command will write, checked before any work: its
 * directory exists and is writable, and the file, if it exists, can be
 * replaced (or is a device or FIFO). SYLVA_ERR_IO naming the option and the
 * file, else SYLVA_OK. cli_check_outputs checks -o, --batches and --save
 * (--json is checked first, on its own: its failure has no JSON). */
int cli_check_output(const char *option, const char *path);
/* No output is an input (the matrix, --rhs, --perm, --analysis) or another
 * output (existing regular files by inode, new ones by real path):
 * SYLVA_ERR_IO naming both. Checked first, before even the JSON is
 * written (it could be the input). */
int cli_check_overlaps(const cli_args *a);
int cli_check_outputs(const cli_args *a);
/* s (len bytes) quoted for a message into buf (cap bytes, at least 8):
 * 'text', control bytes and backslashes escaped (\x1b, \\), "..." before
 * the closing quote when cut or when it did not fit (quote.c). */
void cli_quote(char *buf, size_t cap, const char *s, size_t len, int cut);
/* --perm FILE: n integers 1..n (new → old), one per line or a Matrix
 * Market array; *perm (0-based) or a status naming the file. */
int cli_read_perm(const char *path, int64_t n, int64_t **perm);

/* Read the matrix (a->file, a->read); *info as sylva_read_matrix_market_info. */
int cli_read_matrix(const cli_args *a, sylva_matrix **A, sylva_read_info *info);

/* The right-hand sides (n × nrhs, double): the --rhs file, checked against
 * A's size, or b = A·x0 for a known x0; `which` (size bytes) says which. */
int cli_make_rhs(const cli_args *a, const sylva_matrix *A, double **B, int64_t *nrhs, char *which,
                 size_t size);

/* The analysis of A (made, or loaded from a->analysis), saved to a->save
 * when set; *output_failed says a failure was the save's. */
int cli_analysis_step(const cli_args *a, const sylva_matrix *A, sylva_analysis_t **an,
                      sylva_analysis_info *ai, int *output_failed);
/* Route the library's progress reports to the progress line (a->opts),
 * when it is to be shown; cli_progress_flops gives the factorization's
 * flops (for its rate); cli_progress_end finishes a line left open. */
void cli_progress_start(cli_args *a);
void cli_progress_flops(double flops);
void cli_progress_end(void);

/* -v: the runtime's workers and scheduler, and the analysis' statistics
 * and phases, on stderr. */
void cli_verbose_analysis(const cli_args *a, const sylva_analysis_info *ai);

/* GPUs (gpu_request.c): whether the command line asks for them
 * explicitly (--mode gpu or hybrid, --gpus N > 0); after sylva_init,
 * SYLVA_ERR_RUNTIME naming what was found when the runtime has fewer GPUs
 * than asked, else SYLVA_OK; why a factorization ran on the CPU. */
int cli_gpu_requested(const cli_args *a);
int cli_check_gpus(const cli_args *a);
const char *cli_where_cpu(const cli_args *a, const sylva_factor_info *fi);

int cli_cmd_factor(const cli_args *a);
int cli_cmd_analyze(const cli_args *a);
int cli_cmd_study(const cli_args *a);
/* Write the batches as a JSON array (policy studies), atomically; a
 * status. With F (after a factorization), the batches that run made with
 * what their tasks measured; else the analysis' plan. */
int cli_write_batches(const char *path, const sylva_analysis_t *an, const sylva_factor_t *F);
/* Write F's last run (of the analysis an) as a Chrome/Perfetto trace
 * (trace.c); a status. */
int cli_write_trace(const char *path, const sylva_analysis_t *an, const sylva_factor_t *F, const char *title);

#endif
