/* factorize_dist.c — the factorization over several processes with
 * StarPU-MPI (runtime_internal.h's sylva__factor_submit_dist): the groups
 * are mapped to ranks once per factor by batching/'s proportional mapping
 * (sylva__plan_map_build: subtrees dealt by flops, a top group owned by the
 * part holding most of its flops); every rank registers every handle with
 * its tag and owner and submits the same task sequence with
 * starpu_mpi_task_insert, so each group task runs on the rank that owns its
 * L slice and CB pool — on its GPUs in a GPU run (the mode is the same on
 * every rank; the groups' patterns are per-node data), else on its CPU
 * workers — and StarPU-MPI sends a CB pool to each other rank
 * that reads it (once: its cache), the pools being temporary data (home
 * node −1) everywhere (GPU runs: of the size class the device allocator
 * reuses). A's values: rank 0 sends each rank the entries its
 * groups assemble (packed in their scatter order) before the tasks; each
 * rank registers its own copy, read only by its own tasks. A large front
 * below the split is tiled on its owner alone (front_tiles.c; a GPU run
 * factors it whole on the owner's GPU); one above it — the top of the
 * tree, where one front may hold a third of the flops — has its tiles
 * dealt over the ranks (front_tiles_dist.c), each tile task run by the
 * owner of the tile it writes (on its GPU in a GPU run). L stays on the
 * rank that made it (on its GPU after a GPU run, until the solve,
 * solve_dist.c, copies it to that rank's host); rank 0's address space has
 * room for all of it, which sylva__numeric_gather fills on request, once
 * it has checked that rank 0 may. A task that fails does
 * not stop the submission on its rank — the others would wait for CBs it
 * never sends —; the statuses are combined when every rank has finished
 * (per front the smallest failing column any rank recorded), and the
 * first error of the lowest failing rank is every rank's (numeric.c).
 * Bytes sent and received are counted here from what the graph moves.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <starpu_mpi.h>

#include "runtime_internal.h"
#include "solve_dist.h"

/* MPI tag of each handle: L of group g, the CB pool of g, A's values of
 * rank r, then the dealt tiles, all after the factor's base (StarPU-MPI
 * tags are 64-bit): each factor has its own range, so that factors alive
 * at once (each with its L registered) never share a tag. */
#define TAG_RANGE ((int64_t)1 << 40)
static int64_t tag_L(const sylva__numeric *N, int64_t g) { return N->tag_base + g; }
static int64_t tag_CB(const sylva__numeric *N, int64_t ng, int64_t g) { return N->tag_base + ng + g; }
static int64_t tag_A(const sylva__numeric *N, int64_t ng, int r) { return N->tag_base + 2 * ng + r; }

/* The point-to-point tag of A's values (sylva's own communicator). */
#define VALUES_TAG 7

/* Per-run storage, freed by release(). */
typedef struct drun {
    int me, nranks;
    int mode, gpu;            /* the run's mode (the same on every rank); GPU workers run the groups */
    int64_t tile_rows;        /* of the tiled fronts (CPU) or the dealt ones (both) */
    double **child_ptrs;      /* GPU runs: the group tasks' child pool pointers */
    starpu_data_handle_t *A;  /* per rank */
    void *local_values;       /* this rank's copy of A's values (ranks > 0) */
    starpu_data_handle_t *CB;
    int64_t *left;            /* readers of each CB pool not yet submitted */
    int64_t *unread;          /* tiled CBs: local readers that have not ended */
    void **cbmem;
    sylva__tiled **tiled;
    sylva__tile_hooks **hooks; /* fronts whose tiles are dealt over the ranks */
    sylva__group_args *args;
    struct starpu_data_descr *descr;
    unsigned char *sent;      /* ng × nranks: CB pool g already sent to rank r */
    int64_t next_tag;         /* the next free MPI tag (dealt tiles) */
    double bytes_sent, bytes_received;
} drun;

