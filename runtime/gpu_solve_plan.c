/* gpu_solve_plan.c — builds the GPU solve's blobs (gpu_solve_plan.h): the
 * fronts sorted by height (children before parents; ties by front number,
 * so the order is the same in every run), each with its sizes, first
 * column, group, offset in the group's L slice, CB rows, parent record and
 * number of children, and the two sweeps' item lists
 * (kernels/solve_items.c). O(Σ m) once per pattern; fails only on memory
 * or on sizes beyond 32-bit ints.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_solve_plan.h"

static int64_t align16(int64_t x) { return (x + 15) & ~(int64_t)15; }

#define AT(type, blob, off) ((type *)((char *)(blob) + (off)))

/* Fronts in level order: a counting sort by height (stable: by number). */
static void level_order(const sylva__tree *t, int64_t *order, int *level_ptr)
{
    int64_t H = t->height;
    for (int64_t h = 0; h <= H; h++) level_ptr[h] = 0;
    for (int64_t f = 0; f < t->nfronts; f++) level_ptr[t->fronts[f].height + 1]++;
    for (int64_t h = 0; h < H; h++) level_ptr[h + 1] += level_ptr[h];
    int64_t *pos = order + t->nfronts; /* scratch: H entries after order */
    for (int64_t h = 0; h < H; h++) pos[h] = level_ptr[h];
    for (int64_t f = 0; f < t->nfronts; f++) order[pos[t->fronts[f].height]++] = f;
}

static void layout(int64_t F, int64_t nr, int64_t n, int64_t nif, int64_t nib, sylva__solve_layout *y)
{
    int64_t o = 0, i4 = (int64_t)sizeof(int), i8 = (int64_t)sizeof(int64_t);
#define SYLVA_PUT(field, count, size) (y->field = o, o = align16(o + (count) * (size)))
    SYLVA_PUT(m, F, i4);
    SYLVA_PUT(k, F, i4);
    SYLVA_PUT(large, F, i4);
    SYLVA_PUT(group, F, i4);
    SYLVA_PUT(parent, F, i4);
    SYLVA_PUT(nchild, F, i4);
    SYLVA_PUT(nt, F, i4);
    SYLVA_PUT(nuf, F, i4);
    SYLVA_PUT(nub, F, i4);
    SYLVA_PUT(fitems, 2 * nif, i4);
    SYLVA_PUT(bitems, 2 * nib, i4);
    SYLVA_PUT(col, F, i8);
    SYLVA_PUT(lofs, F, i8);
    SYLVA_PUT(rofs, F, i8);
    SYLVA_PUT(rows, nr, i8);
    SYLVA_PUT(perm, n, i8);
#undef SYLVA_PUT
    y->bytes = o > 0 ? o : 16;
}

