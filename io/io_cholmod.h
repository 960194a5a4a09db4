/* io_cholmod.h — the CHOLMOD side of io/ (kept apart from io.h so that only
 * the files that need cholmod.h see it): a cholmod_sparse copied into a
 * sylva_matrix, and a no-copy cholmod_sparse view of a sylva_matrix
 * (contracts in include/sylva_cholmod.h, whose public wrappers are in api/). */
#ifndef SYLVA_IO_CHOLMOD_H
#define SYLVA_IO_CHOLMOD_H

#include "io.h"
#include "sylva_cholmod.h"

int sylva__matrix_from_cholmod(const cholmod_sparse *S, sylva_matrix **A);
void sylva__matrix_cholmod_view(const sylva_matrix *A, cholmod_sparse *S);

#endif
