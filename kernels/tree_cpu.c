/* tree_cpu.c — the CPU twin of the tree launch (gpu_tree.h): the same
 * group table, work list and done words on host memory, each front
 * assembled (A's entries, then its children's CBs in child-record order),
 * factored and written where the GPU writes it, with the CPU front kernels
 * — the group twin's operations in the group twin's order, so both give
 * the same factor bit for bit. The items run in the order the caller gives
 * (any order in which children come first: a test draws random ones, as
 * the GPU's blocks may take them); a child of the same launch whose done
 * word does not hold the epoch when its parent starts is an error, which checks the blob's
 * child lists and the order. It exists to test the launch's tables and the
 * arena's runs without a GPU. */
#include "front_cpu.h"
#include "group_setup.h"
#include "gpu_tree.h"
#include "core.h"
#include "sylva.h"

int sylva__tree_factor_cpu(const sylva__tree_launch *t, const int *order, int *front_info)
{
    for (int e = 0; e < t->nitems; e++) {
        const int item = order ? order[e] : e;
        if (item < 0 || item >= t->nitems)
            return sylva__fail(SYLVA_ERR_ARGUMENT, "tree twin: item %d outside 0..%d", item, t->nitems - 1);
        const int g = t->items[2 * item], i = t->items[2 * item + 1];
        const sylva__tree_group *G = &t->groups[g];
        const sylva__group_layout *lay = &G->lay;
        const void *blob = G->blob;
        const int m = SYLVA_BLOB(int, blob, lay->m)[i], k = SYLVA_BLOB(int, blob, lay->k)[i];
        const int ldc = SYLVA_BLOB(int, blob, lay->ldc)[i], sel = SYLVA_BLOB(int, blob, lay->cbsel)[i];
        const int64_t fid = SYLVA_BLOB(int64_t, blob, lay->front_id)[i];
        if (m > t->max_m)
            return sylva__fail(SYLVA_ERR_ARGUMENT, "tree twin: front %lld has %d rows, the launch at most %d",
                               (long long)fid, m, t->max_m);
        double *P = G->L + SYLVA_BLOB(int64_t, blob, lay->lofs)[i];
        double *C = sel < 0 ? NULL : (sel == 0 ? G->pool : G->scratch) + SYLVA_BLOB(int64_t, blob, lay->cbofs)[i];
        for (int64_t j = 0; j < (int64_t)m * k; j++) P[j] = 0;
        for (int64_t j = 0; C && j < (int64_t)ldc * (m - k); j++) C[j] = 0;
        const int64_t ao = SYLVA_BLOB(int64_t, blob, lay->amap_off)[i];
        sylva__d_scatter_add_cpu(SYLVA_BLOB(int64_t, blob, lay->amap_n)[i], SYLVA_BLOB(int64_t, blob, lay->amap_src) + ao,
                                 SYLVA_BLOB(int64_t, blob, lay->amap_dst) + ao, t->A, P);
        const int *ch_ptr = SYLVA_BLOB(int, blob, lay->ch_ptr);
        for (int c = ch_ptr[i]; c < ch_ptr[i + 1]; c++) {
            const int64_t ch = SYLVA_BLOB(int64_t, blob, lay->ch_front)[c];
            if (t->front_run[ch] == t->run && t->done[ch] != t->epoch)
                return sylva__fail(SYLVA_ERR_ARGUMENT, "tree twin: front %lld starts before its child %lld is done",
                                   (long long)fid, (long long)ch);
            const int s = SYLVA_BLOB(int, blob, lay->ch_src)[c], mc = SYLVA_BLOB(int, blob, lay->ch_mc)[c];
            const double *cb = (s < 0 ? G->scratch : G->child_pools[s]) + SYLVA_BLOB(int64_t, blob, lay->ch_cbofs)[c];
            sylva__d_extend_add_cpu(mc, cb, mc,
                                    SYLVA_BLOB(int64_t, blob, lay->relmap) + SYLVA_BLOB(int64_t, blob, lay->ch_relmap)[c],
                                    k, P, m, C, ldc);
        }
        const int info = k > 0 ? sylva__d_front_factor_cpu(m, k, P, m, C, ldc) : 0;
        if (info > 0) front_info[fid] = info;
        t->done[fid] = t->epoch;
    }
    return SYLVA_OK;
}
