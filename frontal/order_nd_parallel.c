/* order_nd_parallel.c — nested dissection with the independent parts
 * ordered concurrently. The graph is compressed once (indistinguishable
 * vertices, as METIS_NodeND does), then dissected from a task pool, never
 * by recursion: a part heavier than the leaf weight is split into its
 * connected components or, when connected, by a vertex separator
 * (METIS_ComputeVertexSeparator) numbered after both halves; a leaf is
 * ordered by METIS_NodeND. Each task's place in the order is fixed when it
 * is made, so the permutation does not depend on the thread count or on
 * which thread ran what. Fails with SYLVA_ERR_ORDERING (METIS error, graph
 * too large) or SYLVA_ERR_NO_MEMORY, and the first failing task's message.
 */
#include <metis.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "nd_graph.h"
#include "order_internal.h"
#include "threads.h"

_Static_assert(sizeof(idx_t) == sizeof(int32_t), "sylva expects METIS built with 32-bit idx_t");

/* The top levels stop at parts of about 1/ND_LEAVES of the graph (enough
 * leaves for 16 threads to stay busy), never below ND_LEAF_MIN vertices
 * (smaller graphs go to METIS_NodeND whole). Compression is applied when it
 * removes at least COMPRESS_MIN_GAIN of the vertices (METIS's threshold). */
enum { ND_LEAVES = 128, ND_LEAF_MIN = 8192 };
#define COMPRESS_MIN_GAIN 0.15

typedef struct nd_task {
    sylva__nd_graph g;
    int64_t lo; /* first position of this part in the (compressed) order */
} nd_task;

typedef struct nd_pool {
    pthread_mutex_t lock;
    pthread_cond_t wake;
    nd_task *tasks;
    int64_t ntasks, cap;
    int active;
    int status;
    char message[512];
    int64_t leaf_weight;
    int32_t *order; /* position → vertex of the dissected graph */
} nd_pool;

static int push(nd_pool *P, nd_task *t)
{
    pthread_mutex_lock(&P->lock);
    if (P->ntasks == P->cap) {
        int64_t cap = P->cap ? 2 * P->cap : 64;
        nd_task *nt = sylva__realloc(P->tasks, (size_t)cap, sizeof *nt);
        if (!nt) {
            pthread_mutex_unlock(&P->lock);
            sylva__nd_graph_free(&t->g);
            return sylva__fail(SYLVA_ERR_NO_MEMORY, "parallel nested dissection: out of memory");
        }
        P->tasks = nt;
        P->cap = cap;
    }
    P->tasks[P->ntasks++] = *t;
    pthread_cond_signal(&P->wake);
    pthread_mutex_unlock(&P->lock);
    return SYLVA_OK;
}

static void default_options(idx_t *options)
{
    METIS_SetDefaultOptions(options);
    options[METIS_OPTION_NUMBERING] = 0;
}

static int order_leaf(nd_pool *P, const nd_task *t)
{
    const sylva__nd_graph *g = &t->g;
    if (g->xadj[g->nv] == 0) { /* no edges: any order is fill-free */
        for (int32_t i = 0; i < g->nv; i++) P->order[t->lo + i] = g->gid[i];
        return SYLVA_OK;
    }
    idx_t nv = g->nv, options[METIS_NOPTIONS];
    idx_t *perm = sylva__malloc((size_t)nv, sizeof *perm), *iperm = sylva__malloc((size_t)nv, sizeof *iperm);
    if (!perm || !iperm) {
        free(perm);
        free(iperm);
        return SYLVA_ERR_NO_MEMORY;
    }
    default_options(options);
    sylva__metis_lock();
    int rc = METIS_NodeND(&nv, g->xadj, g->adj, g->vwgt, options, perm, iperm);
    sylva__metis_unlock();
    if (rc == METIS_OK)
        for (int32_t i = 0; i < nv; i++) P->order[t->lo + i] = g->gid[perm[i]];
    free(perm);
    free(iperm);
    return rc == METIS_OK ? SYLVA_OK
                          : sylva__fail(SYLVA_ERR_ORDERING, "METIS_NodeND failed on a part of %d vertices (code %d)",
                                        (int)nv, rc);
}

/* Split t by `part` into nparts children placed one after the other from
 * t->lo, in label order; vertices labelled −1 were placed by the caller. */
