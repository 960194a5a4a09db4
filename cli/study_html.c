/* study_html.c — study.html: one self-contained page (inline CSS and SVG,
 * no network, no framework; a few lines of plain script for highlighting,
 * which the page works without) that a person reads in a browser: what was
 * studied, the time of every run with the best marked, each run's batch
 * size and padding distributions, busy/idle timelines of the best and the
 * slowest run, the assembly tree coloured by batch for both, and a table of
 * the numbers. Built in memory and written atomically (sylva_write_file);
 * a status. The page records script errors on its root element
 * (data-errors) and sets data-ready when its script ran: the headless
 * browser test reads both. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "study.h"

static const char css[] =
    "body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;margin:24px auto;max-width:1352px;color:#222}"
    "h1{font-size:22px;margin-bottom:4px}h2{font-size:17px;margin-top:32px;border-bottom:1px solid #ddd}"
    ".wide{overflow-x:auto}table{border-collapse:collapse;font-size:12px}td,th{padding:3px 5px;border-bottom:1px solid #eee;text-align:right}"
    "td:first-child,th:first-child{text-align:left}tr.best td{background:#e8f5e9}tr.failed td{background:#fdecea}"
    "tr.hl td{outline:2px solid #f0b400}"
    "svg text{font:12px system-ui,sans-serif;fill:#222}svg .tick{font-size:10px;fill:#555}svg .cap{font-size:12px}"
    ".bar{cursor:pointer}.bar.best{stroke:#145a14;stroke-width:1.5}.hist{margin-right:8px}"
    ".front.hl{stroke:#000;stroke-width:1.5}.note{color:#555;font-size:12px}.runs{display:flex;flex-wrap:wrap}"
    ".legend span{display:inline-block;width:10px;height:10px;margin:0 4px 0 12px}code{background:#f4f4f4}";

/* First in <head>: count script errors on the root element. */
static const char error_trap[] =
    "(function(){var n=0;function note(){n++;document.documentElement.setAttribute('data-errors',String(n));}"
    "window.addEventListener('error',note);window.addEventListener('unhandledrejection',note);"
    "var ce=console.error;console.error=function(){note();return ce.apply(console,arguments);};})();";

/* Last in <body>: hovering a front outlines its whole batch; a bar click
 * marks the run's row of the table; the table's overflow of its box (in
 * px; ≤ 0: nothing clipped, the page fits a 1400 px window) is recorded on
 * the root element for the browser test. */
static const char behaviour[] =
    "(function(){"
    "document.querySelectorAll('svg.tree').forEach(function(svg){"
    "svg.addEventListener('mouseover',function(e){var b=e.target.getAttribute('data-batch');if(b===null)return;"
    "svg.querySelectorAll('.front').forEach(function(r){r.classList.toggle('hl',r.getAttribute('data-batch')===b);});});"
    "svg.addEventListener('mouseleave',function(){svg.querySelectorAll('.front.hl').forEach(function(r){"
    "r.classList.remove('hl');});});});"
    "document.querySelectorAll('.bar').forEach(function(bar){bar.addEventListener('click',function(){"
    "var row=document.getElementById('row-'+bar.id.slice(4));document.querySelectorAll('tr.hl').forEach(function(t){"
    "t.classList.remove('hl');});if(row){row.classList.add('hl');row.scrollIntoView({block:'center'});}});});"
    "var t=document.getElementById('numbers');if(t)document.documentElement.setAttribute('data-table-overflow',"
    "String(t.scrollWidth-t.parentNode.clientWidth));"
    "document.documentElement.setAttribute('data-ready','1');})();";

