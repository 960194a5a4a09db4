/* test_io_triangles.c — the read options for matrices whose two triangles
 * disagree (sylva_read_options): a 'symmetric' file storing both A(i,j)
 * and A(j,i) (refused with the line of the first mirrored entry, or summed,
 * its lower entry kept, or averaged; exact duplicates still summed), and a
 * 'general' file that is symmetric only to rounding (refused with a hint,
 * or symmetrized from the lower or the upper triangle or averaged, with and
 * without a tolerance), on the corpus files and on random files checked
 * against values computed here; sylva_read_info; options out of range.
 *   test-io-triangles SOURCE_DIR [TMP_DIR] */
#define _DEFAULT_SOURCE
#include <unistd.h>

#include "test_util.h"

static char src[4096], tmpdir[4096];

static sylva_read_options opts(int both, int sym, double tol)
{
    sylva_read_options o;
    memset(&o, 0x5a, sizeof o); /* sylva_default_read_options must set every field */
    sylva_default_read_options(&o);
    o.symmetric_both = (sylva_both_triangles)both;
    o.symmetrize = (sylva_symmetrize)sym;
    o.symmetrize_tol = tol;
    return o;
}

/* Read path with o; on success check A(i,j) (1-based) = v bit for bit for
 * each of the k triples in ijv, and nnz. Returns the status. */
static int read_values(const char *path, const sylva_read_options *o, int64_t nnz, int k,
                       const double *ijv, sylva_read_info *info, const char *what)
{
    sylva_matrix *A = NULL;
    int st = sylva_read_matrix_market_info(path, o, &A, info);
    if (st != SYLVA_OK) return st;
    CHECK(csc_is_valid(A) && A->nnz == nnz, "%s: nnz %lld, want %lld", what, (long long)A->nnz,
          (long long)nnz);
    for (int t = 0; t < k; t++) {
        int found;
        double v = entry(A, (int64_t)ijv[3 * t] - 1, (int64_t)ijv[3 * t + 1] - 1, &found);
        CHECK(found && memcmp(&v, &ijv[3 * t + 2], sizeof v) == 0,
              "%s: A(%g,%g) = %.17g, want %.17g", what, ijv[3 * t], ijv[3 * t + 1], v,
              ijv[3 * t + 2]);
    }
    sylva_matrix_free(A);
    return st;
}

/* matrices/bad/symmetric_both_triangles.mtx: refused by default at line 11
 * (the test of the corpus checks the message); each rule's A(2,1). */
static void test_both_corpus(void)
{
    char path[8192];
    snprintf(path, sizeof path, "%s/matrices/bad/symmetric_both_triangles.mtx", src);
    sylva_matrix *A = NULL;
    char want[8300];
    snprintf(want, sizeof want, "%s:11: A(1,2) and A(2,1) on line 9 are both stored", path);
    CHECK(sylva_read_matrix_market(path, &A) == SYLVA_ERR_FORMAT && !A &&
              !strncmp(sylva_last_error(), want, strlen(want)),
          "both, default: '%s'", sylva_last_error());
    sylva_read_options o = opts(SYLVA_BOTH_REFUSE, 0, 0);
    CHECK(sylva_read_matrix_market_opts(path, &o, &A) == SYLVA_ERR_FORMAT && !A, "both, refuse");
    CHECK(sylva_read_matrix_market_opts(path, NULL, &A) == SYLVA_ERR_FORMAT && !A,
          "both, NULL options");
    static const double rule_value[] = {0, -4, -1, -2}; /* A(2,1) per rule */
    for (int rule = SYLVA_BOTH_SUM; rule <= SYLVA_BOTH_AVERAGE; rule++) {
        double ijv[] = {2, 1, rule_value[rule], 1, 1, 4, 2, 2, 4, 3, 2, -2, 3, 3, 4};
        sylva_read_info info;
        o = opts(rule, 0, 0);
        char what[64];
        snprintf(what, sizeof what, "both rule %d", rule);
        int st = read_values(path, &o, 5, 5, ijv, &info, what);
        CHECK(st == SYLVA_OK, "%s: %s", what, sylva_last_error());
        CHECK(st || (info.mirrored == 1 && info.asymmetric == 0 && !strcmp(info.compression, "")),
              "%s: info mirrored %lld", what, (long long)info.mirrored);
    }
    /* symmetrize does nothing to a symmetric file. */
    o = opts(SYLVA_BOTH_REFUSE, SYLVA_SYMMETRIZE_AVERAGE, 0);
    CHECK(sylva_read_matrix_market_opts(path, &o, &A) == SYLVA_ERR_FORMAT && !A,
          "symmetrize on symmetric");
}

