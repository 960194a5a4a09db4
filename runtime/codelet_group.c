/* codelet_group.c — the group task: one StarPU task assembles and factors
 * the fronts of one group of the plan (buffers and arguments in
 * runtime_internal.h). Two implementations: the CPU twin (t_group_cpu.c,
 * instantiated here per precision) and, for double, the GPU run of
 * kernels/gpu_group.h on the worker's stream (STARPU_CUDA_ASYNC: the
 * function queues the work and returns; StarPU waits on the stream). The
 * perfmodel is a non-linear regression, per kind of worker, on the group's
 * cost (flops and assembled entries, rt_plan.c). A GPU error is recorded as
 * the factorization's task error, which stops the submission.
 */
#include <stdlib.h>
#include <string.h>

#include "front_cpu.h"
#include "runtime_internal.h"

#define SYLVA_DOUBLE
#include "t_group_cpu.c"
#define SYLVA_SINGLE
#include "t_group_cpu.c"

static void group_cpu(void *buffers[], void *cl_arg)
{
    const sylva__group_args *a = cl_arg;
    if (a->precision == SYLVA_FLOAT32) sylva__s_group_cpu(buffers, a);
    else sylva__d_group_cpu(buffers, a);
}

static void group_cuda(void *buffers[], void *cl_arg)
{
    const sylva__group_args *a = cl_arg;
    sylva__gpu_context *ctx = sylva__gpu_worker_context(starpu_worker_get_id());
    const sylva__group_desc *d = &a->gpu->groups[a->group];
    sylva__gpu_context_sample(ctx); /* this task's buffers are allocated by now */
    sylva__task_log_sample(a->num, starpu_worker_get_id(), sylva__task_log_now(a->num));
    for (int s = 0; s < d->nchild_pools; s++)
        a->child_ptrs[s] = sylva__buf_ptr(buffers[a->buf_child0 + s]);
    sylva__group_buffers b = {
        .blob = sylva__buf_ptr(buffers[a->buf_maps]),
        .A = sylva__buf_ptr(buffers[0]),
        .L = sylva__buf_ptr(buffers[1]),
        .cb_pool = a->buf_cb >= 0 ? sylva__buf_ptr(buffers[a->buf_cb]) : NULL,
        .child_pools = a->child_ptrs,
        .work = sylva__buf_ptr(buffers[a->buf_work]),
        .work_bytes = sylva__buf_bytes(buffers[a->buf_work]),
    };
    int status = sylva__group_factor_gpu(ctx, d, &b, a->factor, sylva__worker_stream());
    if (status) sylva__numeric_task_error(a->num, status, sylva__last_error());
}

/* GPUs run double precision only; a single-precision group stays on CPUs. */
static int group_can_execute(unsigned workerid, struct starpu_task *task, unsigned nimpl)
{
    (void)nimpl;
    const sylva__group_args *a = task->cl_arg;
    if (starpu_worker_get_type((int)workerid) != STARPU_CUDA_WORKER) return 1;
    return a->precision == SYLVA_FLOAT64 && a->gpu != NULL;
}

static size_t group_size_base(struct starpu_task *task, unsigned nimpl)
{
    (void)nimpl;
    const sylva__group_args *a = task->cl_arg;
    return (size_t)a->cost;
}

static struct starpu_perfmodel group_model = {
    .type = STARPU_NL_REGRESSION_BASED,
    .symbol = "sylva_group",
    .size_base = group_size_base,
};

struct starpu_codelet sylva__group_codelet = {
    .cpu_funcs = {group_cpu},
    .cuda_funcs = {group_cuda},
    .cuda_flags = {STARPU_CUDA_ASYNC},
    .can_execute = group_can_execute,
    .nbuffers = STARPU_VARIABLE_NBUFFERS,
    .model = &group_model,
    .name = "sylva_group",
};
