/* measure.c — what a factorization ran, for policy studies (sylva.h's
 * measurements): the last run's tasks as StarPU profiled them
 * (runtime/task_log.c) and the device memory sampled at their starts and
 * ends, its batches with their fronts' statistics and the
 * times of their tasks, the StarPU workers, and the assembly tree's fronts.
 * The per-batch index of the task log is made at the first query after a
 * run and dropped when the next run starts; queries on one factor are
 * serialized by a lock, so they may come from several threads (not during
 * a refactorization of that factor). Fails with SYLVA_ERR_ARGUMENT for an
 * index out of range, SYLVA_ERR_NO_MEMORY.
 */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"

struct sylva__measure {
    int64_t *head, *next; /* tasks of each batch: linked through next (−1 ends) */
    int64_t *depth;       /* scratch: a front's level inside its batch */
};

static pthread_mutex_t measure_lock = PTHREAD_MUTEX_INITIALIZER;

void sylva__measure_free(sylva_factor_t *F)
{
    if (!F->measure) return;
    free(F->measure->head);
    free(F->measure->next);
    free(F->measure->depth);
    free(F->measure);
    F->measure = NULL;
}

const char *sylva_task_kind_name(int kind)
{
    static const char *names[] = {"batch", "front", "potrf", "trsm", "syrk", "gemm"};
    return kind >= 0 && kind < (int)(sizeof names / sizeof names[0]) ? names[kind] : "?";
}

int sylva_worker_query(int id, sylva_worker_info *out)
{
    sylva__clear_error();
    if (!out) return sylva__fail(SYLVA_ERR_ARGUMENT, "sylva_worker_query: NULL argument");
    memset(out, 0, sizeof *out);
    int status = sylva__runtime_check("sylva_worker_query");
    if (status) return status;
    out->id = id;
    return sylva__runtime_worker(id, &out->kind, &out->device, out->name, sizeof out->name);
}

int64_t sylva_factor_task_count(const sylva_factor_t *F)
{
    int64_t n = 0;
    if (F) sylva__numeric_tasks(F->num, &n, NULL);
    return n;
}

int sylva_factor_task_record(const sylva_factor_t *F, int64_t i, sylva_task_record *out)
{
    sylva__clear_error();
    int64_t n = 0;
    const sylva__task_rec *r = F ? sylva__numeric_tasks(F->num, &n, NULL) : NULL;
    if (!out || i < 0 || i >= n)
        return sylva__fail(SYLVA_ERR_ARGUMENT, "sylva_factor_task_record: no task %lld (the run has %lld)",
                           (long long)i, (long long)n);
    memset(out, 0, sizeof *out);
    out->batch = r[i].group;
    out->kind = r[i].kind;
    out->worker = r[i].worker;
    out->submitted = r[i].submit;
    out->fetch_start = r[i].fetch_start;
    out->fetch_end = r[i].fetch_end;
    out->start = r[i].start;
    out->end = r[i].end;
    return SYLVA_OK;
}

int64_t sylva_factor_memory_sample_count(const sylva_factor_t *F)
{
    int64_t n = 0;
    if (F) sylva__numeric_memory_samples(F->num, &n);
    return n;
}

int sylva_factor_memory_sample(const sylva_factor_t *F, int64_t i, sylva_memory_sample *out)
{
    sylva__clear_error();
    int64_t n = 0;
    const sylva__mem_sample *s = F ? sylva__numeric_memory_samples(F->num, &n) : NULL;
    if (!out || i < 0 || i >= n)
        return sylva__fail(SYLVA_ERR_ARGUMENT, "sylva_factor_memory_sample: no sample %lld (the run has %lld)",
                           (long long)i, (long long)n);
    memset(out, 0, sizeof *out);
    out->time = s[i].t;
    out->gpu = s[i].gpu;
    out->device = s[i].device;
    out->bytes = s[i].bytes;
    return SYLVA_OK;
}

