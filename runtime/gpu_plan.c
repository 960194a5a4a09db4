/* gpu_plan.c — builds the GPU form of a plan (gpu_plan.h): per group, its
 * fronts in level order (height inside the tree: a front's children are
 * always on lower levels), the child records of each level, the per-level
 * extremes the launches need (smallest m, largest m, k, CB, A entries), and
 * the blob with every per-pattern array the
 * device reads (kernels/gpu_group.h). O(nnz(A) + Σ m) once per pattern;
 * fails only on memory or on sizes beyond the kernels' 32-bit ints.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_plan.h"
#include "gpu_tree.h"

/* Per level of a group: level_ptr and clevel_ptr (nl + 1 each), then
 * level_min_m, level_max_m, level_max_k, level_max_mc (nl each). */
#define LEVEL_INT_ARRAYS 6
#define LEVEL_INTS(nl) (LEVEL_INT_ARRAYS * (nl) + 2)

typedef struct rec_key {
    int64_t height, pos, front;
} rec_key;

static int by_height(const void *a, const void *b)
{
    const rec_key *x = a, *y = b;
    if (x->height != y->height) return (x->height > y->height) - (x->height < y->height);
    return (x->pos > y->pos) - (x->pos < y->pos);
}

/* The group's fronts sorted by level: a front's depth among the group's
 * own fronts (0 without a child in the group, else one more than its
 * deepest child there), so a level's fronts are independent and every
 * child is on a lower level. For static policies this is the height in the
 * tree (a group holds whole subtrees, or fronts of one height); the
 * `ready` policy's batches, whose fronts never depend on each other, are
 * one level whatever their heights. depth: room for the tree's fronts.
 * Returns the number of levels. */
static int sort_group(const sylva__plan *pl, int64_t g, rec_key *keys, int64_t *depth)
{
    const sylva__tree *t = pl->tree;
    int64_t q0 = pl->group_ptr[g], nf = pl->group_ptr[g + 1] - q0;
    for (int64_t q = 0; q < nf; q++) { /* children are listed before parents */
        int64_t f = pl->front_list[q0 + q], d = 0;
        for (int64_t c = t->child_ptr[f]; c < t->child_ptr[f + 1]; c++) {
            int64_t ch = t->child_list[c];
            if (pl->front_group[ch] == g && depth[ch] + 1 > d) d = depth[ch] + 1;
        }
        depth[f] = d;
        keys[q] = (rec_key){d, q, f};
    }
    qsort(keys, (size_t)nf, sizeof *keys, by_height);
    int levels = nf > 0;
    for (int64_t q = 1; q < nf; q++) levels += keys[q].height != keys[q - 1].height;
    return levels;
}

static int64_t align16(int64_t x) { return (x + 15) & ~(int64_t)15; }

/* Offsets of the blob's arrays for F fronts, Cc children, na A entries and
 * nr relmap entries. */
static void layout(int64_t F, int64_t Cc, int64_t na, int64_t nr, sylva__group_layout *L)
{
    int64_t o = 0, i4 = (int64_t)sizeof(int), i8 = (int64_t)sizeof(int64_t);
#define SYLVA_PUT(field, count, size) (L->field = o, o = align16(o + (count) * (size)))
    SYLVA_PUT(m, F, i4);
    SYLVA_PUT(k, F, i4);
    SYLVA_PUT(ldc, F, i4);
    SYLVA_PUT(cbsel, F, i4);
    SYLVA_PUT(lofs, F, i8);
    SYLVA_PUT(cbofs, F, i8);
    SYLVA_PUT(amap_n, F, i8);
    SYLVA_PUT(amap_off, F, i8);
    SYLVA_PUT(front_id, F, i8);
    SYLVA_PUT(ch_mc, Cc, i4);
    SYLVA_PUT(ch_kp, Cc, i4);
    SYLVA_PUT(ch_pm, Cc, i4);
    SYLVA_PUT(ch_pldc, Cc, i4);
    SYLVA_PUT(ch_parent, Cc, i4);
    SYLVA_PUT(ch_src, Cc, i4);
    SYLVA_PUT(ch_cbofs, Cc, i8);
    SYLVA_PUT(ch_relmap, Cc, i8);
    SYLVA_PUT(amap_src, na, i8);
    SYLVA_PUT(amap_dst, na, i8);
    SYLVA_PUT(relmap, nr, i8);
    SYLVA_PUT(ch_ptr, F + 1, i4);
    SYLVA_PUT(ch_front, Cc, i8);
#undef SYLVA_PUT
    L->bytes = o > 0 ? o : 16;
}

