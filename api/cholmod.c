/* cholmod.c — the entry points of sylva_cholmod.h (CHOLMOD input), over io/. */
#include "io_cholmod.h"

int sylva_matrix_from_cholmod(const cholmod_sparse *S, sylva_matrix **A)
{
    sylva__clear_error();
    return sylva__matrix_from_cholmod(S, A);
}

void sylva_matrix_cholmod_view(const sylva_matrix *A, cholmod_sparse *S)
{
    sylva__matrix_cholmod_view(A, S);
}
