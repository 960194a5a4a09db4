/* solve_items.c — cuts every front's share of the triangular solves into
 * the items of gpu_solve.h and lists them in an order where each item
 * comes after every item it needs. Forward: records in order (children
 * before parents), a front's triangle items top down, then its update
 * items. Backward: records in reverse (parents first), a front's update
 * items (they bring in its ancestors' solution), then its triangle items
 * bottom up. Called twice per pattern by runtime/gpu_solve_plan.c (count,
 * then fill); fails only when counts pass the encoding's limits.
 */
#include <limits.h>

#include "core.h"
#include "gpu_solve.h"

static int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

static void put(int *items, int64_t *count, int rec, int kind, int64_t index)
{
    if (items) {
        items[2 * *count] = rec;
        items[2 * *count + 1] = SYLVA_SOLVE_ITEM(kind, (int)index);
    }
    ++*count;
}

int sylva__solve_items(int F, const int *m, const int *k, int *nt, int *nuf, int *nub, int *fitems, int *bitems,
                       int *nitems_f, int *nitems_b)
{
    int64_t nf = 0, nb = 0;
    for (int i = 0; i < F; i++) {
        int64_t r = (int64_t)m[i] - k[i];
        if (k[i] <= SYLVA_SOLVE_FOLD_K && r <= SYLVA_SOLVE_FOLD_R) {
            nt[i] = nuf[i] = nub[i] = 0;
        } else {
            int64_t t = ceil_div(k[i], SYLVA_SOLVE_TB);
            int64_t uf = ceil_div(r, SYLVA_SOLVE_UR) * ceil_div(k[i], SYLVA_SOLVE_UK);
            int64_t ub = ceil_div(k[i], SYLVA_SOLVE_BK) * ceil_div(r, SYLVA_SOLVE_BR);
            if (t > 0xffffff || uf > 0xffffff || ub > 0xffffff)
                return sylva__fail(SYLVA_ERR_UNSUPPORTED, "GPU solve: a front of %d rows and %d pivots needs "
                                   "more than 2^24 items", m[i], k[i]);
            nt[i] = (int)t, nuf[i] = (int)uf, nub[i] = (int)ub;
        }
        nf += nt[i] + nuf[i] + (nt[i] == 0);
        nb += nt[i] + nub[i] + (nt[i] == 0);
        if (nf > INT_MAX / 2 || nb > INT_MAX / 2)
            return sylva__fail(SYLVA_ERR_UNSUPPORTED, "GPU solve: more than %d items", INT_MAX / 2);
    }
    *nitems_f = (int)nf;
    *nitems_b = (int)nb;
    if (!fitems) return SYLVA_OK;
    nf = nb = 0;
    for (int i = 0; i < F; i++) {
        if (nt[i] == 0) {
            put(fitems, &nf, i, SYLVA_SOLVE_FOLD, 0);
            continue;
        }
        for (int b = 0; b < nt[i]; b++) put(fitems, &nf, i, SYLVA_SOLVE_TRI, b);
        for (int u = 0; u < nuf[i]; u++) put(fitems, &nf, i, SYLVA_SOLVE_UPD, u);
    }
    for (int i = F - 1; i >= 0; i--) {
        if (nt[i] == 0) {
            put(bitems, &nb, i, SYLVA_SOLVE_FOLD, 0);
            continue;
        }
        for (int u = 0; u < nub[i]; u++) put(bitems, &nb, i, SYLVA_SOLVE_UPD, u);
        for (int b = nt[i] - 1; b >= 0; b--) put(bitems, &nb, i, SYLVA_SOLVE_TRI, b);
    }
    return SYLVA_OK;
}
