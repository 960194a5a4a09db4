/* fuzz_util.h — what the libFuzzer targets share: the input as NUL-terminated
 * text (the readers look one byte past a token, as they do on a loaded
 * file), and FUZZ_ASSERT, which aborts (a finding for libFuzzer, a failed
 * test for the corpus replay) with the condition and a message. */
#ifndef SYLVA_FUZZ_UTIL_H
#define SYLVA_FUZZ_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_ASSERT(cond, ...)                                                                     \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: FUZZ_ASSERT(%s) failed: ", __FILE__, __LINE__, #cond);         \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fprintf(stderr, "\n");                                                                 \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

/* A malloc'd copy of data[0..size) followed by '\0'. */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
    char *t = malloc(size + 1);
    if (!t) abort();
    if (size) memcpy(t, data, size);
    t[size] = '\0';
    return t;
}

/* Arrays sized by the input stay under libFuzzer's malloc limit: sylva's
 * memory budget (core/mem_budget.c) is set below it. */
static inline void fuzz_limit_memory(void) { setenv("SYLVA_MEMORY_LIMIT", "1G", 1); }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

#endif
