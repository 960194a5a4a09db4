/* fuzz_mm_read.c — the Matrix Market reader on any bytes, serial against
 * parallel chunking. Byte 0 picks the thread count (2..5), 32- or 64-bit
 * entry indices (bit 2), the read options (bits 3-4: symmetric_both, bits
 * 5-6: symmetrize, bit 7: symmetrize_tol = 1e-12 when symmetrizing); the
 * rest is the file. The same text is read with one
 * thread and with several: both must give the same status and message, and
 * on success the same matrix bit for bit, which must keep the CSC contract
 * (colptr from 0, non-decreasing; rows in range, lower, sorted, unique;
 * finite values). A failure must leave A NULL with a message. */
#include "fuzz_util.h"
#include "io_internal.h"

#include <math.h>

static void check_contract(const sylva_matrix *A)
{
    FUZZ_ASSERT(A->n >= 0 && A->colptr[0] == 0 && A->colptr[A->n] == A->nnz, "colptr ends");
    for (int64_t j = 0; j < A->n; j++) {
        FUZZ_ASSERT(A->colptr[j + 1] >= A->colptr[j], "colptr decreases at %lld", (long long)j);
        for (int64_t p = A->colptr[j]; p < A->colptr[j + 1]; p++) {
            int64_t i = A->rowind[p];
            FUZZ_ASSERT(i >= j && i < A->n, "row %lld in column %lld", (long long)i, (long long)j);
            FUZZ_ASSERT(p == A->colptr[j] || i > A->rowind[p - 1], "rows not sorted/unique");
            if (A->values)
                FUZZ_ASSERT(isfinite(((const double *)A->values)[p]), "value not finite");
        }
    }
}

static int read_with(const char *text, size_t size, int threads, int idx64,
                     const sylva_read_options *o, sylva_matrix **A, char *msg, size_t cap)
{
    char nt[8];
    snprintf(nt, sizeof nt, "%d", threads);
    setenv("SYLVA_IO_THREADS", nt, 1);
    if (idx64)
        setenv("SYLVA_IO_INDEX64", "1", 1);
    else
        unsetenv("SYLVA_IO_INDEX64");
    sylva__clear_error();
    int st = sylva__mm_read_buffer("fuzz.mtx", text, size, o, NULL, A);
    snprintf(msg, cap, "%s", sylva__last_error());
    if (st == SYLVA_OK)
        check_contract(*A);
    else
        FUZZ_ASSERT(*A == NULL && msg[0] != '\0', "failure %d without a message or with a matrix",
                    st);
    return st;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_limit_memory();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    int threads = 2 + (data[0] & 3), idx64 = (data[0] >> 2) & 1;
    sylva_read_options o;
    sylva__default_read_options(&o);
    o.symmetric_both = (sylva_both_triangles)((data[0] >> 3) & 3);
    o.symmetrize = (sylva_symmetrize)((data[0] >> 5) & 3);
    if (o.symmetrize != SYLVA_SYMMETRIZE_NONE && (data[0] >> 7)) o.symmetrize_tol = 1e-12;
    char *text = fuzz_text(data + 1, size - 1);
    sylva_matrix *S = NULL, *P = NULL;
    static char ms[1024], mp[1024];
    int ss = read_with(text, size - 1, 1, idx64, &o, &S, ms, sizeof ms);
    int sp = read_with(text, size - 1, threads, idx64, &o, &P, mp, sizeof mp);
    FUZZ_ASSERT(ss == sp, "serial status %d, parallel %d (%s | %s)", ss, sp, ms, mp);
    FUZZ_ASSERT(!strcmp(ms, mp), "messages differ: '%s' | '%s'", ms, mp);
    if (ss == SYLVA_OK) {
        FUZZ_ASSERT(S->n == P->n && S->nnz == P->nnz, "sizes differ");
        FUZZ_ASSERT(!memcmp(S->colptr, P->colptr, (size_t)(S->n + 1) * sizeof(int64_t)),
                    "colptr differs");
        FUZZ_ASSERT(!memcmp(S->rowind, P->rowind, (size_t)S->nnz * sizeof(int64_t)),
                    "rowind differs");
        FUZZ_ASSERT(!S->values == !P->values, "pattern differs");
        if (S->values)
            FUZZ_ASSERT(!memcmp(S->values, P->values, (size_t)S->nnz * sizeof(double)),
                        "values differ");
    }
    sylva__matrix_free(S);
    sylva__matrix_free(P);
    free(text);
    return 0;
}
