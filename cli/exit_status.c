/* exit_status.c — the command's exit codes (cli.h) from library statuses,
 * and the one place that prints a failure's message. */
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
