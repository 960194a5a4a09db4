/* cmd_study.c — `sylva study FILE`: the batching policies compared on one
 * matrix. The folder (-o, default .) is checked (made when missing, its
 * parent existing) before any work; the matrix is read and b = A·1 formed
 * (as `factor` does without --rhs); then every configuration runs
 * (study_run.c): every policy of --policies (default: all registered),
 * and with --thresholds each one also with the small/large threshold
 * halved and doubled and the batch size divided and multiplied by 4 around
 * the values the first analysis resolved. study.json (json.h) and
 * study.html are written even when runs failed; the exit code is 0 when
 * every run was accurate, else that of the first failure (3: not positive
 * definite, 4: inaccurate or runtime, as `factor`). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "json.h"
#include "study.h"

/* -o DIR: an existing writable folder, or one made here. */
static int check_dir(const char *dir)
{
    struct stat st;
    if (!*dir) return cli_error(SYLVA_ERR_IO, "-o: the folder name is empty");
    if (stat(dir, &st) != 0) {
        if (mkdir(dir, 0777) != 0)
            return cli_error(SYLVA_ERR_IO, "-o: cannot make folder %s: %s", dir, strerror(errno));
        return SYLVA_OK;
    }
    if (!S_ISDIR(st.st_mode)) return cli_error(SYLVA_ERR_IO, "-o: %s is not a folder", dir);
    char probe[4096];
    snprintf(probe, sizeof probe, "%s/study.json", dir);
    return cli_check_output("-o", probe);
}

static void set_label(study_run *r, const char *extra)
{
    snprintf(r->label, sizeof r->label, "%s%s%s", r->policy, extra ? " " : "", extra ? extra : "");
    size_t i = 0;
    for (; r->label[i] && i + 1 < sizeof r->file_label; i++) {
        char c = r->label[i];
        int keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '-';
        r->file_label[i] = keep ? c : '_';
    }
    r->file_label[i] = '\0';
}

/* The configurations: each policy, then (after the first analysis
 * resolved the defaults) its threshold variants. */
static int make_runs(study *s)
{
    const cli_args *a = s->a;
    int np = 0;
    const char *names[64];
    char buf[1024];
    if (a->policies) {
        snprintf(buf, sizeof buf, "%s", a->policies);
        for (char *p = strtok(buf, ","); p && np < 64; p = strtok(NULL, ",")) {
            for (int i = 0; sylva_policy_name(i); i++)
                if (!strcmp(sylva_policy_name(i), p)) names[np++] = sylva_policy_name(i);
        }
    } else {
        for (int i = 0; sylva_policy_name(i) && np < 64; i++) names[np++] = sylva_policy_name(i);
    }
    int per = a->thresholds ? 5 : 1;
    s->runs = calloc((size_t)(np * per), sizeof *s->runs);
    if (!s->runs) return cli_error(SYLVA_ERR_NO_MEMORY, "out of memory");
    for (int p = 0; p < np; p++)
        for (int v = 0; v < per; v++) {
            study_run *r = &s->runs[s->nruns++];
            r->policy = names[p];
            r->small_rows = a->opts.small_front_rows;
            r->batch_flops = a->opts.batch_flops;
            r->repeat = a->repeat;
            r->best = r->median = NAN;
            set_label(r, NULL); /* variants are labelled once the defaults are known */
            r->kept = v;        /* which variant, until the run replaces it */
        }
    return SYLVA_OK;
}

/* A variant's thresholds around the first analysis' resolved values. */
static void apply_variant(study *s, study_run *r)
{
    int v = r->kept;
    r->kept = 0;
    if (v == 0) return;
    char extra[64];
    int64_t rows = s->ai.small_front_rows;
    double flops = s->ai.batch_flops;
    if (v <= 2) {
        r->small_rows = v == 1 ? (rows / 2 > 1 ? rows / 2 : 1) : 2 * rows;
        snprintf(extra, sizeof extra, "small=%lld", (long long)r->small_rows);
    } else {
        r->batch_flops = v == 3 ? flops / 4 : 4 * flops;
        snprintf(extra, sizeof extra, "flops=%.3g", r->batch_flops);
    }
    set_label(r, extra);
}

