/* codelet_group.c — the group task: for each front of a group, children
 * first, assemble A's entries and the children's CBs into the front, then
 * partially factor it (POTRF, TRSM, SYRK) — or only assemble it, for a
 * tiled large front whose tile tasks factor it. CPU twin here; buffers and
 * arguments as in runtime.h. A front whose pivot fails records LAPACK's info
 * in front_info; fronts above a failed one are skipped (−1), so a failure
 * stops the useful work but never faults.
 */
#include <stdlib.h>
#include <string.h>

#include "front_cpu.h"
#include "runtime.h"

static double *child_cb(void *buffers[], const sylva__group_args *a, double *scratch, int64_t c)
{
    const sylva__plan *pl = a->plan;
    if (pl->cb_internal[c]) return scratch + pl->cb_off[c];
    int first_child_buf = 2 + a->has_cb;
    double *pool = sylva__buf_ptr(buffers[first_child_buf + pl->cb_slot[c]]);
    return pool + pl->cb_off[c];
}

void sylva__group_cpu(void *buffers[], void *cl_arg)
{
    const sylva__group_args *a = cl_arg;
    const sylva__plan *pl = a->plan;
    const sylva__tree *t = pl->tree;
    const double *Av = sylva__buf_ptr(buffers[0]);
    double *Lpool = sylva__buf_ptr(buffers[1]);
    double *cbpool = a->has_cb ? sylva__buf_ptr(buffers[2]) : NULL;
    int64_t g = a->group, first = pl->front_list[pl->group_ptr[g]];
    int64_t lbase = pl->l_off[first];
    double *scratch = NULL;
    if (pl->scratch_size[g] > 0) {
        scratch = malloc((size_t)pl->scratch_size[g] * sizeof *scratch);
        if (!scratch) {
            /* Out of memory inside a task: mark the group failed (−2). */
            for (int64_t q = pl->group_ptr[g]; q < pl->group_ptr[g + 1]; q++)
                a->front_info[pl->front_list[q]] = -2;
            return;
        }
    }
    for (int64_t q = pl->group_ptr[g]; q < pl->group_ptr[g + 1]; q++) {
        int64_t f = pl->front_list[q];
        const sylva__front *fr = &t->fronts[f];
        int64_t r = fr->m - fr->k;
        int skip = 0;
        for (int64_t c = t->child_ptr[f]; c < t->child_ptr[f + 1]; c++)
            if (a->front_info[t->child_list[c]] != 0) skip = 1;
        if (skip) {
            a->front_info[f] = -1;
            continue;
        }
        double *P = Lpool + (pl->l_off[f] - lbase);
        double *C = r ? (pl->cb_internal[f] ? scratch : cbpool) + pl->cb_off[f] : NULL;
        memset(P, 0, (size_t)(fr->m * fr->k) * sizeof *P);
        if (r) memset(C, 0, (size_t)(r * r) * sizeof *C);
        sylva__scatter_add_cpu(t->amap_ptr[f + 1] - t->amap_ptr[f], t->amap_src + t->amap_ptr[f],
                               t->amap_dst + t->amap_ptr[f], Av, P);
        for (int64_t c = t->child_ptr[f]; c < t->child_ptr[f + 1]; c++) {
            int64_t ch = t->child_list[c];
            const sylva__front *cf = &t->fronts[ch];
            int64_t mc = cf->m - cf->k;
            sylva__extend_add_cpu(mc, child_cb(buffers, a, scratch, ch), mc,
                                  t->relmap + cf->row_off + cf->k, fr->k, P, fr->m, C, r);
        }
        if (a->factor) a->front_info[f] = sylva__front_factor_cpu(fr->m, fr->k, P, fr->m, C, r);
    }
    free(scratch);
}

/* The perfmodel's size is the group's flop count (regression a·flopsᵇ). */
static size_t group_size_base(struct starpu_task *task, unsigned nimpl)
{
    (void)nimpl;
    const sylva__group_args *a = task->cl_arg;
    return (size_t)a->plan->group_flops[a->group];
}

static struct starpu_perfmodel group_model = {
    .type = STARPU_REGRESSION_BASED,
    .symbol = "sylva_group",
    .size_base = group_size_base,
};

struct starpu_codelet sylva__group_codelet = {
    .cpu_funcs = {sylva__group_cpu},
    .cpu_funcs_name = {"sylva__group_cpu"},
    .nbuffers = STARPU_VARIABLE_NBUFFERS,
    .model = &group_model,
    .name = "sylva_group",
};
