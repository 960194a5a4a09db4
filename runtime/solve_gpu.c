/* solve_gpu.c — the solve on a GPU (one task per block of right-hand
 * sides, codelet_solve_gpu.c): makes the GPU solve's blobs and read-only
 * handles once per analysis (the pattern blob and A's values handle only
 * when refining), picks the GPU (where the caller's device data lives, or
 * the one holding most of L), checks that L and a block's workspace fit it
 * (else the caller solves on the CPU), and per block runs the task
 * synchronously: B registered with the device as home for
 * sylva_solve_device, host blocks copied in and out by the task itself
 * (its upload and download times and bytes reported). Fails with
 * SYLVA_ERR_NO_MEMORY, SYLVA_ERR_UNSUPPORTED (sizes) or SYLVA_ERR_RUNTIME
 * (a StarPU, CUDA or cuBLAS call, named).
 */
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime_internal.h"

/* The solve blob (and the pattern blob when refining) with their handles,
 * and A's values handle. */
static int prepare(sylva__numeric *N, int refine)
{
    sylva__rt_plan *rt = N->rt;
    const sylva__full_pattern *fp = NULL;
    int status = refine ? sylva__rt_plan_full(rt, &fp) : SYLVA_OK;
    if (status) return status;
    STARPU_PTHREAD_MUTEX_LOCK(&rt->solve_lock);
    if (!rt->gsolve) status = sylva__gpu_solve_plan_build(rt->plan, &rt->gsolve);
    if (!status && !rt->gsolve_blob)
        starpu_vector_data_register(&rt->gsolve_blob, STARPU_MAIN_RAM, (uintptr_t)rt->gsolve->blob,
                                    (uint32_t)((rt->gsolve->desc.lay.bytes + 15) / 16), 16);
    if (!status && refine && !rt->gsolve->pattern) status = sylva__gpu_solve_plan_pattern(rt->gsolve, fp);
    if (!status && refine && !rt->gsolve_pattern)
        starpu_vector_data_register(&rt->gsolve_pattern, STARPU_MAIN_RAM, (uintptr_t)rt->gsolve->pattern,
                                    (uint32_t)((rt->gsolve->pattern_bytes + 15) / 16), 16);
    if (!status && refine && !N->avals_h)
        starpu_vector_data_register(&N->avals_h, STARPU_MAIN_RAM, (uintptr_t)N->avals,
                                    (uint32_t)(N->annz > 0 ? N->annz : 1), sizeof(double));
    STARPU_PTHREAD_MUTEX_UNLOCK(&rt->solve_lock);
    return status;
}

int sylva__solve_gpu_worker(const sylva__numeric *N, int device)
{
    /* Held by the direct solve: all of L is on that worker's GPU. */
    int held = __atomic_load_n(&N->hold_worker, __ATOMIC_ACQUIRE);
    if (held >= 0 && device < 0) return held;
    int best = -1;
    double best_bytes = -1;
    for (unsigned w = 0; w < starpu_worker_get_count(); w++) {
        if (starpu_worker_get_type((int)w) != STARPU_CUDA_WORKER) continue;
        if (device >= 0) {
            if (starpu_worker_get_devid((int)w) == device) return (int)w;
            continue;
        }
        unsigned node = starpu_worker_get_memory_node(w);
        double bytes = 0;
        for (int64_t g = 0; g < N->plan->ngroups; g++)
            if (N->L[g] && starpu_data_is_on_node(N->L[g], node)) bytes += (double)starpu_data_get_size(N->L[g]);
        if (bytes > best_bytes) {
            best_bytes = bytes;
            best = (int)w;
        }
    }
    return best;
}

/* 1 when L and `extra` more bytes fit the memory of the GPU holding most
 * of L (a GPU solve or pivot check needs all of L there at once: a task
 * whose buffers cannot fit would wait forever). */
