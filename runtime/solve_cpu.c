/* solve_cpu.c — the solve of one block of right-hand sides on the CPU
 * workers, as StarPU tasks along the tree: the block's columns are split
 * into independent chunks (more chunks when there are columns enough to
 * keep every worker busy), and for each chunk every piece of the tree
 * (batching.h, cut once per analysis and worker count) is one forward task,
 * after the forward tasks of the pieces holding its fronts' children, and
 * one backward task, after the backward tasks of the pieces holding its
 * exported fronts' parents (or its own forward task at a root); a split
 * piece's part tasks come after its forward task and before its backward
 * one, and a blocked piece's diagonal blocks and their updates between
 * (batching.h). The tasks share host memory made here before submission (the permuted block, the
 * exported updates, a workspace per worker), so none allocates. Fails with
 * SYLVA_ERR_NO_MEMORY, or SYLVA_ERR_RUNTIME when StarPU refuses a task
 * (what was submitted is waited for first). SYLVA_SOLVE_TRACE=FILE (a
 * diagnostic) appends every task's worker and times to FILE.cpu.
 */
#include <stdio.h>
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
    static const char *const names[] = {"solve_fwd",      "solve_fwd_part", "solve_fwd_diag", "solve_fwd_upd",
                                        "solve_bwd_part", "solve_bwd_diag", "solve_bwd_upd",  "solve_bwd"};
    starpu_task_init(task);
    task->cl = &sylva__solve_piece_codelet;
    task->cl_arg = a;
    task->cl_arg_size = sizeof *a;
    task->detach = 0;
    task->destroy = 0;
    task->name = names[a->kind];
    if (ndeps) starpu_task_declare_deps_array(task, ndeps, deps);
    return SYLVA_STARPU(starpu_task_submit(task));
}

typedef struct cpu_block {
    sylva__solve_run run;
    struct starpu_task *tasks;
    sylva__solve_piece_args *args;
    struct starpu_task **deps;
    struct starpu_task **submitted; /* in submission order */
    int64_t *part0;                 /* per piece: its first extra task (after the 2·np main ones) */
    int64_t per_chunk;              /* tasks of one column chunk */
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
    free(b->part0);
}

/* Task slots of chunk ch: the main forward and backward task of each
 * piece; then each piece's extra tasks, in this order: forward L21 parts,
 * backward L21ᵀ parts, forward diagonal blocks 1.., forward updates (by
 * block, then group), backward diagonal blocks 1.., backward updates. */
static struct starpu_task *main_task(const cpu_block *b, int64_t ch, int backward, int64_t p)
{
    return &b->tasks[ch * b->per_chunk + (backward ? b->run.sp->npieces : 0) + p];
}

static struct starpu_task *extra_task(const cpu_block *b, int64_t ch, int64_t p, int64_t offset)
{
    return &b->tasks[ch * b->per_chunk + 2 * b->run.sp->npieces + b->part0[p] + offset];
}

static int64_t nparts(int64_t n) { return n > 1 ? n : 0; }

static struct starpu_task *part_task(const cpu_block *b, int64_t ch, int backward, int64_t p, int64_t i)
{
    return extra_task(b, ch, p, (backward ? nparts(b->run.sp->split_fwd[p]) : 0) + i);
}

/* Diagonal block j ≥ 1 of a blocked piece (forward or backward). */
static struct starpu_task *diag_task(const cpu_block *b, int64_t ch, int backward, int64_t p, int64_t j)
{
    const sylva__solve_pieces *sp = b->run.sp;
    int64_t nd = sp->diag_blocks[p], o = nparts(sp->split_fwd[p]) + nparts(sp->split_bwd[p]);
    if (backward) {
        o += nd - 1;
        for (int64_t q = 0; q < nd; q++) o += sylva__solve_diag_groups(sp, p, 0, q);
    }
    return extra_task(b, ch, p, o + j - 1);
}

