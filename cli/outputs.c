/* outputs.c — every file the command will write, checked before any work,
 * so a typo in a directory name costs a second, not the factorization: the
 * directory must exist and be writable (the file is written beside itself
 * and renamed, sylva_write_file), and an existing file must be a regular
 * file we may replace, or a device or FIFO (written in place). "-" is
 * standard output, which must be open for writing; a link (/dev/stdout,
 * one of the user's) is checked where it leads. */
#include <fcntl.h>
#include <errno.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

int cli_check_output(const char *option, const char *path)
{
    if (!path) return SYLVA_OK;
    if (!*path) return cli_error(SYLVA_ERR_IO, "%s: the file name is empty", option);
    if (!strcmp(path, "-")) {
        int flags = fcntl(1, F_GETFL);
        if (flags < 0 || (flags & O_ACCMODE) == O_RDONLY)
            return cli_error(SYLVA_ERR_IO, "%s -: standard output is not open for writing", option);
        return SYLVA_OK;
    }
    struct stat st;
    char *copy = NULL;
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode)) return cli_error(SYLVA_ERR_IO, "%s: cannot write %s: a directory", option, path);
        if (!S_ISREG(st.st_mode)) return SYLVA_OK; /* /dev/null, a terminal, a FIFO: in place */
        if (access(path, W_OK) != 0)
            return cli_error(SYLVA_ERR_IO, "%s: cannot write %s: %s", option, path, strerror(errno));
        copy = realpath(path, NULL); /* a link is written where it leads */
    }
    if (!copy) copy = strdup(path);
    if (!copy) return cli_error(SYLVA_ERR_NO_MEMORY, "out of memory");
    const char *dir = dirname(copy);
    int status = SYLVA_OK;
    if (stat(dir, &st) != 0)
        status = cli_error(SYLVA_ERR_IO, "%s: cannot write %s: directory %s: %s", option, path, dir,
                           strerror(errno));
    else if (!S_ISDIR(st.st_mode))
        status = cli_error(SYLVA_ERR_IO, "%s: cannot write %s: %s is not a directory", option, path, dir);
    else if (access(dir, W_OK | X_OK) != 0)
        status = cli_error(SYLVA_ERR_IO, "%s: cannot write %s: directory %s: %s", option, path, dir,
                           strerror(errno));
    free(copy);
    return status;
}

int cli_check_outputs(const cli_args *a)
{
    int status;
    if (a->cmd != CMD_STUDY && (status = cli_check_output("-o", a->output))) return status;
    if ((status = cli_check_output("--batches", a->batches))) return status;
    if ((status = cli_check_output("--trace", a->trace))) return status;
    return cli_check_output("--save", a->save);
}
