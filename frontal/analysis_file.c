/* analysis_file.c — the saved-analysis file (contract in analysis_file.h):
 * "SYLVAANL", a version, the record's fixed fields, the permutation, then
 * an FNV-1a checksum of everything before it; integers little-endian as
 * this machine writes them (the version says which layout). The same bytes
 * in memory (pack/unpack) are what a distributed run sends its ranks, and
 * the reader checks a file's bytes with the same unpack (the fuzzer's
 * target, tests/fuzz/fuzz_analysis_load.c). Only a regular file is read,
 * its size held to the memory budget before it is. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis_file.h"

static const char magic[8] = {'S', 'Y', 'L', 'V', 'A', 'A', 'N', 'L'};
enum { VERSION = 1 };

static uint64_t fnv(uint64_t h, const void *data, size_t bytes)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < bytes; i++) h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

/* The fixed part, in file order. */
typedef struct header {
    char magic[8];
    int32_t version, ordering;
    int64_t n, nnz;
    uint64_t pattern_hash;
    int64_t nrelax[3];
    double zrelax[3];
} header;

int sylva__analysis_record_pack(const sylva__analysis_record *r, void **buf, size_t *bytes)
{
    header h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, magic, sizeof magic);
    h.version = VERSION;
    h.ordering = r->ordering;
    h.n = r->n;
    h.nnz = r->nnz;
    h.pattern_hash = r->pattern_hash;
    memcpy(h.nrelax, r->nrelax, sizeof h.nrelax);
    memcpy(h.zrelax, r->zrelax, sizeof h.zrelax);
    size_t np = (size_t)r->n * sizeof *r->perm;
    uint64_t sum = fnv(fnv(14695981039346656037ull, &h, sizeof h), r->perm, np);
    char *b = sylva__malloc(sizeof h + np + sizeof sum, 1);
    if (!b) return SYLVA_ERR_NO_MEMORY;
    memcpy(b, &h, sizeof h);
    if (np) memcpy(b + sizeof h, r->perm, np);
    memcpy(b + sizeof h + np, &sum, sizeof sum);
    *buf = b;
    *bytes = sizeof h + np + sizeof sum;
    return SYLVA_OK;
}

/* The record's fields from a checked header (perm is read apart). */
static void record_fields(const header *h, sylva__analysis_record *r)
{
    r->n = h->n;
    r->nnz = h->nnz;
    r->pattern_hash = h->pattern_hash;
    r->ordering = h->ordering;
    memcpy(r->nrelax, h->nrelax, sizeof h->nrelax);
    memcpy(r->zrelax, h->zrelax, sizeof h->zrelax);
}

/* Largest n a saved analysis may declare (2⁴⁰ rows: far beyond any matrix
 * sylva can factor). */
#define MAX_SAVED_N ((int64_t)1 << 40)

/* A forged file can carry a valid checksum: every field is checked, and
 * refused naming the file and the field, its value printed exactly. */
static int check_fields(const header *h, const int64_t *perm, const char *who)
{
    if (h->ordering < 0 || h->ordering >= SYLVA_ORDERING_AUTO)
        return sylva__fail(SYLVA_ERR_FORMAT, "%s: corrupted: field ordering = %d is not an ordering (0..%d)", who,
                           (int)h->ordering, (int)SYLVA_ORDERING_AUTO - 1);
    for (int i = 0; i < 3; i++) {
        if (h->nrelax[i] < 0 || h->nrelax[i] > INT32_MAX)
            return sylva__fail(SYLVA_ERR_FORMAT, "%s: corrupted: field nrelax[%d] = %lld is out of range 0..%d",
                               who, i, (long long)h->nrelax[i], INT32_MAX);
        char num[40];
        if (!(h->zrelax[i] >= 0 && h->zrelax[i] <= 1))
            return sylva__fail(SYLVA_ERR_FORMAT, "%s: corrupted: field zrelax[%d] = %s is out of range 0..1", who, i,
                               sylva__exact(num, sizeof num, h->zrelax[i]));
    }
    char *seen = sylva__calloc((size_t)h->n + 1, 1);
    if (!seen) return SYLVA_ERR_NO_MEMORY;
    int status = SYLVA_OK;
    for (int64_t i = 0; i < h->n && !status; i++) {
        int64_t v = perm[i];
        if (v < 0 || v >= h->n)
            status = sylva__fail(SYLVA_ERR_FORMAT, "%s: corrupted: field perm[%lld] = %lld is out of range 0..%lld",
                                 who, (long long)i, (long long)v, (long long)h->n - 1);
        else if (seen[v])
            status = sylva__fail(SYLVA_ERR_FORMAT,
                                 "%s: corrupted: field perm[%lld] = %lld repeats an earlier entry (not a permutation)",
                                 who, (long long)i, (long long)v);
        else
            seen[v] = 1;
    }
    free(seen);
    return status;
}