/* Update group g after diagonal block j of a blocked piece. */
static struct starpu_task *upd_task(const cpu_block *b, int64_t ch, int backward, int64_t p, int64_t j, int64_t g)
{
    const sylva__solve_pieces *sp = b->run.sp;
    int64_t nd = sp->diag_blocks[p], o = nparts(sp->split_fwd[p]) + nparts(sp->split_bwd[p]) + nd - 1;
    if (backward) {
        for (int64_t q = 0; q < nd; q++) o += sylva__solve_diag_groups(sp, p, 0, q);
        o += nd - 1;
    }
    for (int64_t q = 0; q < j; q++) o += sylva__solve_diag_groups(sp, p, backward, q);
    return extra_task(b, ch, p, o + g);
}

/* The tasks after which the pivot rows of piece p are solved forward. */
static unsigned x1_done(const cpu_block *b, int64_t ch, int64_t p, struct starpu_task **deps)
{
    int64_t nd = b->run.sp->diag_blocks[p];
    deps[0] = nd > 1 ? diag_task(b, ch, 0, p, nd - 1) : main_task(b, ch, 0, p);
    return 1;
}

/* The tasks that end piece p's forward pass (its L21 parts when split). */
static unsigned fwd_done(const cpu_block *b, int64_t ch, int64_t p, struct starpu_task **deps)
{
    int64_t nf = b->run.sp->split_fwd[p];
    if (nf <= 1) return x1_done(b, ch, p, deps);
    for (int64_t i = 0; i < nf; i++) deps[i] = part_task(b, ch, 0, p, i);
    return (unsigned)nf;
}

/* What piece p's backward pass waits for: its parents' pieces' backward
 * tasks, or at a root its own forward pass. */
static unsigned bwd_ready(const cpu_block *b, int64_t ch, int64_t p, struct starpu_task **deps)
{
    const sylva__solve_pieces *sp = b->run.sp;
    unsigned nd = 0;
    for (int64_t d = sp->bwd_ptr[p]; d < sp->bwd_ptr[p + 1]; d++) deps[nd++] = main_task(b, ch, 1, sp->bwd_list[d]);
    return nd ? nd : fwd_done(b, ch, p, deps);
}

/* After L21ᵀ has been applied to piece p's pivot rows (its parts when split). */
static unsigned l21t_done(const cpu_block *b, int64_t ch, int64_t p, struct starpu_task **deps)
{
    int64_t nb = b->run.sp->split_bwd[p];
    if (nb <= 1) return bwd_ready(b, ch, p, deps);
    for (int64_t i = 0; i < nb; i++) deps[i] = part_task(b, ch, 1, p, i);
    return (unsigned)nb;
}

/* Every update group after block j. */
static unsigned upd_all(const cpu_block *b, int64_t ch, int backward, int64_t p, int64_t j, struct starpu_task **deps)
{
    int64_t q = sylva__solve_diag_groups(b->run.sp, p, backward, j);
    for (int64_t g = 0; g < q; g++) deps[g] = upd_task(b, ch, backward, p, j, g);
    return (unsigned)q;
}

static int submit_one(cpu_block *b, struct starpu_task *task, sylva__solve_piece_args a, unsigned nd,
                      int64_t *submitted)
{
    sylva__solve_piece_args *slot = &b->args[task - b->tasks];
    *slot = a;
    int status = submit(task, slot, b->deps, nd);
    if (!status) b->submitted[(*submitted)++] = task;
    else starpu_task_clean(task);
    return status;
}

/* Piece p's forward tasks: the main one, the diagonal blocks and their
 * updates, the L21 parts. */