/* Small files written here: exact duplicates stay summed under every rule;
 * only the upper triangle, or pairs on the diagonal, are no pair; a pair
 * summing out of range names both lines; pattern files; the first
 * *completed* pair is named, not the first stored entry of a pair. */
static void test_both_small(void)
{
    char path[8192];
    snprintf(path, sizeof path, "%s/both_small.mtx", tmpdir);
    /* Duplicates on each side, and a pair: lower 1+2, upper 10+20. */
    write_text(path, "%%MatrixMarket matrix coordinate real symmetric\n3 3 7\n"
                     "2 1 1\n1 2 10\n3 3 5\n3 3 6\n2 1 2\n1 2 20\n1 1 1\n");
    double sum[] = {2, 1, 33, 3, 3, 11}, lower[] = {2, 1, 3, 3, 3, 11},
           avg[] = {2, 1, 16.5, 3, 3, 11};
    const double *want[] = {NULL, sum, lower, avg};
    for (int rule = SYLVA_BOTH_SUM; rule <= SYLVA_BOTH_AVERAGE; rule++) {
        sylva_read_options o = opts(rule, 0, 0);
        sylva_read_info info;
        int st = read_values(path, &o, 3, 2, want[rule], &info, "duplicates and a pair");
        CHECK(st == SYLVA_OK && info.mirrored == 1, "duplicates and a pair, rule %d: %s", rule,
              sylva_last_error());
    }
    sylva_matrix *A = NULL;
    char msg[8300];
    snprintf(msg, sizeof msg, "%s:4: A(1,2) and A(2,1) on line 3 are both stored", path);
    CHECK(sylva_read_matrix_market(path, &A) == SYLVA_ERR_FORMAT &&
              !strncmp(sylva_last_error(), msg, strlen(msg)),
          "first pair: '%s'", sylva_last_error());
    /* The pair completed first in the file, not the first in column order:
     * (2,1) is stored at line 3 but its mirror only at line 7; (3,2) and
     * (2,3) complete their pair at line 5. */
    write_text(path, "%%MatrixMarket matrix coordinate real symmetric\n3 3 5\n"
                     "2 1 1\n3 2 1\n2 3 1\n3 3 1\n1 2 1\n");
    snprintf(msg, sizeof msg, "%s:5: A(2,3) and A(3,2) on line 4 are both stored", path);
    CHECK(sylva_read_matrix_market(path, &A) == SYLVA_ERR_FORMAT &&
              !strncmp(sylva_last_error(), msg, strlen(msg)),
          "completed first: '%s'", sylva_last_error());
    /* Exact duplicates only, the diagonal repeated, one triangle each:
     * no pair, accepted by default. */
    write_text(path, "%%MatrixMarket matrix coordinate real symmetric\n3 3 5\n"
                     "2 1 1\n2 1 2\n1 1 1\n1 1 1\n1 3 7\n");
    double dup[] = {2, 1, 3, 1, 1, 2, 3, 1, 7};
    sylva_read_info info;
    sylva_read_options o = opts(SYLVA_BOTH_REFUSE, 0, 0);
    CHECK(read_values(path, &o, 3, 3, dup, &info, "no pair") == SYLVA_OK && info.mirrored == 0,
          "no pair: %s", sylva_last_error());
    /* A pair that sums out of range under sum; fine under average. */
    write_text(path, "%%MatrixMarket matrix coordinate real symmetric\n2 2 3\n"
                     "1 1 1\n2 1 1e308\n1 2 1e308\n");
    o = opts(SYLVA_BOTH_SUM, 0, 0);
    snprintf(msg, sizeof msg,
             "%s:5: the entries of A(2,1) on lines 4 and 5 sum out of double range", path);
    CHECK(sylva_read_matrix_market_opts(path, &o, &A) == SYLVA_ERR_BAD_VALUE && !A &&
              !strncmp(sylva_last_error(), msg, strlen(msg)),
          "pair overflow: '%s'", sylva_last_error());
    double big[] = {2, 1, 1e308};
    o = opts(SYLVA_BOTH_AVERAGE, 0, 0);
    CHECK(read_values(path, &o, 2, 1, big, NULL, "average of 1e308") == SYLVA_OK,
          "average 1e308: %s", sylva_last_error());
    /* Pattern: refused, or the union. */
    write_text(path, "%%MatrixMarket matrix coordinate pattern symmetric\n3 3 4\n"
                     "1 1\n2 1\n1 2\n3 2\n");
    snprintf(msg, sizeof msg, "%s:5: A(1,2) and A(2,1) on line 4", path);
    CHECK(sylva_read_matrix_market(path, &A) == SYLVA_ERR_FORMAT &&
              !strncmp(sylva_last_error(), msg, strlen(msg)),
          "pattern pair: '%s'", sylva_last_error());
    o = opts(SYLVA_BOTH_LOWER, 0, 0);
    CHECK(sylva_read_matrix_market_opts(path, &o, &A) == SYLVA_OK && A && A->nnz == 3 && !A->values,
          "pattern pair, lower: %s", sylva_last_error());
    sylva_matrix_free(A);
    unlink(path);
}

