/* refine.c — iterative refinement of one block of solutions, the same loop
 * wherever x lives (the operations are the host's or the GPU's,
 * runtime_internal.h): r = b − A x with the componentwise backward error
 * ω = max_i |r_i| / (|A||x| + |b|)_i of each column, d = A⁻¹ r, x += d.
 * N > 0: exactly N steps. AUTO: as LAPACK's xPORFS, stop once the worst
 * column's ω is at most SYLVA_REFINE_TARGET·ε, once a step fails to halve
 * it (a step that made it worse is undone, unlike xPORFS: the solution
 * returned is the best one seen), or after SYLVA_REFINE_AUTO_STEPS steps.
 * A NaN in ω stops the automatic mode. Fails only when an operation fails.
 */
#include "runtime_internal.h"

static double worst(const double *omega, int64_t nc)
{
    double w = 0;
    for (int64_t c = 0; c < nc; c++)
        if (omega[c] != omega[c] || omega[c] > w) w = omega[c];
    return w;
}

int sylva__refine(const sylva__refine_ops *ops, int refine, double eps, int64_t nc, double *omega,
                  int *steps, double *before, double *after)
{
    *steps = 0;
    int autom = refine == SYLVA_REFINE_AUTO;
    int max = autom ? SYLVA_REFINE_AUTO_STEPS : refine;
    int status = ops->residual(ops->ctx, omega);
    if (status) return status;
    double cur = worst(omega, nc);
    *before = cur;
    for (int s = 0; s < max; s++) {
        if (autom && !(cur > SYLVA_REFINE_TARGET * eps)) break; /* reached, or NaN */
        if ((status = ops->solve(ops->ctx)) || (status = ops->update(ops->ctx, 1))) return status;
        (*steps)++;
        if ((status = ops->residual(ops->ctx, omega))) return status;
        double w = worst(omega, nc);
        if (autom && !(w <= cur)) { /* worse (or NaN): back to the previous solution */
            (*steps)--;
            status = ops->update(ops->ctx, -1);
            break;
        }
        int halved = w <= cur / 2;
        cur = w;
        if (autom && !halved) break;
    }
    *after = cur;
    return status;
}
