/* runtime_internal.h — what the runtime/ files share: StarPU (included here
 * and nowhere outside runtime/), the shape of the runtime's objects, the
 * codelets and their arguments, and the one macro through which every
 * StarPU call that can fail is checked.
 *
 * A factorization submits one task per group of the plan in plan order
 * (StarPU's sequential task flow infers the DAG from the access modes) over:
 * A's values (R, registered per factorization); the group's slice of L (W;
 * registered once per factor and kept, so L stays where the task made it);
 * in GPU modes the group's blob of per-pattern maps (R; registered once per
 * analysis, so a refactorization re-uploads nothing) and a workspace
 * (STARPU_SCRATCH: one allocation per worker, none per task); the group's
 * own CB pool (W, temporary: home node −1, made where the task runs) and
 * the CB pools of the groups it reads (R). A CB pool is unregistered once
 * its last reader is submitted. On CPU-only runs a large front is split
 * into tile tasks instead (front_tiles.c).
 */
#ifndef SYLVA_RUNTIME_INTERNAL_H
#define SYLVA_RUNTIME_INTERNAL_H

#include <starpu.h>

#include "gpu_context.h"
#include "gpu_plan.h"
#include "gpu_solve_plan.h"
#include "runtime.h"
#include "solve.h"

/* A plan as the runtime keeps it for the analysis's life: its GPU form and
 * the StarPU handles of the group blobs, both made at the first GPU run. */
struct sylva__rt_plan {
    const sylva__plan *plan;
    sylva__gpu_plan *gpu;
    starpu_data_handle_t *maps; /* ngroups, NULL until registered */
    double *cost;               /* ngroups: the perfmodels' size of each group */
    /* What solves make at their first need and keep (under solve_lock):
     * the CPU pieces (for one worker count), A's full pattern for
     * residuals, the GPU solve's blobs and their read-only handles; and,
     * under the same lock, the factorization's mapping onto GPUs. */
    starpu_pthread_mutex_t solve_lock;
    sylva__solve_pieces *pieces;
    sylva__full_pattern *full;
    sylva__gpu_solve_plan *gsolve;
    starpu_data_handle_t gsolve_blob, gsolve_pattern;
    sylva__plan_map gpu_map;    /* the groups onto GPUs (gpu_map.c), for gpu_map.parts GPUs */
};

typedef struct sylva__task_log sylva__task_log;

struct sylva__numeric {
    sylva__rt_plan *rt;
    const sylva__plan *plan;
    sylva_dtype precision;
    size_t elem;                /* bytes per scalar */
    void *values;               /* L: plan->l_off[nfronts] scalars (home of the L handles) */
    int *front_info;            /* per front: sylva__front_status, or > 0 (LAPACK info) */
    starpu_data_handle_t *L;    /* ngroups, registered at the first factorization */
    starpu_data_handle_t work;  /* GPU modes: the group workspace (STARPU_SCRATCH) */
    size_t work_bytes;
    int on_device;              /* the last factorization left L's valid copy on a GPU */
    struct sylva__solve_hold *hold; /* the direct GPU solve's acquisitions (solve_gpu_direct.c), or NULL */
    struct sylva__factor_hold *fhold; /* the direct factorization's stream and memory (factorize_direct.c), or NULL */
    int direct;                 /* the last factorization ran direct (no task) */
    starpu_pthread_mutex_t hold_lock; /* guards hold and serializes the direct solves */
    int hold_worker;            /* the held GPU's worker, −1 when none (atomic: read without hold_lock) */
    int logdet_known;           /* logdet holds the last factorization's log-determinant */
    double logdet;              /* (from the pivot check on a GPU, which read every pivot) */
    int pivots_known;           /* pivot_lo and pivot_hi hold the last factorization's extreme pivots */
    double pivot_lo, pivot_hi;  /* (from the same check: the pivot ratio of L left on a GPU) */
    int pinned;                 /* values is page-locked (starpu_memory_pin) */
    int64_t *pin_runs;          /* distributed: the page-locked runs of this rank's L, (first, count) */
    int64_t npin_runs;          /* pairs in pin_runs */
    int failed;                 /* set by a task that could not run: submission stops */
    starpu_pthread_mutex_t stat_lock; /* guards the per-kind sums below (task callbacks) */
    double gpu_seconds[2], gpu_flops[2]; /* this run's GPU tasks: [0] batches, [1] large */
    double gpu_dev_flops[SYLVA__MAX_GPUS], gpu_dev_lbytes[SYLVA__MAX_GPUS]; /* per GPU in use */
    int gpu_map;                /* sylva_gpu_map of the options */
    int64_t gpu_tile_rows;      /* options.gpu_tile_rows (factorize.c) */
    double tile_flops;          /* flops of this process's tile tasks in the run (task_log.c) */
    double flops_done;                  /* this run's finished tasks' flops (progress) */
    void (*progress)(void *, const char *, double);
    void *progress_arg;
    int error_set;              /* the first task error's message is in error[] */
    char error[512];
    int ok;                     /* 1 once a factorization succeeded */
    sylva__task_log *log;       /* the last run's tasks (task_log.c) */
    sylva__plan *run_plan;      /* dynamic policies: the last run's plan (plan is it) */
    double *avals;              /* A's values in double for refinement, or NULL */
    int64_t annz;
    starpu_data_handle_t avals_h; /* their handle, registered at the first GPU refinement */
    /* Distributed runs: each group's owner rank and whether it is above
     * the mapping's split (its large fronts' tiles are dealt over the
     * ranks), L gathered on rank 0 since the last factorization, every
     * rank's share of the last one. */
    int *owner;
    unsigned char *owner_top;
    struct sylva__solve_dist_plan *dsolve; /* the distributed solve's schedule (solve_dist.c) */
    int64_t tag_base;           /* the first StarPU-MPI tag of this factor's handles (0: none yet) */
    int gathered;
    int nranks;
    sylva__rank_stats *rank_stats;
};