static int submit_forward(cpu_block *b, sylva__solve_piece_args a, int64_t ch, int64_t p, int64_t *submitted)
{
    const sylva__solve_pieces *sp = b->run.sp;
    unsigned nd = 0;
    for (int64_t d = sp->fwd_ptr[p]; d < sp->fwd_ptr[p + 1]; d++) nd += fwd_done(b, ch, sp->fwd_list[d], b->deps + nd);
    a.piece = p;
    a.kind = SYLVA__SOLVE_FWD;
    int status = submit_one(b, main_task(b, ch, 0, p), a, nd, submitted);
    for (int64_t j = 0; j + 1 < sp->diag_blocks[p] && !status; j++) {
        a.part = j;
        a.kind = SYLVA__SOLVE_FWD_UPD;
        int64_t q = sylva__solve_diag_groups(sp, p, 0, j);
        for (a.group = 0; a.group < q && !status; a.group++) {
            b->deps[0] = j == 0 ? main_task(b, ch, 0, p) : diag_task(b, ch, 0, p, j);
            status = submit_one(b, upd_task(b, ch, 0, p, j, a.group), a, 1, submitted);
        }
        a.part = j + 1;
        a.kind = SYLVA__SOLVE_FWD_DIAG;
        if (!status) status = submit_one(b, diag_task(b, ch, 0, p, j + 1), a, upd_all(b, ch, 0, p, j, b->deps), submitted);
    }
    a.kind = SYLVA__SOLVE_FWD_PART;
    for (int64_t i = 0; i < sp->split_fwd[p] && sp->split_fwd[p] > 1 && !status; i++) {
        a.part = i;
        status = submit_one(b, part_task(b, ch, 0, p, i), a, x1_done(b, ch, p, b->deps), submitted);
    }
    return status;
}

/* Piece p's backward tasks: the L21ᵀ parts, the diagonal blocks from the
 * last and their updates, the main one. */
static int submit_backward(cpu_block *b, sylva__solve_piece_args a, int64_t ch, int64_t p, int64_t *submitted)
{
    const sylva__solve_pieces *sp = b->run.sp;
    int status = SYLVA_OK;
    a.piece = p;
    a.kind = SYLVA__SOLVE_BWD_PART;
    for (int64_t i = 0; i < sp->split_bwd[p] && sp->split_bwd[p] > 1 && !status; i++) {
        a.part = i;
        status = submit_one(b, part_task(b, ch, 1, p, i), a, bwd_ready(b, ch, p, b->deps), submitted);
    }
    int64_t nd = sp->diag_blocks[p];
    for (int64_t j = nd - 1; j >= 1 && !status; j--) {
        a.part = j;
        a.kind = SYLVA__SOLVE_BWD_DIAG;
        unsigned n = j == nd - 1 ? l21t_done(b, ch, p, b->deps) : upd_all(b, ch, 1, p, j + 1, b->deps);
        status = submit_one(b, diag_task(b, ch, 1, p, j), a, n, submitted);
        a.kind = SYLVA__SOLVE_BWD_UPD;
        int64_t q = sylva__solve_diag_groups(sp, p, 1, j);
        for (a.group = 0; a.group < q && !status; a.group++) {
            b->deps[0] = diag_task(b, ch, 1, p, j);
            status = submit_one(b, upd_task(b, ch, 1, p, j, a.group), a, 1, submitted);
        }
    }
    a.kind = SYLVA__SOLVE_BWD;
    a.part = a.group = 0;
    unsigned n = nd > 1 ? upd_all(b, ch, 1, p, 1, b->deps) : l21t_done(b, ch, p, b->deps);
    if (!status) status = submit_one(b, main_task(b, ch, 1, p), a, n, submitted);
    return status;
}

/* Submit every task of the block; *submitted counts them. */
static int submit_all(cpu_block *b, int64_t nchunks, int64_t nc, int64_t nb, int64_t *submitted)
{
    const sylva__solve_pieces *sp = b->run.sp;
    int64_t np = sp->npieces;
    int status = SYLVA_OK;
    *submitted = 0;
    for (int64_t ch = 0; ch < nchunks && !status; ch++) {
        sylva__solve_piece_args a = {.run = &b->run, .c0 = ch * nc, .nc = nb - ch * nc < nc ? nb - ch * nc : nc};
        for (int64_t p = 0; p < np && !status; p++) status = submit_forward(b, a, ch, p, submitted); /* children first */
        for (int64_t p = np - 1; p >= 0 && !status; p--) status = submit_backward(b, a, ch, p, submitted);
    }
    return status;
}

