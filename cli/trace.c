/* trace.c — `--trace FILE`: a factorization run as a Chrome trace (JSON
 * object format: traceEvents; opens in ui.perfetto.dev and
 * chrome://tracing), written through json.h. One track (thread) per StarPU
 * worker, named as StarPU names it, every worker listed even if idle; one
 * complete ("X") slice per task on its worker's track, named by its kind
 * (batch, front, potrf, ...) with its batch's statistics as arguments; the
 * time each task spent fetching its input data (transfers, allocation) as
 * a slice of its own on a second track of the worker ("NAME data"), when
 * StarPU recorded any. Times are StarPU's task profiling dates, in µs from
 * the run's start. A GPU worker may overlap tasks (asynchronous streams):
 * the overlapping ones go to extra lanes ("NAME lane 2") so slices on one
 * track never overlap. What explains idle time (trace_deps.c): a flow
 * arrow per dependency between batches (from the last task of the batch
 * whose contribution blocks are read to the first task of the batch that
 * reads them), per worker a counter of the tasks it ran that were waiting
 * (their inputs done, not yet started: an upper bound on its queue), and
 * the critical path — the chain of dependencies that held up the batch
 * that ended last — on a track of its own, its tasks marked. And per GPU
 * a counter of the device memory StarPU had allocated there, sampled at
 * every GPU task's start and end (sylva_factor_memory_sample; none on a
 * CPU run). Fails only on memory or the write (a status). */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "json.h"
#include "trace_deps.h"

enum { LANE_TID = 1000, FETCH_TID = 100000, CRITICAL_TID = 200000, MAX_LANES = 8 };

typedef struct task_ref {
    int64_t i;
    sylva_task_record r;
} task_ref;

static int by_worker_start(const void *a, const void *b)
{
    const sylva_task_record *x = &((const task_ref *)a)->r, *y = &((const task_ref *)b)->r;
    if (x->worker != y->worker) return (x->worker > y->worker) - (x->worker < y->worker);
    return (x->start > y->start) - (x->start < y->start);
}

static void track_name(json_writer *j, int tid, const char *name, int sort)
{
    json_begin(j, NULL, '{');
    json_str(j, "name", "thread_name");
    json_str(j, "ph", "M");
    json_int(j, "pid", 1);
    json_int(j, "tid", tid);
    json_begin(j, "args", '{');
    json_str(j, "name", name);
    json_end(j);
    json_end(j);
    json_begin(j, NULL, '{');
    json_str(j, "name", "thread_sort_index");
    json_str(j, "ph", "M");
    json_int(j, "pid", 1);
    json_int(j, "tid", tid);
    json_begin(j, "args", '{');
    json_int(j, "sort_index", sort);
    json_end(j);
    json_end(j);
}

static void slice(json_writer *j, const char *name, const char *cat, int tid, double t0, double t1)
{
    json_str(j, "name", name);
    json_str(j, "cat", cat);
    json_str(j, "ph", "X");
    json_int(j, "pid", 1);
    json_int(j, "tid", tid);
    json_num(j, "ts", t0 * 1e6);
    json_num(j, "dur", (t1 - t0) * 1e6);
}

static void task_args(json_writer *j, const sylva_task_record *t, const sylva_batch_record *b, int critical)
{
    json_begin(j, "args", '{');
    json_bool(j, "critical_path", critical);
    json_int(j, "batch", t->batch);
    json_int(j, "fronts", b->fronts);
    json_int(j, "min_m", b->min_rows);
    json_int(j, "max_m", b->max_rows);
    json_num(j, "mean_m", b->mean_rows);
    json_int(j, "min_k", b->min_cols);
    json_int(j, "max_k", b->max_cols);
    json_num(j, "mean_k", b->mean_cols);
    json_num(j, "flops", b->flops);
    json_num(j, "padding", b->padding);
    json_num(j, "padding_level", b->padding_level);
    json_num(j, "batch_gflops", b->gflops);
    json_num(j, "fetch_us", t->fetch_end >= t->fetch_start ? (t->fetch_end - t->fetch_start) * 1e6 : 0);
    json_end(j);
}

