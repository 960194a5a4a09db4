/* test_defects.c CASE — the library side of the twelve defects of issue 11,
 * one CASE per defect (CTest: defect.NN_name), each written to fail on the
 * code before its fix: a NaN in the values factored as OK (1), duplicates
 * summing to inf (2), a file declaring a huge n filling gigabytes (3), a
 * factor reading its freed analysis (4), a FIFO hanging the reader (5), a
 * failed write leaving a truncated file (7), a backward error of NaN for
 * entries near DBL_MAX (10), misleading messages (12); absurd options (11)
 * are test_limits.c. Only the public API, so it builds against any
 * version. The command's side is cli_defects.sh. */

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "SuiteSparse_config.h"
#include "reliability_util.h"

static char tmpdir[256];

static const char *tmp_path(const char *name)
{
    static char buf[8][512];
    static int k;
    k = (k + 1) % 8;
    snprintf(buf[k], sizeof buf[k], "%s/%s", tmpdir, name);
    return buf[k];
}

static void write_text(const char *path, const char *text, size_t len)
{
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL, "cannot create %s", path);
    if (!f) return;
    fwrite(text, 1, len, f);
    fclose(f);
}

/* 1: a NaN in the values is never factored as OK; a finite matrix whose
 * elimination meets a NaN pivot is not either. */
static void case_nan_values(void)
{
    if (start()) return;
    sylva_matrix *A = tridiag(40);
    sylva_analysis_t *an = NULL;
    sylva_factor_t *F = NULL;
    CHECK(sylva_analyze(A, NULL, &an, NULL) == SYLVA_OK, "analyze: %s", sylva_last_error());
    CHECK(sylva_factorize(an, A, &F, NULL) == SYLVA_OK, "factorize: %s", sylva_last_error());
    double *v = A->values;
    double keep = v[17];
    v[17] = NAN; /* the natural way to pass new values */
    int st = sylva_refactorize(F, A, NULL);
    CHECK(st == SYLVA_ERR_BAD_VALUE, "refactorize with a NaN: %s (%s)", sylva_status_name(st),
          sylva_last_error());
    CHECK(contains(sylva_last_error(), "NaN"), "message '%s' names no NaN", sylva_last_error());
    double x[40] = {0}, ld = 0;
    st = sylva_solve(F, 1, x, 40);
    CHECK(st != SYLVA_OK, "solve after a refused refactorization returned OK");
    st = sylva_logdet(F, &ld);
    CHECK(st != SYLVA_OK || isfinite(ld), "logdet after a refused refactorization: %g", ld);
    sylva_factor_t *G = NULL;
    st = sylva_factorize(an, A, &G, NULL);
    CHECK(st == SYLVA_ERR_BAD_VALUE && G == NULL, "factorize with a NaN: %s",
          sylva_status_name(st));
    v[17] = INFINITY;
    st = sylva_refactorize(F, A, NULL);
    CHECK(st == SYLVA_ERR_BAD_VALUE, "refactorize with inf: %s", sylva_status_name(st));
    /* single precision: the NaN survives the conversion */
    v[17] = NAN;
    sylva_matrix *As = NULL;
    CHECK(sylva_matrix_convert(A, SYLVA_FLOAT32, &As) == SYLVA_OK, "convert");
    st = As ? sylva_refactorize(F, As, NULL) : SYLVA_ERR_ARGUMENT;
    CHECK(st == SYLVA_ERR_BAD_VALUE, "refactorize with a float NaN: %s", sylva_status_name(st));
    sylva_matrix_free(As);
    /* the factor is usable again once the values are */
    v[17] = keep;
    CHECK(sylva_refactorize(F, A, NULL) == SYLVA_OK, "refactorize: %s", sylva_last_error());
    double e = solve_berr(F, A);
    CHECK(e <= 1e-14, "backward error %g after recovery", e);
    sylva_factor_free(F);
    sylva_analysis_free(an);
    sylva_matrix_free(A);

    /* Finite values, not positive definite: column 1's tiny pivot makes
     * L(3,1) = inf, then L(3,2) = 1 − inf·0 = NaN and pivot 3 is NaN, which
     * OpenBLAS's potrf lets through. */
    int64_t cp[4] = {0, 3, 5, 6}, ri[6] = {0, 1, 2, 1, 2, 2};
    double val[6] = {1e-300, 0.0, 1e200, 1.0, 1.0, 1.0};
    sylva_matrix *B = NULL;
    CHECK(sylva_matrix_from_csc(3, cp, ri, val, 1, &B) == SYLVA_OK, "from_csc: %s",
          sylva_last_error());
    sylva_options o;
    sylva_default_options(&o);
    o.ordering = SYLVA_ORDERING_NATURAL;
    sylva_factor_info fi;
    CHECK(sylva_analyze(B, &o, &an, NULL) == SYLVA_OK, "analyze: %s", sylva_last_error());
    st = sylva_factorize(an, B, &F, &fi);
    if (st == SYLVA_OK) {
        ld = 0;
        sylva_logdet(F, &ld);
        CHECK(0, "a NaN pivot was factored as OK (log det %g)", ld);
        sylva_factor_free(F);
    } else {
        CHECK(st == SYLVA_ERR_NOT_SPD && fi.failed_column == 2, "NaN pivot: %s, column %lld (%s)",
              sylva_status_name(st), (long long)fi.failed_column, sylva_last_error());
    }
    sylva_analysis_free(an);
    sylva_matrix_free(B);

    /* The same NaN pivot in a leaf of a 40-front chain (no amalgamation):
     * found from the root, named at its origin. */
    int64_t n = 40, cq[41], rq[80];
    double vq[80];
    int64_t nz = 0;
    for (int64_t j = 0; j < n; j++) {
        cq[j] = nz;
        rq[nz] = j;
        vq[nz++] = j == 0 ? 1e-300 : j == 1 || j == 2 ? 1.0 : 4.0;
        if (j == 0) { /* column 0: rows 1 (explicit 0) and 2 */
            rq[nz] = 1;
            vq[nz++] = 0.0;
            rq[nz] = 2;
            vq[nz++] = 1e200;
        } else if (j + 1 < n) {
            rq[nz] = j + 1;
            vq[nz++] = j == 1 ? 1.0 : -1.0;
        }
    }
    cq[n] = nz;
    CHECK(sylva_matrix_from_csc(n, cq, rq, vq, 1, &B) == SYLVA_OK, "chain: %s", sylva_last_error());
    for (int i = 0; i < 3; i++) {
        o.nrelax[i] = 0;
        o.zrelax[i] = 0;
    }
    sylva_analysis_info ai;
    CHECK(sylva_analyze(B, &o, &an, &ai) == SYLVA_OK, "analyze: %s", sylva_last_error());
    CHECK(ai.fronts > 30, "the chain has %lld fronts", (long long)ai.fronts);
    F = NULL;
    st = sylva_factorize(an, B, &F, &fi);
    CHECK(st == SYLVA_ERR_NOT_SPD && fi.failed_column == 2,
          "NaN pivot in a leaf: %s, column %lld (%s)", sylva_status_name(st),
          (long long)fi.failed_column, sylva_last_error());
    sylva_factor_free(F);
    sylva_analysis_free(an);
    sylva_matrix_free(B);
    sylva_finalize();
}

