/* exit_status.c — the command's exit codes (cli.h) from library statuses,
 * the command's own failure messages (those that are not the library's:
 * a right-hand side of the wrong size), the one place that prints a
 * failure's message, and the agreement of a distributed run's ranks on a
 * step only rank 0 took. A file the command fails to write is a resource
 * failure (exit 4), whatever the status says. */
#include <stdarg.h>

#include "cli.h"

static char message[1024];

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

int cli_error(int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    return status;
}

const char *cli_message(int status)
{
    if (message[0]) return message;
    const char *msg = sylva_last_error();
    return msg && *msg ? msg : sylva_strerror(status);
}

int cli_fail(int status)
{
    fprintf(stderr, "sylva: %s\n", cli_message(status));
    return cli_exit_code(status);
}

int cli_fail_output(int status)
{
    fprintf(stderr, "sylva: %s\n", cli_message(status));
    return EXIT_RUNTIME;
}

int cli_agree(int status)
{
    char mine[1024];
    snprintf(mine, sizeof mine, "%s", status ? cli_message(status) : "");
    int agreed = sylva_agree(status, status ? mine : NULL);
    if (agreed) cli_error(agreed, "%s", sylva_last_error());
    return agreed;
}
