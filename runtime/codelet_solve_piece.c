/* codelet_solve_piece.c — the CPU solve's task: one piece of the tree, one
 * direction, one chunk of right-hand-side columns (arguments in
 * runtime_internal.h, bodies per precision in t_solve_piece.c). Tasks carry
 * no data handles: everything is host memory of the solve call, and the
 * order comes from explicit dependencies along the tree (solve_cpu.c). The
 * workspace is the calling worker's slice of the run's scratch, made before
 * submission, so a task never allocates and cannot fail.
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
    const sylva__solve_piece_args *a = cl_arg;
    void *scratch = a->run->scratch[starpu_worker_get_id()];
    if (a->run->precision == SYLVA_FLOAT32) sylva__s_solve_piece_cpu(a, scratch);
    else sylva__d_solve_piece_cpu(a, scratch);
}

struct starpu_codelet sylva__solve_piece_codelet = {
    .cpu_funcs = {solve_piece_cpu},
    .nbuffers = 0,
    .name = "sylva_solve_piece",
};
