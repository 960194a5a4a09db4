/* in_file.c — opening a file sylva reads by name (the matrix, a right-hand
 * side, a saved analysis): only a regular file is read. A FIFO with no
 * writer would block the open (so the open does not block) and one with a
 * silent writer the read; a device such as /dev/zero never ends. The size
 * is returned so the caller can check it against what it may hold before
 * reading. Fails with SYLVA_ERR_IO naming the file and what it is. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core.h"

const char *sylva__file_kind(unsigned mode)
{
    return S_ISDIR(mode)    ? "a directory"
           : S_ISFIFO(mode) ? "a FIFO"
           : S_ISCHR(mode)  ? "a character device"
           : S_ISBLK(mode)  ? "a block device"
           : S_ISSOCK(mode) ? "a socket"
                            : "not a plain file";
}

int sylva__open_regular(const char *path, int *fd_out, int64_t *size_out)
{
    *fd_out = -1;
    if (!path) return sylva__fail(SYLVA_ERR_ARGUMENT, "file name is NULL");
    /* O_NONBLOCK: opening a FIFO without a writer would block here. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return sylva__fail(SYLVA_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int err = errno;
        close(fd);
        return sylva__fail(SYLVA_ERR_IO, "%s: cannot open: %s", path, strerror(err));
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return sylva__fail(SYLVA_ERR_IO, "%s: not a regular file (%s)", path,
                           sylva__file_kind((unsigned)st.st_mode));
    }
    int flags = fcntl(fd, F_GETFL);
    if (flags >= 0) fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    *fd_out = fd;
    *size_out = (int64_t)st.st_size;
    return SYLVA_OK;
}
