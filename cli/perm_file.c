/* perm_file.c — --perm FILE: a fill-reducing permutation of the user's
 * own, n integers 1..n (new → old, as sylva_analysis_perm gives them,
 * 1-based), whitespace-separated (one per line is usual; `%` comment lines
 * and a Matrix Market array header "n 1" are skipped, so a vector written
 * by other tools works). Checked here for count, range and repeats, with
 * FILE:LINE messages; the library checks it again. FILE is a regular file
 * or "-" (standard input, not a terminal): a FIFO or a device is refused at
 * once. It is read a token at a time, so what it costs is the n-entry
 * permutation whatever the file holds (/dev/zero through a pipe is one
 * over-long token, refused). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/* A token longer than this is not an integer of a permutation. */
enum { TOKEN_MAX = 32 };

typedef struct perm_reader {
    FILE *f;
    long long line; /* of the next byte */
    int bol;        /* at the start of a line */
    int banner;     /* a Matrix Market banner was seen */
} perm_reader;

/* The next whitespace-separated token into tok (NUL-terminated, its first
 * TOKEN_MAX bytes; *len its full length) and its line, skipping `%` lines;
 * 0 at the end of the file. */
static int next_token(perm_reader *r, char *tok, size_t *len, long long *line)
{
    int c;
    for (;;) {
        c = getc(r->f);
        if (c == EOF) return 0;
        if (c == '\n') {
            r->line++;
            r->bol = 1;
        } else if (c == '%' && r->bol) {
            char head[14];
            size_t k = 0;
            head[k++] = '%';
            while ((c = getc(r->f)) != EOF && c != '\n')
                if (k < sizeof head) head[k++] = (char)c;
            r->banner |= k == sizeof head && !memcmp(head, "%%MatrixMarket", sizeof head);
            if (c == EOF) return 0;
            r->line++;
        } else if (c != ' ' && c != '\t' && c != '\r') {
            break;
        } else {
            r->bol = 0;
        }
    }
    r->bol = 0;
    *line = r->line;
    size_t n = 0;
    for (; c != EOF && c != ' ' && c != '\t' && c != '\r' && c != '\n'; c = getc(r->f), n++)
        if (n < TOKEN_MAX) tok[n] = (char)c;
    tok[n < TOKEN_MAX ? n : TOKEN_MAX] = '\0';
    *len = n;
    if (c == '\n') ungetc(c, r->f);
    return 1;
}

/* The token as an integer (*v), or 0 when it is not one. */
static int token_integer(const char *tok, size_t len, long long *v)
{
    if (len == 0 || len >= TOKEN_MAX) return 0;
    char *end;
    errno = 0;
    *v = strtoll(tok, &end, 10);
    return end == tok + len && !errno && (tok[0] == '-' || tok[0] == '+' || (tok[0] >= '0' && tok[0] <= '9'));
}

/* path opened for reading: a regular file, or standard input for "-". */
static int open_perm(const char *path, FILE **f)
{
    *f = NULL;
    if (!strcmp(path, "-")) {
        if (isatty(STDIN_FILENO))
            return cli_error(SYLVA_ERR_IO, "--perm -: standard input is a terminal: pipe or redirect a file into it");
        *f = stdin;
        return SYLVA_OK;
    }
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC); /* a FIFO must not block the open */
    if (fd < 0) return cli_error(SYLVA_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        int err = errno;
        int reg = S_ISREG(st.st_mode);
        close(fd);
        if (reg) return cli_error(SYLVA_ERR_IO, "%s: cannot open: %s", path, strerror(err));
        return cli_error(SYLVA_ERR_IO, "%s: not a regular file (%s)", path,
                         S_ISFIFO(st.st_mode)  ? "a FIFO"
                         : S_ISCHR(st.st_mode) ? "a character device"
                         : S_ISDIR(st.st_mode) ? "a directory"
                                               : "not a plain file");
    }
    int flags = fcntl(fd, F_GETFL);
    if (flags >= 0) fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    if (!(*f = fdopen(fd, "r"))) {
        close(fd);
        return cli_error(SYLVA_ERR_NO_MEMORY, "%s: out of memory", path);
    }
    return SYLVA_OK;
}

int cli_read_perm(const char *path, int64_t n, int64_t **perm)
{
    *perm = NULL;
    perm_reader r = {NULL, 1, 1, 0};
    int status = open_perm(path, &r.f);
    if (status) return status;
    int64_t *p = malloc((size_t)(n > 0 ? n : 1) * sizeof *p);
    char *seen = calloc((size_t)(n > 0 ? n : 1), 1);
    if (!p || !seen) {
        status = cli_error(SYLVA_ERR_NO_MEMORY, "%s: out of memory", path);
        goto out;
    }
    int64_t count = 0;
    int header_done = 0;
    char tok[TOKEN_MAX + 1], q[4 * TOKEN_MAX + 8];
    size_t len;
    long long line, v;
    while (next_token(&r, tok, &len, &line)) {
        if (!token_integer(tok, len, &v)) {
            cli_quote(q, sizeof q, tok, len < TOKEN_MAX ? len : TOKEN_MAX, len > TOKEN_MAX);
            status = cli_error(SYLVA_ERR_FORMAT, "%s:%lld: %s is not an integer", path, line, q);
            goto out;
        }
        if (r.banner && !header_done) { /* the size line: "n 1" */
            header_done = 1;
            long long cols = -1, cline = -1;
            if (next_token(&r, tok, &len, &cline) && cline == line && !token_integer(tok, len, &cols)) cols = -1;
            if (v != n || cols != 1 || cline != line) {
                status = cli_error(SYLVA_ERR_FORMAT, "%s:%lld: the size line of a %lld x %lld array, the matrix has n = %lld",
                                   path, line, v, cline == line ? cols : 0, (long long)n);
                goto out;
            }
            continue;
        }
        if (v < 1 || v > n) {
            status = cli_error(SYLVA_ERR_FORMAT, "%s:%lld: %lld is out of range 1..%lld", path, line, v,
                               (long long)n);
            goto out;
        }
        if (count == n) {
            status = cli_error(SYLVA_ERR_FORMAT, "%s:%lld: more than n = %lld entries", path, line, (long long)n);
            goto out;
        }
        if (seen[v - 1]) {
            status = cli_error(SYLVA_ERR_FORMAT, "%s:%lld: %lld appears twice: not a permutation", path, line, v);
            goto out;
        }
        seen[v - 1] = 1;
        p[count++] = v - 1;
    }
    if (ferror(r.f)) status = cli_error(SYLVA_ERR_IO, "%s: read error", path);
    else if (count != n)
        status = cli_error(SYLVA_ERR_FORMAT, "%s: %lld entries, the matrix has n = %lld", path,
                           (long long)count, (long long)n);
out:
    if (r.f != stdin) fclose(r.f);
    free(seen);
    if (status) free(p);
    else *perm = p;
    return status;
}