int64_t sylva_factor_batch_count(const sylva_factor_t *F) { return F ? sylva__numeric_plan(F->num)->ngroups : 0; }

int64_t sylva_factor_front_batch(const sylva_factor_t *F, int64_t front)
{
    if (!F) return -1;
    const sylva__plan *pl = sylva__numeric_plan(F->num);
    if (front < 0 || front >= pl->tree->nfronts) return -1;
    int64_t g = pl->front_group[front];
    return g >= 0 && g < pl->ngroups ? g : -1;
}

/* The index of the last run's tasks by batch (under the lock). */
static int index_tasks(sylva_factor_t *F)
{
    if (F->measure) return SYLVA_OK;
    const sylva__plan *pl = sylva__numeric_plan(F->num);
    int64_t n = 0;
    const sylva__task_rec *r = sylva__numeric_tasks(F->num, &n, NULL);
    sylva__measure *M = sylva__calloc(1, sizeof *M);
    if (!M) return SYLVA_ERR_NO_MEMORY;
    M->head = sylva__malloc((size_t)pl->ngroups + 1, sizeof *M->head);
    M->next = sylva__malloc((size_t)n + 1, sizeof *M->next);
    M->depth = sylva__malloc((size_t)pl->tree->nfronts + 1, sizeof *M->depth);
    if (!M->head || !M->next || !M->depth) {
        F->measure = M;
        sylva__measure_free(F);
        return SYLVA_ERR_NO_MEMORY;
    }
    for (int64_t g = 0; g < pl->ngroups; g++) M->head[g] = -1;
    for (int64_t i = n - 1; i >= 0; i--) { /* lists in the log's (completion) order */
        M->next[i] = -1;
        int64_t g = r[i].group;
        if (g < 0 || g >= pl->ngroups) continue;
        M->next[i] = M->head[g];
        M->head[g] = i;
    }
    F->measure = M;
    return SYLVA_OK;
}

/* Flops of a front of m rows and k pivots: Σ_{t<k} (m − t)² (CHOLMOD's count). */
static double front_flops(double m, double k)
{
    double a = m - k;
    return (m * (m + 1) * (2 * m + 1) - a * (a + 1) * (2 * a + 1)) / 6;
}

/* The fronts' statistics of batch g: sizes, flops, both paddings. */
static void batch_fronts(const sylva__plan *pl, int64_t g, int64_t *depth, sylva_batch_record *b)
{
    const sylva__tree *t = pl->tree;
    int64_t q0 = pl->group_ptr[g], q1 = pl->group_ptr[g + 1], levels = 0;
    double fmax = 0, sm = 0, sk = 0;
    b->min_rows = b->min_cols = INT64_MAX;
    for (int64_t q = q0; q < q1; q++) { /* children before parents */
        int64_t f = pl->front_list[q], d = 0;
        const sylva__front *fr = &t->fronts[f];
        for (int64_t c = t->child_ptr[f]; c < t->child_ptr[f + 1]; c++)
            if (pl->front_group[t->child_list[c]] == g && depth[t->child_list[c]] + 1 > d)
                d = depth[t->child_list[c]] + 1;
        depth[f] = d;
        if (d + 1 > levels) levels = d + 1;
        if (fr->m < b->min_rows) b->min_rows = fr->m;
        if (fr->m > b->max_rows) b->max_rows = fr->m;
        if (fr->k < b->min_cols) b->min_cols = fr->k;
        if (fr->k > b->max_cols) b->max_cols = fr->k;
        if (fr->flops > fmax) fmax = fr->flops;
        sm += (double)fr->m;
        sk += (double)fr->k;
    }
    b->fronts = q1 - q0;
    b->mean_rows = sm / (double)b->fronts;
    b->mean_cols = sk / (double)b->fronts;
    b->flops = pl->group_flops[g];
    b->padding = fmax > 0 ? 1 - b->flops / ((double)b->fronts * fmax) : 0;
    /* Per level: the launch is shaped by the level's largest m and k. */
    double padded = 0;
    for (int64_t l = 0; l < levels; l++) {
        int64_t mm = 0, mk = 0, cnt = 0;
        for (int64_t q = q0; q < q1; q++) {
            const sylva__front *fr = &t->fronts[pl->front_list[q]];
            if (depth[pl->front_list[q]] != l) continue;
            cnt++;
            if (fr->m > mm) mm = fr->m;
            if (fr->k > mk) mk = fr->k;
        }
        padded += (double)cnt * front_flops((double)mm, (double)mk);
    }
    b->padding_level = padded > 0 ? 1 - b->flops / padded : 0;
    b->child_batches = pl->dep_ptr[g + 1] - pl->dep_ptr[g];
    b->large = pl->large[g];
}

