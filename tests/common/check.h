/* check.h — the one test harness of sylva's C tests: CHECK(cond, fmt, ...)
 * prints file:line, the condition and a message when cond is false and
 * counts a failure; test_exit() prints the totals and returns the exit
 * status (0 when every check held, else the failure count, capped), so CTest
 * sees a failure; test_alloc() is malloc that ends the test (exit 2, a
 * message) instead of returning NULL. Header-only: each test is one small
 * program. */
#ifndef SYLVA_TESTS_CHECK_H
#define SYLVA_TESTS_CHECK_H

#include <stdio.h>
#include <stdlib.h>

static int test_failures = 0;
static int test_checks = 0;

#define CHECK(cond, ...)                                                                         \
    do {                                                                                         \
        test_checks++;                                                                           \
        if (!(cond)) {                                                                           \
            test_failures++;                                                                     \
            fprintf(stderr, "%s:%d: CHECK(%s) failed: ", __FILE__, __LINE__, #cond);             \
            fprintf(stderr, __VA_ARGS__);                                                        \
            fprintf(stderr, "\n");                                                               \
        }                                                                                        \
    } while (0)

static inline void *test_alloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "test: out of memory (%zu bytes)\n", bytes);
        exit(2);
    }
    return p;
}

static inline int test_exit(const char *name)
{
    printf("%s: %d checks, %d failures\n", name, test_checks, test_failures);
    return test_failures > 100 ? 100 : test_failures;
}

#endif