/* 2: duplicates whose sum overflows are refused, naming both. */
static void case_duplicate_overflow(void)
{
    const char *p = tmp_path("dup.mtx");
    static const char sym[] = "%%MatrixMarket matrix coordinate real symmetric\n"
                              "% two halves of a number too large\n"
                              "2 2 3\n1 1 1e308\n2 2 1\n1 1 1e308\n";
    write_text(p, sym, sizeof sym - 1);
    sylva_matrix *A = NULL;
    int st = sylva_read_matrix_market(p, &A);
    CHECK(st == SYLVA_ERR_BAD_VALUE && A == NULL, "reader: %s", sylva_status_name(st));
    CHECK(contains(sylva_last_error(), "lines 4 and 6"), "message '%s' does not name lines 4 and 6",
          sylva_last_error());
    sylva_matrix_free(A);
    static const char mirror[] = "%%MatrixMarket matrix coordinate real symmetric\n"
                                 "2 2 4\n1 1 1\n2 1 -1e308\n1 2 -1e308\n2 2 1\n";
    write_text(p, mirror, sizeof mirror - 1);
    /* Both triangles stored: refused unless summing them is asked for;
     * then the sum is out of range. */
    st = sylva_read_matrix_market(p, &A);
    CHECK(st == SYLVA_ERR_FORMAT && contains(sylva_last_error(), ":5: A(1,2) and A(2,1) on line 4"),
          "mirrored entries: %s '%s'", sylva_status_name(st), sylva_last_error());
    sylva_read_options ro;
    sylva_default_read_options(&ro);
    ro.symmetric_both = SYLVA_BOTH_SUM;
    st = sylva_read_matrix_market_opts(p, &ro, &A);
    CHECK(st == SYLVA_ERR_BAD_VALUE, "mirrored duplicates: %s", sylva_status_name(st));
    CHECK(contains(sylva_last_error(), "lines 4 and 5"), "message '%s'", sylva_last_error());
    sylva_matrix_free(A);
    A = NULL;
    static const char general[] =
        "%%MatrixMarket matrix coordinate real general\n"
        "2 2 6\n1 1 1\n1 2 1e308\n1 2 1e308\n2 1 1e308\n2 1 1e308\n2 2 1\n";
    write_text(p, general, sizeof general - 1);
    st = sylva_read_matrix_market(p, &A);
    CHECK(st == SYLVA_ERR_BAD_VALUE, "general file: %s (%s)", sylva_status_name(st),
          sylva_last_error());
    sylva_matrix_free(A);
    A = NULL;
    /* Arrays: the same, with the positions. */
    int64_t cp[3] = {0, 3, 4}, ri[4] = {0, 1, 0, 1};
    double v[4] = {1e308, 1, 1e308, 1};
    st = sylva_matrix_from_csc(2, cp, ri, v, 1, &A);
    CHECK(st == SYLVA_ERR_BAD_VALUE && A == NULL, "from_csc: %s", sylva_status_name(st));
    CHECK(contains(sylva_last_error(), "entries 0 and 2"), "message '%s'", sylva_last_error());
    sylva_matrix_free(A);
    /* A finite sum of large duplicates is fine. */
    double w[4] = {1e308, 1, -1e308, 1};
    st = sylva_matrix_from_csc(2, cp, ri, w, 1, &A);
    CHECK(st == SYLVA_OK && A && ((double *)A->values)[0] == 0.0, "finite sum: %s",
          sylva_status_name(st));
    sylva_matrix_free(A);
}

