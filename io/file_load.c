/* file_load.c — whole-file input for the readers: one read() of a plain file,
 * or zlib's gzread of a gzip file (detected by magic bytes, not by name),
 * into one malloc'd buffer terminated by '\0' so parsers may look one byte
 * past a token. Fails with SYLVA_ERR_IO (cannot open/read) or
 * SYLVA_ERR_NO_MEMORY. Also: the io/ thread count. */
#define _POSIX_C_SOURCE 200809L
#include "io_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
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

int sylva__load_file(const char *path, char **data, size_t *size)
{
    *data = NULL;
    *size = 0;
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
    if (m == 2 && magic[0] == 0x1f && magic[1] == 0x8b) {
        close(fd);
        return load_gzip(path, data, size);
    }
    size_t len = (size_t)st.st_size;
    char *buf = malloc(len + 1);
    if (!buf) {
        close(fd);
        return sylva__fail(SYLVA_ERR_NO_MEMORY, "%s: out of memory reading %zu bytes", path, len);
    }
    size_t done = 0;
    while (done < len) {
        size_t want = len - done;
        if (want > (1u << 30)) want = 1u << 30;
        ssize_t got = read(fd, buf + done, want);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) {
            int st2 = sylva__fail(SYLVA_ERR_IO, "%s: read error: %s", path, strerror(errno));
            free(buf);
            close(fd);
            return st2;
        }
        if (got == 0) break; /* file shrank under us: parse what we have */
        done += (size_t)got;
    }
    close(fd);
    buf[done] = '\0';
    *data = buf;
    *size = done;
    return SYLVA_OK;
}

int sylva__io_threads(void)
{
    const char *env = getenv("SYLVA_IO_THREADS");
    long t = 0;
    if (env && *env) t = strtol(env, NULL, 10);
    if (t <= 0) t = sysconf(_SC_NPROCESSORS_ONLN);
    if (t < 1) t = 1;
    if (t > 16) t = 16;
    return (int)t;
}
