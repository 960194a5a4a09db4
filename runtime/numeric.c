/* numeric.c — the numeric factor object of runtime.h: L's storage laid out
 * by the plan, its StarPU handles (one per group, registered at the first
 * factorization and kept, so L stays on the GPU that made it), the
 * factorization (submission in factorize.c) and the reduction of per-front
 * statuses to one answer, the same in every mode: the smallest failing
 * column, in the user's numbering, among the fronts that failed with correct
 * input (none of their descendants failed; GPU groups do not skip the
 * fronts above a failure, they compute garbage there that this rule
 * ignores). L is brought to the host when a CPU solve or the
 * log-determinant need it there (to rank 0, in a distributed run:
 * factorize_dist.c; every rank then has every front's status, so the
 * reduction gives every rank the same answer). For refinement it keeps a double copy of
 * A's values (the solve is solve_run.c's).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "runtime_internal.h"
#include "solve_dist.h"

static starpu_pthread_mutex_t to_host_lock = STARPU_PTHREAD_MUTEX_INITIALIZER;

int sylva__numeric_create(sylva__rt_plan *rt, sylva_dtype precision, sylva__numeric **out)
{
    *out = NULL;
    size_t es = sylva__dtype_size(precision);
    if (!es) return sylva__fail(SYLVA_ERR_ARGUMENT, "unknown precision %d", (int)precision);
    const sylva__plan *plan = rt->plan;
    const sylva__tree *t = plan->tree;
    sylva__numeric *N = sylva__calloc(1, sizeof *N);
    if (!N) return SYLVA_ERR_NO_MEMORY;
    N->rt = rt;
    N->plan = plan;
    STARPU_PTHREAD_MUTEX_INIT(&N->stat_lock, NULL);
    STARPU_PTHREAD_MUTEX_INIT(&N->hold_lock, NULL);
    N->hold_worker = -1;
    N->precision = precision;
    N->elem = es;
    N->values = sylva__malloc((size_t)plan->l_off[t->nfronts] + 1, es);
    N->front_info = sylva__calloc((size_t)t->nfronts + 1, sizeof *N->front_info);
    /* A dynamic policy's run may cut up to one group per front. */
    N->L = sylva__calloc((size_t)t->nfronts + 1, sizeof *N->L);
    if (!N->values || !N->front_info || !N->L) {
        sylva__numeric_free(N);
        return SYLVA_ERR_NO_MEMORY;
    }
    *out = N;
    return SYLVA_OK;
}

void sylva__numeric_free(sylva__numeric *N)
{
    if (!N) return;
    sylva__solve_gpu_unhold(N); /* the direct solve's acquisitions first: unregistering waits for them */
    sylva__factor_direct_free(N);
    /* Without a runtime the handles went with StarPU's shutdown. */
    if (N->L && sylva__runtime_ready())
        for (int64_t g = 0; g < N->plan->ngroups; g++)
            if (N->L[g]) starpu_data_unregister_no_coherency(N->L[g]);
    if (N->work && sylva__runtime_ready()) starpu_data_unregister_no_coherency(N->work);
    if (N->avals_h && sylva__runtime_ready()) starpu_data_unregister_no_coherency(N->avals_h);
    free(N->avals);
    if (N->pinned && sylva__runtime_ready()) starpu_memory_unpin(N->values, N->plan->l_off[N->plan->tree->nfronts] * N->elem);
    for (int64_t i = 0; i < N->npin_runs && sylva__runtime_ready(); i++)
        starpu_memory_unpin((char *)N->values + N->pin_runs[2 * i] * N->elem, N->pin_runs[2 * i + 1] * N->elem);
    free(N->pin_runs);
    STARPU_PTHREAD_MUTEX_DESTROY(&N->stat_lock);
    STARPU_PTHREAD_MUTEX_DESTROY(&N->hold_lock);
    sylva__task_log_free(N->log);
    sylva__plan_free(N->run_plan);
    free(N->owner);
    free(N->owner_top);
    sylva__solve_dist_plan_free(N->dsolve);
    free(N->rank_stats);
    free(N->L);
    free(N->values);
    free(N->front_info);
    free(N);
}

void sylva__numeric_task_error(sylva__numeric *N, int status, const char *message)
{
    if (__atomic_exchange_n(&N->error_set, 1, __ATOMIC_ACQ_REL) == 0)
        snprintf(N->error, sizeof N->error, "%s (%s)", message, sylva__status_name(status));
    __atomic_store_n(&N->failed, 1, __ATOMIC_RELEASE);
}

