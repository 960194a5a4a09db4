/* test_init.c — the runtime's life cycle as a host program sees it:
 * sylva_init sets BLAS to one thread while it runs and sylva_finalize puts
 * back the host's count; a second sylva_init is accepted with the same
 * runtime options (analysis-only fields may differ) and refused with
 * others, naming the option, leaving the running runtime usable; after
 * sylva_finalize other options start a new runtime; a factor and an
 * analysis may be freed after sylva_finalize, and the next runtime works.
 * sylva_init_begin starts it on a thread beside an analysis, which waits
 * for it (the start's times add up), and a start that fails on its thread
 * is the failure of every call needing the runtime, with its message,
 * until sylva_finalize; a child forked during the start does not wait for
 * a thread it does not have. */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "sylva.h"

void openblas_set_num_threads(int num_threads);
int openblas_get_num_threads(void);

/* A 3 × 3 SPD factorization and solve: the runtime works. */
static void runtime_works(const char *when)
{
    int64_t colptr[] = {0, 2, 4, 5}, rowind[] = {0, 1, 1, 2, 2};
    double values[] = {4, -1, 4, -1, 4}, b[] = {3, 2, 3};
    sylva_matrix *A = NULL;
    sylva_analysis_t *an = NULL;
    sylva_factor_t *F = NULL;
    int st = sylva_matrix_from_csc(3, colptr, rowind, values, 1, &A);
    if (!st) st = sylva_analyze(A, NULL, &an, NULL);
    if (!st) st = sylva_factorize(an, A, &F, NULL);
    if (!st) st = sylva_solve(F, 1, b, 3);
    CHECK(st == 0 && b[0] > 0.999999 && b[0] < 1.000001 && b[2] > 0.999999 && b[2] < 1.000001,
          "%s: the runtime does not work (%s)", when, sylva_last_error());
    sylva_factor_free(F);
    sylva_analysis_free(an);
    sylva_matrix_free(A);
}

/* sylva_init_begin: the start on its thread beside an analysis; then a
 * start that fails there (no CPU worker, no GPU) and what it leaves. */
static void begun_beside(const sylva_options *o)
{
    int on_thread = -1;
    double t0 = sylva_wtime();
    CHECK(sylva_init_begin(o, &on_thread) == SYLVA_OK && on_thread == 1, "begin: %s (on_thread %d)",
          sylva_last_error(), on_thread);
    /* A child forked now has no start thread to wait for: it must not
     * hang, and the parent's runtime is not its own. */
    pid_t child = fork();
    if (child == 0) {
        sylva_runtime_info cri;
        int cst = sylva_runtime_query(&cri);
        sylva_finalize();
        _exit(cst == SYLVA_OK ? 1 : 0);
    }
    int ws = 0;
    CHECK(child > 0 && waitpid(child, &ws, 0) == child && WIFEXITED(ws) && WEXITSTATUS(ws) == 0,
          "a child forked during the start: status %d", ws);
    int64_t colptr[] = {0, 2, 4, 5}, rowind[] = {0, 1, 1, 2, 2};
    double values[] = {4, -1, 4, -1, 4};
    sylva_matrix *A = NULL;
    sylva_analysis_t *an = NULL;
    int st = sylva_matrix_from_csc(3, colptr, rowind, values, SYLVA_CSC_LOWER, &A);
    if (!st) st = sylva_analyze(A, o, &an, NULL); /* waits for the start before its plan */
    CHECK(st == SYLVA_OK, "analysis beside the start: %s", sylva_last_error());
    double start = -1, waited = -1;
    CHECK(sylva_init_wait(&start, &waited) == SYLVA_OK, "wait: %s", sylva_last_error());
    double elapsed = sylva_wtime() - t0;
    CHECK(start > 0 && start <= elapsed && waited >= 0 && waited <= start, "start %g s, waited %g s, elapsed %g s",
          start, waited, elapsed);
    sylva_runtime_info ri;
    CHECK(sylva_runtime_query(&ri) == SYLVA_OK && ri.cpu_workers == 2, "runtime after the wait: %d workers",
          ri.cpu_workers);
    runtime_works("started on a thread");
    /* A runtime already running starts here: on_thread 0. */
    CHECK(sylva_init_begin(o, &on_thread) == SYLVA_OK && on_thread == 0, "begin while running: on_thread %d",
          on_thread);
    sylva_analysis_free(an);
    sylva_matrix_free(A);
    sylva_finalize();

    /* No CPU worker (STARPU_NCPU=0) and no GPU: StarPU fails on the thread. */
    sylva_options none = *o;
    none.ncpus = -1;
    none.mode = SYLVA_MODE_CPU;
    setenv("STARPU_NCPU", "0", 1);
    CHECK(sylva_init_begin(&none, &on_thread) == SYLVA_OK && on_thread == 1, "begin (to fail): %s",
          sylva_last_error());
    sylva_factor_t *F = NULL;
    an = NULL;
    st = sylva_matrix_from_csc(3, colptr, rowind, values, SYLVA_CSC_LOWER, &A);
    if (!st) st = sylva_analyze(A, &none, &an, NULL);
    CHECK(st == SYLVA_ERR_RUNTIME && strstr(sylva_last_error(), "StarPU failed to start") && !an,
          "analysis after a failed start: %s, %s", sylva_status_name(st), sylva_last_error());
    st = sylva_init_wait(NULL, NULL);
    CHECK(st == SYLVA_ERR_RUNTIME && strstr(sylva_last_error(), "StarPU failed to start"), "wait: %s, %s",
          sylva_status_name(st), sylva_last_error());
    st = sylva_runtime_query(&ri);
    CHECK(st == SYLVA_ERR_RUNTIME && strstr(sylva_last_error(), "StarPU failed to start"), "query: %s, %s",
          sylva_status_name(st), sylva_last_error());
    sylva_finalize(); /* forgets the failure */
    unsetenv("STARPU_NCPU");
    st = sylva_runtime_query(&ri);
    CHECK(st == SYLVA_ERR_NOT_INITIALIZED, "query after finalize: %s", sylva_status_name(st));
    CHECK(sylva_init_begin(o, &on_thread) == SYLVA_OK, "begin after the failure: %s", sylva_last_error());
    runtime_works("started on a thread after a failed start");
    sylva_factor_free(F);
    sylva_matrix_free(A);
    sylva_finalize();
}

