/* test_factor_parts.c — the factor in parts, on one matrix:
 *   test_factor_parts SPEC [small=N] [tile=N] [precision=double|single]
 * - L exported as CSC in the permuted numbering is lower triangular with
 *   sorted rows, sylva_factor_nnz entries, and L·Lᵀ = P A Pᵀ to c·n·ε·‖A‖
 *   (dense product: small matrices only);
 * - in the user's numbering it is Pᵀ L P entry for entry (exactly), and
 *   (PᵀLP)(PᵀLP)ᵀ = A to the same bound;
 * - the supernodal view reproduces the permuted CSC bit for bit;
 * - each system of sylva_solve_system does what it says: P and Pᵀ move
 *   entries exactly, L⁻¹ and L⁻ᵀ satisfy their triangular systems with the
 *   exported L to c·n·ε (backward error), (LLᵀ)⁻¹ solves P A Pᵀ, A⁻¹ solves
 *   A, and Pᵀ L⁻ᵀ L⁻¹ P composed from the parts solves A too; on 3
 *   right-hand sides with ldb > n, whose padding must stay untouched;
 * - misuse: bad system, numbering, supernode, ldb, NULLs, a failed factor. */
#include <math.h>

#include "test_util.h"

static sylva_dtype prec = SYLVA_FLOAT64;

static double get(const void *v, int64_t i)
{
    return prec == SYLVA_FLOAT32 ? (double)((const float *)v)[i] : ((const double *)v)[i];
}
static void put(void *v, int64_t i, double x)
{
    if (prec == SYLVA_FLOAT32) ((float *)v)[i] = (float)x;
    else ((double *)v)[i] = x;
}

/* Dense n × n of the full symmetric A, optionally permuted: D(i,j) =
 * A(perm[i], perm[j]). */
static double *dense_A(const sylva_matrix *A, const int64_t *perm)
{
    int64_t n = A->n;
    int64_t *inv = malloc((size_t)(n + 1) * sizeof *inv);
    for (int64_t k = 0; k < n; k++) inv[perm ? perm[k] : k] = k;
    double *D = calloc((size_t)(n * n + 1), sizeof *D);
    for (int64_t j = 0; j < n; j++)
        for (int64_t p = A->colptr[j]; p < A->colptr[j + 1]; p++) {
            int64_t i = inv[A->rowind[p]], c = inv[j];
            double v = ((const double *)A->values)[p];
            D[i + c * n] = v;
            D[c + i * n] = v;
        }
    free(inv);
    return D;
}

/* max |M Mᵀ − D| over the dense n × n, M given as CSC. */
static double product_error(int64_t n, const int64_t *cp, const int64_t *ri, const void *v,
                            const double *D)
{
    double *M = calloc((size_t)(n * n + 1), sizeof *M), worst = 0;
    for (int64_t j = 0; j < n; j++)
        for (int64_t p = cp[j]; p < cp[j + 1]; p++) M[ri[p] + j * n] = get(v, p);
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j <= i; j++) {
            double s = 0;
            for (int64_t k = 0; k < n; k++) s += M[i + k * n] * M[j + k * n];
            double e = fabs(s - D[i + j * n]);
            if (!(e <= worst)) worst = e;
        }
    free(M);
    return worst;
}

static double max_abs(const double *D, int64_t count)
{
    double m = 0;
    for (int64_t i = 0; i < count; i++)
        if (fabs(D[i]) > m) m = fabs(D[i]);
    return m;
}

/* Backward error of y for T y = b, T a CSC (trans: Tᵀ y = b), or the full
 * symmetric dense D when cp is NULL: ‖b − T y‖∞ / (‖T‖∞ ‖y‖∞ + ‖b‖∞). */
static double tri_berr(int64_t n, const int64_t *cp, const int64_t *ri, const void *v, int trans,
                       const double *D, const void *y, const void *b)
{
    double *r = calloc((size_t)n + 1, sizeof *r), *rowsum = calloc((size_t)n + 1, sizeof *rowsum);
    for (int64_t i = 0; i < n; i++) r[i] = get(b, i);
    if (cp) {
        for (int64_t j = 0; j < n; j++)
            for (int64_t p = cp[j]; p < cp[j + 1]; p++) {
                int64_t i = ri[p];
                double a = get(v, p);
                if (trans) {
                    r[j] -= a * get(y, i);
                    rowsum[j] += fabs(a);
                } else {
                    r[i] -= a * get(y, j);
                    rowsum[i] += fabs(a);
                }
            }
    } else {
        for (int64_t j = 0; j < n; j++)
            for (int64_t i = 0; i < n; i++) {
                r[i] -= D[i + j * n] * get(y, j);
                rowsum[i] += fabs(D[i + j * n]);
            }
    }
    double rn = 0, tn = 0, yn = 0, bn = 0;
    for (int64_t i = 0; i < n; i++) {
        if (!(fabs(r[i]) <= rn)) rn = fabs(r[i]);
        if (rowsum[i] > tn) tn = rowsum[i];
        if (fabs(get(y, i)) > yn) yn = fabs(get(y, i));
        if (fabs(get(b, i)) > bn) bn = fabs(get(b, i));
    }
    free(r);
    free(rowsum);
    return rn / (tn * yn + bn);
}

