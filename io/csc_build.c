/* csc_build.c — entries (row, col, value) → the lower CSC of sylva_matrix.
 * Two passes of a counting sort by column (stable: file order is kept, so
 * sorted input needs no sort), then rows sorted and duplicates summed within
 * each column. Modes say what an upper-triangle entry means (mirror, error,
 * ignore, or the two triangles built apart and combined by csc_triangles.c:
 * checked symmetric, symmetrized, or mirrored with a rule for positions
 * stored twice). Finite duplicates whose sum is not (1e308 twice) are
 * SYLVA_ERR_BAD_VALUE naming both entries. The O(n) arrays are checked against the memory budget
 * before they are filled. Fails with SYLVA_ERR_ARGUMENT, SYLVA_ERR_BAD_VALUE,
 * SYLVA_ERR_NOT_SYMMETRIC, SYLVA_ERR_FORMAT (a position stored in both
 * triangles of symmetric storage, refused) or SYLVA_ERR_NO_MEMORY; nothing
 * is leaked on failure. */
#include "io_internal.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

sylva_matrix *sylva__matrix_alloc(void)
{
    sylva_matrix *A = sylva__calloc(1, sizeof *A);
    if (A) A->owns_arrays = 1;
    return A;
}

typedef struct {
    int64_t r;
    int64_t k; /* position in the column: ties keep file order */
    double v;
} row_val;

static int cmp_row_val(const void *a, const void *b)
{
    const row_val *x = a, *y = b;
    if (x->r != y->r) return (x->r > y->r) - (x->r < y->r);
    return (x->k > y->k) - (x->k < y->k);
}

static int cmp_int64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Sort one column's rows (and values) and sum duplicates in place. Returns
 * the new length; *overflow is set when a sum of duplicates is not finite.
 * tmp has room for len entries (only used when unsorted). */
static int64_t sort_sum_column(int64_t *row, double *val, int64_t len, row_val *tmp, int *overflow)
{
    int sorted = 1;
    for (int64_t k = 1; k < len; k++)
        if (row[k] < row[k - 1]) {
            sorted = 0;
            break;
        }
    if (!sorted) {
        if (len <= 16) {
            for (int64_t k = 1; k < len; k++) {
                int64_t r = row[k];
                double v = val ? val[k] : 0.0;
                int64_t q = k;
                while (q > 0 && row[q - 1] > r) {
                    row[q] = row[q - 1];
                    if (val) val[q] = val[q - 1];
                    q--;
                }
                row[q] = r;
                if (val) val[q] = v;
            }
        } else if (val) {
            /* Ties broken by position: duplicates are summed in input order,
             * the same sum as the sorted path gives. */
            for (int64_t k = 0; k < len; k++) tmp[k] = (row_val){row[k], k, val[k]};
            qsort(tmp, (size_t)len, sizeof *tmp, cmp_row_val);
            for (int64_t k = 0; k < len; k++) {
                row[k] = tmp[k].r;
                val[k] = tmp[k].v;
            }
        } else {
            qsort(row, (size_t)len, sizeof *row, cmp_int64);
        }
    }
    int64_t w = 0;
    for (int64_t k = 0; k < len; k++) {
        if (w > 0 && row[w - 1] == row[k]) {
            if (val) {
                val[w - 1] += val[k];
                if (!isfinite(val[w - 1])) *overflow = 1;
            }
        } else {
            row[w] = row[k];
            if (val) val[w] = val[k];
            w++;
        }
    }
    return w;
}

/* Where entry (i, j) goes: 0 = lower part at (*r, *c), 1 = the transposed
 * upper part (FULL mode), -1 = dropped, -2 = error (upper entry in LOWER,
 * lower entry in UPPER). */