/* A diagnostic: SYLVA_SOLVE_TRACE=FILE appends to FILE.cpu one line per
 * task of the block (kind, piece, part, group, first column, columns,
 * worker, start and end in µs from the submission's start), after a line
 * with the submission's and the wait's ends. */
static int write_trace(const cpu_block *b, const char *path, int64_t submitted, double t0, double t1, double t2)
{
    char name[4096];
    snprintf(name, sizeof name, "%s.cpu", path);
    FILE *f = fopen(name, "a");
    if (!f) return sylva__fail(SYLVA_ERR_RUNTIME, "solve trace: cannot open %s", name);
    fprintf(f, "# block: %lld tasks, submitted %.1f us, done %.1f us\n", (long long)submitted, (t1 - t0) * 1e6,
            (t2 - t0) * 1e6);
    for (int64_t i = 0; i < submitted; i++) {
        const sylva__solve_piece_args *a = b->submitted[i]->cl_arg;
        fprintf(f, "%d %lld %lld %lld %lld %lld %d %.1f %.1f\n", a->kind, (long long)a->piece, (long long)a->part,
                (long long)a->group, (long long)a->c0, (long long)a->nc, a->worker, (a->t0 - t0) * 1e6,
                (a->t1 - t0) * 1e6);
    }
    return fclose(f) ? sylva__fail(SYLVA_ERR_RUNTIME, "solve trace: writing %s", name) : SYLVA_OK;
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
    size_t es = N->elem, per_chunk = 2 * (size_t)sp->npieces + (size_t)sp->split_tasks;
    size_t ntasks = (size_t)nchunks * per_chunk;
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
    /* A task waits for at most every part of every other piece. */
    size_t max_deps = (size_t)(sp->npieces + 1) * (size_t)(SYLVA__SOLVE_SPLIT_PER_WORKER * workers + 1);
    b.deps = sylva__malloc(max_deps, sizeof *b.deps);
    b.submitted = sylva__malloc(ntasks, sizeof *b.submitted);
    b.part0 = sylva__malloc((size_t)sp->npieces + 1, sizeof *b.part0);
    b.per_chunk = (int64_t)per_chunk;
    if (!b.run.W || !b.run.out || !b.run.scratch || !b.scratch_mem || !b.tasks || !b.args || !b.deps ||
        !b.submitted || !b.part0) {
        cpu_block_free(&b);
        return sylva__fail(SYLVA_ERR_NO_MEMORY,
                           "out of memory for the solve of %lld right-hand sides (n = %lld)",
                           (long long)nb, (long long)t->n);
    }
    for (int64_t p = 0, o = 0; p < sp->npieces; p++) {
        b.part0[p] = o;
        o += sp->split_tasks_of[p];
    }
    int cw = 0;
    for (unsigned w = 0; w < nw; w++)
        if (starpu_worker_get_type((int)w) == STARPU_CPU_WORKER && cw < workers)
            b.run.scratch[w] = (char *)b.scratch_mem + (size_t)cw++ * per_worker * es;
    const char *trace = getenv("SYLVA_SOLVE_TRACE");
    b.run.trace = trace && *trace;
    sylva__runtime_hold();
    int64_t submitted = 0;
    double t0 = sylva__now();
    status = submit_all(&b, nchunks, nc, nb, &submitted);
    double t1 = sylva__now();
    int waited = SYLVA_STARPU(starpu_task_wait_array(b.submitted, (unsigned)submitted));
    if (!status) status = waited;
    if (!status && b.run.trace) status = write_trace(&b, trace, submitted, t0, t1, sylva__now());
    for (int64_t i = 0; i < submitted; i++) starpu_task_clean(b.submitted[i]);
    sylva__runtime_release();
    cpu_block_free(&b);
    return status;
}