static void check_csc(const sylva_matrix *A, sylva_factor_t *F, const int64_t *perm)
{
    int64_t n = A->n, nnz = sylva_factor_nnz(F);
    size_t es = sylva_dtype_size(prec);
    int64_t *cp = malloc((size_t)(n + 1) * sizeof *cp), *ri = malloc((size_t)(nnz + 1) * sizeof *ri);
    int64_t *cu = malloc((size_t)(n + 1) * sizeof *cu), *ru = malloc((size_t)(nnz + 1) * sizeof *ru);
    void *v = malloc((size_t)(nnz + 1) * es), *vu = malloc((size_t)(nnz + 1) * es);
    CHECK(sylva_factor_csc(F, SYLVA_NUMBERING_PERMUTED, cp, ri, v) == SYLVA_OK, "csc: %s", sylva_last_error());
    CHECK(cp[0] == 0 && cp[n] == nnz, "permuted: colptr ends at %lld, nnz %lld", (long long)cp[n], (long long)nnz);
    int ok = 1;
    for (int64_t j = 0; j < n && ok; j++) {
        ok = cp[j + 1] > cp[j] && ri[cp[j]] == j && get(v, cp[j]) > 0; /* diagonal first, positive */
        for (int64_t p = cp[j] + 1; p < cp[j + 1] && ok; p++) ok = ri[p] > ri[p - 1] && ri[p] < n;
    }
    CHECK(ok, "permuted L is not lower triangular with sorted rows and a positive diagonal first");
    double eps = test_eps(prec), tol = BERR_C * (double)(n > 1 ? n : 1) * eps;

    double *PAP = dense_A(A, perm), *D = dense_A(A, NULL), norm = max_abs(D, n * n);
    double e = product_error(n, cp, ri, v, PAP) / norm;
    printf("  L Lt = P A Pt: relative error %.2e (tolerance %.2e)\n", e, tol);
    CHECK(e <= tol, "L Lt - P A Pt = %.3e > %.3e", e, tol);

    /* The user's numbering: the same entries, moved by perm. */
    CHECK(sylva_factor_csc(F, SYLVA_NUMBERING_USER, cu, ru, vu) == SYLVA_OK, "csc user: %s", sylva_last_error());
    CHECK(cu[n] == nnz, "user: colptr ends at %lld", (long long)cu[n]);
    ok = 1;
    for (int64_t j = 0; j < n && ok; j++) {
        int64_t u = perm[j];
        ok = cu[u + 1] - cu[u] == cp[j + 1] - cp[j];
        for (int64_t p = cu[u] + 1; p < cu[u + 1] && ok; p++) ok = ru[p] > ru[p - 1];
        for (int64_t p = cp[j]; p < cp[j + 1] && ok; p++) {
            int64_t q = cu[u];
            while (q < cu[u + 1] && ru[q] != perm[ri[p]]) q++;
            ok = q < cu[u + 1] && memcmp((char *)vu + q * es, (char *)v + p * es, es) == 0;
        }
    }
    CHECK(ok, "user-numbered L is not Pt L P entry for entry");
    e = product_error(n, cu, ru, vu, D) / norm;
    CHECK(e <= tol, "(Pt L P)(Pt L P)t - A = %.3e > %.3e", e, tol);
    /* Pattern only. */
    int64_t *cp2 = malloc((size_t)(n + 1) * sizeof *cp2), *ri2 = malloc((size_t)(nnz + 1) * sizeof *ri2);
    CHECK(sylva_factor_csc(F, SYLVA_NUMBERING_PERMUTED, cp2, ri2, NULL) == SYLVA_OK &&
              !memcmp(cp2, cp, (size_t)(n + 1) * sizeof *cp) && !memcmp(ri2, ri, (size_t)nnz * sizeof *ri),
          "pattern-only export differs");

    /* The supernodal view, bit for bit against the CSC. */
    int64_t ns = sylva_factor_supernode_count(F), cols = 0;
    ok = ns > 0;
    for (int64_t s = 0; s < ns && ok; s++) {
        sylva_supernode sn;
        ok = sylva_factor_supernode(F, s, &sn) == SYLVA_OK && sn.nrows >= sn.ncols && sn.ncols > 0 &&
             sn.first_col == cols && (sn.parent == -1 || sn.parent > s);
        for (int64_t c = 0; c < sn.ncols && ok; c++) {
            int64_t j = sn.first_col + c;
            ok = sn.rows[c] == j && cp[j + 1] - cp[j] == sn.nrows - c;
            for (int64_t i = c; i < sn.nrows && ok; i++)
                ok = ri[cp[j] + i - c] == sn.rows[i] &&
                     !memcmp((const char *)sn.values + (i + c * sn.nrows) * es, (char *)v + (cp[j] + i - c) * es, es);
        }
        cols += sn.ncols;
    }
    CHECK(ok && cols == n, "the supernodal view differs from the CSC (covers %lld of %lld columns)",
          (long long)cols, (long long)n);

    /* The systems, on 3 right-hand sides with ldb = n + 2. */
    int64_t nrhs = 3, ldb = n + 2;
    void *B = malloc((size_t)(ldb * nrhs) * es), *X = malloc((size_t)(ldb * nrhs) * es);
    void *Y = malloc((size_t)(ldb * nrhs) * es);
    for (int64_t i = 0; i < ldb * nrhs; i++) put(B, i, i % ldb < n ? test_rand() : 1234.5);
    const struct {
        sylva_system sys;
        const char *name;
    } systems[] = {{SYLVA_SYS_A, "A"},   {SYLVA_SYS_LLT, "LLt"}, {SYLVA_SYS_L, "L"},
                   {SYLVA_SYS_LT, "Lt"}, {SYLVA_SYS_P, "P"},     {SYLVA_SYS_PT, "Pt"}};
    for (size_t k = 0; k < sizeof systems / sizeof systems[0]; k++) {
        memcpy(X, B, (size_t)(ldb * nrhs) * es);
        int st = sylva_solve_system(F, systems[k].sys, nrhs, X, ldb);
        CHECK(st == SYLVA_OK, "system %s: %s", systems[k].name, sylva_last_error());
        double worst = 0;
        for (int64_t c = 0; c < nrhs; c++) {
            const char *x = (char *)X + (size_t)(c * ldb) * es, *b = (char *)B + (size_t)(c * ldb) * es;
            for (int64_t i = n; i < ldb; i++) CHECK(get(x, i) == 1234.5, "system %s: padding row %lld changed", systems[k].name, (long long)i);
            double be = 0;
            switch (systems[k].sys) {
            case SYLVA_SYS_A: be = tri_berr(n, NULL, NULL, NULL, 0, D, x, b); break;
            case SYLVA_SYS_LLT: be = tri_berr(n, NULL, NULL, NULL, 0, PAP, x, b); break;
            case SYLVA_SYS_L: be = tri_berr(n, cp, ri, v, 0, NULL, x, b); break;
            case SYLVA_SYS_LT: be = tri_berr(n, cp, ri, v, 1, NULL, x, b); break;
            case SYLVA_SYS_P:
                for (int64_t i = 0; i < n; i++)
                    if (memcmp(x + i * es, b + perm[i] * es, es)) be = 1;
                break;
            case SYLVA_SYS_PT:
                for (int64_t i = 0; i < n; i++)
                    if (memcmp(x + perm[i] * es, b + i * es, es)) be = 1;
                break;
            }
            if (!(be <= worst)) worst = be;
        }
        printf("  system %-3s: worst backward error %.2e\n", systems[k].name, worst);
        CHECK(worst <= tol, "system %s: backward error %.3e > %.3e", systems[k].name, worst, tol);
    }
    /* The parts composed: Pt Lt⁻¹ L⁻¹ P b solves A x = b. */
    memcpy(Y, B, (size_t)(ldb * nrhs) * es);
    int st = sylva_solve_system(F, SYLVA_SYS_P, nrhs, Y, ldb);
    if (!st) st = sylva_solve_system(F, SYLVA_SYS_L, nrhs, Y, ldb);
    if (!st) st = sylva_solve_system(F, SYLVA_SYS_LT, nrhs, Y, ldb);
    if (!st) st = sylva_solve_system(F, SYLVA_SYS_PT, nrhs, Y, ldb);
    CHECK(st == SYLVA_OK, "composed: %s", sylva_last_error());
    for (int64_t c = 0; c < nrhs; c++) {
        double be = tri_berr(n, NULL, NULL, NULL, 0, D, (char *)Y + (size_t)(c * ldb) * es,
                             (char *)B + (size_t)(c * ldb) * es);
        CHECK(be <= tol, "composed solve, rhs %lld: backward error %.3e > %.3e", (long long)c, be, tol);
    }

    /* Misuse. */
    CHECK(sylva_solve_system(F, (sylva_system)6, 1, X, ldb) == SYLVA_ERR_ARGUMENT &&
              strstr(sylva_last_error(), "system"), "bad system: %s", sylva_last_error());
    CHECK(sylva_solve_system(F, SYLVA_SYS_L, 1, X, n - 1) == SYLVA_ERR_ARGUMENT || n <= 1, "ldb < n accepted");
    CHECK(sylva_solve_system(NULL, SYLVA_SYS_L, 1, X, ldb) == SYLVA_ERR_ARGUMENT, "NULL factor");
    CHECK(sylva_factor_csc(F, (sylva_numbering)2, cp, ri, v) == SYLVA_ERR_ARGUMENT, "bad numbering");
    CHECK(sylva_factor_csc(F, SYLVA_NUMBERING_USER, NULL, ri, v) == SYLVA_ERR_ARGUMENT, "NULL colptr");
    sylva_supernode sn;
    CHECK(sylva_factor_supernode(F, ns, &sn) == SYLVA_ERR_ARGUMENT && strstr(sylva_last_error(), "out of range"),
          "supernode past the last: %s", sylva_last_error());
    CHECK(sylva_factor_supernode(F, -1, &sn) == SYLVA_ERR_ARGUMENT, "supernode -1");
    free(cp), free(ri), free(cu), free(ru), free(v), free(vu), free(cp2), free(ri2);
    free(PAP), free(D), free(B), free(X), free(Y);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_factor_parts SPEC [small=N] [tile=N] [precision=double|single]\n");
        return 2;
    }
    test_seed();
    sylva_options o;
    sylva_default_options(&o);
    o.ncpus = 2;
    o.mode = SYLVA_MODE_CPU;
    for (int i = 2; i < argc; i++) {
        if (!strncmp(argv[i], "small=", 6)) o.small_front_rows = atoll(argv[i] + 6);
        else if (!strncmp(argv[i], "tile=", 5)) o.tile_rows = atoll(argv[i] + 5);
        else if (!strcmp(argv[i], "precision=single")) o.precision = prec = SYLVA_FLOAT32;
    }
    CHECK(sylva_init(&o) == SYLVA_OK, "init: %s", sylva_last_error());
    sylva_matrix *A = NULL;
    CHECK(test_load(argv[1], &A) == SYLVA_OK, "%s: %s", argv[1], sylva_last_error());
    if (!A) return test_exit("test_factor_parts");
    sylva_analysis_t *an = NULL;
    sylva_factor_t *F = NULL;
    CHECK(sylva_analyze(A, &o, &an, NULL) == SYLVA_OK, "analyze: %s", sylva_last_error());
    CHECK(sylva_factorize(an, A, &F, NULL) == SYLVA_OK, "factorize: %s", sylva_last_error());
    printf("%s: n = %lld, nnz(L) = %lld, %lld supernodes, %s\n", argv[1], (long long)A->n,
           (long long)sylva_factor_nnz(F), (long long)sylva_factor_supernode_count(F),
           sylva_dtype_name(prec));
    if (F) check_csc(A, F, sylva_analysis_perm(an));

    /* A failed factorization: every part refuses. */
    sylva_matrix *B = NULL;
    CHECK(sylva_matrix_convert(A, SYLVA_FLOAT64, &B) == SYLVA_OK, "copy");
    ((double *)B->values)[0] = -((double *)B->values)[0] - 1; /* A(0,0) < 0: not SPD */
    CHECK(sylva_refactorize(F, B, NULL) == SYLVA_ERR_NOT_SPD, "refactorize a matrix that is not SPD");
    double x[1] = {0};
    int64_t cp[2], ri[1];
    sylva_supernode sn;
    CHECK(sylva_solve_system(F, SYLVA_SYS_L, 0, x, A->n) == SYLVA_ERR_ARGUMENT, "solve_system after a failure");
    CHECK(sylva_factor_csc(F, SYLVA_NUMBERING_PERMUTED, cp, ri, NULL) == SYLVA_ERR_ARGUMENT, "csc after a failure");
    CHECK(sylva_factor_supernode(F, 0, &sn) == SYLVA_ERR_ARGUMENT, "supernode after a failure");
    sylva_matrix_free(B);
    sylva_factor_free(F);
    sylva_analysis_free(an);
    sylva_matrix_free(A);
    sylva_finalize();
    return test_exit("test_factor_parts");
}
