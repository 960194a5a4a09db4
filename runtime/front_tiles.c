/* front_tiles.c — a large front factored as tile tasks so that many workers
 * share it. After the front's assembly task has written P (m × k) and its CB
 * C ((m−k)²), both are cut into tiles of nb rows/columns whose boundaries
 * respect the pivot/CB split, the right-looking tiled Cholesky is submitted
 * on the tiles (POTRF, TRSM, SYRK, GEMM; StarPU infers the DAG), and the
 * tiles are gathered back so the parent's extend-add reads C whole and L
 * is one slice again. Two ways to make the tiles (sylva__tiled_spec): on
 * CPU runs P and C (host homes) are partitioned by StarPU's asynchronous
 * partitioning, which costs nothing; on GPU runs the lower tiles are
 * handles of their own, filled by one copy task per matrix where the whole
 * was assembled, the whole is then invalidated (its memory goes back to
 * StarPU while the tiles live), and one copy task per matrix writes the
 * tiles back — so each tile task may run on any GPU and only tiles move.
 * Plans are cleaned asynchronously at once; only the tasks' arguments live
 * until sylva__tiled_free (after the tasks ended). Every StarPU call is
 * checked; the first refusal stops the submission and is the returned
 * status.
 */
#include <stdlib.h>

#include "runtime_internal.h"

/* Split a matrix interface at bounds[0..nparts] along rows or columns. */
typedef struct split_spec {
    int64_t *bounds;
    int cols;
} split_spec;

static void split_filter(void *father_interface, void *child_interface, struct starpu_data_filter *f,
                         unsigned id, unsigned nparts)
{
    (void)nparts;
    struct starpu_matrix_interface *F = father_interface, *C = child_interface;
    const split_spec *s = f->filter_arg_ptr;
    uint32_t lo = (uint32_t)s->bounds[id], hi = (uint32_t)s->bounds[id + 1];
    size_t es = F->elemsize, offset;
    C->id = F->id;
    C->elemsize = es;
    if (s->cols) {
        C->nx = F->nx;
        C->ny = hi - lo;
        offset = (size_t)lo * F->ld * es;
    } else {
        C->nx = hi - lo;
        C->ny = F->ny;
        offset = (size_t)lo * es;
    }
    C->allocsize = (size_t)C->nx * C->ny * es;
    if (F->dev_handle) {
        if (F->ptr) C->ptr = F->ptr + offset;
        C->ld = F->ld;
        C->dev_handle = F->dev_handle;
        C->offset = F->offset + offset;
    }
}

/* One matrix cut into row blocks, each cut into column blocks. */
typedef struct tiled_matrix {
    starpu_data_handle_t whole;
    int64_t nrows, ncols; /* blocks */
    split_spec rows, cols;
    starpu_data_handle_t *row_blocks; /* partitioned: the row blocks */
    starpu_data_handle_t *tiles;      /* nrows × ncols, row-major (copies: the lower ones) */
    /* Copies: the tiles' handles listed, their places, the copy tasks'
     * buffers and arguments. */
    int64_t ntiles, *row0, *col0;
    int filled;                       /* the split task was submitted */
    int partitioned;                  /* partition() ran */
    starpu_data_handle_t *list;
    struct starpu_data_descr *descr;
    sylva__tile_copy_args split, gather;
} tiled_matrix;

struct sylva__tiled {
    tiled_matrix P, C;
    int64_t nb, KB, RB;
    const sylva__tiled_spec *spec;    /* during sylva__tiled_submit only */
    starpu_data_handle_t work;        /* POTRF's scratch */
    int own_work;                     /* registered here (unregistered at the gather) */
    sylva__tile_args *potrf_args;     /* KB */
    sylva__tile_args update_args;     /* TRSM, SYRK, GEMM: the precision only */
};

static int64_t *bounds_of(int64_t n0, int64_t n1, int64_t nb, int64_t *count)
{
    /* Blocks of nb over [0, n0), then over [n0, n0 + n1). */
    int64_t b0 = (n0 + nb - 1) / nb, b1 = (n1 + nb - 1) / nb;
    int64_t *b = sylva__malloc((size_t)(b0 + b1 + 1), sizeof *b);
    if (!b) return NULL;
    int64_t q = 0;
    for (int64_t i = 0; i < b0; i++) b[q++] = i * nb;
    for (int64_t i = 0; i < b1; i++) b[q++] = n0 + i * nb;
    b[q] = n0 + n1;
    *count = b0 + b1;
    return b;
}

