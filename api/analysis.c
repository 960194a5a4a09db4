/* analysis.c — sylva_analyze and the analysis queries: argument and option
 * checks (options_check.c), timing, the info struct, and the calls into
 * frontal/ (ordering, tree) and batching/ (plan). An analysis is reference
 * counted: each factor made from it holds a reference, so it outlives
 * sylva_analysis_free while factors need it. Every failure returns a status
 * with a message; nothing here exits.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "io.h"

int sylva__api_check_matrix(const sylva_matrix *A)
{
    if (!A) return sylva__fail(SYLVA_ERR_ARGUMENT, "matrix is NULL");
    if (A->n < 0 || !A->colptr || (A->n > 0 && A->nnz > 0 && !A->rowind) ||
        A->colptr[A->n] != A->nnz)
        return sylva__fail(SYLVA_ERR_ARGUMENT, "matrix arrays are inconsistent");
    if (A->values && !sylva__dtype_size(A->dtype))
        return sylva__fail(SYLVA_ERR_ARGUMENT, "matrix dtype %d is unknown", (int)A->dtype);
    return SYLVA_OK;
}

/* Automatic batch size: enough groups per level for every worker to take a
 * few, but no tiny batches. */
static double auto_batch_flops(const sylva__tree *t, int64_t small_rows)
{
    double small = 0;
    for (int64_t f = 0; f < t->nfronts; f++)
        if (t->fronts[f].m <= small_rows) small += t->fronts[f].flops;
    int w = sylva__runtime_workers();
    double b = small / (SYLVA__AUTO_GROUPS_PER_WORKER * (w > 0 ? w : 1));
    return b < SYLVA__AUTO_MIN_BATCH_FLOPS ? SYLVA__AUTO_MIN_BATCH_FLOPS : b;
}

/* 1 when the factorization will run on GPUs (they are running, the mode
 * lets them, and the precision is theirs). */
static int will_use_gpus(const sylva_options *o)
{
    return sylva__runtime_gpus() > 0 && o->mode != SYLVA_MODE_CPU &&
           o->precision == SYLVA_FLOAT64 && sylva__runtime_gpu_small_rows() > 0;
}

/* The small/large threshold: the option, else a CPU default, or the GPU
 * model's tuned value when the factorization will run on GPUs. */
static int64_t small_rows(const sylva_options *o)
{
    if (o->small_front_rows > 0) return o->small_front_rows;
    return will_use_gpus(o) ? sylva__runtime_gpu_small_rows() : SYLVA__CPU_SMALL_FRONT_ROWS;
}

/* Automatic batch size on GPUs: a few groups per GPU worker for each
 * level, so each batched launch is as large as the tree allows; a small
 * problem is one batch (a task costs more than its arithmetic there). */
static double gpu_batch_flops(const sylva__tree *t, int64_t small_rows_, int gpu_workers)
{
    double small = 0;
    for (int64_t f = 0; f < t->nfronts; f++)
        if (t->fronts[f].m <= small_rows_) small += t->fronts[f].flops;
    if (small <= SYLVA__GPU_ONE_BATCH_FLOPS) return small > SYLVA__AUTO_MIN_BATCH_FLOPS ? small : SYLVA__AUTO_MIN_BATCH_FLOPS;
    double b = small / (SYLVA__AUTO_GROUPS_PER_WORKER * gpu_workers);
    return b < SYLVA__AUTO_MIN_BATCH_FLOPS ? SYLVA__AUTO_MIN_BATCH_FLOPS : b;
}

