/* study_svg.c — the report's figures as inline SVG (study.h), written as
 * text: the time of every run (bars, the best marked), each run's batch
 * size and padding distributions, the busy/idle timeline of a run per
 * worker, and the assembly tree coloured by batch. Sizes are bounded
 * whatever the problem: a timeline merges a worker's tasks closer than half
 * a pixel into one bar, and the tree draws the fronts with the most
 * flops below them (at most TREE_FRONTS) and collapses the rest into one
 * grey block per parent, so a tree of a million fronts still draws. Cannot
 * fail but for memory (a figure then says so instead of drawing). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "study.h"

enum { TREE_FRONTS = 1500, PLOT_W = 900 };

void html_text(FILE *f, const char *t)
{
    for (; t && *t; t++) {
        if (*t == '&') fputs("&amp;", f);
        else if (*t == '<') fputs("&lt;", f);
        else if (*t == '>') fputs("&gt;", f);
        else if (*t == '"') fputs("&quot;", f);
        else fputc(*t, f);
    }
}

/* A batch's colour: when it started in the run, t in [0, 1] (blue the
 * first, through green and yellow, red the last: it carries information
 * however many batches there are), the lightness alternating between
 * consecutive batches so that neighbours stay apart; grey without a time. */
static void batch_colour(char *buf, size_t size, int64_t b, double t)
{
    if (b < 0 || !(t >= 0 && t <= 1)) snprintf(buf, size, "#bbbbbb");
    else snprintf(buf, size, "hsl(%d,68%%,%d%%)", (int)(240 * (1 - t)), 44 + (int)(b % 2) * 10);
}

/* Each batch's start in the run as a fraction of its tasks' span (−1 for a
 * batch without a timed task): nb entries, malloc'd; NULL without memory. */
static double *batch_starts(const study_run *r, int64_t nb)
{
    double *t = malloc((size_t)(nb + 1) * sizeof *t), t0 = INFINITY, t1 = -INFINITY;
    if (!t) return NULL;
    for (int64_t b = 0; b < nb; b++) t[b] = INFINITY;
    for (int64_t i = 0; i < r->ntasks; i++) {
        const study_task *k = &r->tasks[i];
        if (k->start < 0 || k->end < k->start) continue;
        if (k->batch >= 0 && k->batch < nb && k->start < t[k->batch]) t[k->batch] = k->start;
        if (k->start < t0) t0 = k->start;
        if (k->end > t1) t1 = k->end;
    }
    for (int64_t b = 0; b < nb; b++) t[b] = isfinite(t[b]) && t1 > t0 ? (t[b] - t0) / (t1 - t0) : -1;
    return t;
}

static const char *kind_colour(int kind)
{
    return kind == SYLVA_TASK_BATCH ? "#4e79a7" : kind == SYLVA_TASK_FRONT ? "#e15759" : "#f28e2b";
}

void svg_time_bars(FILE *f, const study *s)
{
    int rowh = 24, left = 230, width = PLOT_W, h = rowh * s->nruns + 30;
    double top = 0; /* the scale: the slowest ranked repetition of any run */
    for (int i = 0; i < s->nruns; i++)
        if (s->runs[i].done && s->runs[i].worst > top) top = s->runs[i].worst;
    if (!(top > 0)) top = 1;
    fprintf(f, "<svg id=\"time-bars\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
               "role=\"img\" aria-label=\"factorization time per run\">\n", width, h);
    for (int i = 0; i < s->nruns; i++) {
        const study_run *r = &s->runs[i];
        int y = 6 + i * rowh;
        int failed = r->status != SYLVA_OK || !r->done;
        double w = failed ? 4 : (width - left - 170) * r->median / top;
        const char *fill = failed ? "#d62728" : i == s->best ? "#2ca02c" : i == s->worst ? "#9e9e9e" : "#4e79a7";
        const int starred = i == s->best && s->starred;
        fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" class=\"lab\">", left - 8, y + 15);
        html_text(f, r->label);
        fprintf(f, "</text>\n<rect class=\"bar%s\" id=\"bar-%s\" data-run=\"", starred ? " best" : "", r->file_label);
        html_text(f, r->label);
        fprintf(f, "\" x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"><title>", left, y, w, rowh - 6, fill);
        html_text(f, r->label);
        if (failed) {
            fputs(": failed: ", f);
            html_text(f, r->message);
        } else {
            fprintf(f, ": %.4g s, the median of %d %s (min %.4g, max %.4g); first factorization %.4g s; "
                       "%.2f GFLOP/s, %lld batches",
                    r->median, r->nranked, r->done > 1 ? "refactorizations" : "factorization", r->best, r->worst,
                    r->first, r->gflops, (long long)r->sum.batches);
        }
        double wx = left + w + 6;
        fputs("</title></rect>\n", f);
        if (!failed) { /* the spread: a whisker from the fastest to the slowest ranked repetition */
            double x0 = left + (width - left - 170) * r->best / top, x1 = left + (width - left - 170) * r->worst / top;
            fprintf(f, "<line class=\"spread\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"#222\"/>"
                       "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"#222\"/>"
                       "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"#222\"/>\n",
                    x0, x1, y + (rowh - 6) / 2, y + (rowh - 6) / 2, x0, x0, y + 3, y + rowh - 9, x1, x1, y + 3,
                    y + rowh - 9);
            if (x1 + 6 > wx) wx = x1 + 6;
        }
        fprintf(f, "<text x=\"%.1f\" y=\"%d\" class=\"val\">", wx, y + 15);
        if (failed) {
            fputs("failed: ", f);
            html_text(f, r->message);
        } else {
            fprintf(f, "%.4g s (first %.4g)%s%s", r->median, r->first,
                    starred ? "  \xe2\x98\x85 best" : i == s->best ? "  fastest (not clearly)" : "",
                    i == s->worst && s->worst != s->best ? "  (slowest)" : "");
        }
        fputs("</text>\n", f);
    }
    fprintf(f, "<line x1=\"%d\" y1=\"2\" x2=\"%d\" y2=\"%d\" stroke=\"#444\"/>\n</svg>\n", left, left, h - 20);
}

