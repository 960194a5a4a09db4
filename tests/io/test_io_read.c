/* test_io_read.c — the Matrix Market reader against its corpus:
 * matrices/bad (status, line and message from EXPECTED.tsv, serial and
 * threaded), matrices/edge (hand-written expectations), matrices/real (same
 * arrays as CHOLMOD's cholmod_l_read_sparse, and as sylva_matrix_from_cholmod
 * of it), and random files (random spellings, blanks, duplicates, mirrored
 * entries) checked bit for bit against a strtod reference.
 *   test-io-read SOURCE_DIR [TMP_DIR] */
#define _DEFAULT_SOURCE
#include <cholmod.h>
#include <dirent.h>
#include <unistd.h>

#include "sylva_cholmod.h"
#include "test_util.h"

static char src[4096], tmpdir[4096];

static void set_threads(int t)
{
    char v[16];
    snprintf(v, sizeof v, "%d", t);
    setenv("SYLVA_IO_THREADS", v, 1);
}

/* ---------------------------------------------------------------- bad */

static int listed(char names[][128], int k, const char *name)
{
    for (int i = 0; i < k; i++)
        if (strcmp(names[i], name) == 0) return 1;
    return 0;
}

static void test_bad(void)
{
    char path[8192], line[1024];
    snprintf(path, sizeof path, "%s/matrices/bad/EXPECTED.tsv", src);
    FILE *f = fopen(path, "r");
    CHECK(f != NULL, "cannot open %s", path);
    if (!f) return;
    static char names[256][128];
    int k = 0;
    while (fgets(line, sizeof line, f) && k < 256) {
        if (line[0] == '#' || line[0] == '\n') continue;
        line[strcspn(line, "\r\n")] = '\0';
        char *file = strtok(line, "\t"), *status = strtok(NULL, "\t"), *lno = strtok(NULL, "\t"),
             *sub = strtok(NULL, "");
        CHECK(file && status && lno && sub, "bad EXPECTED.tsv line");
        if (!file || !status || !lno || !sub) continue;
        snprintf(names[k++], 128, "%s", file);
        snprintf(path, sizeof path, "%s/matrices/bad/%s", src, file);
        char prefix[8300], first[1024] = "";
        if (atoi(lno) > 0) snprintf(prefix, sizeof prefix, "%s:%s: ", path, lno);
        else snprintf(prefix, sizeof prefix, "%s: ", path);
        for (int threads = 1; threads <= 3; threads += 2) {
            set_threads(threads);
            sylva_matrix *A = (sylva_matrix *)&A; /* must be reset to NULL */
            int st = sylva_read_matrix_market(path, &A);
            const char *msg = sylva_last_error();
            CHECK(st < 0 && strcmp(sylva_status_name(st), status) == 0,
                  "%s (threads %d): status %s, expected %s (%s)", file, threads, sylva_status_name(st),
                  status, msg);
            CHECK(A == NULL, "%s: A not NULL on error", file);
            CHECK(strncmp(msg, prefix, strlen(prefix)) == 0, "%s: message '%s' does not start with '%s'",
                  file, msg, prefix);
            CHECK(strstr(msg, sub) != NULL, "%s: message '%s' lacks '%s'", file, msg, sub);
            if (threads == 1) snprintf(first, sizeof first, "%s", msg);
            else CHECK(strcmp(first, msg) == 0, "%s: threaded message differs: '%s' vs '%s'", file, msg, first);
            if (st == SYLVA_OK) sylva_matrix_free(A);
        }
    }
    fclose(f);
    CHECK(k >= 20, "only %d bad files listed", k);
    /* Every file of bad/ is in EXPECTED.tsv. */
    snprintf(path, sizeof path, "%s/matrices/bad", src);
    DIR *d = opendir(path);
    CHECK(d != NULL, "cannot list %s", path);
    struct dirent *e;
    while (d && (e = readdir(d)))
        if (strstr(e->d_name, ".mtx")) CHECK(listed(names, k, e->d_name), "%s not in EXPECTED.tsv", e->d_name);
    if (d) closedir(d);
    set_threads(1);
}