#define SYLVA_AT(type, blob, off) ((type *)((char *)(blob) + (off)))

/* Fill group g's desc (level arrays at *ints, *amaps) and blob. */
static int build_group(const sylva__plan *pl, int64_t g, rec_key *keys, int64_t *depth, int **ints,
                       int64_t **amaps, sylva__group_desc *d, void **blob_out)
{
    const sylva__tree *t = pl->tree;
    int64_t q0 = pl->group_ptr[g], F = pl->group_ptr[g + 1] - q0;
    int nl = sort_group(pl, g, keys, depth);
    int64_t Cc = 0, na = 0, nr = 0;
    for (int64_t i = 0; i < F; i++) {
        int64_t f = keys[i].front;
        na += t->amap_ptr[f + 1] - t->amap_ptr[f];
        for (int64_t c = t->child_ptr[f]; c < t->child_ptr[f + 1]; c++) {
            const sylva__front *cf = &t->fronts[t->child_list[c]];
            if (cf->m > cf->k) {
                Cc++;
                nr += cf->m - cf->k;
            }
        }
        if (t->fronts[f].m > INT_MAX || (double)t->fronts[f].m * (double)t->fronts[f].k > 0x1p62)
            return sylva__fail(SYLVA_ERR_UNSUPPORTED, "front %lld has %lld rows: too large for the GPU path",
                               (long long)f, (long long)t->fronts[f].m);
    }
    memset(d, 0, sizeof *d);
    d->nfronts = (int)F;
    d->nchildren = (int)Cc;
    d->nlevels = nl;
    d->large = pl->large[g];
    d->nchild_pools = (int)(pl->dep_ptr[g + 1] - pl->dep_ptr[g]);
    d->scratch = pl->scratch_size[g];
    d->cb_pool = pl->cb_size[g];
    int64_t lbase;
    d->l_size = sylva__plan_group_l(pl, g, &lbase);
    layout(F, Cc, na, nr, &d->lay);
    int *lp = *ints, *clp = lp + nl + 1, *mn = clp + nl + 1, *mm = mn + nl, *mk = mm + nl;
    int *mmc = mk + nl;
    *ints = mmc + nl;
    int64_t *mam = *amaps;
    *amaps = mam + nl;
    d->level_ptr = lp;
    d->clevel_ptr = clp;
    d->level_min_m = mn;
    d->level_max_m = mm;
    d->level_max_k = mk;
    d->level_max_mc = mmc;
    d->level_max_amap = mam;
    void *blob = aligned_alloc(64, (size_t)((d->lay.bytes + 63) / 64 * 64));
    if (!blob) return sylva__fail(SYLVA_ERR_NO_MEMORY, "out of memory for the GPU plan");
    memset(blob, 0, (size_t)d->lay.bytes);
    *blob_out = blob;
    const sylva__group_layout *L = &d->lay;
    int64_t ai = 0, ri = 0, ci = 0;
    int level = -1;
    for (int64_t i = 0; i < F; i++) {
        int64_t f = keys[i].front;
        const sylva__front *fr = &t->fronts[f];
        if (i == 0 || keys[i].height != keys[i - 1].height) {
            level++;
            lp[level] = (int)i;
            clp[level] = (int)ci;
            mm[level] = mk[level] = mmc[level] = 0;
            mn[level] = (int)fr->m;
            mam[level] = 0;
        }
        int64_t r = fr->m - fr->k, an = t->amap_ptr[f + 1] - t->amap_ptr[f];
        SYLVA_AT(int, blob, L->m)[i] = (int)fr->m;
        SYLVA_AT(int, blob, L->k)[i] = (int)fr->k;
        SYLVA_AT(int, blob, L->ldc)[i] = r > 0 ? (int)r : 1;
        SYLVA_AT(int, blob, L->cbsel)[i] = r == 0 ? -1 : pl->cb_internal[f] ? 1 : 0;
        SYLVA_AT(int64_t, blob, L->lofs)[i] = pl->l_off[f] - lbase;
        SYLVA_AT(int64_t, blob, L->cbofs)[i] = pl->cb_off[f];
        SYLVA_AT(int64_t, blob, L->amap_n)[i] = an;
        SYLVA_AT(int64_t, blob, L->amap_off)[i] = ai;
        SYLVA_AT(int64_t, blob, L->front_id)[i] = f;
        memcpy(SYLVA_AT(int64_t, blob, L->amap_src) + ai, t->amap_src + t->amap_ptr[f], (size_t)an * sizeof(int64_t));
        memcpy(SYLVA_AT(int64_t, blob, L->amap_dst) + ai, t->amap_dst + t->amap_ptr[f], (size_t)an * sizeof(int64_t));
        ai += an;
        if (fr->m < mn[level]) mn[level] = (int)fr->m;
        if (fr->m > mm[level]) mm[level] = (int)fr->m;
        if (fr->k > mk[level]) mk[level] = (int)fr->k;
        if (an > mam[level]) mam[level] = an;
        SYLVA_AT(int, blob, L->ch_ptr)[i] = (int)ci;
        for (int64_t c = t->child_ptr[f]; c < t->child_ptr[f + 1]; c++) {
            int64_t ch = t->child_list[c];
            const sylva__front *cf = &t->fronts[ch];
            int64_t mc = cf->m - cf->k;
            if (mc == 0) continue;
            SYLVA_AT(int, blob, L->ch_mc)[ci] = (int)mc;
            SYLVA_AT(int, blob, L->ch_kp)[ci] = (int)fr->k;
            SYLVA_AT(int, blob, L->ch_pm)[ci] = (int)fr->m;
            SYLVA_AT(int, blob, L->ch_pldc)[ci] = r > 0 ? (int)r : 1;
            SYLVA_AT(int, blob, L->ch_parent)[ci] = (int)i;
            SYLVA_AT(int, blob, L->ch_src)[ci] = pl->cb_internal[ch] ? -1 : (int)pl->cb_slot[ch];
            SYLVA_AT(int64_t, blob, L->ch_cbofs)[ci] = pl->cb_off[ch];
            SYLVA_AT(int64_t, blob, L->ch_relmap)[ci] = ri;
            SYLVA_AT(int64_t, blob, L->ch_front)[ci] = ch;
            memcpy(SYLVA_AT(int64_t, blob, L->relmap) + ri, t->relmap + cf->row_off + cf->k,
                   (size_t)mc * sizeof(int64_t));
            ri += mc;
            ci++;
            if (mc > mmc[level]) mmc[level] = (int)mc;
        }
    }
    lp[nl] = (int)F;
    clp[nl] = (int)ci;
    SYLVA_AT(int, blob, L->ch_ptr)[F] = (int)ci;
    return SYLVA_OK;
}

