/* test_round2.c CASE — the library side of the defects of issue 36
 * (reliability, second round), one CASE per defect (CTest: defect2.NN_name),
 * each written to fail on the code before its fix: fork() after sylva_init
 * (3: the child's calls hung; now each fails at once, the parent goes on),
 * SIGINT, SIGTERM or SIGHUP during a write (4: the hidden temporary stayed
 * beside the output; now it is removed and the process still ends by the
 * signal), a finite right-hand side near the overflow threshold (5: the
 * solve returned SYLVA_OK with a solution of NaN and inf; now it is scaled,
 * and a solution that is not finite is an error), the pivot ratio of
 * sylva_factor_info (6: numerically singular matrices passed without a
 * word; the command's warning and --fail-singular are cli_round2.sh's).
 * Only the public API. The command's side is cli_round2.sh. */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "reliability_util.h"

/* In the forked child: every call that needs the runtime fails at once
 * with SYLVA_ERR_RUNTIME naming fork; freeing and finalizing return. The
 * exit code counts the failed expectations (a hang is killed by alarm). */
static int child(sylva_analysis_t *an, sylva_factor_t *F, const sylva_matrix *A)
{
    alarm(20);
    int bad = 0;
    sylva_factor_t *G = NULL;
    int st = sylva_factorize(an, A, &G, NULL);
    if (st != SYLVA_ERR_RUNTIME || !contains(sylva_last_error(), "fork")) {
        fprintf(stderr, "child: sylva_factorize -> %s (%s)\n", sylva_status_name(st), sylva_last_error());
        bad++;
    }
    st = sylva_refactorize(F, A, NULL);
    if (st != SYLVA_ERR_RUNTIME) bad++, fprintf(stderr, "child: sylva_refactorize -> %s\n", sylva_status_name(st));
    double x[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    st = sylva_solve(F, 1, x, A->n);
    if (st != SYLVA_ERR_RUNTIME) bad++, fprintf(stderr, "child: sylva_solve -> %s\n", sylva_status_name(st));
    double ld;
    st = sylva_logdet(F, &ld);
    if (st != SYLVA_ERR_RUNTIME) bad++, fprintf(stderr, "child: sylva_logdet -> %s\n", sylva_status_name(st));
    sylva_runtime_info ri;
    st = sylva_runtime_query(&ri);
    if (st != SYLVA_ERR_RUNTIME) bad++, fprintf(stderr, "child: sylva_runtime_query -> %s\n", sylva_status_name(st));
    /* a second sylva_init (what a library re-importing itself does) */
    sylva_options o;
    sylva_default_options(&o);
    o.ncpus = 2;
    o.ncuda = 0;
    o.mode = SYLVA_MODE_CPU;
    st = sylva_init(&o);
    if (st != SYLVA_ERR_RUNTIME || !contains(sylva_last_error(), "sylva_init")) {
        fprintf(stderr, "child: second sylva_init -> %s (%s)\n", sylva_status_name(st), sylva_last_error());
        bad++;
    }
    /* what needs no runtime still works */
    sylva_matrix *B = tridiag(8);
    if (!B || fabs(sylva_matrix_norm_inf(B) - 6.0) > 0) bad++;
    sylva_matrix_free(B);
    sylva_factor_free(F);
    sylva_analysis_free(an);
    sylva_finalize();
    return bad;
}

static void case_fork(void)
{
    if (start()) return;
    sylva_matrix *A = tridiag(8);
    sylva_analysis_t *an = NULL;
    sylva_factor_t *F = NULL;
    CHECK(sylva_analyze(A, NULL, &an, NULL) == SYLVA_OK, "analyze: %s", sylva_last_error());
    CHECK(sylva_factorize(an, A, &F, NULL) == SYLVA_OK, "factorize: %s", sylva_last_error());
    fflush(NULL);
    pid_t pid = fork();
    CHECK(pid >= 0, "fork failed");
    if (pid == 0) _exit(child(an, F, A));
    int ws = 0;
    CHECK(waitpid(pid, &ws, 0) == pid, "waitpid");
    CHECK(WIFEXITED(ws) && WEXITSTATUS(ws) == 0, "the child %s %d",
          WIFSIGNALED(ws) ? "was killed by signal (a hang: alarm)" : "failed expectations:",
          WIFSIGNALED(ws) ? WTERMSIG(ws) : WEXITSTATUS(ws));
    /* the parent's runtime is untouched */
    double e = solve_berr(F, A);
    CHECK(e <= 1e-14, "parent solve after the fork: backward error %g (%s)", e, sylva_last_error());
    sylva_factor_t *G = NULL;
    CHECK(sylva_factorize(an, A, &G, NULL) == SYLVA_OK, "parent factorize after the fork: %s", sylva_last_error());
    sylva_factor_free(G);
    sylva_factor_free(F);
    sylva_analysis_free(an);
    sylva_matrix_free(A);
    sylva_finalize();
}

/* Entries of dir whose name starts with prefix. */
static int count_entries(const char *dir, const char *prefix)
{
    DIR *d = opendir(dir);
    if (!d) return -1;
    int k = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (!strncmp(e->d_name, prefix, strlen(prefix))) k++;
    closedir(d);
    return k;
}

/* A child writes a large solution with sylva_write_dense; once its
 * temporary is there, the signal. Afterwards: the child ended by that
 * signal, and neither the temporary nor a partial output is left. */
static void signal_during_write(int sig, const char *dir)
{
    char target[600];
    snprintf(target, sizeof target, "%s/x.mtx", dir);
    const int64_t n = 4000000; /* ~80 MB of text: about a second to format */
    fflush(NULL);
    pid_t pid = fork();
    CHECK(pid >= 0, "fork failed");
    if (pid == 0) {
        double *X = malloc((size_t)n * sizeof *X);
        if (!X) _exit(3);
        for (int64_t i = 0; i < n; i++) X[i] = 1.0 / 3.0 + (double)i;
        sylva_write_dense(target, n, 1, X, n);
        _exit(0);
    }
    int seen = 0;
    for (int t = 0; t < 20000 && !seen; t++) {
        seen = count_entries(dir, ".x.mtx.sylva-") > 0;
        if (!seen) nanosleep(&(struct timespec){0, 1000000}, NULL);
    }
    CHECK(seen, "signal %d: no temporary appeared", sig);
    kill(pid, sig);
    int ws = 0;
    CHECK(waitpid(pid, &ws, 0) == pid, "waitpid");
    CHECK(WIFSIGNALED(ws) && WTERMSIG(ws) == sig, "signal %d: the writer %s %d (it must end by the signal)", sig,
          WIFSIGNALED(ws) ? "ended by signal" : "exited with", WIFSIGNALED(ws) ? WTERMSIG(ws) : WEXITSTATUS(ws));
    int left = count_entries(dir, ".x.mtx.sylva-");
    CHECK(left == 0, "signal %d: %d temporary file(s) left beside the output", sig, left);
    struct stat st;
    CHECK(stat(target, &st) != 0, "signal %d: a partial output (%lld bytes)", sig, (long long)st.st_size);
    if (left > 0) { /* clean up for the next signal */
        char cmd[700];
        snprintf(cmd, sizeof cmd, "rm -f '%s'/.x.mtx.sylva-*", dir);
        if (system(cmd) != 0) fprintf(stderr, "cannot clean %s\n", dir);
    }
}

static void case_signals(void)
{
    char dir[256];
    snprintf(dir, sizeof dir, "%s/sylva-signals-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(dir)) {
        CHECK(0, "mkdtemp: %s", strerror(errno));
        return;
    }
    signal_during_write(SIGINT, dir);
    signal_during_write(SIGTERM, dir);
    signal_during_write(SIGHUP, dir);
    /* After the writes the program's actions are the defaults again. */
    struct sigaction now;
    sigaction(SIGINT, NULL, &now);
    CHECK(now.sa_handler == SIG_DFL, "SIGINT's action is not the default after the writes");
    double x = 1;
    char target[600];
    snprintf(target, sizeof target, "%s/small.mtx", dir);
    CHECK(sylva_write_dense(target, 1, 1, &x, 1) == SYLVA_OK, "a small write: %s", sylva_last_error());
    sigaction(SIGTERM, NULL, &now);
    CHECK(now.sa_handler == SIG_DFL, "SIGTERM's action is not the default after a write");
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "cannot remove %s\n", dir);
}