static void table(FILE *f, const study *s)
{
    fputs("<div class=\"wide\"><table id=\"numbers\"><tr><th>run</th><th>small rows</th><th>batch flops</th>"
          "<th>first s</th><th>min s</th><th>median s</th><th>max s</th><th>GFLOP/s</th><th>batches</th><th>tasks</th><th>fronts/batch</th><th>padding</th>"
          "<th>padding (levels)</th><th>batch GFLOP/s (median)</th><th>busy s</th><th>idle %</th><th>fetch s</th>"
          "<th>backward error</th><th>status</th></tr>\n",
          f);
    for (int i = 0; i < s->nruns; i++) {
        const study_run *r = &s->runs[i];
        const run_summary *m = &r->sum;
        double cap = m->span * (double)(m->workers[0] + m->workers[1]);
        int starred = i == s->best && s->starred;
        char pad[32], pad_level[32]; /* CPU workers pad nothing */
        if (r->mode == SYLVA_MODE_CPU) {
            snprintf(pad, sizeof pad, "\xe2\x80\x94");
            snprintf(pad_level, sizeof pad_level, "\xe2\x80\x94");
        } else {
            snprintf(pad, sizeof pad, "%.1f%%", 100 * m->padding);
            snprintf(pad_level, sizeof pad_level, "%.1f%%", 100 * m->padding_level);
        }
        fprintf(f, "<tr id=\"row-%s\" class=\"%s\"><td>", r->file_label,
                starred ? "best" : r->status ? "failed" : "");
        html_text(f, r->label);
        fprintf(f, "%s</td><td>%lld</td><td>%.3g</td><td>%.4g</td><td>%.4g</td><td>%.4g</td><td>%.4g</td><td>%.2f</td>"
                   "<td>%lld</td><td>%lld</td><td>%.1f</td><td>%s</td><td>%s</td><td>%.2f</td><td>%.4g</td><td>%.1f</td>"
                   "<td>%.3g</td><td>%.2e</td><td>",
                starred ? " \xe2\x98\x85" : "", (long long)r->small_rows_used, r->batch_flops_used, r->first, r->best,
                r->median, r->worst, r->gflops, (long long)m->batches, (long long)m->tasks, m->fronts_per_batch, pad,
                pad_level, m->gflops_median, m->busy[0] + m->busy[1],
                cap > 0 ? 100 * (m->idle[0] + m->idle[1]) / cap : 0.0, m->fetch, r->berr);
        if (r->status) html_text(f, r->message);
        else fputs("ok", f);
        fputs("</td></tr>\n", f);
    }
    fputs("</table></div>\n", f);
}

static void run_section(FILE *f, const study *s, int i, const char *what, const char *key)
{
    const study_run *r = &s->runs[i];
    char id[64];
    fprintf(f, "<h3>%s: ", what);
    html_text(f, r->label);
    fprintf(f, " (%.4g s)</h3>\n", r->median);
    snprintf(id, sizeof id, "timeline-%s", key);
    svg_timeline(f, s, r, id);
    fprintf(f, "<p class=\"note span\">Its repetition %d: the factorization took %.4g s (the bar above: "
               "sylva_factor_info.seconds, from the call to its return); its tasks ran from the first start to the "
               "last end in %.4g s (this timeline). The difference, %.4g s, is the host's work outside the tasks: "
               "preparing and submitting them, before the first starts and between tasks, and collecting the "
               "results after the last ends.</p>\n",
            r->kept + 1, r->seconds[r->kept], r->sum.span, r->seconds[r->kept] - r->sum.span);
}

