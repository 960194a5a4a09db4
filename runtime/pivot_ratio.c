/* pivot_ratio.c — CHOLMOD's cheap estimate of the reciprocal condition
 * number, (min_j L_jj / max_j L_jj)², from the diagonal of a factor on the
 * host (O(n), no copy: a CPU factorization's L is already there). In a
 * distributed run each rank scans its own fronts and the extremes are
 * combined exactly (positive doubles order as their bit patterns, so a max
 * over int64 does it). A factor whose L is on a GPU is not read here: its
 * extremes are those the GPU pivot check found (numeric.c, from
 * gpu_solve.cu's pivots kernel), and NaN when that check has not run
 * since the factorization (several GPUs or processes: it runs later). */
#include <math.h>
#include <string.h>

#include "runtime_internal.h"

static int64_t bits_of(double d)
{
    int64_t b;
    memcpy(&b, &d, sizeof b);
    return b;
}

static double double_of(int64_t b)
{
    double d;
    memcpy(&d, &b, sizeof d);
    return d;
}

/* The ratio of n pivots between lo and hi (NaN for none). */
static double ratio_of(int64_t n, double lo, double hi)
{
    return n > 0 && hi > 0 && isfinite(lo) ? (lo / hi) * (lo / hi) : NAN;
}

int sylva__numeric_pivot_ratio(sylva__numeric *N, double *ratio)
{
    *ratio = NAN;
    if (N->on_device) {
        if (N->pivots_known) *ratio = ratio_of(N->plan->tree->n, N->pivot_lo, N->pivot_hi);
        return SYLVA_OK;
    }
    int dist = sylva__dist_size() > 1 && N->owner, me = sylva__dist_rank();
    double s;
    int status = sylva__numeric_own_to_host(N, &s);
    if (dist) status = sylva__dist_agree(status);
    if (status) return status;
    const sylva__plan *pl = N->plan;
    const sylva__tree *t = pl->tree;
    double lo = INFINITY, hi = 0;
    for (int64_t f = 0; f < t->nfronts; f++) {
        if (dist && N->owner[pl->front_group[f]] != me) continue;
        const sylva__front *fr = &t->fronts[f];
        for (int64_t c = 0; c < fr->k; c++) {
            int64_t at = pl->l_off[f] + c + c * fr->m;
            double d = N->precision == SYLVA_FLOAT32 ? (double)((const float *)N->values)[at]
                                                     : ((const double *)N->values)[at];
            if (d < lo) lo = d;
            if (d > hi) hi = d;
        }
    }
    if (dist) { /* the pivots are positive (checked): max of hi, min of lo */
        int64_t ext[2] = {bits_of(hi), -bits_of(lo)};
        if ((status = sylva__dist_max_i64(ext, 2))) return status;
        hi = double_of(ext[0]);
        lo = double_of(-ext[1]);
    }
    *ratio = ratio_of(t->n, lo, hi);
    return SYLVA_OK;
}