static void fill_info(const sylva_analysis_t *an, const sylva_matrix *A, double seconds,
                      sylva_analysis_info *info)
{
    const sylva__tree *t = an->tree;
    size_t es = sylva__dtype_size(an->opts.precision);
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
        while (b < SYLVA_FRONT_HIST_BINS - 1 && (t->fronts[f].m >> (b + 1)) > 0) b++;
        info->front_hist[b]++;
    }
    info->batches = an->plan->ngroups;
    info->small_fronts = an->stats.small_fronts;
    info->large_fronts = an->stats.large_fronts;
    info->factor_bytes = (double)es * (double)an->plan->l_off[t->nfronts];
    info->peak_cb_bytes = (double)es * an->stats.peak_cb_scalars;
    info->fronts_per_batch = an->stats.fronts_per_group_mean;
    info->size_spread = an->stats.size_spread_mean;
    info->padding_waste = an->stats.padding_waste;
    info->seconds = seconds;
    info->seconds_ordering = an->seconds[0];
    info->seconds_symbolic = an->seconds[1];
    info->seconds_maps = an->seconds[2];
    info->seconds_plan = an->seconds[3];
    info->ordering = an->ordering;
    info->small_front_rows = an->opts.small_front_rows;
    info->batch_flops = an->opts.batch_flops;
    /* Hybrid runs may put CBs on the host: the CPU model holds for them. */
    info->memory_on_gpu = will_use_gpus(&an->opts) && an->opts.mode != SYLVA_MODE_HYBRID;
    info->memory_baseline_bytes = sylva__rss_bytes();
    double first, refactor;
    sylva__memory_predict(an, A, info->memory_on_gpu, &first, &refactor);
    info->predicted_peak_bytes = info->memory_baseline_bytes + first;
    info->predicted_refactor_peak_bytes = info->memory_baseline_bytes + refactor;
}

int sylva_analyze(const sylva_matrix *A, const sylva_options *opts, sylva_analysis_t **out,
                  sylva_analysis_info *info)
{
    sylva__clear_error();
    if (!out) return sylva__fail(SYLVA_ERR_ARGUMENT, "sylva_analyze: output handle is NULL");
    *out = NULL;
    return sylva__dist_size() > 1 ? sylva__analyze_dist(A, opts, out, info) : sylva__analyze_one(A, opts, out, info);
}

