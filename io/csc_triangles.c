/* csc_triangles.c — the two triangles of a FULL or BOTH build made one lower
 * CSC. L holds the entries stored at i >= j, U those stored at i < j,
 * transposed, each sorted with its duplicates summed. A general matrix
 * (FULL) is checked symmetric — the first difference in column-major order
 * of the lower triangle is SYLVA_ERR_NOT_SYMMETRIC — or, with symmetrize,
 * replaced by its lower or its upper triangle or by (A + Aᵀ)/2, still
 * refusing a difference above the relative tolerance when one is set.
 * Symmetric storage holding both triangles (BOTH) is refused at the entry
 * that first completes a mirrored pair in entry order (SYLVA_ERR_FORMAT;
 * the reader turns the entry numbers into lines), or each pair is summed
 * (SYLVA_ERR_BAD_VALUE when the sum leaves double range), its lower entry
 * kept, or averaged. Positions stored once are kept as they are. Entries
 * are read again only to name those of an error. L and U are consumed. */
#include "io_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A relative difference at most this large gets the symmetrize hint: far
 * above the rounding of a few operations (1e-16 each), far below a real
 * asymmetry. */
#define SYLVA__ROUNDING_ASYMMETRY 1e-8

static inline void entry_at(const sylva__triplets *P, int64_t k, int64_t *i, int64_t *j)
{
    *i = P->idx32 ? ((const int32_t *)P->row)[k] : ((const int64_t *)P->row)[k];
    *j = P->idx32 ? ((const int32_t *)P->col)[k] : ((const int64_t *)P->col)[k];
}

/* The position of row r in column c of m (rows sorted), or -1. */
static int64_t find_row(const sylva__csc *m, int64_t c, int64_t r)
{
    int64_t lo = m->colptr[c], hi = m->colptr[c + 1];
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (m->rowind[mid] < r)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < m->colptr[c + 1] && m->rowind[lo] == r ? lo : -1;
}

/* The number (over the parts in order) of the first entry stored at lower
 * position (r, c) — as (c, r), in the upper triangle, when upper is set. */
static int64_t first_entry(const sylva__triplets *parts, int nparts, int64_t r, int64_t c,
                           int upper)
{
    int64_t ord = 0;
    for (int t = 0; t < nparts; t++)
        for (int64_t k = 0; k < parts[t].count; k++, ord++) {
            int64_t i, j;
            entry_at(&parts[t], k, &i, &j);
            if (upper ? (i == c && j == r) : (i == r && j == c)) return ord;
        }
    return -1;
}

/* BOTH, refusing: the pair completed first in entry order. One pass marks
 * each position seen in its triangle; the first entry whose mirror is
 * already marked completes it. Without memory for the marks: the pair at
 * (r, c), the first found in column order. */
static sylva__mirror first_mirror(const sylva__triplets *parts, int nparts, const sylva__csc *L,
                                  const sylva__csc *U, int64_t n, int64_t r, int64_t c)
{
    int64_t a = first_entry(parts, nparts, r, c, 0), b = first_entry(parts, nparts, r, c, 1);
    sylva__mirror m = {r, c, a < b ? a : b, a < b ? b : a, b > a};
    char *seen[2] = {sylva__calloc((size_t)L->colptr[n] + 1, 1),
                     sylva__calloc((size_t)U->colptr[n] + 1, 1)};
    const sylva__csc *side[2] = {L, U};
    int found = 0;
    int64_t ord = 0;
    for (int t = 0; seen[0] && seen[1] && t < nparts && !found; t++)
        for (int64_t k = 0; k < parts[t].count && !found; k++, ord++) {
            int64_t i, j;
            entry_at(&parts[t], k, &i, &j);
            if (i == j) continue;
            int up = i < j;
            int64_t pr = up ? j : i, pc = up ? i : j;
            seen[up][find_row(side[up], pc, pr)] = 1;
            int64_t other = find_row(side[!up], pc, pr);
            if (other >= 0 && seen[!up][other]) {
                m = (sylva__mirror){pr, pc, first_entry(parts, nparts, pr, pc, !up), ord, up};
                found = 1;
            }
        }
    free(seen[0]);
    free(seen[1]);
    return m;
}

/* Exact when a == b; no overflow. */
static double mean(double a, double b)
{
    double s = a + b;
    return isfinite(s) ? 0.5 * s : 0.5 * a + 0.5 * b;
}

/* |a - b| / max(|a|, |b|) for a != b (scaled first if the difference
 * overflows). */
static double relative_difference(double a, double b)
{
    double m = fmax(fabs(a), fabs(b)), d = fabs(a - b);
    return isfinite(d) ? d / m : fabs(a / m - b / m);
}

/* "not symmetric: A(i,j) = x but A(j,i) = y", the stored lower entry first
 * when there is one; `more` follows. */