static int fits_device(sylva__numeric *N, double extra)
{
    int w = sylva__solve_gpu_worker(N, -1);
    starpu_ssize_t total = w >= 0 ? starpu_memory_get_total(starpu_worker_get_memory_node((unsigned)w)) : 0;
    double need = (double)N->elem * (double)N->plan->l_off[N->plan->tree->nfronts] + extra;
    return w >= 0 && !(total > 0 && need > (double)total);
}

/* Bytes of the solve blob, bounded by its arrays (it is built later). */
static double blob_bound(const sylva__tree *t) { return 8.0 * (double)(2 * t->n + 6 * t->nfronts); }

/* Bytes of a block's workspace (nrhs columns), as the fit check counts it. */
static double work_bound(const sylva__tree *t, int64_t nrhs, int refine)
{
    return 8.0 * (double)nrhs * (double)t->n * (refine ? 5 : 2);
}

/* Bytes StarPU may still allocate on the memory node of the GPU holding
 * most of L (its limit less what it holds, cached buffers included), or
 * −1 when unknown. */
static double device_available(sylva__numeric *N)
{
    int w = sylva__solve_gpu_worker(N, -1);
    starpu_ssize_t a = w >= 0 ? starpu_memory_get_available(starpu_worker_get_memory_node((unsigned)w)) : -1;
    return a >= 0 ? (double)a : -1;
}

/* 1 when a block's `need` bytes can be allocated on the GPU now: the held
 * workspace that the direct solve would reuse covers them, or what StarPU
 * may still allocate there plus what that workspace would give back does,
 * with a quarter to spare (need is a bound on the copies, not the
 * counters). Else the allocation could wait for memory that never comes
 * (docs/perf-log.md "The solve, v26"). */
static int fits_available(sylva__numeric *N, double need)
{
    const double avail = device_available(N), held = (double)sylva__solve_gpu_held_work(N, (size_t)need);
    return avail < 0 || held >= need || 1.25 * need <= avail + held;
}

int sylva__solve_gpu_possible(sylva__numeric *N, const sylva__solve_request *q, const char **why)
{
    /* What the factor and the request rule out first, then the machine. */
    *why = NULL;
    if (N->plan != N->rt->plan) /* the solve blob is made once per analysis */
        *why = "a dynamic policy's (ready) factor: its L has the run's layout, the GPU solve the analysis'";
    else if (N->precision != SYLVA_FLOAT64) *why = "the factor is single precision (GPUs factor and solve in double)";
    else if (q->dtype != SYLVA_FLOAT64) *why = "the right-hand sides are not double precision";
    else if (N->plan->tree->n > INT32_MAX) *why = "n exceeds the GPU kernels' 32-bit sizes";
    else if (sylva__runtime_gpus() == 0) *why = "no GPU worker";
    if (*why) return 0;
    const sylva__tree *t = N->plan->tree;
    if (!fits_device(N, blob_bound(t) + work_bound(t, q->block, q->refine))) {
        *why = "the factor and a block's workspace do not fit the GPU's memory";
        return 0;
    }
    if (!fits_available(N, blob_bound(t) + work_bound(t, q->block, q->refine))) {
        *why = "a block's workspace does not fit the GPU memory still free (lower solve_block)";
        return 0;
    }
    return 1;
}

int64_t sylva__solve_gpu_block(sylva__numeric *N, const sylva__solve_request *q)
{
    if (sylva__runtime_gpus() == 0) return q->block;
    const sylva__tree *t = N->plan->tree;
    int64_t b = q->block;
    /* Against the device's size beside L and against what is free now (the
     * solve's own two checks). */
    for (;;) {
        const double need = blob_bound(t) + work_bound(t, b, q->refine);
        if (b <= SYLVA__SOLVE_MIN_BLOCK || (fits_device(N, need) && fits_available(N, need))) break;
        b = b / 2 > SYLVA__SOLVE_MIN_BLOCK ? b / 2 : SYLVA__SOLVE_MIN_BLOCK;
    }
    return b;
}