int sylva__analyze_one(const sylva_matrix *A, const sylva_options *opts, sylva_analysis_t **out,
                       sylva_analysis_info *info)
{
    *out = NULL;
    int status = sylva__api_check_matrix(A);
    if (status) return status;
    double t0 = sylva__now();
    sylva_analysis_t *an = sylva__calloc(1, sizeof *an);
    int64_t *perm = sylva__malloc((size_t)A->n + 1, sizeof *perm);
    if (!an || !perm) {
        free(an);
        free(perm);
        return SYLVA_ERR_NO_MEMORY;
    }
    an->refs = 1;
    if (opts) an->opts = *opts;
    else sylva_default_options(&an->opts);
    if ((status = sylva__options_check_analysis(&an->opts))) goto fail;
    snprintf(an->policy, sizeof an->policy, "%s",
             an->opts.policy ? an->opts.policy : sylva__policy_default);
    an->opts.policy = an->policy;
    an->opts.user_perm = NULL; /* not kept: the caller owns it */
    if (!sylva__policy_find(an->policy)) {
        status = sylva__fail(SYLVA_ERR_ARGUMENT, "unknown batching policy '%s'", an->policy);
        goto fail;
    }
    if (!sylva__dtype_size(an->opts.precision)) {
        status = sylva__fail(SYLVA_ERR_ARGUMENT, "unknown precision %d", (int)an->opts.precision);
        goto fail;
    }
    an->ordering = (sylva_ordering)sylva__order_resolved(A->n, &an->opts);
    an->nnz_A = A->nnz;
    an->pattern_hash = sylva__pattern_hash(A);
    sylva_options ord = an->opts;
    ord.user_perm = opts ? opts->user_perm : NULL;
    sylva__api_progress(&an->opts, "ordering", 0);
    double tp = sylva__now();
    if ((status = sylva__order(A, &ord, perm))) goto fail;
    an->seconds[0] = sylva__now() - tp;
    sylva__api_progress(&an->opts, "ordering", 1);
    sylva__api_progress(&an->opts, "symbolic", 0);
    if ((status = sylva__tree_build(A, perm, &an->opts, &an->tree))) goto fail;
    /* What follows depends on the runtime (its GPUs, workers and device
     * memory): a start begun beside the ordering (sylva_init_begin) ends
     * here, and its failure is the analysis'. */
    double tw = sylva__now();
    if ((status = sylva__runtime_wait())) goto fail;
    t0 += sylva__now() - tw; /* the wait is the start's (sylva_init_wait), not the analysis' */
    an->opts.small_front_rows = small_rows(&an->opts);
    /* The tile size the factorization will use: tile_rows on the CPU,
     * gpu_tile_rows (when set) on GPUs. */
    if ((status = will_use_gpus(&an->opts)
                      ? sylva__options_check_tiles(an->tree, an->opts.small_front_rows,
                                                   an->opts.gpu_tile_rows, "gpu_tile_rows")
                      : sylva__options_check_tiles(an->tree, an->opts.small_front_rows,
                                                   an->opts.tile_rows, "tile_rows")))
        goto fail;
    an->seconds[1] = an->tree->seconds_symbolic;
    an->seconds[2] = an->tree->seconds_maps;
    sylva__api_progress(&an->opts, "symbolic", 1);
    sylva__api_progress(&an->opts, "plan", 0);
    tp = sylva__now();
    sylva__policy_params pp = {an->opts.small_front_rows, an->opts.batch_flops, 1};
    /* Several GPUs with the subtree mapping: batches do not straddle the
     * GPUs' subtrees (docs/architecture.md, "Several GPUs"). */
    if (will_use_gpus(&an->opts) && an->opts.gpu_map == SYLVA_GPU_MAP_SUBTREES) pp.parts = sylva__runtime_gpus();
    /* Several processes: nor the ranks' (the same split on every rank;
     * a distributed run uses no GPU). */
    if (sylva__dist_size() > 1) pp.parts = sylva__dist_size();
    int automatic = pp.batch_flops <= 0;
    if (automatic)
        pp.batch_flops = will_use_gpus(&an->opts)
                             ? gpu_batch_flops(an->tree, pp.small_front_rows, sylva__runtime_gpu_workers())
                             : auto_batch_flops(an->tree, pp.small_front_rows);
    if ((status = sylva__plan_build(an->tree, an->policy, &pp, &an->plan))) goto fail;
    sylva__plan_stats_compute(an->plan, &an->stats);
    /* On GPUs an automatic batch size also keeps every task's data under a
     * quarter of the device memory, so StarPU can evict around it. */
    int64_t cap = will_use_gpus(&an->opts) ? sylva__runtime_gpu_memory() / SYLVA__GPU_TASK_MEMORY_SHARE : 0;
    size_t es = sylva__dtype_size(an->opts.precision);
    for (int i = 0; automatic && cap > 0 && i < 30 && an->stats.max_task_scalars * (double)es > (double)cap &&
                    pp.batch_flops > SYLVA__AUTO_MIN_BATCH_FLOPS;
         i++) {
        pp.batch_flops /= 2;
        sylva__plan_free(an->plan);
        an->plan = NULL;
        if ((status = sylva__plan_build(an->tree, an->policy, &pp, &an->plan))) goto fail;
        sylva__plan_stats_compute(an->plan, &an->stats);
    }
    an->opts.batch_flops = pp.batch_flops;
    if ((status = sylva__rt_plan_create(an->plan, &an->rt))) goto fail;
    an->seconds[3] = sylva__now() - tp;
    sylva__api_progress(&an->opts, "plan", 1);
    free(perm);
    if (info) fill_info(an, A, sylva__now() - t0, info);
    *out = an;
    return SYLVA_OK;
fail:
    free(perm);
    sylva_analysis_free(an);
    return status;
}

void sylva__analysis_release(sylva_analysis_t *an)
{
    if (!an || __atomic_sub_fetch(&an->refs, 1, __ATOMIC_ACQ_REL) > 0) return;
    sylva__rt_plan_free(an->rt);
    sylva__plan_free(an->plan);
    sylva__tree_free(an->tree);
    free(an);
}

void sylva_analysis_free(sylva_analysis_t *an) { sylva__analysis_release(an); }

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
