/* options.c — sylva_default_options and the name tables users choose from:
 * orderings, modes, GPU mappings, and the batching policies of batching/'s
 * registry. */
#include <stddef.h>
#include <string.h>

#include "batching.h"

/* The public structs keep their size when they grow (new fields come out
 * of `reserved`): their LP64 sizes, checked at build time. */
_Static_assert(sizeof(void *) != 8 || sizeof(sylva_options) == 248, "sylva_options changed size");
_Static_assert(sizeof(void *) != 8 || sizeof(sylva_solve_info) == 232, "sylva_solve_info changed size");
_Static_assert(sizeof(void *) != 8 || sizeof(sylva_factor_info) == 264, "sylva_factor_info changed size");
_Static_assert(sizeof(void *) != 8 || sizeof(sylva_rank_info) == 112, "sylva_rank_info changed size");
/* Fields added out of `reserved` keep the earlier ones where they were. */
_Static_assert(sizeof(void *) != 8 || (offsetof(sylva_factor_info, ranks) == 176 &&
                                       offsetof(sylva_factor_info, direct) == 180 &&
                                       offsetof(sylva_factor_info, pivot_ratio) == 184),
               "sylva_factor_info's fields moved");

void sylva_default_options(sylva_options *o)
{
    memset(o, 0, sizeof *o);
    o->ordering = SYLVA_ORDERING_AUTO;
    o->user_perm = NULL;
    /* CHOLMOD's defaults for relaxed amalgamation. */
    o->nrelax[0] = 4;
    o->nrelax[1] = 16;
    o->nrelax[2] = 48;
    o->zrelax[0] = 0.8;
    o->zrelax[1] = 0.1;
    o->zrelax[2] = 0.05;
    o->policy = sylva__policy_default;
    o->small_front_rows = 0; /* automatic: see sylva_analyze */
    o->tile_rows = 256;
    o->batch_flops = 0; /* automatic: see sylva_analyze */
    o->ncpus = -1;
    o->ncuda = -1;
    o->scheduler = NULL;
    o->verbose = 0;
    o->precision = SYLVA_FLOAT64;
    o->mode = SYLVA_MODE_AUTO;
    o->device_memory = 0;
    o->refine = 0;
    o->solve_mode = SYLVA_SOLVE_AUTO;
    o->solve_block = 0; /* automatic: see sylva_solve_ex */
    o->gpu_map = SYLVA_GPU_MAP_SUBTREES;
    o->mpi = SYLVA_MPI_AUTO;
}

/* A name's index in a table of count names (−1 if absent), and back. */
static int name_index(const char *const *names, int count, const char *name)
{
    for (int i = 0; name && i < count; i++)
        if (!strcmp(name, names[i])) return i;
    return -1;
}

static const char *name_at(const char *const *names, int count, int i)
{
    return i >= 0 && i < count ? names[i] : "unknown";
}

#define NAMES(t) (t), (int)(sizeof(t) / sizeof(t)[0])

static const char *const gpu_map_names[] = {"subtrees", "scheduler"};
static const char *const mode_names[] = {"auto", "gpu", "hybrid", "cpu"};

int sylva_gpu_map_from_name(const char *name) { return name_index(NAMES(gpu_map_names), name); }
const char *sylva_gpu_map_name(int map) { return name_at(NAMES(gpu_map_names), map); }
int sylva_exec_mode_from_name(const char *name) { return name_index(NAMES(mode_names), name); }
const char *sylva_exec_mode_name(int mode) { return name_at(NAMES(mode_names), mode); }

const char *sylva_ordering_name(int ordering)
{
    switch (ordering) {
    case SYLVA_ORDERING_METIS: return "metis";
    case SYLVA_ORDERING_AMD: return "amd";
    case SYLVA_ORDERING_NATURAL: return "natural";
    case SYLVA_ORDERING_USER: return "user";
    case SYLVA_ORDERING_SCOTCH: return "scotch";
    case SYLVA_ORDERING_ND_PARALLEL: return "nd-parallel";
    case SYLVA_ORDERING_AUTO: return "auto";
    }
    return "unknown";
}

int sylva_ordering_from_name(const char *name)
{
    if (!name) return -1;
    if (!strcmp(name, "metis")) return SYLVA_ORDERING_METIS;
    if (!strcmp(name, "amd")) return SYLVA_ORDERING_AMD;
    if (!strcmp(name, "natural")) return SYLVA_ORDERING_NATURAL;
    if (!strcmp(name, "user")) return SYLVA_ORDERING_USER;
    if (!strcmp(name, "scotch")) return SYLVA_ORDERING_SCOTCH;
    if (!strcmp(name, "nd-parallel")) return SYLVA_ORDERING_ND_PARALLEL;
    if (!strcmp(name, "auto")) return SYLVA_ORDERING_AUTO;
    return -1;
}

const char *sylva_policy_name(int i)
{
    const sylva__policy *p = sylva__policy_at(i);
    return p ? p->name : NULL;
}

const char *sylva_policy_summary(int i)
{
    const sylva__policy *p = sylva__policy_at(i);
    return p ? p->summary : NULL;
}
