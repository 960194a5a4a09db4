/* front_tiles.c — a large front factored as tile tasks so that many workers
 * share it. After the front's assembly task has written P (m × k) and its CB
 * C ((m−k)²), both matrix handles are split (StarPU's asynchronous
 * partitioning) into tiles of nb rows/columns whose boundaries respect the
 * pivot/CB split, the right-looking tiled Cholesky is submitted on the
 * tiles (POTRF, TRSM, SYRK, GEMM; StarPU infers the DAG), and the tiles are
 * gathered back so the parent's extend-add reads C whole. Plans are cleaned
 * asynchronously at once; only the tile tasks' arguments live until
 * sylva__tiled_free (after the tasks ended). Every StarPU call is checked;
 * the first refusal stops the submission and is the returned status.
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

/* One matrix split into row blocks, each split into column blocks. */
typedef struct tiled_matrix {
    starpu_data_handle_t whole;
    int64_t nrows, ncols; /* blocks */
    split_spec rows, cols;
    starpu_data_handle_t *row_blocks;
    starpu_data_handle_t *tiles; /* nrows × ncols, row-major */
} tiled_matrix;

struct sylva__tiled {
    tiled_matrix P, C;
    int64_t nb, KB, RB;
    sylva__tile_args *potrf_args; /* KB */
    sylva__tile_args update_args; /* TRSM, SYRK, GEMM: the precision only */
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
static int tile_split(tiled_matrix *t)
{
    struct starpu_data_filter fr = {.filter_func = split_filter, .nchildren = (unsigned)t->nrows,
                                    .filter_arg_ptr = &t->rows};
    struct starpu_data_filter fc = {.filter_func = split_filter, .nchildren = (unsigned)t->ncols,
                                    .filter_arg_ptr = &t->cols};
    t->row_blocks = sylva__calloc((size_t)t->nrows, sizeof *t->row_blocks);
    t->tiles = sylva__calloc((size_t)(t->nrows * t->ncols), sizeof *t->tiles);
    if (!t->row_blocks || !t->tiles) return SYLVA_ERR_NO_MEMORY;
    starpu_data_partition_plan(t->whole, &fr, t->row_blocks);
    for (int64_t i = 0; i < t->nrows; i++)
        starpu_data_partition_plan(t->row_blocks[i], &fc, t->tiles + i * t->ncols);
    starpu_data_partition_submit(t->whole, (unsigned)t->nrows, t->row_blocks);
    for (int64_t i = 0; i < t->nrows; i++)
        starpu_data_partition_submit(t->row_blocks[i], (unsigned)t->ncols, t->tiles + i * t->ncols);
    return SYLVA_OK;
}

/* Gather the tiles back and drop the plans; both are asynchronous (StarPU
 * orders them after the tile tasks), so the whole handle can be read, or
 * unregistered, by later submissions as usual. */
static void tile_gather(tiled_matrix *t)
{
    for (int64_t i = 0; i < t->nrows; i++) {
        starpu_data_handle_t *tiles = t->tiles + i * t->ncols;
        if (!tiles[0]) continue;
        starpu_data_unpartition_submit(t->row_blocks[i], (unsigned)t->ncols, tiles, -1);
        starpu_data_partition_clean(t->row_blocks[i], (unsigned)t->ncols, tiles);
    }
    starpu_data_unpartition_submit(t->whole, (unsigned)t->nrows, t->row_blocks, -1);
    starpu_data_partition_clean(t->whole, (unsigned)t->nrows, t->row_blocks);
    free(t->row_blocks);
    free(t->tiles);
    t->row_blocks = t->tiles = NULL;
}

static void tile_free_bounds(tiled_matrix *t)
{
    free(t->rows.bounds);
    free(t->cols.bounds);
}

/* Tile (i, l), i ≥ l, of the whole front: in P when l is a pivot block. */
static starpu_data_handle_t tile(const sylva__tiled *T, int64_t i, int64_t l)
{
    if (l < T->KB) return T->P.tiles[i * T->P.ncols + l];
    return T->C.tiles[(i - T->KB) * T->C.ncols + (l - T->KB)];
}

/* Submit the right-looking tiled Cholesky on T's tiles; the first task
 * StarPU refuses ends the submission (the status says which call). */
static int submit_tile_tasks(sylva__tiled *T, int *front_info, sylva_dtype precision, int base,
                             const sylva__group_args *group)
{
    /* Each tile task's callback logs it for the group (task_log.c). */
    void (*done)(void *) = group ? sylva__tile_done : NULL;
    void *arg = (void *)group;
    int64_t NB = T->KB + T->RB;
    T->update_args = (sylva__tile_args){NULL, 0, precision};
    sylva__tile_args *u = &T->update_args;
    size_t us = sizeof *u;
    int st = SYLVA_OK;
    for (int64_t j = 0; j < T->KB && !st; j++) {
        T->potrf_args[j] = (sylva__tile_args){front_info, T->P.cols.bounds[j], precision};
        int prio = base + (int)(2 * (NB - j));
        st = SYLVA_STARPU(starpu_task_insert(
            &sylva__tile_potrf_codelet, STARPU_CL_ARGS_NFREE, &T->potrf_args[j],
            sizeof T->potrf_args[j], STARPU_RW, tile(T, j, j), STARPU_PRIORITY, prio + 2,
            STARPU_CALLBACK_WITH_ARG_NFREE, done, arg, 0));
        for (int64_t i = j + 1; i < NB && !st; i++)
            st = SYLVA_STARPU(starpu_task_insert(&sylva__tile_trsm_codelet, STARPU_CL_ARGS_NFREE, u,
                                                 us, STARPU_R, tile(T, j, j), STARPU_RW,
                                                 tile(T, i, j), STARPU_PRIORITY, prio + 1,
                                                 STARPU_CALLBACK_WITH_ARG_NFREE, done, arg, 0));
        for (int64_t i = j + 1; i < NB && !st; i++)
            for (int64_t l = j + 1; l <= i && !st; l++) {
                sylva__submit_throttle();
                int p = l == j + 1 ? prio : base;
                if (i == l)
                    st = SYLVA_STARPU(starpu_task_insert(
                        &sylva__tile_syrk_codelet, STARPU_CL_ARGS_NFREE, u, us, STARPU_R,
                        tile(T, i, j), STARPU_RW, tile(T, i, i), STARPU_PRIORITY, p,
                        STARPU_CALLBACK_WITH_ARG_NFREE, done, arg, 0));
                else
                    st = SYLVA_STARPU(starpu_task_insert(
                        &sylva__tile_gemm_codelet, STARPU_CL_ARGS_NFREE, u, us, STARPU_R,
                        tile(T, i, j), STARPU_R, tile(T, l, j), STARPU_RW, tile(T, i, l),
                        STARPU_PRIORITY, p, STARPU_CALLBACK_WITH_ARG_NFREE, done, arg, 0));
            }
    }
    return st;
}

sylva__tiled *sylva__tiled_submit(starpu_data_handle_t P, starpu_data_handle_t C, int64_t m,
                                  int64_t k, int64_t nb, sylva_dtype precision, int *front_info,
                                  int prio, const sylva__group_args *group, int *status)
{
    *status = SYLVA_OK;
    sylva__tiled *T = sylva__calloc(1, sizeof *T);
    if (!T) goto oom;
    int64_t r = m - k, nbk = 0;
    T->nb = nb;
    T->P.whole = P;
    T->P.rows = (split_spec){bounds_of(k, r, nb, &T->P.nrows), 0};
    T->P.cols = (split_spec){bounds_of(k, 0, nb, &nbk), 1};
    T->P.ncols = nbk;
    T->KB = nbk;
    T->RB = T->P.nrows - nbk;
    T->potrf_args = sylva__calloc((size_t)T->KB, sizeof *T->potrf_args);
    if (!T->P.rows.bounds || !T->P.cols.bounds || !T->potrf_args || tile_split(&T->P)) goto oom;
    if (r > 0) {
        T->C.whole = C;
        T->C.rows = (split_spec){bounds_of(0, r, nb, &T->C.nrows), 0};
        T->C.cols = (split_spec){bounds_of(0, r, nb, &T->C.ncols), 1};
        if (!T->C.rows.bounds || !T->C.cols.bounds || tile_split(&T->C)) goto oom;
    }
    *status = submit_tile_tasks(T, front_info, precision, prio, group);
    tile_gather(&T->P);
    if (r > 0) tile_gather(&T->C);
    tile_free_bounds(&T->P);
    tile_free_bounds(&T->C);
    return T;
oom:
    *status = sylva__fail(SYLVA_ERR_NO_MEMORY, "out of memory tiling a front of %lld rows", (long long)m);
    if (T) {
        /* Partitioned only when both arrays were had (tile_split). */
        if (T->P.row_blocks && T->P.tiles) tile_gather(&T->P);
        if (T->C.row_blocks && T->C.tiles) tile_gather(&T->C);
        free(T->P.row_blocks);
        free(T->P.tiles);
        free(T->C.row_blocks);
        free(T->C.tiles);
        tile_free_bounds(&T->P);
        tile_free_bounds(&T->C);
    }
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

void sylva__tiled_free(sylva__tiled *T)
{
    if (!T) return;
    free(T->potrf_args);
    free(T);
}