static double seconds_of(int (*read)(const char *), const char *path, int *status)
{
    double t0 = sylva_wtime();
    *status = read(path);
    return sylva_wtime() - t0;
}

static int read_mm(const char *path)
{
    sylva_matrix *A = NULL;
    int st = sylva_read_matrix_market(path, &A);
    sylva_matrix_free(A);
    return st;
}

static int read_dn(const char *path)
{
    int64_t n, k;
    double *X = NULL;
    int st = sylva_read_dense(path, &n, &k, &X);
    free(X);
    return st;
}

/* 3: a tiny file declaring a huge n fails at once (no gigabytes filled). */
static void case_huge_dimension(void)
{
    static const struct {
        const char *text, *limit;
        int dense;
    } cases[] = {
        /* 2^28 columns: 6 GB of column arrays under a 1 GB budget. */
        {"%%MatrixMarket matrix coordinate real symmetric\n268435456 268435456 1\n1 1 1\n", "1G",
         0},
        {"%%MatrixMarket matrix coordinate real symmetric\n2147483647 2147483647 1\n1 1 1\n", "8G",
         0},
        {"%%MatrixMarket matrix coordinate pattern symmetric\n2147483647 2147483647 1\n1 1\n", "8G",
         0},
        {"%%MatrixMarket matrix coordinate real general\n2147483647 2147483647 1\n1 1 1\n", "8G",
         0},
        /* 2^40 columns: more than any machine has, no limit needed. */
        {"%%MatrixMarket matrix coordinate real symmetric\n1099511627776 1099511627776 1\n1 1 1\n",
         NULL, 0},
        /* dense: 10^12 values declared, one given */
        {"%%MatrixMarket matrix array real general\n1000000000 1000\n1\n", NULL, 1},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const char *p = tmp_path("huge.mtx");
        write_text(p, cases[c].text, strlen(cases[c].text));
        if (cases[c].limit)
            setenv("SYLVA_MEMORY_LIMIT", cases[c].limit, 1);
        else
            unsetenv("SYLVA_MEMORY_LIMIT");
        int st;
        double s = seconds_of(cases[c].dense ? read_dn : read_mm, p, &st);
        CHECK(st == SYLVA_ERR_NO_MEMORY || st == SYLVA_ERR_FORMAT, "case %zu: %s (%s)", c,
              sylva_status_name(st), sylva_last_error());
        CHECK(s < 1.0, "case %zu took %.2f s", c, s);
        printf("case %zu: %s in %.3f s: %s\n", c, sylva_status_name(st), s, sylva_last_error());
    }
    unsetenv("SYLVA_MEMORY_LIMIT");
}

