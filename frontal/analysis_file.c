/* analysis_file.c — the saved-analysis file (contract in analysis_file.h):
 * "SYLVAANL", a version, the record's fixed fields, the permutation, then
 * an FNV-1a checksum of everything before it; integers little-endian as
 * this machine writes them (the version says which layout). The same bytes
 * in memory (pack/unpack) are what a distributed run sends its ranks. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

int sylva__analysis_record_unpack(const void *buf, size_t bytes, const char *who, sylva__analysis_record *r)
{
    memset(r, 0, sizeof *r);
    header h;
    const char *b = buf;
    if (bytes < sizeof h) return sylva__fail(SYLVA_ERR_FORMAT, "%s: truncated analysis", who);
    memcpy(&h, b, sizeof h);
    if (memcmp(h.magic, magic, sizeof magic) != 0 || h.version != VERSION || h.n < 0 ||
        bytes != sizeof h + (size_t)h.n * sizeof *r->perm + sizeof(uint64_t))
        return sylva__fail(SYLVA_ERR_FORMAT, "%s: not a sylva analysis of this version", who);
    size_t np = (size_t)h.n * sizeof *r->perm;
    uint64_t sum;
    memcpy(&sum, b + sizeof h + np, sizeof sum);
    if (fnv(fnv(14695981039346656037ull, &h, sizeof h), b + sizeof h, np) != sum)
        return sylva__fail(SYLVA_ERR_FORMAT, "%s: corrupted analysis (checksum)", who);
    if (!(r->perm = sylva__malloc((size_t)h.n + 1, sizeof *r->perm))) return SYLVA_ERR_NO_MEMORY;
    if (np) memcpy(r->perm, b + sizeof h, np);
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
    FILE *f = fopen(path, "rb");
    if (!f) return sylva__fail(SYLVA_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    header h;
    memset(&h, 0, sizeof h);
    int status = SYLVA_OK;
    size_t got = fread(&h, 1, sizeof h, f);
    long size = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    if (got < sizeof magic || memcmp(h.magic, magic, sizeof magic) != 0) {
        status = sylva__fail(SYLVA_ERR_FORMAT, "%s: not a sylva analysis file", path);
    } else if (got < sizeof h) {
        status = sylva__fail(SYLVA_ERR_FORMAT, "%s: truncated", path);
    } else if (h.version != VERSION) {
        status = sylva__fail(SYLVA_ERR_FORMAT, "%s: analysis file version %d, this sylva reads %d",
                             path, (int)h.version, VERSION);
    } else if (h.n < 0 || h.n > (int64_t)1 << 40 || h.nnz < 0) {
        status = sylva__fail(SYLVA_ERR_FORMAT, "%s: corrupted (n = %lld)", path, (long long)h.n);
    } else if (size >= 0 && (double)size < (double)sizeof h + 8.0 * ((double)h.n + 1)) {
        status = sylva__fail(SYLVA_ERR_FORMAT, "%s: truncated", path);
    } else if (fseek(f, (long)sizeof h, SEEK_SET) != 0) {
        status = sylva__fail(SYLVA_ERR_IO, "%s: cannot read: %s", path, strerror(errno));
    } else if (!(r->perm = malloc(((size_t)h.n + 1) * sizeof *r->perm))) {
        status = sylva__fail(SYLVA_ERR_NO_MEMORY, "out of memory reading %s", path);
    } else {
        uint64_t sum = 0, want;
        if (fread(r->perm, sizeof *r->perm, (size_t)h.n, f) != (size_t)h.n || fread(&sum, sizeof sum, 1, f) != 1)
            status = sylva__fail(SYLVA_ERR_FORMAT, "%s: truncated", path);
        else if ((want = fnv(fnv(14695981039346656037ull, &h, sizeof h), r->perm,
                             (size_t)h.n * sizeof *r->perm)) != sum || fgetc(f) != EOF)
            status = sylva__fail(SYLVA_ERR_FORMAT, "%s: corrupted (checksum)", path);
    }
    fclose(f);
    if (status) {
        free(r->perm);
        r->perm = NULL;
        return status;
    }
    record_fields(&h, r);
    return SYLVA_OK;
}