/* One histogram: counts[0..n) with labels, in a box of w × h. */
static void histogram(FILE *f, const char *title, const char *cls, const char *run, const int64_t *counts, int n,
                      const char *(*label)(int, char *, size_t))
{
    int w = 420, h = 150, base = 120, left = 36;
    int64_t top = 1;
    for (int i = 0; i < n; i++)
        if (counts[i] > top) top = counts[i];
    double bw = (double)(w - left - 10) / n;
    fprintf(f, "<svg class=\"hist %s\" data-run=\"", cls);
    html_text(f, run);
    fprintf(f, "\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\">\n", w, h);
    fprintf(f, "<text x=\"%d\" y=\"12\" class=\"cap\">", left);
    html_text(f, title);
    fprintf(f, " (tallest: %lld)</text>\n", (long long)top);
    for (int i = 0; i < n; i++) {
        double bh = (double)(base - 20) * (double)counts[i] / (double)top;
        char lab[32];
        label(i, lab, sizeof lab);
        fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#4e79a7\"><title>%s: %lld batches</title></rect>\n",
                left + i * bw + 1, base - bh, bw - 2, bh, lab, (long long)counts[i]);
        if (n <= 12 || i % 2 == 0)
            fprintf(f, "<text x=\"%.1f\" y=\"%d\" class=\"tick\" text-anchor=\"middle\">%s</text>\n", left + (i + 0.5) * bw,
                    base + 12, lab);
    }
    fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#444\"/>\n</svg>\n", left, base, w - 10, base);
}

static const char *size_label(int i, char *buf, size_t size)
{
    snprintf(buf, size, "%lld", 1LL << i);
    return buf;
}

static const char *padding_label(int i, char *buf, size_t size)
{
    snprintf(buf, size, "%d%%", 10 * i);
    return buf;
}

void svg_histograms(FILE *f, const study *s, const study_run *r)
{
    (void)s;
    int n = RUN_SIZE_BINS;
    while (n > 1 && r->sum.size_hist[n - 1] == 0) n--;
    histogram(f, "batches by fronts per batch (bins from 1, 2, 4, ...)", "sizes", r->label, r->sum.size_hist, n,
              size_label);
    /* CPU workers factor a batch front by front: nothing is padded. */
    if (r->mode == SYLVA_MODE_CPU)
        fputs("<p class=\"note nopad\">No padding: CPU workers factor a batch's fronts one by one, each at its "
              "own size.</p>\n", f);
    else
        histogram(f, "batches by padding (from 0%, 10%, ...)", "padding", r->label, r->sum.padding_hist,
                  RUN_PADDING_BINS, padding_label);
}

static int by_worker_start(const void *a, const void *b)
{
    const study_task *x = a, *y = b;
    if (x->worker != y->worker) return (x->worker > y->worker) - (x->worker < y->worker);
    return (x->start > y->start) - (x->start < y->start);
}

