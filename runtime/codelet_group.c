/* codelet_group.c — the group task: one StarPU task assembles and factors
 * the fronts of one group of the plan (buffers and arguments in
 * runtime_internal.h). The CPU implementation is t_group_cpu.c, instantiated
 * here per precision; the perfmodel regresses time on the group's flops.
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

/* The perfmodel's size is the group's flop count (regression a·flopsᵇ). */
static size_t group_size_base(struct starpu_task *task, unsigned nimpl)
{
    (void)nimpl;
    const sylva__group_args *a = task->cl_arg;
    return (size_t)a->plan->group_flops[a->group];
}

static struct starpu_perfmodel group_model = {
    .type = STARPU_REGRESSION_BASED,
    .symbol = "sylva_group",
    .size_base = group_size_base,
};

struct starpu_codelet sylva__group_codelet = {
    .cpu_funcs = {group_cpu},
    .nbuffers = STARPU_VARIABLE_NBUFFERS,
    .model = &group_model,
    .name = "sylva_group",
};
