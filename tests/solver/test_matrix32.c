/* test_matrix32.c — matrices from 32-bit CSC arrays:
 * - sylva_matrix_wrap32 on lower, sorted arrays: A uses the caller's
 *   values in place (the same pointer), its widened indices equal the
 *   caller's, and it factors and solves (backward error);
 * - sylva_matrix_from_csc32 on both triangles, rows shuffled and entries
 *   split into duplicates, gives bit for bit the matrix sylva_matrix_from_csc
 *   gives on the same arrays widened; the lower triangle too, and the
 *   upper one (storage SYLVA_CSC_UPPER) gives the lower's matrix, each
 *   refused when the arrays hold the other triangle, and a storage that is
 *   none of the three refused;
 * - every malformed input is refused with the status and a message naming
 *   the call and the column: n out of range, colptr[0] ≠ 0, colptr
 *   decreasing, rows out of range, unsorted or upper rows for wrap32,
 *   NaN values, an unsymmetric full matrix, NULLs. */
#include <math.h>
#include <stdint.h>

#include "test_util.h"

static int same_matrix(const sylva_matrix *X, const sylva_matrix *Y)
{
    if (X->n != Y->n || X->nnz != Y->nnz) return 0;
    if (memcmp(X->colptr, Y->colptr, (size_t)(X->n + 1) * sizeof *X->colptr)) return 0;
    if (memcmp(X->rowind, Y->rowind, (size_t)X->nnz * sizeof *X->rowind)) return 0;
    if (!X->values || !Y->values) return X->values == Y->values;
    return !memcmp(X->values, Y->values, (size_t)X->nnz * sizeof(double));
}

static void expect(int st, int want, const char *call, const char *needle, const char *what)
{
    CHECK(st == want, "%s: status %s, expected %s", what, sylva_status_name(st), sylva_status_name(want));
    CHECK(strstr(sylva_last_error(), call) && strstr(sylva_last_error(), needle),
          "%s: message '%s' should name %s and '%s'", what, sylva_last_error(), call, needle);
}