static void release(drun *r, const sylva__plan *pl, size_t elem)
{
    int64_t ng = pl->ngroups;
    if (r->tiled)
        for (int64_t g = 0; g < ng; g++) sylva__tiled_free(r->tiled[g]);
    if (r->hooks)
        for (int64_t g = 0; g < ng; g++) sylva__tile_dist_free(r->hooks[g]);
    free(r->hooks);
    if (r->cbmem) /* tiled CBs read by other ranks, or whose readers never ran */
        for (int64_t g = 0; g < ng; g++)
            sylva__host_unmap(__atomic_exchange_n(&r->cbmem[g], NULL, __ATOMIC_ACQ_REL),
                              sylva__tiled_cb_bytes(pl, g, elem));
    free(r->A);
    free(r->local_values);
    free(r->CB);
    free(r->left);
    free(r->unread);
    free(r->cbmem);
    free(r->tiled);
    free(r->args);
    free(r->descr);
    free(r->sent);
    free(r->child_ptrs);
}

/* The owners of the groups: batching/'s map onto nranks parts, once per
 * factor. */
static int make_owners(sylva__numeric *N, int nranks)
{
    if (N->owner && N->nranks == nranks) return SYLVA_OK;
    free(N->owner);
    free(N->owner_top);
    sylva__solve_dist_plan_free(N->dsolve);
    N->dsolve = NULL;
    N->owner = NULL;
    N->owner_top = NULL;
    sylva__plan_map map;
    int status = sylva__plan_map_build(N->plan, nranks, &map);
    if (status) return status;
    size_t ng = (size_t)N->plan->ngroups;
    N->owner = sylva__malloc(ng + 1, sizeof *N->owner);
    N->owner_top = sylva__malloc(ng + 1, 1);
    if (N->owner && N->owner_top) {
        memcpy(N->owner, map.group_part, ng * sizeof *N->owner);
        memcpy(N->owner_top, map.group_top, ng);
    }
    sylva__plan_map_free(&map);
    if (!N->owner || !N->owner_top) return SYLVA_ERR_NO_MEMORY;
    N->nranks = nranks;
    return SYLVA_OK;
}

/* Group g's L handle on every rank, once per factor: home in N->values on
 * its owner and on rank 0 (which gathers L for the solve), none elsewhere;
 * the same interface and shape on every rank (StarPU-MPI sends it as such). */
static void register_L(sylva__numeric *N, int me)
{
    const sylva__plan *pl = N->plan;
    for (int64_t g = 0; g < pl->ngroups; g++) {
        if (N->L[g]) continue;
        sylva__register_L_group(N, g, me == 0 || N->owner[g] == me ? STARPU_MAIN_RAM : -1);
        starpu_mpi_data_register(N->L[g], tag_L(N, g), N->owner[g]);
    }
}

/* A's values where they are assembled: rank 0 sends each rank the entries
 * of the fronts of its groups (in group, front, amap order); each rank
 * keeps them at their places in an array of A's size (only those entries
 * are written or read) and registers it as its own A handle. */
