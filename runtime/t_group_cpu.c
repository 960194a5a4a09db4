/* t_group_cpu.c — the CPU twin of the group task for one scalar type (a
 * precision template, core/precision.h): for each front of a group, children
 * first, assemble A's entries and the children's CBs into the front, then
 * partially factor it (POTRF, TRSM, SYRK) — or only assemble it, for a tiled
 * large front whose tile tasks factor it. A front whose pivot fails records
 * LAPACK's info in front_info; fronts above a failed one are skipped, so a
 * failure stops the useful work but never faults.
 */
#include "precision.h"

static Scalar *SYLVA_TNAME(child_cb)(void *buffers[], const sylva__group_args *a, Scalar *scratch,
                                     int64_t c)
{
    const sylva__plan *pl = a->plan;
    if (pl->cb_internal[c]) return scratch + pl->cb_off[c];
    Scalar *pool = sylva__buf_ptr(buffers[a->buf_child0 + pl->cb_slot[c]]);
    return pool + pl->cb_off[c];
}

void SYLVA_TNAME(group_cpu)(void *buffers[], const sylva__group_args *a)
{
    const sylva__plan *pl = a->plan;
    const sylva__tree *t = pl->tree;
    const Scalar *Av = sylva__buf_ptr(buffers[0]);
    Scalar *Lpool = sylva__buf_ptr(buffers[1]);
    Scalar *cbpool = a->buf_cb >= 0 ? sylva__buf_ptr(buffers[a->buf_cb]) : NULL;
    int64_t g = a->group, first = pl->front_list[pl->group_ptr[g]];
    int64_t lbase = pl->l_off[first];
    /* Internal CBs: in the workspace buffer when the task has one (GPU
     * modes, where a task never allocates), else allocated here. */
    Scalar *scratch = NULL, *own = NULL;
    if (pl->scratch_size[g] > 0 && a->buf_work >= 0) {
        scratch = sylva__buf_ptr(buffers[a->buf_work]);
    } else if (pl->scratch_size[g] > 0) {
        scratch = own = sylva__host_alloc((size_t)pl->scratch_size[g], sizeof *scratch);
        if (!scratch) {
            for (int64_t q = pl->group_ptr[g]; q < pl->group_ptr[g + 1]; q++)
                a->front_info[pl->front_list[q]] = SYLVA__FRONT_NO_MEMORY;
            __atomic_store_n(a->failed, 1, __ATOMIC_RELAXED);
            return;
        }
    }
    for (int64_t q = pl->group_ptr[g]; q < pl->group_ptr[g + 1]; q++) {
        int64_t f = pl->front_list[q];
        const sylva__front *fr = &t->fronts[f];
        int64_t r = fr->m - fr->k;
        int skip = 0;
        for (int64_t c = t->child_ptr[f]; c < t->child_ptr[f + 1]; c++)
            if (a->front_info[t->child_list[c]] != SYLVA__FRONT_OK) skip = 1;
        if (skip) {
            a->front_info[f] = SYLVA__FRONT_SKIPPED;
            continue;
        }
        Scalar *P = Lpool + (pl->l_off[f] - lbase);
        Scalar *C = r ? (pl->cb_internal[f] ? scratch : cbpool) + pl->cb_off[f] : NULL;
        memset(P, 0, (size_t)(fr->m * fr->k) * sizeof *P);
        if (r) memset(C, 0, (size_t)(r * r) * sizeof *C);
        SYLVA_TNAME(scatter_add_cpu)(t->amap_ptr[f + 1] - t->amap_ptr[f],
                                     t->amap_src + t->amap_ptr[f], t->amap_dst + t->amap_ptr[f], Av,
                                     P);
        for (int64_t c = t->child_ptr[f]; c < t->child_ptr[f + 1]; c++) {
            int64_t ch = t->child_list[c];
            const sylva__front *cf = &t->fronts[ch];
            int64_t mc = cf->m - cf->k;
            SYLVA_TNAME(extend_add_cpu)(mc, SYLVA_TNAME(child_cb)(buffers, a, scratch, ch), mc,
                                        t->relmap + cf->row_off + cf->k, fr->k, P, fr->m, C, r);
        }
        if (a->factor)
            a->front_info[f] = SYLVA_TNAME(front_factor_cpu)(fr->m, fr->k, P, fr->m, C, r);
    }
    sylva__host_unmap(own, (size_t)pl->scratch_size[g] * sizeof *scratch);
}
