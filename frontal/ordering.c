/* ordering.c — fill-reducing orderings: METIS nested dissection
 * (METIS_NodeND), AMD (SuiteSparse amd_l_order), natural, or a user
 * permutation (validated); Scotch, the parallel nested dissection and the
 * automatic choice are dispatched to order_*.c. Output perm[new] = old.
 * METIS takes 32-bit indices here (Debian's IDXTYPEWIDTH 32): larger graphs
 * are refused with a message suggesting AMD. Fails with SYLVA_ERR_ORDERING /
 * _ARGUMENT / _NO_MEMORY and a message.
 */
#include <amd.h>
#include <limits.h>
#include <metis.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "frontal.h"
#include "order_internal.h"

/* Adjacency of the full symmetric graph (both triangles, no diagonal). */
static int order_metis(const sylva_matrix *A, int64_t *perm)
{
    int64_t n = A->n;
    int64_t offdiag = 0;
    for (int64_t j = 0; j < n; j++)
        for (int64_t p = A->colptr[j]; p < A->colptr[j + 1]; p++) offdiag += A->rowind[p] != j;
    if (n >= INT_MAX || 2 * offdiag >= INT_MAX)
        return sylva__fail(SYLVA_ERR_ORDERING,
                           "METIS ordering: graph too large for 32-bit METIS (n = %lld, "
                           "%lld edges); use --ordering amd",
                           (long long)n, (long long)offdiag);
    idx_t nv = (idx_t)n;
    idx_t *xadj = sylva__calloc((size_t)n + 1, sizeof *xadj);
    idx_t *adj = sylva__malloc((size_t)(2 * offdiag) + 1, sizeof *adj);
    idx_t *mperm = sylva__malloc((size_t)n + 1, sizeof *mperm);
    idx_t *miperm = sylva__malloc((size_t)n + 1, sizeof *miperm);
    int status = SYLVA_OK;
    if (!xadj || !adj || !mperm || !miperm) {
        status = SYLVA_ERR_NO_MEMORY;
        goto done;
    }
    for (int64_t j = 0; j < n; j++)
        for (int64_t p = A->colptr[j]; p < A->colptr[j + 1]; p++) {
            int64_t i = A->rowind[p];
            if (i == j) continue;
            xadj[i + 1]++;
            xadj[j + 1]++;
        }
    for (int64_t j = 0; j < n; j++) xadj[j + 1] += xadj[j];
    idx_t *next = mperm; /* reuse as insertion cursor */
    memcpy(next, xadj, (size_t)n * sizeof *next);
    for (int64_t j = 0; j < n; j++)
        for (int64_t p = A->colptr[j]; p < A->colptr[j + 1]; p++) {
            int64_t i = A->rowind[p];
            if (i == j) continue;
            adj[next[i]++] = (idx_t)j;
            adj[next[j]++] = (idx_t)i;
        }
    idx_t options[METIS_NOPTIONS];
    METIS_SetDefaultOptions(options);
    options[METIS_OPTION_NUMBERING] = 0;
    /* METIS_NodeND's perm satisfies A'[i] = A[perm[i]]: new → old, as ours. */
    sylva__metis_lock(); /* reproducible beside concurrent analyses (metis_threads.c) */
    int rc = METIS_NodeND(&nv, xadj, adj, NULL, options, mperm, miperm);
    sylva__metis_unlock();
    if (rc != METIS_OK) {
        status = sylva__fail(SYLVA_ERR_ORDERING, "METIS_NodeND failed (code %d)", rc);
        goto done;
    }
    for (int64_t i = 0; i < n; i++) perm[i] = mperm[i];
done:
    free(xadj);
    free(adj);
    free(mperm);
    free(miperm);
    return status;
}

static int order_amd(const sylva_matrix *A, int64_t *perm)
{
    double control[AMD_CONTROL], info[AMD_INFO];
    amd_l_defaults(control);
    /* amd_l_order reads only the pattern and forms A + Aᵀ itself. */
    SuiteSparse_long rc = amd_l_order(A->n, (const SuiteSparse_long *)A->colptr,
                                      (const SuiteSparse_long *)A->rowind,
                                      (SuiteSparse_long *)perm, control, info);
    if (rc != AMD_OK && rc != AMD_OK_BUT_JUMBLED)
        return sylva__fail(rc == AMD_OUT_OF_MEMORY ? SYLVA_ERR_NO_MEMORY : SYLVA_ERR_ORDERING,
                           "AMD ordering failed (code %ld)", (long)rc);
    return SYLVA_OK;
}

static int order_user(int64_t n, const int64_t *user, int64_t *perm)
{
    if (!user) return sylva__fail(SYLVA_ERR_ARGUMENT, "user ordering requested but no permutation given");
    char *seen = sylva__calloc((size_t)n, 1);
    if (!seen) return SYLVA_ERR_NO_MEMORY;
    for (int64_t i = 0; i < n; i++) {
        int64_t p = user[i];
        if (p < 0 || p >= n || seen[p]) {
            free(seen);
            return sylva__fail(SYLVA_ERR_ARGUMENT,
                               "user permutation is not a permutation of 0..%lld: entry %lld is %lld",
                               (long long)(n - 1), (long long)i, (long long)p);
        }
        seen[p] = 1;
        perm[i] = p;
    }
    free(seen);
    return SYLVA_OK;
}

int sylva__order_resolved(int64_t n, const sylva_options *opts)
{
    if (opts->ordering != SYLVA_ORDERING_AUTO) return opts->ordering;
    return sylva__order_auto(n, sylva__order_threads(opts->ncpus));
}

int sylva__order(const sylva_matrix *A, const sylva_options *opts, int64_t *perm)
{
    int64_t n = A->n;
    switch (opts->ordering) {
    case SYLVA_ORDERING_METIS:
        /* METIS cannot order an edgeless graph usefully; natural is optimal. */
        if (A->nnz > n) return order_metis(A, perm);
        /* fall through */
    case SYLVA_ORDERING_NATURAL:
        for (int64_t i = 0; i < n; i++) perm[i] = i;
        return SYLVA_OK;
    case SYLVA_ORDERING_AMD: return order_amd(A, perm);
    case SYLVA_ORDERING_USER: return order_user(n, opts->user_perm, perm);
    case SYLVA_ORDERING_SCOTCH:
        return sylva__order_scotch(n, A->colptr, A->rowind, sylva__order_threads(opts->ncpus), perm);
    case SYLVA_ORDERING_ND_PARALLEL:
        return sylva__order_nd_parallel(n, A->colptr, A->rowind, sylva__order_threads(opts->ncpus), perm);
    case SYLVA_ORDERING_AUTO: {
        sylva_options chosen = *opts;
        chosen.ordering = sylva__order_auto(n, sylva__order_threads(opts->ncpus));
        return sylva__order(A, &chosen, perm);
    }
    }
    return sylva__fail(SYLVA_ERR_ARGUMENT, "unknown ordering %d", (int)opts->ordering);
}
