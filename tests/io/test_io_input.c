/* test_io_input.c — where the readers' bytes come from: standard input
 * ("-": a regular file at its start or further on, a pipe (also a
 * non-blocking one whose writer is late), /dev/null, a closed descriptor, a
 * directory, a terminal), gzip, bzip2 and xz data
 * (compressed here with zlib, libbz2 and liblzma, in files whose names say
 * nothing) read to the same matrix as the plain file, from files and from
 * stdin, concatenated streams, zero padding, trailing data, truncations and
 * corruptions (a precise error or the right matrix, never a crash), tar
 * archives behind compression recognised before the rest is inflated, and
 * decompression bombs stopped by the memory budget. sylva_read_dense the
 * same way.
 *   test-io-input SOURCE_DIR [TMP_DIR] */
#include <bzlib.h>
#include <fcntl.h>
#include <lzma.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "test_util.h"

static char src[4096], tmpdir[4096];

enum { GZ, BZ2, XZ, CODECS };
static const char *const codec_name[CODECS] = {"gzip", "bzip2", "xz"};

/* ------------------------------------------------------------ helpers */

static char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        exit(99);
    }
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)len + 1);
    *n = fread(b, 1, (size_t)len, f);
    fclose(f);
    return b;
}

static void write_bytes(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, n, f) != n) {
        perror(path);
        exit(99);
    }
    fclose(f);
}

/* A growing output buffer for the compressors. */
typedef struct {
    unsigned char *p;
    size_t len, cap;
} bytes;

static void room(bytes *b, size_t want)
{
    if (b->cap - b->len >= want) return;
    while (b->cap - b->len < want) b->cap = b->cap ? 2 * b->cap : 1 << 16;
    b->p = realloc(b->p, b->cap);
    if (!b->p) exit(99);
}

/* Compress `total` bytes produced by gen(k, buf, len) (in pieces, so that a
 * 72 MB bomb needs no 72 MB input) with codec; appended to out. */
typedef void (*gen_fn)(const void *arg, size_t off, unsigned char *buf, size_t len);

static void compress_gen(int codec, gen_fn gen, const void *arg, size_t total, bytes *out)
{
    enum { PIECE = 1 << 20 };
    unsigned char *in = malloc(PIECE);
    if (codec == GZ) {
        z_stream z = {0};
        if (deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) exit(99);
        for (size_t off = 0;;) {
            size_t len = total - off < PIECE ? total - off : PIECE;
            gen(arg, off, in, len);
            off += len;
            z.next_in = in, z.avail_in = (unsigned)len;
            int flush = off == total ? Z_FINISH : Z_NO_FLUSH, r;
            do {
                room(out, 1 << 16);
                z.next_out = out->p + out->len, z.avail_out = (unsigned)(out->cap - out->len);
                r = deflate(&z, flush);
                out->len = out->cap - z.avail_out;
            } while (z.avail_out == 0 || (flush == Z_FINISH && r != Z_STREAM_END));
            if (off == total) break;
        }
        deflateEnd(&z);
    } else if (codec == BZ2) {
        bz_stream b = {0};
        if (BZ2_bzCompressInit(&b, 9, 0, 0) != BZ_OK) exit(99);
        for (size_t off = 0;;) {
            size_t len = total - off < PIECE ? total - off : PIECE;
            gen(arg, off, in, len);
            off += len;
            b.next_in = (char *)in, b.avail_in = (unsigned)len;
            int action = off == total ? BZ_FINISH : BZ_RUN, r;
            do {
                room(out, 1 << 16);
                b.next_out = (char *)out->p + out->len,
                b.avail_out = (unsigned)(out->cap - out->len);
                r = BZ2_bzCompress(&b, action);
                out->len = out->cap - b.avail_out;
            } while (action == BZ_FINISH ? r != BZ_STREAM_END : b.avail_in > 0);
            if (off == total) break;
        }
        BZ2_bzCompressEnd(&b);
    } else {
        lzma_stream x = LZMA_STREAM_INIT;
        if (lzma_easy_encoder(&x, 1, LZMA_CHECK_CRC64) != LZMA_OK) exit(99);
        for (size_t off = 0;;) {
            size_t len = total - off < PIECE ? total - off : PIECE;
            gen(arg, off, in, len);
            off += len;
            x.next_in = in, x.avail_in = len;
            lzma_action action = off == total ? LZMA_FINISH : LZMA_RUN;
            lzma_ret r;
            do {
                room(out, 1 << 16);
                x.next_out = out->p + out->len, x.avail_out = out->cap - out->len;
                r = lzma_code(&x, action);
                out->len = out->cap - x.avail_out;
            } while (action == LZMA_FINISH ? r != LZMA_STREAM_END : x.avail_in > 0);
            if (off == total) break;
        }
        lzma_end(&x);
    }
    free(in);
}

