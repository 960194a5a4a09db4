/* decompress.c — what the loaded bytes are, by their first bytes (never by
 * the file's name): gzip (zlib), bzip2 (libbz2) or xz (liblzma) data is
 * decompressed from memory into one malloc'd, NUL-terminated buffer, all
 * three through the same growing sink, which the memory budget bounds (a
 * decompression bomb is SYLVA_ERR_NO_MEMORY, not a kill). Concatenated
 * streams are read as one (what gzip -d, bzip2 -d and xz -d do) and zero
 * bytes after the last one are ignored; other data after it, a truncated
 * or corrupt stream are SYLVA_ERR_FORMAT naming the format. A tar archive (plain or compressed:
 * "ustar" at offset 257), a zip archive or zstd data is
 * SYLVA_ERR_UNSUPPORTED saying how to get at the .mtx, instead of the
 * reader's "bad banner"; for a compressed tar this is known after 262
 * decompressed bytes, without inflating the rest. */
#include "io_internal.h"

#include <bzlib.h>
#include <stdint.h>
#include <lzma.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <zlib.h>

enum { RAW_PLAIN, RAW_GZIP, RAW_BZIP2, RAW_XZ, RAW_ZIP, RAW_ZSTD };

static const char *const codec_name[] = {"", "gzip", "bzip2", "xz", "zip", "zstd"};

/* POSIX ustar (and GNU tar): the magic "ustar" at offset 257 of the first
 * 512-byte header. */
#define TAR_MAGIC_OFFSET 257
#define TAR_MAGIC "ustar"
#define TAR_SNIFF_BYTES (TAR_MAGIC_OFFSET + 5)

/* zlib and libbz2 count their buffers in unsigned int: feed them at most
 * this much at a time. */
#define CODEC_CHUNK ((size_t)1 << 30)

static int magic_is(const unsigned char *p, size_t n, const char *magic, size_t len)
{
    return n >= len && memcmp(p, magic, len) == 0;
}

static int sniff(const unsigned char *p, size_t n)
{
    if (magic_is(p, n, "\x1f\x8b", 2)) return RAW_GZIP;
    /* "BZh" then the block size digit '1'..'9'. */
    if (magic_is(p, n, "BZh", 3) && n >= 4 && p[3] >= '1' && p[3] <= '9') return RAW_BZIP2;
    if (magic_is(p, n, "\xfd\x37\x7a\x58\x5a\x00", 6)) return RAW_XZ; /* \xfd "7zXZ" \0 */
    if (magic_is(p, n, "PK\x03\x04", 4)) return RAW_ZIP;
    if (magic_is(p, n, "\x28\xb5\x2f\xfd", 4)) return RAW_ZSTD;
    return RAW_PLAIN;
}

static int is_tar(const char *p, size_t n)
{
    return n >= TAR_SNIFF_BYTES && memcmp(p + TAR_MAGIC_OFFSET, TAR_MAGIC, 5) == 0;
}

static int tar_error(const char *name, const char *path, int codec)
{
    const char *hint = strcmp(name, "<stdin>") == 0 ? "-" : path;
    if (codec == RAW_PLAIN)
        return sylva__fail(SYLVA_ERR_UNSUPPORTED,
                           "%s: a tar archive: extract the .mtx first (e.g. tar xf %s)", name,
                           hint);
    return sylva__fail(SYLVA_ERR_UNSUPPORTED,
                       "%s: a tar archive (%s-compressed): extract the .mtx first (e.g. tar xf %s)",
                       name, codec_name[codec], hint);
}

/* The decompressed text as it grows: the buffer, and whether its first
 * TAR_SNIFF_BYTES have been looked at. */
typedef struct {
    const char *name, *path;
    int codec;
    char *buf;
    size_t cap, len;
    int sniffed;
} sink;

/* Room for the codec to write into: the buffer doubles when it is full. */
static int sink_room(sink *s) { return sylva__grow_buffer(s->name, &s->buf, &s->cap, s->len, 1); }

/* How much the codec may write next: a small first window, so that a tar
 * header is seen before anything else is inflated. */
static size_t sink_window(const sink *s)
{
    size_t room = s->cap - s->len;
    if (!s->sniffed && room > 512) room = 512;
    return room < CODEC_CHUNK ? room : CODEC_CHUNK;
}

/* After each step: a tar archive is refused as soon as its header is out. */
static int sink_check(sink *s)
{
    if (s->sniffed || s->len < TAR_SNIFF_BYTES) return SYLVA_OK;
    s->sniffed = 1;
    return is_tar(s->buf, s->len) ? tar_error(s->name, s->path, s->codec) : SYLVA_OK;
}

static size_t chunk(size_t n) { return n < CODEC_CHUNK ? n : CODEC_CHUNK; }

static int truncated(const sink *s)
{
    return sylva__fail(SYLVA_ERR_FORMAT,
                       "%s: %s data truncated: the compressed stream ends early (%zu bytes "
                       "decompressed)",
                       s->name, codec_name[s->codec], s->len);
}

