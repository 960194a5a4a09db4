/* isolate.c — one bench-solver row in a child process of its own (fork), so
 * that the row's peak resident memory is its alone: the kernel's high-water
 * mark of the child (wait4's ru_maxrss), which starts from nothing at the
 * fork and counts what the row touches — the matrix it reads, the
 * libraries' pages it uses, its solver's memory. The child sends the row
 * (and the permutation it made, when asked) back through a pipe. A child
 * that dies leaves the row failed with the signal in its note. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench_solver.h"

static int write_all(int fd, const void *p, size_t n)
{
    const char *c = p;
    while (n > 0) {
        ssize_t w = write(fd, c, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return -1;
        c += w;
        n -= (size_t)w;
    }
    return 0;
}

static int read_all(int fd, void *p, size_t n)
{
    char *c = p;
    while (n > 0) {
        ssize_t r = read(fd, c, n);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return -1;
        c += r;
        n -= (size_t)r;
    }
    return 0;
}

int bench_isolated(bench_row_fn fn, void *arg, int64_t n, int64_t **perm_out, bench_row *r)
{
    int fd[2];
    fflush(NULL);
    if (pipe(fd) != 0) return fn(arg, perm_out, r); /* in process, peak not its own */
    pid_t pid = fork();
    if (pid < 0) {
        close(fd[0]);
        close(fd[1]);
        return fn(arg, perm_out, r);
    }
    if (pid == 0) {
        close(fd[0]);
        int64_t *perm = NULL;
        int st = fn(arg, perm_out ? &perm : NULL, r);
        char has_perm = perm != NULL;
        int bad = write_all(fd[1], &st, sizeof st) || write_all(fd[1], r, sizeof *r) ||
                  write_all(fd[1], &has_perm, 1) ||
                  (has_perm && write_all(fd[1], perm, (size_t)n * sizeof *perm));
        fflush(NULL);
        _exit(bad ? 3 : 0);
    }
    close(fd[1]);
    int st = -1;
    char has_perm = 0;
    bench_row got;
    int ok = read_all(fd[0], &st, sizeof st) == 0 && read_all(fd[0], &got, sizeof got) == 0 &&
             read_all(fd[0], &has_perm, 1) == 0;
    if (ok) {
        *r = got;
        if (has_perm && perm_out) {
            *perm_out = malloc((size_t)(n + 1) * sizeof **perm_out);
            if (!*perm_out || read_all(fd[0], *perm_out, (size_t)n * sizeof **perm_out)) {
                free(*perm_out);
                *perm_out = NULL;
            }
        }
    }
    close(fd[0]);
    int wst = 0;
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    while (wait4(pid, &wst, 0, &ru) < 0 && errno == EINTR) {
    }
    if (!ok) {
        r->ok = 0;
        if (WIFSIGNALED(wst))
            snprintf(r->note, sizeof r->note, "the row's process died (%s)", strsignal(WTERMSIG(wst)));
        else
            snprintf(r->note, sizeof r->note, "the row's process exited %d without a result",
                     WIFEXITED(wst) ? WEXITSTATUS(wst) : -1);
        return -1;
    }
    r->peak_rss = (double)ru.ru_maxrss * 1024.0;
    return st;
}