static void gen_copy(const void *arg, size_t off, unsigned char *buf, size_t len)
{
    memcpy(buf, (const char *)arg + off, len);
}

static void compress_mem(int codec, const void *data, size_t n, bytes *out)
{
    compress_gen(codec, gen_copy, data, n, out);
}

static sylva_matrix *read_ok(const char *path, const char *what, sylva_read_info *info)
{
    sylva_matrix *A = NULL;
    int st = sylva_read_matrix_market_info(path, NULL, &A, info);
    CHECK(st == SYLVA_OK && A, "%s: %s", what, sylva_last_error());
    return A;
}

/* The status, and the message starts with prefix and holds part. */
static void read_fails(const char *path, int status, const char *prefix, const char *part,
                       const char *what)
{
    sylva_matrix *A = (sylva_matrix *)&A;
    int st = sylva_read_matrix_market(path, &A);
    const char *msg = sylva_last_error();
    CHECK(st == status && A == NULL && !strncmp(msg, prefix, strlen(prefix)) && strstr(msg, part),
          "%s: status %s, message '%s' (want %s, '%s' ... '%s')", what, sylva_status_name(st), msg,
          sylva_status_name(status), prefix, part);
}

/* ------------------------------------------------------------ stdin */

static int saved_stdin = -1;

static void stdin_from(int fd)
{
    if (saved_stdin < 0) saved_stdin = dup(STDIN_FILENO);
    if (fd >= 0) {
        dup2(fd, STDIN_FILENO);
        close(fd);
    } else {
        close(STDIN_FILENO);
    }
}

static void stdin_restore(void) { dup2(saved_stdin, STDIN_FILENO); }

typedef struct {
    int fd;
    const unsigned char *data;
    size_t n;
    int delay_ms; /* before the first write */
} pipe_job;

static void *pipe_writer(void *arg)
{
    pipe_job *j = arg;
    size_t off = 0;
    if (j->delay_ms) usleep((useconds_t)j->delay_ms * 1000);
    while (off < j->n) {
        ssize_t w = write(j->fd, j->data + off, j->n - off);
        if (w <= 0) break; /* the reader stopped (EPIPE): fine */
        off += (size_t)w;
    }
    close(j->fd);
    return NULL;
}

/* Standard input is a pipe fed with data by a thread while `read` runs;
 * nonblock: its read end is non-blocking and the writer starts late. */
static void with_pipe_mode(const void *data, size_t n, void (*read)(void *), void *arg, int nonblock)
{
    int p[2];
    if (pipe(p) != 0) exit(99);
    if (nonblock) fcntl(p[0], F_SETFL, fcntl(p[0], F_GETFL) | O_NONBLOCK);
    pipe_job j = {p[1], data, n, nonblock ? 200 : 0};
    pthread_t t;
    pthread_create(&t, NULL, pipe_writer, &j);
    stdin_from(p[0]);
    read(arg);
    stdin_restore();
    pthread_join(t, NULL);
}

static void with_pipe(const void *data, size_t n, void (*read)(void *), void *arg)
{
    with_pipe_mode(data, n, read, arg, 0);
}

