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

#ifdef __cplusplus
}
#endif
#endif