/* ---------------------------------------------------------------- edge */

typedef struct {
    int64_t i, j;
    const char *v; /* as written in the file: compared with strtod's bits */
} expect_entry;

typedef struct {
    const char *file;
    int64_t n, nnz;
    int pattern;
    expect_entry e[10];
} expect_file;

static const expect_file edge[] = {
    {"one_by_one.mtx", 1, 1, 0, {{0, 0, "5"}}},
    {"zero_by_zero.mtx", 0, 0, 0, {{-1, 0, 0}}},
    {"no_entries.mtx", 3, 0, 0, {{-1, 0, 0}}},
    {"diagonal.mtx", 5, 5, 0, {{0, 0, "1"}, {2, 2, "3"}, {4, 4, "5"}, {1, 0, "0"}}},
    {"crlf_tabs_comments.mtx", 3, 4, 0, {{0, 0, "2.5"}, {1, 0, "-1"}, {1, 1, "2.5"}, {2, 2, "4"}, {2, 1, "0"}}},
    {"duplicates.mtx", 3, 4, 0, {{0, 0, "1"}, {1, 0, "6"}, {1, 1, "5"}, {2, 2, "2"}}},
    {"upper_symmetric.mtx", 3, 5, 0, {{0, 0, "4"}, {1, 0, "-1"}, {1, 1, "4"}, {2, 1, "-1"}, {2, 2, "4"}}},
    {"integer.mtx", 3, 4, 0, {{0, 0, "7"}, {1, 0, "-3"}, {1, 1, "9"}, {2, 2, "11"}}},
    {"big_values.mtx", 3, 5, 0,
     {{0, 0, "1e308"}, {1, 0, "-1.7976931348623157e308"}, {1, 1, "4.9406564584124654e-324"},
      {2, 1, "1e-320"}, {2, 2, "2.2250738585072014e-308"}}},
    {"numbers.mtx", 4, 8, 0,
     {{0, 0, "+1.5E+02"}, {1, 0, ".5"}, {1, 1, "5."}, {2, 0, "-0"}, {2, 2, "0.1000000000000000055511151231257827"},
      {3, 0, "123456789012345678"}, {3, 2, "-7.2057594037927933e16"}, {3, 3, "1234.5678e-3"}}},
    {"general_symmetric.mtx", 3, 6, 0,
     {{0, 0, "4"}, {1, 0, "-1"}, {2, 0, "0"}, {1, 1, "4"}, {2, 1, "-1"}, {2, 2, "4"}}},
    {"pattern_general.mtx", 3, 4, 1, {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {2, 2, 0}}},
    {"not_spd.mtx", 3, 4, 0, {{0, 0, "1"}, {1, 0, "2"}, {1, 1, "1"}, {2, 2, "1"}}},
};

