/* mm_read.c — sylva_read_matrix_market: the whole input in memory
 * (file_load.c: a file or standard input, plain or compressed), the banner
 * and size line (mm_header.c), then the entry lines parsed by a tight loop,
 * in parallel over newline-aligned chunks (pthreads) when the file is large.
 * A worker that meets anything odd just stops; the main thread then re-parses
 * serially to write the exact "FILE:LINE: reason" of the first problem in
 * file order (a NUL byte anywhere on that line is named as such). Entries
 * become the lower CSC through csc_build.c; duplicates that sum out of
 * double range are named by both lines. A 'symmetric' file storing both
 * A(i,j) and A(j,i) is refused at the line completing the first such pair
 * unless the options say how to combine them; a 'general' one must be
 * symmetric unless they say how to symmetrize it (csc_triangles.c). On
 * failure *A is NULL and nothing is leaked. sylva__mm_read_buffer parses
 * text already in memory (the fuzz targets). */
#include "mm_header.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const sylva__mm_header *h;
    const char *path;
    const char *begin, *end; /* end: one past the chunk (a '\n' + 1, or EOF) */
    int64_t line0;           /* line number of `begin` */
    int report;              /* serial pass: write messages */
    int64_t limit;           /* most entries accepted (serial pass) */
    void *row, *col; /* int32_t when idx32, else int64_t */
    double *val;
    int64_t count, cap;
    int idx32;
    int64_t end_line;
    int64_t nlower, nupper; /* entries stored below / above the diagonal */
    int status;
} mm_chunk;

static int chunk_grow(mm_chunk *c)
{
    int64_t ncap = c->cap < 1024 ? 1024 : c->cap + c->cap / 2;
    size_t es = c->idx32 ? sizeof(int32_t) : sizeof(int64_t);
    void *r = sylva__realloc(c->row, (size_t)ncap, es);
    if (r) c->row = r;
    void *q = r ? sylva__realloc(c->col, (size_t)ncap, es) : NULL;
    if (q) c->col = q;
    double *v = c->val;
    if (q && c->h->field != SYLVA__MM_PATTERN) {
        v = sylva__realloc(c->val, (size_t)ncap, sizeof *v);
        if (v) c->val = v;
    }
    if (!r || !q || (!v && c->h->field != SYLVA__MM_PATTERN)) return SYLVA_ERR_NO_MEMORY;
    c->cap = ncap;
    return SYLVA_OK;
}

static void chunk_free(mm_chunk *c)
{
    free(c->row);
    free(c->col);
    free(c->val);
    c->row = c->col = NULL;
    c->val = NULL;
}

#define SKIP_BLANKS(p)                           \
    while (*(p) == ' ' || *(p) == '\t') (p)++

/* 1 when the line starting at p holds a NUL byte before its end. */
static int line_has_nul(const char *p, const char *end)
{
    for (; p < end && *p != '\n'; p++)
        if (*p == '\0') return 1;
    return 0;
}

/* The error path of parse_chunk: a message only on the serial pass; a
 * format error on a line with a NUL byte is named for the NUL. */
#define CHUNK_FAIL(st, ...)                                                                        \
    do {                                                                                           \
        if (c->report && (st) == SYLVA_ERR_FORMAT && line_has_nul(ls, end))                        \
            c->status = sylva__fail((st), "%s:%lld: NUL byte in the file", path, (long long)line); \
        else                                                                                       \
            c->status = c->report ? sylva__fail((st), __VA_ARGS__) : (st);                         \
        c->end_line = line;                                                                        \
        return c->status;                                                                          \
    } while (0)