/* The public status of a finished factorization from its front statuses;
 * below: nfronts + 1 zeroed bytes of room (freed here). */
static int reduce_status(const sylva__numeric *N, char *below, int64_t *failed_column)
{
    const sylva__tree *t = N->plan->tree;
    *failed_column = -1;
    int status = SYLVA_OK;
    for (int64_t f = 0; f < t->nfronts; f++) {
        int fi = N->front_info[f];
        if (fi == SYLVA__FRONT_NO_MEMORY) {
            status = sylva__fail(SYLVA_ERR_NO_MEMORY, "out of memory in a factorization task");
            break;
        }
        for (int64_t c = t->child_ptr[f]; c < t->child_ptr[f + 1]; c++) {
            int64_t ch = t->child_list[c];
            if (below[ch] || N->front_info[ch] != SYLVA__FRONT_OK) below[f] = 1;
        }
        if (fi > 0 && !below[f]) {
            int64_t col = t->perm[t->fronts[f].first_col + fi - 1];
            if (*failed_column < 0 || col < *failed_column) *failed_column = col;
        }
    }
    free(below);
    if (!status && *failed_column >= 0)
        status = sylva__fail(SYLVA_ERR_NOT_SPD,
                             "matrix is not positive definite%s: pivot of column %lld (1-based) is "
                             "not positive%s",
                             N->precision == SYLVA_FLOAT32 ? " in single precision" : "",
                             (long long)*failed_column + 1,
                             N->precision == SYLVA_FLOAT32
                                 ? " (rounding to float can make a positive definite matrix indefinite: "
                                   "factor in double precision)"
                                 : "");
    return status;
}

/* The mode a factorization runs in: GPUs only when there are GPU workers
 * and the precision is the GPU kernels' (double). */
static int resolve_mode(const sylva__numeric *N, int mode)
{
    int gpus = sylva__runtime_gpus();
    if (mode == SYLVA_MODE_AUTO) mode = gpus ? SYLVA_MODE_GPU : SYLVA_MODE_CPU;
    if (mode != SYLVA_MODE_CPU && (!gpus || N->precision != SYLVA_FLOAT64)) mode = SYLVA_MODE_CPU;
    return mode;
}

int sylva__numeric_factor(sylva__numeric *N, const void *A_values, int64_t nnz, int64_t tile_rows,
                          int mode, sylva__factor_report *rep)
{
    /* The direct solve's acquisitions go before L is written (solve_gpu_direct.c). */
    sylva__solve_gpu_unhold(N);
    const sylva__tree *t = N->plan->tree;
    memset(rep, 0, sizeof *rep);
    rep->failed_column = -1;
    rep->mode = resolve_mode(N, mode);
    rep->gpus = sylva__runtime_gpus();
    memset(N->front_info, 0, (size_t)(t->nfronts + 1) * sizeof *N->front_info);
    N->ok = 0;
    N->failed = N->error_set = 0;
    N->logdet_known = N->pivots_known = 0;
    /* The room the reduction needs, had before the run: in a distributed
     * run a rank that could not get it must stop every rank now. */
    char *below = sylva__calloc((size_t)t->nfronts + 1, 1); /* a descendant failed */
    int status = below ? SYLVA_OK : SYLVA_ERR_NO_MEMORY;
    rep->ranks = sylva__dist_size();
    if (rep->ranks > 1 && (status = sylva__dist_agree(status))) {
        free(below);
        return status;
    }
    if (status) return status;
    if (rep->ranks > 1) {
        /* Several processes: one mode on every rank (the CB pools' shapes
         * depend on it) — on GPUs only when every rank has one — and a
         * plan every rank knows before the run (a dynamic policy cuts it
         * on the fly, on one process). */
        int on_gpus = rep->mode != SYLVA_MODE_CPU;
        status = sylva__dist_min_int(&on_gpus, 1);
        if (!on_gpus) rep->mode = SYLVA_MODE_CPU;
        if (!status)
            status = N->rt->plan->dynamic
                         ? sylva__fail(SYLVA_ERR_UNSUPPORTED,
                                       "policy '%s' cuts its batches at run time: a distributed run needs a "
                                       "static policy (--policy subtree, level, sized or none)",
                                       N->rt->plan->policy)
                         : sylva__factor_submit_dist(N, A_values, nnz, tile_rows, rep->mode, rep);
        if (!status && N->error_set) status = sylva__fail(SYLVA_ERR_RUNTIME, "%s", N->error);
        status = sylva__dist_agree(status);
    } else {
        /* Without tasks when it can (factorize_direct.c), else a task a group. */
        int direct = 0;
        status = sylva__factor_direct(N, A_values, nnz, rep->mode, rep, &direct);
        N->direct = direct;
        if (!status && !direct)
            status = N->rt->plan->dynamic ? sylva__factor_submit_ready(N, A_values, nnz, tile_rows, rep->mode, rep)
                                          : sylva__factor_submit(N, A_values, nnz, tile_rows, rep->mode, rep);
        if (!status && N->error_set) status = sylva__fail(SYLVA_ERR_RUNTIME, "%s", N->error);
    }
    /* Every rank has every front's status: the same answer everywhere. */
    if (!status) status = reduce_status(N, below, &rep->failed_column);
    else free(below);
    N->ok = status == SYLVA_OK;
    return status;
}

