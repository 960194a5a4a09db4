/* tree_maps.h — the assembly tree's index maps (relmap, amap_*), built on
 * nthreads threads from its fronts, rows, col2front and iperm (tree_maps.c).
 * The result does not depend on nthreads.
 */
#ifndef SYLVA_TREE_MAPS_H
#define SYLVA_TREE_MAPS_H

#include "frontal.h"

int sylva__tree_maps(sylva__tree *t, const sylva_matrix *A, int nthreads);

#endif