static int send_values(sylva__numeric *N, drun *r, const void *A_values, int64_t nnz)
{
    const sylva__plan *pl = N->plan;
    const sylva__tree *t = pl->tree;
    size_t es = N->elem;
    int64_t *count = sylva__calloc((size_t)r->nranks, sizeof *count);
    int status = count ? SYLVA_OK : SYLVA_ERR_NO_MEMORY;
    for (int64_t g = 0; count && g < pl->ngroups; g++)
        for (int64_t q = pl->group_ptr[g]; q < pl->group_ptr[g + 1]; q++) {
            int64_t f = pl->front_list[q];
            count[N->owner[g]] += t->amap_ptr[f + 1] - t->amap_ptr[f];
        }
    char *pack = NULL;
    if (r->me > 0 && count) {
        r->local_values = sylva__malloc((size_t)(nnz > 0 ? nnz : 1), es);
        pack = sylva__malloc((size_t)count[r->me] + 1, es);
        if (!r->local_values || !pack) status = SYLVA_ERR_NO_MEMORY;
    } else if (count) { /* rank 0: one buffer, the largest rank's */
        int64_t most = 0;
        for (int q = 1; q < r->nranks; q++) most = count[q] > most ? count[q] : most;
        if (!(pack = sylva__malloc((size_t)most + 1, es))) status = SYLVA_ERR_NO_MEMORY;
    }
    status = sylva__dist_agree(status); /* a rank without room must not leave rank 0 sending */
    for (int dest = 1; dest < r->nranks && !status; dest++) {
        if (r->me == 0) {
            size_t at = 0;
            for (int64_t g = 0; g < pl->ngroups; g++) {
                if (N->owner[g] != dest) continue;
                for (int64_t q = pl->group_ptr[g]; q < pl->group_ptr[g + 1]; q++) {
                    int64_t f = pl->front_list[q];
                    for (int64_t p = t->amap_ptr[f]; p < t->amap_ptr[f + 1]; p++, at++)
                        memcpy(pack + at * es, (const char *)A_values + (size_t)t->amap_src[p] * es, es);
                }
            }
            status = sylva__dist_send_recv(pack, (int64_t)at * (int64_t)es, 0, dest, VALUES_TAG);
            r->bytes_sent += (double)at * (double)es;
        } else if (r->me == dest) {
            status = sylva__dist_send_recv(pack, count[dest] * (int64_t)es, 0, dest, VALUES_TAG);
            r->bytes_received += (double)count[dest] * (double)es;
            size_t at = 0;
            for (int64_t g = 0; g < pl->ngroups && !status; g++) {
                if (N->owner[g] != dest) continue;
                for (int64_t q = pl->group_ptr[g]; q < pl->group_ptr[g + 1]; q++) {
                    int64_t f = pl->front_list[q];
                    for (int64_t p = t->amap_ptr[f]; p < t->amap_ptr[f + 1]; p++, at++)
                        memcpy((char *)r->local_values + (size_t)t->amap_src[p] * es, pack + at * es, es);
                }
            }
        }
    }
    free(pack);
    free(count);
    status = sylva__dist_agree(status);
    if (status) return status;
    uint32_t len = (uint32_t)(nnz > 0 ? nnz : 1);
    for (int q = 0; q < r->nranks; q++) {
        const void *home = q != r->me ? NULL : r->me == 0 ? A_values : r->local_values;
        if (home) starpu_vector_data_register(&r->A[q], STARPU_MAIN_RAM, (uintptr_t)home, len, es);
        else starpu_vector_data_register(&r->A[q], -1, 0, len, es);
        starpu_mpi_data_register(r->A[q], tag_A(N, pl->ngroups, q), q);
    }
    return SYLVA_OK;
}

/* Group g's CB pool on every rank: temporary, or — a front tiled on its
 * owner alone — host memory of its own there (front_tiles.c partitions it
 * on its home); a front whose tiles are dealt over the ranks (*tile_it = 2)
 * copies its tiles out, so its CB is temporary everywhere. The same
 * interface on every rank. A tiled CB that cannot be had is made temporary
 * and the front factored whole (*tile_it = 0): a local choice the other
 * ranks do not see. */
static void register_cb(sylva__numeric *N, drun *r, int64_t g, int *tile_it)
{
    const sylva__plan *pl = N->plan;
    if (pl->cb_size[g] == 0) return;
    /* GPU runs: a pool of the size class the device allocator reuses. */
    uint32_t pool = r->gpu ? sylva__cb_class(pl->cb_size[g]) : (uint32_t)pl->cb_size[g];
    const sylva__front *f = &pl->tree->fronts[pl->front_list[pl->group_ptr[g]]];
    uint32_t rr = (uint32_t)(f->m - f->k);
    int tiled_shape = pl->large[g] && *tile_it >= 0;
    if (*tile_it == 1) {
        r->cbmem[g] = sylva__host_alloc((size_t)rr * rr, N->elem);
        if (!r->cbmem[g]) *tile_it = 0;
    }
    if (r->cbmem[g])
        starpu_matrix_data_register(&r->CB[g], STARPU_MAIN_RAM, (uintptr_t)r->cbmem[g], rr, rr, rr, N->elem);
    else if (tiled_shape)
        starpu_matrix_data_register(&r->CB[g], -1, 0, rr, rr, rr, N->elem);
    else
        starpu_vector_data_register(&r->CB[g], -1, 0, pool, N->elem);
    starpu_mpi_data_register(r->CB[g], tag_CB(N, pl->ngroups, g), N->owner[g]);
}


