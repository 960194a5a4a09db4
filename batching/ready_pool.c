/* ready_pool.c — the pool the dynamic `ready` policy cuts its batches from
 * (contract in batching.h): the fronts whose children are all done, small
 * ones in bins by rows ([2^i, 2^(i+1)), so a batch holds fronts within a
 * factor of two in size, as `sized` does statically), large ones in a
 * queue of their own (each is a batch alone). Oldest first within a bin.
 * The runtime calls it from one thread (runtime/factorize_ready.c); so does
 * the static simulation (policy_ready.c). Fails only on memory.
 */
#include <math.h>
#include <stdlib.h>

#include "batching.h"

enum { BINS = 64 };

struct sylva__ready_pool {
    const sylva__tree *t;
    int64_t small_rows;
    double target;         /* batch_flops; +inf when 0 (no cut by flops) */
    int64_t *pending;      /* children not yet done, per front */
    int64_t *next;         /* FIFO links of the bins and the large queue */
    int64_t head[BINS + 1], tail[BINS + 1]; /* bin BINS: the large fronts */
    double flops[BINS + 1];
    int64_t count[BINS + 1];
    int64_t size;
};

static int bin_of(const sylva__ready_pool *rp, int64_t f)
{
    int64_t m = rp->t->fronts[f].m;
    if (m > rp->small_rows) return BINS;
    int b = 0;
    while (b < BINS - 1 && (m >> (b + 1)) > 0) b++;
    return b;
}

static void push(sylva__ready_pool *rp, int64_t f)
{
    int b = bin_of(rp, f);
    rp->next[f] = -1;
    if (rp->tail[b] >= 0) rp->next[rp->tail[b]] = f;
    else rp->head[b] = f;
    rp->tail[b] = f;
    rp->flops[b] += rp->t->fronts[f].flops;
    rp->count[b]++;
    rp->size++;
}

static int64_t pop(sylva__ready_pool *rp, int b)
{
    int64_t f = rp->head[b];
    rp->head[b] = rp->next[f];
    if (rp->head[b] < 0) rp->tail[b] = -1;
    rp->count[b]--;
    rp->flops[b] = rp->count[b] ? rp->flops[b] - rp->t->fronts[f].flops : 0;
    rp->size--;
    return f;
}

int sylva__ready_pool_create(const sylva__tree *t, const sylva__policy_params *p, sylva__ready_pool **out)
{
    *out = NULL;
    sylva__ready_pool *rp = sylva__calloc(1, sizeof *rp);
    if (!rp) return SYLVA_ERR_NO_MEMORY;
    rp->t = t;
    rp->small_rows = p->small_front_rows;
    rp->target = p->batch_flops > 0 ? p->batch_flops : INFINITY;
    rp->pending = sylva__malloc((size_t)t->nfronts + 1, sizeof *rp->pending);
    rp->next = sylva__malloc((size_t)t->nfronts + 1, sizeof *rp->next);
    if (!rp->pending || !rp->next) {
        sylva__ready_pool_free(rp);
        return SYLVA_ERR_NO_MEMORY;
    }
    for (int b = 0; b <= BINS; b++) rp->head[b] = rp->tail[b] = -1;
    for (int64_t f = 0; f < t->nfronts; f++) {
        rp->pending[f] = t->child_ptr[f + 1] - t->child_ptr[f];
        if (rp->pending[f] == 0) push(rp, f);
    }
    *out = rp;
    return SYLVA_OK;
}

void sylva__ready_pool_free(sylva__ready_pool *rp)
{
    if (!rp) return;
    free(rp->pending);
    free(rp->next);
    free(rp);
}

void sylva__ready_pool_done(sylva__ready_pool *rp, const int64_t *fronts, int64_t n)
{
    for (int64_t i = 0; i < n; i++) {
        int64_t p = rp->t->fronts[fronts[i]].parent;
        if (p >= 0 && --rp->pending[p] == 0) push(rp, p);
    }
}

/* Fronts of bin b, oldest first, while they fit in the target (at least one). */
static int64_t take(sylva__ready_pool *rp, int b, int64_t *out)
{
    int64_t n = 0;
    double flops = 0;
    while (rp->head[b] >= 0) {
        double f = rp->t->fronts[rp->head[b]].flops;
        if (n > 0 && flops + f > rp->target) break;
        flops += f;
        out[n++] = pop(rp, b);
    }
    return n;
}

int64_t sylva__ready_pool_cut(sylva__ready_pool *rp, int idle, int64_t *out)
{
    if (rp->head[BINS] >= 0) {
        out[0] = pop(rp, BINS);
        return 1;
    }
    int best = -1;
    for (int b = 0; b < BINS; b++)
        if (rp->count[b] && (best < 0 || rp->flops[b] > rp->flops[best])) best = b;
    if (best < 0 || (!idle && rp->flops[best] < rp->target)) return 0;
    return take(rp, best, out);
}

int64_t sylva__ready_pool_size(const sylva__ready_pool *rp) { return rp->size; }
