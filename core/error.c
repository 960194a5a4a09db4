/* error.c — the per-thread last error message and the status table (names
 * and sentences from SYLVA_STATUS_MAP in sylva.h). Never fails: a message
 * that does not fit is truncated. Messages quote bytes of input files (a
 * bad value, a banner word), so control bytes are written as \xHH: a
 * hostile file cannot reach the terminal that prints the message (clear
 * it, set its title). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

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

void sylva__escape_controls(char *dst, size_t cap, const char *src)
{
    size_t k = 0;
    for (const unsigned char *p = (const unsigned char *)src; *p && k + 1 < cap; p++) {
        if (*p < 0x20 || *p == 0x7f) {
            if (k + 5 > cap) break;
            k += (size_t)snprintf(dst + k, cap - k, "\\x%02x", *p);
        } else {
            dst[k++] = (char)*p;
        }
    }
    if (cap) dst[k < cap ? k : cap - 1] = '\0';
}

const char *sylva__exact(char *buf, size_t cap, double v)
{
    for (int digits = 15; digits <= 17; digits++) {
        snprintf(buf, cap, "%.*g", digits, v);
        if (strtod(buf, NULL) == v) break;
    }
    return buf;
}

int sylva__fail(int status, const char *fmt, ...)
{
    char raw[sizeof last_message];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    sylva__escape_controls(last_message, sizeof last_message, raw);
    return status;
}

void sylva__clear_error(void) { last_message[0] = '\0'; }