int sylva__numeric_ok(const sylva__numeric *N) { return N->ok; }

int sylva__numeric_direct(const sylva__numeric *N) { return N->direct; }

void sylva__numeric_set_gpu_map(sylva__numeric *N, int gpu_map) { N->gpu_map = gpu_map; }
void sylva__numeric_set_gpu_tile_rows(sylva__numeric *N, int64_t rows) { N->gpu_tile_rows = rows; }

const sylva__plan *sylva__numeric_plan(const sylva__numeric *N) { return N->plan; }

void sylva__numeric_set_progress(sylva__numeric *N, void (*fn)(void *, const char *, double), void *arg)
{
    N->progress = fn;
    N->progress_arg = arg;
}

sylva_dtype sylva__numeric_dtype(const sylva__numeric *N) { return N->precision; }

/* L's groups — all, or those of rank me when owner is given — to host
 * memory: every copy asked for first (they overlap), then each awaited. */
static int groups_to_host(sylva__numeric *N, const int *owner, int me)
{
    int status = SYLVA_OK;
    sylva__runtime_hold();
    for (int64_t g = 0; g < N->plan->ngroups && !status; g++)
        if (!owner || owner[g] == me) status = SYLVA_STARPU(starpu_data_prefetch_on_node(N->L[g], STARPU_MAIN_RAM, 1));
    for (int64_t g = 0; g < N->plan->ngroups && !status; g++) {
        if (owner && owner[g] != me) continue;
        status = SYLVA_STARPU(starpu_data_acquire(N->L[g], STARPU_R));
        if (!status) starpu_data_release(N->L[g]);
    }
    sylva__runtime_release();
    return status;
}

int sylva__numeric_to_host(sylva__numeric *N, double *seconds)
{
    *seconds = 0;
    if (sylva__dist_size() > 1) { /* L to rank 0 (collective) */
        double t0 = sylva__now();
        int status = sylva__numeric_gather(N);
        *seconds = sylva__now() - t0;
        return status;
    }
    sylva__solve_gpu_unhold(N); /* L leaves the GPU solve's hands (solve_gpu_direct.c) */
    STARPU_PTHREAD_MUTEX_LOCK(&to_host_lock);
    int status = SYLVA_OK;
    if (N->on_device) {
        double t0 = sylva__now();
        size_t bytes = (size_t)N->plan->l_off[N->plan->tree->nfronts] * N->elem;
        /* Page-locked host memory: the copies run as DMA, overlapped. */
        if (!N->pinned && bytes > 0) N->pinned = starpu_memory_pin(N->values, bytes) == 0;
        status = groups_to_host(N, NULL, 0);
        if (!status) N->on_device = 0;
        *seconds = sylva__now() - t0;
    }
    STARPU_PTHREAD_MUTEX_UNLOCK(&to_host_lock);
    return status;
}

