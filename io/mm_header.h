/* mm_header.h — the parsed Matrix Market banner and size line (io/ only). */
#ifndef SYLVA_IO_MM_HEADER_H
#define SYLVA_IO_MM_HEADER_H

#include "io_internal.h"

enum { SYLVA__MM_REAL = 0, SYLVA__MM_INTEGER = 1, SYLVA__MM_PATTERN = 2 };

typedef struct sylva__mm_header {
    int array;          /* 1: dense 'array', 0: sparse 'coordinate' */
    int field;          /* SYLVA__MM_REAL / _INTEGER / _PATTERN */
    int symmetric;      /* 1: 'symmetric', 0: 'general' */
    int64_t nrows, ncols, nnz; /* nnz: declared entries (coordinate) */
    int64_t size_line;  /* line number of the size line */
    const char *data;   /* first byte after the size line */
    int64_t data_line;  /* line number of that byte */
} sylva__mm_header;

/* want_array: 1 for the dense reader, 0 for the sparse one; the other format
 * is SYLVA_ERR_UNSUPPORTED. */
int sylva__mm_read_header(const char *path, const char *buf, size_t size, int want_array,
                     sylva__mm_header *h);

#endif