/* A large front above the mapping's split with at least two pivot blocks:
 * its tiles are dealt over the ranks (front_tiles_dist.c) instead of
 * staying on its owner. (A front of one pivot block has one POTRF and a
 * TRSM per block below it before its CB updates: not enough work to pay
 * for a message per tile; measured on 2 ranks, bcsstk14 with tiles of 48,
 * such fronts made the factorization latency-bound.) */
static int dealt(const sylva__numeric *N, int64_t g, int64_t tile_rows)
{
    const sylva__plan *pl = N->plan;
    if (!pl->large[g] || tile_rows <= 0 || !N->owner_top[g]) return 0;
    return pl->tree->fronts[pl->front_list[pl->group_ptr[g]]].k > tile_rows;
}

/* How group g's large front runs: 2 its tiles dealt over the ranks (above
 * the split), 1 tiled on its owner, 0 whole, −1 not a tiled shape. Every
 * rank agrees on the shape (only the owner may fall back from 1 to 0). A
 * GPU run factors a front below the split whole on its owner's GPU (the
 * native path), as one process does. */
static int tiling(const sylva__numeric *N, const drun *r, int64_t g)
{
    const sylva__plan *pl = N->plan;
    if (!pl->large[g] || r->tile_rows <= 0) return -1;
    if (dealt(N, g, r->tile_rows)) return 2;
    if (r->gpu) return -1;
    return N->owner[g] == r->me ? 1 : 0;
}

/* Bytes of group g's CB pool as StarPU-MPI sends it. */
static double cb_bytes(const sylva__numeric *N, const drun *r, int64_t g)
{
    const sylva__plan *pl = N->plan;
    if (tiling(N, r, g) >= 0) return (double)sylva__tiled_cb_bytes(pl, g, N->elem);
    return (double)(r->gpu ? sylva__cb_class(pl->cb_size[g]) : (uint32_t)pl->cb_size[g]) * (double)N->elem;
}

/* Everything the dealt fronts' submissions allocate, had before any rank
 * communicates (a rank that ran out of memory halfway through would leave
 * the others waiting for its tiles). */
static int prepare_dealt(sylva__numeric *N, drun *r)
{
    const sylva__plan *pl = N->plan;
    int64_t tile_rows = r->tile_rows;
    for (int64_t g = 0; g < pl->ngroups; g++) {
        if (!dealt(N, g, tile_rows)) continue;
        sylva__tiled_spec spec = sylva__tiled_spec_of(N, NULL, g, tile_rows, 0, NULL);
        spec.copies = 1;
        r->hooks[g] = sylva__tile_dist_new(N->owner[g], spec.m, spec.k, tile_rows, r->me, r->nranks,
                                           &r->next_tag, &r->bytes_sent, &r->bytes_received);
        r->tiled[g] = r->hooks[g] ? sylva__tiled_prepare(&spec) : NULL;
        if (!r->tiled[g]) return sylva__fail(SYLVA_ERR_NO_MEMORY, "out of memory dealing a front's tiles");
    }
    return SYLVA_OK;
}