/* matrices/bad/general_near_symmetric.mtx: refused with the hint; each
 * symmetrize mode; the tolerance either side of the asymmetry. */
static void test_symmetrize_corpus(void)
{
    char path[8192];
    snprintf(path, sizeof path, "%s/matrices/bad/general_near_symmetric.mtx", src);
    const double hi = 0.30000000000000004, lo = 0.3;
    const double rel = (hi - lo) / hi;
    sylva_matrix *A = NULL;
    CHECK(sylva_read_matrix_market(path, &A) == SYLVA_ERR_NOT_SYMMETRIC && !A &&
              strstr(sylva_last_error(), "read with symmetrize = lower|upper|average"),
          "near symmetric, default: '%s'", sylva_last_error());
    static const double value[] = {0, 0.30000000000000004, 0.3, 0.30000000000000004};
    for (int mode = SYLVA_SYMMETRIZE_LOWER; mode <= SYLVA_SYMMETRIZE_AVERAGE; mode++)
        for (int t = 0; t < 3; t++) {
            /* no tolerance, one above the asymmetry, one below it */
            double tol = t == 0 ? 0 : t == 1 ? 1e-15 : 1e-16;
            sylva_read_options o = opts(0, mode, tol);
            double ijv[] = {3, 2, value[mode], 2, 1, -1, 1, 1, 4, 2, 2, 4, 3, 3, 4};
            sylva_read_info info;
            char what[64];
            snprintf(what, sizeof what, "symmetrize %d, tol %g", mode, tol);
            int st = read_values(path, &o, 5, 5, ijv, &info, what);
            if (t < 2) {
                CHECK(st == SYLVA_OK, "%s: %s", what, sylva_last_error());
                CHECK(st ||
                          (info.asymmetric == 1 && info.mirrored == 0 && info.max_asymmetry == rel),
                      "%s: info asymmetric %lld max %.17g (want %.17g)", what,
                      (long long)info.asymmetric, info.max_asymmetry, rel);
            } else {
                CHECK(st == SYLVA_ERR_NOT_SYMMETRIC &&
                          strstr(sylva_last_error(),
                                 "not symmetric within the tolerance 1e-16: A(3,2) = "
                                 "0.30000000000000004 but A(2,3) = 0.29999999999999999"),
                      "%s: '%s'", what, sylva_last_error());
            }
        }
    /* symmetric_both does nothing to a general file. */
    sylva_read_options o = opts(SYLVA_BOTH_SUM, 0, 0);
    CHECK(sylva_read_matrix_market_opts(path, &o, &A) == SYLVA_ERR_NOT_SYMMETRIC && !A,
          "symmetric_both on general");
}

