/* progress.c — the command's progress line on stderr, fed by the library's
 * progress callback (sylva_options.progress): the phase, a bar, the
 * percentage and the seconds since the start, redrawn in place; each
 * phase's line ends with a newline when the phase ends, so whatever follows
 * starts on a clean line. Shown when stderr is a terminal and the run has
 * lasted a second (the default), always with --progress, never with
 * --quiet. Not on a terminal (--progress into a log), each update is a line
 * of its own, at every quarter of a phase. The factorization's calls come from StarPU's threads, one at a
 * time (the library serializes them), so plain statics suffice. */
#include <string.h>
#include <unistd.h>

#include "cli.h"

enum { BAR = 30 };

static struct {
    double t0;
    int always;
    int tty;        /* stderr is a terminal: redraw in place */
    char phase[16]; /* the phase on the current line ("" when none) */
    char ended[16]; /* the phase whose line was just finished */
    int drawn;      /* the current line has been drawn */
    int percent;    /* what it shows */
} state;

static void draw(const char *phase, double fraction)
{
    int percent = (int)(100 * (fraction < 0 ? 0 : fraction > 1 ? 1 : fraction));
    char bar[BAR + 1];
    for (int i = 0; i < BAR; i++) bar[i] = i < percent * BAR / 100 ? '#' : ' ';
    bar[BAR] = '\0';
    fprintf(stderr, "%s  %-9s [%s] %3d%%  %.1f s%s", state.tty ? "\r" : "", phase, bar, percent,
            sylva_wtime() - state.t0, state.tty ? "" : "\n");
    state.drawn = 1;
    state.percent = percent;
}

static void on_progress(void *arg, const char *phase, double fraction)
{
    (void)arg;
    if (!strncmp(state.ended, phase, sizeof state.ended - 1)) {
        if (fraction >= 1) return; /* its end, told twice */
        state.ended[0] = '\0';     /* it starts again (a refactorization) */
    }
    if (strncmp(state.phase, phase, sizeof state.phase - 1) != 0) {
        if (state.drawn && state.tty) fputc('\n', stderr);
        snprintf(state.phase, sizeof state.phase, "%s", phase);
        state.drawn = 0;
        state.percent = -1;
    }
    if (!state.always && sylva_wtime() - state.t0 < 1.0) return;
    int percent = (int)(100 * fraction);
    int step = state.tty ? 1 : 25;
    if (!state.tty && percent < step) return;
    if (state.drawn && percent / step == state.percent / step && fraction < 1) return;
    draw(phase, fraction);
    if (fraction >= 1) {
        if (state.tty) fputc('\n', stderr);
        snprintf(state.ended, sizeof state.ended, "%s", phase);
        state.phase[0] = '\0';
        state.drawn = 0;
    }
    fflush(stderr);
}

void cli_progress_start(cli_args *a)
{
    memset(&state, 0, sizeof state);
    state.t0 = sylva_wtime();
    state.always = a->progress > 0;
    state.tty = isatty(STDERR_FILENO);
    if (a->progress == 0 || (a->progress < 0 && !isatty(STDERR_FILENO))) return;
    a->opts.progress = on_progress;
    a->opts.progress_arg = NULL;
}

void cli_progress_end(void)
{
    if (state.drawn && state.tty) fputc('\n', stderr);
    state.drawn = 0;
    state.phase[0] = '\0';
}