void svg_timeline(FILE *f, const study *s, const study_run *r, const char *id)
{
    int left = 230, rowh = 16, nw = s->nworkers, h = rowh * nw + 34;
    study_task *t = malloc((size_t)(r->ntasks + 1) * sizeof *t);
    if (!t) {
        fputs("<p>(out of memory drawing the timeline)</p>\n", f);
        return;
    }
    double t0 = INFINITY, t1 = -INFINITY;
    int64_t n = 0;
    for (int64_t i = 0; i < r->ntasks; i++)
        if (r->tasks[i].start >= 0 && r->tasks[i].end >= r->tasks[i].start && r->tasks[i].worker >= 0 &&
            r->tasks[i].worker < nw) {
            t[n++] = r->tasks[i];
            if (r->tasks[i].start < t0) t0 = r->tasks[i].start;
            if (r->tasks[i].end > t1) t1 = r->tasks[i].end;
        }
    qsort(t, (size_t)n, sizeof *t, by_worker_start);
    double span = t1 > t0 ? t1 - t0 : 1, px = (double)(PLOT_W - left - 20) / span;
    fprintf(f, "<svg id=\"%s\" class=\"timeline\" data-run=\"", id);
    html_text(f, r->label);
    fprintf(f, "\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\">\n", PLOT_W, h);
    int64_t k = 0;
    for (int w = 0; w < nw; w++) {
        int y = 4 + w * rowh;
        double busy = 0;
        fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#f1f1f1\"/>\n", left, y, PLOT_W - left - 20,
                rowh - 3);
        while (k < n && t[k].worker < w) k++;
        while (k < n && t[k].worker == w) {
            double a = t[k].start, b = t[k].end;
            int kind = t[k].kind;
            busy += b - a;
            /* Merge what follows within half a pixel, of the same kind. */
            while (k + 1 < n && t[k + 1].worker == w && t[k + 1].kind == kind && (t[k + 1].start - b) * px < 0.5) {
                k++;
                busy += t[k].end - t[k].start;
                if (t[k].end > b) b = t[k].end;
            }
            double x = left + (a - t0) * px, wd = (b - a) * px;
            fprintf(f, "<rect class=\"busy\" x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" fill=\"%s\"/>\n", x, y,
                    wd < 0.3 ? 0.3 : wd, rowh - 3, kind_colour(kind));
            k++;
        }
        fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" class=\"lab\">", left - 6, y + 11);
        html_text(f, s->workers[w].name);
        fprintf(f, " \xc2\xb7 %.0f%% busy</text>\n", 100 * busy / span);
    }
    fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"tick\">0</text><text x=\"%d\" y=\"%d\" class=\"tick\" "
               "text-anchor=\"end\">%.4g s</text>\n</svg>\n",
            left, h - 12, PLOT_W - 20, h - 12, span);
    free(t);
}

static int by_flops_desc(const void *a, const void *b)
{
    double x = ((const double *)a)[0], y = ((const double *)b)[0];
    return (x < y) - (x > y);
}

/* The icicle of the tree: a drawn front spans the width its subtree's
 * flops take of its parent's; depth goes down. */
