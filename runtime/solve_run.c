/* solve_run.c — sylva__numeric_solve (runtime.h): where a solve runs (the
 * GPU after a GPU factorization in mode AUTO, if the GPU solve can run
 * there; the CPU otherwise: tasks, or the sequential loop for a solve too
 * small for tasks to pay), and the host path: L brought to host memory
 * (timed), then block after block of columns, the first solve (the CPU
 * pieces' tasks, or the sequential loop), with a single-precision factor
 * and double right-hand sides through a float copy, then refinement with
 * the host residual (codelet_residual.c) and correction solves. Device data
 * without a GPU solve goes through host copies. In a distributed run
 * (rank 0's call) every solve of a block runs over the ranks, where L is
 * (solve_dist.c), and L is not brought here. Buffers are made once per
 * call for the largest block. Fails with SYLVA_ERR_ARGUMENT, _NO_MEMORY,
 * _UNSUPPORTED or _RUNTIME, with a message.
 */
#include <float.h>
#include <stdlib.h>
#include <string.h>

#include "io.h"
#include "runtime_internal.h"

/* One call's host buffers and what the refinement's operations need. */
typedef struct host_solve {
    sylva__numeric *N;
    const sylva__solve_request *q;
    sylva__solve_report *rep;
    int64_t n, nb;                 /* the current block's columns */
    void *X;                       /* the block of B: solution */
    int64_t ldx;
    void *tmp;                     /* n × block of the factor's precision, when dtypes differ */
    void *rhs, *R, *D;             /* n × block of B's type, when refining */
    double *omega;
    sylva__residual_run res;
} host_solve;

/* V (n × nb, ld ldv, B's type) ← A⁻¹ V with the factor. */
static int solve_with_factor(host_solve *h, void *V, int64_t ldv)
{
    sylva__numeric *N = h->N;
    int64_t n = h->n, nb = h->nb;
    void *S = V;
    int64_t lds = ldv;
    if (h->q->dtype != N->precision) { /* mixed: through the factor's precision */
        for (int64_t c = 0; c < nb; c++)
            sylva__convert_values(n, h->q->dtype, (char *)V + (size_t)(c * ldv) * sylva__dtype_size(h->q->dtype),
                                  N->precision, (char *)h->tmp + (size_t)(c * n) * N->elem);
        S = h->tmp;
        lds = n;
    }
    int status;
    if (h->rep->ranks > 1)
        status = sylva__solve_dist_drive(N, nb, S, lds, &h->rep->bytes_ranks);
    else if (h->q->mode == SYLVA_SOLVE_SEQUENTIAL)
        status = N->precision == SYLVA_FLOAT32 ? sylva__s_solve_seq(N->plan, N->values, nb, S, lds)
                                               : sylva__d_solve_seq(N->plan, N->values, nb, S, lds);
    else
        status = sylva__solve_cpu_block(N, nb, S, lds);
    if (!status && S != V)
        for (int64_t c = 0; c < nb; c++)
            sylva__convert_values(n, N->precision, (char *)h->tmp + (size_t)(c * n) * N->elem, h->q->dtype,
                                  (char *)V + (size_t)(c * ldv) * sylva__dtype_size(h->q->dtype));
    return status;
}

static int op_residual(void *c, double *omega)
{
    host_solve *h = c;
    h->res.X = h->X;
    h->res.ldx = h->ldx;
    h->res.omega = omega;
    return sylva__residual_cpu_tasks(&h->res, h->nb);
}

static int op_solve(void *c)
{
    host_solve *h = c;
    memcpy(h->D, h->R, (size_t)(h->n * h->nb) * sylva__dtype_size(h->q->dtype));
    return solve_with_factor(h, h->D, h->n);
}

