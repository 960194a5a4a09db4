/* exit_status.c — the command's exit codes (cli.h) from library statuses,
 * the command's own failure messages (those that are not the library's:
 * a right-hand side of the wrong size), the one place that prints a
 * failure's message, and the agreement of a distributed run's ranks on a
 * step only rank 0 took. A file the command fails to write is a resource
 * failure (exit 4), whatever the status says. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

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
    char raw[sizeof message];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    /* File names and file contents in the message: no control byte reaches
     * the terminal (as the library's messages, core/error.c). */
    size_t k = 0;
    for (const unsigned char *p = (const unsigned char *)raw; *p && k + 5 < sizeof message; p++)
        if (*p < 0x20 || *p == 0x7f) k += (size_t)snprintf(message + k, sizeof message - k, "\\x%02x", *p);
        else message[k++] = (char)*p;
    message[k] = '\0';
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

int cli_launcher_size(void)
{
    const char *vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE", "MPI_LOCALNRANKS"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *v = getenv(vars[i]);
        if (v && atoi(v) > 1) return atoi(v);
    }
    return 1;
}
