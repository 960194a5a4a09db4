/* full_pattern.c — A's pattern in the permuted numbering with both
 * triangles, row by row (frontal.h), rebuilt from the tree's A-scatter map
 * (amap holds, for each stored entry, its front and offset, hence its
 * permuted row and column). What the solve's residual b − A x needs: rows
 * are independent, so the product runs in parallel without atomics, on
 * the CPU and on the GPU alike. O(nnz) once per pattern; fails only on
 * memory.
 */
#include <stdlib.h>

#include "frontal.h"

/* The permuted (row, column) of amap entry e of front s (row ≥ column). */
static void entry_at(const sylva__tree *t, int64_t s, int64_t e, int64_t *i, int64_t *j)
{
    const sylva__front *f = &t->fronts[s];
    *i = t->rows[f->row_off + t->amap_dst[e] % f->m];
    *j = f->first_col + t->amap_dst[e] / f->m;
}

int sylva__full_pattern_build(const sylva__tree *t, sylva__full_pattern **out)
{
    *out = NULL;
    int64_t n = t->n;
    sylva__full_pattern *fp = sylva__calloc(1, sizeof *fp);
    if (!fp) return SYLVA_ERR_NO_MEMORY;
    fp->n = n;
    fp->rowptr = sylva__calloc((size_t)n + 2, sizeof *fp->rowptr);
    if (!fp->rowptr) goto oom;
    for (int64_t s = 0; s < t->nfronts; s++)
        for (int64_t e = t->amap_ptr[s]; e < t->amap_ptr[s + 1]; e++) {
            int64_t i, j;
            entry_at(t, s, e, &i, &j);
            fp->rowptr[i + 2]++;
            if (i != j) fp->rowptr[j + 2]++;
        }
    for (int64_t i = 0; i < n; i++) fp->rowptr[i + 2] += fp->rowptr[i + 1];
    fp->nnz = fp->rowptr[n + 1];
    fp->colind = sylva__malloc((size_t)fp->nnz + 1, sizeof *fp->colind);
    fp->valind = sylva__malloc((size_t)fp->nnz + 1, sizeof *fp->valind);
    if (!fp->colind || !fp->valind) goto oom;
    /* rowptr[i + 1] is row i's next slot while filling, its end after. */
    for (int64_t s = 0; s < t->nfronts; s++)
        for (int64_t e = t->amap_ptr[s]; e < t->amap_ptr[s + 1]; e++) {
            int64_t i, j, p = t->amap_src[e];
            entry_at(t, s, e, &i, &j);
            int64_t q = fp->rowptr[i + 1]++;
            fp->colind[q] = j;
            fp->valind[q] = p;
            if (i == j) continue;
            q = fp->rowptr[j + 1]++;
            fp->colind[q] = i;
            fp->valind[q] = p;
        }
    *out = fp;
    return SYLVA_OK;
oom:
    sylva__full_pattern_free(fp);
    return SYLVA_ERR_NO_MEMORY;
}

void sylva__full_pattern_free(sylva__full_pattern *fp)
{
    if (!fp) return;
    free(fp->rowptr);
    free(fp->colind);
    free(fp->valind);
    free(fp);
}
