/* outputs.c — every file the command will write, checked before any work,
 * so a typo in a directory name costs a second, not the factorization: the
 * directory must exist and be writable (the file is written beside itself
 * and renamed, sylva_write_file), and an existing file must be a regular
 * file we may replace, or a device or FIFO (written in place). "-" is
 * standard output, which must be open for writing; a link (/dev/stdout,
 * one of the user's) is checked where it leads. No output may be one of
 * the inputs or another output, nor have a name longer than its file
 * system holds. */
#include <fcntl.h>
#include <limits.h>
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
    if (!status) {
        /* A name the directory's file system cannot hold fails only at the
         * rename, after the work: say so now. */
        char *b = strdup(path);
        if (!b) status = cli_error(SYLVA_ERR_NO_MEMORY, "out of memory");
        long name_max = status ? 0 : pathconf(dir, _PC_NAME_MAX);
        if (name_max <= 0) name_max = NAME_MAX;
        size_t len = b ? strlen(basename(b)) : 0;
        if (!status && len > (size_t)name_max)
            status = cli_error(SYLVA_ERR_IO, "%s: cannot write %.40s...: the name has %zu bytes, more than the %ld the "
                               "file system allows", option, path, len, name_max);
        else if (!status && strlen(path) >= PATH_MAX)
            status = cli_error(SYLVA_ERR_IO, "%s: cannot write %.40s...: the path has %zu bytes, at most %d are allowed",
                               option, path, strlen(path), PATH_MAX - 1);
        free(b);
    }
    free(copy);
    return status;
}

/* path's identity for comparisons: an existing regular file by device
 * and inode (*key_name NULL), a file to be created by its directory's real
 * path and its name (*key_name malloc'd); 0 when it is neither (a device, a
 * stream: several outputs may share /dev/null). */
static int identity(const char *path, struct stat *st, char **key_name)
{
    *key_name = NULL;
    if (!path || !strcmp(path, "-")) return 0;
    if (stat(path, st) == 0) return S_ISREG(st->st_mode);
    char *copy = strdup(path), *base = strdup(path);
    if (!copy || !base) {
        free(copy);
        free(base);
        return 0;
    }
    char *dir = realpath(dirname(copy), NULL);
    if (dir) {
        const char *b = basename(base);
        size_t len = strlen(dir) + strlen(b) + 2;
        if ((*key_name = malloc(len))) snprintf(*key_name, len, "%s/%s", dir, b);
    }
    free(dir);
    free(copy);
    free(base);
    return *key_name != NULL;
}

static int same_file(const char *p, const char *q)
{
    struct stat sp, sq;
    char *np, *nq;
    int ip = identity(p, &sp, &np), iq = identity(q, &sq, &nq);
    int same = ip && iq &&
               (np || nq ? np && nq && !strcmp(np, nq) : sp.st_dev == sq.st_dev && sp.st_ino == sq.st_ino);
    free(np);
    free(nq);
    return same;
}

/* No output is an input of the run, and no two outputs are one file: the
 * second would replace the first (the solution lost) or the input. */
int cli_check_overlaps(const cli_args *a)
{
    const char *out_names[] = {"-o", "--json", "--batches", "--trace", "--save"};
    const char *outs[] = {a->cmd == CMD_STUDY ? NULL : a->output, a->json, a->batches, a->trace, a->save};
    const char *in_names[] = {"the matrix", "--rhs", "--perm", "--analysis"};
    const char *ins[] = {a->file, a->rhs, a->perm, a->analysis};
    enum { NOUT = sizeof outs / sizeof *outs, NIN = sizeof ins / sizeof *ins };
    for (int i = 0; i < NOUT; i++) {
        if (!outs[i]) continue;
        for (int k = 0; k < NIN; k++)
            if (ins[k] && same_file(outs[i], ins[k]))
                return cli_error(SYLVA_ERR_IO, "%s %s is %s %s: it would be replaced; write elsewhere", out_names[i],
                                 outs[i], in_names[k], ins[k]);
        for (int j = 0; j < i; j++)
            if (outs[j] && same_file(outs[i], outs[j]))
                return cli_error(SYLVA_ERR_IO, "%s %s and %s %s are the same file: one would replace the other",
                                 out_names[j], outs[j], out_names[i], outs[i]);
    }
    return SYLVA_OK;
}

int cli_check_outputs(const cli_args *a)
{
    int status;
    if (a->cmd != CMD_STUDY && (status = cli_check_output("-o", a->output))) return status;
    if ((status = cli_check_output("--batches", a->batches))) return status;
    if ((status = cli_check_output("--trace", a->trace))) return status;
    return cli_check_output("--save", a->save);
}
