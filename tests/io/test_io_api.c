/* test_io_api.c — the matrix API beyond the file reader:
 * sylva_matrix_from_csc (random unsorted/duplicated input in each storage:
 * lower, upper, full; the excluded triangle named, one triangle given as
 * full refused, every bad argument), sylva_matrix_wrap (each broken contract
 * named), symv / norm_inf / backward_error against dense references (NaN
 * propagation), dense read/write round trip and bad dense files,
 * sylva_matrix_from_cholmod (stype -1/0/1, errors), and the generators (n,
 * nnz by independent formulas, symmetry, SPD by LAPACK dpotrf, write/read
 * round trip).   test-io-api SOURCE_DIR [TMP_DIR] */
#define _DEFAULT_SOURCE
#include <cholmod.h>
#include <unistd.h>

#include "sylva_cholmod.h"
#include "sylva_gen.h"
#include "test_util.h"

void dpotrf_(const char *uplo, const int *n, double *a, const int *lda, int *info);

static char src[4096], tmpdir[4096];

/* Random sparse symmetric matrix with integer values (sums are exact), as
 * the dense full matrix D (n x n). Diagonal made dominant: SPD. */
static double *random_dense_sym(int64_t n, double density)
{
    double *D = calloc((size_t)(n * n), sizeof *D);
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = j + 1; i < n; i++)
            if (rnd_unit() < density) D[i + j * n] = D[j + i * n] = (double)rnd_int(-9, 9);
    for (int64_t j = 0; j < n; j++) {
        double s = 1.0;
        for (int64_t i = 0; i < n; i++) s += fabs(D[i + j * n]);
        D[j + j * n] = s;
    }
    return D;
}

/* CSC of D as `storage` says (the lower, the upper or both triangles),
 * rows shuffled within columns and some entries split into two duplicates
 * whose sum is the value. */
static void dense_to_messy_csc(const double *D, int64_t n, int storage, int64_t **cp, int64_t **ri, double **v)
{
    int64_t cap = 2 * n * n + 1, k = 0;
    *cp = malloc((size_t)(n + 1) * sizeof **cp);
    *ri = malloc((size_t)cap * sizeof **ri);
    *v = malloc((size_t)cap * sizeof **v);
    for (int64_t j = 0; j < n; j++) {
        (*cp)[j] = k;
        int64_t k0 = k;
        int64_t first = storage == SYLVA_CSC_LOWER ? j : 0, last = storage == SYLVA_CSC_UPPER ? j : n - 1;
        for (int64_t i = first; i <= last; i++) {
            double a = D[i + j * n];
            if (a == 0.0 && i != j) continue;
            if (rnd_int(0, 3) == 0) { /* split into a duplicate pair */
                double part = (double)rnd_int(-5, 5);
                (*ri)[k] = i, (*v)[k++] = part;
                (*ri)[k] = i, (*v)[k++] = a - part;
            } else {
                (*ri)[k] = i, (*v)[k++] = a;
            }
        }
        for (int64_t p = k - 1; p > k0; p--) { /* shuffle the column */
            int64_t q = k0 + (int64_t)(rnd() % (uint64_t)(p - k0 + 1));
            int64_t ti = (*ri)[p];
            double tv = (*v)[p];
            (*ri)[p] = (*ri)[q], (*v)[p] = (*v)[q];
            (*ri)[q] = ti, (*v)[q] = tv;
        }
    }
    (*cp)[n] = k;
}

static int matches_dense(const sylva_matrix *A, const double *D)
{
    int64_t n = A->n;
    double *E = to_dense(A);
    int ok = memcmp(E, D, (size_t)(n * n) * sizeof *D) == 0;
    free(E);
    return ok && csc_is_valid(A);
}

/* The first stored entry strictly above (upper = 1) or below the diagonal;
 * -1 if none. */
static int64_t off_diagonal_entry(int64_t n, const int64_t *cp, const int64_t *ri, int upper)
{
    for (int64_t j = 0; j < n; j++)
        for (int64_t p = cp[j]; p < cp[j + 1]; p++)
            if (upper ? ri[p] < j : ri[p] > j) return p;
    return -1;
}

