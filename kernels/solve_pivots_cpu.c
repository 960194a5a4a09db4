/* solve_pivots_cpu.c — the CPU twin of gpu_solve.cu's pivot check
 * (contract in gpu_solve.h): per front record of the solve blob, its
 * first pivot that is not finite and positive, or else the sum of the
 * logarithms of its pivots and its smallest and largest pivot; and the
 * reduction of those extremes over the records that the runtime applies
 * to the GPU's results. It exists so that CI, without a GPU, checks the
 * blob's fronts and the extremes against the host's pivot ratio. No
 * allocation, no failure. */
#include <math.h>

#include "gpu_solve.h"

void sylva__solve_pivots_cpu(const sylva__solve_desc *d, const void *blob, double *const *group_L, int *bad,
                             double *badval, double *lo, double *hi)
{
    const char *bl = blob;
    const int *m = (const int *)(bl + d->lay.m), *k = (const int *)(bl + d->lay.k);
    const int *grp = (const int *)(bl + d->lay.group);
    const int64_t *lofs = (const int64_t *)(bl + d->lay.lofs);
    for (int i = 0; i < d->nfronts; i++) {
        const double *L = group_L[grp[i]] + lofs[i];
        double logs = 0, pmin = INFINITY, pmax = 0;
        bad[i] = -1;
        for (int j = 0; j < k[i]; j++) {
            const double p = L[j + (int64_t)j * m[i]];
            if (!(p > 0 && isfinite(p))) {
                bad[i] = j;
                break;
            }
            logs += log(p);
            pmin = fmin(pmin, p);
            pmax = fmax(pmax, p);
        }
        if (bad[i] >= 0) {
            badval[i] = L[bad[i] + (int64_t)bad[i] * m[i]];
            lo[i] = INFINITY;
            hi[i] = 0;
        } else {
            badval[i] = logs;
            lo[i] = pmin;
            hi[i] = pmax;
        }
    }
}

int sylva__solve_pivot_extremes(int nfronts, const int *bad, const double *lo, const double *hi, double *min,
                                double *max)
{
    int all_good = 1;
    *min = INFINITY;
    *max = 0;
    for (int i = 0; i < nfronts; i++) {
        if (bad[i] >= 0) {
            all_good = 0;
            continue;
        }
        if (lo[i] < *min) *min = lo[i];
        if (hi[i] > *max) *max = hi[i];
    }
    return all_good;
}