int sylva__solve_gpu_pivots_possible(sylva__numeric *N)
{
    return sylva__runtime_gpus() > 0 && N->precision == SYLVA_FLOAT64 && N->plan == N->rt->plan &&
           N->plan->tree->n <= INT32_MAX &&
           fits_device(N, blob_bound(N->plan->tree) + work_bound(N->plan->tree, 1, sylva__numeric_refinable(N)));
}

/* 1 with SYLVA_SOLVE_PHASES=1: each block's phases on stderr (a diagnostic). */
static int phases_on(void)
{
    const char *e = getenv("SYLVA_SOLVE_PHASES");
    return e && *e == '1';
}

/* Register the block (device B only) and its workspace, run, and account
 * the transfers. Host right-hand sides are not StarPU data: the task
 * copies them in and out itself (cudaMemcpy2DAsync on its stream), since
 * StarPU's path for a freshly registered host block — register, allocate
 * on the device, acquire there, acquire back, unregister — cost 7.5 ms
 * each way for 1.7 MB on the H100 (lap3d7:60, one right-hand side), three
 * times the whole solve's kernels. */
static int run_block(sylva__numeric *N, const sylva__solve_request *q, int worker, int home, int64_t nb,
                     double *B, int64_t ldb, sylva__solve_gpu_args *a, struct starpu_data_descr *descr,
                     sylva__solve_report *rep, double *bytes_up, double *bytes_down)
{
    sylva__rt_plan *rt = N->rt;
    const sylva__solve_desc *d = &rt->gsolve->desc;
    unsigned node = starpu_worker_get_memory_node((unsigned)worker);
    sylva__solve_ws w;
    sylva__solve_ws_layout(d, nb, q->refine != 0, &w);
    starpu_data_handle_t hB = NULL, work;
    double tp0 = sylva__now();
    if (q->on_device)
        starpu_matrix_data_register(&hB, home, (uintptr_t)B, (uint32_t)ldb, (uint32_t)d->n, (uint32_t)nb,
                                    sizeof(double));
    starpu_vector_data_register(&work, -1, 0, (uint32_t)((w.bytes + 255) / 256), 256);
    int status = SYLVA_OK;
    double t0 = sylva__now(), tp1 = t0;
    for (int64_t g = 0; g < N->plan->ngroups && !status && !N->on_device; g++) {
        status = SYLVA_STARPU(starpu_data_acquire_on_node(N->L[g], (int)node, STARPU_R));
        if (!status) starpu_data_release_on_node(N->L[g], (int)node);
    }
    rep->upload += sylva__now() - t0;
    double tp2 = sylva__now();
    int nbuf = 0;
    a->nrhs = nb;
    a->host_B = q->on_device ? NULL : B;
    a->host_ldb = ldb;
    a->seconds_upload = a->seconds_download = 0;
    a->buf_B = -1;
    if (q->on_device) {
        a->buf_B = nbuf;
        descr[nbuf++] = (struct starpu_data_descr){hB, STARPU_RW};
    }
    a->buf_blob = nbuf;
    descr[nbuf++] = (struct starpu_data_descr){rt->gsolve_blob, STARPU_R};
    a->buf_work = nbuf;
    descr[nbuf++] = (struct starpu_data_descr){work, STARPU_SCRATCH};
    a->buf_L0 = nbuf;
    for (int64_t g = 0; g < N->plan->ngroups; g++) descr[nbuf++] = (struct starpu_data_descr){N->L[g], STARPU_R};
    a->buf_pattern = a->buf_avals = -1;
    if (q->refine) {
        a->buf_pattern = nbuf;
        descr[nbuf++] = (struct starpu_data_descr){rt->gsolve_pattern, STARPU_R};
        a->buf_avals = nbuf;
        descr[nbuf++] = (struct starpu_data_descr){N->avals_h, STARPU_R};
    }
    a->status = SYLVA_OK;
    a->error[0] = 0;
    if (!status)
        status = SYLVA_STARPU(starpu_task_insert(&sylva__solve_gpu_codelet, STARPU_CL_ARGS_NFREE, a, sizeof *a,
                                                 STARPU_DATA_MODE_ARRAY, descr, nbuf, STARPU_EXECUTE_ON_WORKER,
                                                 worker, STARPU_TASK_SYNCHRONOUS, 1, STARPU_NAME, "solve_gpu", 0));
    double tp3 = sylva__now();
    if (!status && a->status) status = sylva__fail(a->status, "GPU solve: %s", a->error);
    rep->upload += a->seconds_upload;
    rep->download += a->seconds_download;
    if (!q->on_device && !status) {
        double bytes = (double)d->n * (double)nb * sizeof(double);
        *bytes_up += bytes;
        *bytes_down += bytes;
    }
    t0 = sylva__now();
    if (hB) starpu_data_unregister(hB);
    starpu_data_unregister_submit(work);
    rep->download += sylva__now() - t0;
    if (phases_on() && !status) /* a diagnostic (docs/gpu.md): where a block's time went, ms */
        fprintf(stderr,
                "sylva GPU solve phases: nrhs %lld ngroups %lld: handles %.3f acquire %.3f submit-start %.3f "
                "body %.3f [pin %d register %.3f up %.3f solve %.3f down %.3f unregister %.3f] end-return %.3f "
                "work-unregister %.3f\n",
                (long long)nb, (long long)N->plan->ngroups, 1e3 * (tp1 - tp0), 1e3 * (tp2 - tp1),
                1e3 * (a->t_start - tp2), 1e3 * (a->t_end - a->t_start), a->pin_how, 1e3 * a->seconds_register,
                1e3 * a->seconds_upload, 1e3 * a->seconds_solve, 1e3 * a->seconds_download,
                1e3 * a->seconds_unregister, 1e3 * (tp3 - a->t_end), 1e3 * (sylva__now() - tp3));
    return status;
}