/* A StarPU call's return code as a status: 0 stays SYLVA_OK, anything else
 * becomes SYLVA_ERR_RUNTIME with the call, the code and where it was made.
 *   if ((status = SYLVA_STARPU(starpu_task_insert(...)))) break; */
#define SYLVA_STARPU(call) sylva__starpu_status((call), #call, __FILE__, __LINE__)
int sylva__starpu_status(int rc, const char *call, const char *file, int line);

/* Inside a task: record status/message as the factorization's first task
 * error (later ones are dropped) and stop the submission. */
void sylva__numeric_task_error(sylva__numeric *N, int status, const char *message);

/* Arguments of one group task (cl_arg, not copied: lives until the task
 * ends). Buffer indices are −1 when absent. */
typedef struct sylva__group_args {
    const sylva__plan *plan;
    const sylva__gpu_plan *gpu; /* GPU modes */
    sylva__numeric *num;
    int64_t group;
    sylva_dtype precision;
    int factor;                 /* 0: assemble only (a tiled front's tile tasks factor it) */
    int buf_maps, buf_work, buf_cb, buf_child0; /* A is buffer 0, L buffer 1 */
    double **child_ptrs;        /* GPU: room for the child pools' device pointers */
    int *front_info;
    int *failed;                /* the numeric object's flag, set atomically on a task failure */
    double cost;                /* the perfmodels' size of the group (rt_plan.c) */
    /* CPU runs: per group, a tiled front's CB memory (NULL otherwise) and
     * its readers that have not ended; the last one frees it. */
    void **cbmem;
    int64_t *cb_unread;
} sylva__group_args;

/* The calling GPU worker's stream (a StarPU built without CUDA has no GPU
 * workers, so it is never asked). */
#ifdef STARPU_USE_CUDA
#define sylva__worker_stream() ((struct CUstream_st *)starpu_cuda_get_local_stream())
#else
#define sylva__worker_stream() ((struct CUstream_st *)0)
#endif

/* Pointer of a vector or matrix buffer (pools are vectors, tiled fronts'
 * P and C are matrices). */
static inline void *sylva__buf_ptr(void *buffer)
{
    const struct starpu_vector_interface *v = buffer;
    if (v->id == STARPU_VECTOR_INTERFACE_ID) return (void *)v->ptr;
    return (void *)STARPU_MATRIX_GET_PTR(buffer);
}
/* Bytes of a vector or matrix buffer. */
static inline size_t sylva__buf_bytes(void *buffer)
{
    const struct starpu_vector_interface *v = buffer;
    if (v->id == STARPU_VECTOR_INTERFACE_ID) return (size_t)v->nx * v->elemsize;
    return (size_t)STARPU_MATRIX_GET_LD(buffer) * STARPU_MATRIX_GET_NY(buffer) *
           STARPU_MATRIX_GET_ELEMSIZE(buffer);
}

/* The group codelet (codelet_group.c): a CPU twin per precision
 * (t_group_cpu.c) and, for double, the GPU run (kernels/gpu_group.h). */
