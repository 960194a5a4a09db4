/* nd_graph.c — the graph operations of the parallel nested dissection:
 * compression of indistinguishable vertices, connected components (an
 * iterative breadth-first search: a chain of 10⁶ vertices is no deeper than
 * an edge), and splitting by labels. Each is linear in the graph size (the
 * compression compares at most COMPRESS_CANDIDATES lists per vertex, so a
 * pathological hash bucket cannot make it quadratic). Fail only with
 * SYLVA_ERR_NO_MEMORY.
 */
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "nd_graph.h"

/* Same-hash vertices compared against each new group's representative. */
enum { COMPRESS_CANDIDATES = 64 };

void sylva__nd_graph_free(sylva__nd_graph *g)
{
    if (!g) return;
    free(g->xadj);
    free(g->adj);
    free(g->vwgt);
    free(g->gid);
    memset(g, 0, sizeof *g);
}

static int32_t *identity(int32_t n)
{
    int32_t *id = sylva__malloc((size_t)n + 1, sizeof *id);
    if (id)
        for (int32_t i = 0; i < n; i++) id[i] = i;
    return id;
}

/* group[v] for every vertex: equal closed neighbourhoods, same group. Hash
 * = v + Σ neighbours, bucketed by hash mod n (a stable counting sort). */
static int32_t find_groups(int32_t n, const int32_t *xadj, const int32_t *adj, int32_t *group)
{
    int64_t *key = sylva__malloc((size_t)n + 1, sizeof *key);
    int32_t *bptr = sylva__calloc((size_t)n + 1, sizeof *bptr);
    int32_t *order = sylva__malloc((size_t)n + 1, sizeof *order);
    int32_t *mark = sylva__malloc((size_t)n + 1, sizeof *mark);
    int32_t ngroups = -1;
    if (!key || !bptr || !order || !mark) goto done;
    for (int32_t v = 0; v < n; v++) {
        int64_t k = v;
        for (int32_t p = xadj[v]; p < xadj[v + 1]; p++) k += adj[p];
        key[v] = k;
        bptr[k % n]++;
        group[v] = -1;
        mark[v] = -1;
    }
    for (int32_t b = 0, s = 0; b < n; b++) {
        int32_t c = bptr[b];
        bptr[b] = s;
        s += c;
    }
    for (int32_t v = 0; v < n; v++) order[bptr[key[v] % n]++] = v;
    ngroups = 0;
    for (int32_t s = 0; s < n; s++) {
        int32_t i = order[s];
        if (group[i] >= 0) continue;
        group[i] = ngroups;
        int32_t deg = xadj[i + 1] - xadj[i];
        mark[i] = i;
        for (int32_t p = xadj[i]; p < xadj[i + 1]; p++) mark[adj[p]] = i;
        int32_t bucket = (int32_t)(key[i] % n);
        for (int32_t t = s + 1, tried = 0; t < n && tried < COMPRESS_CANDIDATES; t++) {
            int32_t j = order[t];
            if (key[j] % n != bucket) break;
            if (group[j] >= 0 || key[j] != key[i] || xadj[j + 1] - xadj[j] != deg) continue;
            tried++;
            int same = mark[j] == i;
            for (int32_t p = xadj[j]; same && p < xadj[j + 1]; p++) same = mark[adj[p]] == i;
            if (same) group[j] = ngroups;
        }
        ngroups++;
    }
done:
    free(key);
    free(bptr);
    free(order);
    free(mark);
    return ngroups;
}

