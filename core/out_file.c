/* out_file.c — the one way sylva writes a file: into a temporary file in
 * the target's directory, renamed over the target only when every byte was
 * written, flushed and synced, so a full disk, a write error or a run that
 * fails halfway leaves the old file (or none) and never a truncated one; the
 * temporary is removed on every failure path. A target that exists and is
 * not a regular file (/dev/null, a terminal, a FIFO) is written in place,
 * as it cannot be replaced; so is a stream this process already holds open
 * ("-" for standard output, /dev/stdout, /dev/stderr, /dev/fd/N,
 * /proc/self/fd/N, or a link resolving to what standard output or error
 * is): written through a duplicate of its descriptor, so a stream opened
 * for appending (`>> log`) is appended to, never renamed over. Any other
 * symbolic link is followed, so the link stays. Failures are SYLVA_ERR_IO
 * naming the file and the system's reason, or SYLVA_ERR_NO_MEMORY. A
 * temporary is also removed when SIGINT, SIGTERM or SIGHUP ends the
 * process while it exists (out_signals.c). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core.h"

static int64_t tmp_serial;

/* dir/.base.sylva-XXXXXXXX next to `path`, created exclusively with the
 * mode a plain fopen would give (umask applies): *fd and *tmp_out, or a
 * status. */
/* A temporary beside path, created with O_EXCL under a name of our own;
 * guarded (out_signals.c) before it is created, so that no moment passes
 * where it exists unguarded: a signal delivered to any thread between the
 * creation and a later guard left it behind (caught under ASan, where that
 * moment is longer). The guard of a name that turned out taken (EEXIST:
 * the names hold the pid, the time and a serial, so this does not happen
 * in practice) is dropped before the next name. */
static int open_temporary(const char *path, char **tmp_out, int *fd_out, int *guard)
{
    const char *slash = strrchr(path, '/');
    size_t dirlen = slash ? (size_t)(slash - path + 1) : 0;
    const char *base = slash ? slash + 1 : path;
    size_t cap = strlen(path) + 32;
    char *tmp = sylva__malloc(cap, 1);
    if (!tmp) return SYLVA_ERR_NO_MEMORY;
    for (int attempt = 0; attempt < 100; attempt++) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        unsigned long r = (unsigned long)getpid() * 2654435761u ^ (unsigned long)ts.tv_nsec ^
                          (unsigned long)__atomic_add_fetch(&tmp_serial, 1, __ATOMIC_RELAXED) << 20;
        /* A long name may not take a suffix: fall back to a short one. */
        int longname = strlen(base) + 16 > NAME_MAX;
        snprintf(tmp, cap, "%.*s.%s.sylva-%08lx", (int)dirlen, path, longname ? "out" : base,
                 r & 0xffffffffUL);
        *guard = sylva__out_guard(tmp);
        int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0) {
            *tmp_out = tmp;
            *fd_out = fd;
            return SYLVA_OK;
        }
        int err = errno;
        sylva__out_unguard(*guard);
        *guard = 0;
        errno = err;
        if (errno != EEXIST) break;
    }
    int err = errno;
    free(tmp);
    return sylva__fail(SYLVA_ERR_IO, "%s: cannot create a file in its directory: %s", path,
                       strerror(err));
}

/* N when s is a decimal descriptor number and nothing else, else -1. */
static int fd_number(const char *s)
{
    if (*s < '0' || *s > '9') return -1;
    long v = 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9' || v > 1000000) return -1;
        v = 10 * v + (*s - '0');
    }
    return (int)v;
}

/* Whether path names the file that descriptor fd has open. */
static int same_file(const struct stat *st, int fd)
{
    struct stat fst;
    return fstat(fd, &fst) == 0 && fst.st_dev == st->st_dev && fst.st_ino == st->st_ino;
}

int sylva__out_stream_fd(const char *path)
{
    if (!path) return -1;
    if (!strcmp(path, "-") || !strcmp(path, "/dev/stdout")) return 1;
    if (!strcmp(path, "/dev/stderr")) return 2;
    static const char *const dirs[] = {"/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/"};
    for (size_t k = 0; k < sizeof dirs / sizeof *dirs; k++)
        if (!strncmp(path, dirs[k], strlen(dirs[k]))) return fd_number(path + strlen(dirs[k]));
    char own[64];
    int len = snprintf(own, sizeof own, "/proc/%ld/fd/", (long)getpid());
    if (!strncmp(path, own, (size_t)len)) return fd_number(path + len);
    /* A link of the user's own to the file standard output or error is. */
    struct stat lst, st;
    if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode) && stat(path, &st) == 0) {
        if (same_file(&st, 1)) return 1;
        if (same_file(&st, 2)) return 2;
    }
    return -1;
}

/* Write through a duplicate of descriptor fd (its offset and append mode
 * are the stream's), after what stdio holds for it. */
