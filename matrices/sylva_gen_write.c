/* sylva_gen_write.c — a fast Matrix Market writer for generated matrices:
 * lines formatted by hand into a 4 MiB buffer (integers by a digit loop,
 * other values by %.17g) and written with fwrite, so a 100 MB file takes
 * about a second; through core's atomic output (a temporary renamed on
 * success). Fails with SYLVA_ERR_IO or SYLVA_ERR_ARGUMENT. */
#include "gen_internal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *put_int(char *s, int64_t v)
{
    char tmp[24];
    int k = 0;
    uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    if (v < 0) *s++ = '-';
    do {
        tmp[k++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    while (k) *s++ = tmp[--k];
    return s;
}

static char *put_value(char *s, double v)
{
    if (v == trunc(v) && fabs(v) < 1e15) return put_int(s, (int64_t)v);
    return s + sprintf(s, "%.17g", v);
}

int sylva_gen_write_mtx(const char *path, const sylva_matrix *A)
{
    if (!path || !A) return sylva__fail(SYLVA_ERR_ARGUMENT, "sylva_gen_write_mtx: NULL argument");
    const size_t cap = (size_t)4 << 20;
    char *buf = sylva__malloc(cap, 1);
    if (!buf) return SYLVA_ERR_NO_MEMORY;
    sylva__out out;
    int st = sylva__out_open(&out, path);
    if (st) {
        free(buf);
        return st;
    }
    FILE *f = out.f;
    errno = 0;
    char *s = buf;
    s += sprintf(s, "%%%%MatrixMarket matrix coordinate %s symmetric\n%%%% written by sylva-gen\n%lld %lld %lld\n",
                 A->values ? "real" : "pattern", (long long)A->n, (long long)A->n, (long long)A->nnz);
    int ok = 1;
    for (int64_t j = 0; j < A->n && ok; j++) {
        for (int64_t p = A->colptr[j]; p < A->colptr[j + 1]; p++) {
            if ((size_t)(s - buf) > cap - 128) {
                size_t len = (size_t)(s - buf);
                ok = fwrite(buf, 1, len, f) == len;
                s = buf;
                if (!ok) break;
            }
            s = put_int(s, A->rowind[p] + 1);
            *s++ = ' ';
            s = put_int(s, j + 1);
            if (A->values) {
                *s++ = ' ';
                s = put_value(s, A->dtype == SYLVA_FLOAT32 ? (double)((const float *)A->values)[p]
                                                           : ((const double *)A->values)[p]);
            }
            *s++ = '\n';
        }
    }
    size_t len = (size_t)(s - buf);
    if (ok && len) ok = fwrite(buf, 1, len, f) == len;
    free(buf);
    if (!ok) {
        int err = errno ? errno : EIO;
        sylva__out_abort(&out);
        return sylva__fail(SYLVA_ERR_IO, "%s: write error: %s", path, strerror(err));
    }
    return sylva__out_close(&out);
}