static void test_edge(void)
{
    char path[8192];
    for (size_t f = 0; f < sizeof edge / sizeof edge[0]; f++) {
        const expect_file *x = &edge[f];
        snprintf(path, sizeof path, "%s/matrices/edge/%s", src, x->file);
        sylva_matrix *A = NULL;
        int st = sylva_read_matrix_market(path, &A);
        CHECK(st == SYLVA_OK, "%s: %s", x->file, sylva_last_error());
        if (st != SYLVA_OK) continue;
        CHECK(A->n == x->n && A->nnz == x->nnz, "%s: n %lld nnz %lld, expected %lld %lld", x->file,
              (long long)A->n, (long long)A->nnz, (long long)x->n, (long long)x->nnz);
        CHECK(csc_is_valid(A), "%s: CSC contract broken", x->file);
        CHECK((A->values == NULL) == x->pattern, "%s: pattern mismatch", x->file);
        for (int k = 0; k < 10 && x->e[k].i >= 0 && (x->e[k].v || x->pattern); k++) {
            int found;
            double v = entry(A, x->e[k].i, x->e[k].j, &found);
            if (x->pattern) {
                CHECK(found, "%s: (%lld,%lld) missing", x->file, (long long)x->e[k].i, (long long)x->e[k].j);
                continue;
            }
            double want = strtod(x->e[k].v, NULL);
            CHECK(memcmp(&v, &want, sizeof v) == 0, "%s: A(%lld,%lld) = %.17g, expected %s", x->file,
                  (long long)x->e[k].i, (long long)x->e[k].j, v, x->e[k].v);
        }
        if (x->n == 0) CHECK(A->colptr && A->colptr[0] == 0, "0x0: colptr");
        sylva_matrix_free(A);
    }
    /* gzip: the same matrix as the plain file. */
    sylva_matrix *A = NULL, *B = NULL;
    snprintf(path, sizeof path, "%s/matrices/edge/bcsstk01.mtx.gz", src);
    int st = sylva_read_matrix_market(path, &A);
    CHECK(st == SYLVA_OK, "gz: %s", sylva_last_error());
    snprintf(path, sizeof path, "%s/matrices/real/bcsstk01.mtx", src);
    st = sylva_read_matrix_market(path, &B);
    CHECK(st == SYLVA_OK && A && B && same_matrix(A, B), "gz and plain bcsstk01 differ");
    sylva_matrix_free(A);
    sylva_matrix_free(B);
    /* Files that are not there, or not files. */
    st = sylva_read_matrix_market("/nonexistent/x.mtx", &A);
    CHECK(st == SYLVA_ERR_IO && A == NULL && strstr(sylva_last_error(), "/nonexistent/x.mtx"), "missing file: %s",
          sylva_last_error());
    st = sylva_read_matrix_market(src, &A);
    CHECK(st == SYLVA_ERR_IO && A == NULL, "directory: %s", sylva_last_error());
    CHECK(sylva_read_matrix_market(NULL, &A) == SYLVA_ERR_ARGUMENT, "NULL path");
    CHECK(sylva_read_matrix_market(path, NULL) == SYLVA_ERR_ARGUMENT, "NULL A");
}

/* ---------------------------------------------------------------- real */

