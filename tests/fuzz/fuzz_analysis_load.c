/* fuzz_analysis_load.c — the saved-analysis loader (sylva_analysis_load,
 * --analysis FILE) on any bytes. The bytes go through the file reader
 * (written to a temporary file: sylva__analysis_file_read) and through the
 * in-memory check a distributed run's ranks use (unpack): both must agree,
 * and a failure must leave a message and no permutation. A record that
 * passes is analyzed as the loader analyzes it (its permutation, ordering
 * and amalgamation settings as the options; the pattern a tridiagonal one
 * of its n, up to 4096 rows, since a forged fingerprint cannot be met):
 * every forged field is refused with a message or analyzed, never a crash,
 * a hang or an allocation beyond the memory budget. */
#include <unistd.h>

#include "analysis_file.h"
#include "api.h"
#include "fuzz_util.h"

static char path[64];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_limit_memory();
    snprintf(path, sizeof path, "/tmp/sylva-fuzz-analysis-%ld.sya", (long)getpid());
    return 0;
}

/* The tridiagonal pattern of order n, with values (an SPD matrix). */
static sylva_matrix *tridiagonal(int64_t n)
{
    int64_t *cp = malloc((size_t)(n + 1) * sizeof *cp), *ri = malloc((size_t)(2 * n + 1) * sizeof *ri);
    double *v = malloc((size_t)(2 * n + 1) * sizeof *v);
    if (!cp || !ri || !v) abort();
    int64_t nz = 0;
    for (int64_t j = 0; j < n; j++) {
        cp[j] = nz;
        ri[nz] = j;
        v[nz++] = 4;
        if (j + 1 < n) ri[nz] = j + 1, v[nz++] = -1;
    }
    cp[n] = nz;
    sylva_matrix *A = NULL;
    int st = sylva_matrix_from_csc(n, cp, ri, v, 1, &A);
    FUZZ_ASSERT(st == SYLVA_OK, "tridiagonal %lld: %s", (long long)n, sylva_last_error());
    free(cp);
    free(ri);
    free(v);
    return A;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f) != 0) abort();
    sylva__analysis_record r, m;
    sylva__clear_error();
    int st = sylva__analysis_file_read(path, &r);
    FUZZ_ASSERT(st == SYLVA_OK || (r.perm == NULL && *sylva__last_error()), "read failed (%d) without a message", st);
    sylva__clear_error();
    int sm = sylva__analysis_record_unpack(data, size, path, &m);
    FUZZ_ASSERT(sm == st, "the file reader says %d, the in-memory check %d", st, sm);
    if (sm == SYLVA_OK) {
        FUZZ_ASSERT(m.n == r.n && m.nnz == r.nnz && m.pattern_hash == r.pattern_hash &&
                        (m.n == 0 || !memcmp(m.perm, r.perm, (size_t)m.n * sizeof *m.perm)),
                    "the two readers disagree on the record");
        free(m.perm);
    }
    if (st == SYLVA_OK && r.n >= 1 && r.n <= 4096) {
        sylva_matrix *A = tridiagonal(r.n);
        sylva_options o;
        sylva__options_of_record(NULL, &r, &o);
        sylva_analysis_t *an = NULL;
        sylva__clear_error();
        int sa = sylva_analyze(A, &o, &an, NULL);
        FUZZ_ASSERT(sa == SYLVA_OK ? an != NULL : an == NULL && *sylva__last_error(),
                    "analysis of a loaded record: %d without a message", sa);
        sylva_analysis_free(an);
        sylva_matrix_free(A);
    }
    if (st == SYLVA_OK) free(r.perm);
    return 0;
}