typedef struct {
    const sylva_matrix *want;
    const char *compression;
    const char *what;
} pipe_expect;

static void read_stdin_same(void *arg)
{
    pipe_expect *e = arg;
    sylva_read_info info;
    sylva_matrix *A = read_ok("-", e->what, &info);
    CHECK(A && same_matrix(A, e->want), "%s: differs from the plain file", e->what);
    CHECK(!A || !strcmp(info.compression, e->compression), "%s: compression '%s'", e->what,
          A ? info.compression : "");
    sylva_matrix_free(A);
}

static void read_stdin_tar(void *arg)
{
    (void)arg;
    read_fails("-", SYLVA_ERR_UNSUPPORTED, "<stdin>: a tar archive (xz-compressed)",
               "extract the .mtx first (e.g. tar xf -)", "stdin tar.xz");
}

static void read_stdin_dense(void *arg)
{
    int64_t n = 0, nrhs = 0;
    double *X = NULL;
    int st = sylva_read_dense("-", &n, &nrhs, &X);
    CHECK(st == SYLVA_OK && n == 3 && nrhs == 2 && X && X[0] == 1 && X[5] == 6.5,
          "dense stdin (%s): %s", (const char *)arg, sylva_last_error());
    free(X);
}

static void test_stdin(void)
{
    char path[8192], tmp[8192];
    snprintf(path, sizeof path, "%s/matrices/real/wathenSmall.mtx", src);
    size_t n;
    char *text = slurp(path, &n);
    sylva_matrix *W = read_ok(path, "wathenSmall", NULL);
    if (!W) return;
    /* A regular file from its start (mapped), and from further on (read). */
    stdin_from(open(path, O_RDONLY));
    sylva_read_info info;
    sylva_matrix *A = read_ok("-", "stdin, regular file", &info);
    CHECK(A && same_matrix(A, W), "stdin, regular file: differs");
    sylva_matrix_free(A);
    stdin_restore();
    snprintf(tmp, sizeof tmp, "%s/input_offset.mtx", tmpdir);
    char *shifted = malloc(n + 8);
    memcpy(shifted, "garbage\n", 8);
    memcpy(shifted + 8, text, n);
    write_bytes(tmp, shifted, n + 8);
    int fd = open(tmp, O_RDONLY);
    lseek(fd, 8, SEEK_SET);
    stdin_from(fd);
    A = read_ok("-", "stdin, regular file at an offset", NULL);
    CHECK(A && same_matrix(A, W), "stdin at an offset: differs");
    sylva_matrix_free(A);
    stdin_restore();
    unlink(tmp);
    free(shifted);
    /* A pipe: plain, and each codec (2.2 MB, more than a pipe holds). */
    pipe_expect e = {W, "", "stdin, pipe"};
    with_pipe(text, n, read_stdin_same, &e);
    e.what = "stdin, non-blocking pipe, late writer";
    with_pipe_mode(text, n, read_stdin_same, &e, 1);
    for (int c = 0; c < CODECS; c++) {
        bytes z = {0};
        compress_mem(c, text, n, &z);
        char what[64];
        snprintf(what, sizeof what, "stdin, %s pipe", codec_name[c]);
        e = (pipe_expect){W, codec_name[c], what};
        with_pipe(z.p, z.len, read_stdin_same, &e);
        /* and a compressed regular file on stdin */
        snprintf(tmp, sizeof tmp, "%s/input_stdin_%d", tmpdir, c);
        write_bytes(tmp, z.p, z.len);
        stdin_from(open(tmp, O_RDONLY));
        snprintf(what, sizeof what, "stdin, %s file", codec_name[c]);
        read_stdin_same(&e);
        stdin_restore();
        unlink(tmp);
        free(z.p);
    }
    /* Messages name "<stdin>". */
    snprintf(path, sizeof path, "%s/matrices/bad/nan_value.mtx", src);
    stdin_from(open(path, O_RDONLY));
    read_fails("-", SYLVA_ERR_BAD_VALUE, "<stdin>:4: ", "is NaN", "stdin, bad file");
    stdin_restore();
    snprintf(path, sizeof path, "%s/matrices/bad/archive.mtx.tar.xz", src);
    size_t tn;
    char *tar = slurp(path, &tn);
    with_pipe(tar, tn, read_stdin_tar, NULL);
    free(tar);
    /* Empty, closed, a directory, a terminal. */
    stdin_from(open("/dev/null", O_RDONLY));
    read_fails("-", SYLVA_ERR_FORMAT, "<stdin>:1: ", "empty file", "stdin, /dev/null");
    stdin_restore();
    stdin_from(-1);
    read_fails("-", SYLVA_ERR_IO, "<stdin>: ", "cannot read", "stdin, closed");
    stdin_restore();
    stdin_from(open(src, O_RDONLY | O_DIRECTORY));
    read_fails("-", SYLVA_ERR_IO, "<stdin>: ", "is a directory", "stdin, a directory");
    stdin_restore();
    int master = posix_openpt(O_RDWR | O_NOCTTY);
    const char *slave =
        master >= 0 && grantpt(master) == 0 && unlockpt(master) == 0 ? ptsname(master) : NULL;
    int tty = slave ? open(slave, O_RDWR | O_NOCTTY) : -1;
    if (tty >= 0) {
        stdin_from(tty);
        read_fails("-", SYLVA_ERR_IO, "<stdin>: ", "standard input is a terminal",
                   "stdin, a terminal");
        stdin_restore();
    } else {
        printf("no pseudo-terminal here: the terminal case is not run\n");
    }
    if (master >= 0) close(master);
    /* Only "-" itself is standard input: a file named "-" is DIR/- or ./- */
    snprintf(tmp, sizeof tmp, "%s/-", tmpdir);
    write_bytes(tmp, text, n);
    A = read_ok(tmp, "a file named -", NULL);
    CHECK(A && same_matrix(A, W), "a file named -: differs");
    sylva_matrix_free(A);
    unlink(tmp);
    /* Dense vectors from a pipe, plain and compressed. */
    static const char dense[] =
        "%%MatrixMarket matrix array real general\n3 2\n1\n2\n3\n4\n5\n6.5\n";
    with_pipe(dense, sizeof dense - 1, read_stdin_dense, "plain");
    bytes z = {0};
    compress_mem(BZ2, dense, sizeof dense - 1, &z);
    with_pipe(z.p, z.len, read_stdin_dense, "bzip2");
    free(z.p);
    sylva_matrix_free(W);
    free(text);
}

