/* alloc.c — malloc/calloc that check count × size for overflow and record
 * SYLVA_ERR_NO_MEMORY with the size on failure, and the size of a scalar
 * type (contract in core.h). */
#include <stdint.h>
#include <stdlib.h>

#include "core.h"

void *sylva__malloc(size_t count, size_t size)
{
    if (size != 0 && count > SIZE_MAX / size) {
        sylva__fail(SYLVA_ERR_NO_MEMORY, "allocation of %zu x %zu bytes overflows", count, size);
        return NULL;
    }
    size_t bytes = count * size;
    void *p = malloc(bytes > 0 ? bytes : 1);
    if (!p) sylva__fail(SYLVA_ERR_NO_MEMORY, "out of memory allocating %zu bytes", bytes);
    return p;
}

void *sylva__calloc(size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (!p) sylva__fail(SYLVA_ERR_NO_MEMORY, "out of memory allocating %zu x %zu bytes", count, size);
    return p;
}

size_t sylva__dtype_size(sylva_dtype dtype)
{
    switch (dtype) {
    case SYLVA_FLOAT64: return sizeof(double);
    case SYLVA_FLOAT32: return sizeof(float);
    }
    return 0;
}
