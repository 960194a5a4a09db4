/* codelet_solve_piece.c — the CPU solve's task: one piece of the tree, one
 * direction, one chunk of right-hand-side columns (arguments in
 * runtime_internal.h, bodies per precision in t_solve_piece.c). Tasks carry
 * no data handles: everything is host memory of the solve call, and the
 * order comes from explicit dependencies along the tree (solve_cpu.c). The
 * workspace is the calling worker's slice of the run's scratch, made before
 * submission, so a task never allocates and cannot fail. A cost model
 * (below) lets dmda-family schedulers place the tasks; when the run is
 * traced, each task records its start, end and worker in its arguments.
 */
#include <string.h>

#include "front_cpu.h"
#include "runtime_internal.h"

#define SYLVA_DOUBLE
#include "t_solve_piece.c"
#define SYLVA_SINGLE
#include "t_solve_piece.c"

static void solve_piece_cpu(void *buffers[], void *cl_arg)
{
    (void)buffers;
    sylva__solve_piece_args *a = cl_arg;
    void *scratch = a->run->scratch[starpu_worker_get_id()];
    if (a->run->trace) a->t0 = sylva__now();
    if (a->run->precision == SYLVA_FLOAT32) sylva__s_solve_piece_cpu(a, scratch);
    else sylva__d_solve_piece_cpu(a, scratch);
    if (a->run->trace) {
        a->t1 = sylva__now();
        a->worker = starpu_worker_get_id();
    }
}

/* Entries of L a task reads (the solve's cost: it streams L once, level-2
 * per column with few columns), from the piece's shape. */
static double task_entries(const sylva__solve_piece_args *a)
{
    const sylva__solve_pieces *sp = a->run->sp;
    const sylva__tree *t = sp->tree;
    int64_t p = a->piece;
    const sylva__front *fr = &t->fronts[sp->first[p]];
    double m = (double)fr->m, k = (double)fr->k, r = m - k, bs = SYLVA__SOLVE_DIAG_BLOCK;
    switch (a->kind) {
    case SYLVA__SOLVE_FWD:
    case SYLVA__SOLVE_BWD:
        if (sp->diag_blocks[p] > 1) return bs * bs / 2;
        return sp->split_fwd[p] > 1 || sp->split_bwd[p] > 1 ? k * k / 2 : sp->work[p];
    case SYLVA__SOLVE_FWD_PART: return r / (double)sp->split_fwd[p] * k;
    case SYLVA__SOLVE_BWD_PART: return r * k / (double)sp->split_bwd[p];
    case SYLVA__SOLVE_FWD_DIAG:
    case SYLVA__SOLVE_BWD_DIAG: return bs * bs / 2 + (a->part == sp->diag_blocks[p] - 1 ? r * k : 0);
    default: {
        int64_t b0, b1;
        sylva__solve_diag_group(sp, p, a->kind == SYLVA__SOLVE_BWD_UPD, a->part, a->group, &b0, &b1);
        return (double)(b1 - b0) * bs * bs;
    }
    }
}

/* Expected µs of a task. Without a model, dmda-family schedulers (the
 * default with GPU workers) place a task on the worker with the fewest
 * queued tasks, so a ready task could queue behind a long one while other
 * workers idled; with this estimate they place it where it ends first.
 * Streaming L at ~6 GB/s a worker, 2·nc flops an entry at ~8 Gflop/s, and
 * a task's fixed cost: only the ratios between tasks matter much. */
static double task_cost(struct starpu_task *task, unsigned nimpl)
{
    (void)nimpl;
    const sylva__solve_piece_args *a = task->cl_arg;
    double e = task_entries(a);
    return 2.0 + e * (8.0 / 6e3 + 2.0 * (double)a->nc / 8e3);
}

static struct starpu_perfmodel solve_piece_model = {
    .type = STARPU_COMMON,
    .cost_function = task_cost,
    .symbol = "sylva_solve_piece",
};

struct starpu_codelet sylva__solve_piece_codelet = {
    .cpu_funcs = {solve_piece_cpu},
    .nbuffers = 0,
    .model = &solve_piece_model,
    .name = "sylva_solve_piece",
};
