/* rhs.c — the right-hand sides of `sylva factor`: the --rhs file (n × nrhs,
 * checked against the matrix before any work), or b = A·x0 for a known x0:
 * x0 = 1; x0 = 2^-e·1 when A·1 overflows (rows of at most 2^e entries of
 * at most DBL_MAX cannot); and a fixed pseudo-random x0 (seed 1) when A·1
 * is exactly zero (zero row sums: a graph Laplacian), since b = 0 has the
 * solution x = 0 whatever the factor and would test nothing. With --nrhs K,
 * K columns b_j = A·x_j with every x_j pseudo-random (one stream, seed 1).
 * `which` says which one was used, for the summary and the JSON. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* x0 = c·1 or, with c = 0, values in [0.5, 1.5) from a fixed LCG. */
static void fill_x0(double *x0, int64_t n, double c)
{
    uint64_t s = 1;
    for (int64_t i = 0; i < n; i++) {
        if (c != 0) {
            x0[i] = c;
            continue;
        }
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        x0[i] = 0.5 + (double)(s >> 11) * 0x1.0p-53;
    }
}

static int all_zero(const double *b, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        if (b[i] != 0) return 0;
    return n > 0;
}

static int default_rhs(const sylva_matrix *A, double *B, char *which, size_t size)
{
    int64_t n = A->n;
    double *x0 = malloc((size_t)(n ? n : 1) * sizeof *x0);
    int64_t *count = calloc((size_t)(n ? n : 1), sizeof *count);
    if (!x0 || !count) {
        free(x0);
        free(count);
        return cli_error(SYLVA_ERR_NO_MEMORY, "out of memory forming the right-hand side");
    }
    double scale = 1.0;
    snprintf(which, size, "A*ones");
    for (int pass = 0; pass < 2; pass++) {
        fill_x0(x0, n, scale);
        sylva_matrix_symv(A, x0, B);
        int finite = 1;
        for (int64_t i = 0; i < n && finite; i++) finite = isfinite(B[i]);
        if (finite) break;
        if (pass == 1) {
            free(x0);
            free(count);
            return cli_error(SYLVA_ERR_BAD_VALUE,
                             "cannot form the right-hand side: A·x overflows "
                             "double precision even for x = %g·1",
                             scale);
        }
        int64_t widest = 1; /* entries of the widest row of the full matrix */
        for (int64_t j = 0; j < n; j++)
            for (int64_t p = A->colptr[j]; p < A->colptr[j + 1]; p++) {
                count[A->rowind[p]]++;
                if (A->rowind[p] != j) count[j]++;
            }
        for (int64_t i = 0; i < n; i++)
            if (count[i] > widest) widest = count[i];
        int e = 0;
        while (((int64_t)1 << e) < widest && e < 62) e++;
        scale = ldexp(1.0, -e);
        snprintf(which, size, "A*ones*2^-%d", e);
        fprintf(stderr, "sylva: b = A·1 overflows double precision; using b = A·x with x = 2^-%d·1\n", e);
    }
    if (all_zero(B, n)) {
        fill_x0(x0, n, 0);
        sylva_matrix_symv(A, x0, B);
        snprintf(which, size, "A*x (x random in [0.5,1.5), seed 1)");
        fprintf(stderr, "sylva: A·1 = 0 (zero row sums); using b = A·x for a random x\n");
    }
    free(x0);
    free(count);
    return SYLVA_OK;
}

/* --nrhs K: B (n × K) = A·X, X pseudo-random in [0.5, 1.5). */
static int random_rhs(const sylva_matrix *A, int64_t k, double *B, char *which, size_t size)
{
    int64_t n = A->n;
    double *X = malloc((size_t)(n * k + 1) * sizeof *X);
    if (!X) return cli_error(SYLVA_ERR_NO_MEMORY, "out of memory forming %lld right-hand sides", (long long)k);
    fill_x0(X, n * k, 0);
    int status = SYLVA_OK;
    for (int64_t j = 0; j < k && !status; j++) {
        sylva_matrix_symv(A, X + j * n, B + j * n);
        for (int64_t i = 0; i < n && !status; i++)
            if (!isfinite(B[i + j * n]))
                status = cli_error(SYLVA_ERR_BAD_VALUE,
                                   "cannot form right-hand side %lld: A·x overflows double precision "
                                   "(give them with --rhs)",
                                   (long long)j + 1);
    }
    snprintf(which, size, "A*X (%lld columns, X random in [0.5,1.5), seed 1)", (long long)k);
    free(X);
    return status;
}

int cli_make_rhs(const cli_args *a, const sylva_matrix *A, double **B, int64_t *nrhs, char *which,
                 size_t size)
{
    *B = NULL;
    if (!a->rhs && a->nrhs > 0) {
        if ((double)A->n * (double)a->nrhs > 1e10)
            return cli_error(SYLVA_ERR_ARGUMENT, "--nrhs %lld: %lld x %lld right-hand sides are too many",
                             (long long)a->nrhs, (long long)A->n, (long long)a->nrhs);
        *B = malloc((size_t)(A->n * a->nrhs + 1) * sizeof **B);
        if (!*B) return cli_error(SYLVA_ERR_NO_MEMORY, "out of memory for %lld right-hand sides", (long long)a->nrhs);
        *nrhs = a->nrhs;
        int status = random_rhs(A, a->nrhs, *B, which, size);
        if (status) {
            free(*B);
            *B = NULL;
        }
        return status;
    }
    if (!a->rhs) {
        *B = malloc((size_t)(A->n ? A->n : 1) * sizeof **B);
        if (!*B) return cli_error(SYLVA_ERR_NO_MEMORY, "out of memory forming the right-hand side");
        *nrhs = 1;
        int status = default_rhs(A, *B, which, size);
        if (status) {
            free(*B);
            *B = NULL;
        }
        return status;
    }
    snprintf(which, size, "%s", a->rhs);
    int64_t n;
    int status = sylva_read_dense(a->rhs, &n, nrhs, B);
    if (status) return status;
    if (n != A->n) {
        free(*B);
        *B = NULL;
        return cli_error(SYLVA_ERR_ARGUMENT, "%s: the right-hand side has %lld rows, the matrix (%s) %lld",
                         a->rhs, (long long)n, a->file, (long long)A->n);
    }
    return SYLVA_OK;
}
