/* error.h — internal error reporting shared by every layer.
 *
 * sylva__fail() records a printf-style message for the calling thread
 * (thread-local, read back by sylva_last_error()) and returns the status, so
 * a failing path is `return sylva__fail(SYLVA_ERR_FORMAT, "%s:%lld: ...", ...)`.
 */
#ifndef SYLVA_IO_ERROR_H
#define SYLVA_IO_ERROR_H

#include "sylva.h"

#if defined(__GNUC__)
#define SYLVA_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define SYLVA_PRINTF(a, b)
#endif

int sylva__fail(int status, const char *fmt, ...) SYLVA_PRINTF(2, 3);
void sylva__clear_error(void);

/* malloc/calloc that record SYLVA_ERR_NO_MEMORY on failure (they return NULL;
 * the caller returns SYLVA_ERR_NO_MEMORY). Sizes are counts × element size,
 * checked for overflow. */
void *sylva__malloc(size_t count, size_t size);
void *sylva__calloc(size_t count, size_t size);

#endif