/* 4: the analysis may be freed before its factors. */
static void case_analysis_lifetime(void)
{
    if (start()) return;
    sylva_matrix *A = tridiag(200);
    sylva_analysis_t *an = NULL;
    sylva_factor_t *F = NULL;
    CHECK(sylva_analyze(A, NULL, &an, NULL) == SYLVA_OK, "analyze: %s", sylva_last_error());
    CHECK(sylva_factorize(an, A, &F, NULL) == SYLVA_OK, "factorize: %s", sylva_last_error());
    sylva_analysis_free(an);
    /* Reuse the freed blocks, as a program would. */
    for (int k = 0; k < 2000; k++) {
        size_t sz = (size_t)(16 + (k * 37) % 4096);
        void *p = malloc(sz);
        memset(p, 0xff, sz);
        free(k % 3 ? p : NULL);
    }
    double e = solve_berr(F, A);
    CHECK(e <= 1e-14, "solve after freeing the analysis: backward error %g", e);
    CHECK(sylva_refactorize(F, A, NULL) == SYLVA_OK, "refactorize after freeing the analysis: %s",
          sylva_last_error());
    double ld = 0;
    CHECK(sylva_logdet(F, &ld) == SYLVA_OK && isfinite(ld), "logdet %g", ld);
    sylva_factor_free(F);
    sylva_matrix_free(A);
    sylva_finalize();
}

static void on_alarm(int sig)
{
    (void)sig;
    static const char msg[] = "reader hung on a FIFO\n";
    if (write(2, msg, sizeof msg - 1) < 0) _exit(98);
    _exit(99);
}

/* 5: a FIFO (no writer) is refused at once, not waited on. */
static void case_fifo_input(void)
{
    const char *p = tmp_path("fifo.mtx");
    CHECK(mkfifo(p, 0600) == 0, "mkfifo: %s", strerror(errno));
    signal(SIGALRM, on_alarm);
    alarm(10);
    sylva_matrix *A = NULL;
    int st = sylva_read_matrix_market(p, &A);
    CHECK(st == SYLVA_ERR_IO && A == NULL, "FIFO: %s", sylva_status_name(st));
    CHECK(contains(sylva_last_error(), "not a regular file"), "message '%s'", sylva_last_error());
    st = read_dn(p);
    CHECK(st == SYLVA_ERR_IO, "FIFO (dense): %s", sylva_status_name(st));
    alarm(0);
    unlink(p);
}

/* 7: a failed write leaves no partial file and the old one intact. */
static void case_write_atomic(void)
{
    const char *p = tmp_path("x.mtx");
    double x[4] = {1, 2, 3, 4};
    CHECK(sylva_write_dense(p, 4, 1, x, 4) == SYLVA_OK, "write: %s", sylva_last_error());
    struct stat st0;
    stat(p, &st0);
    enum { N = 100000 };
    double *big = malloc(N * sizeof *big);
    for (int i = 0; i < N; i++) big[i] = 1.0 / (i + 3);
    /* A full disk, as a file-size limit: the write fails midway. */
    struct rlimit old, lim = {.rlim_cur = 64 * 1024, .rlim_max = RLIM_INFINITY};
    getrlimit(RLIMIT_FSIZE, &old);
    lim.rlim_max = old.rlim_max;
    signal(SIGXFSZ, SIG_IGN);
    setrlimit(RLIMIT_FSIZE, &lim);
    int st = sylva_write_dense(p, N, 1, big, N);
    setrlimit(RLIMIT_FSIZE, &old);
    CHECK(st == SYLVA_ERR_IO, "write past the limit: %s", sylva_status_name(st));
    struct stat st1;
    stat(p, &st1);
    CHECK(st1.st_size == st0.st_size,
          "the old file was truncated or replaced (%lld bytes, was %lld)", (long long)st1.st_size,
          (long long)st0.st_size);
    int64_t n = 0, k = 0;
    double *X = NULL;
    CHECK(sylva_read_dense(p, &n, &k, &X) == SYLVA_OK && n == 4 && X && X[3] == 4.0,
          "old contents");
    free(X);
    /* nothing else left in the directory but x.mtx */
    char cmd[600];
    snprintf(cmd, sizeof cmd, "test \"$(ls -A '%s' | grep -v '^x.mtx$' | wc -l)\" = 0", tmpdir);
    CHECK(system(cmd) == 0, "a temporary file was left in %s", tmpdir);
    /* a new file that cannot be completed is not created */
    const char *q = tmp_path("new.mtx");
    setrlimit(RLIMIT_FSIZE, &lim);
    st = sylva_write_dense(q, N, 1, big, N);
    setrlimit(RLIMIT_FSIZE, &old);
    CHECK(st == SYLVA_ERR_IO && access(q, F_OK) != 0, "a partial new file exists (%s)",
          sylva_status_name(st));
    /* a full device */
    if (access("/dev/full", W_OK) == 0) {
        st = sylva_write_dense("/dev/full", N, 1, big, N);
        CHECK(st == SYLVA_ERR_IO, "/dev/full: %s", sylva_status_name(st));
    }
    /* an unwritable directory */
    st = sylva_write_dense(tmp_path("no/such/dir/x.mtx"), 4, 1, x, 4);
    CHECK(st == SYLVA_ERR_IO, "missing directory: %s", sylva_status_name(st));
    free(big);
}