/* StarPU 1.3's partition calls return nothing: they abort inside StarPU
 * on misuse, which the plan's own checks (bounds within the matrix) rule
 * out. */
static int partition(tiled_matrix *t)
{
    /* The row blocks' and tiles' handle arrays are reserve()'s. */
    struct starpu_data_filter fr = {.filter_func = split_filter, .nchildren = (unsigned)t->nrows,
                                    .filter_arg_ptr = &t->rows};
    struct starpu_data_filter fc = {.filter_func = split_filter, .nchildren = (unsigned)t->ncols,
                                    .filter_arg_ptr = &t->cols};
    starpu_data_partition_plan(t->whole, &fr, t->row_blocks);
    for (int64_t i = 0; i < t->nrows; i++)
        starpu_data_partition_plan(t->row_blocks[i], &fc, t->tiles + i * t->ncols);
    starpu_data_partition_submit(t->whole, (unsigned)t->nrows, t->row_blocks);
    for (int64_t i = 0; i < t->nrows; i++)
        starpu_data_partition_submit(t->row_blocks[i], (unsigned)t->ncols, t->tiles + i * t->ncols);
    t->partitioned = 1;
    return SYLVA_OK;
}

/* Gather the tiles back and drop the plans; both are asynchronous (StarPU
 * orders them after the tile tasks), so the whole handle can be read, or
 * unregistered, by later submissions as usual. */
static void unpartition(tiled_matrix *t)
{
    for (int64_t i = 0; i < t->nrows; i++) {
        starpu_data_handle_t *tiles = t->tiles + i * t->ncols;
        if (!tiles[0]) continue;
        starpu_data_unpartition_submit(t->row_blocks[i], (unsigned)t->ncols, tiles, -1);
        starpu_data_partition_clean(t->row_blocks[i], (unsigned)t->ncols, tiles);
    }
    starpu_data_unpartition_submit(t->whole, (unsigned)t->nrows, t->row_blocks, -1);
    starpu_data_partition_clean(t->whole, (unsigned)t->nrows, t->row_blocks);
}

/* Submit one task of a tiled front: through the hooks across processes
 * (node ≥ 0: on that rank), else to this process's StarPU. */
static int insert(const sylva__tile_hooks *h, struct starpu_codelet *cl, const void *arg, size_t size,
                  struct starpu_data_descr *d, int n, uint32_t where, int prio, double flops,
                  void (*done)(void *), const void *done_arg, int node)
{
    if (h)
        return h->insert(h->ctx, cl, (void *)arg, size, d, n, where, prio, flops, done, (void *)done_arg, node);
    return SYLVA_STARPU(starpu_task_insert(cl, STARPU_CL_ARGS_NFREE, arg, size, STARPU_DATA_MODE_ARRAY, d, n,
                                           STARPU_EXECUTE_WHERE, where, STARPU_PRIORITY, prio, STARPU_FLOPS, flops,
                                           STARPU_CALLBACK_WITH_ARG_NFREE, done, done_arg, 0));
}

/* One copy task between t's whole and its listed tiles, where the whole
 * was assembled. */
static int copy_task(tiled_matrix *t, const sylva__tile_copy_args *args, uint32_t where,
                     const sylva__tile_hooks *h)
{
    int gather = args->gather;
    t->descr[0] = (struct starpu_data_descr){t->whole, gather ? STARPU_W : STARPU_R};
    for (int64_t q = 0; q < t->ntiles; q++)
        t->descr[1 + q] = (struct starpu_data_descr){t->list[q], gather ? STARPU_R : STARPU_W};
    return insert(h, &sylva__tile_copy_codelet, args, sizeof *args, t->descr, (int)(t->ntiles + 1), where, 0,
                  0.0, NULL, NULL, h ? h->home : -1);
}

/* The lower tiles as handles of their own (no home: StarPU allocates each
 * where a task needs it), filled from the whole by one copy task, after
 * which the whole's copies are dropped. ld: the whole's leading dimension;
 * block0: the matrix's first block in the front's grid (the arrays are
 * reserve()'s). */