static void write_run_json(json_writer *j, const study_run *r)
{
    json_begin(j, NULL, '{');
    json_str(j, "label", r->label);
    json_str(j, "policy", r->policy);
    json_int(j, "small_rows", r->small_rows_used);
    json_num(j, "batch_flops", r->batch_flops_used);
    json_str(j, "status", r->inaccurate ? "inaccurate" : sylva_status_name(r->status));
    if (r->status) json_str(j, "message", r->message);
    json_str(j, "mode", sylva_exec_mode_name(r->mode));
    json_begin(j, "seconds", '[');
    for (int k = 0; k < r->done; k++) json_num(j, NULL, r->seconds[k]);
    json_end(j);
    json_num(j, "seconds_first", r->first);
    json_int(j, "ranked_repetitions", r->nranked);
    json_num(j, "seconds_median", r->median);
    json_num(j, "seconds_best", r->best);
    json_num(j, "seconds_worst", r->worst);
    json_int(j, "measured_repetition", r->done ? r->kept + 1 : 0);
    json_num(j, "gflops", r->gflops);
    json_num(j, "backward_error", r->berr);
    json_bool(j, "accurate", r->accurate);
    json_int(j, "plan_batches", r->plan_batches);
    json_num(j, "plan_padding_waste", r->plan_padding);
    if (r->done) run_summary_json(j, "measured", &r->sum);
    json_str(j, "trace", r->trace[0] ? r->trace : NULL);
    json_end(j);
}

static int write_json(const study *s, const char *path, int status)
{
    const cli_args *a = s->a;
    json_writer j;
    if (json_open(&j, path, '{')) return cli_error(SYLVA_ERR_NO_MEMORY, "out of memory");
    json_str(&j, "status", sylva_status_name(status));
    if (status) json_str(&j, "message", cli_message(status));
    json_str(&j, "command", "study");
    json_str(&j, "version", sylva_version());
    json_str(&j, "file", a->file);
    json_int(&j, "n", s->ai.n);
    json_int(&j, "nnz_A", s->ai.nnz_A);
    json_int(&j, "nnz_L", s->ai.nnz_L);
    json_num(&j, "flops", s->ai.flops);
    json_int(&j, "fronts", s->ai.fronts);
    json_int(&j, "tree_height", s->ai.tree_height);
    json_int(&j, "max_front_rows", s->ai.max_front_rows);
    json_str(&j, "ordering", sylva_ordering_name(s->ai.ordering));
    json_str(&j, "rhs", s->rhs);
    json_begin(&j, "runtime", '{');
    json_int(&j, "cpu_workers", s->ri.cpu_workers);
    json_int(&j, "gpu_workers", s->ri.gpu_workers);
    json_int(&j, "gpus", s->ri.gpus);
    json_str(&j, "scheduler", s->ri.scheduler);
    json_str(&j, "device", s->ri.gpus ? sylva_gpu_name() : "cpu");
    json_end(&j);
    json_begin(&j, "options", '{');
    json_str(&j, "policies", a->policies);
    json_bool(&j, "thresholds", a->thresholds);
    json_int(&j, "repeat", a->repeat);
    json_str(&j, "mode", sylva_exec_mode_name(a->opts.mode));
    json_int(&j, "threads", a->threads);
    json_int(&j, "gpus", a->opts.ncuda);
    json_int(&j, "small_rows", a->opts.small_front_rows);
    json_int(&j, "tile_rows", a->opts.tile_rows);
    json_num(&j, "batch_flops", a->opts.batch_flops);
    json_num(&j, "max_backward_error", s->max_berr);
    json_end(&j);
    json_str(&j, "fastest", s->best >= 0 ? s->runs[s->best].label : NULL);
    json_str(&j, "best", s->starred ? s->runs[s->best].label : NULL);
    json_str(&j, "verdict", s->verdict);
    json_str(&j, "worst", s->worst >= 0 ? s->runs[s->worst].label : NULL);
    json_begin(&j, "runs", '[');
    for (int i = 0; i < s->nruns; i++) write_run_json(&j, &s->runs[i]);
    json_end(&j);
    json_str(&j, "html", "study.html");
    return json_close(&j);
}

