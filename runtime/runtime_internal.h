/* runtime_internal.h — what the runtime/ files share: StarPU (included here
 * and nowhere outside runtime/), the numeric factor's shape, the codelets
 * and their arguments, and the one macro through which every StarPU call
 * that can fail is checked.
 *
 * Factorization registers the factor pool of each group and a temporary CB
 * pool per group (home node −1: allocated where the task runs, never copied
 * home), submits one task per group in plan order with StarPU's sequential
 * task flow, and frees each CB pool once its last reader is submitted.
 */
#ifndef SYLVA_RUNTIME_INTERNAL_H
#define SYLVA_RUNTIME_INTERNAL_H

#include <starpu.h>

#include "runtime.h"
#include "solve.h"

struct sylva__numeric {
    const sylva__plan *plan;
    sylva_dtype precision;
    size_t elem;     /* bytes per scalar */
    void *values;    /* L: plan->l_off[nfronts] scalars */
    int *front_info; /* per front: sylva__front_status, or > 0 (LAPACK info) */
    int failed;      /* set by a task that could not run (no memory): submission stops */
    int ok;          /* 1 once a factorization succeeded */
};

/* A StarPU call's return code as a status: 0 stays SYLVA_OK, anything else
 * becomes SYLVA_ERR_RUNTIME with the call, the code and where it was made.
 *   if ((status = SYLVA_STARPU(starpu_task_insert(...)))) break; */
#define SYLVA_STARPU(call) sylva__starpu_status((call), #call, __FILE__, __LINE__)
int sylva__starpu_status(int rc, const char *call, const char *file, int line);

/* Arguments of one group task (cl_arg, not copied: lives until the task ends). */
typedef struct sylva__group_args {
    const sylva__plan *plan;
    int64_t group;
    sylva_dtype precision;
    int has_cb;      /* buffer 2 is the group's own CB pool */
    int factor;      /* 0: assemble only (a tiled front's tile tasks factor it) */
    int *front_info;
    int *failed;     /* the numeric object's flag, set atomically on a task failure */
} sylva__group_args;

/* Pointer of a vector or matrix buffer (pools are vectors, tiled fronts'
 * P and C are matrices). */
static inline void *sylva__buf_ptr(void *buffer)
{
    const struct starpu_vector_interface *v = buffer;
    if (v->id == STARPU_VECTOR_INTERFACE_ID) return (void *)v->ptr;
    return (void *)STARPU_MATRIX_GET_PTR(buffer);
}

/* The group codelet: buffers A values (R), L pool (W), [own CB pool (W)],
 * child groups' CB pools (R) in the group's dep order. */
extern struct starpu_codelet sylva__group_codelet;
void sylva__d_group_cpu(void *buffers[], const sylva__group_args *a);
void sylva__s_group_cpu(void *buffers[], const sylva__group_args *a);

/* Tiled large fronts (front_tiles.c, codelet_tiles.c). */
typedef struct sylva__tile_args {
    int *front_info;  /* the front's status slot */
    int64_t col0;     /* first front column of the tile */
    sylva_dtype precision;
} sylva__tile_args;
extern struct starpu_codelet sylva__tile_potrf_codelet, sylva__tile_trsm_codelet,
    sylva__tile_syrk_codelet, sylva__tile_gemm_codelet;
typedef struct sylva__tiled sylva__tiled;
/* Partition P (m × k) and C ((m−k)²) into nb tiles, submit the tiled
 * factorization and the gathering; free with sylva__tiled_free after the
 * tasks have ended. On failure *status is set and what was split is gathered. */
sylva__tiled *sylva__tiled_submit(starpu_data_handle_t P, starpu_data_handle_t C, int64_t m,
                                  int64_t k, int64_t nb, sylva_dtype precision, int *front_info,
                                  int *status);
void sylva__tiled_free(sylva__tiled *T);

/* Submit the whole plan for values `A_values` into N; waits for the end. */
int sylva__factor_submit(sylva__numeric *N, const void *A_values, int64_t nnz, int64_t tile_rows,
                         int64_t *ntasks);

#endif