static int op_update(void *c, int sign)
{
    host_solve *h = c;
    for (int64_t col = 0; col < h->nb; col++)
        for (int64_t i = 0; i < h->n; i++) {
            if (h->q->dtype == SYLVA_FLOAT32)
                ((float *)h->X)[i + col * h->ldx] += (float)sign * ((const float *)h->D)[i + col * h->n];
            else
                ((double *)h->X)[i + col * h->ldx] += sign * ((const double *)h->D)[i + col * h->n];
        }
    return SYLVA_OK;
}

static void fold(sylva__solve_report *rep, int steps, double before, double after)
{
    if (steps > rep->steps) rep->steps = steps;
    if (!(before <= rep->berr_before)) rep->berr_before = before;
    if (!(after <= rep->berr_after)) rep->berr_after = after;
}

static int host_blocks(host_solve *h, int64_t nrhs, void *B, int64_t ldb, sylva__solve_report *rep)
{
    const sylva__solve_request *q = h->q;
    size_t es = sylva__dtype_size(q->dtype);
    int status = SYLVA_OK;
    for (int64_t c0 = 0; c0 < nrhs && !status; c0 += q->block) {
        h->nb = nrhs - c0 < q->block ? nrhs - c0 : q->block;
        h->X = (char *)B + (size_t)(c0 * ldb) * es;
        h->ldx = ldb;
        rep->blocks++;
        double t0 = sylva__now();
        if (q->refine)
            for (int64_t c = 0; c < h->nb; c++)
                memcpy((char *)h->rhs + (size_t)(c * h->n) * es, (char *)h->X + (size_t)(c * ldb) * es,
                       (size_t)h->n * es);
        status = solve_with_factor(h, h->X, ldb);
        rep->solve += sylva__now() - t0;
        if (status || !q->refine) continue;
        t0 = sylva__now();
        sylva__refine_ops ops = {h, op_residual, op_solve, op_update};
        int steps = 0;
        double before = -1, after = -1;
        status = sylva__refine(&ops, q->refine, q->dtype == SYLVA_FLOAT32 ? FLT_EPSILON : DBL_EPSILON, h->nb,
                               h->omega, &steps, &before, &after);
        if (!status) fold(rep, steps, before, after);
        rep->refine += sylva__now() - t0;
    }
    return status;
}

static int solve_host(sylva__numeric *N, const sylva__solve_request *q, int64_t nrhs, void *B, int64_t ldb,
                      sylva__solve_report *rep)
{
    /* Distributed: L stays on its ranks (solve_dist.c), each rank's part on
     * its host. */
    int status = rep->ranks > 1 ? sylva__numeric_own_to_host(N, &rep->to_host)
                                : sylva__numeric_to_host(N, &rep->to_host);
    if (status) return status;
    const sylva__tree *t = N->plan->tree;
    host_solve h;
    memset(&h, 0, sizeof h);
    h.N = N;
    h.q = q;
    h.rep = rep;
    h.n = t->n;
    size_t es = sylva__dtype_size(q->dtype), cols = (size_t)(q->block < nrhs ? q->block : nrhs);
    int ok = 1;
    if (q->dtype != N->precision) ok &= (h.tmp = sylva__malloc((size_t)h.n * cols, N->elem)) != NULL;
    const sylva__full_pattern *fp = NULL;
    if (q->refine && (status = sylva__rt_plan_full(N->rt, &fp))) return status;
    if (q->refine) {
        ok &= (h.rhs = sylva__malloc((size_t)h.n * cols, es)) != NULL;
        ok &= (h.R = sylva__malloc((size_t)h.n * cols, es)) != NULL;
        ok &= (h.D = sylva__malloc((size_t)h.n * cols, es)) != NULL;
        ok &= (h.omega = sylva__malloc(cols, sizeof *h.omega)) != NULL;
        h.res = (sylva__residual_run){.fp = fp, .values = N->avals, .perm = t->perm, .dtype = q->dtype,
                                      .B = h.rhs, .R = h.R, .ldb = h.n, .ldr = h.n};
    }
    if (!ok)
        status = sylva__fail(SYLVA_ERR_NO_MEMORY, "out of memory for a solve of %lld right-hand sides at once "
                             "(n = %lld): lower solve_block", (long long)cols, (long long)h.n);
    if (!status) status = host_blocks(&h, nrhs, B, ldb, rep);
    free(h.tmp);
    free(h.rhs);
    free(h.R);
    free(h.D);
    free(h.omega);
    return status;
}

