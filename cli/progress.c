/* progress.c — the command's progress display on stderr, fed by the
 * library's progress callback (sylva_options.progress). On a terminal: one
 * line per phase, a bar with the percentage, redrawn in place while the
 * phase runs — for the factorization also the rate (GFLOP/s of finished
 * tasks) and the time left at that rate — and replaced, when the phase
 * ends, by the phase's name and duration. Shown once the run has lasted a
 * second (the default), from the start with --progress, never with
 * --quiet. Not on a terminal (--progress into a log) each update is a line
 * of its own, at every quarter of a phase. The factorization's calls come
 * from StarPU's threads one at a time (the library serializes them), so
 * plain statics suffice. */
#include <string.h>
#include <unistd.h>

#include "cli.h"

enum { BAR = 30 };

static struct {
    double t0;          /* the command's start */
    double phase_t0;    /* the current phase's start */
    double flops;       /* the factorization's, for its rate (0: unknown) */
    int always;
    int tty;            /* stderr is a terminal: redraw in place */
    char phase[16];     /* the phase being shown ("" when none) */
    char ended[16];     /* the phase whose line was just finished */
    int drawn;          /* the current phase's line is on the screen */
    int percent;        /* what it shows */
} state;

static void draw(const char *phase, double fraction, double now)
{
    int percent = (int)(100 * (fraction < 0 ? 0 : fraction > 1 ? 1 : fraction));
    char bar[BAR + 1], extra[64] = "";
    for (int i = 0; i < BAR; i++) bar[i] = i < percent * BAR / 100 ? '#' : ' ';
    bar[BAR] = '\0';
    double spent = now - state.phase_t0;
    if (!strcmp(phase, "factorize") && state.flops > 0 && fraction > 0 && spent > 0)
        snprintf(extra, sizeof extra, "  %.1f GFLOP/s, %.1f s left", fraction * state.flops / spent * 1e-9,
                 spent * (1 - fraction) / fraction);
    fprintf(stderr, "%s  %-9s [%s] %3d%%  %.1f s%s%s", state.tty ? "\r\033[K" : "", phase, bar, percent,
            spent, extra, state.tty ? "" : "\n");
    state.drawn = 1;
    state.percent = percent;
}

static void on_progress(void *arg, const char *phase, double fraction)
{
    (void)arg;
    double now = sylva_wtime();
    if (!strncmp(state.ended, phase, sizeof state.ended - 1)) {
        if (fraction >= 1) return; /* its end, told twice */
        state.ended[0] = '\0';     /* it starts again (a refactorization) */
    }
    if (strncmp(state.phase, phase, sizeof state.phase - 1) != 0) {
        if (state.drawn && state.tty) fputc('\n', stderr);
        snprintf(state.phase, sizeof state.phase, "%s", phase);
        state.phase_t0 = now;
        state.drawn = 0;
        state.percent = -1;
    }
    if (!state.always && now - state.t0 < 1.0) return;
    int percent = (int)(100 * fraction);
    int step = state.tty ? 1 : 25;
    if (fraction >= 1) {
        if (state.tty) fprintf(stderr, "\r\033[K  %-9s %.2f s\n", phase, now - state.phase_t0);
        else draw(phase, fraction, now);
        snprintf(state.ended, sizeof state.ended, "%s", phase);
        state.phase[0] = '\0';
        state.drawn = 0;
    } else if (!(!state.tty && percent < step) &&
               !(state.drawn && percent / step == state.percent / step)) {
        draw(phase, fraction, now);
    }
    fflush(stderr);
}

void cli_progress_start(cli_args *a)
{
    memset(&state, 0, sizeof state);
    state.t0 = sylva_wtime();
    state.always = a->progress > 0;
    state.tty = isatty(STDERR_FILENO);
    if (a->progress == 0 || (a->progress < 0 && !state.tty)) return;
    a->opts.progress = on_progress;
    a->opts.progress_arg = NULL;
}

void cli_progress_flops(double flops) { state.flops = flops; }

void cli_progress_end(void)
{
    if (state.drawn && state.tty) fputc('\n', stderr);
    state.drawn = 0;
    state.phase[0] = '\0';
}
