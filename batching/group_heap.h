/* group_heap.h — a binary min-heap of group indices, ordered by key[g]
 * (by g itself when key is NULL), over caller storage of ngroups entries:
 * the ready set of plan_order.c (the first front in postorder first) and
 * of plan_memory.c (the first group in plan order first). */
#ifndef SYLVA_BATCHING_GROUP_HEAP_H
#define SYLVA_BATCHING_GROUP_HEAP_H

#include <stdint.h>

typedef struct sylva__group_heap {
    int64_t *g, n;
    const int64_t *key;
} sylva__group_heap;

static inline int64_t sylva__group_heap_key(const sylva__group_heap *h, int64_t g)
{
    return h->key ? h->key[g] : g;
}

static inline void sylva__group_heap_push(sylva__group_heap *h, int64_t g)
{
    int64_t i = h->n++, k = sylva__group_heap_key(h, g);
    while (i > 0) {
        int64_t p = (i - 1) / 2;
        if (sylva__group_heap_key(h, h->g[p]) <= k) break;
        h->g[i] = h->g[p];
        i = p;
    }
    h->g[i] = g;
}

static inline int64_t sylva__group_heap_pop(sylva__group_heap *h)
{
    int64_t top = h->g[0], last = h->g[--h->n], i = 0, k = sylva__group_heap_key(h, last);
    for (;;) {
        int64_t c = 2 * i + 1;
        if (c >= h->n) break;
        if (c + 1 < h->n && sylva__group_heap_key(h, h->g[c + 1]) < sylva__group_heap_key(h, h->g[c])) c++;
        if (sylva__group_heap_key(h, h->g[c]) >= k) break;
        h->g[i] = h->g[c];
        i = c;
    }
    if (h->n > 0) h->g[i] = last;
    return top;
}

#endif
