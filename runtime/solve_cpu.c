/* solve_cpu.c — the solve of one block of right-hand sides on the CPU
 * workers, as StarPU tasks along the tree: the block's columns are split
 * into independent chunks (more chunks when there are columns enough to
 * keep every worker busy), and for each chunk every piece of the tree
 * (batching.h, cut once per analysis and worker count) is one forward task,
 * after the forward tasks of the pieces holding its fronts' children, and
 * one backward task, after the backward tasks of the pieces holding its
 * exported fronts' parents (or its own forward task at a root). The tasks
 * share host memory made here before submission (the permuted block, the
 * exported updates, a workspace per worker), so none allocates. Fails with
 * SYLVA_ERR_NO_MEMORY, or SYLVA_ERR_RUNTIME when StarPU refuses a task
 * (what was submitted is waited for first).
 */
#include <stdlib.h>
#include <string.h>

#include "runtime_internal.h"

/* The pieces for the current CPU workers (made once per analysis and
 * worker count, under the plan's lock). */
static int pieces_for(sylva__rt_plan *rt, int workers, const sylva__solve_pieces **out)
{
    int status = SYLVA_OK;
    STARPU_PTHREAD_MUTEX_LOCK(&rt->solve_lock);
    if (rt->pieces && rt->pieces->workers != workers) {
        sylva__solve_pieces_free(rt->pieces);
        rt->pieces = NULL;
    }
    if (!rt->pieces) status = sylva__solve_pieces_build(rt->plan->tree, workers, &rt->pieces);
    *out = rt->pieces;
    STARPU_PTHREAD_MUTEX_UNLOCK(&rt->solve_lock);
    return status;
}

/* Fill and submit one task; deps: the tasks it waits for. */
static int submit(struct starpu_task *task, sylva__solve_piece_args *a, struct starpu_task **deps,
                  unsigned ndeps)
{
    starpu_task_init(task);
    task->cl = &sylva__solve_piece_codelet;
    task->cl_arg = a;
    task->cl_arg_size = sizeof *a;
    task->detach = 0;
    task->destroy = 0;
    task->name = a->backward ? "solve_bwd" : "solve_fwd";
    if (ndeps) starpu_task_declare_deps_array(task, ndeps, deps);
    return SYLVA_STARPU(starpu_task_submit(task));
}

typedef struct cpu_block {
    sylva__solve_run run;
    struct starpu_task *tasks;
    sylva__solve_piece_args *args;
    struct starpu_task **deps;
    struct starpu_task **submitted; /* in submission order */
    void *scratch_mem;
} cpu_block;

static void cpu_block_free(cpu_block *b)
{
    free(b->run.W);
    free(b->run.out);
    free(b->run.scratch);
    free(b->scratch_mem);
    free(b->tasks);
    free(b->args);
    free(b->deps);
    free(b->submitted);
}

/* Submit every task of the block; *submitted counts them. */
static int submit_all(cpu_block *b, int64_t nchunks, int64_t nc, int64_t nb, int64_t *submitted)
{
    const sylva__solve_pieces *sp = b->run.sp;
    int64_t np = sp->npieces;
    int status = SYLVA_OK;
    *submitted = 0;
    for (int dir = 0; dir < 2 && !status; dir++)
        for (int64_t ch = 0; ch < nchunks && !status; ch++)
            for (int64_t q = 0; q < np && !status; q++) {
                int64_t p = dir ? np - 1 - q : q; /* backward: parents' pieces first */
                int64_t i = (dir * nchunks + ch) * np + p, fwd0 = ch * np, bwd0 = (nchunks + ch) * np;
                b->args[i] = (sylva__solve_piece_args){&b->run, p, ch * nc, 0, dir};
                b->args[i].nc = nb - ch * nc < nc ? nb - ch * nc : nc;
                unsigned nd = 0;
                if (!dir) {
                    for (int64_t d = sp->fwd_ptr[p]; d < sp->fwd_ptr[p + 1]; d++)
                        b->deps[nd++] = &b->tasks[fwd0 + sp->fwd_list[d]];
                } else {
                    for (int64_t d = sp->bwd_ptr[p]; d < sp->bwd_ptr[p + 1]; d++)
                        b->deps[nd++] = &b->tasks[bwd0 + sp->bwd_list[d]];
                    if (nd == 0) b->deps[nd++] = &b->tasks[fwd0 + p];
                }
                status = submit(&b->tasks[i], &b->args[i], b->deps, nd);
                if (!status) b->submitted[(*submitted)++] = &b->tasks[i];
                else starpu_task_clean(&b->tasks[i]);
            }
    return status;
}