void study_rank(study *s)
{
    s->best = s->worst = s->runner = -1;
    s->starred = 0;
    for (int i = 0; i < s->nruns; i++) {
        const study_run *r = &s->runs[i];
        if (r->status || !r->done) continue;
        if (s->best < 0 || r->median < s->runs[s->best].median) {
            s->runner = s->best;
            s->best = i;
        } else if (s->runner < 0 || r->median < s->runs[s->runner].median) {
            s->runner = i;
        }
        if (s->worst < 0 || r->median > s->runs[s->worst].median) s->worst = i;
    }
    if (s->best < 0) {
        snprintf(s->verdict, sizeof s->verdict, "no run succeeded: no best");
        return;
    }
    const study_run *b = &s->runs[s->best];
    if (s->runner < 0) {
        snprintf(s->verdict, sizeof s->verdict, "one run succeeded (%s): nothing to rank it against", b->label);
        return;
    }
    const study_run *c = &s->runs[s->runner];
    if (b->nranked < 2 || c->nranked < 2) {
        snprintf(s->verdict, sizeof s->verdict,
                 "no best: %s is fastest, but with fewer than 2 refactorizations a run has no spread to "
                 "compare its lead with (--repeat 5 or more)",
                 b->label);
        return;
    }
    double lead = c->median - b->median, spread = b->worst - b->best;
    if (c->worst - c->best > spread) spread = c->worst - c->best;
    s->starred = lead > spread;
    snprintf(s->verdict, sizeof s->verdict,
             "%s %s: it leads %s by %.3g s (%.1f%%), %s the spread of %.3g s (max - min of the refactorizations)%s",
             s->starred ? "best:" : "no best:", b->label, c->label, lead, c->median > 0 ? 100 * lead / c->median : 0.0,
             s->starred ? "more than" : "within", spread, s->starred ? "" : ": the difference may be noise");
}

static void print_summary(const study *s)
{
    fprintf(s->a->report, "%s: n = %lld, nnz(L) = %lld, flops = %.3e, %lld fronts; %d CPU + %d GPU workers\n", s->a->file,
           (long long)s->ai.n, (long long)s->ai.nnz_L, s->ai.flops, (long long)s->ai.fronts, s->ri.cpu_workers,
           s->ri.gpu_workers);
    fprintf(s->a->report, "  %-26s %9s %9s %9s %9s %9s %8s %8s %7s %10s\n", "run", "first s", "min s", "median s", "max s",
           "GFLOP/s", "batches", "padding", "idle %", "berr");
    for (int i = 0; i < s->nruns; i++) {
        const study_run *r = &s->runs[i];
        double cap = r->sum.span * (double)(r->sum.workers[0] + r->sum.workers[1]);
        double idle = cap > 0 ? 100 * (r->sum.idle[0] + r->sum.idle[1]) / cap : 0;
        char padding[16];
        if (r->mode == SYLVA_MODE_CPU) snprintf(padding, sizeof padding, "-"); /* CPU batches do not pad */
        else snprintf(padding, sizeof padding, "%.1f%%", 100 * r->sum.padding);
        fprintf(s->a->report, "  %-26s %9.4f %9.4f %9.4f %9.4f %9.2f %8lld %8s %6.1f%% %10.2e%s%s\n", r->label, r->first, r->best,
               r->median, r->worst, r->gflops, (long long)r->sum.batches, padding, idle, r->berr,
               i == s->best ? (s->starred ? "  best" : "  fastest") : "", r->status ? "  FAILED: " : "");
        if (r->status) fprintf(s->a->report, "      %s\n", r->message);
    }
    fprintf(s->a->report, "  %s\n", s->verdict);
}

