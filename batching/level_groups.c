/* level_groups.c — the grouping by tree level that the `level`, `sized`
 * and `subtree` policies share: small fronts of one height (distance to the
 * leaves) go together, cut into chunks of at most batch_flops (0 = no cut);
 * large fronts alone after their level's small ones. With by_size, the
 * fronts of a level are sorted by rows first and a chunk also ends where
 * rows double, so a batch holds fronts of similar size (less padding, fewer
 * idle threads). Fails only on memory (−1).
 */
#include <stdlib.h>

#include "batching.h"

/* Sort key: (rows, front); sorting pairs keeps qsort free of shared state,
 * so analyses may run concurrently. */
typedef struct rows_front {
    int64_t m, f;
} rows_front;

static int by_rows(const void *a, const void *b)
{
    const rows_front *x = a, *y = b;
    if (x->m != y->m) return (x->m > y->m) - (x->m < y->m);
    return (x->f > y->f) - (x->f < y->f);
}

int64_t sylva__group_by_level(const sylva__tree *t, const sylva__policy_params *p,
                              const char *take, int by_size, int64_t *order, int64_t *start,
                              int64_t pos, int64_t ng)
{
    int64_t ns = t->nfronts, H = t->height;
    int64_t *cnt = sylva__calloc((size_t)H + 2, sizeof *cnt);
    int64_t *bucket = sylva__malloc((size_t)ns + 1, sizeof *bucket);
    rows_front *keys = by_size ? sylva__malloc((size_t)ns + 1, sizeof *keys) : NULL;
    if (!cnt || !bucket || (by_size && !keys)) {
        free(cnt);
        free(bucket);
        free(keys);
        return -1;
    }
    for (int64_t f = 0; f < ns; f++)
        if (take[f]) cnt[t->fronts[f].height + 1]++;
    for (int64_t h = 0; h < H; h++) cnt[h + 1] += cnt[h];
    for (int64_t f = 0; f < ns; f++)
        if (take[f]) bucket[cnt[t->fronts[f].height]++] = f;
    /* cnt[h] is now the end of level h; level h starts at cnt[h − 1]. */
    for (int64_t h = 0; h < H; h++) {
        int64_t lo = h ? cnt[h - 1] : 0, hi = cnt[h];
        if (by_size) {
            for (int64_t q = lo; q < hi; q++) keys[q - lo] = (rows_front){t->fronts[bucket[q]].m, bucket[q]};
            qsort(keys, (size_t)(hi - lo), sizeof *keys, by_rows);
            for (int64_t q = lo; q < hi; q++) bucket[q] = keys[q - lo].f;
        }
        double flops = 0;
        int64_t first_m = 0, open = 0;
        for (int64_t q = lo; q < hi; q++) {
            const sylva__front *f = &t->fronts[bucket[q]];
            if (f->m > p->small_front_rows) continue;
            int cut = open && ((p->batch_flops > 0 && flops + f->flops > p->batch_flops) ||
                               (by_size && f->m > 2 * first_m));
            if (!open || cut) {
                start[ng++] = pos;
                flops = 0;
                first_m = f->m;
                open = 1;
            }
            order[pos++] = bucket[q];
            flops += f->flops;
        }
        for (int64_t q = lo; q < hi; q++)
            if (t->fronts[bucket[q]].m > p->small_front_rows) {
                start[ng++] = pos;
                order[pos++] = bucket[q];
            }
    }
    start[ng] = pos;
    free(cnt);
    free(bucket);
    free(keys);
    return ng;
}