static int submit_group(sylva__numeric *N, drun *r, int64_t g, int64_t band)
{
    const sylva__plan *pl = N->plan;
    int mine = N->owner[g] == r->me;
    int tile_it = tiling(N, r, g);
    register_cb(N, r, g, &tile_it);
    sylva__group_args *a = &r->args[g];
    sylva__group_args_init(a, pl, N, g, tile_it > 0, r->gpu ? r->child_ptrs + pl->dep_ptr[g] : NULL,
                           N->rt->cost[g]);
    a->gpu = r->gpu ? N->rt->gpu : NULL;
    a->cbmem = r->gpu ? NULL : r->cbmem;
    a->cb_unread = r->gpu ? NULL : r->unread;
    /* Plan order, as on one process (GPU runs: StarPU's default order). */
    int prio = r->gpu ? 0 : sylva__group_priority_base(g, pl->ngroups, band);
    int nbuf = 0;
    struct starpu_data_descr *descr = r->descr;
    descr[nbuf++] = (struct starpu_data_descr){r->A[N->owner[g]], STARPU_R};
    descr[nbuf++] = (struct starpu_data_descr){N->L[g], STARPU_W};
    if (r->gpu) { /* the group's pattern (every rank has it) and the workspace */
        a->buf_maps = nbuf;
        descr[nbuf++] = (struct starpu_data_descr){N->rt->maps[g], STARPU_R};
        a->buf_work = nbuf;
        descr[nbuf++] = (struct starpu_data_descr){N->work, STARPU_SCRATCH};
    }
    if (pl->cb_size[g] > 0) {
        a->buf_cb = nbuf;
        descr[nbuf++] = (struct starpu_data_descr){r->CB[g], STARPU_W};
    }
    a->buf_child0 = nbuf;
    for (int64_t d = pl->dep_ptr[g]; d < pl->dep_ptr[g + 1]; d++) {
        int64_t c = pl->dep_list[d];
        descr[nbuf++] = (struct starpu_data_descr){r->CB[c], STARPU_R};
        int from = N->owner[c], to = N->owner[g];
        unsigned char *once = &r->sent[c * r->nranks + to];
        if (from != to && !*once) { /* StarPU-MPI's cache sends it once */
            *once = 1;
            double b = cb_bytes(N, r, c);
            if (r->me == from) r->bytes_sent += b;
            if (r->me == to) r->bytes_received += b;
        }
    }
    uint32_t where = sylva__group_where(r->mode, pl->large[g]);
    int status = SYLVA_STARPU(starpu_mpi_task_insert(
        MPI_COMM_WORLD, &sylva__group_codelet, STARPU_CL_ARGS_NFREE, a, sizeof *a, STARPU_DATA_MODE_ARRAY,
        descr, nbuf, STARPU_EXECUTE_WHERE, where, STARPU_PRIORITY, r->gpu ? 0 : prio + (int)band - 1,
        STARPU_FLOPS, pl->group_flops[g], STARPU_NAME, pl->large[g] ? "front" : "batch",
        STARPU_CALLBACK_WITH_ARG_NFREE, sylva__group_done, a, 0));
    if (status || tile_it <= 0 || (tile_it == 1 && !mine)) return status;
    sylva__tiled_spec spec = sylva__tiled_spec_of(N, r->CB[g], g, r->tile_rows, prio, a);
    if (tile_it == 1) {
        r->tiled[g] = sylva__tiled_submit(&spec, &status);
        return status;
    }
    /* Dealt: prepared on every rank before the run (prepare_dealt); on a
     * GPU run the tiles run on the owners' GPUs (POTRF's workspace the
     * groups'). */
    spec.copies = 1;
    spec.hooks = r->hooks[g];
    if (r->gpu) {
        spec.where = where;
        spec.work = N->work;
    }
    return sylva__tiled_submit_prepared(r->tiled[g], &spec);
}

/* The local tiled CBs' readers: those on the owner (their callbacks free
 * it), plus one that never ends when another rank reads it (release()
 * frees it after the run, once StarPU-MPI has sent it). */
static int count_readers(const sylva__numeric *N, drun *r)
{
    const sylva__plan *pl = N->plan;
    char *remote = sylva__calloc((size_t)pl->ngroups + 1, 1);
    if (!remote) return SYLVA_ERR_NO_MEMORY;
    for (int64_t h = 0; h < pl->ngroups; h++)
        for (int64_t d = pl->dep_ptr[h]; d < pl->dep_ptr[h + 1]; d++) {
            int64_t c = pl->dep_list[d];
            if (N->owner[c] != r->me) continue;
            if (N->owner[h] == r->me) r->unread[c]++;
            else remote[c] = 1;
        }
    for (int64_t c = 0; c < pl->ngroups; c++) r->unread[c] += remote[c];
    free(remote);
    return SYLVA_OK;
}