static void test_real(void)
{
    char path[8192];
    snprintf(path, sizeof path, "%s/matrices/real", src);
    DIR *d = opendir(path);
    CHECK(d != NULL, "cannot list %s", path);
    if (!d) return;
    cholmod_common cm;
    cholmod_l_start(&cm);
    int count = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!strstr(e->d_name, ".mtx")) continue;
        snprintf(path, sizeof path, "%s/matrices/real/%s", src, e->d_name);
        count++;
        sylva_matrix *A = NULL, *A3 = NULL, *C = NULL;
        set_threads(1);
        int st = sylva_read_matrix_market(path, &A);
        CHECK(st == SYLVA_OK, "%s: %s", e->d_name, sylva_last_error());
        set_threads(3);
        setenv("SYLVA_IO_INDEX64", "1", 1);
        st = sylva_read_matrix_market(path, &A3);
        unsetenv("SYLVA_IO_INDEX64");
        set_threads(1);
        CHECK(st == SYLVA_OK && A && A3 && same_matrix(A, A3), "%s: threaded 64-bit-index read differs",
              e->d_name);
        if (!A) continue;
        CHECK(csc_is_valid(A), "%s: CSC contract broken", e->d_name);
        FILE *f = fopen(path, "r");
        cholmod_sparse *S = f ? cholmod_l_read_sparse(f, &cm) : NULL;
        if (f) fclose(f);
        CHECK(S != NULL, "%s: CHOLMOD cannot read it", e->d_name);
        if (S) {
            /* CHOLMOD's own lower triangle, sorted: an independent reference. */
            cholmod_sparse *L = cholmod_l_copy(S, -1, S->xtype == CHOLMOD_PATTERN ? 0 : 1, &cm);
            cholmod_l_sort(L, &cm);
            const SuiteSparse_long *Lp = L->p, *Li = L->i;
            const double *Lx = L->xtype == CHOLMOD_REAL ? L->x : NULL;
            int same = (int64_t)L->ncol == A->n && (int64_t)Lp[L->ncol] == A->nnz;
            for (int64_t j = 0; same && j <= A->n; j++) same = (int64_t)Lp[j] == A->colptr[j];
            for (int64_t p = 0; same && p < A->nnz; p++) {
                same = (int64_t)Li[p] == A->rowind[p];
                if (same && A->values && Lx) same = memcmp(&Lx[p], &((double *)A->values)[p], sizeof(double)) == 0;
            }
            CHECK(same, "%s: differs from cholmod_l_read_sparse", e->d_name);
            /* CHOLMOD reads a pattern file as real ones: compare structure. */
            st = sylva_matrix_from_cholmod(S, &C);
            CHECK(st == SYLVA_OK && C, "%s: from_cholmod: %s", e->d_name, sylva_last_error());
            if (C && !A->values) {
                free(C->values);
                C->values = NULL;
            }
            CHECK(C && same_matrix(A, C), "%s: from_cholmod differs", e->d_name);
            cholmod_l_free_sparse(&L, &cm);
            cholmod_l_free_sparse(&S, &cm);
        }
        sylva_matrix_free(A);
        sylva_matrix_free(A3);
        sylva_matrix_free(C);
    }
    closedir(d);
    cholmod_l_finish(&cm);
    CHECK(count >= 10, "only %d real matrices", count);
}

/* ---------------------------------------------------------------- random */

static int format_value(char *s, double v, int style)
{
    switch (style) {
    case 0: return sprintf(s, "%.17g", v);
    case 1: return sprintf(s, "%g", v);
    case 2: return sprintf(s, "%.3E", v);
    case 3: return sprintf(s, "%.0f", v * 1000.0);
    case 4: return sprintf(s, "%+.8f", v);
    default: return sprintf(s, "%.20e", v);
    }
}

/* What a random file holds at each lower position (r, c), index r + c n:
 * the sums in file order of the entries stored in the lower triangle (the
 * diagonal included) and in the upper one, whether each is present, and the
 * line of each side's first entry. */
typedef struct {
    int64_t n;
    double *DL, *DU;
    char *PL, *PU;
    int64_t *lineL, *lineU;
} sides;

/* Read path with o, check status OK and every position against `want`
 * (values) and `has` (presence), threaded and not, with both index widths. */
static void read_expect(const char *path, const sylva_read_options *o, int64_t n, int pattern,
                        const double *want, const char *has, int64_t mirrored, const char *what)
{
    for (int threads = 1; threads <= 4; threads += 3) {
        set_threads(threads);
        /* Both index widths of the reader's entry arrays (32-bit is the
         * default below 2^31 rows). */
        if (rnd_int(0, 1)) setenv("SYLVA_IO_INDEX64", "1", 1);
        else unsetenv("SYLVA_IO_INDEX64");
        sylva_matrix *A = NULL;
        sylva_read_info info;
        memset(&info, 0xff, sizeof info);
        int st = sylva_read_matrix_market_info(path, o, &A, &info);
        CHECK(st == SYLVA_OK, "%s: %s", what, sylva_last_error());
        if (st != SYLVA_OK) continue;
        CHECK(csc_is_valid(A) && A->n == n, "%s: contract", what);
        CHECK((A->values == NULL) == pattern, "%s: pattern", what);
        CHECK(info.mirrored == mirrored && info.asymmetric == 0 && info.compression &&
                  !*info.compression,
              "%s: info mirrored %lld (want %lld), asymmetric %lld", what,
              (long long)info.mirrored, (long long)mirrored, (long long)info.asymmetric);
        int64_t expect_nnz = 0, bad = 0;
        for (int64_t c = 0; c < n; c++)
            for (int64_t r = c; r < n; r++) {
                expect_nnz += has[r + c * n];
                int found;
                double v = entry(A, r, c, &found);
                if (found != has[r + c * n] || (!pattern && found && memcmp(&v, &want[r + c * n], sizeof v) != 0)) {
                    if (!bad) fprintf(stderr, "A(%lld,%lld) = %.17g, expected %.17g (found %d)\n", (long long)r, (long long)c, v, want[r + c * n], found);
                    bad++;
                }
            }
        CHECK(A->nnz == expect_nnz && bad == 0, "%s (threads %d): %lld wrong entries, nnz %lld vs %lld",
              what, threads, (long long)bad, (long long)A->nnz, (long long)expect_nnz);
        sylva_matrix_free(A);
    }
    set_threads(1);
    unsetenv("SYLVA_IO_INDEX64");
}

