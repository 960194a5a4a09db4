/* error.c — the per-thread last error message and the status table (names
 * and sentences from SYLVA_STATUS_MAP in sylva.h). Never fails: a message
 * that does not fit is truncated. */
#include <stdarg.h>
#include <stdio.h>

#include "core.h"

static _Thread_local char last_message[1024];

const char *sylva__status_name(int status)
{
    switch (status) {
#define SYLVA_X_NAME(name, value, short_name, text) case name: return short_name;
        SYLVA_STATUS_MAP(SYLVA_X_NAME)
#undef SYLVA_X_NAME
    default: return "unknown";
    }
}

const char *sylva__strerror(int status)
{
    switch (status) {
#define SYLVA_X_TEXT(name, value, short_name, text) case name: return text;
        SYLVA_STATUS_MAP(SYLVA_X_TEXT)
#undef SYLVA_X_TEXT
    default: return "unknown status";
    }
}

const char *sylva__last_error(void) { return last_message; }

int sylva__fail(int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_message, sizeof last_message, fmt, ap);
    va_end(ap);
    return status;
}

void sylva__clear_error(void) { last_message[0] = '\0'; }
