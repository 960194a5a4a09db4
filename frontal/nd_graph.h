/* nd_graph.h — graphs as the parallel nested dissection handles them: a
 * subgraph in local numbering (32-bit CSR, as METIS's idx_t), optional
 * vertex weights, and each local vertex's id in the dissected graph. Owned
 * arrays; freed by sylva__nd_graph_free. Operations: compression of
 * vertices with identical closed neighbourhoods, connected components, and
 * splitting a graph by a label per vertex (all in nd_graph.c).
 */
#ifndef SYLVA_ND_GRAPH_H
#define SYLVA_ND_GRAPH_H

#include <stdint.h>

typedef struct sylva__nd_graph {
    int32_t nv;
    int32_t *xadj; /* nv + 1 */
    int32_t *adj;  /* xadj[nv] */
    int32_t *vwgt; /* nv, or NULL: all weights 1 */
    int32_t *gid;  /* nv: id in the dissected graph */
    int64_t weight;
} sylva__nd_graph;

void sylva__nd_graph_free(sylva__nd_graph *g);

/* Merge vertices whose closed neighbourhoods are equal (METIS's
 * compression, done once on the whole graph: 3 unknowns per node of an
 * elasticity mesh become one weighted vertex). Takes ownership of xadj and
 * adj. When fewer than `min_gain` of the vertices would go, g gets the input
 * graph itself and *gptr = *gmem = NULL; otherwise g is the compressed graph
 * (vwgt = group sizes) and group c holds gmem[gptr[c] .. gptr[c+1]),
 * increasing. g->gid is the identity either way. */
int sylva__nd_compress(int32_t n, int32_t *xadj, int32_t *adj, double min_gain, sylva__nd_graph *g,
                       int32_t **gptr, int32_t **gmem);

/* Connected components: comp[v] in 0 .. count − 1, numbered by their
 * smallest vertex. queue is nv scratch. Returns the count. */
int32_t sylva__nd_components(const sylva__nd_graph *g, int32_t *comp, int32_t *queue);

/* Split g by label: part[v] in 0 .. nparts − 1, or −1 for vertices that go
 * to no part (a separator). out[l] gets the vertices labelled l in
 * increasing order and the edges between them; ids and weights follow. */
int sylva__nd_split(const sylva__nd_graph *g, const int32_t *part, int32_t nparts, sylva__nd_graph *out);

#endif