static int asymmetry_error(const sylva__build_opts *o, int64_t r, int64_t c, int inl, double lv,
                           double uv, const char *what, const char *more)
{
    long long i = (long long)(r + o->index_base), j = (long long)(c + o->index_base);
    long long a = inl ? i : j, b = inl ? j : i;
    return sylva__fail(SYLVA_ERR_NOT_SYMMETRIC,
                       "%s: %s: A(%lld,%lld) = %.17g but A(%lld,%lld) = %.17g%s", o->who, what, a,
                       b, inl ? lv : uv, b, a, inl ? uv : lv, more);
}

/* FULL without symmetrize: L's strictly lower part must equal U (missing =
 * 0). Scans in column-major order of the lower triangle and names the
 * first mismatch; one that is only rounding gets o->hint. */
static int compare_parts(int64_t n, const sylva__csc *L, const sylva__csc *U,
                         const sylva__build_opts *o)
{
    int base = o->index_base;
    for (int64_t j = 0; j < n; j++) {
        int64_t p = L->colptr[j], pe = L->colptr[j + 1];
        int64_t q = U->colptr[j], qe = U->colptr[j + 1];
        while (p < pe && L->rowind[p] == j) p++; /* the diagonal has no twin */
        while (p < pe || q < qe) {
            int64_t rl = p < pe ? L->rowind[p] : INT64_MAX;
            int64_t ru = q < qe ? U->rowind[q] : INT64_MAX;
            int64_t r = rl < ru ? rl : ru;
            int inl = rl == r, inu = ru == r;
            long long lo_i = (long long)(r + base), lo_j = (long long)(j + base);
            if (o->pattern) {
                if (!(inl && inu))
                    return sylva__fail(SYLVA_ERR_NOT_SYMMETRIC,
                                       "%s: not symmetric: A(%lld,%lld) is stored but "
                                       "A(%lld,%lld) is not",
                                       o->who, inl ? lo_i : lo_j, inl ? lo_j : lo_i,
                                       inl ? lo_j : lo_i, inl ? lo_i : lo_j);
            } else {
                double lv = inl ? L->values[p] : 0.0, uv = inu ? U->values[q] : 0.0;
                if (lv != uv) {
                    char more[256] = "";
                    double rel = relative_difference(lv, uv);
                    if (o->hint && inl && inu && rel <= SYLVA__ROUNDING_ASYMMETRY)
                        snprintf(more, sizeof more, " (relative difference %.2g: %s)", rel,
                                 o->hint);
                    return asymmetry_error(o, r, j, inl, lv, uv, "not symmetric", more);
                }
            }
            if (inl) p++;
            if (inu) q++;
        }
    }
    return SYLVA_OK;
}

enum { MERGE_OK, MERGE_MIRROR, MERGE_OVERFLOW, MERGE_TOLERANCE };

/* One strictly lower position (r, c): present in L (value lv) and/or U
 * (uv). Sets *keep and *v; returns a MERGE_ code. */
static int merge_one(const sylva__build_opts *o, int inl, int inu, double lv, double uv,
                     sylva__tri_stats *s, int *keep, double *v)
{
    if (o->mode == SYLVA__TRI_BOTH) {
        *keep = 1;
        *v = inl ? lv : uv;
        if (!(inl && inu)) return MERGE_OK;
        s->mirrored++;
        switch (o->both) {
        case SYLVA_BOTH_SUM:
            *v = lv + uv;
            return isfinite(*v) || o->pattern ? MERGE_OK : MERGE_OVERFLOW;
        case SYLVA_BOTH_LOWER: *v = lv; return MERGE_OK;
        case SYLVA_BOTH_AVERAGE: *v = mean(lv, uv); return MERGE_OK;
        default: return MERGE_MIRROR;
        }
    }
    int code = MERGE_OK;
    if (o->pattern ? inl != inu : lv != uv) {
        double rel = o->pattern ? 1.0 : relative_difference(lv, uv);
        s->asymmetric++;
        if (rel > s->max_asymmetry) s->max_asymmetry = rel;
        if (o->tol > 0) {
            double d = fabs(lv - uv);
            if (isfinite(d) ? d > o->tol * fmax(fabs(lv), fabs(uv)) : rel > o->tol)
                code = MERGE_TOLERANCE;
        }
    }
    switch (o->symmetrize) {
    case SYLVA_SYMMETRIZE_LOWER: *keep = inl, *v = lv; break;
    case SYLVA_SYMMETRIZE_UPPER: *keep = inu, *v = uv; break;
    default: *keep = 1, *v = mean(lv, uv); break;
    }
    return code;
}