extern struct starpu_codelet sylva__group_codelet;
void sylva__d_group_cpu(void *buffers[], const sylva__group_args *a);
void sylva__s_group_cpu(void *buffers[], const sylva__group_args *a);

/* Called between submissions: waits while more than
 * SYLVA__MAX_SUBMITTED_TASKS tasks are submitted and not finished (their
 * descriptors are memory), until 3/4 of that remain. */
static inline void sylva__submit_throttle(void)
{
    if (starpu_task_nsubmitted() > SYLVA__MAX_SUBMITTED_TASKS)
        starpu_task_wait_for_n_submitted(SYLVA__MAX_SUBMITTED_TASKS * 3 / 4);
}

/* Tiled large fronts (front_tiles.c, codelet_tiles.c). On GPUs, the
 * automatic tile size of fronts shared by several GPUs: cuBLAS's DGEMM
 * runs near its peak from 2048 on (docs/perf-log.md). */
#define SYLVA__GPU_TILE_ROWS 2048
typedef struct sylva__tile_args {
    sylva_dtype precision; /* first: the codelets' can_execute reads it */
    sylva__numeric *num;   /* GPU twins: the task error goes there */
    int *front_info;       /* CPU POTRF: the front's status slot */
    int64_t front;         /* GPU POTRF: the front, for the failure list */
    int64_t col0;          /* POTRF: first front column of the tile */
} sylva__tile_args;
/* A copy between a whole matrix (leading dimension ld) and its tiles. */
typedef struct sylva__tile_copy_args {
    sylva_dtype precision;
    sylva__numeric *num;
    int gather;                  /* 0: whole → tiles, 1: tiles → whole */
    int64_t ld, ntiles;
    const int64_t *row0, *col0;  /* per tile: its place in the whole */
} sylva__tile_copy_args;
extern struct starpu_codelet sylva__tile_potrf_codelet, sylva__tile_trsm_codelet,
    sylva__tile_syrk_codelet, sylva__tile_gemm_codelet, sylva__tile_copy_codelet;
typedef struct sylva__tiled sylva__tiled;
/* How a tiled front's tasks reach the runtime: on one process NULL hooks
 * (starpu_task_insert); across processes front_tiles_dist.c's, which give
 * every tile a tag and an owner rank and submit through StarPU-MPI. */
typedef struct sylva__tile_hooks {
    void *ctx;
    /* Tile (bi, bl) of the front's block grid (C's blocks after P's), of
     * `bytes` bytes, just registered. */
    void (*tile)(void *ctx, starpu_data_handle_t h, int64_t bi, int64_t bl, size_t bytes);
    /* Submit one task (node ≥ 0: run it on that rank; −1: where its
     * written data lives); a status. */
    int (*insert)(void *ctx, struct starpu_codelet *cl, void *arg, size_t arg_size,
                  struct starpu_data_descr *descr, int n, uint32_t where, int prio, double flops,
                  void (*done)(void *), void *done_arg, int node);
    int home;  /* the rank where the front is assembled: the copies run there */
} sylva__tile_hooks;
/* Distributed runs (front_tiles_dist.c, built with StarPU-MPI): hooks that
 * deal the tiles of a front of m rows, k pivots, tiles of nb over the
 * ranks (2D block-cyclic), tags from *next_tag on, bytes this rank sends
 * and receives added to *sent, *received; home: the front's owner. The
 * hooks must be freed after the front's submission; NULL on no memory. */
sylva__tile_hooks *sylva__tile_dist_new(int home, int64_t m, int64_t k, int64_t nb, int me, int nranks,
                                        int64_t *next_tag, double *sent, double *received);
void sylva__tile_dist_free(sylva__tile_hooks *h);
/* What to tile: P (m × k, the front's L slice, a matrix handle) and C
 * ((m−k)², leading dimension m−k: a matrix handle, or on GPU runs the
 * group's CB pool vector) into tiles of nb rows/columns. copies = 0: P and
 * C are partitioned (their home is host memory: CPU runs); copies = 1: the
 * tiles are buffers of their own, copied out of P and C after the assembly
 * and back after the factorization, so that StarPU can put each tile task
 * on any GPU without moving a whole front through the host (StarPU 1.3
 * switches partitions on the handle's home node). */