static int parse_chunk(mm_chunk *c)
{
    const sylva__mm_header *h = c->h;
    const char *path = c->path;
    const char *p = c->begin, *end = c->end;
    const int pattern = h->field == SYLVA__MM_PATTERN;
    const int64_t m = h->nrows, n = h->ncols;
    int64_t line = c->line0;
    char tok[48];
    c->status = SYLVA_OK;
    while (p < end) {
        const char *ls = p; /* the line's first byte */
        while (p < end && (*p == ' ' || *p == '\t' || *p == '\r')) p++;
        if (p >= end) break;
        if (*p == '\n') {
            p++;
            line++;
            continue;
        }
        if (*p == '%') {
            while (p < end && *p != '\n') p++;
            if (p < end) p++;
            line++;
            continue;
        }
        if (*p == '\0') CHUNK_FAIL(SYLVA_ERR_FORMAT, "%s:%lld: NUL byte in the file", path, (long long)line);
        if (c->count >= c->limit)
            CHUNK_FAIL(SYLVA_ERR_FORMAT,
                       "%s:%lld: too many entries: the size line (line %lld) declares %lld", path,
                       (long long)line, (long long)h->size_line, (long long)h->nnz);
        int64_t i, j;
        double v = 0.0;
        const char *q = sylva__parse_int64(p, &i);
        if (!q)
            CHUNK_FAIL(SYLVA_ERR_FORMAT, "%s:%lld: bad row index '%s'", path, (long long)line,
                       sylva__token(p, tok, sizeof tok));
        p = q;
        SKIP_BLANKS(p);
        if (sylva__is_delim(*p))
            CHUNK_FAIL(SYLVA_ERR_FORMAT, "%s:%lld: missing column index", path, (long long)line);
        q = sylva__parse_int64(p, &j);
        if (!q)
            CHUNK_FAIL(SYLVA_ERR_FORMAT, "%s:%lld: bad column index '%s'", path, (long long)line,
                       sylva__token(p, tok, sizeof tok));
        p = q;
        SKIP_BLANKS(p);
        if (!pattern) {
            if (sylva__is_delim(*p))
                CHUNK_FAIL(SYLVA_ERR_FORMAT, "%s:%lld: missing value", path, (long long)line);
            int erange;
            q = sylva__parse_double(p, &v, &erange);
            if (!q)
                CHUNK_FAIL(SYLVA_ERR_FORMAT, "%s:%lld: bad value '%s' (not a number)", path,
                           (long long)line, sylva__token(p, tok, sizeof tok));
            if (!isfinite(v))
                CHUNK_FAIL(SYLVA_ERR_BAD_VALUE, "%s:%lld: value '%s' is %s", path, (long long)line,
                           sylva__token(p, tok, sizeof tok),
                           isnan(v) ? "NaN" : erange ? "out of double range (overflow)" : "infinite");
            p = q;
            while (*p == ' ' || *p == '\t' || *p == '\r') p++;
        } else {
            while (*p == '\r') p++;
        }
        if (*p != '\n' && p < end)
            CHUNK_FAIL(SYLVA_ERR_FORMAT, "%s:%lld: unexpected text '%s' after the entry", path,
                       (long long)line, sylva__token(p, tok, sizeof tok));
        if (i < 1 || i > m)
            CHUNK_FAIL(SYLVA_ERR_FORMAT, "%s:%lld: row index %lld out of range 1..%lld", path,
                       (long long)line, (long long)i, (long long)m);
        if (j < 1 || j > n)
            CHUNK_FAIL(SYLVA_ERR_FORMAT, "%s:%lld: column index %lld out of range 1..%lld", path,
                       (long long)line, (long long)j, (long long)n);
        if (c->count == c->cap && chunk_grow(c) != SYLVA_OK)
            CHUNK_FAIL(SYLVA_ERR_NO_MEMORY, "%s:%lld: out of memory", path, (long long)line);
        if (c->idx32) {
            ((int32_t *)c->row)[c->count] = (int32_t)(i - 1);
            ((int32_t *)c->col)[c->count] = (int32_t)(j - 1);
        } else {
            ((int64_t *)c->row)[c->count] = i - 1;
            ((int64_t *)c->col)[c->count] = j - 1;
        }
        if (!pattern) c->val[c->count] = v;
        c->nlower += i > j;
        c->nupper += i < j;
        c->count++;
        if (p < end) p++; /* the '\n' */
        line++;
    }
    c->end_line = line;
    return SYLVA_OK;
}

/* 32-bit indices while they fit; SYLVA_IO_INDEX64 (any value) forces the
 * 64-bit path so that tests reach it without a 2^31-row matrix. */
static int use_idx32(const sylva__mm_header *h)
{
    return h->nrows <= INT32_MAX && !getenv("SYLVA_IO_INDEX64");
}

static void *parse_worker(void *arg)
{
    parse_chunk(arg);
    return NULL;
}

