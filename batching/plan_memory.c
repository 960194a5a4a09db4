/* plan_memory.c — the memory a plan's factorization holds over time, from a
 * simulation of its run on W CPU workers: each group costs its flops plus
 * the entries it assembles; a free worker takes, among the groups whose
 * children's groups are done, the first in plan order (the task priorities
 * of runtime/factorize.c); a tiled large front is shared — every worker
 * that frees up while it is the first such group joins it, as its tile
 * tasks outrank everything after it — while an untiled one keeps one
 * worker and the others run ahead. A group, when it starts, writes its
 * slice of L and makes its CB pool and scratch; when it ends its scratch
 * goes, and so does each CB pool it was the last to read. The peaks of
 * (L written + CBs alive) and (all of L + CBs alive) are a first
 * factorization's and a refactorization's. Pure computation; fails only on
 * memory (the results are then 0). */
#include <stdlib.h>

#include "batching.h"
#include "group_heap.h"

typedef struct sim {
    const sylva__plan *pl;
    int tiled;           /* large groups are shared by the workers */
    double *work;        /* per group: what is left of its cost */
    int *crew;           /* per group: workers on it now */
    int64_t *pending;    /* per group: child groups not done */
    int64_t *left;       /* per group: readers of its CB pool not done */
    int64_t *rptr, *rlist; /* per group: the groups that read its CB pool */
    sylva__group_heap ready; /* ready groups, least plan index on top */
    double factor, alive, peak_first, peak_cb;
} sim;

static double group_cost(const sylva__plan *pl, int64_t g)
{
    double c = pl->group_flops[g];
    for (int64_t q = pl->group_ptr[g]; q < pl->group_ptr[g + 1]; q++) {
        const sylva__front *f = &pl->tree->fronts[pl->front_list[q]];
        c += (double)f->m * (double)f->k + (double)(f->m - f->k) * (double)(f->m - f->k);
    }
    return c > 1 ? c : 1;
}

static void start(sim *s, int64_t g)
{
    const sylva__plan *pl = s->pl;
    int64_t first = pl->front_list[pl->group_ptr[g]], last = pl->front_list[pl->group_ptr[g + 1] - 1];
    s->factor += (double)(pl->l_off[last] + pl->tree->fronts[last].m * pl->tree->fronts[last].k -
                          pl->l_off[first]);
    s->alive += (double)pl->cb_size[g] + (double)pl->scratch_size[g];
    if (s->factor + s->alive > s->peak_first) s->peak_first = s->factor + s->alive;
    if (s->alive > s->peak_cb) s->peak_cb = s->alive;
}

static void finish(sim *s, int64_t g)
{
    const sylva__plan *pl = s->pl;
    s->alive -= (double)pl->scratch_size[g];
    for (int64_t d = pl->dep_ptr[g]; d < pl->dep_ptr[g + 1]; d++)
        if (--s->left[pl->dep_list[d]] == 0) s->alive -= (double)pl->cb_size[pl->dep_list[d]];
    if (pl->readers[g] == 0) s->alive -= (double)pl->cb_size[g];
    for (int64_t q = s->rptr[g]; q < s->rptr[g + 1]; q++)
        if (--s->pending[s->rlist[q]] == 0) sylva__group_heap_push(&s->ready, s->rlist[q]);
}

/* What a free worker takes: the first in plan order of the ready groups
 * and the shared (tiled) groups already running; −1 when none. */
static int64_t pick(sim *s, const int64_t *running, int workers)
{
    int64_t best = s->ready.n > 0 ? s->ready.g[0] : -1;
    for (int w = 0; s->tiled && w < workers; w++) {
        int64_t g = running[w];
        if (g >= 0 && s->pl->large[g] && (best < 0 || g < best)) best = g;
    }
    if (best >= 0 && s->ready.n > 0 && best == s->ready.g[0]) {
        sylva__group_heap_pop(&s->ready);
        start(s, best);
    }
    return best;
}

void sylva__plan_memory_sim(const sylva__plan *pl, int workers, int tiled, double *peak_first,
                            double *peak_cb)
{
    int64_t ng = pl->ngroups, nd = pl->dep_ptr[ng];
    *peak_first = *peak_cb = 0;
    if (ng == 0) return;
    if (workers < 1) workers = 1;
    sim s = {.pl = pl, .tiled = tiled};
    s.work = sylva__malloc((size_t)ng, sizeof *s.work);
    s.crew = sylva__calloc((size_t)ng, sizeof *s.crew);
    s.pending = sylva__calloc((size_t)ng, sizeof *s.pending);
    s.left = sylva__malloc((size_t)ng, sizeof *s.left);
    s.rptr = sylva__calloc((size_t)ng + 1, sizeof *s.rptr);
    s.rlist = sylva__malloc((size_t)nd + 1, sizeof *s.rlist);
    s.ready.g = sylva__malloc((size_t)ng, sizeof *s.ready.g);
    int64_t *running = sylva__malloc((size_t)workers, sizeof *running); /* each worker's group */
    if (!s.work || !s.crew || !s.pending || !s.left || !s.rptr || !s.rlist || !s.ready.g || !running)
        goto done;
    for (int64_t g = 0; g < ng; g++) {
        s.work[g] = group_cost(pl, g);
        s.left[g] = pl->readers[g];
        s.pending[g] = pl->dep_ptr[g + 1] - pl->dep_ptr[g];
        for (int64_t d = pl->dep_ptr[g]; d < pl->dep_ptr[g + 1]; d++) s.rptr[pl->dep_list[d] + 1]++;
    }
    for (int64_t g = 0; g < ng; g++) s.rptr[g + 1] += s.rptr[g];
    for (int64_t g = 0; g < ng; g++)
        for (int64_t d = pl->dep_ptr[g]; d < pl->dep_ptr[g + 1]; d++) s.rlist[s.rptr[pl->dep_list[d]]++] = g;
    for (int64_t g = ng; g > 0; g--) s.rptr[g] = s.rptr[g - 1];
    s.rptr[0] = 0;
    for (int64_t g = 0; g < ng; g++)
        if (s.pending[g] == 0) sylva__group_heap_push(&s.ready, g);
    for (int w = 0; w < workers; w++) running[w] = -1;
    for (int64_t done_count = 0; done_count < ng;) {
        for (int w = 0; w < workers; w++) {
            if (running[w] >= 0) continue;
            int64_t g = pick(&s, running, workers);
            if (g < 0) break;
            running[w] = g;
            s.crew[g]++;
        }
        /* Advance to the next end: each running group's work shrinks by
         * its crew's share of the time. */
        double dt = -1;
        for (int w = 0; w < workers; w++) {
            int64_t g = running[w];
            if (g >= 0 && (dt < 0 || s.work[g] / s.crew[g] < dt)) dt = s.work[g] / s.crew[g];
        }
        if (dt < 0) break; /* nothing runs, nothing is ready: not a plan */
        for (int w = 0; w < workers; w++)
            if (running[w] >= 0) s.work[running[w]] -= dt; /* one worker's share each */
        for (int w = 0; w < workers; w++) {
            int64_t g = running[w];
            if (g < 0 || s.work[g] > 1e-9 * group_cost(pl, g)) continue;
            for (int v = 0; v < workers; v++)
                if (running[v] == g) running[v] = -1;
            s.crew[g] = 0;
            finish(&s, g);
            done_count++;
        }
    }
    *peak_first = s.peak_first;
    *peak_cb = s.peak_cb;
done:
    free(s.work);
    free(s.crew);
    free(s.pending);
    free(s.left);
    free(s.rptr);
    free(s.rlist);
    free(s.ready.g);
    free(running);
}