int main(void)
{
    test_seed();
    sylva_matrix *G = NULL;
    CHECK(sylva_gen_from_spec("lap2d5:15", &G) == SYLVA_OK, "gen: %s", sylva_last_error());
    int64_t n = G->n, nz = G->nnz;
    const double *gv = G->values;

    /* Lower, sorted, 32-bit. */
    int32_t *cp = malloc((size_t)(n + 1) * sizeof *cp), *ri = malloc((size_t)nz * sizeof *ri);
    double *v = malloc((size_t)nz * sizeof *v);
    for (int64_t j = 0; j <= n; j++) cp[j] = (int32_t)G->colptr[j];
    for (int64_t p = 0; p < nz; p++) ri[p] = (int32_t)G->rowind[p], v[p] = gv[p];
    sylva_matrix *W = NULL;
    CHECK(sylva_matrix_wrap32(n, cp, ri, v, &W) == SYLVA_OK, "wrap32: %s", sylva_last_error());
    if (W) {
        CHECK(W->values == v, "wrap32 copied the values");
        CHECK(same_matrix(W, G), "wrap32 is not the matrix its arrays describe");
        sylva_options o;
        sylva_default_options(&o);
        o.ncpus = 2;
        o.mode = SYLVA_MODE_CPU;
        CHECK(sylva_init(&o) == SYLVA_OK, "init: %s", sylva_last_error());
        sylva_analysis_t *an = NULL;
        sylva_factor_t *F = NULL;
        double *b = malloc((size_t)n * sizeof *b), *x = malloc((size_t)n * sizeof *x);
        for (int64_t i = 0; i < n; i++) b[i] = x[i] = test_rand();
        int st = sylva_analyze(W, &o, &an, NULL);
        if (!st) st = sylva_factorize(an, W, &F, NULL);
        if (!st) st = sylva_solve(F, 1, x, n);
        CHECK(st == SYLVA_OK, "wrap32 matrix: %s", sylva_last_error());
        if (!st) test_check_solution(W, x, b, 1, "wrap32 matrix");
        sylva_factor_free(F);
        sylva_analysis_free(an);
        sylva_finalize();
        free(b), free(x);
        sylva_matrix_free(W);
    }

    /* Both triangles, rows in reverse within each column, every
     * off-diagonal entry split in two duplicates (halves). */
    int64_t cap = 4 * nz;
    int32_t *fc = calloc((size_t)(n + 1), sizeof *fc), *fr = malloc((size_t)cap * sizeof *fr);
    int64_t *fc64 = calloc((size_t)(n + 1), sizeof *fc64), *fr64 = malloc((size_t)cap * sizeof *fr64);
    double *fv = malloc((size_t)cap * sizeof *fv);
    int64_t *len = calloc((size_t)n, sizeof *len);
    for (int64_t j = 0; j < n; j++)
        for (int64_t p = G->colptr[j]; p < G->colptr[j + 1]; p++) {
            int64_t i = G->rowind[p];
            len[j] += i == j ? 1 : 2;
            if (i != j) len[i] += 2;
        }
    for (int64_t j = 0; j < n; j++) fc[j + 1] = fc[j] + (int32_t)len[j];
    int64_t *fill = calloc((size_t)n, sizeof *fill);
    for (int64_t j = n - 1; j >= 0; j--) /* reverse order of columns fills rows descending */
        for (int64_t p = G->colptr[j + 1] - 1; p >= G->colptr[j]; p--) {
            int64_t i = G->rowind[p];
            if (i == j) {
                int64_t q = fc[j] + fill[j]++;
                fr[q] = (int32_t)i, fv[q] = gv[p];
                continue;
            }
            for (int h = 0; h < 2; h++) {
                int64_t q = fc[j] + fill[j]++;
                fr[q] = (int32_t)i, fv[q] = gv[p] / 2;
                q = fc[i] + fill[i]++;
                fr[q] = (int32_t)j, fv[q] = gv[p] / 2;
            }
        }
    for (int64_t j = 0; j <= n; j++) fc64[j] = fc[j];
    for (int64_t q = 0; q < fc[n]; q++) fr64[q] = fr[q];
    sylva_matrix *F32 = NULL, *F64 = NULL;
    CHECK(sylva_matrix_from_csc32(n, fc, fr, fv, 0, &F32) == SYLVA_OK, "from_csc32 full: %s", sylva_last_error());
    CHECK(sylva_matrix_from_csc(n, fc64, fr64, fv, 0, &F64) == SYLVA_OK, "from_csc full: %s", sylva_last_error());
    CHECK(F32 && F64 && same_matrix(F32, F64), "from_csc32 and from_csc differ on the same arrays");
    CHECK(F32 && F32->nnz == nz, "from_csc32 kept %lld entries of %lld", F32 ? (long long)F32->nnz : -1LL, (long long)nz);
    sylva_matrix_free(F32);
    sylva_matrix_free(F64);
    F32 = NULL;
    CHECK(sylva_matrix_from_csc32(n, cp, ri, NULL, 1, &F32) == SYLVA_OK && F32 && !F32->values &&
              F32->nnz == nz, "from_csc32 pattern, lower: %s", sylva_last_error());
    sylva_matrix_free(F32);

    /* The upper triangle (G transposed: column j holds G's row j), as
     * SciPy's triu gives it: the same matrix as G. */
    int32_t *uc = calloc((size_t)(n + 1), sizeof *uc), *ur = malloc((size_t)nz * sizeof *ur);
    double *uv = malloc((size_t)nz * sizeof *uv);
    for (int64_t p = 0; p < nz; p++) uc[G->rowind[p] + 1]++;
    for (int64_t j = 0; j < n; j++) uc[j + 1] += uc[j];
    int32_t *next = malloc((size_t)(n + 1) * sizeof *next);
    memcpy(next, uc, (size_t)(n + 1) * sizeof *next);
    for (int64_t j = 0; j < n; j++)
        for (int64_t p = G->colptr[j]; p < G->colptr[j + 1]; p++) {
            int32_t q = next[G->rowind[p]]++;
            ur[q] = (int32_t)j, uv[q] = gv[p];
        }
    sylva_matrix *U32 = NULL;
    CHECK(sylva_matrix_from_csc32(n, uc, ur, uv, SYLVA_CSC_UPPER, &U32) == SYLVA_OK, "from_csc32 upper: %s",
          sylva_last_error());
    CHECK(U32 && same_matrix(U32, G), "from_csc32 upper is not the matrix G");
    sylva_matrix_free(U32);
    U32 = NULL;
    expect(sylva_matrix_from_csc32(n, uc, ur, uv, SYLVA_CSC_LOWER, &U32), SYLVA_ERR_ARGUMENT,
           "sylva_matrix_from_csc32", "above the diagonal (lower triangle expected)", "upper arrays as lower");
    expect(sylva_matrix_from_csc32(n, cp, ri, v, SYLVA_CSC_UPPER, &U32), SYLVA_ERR_ARGUMENT,
           "sylva_matrix_from_csc32", "below the diagonal (upper triangle expected)", "lower arrays as upper");
    expect(sylva_matrix_from_csc32(n, uc, ur, uv, SYLVA_CSC_FULL, &U32), SYLVA_ERR_NOT_SYMMETRIC,
           "sylva_matrix_from_csc32", "", "upper arrays as full");
    expect(sylva_matrix_from_csc32(n, uc, ur, uv, 3, &U32), SYLVA_ERR_ARGUMENT, "sylva_matrix_from_csc32",
           "storage = 3 is not", "storage 3");
    CHECK(U32 == NULL, "a refused call left a matrix");
    free(uc), free(ur), free(uv), free(next);

    /* Malformed inputs. */
    sylva_matrix *A = NULL;
    expect(sylva_matrix_wrap32((int64_t)INT32_MAX + 1, cp, ri, v, &A), SYLVA_ERR_ARGUMENT,
           "sylva_matrix_wrap32", "out of range", "n = 2^31");
    expect(sylva_matrix_from_csc32(-1, cp, ri, v, 1, &A), SYLVA_ERR_ARGUMENT, "sylva_matrix_from_csc32",
           "out of range", "n = -1");
    expect(sylva_matrix_wrap32(n, NULL, ri, v, &A), SYLVA_ERR_ARGUMENT, "sylva_matrix_wrap32", "colptr", "NULL colptr");
    CHECK(sylva_matrix_wrap32(n, cp, ri, v, NULL) == SYLVA_ERR_ARGUMENT, "NULL A");
    cp[0] = 1;
    expect(sylva_matrix_wrap32(n, cp, ri, v, &A), SYLVA_ERR_ARGUMENT, "sylva_matrix_wrap32", "colptr[0]", "colptr[0] = 1");
    cp[0] = 0;
    int32_t keep = cp[5];
    cp[5] = cp[4] - 1;
    expect(sylva_matrix_from_csc32(n, cp, ri, v, 1, &A), SYLVA_ERR_ARGUMENT, "sylva_matrix_from_csc32",
           "column 4", "decreasing colptr");
    cp[5] = keep;
    /* Column 3 of the 5-point Laplacian has rows 3, 4, 18: swap two. */
    int32_t a = ri[cp[3] + 1];
    ri[cp[3] + 1] = ri[cp[3] + 2], ri[cp[3] + 2] = a;
    expect(sylva_matrix_wrap32(n, cp, ri, v, &A), SYLVA_ERR_ARGUMENT, "sylva_matrix_wrap32", "column 3", "unsorted rows");
    ri[cp[3] + 2] = ri[cp[3] + 1], ri[cp[3] + 1] = a;
    a = ri[cp[3]];
    ri[cp[3]] = 2; /* above the diagonal */
    expect(sylva_matrix_wrap32(n, cp, ri, v, &A), SYLVA_ERR_ARGUMENT, "sylva_matrix_wrap32", "column 3", "upper entry");
    ri[cp[3]] = (int32_t)n;
    expect(sylva_matrix_from_csc32(n, cp, ri, v, 1, &A), SYLVA_ERR_ARGUMENT, "sylva_matrix_from_csc32",
           "out of range", "row n");
    ri[cp[3]] = a;
    double old = v[7];
    v[7] = NAN;
    expect(sylva_matrix_from_csc32(n, cp, ri, v, 1, &A), SYLVA_ERR_BAD_VALUE, "sylva_matrix_from_csc32", "NaN", "NaN value");
    expect(sylva_matrix_wrap32(n, cp, ri, v, &A), SYLVA_ERR_BAD_VALUE, "sylva_matrix_wrap32", "NaN", "NaN value");
    v[7] = old;
    fv[fc[2]] += 1; /* one half of a mirrored pair changed: not symmetric */
    int st = sylva_matrix_from_csc32(n, fc, fr, fv, 0, &A);
    CHECK(st == SYLVA_ERR_NOT_SYMMETRIC, "unsymmetric full input: %s", sylva_status_name(st));
    CHECK(A == NULL, "a failed call left a matrix");

    free(cp), free(ri), free(v), free(fc), free(fr), free(fc64), free(fr64), free(fv), free(len), free(fill);
    sylva_matrix_free(G);
    return test_exit("test_matrix32");
}