/* The error of a position merge_one refused. */
static int merge_error(int code, int64_t n, const sylva__csc *L, const sylva__csc *U,
                       const sylva__triplets *parts, int nparts, const sylva__build_opts *o,
                       int64_t r, int64_t c, int inl, double lv, double uv)
{
    long long i = (long long)(r + o->index_base), j = (long long)(c + o->index_base);
    if (code == MERGE_TOLERANCE) {
        char what[96], more[64];
        snprintf(what, sizeof what, "not symmetric within the tolerance %g", o->tol);
        snprintf(more, sizeof more, " (relative difference %.3g)", relative_difference(lv, uv));
        return asymmetry_error(o, r, c, inl, lv, uv, what, more);
    }
    if (code == MERGE_OVERFLOW) {
        int64_t a = first_entry(parts, nparts, r, c, 0), b = first_entry(parts, nparts, r, c, 1);
        if (o->overflow) *o->overflow = (sylva__overflow){r, c, a < b ? a : b, a < b ? b : a, 1};
        return sylva__fail(SYLVA_ERR_BAD_VALUE,
                           "%s: A(%lld,%lld) and A(%lld,%lld) (entries %lld and %lld) sum to %s: "
                           "out of double range",
                           o->who, i, j, j, i, (long long)(a + o->index_base),
                           (long long)(b + o->index_base), lv + uv > 0 ? "inf" : "-inf");
    }
    sylva__mirror m = first_mirror(parts, nparts, L, U, n, r, c);
    if (o->mirror) *o->mirror = m;
    long long mi = (long long)(m.row + o->index_base), mj = (long long)(m.col + o->index_base);
    return sylva__fail(SYLVA_ERR_FORMAT,
                       "%s: A(%lld,%lld) and A(%lld,%lld) are both stored (entries %lld and %lld): "
                       "a symmetric matrix stores one triangle",
                       o->who, m.second_upper ? mj : mi, m.second_upper ? mi : mj,
                       m.second_upper ? mi : mj, m.second_upper ? mj : mi,
                       (long long)(m.second + o->index_base), (long long)(m.first + o->index_base));
}

/* Merge L and U column by column into a new CSC (at most nnz(L) + nnz(U)
 * entries). */
static int merge_parts(int64_t n, const sylva__csc *L, const sylva__csc *U,
                       const sylva__triplets *parts, int nparts, const sylva__build_opts *o,
                       sylva__csc *out)
{
    int64_t cap = L->colptr[n] + U->colptr[n];
    out->colptr = sylva__malloc((size_t)n + 1, sizeof(int64_t));
    out->rowind = sylva__malloc((size_t)cap, sizeof(int64_t));
    out->values = o->pattern ? NULL : sylva__malloc((size_t)cap, sizeof(double));
    if (!out->colptr || !out->rowind || (!o->pattern && !out->values)) return SYLVA_ERR_NO_MEMORY;
    sylva__tri_stats s = {0, 0, 0.0};
    int64_t w = 0;
    for (int64_t j = 0; j < n; j++) {
        out->colptr[j] = w;
        int64_t p = L->colptr[j], pe = L->colptr[j + 1];
        int64_t q = U->colptr[j], qe = U->colptr[j + 1];
        while (p < pe || q < qe) {
            int64_t rl = p < pe ? L->rowind[p] : INT64_MAX;
            int64_t ru = q < qe ? U->rowind[q] : INT64_MAX;
            int64_t r = rl < ru ? rl : ru;
            int inl = rl == r, inu = ru == r, keep = 1;
            double lv = inl && !o->pattern ? L->values[p] : 0.0;
            double uv = inu && !o->pattern ? U->values[q] : 0.0, v = lv;
            if (r != j) { /* the diagonal is in L only */
                int code = merge_one(o, inl, inu, lv, uv, &s, &keep, &v);
                if (code != MERGE_OK)
                    return merge_error(code, n, L, U, parts, nparts, o, r, j, inl, lv, uv);
            }
            if (keep) {
                out->rowind[w] = r;
                if (!o->pattern) out->values[w] = v;
                w++;
            }
            if (inl) p++;
            if (inu) q++;
        }
    }
    out->colptr[n] = w;
    if (o->stats) *o->stats = s;
    return SYLVA_OK;
}

int sylva__combine_triangles(int64_t n, sylva__csc *L, sylva__csc *U, const sylva__triplets *parts,
                             int nparts, const sylva__build_opts *o, sylva__csc *out)
{
    memset(out, 0, sizeof *out);
    if (o->stats) memset(o->stats, 0, sizeof *o->stats);
    int st;
    if (o->mode == SYLVA__TRI_FULL && o->symmetrize == SYLVA_SYMMETRIZE_NONE) {
        st = compare_parts(n, L, U, o);
        if (st == SYLVA_OK) {
            *out = *L;
            memset(L, 0, sizeof *L);
        }
    } else {
        st = merge_parts(n, L, U, parts, nparts, o, out);
        if (st != SYLVA_OK) sylva__csc_free(out);
    }
    sylva__csc_free(L);
    sylva__csc_free(U);
    return st;
}
