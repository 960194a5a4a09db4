/* runtime.h — StarPU glue (the only layer that includes StarPU) and the
 * internal shape of the public handles.
 *
 * sylva_analysis holds the tree and the batching plan (built once per
 * pattern); sylva_factor holds the factor values laid out by the plan.
 * Factorization registers the factor pool of each group and a temporary CB
 * pool per group (home node −1: allocated where the task runs, never copied
 * home), submits one task per group in plan order with StarPU's sequential
 * task flow, and frees each CB pool once its last reader is submitted.
 */
#ifndef SYLVA_RUNTIME_H
#define SYLVA_RUNTIME_H

#include <starpu.h>

#include "batching.h"
#include "frontal.h"

struct sylva_analysis {
    sylva__tree *tree;
    sylva__plan *plan;
    sylva__plan_stats stats;
    sylva_options opts;
    char policy[32];
};

struct sylva_factor {
    const sylva_analysis_t *an;
    sylva__factor_store store;
    int *front_info; /* per front: 0 ok, > 0 LAPACK info, −1 skipped (a child failed) */
    int ok;          /* 1 once a factorization succeeded */
};

/* Arguments of one group task (cl_arg, not copied: lives until the task ends). */
typedef struct sylva__group_args {
    const sylva__plan *plan;
    int64_t group;
    int has_cb;      /* buffer 2 is the group's own CB pool */
    int factor;      /* 0: assemble only (a tiled front's tile tasks factor it) */
    int *front_info;
} sylva__group_args;

/* Pointer of a vector or matrix buffer (pools are vectors, tiled fronts'
 * P and C are matrices). */
static inline double *sylva__buf_ptr(void *buffer)
{
    const struct starpu_vector_interface *v = buffer;
    if (v->id == STARPU_VECTOR_INTERFACE_ID) return (double *)v->ptr;
    return (double *)STARPU_MATRIX_GET_PTR(buffer);
}

/* Tiled large fronts (front_tiles.c, codelet_tiles.c). */
typedef struct sylva__tile_args {
    int *front_info; /* the front's status slot */
    int64_t col0;    /* first front column of the tile */
} sylva__tile_args;
extern struct starpu_codelet sylva__tile_potrf_codelet, sylva__tile_trsm_codelet,
    sylva__tile_syrk_codelet, sylva__tile_gemm_codelet;
typedef struct sylva__tiled sylva__tiled;
/* Partition P (m × k) and C ((m−k)²) into nb tiles, submit the tiled
 * factorization and the gathering; free with sylva__tiled_free after the
 * tasks have ended. On failure *status is set and what was split is gathered. */
sylva__tiled *sylva__tiled_submit(starpu_data_handle_t P, starpu_data_handle_t C, int64_t m,
                                  int64_t k, int64_t nb, int *front_info, int *status);
void sylva__tiled_free(sylva__tiled *T);

/* The group codelet: buffers A values (R), L pool (W), [own CB pool (W)],
 * child groups' CB pools (R) in the group's dep order. */
extern struct starpu_codelet sylva__group_codelet;
/* Runs the fronts of one group on the CPU (the CPU twin). */
void sylva__group_cpu(void *buffers[], void *cl_arg);

/* Submit the whole plan for values `A_values` into `F`; waits for the end. */
int sylva__factor_submit(struct sylva_factor *F, const double *A_values, int64_t nnz,
                         int64_t *ntasks);

/* 1 once sylva_init succeeded. */
int sylva__runtime_ready(void);
int sylva__runtime_workers(void);

#endif
