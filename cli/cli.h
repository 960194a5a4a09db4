/* cli.h — shared pieces of the `sylva` command: parsed arguments, exit codes
 * (0 ok, 1 bad input, 2 usage, 3 not positive definite, 4 runtime or
 * resource failure) and the subcommands. */
#ifndef SYLVA_CLI_H
#define SYLVA_CLI_H

#include <stdio.h>

#include "sylva.h"

enum { EXIT_OK = 0, EXIT_INPUT = 1, EXIT_USAGE = 2, EXIT_NOT_SPD = 3, EXIT_RUNTIME = 4 };

typedef struct cli_args {
    const char *command;
    const char *file;
    const char *rhs;
    const char *output;
    const char *json;
    const char *ordering;
    const char *batches; /* --batches FILE: per-batch JSON */
    const char *save;     /* --save FILE: write the analysis */
    const char *analysis; /* --analysis FILE: load it instead of analyzing */
    int progress;         /* -1: on a terminal after 1 s, 0: never (--quiet), 1: always */
    int quiet;            /* --quiet: no progress, no summary on stdout */
    sylva_options opts;
    int threads;
    int repeat; /* factorizations timed (refactorize after the first) */
} cli_args;

/* Map a library status to the command's exit code. */
int cli_exit_code(int status);
/* Record the command's own message for a failure (printed and written to
 * the JSON instead of the library's last error); returns status. */
int cli_error(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The failure's message: the command's own, else the library's, else the
 * status text. */
const char *cli_message(int status);
/* Print "sylva: <message>" on stderr; return the exit code. */
int cli_fail(int status);
/* The same for a file the command could not write: exit 4. */
int cli_fail_output(int status);

/* The analysis of A (made, or loaded from a->analysis), saved to a->save
 * when set; *output_failed says a failure was the save's. */
int cli_analysis_step(const cli_args *a, const sylva_matrix *A, sylva_analysis_t **an,
                      sylva_analysis_info *ai, int *output_failed);
/* Route the library's progress reports to the progress line (a->opts),
 * when it is to be shown; cli_progress_end finishes a line left open. */
void cli_progress_start(cli_args *a);
void cli_progress_end(void);

int cli_cmd_factor(const cli_args *a);
int cli_cmd_analyze(const cli_args *a);
/* Write the plan's batches as a JSON array (policy studies), atomically;
 * a status. */
int cli_write_batches(const char *path, const sylva_analysis_t *an);

/* Minimal JSON writer: one flat object, with nested objects one level
 * deep, built in memory and written atomically (sylva_write_file) by
 * cli_json_close, which returns the status of the write. */
typedef struct cli_json {
    FILE *f; /* a memory stream */
    char *text;
    size_t len;
    const char *path;
    int first;
} cli_json;
int cli_json_open(cli_json *j, const char *path);
void cli_json_str(cli_json *j, const char *key, const char *value);
void cli_json_int(cli_json *j, const char *key, long long value);
void cli_json_num(cli_json *j, const char *key, double value);
void cli_json_begin(cli_json *j, const char *key);
void cli_json_end(cli_json *j);
int cli_json_close(cli_json *j);

#endif
