/* solve_levels_cpu.c — the workspace layout of a GPU solve, and the CPU
 * twin of gpu_solve.cu (contract in gpu_solve.h): the same blob, the same
 * level order and the same per-front steps (solve the pivot rows, subtract
 * L21·X1 from the front's rows; gather them and solve with L11ᵀ on the way
 * back) with the CPU kernels of front_cpu.h. It exists to test the blob
 * and the level schedule without a GPU; the CPU solve itself runs
 * runtime/'s pieces, which need no blob. */
#include "front_cpu.h"
#include "gpu_solve.h"

#define SOLVE_ALIGN 256

static size_t round_up(size_t x) { return (x + SOLVE_ALIGN - 1) / SOLVE_ALIGN * SOLVE_ALIGN; }

void sylva__solve_ws_layout(const sylva__solve_desc *d, int64_t nrhs, int refine, sylva__solve_ws *w)
{
    size_t o = 0, vec = (size_t)d->n * (size_t)nrhs * sizeof(double);
    w->Lp = o;
    o = round_up(o + (size_t)d->nfronts * sizeof(double *));
    w->gbase = o;
    o = round_up(o + (size_t)d->ngroups * sizeof(double *));
    w->bad = o;
    o = round_up(o + (size_t)d->nfronts * sizeof(int));
    w->badval = o;
    o = round_up(o + (size_t)d->nfronts * sizeof(double));
    w->T = o;
    o = round_up(o + (size_t)d->max_large_rows * (size_t)nrhs * sizeof(double));
    w->x = o;
    o = round_up(o + vec);
    w->b = w->r = w->d = w->omega = o;
    if (refine) {
        w->b = o;
        o = round_up(o + vec);
        w->r = o;
        o = round_up(o + vec);
        w->d = o;
        o = round_up(o + vec);
        w->omega = o;
        o = round_up(o + (size_t)nrhs * sizeof(double));
    }
    w->stage = o;
    o = round_up(o + vec);
    w->bytes = o > 0 ? o : SOLVE_ALIGN;
}

#define AT(type, off) ((const type *)((const char *)blob + (off)))

void sylva__solve_levels_cpu(const sylva__solve_desc *d, const void *blob, double *const *group_L,
                             int64_t nrhs, double *X, double *T)
{
    const sylva__solve_layout *y = &d->lay;
    const int *m = AT(int, y->m), *k = AT(int, y->k), *grp = AT(int, y->group);
    const int64_t *col = AT(int64_t, y->col), *lofs = AT(int64_t, y->lofs);
    const int64_t *rofs = AT(int64_t, y->rofs), *rows = AT(int64_t, y->rows);
    int64_t n = d->n;
    for (int l = 0; l < d->nlevels; l++)
        for (int f = d->level_ptr[l]; f < d->level_ptr[l + 1]; f++) {
            int64_t r = m[f] - k[f], ldt = r > 0 ? r : 1;
            const double *L = group_L[grp[f]] + lofs[f];
            sylva__d_front_solve_forward_cpu(m[f], k[f], L, m[f], nrhs, X + col[f], n, 0, T, ldt);
            sylva__d_solve_scatter_sub_cpu(r, nrhs, rows + rofs[f], T, ldt, X, n);
        }
    for (int l = d->nlevels - 1; l >= 0; l--)
        for (int f = d->level_ptr[l + 1] - 1; f >= d->level_ptr[l]; f--) {
            int64_t r = m[f] - k[f], ldt = r > 0 ? r : 1;
            const double *L = group_L[grp[f]] + lofs[f];
            sylva__d_solve_gather_cpu(r, nrhs, rows + rofs[f], X, n, T, ldt);
            sylva__d_front_solve_backward_cpu(m[f], k[f], L, m[f], nrhs, T, ldt, X + col[f], n);
        }
}
