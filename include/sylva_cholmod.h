/* sylva_cholmod.h — input from CHOLMOD: wrap a cholmod_sparse (long-integer
 * interface, cholmod_l_*) as a sylva_matrix. Separate from sylva.h so that
 * programs that do not use CHOLMOD need not see its header. */
#ifndef SYLVA_CHOLMOD_H
#define SYLVA_CHOLMOD_H

#include <cholmod.h>

#include "sylva.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Copy a symmetric (stype ≠ 0) or square unsymmetric-storage (stype = 0,
 * checked numerically symmetric) real cholmod_sparse with SuiteSparse_long
 * indices into a new sylva_matrix (lower triangle). */
int sylva_matrix_from_cholmod(const cholmod_sparse *S, sylva_matrix **A);

/* The other way: fill *S as a cholmod_sparse that views A's arrays (lower,
 * stype −1, SuiteSparse_long indices, sorted, packed; CHOLMOD_PATTERN when
 * A has no values or float32 values, which CHOLMOD 3 cannot hold). Nothing is copied: S is valid while A is, and must not
 * be freed with cholmod_l_free_sparse. */
void sylva_matrix_cholmod_view(const sylva_matrix *A, cholmod_sparse *S);

#ifdef __cplusplus
}
#endif
#endif
