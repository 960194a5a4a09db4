/* gpu_map.c — which GPU runs which group when a factorization has several
 * GPUs: the GPUs in use numbered 0..G−1 (by their first StarPU worker),
 * the analysis' proportional mapping of the groups onto them
 * (batching/plan_map.c; made once per analysis and GPU count, kept in the
 * runtime plan), and per run the StarPU worker masks that pin a group
 * below the split to its GPU's workers (and, in hybrid runs, the CPU
 * workers too). A group above the split gets no mask: dmdas places it
 * where its data and the perfmodels say it finishes first, which is where
 * StarPU may take work from a GPU that the mapping overloaded. So a
 * subtree's CBs stay on its GPU and only the top of the tree moves data
 * between GPUs. Fails only on memory.
 */
#include <stdlib.h>
#include <string.h>

#include "runtime_internal.h"

int sylva__gpu_index(int devid)
{
    int count = 0, seen[SYLVA__MAX_GPUS];
    unsigned nw = sylva__runtime_ready() ? starpu_worker_get_count() : 0;
    for (unsigned w = 0; w < nw; w++) {
        if (starpu_worker_get_type((int)w) != STARPU_CUDA_WORKER) continue;
        int dev = starpu_worker_get_devid((int)w), k = 0;
        while (k < count && seen[k] != dev) k++;
        if (k == count) {
            if (count == SYLVA__MAX_GPUS) continue;
            seen[count++] = dev;
        }
        if (dev == devid) return k;
    }
    return -1;
}

int sylva__gpu_masks_make(int hybrid, sylva__gpu_masks *m)
{
    memset(m, 0, sizeof *m);
    unsigned nw = starpu_worker_get_count();
    m->gpus = sylva__runtime_gpus();
    if (m->gpus > SYLVA__MAX_GPUS) m->gpus = SYLVA__MAX_GPUS;
    m->words = (nw + 31) / 32;
    if (m->gpus < 2) return SYLVA_OK;
    m->bits = sylva__calloc((size_t)m->gpus * m->words, sizeof *m->bits);
    if (!m->bits) return sylva__fail(SYLVA_ERR_NO_MEMORY, "out of memory for the GPU worker masks");
    for (unsigned w = 0; w < nw; w++) {
        int cuda = starpu_worker_get_type((int)w) == STARPU_CUDA_WORKER;
        int i = cuda ? sylva__gpu_index(starpu_worker_get_devid((int)w)) : -1;
        for (int d = 0; d < m->gpus; d++)
            if (d == i || (!cuda && hybrid)) m->bits[(size_t)d * m->words + w / 32] |= 1u << (w % 32);
    }
    return SYLVA_OK;
}

void sylva__gpu_masks_free(sylva__gpu_masks *m)
{
    free(m->bits);
    memset(m, 0, sizeof *m);
}

const sylva__plan_map *sylva__rt_plan_gpu_map(sylva__rt_plan *rt, int gpus, int *status)
{
    *status = SYLVA_OK;
    STARPU_PTHREAD_MUTEX_LOCK(&rt->solve_lock);
    if (rt->gpu_map.parts != gpus) {
        sylva__plan_map_free(&rt->gpu_map);
        *status = sylva__plan_map_build(rt->plan, gpus, &rt->gpu_map);
    }
    STARPU_PTHREAD_MUTEX_UNLOCK(&rt->solve_lock);
    return *status ? NULL : &rt->gpu_map;
}

const uint32_t *sylva__gpu_mask_of(const sylva__gpu_masks *m, const sylva__plan_map *map, int64_t g)
{
    if (!m->bits || !map || map->group_top[g]) return NULL;
    return m->bits + (size_t)map->group_part[g] * m->words;
}