static void test_from_csc(void)
{
    static const char *names[] = {"full", "lower", "upper"};
    for (int trial = 0; trial < 60; trial++) {
        int64_t n = rnd_int(1, 50);
        double *D = random_dense_sym(n, rnd_unit() * 0.3);
        for (int storage = SYLVA_CSC_FULL; storage <= SYLVA_CSC_UPPER; storage++) {
            const char *name = names[storage];
            int64_t *cp, *ri;
            double *v;
            dense_to_messy_csc(D, n, storage, &cp, &ri, &v);
            sylva_matrix *A = NULL;
            int st = sylva_matrix_from_csc(n, cp, ri, v, storage, &A);
            CHECK(st == SYLVA_OK && A && matches_dense(A, D), "from_csc trial %d %s: %s", trial, name,
                  sylva_last_error());
            sylva_matrix_free(A);
            /* pattern input */
            st = sylva_matrix_from_csc(n, cp, ri, NULL, storage, &A);
            CHECK(st == SYLVA_OK && A && !A->values && csc_is_valid(A), "from_csc pattern %s: %s", name,
                  sylva_last_error());
            sylva_matrix_free(A);
            /* An entry of the triangle the storage excludes is named. */
            int64_t above = off_diagonal_entry(n, cp, ri, 1), below = off_diagonal_entry(n, cp, ri, 0);
            if (storage != SYLVA_CSC_LOWER && above >= 0) {
                st = sylva_matrix_from_csc(n, cp, ri, v, SYLVA_CSC_LOWER, &A);
                CHECK(st == SYLVA_ERR_ARGUMENT && !A && strstr(sylva_last_error(), "above the diagonal (lower triangle expected)"),
                      "%s arrays as lower: %s", name, sylva_last_error());
            }
            if (storage != SYLVA_CSC_UPPER && below >= 0) {
                st = sylva_matrix_from_csc(n, cp, ri, v, SYLVA_CSC_UPPER, &A);
                CHECK(st == SYLVA_ERR_ARGUMENT && !A && strstr(sylva_last_error(), "below the diagonal (upper triangle expected)"),
                      "%s arrays as upper: %s", name, sylva_last_error());
            }
            /* One triangle given as full: each entry lacks its mirror. */
            if (storage != SYLVA_CSC_FULL && (above >= 0 || below >= 0)) {
                st = sylva_matrix_from_csc(n, cp, ri, v, SYLVA_CSC_FULL, &A);
                CHECK(st == SYLVA_ERR_NOT_SYMMETRIC && !A, "%s triangle as full: %s", name, sylva_last_error());
            }
            if (storage == SYLVA_CSC_FULL && above >= 0) {
                /* Unsymmetric: bump one off-diagonal entry in the upper part. */
                v[above] += 0.5;
                st = sylva_matrix_from_csc(n, cp, ri, v, SYLVA_CSC_FULL, &A);
                CHECK(st == SYLVA_ERR_NOT_SYMMETRIC && A == NULL, "unsymmetric accepted (%d)", st);
            }
            free(cp);
            free(ri);
            free(v);
        }
        free(D);
    }
    /* A storage that is none of the three. */
    {
        int64_t cp[] = {0, 1}, ri[] = {0};
        double v[] = {2};
        sylva_matrix *A = NULL;
        for (int bad = -1; bad <= 3; bad += 4) {
            int st = sylva_matrix_from_csc(1, cp, ri, v, bad, &A);
            CHECK(st == SYLVA_ERR_ARGUMENT && !A && strstr(sylva_last_error(), "is not SYLVA_CSC_FULL (0), SYLVA_CSC_LOWER (1) or SYLVA_CSC_UPPER (2)"),
                  "storage %d: %s", bad, sylva_last_error());
        }
    }
    /* Bad arguments: errors, never crashes. */
    int64_t cp[4] = {0, 2, 3, 4}, ri[4] = {0, 1, 1, 2};
    double v[4] = {4, -1, 4, 4};
    sylva_matrix *A = NULL;
    CHECK(sylva_matrix_from_csc(3, cp, ri, v, 1, &A) == SYLVA_OK, "good input: %s", sylva_last_error());
    sylva_matrix_free(A);
    CHECK(sylva_matrix_from_csc(-1, cp, ri, v, 1, &A) == SYLVA_ERR_ARGUMENT && !A, "negative n");
    CHECK(sylva_matrix_from_csc(3, NULL, ri, v, 1, &A) == SYLVA_ERR_ARGUMENT, "NULL colptr");
    CHECK(sylva_matrix_from_csc(3, cp, NULL, v, 1, &A) == SYLVA_ERR_ARGUMENT, "NULL rowind");
    CHECK(sylva_matrix_from_csc(3, cp, ri, v, 1, NULL) == SYLVA_ERR_ARGUMENT, "NULL A");
    int64_t cp_bad[4] = {0, 3, 2, 4};
    CHECK(sylva_matrix_from_csc(3, cp_bad, ri, v, 1, &A) == SYLVA_ERR_ARGUMENT &&
              strstr(sylva_last_error(), "column 1: colptr decreases"),
          "colptr not monotone: %s", sylva_last_error());
    int64_t cp_start[4] = {1, 2, 3, 4};
    CHECK(sylva_matrix_from_csc(3, cp_start, ri, v, 1, &A) == SYLVA_ERR_ARGUMENT, "colptr[0] != 0");
    int64_t ri_bad[4] = {0, 3, 1, 2};
    CHECK(sylva_matrix_from_csc(3, cp, ri_bad, v, 1, &A) == SYLVA_ERR_ARGUMENT &&
              strstr(sylva_last_error(), "column 0: row 3 is out of range"),
          "row out of range: %s", sylva_last_error());
    int64_t ri_neg[4] = {0, -1, 1, 2};
    CHECK(sylva_matrix_from_csc(3, cp, ri_neg, v, 1, &A) == SYLVA_ERR_ARGUMENT, "negative row");
    double v_nan[4] = {4, NAN, 4, 4}, v_inf[4] = {4, -1, INFINITY, 4};
    CHECK(sylva_matrix_from_csc(3, cp, ri, v_nan, 1, &A) == SYLVA_ERR_BAD_VALUE, "NaN value");
    CHECK(sylva_matrix_from_csc(3, cp, ri, v_inf, 1, &A) == SYLVA_ERR_BAD_VALUE, "Inf value");
    int64_t cp0[1] = {0};
    CHECK(sylva_matrix_from_csc(0, cp0, NULL, NULL, 1, &A) == SYLVA_OK && A && A->n == 0 && A->nnz == 0,
          "n = 0: %s", sylva_last_error());
    sylva_matrix_free(A);
    sylva_matrix_free(NULL);
}

