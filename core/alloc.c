/* alloc.c — malloc/calloc/realloc that check count × size for overflow and
 * record SYLVA_ERR_NO_MEMORY with the size on failure, large host buffers
 * that go back to the system when freed (mapped pages: malloc's arenas keep
 * freed blocks below its sliding mmap threshold, which the factorization's
 * many short-lived contribution blocks turn into resident garbage), the
 * size of a scalar type, and the allocation-failure hook of the tests (CHOLMOD's Tcov idea):
 * once armed, the k-th allocation through these functions fails (or every
 * one from the k-th on), so a test can walk every failure path. Disarmed,
 * the hook costs one relaxed atomic load per allocation. Contract in core.h. */
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "core.h"

static int fault_armed;      /* 1: count allocations (and fail one) */
static int fault_persistent; /* 1: every allocation from the k-th on fails */
static int64_t fault_at;     /* the failing allocation, 1-based; 0: count only */
static int64_t fault_count;  /* allocations since arming */

void sylva__alloc_fault_set(int64_t k, int persistent)
{
    __atomic_store_n(&fault_armed, 0, __ATOMIC_SEQ_CST);
    if (k < 0) return; /* disarmed: the count stays readable */
    __atomic_store_n(&fault_count, 0, __ATOMIC_SEQ_CST);
    fault_at = k;
    fault_persistent = persistent;
    __atomic_store_n(&fault_armed, 1, __ATOMIC_SEQ_CST);
}

int64_t sylva__alloc_fault_count(void) { return __atomic_load_n(&fault_count, __ATOMIC_SEQ_CST); }

/* 1 when the hook says this allocation fails. */
static int fault_now(void)
{
    if (!__atomic_load_n(&fault_armed, __ATOMIC_RELAXED)) return 0;
    int64_t c = __atomic_add_fetch(&fault_count, 1, __ATOMIC_SEQ_CST);
    return fault_at > 0 && (c == fault_at || (fault_persistent && c > fault_at));
}

void *sylva__malloc(size_t count, size_t size)
{
    if (size != 0 && count > SIZE_MAX / size) {
        sylva__fail(SYLVA_ERR_NO_MEMORY, "allocation of %zu x %zu bytes overflows", count, size);
        return NULL;
    }
    size_t bytes = count * size;
    void *p = fault_now() ? NULL : malloc(bytes > 0 ? bytes : 1);
    if (!p) sylva__fail(SYLVA_ERR_NO_MEMORY, "out of memory allocating %zu bytes", bytes);
    return p;
}

void *sylva__calloc(size_t count, size_t size)
{
    void *p = fault_now() ? NULL : calloc(count ? count : 1, size ? size : 1);
    if (!p) sylva__fail(SYLVA_ERR_NO_MEMORY, "out of memory allocating %zu x %zu bytes", count, size);
    return p;
}

void *sylva__realloc(void *old, size_t count, size_t size)
{
    if (size != 0 && count > SIZE_MAX / size) {
        sylva__fail(SYLVA_ERR_NO_MEMORY, "allocation of %zu x %zu bytes overflows", count, size);
        return NULL;
    }
    size_t bytes = count * size;
    void *p = fault_now() ? NULL : realloc(old, bytes > 0 ? bytes : 1);
    if (!p) sylva__fail(SYLVA_ERR_NO_MEMORY, "out of memory allocating %zu bytes", bytes);
    return p;
}

void *sylva__host_map(size_t bytes)
{
    if (bytes < SYLVA__HOST_MAP_MIN_BYTES) {
        void *p = NULL;
        return posix_memalign(&p, 64, bytes > 0 ? bytes : 1) == 0 ? p : NULL;
    }
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

void sylva__host_unmap(void *p, size_t bytes)
{
    if (!p) return;
    if (bytes < SYLVA__HOST_MAP_MIN_BYTES) free(p);
    else munmap(p, bytes);
}

void *sylva__host_alloc(size_t count, size_t size)
{
    if (size != 0 && count > SIZE_MAX / size) {
        sylva__fail(SYLVA_ERR_NO_MEMORY, "allocation of %zu x %zu bytes overflows", count, size);
        return NULL;
    }
    void *p = fault_now() ? NULL : sylva__host_map(count * size);
    if (!p) sylva__fail(SYLVA_ERR_NO_MEMORY, "out of memory allocating %zu bytes", count * size);
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