/* One random file: symmetric or general-but-symmetric, random blanks,
 * comments, CRLF, duplicates, upper entries (in a symmetric file, some
 * positions then stored in both triangles); the expected matrices are
 * accumulated per triangle in file order from strtod of the written text.
 * A symmetric file storing a position twice must be refused at the line of
 * the entry completing the first such pair, and read under each
 * symmetric_both rule with that rule's values. */
static void random_file(int trial)
{
    int64_t n = rnd_int(1, 40);
    int general = (int)rnd_int(0, 1), pattern = rnd_int(0, 5) == 0;
    int64_t m = rnd_int(0, 3 * n);
    size_t cap = (size_t)(m * 4 + 8) * 160 + 4096;
    char *text = malloc(cap), *s = text;
    sides S = {n, calloc((size_t)(n * n), sizeof(double)), calloc((size_t)(n * n), sizeof(double)),
               calloc((size_t)(n * n), 1), calloc((size_t)(n * n), 1),
               calloc((size_t)(n * n), sizeof(int64_t)), calloc((size_t)(n * n), sizeof(int64_t))};
    int64_t *ei = malloc((size_t)(2 * m + 2) * sizeof *ei), *ej = malloc((size_t)(2 * m + 2) * sizeof *ej);
    char (*ev)[64] = malloc((size_t)(2 * m + 2) * sizeof *ev);
    int64_t k = 0;
    for (int64_t t = 0; t < m; t++) {
        int64_t i = rnd_int(0, n - 1), j = rnd_int(0, n - 1);
        char v[64];
        format_value(v, (rnd_unit() - 0.5) * pow(10.0, (double)rnd_int(-5, 5)), (int)rnd_int(0, 5));
        ei[k] = i, ej[k] = j, strcpy(ev[k], v), k++;
        if (general && i != j) ei[k] = j, ej[k] = i, strcpy(ev[k], v), k++;
    }
    s += sprintf(s, "%%%%MatrixMarket matrix coordinate %s %s\n%% trial %d\n", pattern ? "pattern" : "real",
                 general ? "general" : "symmetric", trial);
    s += sprintf(s, "%lld %lld %lld\n", (long long)n, (long long)n, (long long)k);
    int64_t line = 4, want_line = 0, want_mirror_line = 0, want_i = 0, want_j = 0;
    const char *blanks[] = {" ", "\t", "  ", " \t "};
    for (int64_t t = 0; t < k; t++) {
        if (rnd_int(0, 9) == 0) s += sprintf(s, rnd_int(0, 1) ? "%% comment\n" : "\n"), line++;
        const char *b = blanks[rnd_int(0, 3)];
        s += sprintf(s, "%s%lld%s%lld", rnd_int(0, 3) ? "" : b, (long long)(ei[t] + 1), b, (long long)(ej[t] + 1));
        if (!pattern) s += sprintf(s, "%s%s", b, ev[t]);
        s += sprintf(s, "%s%s", rnd_int(0, 4) ? "" : b, rnd_int(0, 3) ? "\n" : "\r\n");
        int64_t r = ei[t] > ej[t] ? ei[t] : ej[t], c = ei[t] > ej[t] ? ej[t] : ei[t], x = r + c * n;
        int up = ei[t] < ej[t];
        if (general && up) { /* the twin of a lower entry */
            line++;
            continue;
        }
        /* The first entry completing a pair stored in both triangles. */
        if (!want_line && (up ? S.PL[x] : S.PU[x]) && r != c) {
            want_line = line;
            want_mirror_line = up ? S.lineL[x] : S.lineU[x];
            want_i = ei[t] + 1, want_j = ej[t] + 1;
        }
        /* First value assigned, later ones added: the reader's order (and
         * -0 stays -0, as it does in the reader). */
        double val = pattern ? 0.0 : strtod(ev[t], NULL);
        double *D = up ? S.DU : S.DL;
        char *P = up ? S.PU : S.PL;
        if (!P[x]) (up ? S.lineU : S.lineL)[x] = line;
        D[x] = P[x] ? D[x] + val : val;
        P[x] = 1;
        line++;
    }
    *s = '\0';
    char path[8192], what[64];
    snprintf(path, sizeof path, "%s/random_%d.mtx", tmpdir, trial);
    write_text(path, text);
    /* The matrix under each rule for positions stored in both triangles. */
    double *want = calloc((size_t)(n * n), sizeof *want);
    char *has = calloc((size_t)(n * n), 1);
    int64_t mirrored = 0;
    for (int64_t x = 0; x < n * n; x++) mirrored += S.PL[x] && S.PU[x];
    for (int rule = SYLVA_BOTH_REFUSE; rule <= SYLVA_BOTH_AVERAGE; rule++) {
        for (int64_t x = 0; x < n * n; x++) {
            has[x] = S.PL[x] || S.PU[x];
            want[x] = !S.PU[x] ? S.DL[x] : !S.PL[x] ? S.DU[x]
                      : rule == SYLVA_BOTH_SUM    ? S.DL[x] + S.DU[x]
                      : rule == SYLVA_BOTH_LOWER  ? S.DL[x]
                                                  : (S.DL[x] + S.DU[x]) / 2;
        }
        sylva_read_options o;
        sylva_default_read_options(&o);
        o.symmetric_both = (sylva_both_triangles)rule;
        snprintf(what, sizeof what, "random %d (both %d)", trial, rule);
        if (rule == SYLVA_BOTH_REFUSE && mirrored) {
            sylva_matrix *A = NULL;
            int st = sylva_read_matrix_market_opts(path, &o, &A);
            char prefix[8300], part[160];
            snprintf(prefix, sizeof prefix, "%s:%lld: ", path, (long long)want_line);
            snprintf(part, sizeof part, "A(%lld,%lld) and A(%lld,%lld) on line %lld are both stored",
                     (long long)want_i, (long long)want_j, (long long)want_j, (long long)want_i,
                     (long long)want_mirror_line);
            const char *msg = sylva_last_error();
            CHECK(st == SYLVA_ERR_FORMAT && A == NULL && !strncmp(msg, prefix, strlen(prefix)) &&
                      strstr(msg, part),
                  "%s: '%s' does not start with '%s' or lacks '%s'", what, msg, prefix, part);
            continue;
        }
        read_expect(path, &o, n, pattern, want, has, rule == SYLVA_BOTH_REFUSE ? 0 : mirrored, what);
    }
    unlink(path);
    free(text);
    free(want);
    free(has);
    free(S.DL);
    free(S.DU);
    free(S.PL);
    free(S.PU);
    free(S.lineL);
    free(S.lineU);
    free(ei);
    free(ej);
    free(ev);
}

