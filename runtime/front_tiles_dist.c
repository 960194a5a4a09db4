/* front_tiles_dist.c — a large front's tiles spread over the ranks of a
 * distributed factorization: the hooks of front_tiles.c for StarPU-MPI.
 * Tile (bi, bl) of the front's block grid belongs to the rank at
 * (bi mod pr, bl mod pc) of a pr × pc grid of the ranks (2D block-cyclic,
 * ScaLAPACK's layout; pc the largest divisor of the rank count not above
 * its square root), registered with the next tag of the run on every rank.
 * The copies out of and back into the whole front run where it was
 * assembled (StarPU-MPI sends each written tile to its owner, and brings
 * each tile the gather reads); every tile task runs on the owner of the
 * tile it writes. Bytes moved are counted at submission from StarPU-MPI's
 * rules: a rank that reads a tile it does not hold receives it from the
 * owner (once: the cache), a rank that writes another's tile sends it
 * back, and a write drops every other copy.
 */
#include <stdlib.h>
#include <string.h>

#include <starpu_mpi.h>

#include "runtime_internal.h"

typedef struct tile_rec {
    int owner;
    size_t bytes;
    unsigned char *held; /* per rank: holds a valid copy */
} tile_rec;

typedef struct tile_dist {
    sylva__tile_hooks hooks; /* first: the hooks are the object */
    int me, nranks, pr, pc;
    int64_t *next_tag;
    double *sent, *received;
    tile_rec *rec;
    int64_t nrec, cap;
    unsigned char *held; /* cap × nranks */
} tile_dist;

static void count(tile_dist *d, int from, int to, size_t bytes)
{
    if (d->me == from) *d->sent += (double)bytes;
    if (d->me == to) *d->received += (double)bytes;
}

static void tile(void *ctx, starpu_data_handle_t h, int64_t bi, int64_t bl, size_t bytes)
{
    tile_dist *d = ctx;
    /* cap is the front's lower block count: the caller registers no more. */
    tile_rec *r = &d->rec[d->nrec];
    r->owner = (int)((bi % d->pr) * d->pc + bl % d->pc);
    r->bytes = bytes;
    r->held = d->held + d->nrec * d->nranks;
    r->held[r->owner] = 1;
    d->nrec++;
    starpu_data_set_user_data(h, r);
    starpu_mpi_data_register(h, (*d->next_tag)++, r->owner);
}

/* The transfers a task on rank x makes of the tiles it names. */
static void account(tile_dist *d, const struct starpu_data_descr *descr, int n, int x)
{
    for (int i = 0; i < n; i++) {
        tile_rec *r = descr[i].mode & (STARPU_R | STARPU_W) ? starpu_data_get_user_data(descr[i].handle) : NULL;
        if (!r) continue;
        if ((descr[i].mode & STARPU_R) && !r->held[x]) {
            count(d, r->owner, x, r->bytes);
            r->held[x] = 1;
        }
        if (descr[i].mode & STARPU_W) {
            if (x != r->owner) count(d, x, r->owner, r->bytes);
            memset(r->held, 0, (size_t)d->nranks);
            r->held[r->owner] = 1;
        }
    }
}

static int insert(void *ctx, struct starpu_codelet *cl, void *arg, size_t size, struct starpu_data_descr *descr,
                  int n, uint32_t where, int prio, double flops, void (*done)(void *), void *done_arg, int node)
{
    tile_dist *d = ctx;
    int x = node;
    for (int i = 0; x < 0 && i < n; i++)
        if (descr[i].mode & STARPU_W) x = starpu_mpi_data_get_rank(descr[i].handle);
    account(d, descr, n, x);
    if (node >= 0)
        return SYLVA_STARPU(starpu_mpi_task_insert(
            MPI_COMM_WORLD, cl, STARPU_CL_ARGS_NFREE, arg, size, STARPU_DATA_MODE_ARRAY, descr, n,
            STARPU_EXECUTE_WHERE, where, STARPU_PRIORITY, prio, STARPU_FLOPS, flops, STARPU_CALLBACK_WITH_ARG_NFREE,
            done, done_arg, STARPU_EXECUTE_ON_NODE, node, 0));
    return SYLVA_STARPU(starpu_mpi_task_insert(MPI_COMM_WORLD, cl, STARPU_CL_ARGS_NFREE, arg, size,
                                               STARPU_DATA_MODE_ARRAY, descr, n, STARPU_EXECUTE_WHERE, where,
                                               STARPU_PRIORITY, prio, STARPU_FLOPS, flops,
                                               STARPU_CALLBACK_WITH_ARG_NFREE, done, done_arg, 0));
}

sylva__tile_hooks *sylva__tile_dist_new(int home, int64_t m, int64_t k, int64_t nb, int me, int nranks,
                                        int64_t *next_tag, double *sent, double *received)
{
    int64_t blocks = (k + nb - 1) / nb + (m - k + nb - 1) / nb;
    tile_dist *d = sylva__calloc(1, sizeof *d);
    if (!d) return NULL;
    d->cap = blocks * (blocks + 1) / 2;
    d->rec = sylva__calloc((size_t)d->cap + 1, sizeof *d->rec);
    d->held = sylva__calloc((size_t)(d->cap + 1) * (size_t)nranks, 1);
    if (!d->rec || !d->held) {
        sylva__tile_dist_free(&d->hooks);
        return NULL;
    }
    d->me = me;
    d->nranks = nranks;
    for (d->pc = 1; (d->pc + 1) * (d->pc + 1) <= nranks; d->pc++) {}
    while (nranks % d->pc) d->pc--;
    d->pr = nranks / d->pc;
    d->next_tag = next_tag;
    d->sent = sent;
    d->received = received;
    d->hooks = (sylva__tile_hooks){.ctx = d, .tile = tile, .insert = insert, .home = home};
    return &d->hooks;
}

void sylva__tile_dist_free(sylva__tile_hooks *h)
{
    tile_dist *d = (tile_dist *)h;
    if (!d) return;
    free(d->rec);
    free(d->held);
    free(d);
}