int sylva__gpu_solve_plan_build(const sylva__plan *pl, sylva__gpu_solve_plan **out)
{
    *out = NULL;
    const sylva__tree *t = pl->tree;
    int64_t F = t->nfronts, H = F > 0 ? t->height : 0, nr = 0;
    if (F > INT_MAX || pl->ngroups > INT_MAX || t->max_m > INT_MAX)
        return sylva__fail(SYLVA_ERR_UNSUPPORTED, "%lld fronts, %lld groups, fronts of %lld rows: too "
                           "large for the GPU solve", (long long)F, (long long)pl->ngroups, (long long)t->max_m);
    for (int64_t f = 0; f < F; f++) nr += t->fronts[f].m - t->fronts[f].k;
    sylva__gpu_solve_plan *gs = sylva__calloc(1, sizeof *gs);
    int64_t *order = sylva__malloc((size_t)(F + H + 1), sizeof *order);
    int64_t *record = sylva__malloc((size_t)F + 1, sizeof *record);
    int *sizes = sylva__malloc((size_t)(6 * F + 1), sizeof *sizes);
    int rc = SYLVA_ERR_NO_MEMORY;
    if (!gs || !order || !record || !sizes) goto fail;
    gs->ints = sylva__malloc((size_t)(H + 1), sizeof *gs->ints);
    if (!gs->ints) goto fail;
    sylva__solve_desc *d = &gs->desc;
    d->n = t->n;
    d->nfronts = (int)F;
    d->nlevels = (int)H;
    d->ngroups = (int)pl->ngroups;
    int *level_ptr = gs->ints;
    level_order(t, order, level_ptr);
    int *m = sizes, *k = m + F, *par = k + F, *nt = par + F, *nuf = nt + F, *nub = nuf + F;
    for (int64_t i = 0; i < F; i++) record[order[i]] = i;
    for (int64_t i = 0; i < F; i++) {
        const sylva__front *fr = &t->fronts[order[i]];
        m[i] = (int)fr->m;
        k[i] = (int)fr->k;
        par[i] = fr->parent >= 0 ? (int)record[fr->parent] : -1;
    }
    rc = sylva__solve_items((int)F, m, k, par, nt, nuf, nub, NULL, NULL, &d->nitems_f, &d->nitems_b,
                            &d->ntop_f, &d->ntop_b);
    if (rc != SYLVA_OK) goto fail;
    rc = SYLVA_ERR_NO_MEMORY;
    layout(F, nr, t->n, d->nitems_f, d->nitems_b, &d->lay);
    gs->blob = aligned_alloc(64, (size_t)((d->lay.bytes + 63) / 64 * 64));
    if (!gs->blob) goto fail;
    memset(gs->blob, 0, (size_t)d->lay.bytes);
    const sylva__solve_layout *y = &d->lay;
    memcpy(AT(int, gs->blob, y->m), m, (size_t)F * sizeof(int));
    memcpy(AT(int, gs->blob, y->k), k, (size_t)F * sizeof(int));
    memcpy(AT(int, gs->blob, y->parent), par, (size_t)F * sizeof(int));
    rc = sylva__solve_items((int)F, m, k, par, AT(int, gs->blob, y->nt), AT(int, gs->blob, y->nuf),
                            AT(int, gs->blob, y->nub), AT(int, gs->blob, y->fitems), AT(int, gs->blob, y->bitems),
                            &d->nitems_f, &d->nitems_b, &d->ntop_f, &d->ntop_b);
    if (rc != SYLVA_OK) goto fail;
    int64_t ri = 0;
    for (int64_t i = 0; i < F; i++) {
        int64_t f = order[i], g = pl->front_group[f], r = t->fronts[f].m - t->fronts[f].k;
        const sylva__front *fr = &t->fronts[f];
        AT(int, gs->blob, y->large)[i] = pl->large[g] != 0;
        AT(int, gs->blob, y->group)[i] = (int)g;
        AT(int, gs->blob, y->nchild)[i] = (int)(t->child_ptr[f + 1] - t->child_ptr[f]);
        AT(int64_t, gs->blob, y->col)[i] = fr->first_col;
        AT(int64_t, gs->blob, y->lofs)[i] = pl->l_off[f] - pl->l_off[pl->front_list[pl->group_ptr[g]]];
        AT(int64_t, gs->blob, y->rofs)[i] = ri;
        memcpy(AT(int64_t, gs->blob, y->rows) + ri, t->rows + fr->row_off + fr->k, (size_t)r * sizeof(int64_t));
        ri += r;
        if (r > d->max_cb_rows) d->max_cb_rows = r;
    }
    memcpy(AT(int64_t, gs->blob, y->perm), t->perm, (size_t)t->n * sizeof(int64_t));
    d->host_blob = gs->blob;
    d->level_ptr = level_ptr;
    free(order);
    free(record);
    free(sizes);
    *out = gs;
    return SYLVA_OK;
fail:
    free(order);
    free(record);
    free(sizes);
    sylva__gpu_solve_plan_free(gs);
    return rc;
}

int sylva__gpu_solve_plan_pattern(sylva__gpu_solve_plan *gs, const sylva__full_pattern *fp)
{
    if (gs->pattern) return SYLVA_OK;
    int64_t i8 = (int64_t)sizeof(int64_t), o = 0;
    gs->pat_rowptr = o;
    o = align16(o + (fp->n + 1) * i8);
    gs->pat_colind = o;
    o = align16(o + fp->nnz * i8);
    gs->pat_valind = o;
    o = align16(o + fp->nnz * i8);
    gs->pattern_bytes = o > 0 ? o : 16;
    gs->pattern = aligned_alloc(64, (size_t)((gs->pattern_bytes + 63) / 64 * 64));
    if (!gs->pattern) return SYLVA_ERR_NO_MEMORY;
    memcpy(AT(int64_t, gs->pattern, gs->pat_rowptr), fp->rowptr, (size_t)(fp->n + 1) * sizeof(int64_t));
    memcpy(AT(int64_t, gs->pattern, gs->pat_colind), fp->colind, (size_t)fp->nnz * sizeof(int64_t));
    memcpy(AT(int64_t, gs->pattern, gs->pat_valind), fp->valind, (size_t)fp->nnz * sizeof(int64_t));
    return SYLVA_OK;
}

void sylva__gpu_solve_plan_free(sylva__gpu_solve_plan *gs)
{
    if (!gs) return;
    free(gs->blob);
    free(gs->pattern);
    free(gs->ints);
    free(gs);
}