typedef struct sylva__tiled_spec {
    starpu_data_handle_t P, C;
    int64_t m, k, nb, front;
    sylva_dtype precision;
    sylva__numeric *num;
    int copies;
    uint32_t where;                  /* the tile tasks' STARPU_EXECUTE_WHERE */
    starpu_data_handle_t work;       /* POTRF's scratch (GPU workspace); NULL: a scalar of its own */
    int prio;                        /* CPU runs' priority base (0 on GPU runs) */
    const sylva__group_args *group;  /* the tile tasks' log records; NULL: none */
    const sylva__tile_hooks *hooks;  /* NULL: one process */
} sylva__tiled_spec;
/* Split P and C into tiles, submit the tiled factorization and the
 * gathering; free with sylva__tiled_free after the tasks have ended. The
 * tile tasks' priorities are prio .. prio + sylva__tiled_priorities(m, k,
 * nb) − 1 (critical path first). On failure *status is set and what was
 * split is gathered. */
sylva__tiled *sylva__tiled_submit(const sylva__tiled_spec *spec, int *status);
/* The same in two steps: every allocation first (reads the spec's m, k,
 * nb and copies; NULL with the message set on no memory), then the
 * submission with the whole spec (a status). */
sylva__tiled *sylva__tiled_prepare(const sylva__tiled_spec *spec);
int sylva__tiled_submit_prepared(sylva__tiled *T, const sylva__tiled_spec *spec);
/* The spec of large group g's front on CPU workers (partitioned, the
 * front's L handle as P, C its CB), for the caller to adjust. */
sylva__tiled_spec sylva__tiled_spec_of(sylva__numeric *N, starpu_data_handle_t C, int64_t g, int64_t nb,
                                       int prio, const sylva__group_args *group);
int64_t sylva__tiled_priorities(int64_t m, int64_t k, int64_t nb);
void sylva__tiled_free(sylva__tiled *T);

/* Submit the whole plan for values `A_values` into N in the resolved mode
 * (SYLVA_MODE_CPU, _GPU or _HYBRID); waits for the end and fills what the
 * run measured into rep. */
int sylva__factor_submit(sylva__numeric *N, const void *A_values, int64_t nnz, int64_t tile_rows,
                         int mode, sylva__factor_report *rep);

/* The direct factorization (factorize_direct.c): one process, one GPU, a
 * static plan in GPU mode, run from the calling thread on a stream of N's
 * own, no task. *taken = 0 (and SYLVA_OK) when it declines: another mode,
 * SYLVA_FACTOR_DIRECT not 1, or too little device memory for it (the task
 * path then runs). Its hold is freed with N (sylva__factor_direct_free) or at
 * the runtime's stop (sylva__factor_direct_free_all). */
typedef struct sylva__factor_hold sylva__factor_hold;
int sylva__factor_direct(sylva__numeric *N, const void *A_values, int64_t nnz, int mode, sylva__factor_report *rep,
                         int *taken);
void sylva__factor_direct_free(sylva__numeric *N);
/* 1 when the direct factorization (and the pivot check on the direct
 * solve's hold) may run: SYLVA_FACTOR_DIRECT=1. */
int sylva__factor_direct_on(void);
/* The pivot check that the last direct factorization of N queued after its
 * groups (per solve-plan record, as sylva__solve_gpu_pivots gives them):
 * 1 and the arrays filled once per factorization, else 0. */
int sylva__factor_direct_pivots(sylva__numeric *N, int *bad, double *badval, double *lo, double *hi);
void sylva__factor_direct_free_all(void);

/* The same for a dynamic policy (factorize_ready.c): batches cut at run
 * time from the ready pool as tasks complete, into N->run_plan. */
int sylva__factor_submit_ready(sylva__numeric *N, const void *A_values, int64_t nnz, int64_t tile_rows,
                               int mode, sylva__factor_report *rep);
/* Shared by both submissions (factorize.c): the size class of a CB pool,
 * group g's L handle (registered once), a group task's callback (GPU time,
 * progress, task log), the GPUs' failed fronts and peak memory, where a
 * task may run, its arguments. */
uint32_t sylva__cb_class(int64_t n);
void sylva__register_L_group(sylva__numeric *N, int64_t g, int home);
/* Bytes of large group g's tiled CB (its one front's (m − k)²). */
size_t sylva__tiled_cb_bytes(const sylva__plan *pl, int64_t g, size_t elem);
void sylva__group_done(void *group_args);
/* Where a group task may run in mode M (large fronts stay on GPUs in hybrid
 * runs), and a group's task arguments with every buffer index absent (the
 * caller sets gpu, cbmem, cb_unread and the indices it uses). */