/* Device data solved on the host: copies down and back (timed as download
 * and upload). */
static int solve_via_host(sylva__numeric *N, const sylva__solve_request *q, int64_t nrhs, void *B, int64_t ldb,
                          sylva__solve_report *rep)
{
    size_t bytes = (size_t)ldb * (size_t)(nrhs - 1) * N->elem + (size_t)N->plan->tree->n * N->elem;
    void *H = sylva__malloc(bytes, 1);
    if (!H) return sylva__fail(SYLVA_ERR_NO_MEMORY, "out of memory for a host copy of the right-hand sides");
    double t0 = sylva__now();
    int status = sylva__gpu_memcpy(H, B, bytes, 0);
    rep->download += sylva__now() - t0;
    rep->bytes_to_host += (double)bytes;
    sylva__solve_request hq = *q;
    hq.on_device = 0;
    if (!status) status = solve_host(N, &hq, nrhs, H, ldb, rep);
    t0 = sylva__now();
    if (!status) status = sylva__gpu_memcpy(B, H, bytes, 1);
    rep->upload += sylva__now() - t0;
    rep->bytes_to_device += (double)bytes;
    free(H);
    return status;
}

int sylva__numeric_solve(sylva__numeric *N, const sylva__solve_request *q, int64_t nrhs, void *B, int64_t ldb,
                         sylva__solve_report *rep)
{
    memset(rep, 0, sizeof *rep);
    rep->berr_before = rep->berr_after = -1;
    rep->ranks = !q->local && sylva__dist_size() > 1 && N->owner ? sylva__dist_size() : 1;
    if (q->refine && !N->avals)
        return sylva__fail(SYLVA_ERR_ARGUMENT,
                           "refinement needs A's values, which this factor does not keep: set options.refine "
                           "in the options given to sylva_analyze");
    const char *why = NULL;
    int mode = q->mode;
    sylva__solve_request r = *q;
    if (mode == SYLVA_SOLVE_AUTO) mode = N->on_device || q->on_device ? SYLVA_SOLVE_GPU : SYLVA_SOLVE_CPU;
    if (mode == SYLVA_SOLVE_GPU && q->block_auto) r.block = sylva__solve_gpu_block(N, q);
    if (mode == SYLVA_SOLVE_GPU && !sylva__solve_gpu_possible(N, &r, &why)) {
        mode = SYLVA_SOLVE_CPU;
        rep->why_not_gpu = why;
    }
    if (mode != SYLVA_SOLVE_GPU) r.block = q->block;
    /* AUTO on the CPU: tasks only where they pay. */
    int64_t cols = nrhs < q->block ? nrhs : q->block;
    if (q->mode == SYLVA_SOLVE_AUTO && mode == SYLVA_SOLVE_CPU &&
        (starpu_cpu_worker_get_count() <= 1 ||
         (double)N->plan->tree->nnz_L * (double)cols < (double)SYLVA__SOLVE_TASKS_MIN_WORK))
        mode = SYLVA_SOLVE_SEQUENTIAL;
    if (rep->ranks > 1) mode = SYLVA_SOLVE_CPU; /* every rank's CPU workers (solve_dist.c) */
    rep->mode = mode;
    if (nrhs == 0 || N->plan->tree->n == 0) return SYLVA_OK;
    r.mode = mode;
    if (mode == SYLVA_SOLVE_GPU) return sylva__solve_gpu(N, &r, nrhs, B, ldb, rep);
    if (q->on_device) return solve_via_host(N, &r, nrhs, B, ldb, rep);
    return solve_host(N, &r, nrhs, B, ldb, rep);
}