static int copy_out(tiled_matrix *t, const sylva__tiled_spec *sp, int64_t ld, size_t es, int64_t block0)
{
    /* Row block i is lower than column block l when it starts at or below
     * it (P's first row blocks are its column blocks). */
    for (int64_t i = 0; i < t->nrows; i++)
        for (int64_t l = 0; l < t->ncols && t->cols.bounds[l] <= t->rows.bounds[i]; l++) {
            int64_t r0 = t->rows.bounds[i], c0 = t->cols.bounds[l];
            uint32_t nr = (uint32_t)(t->rows.bounds[i + 1] - r0), nc = (uint32_t)(t->cols.bounds[l + 1] - c0);
            starpu_matrix_data_register(&t->tiles[i * t->ncols + l], -1, 0, nr, nr, nc, es);
            if (sp->hooks)
                sp->hooks->tile(sp->hooks->ctx, t->tiles[i * t->ncols + l], block0 + i, block0 + l,
                                (size_t)nr * nc * es);
            t->list[t->ntiles] = t->tiles[i * t->ncols + l];
            t->row0[t->ntiles] = r0;
            t->col0[t->ntiles++] = c0;
        }
    sylva__tile_copy_args a = {sp->precision, sp->num, 0, ld, t->ntiles, t->row0, t->col0};
    t->split = a;
    a.gather = 1;
    t->gather = a;
    int status = copy_task(t, &t->split, sp->where, sp->hooks);
    if (status) return status;
    t->filled = 1;
    starpu_data_invalidate_submit(t->whole);
    return SYLVA_OK;
}

/* The tiles back into the whole (one task, where StarPU puts it), and the
 * tiles' handles dropped once it has read them. */
static int copy_in(tiled_matrix *t, uint32_t where, const sylva__tile_hooks *h)
{
    int status = t->filled ? copy_task(t, &t->gather, where, h) : SYLVA_OK;
    for (int64_t q = 0; q < t->ntiles; q++) starpu_data_unregister_submit(t->list[q]);
    t->ntiles = 0;
    return status;
}

/* t's arrays but the copies' places (the copy tasks read those until they
 * end: sylva__tiled_free). */
static void drop_arrays(tiled_matrix *t)
{
    free(t->row_blocks);
    free(t->tiles);
    free(t->list);
    free(t->descr);
    free(t->rows.bounds);
    free(t->cols.bounds);
    t->row_blocks = t->tiles = t->list = NULL;
    t->descr = NULL;
    t->rows.bounds = t->cols.bounds = NULL;
}

/* Undo what making t's tiles did (nothing when none were made). */
static int untile(tiled_matrix *t, const sylva__tiled_spec *sp)
{
    int status = SYLVA_OK;
    int copies = sp->copies;
    if (copies && t->ntiles > 0) status = copy_in(t, sp->where, sp->hooks);
    else if (!copies && t->partitioned) unpartition(t);
    t->partitioned = 0;
    drop_arrays(t);
    return status;
}

/* Tile (i, l), i ≥ l, of the whole front: in P when l is a pivot block. */
static starpu_data_handle_t tile(const sylva__tiled *T, int64_t i, int64_t l)
{
    if (l < T->KB) return T->P.tiles[i * T->P.ncols + l];
    return T->C.tiles[(i - T->KB) * T->C.ncols + (l - T->KB)];
}

/* Rows of block i of the front (P's row blocks: the pivot blocks, then
 * the CB's). */
static double block_rows(const sylva__tiled *T, int64_t i)
{
    return (double)(T->P.rows.bounds[i + 1] - T->P.rows.bounds[i]);
}

/* Submit the right-looking tiled Cholesky on T's tiles; the first task
 * StarPU refuses ends the submission (the status says which call). Each
 * task carries its flops, counted as the tree counts a front's (Σ over
 * pivots of (rows left)², frontal/tree_build.c: a square root, a division
 * per row below, two flops per updated lower entry), so that a front's
 * tile tasks add up to its flops exactly (task_log.c's statistics). */
