/* api.c — the public analysis/factorization/solve entry points of sylva.h:
 * argument checks, timing, info structs, and the calls into frontal/
 * (ordering, tree), batching/ (plan) and the StarPU submission. Every
 * failure returns a status with a message; nothing here exits.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "error.h"
#include "runtime.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int check_matrix(const sylva_matrix *A)
{
    if (!A) return sylva__fail(SYLVA_ERR_ARGUMENT, "matrix is NULL");
    if (A->n < 0 || !A->colptr || (A->n > 0 && A->nnz > 0 && !A->rowind) || A->colptr[A->n] != A->nnz)
        return sylva__fail(SYLVA_ERR_ARGUMENT, "matrix arrays are inconsistent");
    return SYLVA_OK;
}

/* Automatic batch size: enough groups per level for every worker to take a
 * few (4 per worker), but no batch under 1 MFLOP. */
static double auto_batch_flops(const sylva__tree *t, int64_t small_rows)
{
    double small = 0;
    for (int64_t f = 0; f < t->nfronts; f++)
        if (t->fronts[f].m <= small_rows) small += t->fronts[f].flops;
    int w = sylva__runtime_workers();
    double b = small / (4.0 * (w > 0 ? w : 1));
    return b < 1e6 ? 1e6 : b;
}

int sylva_analyze(const sylva_matrix *A, const sylva_options *opts, sylva_analysis_t **out,
                  sylva_analysis_info *info)
{
    sylva__clear_error();
    if (!out) return sylva__fail(SYLVA_ERR_ARGUMENT, "sylva_analyze: output handle is NULL");
    *out = NULL;
    int status = check_matrix(A);
    if (status) return status;
    double t0 = now();
    sylva_analysis_t *an = sylva__calloc(1, sizeof *an);
    int64_t *perm = sylva__malloc((size_t)A->n + 1, sizeof *perm);
    if (!an || !perm) {
        free(an);
        free(perm);
        return SYLVA_ERR_NO_MEMORY;
    }
    if (opts) an->opts = *opts;
    else sylva_default_options(&an->opts);
    snprintf(an->policy, sizeof an->policy, "%s", an->opts.policy ? an->opts.policy : "subtree");
    an->opts.policy = an->policy;
    an->opts.user_perm = NULL; /* not kept: the caller owns it */
    if (!sylva__policy_find(an->policy)) {
        status = sylva__fail(SYLVA_ERR_ARGUMENT, "unknown batching policy '%s'", an->policy);
        goto fail;
    }
    sylva_options ord = an->opts;
    ord.user_perm = opts ? opts->user_perm : NULL;
    if ((status = sylva__order(A, &ord, perm))) goto fail;
    if ((status = sylva__tree_build(A, perm, &an->opts, &an->tree))) goto fail;
    sylva__policy_params pp = {an->opts.small_front_rows, an->opts.batch_flops};
    if (pp.batch_flops <= 0) pp.batch_flops = auto_batch_flops(an->tree, pp.small_front_rows);
    an->opts.batch_flops = pp.batch_flops;
    if ((status = sylva__plan_build(an->tree, an->policy, &pp, &an->plan))) goto fail;
    sylva__plan_stats_compute(an->plan, &an->stats);
    free(perm);
    if (info) {
        const sylva__tree *t = an->tree;
        memset(info, 0, sizeof *info);
        info->n = t->n;
        info->nnz_A = A->nnz;
        info->nnz_L = t->nnz_L;
        info->flops = t->flops;
        info->fronts = t->nfronts;
        info->tree_height = t->height;
        info->max_front_rows = t->max_m;
        for (int64_t f = 0; f < t->nfronts; f++) {
            int b = 0;
            while (b < 15 && (t->fronts[f].m >> (b + 1)) > 0) b++;
            info->front_hist[b]++;
        }
        info->batches = an->plan->ngroups;
        info->small_fronts = an->stats.small_fronts;
        info->large_fronts = an->stats.large_fronts;
        info->factor_bytes = 8.0 * (double)an->plan->l_off[t->nfronts];
        info->peak_cb_bytes = 8.0 * an->stats.peak_cb_doubles;
        info->fronts_per_batch = an->stats.fronts_per_group_mean;
        info->size_spread = an->stats.size_spread_mean;
        info->padding_waste = an->stats.padding_waste;
        info->seconds = now() - t0;
    }
    *out = an;
    return SYLVA_OK;
fail:
    free(perm);
    sylva_analysis_free(an);
    return status;
}

void sylva_analysis_free(sylva_analysis_t *an)
{
    if (!an) return;
    sylva__plan_free(an->plan);
    sylva__tree_free(an->tree);
    free(an);
}

const int64_t *sylva_analysis_perm(const sylva_analysis_t *an) { return an ? an->tree->perm : NULL; }

int64_t sylva_analysis_batch_count(const sylva_analysis_t *an) { return an ? an->plan->ngroups : 0; }

int sylva_analysis_batch(const sylva_analysis_t *an, int64_t i, sylva_batch_info *out)
{
    if (!an || !out || i < 0 || i >= an->plan->ngroups)
        return sylva__fail(SYLVA_ERR_ARGUMENT, "sylva_analysis_batch: no batch %lld", (long long)i);
    const sylva__plan *pl = an->plan;
    memset(out, 0, sizeof *out);
    out->fronts = pl->group_ptr[i + 1] - pl->group_ptr[i];
    out->min_rows = INT64_MAX;
    for (int64_t q = pl->group_ptr[i]; q < pl->group_ptr[i + 1]; q++) {
        int64_t m = an->tree->fronts[pl->front_list[q]].m;
        if (m < out->min_rows) out->min_rows = m;
        if (m > out->max_rows) out->max_rows = m;
    }
    out->child_batches = pl->dep_ptr[i + 1] - pl->dep_ptr[i];
    out->flops = pl->group_flops[i];
    out->large = pl->large[i];
    return SYLVA_OK;
}