uint32_t sylva__group_where(int mode, int large);
void sylva__group_args_init(sylva__group_args *a, const sylva__plan *pl, sylva__numeric *N, int64_t g,
                            int tile_it, double **child_ptrs, double cost);
int sylva__factor_gather_gpu(sylva__numeric *N, sylva__factor_report *rep);
/* After a run's tasks ended: its transfers and workers (sylva__stats_read),
 * its GPU times, and on a GPU run the failed fronts and peak memory (L then
 * stays on the device: N->on_device). */
int sylva__factor_read_run(sylva__numeric *N, sylva__factor_report *rep, int gpu);
/* A GPU run's plan and workspace (once), and in mode GPU the check that
 * its largest task fits the device memory StarPU may use. */
int sylva__factor_prepare_gpu(sylva__numeric *N, int mode, int64_t nnz);
/* CPU runs' priorities: the band of priorities one group's tasks need
 * (tiled fronts' tile rows), and the base of group g's band, falling with
 * its plan position. */
int64_t sylva__tiled_priority_band(const sylva__plan *pl, int64_t tile_rows);
int sylva__group_priority_base(int64_t g, int64_t ng, int64_t band);

/* Distributed runs (dist_mpi.c, or dist_none.c without MPI). Start StarPU
 * with conf — through StarPU-MPI when mpi_mode (sylva_mpi_mode) and the
 * environment ask for several processes, then with the machine's cores
 * and GPUs dealt to the ranks on it — and stop it (collective in a
 * distributed run). */
int sylva__dist_start(struct starpu_conf *conf, int mpi_mode);
void sylva__dist_stop(void);
/* 1 when sylva__dist_start would start MPI (mpi_mode and the environment
 * ask for it; also SYLVA_MPI_ON in a build without MPI, whose start then
 * fails): such a start runs in the calling thread. */
int sylva__dist_wanted(int mpi_mode);
/* sylva__runtime_start in two steps: the checks and the environment StarPU
 * reads (in the calling thread; *running_already: the runtime runs, with
 * these options or the failure says not), then StarPU's start proper (any
 * thread). sylva__runtime_settle: wait for a start under way (init_async.c;
 * every runtime query does, first). */
int sylva__runtime_prepare(const sylva_options *opts, int *running_already);
int sylva__runtime_launch(const sylva_options *opts);
void sylva__runtime_settle(void);
/* bytes from rank `from` to rank `to` (the others return at once). */
int sylva__dist_send_recv(void *buf, int64_t bytes, int from, int to, int tag);
/* Every rank's `bytes` of mine, in rank order, into all (ranks × bytes). */
int sylva__dist_all_gather(const void *mine, void *all, int64_t bytes);
/* The factorization over the ranks (factorize_dist.c): rank 0's A_values
 * (NULL on the others) sent where the groups that assemble them run, one
 * task per group on its owner rank (its CPU or GPU workers, by mode, the
 * same on every rank), contribution blocks sent between ranks by
 * StarPU-MPI; on return every rank has every front's status (front_info
 * summed over the ranks), its own share in rep and every rank's in
 * N->rank_stats. */
int sylva__factor_submit_dist(sylva__numeric *N, const void *A_values, int64_t nnz, int64_t tile_rows,
                              int mode, sylva__factor_report *rep);
/* The owner rank of each group of N's plan (made at the first distributed
 * factorization); NULL before. */
const int *sylva__numeric_owners(const sylva__numeric *N);

/* The GPU form of the plan and its handles, made once (gpu_run.c). */
int sylva__rt_plan_gpu(sylva__rt_plan *rt);
/* The perfmodels' size of group g (flops and assembled entries). */
double sylva__group_cost(const sylva__plan *plan, int64_t g);

/* GPU workers' contexts (gpu_workers.c). */
int sylva__gpu_workers_start(void);
void sylva__gpu_workers_stop(void);
sylva__gpu_context *sylva__gpu_worker_context(int workerid);
int sylva__gpu_workers_reset(void);
/* Gather every worker's failures (front, pivot; at most cap) and the peak
 * device memory the workers sampled, overall and per GPU in use. */
int sylva__gpu_workers_gather(int64_t *fronts, int *pivots, int cap, int *count, size_t *peak,
                              size_t dev_peak[SYLVA__MAX_GPUS]);
const char *sylva__gpu_workers_name(void);
int64_t sylva__gpu_workers_native_bytes(int k);
const sylva__kernel_tuning *sylva__gpu_workers_tuning(void);

