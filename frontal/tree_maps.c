/* tree_maps.c — the two index maps of the assembly tree, built on several
 * threads with results identical to a serial build:
 *  - relmap: each child's CB row → its local row in the parent (a merge of
 *    two sorted lists per front; fronts are independent, split by rows);
 *  - amap: every stored entry of A → (front, offset in the front's pivot
 *    block): a counting sort by front over column ranges of A (thread t's
 *    entries follow thread t − 1's in every bucket, so each bucket keeps the
 *    serial order: by column, then by position), then per front the global
 *    rows are made local through a row → position scratch (one per thread).
 * Fails with SYLVA_ERR_NO_MEMORY, or SYLVA_ERR_RUNTIME if the symbolic
 * structure is inconsistent (a CB row missing from the parent).
 */
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "frontal.h"
#include "threads.h"
#include "tree_maps.h"

/* Below this many entries of A a single thread does it all. */
enum { MAPS_PARALLEL_MIN_NNZ = 200000 };

typedef struct maps_job {
    sylva__tree *t;
    const sylva_matrix *A;
    int64_t f0, f1;  /* fronts of this share (relmap, local rows) */
    int64_t j0, j1;  /* columns of A of this share (bucketing) */
    int64_t *cursor; /* nfronts: entries per front, then the next slot */
    int32_t *coloff; /* nnz(A): pivot column of each entry within its front */
    int phase;       /* 0: count; 1: bucket; 2: relmap and local rows */
    int64_t bad_front, bad_row;
} maps_job;

static void relmap_share(maps_job *J)
{
    sylva__tree *t = J->t;
    for (int64_t s = J->f0; s < J->f1; s++) {
        const sylva__front *f = &t->fronts[s];
        for (int64_t i = 0; i < f->k; i++) t->relmap[f->row_off + i] = -1;
        if (f->parent < 0) continue;
        const sylva__front *p = &t->fronts[f->parent];
        const int64_t *prow = t->rows + p->row_off;
        int64_t q = 0;
        for (int64_t i = f->k; i < f->m; i++) {
            int64_t r = t->rows[f->row_off + i];
            while (q < p->m && prow[q] < r) q++;
            if (q == p->m || prow[q] != r) {
                J->bad_front = s;
                J->bad_row = r;
                return;
            }
            t->relmap[f->row_off + i] = q;
        }
    }
}

/* Phases 0 and 1 over this share's columns: count, then place each entry
 * in its front's bucket with its global row (made local in phase 2). */
static void bucket_share(maps_job *J)
{
    sylva__tree *t = J->t;
    const sylva_matrix *A = J->A;
    for (int64_t j = J->j0; j < J->j1; j++) {
        int64_t b = t->iperm[j];
        for (int64_t p = A->colptr[j]; p < A->colptr[j + 1]; p++) {
            int64_t a = t->iperm[A->rowind[p]];
            int64_t col = a < b ? a : b, s = t->col2front[col];
            if (J->phase == 0) {
                J->cursor[s]++;
                continue;
            }
            int64_t e = J->cursor[s]++;
            t->amap_src[e] = p;
            t->amap_dst[e] = a < b ? b : a;
            J->coloff[e] = (int32_t)(col - t->fronts[s].first_col);
        }
    }
}

/* Phase 2 over this share's fronts: global rows → offsets in P_f. */
static void localize_share(maps_job *J)
{
    sylva__tree *t = J->t;
    int32_t *pos = sylva__malloc((size_t)t->n + 1, sizeof *pos);
    if (!pos) {
        J->bad_front = -2;
        return;
    }
    for (int64_t s = J->f0; s < J->f1; s++) {
        const sylva__front *f = &t->fronts[s];
        for (int64_t i = 0; i < f->m; i++) pos[t->rows[f->row_off + i]] = (int32_t)i;
        for (int64_t e = t->amap_ptr[s]; e < t->amap_ptr[s + 1]; e++)
            t->amap_dst[e] = pos[t->amap_dst[e]] + (int64_t)J->coloff[e] * f->m;
    }
    free(pos);
}

static void *maps_worker(void *arg)
{
    maps_job *J = arg;
    if (J->phase < 2) bucket_share(J);
    else {
        relmap_share(J);
        if (J->bad_front == -1) localize_share(J);
    }
    return NULL;
}