/* A dependency as a flow arrow: from slice (tid_a at ts_a) to the slice
 * (tid_b at ts_b) it binds to. */
static void flow(json_writer *j, int64_t id, int tid_a, double ts_a, int tid_b, double ts_b)
{
    for (int end = 0; end < 2; end++) {
        json_begin(j, NULL, '{');
        json_str(j, "name", "contribution blocks");
        json_str(j, "cat", "dependency");
        json_str(j, "ph", end ? "f" : "s");
        if (end) json_str(j, "bp", "e");
        json_int(j, "id", id);
        json_int(j, "pid", 1);
        json_int(j, "tid", end ? tid_b : tid_a);
        json_num(j, "ts", (end ? ts_b : ts_a) * 1e6);
        json_end(j);
    }
}

typedef struct change {
    double ts;
    int delta;
} change;

static int by_time(const void *a, const void *b)
{
    const change *x = a, *y = b;
    if (x->ts != y->ts) return (x->ts > y->ts) - (x->ts < y->ts);
    return x->delta - y->delta; /* a start before a new arrival at the same time */
}

/* Per worker, the tasks it ran that were waiting (ready, not started) over time. */
static int waiting_counters(json_writer *j, const trace_deps *d, const sylva_task_record *t, int64_t n, int nw)
{
    change *c = malloc((size_t)(2 * n + 1) * sizeof *c);
    if (!c) return SYLVA_ERR_NO_MEMORY;
    for (int w = 0; w < nw; w++) {
        int64_t m = 0;
        for (int64_t i = 0; i < n; i++) {
            if (t[i].worker != w) continue;
            double r = trace_task_ready(d, t, i);
            if (!(r >= 0 && r < t[i].start)) continue;
            c[m++] = (change){r, 1};
            c[m++] = (change){t[i].start, -1};
        }
        qsort(c, (size_t)m, sizeof *c, by_time);
        sylva_worker_info wi;
        char name[96];
        if (sylva_worker_query(w, &wi) != SYLVA_OK) snprintf(wi.name, sizeof wi.name, "worker %d", w);
        snprintf(name, sizeof name, "waiting for %s", wi.name);
        int level = 0;
        for (int64_t k = 0; k < m; k++) {
            level += c[k].delta;
            if (k + 1 < m && c[k + 1].ts == c[k].ts) continue; /* one sample per instant */
            json_begin(j, NULL, '{');
            json_str(j, "name", name);
            json_str(j, "ph", "C");
            json_int(j, "pid", 1);
            json_num(j, "ts", c[k].ts * 1e6);
            json_begin(j, "args", '{');
            json_int(j, "tasks", level);
            json_end(j);
            json_end(j);
        }
    }
    free(c);
    return SYLVA_OK;
}

typedef struct sample_ref {
    int64_t i; /* the order taken: it breaks ties of time */
    sylva_memory_sample s;
} sample_ref;

static int by_gpu_time(const void *a, const void *b)
{
    const sample_ref *x = a, *y = b;
    if (x->s.gpu != y->s.gpu) return (x->s.gpu > y->s.gpu) - (x->s.gpu < y->s.gpu);
    if (x->s.time != y->s.time) return (x->s.time > y->s.time) - (x->s.time < y->s.time);
    return (x->i > y->i) - (x->i < y->i);
}

/* Per GPU, the bytes StarPU had allocated there over time, one sample per
 * instant (the last taken). */