/* Several GPUs (gpu_map.c). sylva__gpu_index: the index of CUDA device
 * `devid` among the GPUs in use (0..gpus−1, numbered by their first
 * worker), −1 when not in use. Masks: per GPU in use, the StarPU workers
 * a group mapped to it may run on (its workers; in hybrid runs also the
 * CPU workers), `words` uint32_t each; no masks (bits NULL) with fewer
 * than two GPUs. sylva__rt_plan_gpu_map: the analysis' mapping of its
 * groups onto `gpus` GPUs (made once per GPU count). sylva__gpu_mask_of:
 * group g's mask, NULL when it is free to run anywhere (a group above the
 * split, or no map). */
typedef struct sylva__gpu_masks {
    int gpus;
    unsigned words;
    uint32_t *bits;
} sylva__gpu_masks;
int sylva__gpu_index(int devid);
int sylva__gpu_masks_make(int hybrid, sylva__gpu_masks *m);
void sylva__gpu_masks_free(sylva__gpu_masks *m);
const sylva__plan_map *sylva__rt_plan_gpu_map(sylva__rt_plan *rt, int gpus, int *status);
const uint32_t *sylva__gpu_mask_of(const sylva__gpu_masks *m, const sylva__plan_map *map, int64_t g);

/* One block of a CPU solve, shared by its piece tasks (solve_cpu.c,
 * codelet_solve_piece.c): host memory only. */
typedef struct sylva__solve_run {
    const sylva__plan *plan;
    const sylva__solve_pieces *sp;
    const void *L;           /* L's host values */
    sylva_dtype precision;   /* of L, B, W */
    void *B;                 /* user's numbering, in and out */
    int64_t ldb;
    void *W;                 /* n × nb, permuted, ld n */
    void *out;               /* exported updates: out_rows × nb, ld max(1, out_rows) */
    void **scratch;          /* by worker id: (max_stack_rows + max_rows) × chunk scalars */
    int trace;               /* tasks record their times (SYLVA_SOLVE_TRACE, solve_cpu.c) */
} sylva__solve_run;
/* The kinds of solve tasks: a piece's forward and backward; the parts of
 * a split piece's L21 products (rows forward, columns backward); a blocked
 * piece's diagonal blocks and the updates after each (batching.h). */
enum {
    SYLVA__SOLVE_FWD,
    SYLVA__SOLVE_FWD_PART,
    SYLVA__SOLVE_FWD_DIAG,
    SYLVA__SOLVE_FWD_UPD,
    SYLVA__SOLVE_BWD_PART,
    SYLVA__SOLVE_BWD_DIAG,
    SYLVA__SOLVE_BWD_UPD,
    SYLVA__SOLVE_BWD
};
typedef struct sylva__solve_piece_args {
    const sylva__solve_run *run;
    int64_t piece, c0, nc;   /* the piece; the chunk's first column and width */
    int kind;                /* SYLVA__SOLVE_* */
    int64_t part;            /* _PART: the part; _DIAG, _UPD: the diagonal block */
    int64_t group;           /* _UPD: the group of blocks updated */
    double t0, t1;           /* when run->trace: start and end (sylva__now) */
    int worker;              /* when run->trace: the worker that ran it */
} sylva__solve_piece_args;
extern struct starpu_codelet sylva__solve_piece_codelet;
void sylva__d_solve_piece_cpu(const sylva__solve_piece_args *a, void *scratch);
void sylva__s_solve_piece_cpu(const sylva__solve_piece_args *a, void *scratch);
/* B (n × nb, ld ldb, N's precision) ← A⁻¹ B on the CPU workers (N's L on
 * the host); the calling thread alone when there is no CPU worker. */
int sylva__solve_cpu_block(sylva__numeric *N, int64_t nb, void *B, int64_t ldb);
/* Distributed runs (solve_dist.c): B (n × nb, ld ldb, N's precision, rank
 * 0's; NULL elsewhere) ← A⁻¹ B with every front solved on the rank that
 * holds its L; collective. drive: rank 0's call, which first tells the
 * ranks serving (sylva__numeric_solve_serve) the block's width. *bytes
 * (may be NULL) grows by what all ranks sent each other. */
int sylva__solve_dist_block(sylva__numeric *N, int64_t nb, void *B, int64_t ldb, double *bytes);
int sylva__solve_dist_drive(sylva__numeric *N, int64_t nb, void *B, int64_t ldb, double *bytes);

/* The host residual R = B − A X with per-column backward errors, as tasks
 * over the columns (codelet_residual.c). X, B, R: user's numbering. */
