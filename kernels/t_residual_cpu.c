/* t_residual_cpu.c — the refinement residual for one scalar type of the
 * vectors (a precision template, core/precision.h; contract in
 * residual_cpu.h). */
#include "precision.h"

void SYLVA_TNAME(residual_cpu)(int64_t row0, int64_t row1, const int64_t *rowptr,
                               const int64_t *colind, const int64_t *valind, const double *values,
                               const int64_t *perm, int64_t nrhs, const Scalar *X, int64_t ldx,
                               const Scalar *B, int64_t ldb, Scalar *R, int64_t ldr, double *omega)
{
    for (int64_t c = 0; c < nrhs; c++) {
        const Scalar *x = X + c * ldx, *b = B + c * ldb;
        Scalar *r = R + c * ldr;
        double worst = 0;
        for (int64_t i = row0; i < row1; i++) {
            double ax = 0, aax = 0;
            for (int64_t q = rowptr[i]; q < rowptr[i + 1]; q++) {
                int64_t j = perm ? perm[colind[q]] : colind[q];
                double t = values[valind[q]] * (double)x[j];
                ax += t;
                aax += t < 0 ? -t : t;
            }
            int64_t ui = perm ? perm[i] : i;
            double bi = (double)b[ui], ri = bi - ax;
            r[ui] = (Scalar)ri;
            double w = sylva__omega_ratio(ri, aax + (bi < 0 ? -bi : bi));
            if (w != w || w > worst) worst = w; /* once NaN, it stays */
        }
        omega[c] = worst;
    }
}