/* A general file with one twin changed must name that pair. */
static void random_unsymmetric(int trial)
{
    int64_t n = rnd_int(2, 30), i = rnd_int(1, n - 1), j = rnd_int(0, i - 1);
    char path[8192], *text = malloc((size_t)(n * 2 + 8) * 64), *s = text;
    s += sprintf(s, "%%%%MatrixMarket matrix coordinate real general\n%lld %lld %lld\n", (long long)n,
                 (long long)n, (long long)(n + 2));
    for (int64_t d = 0; d < n; d++) s += sprintf(s, "%lld %lld 4\n", (long long)(d + 1), (long long)(d + 1));
    double a = (double)rnd_int(1, 9), b = a + (double)rnd_int(1, 9);
    s += sprintf(s, "%lld %lld %g\n%lld %lld %g\n", (long long)(i + 1), (long long)(j + 1), a, (long long)(j + 1),
                 (long long)(i + 1), b);
    snprintf(path, sizeof path, "%s/unsym_%d.mtx", tmpdir, trial);
    write_text(path, text);
    sylva_matrix *A = NULL;
    int st = sylva_read_matrix_market(path, &A);
    char want[256];
    snprintf(want, sizeof want, "not symmetric: A(%lld,%lld) = %g but A(%lld,%lld) = %g", (long long)(i + 1),
             (long long)(j + 1), a, (long long)(j + 1), (long long)(i + 1), b);
    CHECK(st == SYLVA_ERR_NOT_SYMMETRIC && A == NULL && strstr(sylva_last_error(), want),
          "unsymmetric %d: '%s' lacks '%s'", trial, sylva_last_error(), want);
    unlink(path);
    free(text);
}

