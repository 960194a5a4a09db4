/* plan_arena.c — where each group's CB pool lives in one arena when the
 * groups run one after another in plan order (the direct GPU
 * factorization, runtime/factorize_direct.c): pool g is alive from its
 * group's start to the end of its last reader, and no two pools alive at
 * once overlap. With runs (sylva__plan_cb_arena_runs), consecutive groups
 * that may run concurrently (one tree launch) form a run, and a pool whose
 * last reader is inside a run is freed only at the run's end, so no pool
 * taken inside a run overlaps one that the run still reads; a run closes
 * once the pools it holds back exceed the budget. Offsets come from a first-fit free list over the arena,
 * freed runs merged with their neighbours; a pool that fits no free run
 * grows the arena (or the run at its top end). The arena's size is at
 * least the largest sum of pools alive at once (what a perfect packing
 * would need) and at most the sum of every pool. Pure computation; fails
 * only on memory (SYLVA_ERR_NO_MEMORY, message set). */
#include <stdlib.h>

#include "batching.h"

/* One free run of the arena, in a list sorted by offset. */
typedef struct run {
    int64_t at, len;
} run;

typedef struct freelist {
    run *r;
    int64_t n, cap;
} freelist;

/* Return [at, at + len) to the list, merged with its neighbours. */
static int give(freelist *fl, int64_t at, int64_t len)
{
    int64_t i = 0;
    while (i < fl->n && fl->r[i].at < at) i++;
    int left = i > 0 && fl->r[i - 1].at + fl->r[i - 1].len == at;
    int right = i < fl->n && at + len == fl->r[i].at;
    if (left && right) {
        fl->r[i - 1].len += len + fl->r[i].len;
        for (int64_t j = i; j + 1 < fl->n; j++) fl->r[j] = fl->r[j + 1];
        fl->n--;
        return SYLVA_OK;
    }
    if (left) {
        fl->r[i - 1].len += len;
        return SYLVA_OK;
    }
    if (right) {
        fl->r[i].at = at;
        fl->r[i].len += len;
        return SYLVA_OK;
    }
    if (fl->n == fl->cap) {
        int64_t cap = fl->cap ? 2 * fl->cap : 16;
        run *r = realloc(fl->r, (size_t)cap * sizeof *r);
        if (!r) return sylva__fail(SYLVA_ERR_NO_MEMORY, "out of memory laying out the CB arena");
        fl->r = r;
        fl->cap = cap;
    }
    for (int64_t j = fl->n; j > i; j--) fl->r[j] = fl->r[j - 1];
    fl->r[i] = (run){at, len};
    fl->n++;
    return SYLVA_OK;
}

/* An offset for len scalars: the first free run that holds it, else the
 * top of the arena (taking a free run that ends there). */
static int64_t take(freelist *fl, int64_t len, int64_t *top)
{
    for (int64_t i = 0; i < fl->n; i++) {
        if (fl->r[i].len < len) continue;
        int64_t at = fl->r[i].at;
        fl->r[i].at += len;
        fl->r[i].len -= len;
        if (fl->r[i].len == 0) {
            for (int64_t j = i; j + 1 < fl->n; j++) fl->r[j] = fl->r[j + 1];
            fl->n--;
        }
        return at;
    }
    if (fl->n > 0 && fl->r[fl->n - 1].at + fl->r[fl->n - 1].len == *top) {
        int64_t at = fl->r[fl->n - 1].at;
        fl->n--;
        *top = at + len;
        return at;
    }
    int64_t at = *top;
    *top += len;
    return at;
}

int sylva__plan_cb_arena(const sylva__plan *pl, const int64_t *size, int64_t *offset, int64_t *total)
{
    return sylva__plan_cb_arena_runs(pl, size, NULL, 0, NULL, offset, total);
}

int sylva__plan_cb_arena_runs(const sylva__plan *pl, const int64_t *size, const char *eligible, int64_t budget,
                              int64_t *run_of, int64_t *offset, int64_t *total)
{
    const int64_t ng = pl->ngroups;
    *total = 0;
    /* last[g]: the last group reading g's pool (g itself when none does). */
    int64_t *last = sylva__malloc((size_t)ng + 1, sizeof *last);
    /* Pools whose last reader is g, as a list per g: head[g], next[c]. */
    int64_t *head = sylva__malloc((size_t)ng + 1, sizeof *head);
    int64_t *next = sylva__malloc((size_t)ng + 1, sizeof *next);
    freelist fl = {0};
    if (!last || !head || !next) {
        free(last);
        free(head);
        free(next);
        return sylva__fail(SYLVA_ERR_NO_MEMORY, "out of memory laying out the CB arena");
    }
    for (int64_t g = 0; g < ng; g++) last[g] = g, head[g] = -1;
    for (int64_t g = 0; g < ng; g++)
        for (int64_t d = pl->dep_ptr[g]; d < pl->dep_ptr[g + 1]; d++)
            if (g > last[pl->dep_list[d]]) last[pl->dep_list[d]] = g;
    for (int64_t g = 0; g < ng; g++) {
        next[g] = head[last[g]];
        head[last[g]] = g;
    }
    int64_t top = 0, runs = 0, held = 0, open_at = -1; /* the open run's first group, or −1 */
    int status = SYLVA_OK;
    for (int64_t g = 0; g <= ng && !status; g++) {
        int in = g < ng && eligible && eligible[g];
        /* The open run ends before g (g is not eligible, the end, or the
         * run holds back more than the budget): its held pools are free. */
        if (open_at >= 0 && (!in || held > budget)) {
            for (int64_t r = open_at; r < g && !status; r++)
                for (int64_t c = head[r]; c >= 0 && !status; c = next[c])
                    if (size[c] > 0) status = give(&fl, offset[c], size[c]);
            open_at = -1;
            held = 0;
        }
        if (g == ng || status) break;
        if (in && open_at < 0) {
            open_at = g;
            runs++;
        }
        if (run_of) run_of[g] = in ? runs - 1 : -1;
        offset[g] = size[g] > 0 ? take(&fl, size[g], &top) : 0;
        /* Group g has run: the pools it was the last to read are free
         * (inside a run, at the run's end). */
        for (int64_t c = head[g]; c >= 0 && !status; c = next[c]) {
            if (size[c] <= 0) continue;
            if (in) held += size[c];
            else status = give(&fl, offset[c], size[c]);
        }
    }
    free(fl.r);
    free(last);
    free(head);
    free(next);
    if (!status) *total = top;
    return status;
}
