/* error.c — status names and messages (from SYLVA_STATUS_MAP in sylva.h) and
 * the per-thread last error message. Never fails: a message that does not fit
 * is truncated. */
#include "error.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static _Thread_local char last_message[1024];

const char *sylva_status_name(int status)
{
    switch (status) {
#define SYLVA_X_NAME(name, value, short_name, text) case name: return short_name;
        SYLVA_STATUS_MAP(SYLVA_X_NAME)
#undef SYLVA_X_NAME
    default: return "unknown";
    }
}

const char *sylva_strerror(int status)
{
    switch (status) {
#define SYLVA_X_TEXT(name, value, short_name, text) case name: return text;
        SYLVA_STATUS_MAP(SYLVA_X_TEXT)
#undef SYLVA_X_TEXT
    default: return "unknown status";
    }
}

const char *sylva_last_error(void) { return last_message; }

const char *sylva_version(void) { return SYLVA_VERSION_STRING; }

int sylva__fail(int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_message, sizeof last_message, fmt, ap);
    va_end(ap);
    return status;
}

void sylva__clear_error(void) { last_message[0] = '\0'; }

void *sylva__malloc(size_t count, size_t size)
{
    if (size != 0 && count > SIZE_MAX / size) {
        sylva__fail(SYLVA_ERR_NO_MEMORY, "allocation of %zu x %zu bytes overflows", count, size);
        return NULL;
    }
    size_t bytes = count * size;
    void *p = malloc(bytes > 0 ? bytes : 1);
    if (!p) sylva__fail(SYLVA_ERR_NO_MEMORY, "out of memory allocating %zu bytes", count * size);
    return p;
}

void *sylva__calloc(size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (!p) sylva__fail(SYLVA_ERR_NO_MEMORY, "out of memory allocating %zu x %zu bytes", count, size);
    return p;
}