/* Values written in many spellings must read back with strtod's exact bits
 * (each of the parser's paths: short mantissas, 16-19 digits, 20+ digits,
 * large exponents, denormals, and integers that sit exactly halfway between
 * two doubles, where a careless double rounding goes wrong). */
static void test_numbers(void)
{
    const int count = 20000;
    char path[8192], (*txt)[64] = malloc((size_t)count * sizeof *txt);
    for (int k = 0; k < count; k++) {
        double v = (rnd_unit() - 0.5) * pow(10.0, (double)rnd_int(-30, 30));
        uint64_t bits = rnd();
        int style = (int)rnd_int(0, 9);
        switch (style) {
        case 0: sprintf(txt[k], "%.17g", v); break;
        case 1: sprintf(txt[k], "%.16e", v); break;
        case 2: sprintf(txt[k], "%.18g", v); break;
        case 3: sprintf(txt[k], "%.19g", v); break;
        case 4: sprintf(txt[k], "%.20g", v); break;
        case 5: sprintf(txt[k], "%.15g", v); break;
        case 6: /* halfway between two doubles: 2^53..2^63 plus an odd half ulp */ {
            int sh = (int)rnd_int(0, 10);
            uint64_t base = (UINT64_C(1) << (53 + sh)) + ((rnd() >> 20) << (sh + 1));
            sprintf(txt[k], "%llu", (unsigned long long)(base + (UINT64_C(1) << sh)));
            break;
        }
        case 7: /* any bit pattern that is a finite double */
            memcpy(&v, &bits, sizeof v);
            if (!isfinite(v)) v = 1.5;
            sprintf(txt[k], "%.17g", v);
            break;
        case 8: sprintf(txt[k], "%lld.%llde%d", (long long)rnd_int(0, 999999), (long long)rnd_int(0, 999999999),
                        (int)rnd_int(-25, 25));
            break;
        default: sprintf(txt[k], "%.*f", (int)rnd_int(0, 19), v); break;
        }
    }
    /* Found by search: a long double product of these lands exactly on a
     * double halfway point after rounding, so converting it to double
     * would round the wrong way (strtod gets them right). */
    static const char *double_rounding[] = {"7707225444908962376e-21", "4695350429109344864e-8",
                                            "4238955884666118305e-12", "3982930982829885025e-17",
                                            "155666308309068745e-10",  "1536105316788470534e18",
                                            "497161047855035820e-7",   "7091212377509711053e3"};
    for (int k = 0; k < 8; k++) strcpy(txt[k * 997], double_rounding[k]);
    size_t cap = (size_t)count * 96 + 256;
    char *text = malloc(cap), *s = text;
    s += sprintf(s, "%%%%MatrixMarket matrix coordinate real general\n%d %d %d\n", count, count, count);
    for (int k = 0; k < count; k++) s += sprintf(s, "%d %d %s\n", k + 1, k + 1, txt[k]);
    snprintf(path, sizeof path, "%s/numbers.mtx", tmpdir);
    write_text(path, text);
    sylva_matrix *A = NULL;
    int st = sylva_read_matrix_market(path, &A);
    CHECK(st == SYLVA_OK && A && A->nnz == count, "numbers: %s", sylva_last_error());
    int bad = 0;
    for (int k = 0; A && k < count; k++) {
        double want = strtod(txt[k], NULL);
        if (memcmp(&want, &((double *)A->values)[k], sizeof want) != 0 && bad++ < 5)
            fprintf(stderr, "numbers: '%s' read as %.17g, strtod gives %.17g\n", txt[k], ((double *)A->values)[k], want);
    }
    CHECK(bad == 0, "numbers: %d values differ from strtod", bad);
    sylva_matrix_free(A);
    unlink(path);
    free(text);
    free(txt);
}