/* This rank's share of the run, and every rank's into N->rank_stats. */
static int share_stats(sylva__numeric *N, drun *r, sylva__factor_report *rep)
{
    const sylva__plan *pl = N->plan;
    sylva__rank_stats mine;
    memset(&mine, 0, sizeof mine);
    mine.tasks = rep->tasks_cpu + rep->tasks_gpu; /* sylva__stats_read's */
    mine.busy_seconds = rep->cpu_busy + rep->gpu_busy;
    /* Flops: the groups factored whole here, and this rank's tile tasks. */
    mine.flops = N->tile_flops;
    mine.tile_flops = N->tile_flops;
    for (int64_t g = 0; g < pl->ngroups; g++) {
        if (N->owner[g] != r->me) continue;
        int64_t lo;
        mine.factor_bytes += (double)N->elem * (double)sylva__plan_group_l(pl, g, &lo);
        if (r->args[g].factor) mine.flops += pl->group_flops[g];
    }
    mine.bytes_sent = r->bytes_sent;
    mine.bytes_received = r->bytes_received;
    mine.gpus = rep->gpus;
    mine.gpu_busy_seconds = rep->gpu_busy;
    mine.peak_device_bytes = rep->peak_device;
    mine.bytes_host_device = rep->bytes_to_device + rep->bytes_to_host;
    rep->busy_seconds = mine.busy_seconds;
    rep->bytes_sent = mine.bytes_sent;
    rep->bytes_received = mine.bytes_received;
    return sylva__dist_all_gather(&mine, N->rank_stats, (int64_t)sizeof mine);
}

/* Bytes of the groups of L that rank me owns (mine) or not. */
static double L_bytes(const sylva__numeric *N, int me, int mine)
{
    const sylva__plan *pl = N->plan;
    double bytes = 0;
    for (int64_t g = 0; g < pl->ngroups; g++) {
        if ((N->owner[g] == me) != mine) continue;
        int64_t lo;
        bytes += (double)N->elem * (double)sylva__plan_group_l(pl, g, &lo);
    }
    return bytes;
}

/* This rank's part of L and its copy of A's values (rank 0 has the
 * caller's) must fit the memory it may still fill (core/mem_budget.c;
 * SYLVA_MEMORY_LIMIT): checked before any communication, so a rank without
 * room stops every rank. */
static int check_memory(const sylva__numeric *N, int me, int64_t nnz)
{
    double bytes = (me > 0 ? (double)nnz * (double)N->elem : 0) + L_bytes(N, me, 1);
    return sylva__memory_check(bytes, "the distributed factorization", "this rank's part of L and of A");
}

/* The tile rows of a run: CPU runs tile every large front (tile_rows, the
 * options'); GPU runs deal the top ones only, in tiles of
 * options.gpu_tile_rows (none when < 0, SYLVA__GPU_TILE_ROWS when 0). */
static int64_t run_tile_rows(const sylva__numeric *N, int gpu, int64_t tile_rows)
{
    if (!gpu) return tile_rows;
    return N->gpu_tile_rows < 0 ? 0 : N->gpu_tile_rows > 0 ? N->gpu_tile_rows : SYLVA__GPU_TILE_ROWS;
}

/* GPU runs: the groups' patterns, which every rank has, as per-node data
 * (StarPU-MPI moves none of it). */
static void register_maps(sylva__numeric *N)
{
    for (int64_t g = 0; g < N->plan->ngroups; g++)
        starpu_mpi_data_register(N->rt->maps[g], -1, STARPU_MPI_PER_NODE);
}