static int corrupt(const sink *s, size_t at, const char *why)
{
    return sylva__fail(SYLVA_ERR_FORMAT, "%s: corrupt %s data near byte %zu: %s", s->name,
                       codec_name[s->codec], at, why);
}

/* Data after the last stream: zero bytes (padding) are accepted, anything
 * else is named. */
static int trailing(const sink *s, const unsigned char *in, size_t pos, size_t n)
{
    for (size_t k = pos; k < n; k++)
        if (in[k] != 0)
            return sylva__fail(SYLVA_ERR_FORMAT,
                               "%s: %zu bytes of other data after the end of the %s data (from "
                               "byte %zu)",
                               s->name, n - pos, codec_name[s->codec], pos);
    return SYLVA_OK;
}

static int run_gzip(sink *s, const unsigned char *in, size_t n)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit2(&z, 15 + 16) != Z_OK) /* 15 + 16: gzip wrapper only */
        return sylva__fail(SYLVA_ERR_NO_MEMORY, "%s: out of memory starting zlib", s->name);
    size_t pos = 0;
    int st = SYLVA_OK;
    for (;;) {
        if ((st = sink_room(s))) break;
        z.next_in = (unsigned char *)in + pos;
        z.avail_in = (unsigned)chunk(n - pos);
        z.next_out = (unsigned char *)s->buf + s->len;
        z.avail_out = (unsigned)sink_window(s);
        unsigned in0 = z.avail_in, out0 = z.avail_out;
        int r = inflate(&z, Z_NO_FLUSH);
        pos += in0 - z.avail_in;
        s->len += out0 - z.avail_out;
        if ((st = sink_check(s))) break;
        if (r == Z_STREAM_END) {
            if (pos < n && magic_is(in + pos, n - pos, "\x1f\x8b", 2)) { /* another member */
                inflateReset(&z);
                continue;
            }
            st = trailing(s, in, pos, n);
            break;
        }
        if (r == Z_MEM_ERROR) {
            st = sylva__fail(SYLVA_ERR_NO_MEMORY, "%s: out of memory in zlib", s->name);
            break;
        }
        if (r != Z_OK && r != Z_BUF_ERROR) {
            st = corrupt(s, pos, z.msg ? z.msg : "inflate failed");
            break;
        }
        if (pos == n && z.avail_out > 0) { /* wants input there is not */
            st = truncated(s);
            break;
        }
    }
    inflateEnd(&z);
    return st;
}

static int run_bzip2(sink *s, const unsigned char *in, size_t n)
{
    bz_stream b;
    memset(&b, 0, sizeof b);
    if (BZ2_bzDecompressInit(&b, 0, 0) != BZ_OK)
        return sylva__fail(SYLVA_ERR_NO_MEMORY, "%s: out of memory starting libbz2", s->name);
    size_t pos = 0;
    int st = SYLVA_OK;
    for (;;) {
        if ((st = sink_room(s))) break;
        b.next_in = (char *)in + pos;
        b.avail_in = (unsigned)chunk(n - pos);
        b.next_out = s->buf + s->len;
        b.avail_out = (unsigned)sink_window(s);
        unsigned in0 = b.avail_in, out0 = b.avail_out;
        int r = BZ2_bzDecompress(&b);
        pos += in0 - b.avail_in;
        s->len += out0 - b.avail_out;
        if ((st = sink_check(s))) break;
        if (r == BZ_STREAM_END) {
            if (pos < n && sniff(in + pos, n - pos) == RAW_BZIP2) { /* another stream */
                BZ2_bzDecompressEnd(&b);
                memset(&b, 0, sizeof b);
                if (BZ2_bzDecompressInit(&b, 0, 0) != BZ_OK) {
                    st = sylva__fail(SYLVA_ERR_NO_MEMORY, "%s: out of memory in libbz2", s->name);
                    break;
                }
                continue;
            }
            st = trailing(s, in, pos, n);
            break;
        }
        if (r == BZ_MEM_ERROR) {
            st = sylva__fail(SYLVA_ERR_NO_MEMORY, "%s: out of memory in libbz2", s->name);
            break;
        }
        if (r != BZ_OK) {
            st = corrupt(s, pos, r == BZ_DATA_ERROR_MAGIC ? "bad stream header" : "bad block data");
            break;
        }
        if (pos == n && b.avail_out > 0) {
            st = truncated(s);
            break;
        }
    }
    BZ2_bzDecompressEnd(&b);
    return st;
}

static int xz_start(sink *s, lzma_stream *x, double avail)
{
    /* The decoder's own memory (its dictionary) is bounded by the budget. */
    uint64_t memlimit = avail >= 1.8e19 ? UINT64_MAX : avail < 1 ? 1 : (uint64_t)avail;
    if (lzma_stream_decoder(x, memlimit, 0) != LZMA_OK)
        return sylva__fail(SYLVA_ERR_NO_MEMORY, "%s: out of memory starting liblzma", s->name);
    return SYLVA_OK;
}