static void refused(const sylva_options *o, const char *option)
{
    int st = sylva_init(o);
    CHECK(st == SYLVA_ERR_ARGUMENT, "init with another %s while running: %s", option, sylva_status_name(st));
    CHECK(strstr(sylva_last_error(), option) && strstr(sylva_last_error(), "sylva_finalize"),
          "message '%s' names %s and the way out", sylva_last_error(), option);
}

int main(void)
{
    /* The host's BLAS threads: a count sylva's 1 cannot be mistaken for. */
    openblas_set_num_threads(3);
    int host = openblas_get_num_threads();
    CHECK(host == 3, "OpenBLAS keeps 3 threads (has %d)", host);
    sylva_options o;
    sylva_default_options(&o);
    o.ncpus = 2;
    o.mode = SYLVA_MODE_CPU;
    CHECK(sylva_init(&o) == SYLVA_OK, "init: %s", sylva_last_error());
    CHECK(openblas_get_num_threads() == 1, "BLAS threads while running: %d", openblas_get_num_threads());

    /* The same runtime options, other analysis options: accepted. */
    sylva_options same = o;
    same.policy = "level";
    same.ordering = SYLVA_ORDERING_AMD;
    same.tile_rows = 64;
    same.precision = SYLVA_FLOAT32;
    CHECK(sylva_init(&same) == SYLVA_OK, "init with the same runtime options: %s", sylva_last_error());

    /* Other runtime options: refused, the runtime untouched. */
    sylva_options other = o;
    other.ncpus = 1;
    refused(&other, "ncpus");
    other = o;
    other.scheduler = "eager";
    refused(&other, "scheduler");
    other = o;
    other.device_memory = (int64_t)1 << 30;
    refused(&other, "device_memory");
    CHECK(sylva_init(NULL) != SYLVA_OK, "defaults (every core) differ from ncpus = 2");
    runtime_works("after the refusals");
    CHECK(openblas_get_num_threads() == 1, "BLAS threads after the refusals: %d", openblas_get_num_threads());

    CHECK(sylva_finalize() == SYLVA_OK, "finalize");
    CHECK(openblas_get_num_threads() == host, "BLAS threads after finalize: %d, the host had %d",
          openblas_get_num_threads(), host);

    /* Stopped: other options start a new runtime, and it is put back again. */
    other = o;
    other.ncpus = 1;
    other.scheduler = "eager";
    CHECK(sylva_init(&other) == SYLVA_OK, "init with new options after finalize: %s", sylva_last_error());
    runtime_works("restarted");

    /* A factor and an analysis outlive the runtime: freed after
     * sylva_finalize (their StarPU handles went with it), and a new
     * runtime works after that. */
    int64_t colptr[] = {0, 2, 4, 5}, rowind[] = {0, 1, 1, 2, 2};
    double values[] = {4, -1, 4, -1, 4};
    sylva_matrix *A = NULL;
    sylva_analysis_t *an = NULL;
    sylva_factor_t *F = NULL;
    int st = sylva_matrix_from_csc(3, colptr, rowind, values, SYLVA_CSC_LOWER, &A);
    if (!st) st = sylva_analyze(A, NULL, &an, NULL);
    if (!st) st = sylva_factorize(an, A, &F, NULL);
    CHECK(st == SYLVA_OK && F, "factor to free after finalize: %s", sylva_last_error());
    sylva_finalize();
    CHECK(openblas_get_num_threads() == host, "BLAS threads after the second finalize: %d",
          openblas_get_num_threads());
    sylva_factor_free(F);
    sylva_analysis_free(an);
    sylva_matrix_free(A);
    CHECK(sylva_init(&o) == SYLVA_OK, "init after freeing past finalize: %s", sylva_last_error());
    runtime_works("after a factor was freed past finalize");
    sylva_finalize();
    begun_beside(&o);
    return test_exit("test_init");
}
