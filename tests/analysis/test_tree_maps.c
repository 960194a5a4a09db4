/* test_tree_maps.c — the threaded index maps (tree_maps.c) equal a plain
 * serial construction: for SPEC (argv[1], large enough for the threaded
 * path: ≥ 200,000 entries) the tree is built on 1, 2 and 3 threads and its
 * relmap and amap compared with a reference made here the simple way
 * (merge against the parent's rows; counting sort by front, then a row →
 * position scatter). */
#include "frontal.h"
#include "test_util.h"

static void reference(const sylva__tree *t, const sylva_matrix *A, int64_t *relmap, int64_t *ptr, int64_t *src,
                      int64_t *dst)
{
    int64_t *pos = malloc((size_t)t->n * sizeof *pos), *col = malloc((size_t)A->nnz * sizeof *col);
    int64_t *next = malloc((size_t)(t->nfronts + 1) * sizeof *next);
    for (int64_t s = 0; s < t->nfronts; s++) {
        const sylva__front *f = &t->fronts[s];
        if (f->parent >= 0) {
            const sylva__front *p = &t->fronts[f->parent];
            for (int64_t q = 0; q < p->m; q++) pos[t->rows[p->row_off + q]] = q;
        }
        for (int64_t i = 0; i < f->m; i++)
            relmap[f->row_off + i] = i < f->k || f->parent < 0 ? -1 : pos[t->rows[f->row_off + i]];
    }
    memset(ptr, 0, (size_t)(t->nfronts + 1) * sizeof *ptr);
    for (int64_t j = 0; j < A->n; j++)
        for (int64_t p = A->colptr[j]; p < A->colptr[j + 1]; p++) {
            int64_t a = t->iperm[A->rowind[p]], b = t->iperm[j];
            ptr[t->col2front[a < b ? a : b] + 1]++;
        }
    for (int64_t s = 0; s < t->nfronts; s++) ptr[s + 1] += ptr[s];
    memcpy(next, ptr, (size_t)t->nfronts * sizeof *next);
    for (int64_t j = 0; j < A->n; j++)
        for (int64_t p = A->colptr[j]; p < A->colptr[j + 1]; p++) {
            int64_t a = t->iperm[A->rowind[p]], b = t->iperm[j];
            int64_t e = next[t->col2front[a < b ? a : b]]++;
            src[e] = p;
            dst[e] = a < b ? b : a;
            col[e] = a < b ? a : b;
        }
    for (int64_t s = 0; s < t->nfronts; s++) {
        const sylva__front *f = &t->fronts[s];
        for (int64_t i = 0; i < f->m; i++) pos[t->rows[f->row_off + i]] = i;
        for (int64_t e = ptr[s]; e < ptr[s + 1]; e++) dst[e] = pos[dst[e]] + (col[e] - f->first_col) * f->m;
    }
    free(pos);
    free(col);
    free(next);
}

static void compare(const char *what, int threads, const int64_t *a, const int64_t *b, int64_t n)
{
    int64_t i = 0;
    while (i < n && a[i] == b[i]) i++;
    CHECK(i == n, "%s on %d threads differs at %lld: %lld vs %lld", what, threads, (long long)i,
          (long long)(i < n ? a[i] : 0), (long long)(i < n ? b[i] : 0));
}

int main(int argc, char **argv)
{
    sylva_matrix *A = NULL;
    if (argc < 2 || test_load(argv[1], &A)) {
        fprintf(stderr, "usage: test_tree_maps SPEC (%s)\n", argc < 2 ? "" : sylva_last_error());
        return 2;
    }
    CHECK(A->nnz >= 200000, "%s has %lld entries: too few for the threaded path", argv[1], (long long)A->nnz);
    sylva_options o;
    sylva_default_options(&o);
    o.ordering = SYLVA_ORDERING_METIS;
    int64_t *perm = malloc((size_t)A->n * sizeof *perm);
    CHECK(!sylva__order(A, &o, perm), "ordering: %s", sylva_last_error());
    int64_t *relmap = NULL, *ptr = NULL, *src = NULL, *dst = NULL;
    for (int threads = 1; threads <= 3; threads++) {
        o.ncpus = threads;
        sylva__tree *t = NULL;
        int st = sylva__tree_build(A, perm, &o, &t);
        CHECK(st == SYLVA_OK, "tree on %d threads: %s", threads, sylva_last_error());
        if (st) break;
        int64_t rows = t->fronts[t->nfronts - 1].row_off + t->fronts[t->nfronts - 1].m;
        if (!relmap) {
            relmap = malloc((size_t)rows * sizeof *relmap);
            ptr = malloc((size_t)(t->nfronts + 1) * sizeof *ptr);
            src = malloc((size_t)A->nnz * sizeof *src);
            dst = malloc((size_t)A->nnz * sizeof *dst);
            reference(t, A, relmap, ptr, src, dst);
        }
        compare("relmap", threads, t->relmap, relmap, rows);
        compare("amap_ptr", threads, t->amap_ptr, ptr, t->nfronts + 1);
        compare("amap_src", threads, t->amap_src, src, A->nnz);
        compare("amap_dst", threads, t->amap_dst, dst, A->nnz);
        CHECK(sylva__tree_check_pattern(t, A) == SYLVA_OK, "pattern check: %s", sylva_last_error());
        printf("  %s: %lld fronts, maps on %d threads = reference\n", argv[1], (long long)t->nfronts, threads);
        sylva__tree_free(t);
    }
    free(relmap);
    free(ptr);
    free(src);
    free(dst);
    free(perm);
    sylva_matrix_free(A);
    printf("%s\n", test_failures ? "FAILED" : "ok");
    return test_failures ? 1 : 0;
}