int sylva__solve_cpu_block(sylva__numeric *N, int64_t nb, void *B, int64_t ldb)
{
    int workers = (int)starpu_cpu_worker_get_count();
    const sylva__tree *t = N->plan->tree;
    if (nb == 0 || t->n == 0) return SYLVA_OK;
    if (workers == 0) { /* GPU workers only: the calling thread solves */
        return N->precision == SYLVA_FLOAT32 ? sylva__s_solve_seq(N->plan, N->values, nb, B, ldb)
                                             : sylva__d_solve_seq(N->plan, N->values, nb, B, ldb);
    }
    const sylva__solve_pieces *sp;
    int status = pieces_for(N->rt, workers, &sp);
    if (status) return status;
    int64_t nchunks = nb / SYLVA__SOLVE_MIN_CHUNK;
    if (nchunks > workers) nchunks = workers;
    if (nchunks < 1) nchunks = 1;
    int64_t nc = (nb + nchunks - 1) / nchunks;
    nchunks = (nb + nc - 1) / nc;
    size_t es = N->elem, ntasks = 2 * (size_t)nchunks * (size_t)sp->npieces;
    size_t per_worker = (size_t)(sp->max_stack_rows + sp->max_rows) * (size_t)nc + 1;
    unsigned nw = starpu_worker_get_count();
    cpu_block b;
    memset(&b, 0, sizeof b);
    b.run = (sylva__solve_run){.plan = N->plan, .sp = sp, .L = N->values, .precision = N->precision,
                               .B = B, .ldb = ldb};
    b.run.W = sylva__malloc((size_t)t->n * (size_t)nb, es);
    b.run.out = sylva__malloc((size_t)(sp->out_rows > 0 ? sp->out_rows : 1) * (size_t)nb, es);
    b.run.scratch = sylva__calloc(nw, sizeof *b.run.scratch);
    b.scratch_mem = sylva__malloc(per_worker * (size_t)workers, es);
    b.tasks = sylva__calloc(ntasks, sizeof *b.tasks);
    b.args = sylva__calloc(ntasks, sizeof *b.args);
    b.deps = sylva__malloc((size_t)sp->npieces + 1, sizeof *b.deps);
    b.submitted = sylva__malloc(ntasks, sizeof *b.submitted);
    if (!b.run.W || !b.run.out || !b.run.scratch || !b.scratch_mem || !b.tasks || !b.args || !b.deps ||
        !b.submitted) {
        cpu_block_free(&b);
        return sylva__fail(SYLVA_ERR_NO_MEMORY,
                           "out of memory for the solve of %lld right-hand sides (n = %lld)",
                           (long long)nb, (long long)t->n);
    }
    int cw = 0;
    for (unsigned w = 0; w < nw; w++)
        if (starpu_worker_get_type((int)w) == STARPU_CPU_WORKER && cw < workers)
            b.run.scratch[w] = (char *)b.scratch_mem + (size_t)cw++ * per_worker * es;
    sylva__runtime_hold();
    int64_t submitted = 0;
    status = submit_all(&b, nchunks, nc, nb, &submitted);
    int waited = SYLVA_STARPU(starpu_task_wait_array(b.submitted, (unsigned)submitted));
    if (!status) status = waited;
    for (int64_t i = 0; i < submitted; i++) starpu_task_clean(b.submitted[i]);
    sylva__runtime_release();
    cpu_block_free(&b);
    return status;
}
