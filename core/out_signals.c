/* out_signals.c — the temporaries of core/out_file.c are removed when
 * SIGINT, SIGTERM or SIGHUP ends the process while they are written: the
 * final file is never partial (it is renamed only when whole), and without
 * this a hidden .NAME.sylva-XXXXXXXX of up to the output's size stayed
 * beside it. While a temporary exists, each of those signals whose action
 * is the default (end the process) gets a handler that unlinks every live
 * temporary and re-raises the signal with the default action, so the
 * process still ends as the signal says; when the last temporary is gone
 * the default action is put back. A signal the program handles or ignores
 * itself is left alone (its handler decides; docs/limits.md). The table is
 * fixed (no allocation in the handler): beyond SLOTS temporaries at once,
 * a temporary is written unguarded. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "core.h"

enum { SLOTS = 16, FREE = 0, FILLING = 1, LIVE = 2 };

static struct {
    int state; /* FREE, FILLING (the path is being copied), LIVE */
    char path[PATH_MAX];
} slots[SLOTS];

static const int guarded[] = {SIGINT, SIGTERM, SIGHUP};
enum { NSIG_GUARDED = sizeof guarded / sizeof *guarded };
static int installed[NSIG_GUARDED]; /* our handler is set for guarded[i] */
static int live;                    /* temporaries guarded now (under lock) */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void on_signal(int sig)
{
    int saved = errno;
    for (int i = 0; i < SLOTS; i++)
        if (__atomic_load_n(&slots[i].state, __ATOMIC_ACQUIRE) == LIVE) unlink(slots[i].path);
    /* The default action, delivered when the handler returns: the process
     * ends with the signal it was sent. */
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
    raise(sig);
    errno = saved;
}

/* With the lock held: our handler on every guarded signal whose action is
 * the default (first temporary), or the default back (last one gone). */
static void install(int on)
{
    for (int k = 0; k < NSIG_GUARDED; k++) {
        struct sigaction now, act;
        if (sigaction(guarded[k], NULL, &now) != 0) continue;
        memset(&act, 0, sizeof act);
        sigemptyset(&act.sa_mask);
        if (on) {
            installed[k] = !(now.sa_flags & SA_SIGINFO) && now.sa_handler == SIG_DFL;
            if (!installed[k]) continue;
            act.sa_handler = on_signal;
            for (int j = 0; j < NSIG_GUARDED; j++) sigaddset(&act.sa_mask, guarded[j]);
            if (sigaction(guarded[k], &act, NULL) != 0) installed[k] = 0;
        } else if (installed[k]) {
            installed[k] = 0;
            /* Only our own handler is taken back (the program may have set its own since). */
            if ((now.sa_flags & SA_SIGINFO) || now.sa_handler != on_signal) continue;
            act.sa_handler = SIG_DFL;
            sigaction(guarded[k], &act, NULL);
        }
    }
}

int sylva__out_guard(const char *tmp)
{
    if (strlen(tmp) >= PATH_MAX) return 0;
    for (int i = 0; i < SLOTS; i++) {
        int expect = FREE;
        if (!__atomic_compare_exchange_n(&slots[i].state, &expect, FILLING, 0, __ATOMIC_ACQ_REL,
                                         __ATOMIC_RELAXED))
            continue;
        memcpy(slots[i].path, tmp, strlen(tmp) + 1);
        pthread_mutex_lock(&lock);
        if (live++ == 0) install(1);
        __atomic_store_n(&slots[i].state, LIVE, __ATOMIC_RELEASE);
        pthread_mutex_unlock(&lock);
        return i + 1;
    }
    return 0;
}

void sylva__out_unguard(int guard)
{
    if (guard < 1 || guard > SLOTS) return;
    pthread_mutex_lock(&lock);
    __atomic_store_n(&slots[guard - 1].state, FREE, __ATOMIC_RELEASE);
    if (--live == 0) install(0);
    pthread_mutex_unlock(&lock);
}
