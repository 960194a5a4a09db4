/* file_load.c — whole-file input for the readers: a plain file is mapped
 * read-only (no copy, no zeroed pages to fault in), a gzip file (detected by
 * magic bytes, not by name) inflated by zlib into a malloc'd buffer; either
 * way a '\0' follows the last byte so parsers may look one byte past a
 * token. Fails with SYLVA_ERR_IO (cannot open/map/read) or
 * SYLVA_ERR_NO_MEMORY. Also: the io/ thread count. */
#define _POSIX_C_SOURCE 200809L
#include "io_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

static int load_gzip(const char *path, char **data, size_t *size)
{
    gzFile gz = gzopen(path, "rb");
    if (!gz) return sylva__fail(SYLVA_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    gzbuffer(gz, 1 << 20);
    size_t cap = 1 << 20, len = 0;
    char *buf = malloc(cap + 1);
    if (!buf) {
        gzclose(gz);
        return sylva__fail(SYLVA_ERR_NO_MEMORY, "%s: out of memory", path);
    }
    for (;;) {
        if (cap - len < (1u << 16)) {
            size_t ncap = cap * 2;
            char *nbuf = realloc(buf, ncap + 1);
            if (!nbuf) {
                free(buf);
                gzclose(gz);
                return sylva__fail(SYLVA_ERR_NO_MEMORY, "%s: out of memory", path);
            }
            buf = nbuf;
            cap = ncap;
        }
        size_t want = cap - len;
        if (want > (1u << 30)) want = 1u << 30;
        int got = gzread(gz, buf + len, (unsigned)want);
        if (got < 0) {
            int zerr;
            const char *msg = gzerror(gz, &zerr);
            int st = sylva__fail(SYLVA_ERR_IO, "%s: gzip read error: %s", path, msg);
            free(buf);
            gzclose(gz);
            return st;
        }
        if (got == 0) break;
        len += (size_t)got;
    }
    gzclose(gz);
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

int sylva__load_file(const char *path, sylva__file *f)
{
    f->data = NULL;
    f->size = f->mapped = 0;
    if (!path) return sylva__fail(SYLVA_ERR_ARGUMENT, "file name is NULL");
    int fd = open(path, O_RDONLY);
    if (fd < 0) return sylva__fail(SYLVA_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return sylva__fail(SYLVA_ERR_IO, "%s: not a regular file", path);
    }
    unsigned char magic[2] = {0, 0};
    ssize_t m = pread(fd, magic, 2, 0);
    int r;
    if (m == 2 && magic[0] == 0x1f && magic[1] == 0x8b) {
        close(fd);
        r = load_gzip(path, &f->data, &f->size);
        return r;
    }
    r = map_file(path, fd, (size_t)st.st_size, f);
    close(fd);
    return r;
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
