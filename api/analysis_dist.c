/* analysis_dist.c — sylva_analyze in a distributed run (several
 * processes, include/sylva.h): rank 0 analyzes its matrix (ordering, tree,
 * plan), then sends the pattern of A and the saved analysis (the bytes of
 * `sylva analyze --save`: permutation, amalgamation, pattern fingerprint;
 * frontal/analysis_file.c) with the thresholds it resolved; every other
 * rank rebuilds the tree and the plan from them without ordering again, as
 * sylva_analysis_load does. All ranks then check that they hold the same
 * permutation and groups (a fingerprint compared over the ranks): a plan
 * that differs — other options on some rank — is SYLVA_ERR_RUNTIME. Every
 * rank returns the same status (the failing rank's message).
 */
#include <stdlib.h>
#include <string.h>

#include "analysis_file.h"
#include "api.h"

/* What rank 0 sends before the record and the pattern. */
typedef struct dist_header {
    int64_t n, nnz, record_bytes;
    int64_t small_front_rows;
    double batch_flops;
    int32_t ordering;
} dist_header;

static uint64_t fnv(uint64_t h, const void *data, size_t bytes)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < bytes; i++) h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

/* The permutation and the groups of an analysis. */
static uint64_t plan_fingerprint(const sylva_analysis_t *an)
{
    const sylva__plan *pl = an->plan;
    uint64_t h = 14695981039346656037ull;
    h = fnv(h, an->tree->perm, (size_t)an->tree->n * sizeof *an->tree->perm);
    h = fnv(h, &pl->ngroups, sizeof pl->ngroups);
    h = fnv(h, pl->group_ptr, (size_t)(pl->ngroups + 1) * sizeof *pl->group_ptr);
    h = fnv(h, pl->front_list, (size_t)an->tree->nfronts * sizeof *pl->front_list);
    return h;
}

int sylva__analyze_dist(const sylva_matrix *A, const sylva_options *opts, sylva_analysis_t **out,
                        sylva_analysis_info *info)
{
    int root = sylva__dist_rank() == 0;
    int status = root ? sylva__analyze_one(A, opts, out, info) : SYLVA_OK;
    if ((status = sylva__dist_agree(status))) goto fail;
    dist_header h;
    memset(&h, 0, sizeof h);
    void *rec = NULL;
    size_t rec_bytes = 0;
    if (root) {
        const sylva_analysis_t *an = *out;
        sylva__analysis_record r = {.n = an->tree->n,
                                    .nnz = an->nnz_A,
                                    .pattern_hash = an->pattern_hash,
                                    .ordering = an->ordering,
                                    .perm = an->tree->perm};
        memcpy(r.nrelax, an->opts.nrelax, sizeof r.nrelax);
        memcpy(r.zrelax, an->opts.zrelax, sizeof r.zrelax);
        status = sylva__analysis_record_pack(&r, &rec, &rec_bytes);
        h = (dist_header){A->n, A->nnz, (int64_t)rec_bytes, an->opts.small_front_rows, an->opts.batch_flops,
                          (int32_t)an->ordering};
    }
    if ((status = sylva__dist_agree(status)) || (status = sylva__dist_bcast(&h, (int64_t)sizeof h))) goto fail_rec;
    sylva_matrix P = {.n = h.n, .nnz = h.nnz, .dtype = SYLVA_FLOAT64};
    if (root) {
        P.colptr = A->colptr;
        P.rowind = A->rowind;
    } else {
        rec = sylva__malloc((size_t)h.record_bytes, 1);
        P.colptr = sylva__malloc((size_t)h.n + 1, sizeof *P.colptr);
        P.rowind = sylva__malloc((size_t)h.nnz + 1, sizeof *P.rowind);
        if (!rec || !P.colptr || !P.rowind) status = SYLVA_ERR_NO_MEMORY;
    }
    if (!(status = sylva__dist_agree(status)) && !(status = sylva__dist_bcast(rec, h.record_bytes)) &&
        !(status = sylva__dist_bcast(P.colptr, (h.n + 1) * (int64_t)sizeof *P.colptr)))
        status = sylva__dist_bcast(P.rowind, h.nnz * (int64_t)sizeof *P.rowind);
    if (!status && !root) {
        sylva__analysis_record r;
        if (!(status = sylva__analysis_record_unpack(rec, (size_t)h.record_bytes, "rank 0's analysis", &r))) {
            sylva_options o;
            sylva__options_of_record(opts, &r, &o);
            o.small_front_rows = h.small_front_rows;
            o.batch_flops = h.batch_flops;
            status = sylva__analyze_one(&P, &o, out, info);
            free(r.perm);
            if (!status) {
                (*out)->ordering = (sylva_ordering)h.ordering;
                (*out)->opts.ordering = (sylva_ordering)h.ordering;
                if (info) info->ordering = (sylva_ordering)h.ordering;
            }
        }
    }
    if (!root) {
        free(P.colptr);
        free(P.rowind);
    }
    free(rec);
    rec = NULL;
    if ((status = sylva__dist_agree(status))) goto fail;
    if (!sylva__dist_same(plan_fingerprint(*out))) {
        status = sylva__fail(SYLVA_ERR_RUNTIME,
                             "the ranks built different plans from rank 0's analysis: give every rank "
                             "the same options");
        goto fail;
    }
    return SYLVA_OK;
fail_rec:
    free(rec);
fail:
    sylva_analysis_free(*out);
    *out = NULL;
    return status;
}