/* 10: the backward error of a good solution with entries near DBL_MAX is
 * small, not NaN or 0. */
static void case_backward_error_scale(void)
{
    int64_t cp[3] = {0, 2, 3}, ri[3] = {0, 1, 1};
    double v[3] = {1.5e308, -6e307, 1.5e308};
    sylva_matrix *A = NULL;
    CHECK(sylva_matrix_from_csc(2, cp, ri, v, 1, &A) == SYLVA_OK, "from_csc: %s",
          sylva_last_error());
    if (!A) return;
    double x[2] = {0.25, 0.25}, b[2];
    sylva_matrix_symv(A, x, b);
    CHECK(isfinite(b[0]) && isfinite(b[1]), "b = A x");
    double e = sylva_backward_error(A, x, b);
    CHECK(e >= 0 && e <= 1e-15, "backward error %g", e);
    x[0] = 0.3; /* a wrong solution is still seen as wrong */
    e = sylva_backward_error(A, x, b);
    CHECK(e > 1e-3 && isfinite(e), "backward error of a wrong solution %g", e);
    sylva_matrix_free(A);
}

static void *failing_malloc(size_t n)
{
    (void)n;
    return NULL;
}

/* 12: messages that say what happened. */
static void case_messages(void)
{
    /* /proc files have size 0 and content: read, not "empty". */
    sylva_matrix *A = NULL;
    int st = sylva_read_matrix_market("/proc/self/status", &A);
    CHECK(st == SYLVA_ERR_FORMAT && contains(sylva_last_error(), "bad banner"),
          "/proc/self/status: %s (%s)", sylva_status_name(st), sylva_last_error());
    /* A NUL byte inside an entry is named as such. */
    const char *p = tmp_path("nul.mtx");
    static const char nul[] =
        "%%MatrixMarket matrix coordinate real symmetric\n2 2 2\n1\0 1 1\n2 2 1\n";
    write_text(p, nul, sizeof nul - 1);
    st = sylva_read_matrix_market(p, &A);
    CHECK(st == SYLVA_ERR_FORMAT && contains(sylva_last_error(), ":3: NUL byte"), "NUL: %s (%s)",
          sylva_status_name(st), sylva_last_error());
    /* CHOLMOD out of memory says so. */
    A = tridiag(30);
    sylva_options o;
    sylva_default_options(&o);
    o.ordering = SYLVA_ORDERING_NATURAL;
    void *(*saved)(size_t) = SuiteSparse_config.malloc_func;
    SuiteSparse_config.malloc_func = failing_malloc;
    sylva_analysis_t *an = NULL;
    st = sylva_analyze(A, &o, &an, NULL);
    SuiteSparse_config.malloc_func = saved;
    CHECK(st == SYLVA_ERR_NO_MEMORY && contains(sylva_last_error(), "out of memory"),
          "CHOLMOD without memory: %s (%s)", sylva_status_name(st), sylva_last_error());
    sylva_analysis_free(an);
    sylva_matrix_free(A);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_defects CASE\n");
        return 2;
    }
    snprintf(tmpdir, sizeof tmpdir, "%s/sylva-defects-XXXXXX",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(tmpdir)) return 2;
    static const struct {
        const char *name;
        void (*fn)(void);
    } cases[] = {{"nan_values", case_nan_values},
                 {"duplicate_overflow", case_duplicate_overflow},
                 {"huge_dimension", case_huge_dimension},
                 {"analysis_lifetime", case_analysis_lifetime},
                 {"fifo_input", case_fifo_input},
                 {"write_atomic", case_write_atomic},
                 {"backward_error_scale", case_backward_error_scale},
                 {"messages", case_messages}};
    int found = 0;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
        if (!strcmp(argv[1], cases[c].name)) {
            cases[c].fn();
            found = 1;
        }
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0) fprintf(stderr, "cannot remove %s\n", tmpdir);
    if (!found) {
        fprintf(stderr, "unknown case %s\n", argv[1]);
        return 2;
    }
    return test_exit(argv[1]);
}
