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
    sylva_options opts;
    int threads;
    int repeat; /* factorizations timed (refactorize after the first) */
} cli_args;

/* Map a library status to the command's exit code. */
int cli_exit_code(int status);
/* Print "sylva: <message>" (or the status text) on stderr; return the exit code. */
int cli_fail(int status);

int cli_cmd_factor(const cli_args *a);
int cli_cmd_analyze(const cli_args *a);
/* Write the plan's batches as a JSON array (policy studies). */
int cli_write_batches(const char *path, const sylva_analysis_t *an);

/* Minimal JSON writer: one flat object, with one nested "seconds" object. */
typedef struct cli_json {
    FILE *f;
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
