/* env_switch.c — the environment's on/off switches (SYLVA_FACTOR_DIRECT,
 * SYLVA_TREE_LAUNCH, SYLVA_FACTOR_PHASES, SYLVA_SOLVE_DIRECT, …): read once
 * into the caller's cache, "1" on, "0" off, anything else (or unset) the
 * default. Benign race: threads reading a switch at once all store the
 * same value. */
#include <stdlib.h>
#include <string.h>

#include "core.h"

int sylva__env_switch(const char *name, int dflt, int *cache)
{
    int v = __atomic_load_n(cache, __ATOMIC_RELAXED);
    if (v >= 0) return v;
    const char *e = getenv(name);
    v = e && !strcmp(e, "1") ? 1 : e && !strcmp(e, "0") ? 0 : dflt;
    __atomic_store_n(cache, v, __ATOMIC_RELAXED);
    return v;
}