int sylva__factor_submit_dist(sylva__numeric *N, const void *A_values, int64_t nnz, int64_t tile_rows,
                              int mode, sylva__factor_report *rep)
{
    const sylva__plan *pl = N->plan;
    int64_t ng = pl->ngroups;
    drun r;
    memset(&r, 0, sizeof r);
    r.me = sylva__dist_rank();
    r.nranks = sylva__dist_size();
    r.mode = mode;
    r.gpu = mode != SYLVA_MODE_CPU;
    r.tile_rows = run_tile_rows(N, r.gpu, tile_rows);
    rep->tasks = 0;
    rep->ranks = r.nranks;
    N->gathered = 0;
    /* Factors are made in the same order on every rank (collective). */
    static int64_t factors;
    if (!N->tag_base) N->tag_base = ++factors * TAG_RANGE;
    /* Everything a rank needs before the first submission, agreed: no rank
     * may start posting communications that another will never match. */
    int status = make_owners(N, r.nranks);
    if (!status) status = check_memory(N, r.me, nnz);
    if (!status && r.gpu) status = sylva__factor_prepare_gpu(N, mode, nnz);
    if (!status) {
        r.A = sylva__calloc((size_t)r.nranks, sizeof *r.A);
        r.CB = sylva__calloc((size_t)ng + 1, sizeof *r.CB);
        r.left = sylva__calloc((size_t)ng + 1, sizeof *r.left);
        r.unread = sylva__calloc((size_t)ng + 1, sizeof *r.unread);
        r.cbmem = sylva__calloc((size_t)ng + 1, sizeof *r.cbmem);
        r.tiled = sylva__calloc((size_t)ng + 1, sizeof *r.tiled);
        r.hooks = sylva__calloc((size_t)ng + 1, sizeof *r.hooks);
        r.args = sylva__calloc((size_t)ng + 1, sizeof *r.args);
        r.descr = sylva__malloc((size_t)pl->tree->nfronts + 6, sizeof *r.descr);
        r.sent = sylva__calloc((size_t)(ng + 1) * (size_t)r.nranks, 1);
        if (r.gpu && !(r.child_ptrs = sylva__calloc((size_t)pl->dep_ptr[ng] + 1, sizeof *r.child_ptrs)))
            status = sylva__fail(SYLVA_ERR_NO_MEMORY, "out of memory submitting the factorization");
        if (!N->rank_stats) N->rank_stats = sylva__calloc((size_t)r.nranks, sizeof *N->rank_stats);
        if (!status && (!N->rank_stats || !r.A || !r.CB || !r.left || !r.unread || !r.cbmem || !r.tiled ||
                        !r.hooks || !r.args || !r.descr || !r.sent))
            status = sylva__fail(SYLVA_ERR_NO_MEMORY, "out of memory submitting the factorization");
    }
    r.next_tag = N->tag_base + 2 * ng + r.nranks; /* after tag_A's */
    if (!status) status = prepare_dealt(N, &r);
    status = sylva__dist_agree(status);
    if (status) {
        release(&r, pl, N->elem);
        return status;
    }
    sylva__runtime_hold();
    status = r.gpu ? sylva__gpu_workers_reset() : SYLVA_OK;
    if (!status) status = sylva__task_log_start(N, ng);
    if (!status) status = count_readers(N, &r);
    status = sylva__dist_agree(status);
    if (!status) status = send_values(N, &r, A_values, nnz);
    if (status) {
        sylva__runtime_release();
        release(&r, pl, N->elem);
        return status;
    }
    register_L(N, r.me);
    if (r.gpu) register_maps(N);
    sylva__stats_reset();
    for (int64_t g = 0; g < ng; g++) r.left[g] = pl->readers[g];
    N->failed = 0;
    N->flops_done = 0;
    N->tile_flops = 0;
    memset(N->gpu_seconds, 0, sizeof N->gpu_seconds);
    memset(N->gpu_flops, 0, sizeof N->gpu_flops);
    memset(N->gpu_dev_flops, 0, sizeof N->gpu_dev_flops);
    memset(N->gpu_dev_lbytes, 0, sizeof N->gpu_dev_lbytes);
    int64_t band = sylva__tiled_priority_band(pl, r.gpu ? 0 : r.tile_rows);
    /* Every group is submitted on every rank whatever happens (a rank that
     * stopped would leave the others waiting); the first refusal is kept. */
    for (int64_t g = 0; g < ng; g++) {
        int st = submit_group(N, &r, g, band);
        if (st && !status) status = st;
        if (!st) rep->tasks++;
        for (int64_t d = pl->dep_ptr[g]; d < pl->dep_ptr[g + 1]; d++)
            if (--r.left[pl->dep_list[d]] == 0) starpu_data_unregister_submit(r.CB[pl->dep_list[d]]);
        if (pl->cb_size[g] > 0 && pl->readers[g] == 0) starpu_data_unregister_submit(r.CB[g]);
        sylva__submit_throttle();
    }
    int waited = SYLVA_STARPU(starpu_mpi_wait_for_all(MPI_COMM_WORLD));
    if (!status) status = waited;
    for (int q = 0; q < r.nranks; q++) starpu_data_unregister(r.A[q]);
    starpu_task_wait_for_all(); /* the unregistrations submitted above */
    /* This rank's GPU side: transfers, its GPUs' failed fronts (into
     * front_info, combined below) and peak memory; its part of L stays on
     * its GPU until a solve or a gather needs it on the host. */
    int read = sylva__factor_read_run(N, rep, r.gpu);
    if (!status) status = read;
    sylva__runtime_release();
    /* A task of this rank that could not get its workspace: this rank's
     * failure (the agreement names it), before the statuses are shared. */
    for (int64_t f = 0; f < pl->tree->nfronts && !status; f++)
        if (N->front_info[f] == SYLVA__FRONT_NO_MEMORY)
            status = sylva__fail(SYLVA_ERR_NO_MEMORY, "out of memory in a factorization task (front %lld)",
                                 (long long)f);
    /* Every front's status on every rank: the owner's, or for a front
     * whose tiles were dealt, the first failing column any rank saw (its
     * POTRF tiles ran on several ranks): the minimum over the ranks, a
     * front without failure counting as +∞. */
    int64_t nf = pl->tree->nfronts;
    for (int64_t f = 0; f < nf; f++)
        if (N->front_info[f] == SYLVA__FRONT_OK) N->front_info[f] = INT_MAX;
    int combined = sylva__dist_min_int(N->front_info, nf);
    for (int64_t f = 0; f < nf; f++)
        if (N->front_info[f] == INT_MAX) N->front_info[f] = SYLVA__FRONT_OK;
    if (!status) status = combined;
    int shared = share_stats(N, &r, rep);
    if (!status) status = shared;
    release(&r, pl, N->elem);
    return status;
}

