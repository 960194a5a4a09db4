/* mm_header.c — the Matrix Market banner and size line, shared by the sparse
 * reader (coordinate) and the dense reader (array). Walks the first lines of
 * a NUL-terminated buffer, counts lines for messages, and fails with
 * "FILE:LINE: reason": SYLVA_ERR_FORMAT (empty file, bad banner, missing or
 * bad size line), SYLVA_ERR_UNSUPPORTED (complex, hermitian, skew-symmetric,
 * vector, or the other of array/coordinate). */
#include "mm_header.h"

#include <string.h>
#include <strings.h>

/* Copy the next blank-separated word of the line at *p into w (lowercase). */
static int next_word(const char **p, char *w, size_t cap)
{
    const char *s = *p;
    while (*s == ' ' || *s == '\t') s++;
    size_t k = 0;
    while (!sylva__is_delim(*s)) {
        if (k + 1 < cap) {
            char c = *s;
            w[k++] = (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
        }
        s++;
    }
    w[k] = '\0';
    *p = s;
    return k > 0;
}

static const char *skip_line(const char *p, const char *end)
{
    while (p < end && *p != '\n') p++;
    return p < end ? p + 1 : p;
}

static int line_is_blank(const char *p)
{
    while (*p == ' ' || *p == '\t' || *p == '\r') p++;
    return *p == '\n' || *p == '\0';
}

int sylva__mm_read_header(const char *path, const char *buf, size_t size, int want_array,
                     sylva__mm_header *h)
{
    memset(h, 0, sizeof *h);
    if (size == 0) return sylva__fail(SYLVA_ERR_FORMAT, "%s:1: empty file", path);
    if (strncasecmp(buf, "%%MatrixMarket", 14) != 0 || !sylva__is_delim(buf[14]))
        return sylva__fail(SYLVA_ERR_FORMAT,
                           "%s:1: bad banner: the first line must start with %%%%MatrixMarket",
                           path);
    const char *p = buf + 14;
    char obj[32], fmt[32], field[32], sym[32];
    if (!next_word(&p, obj, sizeof obj) || !next_word(&p, fmt, sizeof fmt) ||
        !next_word(&p, field, sizeof field) || !next_word(&p, sym, sizeof sym))
        return sylva__fail(SYLVA_ERR_FORMAT,
                           "%s:1: bad banner: expected '%%%%MatrixMarket matrix "
                           "coordinate|array real|integer|pattern general|symmetric'",
                           path);
    if (strcmp(obj, "vector") == 0)
        return sylva__fail(SYLVA_ERR_UNSUPPORTED, "%s:1: unsupported: object 'vector' (only 'matrix')",
                           path);
    if (strcmp(obj, "matrix") != 0)
        return sylva__fail(SYLVA_ERR_FORMAT, "%s:1: bad banner: unknown object '%s'", path, obj);
    if (strcmp(fmt, "coordinate") == 0) {
        h->array = 0;
    } else if (strcmp(fmt, "array") == 0) {
        h->array = 1;
    } else {
        return sylva__fail(SYLVA_ERR_FORMAT, "%s:1: bad banner: unknown format '%s'", path, fmt);
    }
    if (h->array != want_array)
        return sylva__fail(SYLVA_ERR_UNSUPPORTED,
                           want_array ? "%s:1: unsupported: 'coordinate' (sparse) format where a "
                                        "dense 'array' is expected"
                                      : "%s:1: unsupported: dense 'array' format (a sparse "
                                        "'coordinate' matrix is expected; use sylva_read_dense)",
                           path);
    if (strcmp(field, "real") == 0 || strcmp(field, "double") == 0) {
        h->field = SYLVA__MM_REAL;
    } else if (strcmp(field, "integer") == 0) {
        h->field = SYLVA__MM_INTEGER;
    } else if (strcmp(field, "pattern") == 0) {
        h->field = SYLVA__MM_PATTERN;
    } else if (strcmp(field, "complex") == 0) {
        return sylva__fail(SYLVA_ERR_UNSUPPORTED, "%s:1: unsupported: field 'complex' (real only)",
                           path);
    } else {
        return sylva__fail(SYLVA_ERR_FORMAT, "%s:1: bad banner: unknown field '%s'", path, field);
    }
    if (h->array && h->field == SYLVA__MM_PATTERN)
        return sylva__fail(SYLVA_ERR_FORMAT, "%s:1: bad banner: 'array' cannot be 'pattern'", path);
    if (strcmp(sym, "general") == 0) {
        h->symmetric = 0;
    } else if (strcmp(sym, "symmetric") == 0) {
        h->symmetric = 1;
    } else if (strcmp(sym, "skew-symmetric") == 0 || strcmp(sym, "hermitian") == 0) {
        return sylva__fail(SYLVA_ERR_UNSUPPORTED,
                           "%s:1: unsupported: symmetry '%s' (general or symmetric only)", path,
                           sym);
    } else {
        return sylva__fail(SYLVA_ERR_FORMAT, "%s:1: bad banner: unknown symmetry '%s'", path, sym);
    }
    if (h->array && h->symmetric)
        return sylva__fail(SYLVA_ERR_UNSUPPORTED,
                           "%s:1: unsupported: symmetric 'array' (general only)", path);

    /* Comments and blank lines, then the size line. */
    int64_t line = 2;
    const char *end = buf + size;
    p = skip_line(buf, end);
    for (;;) {
        if (p >= end)
            return sylva__fail(SYLVA_ERR_FORMAT, "%s:%lld: missing size line", path, (long long)line);
        const char *s = p;
        while (*s == ' ' || *s == '\t') s++;
        if (*s == '%' || line_is_blank(s)) {
            p = skip_line(p, end);
            line++;
            continue;
        }
        break;
    }
    h->size_line = line;
    int64_t v[3] = {0, 0, 0};
    int want = h->array ? 2 : 3;
    const char *s = p;
    for (int k = 0; k < want; k++) {
        while (*s == ' ' || *s == '\t') s++;
        const char *q = sylva__parse_int64(s, &v[k]);
        if (!q || v[k] < 0)
            return sylva__fail(SYLVA_ERR_FORMAT,
                               h->array ? "%s:%lld: bad size line: expected 'rows columns'"
                                        : "%s:%lld: bad size line: expected 'rows columns entries'",
                               path, (long long)line);
        s = q;
    }
    while (*s == ' ' || *s == '\t' || *s == '\r') s++;
    if (*s != '\n' && *s != '\0')
        return sylva__fail(SYLVA_ERR_FORMAT, "%s:%lld: bad size line: unexpected text after %s",
                           path, (long long)line, h->array ? "'rows columns'" : "'rows columns entries'");
    h->nrows = v[0];
    h->ncols = v[1];
    h->nnz = h->array ? 0 : v[2];
    h->data = skip_line(s, end);
    h->data_line = line + 1;
    return SYLVA_OK;
}
