/* codelet_residual.c — the host residual of iterative refinement as tasks:
 * each task computes R = B − A X and the componentwise backward error of
 * its own columns (kernels/residual_cpu.h, user's numbering through the
 * permuted full pattern), so tasks share nothing they write and one right-
 * hand side is one task. No data handles (host memory of the solve call);
 * sylva__residual_cpu_tasks submits and waits. Fails only when StarPU
 * refuses a task.
 */
#include <stdlib.h>

#include "residual_cpu.h"
#include "runtime_internal.h"

static void residual_cpu(void *buffers[], void *cl_arg)
{
    (void)buffers;
    const sylva__residual_args *a = cl_arg;
    const sylva__residual_run *R = a->run;
    const sylva__full_pattern *fp = R->fp;
    size_t es = sylva__dtype_size(R->dtype);
    const char *X = (const char *)R->X + (size_t)(a->c0 * R->ldx) * es;
    const char *B = (const char *)R->B + (size_t)(a->c0 * R->ldb) * es;
    char *Rv = (char *)R->R + (size_t)(a->c0 * R->ldr) * es;
    if (R->dtype == SYLVA_FLOAT32)
        sylva__s_residual_cpu(0, fp->n, fp->rowptr, fp->colind, fp->valind, R->values, R->perm, a->nc,
                              (const float *)X, R->ldx, (const float *)B, R->ldb, (float *)Rv, R->ldr,
                              R->omega + a->c0);
    else
        sylva__d_residual_cpu(0, fp->n, fp->rowptr, fp->colind, fp->valind, R->values, R->perm, a->nc,
                              (const double *)X, R->ldx, (const double *)B, R->ldb, (double *)Rv, R->ldr,
                              R->omega + a->c0);
}

struct starpu_codelet sylva__residual_codelet = {
    .cpu_funcs = {residual_cpu},
    .nbuffers = 0,
    .name = "sylva_residual",
};

int sylva__residual_cpu_tasks(const sylva__residual_run *R, int64_t nrhs)
{
    int workers = (int)starpu_cpu_worker_get_count();
    int64_t ntask = nrhs < workers ? nrhs : workers;
    if (ntask <= 1) { /* one column, or no CPU worker: here */
        sylva__residual_args a = {R, 0, nrhs};
        residual_cpu(NULL, &a);
        return SYLVA_OK;
    }
    int64_t per = (nrhs + ntask - 1) / ntask;
    struct starpu_task *tasks = sylva__calloc((size_t)ntask, sizeof *tasks);
    struct starpu_task **done = sylva__calloc((size_t)ntask, sizeof *done);
    sylva__residual_args *args = sylva__calloc((size_t)ntask, sizeof *args);
    if (!tasks || !done || !args) {
        free(tasks);
        free(done);
        free(args);
        return sylva__fail(SYLVA_ERR_NO_MEMORY, "out of memory for the residual's tasks");
    }
    int status = SYLVA_OK;
    unsigned submitted = 0;
    sylva__runtime_hold();
    for (int64_t i = 0; i < ntask && !status && i * per < nrhs; i++) {
        args[i] = (sylva__residual_args){R, i * per, nrhs - i * per < per ? nrhs - i * per : per};
        starpu_task_init(&tasks[i]);
        tasks[i].cl = &sylva__residual_codelet;
        tasks[i].cl_arg = &args[i];
        tasks[i].cl_arg_size = sizeof args[i];
        tasks[i].detach = 0;
        tasks[i].destroy = 0;
        status = SYLVA_STARPU(starpu_task_submit(&tasks[i]));
        if (!status) done[submitted++] = &tasks[i];
        else starpu_task_clean(&tasks[i]);
    }
    int waited = SYLVA_STARPU(starpu_task_wait_array(done, submitted));
    if (!status) status = waited;
    for (unsigned i = 0; i < submitted; i++) starpu_task_clean(done[i]);
    sylva__runtime_release();
    free(tasks);
    free(done);
    free(args);
    return status;
}