int sylva__gpu_plan_build(const sylva__plan *pl, sylva__gpu_plan **out)
{
    *out = NULL;
    const sylva__tree *t = pl->tree;
    int64_t ng = pl->ngroups, ns = t->nfronts;
    sylva__gpu_plan *gp = sylva__calloc(1, sizeof *gp);
    rec_key *keys = sylva__malloc((size_t)ns + 1, sizeof *keys);
    int64_t *depth = sylva__malloc((size_t)ns + 1, sizeof *depth);
    if (!gp || !keys || !depth) goto oom;
    gp->plan = pl;
    gp->ngroups = ng;
    int64_t total_levels = 0;
    for (int64_t g = 0; g < ng; g++) total_levels += sort_group(pl, g, keys, depth);
    gp->groups = sylva__calloc((size_t)ng + 1, sizeof *gp->groups);
    gp->blobs = sylva__calloc((size_t)ng + 1, sizeof *gp->blobs);
    gp->ints = sylva__malloc((size_t)(LEVEL_INT_ARRAYS * total_levels + 2 * ng + 1), sizeof *gp->ints);
    gp->amaps = sylva__malloc((size_t)total_levels + 1, sizeof *gp->amaps);
    if (!gp->groups || !gp->blobs || !gp->ints || !gp->amaps) goto oom;
    int *ints = gp->ints;
    int64_t *amaps = gp->amaps;
    for (int64_t g = 0; g < ng; g++) {
        sylva__group_desc *d = &gp->groups[g];
        int status = build_group(pl, g, keys, depth, &ints, &amaps, d, &gp->blobs[g]);
        if (status) {
            free(keys);
            free(depth);
            sylva__gpu_plan_free(gp);
            return status;
        }
        gp->blob_bytes += d->lay.bytes;
        size_t w = sylva__group_workspace_bytes(d, 0);
        if (w > gp->max_work) gp->max_work = w;
        if (d->large && d->level_max_k[0] > gp->max_large_k) gp->max_large_k = d->level_max_k[0];
    }
    free(keys);
    free(depth);
    *out = gp;
    return SYLVA_OK;
oom:
    free(keys);
    free(depth);
    sylva__gpu_plan_free(gp);
    return SYLVA_ERR_NO_MEMORY;
}