/* ------------------------------------------------------------ files */

/* Every codec: the same matrix as the plain file (names without a
 * suffix), concatenated streams, zero padding, trailing data, truncations
 * and single-byte corruptions. */
static void test_compressed(const char *name)
{
    char path[8192], tmp[8192];
    snprintf(path, sizeof path, "%s/matrices/real/%s", src, name);
    size_t n;
    char *text = slurp(path, &n);
    sylva_matrix *P = read_ok(path, name, NULL);
    if (!P) return;
    snprintf(tmp, sizeof tmp, "%s/input_compressed", tmpdir);
    for (int c = 0; c < CODECS; c++) {
        char what[96];
        bytes z = {0};
        compress_mem(c, text, n, &z);
        write_bytes(tmp, z.p, z.len);
        snprintf(what, sizeof what, "%s (%s)", name, codec_name[c]);
        sylva_read_info info;
        sylva_matrix *A = read_ok(tmp, what, &info);
        CHECK(A && same_matrix(A, P) && !strcmp(info.compression, codec_name[c]),
              "%s: differs (%s)", what, A ? info.compression : "");
        sylva_matrix_free(A);
        /* Two streams: the text cut anywhere, each half compressed. */
        size_t cut = (size_t)rnd_int(1, (int64_t)n - 1);
        bytes two = {0};
        compress_mem(c, text, cut, &two);
        compress_mem(c, text + cut, n - cut, &two);
        write_bytes(tmp, two.p, two.len);
        snprintf(what, sizeof what, "%s (%s, two streams cut at %zu)", name, codec_name[c], cut);
        A = read_ok(tmp, what, NULL);
        CHECK(A && same_matrix(A, P), "%s: differs", what);
        sylva_matrix_free(A);
        /* Zero padding is accepted, other data after the end is not. */
        bytes pad = {0};
        room(&pad, z.len + 1024);
        memcpy(pad.p, z.p, z.len);
        memset(pad.p + z.len, 0, 1024);
        write_bytes(tmp, pad.p, z.len + 1024);
        snprintf(what, sizeof what, "%s (%s, zero padding)", name, codec_name[c]);
        A = read_ok(tmp, what, NULL);
        CHECK(A && same_matrix(A, P), "%s: differs", what);
        sylva_matrix_free(A);
        memcpy(pad.p + z.len, "%%MatrixMarket", 14);
        write_bytes(tmp, pad.p, z.len + 14);
        char prefix[8300];
        snprintf(prefix, sizeof prefix, "%s: ", tmp);
        snprintf(what, sizeof what, "%s (%s, trailing data)", name, codec_name[c]);
        read_fails(tmp, SYLVA_ERR_FORMAT, prefix, "14 bytes of other data after the end", what);
        /* From here on the magic itself may be hit: the text reader's
         * "FILE:1: bad banner" is a right answer too. */
        snprintf(prefix, sizeof prefix, "%s:", tmp);
        /* Truncated: an error naming the file (or, cut inside the magic,
         * the text reader's). */
        for (int t = 0; t < 6; t++) {
            size_t len = t == 0 ? z.len - 1 : (size_t)rnd_int(0, (int64_t)z.len - 2);
            write_bytes(tmp, z.p, len);
            A = NULL;
            int st = sylva_read_matrix_market(tmp, &A);
            CHECK(st == SYLVA_ERR_FORMAT && !A &&
                      !strncmp(sylva_last_error(), prefix, strlen(prefix)),
                  "%s cut to %zu bytes: %s '%s'", codec_name[c], len, sylva_status_name(st),
                  sylva_last_error());
            if (t == 0 || len > 16)
                CHECK(strstr(sylva_last_error(), "truncated") ||
                          strstr(sylva_last_error(), "corrupt"),
                      "%s cut to %zu bytes: '%s'", codec_name[c], len, sylva_last_error());
        }
        /* One byte changed: the right matrix (a header field no check
         * covers) or an error naming the file. */
        for (int t = 0; t < 20; t++) {
            memcpy(pad.p, z.p, z.len);
            size_t at = (size_t)rnd_int(0, (int64_t)z.len - 1);
            pad.p[at] ^= (unsigned char)rnd_int(1, 255);
            write_bytes(tmp, pad.p, z.len);
            A = NULL;
            int st = sylva_read_matrix_market(tmp, &A);
            if (st == SYLVA_OK)
                CHECK(A && csc_is_valid(A), "%s byte %zu changed: invalid matrix", codec_name[c],
                      at);
            else
                CHECK(!A && !strncmp(sylva_last_error(), prefix, strlen(prefix)),
                      "%s byte %zu changed: '%s'", codec_name[c], at, sylva_last_error());
            sylva_matrix_free(A);
        }
        free(pad.p);
        free(two.p);
        free(z.p);
    }
    unlink(tmp);
    sylva_matrix_free(P);
    free(text);
}

