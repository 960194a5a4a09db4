/* main.c — the `sylva` command: `help`, `--help`, `--version`, and the
 * dispatch to the subcommands (factor, analyze, study) once the command line has
 * parsed (options.c). Writing past a file-size limit is an I/O error the
 * command reports (SIGXFSZ ignored), not a signal that kills it. */
#include <signal.h>
#include <string.h>

#include "cli.h"

int main(int argc, char **argv)
{
    double t_main = sylva_wtime();
    if (argc < 2) {
        cli_print_help(stderr, 0);
        return EXIT_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        cli_print_help(stdout, 0);
        return EXIT_OK;
    }
    if (!strcmp(argv[1], "help")) return cli_help_command(argc, argv);
    if (!strcmp(argv[1], "--version")) {
        printf("sylva %s\n", sylva_version());
        return EXIT_OK;
    }
    signal(SIGXFSZ, SIG_IGN);
    cli_args a;
    int code = cli_parse(argc, argv, &a);
    if (code >= 0) return code;
    a.t_main = t_main;
    cli_progress_start(&a);
    return a.cmd == CMD_ANALYZE ? cli_cmd_analyze(&a) : a.cmd == CMD_STUDY ? cli_cmd_study(&a) : cli_cmd_factor(&a);
}