int sylva__nd_compress(int32_t n, int32_t *xadj, int32_t *adj, double min_gain, sylva__nd_graph *g,
                       int32_t **gptr_out, int32_t **gmem_out)
{
    memset(g, 0, sizeof *g);
    *gptr_out = *gmem_out = NULL;
    int32_t *group = sylva__malloc((size_t)n + 1, sizeof *group);
    int32_t cn = group ? find_groups(n, xadj, adj, group) : -1;
    if (cn < 0) {
        free(group);
        free(xadj);
        free(adj);
        return SYLVA_ERR_NO_MEMORY;
    }
    if ((double)cn > (1.0 - min_gain) * (double)n) {
        free(group);
        g->nv = n;
        g->xadj = xadj;
        g->adj = adj;
        g->weight = n;
        g->gid = identity(n);
        if (g->gid) return SYLVA_OK;
        sylva__nd_graph_free(g); /* owned: freed on failure too */
        return SYLVA_ERR_NO_MEMORY;
    }
    int32_t *gptr = sylva__calloc((size_t)cn + 1, sizeof *gptr);
    int32_t *gmem = sylva__malloc((size_t)n + 1, sizeof *gmem);
    int32_t *mark = sylva__malloc((size_t)cn + 1, sizeof *mark);
    g->xadj = sylva__malloc((size_t)cn + 1, sizeof *g->xadj);
    g->adj = sylva__malloc((size_t)xadj[n] + 1, sizeof *g->adj);
    g->vwgt = sylva__malloc((size_t)cn + 1, sizeof *g->vwgt);
    g->gid = identity(cn);
    int status = SYLVA_OK;
    if (!gptr || !gmem || !mark || !g->xadj || !g->adj || !g->vwgt || !g->gid) {
        status = SYLVA_ERR_NO_MEMORY;
        goto done;
    }
    for (int32_t v = 0; v < n; v++) gptr[group[v] + 1]++;
    for (int32_t c = 0; c < cn; c++) {
        g->vwgt[c] = gptr[c + 1];
        gptr[c + 1] += gptr[c];
    }
    memcpy(mark, gptr, (size_t)cn * sizeof *mark); /* mark: fill cursor, for now */
    for (int32_t v = 0; v < n; v++) gmem[mark[group[v]]++] = v;
    /* Adjacency of group c: the groups of its first member's neighbours,
     * without c itself and without repeats. */
    int32_t e = 0;
    for (int32_t c = 0; c < cn; c++) mark[c] = -1;
    for (int32_t c = 0; c < cn; c++) {
        g->xadj[c] = e;
        int32_t r = gmem[gptr[c]];
        mark[c] = c;
        for (int32_t p = xadj[r]; p < xadj[r + 1]; p++) {
            int32_t d = group[adj[p]];
            if (mark[d] != c) {
                mark[d] = c;
                g->adj[e++] = d;
            }
        }
    }
    g->xadj[cn] = e;
    g->nv = cn;
    g->weight = n;
    *gptr_out = gptr;
    *gmem_out = gmem;
    gptr = gmem = NULL;
done:
    if (status) sylva__nd_graph_free(g);
    free(gptr);
    free(gmem);
    free(mark);
    free(group);
    free(xadj);
    free(adj);
    return status;
}

int32_t sylva__nd_components(const sylva__nd_graph *g, int32_t *comp, int32_t *queue)
{
    int32_t ncomp = 0;
    for (int32_t v = 0; v < g->nv; v++) comp[v] = -1;
    for (int32_t s = 0; s < g->nv; s++) {
        if (comp[s] >= 0) continue;
        int32_t head = 0, tail = 0;
        queue[tail++] = s;
        comp[s] = ncomp;
        while (head < tail) {
            int32_t v = queue[head++];
            for (int32_t p = g->xadj[v]; p < g->xadj[v + 1]; p++)
                if (comp[g->adj[p]] < 0) {
                    comp[g->adj[p]] = ncomp;
                    queue[tail++] = g->adj[p];
                }
        }
        ncomp++;
    }
    return ncomp;
}

int sylva__nd_split(const sylva__nd_graph *g, const int32_t *part, int32_t nparts, sylva__nd_graph *out)
{
    int32_t *local = sylva__malloc((size_t)g->nv + 1, sizeof *local);
    int64_t *ne = sylva__calloc((size_t)nparts, sizeof *ne);
    int status = SYLVA_OK;
    memset(out, 0, (size_t)nparts * sizeof *out);
    if (!local || !ne) {
        status = SYLVA_ERR_NO_MEMORY;
        goto done;
    }
    for (int32_t v = 0; v < g->nv; v++) {
        int32_t l = part[v];
        if (l < 0) continue;
        local[v] = out[l].nv++;
        out[l].weight += g->vwgt ? g->vwgt[v] : 1;
        for (int32_t p = g->xadj[v]; p < g->xadj[v + 1]; p++) ne[l] += part[g->adj[p]] == l;
    }
    for (int32_t l = 0; l < nparts; l++) {
        sylva__nd_graph *o = &out[l];
        o->xadj = sylva__malloc((size_t)o->nv + 1, sizeof *o->xadj);
        o->adj = sylva__malloc((size_t)ne[l] + 1, sizeof *o->adj);
        o->gid = sylva__malloc((size_t)o->nv + 1, sizeof *o->gid);
        o->vwgt = g->vwgt ? sylva__malloc((size_t)o->nv + 1, sizeof *o->vwgt) : NULL;
        if (!o->xadj || !o->adj || !o->gid || (g->vwgt && !o->vwgt)) {
            status = SYLVA_ERR_NO_MEMORY;
            goto done;
        }
        o->xadj[0] = 0;
    }
    for (int32_t v = 0; v < g->nv; v++) {
        int32_t l = part[v];
        if (l < 0) continue;
        sylva__nd_graph *o = &out[l];
        int32_t lv = local[v], e = o->xadj[lv];
        for (int32_t p = g->xadj[v]; p < g->xadj[v + 1]; p++)
            if (part[g->adj[p]] == l) o->adj[e++] = local[g->adj[p]];
        o->xadj[lv + 1] = e;
        o->gid[lv] = g->gid[v];
        if (o->vwgt) o->vwgt[lv] = g->vwgt[v];
    }
done:
    if (status)
        for (int32_t l = 0; l < nparts; l++) sylva__nd_graph_free(&out[l]);
    free(local);
    free(ne);
    return status;
}