typedef struct sylva__residual_run {
    const sylva__full_pattern *fp;
    const double *values;    /* A's stored values */
    const int64_t *perm;     /* the tree's permutation */
    sylva_dtype dtype;       /* of X, B, R */
    const void *X, *B;
    void *R;
    int64_t ldx, ldb, ldr;
    double *omega;           /* nrhs */
} sylva__residual_run;
typedef struct sylva__residual_args {
    const sylva__residual_run *run;
    int64_t c0, nc;
} sylva__residual_args;
extern struct starpu_codelet sylva__residual_codelet;
int sylva__residual_cpu_tasks(const sylva__residual_run *R, int64_t nrhs);

/* Iterative refinement on one block (refine.c), over the operations of
 * where x lives: residual fills R = B − A X and omega[c] (host array) for
 * the block's columns; solve makes the correction D = A⁻¹ R; update makes
 * X ← X + sign·D (sign −1 undoes the last step). */
typedef struct sylva__refine_ops {
    void *ctx;
    int (*residual)(void *ctx, double *omega);
    int (*solve)(void *ctx);
    int (*update)(void *ctx, int sign);
} sylva__refine_ops;
/* X already holds the first solution. refine: N > 0 or SYLVA_REFINE_AUTO;
 * eps: the unit roundoff of the solution's type; omega: nc doubles of
 * room. Reports the steps taken and the worst backward error before and
 * after. */
int sylva__refine(const sylva__refine_ops *ops, int refine, double eps, int64_t nc, double *omega,
                  int *steps, double *before, double *after);

/* The GPU solve task of one block (codelet_solve_gpu.c, solve_gpu.c):
 * buffer indices, and what the task reports back. */
typedef struct sylva__solve_gpu_args {
    const sylva__gpu_solve_plan *gs;
    int64_t nrhs;
    int refine;                /* 0, N or SYLVA_REFINE_AUTO */
    double eps;                /* the solution's unit roundoff */
    int buf_B, buf_blob, buf_work, buf_L0, buf_pattern, buf_avals;
    double *host_B;            /* B in host memory (buf_B −1): the task copies it in and out */
    int64_t host_ldb;
    double **group_L;          /* ngroups of room for the L slices' device pointers */
    double *omega;             /* nrhs of room (host) */
    int pivots;                /* 1: only check the pivots into bad, badval, plo, phi (host, per record) */
    int *bad;
    double *badval, *plo, *phi;
    int status, steps;         /* results */
    double berr_before, berr_after, seconds_solve, seconds_refine, seconds_upload, seconds_download;
    int pin_how;               /* how the host block was copied (gpu_stage.h's SYLVA__PIN_*) */
    double seconds_register, seconds_unregister; /* of the upload and download: page-locking it */
    double t_start, t_end;     /* the task body's start and end (sylva__now), for SYLVA_SOLVE_PHASES */
    char error[512];
} sylva__solve_gpu_args;
extern struct starpu_codelet sylva__solve_gpu_codelet;
/* Where one block's solve finds its device data: the solve blob, the
 * workspace (and its bytes), B when it is device memory (else NULL: the
 * body copies a->host_B in and out), the pattern blob and A's values when
 * refining; a->group_L holds the L slices' device pointers. */
typedef struct sylva__solve_gpu_ptrs {
    const void *blob;
    void *work;
    size_t work_bytes;
    int lp_ready; /* work's front pointers (ws.Lp) already made for these L slices: no setup */
    double *B;
    int64_t ldb;
    const void *pattern;
    const double *avals;
} sylva__solve_gpu_ptrs;
/* One block's solve (or pivot check) on stream s (codelet_solve_gpu.c): the
 * task's body, and the direct solve's (solve_gpu_direct.c). */
int sylva__solve_gpu_body(sylva__solve_gpu_args *a, const sylva__solve_gpu_ptrs *p, struct CUstream_st *s);
/* The GPU worker a solve runs on: one of CUDA device `device` (≥ 0), else of
 * the memory node holding most of L; −1 when there is none (solve_gpu.c). */
int sylva__solve_gpu_worker(const sylva__numeric *N, int device);
/* The direct solve (solve_gpu_direct.c). begin: when it can run this
 * request (B on `device`, or −1 for host B) with a workspace of work_bytes,
 * *h is N's hold, ready and locked (every block then through
 * sylva__solve_gpu_direct_block, and sylva__solve_gpu_direct_end after);
 * else *h is NULL (the task). unhold: N's acquisitions released, its
 * stream closed (before L or A's values are written, moved or
 * unregistered); unhold_all: every factor's (the runtime's stop). */
