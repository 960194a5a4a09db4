/* factorize.c — numeric factorization through StarPU: registers A's values,
 * each group's slice of the factor pool and a temporary CB pool per group
 * (home node −1), submits one task per group in plan order (StarPU infers
 * the DAG from the access modes), unregisters each CB pool after its last
 * reader is submitted, and waits. A task StarPU refuses, or one that
 * could not run (the failed flag, polled between submissions), stops the
 * submission (what was submitted still runs and is waited for); a front
 * that is not positive definite does not: it only makes its ancestors skip,
 * so the failing column reported is the same in every run.
 */
#include <stdlib.h>
#include <string.h>

#include "runtime_internal.h"

int sylva__factor_submit(sylva__numeric *N, const void *A_values, int64_t nnz, int64_t tile_rows,
                         int64_t *ntasks)
{
    const sylva__plan *pl = N->plan;
    const size_t es = N->elem;
    char *Lvalues = N->values;
    const sylva__tree *t = pl->tree;
    int64_t ng = pl->ngroups;
    int status = SYLVA_OK;
    *ntasks = 0;
    if (ng == 0) return SYLVA_OK;
    starpu_resume(); /* workers are paused between factorizations (init.c) */
    starpu_data_handle_t Ah;
    starpu_vector_data_register(&Ah, STARPU_MAIN_RAM, (uintptr_t)A_values,
                                (uint32_t)(nnz ? nnz : 1), es);
    starpu_data_handle_t *Lh = calloc((size_t)ng, sizeof *Lh);
    starpu_data_handle_t *CBh = calloc((size_t)ng, sizeof *CBh);
    int64_t *left = calloc((size_t)ng, sizeof *left);
    sylva__group_args *args = calloc((size_t)ng, sizeof *args);
    sylva__tiled **tiled = calloc((size_t)ng, sizeof *tiled);
    void **cbmem = calloc((size_t)ng, sizeof *cbmem);
    int64_t nb = tile_rows;
    struct starpu_data_descr *descr = malloc(((size_t)t->nfronts + 3) * sizeof *descr);
    if (!Lh || !CBh || !left || !args || !tiled || !cbmem || !descr) {
        status = sylva__fail(SYLVA_ERR_NO_MEMORY, "out of memory submitting the factorization");
        goto wait;
    }
    for (int64_t g = 0; g < ng; g++) {
        int64_t first = pl->front_list[pl->group_ptr[g]];
        int64_t last = pl->front_list[pl->group_ptr[g + 1] - 1];
        int64_t lo = pl->l_off[first], hi = pl->l_off[last] + t->fronts[last].m * t->fronts[last].k;
        if (pl->large[g] && nb > 0) {
            /* A tiled front: P and C as matrices, so they can be split. */
            const sylva__front *f = &t->fronts[first];
            uint32_t m = (uint32_t)f->m, k = (uint32_t)f->k, r = m - k;
            starpu_matrix_data_register(&Lh[g], STARPU_MAIN_RAM, (uintptr_t)(Lvalues + lo * es),
                                        m, m, k, es);
            /* Its CB gets host memory: StarPU's tiles are views into a
             * handle only where the handle has memory when the plan is made
             * (a home-less handle has none yet). Freed after the wait. */
            if (r > 0) {
                cbmem[g] = malloc((size_t)r * r * es);
                if (!cbmem[g]) {
                    status = sylva__fail(SYLVA_ERR_NO_MEMORY, "out of memory for a CB of %u rows", r);
                    goto wait;
                }
                starpu_matrix_data_register(&CBh[g], STARPU_MAIN_RAM, (uintptr_t)cbmem[g], r, r, r,
                                            es);
            }
        } else {
            starpu_vector_data_register(&Lh[g], STARPU_MAIN_RAM, (uintptr_t)(Lvalues + lo * es),
                                        (uint32_t)(hi - lo), es);
            if (pl->cb_size[g] > 0)
                starpu_vector_data_register(&CBh[g], -1, 0, (uint32_t)pl->cb_size[g], es);
        }
        left[g] = pl->readers[g];
    }
    N->failed = 0;
    for (int64_t g = 0; g < ng; g++) {
        /* A task that could not run (its front_info says why) ends the
         * submission: nothing above it can succeed. */
        if (__atomic_load_n(&N->failed, __ATOMIC_RELAXED)) {
            status = sylva__fail(SYLVA_ERR_NO_MEMORY, "out of memory in a factorization task");
            break;
        }
        int nbuf = 0;
        descr[nbuf++] = (struct starpu_data_descr){Ah, STARPU_R};
        descr[nbuf++] = (struct starpu_data_descr){Lh[g], STARPU_W};
        int tile_it = pl->large[g] && nb > 0; /* nb: tile rows */
        args[g] = (sylva__group_args){pl, g, N->precision, pl->cb_size[g] > 0, !tile_it,
                                      N->front_info, &N->failed};
        if (args[g].has_cb) descr[nbuf++] = (struct starpu_data_descr){CBh[g], STARPU_W};
        for (int64_t d = pl->dep_ptr[g]; d < pl->dep_ptr[g + 1]; d++)
            descr[nbuf++] = (struct starpu_data_descr){CBh[pl->dep_list[d]], STARPU_R};
        status = SYLVA_STARPU(starpu_task_insert(
            &sylva__group_codelet, STARPU_CL_ARGS_NFREE, &args[g], sizeof args[g],
            STARPU_DATA_MODE_ARRAY, descr, nbuf, STARPU_FLOPS, pl->group_flops[g], STARPU_NAME,
            pl->large[g] ? "front" : "batch", 0));
        if (status) break;
        (*ntasks)++;
        if (tile_it) {
            const sylva__front *f = &t->fronts[pl->front_list[pl->group_ptr[g]]];
            tiled[g] = sylva__tiled_submit(Lh[g], CBh[g], f->m, f->k, nb, N->precision,
                                           N->front_info + pl->front_list[pl->group_ptr[g]],
                                           &status);
            if (status) break;
        }
        for (int64_t d = pl->dep_ptr[g]; d < pl->dep_ptr[g + 1]; d++)
            if (--left[pl->dep_list[d]] == 0) starpu_data_unregister_submit(CBh[pl->dep_list[d]]);
        if (pl->cb_size[g] > 0 && pl->readers[g] == 0) starpu_data_unregister_submit(CBh[g]);
    }
wait:
    if (!status) status = SYLVA_STARPU(starpu_task_wait_for_all());
    else starpu_task_wait_for_all();
    starpu_pause();
    if (tiled)
        for (int64_t g = 0; g < ng; g++) sylva__tiled_free(tiled[g]);
    if (Lh)
        for (int64_t g = 0; g < ng; g++)
            if (Lh[g]) starpu_data_unregister(Lh[g]);
    if (status && CBh && left)
        for (int64_t g = 0; g < ng; g++)
            if (CBh[g] && left[g] > 0) starpu_data_unregister_submit(CBh[g]);
    starpu_data_unregister(Ah);
    free(Lh);
    free(CBh);
    free(left);
    free(args);
    free(tiled);
    if (cbmem)
        for (int64_t g = 0; g < ng; g++) free(cbmem[g]);
    free(cbmem);
    free(descr);
    return status;
}