static inline int place(sylva__tri_mode mode, int64_t i, int64_t j, int64_t *r, int64_t *c)
{
    switch (mode) {
    case SYLVA__TRI_MIRROR:
        *r = i > j ? i : j;
        *c = i > j ? j : i;
        return 0;
    case SYLVA__TRI_LOWER:
        *r = i;
        *c = j;
        return i >= j ? 0 : -2;
    case SYLVA__TRI_UPPER:
        *r = j;
        *c = i;
        return i <= j ? 0 : -2;
    case SYLVA__TRI_FULL:
    case SYLVA__TRI_BOTH:
        if (i >= j) {
            *r = i;
            *c = j;
            return 0;
        }
        *r = j;
        *c = i;
        return 1;
    case SYLVA__TRI_KEEP_LOWER:
        *r = i;
        *c = j;
        return i >= j ? 0 : -1;
    case SYLVA__TRI_KEEP_UPPER:
        *r = j;
        *c = i;
        return i <= j ? 0 : -1;
    }
    return -1;
}

typedef sylva__csc csc;

void sylva__csc_free(csc *m)
{
    free(m->colptr);
    free(m->rowind);
    free(m->values);
    memset(m, 0, sizeof *m);
}

/* The parallel build: phase 1 counts per part and column, phase 2 scatters
 * each part at its own offsets (parts in order, so the sort stays stable),
 * phase 3 sorts and sums a balanced range of columns per thread. */
typedef struct {
    int64_t n;
    const sylva__triplets *parts;
    int nparts, nthreads, tid, part, phase;
    const sylva__build_opts *o;
    int64_t **cnt; /* per part: n counts, then n next positions (one shared
                      array when a single thread counts every part) */
    csc *out;
    int64_t *newlen;  /* phase 3: column lengths after the duplicate sum */
    int64_t j0, j1;   /* phase 3: column range */
    int64_t overflow_col; /* phase 3: first column with a non-finite sum, or -1 */
    int status;
} build_job;

static void *build_worker(void *arg)
{
    build_job *b = arg;
    const sylva__build_opts *o = b->o;
    if (b->phase == 1 || b->phase == 2) {
        for (int t = b->tid; t < b->nparts; t += b->nthreads) {
            const sylva__triplets *P = &b->parts[t];
            int64_t *c_t = b->cnt[t];
            /* One loop per index width and phase, so the inner loop has no
             * branch but place()'s. */
#define SYLVA_COUNT_OR_SCATTER(T)                                                  \
    do {                                                                          \
        const T *R = P->row, *C = P->col;                                         \
        if (b->phase == 1) {                                                      \
            for (int64_t k = 0; k < P->count; k++) {                              \
                int64_t r = 0, c = 0;                                             \
                if (place(o->mode, R[k], C[k], &r, &c) == b->part) c_t[c]++;      \
            }                                                                     \
        } else {                                                                  \
            for (int64_t k = 0; k < P->count; k++) {                              \
                int64_t r = 0, c = 0;                                             \
                if (place(o->mode, R[k], C[k], &r, &c) != b->part) continue;      \
                int64_t q = c_t[c]++;                                             \
                b->out->rowind[q] = r;                                            \
                if (!o->pattern) b->out->values[q] = P->val[k];                   \
            }                                                                     \
        }                                                                         \
    } while (0)
            if (P->idx32) SYLVA_COUNT_OR_SCATTER(int32_t);
            else SYLVA_COUNT_OR_SCATTER(int64_t);
#undef SYLVA_COUNT_OR_SCATTER
        }
        return NULL;
    }
    const int64_t *cp = b->out->colptr;
    int64_t maxlen = 0;
    for (int64_t j = b->j0; j < b->j1; j++)
        if (cp[j + 1] - cp[j] > maxlen) maxlen = cp[j + 1] - cp[j];
    row_val *tmp = NULL;
    if (maxlen > 16 && !o->pattern && !(tmp = sylva__malloc((size_t)maxlen, sizeof *tmp))) {
        b->status = SYLVA_ERR_NO_MEMORY;
        return NULL;
    }
    for (int64_t j = b->j0; j < b->j1; j++) {
        int overflow = 0;
        b->newlen[j] =
            sort_sum_column(b->out->rowind + cp[j], o->pattern ? NULL : b->out->values + cp[j],
                            cp[j + 1] - cp[j], tmp, &overflow);
        if (overflow && b->overflow_col < 0) b->overflow_col = j;
    }
    free(tmp);
    return NULL;
}