int sylva_factor_batch_record(const sylva_factor_t *F, int64_t i, sylva_batch_record *out)
{
    sylva__clear_error();
    if (!F || !out) return sylva__fail(SYLVA_ERR_ARGUMENT, "sylva_factor_batch_record: NULL argument");
    const sylva__plan *pl = sylva__numeric_plan(F->num);
    if (i < 0 || i >= pl->ngroups)
        return sylva__fail(SYLVA_ERR_ARGUMENT, "sylva_factor_batch_record: no batch %lld (the run has %lld)",
                           (long long)i, (long long)pl->ngroups);
    sylva_factor_t *G = (sylva_factor_t *)F; /* the index is a cache */
    pthread_mutex_lock(&measure_lock);
    int status = index_tasks(G);
    if (status) {
        pthread_mutex_unlock(&measure_lock);
        return sylva__fail(status, "out of memory indexing the run's tasks");
    }
    memset(out, 0, sizeof *out);
    out->batch = i;
    batch_fronts(pl, i, G->measure->depth, out);
    int64_t n = 0;
    const sylva__task_rec *r = sylva__numeric_tasks(F->num, &n, NULL);
    out->worker = -1;
    out->start = out->end = out->submitted = NAN;
    for (int64_t k = G->measure->head[i]; k >= 0; k = G->measure->next[k]) {
        const sylva__task_rec *x = &r[k];
        if (x->kind == SYLVA_TASK_BATCH || x->kind == SYLVA_TASK_FRONT) {
            out->worker = x->worker;
            out->submitted = x->submit;
        }
        out->tasks++;
        if (x->start >= 0 && !(x->start >= out->start)) out->start = x->start;
        if (x->end >= 0 && !(x->end <= out->end)) out->end = x->end;
        if (x->start >= 0 && x->end >= x->start) out->seconds += x->end - x->start;
        if (x->fetch_start >= 0 && x->fetch_end >= x->fetch_start) out->fetch_seconds += x->fetch_end - x->fetch_start;
    }
    pthread_mutex_unlock(&measure_lock);
    if (out->worker >= 0) {
        int dev = 0;
        char name[8];
        sylva__runtime_worker(out->worker, &out->worker_kind, &dev, name, sizeof name);
    }
    out->gflops = out->seconds > 0 ? out->flops / out->seconds * 1e-9 : 0;
    return SYLVA_OK;
}

int64_t sylva_analysis_front_count(const sylva_analysis_t *an) { return an ? an->tree->nfronts : 0; }

int sylva_analysis_front(const sylva_analysis_t *an, int64_t i, sylva_front_info *out)
{
    sylva__clear_error();
    if (!an || !out || i < 0 || i >= an->tree->nfronts)
        return sylva__fail(SYLVA_ERR_ARGUMENT, "sylva_analysis_front: no front %lld", (long long)i);
    const sylva__front *f = &an->tree->fronts[i];
    memset(out, 0, sizeof *out);
    out->parent = f->parent;
    out->rows = f->m;
    out->cols = f->k;
    out->height = f->height;
    out->flops = f->flops;
    out->batch = an->plan->front_group[i];
    return SYLVA_OK;
}