int cli_cmd_study(const cli_args *a)
{
    /* A study is one process's (its runs compare policies on one
     * machine): each rank would run all of it. */
    if (cli_launcher_size() > 1) {
        fprintf(stderr, "sylva: study runs in one process: start it without mpirun (each of the %d ranks would run "
                        "the whole study); `sylva factor` is the distributed command\n",
                cli_launcher_size());
        return EXIT_USAGE;
    }
    study s;
    memset(&s, 0, sizeof s);
    s.a = a;
    s.dir = a->output ? a->output : ".";
    s.best = s.worst = s.runner = -1;
    s.max_berr = a->max_berr > 0 ? a->max_berr
                 : a->opts.precision == SYLVA_FLOAT32 ? SYLVA_ACCURATE_BACKWARD_ERROR_FLOAT32
                                                      : SYLVA_ACCURATE_BACKWARD_ERROR_FLOAT64;
    char json_path[4096], html_path[4096];
    snprintf(json_path, sizeof json_path, "%s/study.json", s.dir);
    snprintf(html_path, sizeof html_path, "%s/study.html", s.dir);
    int status = check_dir(s.dir);
    if (!status) status = cli_check_overlaps(a);
    if (!status) status = cli_check_outputs(a);
    if (status) return cli_fail(status);
    int64_t nrhs = 0;
    if ((status = sylva_read_matrix_market(a->file, &s.A))) goto out;
    if (!s.A->values) {
        status = cli_error(SYLVA_ERR_PATTERN_ONLY, "%s: pattern matrix (no values): it can be analyzed, not factored",
                           a->file);
        goto out;
    }
    if ((status = cli_make_rhs(a, s.A, &s.b, &nrhs, s.rhs, sizeof s.rhs))) goto out;
    s.perm = malloc((size_t)(s.A->n + 1) * sizeof *s.perm);
    if (!s.perm) {
        status = cli_error(SYLVA_ERR_NO_MEMORY, "out of memory");
        goto out;
    }
    sylva_options one = a->opts; /* one process: the distributed path is `sylva factor`'s */
    one.mpi = SYLVA_MPI_OFF;
    if ((status = sylva_init(&one))) goto out;
    if ((status = cli_check_gpus(a))) goto out;
    sylva_runtime_query(&s.ri);
    s.nworkers = s.ri.cpu_workers + s.ri.gpu_workers;
    s.workers = calloc((size_t)s.nworkers + 1, sizeof *s.workers);
    if (!s.workers) {
        status = cli_error(SYLVA_ERR_NO_MEMORY, "out of memory");
        goto out;
    }
    for (int w = 0; w < s.nworkers; w++)
        if (sylva_worker_query(w, &s.workers[w])) snprintf(s.workers[w].name, sizeof s.workers[w].name, "worker %d", w);
    if ((status = make_runs(&s))) goto out;
    int first_failure = SYLVA_OK;
    for (int i = 0; i < s.nruns; i++) {
        study_run *r = &s.runs[i];
        if (i > 0) apply_variant(&s, r);
        else r->kept = 0;
        if (!a->quiet) fprintf(stderr, "sylva: study %d/%d: %s\n", i + 1, s.nruns, r->label);
        if ((status = study_run_one(&s, r, i))) goto out;
        if (i == 0 && r->status && !s.fronts) { /* no tree: nothing else can run */
            first_failure = r->status;
            break;
        }
        if (r->status && !first_failure) first_failure = r->status;
    }
    study_rank(&s);
    if (!a->quiet) print_summary(&s);
    if ((status = study_write_html(&s, html_path))) {
        status = cli_fail_output(status);
        write_json(&s, json_path, SYLVA_ERR_IO);
        goto done;
    }
    if ((status = write_json(&s, json_path, first_failure))) {
        status = cli_fail_output(status);
        goto done;
    }
    if (!a->quiet) fprintf(a->report, "  wrote %s and %s\n", json_path, html_path);
    if (first_failure) {
        int failed = 0;
        for (int i = 0; i < s.nruns; i++) failed += s.runs[i].status != SYLVA_OK;
        fprintf(stderr, "sylva: study: %d of %d runs failed (study.json has each one's message)\n", failed, s.nruns);
    }
    status = cli_exit_code(first_failure);
    goto done;
out:
    /* Nothing ran (bad input, no memory, no runtime): the JSON says why. */
    write_json(&s, json_path, status);
    status = cli_fail(status);
done:
    for (int i = 0; i < s.nruns; i++) study_run_free(&s.runs[i]);
    free(s.runs);
    free(s.fronts);
    free(s.workers);
    free(s.perm);
    free(s.b);
    sylva_matrix_free(s.A);
    sylva_finalize();
    return status;
}