int study_write_html(const study *s, const char *path)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) return cli_error(SYLVA_ERR_NO_MEMORY, "out of memory for the report");
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"/>\n<title>sylva study: ", f);
    html_text(f, s->a->file);
    fprintf(f, "</title>\n<style>%s</style>\n<script>%s</script>\n</head><body>\n", css, error_trap);
    fputs("<h1>Batching policies on ", f);
    html_text(f, s->a->file);
    fprintf(f, "</h1>\n<p>n = %lld, nnz(A) = %lld, nnz(L) = %lld, %.3e flops, %lld fronts (tree height %lld, largest "
               "%lld rows), ordering %s. %d CPU and %d GPU workers (",
            (long long)s->ai.n, (long long)s->ai.nnz_A, (long long)s->ai.nnz_L, s->ai.flops, (long long)s->ai.fronts,
            (long long)s->ai.tree_height, (long long)s->ai.max_front_rows, sylva_ordering_name(s->ai.ordering),
            s->ri.cpu_workers, s->ri.gpu_workers);
    html_text(f, s->ri.gpus ? sylva_gpu_name() : "no GPU");
    fprintf(f, "), scheduler %s; each run factored %d time%s: the first factorization (it also allocates L) "
               "is reported apart, and runs are ranked by the median of the refactorizations, shown with their "
               "spread (min to max)%s; b = ",
            s->ri.scheduler, s->a->repeat, s->a->repeat == 1 ? "" : "s",
            s->a->repeat == 1 ? " (with one factorization, by it alone)" : "");
    html_text(f, s->rhs);
    fprintf(f, ", every backward error held to %.3g. sylva %s.</p>\n", s->max_berr, sylva_version());

    fputs("<h2>Factorization time per run</h2>\n", f);
    svg_time_bars(f, s);
    fputs("<p class=\"verdict\">", f);
    html_text(f, s->verdict);
    fputs(".</p>\n<p class=\"note\">Bar: the median refactorization; whisker: the fastest to the slowest "
          "refactorization; (first: the first factorization). Green: the fastest, starred best only when its lead "
          "over the runner-up exceeds the spread of either; grey: the slowest; red: failed (see the table). Click a "
          "bar to find its row.</p>\n",
          f);

    fputs("<h2>Batch sizes and padding</h2>\n<p class=\"note\">Per run (its median repetition): how many fronts "
          "its batches hold, and, for runs on GPUs, how much of a fixed-size batched kernel's work would be "
          "padding (1 − flops / (fronts × the largest front's flops)); CPU runs pad nothing.</p>\n",
          f);
    for (int i = 0; i < s->nruns; i++) {
        const study_run *r = &s->runs[i];
        if (!r->done) continue;
        fputs("<h3>", f);
        html_text(f, r->label);
        fputs("</h3>\n<div class=\"runs\">\n", f);
        svg_histograms(f, s, r);
        fputs("</div>\n", f);
    }

    fputs("<h2>Busy and idle workers</h2>\n<p class=\"legend note\">Each worker's tasks over the run "
          "(grey: idle).<span style=\"background:#4e79a7\"></span>batch<span style=\"background:#e15759\"></span>"
          "large front<span style=\"background:#f28e2b\"></span>tile task</p>\n",
          f);
    if (s->best >= 0) run_section(f, s, s->best, "Fastest", "best");
    if (s->worst >= 0 && s->worst != s->best) run_section(f, s, s->worst, "Slowest", "worst");
    if (s->best < 0) fputs("<p>No run succeeded.</p>\n", f);

    fputs("<h2>Assembly tree coloured by batch</h2>\n", f);
    if (s->best >= 0) {
        fputs("<h3>Fastest: ", f);
        html_text(f, s->runs[s->best].label);
        fputs("</h3>\n", f);
        svg_tree(f, s, &s->runs[s->best], "tree-best");
    }
    if (s->worst >= 0 && s->worst != s->best) {
        fputs("<h3>Slowest: ", f);
        html_text(f, s->runs[s->worst].label);
        fputs("</h3>\n", f);
        svg_tree(f, s, &s->runs[s->worst], "tree-worst");
    }

    fputs("<h2>Numbers</h2>\n", f);
    table(f, s);
    fputs("<p class=\"note\">padding (levels): the same with each level's largest m and k, as sylva's batched "
          "kernels launch; busy: the workers' time in tasks; idle: the rest of span × workers; fetch: time tasks "
          "waited for their input data. docs/policies.md defines every column. Per-run traces "
          "(trace_*.json) open in ui.perfetto.dev.</p>\n",
          f);
    fprintf(f, "<script>%s</script>\n</body></html>\n", behaviour);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad) {
        free(text);
        return cli_error(SYLVA_ERR_NO_MEMORY, "out of memory for the report");
    }
    int status = sylva_write_file(path, text, len);
    free(text);
    return status;
}