int sylva__numeric_gather(sylva__numeric *N)
{
    if (sylva__dist_size() < 2 || N->gathered || !N->owner) return SYLVA_OK;
    const sylva__plan *pl = N->plan;
    int me = sylva__dist_rank();
    /* Rank 0 has room for the rest of L, or no rank sends it. */
    int status = me == 0 ? sylva__memory_check(L_bytes(N, 0, 0), "gathering L on rank 0", "the other ranks' part of L")
                         : SYLVA_OK;
    if ((status = sylva__dist_agree(status))) return status;
    sylva__runtime_hold();
    for (int64_t g = 0; g < pl->ngroups; g++)
        starpu_mpi_get_data_on_node_detached(MPI_COMM_WORLD, N->L[g], 0, NULL, NULL);
    /* On rank 0 an acquisition waits for the reception into N->values. */
    for (int64_t g = 0; me == 0 && g < pl->ngroups && !status; g++) {
        status = SYLVA_STARPU(starpu_data_acquire(N->L[g], STARPU_R));
        if (!status) starpu_data_release(N->L[g]);
    }
    int waited = SYLVA_STARPU(starpu_mpi_wait_for_all(MPI_COMM_WORLD));
    if (!status) status = waited;
    sylva__runtime_release();
    status = sylva__dist_agree(status);
    N->gathered = status == SYLVA_OK;
    if (N->gathered && me == 0) N->on_device = 0; /* all of L is on rank 0's host now */
    return status;
}