int sylva__gpu_group_build(const sylva__plan *pl, int64_t g, sylva__group_desc *d, void **blob,
                           void **levels)
{
    *blob = *levels = NULL;
    int64_t nf = pl->group_ptr[g + 1] - pl->group_ptr[g];
    rec_key *keys = sylva__malloc((size_t)nf + 1, sizeof *keys);
    int64_t *depth = sylva__malloc((size_t)pl->tree->nfronts + 1, sizeof *depth);
    int status = keys && depth ? SYLVA_OK : SYLVA_ERR_NO_MEMORY;
    int64_t nl = 0;
    if (!status) {
        nl = sort_group(pl, g, keys, depth);
        /* The level arrays: LEVEL_INTS(nl) ints and one int64 array. */
        size_t ints = (size_t)LEVEL_INTS(nl) * sizeof(int), at = (ints + 15) / 16 * 16;
        *levels = sylva__malloc(at + (size_t)(nl + 1) * sizeof(int64_t), 1);
        if (!*levels) status = SYLVA_ERR_NO_MEMORY;
    }
    if (!status) {
        int *ip = *levels;
        int64_t *ap = (int64_t *)((char *)*levels + ((size_t)LEVEL_INTS(nl) * sizeof(int) + 15) / 16 * 16);
        status = build_group(pl, g, keys, depth, &ip, &ap, d, blob);
    }
    if (status) {
        free(*levels);
        free(*blob);
        *blob = *levels = NULL;
    }
    free(keys);
    free(depth);
    return status;
}

void sylva__gpu_plan_free(sylva__gpu_plan *gp)
{
    if (!gp) return;
    if (gp->blobs)
        for (int64_t g = 0; g < gp->ngroups; g++) free(gp->blobs[g]);
    free(gp->blobs);
    free(gp->groups);
    free(gp->ints);
    free(gp->amaps);
    free(gp);
}

/* The largest front a tree launch takes: SYLVA_TREE_MAX_M, or the
 * environment's SYLVA_TREE_M (1..SYLVA_TREE_MAX_M; read once), for
 * measuring the trade between fewer launches and the shared memory of the
 * largest front, which sets how many blocks share an SM. */
static int tree_max_m(void)
{
    static int lim = -1;
    if (lim < 0) {
        const char *e = getenv("SYLVA_TREE_M");
        int v = e ? atoi(e) : 0;
        lim = v >= 1 && v <= SYLVA_TREE_MAX_M ? v : SYLVA_TREE_MAX_M;
    }
    return lim;
}

int sylva__gpu_group_tree_ok(const sylva__group_desc *d)
{
    if (d->large || d->nfronts <= 0) return 0;
    for (int l = 0; l < d->nlevels; l++)
        if (d->level_max_m[l] > tree_max_m()) return 0;
    return 1;
}