/* n × n tridiag(-s, 2s, -s) (a 1-D Laplacian scaled by s). */
static sylva_matrix *laplacian(int64_t n, double s)
{
    int64_t *cp = test_alloc((size_t)(n + 1) * sizeof *cp), *ri = test_alloc((size_t)(2 * n) * sizeof *ri);
    double *v = test_alloc((size_t)(2 * n) * sizeof *v);
    int64_t nz = 0;
    for (int64_t j = 0; j < n; j++) {
        cp[j] = nz;
        ri[nz] = j;
        v[nz++] = 2 * s;
        if (j + 1 < n) {
            ri[nz] = j + 1;
            v[nz++] = -s;
        }
    }
    cp[n] = nz;
    sylva_matrix *A = NULL;
    CHECK(sylva_matrix_from_csc(n, cp, ri, v, 1, &A) == SYLVA_OK, "from_csc: %s", sylva_last_error());
    free(cp);
    free(ri);
    free(v);
    return A;
}

/* Solve A x = b (b = value everywhere, or NaN at row 1) with a factor of
 * the given precision; the status, x's largest |entry| and the backward
 * error in *xmax, *berr. */
static int solve_const(const sylva_matrix *A, sylva_dtype precision, double value, int nan_at_1, double *xmax,
                       double *berr)
{
    int64_t n = A->n;
    sylva_options o;
    sylva_default_options(&o);
    o.precision = precision;
    sylva_analysis_t *an = NULL;
    sylva_factor_t *F = NULL;
    int st = sylva_analyze(A, &o, &an, NULL);
    if (!st) st = sylva_factorize(an, A, &F, NULL);
    CHECK(st == SYLVA_OK, "factorize: %s", sylva_last_error());
    double *b = test_alloc((size_t)n * sizeof *b), *x = test_alloc((size_t)n * sizeof *x);
    for (int64_t i = 0; i < n; i++) b[i] = value;
    if (nan_at_1) b[1] = NAN;
    memcpy(x, b, (size_t)n * sizeof *x);
    *xmax = 0;
    if (!st) st = sylva_solve_ex(F, NULL, SYLVA_FLOAT64, 1, x, n, NULL);
    for (int64_t i = 0; i < n; i++)
        if (!(fabs(x[i]) <= *xmax)) *xmax = fabs(x[i]); /* NaN wins */
    *berr = sylva_backward_error(A, x, b);
    free(b);
    free(x);
    sylva_factor_free(F);
    sylva_analysis_free(an);
    return st;
}