/* Random byte changes and truncations of a real file: the reader must
 * either load a valid matrix or fail with a message naming the file; never
 * crash, hang or leak (run under valgrind / the Asan build). */
static void test_mutations(void)
{
    char path[8192], out[8192];
    snprintf(path, sizeof path, "%s/matrices/real/bcsstk01.mtx", src);
    FILE *f = fopen(path, "rb");
    CHECK(f != NULL, "cannot open %s", path);
    if (!f) return;
    static char orig[16384];
    size_t len = fread(orig, 1, sizeof orig, f);
    fclose(f);
    snprintf(out, sizeof out, "%s/mutated.mtx", tmpdir);
    const char alphabet[] = "0123456789 \n\r\t-+.eE%x";
    for (int trial = 0; trial < 400; trial++) {
        char *text = malloc(len + 1);
        memcpy(text, orig, len);
        size_t n = len;
        if (rnd_int(0, 3) == 0) n = (size_t)rnd_int(0, (int64_t)len);
        int changes = (int)rnd_int(1, 4);
        for (int c = 0; c < changes && n > 0; c++)
            text[rnd_int(0, (int64_t)n - 1)] = rnd_int(0, 20) ? alphabet[rnd_int(0, (int64_t)sizeof alphabet - 2)] : '\0';
        FILE *g = fopen(out, "wb");
        fwrite(text, 1, n, g);
        fclose(g);
        free(text);
        set_threads((int)rnd_int(1, 3));
        sylva_matrix *A = NULL;
        int st = sylva_read_matrix_market(out, &A);
        if (st == SYLVA_OK) CHECK(A && csc_is_valid(A), "mutation %d: invalid matrix accepted", trial);
        else CHECK(A == NULL && strncmp(sylva_last_error(), out, strlen(out)) == 0, "mutation %d: '%s'", trial,
                   sylva_last_error());
        sylva_matrix_free(A);
    }
    set_threads(1);
    unlink(out);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test-io-read SOURCE_DIR [TMP_DIR]\n");
        return 2;
    }
    snprintf(src, sizeof src, "%s", argv[1]);
    snprintf(tmpdir, sizeof tmpdir, "%s", argc > 2 ? argv[2] : "/tmp");
    test_seed();
    test_bad();
    test_edge();
    test_real();
    test_numbers();
    test_mutations();
    for (int t = 0; t < 200; t++) random_file(t);
    for (int t = 0; t < 50; t++) random_unsymmetric(t);
    return test_exit("test-io-read");
}