int sylva__analysis_record_unpack(const void *buf, size_t bytes, const char *who, sylva__analysis_record *r)
{
    memset(r, 0, sizeof *r);
    header h;
    memset(&h, 0, sizeof h);
    const char *b = buf;
    if (bytes) memcpy(&h, b, bytes < sizeof h ? bytes : sizeof h);
    if (bytes < sizeof magic || memcmp(h.magic, magic, sizeof magic) != 0)
        return sylva__fail(SYLVA_ERR_FORMAT, "%s: not a sylva analysis file", who);
    if (bytes < sizeof h)
        return sylva__fail(SYLVA_ERR_FORMAT, "%s: truncated (%zu bytes; the header alone has %zu)", who,
                           bytes, sizeof h);
    if (h.version != VERSION)
        return sylva__fail(SYLVA_ERR_FORMAT, "%s: analysis file version %d, this sylva reads %d", who,
                           (int)h.version, VERSION);
    if (h.n < 0 || h.n > MAX_SAVED_N)
        return sylva__fail(SYLVA_ERR_FORMAT, "%s: corrupted: field n = %lld is out of range 0..%lld", who,
                           (long long)h.n, (long long)MAX_SAVED_N);
    if (h.nnz < 0)
        return sylva__fail(SYLVA_ERR_FORMAT, "%s: corrupted: field nnz = %lld is negative", who,
                           (long long)h.nnz);
    size_t np = (size_t)h.n * sizeof *r->perm, want = sizeof h + np + sizeof(uint64_t);
    if (bytes < want)
        return sylva__fail(SYLVA_ERR_FORMAT, "%s: truncated (%zu bytes; n = %lld needs %zu)", who, bytes,
                           (long long)h.n, want);
    uint64_t sum;
    memcpy(&sum, b + sizeof h + np, sizeof sum);
    if (fnv(fnv(14695981039346656037ull, &h, sizeof h), b + sizeof h, np) != sum)
        return sylva__fail(SYLVA_ERR_FORMAT, "%s: corrupted (checksum)", who);
    if (bytes > want)
        return sylva__fail(SYLVA_ERR_FORMAT, "%s: corrupted: %zu bytes after the analysis's end", who,
                           bytes - want);
    if (!(r->perm = sylva__malloc((size_t)h.n + 1, sizeof *r->perm))) return SYLVA_ERR_NO_MEMORY;
    if (np) memcpy(r->perm, b + sizeof h, np);
    int status = check_fields(&h, r->perm, who);
    if (status) {
        free(r->perm);
        r->perm = NULL;
        return status;
    }
    record_fields(&h, r);
    return SYLVA_OK;
}

int sylva__analysis_file_write(const char *path, const sylva__analysis_record *r)
{
    void *buf = NULL;
    size_t bytes = 0;
    int status = sylva__analysis_record_pack(r, &buf, &bytes);
    if (status) return status;
    sylva__out o;
    if ((status = sylva__out_open(&o, path))) {
        free(buf);
        return status;
    }
    if (fwrite(buf, 1, bytes, o.f) != bytes) {
        int err = errno;
        free(buf);
        sylva__out_abort(&o);
        return sylva__fail(SYLVA_ERR_IO, "%s: cannot write: %s", path, strerror(err));
    }
    free(buf);
    return sylva__out_close(&o);
}

int sylva__analysis_file_read(const char *path, sylva__analysis_record *r)
{
    memset(r, 0, sizeof *r);
    int fd;
    int64_t size;
    int status = sylva__open_regular(path, &fd, &size);
    if (status) return status;
    /* The whole file is held, then checked as a distributed run's bytes
     * are: its size is the reader's only allocation, checked first. */
    if (size >= SYLVA__BUDGET_CHECK_BYTES &&
        (status = sylva__memory_check((double)size, path, "the analysis file"))) {
        close(fd);
        return status;
    }
    char *buf = sylva__malloc((size_t)size + 1, 1);
    if (!buf) {
        close(fd);
        return sylva__fail(SYLVA_ERR_NO_MEMORY, "out of memory reading %s", path);
    }
    size_t got = 0;
    while (got < (size_t)size) {
        ssize_t k = read(fd, buf + got, (size_t)size - got);
        if (k < 0 && errno == EINTR) continue;
        if (k < 0) {
            status = sylva__fail(SYLVA_ERR_IO, "%s: cannot read: %s", path, strerror(errno));
            break;
        }
        if (k == 0) break; /* shrank while read: checked as truncated */
        got += (size_t)k;
    }
    close(fd);
    if (!status) status = sylva__analysis_record_unpack(buf, got, path, r);
    free(buf);
    return status;
}
