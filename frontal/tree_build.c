/* tree_build.c — the assembly tree from CHOLMOD's supernodal symbolic
 * analysis (cholmod_l_analyze_p with the given ordering, relaxed
 * amalgamation from the options, etree postorder). A supernode is a front:
 * its pivot columns and sorted row structure. Builds parent/children,
 * heights, flops; the extend-add relative maps and the A-assembly map are
 * built by tree_maps.c on the options' thread count.
 * Owns everything in sylva__tree; fails with a status and message.
 */
#include <stdlib.h>
#include <string.h>

#include "frontal.h"
#include "io_cholmod.h"
#include "order_internal.h"
#include "tree_maps.h"

/* What a CHOLMOD status means, for the message. */
static const char *cholmod_status_text(int status)
{
    switch (status) {
    case CHOLMOD_OUT_OF_MEMORY: return "out of memory";
    case CHOLMOD_TOO_LARGE: return "the problem is too large (integer overflow)";
    case CHOLMOD_INVALID: return "invalid input";
    case CHOLMOD_NOT_INSTALLED: return "a CHOLMOD module is not installed";
    default: return "failed";
    }
}

static int run_cholmod_analysis(const sylva_matrix *A, const int64_t *perm,
                                const sylva_options *opts, sylva__tree *t)
{
    cholmod_common cc;
    cholmod_l_start(&cc);
    cc.print = 0;
    cc.nmethods = 1;
    cc.method[0].ordering = CHOLMOD_GIVEN;
    cc.postorder = 1;
    cc.supernodal = CHOLMOD_SUPERNODAL;
    for (int i = 0; i < 3; i++) {
        cc.nrelax[i] = (size_t)opts->nrelax[i];
        cc.zrelax[i] = opts->zrelax[i];
    }
    /* A view of the lower CSC pattern: nothing is copied. */
    cholmod_sparse S;
    sylva__matrix_cholmod_view(A, &S);
    S.xtype = CHOLMOD_PATTERN;
    cholmod_factor *L = cholmod_l_analyze_p(&S, (SuiteSparse_long *)perm, NULL, 0, &cc);
    int status = SYLVA_OK;
    if (!L || cc.status < CHOLMOD_OK || !L->is_super) {
        status = sylva__fail(cc.status == CHOLMOD_OUT_OF_MEMORY ? SYLVA_ERR_NO_MEMORY
                                                                : SYLVA_ERR_RUNTIME,
                             "CHOLMOD supernodal analysis: %s (CHOLMOD status %d)",
                             cholmod_status_text(cc.status), cc.status);
        goto done;
    }
    int64_t n = A->n, ns = (int64_t)L->nsuper;
    const SuiteSparse_long *super = L->super, *pi = L->pi, *ls = L->s, *lperm = L->Perm;
    t->n = n;
    t->nfronts = ns;
    t->fronts = sylva__calloc((size_t)ns, sizeof *t->fronts);
    t->rows = sylva__malloc((size_t)pi[ns], sizeof *t->rows);
    t->perm = sylva__malloc((size_t)n, sizeof *t->perm);
    t->iperm = sylva__malloc((size_t)n, sizeof *t->iperm);
    t->col2front = sylva__malloc((size_t)n, sizeof *t->col2front);
    if (!t->fronts || !t->rows || !t->perm || !t->iperm || !t->col2front) {
        status = SYLVA_ERR_NO_MEMORY;
        goto done;
    }
    memcpy(t->rows, ls, (size_t)pi[ns] * sizeof *t->rows);
    for (int64_t i = 0; i < n; i++) {
        t->perm[i] = lperm[i];
        t->iperm[lperm[i]] = i;
    }
    for (int64_t s = 0; s < ns; s++) {
        sylva__front *f = &t->fronts[s];
        f->first_col = super[s];
        f->k = super[s + 1] - super[s];
        f->m = pi[s + 1] - pi[s];
        f->row_off = pi[s];
        for (int64_t j = super[s]; j < super[s + 1]; j++) t->col2front[j] = s;
    }
done:
    cholmod_l_free_factor(&L, &cc);
    cholmod_l_finish(&cc);
    return status;
}

