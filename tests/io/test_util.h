/* test_util.h — helpers shared by the io tests (random data, dense copies,
 * CSC contract checks); CHECK and test_exit come from tests/common/check.h. */
#ifndef SYLVA_TEST_UTIL_H
#define SYLVA_TEST_UTIL_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "sylva.h"

/* xorshift64*: reproducible random data; the seed is printed by each test. */
static uint64_t test_rng = 88172645463325252ull;
static inline uint64_t rnd(void)
{
    test_rng ^= test_rng >> 12;
    test_rng ^= test_rng << 25;
    test_rng ^= test_rng >> 27;
    return test_rng * 2685821657736338717ull;
}
static inline int64_t rnd_int(int64_t lo, int64_t hi) { return lo + (int64_t)(rnd() % (uint64_t)(hi - lo + 1)); }
static inline double rnd_unit(void) { return (double)(rnd() >> 11) / 9007199254740992.0; }

static inline void test_seed(void)
{
    const char *s = getenv("SYLVA_TEST_SEED");
    test_rng = s ? strtoull(s, NULL, 10) : (uint64_t)time(NULL) * 2654435761u + (uint64_t)clock();
    if (!test_rng) test_rng = 1;
    printf("seed %llu (set SYLVA_TEST_SEED to repeat)\n", (unsigned long long)test_rng);
}

/* Dense n x n full symmetric matrix of A (column-major), NULL if A is a
 * pattern; the caller frees. */
static inline double *to_dense(const sylva_matrix *A)
{
    int64_t n = A->n;
    double *D = calloc((size_t)(n * n + 1), sizeof *D);
    for (int64_t j = 0; j < n; j++)
        for (int64_t p = A->colptr[j]; p < A->colptr[j + 1]; p++) {
            int64_t i = A->rowind[p];
            double v = A->values ? ((double *)A->values)[p] : 1.0;
            D[i + j * n] = v;
            D[j + i * n] = v;
        }
    return D;
}

/* 1 when the arrays are sorted, unique, lower and in range (the contract). */
static inline int csc_is_valid(const sylva_matrix *A)
{
    if (!A || A->n < 0 || A->colptr[0] != 0 || A->colptr[A->n] != A->nnz) return 0;
    for (int64_t j = 0; j < A->n; j++) {
        if (A->colptr[j + 1] < A->colptr[j]) return 0;
        for (int64_t p = A->colptr[j]; p < A->colptr[j + 1]; p++) {
            int64_t i = A->rowind[p];
            if (i < j || i >= A->n) return 0;
            if (p > A->colptr[j] && i <= A->rowind[p - 1]) return 0;
        }
    }
    return 1;
}

/* 1 when both matrices have the same n, pattern and bit-identical values. */
static inline int same_matrix(const sylva_matrix *A, const sylva_matrix *B)
{
    if (A->n != B->n || A->nnz != B->nnz) return 0;
    if ((A->values == NULL) != (B->values == NULL)) return 0;
    if (memcmp(A->colptr, B->colptr, (size_t)(A->n + 1) * sizeof(int64_t))) return 0;
    if (A->nnz && memcmp(A->rowind, B->rowind, (size_t)A->nnz * sizeof(int64_t))) return 0;
    if (A->values && A->nnz && memcmp(A->values, B->values, (size_t)A->nnz * sizeof(double))) return 0;
    return 1;
}

/* A(i, j) of the stored lower triangle (i >= j), 0 when absent. */
static inline double entry(const sylva_matrix *A, int64_t i, int64_t j, int *found)
{
    if (i < j) {
        int64_t t = i;
        i = j;
        j = t;
    }
    *found = 0;
    for (int64_t p = A->colptr[j]; p < A->colptr[j + 1]; p++)
        if (A->rowind[p] == i) {
            *found = 1;
            return A->values ? ((double *)A->values)[p] : 1.0;
        }
    return 0.0;
}

static inline void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    if (!f) {
        perror(path);
        exit(99);
    }
    fputs(text, f);
    fclose(f);
}

#endif