static int push_children(nd_pool *P, const nd_task *t, const int32_t *part, int32_t nparts)
{
    sylva__nd_graph *kids = sylva__malloc((size_t)nparts, sizeof *kids);
    if (!kids) return SYLVA_ERR_NO_MEMORY;
    int status = sylva__nd_split(&t->g, part, nparts, kids);
    int64_t lo = t->lo;
    int32_t l = 0;
    for (; !status && l < nparts; l++) {
        nd_task c = {kids[l], lo};
        lo += kids[l].nv;
        status = push(P, &c);
    }
    for (; l < nparts; l++) sylva__nd_graph_free(&kids[l]);
    free(kids);
    return status;
}

/* Components in increasing order of their smallest vertex; light ones are
 * gathered (in that order) into groups of at most a leaf's weight, so every
 * group is a leaf or a single connected component: each child is smaller
 * than its parent. */
static int split_components(nd_pool *P, const nd_task *t, int32_t *comp, int32_t ncomp, int32_t *scratch)
{
    const sylva__nd_graph *g = &t->g;
    int64_t *w = sylva__calloc((size_t)ncomp, sizeof *w);
    if (!w) return SYLVA_ERR_NO_MEMORY;
    for (int32_t v = 0; v < g->nv; v++) w[comp[v]] += g->vwgt ? g->vwgt[v] : 1;
    int32_t *group = scratch, ngroups = 0, open = -1;
    int64_t acc = 0;
    for (int32_t c = 0; c < ncomp; c++) {
        if (w[c] >= P->leaf_weight) {
            group[c] = ngroups++;
            continue;
        }
        if (open < 0 || acc + w[c] > P->leaf_weight) {
            open = ngroups++;
            acc = 0;
        }
        group[c] = open;
        acc += w[c];
    }
    free(w);
    if (ngroups < 2) return order_leaf(P, t); /* cannot happen above a leaf's weight; never loop */
    for (int32_t v = 0; v < g->nv; v++) comp[v] = group[comp[v]];
    return push_children(P, t, comp, ngroups);
}

static int bisect(nd_pool *P, const nd_task *t, int32_t *part)
{
    const sylva__nd_graph *g = &t->g;
    idx_t nv = g->nv, sepsize = 0, options[METIS_NOPTIONS];
    default_options(options);
    sylva__metis_lock();
    int rc = METIS_ComputeVertexSeparator(&nv, g->xadj, g->adj, g->vwgt, options, &sepsize, part);
    sylva__metis_unlock();
    if (rc != METIS_OK)
        return sylva__fail(SYLVA_ERR_ORDERING, "METIS_ComputeVertexSeparator failed on %d vertices (code %d)",
                           (int)nv, rc);
    int32_t n0 = 0, n1 = 0;
    for (int32_t v = 0; v < nv; v++) {
        n0 += part[v] == 0;
        n1 += part[v] == 1;
    }
    if (n0 == 0 || n1 == 0) return order_leaf(P, t); /* no progress: let NodeND finish it */
    int64_t pos = t->lo + n0 + n1;
    for (int32_t v = 0; v < nv; v++)
        if (part[v] == 2) {
            P->order[pos++] = g->gid[v];
            part[v] = -1;
        }
    return push_children(P, t, part, 2);
}

static int run_task(nd_pool *P, nd_task *t)
{
    const sylva__nd_graph *g = &t->g;
    if (g->nv == 0) return SYLVA_OK;
    if (g->weight <= P->leaf_weight || g->xadj[g->nv] == 0) return order_leaf(P, t);
    int32_t *a = sylva__malloc((size_t)g->nv, sizeof *a), *b = sylva__malloc((size_t)g->nv, sizeof *b);
    int status = SYLVA_ERR_NO_MEMORY;
    if (a && b) {
        int32_t ncomp = sylva__nd_components(g, a, b);
        status = ncomp > 1 ? split_components(P, t, a, ncomp, b) : bisect(P, t, a);
    }
    free(a);
    free(b);
    return status;
}