void svg_tree(FILE *f, const study *s, const study_run *r, const char *id)
{
    int64_t ns = s->nfronts;
    double *sf = malloc((size_t)(ns + 1) * sizeof *sf), *key = malloc((size_t)(ns + 1) * 2 * sizeof *key);
    double *x0 = malloc((size_t)(ns + 1) * sizeof *x0), *wd = malloc((size_t)(ns + 1) * sizeof *wd);
    int64_t *cnt = malloc((size_t)(ns + 1) * sizeof *cnt), *depth = malloc((size_t)(ns + 1) * sizeof *depth);
    char *drawn = calloc((size_t)ns + 1, 1);
    int64_t *cptr = calloc((size_t)ns + 2, sizeof *cptr), *clist = malloc((size_t)(ns + 1) * sizeof *clist);
    int64_t nb = 0;
    for (int64_t i = 0; r->front_batch && i < ns; i++)
        if (r->front_batch[i] >= nb) nb = r->front_batch[i] + 1;
    double *bstart = batch_starts(r, nb);
    if (!sf || !key || !x0 || !wd || !cnt || !depth || !drawn || !cptr || !clist || !bstart) {
        fputs("<p>(out of memory drawing the tree)</p>\n", f);
        goto done;
    }
    for (int64_t i = 0; i < ns; i++) /* children lists, increasing */
        if (s->fronts[i].parent >= 0) cptr[s->fronts[i].parent + 1]++;
    for (int64_t i = 0; i < ns; i++) cptr[i + 1] += cptr[i];
    for (int64_t i = 0, *fill = cnt; i < ns; i++) fill[i] = cptr[i];
    for (int64_t i = 0; i < ns; i++)
        if (s->fronts[i].parent >= 0) clist[cnt[s->fronts[i].parent]++] = i;
    double total = 0;
    for (int64_t i = 0; i < ns; i++) {
        sf[i] = s->fronts[i].flops > 0 ? s->fronts[i].flops : 1;
        cnt[i] = 1;
    }
    for (int64_t i = 0; i < ns; i++) /* postorder: children first */
        if (s->fronts[i].parent >= 0) {
            sf[s->fronts[i].parent] += sf[i];
            cnt[s->fronts[i].parent] += cnt[i];
        } else {
            total += sf[i];
        }
    /* The fronts with the most flops below them: a set closed toward the
     * roots (a parent always has more than its child). */
    for (int64_t i = 0; i < ns; i++) key[2 * i] = sf[i], key[2 * i + 1] = (double)i;
    qsort(key, (size_t)ns, 2 * sizeof *key, by_flops_desc);
    int64_t keep = ns < TREE_FRONTS ? ns : TREE_FRONTS;
    for (int64_t i = 0; i < keep; i++) drawn[(int64_t)key[2 * i + 1]] = 1;
    int64_t maxd = 0;
    for (int64_t i = ns - 1; i >= 0; i--) {
        int64_t p = s->fronts[i].parent;
        depth[i] = p < 0 ? 0 : depth[p] + 1;
        if (drawn[i] && depth[i] > maxd) maxd = depth[i];
    }
    int W = PLOT_W - 20;
    double rowh = 560.0 / (double)(maxd + 2);
    if (rowh > 18) rowh = 18;
    if (rowh < 2) rowh = 2;
    int H = (int)(rowh * (double)(maxd + 2)) + 10;
    fprintf(f, "<svg id=\"%s\" class=\"tree\" data-run=\"", id);
    html_text(f, r->label);
    fprintf(f, "\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\">\n", PLOT_W, H);
    fputs("<defs><pattern id=\"hatch\" width=\"4\" height=\"4\" patternUnits=\"userSpaceOnUse\">"
          "<path d=\"M0,4 L4,0\" stroke=\"#999\" stroke-width=\"1\"/></pattern></defs>\n", f);
    double cursor = 10;
    for (int64_t i = ns - 1; i >= 0; i--) /* roots side by side */
        if (s->fronts[i].parent < 0) {
            x0[i] = cursor;
            wd[i] = W * sf[i] / total;
            cursor += wd[i];
        }
    for (int64_t i = ns - 1; i >= 0; i--) { /* parents before children */
        if (!drawn[i]) continue;
        const sylva_front_info *fr = &s->fronts[i];
        int64_t b = r->front_batch ? r->front_batch[i] : -1;
        char colour[48];
        double when = b >= 0 && b < nb ? bstart[b] : -1;
        batch_colour(colour, sizeof colour, b, when);
        fprintf(f, "<rect class=\"front\" data-batch=\"%lld\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\""
                   "%s><title>front %lld: %lld rows, %lld pivots, %.3g flops; batch %lld, started at %.0f%% of the "
                   "run; %lld fronts below</title></rect>\n",
                (long long)b, x0[i], 4 + rowh * (double)depth[i], wd[i] > 0.2 ? wd[i] : 0.2, rowh * 0.9, colour,
                fr->rows > r->small_rows_used ? " stroke=\"#000\" stroke-width=\"0.6\"" : "", (long long)i,
                (long long)fr->rows, (long long)fr->cols, fr->flops, (long long)b, 100 * (when > 0 ? when : 0),
                (long long)(cnt[i] - 1));
        /* Children: drawn ones in order, the others as one block. */
        double at = x0[i], hidden = 0;
        int64_t hidden_fronts = 0;
        for (int64_t q = cptr[i]; q < cptr[i + 1]; q++) {
            int64_t c = clist[q];
            if (drawn[c]) {
                x0[c] = at;
                wd[c] = wd[i] * sf[c] / sf[i];
                at += wd[c];
            } else {
                hidden += sf[c];
                hidden_fronts += cnt[c];
            }
        }
        if (hidden_fronts > 0)
            fprintf(f, "<rect class=\"collapsed\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"url(#hatch)\">"
                       "<title>%lld fronts collapsed (%.3g flops)</title></rect>\n",
                    at, 4 + rowh * (double)(depth[i] + 1), fmax(wd[i] * hidden / sf[i], 0.2), rowh * 0.9,
                    (long long)hidden_fronts, hidden);
    }
    fputs("</svg>\n", f);
    fprintf(f, "<p class=\"note\">%lld of %lld fronts drawn (those with the most flops below them); the others are "
               "collapsed into hatched blocks under their parent. Width: flops of the subtree; colour: when the "
               "front's batch started in this run (blue: first, green, yellow, red: last; consecutive batches "
               "alternate light and dark; hover a front to outline its whole batch); outlined: large fronts "
               "(more than %lld rows).</p>\n",
            (long long)keep, (long long)ns, (long long)r->small_rows_used);
done:
    free(bstart);
    free(sf);
    free(key);
    free(x0);
    free(wd);
    free(cnt);
    free(depth);
    free(drawn);
    free(cptr);
    free(clist);
}
