/* analysis_save.c — sylva_analysis_save and sylva_analysis_load: an
 * analysis kept in a file, so a later run with the same pattern skips the
 * ordering (the costly part of the analysis). The file holds the fill-
 * reducing permutation, the ordering that made it, the amalgamation
 * settings and a fingerprint of the pattern; loading rebuilds the tree and
 * the batch plan from them under the caller's current options (policy,
 * thresholds, precision), so the plan always matches this run's machine.
 * In a distributed run rank 0 reads the file and checks the pattern (the
 * outcome agreed by every rank), then sylva_analyze sends its analysis.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis_file.h"
#include "api.h"
#include "io.h"

int sylva_analysis_save(const sylva_analysis_t *an, const char *path)
{
    sylva__clear_error();
    if (!an || !path) return sylva__fail(SYLVA_ERR_ARGUMENT, "sylva_analysis_save: NULL argument");
    sylva__analysis_record r;
    memset(&r, 0, sizeof r);
    r.n = an->tree->n;
    r.nnz = an->nnz_A;
    r.pattern_hash = an->pattern_hash;
    r.ordering = an->ordering;
    memcpy(r.nrelax, an->opts.nrelax, sizeof r.nrelax);
    memcpy(r.zrelax, an->opts.zrelax, sizeof r.zrelax);
    r.perm = an->tree->perm;
    return sylva__analysis_file_write(path, &r);
}

int sylva_analysis_load(const char *path, const sylva_matrix *A, const sylva_options *opts,
                        sylva_analysis_t **out, sylva_analysis_info *info)
{
    sylva__clear_error();
    if (!out) return sylva__fail(SYLVA_ERR_ARGUMENT, "sylva_analysis_load: output handle is NULL");
    *out = NULL;
    /* Distributed: rank 0 reads the file; the others take its analysis
     * from sylva_analyze (analysis_dist.c). */
    if (sylva__dist_size() > 1 && sylva__dist_rank() != 0) {
        int status = sylva__dist_agree(SYLVA_OK);
        return status ? status : sylva_analyze(NULL, opts, out, info);
    }
    int status = path ? SYLVA_OK : sylva__fail(SYLVA_ERR_ARGUMENT, "sylva_analysis_load: path is NULL");
    if (!status) status = sylva__api_check_matrix(A);
    sylva__analysis_record r;
    memset(&r, 0, sizeof r);
    if (!status) status = sylva__analysis_file_read(path, &r);
    if (!status && (r.n != A->n || r.nnz != A->nnz || r.pattern_hash != sylva__pattern_hash(A)))
        status = sylva__fail(SYLVA_ERR_PATTERN_MISMATCH,
                             "%s: the analysis is of another pattern (n = %lld, nnz = %lld; "
                             "this matrix: n = %lld, nnz = %lld%s)",
                             path, (long long)r.n, (long long)r.nnz, (long long)A->n,
                             (long long)A->nnz,
                             r.n == A->n && r.nnz == A->nnz ? ", same sizes, other entries" : "");
    if ((status = sylva__dist_agree(status))) {
        free(r.perm);
        return status;
    }
    sylva_options o;
    sylva__options_of_record(opts, &r, &o);
    status = sylva_analyze(A, &o, out, info);
    free(r.perm);
    if (status) return status;
    /* The analysis is the saved ordering's, not a user permutation. */
    (*out)->ordering = (sylva_ordering)r.ordering;
    (*out)->opts.ordering = (sylva_ordering)r.ordering;
    if (info) info->ordering = (sylva_ordering)r.ordering;
    return SYLVA_OK;
}

void sylva__options_of_record(const sylva_options *opts, const sylva__analysis_record *r, sylva_options *o)
{
    if (opts) *o = *opts;
    else sylva_default_options(o);
    o->ordering = SYLVA_ORDERING_USER;
    o->user_perm = r->perm;
    memcpy(o->nrelax, r->nrelax, sizeof o->nrelax);
    memcpy(o->zrelax, r->zrelax, sizeof o->zrelax);
}
