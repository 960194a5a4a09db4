/* analysis_file.h — a saved analysis: what is needed to redo an analysis
 * without its ordering (the permutation, the amalgamation settings and a
 * fingerprint of the pattern it belongs to), in a versioned binary file
 * with a checksum. Internal to frontal/ and api/. */
#ifndef SYLVA_FRONTAL_ANALYSIS_FILE_H
#define SYLVA_FRONTAL_ANALYSIS_FILE_H

#include <stdint.h>

#include "core.h"

typedef struct sylva__analysis_record {
    int64_t n, nnz;
    uint64_t pattern_hash;
    int32_t ordering;        /* the ordering that made perm */
    int64_t nrelax[3];
    double zrelax[3];
    int64_t *perm;           /* n: new → old (read: allocated, the caller frees) */
} sylva__analysis_record;

/* Write r to path (sylva__out: a temporary file renamed on success). Fails
 * with SYLVA_ERR_IO naming the file. */
int sylva__analysis_file_write(const char *path, const sylva__analysis_record *r);
/* Read path into r. Fails with SYLVA_ERR_IO (cannot read, not a regular
 * file), SYLVA_ERR_FORMAT ("FILE: not a sylva analysis", "FILE: truncated
 * (...)", "FILE: corrupted (checksum)", "FILE: corrupted: field n = ...",
 * "FILE: version V, this sylva reads 1") or SYLVA_ERR_NO_MEMORY (the file
 * is larger than the memory budget). */
int sylva__analysis_file_read(const char *path, sylva__analysis_record *r);

/* The file's bytes in memory (a distributed run's ranks get them from rank
 * 0): pack allocates *buf (the caller frees); unpack checks them as the
 * reader does (SYLVA_ERR_FORMAT naming who) and allocates r->perm. */
int sylva__analysis_record_pack(const sylva__analysis_record *r, void **buf, size_t *bytes);
int sylva__analysis_record_unpack(const void *buf, size_t bytes, const char *who, sylva__analysis_record *r);

#endif