static void run_jobs(build_job *jobs, int nt, int phase)
{
    pthread_t tid[SYLVA__IO_MAX_THREADS];
    int started[SYLVA__IO_MAX_THREADS] = {0};
    for (int t = 0; t < nt; t++) jobs[t].phase = phase;
    for (int t = 1; t < nt; t++) started[t] = pthread_create(&tid[t], NULL, build_worker, &jobs[t]) == 0;
    build_worker(&jobs[0]);
    for (int t = 1; t < nt; t++) {
        if (started[t]) pthread_join(tid[t], NULL);
        else build_worker(&jobs[t]);
    }
}

/* The first entry (0-based, over the parts in order) at lower position
 * (r, c) of `part`, and the one whose addition made the running sum of that
 * position non-finite: the same order the column sort sums in (stable). */
static void find_overflow(const sylva__triplets *parts, int nparts, const sylva__build_opts *o,
                          int part, int64_t r, int64_t c, sylva__overflow *ov)
{
    double sum = 0;
    int64_t ord = 0;
    ov->row = r;
    ov->col = c;
    ov->first = ov->culprit = -1;
    ov->mirrored = 0;
    for (int t = 0; t < nparts; t++) {
        const sylva__triplets *P = &parts[t];
        for (int64_t k = 0; k < P->count; k++, ord++) {
            int64_t i = P->idx32 ? ((const int32_t *)P->row)[k] : ((const int64_t *)P->row)[k];
            int64_t j = P->idx32 ? ((const int32_t *)P->col)[k] : ((const int64_t *)P->col)[k];
            int64_t pr = 0, pc = 0;
            if (place(o->mode, i, j, &pr, &pc) != part || pr != r || pc != c) continue;
            if (ov->first < 0) ov->first = ord;
            sum += P->val[k];
            if (!isfinite(sum)) {
                ov->culprit = ord;
                return;
            }
        }
    }
}

/* SYLVA_ERR_BAD_VALUE for duplicates of column c summing to a non-finite
 * value: which row, and which two entries (positions in the caller's
 * arrays; the reader turns them into lines). */
static int overflow_error(const sylva__triplets *parts, int nparts, const sylva__build_opts *o,
                          int part, const csc *out, const int64_t *newlen, int64_t c)
{
    int64_t r = -1;
    double v = 0;
    for (int64_t p = out->colptr[c]; p < out->colptr[c] + newlen[c]; p++)
        if (!isfinite(out->values[p])) {
            r = out->rowind[p];
            v = out->values[p];
            break;
        }
    sylva__overflow local, *ov = o->overflow ? o->overflow : &local;
    find_overflow(parts, nparts, o, part, r, c, ov);
    int base = o->index_base;
    int64_t i = part ? c : r, j = part ? r : c; /* as given: the upper part is transposed */
    return sylva__fail(SYLVA_ERR_BAD_VALUE,
                       "%s: duplicate entries of A(%lld,%lld) (entries %lld and %lld) sum to %s: "
                       "out of double range",
                       o->who, (long long)(i + base), (long long)(j + base),
                       (long long)(ov->first + base), (long long)(ov->culprit + base),
                       isnan(v) ? "NaN"
                       : v > 0  ? "inf"
                                : "-inf");
}

/* Counting sort of the entries that place() sends to `part` (0 or 1), then
 * per-column sort and duplicate sum, compacted. A single thread counts
 * every part into one array (parts in order keep the sort stable); so does
 * a matrix with far more columns than entries, whose per-part count arrays
 * would dwarf the entries. */
