/* io_internal.h — what the io/ files share and nothing outside io/ may use:
 * the whole-input loader (plain or compressed, file or stdin, NUL-terminated), the number parsers
 * (bit-identical to strtod) and the triplet → lower CSC builder. Every
 * function that can fail returns a sylva_status after recording the message
 * with sylva__fail(). */
#ifndef SYLVA_IO_INTERNAL_H
#define SYLVA_IO_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "io.h"

/* ------------------------------------------------- io/file_load.c, io/decompress.c */

/* The whole input in memory with a '\0' after the last byte: a plain file is
 * mapped (mmap, read-only); standard input ("-") is read (or mapped when it
 * is a regular file at its start); gzip, bzip2 and xz data (detected by
 * their magic bytes) are decompressed into a malloc'd buffer. Release with
 * sylva__unload_file. */
typedef struct sylva__file {
    char *data;
    size_t size;
    size_t mapped;           /* bytes mapped, 0 when data was malloc'd */
    const char *name;        /* for messages: the path, or "<stdin>" for "-" */
    const char *compression; /* "gzip", "bzip2", "xz", or "" */
} sylva__file;
int sylva__load_file(const char *path, sylva__file *f);
void sylva__unload_file(sylva__file *f);
/* The name messages give an input: "<stdin>" for "-", else the path. */
const char *sylva__input_name(const char *path);
/* Second step of sylva__load_file, on bytes already in f (data, size,
 * mapped, name): compressed data is replaced by its decompressed text
 * (held to the memory budget); a tar, zip or zstd file is
 * SYLVA_ERR_UNSUPPORTED saying what to do ("tar xf PATH"). `path` is what
 * the user typed (for those hints). On failure f is released. */
int sylva__decode_file(const char *path, sylva__file *f);
/* Room for `want` more bytes after len in *buf (capacity *cap, plus one for
 * the terminating NUL), doubling; held to the memory budget ("WHO: out of
 * memory: the file's contents needs ..."). */
int sylva__grow_buffer(const char *who, char **buf, size_t *cap, size_t len, size_t want);

/* ------------------------------------------------ io/mm_read.c, io/dense.c */

/* The readers on text already in memory (buf[size] must be '\0'); `path`
 * names it in messages. The file readers load and call these; so do the
 * fuzz targets. o: NULL for the defaults; info may be NULL. */
int sylva__mm_read_buffer(const char *path, const char *buf, size_t size,
                          const sylva_read_options *o, sylva_read_info *info, sylva_matrix **A);
int sylva__read_dense_buffer(const char *path, const char *buf, size_t size, int64_t *n,
                             int64_t *nrhs, double **X);

/* ------------------------------------------------------------ io/mm_parse.c */

/* Token end: a space, tab, CR, LF or the terminating NUL. */
static inline int sylva__is_delim(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\0';
}

/* Parse a decimal integer at p (optional sign). Returns the end of the token,
 * or NULL when the token is not an integer or does not fit in int64_t. */
const char *sylva__parse_int64_slow(const char *p, int64_t *out);
static inline const char *sylva__parse_int64(const char *p, int64_t *out)
{
    /* Up to 18 digits cannot overflow: no check inside the loop. */
    const char *s = p;
    uint64_t v = 0;
    while ((unsigned)(*p - '0') <= 9 && p - s < 18) {
        v = v * 10 + (uint64_t)(*p - '0');
        p++;
    }
    if (p == s || !sylva__is_delim(*p)) return sylva__parse_int64_slow(s, out);
    *out = (int64_t)v;
    return p;
}
/* Parse a floating point number at p exactly as strtod would (a fast path for
 * plain decimals, strtod otherwise), except that a token starting with white
 * space is not a number (strtod would skip it, newlines too). Returns the end
 * of the token, or NULL when the token is not a number. *erange is set when
 * strtod reports ERANGE (overflow to ±inf, or underflow). The text must be
 * NUL-terminated. */
const char *sylva__parse_double_full(const char *p, double *out, int *erange);
/* Inline first step: [-]digits[.digits] with at most 15 digits and no
 * exponent (the bulk of most files) is m / 10^k, exact (Clinger); anything
 * else goes to sylva__parse_double_full. */
static inline const char *sylva__parse_double(const char *s, double *out, int *erange)
{
    static const double p10[16] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                   1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
    const char *p = s;
    int neg = *p == '-';
    p += neg;
    const char *d0 = p;
    uint64_t m = 0;
    while ((unsigned)(*p - '0') <= 9) m = m * 10 + (uint64_t)(*p++ - '0');
    int nd = (int)(p - d0), frac = 0;
    if (*p == '.') {
        const char *f0 = ++p;
        while ((unsigned)(*p - '0') <= 9 && nd + (int)(p - f0) < 16) m = m * 10 + (uint64_t)(*p++ - '0');
        frac = (int)(p - f0);
        nd += frac;
    }
    if (nd == 0 || nd > 15 || !sylva__is_delim(*p)) return sylva__parse_double_full(s, out, erange);
    double d = (double)m / p10[frac];
    *erange = 0;
    *out = neg ? -d : d;
    return p;
}
/* The token at p (up to the next delimiter, at most 40 characters) copied
 * into buf for error messages. */
const char *sylva__token(const char *p, char *buf, size_t cap);

/* ------------------------------------------------------------ io/csc_build.c */