static int submit_tile_tasks(sylva__tiled *T)
{
    const sylva__tiled_spec *sp = T->spec;
    const sylva__tile_hooks *h = sp->hooks;
    /* Each tile task's callback logs it for the group (task_log.c). */
    void (*done)(void *) = sp->group ? sylva__tile_done : NULL;
    const void *arg = sp->group;
    int64_t NB = T->KB + T->RB;
    int base = sp->prio;
    uint32_t where = sp->where;
    T->update_args = (sylva__tile_args){.precision = sp->precision, .num = sp->num};
    const sylva__tile_args *u = &T->update_args;
    size_t us = sizeof *u;
    struct starpu_data_descr d[3];
    int st = SYLVA_OK;
    for (int64_t j = 0; j < T->KB && !st; j++) {
        T->potrf_args[j] = (sylva__tile_args){sp->precision, sp->num, sp->num->front_info + sp->front,
                                              sp->front, T->P.cols.bounds[j]};
        int prio = base + (int)(2 * (NB - j));
        double nj = block_rows(T, j);
        d[0] = (struct starpu_data_descr){tile(T, j, j), STARPU_RW};
        d[1] = (struct starpu_data_descr){T->work, STARPU_SCRATCH};
        st = insert(h, &sylva__tile_potrf_codelet, &T->potrf_args[j], sizeof T->potrf_args[j], d, 2, where,
                    prio + 2, nj * (nj + 1) * (2 * nj + 1) / 6, done, arg, -1);
        for (int64_t i = j + 1; i < NB && !st; i++) {
            d[0] = (struct starpu_data_descr){tile(T, j, j), STARPU_R};
            d[1] = (struct starpu_data_descr){tile(T, i, j), STARPU_RW};
            st = insert(h, &sylva__tile_trsm_codelet, u, us, d, 2, where, prio + 1, block_rows(T, i) * nj * nj,
                        done, arg, -1);
        }
        for (int64_t i = j + 1; i < NB && !st; i++)
            for (int64_t l = j + 1; l <= i && !st; l++) {
                sylva__submit_throttle();
                int p = l == j + 1 ? prio : base;
                double ni = block_rows(T, i);
                d[0] = (struct starpu_data_descr){tile(T, i, j), STARPU_R};
                if (i == l) {
                    d[1] = (struct starpu_data_descr){tile(T, i, i), STARPU_RW};
                    st = insert(h, &sylva__tile_syrk_codelet, u, us, d, 2, where, p, ni * (ni + 1) * nj, done,
                                arg, -1);
                } else {
                    d[1] = (struct starpu_data_descr){tile(T, l, j), STARPU_R};
                    d[2] = (struct starpu_data_descr){tile(T, i, l), STARPU_RW};
                    st = insert(h, &sylva__tile_gemm_codelet, u, us, d, 3, where, p,
                                2 * ni * block_rows(T, l) * nj, done, arg, -1);
                }
            }
    }
    return st;
}

/* Room to cut one matrix of n0 + n1 rows (blocks over each part) and
 * ncols columns (blocks over them) the spec's way; no StarPU call, so a
 * distributed run can have it before any rank communicates. */
static int reserve(tiled_matrix *t, const sylva__tiled_spec *sp, int64_t n0, int64_t n1, int64_t ncols)
{
    t->rows = (split_spec){bounds_of(n0, n1, sp->nb, &t->nrows), 0};
    t->cols = (split_spec){bounds_of(ncols, 0, sp->nb, &t->ncols), 1};
    if (!t->rows.bounds || !t->cols.bounds) return SYLVA_ERR_NO_MEMORY;
    size_t cap = (size_t)(t->nrows * t->ncols);
    t->tiles = sylva__calloc(cap, sizeof *t->tiles);
    if (!t->tiles) return SYLVA_ERR_NO_MEMORY;
    if (!sp->copies) {
        t->row_blocks = sylva__calloc((size_t)t->nrows, sizeof *t->row_blocks);
        return t->row_blocks ? SYLVA_OK : SYLVA_ERR_NO_MEMORY;
    }
    t->list = sylva__calloc(cap, sizeof *t->list);
    t->row0 = sylva__calloc(cap, sizeof *t->row0);
    t->col0 = sylva__calloc(cap, sizeof *t->col0);
    t->descr = sylva__calloc(cap + 1, sizeof *t->descr);
    return t->list && t->row0 && t->col0 && t->descr ? SYLVA_OK : SYLVA_ERR_NO_MEMORY;
}