/* Entries stored in one triangle only: lower keeps the lower ones, upper
 * the upper ones, average halves them; a tolerance under 1 refuses them. */
static void test_symmetrize_small(void)
{
    char tmp[8192], path[8192];
    snprintf(tmp, sizeof tmp, "%s/sym_small.mtx", tmpdir);
    snprintf(path, sizeof path, "%s", tmp);
    write_text(path, "%%MatrixMarket matrix coordinate real general\n3 3 5\n"
                     "1 1 2\n2 2 2\n3 3 2\n2 1 -1\n1 3 -0.5\n");
    /* want: (2,1), (3,1) values; nnz */
    struct {
        int mode;
        int64_t nnz;
        double a21, a31;
        int has21, has31;
    } c[] = {
        {SYLVA_SYMMETRIZE_LOWER, 4, -1, 0, 1, 0},
        {SYLVA_SYMMETRIZE_UPPER, 4, 0, -0.5, 0, 1},
        {SYLVA_SYMMETRIZE_AVERAGE, 5, -0.5, -0.25, 1, 1},
    };
    for (int t = 0; t < 3; t++) {
        sylva_read_options o = opts(0, c[t].mode, 0);
        sylva_matrix *A = NULL;
        sylva_read_info info;
        int st = sylva_read_matrix_market_info(path, &o, &A, &info);
        CHECK(st == SYLVA_OK && A && A->nnz == c[t].nnz, "one-sided, mode %d: %s", c[t].mode,
              sylva_last_error());
        if (!A) continue;
        int f21, f31;
        double a21 = entry(A, 1, 0, &f21), a31 = entry(A, 2, 0, &f31);
        CHECK(f21 == c[t].has21 && f31 == c[t].has31 && a21 == c[t].a21 && a31 == c[t].a31,
              "one-sided, mode %d: A(2,1) = %g (%d), A(3,1) = %g (%d)", c[t].mode, a21, f21, a31,
              f31);
        CHECK(info.asymmetric == 2 && info.max_asymmetry == 1.0, "one-sided: info %lld %g",
              (long long)info.asymmetric, info.max_asymmetry);
        sylva_matrix_free(A);
    }
    sylva_read_options o = opts(0, SYLVA_SYMMETRIZE_LOWER, 0.5);
    sylva_matrix *A = NULL;
    CHECK(sylva_read_matrix_market_opts(path, &o, &A) == SYLVA_ERR_NOT_SYMMETRIC && !A &&
              strstr(sylva_last_error(),
                     "tolerance 0.5: A(2,1) = -1 but A(1,2) = 0 (relative difference 1)"),
          "one-sided, tol: '%s'", sylva_last_error());
    /* An exact general file: nothing asymmetric. */
    snprintf(path, sizeof path, "%s/matrices/edge/general_symmetric.mtx", src);
    o = opts(0, SYLVA_SYMMETRIZE_AVERAGE, 1e-300);
    sylva_read_info info;
    CHECK(sylva_read_matrix_market_info(path, &o, &A, &info) == SYLVA_OK && info.asymmetric == 0 &&
              info.max_asymmetry == 0,
          "exact general: %s", sylva_last_error());
    sylva_matrix_free(A);
    /* Pattern general, structurally unsymmetric. */
    snprintf(path, sizeof path, "%s/matrices/bad/unsymmetric_pattern.mtx", src);
    o = opts(0, SYLVA_SYMMETRIZE_AVERAGE, 0);
    CHECK(sylva_read_matrix_market_opts(path, &o, &A) == SYLVA_OK && A && !A->values,
          "pattern average: %s", sylva_last_error());
    int found;
    entry(A, 2, 1, &found); /* A(2,3) is stored, A(3,2) not: the union has it */
    CHECK(A && found, "pattern average: (3,2) missing");
    sylva_matrix_free(A);
    unlink(tmp);
}

/* Random general files: each lower position stored in the lower, the upper
 * or both triangles, twins equal, a rounding apart, or far apart. Every
 * mode and tolerance against values computed here. */