static void case_huge_rhs(void)
{
    if (start()) return;
    double xmax, berr;
    /* x = A⁻¹ b ≈ 1.13e306: finite, but the unscaled solve overflows */
    sylva_matrix *A = laplacian(300, 1e4);
    int st = solve_const(A, SYLVA_FLOAT64, 1e306, 0, &xmax, &berr);
    CHECK(st == SYLVA_OK, "b = 1e306: %s (%s)", sylva_status_name(st), sylva_last_error());
    CHECK(xmax > 1e306 && xmax < 1.2e306, "b = 1e306: max |x| = %g, not about 1.13e306", xmax);
    CHECK(berr <= 1e-14, "b = 1e306: backward error %g", berr);
    /* the same in mixed precision (a float factor, double b far beyond FLT_MAX) */
    st = solve_const(A, SYLVA_FLOAT32, 1e306, 0, &xmax, &berr);
    CHECK(st == SYLVA_OK && xmax > 1e306 && xmax < 1.2e306 && berr <= 1e-5,
          "b = 1e306, float factor: %s, max |x| = %g, backward error %g (%s)", sylva_status_name(st), xmax, berr,
          sylva_last_error());
    sylva_matrix_free(A);
    /* a solution beyond DBL_MAX: an error naming the entry, never OK */
    A = laplacian(300, 1.0);
    st = solve_const(A, SYLVA_FLOAT64, 1e306, 0, &xmax, &berr);
    CHECK(st == SYLVA_ERR_BAD_VALUE && contains(sylva_last_error(), "the solution is not finite: X("),
          "x beyond DBL_MAX: %s (%s)", sylva_status_name(st), sylva_last_error());
    /* a NaN in b: refused, naming it */
    st = solve_const(A, SYLVA_FLOAT64, 1.0, 1, &xmax, &berr);
    CHECK(st == SYLVA_ERR_BAD_VALUE && contains(sylva_last_error(), "B(2, 1) is NaN"), "NaN in b: %s (%s)",
          sylva_status_name(st), sylva_last_error());
    /* an ordinary b is untouched: the same solution as before */
    st = solve_const(A, SYLVA_FLOAT64, 1.0, 0, &xmax, &berr);
    CHECK(st == SYLVA_OK && fabs(xmax - 11325.0) < 1e-6 && berr <= 1e-14, "b = 1: %s, max |x| = %.17g, berr %g",
          sylva_status_name(st), xmax, berr);
    sylva_matrix_free(A);
    sylva_finalize();
}

