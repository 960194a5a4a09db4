/* gen_internal.h — what the generator files share (matrices/ only). */
#ifndef SYLVA_GEN_INTERNAL_H
#define SYLVA_GEN_INTERNAL_H

#include "core.h"
#include "sylva_gen.h"

typedef struct {
    int dx, dy, dz;
} sylva__gen_offset;

/* The stencil's offsets that point to higher-numbered nodes (the lower
 * triangle), in increasing index order; returns how many (at most 13). */
int sylva__gen_stencil(int dim, int points, sylva__gen_offset *offs);
/* Node pairs (p, p + d) inside the grid, summed over the offsets. */
int64_t sylva__gen_pairs(const sylva__gen_offset *offs, int noffs, int64_t nx, int64_t ny, int64_t nz);
int sylva__gen_check_grid(const char *who, int64_t nx, int64_t ny, int64_t nz, int64_t per_node,
                          int64_t *nodes);
/* A matrix with arrays for n columns and nnz entries, or NULL (no memory). */
sylva_matrix *sylva__gen_matrix(int64_t n, int64_t nnz);

#endif