static int open_stream(sylva__out *o, const char *path, int fd)
{
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0)
        return sylva__fail(SYLVA_ERR_IO, "%s: cannot write: descriptor %d is not open", path, fd);
    if ((flags & O_ACCMODE) == O_RDONLY)
        return sylva__fail(SYLVA_ERR_IO, "%s: cannot write: descriptor %d is open for reading only",
                           path, fd);
    if (fd == 1) fflush(stdout);
    if (fd == 2) fflush(stderr);
    int dup_fd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
    if (dup_fd < 0)
        return sylva__fail(SYLVA_ERR_IO, "%s: cannot write: %s", path, strerror(errno));
    o->f = fdopen(dup_fd, "w");
    o->path = strdup(strcmp(path, "-") ? path : "standard output");
    if (!o->f || !o->path) {
        if (o->f) fclose(o->f);
        else close(dup_fd);
        free(o->path);
        memset(o, 0, sizeof *o);
        return sylva__fail(SYLVA_ERR_NO_MEMORY, "%s: out of memory", path);
    }
    return SYLVA_OK;
}

int sylva__out_open(sylva__out *o, const char *path)
{
    memset(o, 0, sizeof *o);
    if (!path || !*path) return sylva__fail(SYLVA_ERR_ARGUMENT, "output file name is empty");
    int stream = sylva__out_stream_fd(path);
    if (stream >= 0) return open_stream(o, path, stream);
    struct stat st;
    int exists = stat(path, &st) == 0;
    if (exists && S_ISDIR(st.st_mode))
        return sylva__fail(SYLVA_ERR_IO, "%s: cannot write: is a directory", path);
    if (exists && !S_ISREG(st.st_mode)) {
        /* A device or a FIFO: cannot be replaced, write it in place. */
        o->f = fopen(path, "w");
        if (!o->f)
            return sylva__fail(SYLVA_ERR_IO, "%s: cannot open for writing: %s", path,
                               strerror(errno));
        o->path = strdup(path);
        if (!o->path) {
            fclose(o->f);
            o->f = NULL;
            return sylva__fail(SYLVA_ERR_NO_MEMORY, "%s: out of memory", path);
        }
        return SYLVA_OK;
    }
    /* Follow a symbolic link to the file it names, so the link survives. */
    struct stat lst;
    char *target = NULL;
    if (exists && lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode)) target = realpath(path, NULL);
    if (!target) target = strdup(path);
    if (!target) return sylva__fail(SYLVA_ERR_NO_MEMORY, "%s: out of memory", path);
    char *tmp = NULL;
    int fd = -1, status = open_temporary(target, &tmp, &fd, &o->guard);
    if (status) {
        free(target);
        return status;
    }
    if (exists) (void)fchmod(fd, st.st_mode & 07777); /* keep the old file's mode */
    o->f = fdopen(fd, "w");
    if (!o->f) {
        int err = errno;
        close(fd);
        unlink(tmp);
        sylva__out_unguard(o->guard);
        o->guard = 0;
        free(tmp);
        free(target);
        return sylva__fail(SYLVA_ERR_IO, "%s: cannot open for writing: %s", path, strerror(err));
    }
    o->path = target;
    o->tmp = tmp;
    return SYLVA_OK;
}

static void out_release(sylva__out *o)
{
    sylva__out_unguard(o->guard);
    free(o->path);
    free(o->tmp);
    memset(o, 0, sizeof *o);
}

void sylva__out_abort(sylva__out *o)
{
    if (!o->f) return;
    fclose(o->f);
    if (o->tmp) unlink(o->tmp);
    out_release(o);
}

int sylva__out_close(sylva__out *o)
{
    if (!o->f) return sylva__fail(SYLVA_ERR_ARGUMENT, "output file is not open");
    int err = 0;
    if (fflush(o->f) != 0 || ferror(o->f)) err = errno ? errno : EIO;
    /* A synced file is on the disk before its name is: no empty file after a
     * crash, and a late ENOSPC (delayed allocation, NFS) is seen here. */
    if (!err && o->tmp && fsync(fileno(o->f)) != 0 && errno != EINVAL) err = errno;
    if (fclose(o->f) != 0 && !err) err = errno ? errno : EIO;
    o->f = NULL;
    if (!err && o->tmp && rename(o->tmp, o->path) != 0) err = errno;
    if (err && o->tmp) unlink(o->tmp);
    int status =
        err ? sylva__fail(SYLVA_ERR_IO, "%s: write error: %s", o->path, strerror(err)) : SYLVA_OK;
    out_release(o);
    return status;
}

int sylva__write_file(const char *path, const void *data, size_t size)
{
    sylva__out o;
    int status = sylva__out_open(&o, path);
    if (status) return status;
    errno = 0;
    if (size > 0 && fwrite(data, 1, size, o.f) != size) {
        int err = errno ? errno : EIO;
        sylva__out_abort(&o);
        return sylva__fail(SYLVA_ERR_IO, "%s: write error: %s", path, strerror(err));
    }
    return sylva__out_close(&o);
}