/* diag(d) as a sylva matrix. */
static sylva_matrix *diagonal(int64_t n, const double *d)
{
    int64_t *cp = test_alloc((size_t)(n + 1) * sizeof *cp), *ri = test_alloc((size_t)n * sizeof *ri);
    for (int64_t j = 0; j <= n; j++) cp[j] = j;
    for (int64_t j = 0; j < n; j++) ri[j] = j;
    sylva_matrix *A = NULL;
    CHECK(sylva_matrix_from_csc(n, cp, ri, d, 1, &A) == SYLVA_OK, "from_csc: %s", sylva_last_error());
    free(cp);
    free(ri);
    return A;
}

static void case_pivot_ratio(void)
{
    if (start()) return;
    /* L = diag(2, 1, 3): (min/max)² = 1/9, in double and in single */
    double d[3] = {4, 1, 9};
    sylva_matrix *A = diagonal(3, d);
    for (int single = 0; single < 2; single++) {
        sylva_options o;
        sylva_default_options(&o);
        o.precision = single ? SYLVA_FLOAT32 : SYLVA_FLOAT64;
        sylva_analysis_t *an = NULL;
        sylva_factor_t *F = NULL;
        sylva_factor_info fi;
        memset(&fi, 0, sizeof fi);
        CHECK(sylva_analyze(A, &o, &an, NULL) == SYLVA_OK, "analyze: %s", sylva_last_error());
        CHECK(sylva_factorize(an, A, &F, &fi) == SYLVA_OK, "factorize: %s", sylva_last_error());
        CHECK(fabs(fi.pivot_ratio - 1.0 / 9.0) <= 1e-7 / 9, "%s: pivot ratio %.17g, want 1/9",
              single ? "single" : "double", fi.pivot_ratio);
        /* a refactorization with new values: its own ratio */
        double d2[3] = {1, 1e-20, 1};
        sylva_matrix *B = diagonal(3, d2);
        memset(&fi, 0, sizeof fi);
        int st = sylva_refactorize(F, B, &fi);
        if (!single) {
            CHECK(st == SYLVA_OK && fabs(fi.pivot_ratio - 1e-20) <= 1e-34, "refactorize: %s, pivot ratio %g",
                  sylva_status_name(st), fi.pivot_ratio);
        }
        sylva_matrix_free(B);
        sylva_factor_free(F);
        sylva_analysis_free(an);
    }
    sylva_matrix_free(A);
    /* a failed factorization reports none (NaN), not 0 */
    double bad[2] = {1, -1};
    A = diagonal(2, bad);
    sylva_analysis_t *an = NULL;
    sylva_factor_t *F = NULL;
    sylva_factor_info fi;
    memset(&fi, 0, sizeof fi);
    CHECK(sylva_analyze(A, NULL, &an, NULL) == SYLVA_OK, "analyze: %s", sylva_last_error());
    CHECK(sylva_factorize(an, A, &F, &fi) == SYLVA_ERR_NOT_SPD, "an indefinite matrix factored");
    CHECK(isnan(fi.pivot_ratio), "failed factorization: pivot ratio %g, want NaN", fi.pivot_ratio);
    sylva_factor_free(F);
    sylva_analysis_free(an);
    sylva_matrix_free(A);
    sylva_finalize();
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_round2 CASE\n");
        return 2;
    }
    static const struct {
        const char *name;
        void (*fn)(void);
    } cases[] = {{"fork", case_fork}, {"signals", case_signals}, {"huge_rhs", case_huge_rhs},
                 {"pivot_ratio", case_pivot_ratio}};
    int found = 0;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
        if (!strcmp(argv[1], cases[c].name)) {
            cases[c].fn();
            found = 1;
        }
    if (!found) {
        fprintf(stderr, "unknown case %s\n", argv[1]);
        return 2;
    }
    return test_exit(argv[1]);
}
