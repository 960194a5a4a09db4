/* solve_items_cpu.c — the workspace layout of a GPU solve, and the CPU
 * twin of gpu_solve.cu (contract in gpu_solve.h): the same blob's items
 * in their list order, each doing what the GPU does with it (a folded
 * front, and each leaf of a LEAF item, with the CPU kernels of
 * front_cpu.h; triangle and update items with plain loops over their
 * blocks). It exists to test the blob and
 * the item lists without a GPU: an item left out, listed twice or listed
 * before what it needs gives a wrong solution. The CPU solve itself runs
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
    /* Per column chunk: three counters a front, and backward with a top
     * one a pivot (its per-pivot-chunk counters, gpu_solve_flow.cu). The
     * two sweeps' sets back to back (sylva__gpu_solve_begin zeroes both). */
    int64_t chunks = (nrhs + SYLVA_SOLVE_COLS - 1) / SYLVA_SOLVE_COLS, per_chunk = 3 * (int64_t)d->nfronts;
    w->flow = o;
    o += (size_t)(per_chunk * chunks + SYLVA_SOLVE_TICKETS) * sizeof(int);
    if (d->ntop_b > 0) per_chunk += d->n;
    w->flowb = o;
    o = round_up(o + (size_t)(per_chunk * chunks + SYLVA_SOLVE_TICKETS) * sizeof(int));
    w->bad = o;
    o = round_up(o + (size_t)d->nfronts * sizeof(int));
    w->badval = o;
    o = round_up(o + (size_t)d->nfronts * sizeof(double));
    w->plo = o;
    o = round_up(o + (size_t)d->nfronts * sizeof(double));
    w->phi = o;
    o = round_up(o + (size_t)d->nfronts * sizeof(double));
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

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

/* One front as an item sees it. */
typedef struct front_at {
    int64_t m, k, r;
    const double *L;    /* ld m */
    double *X1;         /* its pivot rows of X (ld n) */
    const int64_t *rows; /* its CB rows */
} front_at;

/* Forward triangle block b (of tb rows): its rows less L[rows, earlier
 * pivots] · X1, then solved with their diagonal block. */
static void tri_forward(const front_at *f, int64_t b, int64_t tb, int64_t n, int64_t nrhs)
{
    int64_t r0 = b * tb, jb = min64(tb, f->k - r0), m = f->m;
    for (int64_t c = 0; c < nrhs; c++) {
        double *x = f->X1 + c * n;
        for (int64_t i = r0; i < r0 + jb; i++) {
            double acc = 0;
            for (int64_t j = 0; j < r0; j++) acc += f->L[i + j * m] * x[j];
            x[i] -= acc;
        }
        for (int64_t j = r0; j < r0 + jb; j++) {
            x[j] /= f->L[j + j * m];
            for (int64_t i = j + 1; i < r0 + jb; i++) x[i] -= f->L[i + j * m] * x[j];
        }
    }
}

/* Backward triangle block b: its rows less L[later pivots, rows]ᵀ · X1,
 * then solved with their diagonal block transposed. */
static void tri_backward(const front_at *f, int64_t b, int64_t tb, int64_t n, int64_t nrhs)
{
    int64_t r0 = b * tb, jb = min64(tb, f->k - r0), m = f->m;
    for (int64_t c = 0; c < nrhs; c++) {
        double *x = f->X1 + c * n;
        for (int64_t j = r0; j < r0 + jb; j++) {
            double acc = 0;
            for (int64_t i = r0 + jb; i < f->k; i++) acc += f->L[i + j * m] * x[i];
            x[j] -= acc;
        }
        for (int64_t j = r0 + jb - 1; j >= r0; j--) {
            for (int64_t i = j + 1; i < r0 + jb; i++) x[j] -= f->L[i + j * m] * x[i];
            x[j] /= f->L[j + j * m];
        }
    }
}

/* Forward update chunk u: X[rows] −= L21[row chunk, pivot chunk] · X1. */
static void upd_forward(const front_at *f, int64_t u, double *X, int64_t n, int64_t nrhs)
{
    int64_t nku = (f->k + SYLVA_SOLVE_UK - 1) / SYLVA_SOLVE_UK;
    int64_t i0 = u / nku * SYLVA_SOLVE_UR, j0 = u % nku * SYLVA_SOLVE_UK;
    int64_t i1 = min64(f->r, i0 + SYLVA_SOLVE_UR), j1 = min64(f->k, j0 + SYLVA_SOLVE_UK);
    for (int64_t c = 0; c < nrhs; c++)
        for (int64_t i = i0; i < i1; i++) {
            double acc = 0;
            for (int64_t j = j0; j < j1; j++) acc += f->L[f->k + i + j * f->m] * f->X1[j + c * n];
            X[f->rows[i] + c * n] -= acc;
        }
}