/* Parent, children (CSR), heights, flops, nnz(L). */
static int link_fronts(sylva__tree *t)
{
    int64_t ns = t->nfronts;
    t->child_ptr = sylva__calloc((size_t)ns + 1, sizeof *t->child_ptr);
    t->child_list = sylva__malloc((size_t)ns + 1, sizeof *t->child_list);
    if (!t->child_ptr || !t->child_list) return SYLVA_ERR_NO_MEMORY;
    t->nnz_L = 0;
    t->flops = 0;
    t->height = 0;
    t->max_m = 0;
    for (int64_t s = 0; s < ns; s++) {
        sylva__front *f = &t->fronts[s];
        f->parent = f->m > f->k ? t->col2front[t->rows[f->row_off + f->k]] : -1;
        if (f->parent >= 0 && f->parent <= s)
            return sylva__fail(SYLVA_ERR_RUNTIME, "supernodes are not in postorder (front %lld)",
                               (long long)s);
        if (f->parent >= 0) t->child_ptr[f->parent + 1]++;
        f->flops = 0;
        for (int64_t c = 0; c < f->k; c++) f->flops += (double)(f->m - c) * (double)(f->m - c);
        t->flops += f->flops;
        t->nnz_L += f->k * f->m - f->k * (f->k - 1) / 2;
        if (f->m > t->max_m) t->max_m = f->m;
    }
    for (int64_t s = 0; s < ns; s++) t->child_ptr[s + 1] += t->child_ptr[s];
    int64_t *next = sylva__malloc((size_t)ns + 1, sizeof *next);
    if (!next) return SYLVA_ERR_NO_MEMORY;
    memcpy(next, t->child_ptr, (size_t)ns * sizeof *next);
    for (int64_t s = 0; s < ns; s++) {
        sylva__front *f = &t->fronts[s];
        f->height = 0;
        for (int64_t p = t->child_ptr[s]; p < next[s]; p++) {
            int64_t h = t->fronts[t->child_list[p]].height + 1;
            if (h > f->height) f->height = h;
        }
        if (f->parent >= 0) t->child_list[next[f->parent]++] = s;
        if (f->height + 1 > t->height) t->height = f->height + 1;
    }
    free(next);
    return SYLVA_OK;
}

int sylva__tree_build(const sylva_matrix *A, const int64_t *perm, const sylva_options *opts,
                      sylva__tree **out)
{
    *out = NULL;
    sylva__tree *t = sylva__calloc(1, sizeof *t);
    if (!t) return SYLVA_ERR_NO_MEMORY;
    double t0 = sylva__now();
    int status = run_cholmod_analysis(A, perm, opts, t);
    if (!status) status = link_fronts(t);
    double t1 = sylva__now();
    if (!status) status = sylva__tree_maps(t, A, sylva__order_threads(opts->ncpus));
    t->seconds_symbolic = t1 - t0;
    t->seconds_maps = sylva__now() - t1;
    if (status) {
        sylva__tree_free(t);
        return status;
    }
    t->nnz_A = A->nnz;
    *out = t;
    return SYLVA_OK;
}

void sylva__tree_free(sylva__tree *t)
{
    if (!t) return;
    free(t->fronts);
    free(t->rows);
    free(t->relmap);
    free(t->child_ptr);
    free(t->child_list);
    free(t->col2front);
    free(t->perm);
    free(t->iperm);
    free(t->amap_ptr);
    free(t->amap_src);
    free(t->amap_dst);
    free(t);
}

int sylva__tree_check_pattern(const sylva__tree *t, const sylva_matrix *A)
{
    if (A->n != t->n || A->nnz != t->nnz_A)
        return sylva__fail(SYLVA_ERR_PATTERN_MISMATCH,
                           "matrix is %lld x %lld with %lld entries; the analysis was for %lld x %lld "
                           "with %lld",
                           (long long)A->n, (long long)A->n, (long long)A->nnz, (long long)t->n,
                           (long long)t->n, (long long)t->nnz_A);
    /* Every entry must land where the analysis put it: same front-local offset. */
    for (int64_t s = 0; s < t->nfronts; s++) {
        const sylva__front *f = &t->fronts[s];
        for (int64_t e = t->amap_ptr[s]; e < t->amap_ptr[s + 1]; e++) {
            int64_t p = t->amap_src[e];
            int64_t lr = t->amap_dst[e] % f->m, lc = t->amap_dst[e] / f->m;
            int64_t r = t->perm[t->rows[f->row_off + lr]], c = t->perm[f->first_col + lc];
            int64_t i = A->rowind[p];
            if (!((i == r && p >= A->colptr[c] && p < A->colptr[c + 1]) ||
                  (i == c && p >= A->colptr[r] && p < A->colptr[r + 1])))
                return sylva__fail(SYLVA_ERR_PATTERN_MISMATCH,
                                   "matrix pattern differs from the analysis at stored entry %lld",
                                   (long long)p);
        }
    }
    return SYLVA_OK;
}
