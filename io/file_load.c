/* file_load.c — whole-input loading for the readers: a plain file is mapped
 * read-only (no copy, no zeroed pages to fault in); "-" is standard input,
 * mapped when it is a regular file read from its start, read to its end
 * otherwise (a pipe), refused when it is a terminal; a regular file that
 * reports size 0 but has content (/proc, /sys) is read as a stream. Then
 * decompress.c recognises compressed data and archives by their magic
 * bytes. Either way a '\0' follows the last byte so parsers may look one
 * byte past a token. A named path that is not a regular file (a FIFO, a
 * device, a directory) is refused before it is read, so a FIFO cannot hang
 * the reader. Streamed data is held to the memory budget. Fails with
 * SYLVA_ERR_IO (cannot open/map/read, not a regular file, a terminal),
 * SYLVA_ERR_NO_MEMORY, or decompress.c's errors. Also: the io/ thread
 * count. */
#define _POSIX_C_SOURCE 200809L
#include "io_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int sylva__grow_buffer(const char *path, char **buf, size_t *cap, size_t len, size_t want)
{
    if (*cap - len >= want) return SYLVA_OK;
    size_t ncap = *cap ? *cap : 1 << 16;
    while (ncap - len < want) ncap *= 2;
    if (ncap >= (size_t)SYLVA__BUDGET_CHECK_BYTES) {
        int st = sylva__memory_check((double)ncap, path, "the file's contents");
        if (st) return st;
    }
    char *nbuf = sylva__realloc(*buf, ncap + 1, 1);
    if (!nbuf) return sylva__fail(SYLVA_ERR_NO_MEMORY, "%s: out of memory reading the file", path);
    *buf = nbuf;
    *cap = ncap;
    return SYLVA_OK;
}

/* Read fd to its end: a regular file whose size says 0 (/proc/self/status),
 * or standard input when it is a pipe. */
static int load_stream(const char *path, int fd, char **data, size_t *size)
{
    size_t cap = 0, len = 0;
    char *buf = NULL;
    int st = SYLVA_OK;
    for (;;) {
        if ((st = sylva__grow_buffer(path, &buf, &cap, len, 1u << 16))) break;
        ssize_t got = read(fd, buf + len, cap - len);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            /* a non-blocking pipe handed down: wait for the writer */
            struct pollfd pfd = {.fd = fd, .events = POLLIN};
            if (poll(&pfd, 1, -1) >= 0 || errno == EINTR) continue;
        }
        if (got < 0) {
            st = sylva__fail(SYLVA_ERR_IO, "%s: read error: %s", path, strerror(errno));
            break;
        }
        if (got == 0) break;
        len += (size_t)got;
    }
    if (st) {
        free(buf);
        return st;
    }
    buf[len] = '\0';
    *data = buf;
    *size = len;
    return SYLVA_OK;
}

/* Map the file read-only over an anonymous reservation one page longer, so
 * the byte after the end is a readable '\0' even when the size is a
 * multiple of the page size (POSIX zero-fills the rest of the last page). */
static int map_file(const char *path, int fd, size_t len, sylva__file *f)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t span = (len + page) / page * page;
    if (span <= len) return sylva__fail(SYLVA_ERR_NO_MEMORY, "%s: file too large", path);
    void *base = mmap(NULL, span, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED)
        return sylva__fail(SYLVA_ERR_NO_MEMORY, "%s: cannot map %zu bytes: %s", path, len, strerror(errno));
    int flags = MAP_PRIVATE | MAP_FIXED;
#ifdef MAP_POPULATE
    flags |= MAP_POPULATE;
#endif
    if (len > 0 && mmap(base, len, PROT_READ, flags, fd, 0) == MAP_FAILED) {
        int st = sylva__fail(SYLVA_ERR_IO, "%s: cannot map: %s", path, strerror(errno));
        munmap(base, span);
        return st;
    }
    f->data = base;
    f->size = len;
    f->mapped = span;
    return SYLVA_OK;
}

const char *sylva__input_name(const char *path)
{
    return path && strcmp(path, "-") == 0 ? "<stdin>" : path;
}

/* Standard input: mapped when it is a regular file positioned at its start
 * (sylva < A.mtx: as fast as a path), read to the end otherwise. Not closed:
 * it is the caller's. */
static int load_stdin(sylva__file *f)
{
    const char *name = f->name;
    struct stat st;
    if (fstat(STDIN_FILENO, &st) != 0)
        return sylva__fail(SYLVA_ERR_IO, "%s: cannot read: %s", name, strerror(errno));
    if (S_ISDIR(st.st_mode)) return sylva__fail(SYLVA_ERR_IO, "%s: is a directory", name);
    if (isatty(STDIN_FILENO))
        return sylva__fail(SYLVA_ERR_IO,
                           "%s: standard input is a terminal: pipe or redirect a file into it",
                           name);
    if (S_ISREG(st.st_mode) && st.st_size > 0 && lseek(STDIN_FILENO, 0, SEEK_CUR) == 0)
        return map_file(name, STDIN_FILENO, (size_t)st.st_size, f);
    return load_stream(name, STDIN_FILENO, &f->data, &f->size);
}

static int load_path(const char *path, sylva__file *f)
{
    int fd;
    int64_t size;
    int r = sylva__open_regular(path, &fd, &size);
    if (r) return r;
    r = size == 0 ? load_stream(path, fd, &f->data, &f->size) : map_file(path, fd, (size_t)size, f);
    close(fd);
    return r;
}

int sylva__load_file(const char *path, sylva__file *f)
{
    f->data = NULL;
    f->size = f->mapped = 0;
    f->name = sylva__input_name(path);
    f->compression = "";
    if (!path) return sylva__fail(SYLVA_ERR_ARGUMENT, "file name is NULL");
    int st = strcmp(path, "-") == 0 ? load_stdin(f) : load_path(path, f);
    if (st != SYLVA_OK) return st;
    return sylva__decode_file(path, f);
}

void sylva__unload_file(sylva__file *f)
{
    if (f->mapped) munmap(f->data, f->mapped);
    else free(f->data);
    f->data = NULL;
    f->size = f->mapped = 0;
}

int sylva__io_threads(void)
{
    const char *env = getenv("SYLVA_IO_THREADS");
    long t = 0;
    if (env && *env) t = strtol(env, NULL, 10);
    if (t <= 0) t = sysconf(_SC_NPROCESSORS_ONLN);
    if (t < 1) t = 1;
    if (t > SYLVA__IO_MAX_THREADS) t = SYLVA__IO_MAX_THREADS;
    return (int)t;
}