/* The shipped gzip file, and dense vectors compressed. */
static void test_shipped_and_dense(void)
{
    char path[8192], tmp[8192];
    snprintf(path, sizeof path, "%s/matrices/edge/bcsstk01.mtx.gz", src);
    sylva_read_info info;
    sylva_matrix *A = read_ok(path, "bcsstk01.mtx.gz", &info);
    CHECK(A && !strcmp(info.compression, "gzip") && info.mirrored == 0 && info.asymmetric == 0,
          "bcsstk01.mtx.gz: info '%s'", A ? info.compression : "");
    sylva_matrix_free(A);
    static const char dense[] =
        "%%MatrixMarket matrix array real general\n3 2\n1\n2\n3\n4\n5\n6.5\n";
    snprintf(tmp, sizeof tmp, "%s/input_dense", tmpdir);
    for (int c = 0; c < CODECS; c++) {
        bytes z = {0};
        compress_mem(c, dense, sizeof dense - 1, &z);
        write_bytes(tmp, z.p, z.len);
        int64_t n = 0, nrhs = 0;
        double *X = NULL;
        int st = sylva_read_dense(tmp, &n, &nrhs, &X);
        CHECK(st == SYLVA_OK && n == 3 && nrhs == 2 && X && X[5] == 6.5, "dense %s: %s",
              codec_name[c], sylva_last_error());
        free(X);
        free(z.p);
    }
    unlink(tmp);
}