static void test_wrap(void)
{
    int64_t cp[4] = {0, 2, 3, 4}, ri[4] = {0, 1, 1, 2};
    double v[4] = {4, -1, 4, 4};
    sylva_matrix *A = NULL;
    CHECK(sylva_matrix_wrap(3, cp, ri, v, &A) == SYLVA_OK && A && !A->owns_arrays && A->colptr == cp,
          "wrap: %s", sylva_last_error());
    sylva_matrix_free(A); /* must not free the caller's stack arrays */
    struct {
        int64_t cp[4], ri[4];
        double v[4];
        int status;
        const char *msg;
    } bad[] = {
        {{0, 2, 3, 4}, {1, 0, 1, 2}, {4, -1, 4, 4}, SYLVA_ERR_ARGUMENT, "column 0: rows not sorted"},
        {{0, 2, 3, 4}, {0, 0, 1, 2}, {4, -1, 4, 4}, SYLVA_ERR_ARGUMENT, "column 0: row 0 is duplicated"},
        {{0, 1, 3, 4}, {0, 0, 1, 2}, {4, -1, 4, 4}, SYLVA_ERR_ARGUMENT, "column 1: row 0 is above the diagonal"},
        {{0, 2, 3, 4}, {0, 5, 1, 2}, {4, -1, 4, 4}, SYLVA_ERR_ARGUMENT, "column 0: row 5 is out of range"},
        {{0, 2, 1, 4}, {0, 1, 1, 2}, {4, -1, 4, 4}, SYLVA_ERR_ARGUMENT, "column 1: colptr decreases"},
        {{0, 2, 3, 4}, {0, 1, 1, 2}, {4, -1, NAN, 4}, SYLVA_ERR_BAD_VALUE, "column 1, row 1: value is NaN"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        A = (sylva_matrix *)&A;
        int st = sylva_matrix_wrap(3, bad[k].cp, bad[k].ri, bad[k].v, &A);
        CHECK(st == bad[k].status && A == NULL && strstr(sylva_last_error(), bad[k].msg),
              "wrap case %zu: %d '%s'", k, st, sylva_last_error());
    }
    CHECK(sylva_matrix_wrap(-2, cp, ri, v, &A) == SYLVA_ERR_ARGUMENT, "wrap negative n");
    CHECK(sylva_matrix_wrap(3, NULL, ri, v, &A) == SYLVA_ERR_ARGUMENT, "wrap NULL colptr");
}

static void test_ops(void)
{
    for (int trial = 0; trial < 30; trial++) {
        int64_t n = rnd_int(1, 40);
        double *D = random_dense_sym(n, 0.2);
        int64_t *cp, *ri;
        double *v;
        dense_to_messy_csc(D, n, SYLVA_CSC_LOWER, &cp, &ri, &v);
        sylva_matrix *A = NULL;
        sylva_matrix_from_csc(n, cp, ri, v, SYLVA_CSC_LOWER, &A);
        double *x = malloc((size_t)n * sizeof *x), *y = malloc((size_t)n * sizeof *y), *b = malloc((size_t)n * sizeof *b);
        for (int64_t i = 0; i < n; i++) x[i] = rnd_unit() - 0.5;
        sylva_matrix_symv(A, x, y);
        double err = 0.0, norm = 0.0;
        for (int64_t i = 0; i < n; i++) {
            double s = 0.0, r = 0.0;
            for (int64_t j = 0; j < n; j++) {
                s += D[i + j * n] * x[j];
                r += fabs(D[i + j * n]);
            }
            b[i] = s;
            err = fmax(err, fabs(s - y[i]));
            norm = fmax(norm, r);
        }
        CHECK(err <= 1e-12 * norm, "symv error %g", err);
        CHECK(sylva_matrix_norm_inf(A) == norm, "norm_inf %g vs %g", sylva_matrix_norm_inf(A), norm);
        double be = sylva_backward_error(A, x, b);
        CHECK(be >= 0.0 && be < 1e-15, "backward error of an exact product: %g", be);
        b[rnd_int(0, n - 1)] += 1.0;
        be = sylva_backward_error(A, x, b);
        CHECK(be > 1e-6, "a perturbed b must show: %g", be);
        x[rnd_int(0, n - 1)] = NAN;
        CHECK(isnan(sylva_backward_error(A, x, b)), "NaN x must give NaN");
        for (int64_t i = 0; i < n; i++) x[i] = 1.0;
        b[rnd_int(0, n - 1)] = NAN;
        CHECK(isnan(sylva_backward_error(A, x, b)), "NaN b must give NaN");
        sylva_matrix_free(A);
        free(cp), free(ri), free(v), free(x), free(y), free(b), free(D);
    }
    int64_t cp[3] = {0, 1, 2}, ri[2] = {0, 1};
    double v[2] = {1.0, 2.0}, x[2] = {1, 1}, b[2] = {1, 2};
    sylva_matrix *A = NULL;
    sylva_matrix_wrap(2, cp, ri, v, &A);
    CHECK(sylva_backward_error(A, x, b) == 0.0, "exact solution");
    v[1] = NAN; /* NaN inside A (wrap already checked, then changed) */
    CHECK(isnan(sylva_matrix_norm_inf(A)) && isnan(sylva_backward_error(A, x, b)), "NaN in A");
    sylva_matrix_free(A);
    sylva_matrix_wrap(2, cp, ri, NULL, &A);
    CHECK(isnan(sylva_matrix_norm_inf(A)), "pattern norm is NaN");
    sylva_matrix_free(A);
}

static void test_dense(void)
{
    char path[8192];
    snprintf(path, sizeof path, "%s/dense_rt.mtx", tmpdir);
    for (int trial = 0; trial < 20; trial++) {
        int64_t n = rnd_int(0, 30), nrhs = rnd_int(1, 4), ldx = n + rnd_int(0, 3);
        double *X = malloc((size_t)(ldx * nrhs + 1) * sizeof *X);
        for (int64_t k = 0; k < ldx * nrhs; k++)
            X[k] = (rnd_unit() - 0.5) * pow(10.0, (double)rnd_int(-300, 300));
        if (n > 0) X[0] = -0.0;
        int st = sylva_write_dense(path, n, nrhs, X, ldx);
        CHECK(st == SYLVA_OK, "write_dense: %s", sylva_last_error());
        int64_t n2, r2;
        double *Y = NULL;
        st = sylva_read_dense(path, &n2, &r2, &Y);
        CHECK(st == SYLVA_OK && n2 == n && r2 == nrhs, "read_dense: %s", sylva_last_error());
        int same = st == SYLVA_OK;
        for (int64_t c = 0; same && c < nrhs; c++)
            for (int64_t i = 0; i < n; i++)
                if (memcmp(&X[c * ldx + i], &Y[c * n + i], sizeof(double))) same = 0;
        CHECK(same, "dense round trip is not bit-exact");
        free(X);
        free(Y);
    }
    double X[2] = {1, 2};
    CHECK(sylva_write_dense(path, 2, 2, X, 1) == SYLVA_ERR_ARGUMENT, "ldx < n");
    CHECK(sylva_write_dense("/nonexistent/d.mtx", 2, 1, X, 2) == SYLVA_ERR_IO, "unwritable");
    struct {
        const char *text;
        int status;
        const char *msg;
    } bad[] = {
        {"%%MatrixMarket matrix array real general\n2 1\n1\n", SYLVA_ERR_FORMAT, ":4: truncated: found 1 of 2"},
        {"%%MatrixMarket matrix array real general\n2 1\n1\n2\n3\n", SYLVA_ERR_FORMAT, ":5: too many values"},
        {"%%MatrixMarket matrix array real general\n2 1\n1\nx\n", SYLVA_ERR_FORMAT, ":4: bad value 'x'"},
        {"%%MatrixMarket matrix array real general\n2 1\n1\nnan\n", SYLVA_ERR_BAD_VALUE, ":4: value 'nan' is NaN"},
        {"%%MatrixMarket matrix coordinate real general\n2 1 1\n1 1 1\n", SYLVA_ERR_UNSUPPORTED, ":1: unsupported"},
        {"%%MatrixMarket matrix array complex general\n1 1\n1 0\n", SYLVA_ERR_UNSUPPORTED, "complex"},
        {"%%MatrixMarket matrix array real general\n2\n", SYLVA_ERR_FORMAT, ":2: bad size line"},
        {"", SYLVA_ERR_FORMAT, ":1: empty file"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        write_text(path, bad[k].text);
        int64_t n, r;
        double *Y = (double *)&Y;
        int st = sylva_read_dense(path, &n, &r, &Y);
        CHECK(st == bad[k].status && Y == NULL && strstr(sylva_last_error(), bad[k].msg), "dense case %zu: %d '%s'",
              k, st, sylva_last_error());
    }
    unlink(path);
}

static void test_cholmod(void)
{
    cholmod_common cm;
    cholmod_l_start(&cm);
    for (int trial = 0; trial < 20; trial++) {
        int64_t n = rnd_int(1, 30);
        double *D = random_dense_sym(n, 0.3);
        for (int stype = -1; stype <= 1; stype++) {
            cholmod_triplet *T = cholmod_l_allocate_triplet((size_t)n, (size_t)n, (size_t)(n * n), 0, CHOLMOD_REAL, &cm);
            SuiteSparse_long *Ti = T->i, *Tj = T->j;
            double *Tx = T->x;
            size_t k = 0;
            for (int64_t j = 0; j < n; j++)
                for (int64_t i = 0; i < n; i++)
                    if (D[i + j * n] != 0.0) Ti[k] = i, Tj[k] = j, Tx[k++] = D[i + j * n];
            T->nnz = k;
            cholmod_sparse *S = cholmod_l_triplet_to_sparse(T, 0, &cm);
            S->stype = stype; /* all entries present: each stype sees its triangle */
            sylva_matrix *A = NULL;
            int st = sylva_matrix_from_cholmod(S, &A);
            CHECK(st == SYLVA_OK && A && matches_dense(A, D), "from_cholmod stype %d: %s", stype, sylva_last_error());
            sylva_matrix_free(A);
            if (stype == 0 && n > 1) {
                double *Sx = S->x;
                Sx[((SuiteSparse_long *)S->p)[1] - 1] += 1.0; /* last entry of column 0: below diagonal */
                st = sylva_matrix_from_cholmod(S, &A);
                int below = ((SuiteSparse_long *)S->i)[((SuiteSparse_long *)S->p)[1] - 1] > 0;
                CHECK(!below || (st == SYLVA_ERR_NOT_SYMMETRIC && A == NULL), "unsymmetric cholmod accepted");
                sylva_matrix_free(A);
            }
            cholmod_l_free_sparse(&S, &cm);
            cholmod_l_free_triplet(&T, &cm);
        }
        free(D);
    }
    cholmod_sparse *R = cholmod_l_spzeros(3, 4, 0, CHOLMOD_REAL, &cm);
    sylva_matrix *A = NULL;
    CHECK(sylva_matrix_from_cholmod(R, &A) == SYLVA_ERR_NOT_SQUARE && !A, "3x4 cholmod");
    cholmod_l_free_sparse(&R, &cm);
    R = cholmod_l_spzeros(3, 3, 0, CHOLMOD_COMPLEX, &cm);
    CHECK(sylva_matrix_from_cholmod(R, &A) == SYLVA_ERR_UNSUPPORTED, "complex cholmod");
    cholmod_l_free_sparse(&R, &cm);
    CHECK(sylva_matrix_from_cholmod(NULL, &A) == SYLVA_ERR_ARGUMENT, "NULL cholmod");
    cholmod_l_finish(&cm);
}

/* ---------------------------------------------------------------- generators */

/* Lower-triangle entries counted by brute force over node pairs: an
 * independent check of the generators' nnz formulas. */
static int64_t brute_pairs(int dim, int points, int64_t nx, int64_t ny, int64_t nz)
{
    int64_t pairs = 0;
    for (int64_t z = 0; z < nz; z++)
        for (int64_t y = 0; y < ny; y++)
            for (int64_t x = 0; x < nx; x++)
                for (int dz = -1; dz <= 1; dz++)
                    for (int dy = -1; dy <= 1; dy++)
                        for (int dx = -1; dx <= 1; dx++) {
                            int l1 = abs(dx) + abs(dy) + abs(dz);
                            if (l1 == 0 || (dim == 2 && dz) || ((points == 5 || points == 7) && l1 > 1)) continue;
                            int64_t X = x + dx, Y = y + dy, Z = z + dz;
                            if (X < 0 || Y < 0 || Z < 0 || X >= nx || Y >= ny || Z >= nz) continue;
                            pairs++;
                        }
    return pairs / 2;
}

static int is_spd(const sylva_matrix *A, int *info_out)
{
    double *D = to_dense(A);
    int n = (int)A->n, info = 0;
    dpotrf_("L", &n, D, &n, &info);
    free(D);
    *info_out = info;
    return info == 0;
}

static void check_generated(const char *what, sylva_matrix *A, int64_t n, int64_t nnz, int spd_check)
{
    CHECK(A && A->n == n && A->nnz == nnz, "%s: n %lld nnz %lld, expected %lld %lld", what,
          A ? (long long)A->n : -1LL, A ? (long long)A->nnz : -1LL, (long long)n, (long long)nnz);
    if (!A) return;
    sylva_matrix *W = NULL;
    CHECK(sylva_matrix_wrap(A->n, A->colptr, A->rowind, A->values, &W) == SYLVA_OK, "%s: %s", what,
          sylva_last_error());
    sylva_matrix_free(W);
    if (spd_check) {
        int info;
        CHECK(is_spd(A, &info), "%s: dpotrf info %d: not SPD", what, info);
    }
    /* Write, read back: identical arrays. */
    char path[8192];
    snprintf(path, sizeof path, "%s/gen_rt.mtx", tmpdir);
    sylva_matrix *B = NULL;
    int st = sylva_gen_write_mtx(path, A);
    if (st == SYLVA_OK) st = sylva_read_matrix_market(path, &B);
    CHECK(st == SYLVA_OK && B && same_matrix(A, B), "%s: write/read round trip: %s", what, sylva_last_error());
    sylva_matrix_free(B);
    unlink(path);
}

static void test_generators(void)
{
    const int kinds[4][2] = {{2, 5}, {2, 9}, {3, 7}, {3, 27}};
    for (int trial = 0; trial < 12; trial++) {
        int64_t nx = rnd_int(1, 7), ny = rnd_int(1, 7), nz = rnd_int(1, 6);
        for (int k = 0; k < 4; k++) {
            int dim = kinds[k][0], pts = kinds[k][1];
            int64_t z = dim == 2 ? 1 : nz, n = nx * ny * z;
            int64_t nnz = n + brute_pairs(dim, pts, nx, ny, z);
            sylva_matrix *A = NULL;
            int st = sylva_gen_laplacian(dim, pts, nx, ny, nz, &A);
            char what[64];
            snprintf(what, sizeof what, "lap%dd%d %lldx%lldx%lld", dim, pts, (long long)nx, (long long)ny, (long long)z);
            CHECK(st == SYLVA_OK, "%s: %s", what, sylva_last_error());
            CHECK(sylva_gen_laplacian_nnz(dim, pts, nx, ny, nz) == nnz, "%s: nnz formula", what);
            check_generated(what, A, n, nnz, 1);
            /* Interior rows of a Laplacian sum to zero: diagonal = neighbours. */
            if (A && nx >= 3 && ny >= 3 && (dim == 2 || nz >= 3)) {
                double *x = malloc((size_t)n * sizeof *x), *y = malloc((size_t)n * sizeof *y);
                for (int64_t i = 0; i < n; i++) x[i] = 1.0;
                sylva_matrix_symv(A, x, y);
                int64_t mid = 1 + nx * (1 + ny * (dim == 3 ? 1 : 0));
                CHECK(y[mid] == 0.0, "%s: interior row sum %g", what, y[mid]);
                free(x), free(y);
            }
            sylva_matrix_free(A);
        }
        int64_t ex = rnd_int(1, 4), ey = rnd_int(1, 4), ez = rnd_int(1, 4), N = ex * ey * ez;
        int64_t nnz = 6 * N + 9 * brute_pairs(3, 27, ex, ey, ez);
        sylva_matrix *E = NULL;
        CHECK(sylva_gen_elasticity3d(ex, ey, ez, &E) == SYLVA_OK, "elast3d: %s", sylva_last_error());
        CHECK(sylva_gen_elasticity3d_nnz(ex, ey, ez) == nnz, "elast3d nnz formula");
        check_generated("elast3d", E, 3 * N, nnz, 1);
        sylva_matrix_free(E);
    }
    /* Stencil values spelled out on a 3x3 9-point grid: centre row. */
    sylva_matrix *A = NULL;
    sylva_gen_laplacian(2, 9, 3, 3, 1, &A);
    int found;
    CHECK(A && entry(A, 4, 4, &found) == 8.0 && entry(A, 8, 4, &found) == -1.0 && found, "lap2d9 stencil");
    sylva_matrix_free(A);
    /* A not-SPD control: dpotrf must catch a shifted Laplacian. */
    sylva_gen_laplacian(2, 5, 4, 4, 1, &A);
    for (int64_t j = 0; j < A->n; j++) ((double *)A->values)[A->colptr[j]] -= 4.5;
    int info;
    CHECK(!is_spd(A, &info) && info > 0, "dpotrf missed an indefinite matrix");
    sylva_matrix_free(A);
    CHECK(sylva_gen_laplacian(2, 7, 3, 3, 1, &A) == SYLVA_ERR_ARGUMENT && !A, "2D 7-point refused");
    CHECK(sylva_gen_laplacian(3, 7, 0, 3, 3, &A) == SYLVA_ERR_ARGUMENT, "zero size refused");
    CHECK(sylva_gen_elasticity3d(1, -1, 1, &A) == SYLVA_ERR_ARGUMENT, "negative size refused");
    CHECK(sylva_gen_laplacian(3, 27, INT64_MAX / 2, 4, 4, &A) == SYLVA_ERR_ARGUMENT, "overflowing size refused");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test-io-api SOURCE_DIR [TMP_DIR]\n");
        return 2;
    }
    snprintf(src, sizeof src, "%s", argv[1]);
    snprintf(tmpdir, sizeof tmpdir, "%s", argc > 2 ? argv[2] : "/tmp");
    test_seed();
    test_from_csc();
    test_wrap();
    test_ops();
    test_dense();
    test_cholmod();
    test_generators();
    return test_exit("test-io-api");
}