static void *worker(void *arg)
{
    nd_pool *P = arg;
    pthread_mutex_lock(&P->lock);
    for (;;) {
        while (P->ntasks == 0 && P->active > 0 && !P->status) pthread_cond_wait(&P->wake, &P->lock);
        if (P->ntasks == 0 || P->status) break;
        /* Heaviest first: the long poles start early. */
        int64_t best = 0;
        for (int64_t i = 1; i < P->ntasks; i++)
            if (P->tasks[i].g.weight > P->tasks[best].g.weight) best = i;
        nd_task t = P->tasks[best];
        P->tasks[best] = P->tasks[--P->ntasks];
        P->active++;
        pthread_mutex_unlock(&P->lock);
        int status = run_task(P, &t);
        sylva__nd_graph_free(&t.g);
        pthread_mutex_lock(&P->lock);
        P->active--;
        if (status && !P->status) {
            P->status = status;
            snprintf(P->message, sizeof P->message, "%s", sylva__last_error());
        }
        if (P->status || (P->ntasks == 0 && P->active == 0)) pthread_cond_broadcast(&P->wake);
    }
    pthread_cond_broadcast(&P->wake);
    pthread_mutex_unlock(&P->lock);
    return NULL;
}

/* Run the pool on nthreads threads (this one included). */
static int run_pool(nd_pool *P, int nthreads)
{
    sylva__metis_parallel_begin();
    sylva__threads_run(nthreads, worker, P, 0);
    sylva__metis_parallel_end();
    for (int64_t i = 0; i < P->ntasks; i++) sylva__nd_graph_free(&P->tasks[i].g); /* left by a failure */
    if (P->status) return sylva__fail(P->status, "%s", P->message);
    return SYLVA_OK;
}

/* Expand the compressed order (each group's members together, increasing)
 * and check that the result is a permutation. */
static int expand(int64_t n, int32_t cn, const int32_t *order, const int32_t *gptr, const int32_t *gmem,
                  int64_t *perm)
{
    int64_t k = 0;
    for (int32_t i = 0; i < cn; i++) {
        int32_t c = order[i];
        if (!gptr) perm[k++] = c;
        else
            for (int32_t q = gptr[c]; q < gptr[c + 1]; q++) perm[k++] = gmem[q];
    }
    char *seen = sylva__calloc((size_t)n + 1, 1);
    if (!seen) return SYLVA_ERR_NO_MEMORY;
    int ok = k == n;
    for (int64_t i = 0; ok && i < n; i++) {
        ok = perm[i] >= 0 && perm[i] < n && !seen[perm[i]];
        if (ok) seen[perm[i]] = 1;
    }
    free(seen);
    return ok ? SYLVA_OK : sylva__fail(SYLVA_ERR_ORDERING, "parallel nested dissection lost a vertex (internal error)");
}

int sylva__order_nd_parallel(int64_t n, const int64_t *colptr, const int64_t *rowind, int nthreads,
                             int64_t *perm)
{
    if (n <= 0) return SYLVA_OK;
    int32_t *xadj, *adj, *gptr = NULL, *gmem = NULL;
    int status = sylva__adjacency32(n, colptr, rowind, "parallel nested dissection", &xadj, &adj);
    if (status) return status;
    /* A graph that is one leaf goes to METIS_NodeND as it is (NodeND
     * compresses it itself): the same permutation as the metis ordering. */
    double min_gain = n <= ND_LEAF_MIN ? 1.0 : COMPRESS_MIN_GAIN;
    nd_task root = {{0}, 0};
    if ((status = sylva__nd_compress((int32_t)n, xadj, adj, min_gain, &root.g, &gptr, &gmem)))
        return status;
    int32_t cn = root.g.nv;
    nd_pool P;
    memset(&P, 0, sizeof P);
    P.leaf_weight = n / ND_LEAVES > ND_LEAF_MIN ? n / ND_LEAVES : ND_LEAF_MIN;
    P.order = sylva__malloc((size_t)cn + 1, sizeof *P.order);
    if (!P.order) {
        sylva__nd_graph_free(&root.g);
        free(gptr);
        free(gmem);
        return SYLVA_ERR_NO_MEMORY;
    }
    pthread_mutex_init(&P.lock, NULL);
    pthread_cond_init(&P.wake, NULL);
    status = push(&P, &root);
    if (!status) status = run_pool(&P, nthreads < 1 ? 1 : nthreads);
    if (!status) status = expand(n, cn, P.order, gptr, gmem, perm);
    pthread_mutex_destroy(&P.lock);
    pthread_cond_destroy(&P.wake);
    free(P.tasks);
    free(P.order);
    free(gptr);
    free(gmem);
    return status;
}