static int memory_counters(json_writer *j, const sylva_factor_t *F)
{
    int64_t n = sylva_factor_memory_sample_count(F), m = 0;
    sample_ref *r = malloc((size_t)(n + 1) * sizeof *r);
    if (!r) return SYLVA_ERR_NO_MEMORY;
    for (int64_t i = 0; i < n; i++)
        if (sylva_factor_memory_sample(F, i, &r[m].s) == SYLVA_OK && r[m].s.time >= 0) r[m++].i = i;
    qsort(r, (size_t)m, sizeof *r, by_gpu_time);
    for (int64_t k = 0; k < m; k++) {
        const sylva_memory_sample *s = &r[k].s;
        if (k + 1 < m && r[k + 1].s.gpu == s->gpu && r[k + 1].s.time == s->time) continue;
        char name[64];
        snprintf(name, sizeof name, "device memory GPU %d (CUDA %d)", s->gpu, s->device);
        json_begin(j, NULL, '{');
        json_str(j, "name", name);
        json_str(j, "ph", "C");
        json_int(j, "pid", 1);
        json_num(j, "ts", s->time * 1e6);
        json_begin(j, "args", '{');
        json_int(j, "bytes", (long long)s->bytes);
        json_end(j);
        json_end(j);
    }
    free(r);
    return SYLVA_OK;
}

