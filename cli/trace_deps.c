/* trace_deps.c — what a trace (trace.c) adds to the tasks: the run's
 * dependencies between batches, from the assembly tree (a batch waits for
 * the batches holding its fronts' children: their contribution blocks),
 * each batch's first and last task, when its inputs were done, and the
 * critical path — from the batch that ended last, back through the
 * predecessor that ended last each time (the dependency that held it up),
 * to a batch without predecessors. Fails only on memory (a status). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "trace_deps.h"

void trace_deps_free(trace_deps *d)
{
    free(d->pred_ptr);
    free(d->pred);
    free(d->first);
    free(d->last);
    free(d->ready);
    free(d->critical);
    free(d->order);
    memset(d, 0, sizeof *d);
}

typedef struct keyed {
    double start;
    int64_t batch;
} keyed;

static int by_start(const void *a, const void *b)
{
    const keyed *x = a, *y = b;
    if (x->start != y->start) return (x->start > y->start) - (x->start < y->start);
    return (x->batch > y->batch) - (x->batch < y->batch);
}

static int fail(trace_deps *d)
{
    trace_deps_free(d);
    return cli_error(SYLVA_ERR_NO_MEMORY, "out of memory for the trace's dependencies");
}

int trace_deps_build(const sylva_analysis_t *an, const sylva_factor_t *F, const sylva_task_record *t, int64_t n,
                     trace_deps *d)
{
    memset(d, 0, sizeof *d);
    int64_t nf = sylva_analysis_front_count(an), nb = 0;
    int64_t *fb = malloc((size_t)(nf + 1) * sizeof *fb), *parent = malloc((size_t)(nf + 1) * sizeof *parent);
    if (!fb || !parent) {
        free(fb);
        free(parent);
        return fail(d);
    }
    for (int64_t f = 0; f < nf; f++) {
        sylva_front_info fi;
        parent[f] = sylva_analysis_front(an, f, &fi) == SYLVA_OK ? fi.parent : -1;
        fb[f] = sylva_factor_front_batch(F, f);
        if (fb[f] >= nb) nb = fb[f] + 1;
    }
    for (int64_t i = 0; i < n; i++)
        if (t[i].batch >= nb) nb = t[i].batch + 1;
    d->nb = nb;
    d->pred_ptr = calloc((size_t)nb + 2, sizeof *d->pred_ptr);
    d->pred = malloc((size_t)(nf + 1) * sizeof *d->pred);
    d->first = malloc((size_t)(nb + 1) * sizeof *d->first);
    d->last = malloc((size_t)(nb + 1) * sizeof *d->last);
    d->ready = malloc((size_t)(nb + 1) * sizeof *d->ready);
    d->critical = calloc((size_t)nb + 1, 1);
    d->order = malloc((size_t)(nb + 1) * sizeof *d->order);
    if (!d->pred_ptr || !d->pred || !d->first || !d->last || !d->ready || !d->critical || !d->order) {
        free(fb);
        free(parent);
        return fail(d);
    }
    /* Edges child batch → parent batch, one per pair: counted, placed, then
     * each batch's list sorted and made unique. */
    for (int64_t f = 0; f < nf; f++)
        if (parent[f] >= 0 && fb[f] >= 0 && fb[parent[f]] >= 0 && fb[f] != fb[parent[f]]) d->pred_ptr[fb[parent[f]] + 2]++;
    for (int64_t b = 0; b < nb; b++) d->pred_ptr[b + 2] += d->pred_ptr[b + 1];
    for (int64_t f = 0; f < nf; f++)
        if (parent[f] >= 0 && fb[f] >= 0 && fb[parent[f]] >= 0 && fb[f] != fb[parent[f]])
            d->pred[d->pred_ptr[fb[parent[f]] + 1]++] = fb[f];
    int64_t w = 0;
    for (int64_t b = 0; b < nb; b++) {
        int64_t lo = d->pred_ptr[b], hi = d->pred_ptr[b + 1];
        d->pred_ptr[b] = w;
        for (int64_t p = lo; p < hi; p++) { /* insertion into the unique sorted run at [d->pred_ptr[b], w) */
            int64_t v = d->pred[p], q = w;
            int seen = 0;
            for (int64_t s = d->pred_ptr[b]; s < w; s++) seen |= d->pred[s] == v;
            if (seen) continue;
            while (q > d->pred_ptr[b] && d->pred[q - 1] > v) {
                d->pred[q] = d->pred[q - 1];
                q--;
            }
            d->pred[q] = v;
            w++;
        }
    }
    d->pred_ptr[nb] = w;
    d->edges = w;
    free(fb);
    free(parent);
    /* Each batch's first-starting and last-ending task. */
    for (int64_t b = 0; b < nb; b++) d->first[b] = d->last[b] = -1;
    for (int64_t i = 0; i < n; i++) {
        int64_t b = t[i].batch;
        if (b < 0 || b >= nb) continue;
        if (d->first[b] < 0 || t[i].start < t[d->first[b]].start) d->first[b] = i;
        if (d->last[b] < 0 || t[i].end > t[d->last[b]].end) d->last[b] = i;
    }
    /* Inputs done: the last end of its predecessors (−1 without any). */
    for (int64_t b = 0; b < nb; b++) {
        d->ready[b] = -1;
        for (int64_t p = d->pred_ptr[b]; p < d->pred_ptr[b + 1]; p++) {
            int64_t u = d->pred[p];
            if (d->last[u] >= 0 && t[d->last[u]].end > d->ready[b]) d->ready[b] = t[d->last[u]].end;
        }
    }
    /* The critical path, back from the batch that ended last. */
    int64_t v = -1;
    for (int64_t b = 0; b < nb; b++)
        if (d->last[b] >= 0 && (v < 0 || t[d->last[b]].end > t[d->last[v]].end)) v = b;
    double end = v >= 0 ? t[d->last[v]].end : 0, start = end;
    while (v >= 0 && !d->critical[v]) {
        d->critical[v] = 1;
        d->critical_batches++;
        d->critical_busy += t[d->last[v]].end - t[d->first[v]].start;
        start = t[d->first[v]].start;
        int64_t u = -1;
        for (int64_t p = d->pred_ptr[v]; p < d->pred_ptr[v + 1]; p++) {
            int64_t c = d->pred[p];
            if (d->last[c] >= 0 && (u < 0 || t[d->last[c]].end > t[d->last[u]].end)) u = c;
        }
        v = u;
    }
    d->critical_seconds = end - start;
    /* The batches by start. */
    keyed *k = malloc((size_t)(nb + 1) * sizeof *k);
    if (!k) return fail(d);
    for (int64_t b = 0; b < nb; b++) k[b] = (keyed){d->first[b] >= 0 ? t[d->first[b]].start : INFINITY, b};
    qsort(k, (size_t)nb, sizeof *k, by_start);
    for (int64_t b = 0; b < nb; b++) d->order[b] = k[b].batch;
    free(k);
    return SYLVA_OK;
}

double trace_task_ready(const trace_deps *d, const sylva_task_record *t, int64_t i)
{
    double r = t[i].submitted;
    int64_t b = t[i].batch;
    if (b >= 0 && b < d->nb) {
        if (d->ready[b] > r) r = d->ready[b];
        /* A batch's later tasks (tile tasks of a large front) follow its first. */
        if (d->first[b] >= 0 && d->first[b] != i && t[d->first[b]].end > r) r = t[d->first[b]].end;
    }
    return r;
}
