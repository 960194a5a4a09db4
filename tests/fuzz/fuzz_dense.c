/* fuzz_dense.c — the dense (Matrix Market array) reader on any bytes: a
 * success gives n × nrhs finite values; a failure leaves X NULL with a
 * message; nothing the size line declares makes it allocate more than the
 * text can hold (SYLVA_MEMORY_LIMIT and libFuzzer's malloc limit catch it). */
#include "fuzz_util.h"
#include "io_internal.h"

#include <math.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_limit_memory();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    int64_t n = -1, nrhs = -1;
    double *X = NULL;
    sylva__clear_error();
    int st = sylva__read_dense_buffer("fuzz.mtx", text, size, &n, &nrhs, &X);
    if (st == SYLVA_OK) {
        FUZZ_ASSERT(n >= 0 && nrhs >= 0 && X, "sizes %lld x %lld", (long long)n, (long long)nrhs);
        for (int64_t k = 0; k < n * nrhs; k++)
            FUZZ_ASSERT(isfinite(X[k]), "value %lld", (long long)k);
    } else {
        FUZZ_ASSERT(X == NULL && *sylva__last_error(), "failure %d without a message", st);
    }
    free(X);
    free(text);
    return 0;
}