static void random_symmetrize(int trial)
{
    int64_t n = rnd_int(1, 25);
    double *L = calloc((size_t)(n * n), sizeof *L), *U = calloc((size_t)(n * n), sizeof *U);
    char *PL = calloc((size_t)(n * n), 1), *PU = calloc((size_t)(n * n), 1);
    size_t cap = (size_t)(n * n) * 100 + 256;
    char *text = malloc(cap), *body = malloc(cap), *s = body;
    int64_t count = 0;
    for (int64_t c = 0; c < n; c++)
        for (int64_t r = c; r < n; r++) {
            if (r != c && rnd_int(0, 2) == 0) continue;
            int64_t x = r + c * n;
            double a = (double)rnd_int(-999, 999) / 64.0 + 1.0 / 3.0; /* nonzero */
            int how = r == c ? 0 : (int)rnd_int(0, 5);
            double b = how == 3   ? nextafter(a, 10.0)
                       : how == 4 ? a * (1 + 1e-9)
                       : how == 5 ? -a
                                  : a;
            int lower = how != 1, upper = r != c && how != 2;
            if (lower)
                s += sprintf(s, "%lld %lld %.17g\n", (long long)r + 1, (long long)c + 1, a),
                    count++;
            if (upper)
                s += sprintf(s, "%lld %lld %.17g\n", (long long)c + 1, (long long)r + 1, b),
                    count++;
            L[x] = a, PL[x] = (char)lower;
            U[x] = b, PU[x] = (char)upper;
        }
    snprintf(text, cap, "%%%%MatrixMarket matrix coordinate real general\n%lld %lld %lld\n%s",
             (long long)n, (long long)n, (long long)count, body);
    char path[8192];
    snprintf(path, sizeof path, "%s/symrand_%d.mtx", tmpdir, trial);
    write_text(path, text);
    static const double tols[] = {0, 1e-15, 1e-6, 3};
    for (int mode = SYLVA_SYMMETRIZE_NONE; mode <= SYLVA_SYMMETRIZE_AVERAGE; mode++)
        for (int t = 0; t < 4; t++) {
            double tol = tols[t];
            if (mode == SYLVA_SYMMETRIZE_NONE && tol > 0) continue;
            /* Expected: the first position (column-major) refused, the
             * counts, and the values. */
            int64_t refuse = -1, asym = 0;
            double maxrel = 0;
            for (int64_t c = 0; c < n && refuse < 0; c++)
                for (int64_t r = c + 1; r < n; r++) {
                    int64_t x = r + c * n;
                    double lv = PL[x] ? L[x] : 0, uv = PU[x] ? U[x] : 0;
                    if (lv == uv) continue;
                    double m = fmax(fabs(lv), fabs(uv)), rel = fabs(lv - uv) / m;
                    asym++;
                    maxrel = fmax(maxrel, rel);
                    if ((mode == SYLVA_SYMMETRIZE_NONE || (tol > 0 && fabs(lv - uv) > tol * m)) &&
                        refuse < 0) {
                        refuse = x;
                        break;
                    }
                }
            sylva_read_options o = opts(0, mode, tol);
            sylva_matrix *A = NULL;
            sylva_read_info info;
            int st = sylva_read_matrix_market_info(path, &o, &A, &info);
            char what[96];
            snprintf(what, sizeof what, "random symmetrize %d (mode %d, tol %g)", trial, mode, tol);
            if (refuse >= 0) {
                int64_t r = refuse % n, c = refuse / n;
                char want[160];
                double lv = PL[refuse] ? L[refuse] : 0, uv = PU[refuse] ? U[refuse] : 0;
                if (PL[refuse])
                    snprintf(want, sizeof want, "A(%lld,%lld) = %.17g but A(%lld,%lld) = %.17g",
                             (long long)r + 1, (long long)c + 1, lv, (long long)c + 1,
                             (long long)r + 1, uv);
                else
                    snprintf(want, sizeof want, "A(%lld,%lld) = %.17g but A(%lld,%lld) = %.17g",
                             (long long)c + 1, (long long)r + 1, uv, (long long)r + 1,
                             (long long)c + 1, lv);
                CHECK(st == SYLVA_ERR_NOT_SYMMETRIC && !A && strstr(sylva_last_error(), want),
                      "%s: '%s' lacks '%s'", what, sylva_last_error(), want);
                continue;
            }
            CHECK(st == SYLVA_OK && A, "%s: %s", what, sylva_last_error());
            if (!A) continue;
            CHECK(mode == SYLVA_SYMMETRIZE_NONE ||
                      (info.asymmetric == asym && info.max_asymmetry == maxrel),
                  "%s: info %lld %.17g, want %lld %.17g", what, (long long)info.asymmetric,
                  info.max_asymmetry, (long long)asym, maxrel);
            int64_t nnz = 0, bad = 0;
            for (int64_t c = 0; c < n; c++)
                for (int64_t r = c; r < n; r++) {
                    int64_t x = r + c * n;
                    double lv = PL[x] ? L[x] : 0, uv = PU[x] ? U[x] : 0, v;
                    int keep;
                    if (r == c || mode == SYLVA_SYMMETRIZE_NONE || mode == SYLVA_SYMMETRIZE_LOWER)
                        keep = PL[x], v = lv;
                    else if (mode == SYLVA_SYMMETRIZE_UPPER)
                        keep = PU[x], v = uv;
                    else
                        keep = PL[x] || PU[x], v = (lv + uv) / 2;
                    int found;
                    double got = entry(A, r, c, &found);
                    nnz += keep;
                    if (found != keep || (keep && memcmp(&got, &v, sizeof v) != 0)) bad++;
                }
            CHECK(bad == 0 && A->nnz == nnz && csc_is_valid(A), "%s: %lld wrong entries", what,
                  (long long)bad);
            sylva_matrix_free(A);
        }
    unlink(path);
    free(L);
    free(U);
    free(PL);
    free(PU);
    free(text);
    free(body);
}

