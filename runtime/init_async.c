/* init_async.c — the runtime started on a thread of its own
 * (sylva_init_begin), so that StarPU's and CUDA's start runs beside the
 * caller's reading and analysis of a matrix. The checks and the
 * environment StarPU reads are done in the calling thread first (a setenv
 * beside the caller's getenv is a data race); only StarPU's start runs on
 * the thread. Every runtime query (init.c) settles first: it waits for a
 * start under way, so no caller sees a half-started runtime. A failed
 * start is kept (its status and message) and returned by every call that
 * needs the runtime until sylva_init, sylva_init_begin or sylva_finalize.
 * A distributed run, or one already running, starts in the calling thread
 * (MPI is initialized by the thread that will use it). Nothing the start
 * runs on StarPU's own threads may query the runtime (it would wait for the
 * start it is part of); the start's own thread is exempt.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "runtime_internal.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_t thread;
static int pending;          /* a thread runs (or ran) the start and is not joined yet */
static pid_t begun_by;       /* the process that made it */
static int failed;           /* the start's status, kept until the next start or stop */
static char message[1024];   /* and its message */
static double t_begin, t_end; /* the start's begin and end (sylva__now) */
static double waited;        /* seconds callers spent waiting for it (the join) */
static _Thread_local int on_start_thread;

static sylva_options start_opts;
static char start_scheduler[64];

static void *start_main(void *arg)
{
    (void)arg;
    on_start_thread = 1;
    int status = sylva__runtime_launch(&start_opts);
    if (status) snprintf(message, sizeof message, "%s", sylva__last_error());
    failed = status;
    t_end = sylva__now();
    return NULL;
}

/* Join a thread under way; the lock is held. A fork() child has no such
 * thread (only the caller's is copied): it does not wait for one, and what
 * the parent's start had done by the fork is the child's (init.c's fork
 * checks then refuse the parent's runtime). */
static void join_locked(void)
{
    if (!pending) return;
    if (getpid() != begun_by) {
        pending = 0;
        return;
    }
    double t0 = sylva__now();
    pthread_join(thread, NULL);
    /* Until the start's end: the thread's own exit is not the start's. */
    if (t_end > t0) waited += t_end - t0;
    pending = 0;
}

int sylva__runtime_begin(const sylva_options *opts, int allow_thread, int *on_thread)
{
    *on_thread = 0;
    sylva__runtime_join();
    pthread_mutex_lock(&lock);
    failed = 0;
    message[0] = '\0';
    waited = 0;
    t_begin = t_end = sylva__now();
    int running_already = 0;
    int status = sylva__runtime_prepare(opts, &running_already);
    int here = status || running_already || !allow_thread || sylva__dist_wanted(opts->mpi);
    if (!here) {
        start_opts = *opts;
        if (opts->scheduler) {
            /* prepare checked its length against the runtime's own copy */
            snprintf(start_scheduler, sizeof start_scheduler, "%s", opts->scheduler);
            start_opts.scheduler = start_scheduler;
        }
        start_opts.policy = NULL;
        start_opts.user_perm = NULL;
        start_opts.progress = NULL;
        begun_by = getpid();
        here = pthread_create(&thread, NULL, start_main, NULL) != 0; /* no thread: start here */
    }
    if (here) {
        /* In this thread, as sylva_init: the lock is held, so the start's
         * own queries must not settle (they would wait on it). */
        on_start_thread = 1;
        if (!status && !running_already) status = sylva__runtime_launch(opts);
        on_start_thread = 0;
        t_end = sylva__now();
        waited = t_end - t_begin;
    } else {
        pending = 1;
        *on_thread = 1;
    }
    pthread_mutex_unlock(&lock);
    return status;
}

int sylva__runtime_wait(void)
{
    if (on_start_thread) return SYLVA_OK;
    pthread_mutex_lock(&lock);
    join_locked();
    int status = failed;
    pthread_mutex_unlock(&lock);
    if (status) return sylva__fail(status, "%s", message);
    return SYLVA_OK;
}

void sylva__runtime_settle(void)
{
    if (on_start_thread) return;
    pthread_mutex_lock(&lock);
    join_locked();
    pthread_mutex_unlock(&lock);
}

void sylva__runtime_join(void)
{
    if (on_start_thread) return;
    pthread_mutex_lock(&lock);
    join_locked();
    failed = 0;
    message[0] = '\0';
    pthread_mutex_unlock(&lock);
}

void sylva__runtime_start_times(double *seconds_start, double *seconds_waited)
{
    pthread_mutex_lock(&lock);
    join_locked();
    if (seconds_start) *seconds_start = t_end - t_begin;
    if (seconds_waited) *seconds_waited = waited;
    pthread_mutex_unlock(&lock);
}