/* ------------------------------------------------------------ archives, bombs */

/* A ustar header (name a.mtx), then zeros. */
static void gen_tar_zeros(const void *arg, size_t off, unsigned char *buf, size_t len)
{
    (void)arg;
    memset(buf, 0, len);
    if (off == 0 && len >= 512) {
        strcpy((char *)buf, "a.mtx");
        memcpy(buf + 257,
               "ustar\0"
               "00",
               8);
    }
}

static void gen_zeros(const void *arg, size_t off, unsigned char *buf, size_t len)
{
    (void)arg;
    (void)off;
    memset(buf, 0, len);
}

/* 72 MB of zeros (nine streams of 8 MB) compress to kilobytes: with a
 * 48 MB budget the reader stops at the budget (SYLVA_ERR_NO_MEMORY)
 * instead of filling memory; a tar archive of the same size is named as
 * one without inflating it. */
static void test_bombs(void)
{
    char tmp[8192], prefix[8300];
    snprintf(tmp, sizeof tmp, "%s/input_bomb", tmpdir);
    snprintf(prefix, sizeof prefix, "%s: ", tmp);
    const size_t piece = (size_t)8 << 20;
    setenv("SYLVA_MEMORY_LIMIT", "48M", 1);
    for (int c = 0; c < CODECS; c++) {
        bytes zeros = {0}, bomb = {0};
        compress_gen(c, gen_zeros, NULL, piece, &zeros);
        for (int tar = 0; tar < 2; tar++) {
            bomb.len = 0;
            if (tar) compress_gen(c, gen_tar_zeros, NULL, piece, &bomb);
            for (int k = tar; k < 9; k++) {
                room(&bomb, zeros.len);
                memcpy(bomb.p + bomb.len, zeros.p, zeros.len);
                bomb.len += zeros.len;
            }
            write_bytes(tmp, bomb.p, bomb.len);
            char what[64], part[64];
            snprintf(what, sizeof what, "%s %sbomb (%zu bytes)", codec_name[c], tar ? "tar " : "",
                     bomb.len);
            snprintf(part, sizeof part, "a tar archive (%s-compressed)", codec_name[c]);
            if (tar)
                read_fails(tmp, SYLVA_ERR_UNSUPPORTED, prefix, part, what);
            else
                read_fails(tmp, SYLVA_ERR_NO_MEMORY, prefix, "out of memory", what);
        }
        free(zeros.p);
        free(bomb.p);
    }
    unsetenv("SYLVA_MEMORY_LIMIT");
    unlink(tmp);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test-io-input SOURCE_DIR [TMP_DIR]\n");
        return 2;
    }
    snprintf(src, sizeof src, "%s", argv[1]);
    snprintf(tmpdir, sizeof tmpdir, "%s", argc > 2 ? argv[2] : "/tmp");
    signal(SIGPIPE, SIG_IGN); /* a reader that stops early leaves the pipe writer EPIPE */
    test_seed();
    test_stdin();
    test_compressed("bcsstk01.mtx");
    test_compressed("bcsstk14.mtx");
    test_shipped_and_dense();
    test_bombs();
    return test_exit("test-io-input");
}