/* Backward update chunk u: X1[pivot chunk] −= L21[row chunk, pivot chunk]ᵀ · X[rows]. */
static void upd_backward(const front_at *f, int64_t u, const double *X, int64_t n, int64_t nrhs)
{
    int64_t nbr = (f->r + SYLVA_SOLVE_BR - 1) / SYLVA_SOLVE_BR;
    int64_t j0 = u / nbr * SYLVA_SOLVE_BK, i0 = u % nbr * SYLVA_SOLVE_BR;
    int64_t j1 = min64(f->k, j0 + SYLVA_SOLVE_BK), i1 = min64(f->r, i0 + SYLVA_SOLVE_BR);
    for (int64_t c = 0; c < nrhs; c++)
        for (int64_t j = j0; j < j1; j++) {
            double acc = 0;
            for (int64_t i = i0; i < i1; i++) acc += f->L[f->k + i + j * f->m] * X[f->rows[i] + c * n];
            f->X1[j + c * n] -= acc;
        }
}

/* A whole front (a FOLD item, or one leaf of a LEAF item), forward or
 * backward, through the CPU kernels; T holds its CB rows. */
static void fold(const front_at *f, int backward, double *X, int64_t n, int64_t nrhs, double *T)
{
    int64_t ldt = f->r > 0 ? f->r : 1;
    if (!backward) {
        sylva__d_front_solve_forward_cpu(f->m, f->k, f->L, f->m, nrhs, f->X1, n, 0, T, ldt);
        sylva__d_solve_scatter_sub_cpu(f->r, nrhs, f->rows, T, ldt, X, n);
    } else {
        sylva__d_solve_gather_cpu(f->r, nrhs, f->rows, X, n, T, ldt);
        sylva__d_front_solve_backward_cpu(f->m, f->k, f->L, f->m, nrhs, T, ldt, f->X1, n);
    }
}

void sylva__solve_items_cpu(const sylva__solve_desc *d, const void *blob, double *const *group_L,
                            int64_t nrhs, double *X, double *T)
{
    const sylva__solve_layout *y = &d->lay;
    const int *m = AT(int, y->m), *k = AT(int, y->k), *grp = AT(int, y->group);
    const int64_t *col = AT(int64_t, y->col), *lofs = AT(int64_t, y->lofs);
    const int64_t *rofs = AT(int64_t, y->rofs), *rows = AT(int64_t, y->rows);
    int64_t n = d->n;
    for (int sweep = 0; sweep < 2; sweep++) {
        const int *items = AT(int, sweep == 0 ? y->fitems : y->bitems);
        int count = sweep == 0 ? d->nitems_f : d->nitems_b;
        /* The top's items: the forward list's last, the backward's first. */
        int top0 = sweep == 0 ? count - d->ntop_f : 0, top1 = sweep == 0 ? count : d->ntop_b;
        for (int q = 0; q < count; q++) {
            int i = items[2 * q], code = items[2 * q + 1], idx = SYLVA_SOLVE_INDEX(code);
            int64_t tb = q >= top0 && q < top1 ? SYLVA_SOLVE_TOP_TB : SYLVA_SOLVE_TB;
            front_at f = {m[i], k[i], (int64_t)m[i] - k[i], group_L[grp[i]] + lofs[i], X + col[i], rows + rofs[i]};
            switch (SYLVA_SOLVE_KIND(code) * 2 + sweep) {
            case SYLVA_SOLVE_FOLD * 2:
            case SYLVA_SOLVE_FOLD * 2 + 1: fold(&f, sweep, X, n, nrhs, T); break;
            case SYLVA_SOLVE_LEAF * 2:
            case SYLVA_SOLVE_LEAF * 2 + 1:
                for (int g = i; g < i + idx; g++) {
                    front_at e = {m[g], k[g], (int64_t)m[g] - k[g], group_L[grp[g]] + lofs[g], X + col[g],
                                  rows + rofs[g]};
                    fold(&e, sweep, X, n, nrhs, T);
                }
                break;
            case SYLVA_SOLVE_TRI * 2: tri_forward(&f, idx, tb, n, nrhs); break;
            case SYLVA_SOLVE_TRI * 2 + 1: tri_backward(&f, idx, tb, n, nrhs); break;
            case SYLVA_SOLVE_UPD * 2: upd_forward(&f, idx, X, n, nrhs); break;
            default: upd_backward(&f, idx, X, n, nrhs); break;
            }
        }
    }
}
