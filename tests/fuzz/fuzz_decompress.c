/* fuzz_decompress.c — the loader's second step (io/decompress.c) on any
 * bytes, then the Matrix Market reader on what it gives: magic-byte
 * sniffing, gzip/bzip2/xz decompression from memory (several streams,
 * padding, truncation, corruption), the tar/zip/zstd refusals. What must
 * hold: a success leaves NUL-terminated data of the stated size and names
 * the codec; a failure releases the input and leaves a message naming the
 * file; nothing grows past the memory budget (SYLVA_MEMORY_LIMIT, 64 MB
 * here, and libFuzzer's malloc limit catch it). */
#include "fuzz_util.h"
#include "io_internal.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    setenv("SYLVA_MEMORY_LIMIT", "64M", 1);
    setenv("SYLVA_IO_THREADS", "1", 1);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sylva__file f = {fuzz_text(data, size), size, 0, "fuzz.in", ""};
    sylva__clear_error();
    int st = sylva__decode_file("fuzz.in", &f);
    if (st != SYLVA_OK) {
        FUZZ_ASSERT(f.data == NULL && !strncmp(sylva__last_error(), "fuzz.in", 7),
                    "failure %d kept the data or lacks the name: '%s'", st, sylva__last_error());
        return 0;
    }
    FUZZ_ASSERT(f.data && f.data[f.size] == '\0', "not NUL-terminated");
    FUZZ_ASSERT(f.compression != NULL, "no compression name");
    FUZZ_ASSERT(*f.compression || (f.size == size && !memcmp(f.data, data, size)),
                "plain data changed");
    sylva_matrix *A = NULL;
    st = sylva__mm_read_buffer(f.name, f.data, f.size, NULL, NULL, &A);
    FUZZ_ASSERT(st == SYLVA_OK ? A != NULL : A == NULL && *sylva__last_error(), "reader status %d",
                st);
    sylva__matrix_free(A);
    sylva__unload_file(&f);
    return 0;
}