/* The memory node of CUDA device `device` in this runtime, or −1. */
static int device_node(int device)
{
    for (unsigned w = 0; w < starpu_worker_get_count(); w++)
        if (starpu_worker_get_type((int)w) == STARPU_CUDA_WORKER && starpu_worker_get_devid((int)w) == device)
            return (int)starpu_worker_get_memory_node(w);
    return -1;
}

int sylva__solve_gpu(sylva__numeric *N, const sylva__solve_request *q, int64_t nrhs, void *B, int64_t ldb,
                     sylva__solve_report *rep)
{
    int64_t n = N->plan->tree->n;
    if (ldb > UINT32_MAX || n > INT32_MAX)
        return sylva__fail(SYLVA_ERR_UNSUPPORTED, "GPU solve: n = %lld, ldb = %lld beyond 32-bit sizes",
                           (long long)n, (long long)ldb);
    int device = q->on_device ? sylva__gpu_pointer_device(B) : -1;
    double tin = sylva__now();
    int status = prepare(N, q->refine);
    if (status) return status;
    double tprep = sylva__now();
    /* The direct solve when it can (solve_gpu_direct.c), else a task a block. */
    sylva__solve_ws w0;
    sylva__solve_ws_layout(&N->rt->gsolve->desc, nrhs < q->block ? nrhs : q->block, q->refine != 0, &w0);
    sylva__solve_hold *h = NULL;
    status = sylva__solve_gpu_direct_begin(N, q, device, w0.bytes, &h);
    if (status) return status;
    int worker = h ? -1 : sylva__solve_gpu_worker(N, device);
    int home = q->on_device ? device_node(device) : STARPU_MAIN_RAM;
    if (!h && (worker < 0 || home == -1))
        return sylva__fail(SYLVA_ERR_RUNTIME, "GPU solve: no GPU worker %s", device >= 0 ? "on B's device" : "");
    int64_t ng = N->plan->ngroups;
    sylva__solve_gpu_args a;
    memset(&a, 0, sizeof a);
    a.gs = N->rt->gsolve;
    a.refine = q->refine;
    a.eps = DBL_EPSILON;
    a.group_L = sylva__calloc((size_t)ng + 1, sizeof *a.group_L);
    a.omega = sylva__calloc((size_t)q->block + 1, sizeof *a.omega);
    struct starpu_data_descr *descr = sylva__malloc((size_t)ng + 6, sizeof *descr);
    if (!a.group_L || !a.omega || !descr) {
        free(a.group_L);
        free(a.omega);
        free(descr);
        if (h) sylva__solve_gpu_direct_end(N, h);
        return sylva__fail(SYLVA_ERR_NO_MEMORY, "out of memory for the GPU solve's arguments");
    }
    if (!h) {
        sylva__runtime_hold();
        sylva__stats_reset();
    }
    double bytes_up = 0, bytes_down = 0; /* host blocks: copied by the task, not counted by StarPU */
    for (int64_t c0 = 0; c0 < nrhs && !status; c0 += q->block) {
        int64_t nb = nrhs - c0 < q->block ? nrhs - c0 : q->block;
        if (h) {
            a.nrhs = nb;
            a.seconds_upload = a.seconds_download = 0;
            double tb = sylva__now();
            status = sylva__solve_gpu_direct_block(h, &a, q, (double *)B + c0 * ldb, ldb);
            rep->upload += a.seconds_upload;
            rep->download += a.seconds_download;
            if (!q->on_device && !status) {
                bytes_up += (double)n * (double)nb * sizeof(double);
                bytes_down += (double)n * (double)nb * sizeof(double);
            }
            if (phases_on() && !status)
                fprintf(stderr, "sylva GPU solve phases: nrhs %lld direct: enter %.3f body %.3f [pin %d register %.3f "
                        "up %.3f solve %.3f down %.3f unregister %.3f] leave %.3f\n", (long long)nb,
                        1e3 * (a.t_start - tb), 1e3 * (a.t_end - a.t_start), a.pin_how, 1e3 * a.seconds_register,
                        1e3 * a.seconds_upload, 1e3 * a.seconds_solve, 1e3 * a.seconds_download,
                        1e3 * a.seconds_unregister, 1e3 * (sylva__now() - a.t_end));
        } else
            status = run_block(N, q, worker, home, nb, (double *)B + c0 * ldb, ldb, &a, descr, rep, &bytes_up,
                               &bytes_down);
        rep->blocks++;
        rep->solve += a.seconds_solve;
        if (q->refine && !status) {
            rep->refine += a.seconds_refine;
            if (a.steps > rep->steps) rep->steps = a.steps;
            if (!(a.berr_before <= rep->berr_before)) rep->berr_before = a.berr_before;
            if (!(a.berr_after <= rep->berr_after)) rep->berr_after = a.berr_after;
        }
    }
    if (h) sylva__solve_gpu_direct_end(N, h);
    else {
        sylva__stats_bytes(&rep->bytes_to_device, &rep->bytes_to_host);
        sylva__runtime_release();
    }
    rep->bytes_to_device += bytes_up;
    rep->bytes_to_host += bytes_down;
    free(a.group_L);
    free(a.omega);
    free(descr);
    if (phases_on() && !status)
        fprintf(stderr, "sylva GPU solve phases: nrhs %lld: prepare %.3f ms, whole %.3f ms%s\n", (long long)nrhs,
                1e3 * (tprep - tin), 1e3 * (sylva__now() - tin), h ? " (direct)" : "");
    return status;
}

