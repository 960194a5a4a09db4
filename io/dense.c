/* dense.c — dense matrices (right-hand sides, solutions) in Matrix Market
 * 'array real general' form: n x nrhs, column-major, one value a line.
 * sylva_read_dense accepts what file_load.c loads ("-" for standard input,
 * gzip, bzip2, xz), comments and blank lines, and fails with
 * "FILE:LINE: reason" (SYLVA_ERR_FORMAT / _UNSUPPORTED / _BAD_VALUE / _IO);
 * it allocates no more values than the file has room for, whatever the size
 * line declares; the caller frees *X with free(). sylva_write_dense writes
 * %.17g (exact round trip) through the atomic output helper (a failure
 * leaves no partial file) and fails with SYLVA_ERR_IO or SYLVA_ERR_ARGUMENT. */
#include "mm_header.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int sylva__read_dense_buffer(const char *path, const char *buf, size_t size, int64_t *n,
                             int64_t *nrhs, double **X)
{
    *X = NULL;
    *n = *nrhs = 0;
    sylva__mm_header h;
    int st = sylva__mm_read_header(path, buf, size, 1, &h);
    if (st != SYLVA_OK) return st;
    int64_t total = 0;
    if (h.ncols > 0 && h.nrows > INT64_MAX / h.ncols)
        return sylva__fail(SYLVA_ERR_FORMAT, "%s:%lld: size %lld x %lld is too large", path,
                           (long long)h.size_line, (long long)h.nrows, (long long)h.ncols);
    total = h.nrows * h.ncols;
    /* A value takes two bytes at least ("1\n"): no more can be in the file,
     * so a size line declaring more cannot make the reader allocate more. */
    int64_t room = (int64_t)(buf + size - h.data) / 2 + 1;
    int64_t cap = total < room ? total : room;
    if ((double)cap * sizeof(double) >= (double)SYLVA__BUDGET_CHECK_BYTES &&
        (st = sylva__memory_check((double)cap * sizeof(double), path, "the values")))
        return st;
    double *x = sylva__malloc((size_t)cap, sizeof *x);
    if (!x) return SYLVA_ERR_NO_MEMORY;
    const char *p = h.data, *end = buf + size;
    int64_t line = h.data_line, k = 0;
    char tok[48];
    while (p < end) {
        while (*p == ' ' || *p == '\t' || *p == '\r') p++;
        if (p >= end) break;
        if (*p == '\n' || *p == '%') {
            while (p < end && *p != '\n') p++;
            if (p < end) p++;
            line++;
            continue;
        }
        if (*p == '\0') {
            st = sylva__fail(SYLVA_ERR_FORMAT, "%s:%lld: NUL byte in the file", path, (long long)line);
            break;
        }
        if (k == total) {
            st = sylva__fail(SYLVA_ERR_FORMAT, "%s:%lld: too many values: the size line declares %lld x %lld",
                             path, (long long)line, (long long)h.nrows, (long long)h.ncols);
            break;
        }
        if (k == cap) break; /* cannot happen (room); the count below says truncated */
        int erange;
        const char *q = sylva__parse_double(p, &x[k], &erange);
        if (!q) {
            st = sylva__fail(SYLVA_ERR_FORMAT, "%s:%lld: bad value '%s' (not a number)", path,
                             (long long)line, sylva__token(p, tok, sizeof tok));
            break;
        }
        if (!isfinite(x[k])) {
            st = sylva__fail(SYLVA_ERR_BAD_VALUE, "%s:%lld: value '%s' is %s", path, (long long)line,
                             sylva__token(p, tok, sizeof tok),
                             isnan(x[k]) ? "NaN" : erange ? "out of double range (overflow)" : "infinite");
            break;
        }
        k++;
        p = q; /* further values on the same line are accepted */
    }
    if (st == SYLVA_OK && k < total)
        st = sylva__fail(
            SYLVA_ERR_FORMAT, "%s:%lld: truncated: found %lld of %lld values declared on line %lld",
            path, (long long)line, (long long)k, (long long)total, (long long)h.size_line);
    if (st != SYLVA_OK) {
        free(x);
        return st;
    }
    *n = h.nrows;
    *nrhs = h.ncols;
    *X = x;
    return SYLVA_OK;
}

int sylva__read_dense(const char *path, int64_t *n, int64_t *nrhs, double **X)
{
    if (!n || !nrhs || !X) return sylva__fail(SYLVA_ERR_ARGUMENT, "sylva_read_dense: NULL output");
    *X = NULL;
    *n = *nrhs = 0;
    sylva__file file;
    int st = sylva__load_file(path, &file);
    if (st != SYLVA_OK) return st;
    st = sylva__read_dense_buffer(file.name, file.data, file.size, n, nrhs, X);
    sylva__unload_file(&file);
    return st;
}

int sylva__write_dense(const char *path, int64_t n, int64_t nrhs, const double *X, int64_t ldx)
{
    const char *who = "sylva_write_dense";
    if (!path) return sylva__fail(SYLVA_ERR_ARGUMENT, "%s: path is NULL", who);
    if (n < 0 || nrhs < 0)
        return sylva__fail(SYLVA_ERR_ARGUMENT, "%s: negative size %lld x %lld", who, (long long)n,
                           (long long)nrhs);
    if (n > 0 && nrhs > 0 && !X) return sylva__fail(SYLVA_ERR_ARGUMENT, "%s: X is NULL", who);
    if (nrhs > 1 && ldx < n)
        return sylva__fail(SYLVA_ERR_ARGUMENT, "%s: ldx = %lld is smaller than n = %lld", who,
                           (long long)ldx, (long long)n);
    sylva__out out; /* a stdio stream over a temporary: errors surface at close */
    int st = sylva__out_open(&out, path);
    if (st) return st;
    setvbuf(out.f, NULL, _IOFBF, 1 << 16);
    fprintf(out.f, "%%%%MatrixMarket matrix array real general\n%lld %lld\n", (long long)n,
            (long long)nrhs);
    for (int64_t c = 0; c < nrhs && !ferror(out.f); c++)
        for (int64_t i = 0; i < n; i++) fprintf(out.f, "%.17g\n", X[c * ldx + i]);
    return sylva__out_close(&out);
}