static int run_xz(sink *s, const unsigned char *in, size_t n)
{
    lzma_stream x = LZMA_STREAM_INIT;
    double avail = sylva__memory_available();
    int st = xz_start(s, &x, avail);
    if (st != SYLVA_OK) return st;
    x.next_in = in;
    x.avail_in = n;
    for (;;) {
        if ((st = sink_room(s))) break;
        x.next_out = (uint8_t *)s->buf + s->len;
        x.avail_out = sink_window(s);
        size_t out0 = x.avail_out;
        lzma_ret r = lzma_code(&x, LZMA_FINISH); /* all the input is there */
        s->len += out0 - x.avail_out;
        size_t pos = n - x.avail_in;
        if ((st = sink_check(s))) break;
        if (r == LZMA_OK) continue;
        if (r == LZMA_STREAM_END) {
            if (pos < n && sniff(in + pos, n - pos) == RAW_XZ) { /* another stream */
                lzma_end(&x);
                x = (lzma_stream)LZMA_STREAM_INIT;
                if ((st = xz_start(s, &x, avail))) break;
                x.next_in = in + pos;
                x.avail_in = n - pos;
                continue;
            }
            st = trailing(s, in, pos, n);
        } else if (r == LZMA_MEM_ERROR) {
            st = sylva__fail(SYLVA_ERR_NO_MEMORY, "%s: out of memory in liblzma", s->name);
        } else if (r == LZMA_MEMLIMIT_ERROR) {
            st = sylva__fail(SYLVA_ERR_NO_MEMORY,
                             "%s: out of memory: the xz decoder needs %.3g GB, %.3g GB are "
                             "available",
                             s->name, (double)lzma_memusage(&x) / 1e9, avail / 1e9);
        } else if (r == LZMA_BUF_ERROR) {
            st = truncated(s);
        } else {
            st = corrupt(s, pos,
                         r == LZMA_FORMAT_ERROR    ? "not xz data"
                         : r == LZMA_OPTIONS_ERROR ? "unsupported options"
                                                   : "bad data or checksum");
        }
        break;
    }
    lzma_end(&x);
    return st;
}

int sylva__decode_file(const char *path, sylva__file *f)
{
    const unsigned char *raw = (const unsigned char *)f->data;
    int codec = sniff(raw, f->size);
    int st = SYLVA_OK;
    if (codec == RAW_ZIP)
        st =
            sylva__fail(SYLVA_ERR_UNSUPPORTED,
                        "%s: a zip archive: extract the .mtx first (e.g. unzip %s)", f->name, path);
    else if (codec == RAW_ZSTD)
        st = sylva__fail(SYLVA_ERR_UNSUPPORTED,
                         "%s: zstd-compressed data: not supported (gzip, bzip2 and xz are): "
                         "decompress it first (e.g. zstd -d %s)",
                         f->name, path);
    else if (codec == RAW_PLAIN && is_tar(f->data, f->size))
        st = tar_error(f->name, path, RAW_PLAIN);
    if (st != SYLVA_OK || codec == RAW_PLAIN) {
        if (st != SYLVA_OK) sylva__unload_file(f);
        return st;
    }
    /* A first guess at the size: gzip's trailer holds it (mod 2^32) for a
     * single member, believed up to deflate's largest ratio (1032:1);
     * otherwise four times the compressed size. At most what needs no
     * budget check: beyond, the buffer doubles as the data comes (pages
     * not written are never touched), checked at each step. */
    sink s = {.name = f->name, .path = path, .codec = codec};
    size_t guess = f->size <= SIZE_MAX / 4 ? f->size * 4 : f->size;
    if (codec == RAW_GZIP && f->size >= 18) {
        const unsigned char *t = raw + f->size - 4;
        size_t isize = (size_t)t[0] | (size_t)t[1] << 8 | (size_t)t[2] << 16 | (size_t)t[3] << 24;
        if (isize / 1032 <= f->size) guess = isize;
    }
    size_t most = (size_t)SYLVA__BUDGET_CHECK_BYTES / 2 - ((size_t)1 << 16);
    if (guess > most) guess = most;
    st = sylva__grow_buffer(s.name, &s.buf, &s.cap, 0, guess + ((size_t)1 << 16));
    if (st == SYLVA_OK) {
        st = codec == RAW_GZIP    ? run_gzip(&s, raw, f->size)
             : codec == RAW_BZIP2 ? run_bzip2(&s, raw, f->size)
                                  : run_xz(&s, raw, f->size);
    }
    const char *name = f->name;
    sylva__unload_file(f); /* the compressed bytes */
    f->name = name;
    if (st != SYLVA_OK) {
        free(s.buf);
        return st;
    }
    s.buf[s.len] = '\0';
    f->data = s.buf;
    f->size = s.len;
    f->mapped = 0;
    f->compression = codec_name[codec];
    return SYLVA_OK;
}