int sylva__solve_gpu_plan_ready(sylva__numeric *N) { return prepare(N, 0); }

int sylva__solve_gpu_pivots(sylva__numeric *N, int *bad, double *badval, double *lo, double *hi)
{
    /* A direct factorization checked its pivots already, on its own
     * stream after its groups (factorize_direct.c): no hold, no task. */
    if (sylva__factor_direct_pivots(N, bad, badval, lo, hi)) return SYLVA_OK;
    int worker = sylva__solve_gpu_worker(N, -1);
    if (worker < 0) return sylva__fail(SYLVA_ERR_RUNTIME, "pivot check on the GPU: no GPU worker");
    int status = prepare(N, 0);
    if (status) return status;
    sylva__rt_plan *rt = N->rt;
    int64_t ng = N->plan->ngroups;
    sylva__solve_gpu_args a;
    memset(&a, 0, sizeof a);
    a.gs = rt->gsolve;
    a.pivots = 1;
    a.bad = bad;
    a.badval = badval;
    a.plo = lo;
    a.phi = hi;
    a.buf_B = a.buf_pattern = a.buf_avals = -1;
    a.group_L = sylva__calloc((size_t)ng + 1, sizeof *a.group_L);
    struct starpu_data_descr *descr = sylva__malloc((size_t)ng + 2, sizeof *descr);
    if (!a.group_L || !descr) {
        free(a.group_L);
        free(descr);
        return sylva__fail(SYLVA_ERR_NO_MEMORY, "out of memory for the pivot check's arguments");
    }
    /* The workspace of a one-column solve (refined when N keeps A's
     * values), which the check needs only part of: when this buffer is
     * unregistered StarPU keeps its allocation, and the first such solve
     * finds it there instead of allocating (docs/perf-log.md, "The first
     * solve and the log-determinant"). */
    sylva__solve_ws w;
    sylva__solve_ws_layout(&rt->gsolve->desc, 1, sylva__numeric_refinable(N), &w);
    /* With the direct factorization on, without a task when the direct
     * solve can hold L (it keeps the hold, workspace included, for the
     * solves that follow). */
    sylva__solve_request q;
    memset(&q, 0, sizeof q);
    q.block = 1;
    sylva__solve_hold *h = NULL;
    if (sylva__factor_direct_on()) status = sylva__solve_gpu_direct_begin(N, &q, -1, w.bytes, &h);
    if (!status && h) {
        a.nrhs = 1;
        status = sylva__solve_gpu_direct_block(h, &a, &q, NULL, 0);
        sylva__solve_gpu_direct_end(N, h);
        if (status) status = sylva__fail(status, "pivot check on the GPU: %s", sylva__last_error());
    }
    if (status || h) {
        free(a.group_L);
        free(descr);
        return status;
    }
    starpu_data_handle_t work;
    starpu_vector_data_register(&work, -1, 0, (uint32_t)((w.bytes + 255) / 256), 256);
    int nbuf = 0;
    a.buf_blob = nbuf;
    descr[nbuf++] = (struct starpu_data_descr){rt->gsolve_blob, STARPU_R};
    a.buf_work = nbuf;
    descr[nbuf++] = (struct starpu_data_descr){work, STARPU_SCRATCH};
    a.buf_L0 = nbuf;
    for (int64_t g = 0; g < ng; g++) descr[nbuf++] = (struct starpu_data_descr){N->L[g], STARPU_R};
    sylva__runtime_hold();
    status = SYLVA_STARPU(starpu_task_insert(&sylva__solve_gpu_codelet, STARPU_CL_ARGS_NFREE, &a, sizeof a,
                                             STARPU_DATA_MODE_ARRAY, descr, nbuf, STARPU_EXECUTE_ON_WORKER, worker,
                                             STARPU_TASK_SYNCHRONOUS, 1, STARPU_NAME, "pivots_gpu", 0));
    if (!status && a.status) status = sylva__fail(a.status, "pivot check on the GPU: %s", a.error);
    starpu_data_unregister_submit(work);
    sylva__runtime_release();
    free(a.group_L);
    free(descr);
    return status;
}
