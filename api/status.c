/* status.c — the public status, version, clock and scalar-type helpers of
 * sylva.h, over core/. */
#include <string.h>

#include "core.h"

const char *sylva_status_name(int status) { return sylva__status_name(status); }

const char *sylva_strerror(int status) { return sylva__strerror(status); }

const char *sylva_last_error(void) { return sylva__last_error(); }

const char *sylva_version(void) { return SYLVA_VERSION_STRING; }

double sylva_wtime(void) { return sylva__now(); }

size_t sylva_dtype_size(sylva_dtype dtype) { return sylva__dtype_size(dtype); }

const char *sylva_dtype_name(sylva_dtype dtype)
{
    switch (dtype) {
    case SYLVA_FLOAT64: return "float64";
    case SYLVA_FLOAT32: return "float32";
    }
    return "unknown";
}

int sylva_dtype_from_name(const char *name)
{
    if (!name) return -1;
    if (!strcmp(name, "float64") || !strcmp(name, "double")) return SYLVA_FLOAT64;
    if (!strcmp(name, "float32") || !strcmp(name, "single")) return SYLVA_FLOAT32;
    return -1;
}