/* One batch of (row, col, value) entries, 0-based. val may be NULL. The
 * indices are int64_t, or int32_t when idx32 is set (the reader uses 32-bit
 * indices when n < 2^31: a third less memory to fill and scatter). */
typedef struct sylva__triplets {
    const void *row;
    const void *col;
    const double *val;
    int64_t count;
    int idx32;
} sylva__triplets;

typedef enum {
    SYLVA__TRI_MIRROR,       /* symmetric storage: (i,j) with i<j means (j,i) */
    SYLVA__TRI_LOWER,        /* lower triangle only: an i<j entry is an error */
    SYLVA__TRI_UPPER,        /* upper triangle only, transposed: an i>j entry is an error */
    SYLVA__TRI_FULL,         /* both triangles: checked symmetric (or symmetrized), upper
                                dropped */
    SYLVA__TRI_KEEP_LOWER,   /* use i>=j entries, ignore the others (stype<0) */
    SYLVA__TRI_KEEP_UPPER,   /* use i<=j entries transposed, ignore others (stype>0) */
    SYLVA__TRI_BOTH          /* symmetric storage with entries in both triangles: the two
                                built apart, a position stored in both combined as `both`
                                says (MIRROR gives the same when one triangle is empty) */
} sylva__tri_mode;

/* The builder's mode for a sylva_csc_storage; SYLVA_ERR_ARGUMENT naming
 * `who` for another value. */
int sylva__csc_storage_mode(const char *who, int storage, sylva__tri_mode *mode);

/* Where duplicates summed to a non-finite value: the lower position, and
 * the 0-based numbers (over the parts in order) of the position's first
 * entry and of the entry that made the sum non-finite; or, `mirrored` set
 * (BOTH summing), of the first entries of the two triangles. */
typedef struct sylva__overflow {
    int64_t row, col;
    int64_t first, culprit;
    int mirrored;
} sylva__overflow;

/* BOTH refusing: the lower position stored in both triangles whose pair is
 * complete first in entry order: the numbers of its earlier entry and of
 * the one that completes it (0-based, over the parts in order), and
 * whether that second one is the upper-triangle entry. */
typedef struct sylva__mirror {
    int64_t row, col;
    int64_t first, second;
    int second_upper;
} sylva__mirror;

/* What combining the triangles found (BOTH, or FULL with symmetrize). */
typedef struct sylva__tri_stats {
    int64_t mirrored;     /* BOTH: positions stored in both triangles */
    int64_t asymmetric;   /* FULL: positions whose two triangles differ */
    double max_asymmetry; /* FULL: largest relative difference among them */
} sylva__tri_stats;

typedef struct sylva__build_opts {
    sylva__tri_mode mode;
    int pattern;          /* no values: result has values == NULL */
    int check_values;     /* reject NaN/Inf (SYLVA_ERR_BAD_VALUE) */
    int trusted;          /* indices known in range, values known finite */
    int index_base;       /* 1 to print Matrix Market indices, 0 for arrays */
    const char *who;      /* message prefix: the file name or the function */
    int nthreads;         /* for the parallel column sort; <= 1: serial */
    sylva__overflow *overflow; /* if not NULL: filled on a duplicate-sum overflow */
    sylva_both_triangles both;   /* BOTH: a position stored in both triangles */
    sylva_symmetrize symmetrize; /* FULL: NONE checks exact symmetry */
    double tol;                  /* FULL with symmetrize: > 0 refuses larger asymmetry */
    sylva__mirror *mirror;       /* if not NULL: filled when BOTH refuses */
    sylva__tri_stats *stats;     /* if not NULL: filled on success */
    const char *hint;            /* FULL: added to a NOT_SYMMETRIC message whose values
                                    differ only by rounding */
} sylva__build_opts;

/* Sum duplicates, sort rows within columns, drop what the mode drops.
 * Indices must already be in [0, n) unless !trusted. Duplicates whose sum is
 * not finite are SYLVA_ERR_BAD_VALUE (opts->overflow says which). */
int sylva__csc_from_triplets(int64_t n, const sylva__triplets *parts, int nparts,
                             const sylva__build_opts *opts, sylva_matrix **A);

/* ------------------------------------------------------- io/csc_triangles.c */

/* A lower CSC under construction (arrays malloc'd, NULL when absent). */
typedef struct sylva__csc {
    int64_t *colptr; /* n + 1 */
    int64_t *rowind;
    double *values;
} sylva__csc;
void sylva__csc_free(sylva__csc *m);

/* FULL and BOTH: L holds the i >= j entries, U the i < j entries
 * transposed, each sorted with its duplicates summed. Makes *out, the lower
 * CSC the mode and o's options ask for: FULL without symmetrize checks that
 * L's strictly lower part equals U (SYLVA_ERR_NOT_SYMMETRIC naming the
 * first difference) and keeps L; otherwise the two are merged position by
 * position. The entries (parts) are read again only to name the entries
 * of an error. L and U are consumed, on failure too. */
int sylva__combine_triangles(int64_t n, sylva__csc *L, sylva__csc *U, const sylva__triplets *parts,
                             int nparts, const sylva__build_opts *o, sylva__csc *out);

/* A new matrix struct owning nothing yet (arrays NULL, owns_arrays = 1). */
sylva_matrix *sylva__matrix_alloc(void);

/* Number of worker threads for io/ (SYLVA_IO_THREADS, else the online CPUs,
 * at most SYLVA__IO_MAX_THREADS). */
int sylva__io_threads(void);

#endif
