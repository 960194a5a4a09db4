/* order_graph.c — what the graph orderings share: the full symmetric
 * adjacency of a lower CSC pattern in 32-bit indices (METIS's and Scotch's
 * index width in Debian), and the thread count an ordering may use.
 * Fails with SYLVA_ERR_ORDERING (graph too large) or SYLVA_ERR_NO_MEMORY.
 */
#include <limits.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core.h"
#include "order_internal.h"

int sylva__adjacency32(int64_t n, const int64_t *colptr, const int64_t *rowind, const char *who,
                       int32_t **xadj_out, int32_t **adj_out)
{
    *xadj_out = NULL;
    *adj_out = NULL;
    int64_t offdiag = 0;
    for (int64_t j = 0; j < n; j++)
        for (int64_t p = colptr[j]; p < colptr[j + 1]; p++) offdiag += rowind[p] != j;
    if (n >= INT_MAX || 2 * offdiag >= INT_MAX)
        return sylva__fail(SYLVA_ERR_ORDERING,
                           "%s ordering: graph too large for 32-bit indices (n = %lld, %lld edges); "
                           "use --ordering amd",
                           who, (long long)n, (long long)offdiag);
    int32_t *xadj = sylva__calloc((size_t)n + 1, sizeof *xadj);
    int32_t *adj = sylva__malloc((size_t)(2 * offdiag) + 1, sizeof *adj);
    int32_t *next = sylva__malloc((size_t)n + 1, sizeof *next);
    if (!xadj || !adj || !next) {
        free(xadj);
        free(adj);
        free(next);
        return SYLVA_ERR_NO_MEMORY;
    }
    for (int64_t j = 0; j < n; j++)
        for (int64_t p = colptr[j]; p < colptr[j + 1]; p++) {
            int64_t i = rowind[p];
            if (i == j) continue;
            xadj[i + 1]++;
            xadj[j + 1]++;
        }
    for (int64_t j = 0; j < n; j++) xadj[j + 1] += xadj[j];
    memcpy(next, xadj, (size_t)n * sizeof *next);
    /* Column by column: row j's list receives its upper neighbours i < j in
     * increasing order first (from earlier columns), then its lower ones in
     * rowind order, so every list comes out sorted. */
    for (int64_t j = 0; j < n; j++)
        for (int64_t p = colptr[j]; p < colptr[j + 1]; p++) {
            int64_t i = rowind[p];
            if (i == j) continue;
            adj[next[i]++] = (int32_t)j;
            adj[next[j]++] = (int32_t)i;
        }
    free(next);
    *xadj_out = xadj;
    *adj_out = adj;
    return SYLVA_OK;
}

int sylva__order_threads(int requested)
{
    if (requested > 0) return requested;
    cpu_set_t set;
    if (!sched_getaffinity(0, sizeof set, &set) && CPU_COUNT(&set) > 0) return CPU_COUNT(&set);
    long c = sysconf(_SC_NPROCESSORS_ONLN);
    return c > 0 ? (int)c : 1;
}