/* Entries expected in [b, e): the declared count scaled by the byte share,
 * capped by the shortest possible entry line ("1 1\n"). */
static int64_t chunk_guess(const sylva__mm_header *h, size_t bytes, size_t total)
{
    double share = total ? (double)bytes / (double)total : 0.0;
    double g = (double)h->nnz * share * 1.02 + 64.0;
    double cap = (double)bytes / 4.0 + 16.0;
    return (int64_t)(g < cap ? g : cap);
}

static int parse_parallel(mm_chunk *ch, int nt, const sylva__mm_header *h, const char *path,
                          const char *data_end)
{
    size_t total = (size_t)(data_end - h->data);
    const char *b = h->data;
    for (int t = 0; t < nt; t++) {
        const char *e = t == nt - 1 ? data_end : h->data + total / (size_t)nt * (size_t)(t + 1);
        if (e < b) e = b;
        while (e < data_end && e > h->data && e[-1] != '\n') e++;
        ch[t] = (mm_chunk){.h = h, .path = path, .begin = b, .end = e, .line0 = 0,
                           .report = 0, .limit = INT64_MAX, .idx32 = use_idx32(h)};
        b = e;
    }
    pthread_t tid[SYLVA__IO_MAX_THREADS];
    int started[SYLVA__IO_MAX_THREADS] = {0};
    for (int t = 0; t < nt; t++) {
        int64_t g = chunk_guess(h, (size_t)(ch[t].end - ch[t].begin), total);
        size_t es = ch[t].idx32 ? sizeof(int32_t) : sizeof(int64_t);
        ch[t].row = sylva__malloc((size_t)g, es);
        ch[t].col = sylva__malloc((size_t)g, es);
        ch[t].val = h->field == SYLVA__MM_PATTERN ? NULL : sylva__malloc((size_t)g, sizeof(double));
        if (ch[t].row && ch[t].col && (ch[t].val || h->field == SYLVA__MM_PATTERN)) ch[t].cap = g;
        if (t > 0) started[t] = pthread_create(&tid[t], NULL, parse_worker, &ch[t]) == 0;
    }
    parse_chunk(&ch[0]);
    for (int t = 1; t < nt; t++) {
        if (started[t]) pthread_join(tid[t], NULL);
        else parse_chunk(&ch[t]);
    }
    int64_t count = 0;
    for (int t = 0; t < nt; t++) {
        if (ch[t].status != SYLVA_OK) return ch[t].status;
        count += ch[t].count;
    }
    return count == h->nnz ? SYLVA_OK : SYLVA_ERR_FORMAT;
}

/* The lines of the entries numbered k1 < k2 (0-based, in file order). */
static void entry_lines(const sylva__mm_header *h, const char *end, int64_t k1, int64_t k2,
                        int64_t *l1, int64_t *l2)
{
    const char *p = h->data;
    int64_t line = h->data_line, k = 0;
    *l1 = *l2 = 0;
    while (p < end && k <= k2) {
        const char *s = p;
        while (s < end && (*s == ' ' || *s == '\t' || *s == '\r')) s++;
        if (s < end && *s != '\n' && *s != '%') {
            if (k == k1) *l1 = line;
            if (k == k2) *l2 = line;
            k++;
        }
        while (p < end && *p != '\n') p++;
        if (p < end) p++;
        line++;
    }
}

/* The options in range: SYLVA_OK, or SYLVA_ERR_ARGUMENT naming the field. */
static int check_options(const sylva_read_options *o)
{
    const char *who = "sylva_read_matrix_market";
    if ((unsigned)o->symmetric_both > SYLVA_BOTH_AVERAGE)
        return sylva__fail(SYLVA_ERR_ARGUMENT, "%s: options.symmetric_both = %d is out of range 0..%d",
                           who, (int)o->symmetric_both, (int)SYLVA_BOTH_AVERAGE);
    if ((unsigned)o->symmetrize > SYLVA_SYMMETRIZE_AVERAGE)
        return sylva__fail(SYLVA_ERR_ARGUMENT, "%s: options.symmetrize = %d is out of range 0..%d",
                           who, (int)o->symmetrize, (int)SYLVA_SYMMETRIZE_AVERAGE);
    if (!(o->symmetrize_tol >= 0) || !isfinite(o->symmetrize_tol))
        return sylva__fail(SYLVA_ERR_ARGUMENT,
                           "%s: options.symmetrize_tol = %g is out of range: a finite number >= 0",
                           who, o->symmetrize_tol);
    if (o->symmetrize_tol > 0 && o->symmetrize == SYLVA_SYMMETRIZE_NONE)
        return sylva__fail(SYLVA_ERR_ARGUMENT,
                           "%s: options.symmetrize_tol = %g needs options.symmetrize (lower, upper "
                           "or average)",
                           who, o->symmetrize_tol);
    return SYLVA_OK;
}