typedef struct sylva__solve_hold sylva__solve_hold;
int sylva__solve_gpu_direct_begin(sylva__numeric *N, const sylva__solve_request *q, int device, size_t work_bytes,
                                  sylva__solve_hold **h);
int sylva__solve_gpu_direct_block(sylva__solve_hold *h, sylva__solve_gpu_args *a, const sylva__solve_request *q,
                                  double *B, int64_t ldb);
void sylva__solve_gpu_direct_end(sylva__numeric *N, sylva__solve_hold *h);
/* The bytes of N's held workspace that a direct solve needing work_bytes
 * would reuse or give back for its own (its workspace when the direct
 * solve would take the request; else 0: the task allocates beside it). */
size_t sylva__solve_gpu_held_work(sylva__numeric *N, size_t work_bytes);
void sylva__solve_gpu_unhold(sylva__numeric *N);
void sylva__solve_gpu_unhold_all(void);

/* The GPU solve (solve_gpu.c); host or device B per q. */
int sylva__solve_gpu(sylva__numeric *N, const sylva__solve_request *q, int64_t nrhs, void *B,
                     int64_t ldb, sylva__solve_report *rep);
/* The pivot check of a factor on the GPU: per front record of the solve
 * blob (level order), bad, badval, lo and hi as sylva__gpu_solve_pivots
 * makes them (host arrays of nfronts). */
int sylva__solve_gpu_pivots(sylva__numeric *N, int *bad, double *badval, double *lo, double *hi);
/* The GPU solve's plan of N's analysis (built once; the direct
 * factorization's pivot check uses it). */
int sylva__solve_gpu_plan_ready(sylva__numeric *N);
/* 1 when that check can run on a GPU: double precision, the analysis'
 * layout (not a dynamic policy's run), all of L and a one-column solve's
 * workspace (the check's, solve_gpu.c) fit the device. */
int sylva__solve_gpu_pivots_possible(sylva__numeric *N);
/* 1 when the GPU solve can run (GPU workers, double precision, L fits the
 * device next to a block's workspace, and that workspace fits the memory
 * StarPU may still allocate there); else 0 and why in *why. */
int sylva__solve_gpu_possible(sylva__numeric *N, const sylva__solve_request *q, const char **why);
/* An automatic block (q->block_auto) for a GPU solve: q->block halved, not
 * below SYLVA__SOLVE_MIN_BLOCK, until L and its workspace fit the GPU's
 * memory and the workspace fits what StarPU may still allocate there (the
 * solve then runs there in more blocks, where the whole block would have
 * sent it to the CPU or waited for memory that never comes). */
int64_t sylva__solve_gpu_block(sylva__numeric *N, const sylva__solve_request *q);
/* A's full pattern for residuals (made once per analysis). */
int sylva__rt_plan_full(sylva__rt_plan *rt, const sylva__full_pattern **out);

/* Transfers and worker times of a run (stats.c): reset before, read after
 * (StarPU's bus and worker profiling). */
void sylva__stats_reset(void);
void sylva__stats_read(sylva__factor_report *rep);
/* Bytes host → GPUs and GPUs → host since the last reset (or read). */
void sylva__stats_bytes(double *to_device, double *to_host);

/* The task log of a run (task_log.c): every task's worker and times from
 * StarPU's task profiling, appended by the tasks' callbacks. Start it
 * before the first submission (the run's time origin); a record that
 * cannot be stored (memory) is counted in `dropped`. */
int sylva__task_log_start(sylva__numeric *N, int64_t expected);
/* In a task's callback: the current task's record, as group g of kind k. */
void sylva__task_log_add(sylva__numeric *N, int64_t group, int kind);
/* Seconds since the log's start, and a record with times given in them
 * (the direct factorization's groups: submitted and started at `start`). */
double sylva__task_log_now(const sylva__numeric *N);
void sylva__task_log_put(sylva__numeric *N, int64_t group, int kind, int worker, double start, double end);
/* A sample of the device memory StarPU has allocated on `worker`'s memory
 * node, at t (seconds since the log's start), when the worker is a GPU's;
 * task starts (the CUDA codelets, once their buffers are allocated) and
 * ends (sylva__task_log_add) take one, as does sylva__task_log_put. */
void sylva__task_log_sample(sylva__numeric *N, int worker, double t);
/* Callback of a tile task: logs it (kind from its codelet) for its group. */
void sylva__tile_done(void *group_args);
void sylva__task_log_free(sylva__task_log *log);

#endif