/* Share bounds: fronts by rows, columns by entries, in equal parts. */
static void split(maps_job *jobs, int nt, const sylva__tree *t, const sylva_matrix *A)
{
    int64_t rows = t->nfronts ? t->fronts[t->nfronts - 1].row_off + t->fronts[t->nfronts - 1].m : 0;
    int64_t f = 0, j = 0;
    for (int k = 0; k < nt; k++) {
        jobs[k].f0 = f;
        jobs[k].j0 = j;
        int64_t rcut = rows / nt * (k + 1), ecut = A->nnz / nt * (k + 1);
        if (k == nt - 1) f = t->nfronts, j = A->n;
        else {
            while (f < t->nfronts && t->fronts[f].row_off < rcut) f++;
            while (j < A->n && A->colptr[j] < ecut) j++;
        }
        jobs[k].f1 = f;
        jobs[k].j1 = j;
    }
}

/* Run one phase on every share; the first failure's front and row. */
static int64_t run_phase(maps_job *jobs, int nt, int phase, int64_t *bad_row)
{
    for (int k = 0; k < nt; k++) jobs[k].phase = phase;
    sylva__threads_run(nt, maps_worker, jobs, sizeof *jobs);
    for (int k = 0; k < nt; k++)
        if (jobs[k].bad_front != -1) {
            *bad_row = jobs[k].bad_row;
            return jobs[k].bad_front;
        }
    return -1;
}

int sylva__tree_maps(sylva__tree *t, const sylva_matrix *A, int nthreads)
{
    int64_t ns = t->nfronts, nnz = A->nnz;
    int nt = nnz < MAPS_PARALLEL_MIN_NNZ || nthreads < 1 ? 1 : nthreads;
    int64_t total = ns ? t->fronts[ns - 1].row_off + t->fronts[ns - 1].m : 0;
    if (t->max_m >= INT32_MAX) return sylva__fail(SYLVA_ERR_RUNTIME, "a front of %lld rows", (long long)t->max_m);
    t->relmap = sylva__malloc((size_t)total + 1, sizeof *t->relmap);
    t->amap_ptr = sylva__calloc((size_t)ns + 1, sizeof *t->amap_ptr);
    t->amap_src = sylva__malloc((size_t)nnz + 1, sizeof *t->amap_src);
    t->amap_dst = sylva__malloc((size_t)nnz + 1, sizeof *t->amap_dst);
    int32_t *coloff = sylva__malloc((size_t)nnz + 1, sizeof *coloff);
    maps_job *jobs = sylva__calloc((size_t)nt, sizeof *jobs);
    int64_t *cursors = sylva__calloc((size_t)nt * ((size_t)ns + 1), sizeof *cursors);
    int status = SYLVA_OK;
    if (!t->relmap || !t->amap_ptr || !t->amap_src || !t->amap_dst || !coloff || !jobs || !cursors) {
        status = SYLVA_ERR_NO_MEMORY;
        goto done;
    }
    split(jobs, nt, t, A);
    for (int k = 0; k < nt; k++) {
        jobs[k].t = t;
        jobs[k].A = A;
        jobs[k].cursor = cursors + (size_t)k * ((size_t)ns + 1);
        jobs[k].coloff = coloff;
        jobs[k].bad_front = -1;
    }
    int64_t bad_row = -1;
    run_phase(jobs, nt, 0, &bad_row);
    /* Bucket starts, then each share's first slot in every bucket. */
    for (int64_t s = 0; s < ns; s++) {
        int64_t at = t->amap_ptr[s];
        for (int k = 0; k < nt; k++) {
            int64_t c = jobs[k].cursor[s];
            jobs[k].cursor[s] = at;
            at += c;
        }
        t->amap_ptr[s + 1] = at;
    }
    run_phase(jobs, nt, 1, &bad_row);
    int64_t bad = run_phase(jobs, nt, 2, &bad_row);
    if (bad == -2) status = SYLVA_ERR_NO_MEMORY;
    else if (bad >= 0)
        status = sylva__fail(SYLVA_ERR_RUNTIME, "row %lld of front %lld missing in its parent", (long long)bad_row,
                             (long long)bad);
done:
    free(coloff);
    free(jobs);
    free(cursors);
    return status;
}