/* The entries of a 'symmetric' file are in both triangles at a position:
 * the message with the lines of the pair (m: which entries). */
static int mirror_error(const sylva__mm_header *h, const char *path, const char *end,
                        const sylva__mirror *m)
{
    int64_t l1, l2;
    entry_lines(h, end, m->first, m->second, &l1, &l2);
    long long r = (long long)m->row + 1, c = (long long)m->col + 1;
    long long hi = m->second_upper ? c : r, hj = m->second_upper ? r : c; /* on line l2 */
    return sylva__fail(SYLVA_ERR_FORMAT,
                       "%s:%lld: A(%lld,%lld) and A(%lld,%lld) on line %lld are both stored: a "
                       "'symmetric' file stores one triangle; read with symmetric_both = "
                       "sum|lower|average to accept it",
                       path, (long long)l2, hi, hj, hj, hi, (long long)l1);
}

int sylva__mm_read_buffer(const char *path, const char *buf, size_t size,
                          const sylva_read_options *opts, sylva_read_info *info, sylva_matrix **A)
{
    *A = NULL;
    sylva_read_options defaults;
    sylva__default_read_options(&defaults);
    const sylva_read_options *ro = opts ? opts : &defaults;
    int st = check_options(ro);
    if (st != SYLVA_OK) return st;
    sylva__mm_header h;
    st = sylva__mm_read_header(path, buf, size, 0, &h);
    if (st == SYLVA_OK && h.nrows != h.ncols)
        st = sylva__fail(SYLVA_ERR_NOT_SQUARE, "%s:%lld: matrix is %lld x %lld, not square", path,
                         (long long)h.size_line, (long long)h.nrows, (long long)h.ncols);
    if (st != SYLVA_OK) return st;
    const char *data_end = buf + size;
    size_t bytes = (size_t)(data_end - h.data);
    /* Threads pay off from about a megabyte; SYLVA_IO_THREADS forces them
     * (tests use it to run the parallel path and its fallback on tiny files). */
    int nt = sylva__io_threads();
    if (!getenv("SYLVA_IO_THREADS") && bytes < ((size_t)1 << 20)) nt = 1;
    mm_chunk ch[SYLVA__IO_MAX_THREADS];
    memset(ch, 0, sizeof ch);
    int used = nt;
    st = nt > 1 ? parse_parallel(ch, nt, &h, path, data_end) : SYLVA_ERR_FORMAT;
    if (st != SYLVA_OK) {
        /* Serial pass: either the file is small, or something is wrong and
         * this pass finds and names the first problem. */
        for (int t = 0; t < nt; t++) chunk_free(&ch[t]);
        used = 1;
        ch[0] = (mm_chunk){.h = &h, .path = path, .begin = h.data, .end = data_end,
                           .line0 = h.data_line, .report = 1, .limit = h.nnz,
                           .idx32 = use_idx32(&h)};
        ch[0].cap = chunk_guess(&h, bytes, bytes);
        size_t es = ch[0].idx32 ? sizeof(int32_t) : sizeof(int64_t);
        ch[0].row = sylva__malloc((size_t)ch[0].cap, es);
        ch[0].col = sylva__malloc((size_t)ch[0].cap, es);
        ch[0].val =
            h.field == SYLVA__MM_PATTERN ? NULL : sylva__malloc((size_t)ch[0].cap, sizeof(double));
        if (!ch[0].row || !ch[0].col || (!ch[0].val && h.field != SYLVA__MM_PATTERN)) ch[0].cap = 0;
        st = parse_chunk(&ch[0]);
        if (st == SYLVA_OK && ch[0].count < h.nnz)
            st = sylva__fail(SYLVA_ERR_FORMAT,
                             "%s:%lld: truncated: found %lld of %lld entries declared on line %lld",
                             path, (long long)ch[0].end_line, (long long)ch[0].count,
                             (long long)h.nnz, (long long)h.size_line);
    }
    sylva__overflow ov = {0, 0, -1, -1, 0};
    sylva__mirror mirror = {0, 0, -1, -1, 0};
    sylva__tri_stats stats = {0, 0, 0.0};
    if (st == SYLVA_OK) {
        sylva__triplets parts[SYLVA__IO_MAX_THREADS];
        int64_t nlower = 0, nupper = 0;
        for (int t = 0; t < used; t++) {
            parts[t] = (sylva__triplets){ch[t].row, ch[t].col, ch[t].val, ch[t].count, ch[t].idx32};
            nlower += ch[t].nlower;
            nupper += ch[t].nupper;
        }
        /* A symmetric file with entries on one side of the diagonal (nearly
         * all) is mirrored in one build; with entries on both sides the two
         * are built apart, to find a position stored twice. */
        sylva__tri_mode mode = !h.symmetric                ? SYLVA__TRI_FULL
                               : nlower > 0 && nupper > 0 ? SYLVA__TRI_BOTH
                                                          : SYLVA__TRI_MIRROR;
        sylva__build_opts o = {.mode = mode,
                               .pattern = h.field == SYLVA__MM_PATTERN,
                               .check_values = 0,
                               .trusted = 1, /* parse_chunk checked both */
                               .index_base = 1,
                               .who = path,
                               .nthreads = nt,
                               .overflow = &ov,
                               .both = ro->symmetric_both,
                               .symmetrize = ro->symmetrize,
                               .tol = ro->symmetrize_tol,
                               .mirror = &mirror,
                               .stats = &stats,
                               .hint = "read with symmetrize = lower|upper|average to accept it"};
        st = sylva__csc_from_triplets(h.nrows, parts, used, &o, A);
    }
    for (int t = 0; t < used; t++) chunk_free(&ch[t]);
    if (st == SYLVA_ERR_BAD_VALUE && ov.culprit >= 0) {
        int64_t l1, l2;
        entry_lines(&h, data_end, ov.first, ov.culprit, &l1, &l2);
        int64_t r = ov.row + 1, c = ov.col + 1;
        st = sylva__fail(SYLVA_ERR_BAD_VALUE,
                         "%s:%lld: the entries of A(%lld,%lld) on lines %lld and %lld sum out of "
                         "double range (%s)",
                         path, (long long)l2, (long long)r, (long long)c, (long long)l1,
                         (long long)l2,
                         ov.mirrored ? "symmetric_both = sum adds the two triangles"
                                     : "duplicates are summed");
    }
    if (st == SYLVA_ERR_FORMAT && mirror.second >= 0) st = mirror_error(&h, path, data_end, &mirror);
    if (st == SYLVA_OK && info) {
        info->mirrored = stats.mirrored;
        info->asymmetric = stats.asymmetric;
        info->max_asymmetry = stats.max_asymmetry;
    }
    return st;
}

void sylva__default_read_options(sylva_read_options *o)
{
    if (o) memset(o, 0, sizeof *o);
}

int sylva__read_matrix_market(const char *path, const sylva_read_options *o, sylva_matrix **A,
                              sylva_read_info *info)
{
    if (!A) return sylva__fail(SYLVA_ERR_ARGUMENT, "sylva_read_matrix_market: A is NULL");
    *A = NULL;
    if (!path) return sylva__fail(SYLVA_ERR_ARGUMENT, "sylva_read_matrix_market: path is NULL");
    int st = o ? check_options(o) : SYLVA_OK; /* before standard input is consumed */
    if (st != SYLVA_OK) return st;
    sylva__file file;
    st = sylva__load_file(path, &file);
    if (st != SYLVA_OK) return st;
    sylva_read_info got;
    memset(&got, 0, sizeof got);
    st = sylva__mm_read_buffer(file.name, file.data, file.size, o, &got, A);
    got.compression = file.compression;
    sylva__unload_file(&file);
    if (st == SYLVA_OK && info) *info = got;
    return st;
}