int cli_write_trace(const char *path, const sylva_analysis_t *an, const sylva_factor_t *F, const char *title)
{
    sylva_runtime_info ri;
    int status = sylva_runtime_query(&ri);
    if (status) return status;
    int nw = ri.cpu_workers + ri.gpu_workers;
    int64_t nt = sylva_factor_task_count(F);
    task_ref *tasks = malloc((size_t)(nt + 1) * sizeof *tasks);
    int *lanes = calloc((size_t)nw + 1, sizeof *lanes), *fetch = calloc((size_t)nw + 1, sizeof *fetch);
    json_writer j;
    if (!tasks || !lanes || !fetch || json_open(&j, path, '{')) {
        free(tasks);
        free(lanes);
        free(fetch);
        return cli_error(SYLVA_ERR_NO_MEMORY, "%s: out of memory", path);
    }
    int64_t n = 0;
    for (int64_t i = 0; i < nt; i++)
        if (sylva_factor_task_record(F, i, &tasks[n].r) == SYLVA_OK && tasks[n].r.start >= 0 &&
            tasks[n].r.end >= tasks[n].r.start && tasks[n].r.worker >= 0 && tasks[n].r.worker < nw) {
            tasks[n].i = i;
            n++;
        }
    qsort(tasks, (size_t)n, sizeof *tasks, by_worker_start);
    /* The dependencies over the sorted tasks; each task's track once placed. */
    sylva_task_record *rec = malloc((size_t)(n + 1) * sizeof *rec);
    int *tid = malloc((size_t)(n + 1) * sizeof *tid);
    trace_deps d;
    memset(&d, 0, sizeof d);
    if (!rec || !tid) status = cli_error(SYLVA_ERR_NO_MEMORY, "%s: out of memory", path);
    for (int64_t k = 0; !status && k < n; k++) rec[k] = tasks[k].r;
    if (!status) status = trace_deps_build(an, F, rec, n, &d);
    if (status) {
        json_discard(&j);
        free(rec);
        free(tid);
        free(tasks);
        free(lanes);
        free(fetch);
        return status;
    }
    json_str(&j, "displayTimeUnit", "ms");
    json_begin(&j, "otherData", '{');
    json_str(&j, "generator", "sylva");
    json_str(&j, "version", sylva_version());
    json_str(&j, "title", title);
    json_int(&j, "workers", nw);
    json_int(&j, "tasks", nt);
    json_int(&j, "dependencies", d.edges);
    json_int(&j, "critical_path_batches", d.critical_batches);
    json_num(&j, "critical_path_seconds", d.critical_seconds);
    json_num(&j, "critical_path_busy_seconds", d.critical_busy);
    json_int(&j, "memory_samples", (long long)sylva_factor_memory_sample_count(F));
    json_end(&j);
    json_begin(&j, "traceEvents", '[');
    json_begin(&j, NULL, '{');
    json_str(&j, "name", "process_name");
    json_str(&j, "ph", "M");
    json_int(&j, "pid", 1);
    json_begin(&j, "args", '{');
    json_str(&j, "name", title);
    json_end(&j);
    json_end(&j);
    double lane_end[MAX_LANES];
    int worker = -1;
    for (int64_t k = 0; k < n; k++) {
        const sylva_task_record *t = &tasks[k].r;
        if (t->worker != worker) {
            worker = t->worker;
            for (int l = 0; l < MAX_LANES; l++) lane_end[l] = -1;
        }
        int lane = 0;
        while (lane < MAX_LANES - 1 && lane_end[lane] > t->start) lane++;
        lane_end[lane] = t->end;
        if (lane + 1 > lanes[worker]) lanes[worker] = lane + 1;
        tid[k] = worker + LANE_TID * lane;
        sylva_batch_record b;
        memset(&b, 0, sizeof b);
        sylva_factor_batch_record(F, t->batch, &b);
        int critical = t->batch >= 0 && t->batch < d.nb && d.critical[t->batch];
        json_begin(&j, NULL, '{');
        slice(&j, sylva_task_kind_name(t->kind), "task", tid[k], t->start, t->end);
        if (critical) json_str(&j, "cname", "terrible"); /* red in chrome://tracing */
        task_args(&j, t, &b, critical);
        json_end(&j);
        if (t->fetch_start >= 0 && t->fetch_end > t->fetch_start) {
            fetch[worker] = 1;
            json_begin(&j, NULL, '{');
            slice(&j, "fetch inputs", "transfer", worker + FETCH_TID, t->fetch_start, t->fetch_end);
            json_begin(&j, "args", '{');
            json_int(&j, "batch", t->batch);
            json_str(&j, "task", sylva_task_kind_name(t->kind));
            json_end(&j);
            json_end(&j);
        }
    }
    /* Dependencies: last task of each predecessor → first task of the batch. */
    int64_t flows = 0;
    for (int64_t b = 0; b < d.nb; b++)
        for (int64_t p = d.pred_ptr[b]; p < d.pred_ptr[b + 1] && d.first[b] >= 0; p++) {
            int64_t u = d.pred[p];
            if (d.last[u] < 0) continue;
            flow(&j, ++flows, tid[d.last[u]], rec[d.last[u]].start, tid[d.first[b]], rec[d.first[b]].start);
        }
    /* The critical path's batches, in time order (each starts after the one
     * it waited for ended), on their own track. */
    double prev = -1;
    int64_t step = 0;
    for (int64_t b = 0; b < d.nb; b++) { /* by first start: d.order lists them */
        int64_t c = d.order[b];
        if (!d.critical[c] || d.first[c] < 0) continue;
        double t0 = rec[d.first[c]].start, t1 = rec[d.last[c]].end;
        if (t0 < prev) t0 = prev; /* profiling dates of a dependency may touch */
        if (t1 < t0) t1 = t0;
        json_begin(&j, NULL, '{');
        slice(&j, "critical path", "critical", CRITICAL_TID, t0, t1);
        json_begin(&j, "args", '{');
        json_int(&j, "batch", c);
        json_int(&j, "step", ++step);
        json_end(&j);
        json_end(&j);
        prev = t1;
    }
    if (d.critical_batches > 0) track_name(&j, CRITICAL_TID, "critical path", -1);
    if (!(status = waiting_counters(&j, &d, rec, n, nw))) status = memory_counters(&j, F);
    /* Every worker's track, named, in worker order; extra lanes and data tracks after it. */
    for (int w = 0; w < nw && !status; w++) {
        sylva_worker_info wi;
        char name[96];
        if (sylva_worker_query(w, &wi) != SYLVA_OK) snprintf(wi.name, sizeof wi.name, "worker %d", w);
        track_name(&j, w, wi.name, 10 * w);
        for (int l = 1; l < lanes[w]; l++) {
            snprintf(name, sizeof name, "%s lane %d", wi.name, l + 1);
            track_name(&j, w + LANE_TID * l, name, 10 * w + l);
        }
        if (fetch[w]) {
            snprintf(name, sizeof name, "%s data", wi.name);
            track_name(&j, w + FETCH_TID, name, 10 * w + 9);
        }
    }
    trace_deps_free(&d);
    free(rec);
    free(tid);
    free(tasks);
    free(lanes);
    free(fetch);
    if (status) {
        json_discard(&j);
        return cli_error(status, "%s: out of memory", path);
    }
    return json_close(&j);
}
