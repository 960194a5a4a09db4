/* study_run.c — one configuration of a study (study.h): analyze (the
 * first configuration orders, through --perm/--analysis/--save as
 * `factor` does; the others reuse its permutation, so every run factors the
 * same tree), factor --repeat times (refactorization after the first),
 * rank the run by its refactorizations (the first factorization, which also
 * allocates L, reported apart; alone when --repeat is 1): their median,
 * minimum and maximum; keep the median refactorization's measurements (its
 * batches, tasks, summary) and its trace, solve b and check the backward
 * error. A run that fails
 * records its status and message and the study goes on. */
#include <errno.h>
#include <math.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "study.h"

void study_run_free(study_run *r)
{
    free(r->seconds);
    free(r->front_batch);
    free(r->tasks);
    r->seconds = NULL;
    r->front_batch = NULL;
    r->tasks = NULL;
}

static int run_failed(study_run *r, int status, const char *what)
{
    r->status = status;
    snprintf(r->message, sizeof r->message, "%s: %s", what, cli_message(status));
    return SYLVA_OK;
}

/* One repetition's measurements: F's last run. */
typedef struct snapshot {
    run_summary sum;
    int64_t *front_batch, ntasks;
    study_task *tasks;
} snapshot;

static int take(const study *s, const sylva_factor_t *F, snapshot *q)
{
    int status = run_summary_compute(F, &q->sum);
    if (status) return status;
    q->ntasks = sylva_factor_task_count(F);
    q->front_batch = malloc((size_t)(s->nfronts + 1) * sizeof *q->front_batch);
    q->tasks = malloc((size_t)(q->ntasks + 1) * sizeof *q->tasks);
    if (!q->front_batch || !q->tasks) return SYLVA_ERR_NO_MEMORY;
    for (int64_t f = 0; f < s->nfronts; f++) q->front_batch[f] = sylva_factor_front_batch(F, f);
    for (int64_t i = 0; i < q->ntasks; i++) {
        sylva_task_record t;
        sylva_factor_task_record(F, i, &t);
        q->tasks[i] = (study_task){t.worker, t.kind, t.batch, t.start, t.end};
    }
    return SYLVA_OK;
}

/* The first ranked repetition: the refactorizations when there are any
 * (the first factorization also allocates and first-touches L: another
 * quantity), else the first alone. */
static int ranked_from(const study_run *r) { return r->done > 1 ? 1 : 0; }

/* The ranked repetition of median time (the lower median for an even count). */
static int median_index(const study_run *r)
{
    int from = ranked_from(r), n = r->done - from, below_best = -1;
    for (int k = from; k < r->done; k++) {
        int below = 0, equal_before = 0;
        for (int i = from; i < r->done; i++) {
            below += r->seconds[i] < r->seconds[k];
            equal_before += i < k && r->seconds[i] == r->seconds[k];
        }
        if (below + equal_before == (n - 1) / 2) return k;
        if (below <= (n - 1) / 2) below_best = k;
    }
    return below_best >= 0 ? below_best : from;
}

static int analyze(study *s, study_run *r, int index, sylva_analysis_t **an, sylva_analysis_info *ai)
{
    sylva_options o = s->a->opts;
    o.policy = r->policy;
    o.small_front_rows = r->small_rows;
    o.batch_flops = r->batch_flops;
    if (index == 0) {
        cli_args a = *s->a;
        a.opts = o;
        int output_failed = 0;
        int status = cli_analysis_step(&a, s->A, an, ai, &output_failed);
        if (!status) {
            const int64_t *p = sylva_analysis_perm(*an);
            memcpy(s->perm, p, (size_t)s->A->n * sizeof *s->perm);
        }
        return output_failed ? -status : status; /* negative: the save failed, the study stops */
    }
    o.ordering = SYLVA_ORDERING_USER;
    o.user_perm = s->perm;
    return sylva_analyze(s->A, &o, an, ai);
}