static int build_part(int64_t n, const sylva__triplets *parts, int nparts,
                      const sylva__build_opts *o, int part, csc *out)
{
    int nt = o->nthreads < 1 ? 1 : o->nthreads > SYLVA__IO_MAX_THREADS ? SYLVA__IO_MAX_THREADS : o->nthreads;
    if (nt > nparts) nt = nparts > 0 ? nparts : 1;
    int64_t entries = 0;
    for (int t = 0; t < nparts; t++) entries += parts[t].count;
    if (n / 4 > entries) nt = 1;
    int shared = nt == 1, ncnt = shared ? 1 : nparts;
    int st = SYLVA_ERR_NO_MEMORY;
    int64_t **cnt = sylva__calloc((size_t)(nparts > 0 ? nparts : 1), sizeof *cnt);
    int64_t *newlen = NULL;
    out->colptr = sylva__calloc((size_t)n + 1, sizeof(int64_t));
    if (!cnt || !out->colptr) goto done;
    for (int t = 0; t < ncnt; t++)
        if (!(cnt[t] = sylva__calloc((size_t)n + 1, sizeof(int64_t)))) goto done;
    for (int t = ncnt; t < nparts; t++) cnt[t] = cnt[0];
    build_job jobs[SYLVA__IO_MAX_THREADS];
    for (int t = 0; t < nt; t++)
        jobs[t] = (build_job){.n = n, .parts = parts, .nparts = nparts, .nthreads = nt, .tid = t,
                              .part = part, .o = o, .cnt = cnt, .out = out};
    run_jobs(jobs, nt, 1);
    int64_t *cp = out->colptr, total = 0;
    for (int64_t j = 0; j < n; j++) { /* counts → each part's first position */
        cp[j] = total;
        for (int t = 0; t < ncnt; t++) {
            int64_t c = cnt[t][j];
            cnt[t][j] = total;
            total += c;
        }
    }
    cp[n] = total;
    out->rowind = sylva__malloc((size_t)total, sizeof(int64_t));
    out->values = o->pattern ? NULL : sylva__malloc((size_t)total, sizeof(double));
    if (!out->rowind || (!o->pattern && !out->values)) goto done;
    run_jobs(jobs, nt, 2);
    /* The counts are spent: their first array holds the new lengths. */
    newlen = cnt[0];
    cnt[0] = NULL;
    /* Column ranges holding about the same number of entries. */
    int64_t j = 0;
    for (int t = 0; t < nt; t++) {
        int64_t target = total / nt * (t + 1);
        jobs[t].j0 = j;
        if (t == nt - 1) j = n;
        else
            while (j < n && cp[j] < target) j++;
        jobs[t].j1 = j;
        jobs[t].newlen = newlen;
        jobs[t].overflow_col = -1;
        jobs[t].status = SYLVA_OK;
    }
    run_jobs(jobs, nt, 3);
    for (int t = 0; t < nt; t++)
        if (jobs[t].status != SYLVA_OK) {
            sylva__fail(SYLVA_ERR_NO_MEMORY, "%s: out of memory sorting columns", o->who);
            goto done;
        }
    for (int t = 0; t < nt; t++) /* ranges are in column order: the first is the smallest */
        if (jobs[t].overflow_col >= 0) {
            st = overflow_error(parts, nparts, o, part, out, newlen, jobs[t].overflow_col);
            goto done;
        }
    int64_t w = 0;
    for (int64_t c = 0; c < n; c++) { /* compact only where duplicates were summed */
        int64_t b = cp[c], len = newlen[c];
        if (w != b) {
            memmove(out->rowind + w, out->rowind + b, (size_t)len * sizeof(int64_t));
            if (!o->pattern) memmove(out->values + w, out->values + b, (size_t)len * sizeof(double));
        }
        cp[c] = w;
        w += len;
    }
    cp[n] = w;
    st = SYLVA_OK;
done:
    if (cnt)
        for (int t = 0; t < ncnt; t++) free(cnt[t]);
    free(cnt);
    free(newlen);
    if (st != SYLVA_OK) sylva__csc_free(out);
    return st;
}

/* The O(n) arrays a build fills (column pointers, counts, one array per
 * part at most, for each of the two parts in FULL and BOTH modes) and the
 * entries (twice when the two parts are merged into a third matrix),
 * against the memory budget: a file that declares n = 2^31 with one entry
 * fails here at once instead of faulting in tens of gigabytes. */
static int check_budget(int64_t n, const sylva__triplets *parts, int nparts,
                        const sylva__build_opts *o)
{
    double entries = 0;
    for (int t = 0; t < nparts; t++) entries += (double)parts[t].count;
    int counters = (double)n / 4 > entries || o->nthreads <= 1 ? 1 : nparts;
    int two = o->mode == SYLVA__TRI_FULL || o->mode == SYLVA__TRI_BOTH;
    int merged = o->mode == SYLVA__TRI_BOTH ||
                 (o->mode == SYLVA__TRI_FULL && o->symmetrize != SYLVA_SYMMETRIZE_NONE);
    double bytes = ((double)n + 1) * 8.0 * (1.0 + counters + merged) * (two ? 2 : 1) +
                   entries * (o->pattern ? 8.0 : 16.0) * (merged ? 2 : 1);
    if (bytes < (double)SYLVA__BUDGET_CHECK_BYTES) return SYLVA_OK;
    char what[96];
    snprintf(what, sizeof what, "a matrix of %lld columns", (long long)n);
    return sylva__memory_check(bytes, o->who, what);
}