/* Run the numeric phase into F (allocated) and fill info. */
static int run_factor(struct sylva_factor *F, const sylva_matrix *A, sylva_factor_info *info)
{
    const sylva__tree *t = F->an->tree;
    if (!sylva__runtime_ready())
        return sylva__fail(SYLVA_ERR_NOT_INITIALIZED, "sylva_init has not been called");
    int status = check_matrix(A);
    if (status) return status;
    if (!A->values && A->nnz > 0)
        return sylva__fail(SYLVA_ERR_PATTERN_ONLY,
                           "matrix has no values (a pattern file): it can be analyzed, not factored");
    if ((status = sylva__tree_check_pattern(t, A))) return status;
    double t0 = now();
    memset(F->front_info, 0, (size_t)(t->nfronts + 1) * sizeof *F->front_info);
    F->ok = 0;
    int64_t ntasks = 0;
    status = sylva__factor_submit(F, A->values, A->nnz, &ntasks);
    double secs = now() - t0;
    int64_t failed_col = -1;
    if (!status)
        for (int64_t f = 0; f < t->nfronts; f++) {
            int fi = F->front_info[f];
            if (fi == -2) {
                status = sylva__fail(SYLVA_ERR_NO_MEMORY, "out of memory in a factorization task");
                break;
            }
            if (fi > 0) {
                int64_t col = t->perm[t->fronts[f].first_col + fi - 1];
                if (failed_col < 0 || col < failed_col) failed_col = col;
            }
        }
    if (!status && failed_col >= 0)
        status = sylva__fail(SYLVA_ERR_NOT_SPD,
                             "matrix is not positive definite: pivot of column %lld (1-based) is not "
                             "positive",
                             (long long)failed_col + 1);
    if (info) {
        memset(info, 0, sizeof *info);
        info->flops = t->flops;
        info->seconds = secs;
        info->gflops = secs > 0 ? t->flops / secs * 1e-9 : 0;
        info->tasks = ntasks;
        info->batches = F->an->plan->ngroups;
        info->failed_column = failed_col;
    }
    F->ok = status == SYLVA_OK;
    return status;
}

int sylva_factorize(const sylva_analysis_t *an, const sylva_matrix *A, sylva_factor_t **out,
                    sylva_factor_info *info)
{
    sylva__clear_error();
    if (info) info->failed_column = -1;
    if (!an || !out) return sylva__fail(SYLVA_ERR_ARGUMENT, "sylva_factorize: NULL argument");
    *out = NULL;
    const sylva__tree *t = an->tree;
    struct sylva_factor *F = sylva__calloc(1, sizeof *F);
    if (!F) return SYLVA_ERR_NO_MEMORY;
    F->an = an;
    F->store.tree = t;
    F->store.l_off = an->plan->l_off;
    F->store.values = sylva__malloc((size_t)an->plan->l_off[t->nfronts] + 1, sizeof(double));
    F->front_info = sylva__calloc((size_t)t->nfronts + 1, sizeof *F->front_info);
    if (!F->store.values || !F->front_info) {
        sylva_factor_free(F);
        return SYLVA_ERR_NO_MEMORY;
    }
    int status = run_factor(F, A, info);
    if (status) {
        sylva_factor_free(F);
        return status;
    }
    *out = F;
    return SYLVA_OK;
}

int sylva_refactorize(sylva_factor_t *F, const sylva_matrix *A, sylva_factor_info *info)
{
    sylva__clear_error();
    if (info) info->failed_column = -1;
    if (!F) return sylva__fail(SYLVA_ERR_ARGUMENT, "sylva_refactorize: factor is NULL");
    return run_factor(F, A, info);
}

int sylva_solve(const sylva_factor_t *F, int64_t nrhs, double *B, int64_t ldb)
{
    sylva__clear_error();
    if (!F || (!B && nrhs > 0)) return sylva__fail(SYLVA_ERR_ARGUMENT, "sylva_solve: NULL argument");
    if (nrhs < 0 || ldb < F->store.tree->n || ldb < 1)
        return sylva__fail(SYLVA_ERR_ARGUMENT, "sylva_solve: nrhs = %lld, ldb = %lld for n = %lld",
                           (long long)nrhs, (long long)ldb, (long long)F->store.tree->n);
    if (!F->ok)
        return sylva__fail(SYLVA_ERR_ARGUMENT, "sylva_solve: the factorization did not succeed");
    return sylva__solve(&F->store, nrhs, B, ldb);
}

int sylva_logdet(const sylva_factor_t *F, double *logdet)
{
    if (!F || !logdet) return sylva__fail(SYLVA_ERR_ARGUMENT, "sylva_logdet: NULL argument");
    if (!F->ok) return sylva__fail(SYLVA_ERR_ARGUMENT, "sylva_logdet: the factorization did not succeed");
    *logdet = sylva__logdet(&F->store);
    return SYLVA_OK;
}

void sylva_factor_free(sylva_factor_t *F)
{
    if (!F) return;
    free(F->store.values);
    free(F->front_info);
    free(F);
}