int study_run_one(study *s, study_run *r, int index)
{
    sylva_analysis_t *an = NULL;
    sylva_factor_t *F = NULL;
    sylva_analysis_info ai;
    r->berr = NAN;
    r->seconds = calloc((size_t)r->repeat + 1, sizeof *r->seconds);
    if (!r->seconds) return cli_error(SYLVA_ERR_NO_MEMORY, "out of memory");
    int status = analyze(s, r, index, &an, &ai);
    if (status < 0) return -status;
    if (status) return run_failed(r, status, "analysis");
    if (index == 0) { /* the tree every run factors */
        s->ai = ai;
        s->nfronts = sylva_analysis_front_count(an);
        s->fronts = malloc((size_t)(s->nfronts + 1) * sizeof *s->fronts);
        if (!s->fronts) {
            sylva_analysis_free(an);
            return cli_error(SYLVA_ERR_NO_MEMORY, "out of memory for the tree");
        }
        for (int64_t f = 0; f < s->nfronts; f++) sylva_analysis_front(an, f, &s->fronts[f]);
    } else { /* the first analysis' permutation must give its tree back */
        int same = sylva_analysis_front_count(an) == s->nfronts;
        for (int64_t f = 0; same && f < s->nfronts; f++) {
            sylva_front_info fi;
            sylva_analysis_front(an, f, &fi);
            same = fi.parent == s->fronts[f].parent && fi.rows == s->fronts[f].rows && fi.cols == s->fronts[f].cols;
        }
        if (!same) {
            sylva_analysis_free(an);
            r->status = SYLVA_ERR_RUNTIME;
            snprintf(r->message, sizeof r->message, "analysis: the tree differs from the first run's");
            return SYLVA_OK;
        }
    }
    r->small_rows_used = ai.small_front_rows;
    r->batch_flops_used = ai.batch_flops;
    r->plan_batches = ai.batches;
    r->plan_padding = ai.padding_waste;
    /* Every repetition's measurements, until the median is known. */
    snapshot *snaps = calloc((size_t)r->repeat + 1, sizeof *snaps);
    int fatal = snaps ? SYLVA_OK : cli_error(SYLVA_ERR_NO_MEMORY, "out of memory keeping the measurements");
    snprintf(r->trace, sizeof r->trace, "trace_%s.json", r->file_label);
    char path[4096], title[256];
    for (int k = 0; k < r->repeat && !fatal; k++) {
        sylva_factor_info fi;
        status = k == 0 ? sylva_factorize(an, s->A, &F, &fi) : sylva_refactorize(F, s->A, &fi);
        if (status) break;
        r->seconds[r->done++] = fi.seconds;
        r->mode = fi.mode;
        if ((fatal = take(s, F, &snaps[k]))) cli_error(fatal, "out of memory keeping the measurements");
        /* Each repetition's trace; the median's is kept (below). */
        snprintf(path, sizeof path, "%s/%s.%d", s->dir, r->trace, k);
        snprintf(title, sizeof title, "sylva study %s: %s (repetition %d of %d)", s->a->file, r->label, k + 1,
                 r->repeat);
        if (!fatal && (fatal = cli_write_trace(path, an, F, title)))
            cli_error(fatal, "cannot write %s: %s", path, sylva_last_error());
    }
    if (!fatal && !status && r->done) { /* the median repetition's trace, the others removed */
        char kept[4096];
        snprintf(kept, sizeof kept, "%s/%s.%d", s->dir, r->trace, median_index(r));
        snprintf(path, sizeof path, "%s/%s", s->dir, r->trace);
        if (rename(kept, path) != 0)
            fatal = cli_error(SYLVA_ERR_IO, "cannot rename %s to %s: %s", kept, path, strerror(errno));
    }
    for (int k = 0; k < r->done; k++) {
        snprintf(path, sizeof path, "%s/%s.%d", s->dir, r->trace, k);
        unlink(path); /* gone already for the kept one */
    }
    if (fatal || status || !r->done) r->trace[0] = '\0';
    if (!fatal && !status) {
        r->kept = median_index(r);
        r->median = r->seconds[r->kept];
        snapshot *q = &snaps[r->kept];
        r->sum = q->sum;
        r->front_batch = q->front_batch;
        r->tasks = q->tasks;
        r->ntasks = q->ntasks;
        q->front_batch = NULL;
        q->tasks = NULL;
    }
    for (int k = 0; snaps && k < r->repeat; k++) {
        free(snaps[k].front_batch);
        free(snaps[k].tasks);
    }
    free(snaps);
    if (fatal) {
        sylva_factor_free(F);
        sylva_analysis_free(an);
        return fatal;
    }
    if (status) {
        run_failed(r, status, "factorization");
        sylva_factor_free(F);
        sylva_analysis_free(an);
        return SYLVA_OK;
    }
    r->first = r->seconds[0];
    r->nranked = r->done - ranked_from(r);
    r->best = r->worst = r->median;
    for (int k = ranked_from(r); k < r->done; k++) {
        if (r->seconds[k] < r->best) r->best = r->seconds[k];
        if (r->seconds[k] > r->worst) r->worst = r->seconds[k];
    }
    r->gflops = r->median > 0 ? ai.flops / r->median * 1e-9 : 0;
    int64_t n = s->A->n;
    double *x = malloc((size_t)(n + 1) * sizeof *x);
    if (!x) status = cli_error(SYLVA_ERR_NO_MEMORY, "out of memory for the solution");
    else memcpy(x, s->b, (size_t)n * sizeof *x);
    if (!status && (status = sylva_solve(F, 1, x, n > 0 ? n : 1))) run_failed(r, status, "solve");
    if (!status) {
        r->berr = sylva_backward_error(s->A, x, s->b);
        r->accurate = r->berr <= s->max_berr; /* NaN is not accurate */
        if (!r->accurate) {
            r->status = SYLVA_ERR_RUNTIME;
            r->inaccurate = 1;
            snprintf(r->message, sizeof r->message, "backward error %.3e exceeds %.3g", r->berr, s->max_berr);
        }
    }
    free(x);
    sylva_factor_free(F);
    sylva_analysis_free(an);
    return status == SYLVA_ERR_NO_MEMORY ? status : SYLVA_OK;
}