static void test_options_checked(void)
{
    char path[8192];
    snprintf(path, sizeof path, "%s/matrices/real/bcsstk01.mtx", src);
    struct {
        int both, sym;
        double tol;
        const char *part;
    } bad[] = {
        {4, 0, 0, "options.symmetric_both = 4 is out of range 0..3"},
        {-1, 0, 0, "options.symmetric_both = -1 is out of range"},
        {0, 4, 0, "options.symmetrize = 4 is out of range 0..3"},
        {0, 1, -1e-9, "options.symmetrize_tol = -1e-09 is out of range"},
        {0, 1, NAN, "options.symmetrize_tol = nan is out of range"},
        {0, 1, INFINITY, "options.symmetrize_tol = inf is out of range"},
        {0, 0, 1e-12, "options.symmetrize_tol = 1e-12 needs options.symmetrize"},
    };
    for (size_t t = 0; t < sizeof bad / sizeof bad[0]; t++) {
        sylva_read_options o = opts(bad[t].both, bad[t].sym, bad[t].tol);
        sylva_matrix *A = (sylva_matrix *)&o;
        int st = sylva_read_matrix_market_opts(path, &o, &A);
        CHECK(st == SYLVA_ERR_ARGUMENT && A == NULL && strstr(sylva_last_error(), bad[t].part),
              "options %zu: %d '%s'", t, st, sylva_last_error());
    }
    sylva_read_options o;
    memset(&o, 0x77, sizeof o);
    sylva_default_read_options(&o);
    char zero[sizeof o];
    memset(zero, 0, sizeof zero);
    CHECK(!memcmp(&o, zero, sizeof o), "sylva_default_read_options leaves a field set");
    sylva_default_read_options(NULL); /* no crash */
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test-io-triangles SOURCE_DIR [TMP_DIR]\n");
        return 2;
    }
    snprintf(src, sizeof src, "%s", argv[1]);
    snprintf(tmpdir, sizeof tmpdir, "%s", argc > 2 ? argv[2] : "/tmp");
    test_seed();
    test_both_corpus();
    test_both_small();
    test_symmetrize_corpus();
    test_symmetrize_small();
    test_options_checked();
    for (int t = 0; t < 100; t++) random_symmetrize(t);
    return test_exit("test-io-triangles");
}
