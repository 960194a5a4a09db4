/* perm_file.c — --perm FILE: a fill-reducing permutation of the user's
 * own, n integers 1..n (new → old, as sylva_analysis_perm gives them,
 * 1-based), whitespace-separated (one per line is usual; `%` comment lines
 * and a Matrix Market array header "n 1" are skipped, so a vector written
 * by other tools works). Checked here for count, range and repeats, with
 * FILE:LINE messages; the library checks it again. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int cli_read_perm(const char *path, int64_t n, int64_t **perm)
{
    *perm = NULL;
    FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
    if (!f) return cli_error(SYLVA_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    char *line = NULL;
    size_t cap = 0;
    int64_t *p = malloc((size_t)(n > 0 ? n : 1) * sizeof *p);
    char *seen = calloc((size_t)(n > 0 ? n : 1), 1);
    int status = SYLVA_OK;
    if (!p || !seen) {
        status = cli_error(SYLVA_ERR_NO_MEMORY, "%s: out of memory", path);
        goto out;
    }
    int64_t count = 0, lineno = 0;
    int header = 0; /* a Matrix Market banner was seen: its size line comes next */
    while (getline(&line, &cap, f) > 0) {
        lineno++;
        if (line[0] == '%') {
            header |= !strncmp(line, "%%MatrixMarket", 14);
            continue;
        }
        char *s = line, *end;
        if (header == 1) { /* the size line: "n 1" */
            header = 2;
            long long rows = strtoll(s, &end, 10), cols = strtoll(end, &end, 10);
            if (rows != n || cols != 1) {
                status = cli_error(SYLVA_ERR_FORMAT, "%s:%lld: a %lld x %lld array, the matrix has n = %lld",
                                   path, (long long)lineno, rows, cols, (long long)n);
                goto out;
            }
            continue;
        }
        for (;;) {
            while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n') s++;
            if (!*s) break;
            errno = 0;
            long long v = strtoll(s, &end, 10);
            if (end == s || (*end && !strchr(" \t\r\n", *end)) || errno) {
                status = cli_error(SYLVA_ERR_FORMAT, "%s:%lld: '%.*s' is not an integer", path,
                                   (long long)lineno, (int)strcspn(s, " \t\r\n"), s);
                goto out;
            }
            if (v < 1 || v > n) {
                status = cli_error(SYLVA_ERR_FORMAT, "%s:%lld: %lld is out of range 1..%lld", path,
                                   (long long)lineno, v, (long long)n);
                goto out;
            }
            if (count == n) {
                status = cli_error(SYLVA_ERR_FORMAT, "%s:%lld: more than n = %lld entries", path,
                                   (long long)lineno, (long long)n);
                goto out;
            }
            if (seen[v - 1]) {
                status = cli_error(SYLVA_ERR_FORMAT, "%s:%lld: %lld appears twice: not a permutation",
                                   path, (long long)lineno, v);
                goto out;
            }
            seen[v - 1] = 1;
            p[count++] = v - 1;
            s = end;
        }
    }
    if (ferror(f)) status = cli_error(SYLVA_ERR_IO, "%s: read error", path);
    else if (count != n)
        status = cli_error(SYLVA_ERR_FORMAT, "%s: %lld entries, the matrix has n = %lld", path,
                           (long long)count, (long long)n);
out:
    free(line);
    if (f != stdin) fclose(f);
    free(seen);
    if (status) free(p);
    else *perm = p;
    return status;
}