sylva__tiled_spec sylva__tiled_spec_of(sylva__numeric *N, starpu_data_handle_t C, int64_t g, int64_t nb,
                                       int prio, const sylva__group_args *group)
{
    const sylva__plan *pl = N->plan;
    int64_t front = pl->front_list[pl->group_ptr[g]];
    const sylva__front *f = &pl->tree->fronts[front];
    return (sylva__tiled_spec){.P = N->L[g], .C = C, .m = f->m, .k = f->k, .nb = nb, .front = front,
                               .precision = N->precision, .num = N, .copies = 0, .where = STARPU_CPU,
                               .work = NULL, .prio = prio, .group = group};
}

sylva__tiled *sylva__tiled_prepare(const sylva__tiled_spec *sp)
{
    sylva__tiled *T = sylva__calloc(1, sizeof *T);
    int64_t r = sp->m - sp->k;
    int status = T ? SYLVA_OK : SYLVA_ERR_NO_MEMORY;
    if (T) {
        T->nb = sp->nb;
        T->KB = (sp->k + sp->nb - 1) / sp->nb;
        T->potrf_args = sylva__calloc((size_t)T->KB, sizeof *T->potrf_args);
        status = T->potrf_args ? reserve(&T->P, sp, sp->k, r, sp->k) : SYLVA_ERR_NO_MEMORY;
        if (!status && r > 0) status = reserve(&T->C, sp, 0, r, r);
        T->RB = T->P.nrows - T->KB;
    }
    if (!status) return T;
    sylva__tiled_free(T);
    sylva__fail(SYLVA_ERR_NO_MEMORY, "out of memory tiling a front of %lld rows", (long long)sp->m);
    return NULL;
}

int sylva__tiled_submit_prepared(sylva__tiled *T, const sylva__tiled_spec *sp)
{
    int64_t r = sp->m - sp->k;
    size_t es = sylva__dtype_size(sp->precision);
    T->spec = sp;
    T->work = sp->work;
    if (!T->work) {
        starpu_vector_data_register(&T->work, -1, 0, 1, es);
        T->own_work = 1;
    }
    T->P.whole = sp->P;
    T->C.whole = sp->C;
    int status = sp->copies ? copy_out(&T->P, sp, sp->m, es, 0) : partition(&T->P);
    if (!status && r > 0) status = sp->copies ? copy_out(&T->C, sp, r, es, T->KB) : partition(&T->C);
    if (!status) status = submit_tile_tasks(T);
    /* The tiles back (or, after a failure, whatever was cut). */
    int back = untile(&T->P, sp);
    int back_c = untile(&T->C, sp);
    if (!status) status = back ? back : back_c;
    if (T->own_work) starpu_data_unregister_submit(T->work);
    T->own_work = 0;
    T->spec = NULL;
    return status;
}

sylva__tiled *sylva__tiled_submit(const sylva__tiled_spec *sp, int *status)
{
    sylva__tiled *T = sylva__tiled_prepare(sp);
    *status = T ? sylva__tiled_submit_prepared(T, sp) : SYLVA_ERR_NO_MEMORY;
    return T;
}

int64_t sylva__tiled_priorities(int64_t m, int64_t k, int64_t nb)
{
    /* submit_tile_tasks: the first POTRF has 2·NB + 2 over the base. */
    int64_t NB = (k + nb - 1) / nb + (m - k + nb - 1) / nb;
    return 2 * NB + 3;
}

double sylva__tiled_task_count(int64_t m, int64_t k, int64_t nb)
{
    double KB = (double)((k + nb - 1) / nb), NB = KB + (double)((m - k + nb - 1) / nb), tasks = 0;
    for (double j = 0; j < KB; j++) tasks += 1 + (NB - j - 1) + (NB - j - 1) * (NB - j) / 2;
    return tasks;
}

static void matrix_free(tiled_matrix *t)
{
    drop_arrays(t);
    free(t->row0);
    free(t->col0);
}

void sylva__tiled_free(sylva__tiled *T)
{
    if (!T) return;
    free(T->potrf_args);
    matrix_free(&T->P);
    matrix_free(&T->C);
    free(T);
}