static int first_checks(int64_t n, const sylva__triplets *parts, int nparts,
                        const sylva__build_opts *o)
{
    int base = o->index_base;
    for (int t = 0; t < nparts; t++) {
        const sylva__triplets *P = &parts[t];
        for (int64_t k = 0; k < P->count; k++) {
            int64_t i = P->idx32 ? ((const int32_t *)P->row)[k] : ((const int64_t *)P->row)[k];
            int64_t j = P->idx32 ? ((const int32_t *)P->col)[k] : ((const int64_t *)P->col)[k];
            if (i < 0 || i >= n || j < 0 || j >= n)
                return sylva__fail(SYLVA_ERR_ARGUMENT,
                                   "%s: column %lld: row %lld is out of range %lld..%lld", o->who,
                                   (long long)(j + base), (long long)(i + base), (long long)base,
                                   (long long)(n - 1 + base));
            if (o->mode == SYLVA__TRI_LOWER && i < j)
                return sylva__fail(SYLVA_ERR_ARGUMENT,
                                   "%s: column %lld has row %lld above the diagonal "
                                   "(lower triangle expected)",
                                   o->who, (long long)(j + base), (long long)(i + base));
            if (o->mode == SYLVA__TRI_UPPER && i > j)
                return sylva__fail(SYLVA_ERR_ARGUMENT,
                                   "%s: column %lld has row %lld below the diagonal "
                                   "(upper triangle expected)",
                                   o->who, (long long)(j + base), (long long)(i + base));
            if (o->check_values && !o->pattern && !isfinite(P->val[k]))
                return sylva__fail(SYLVA_ERR_BAD_VALUE, "%s: column %lld, row %lld: value is %s",
                                   o->who, (long long)(j + base), (long long)(i + base),
                                   isnan(P->val[k]) ? "NaN" : "infinite");
        }
    }
    return SYLVA_OK;
}

int sylva__csc_from_triplets(int64_t n, const sylva__triplets *parts, int nparts,
                             const sylva__build_opts *o, sylva_matrix **A)
{
    *A = NULL;
    int st = o->trusted ? SYLVA_OK : first_checks(n, parts, nparts, o);
    if (st == SYLVA_OK) st = check_budget(n, parts, nparts, o);
    if (st != SYLVA_OK) return st;
    csc L = {0}, U = {0};
    st = build_part(n, parts, nparts, o, 0, &L);
    if (st != SYLVA_OK) return st;
    if (o->mode == SYLVA__TRI_FULL || o->mode == SYLVA__TRI_BOTH) {
        st = build_part(n, parts, nparts, o, 1, &U);
        if (st != SYLVA_OK) {
            sylva__csc_free(&L);
            return st;
        }
        csc C = {0};
        st = sylva__combine_triangles(n, &L, &U, parts, nparts, o, &C);
        if (st != SYLVA_OK) return st;
        L = C;
    }
    sylva_matrix *M = sylva__matrix_alloc();
    if (!M) {
        sylva__csc_free(&L);
        return SYLVA_ERR_NO_MEMORY;
    }
    /* Give back the slack left by duplicates and dropped entries. */
    int64_t nnz = L.colptr[n];
    if (nnz > 0) {
        int64_t *r2 = realloc(
            L.rowind, (size_t)nnz * sizeof(int64_t)); /* a shrink: on failure keep the old */
        if (r2) L.rowind = r2;
        if (L.values) {
            double *v2 = realloc(L.values, (size_t)nnz * sizeof(double));
            if (v2) L.values = v2;
        }
    }
    M->n = n;
    M->nnz = nnz;
    M->colptr = L.colptr;
    M->rowind = L.rowind;
    M->values = L.values;
    *A = M;
    return SYLVA_OK;
}