static int cmp_run(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Runs of L this close (bytes) are pinned as one, so that no two runs share
 * a page; the gap's pages become resident (at most this much a run). */
#define PIN_GAP ((int64_t)1 << 21)

/* Rank me's part of L page-locked (starpu_memory_pin), so that the copies
 * from its GPU run as DMA instead of through the driver's pageable path
 * (on lap3d7:100, 2 ranks, ~4 GB a rank: seconds). Its groups' slices in
 * address order, runs closer than PIN_GAP merged; done once (the runs stay
 * pinned until the factor is freed). A run that cannot be pinned stays
 * pageable: the copies still work, slower. */
static void pin_own(sylva__numeric *N, int me)
{
    const sylva__plan *pl = N->plan;
    if (N->pin_runs || N->pinned) return;
    int64_t n = 0, *run = sylva__malloc((size_t)pl->ngroups + 1, 2 * sizeof *run);
    if (!run) return;
    for (int64_t g = 0; g < pl->ngroups; g++) {
        if (N->owner[g] != me) continue;
        run[2 * n + 1] = sylva__plan_group_l(pl, g, &run[2 * n]);
        if (run[2 * n + 1] > 0) n++;
    }
    qsort(run, (size_t)n, 2 * sizeof *run, cmp_run);
    int64_t k = 0, gap = PIN_GAP / (int64_t)N->elem;
    for (int64_t i = 0; i < n; i++) {
        if (k > 0 && run[2 * i] - (run[2 * k - 2] + run[2 * k - 1]) < gap)
            run[2 * k - 1] = run[2 * i] + run[2 * i + 1] - run[2 * k - 2];
        else {
            run[2 * k] = run[2 * i];
            run[2 * k + 1] = run[2 * i + 1];
            k++;
        }
    }
    n = 0;
    for (int64_t i = 0; i < k; i++)
        if (starpu_memory_pin((char *)N->values + run[2 * i] * N->elem, (size_t)(run[2 * i + 1] * N->elem)) == 0) {
            run[2 * n] = run[2 * i];
            run[2 * n + 1] = run[2 * i + 1];
            n++;
        }
    N->pin_runs = run;
    N->npin_runs = n;
}

int sylva__numeric_own_to_host(sylva__numeric *N, double *seconds)
{
    *seconds = 0;
    if (sylva__dist_size() < 2 || !N->owner) return sylva__numeric_to_host(N, seconds);
    sylva__solve_gpu_unhold(N);
    STARPU_PTHREAD_MUTEX_LOCK(&to_host_lock);
    int status = SYLVA_OK, me = sylva__dist_rank();
    if (N->on_device) {
        double t0 = sylva__now();
        pin_own(N, me);
        status = groups_to_host(N, N->owner, me);
        if (!status) N->on_device = 0;
        *seconds = sylva__now() - t0;
    }
    STARPU_PTHREAD_MUTEX_UNLOCK(&to_host_lock);
    return status;
}

int sylva__numeric_keep_values(sylva__numeric *N, const void *values, sylva_dtype dtype, int64_t nnz)
{
    sylva__solve_gpu_unhold(N); /* A's values are written (and their device copy dropped) */
    if (!N->avals || N->annz != nnz) {
        double *v = sylva__malloc((size_t)nnz + 1, sizeof *v);
        if (!v) return sylva__fail(SYLVA_ERR_NO_MEMORY, "out of memory keeping A's %lld values for refinement",
                                   (long long)nnz);
        if (N->avals_h && sylva__runtime_ready()) starpu_data_unregister_no_coherency(N->avals_h);
        N->avals_h = NULL;
        free(N->avals);
        N->avals = v;
        N->annz = nnz;
    }
    /* Writing the home copy through an acquisition drops stale device copies. */
    int held = N->avals_h && sylva__runtime_ready();
    if (held) {
        sylva__runtime_hold();
        if (SYLVA_STARPU(starpu_data_acquire(N->avals_h, STARPU_W))) {
            sylva__runtime_release();
            return SYLVA_ERR_RUNTIME;
        }
    }
    for (int64_t p = 0; p < nnz; p++)
        N->avals[p] = dtype == SYLVA_FLOAT32 ? (double)((const float *)values)[p] : ((const double *)values)[p];
    if (held) {
        starpu_data_release(N->avals_h);
        sylva__runtime_release();
    }
    return SYLVA_OK;
}

int sylva__numeric_pivots_on_gpu(sylva__numeric *N)
{
    /* A distributed run's GPU holds only its rank's part. */
    int dist = sylva__dist_size() > 1 && N->owner;
    return !dist && N->on_device && sylva__solve_gpu_pivots_possible(N);
}

int sylva__numeric_pivot_scan(sylva__numeric *N, int64_t *first_bad, double *value, double *to_host)
{
    if (to_host) *to_host = 0;
    const sylva__plan *pl = N->plan;
    const sylva__tree *t = pl->tree;
    /* On the GPU when L can all be there (else it comes to the host). */
    int dist = sylva__dist_size() > 1 && N->owner, me = sylva__dist_rank();
    if (sylva__numeric_pivots_on_gpu(N)) {
        int *bad = sylva__malloc((size_t)t->nfronts + 1, sizeof *bad);
        double *val = sylva__malloc((size_t)t->nfronts + 1, sizeof *val);
        double *lo = sylva__malloc((size_t)t->nfronts + 1, sizeof *lo);
        double *hi = sylva__malloc((size_t)t->nfronts + 1, sizeof *hi);
        int status = bad && val && lo && hi
                         ? sylva__solve_gpu_pivots(N, bad, val, lo, hi)
                         : sylva__fail(SYLVA_ERR_NO_MEMORY, "out of memory for the pivot check");
        /* Records are in level order; a record's first column names its
         * front. A front with no failing pivot has its sum of log(pivot)
         * in val and its extreme pivots in lo, hi: with every front so,
         * the log-determinant and the extremes (pivot_ratio.c) are kept. */
        const sylva__solve_desc *d = status ? NULL : &N->rt->gsolve->desc;
        double logs = 0;
        int all_good = d != NULL;
        for (int i = 0; d && i < d->nfronts; i++) {
            int64_t f = t->col2front[((const int64_t *)((const char *)d->host_blob + d->lay.col))[i]];
            first_bad[f] = bad[i];
            value[f] = bad[i] >= 0 ? val[i] : 0;
            if (bad[i] >= 0) all_good = 0;
            else logs += val[i];
        }
        N->logdet = 2 * logs;
        N->logdet_known = all_good;
        N->pivots_known = d && sylva__solve_pivot_extremes(d->nfronts, bad, lo, hi, &N->pivot_lo, &N->pivot_hi);
        free(bad);
        free(val);
        free(lo);
        free(hi);
        return status;
    }
    /* Several processes: each rank reads the fronts of its own groups (on
     * its host), and the ranks' answers are combined (−1 and 0 elsewhere). */
    double s;
    int status = sylva__numeric_own_to_host(N, &s);
    if (to_host) *to_host = s;
    if (dist) status = sylva__dist_agree(status);
    if (status) return status;
    for (int64_t f = 0; f < t->nfronts; f++) {
        const sylva__front *fr = &t->fronts[f];
        first_bad[f] = -1;
        value[f] = 0;
        if (dist && N->owner[pl->front_group[f]] != me) continue;
        for (int64_t c = 0; c < fr->k; c++) {
            int64_t at = pl->l_off[f] + c + c * fr->m;
            double d = N->precision == SYLVA_FLOAT32 ? (double)((const float *)N->values)[at]
                                                     : ((const double *)N->values)[at];
            if (!(d > 0 && isfinite(d))) {
                first_bad[f] = c;
                value[f] = d;
                break;
            }
        }
    }
    if (!dist) return SYLVA_OK;
    status = sylva__dist_max_i64(first_bad, t->nfronts);
    if (!status) status = sylva__dist_sum_double(value, t->nfronts);
    return sylva__dist_agree(status);
}

const int *sylva__numeric_owners(const sylva__numeric *N) { return N->owner; }

int sylva__numeric_gathered(const sylva__numeric *N) { return sylva__dist_size() < 2 || N->gathered; }

int sylva__numeric_rank_stats(const sylva__numeric *N, int rank, sylva__rank_stats *out)
{
    memset(out, 0, sizeof *out);
    int ranks = sylva__dist_size();
    if (rank < 0 || rank >= ranks)
        return sylva__fail(SYLVA_ERR_ARGUMENT, "rank %d: the run has %d rank%s", rank, ranks, ranks == 1 ? "" : "s");
    if (ranks > 1 && N->rank_stats) *out = N->rank_stats[rank];
    return SYLVA_OK;
}

int sylva__numeric_refinable(const sylva__numeric *N) { return N->avals != NULL; }

int sylva__numeric_on_device(const sylva__numeric *N) { return N->on_device; }

const void *sylva__numeric_host_values(sylva__numeric *N)
{
    double s;
    return sylva__numeric_to_host(N, &s) == SYLVA_OK ? N->values : NULL;
}

int sylva__numeric_logdet(sylva__numeric *N, double *logdet)
{
    if (N->logdet_known) { /* the GPU pivot check's: L stays where it is */
        *logdet = N->logdet;
        return SYLVA_OK;
    }
    /* Several processes: each rank sums the pivots of its own fronts (L
     * stays where it is), and the sums are added. */
    int dist = sylva__dist_size() > 1 && N->owner;
    double s = 0;
    int status = sylva__numeric_own_to_host(N, &s);
    if (dist) status = sylva__dist_agree(status);
    if (status) return status;
    const int *owner = dist ? N->owner : NULL;
    int me = sylva__dist_rank();
    *logdet = N->precision == SYLVA_FLOAT32 ? sylva__s_logdet(N->plan, N->values, owner, me)
                                            : sylva__d_logdet(N->plan, N->values, owner, me);
    return dist ? sylva__dist_sum_double(logdet, 1) : SYLVA_OK;
}
