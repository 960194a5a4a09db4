/* runtime.h — what the runtime/ layer offers api/: starting and stopping the
 * task runtime (StarPU, CPU and CUDA workers), and the numeric phases on a
 * planned tree — the factorization as tasks over data handles (on CPU
 * workers, on GPUs, or both), the solve and the log-determinant. StarPU
 * stays inside runtime/ (runtime_internal.h); nothing declared here names
 * it. Every call returns a sylva_status with a message.
 */
#ifndef SYLVA_RUNTIME_H
#define SYLVA_RUNTIME_H

#include <stdint.h>

#include "batching.h"
#include "core.h"

/* Start StarPU with the options' workers (ncpus, ncuda — 0 with
 * SYLVA_MODE_CPU —, device_memory) and scheduler (default dmdas with GPUs,
 * lws without), and a context per GPU worker (once; a second call while
 * running is a no-op) / stop it. */
int sylva__runtime_start(const sylva_options *opts);
void sylva__runtime_stop(void);
/* The start on a thread of its own when allow_thread and the run is one
 * process (*on_thread = 1; init_async.c), else here as
 * sylva__runtime_start (*on_thread = 0): the options' failure, or the
 * start's when it ran here. sylva__runtime_wait: wait for a start under
 * way; its status (a failed start's is kept until the next start or
 * stop); sylva__runtime_join: the same, forgetting a failure.
 * sylva__runtime_start_times: the last start's seconds, begin to end, and
 * the seconds callers waited for it. */
int sylva__runtime_begin(const sylva_options *opts, int allow_thread, int *on_thread);
int sylva__runtime_wait(void);
void sylva__runtime_join(void);
void sylva__runtime_start_times(double *seconds_start, double *seconds_waited);
int sylva__runtime_ready(void);
/* SYLVA_OK when the runtime runs in this process; else the failure a call
 * needing it returns, WHO naming the call: SYLVA_ERR_NOT_INITIALIZED
 * before sylva_init, SYLVA_ERR_RUNTIME in a child forked after it (StarPU's
 * workers are the parent's). sylva__runtime_forked checks only the
 * latter (a factor stays usable after sylva_finalize, not in a fork). */
int sylva__runtime_check(const char *who);
int sylva__runtime_forked(const char *who);
/* Workers are paused between phases (their polling would take cores from
 * the caller's own work); a phase that submits tasks holds them running.
 * Counted under a lock, so concurrent holders (solves from several
 * threads) nest. */
void sylva__runtime_hold(void);
void sylva__runtime_release(void);
/* Workers StarPU runs, and how many are GPUs (0 before start). */
int sylva__runtime_workers(void);
int sylva__runtime_gpus(void);        /* GPUs (devices) in use */
int sylva__runtime_gpu_workers(void); /* CUDA workers (several per GPU) */
int sylva__runtime_cpu_workers(void);
const char *sylva__runtime_scheduler(void); /* "" when not running */
/* StarPU's i-th scheduling policy (and its one-line summary), NULL past
 * the last. */
const char *sylva__runtime_scheduler_name(int i, const char **summary);
/* Bytes of device memory a GPU worker may use (the limit, or what StarPU
 * found), 0 without GPUs. */
int64_t sylva__runtime_gpu_memory(void);
/* CUDA devices on this machine (0 without, or in a build without CUDA),
 * and the device that holds p (−1: not device memory). */
int sylva__runtime_cuda_devices(void);
int sylva__runtime_pointer_device(const void *p);
/* The GPU model ("" without GPUs), and its tuned small/large threshold
 * (fronts with more rows go to the native path; 0 without GPUs). */
const char *sylva__runtime_gpu_name(void);
int64_t sylva__runtime_gpu_small_rows(void);

/* Several processes (StarPU-MPI: dist_mpi.c; a build without MPI has
 * dist_none.c, one process). A run is distributed when the runtime started
 * with more than one rank (sylva__runtime_start decides, from opts->mpi).
 * Every call here is collective over the ranks unless it says otherwise,
 * and returns the same status on every rank. */
int sylva__dist_rank(void);   /* this process: 0 when not distributed (not collective) */
int sylva__dist_size(void);   /* ranks: 1 when not distributed (not collective) */
/* The first failure of the lowest failing rank, on every rank, its message
 * prefixed "rank R: " (SYLVA_OK when none failed). */
int sylva__dist_agree(int status);
/* Broadcast bytes from rank 0 (buf is rank 0's data, filled on the others). */
int sylva__dist_bcast(void *buf, int64_t bytes);
/* The same from rank root; and the element-wise sum over the ranks of n
 * floats (single) or doubles into root's v (the others' v unchanged). */
int sylva__dist_bcast_from(void *buf, int64_t bytes, int root);
int sylva__dist_reduce_sum(void *v, int64_t n, int single, int root);
/* Element-wise minimum (int), sum (double) and maximum (int64) over the
 * ranks, in place. */
int sylva__dist_min_int(int *v, int64_t n);
int sylva__dist_sum_double(double *v, int64_t n);
int sylva__dist_max_i64(int64_t *v, int64_t n);
/* 1 on every rank when v is the same on every rank, else 0. */
int sylva__dist_same(uint64_t v);

/* Resident memory the runtime adds during a CPU factorization of plan pl
 * besides the plan's data (bytes; an estimate, docs/limits.md): the
 * descriptors of the tasks it keeps submitted (at most
 * SYLVA__MAX_SUBMITTED_TASKS, tile tasks of tile_rows included) and each
 * CPU worker's BLAS packing buffers. `workers` is used when the runtime is
 * not running (the running one's count otherwise). */
double sylva__runtime_workspace_bytes(const sylva__plan *pl, int64_t tile_rows, int workers, size_t es);

/* A plan as the runtime keeps it for the analysis's life (its GPU form,
 * made at the first GPU factorization). */
typedef struct sylva__rt_plan sylva__rt_plan;
int sylva__rt_plan_create(const sylva__plan *plan, sylva__rt_plan **out);
void sylva__rt_plan_free(sylva__rt_plan *rt);

/* The numeric factor of one plan: L's values laid out by the plan (front f
 * at plan->l_off[f], m × k column-major, ld m), in one precision, and where
 * its valid copy lives. */
typedef struct sylva__numeric sylva__numeric;

int sylva__numeric_create(sylva__rt_plan *rt, sylva_dtype precision, sylva__numeric **out);
void sylva__numeric_free(sylva__numeric *N);

/* Per-GPU statistics are kept for this many GPUs (more are summed in the
 * totals only). */
#define SYLVA__MAX_GPUS SYLVA_MAX_GPU_STATS


typedef struct sylva__factor_report {
    int64_t tasks;         /* StarPU tasks submitted */
    int64_t failed_column; /* SYLVA_ERR_NOT_SPD: user's numbering, 0-based; else −1 */
    int mode;              /* the sylva_exec_mode it ran in (never AUTO) */
    int gpus;              /* GPU workers it could use */
    int64_t tasks_cpu, tasks_gpu;
    double gpu_busy;       /* seconds GPU workers spent in tasks */
    double cpu_busy;       /* seconds CPU workers spent in tasks */
    double bytes_to_device, bytes_to_host;
    double peak_device;    /* bytes in use on a GPU, highest sample */
    double gpu_seconds[2], gpu_flops[2]; /* GPU tasks by kind: [0] batches, [1] large fronts */
    double bytes_between_gpus;  /* GPU → GPU transfers */
    sylva_gpu_stats gpu[SYLVA__MAX_GPUS]; /* each GPU's share, the first min(gpus, SYLVA__MAX_GPUS) */
    int ranks;             /* processes (1: not distributed) */
    double busy_seconds, bytes_sent, bytes_received; /* this rank's (distributed runs) */
} sylva__factor_report;

/* Factor the values of A (A_values: nnz scalars of N's precision, the
 * pattern the plan was built for) into N. mode: the options' sylva_exec_mode
 * (AUTO: GPU when there are GPU workers); a GPU mode without GPU workers,
 * or in single precision, runs on the CPU and says so in rep->mode.
 * tile_rows: tile size of large fronts on CPU-only runs (0: one task each).
 * Fails with SYLVA_ERR_NOT_SPD (the smallest failing column in the user's
 * numbering, the same in every run and mode), SYLVA_ERR_NO_MEMORY (also when
 * the largest task cannot fit the device memory) or SYLVA_ERR_RUNTIME. */
int sylva__numeric_factor(sylva__numeric *N, const void *A_values, int64_t nnz, int64_t tile_rows,
                          int mode, sylva__factor_report *rep);
/* The options' progress callback for N's factorizations ("factorize",
 * fraction of flops in finished tasks), or NULL. */
void sylva__numeric_set_progress(sylva__numeric *N, void (*fn)(void *, const char *, double), void *arg);
/* The options' sylva_gpu_map for N's factorizations on several GPUs. */
void sylva__numeric_set_gpu_map(sylva__numeric *N, int gpu_map);
/* Tile tasks a large front of m rows and k pivots makes with tiles of nb
 * (front_tiles.c: per pivot block a POTRF, a TRSM per block below, a SYRK
 * or GEMM per block pair of the trailing matrix). */
double sylva__tiled_task_count(int64_t m, int64_t k, int64_t nb);
/* The options' gpu_tile_rows for N's GPU factorizations. */
void sylva__numeric_set_gpu_tile_rows(sylva__numeric *N, int64_t rows);
/* 1 when N's last factorization ran direct (factorize_direct.c: no task). */
int sylva__numeric_direct(const sylva__numeric *N);
/* 1 once a factorization into N succeeded. */
int sylva__numeric_ok(const sylva__numeric *N);
sylva_dtype sylva__numeric_dtype(const sylva__numeric *N);

/* Distributed runs: rank r's share of N's last factorization (every rank
 * has every rank's; one process: rank 0, all zeros). */
typedef struct sylva__rank_stats {
    int64_t tasks;
    double busy_seconds, bytes_sent, bytes_received, factor_bytes, flops;
    double tile_flops;                           /* the part of flops in tile tasks */
    int gpus;                                    /* GPU runs: this rank's GPUs */
    double gpu_busy_seconds, peak_device_bytes; /* their workers' time in tasks, their peak memory */
    double bytes_host_device;                   /* moved between this rank's host and its GPUs */
} sylva__rank_stats;
int sylva__numeric_rank_stats(const sylva__numeric *N, int rank, sylva__rank_stats *out);
/* Distributed runs: L's groups owned by other ranks received on rank 0
 * (once per factorization); collective. One process: nothing to do. */
int sylva__numeric_gather(sylva__numeric *N);
/* Distributed runs: while rank 0 solves (sylva__numeric_solve, each
 * block and correction solve with every rank), the other ranks serve:
 * sylva__numeric_solve_serve returns when rank 0 calls
 * sylva__numeric_solve_end, with the first failure of the blocks served
 * (each block's status is every rank's). Collective. */
int sylva__numeric_solve_serve(sylva__numeric *N);
int sylva__numeric_solve_end(void);
/* 1 when rank 0 holds all of L (gathered, or one process). */
int sylva__numeric_gathered(const sylva__numeric *N);

/* The plan N's last factorization ran: the analysis' for static policies,
 * the one cut at run time for a dynamic policy (front f's L at l_off[f]). */
const sylva__plan *sylva__numeric_plan(const sylva__numeric *N);

/* One task of a run as StarPU profiled it: its group in the run's plan, its
 * sylva_task_kind, worker, and times in seconds since the run began (−1
 * when StarPU recorded none). */
typedef struct sylva__task_rec {
    int64_t group;
    int kind, worker;
    double submit, fetch_start, fetch_end, start, end;
} sylva__task_rec;
/* The last run's tasks in completion order (count of them; dropped: records
 * lost for want of memory), NULL before the first run. */
const sylva__task_rec *sylva__numeric_tasks(const sylva__numeric *N, int64_t *count, int64_t *dropped);
/* One sample of the device memory StarPU had allocated on a GPU's memory
 * node during a run (task_log.c): when (seconds since the run began), the
 * GPU (index among the GPUs in use, and CUDA device number), bytes. */
typedef struct sylva__mem_sample {
    double t;
    int gpu, device;
    int64_t bytes;
} sylva__mem_sample;
/* The last run's samples in the order they were taken (count of them),
 * NULL before the first run; none on a run without GPU workers. */
const sylva__mem_sample *sylva__numeric_memory_samples(const sylva__numeric *N, int64_t *count);
/* StarPU worker `id`: kind (1 GPU, 0 CPU), device number, name. */
int sylva__runtime_worker(int id, int *kind, int *device, char *name, size_t size);

/* Bring L to host memory if its valid copy is on a GPU (asynchronous copies
 * of every group's slice into page-locked memory, then a wait); *seconds
 * the time it took (0 when L was already there). */
int sylva__numeric_to_host(sylva__numeric *N, double *seconds);
/* A distributed run's part of L that this rank owns to its host memory
 * (after a GPU factorization it is on the rank's GPUs: local copies, no
 * message; not collective); one process: sylva__numeric_to_host. */
int sylva__numeric_own_to_host(sylva__numeric *N, double *seconds);
/* What a solve is asked for (api/ resolves the options into it). */
typedef struct sylva__solve_request {
    int mode;          /* sylva_solve_mode */
    int refine;        /* refinement steps: 0, N > 0, or SYLVA_REFINE_AUTO */
    int64_t block;     /* right-hand sides solved at once (> 0) */
    int block_auto;    /* block chosen by the library (options.solve_block = 0): a GPU solve may lower it */
    sylva_dtype dtype; /* of B: N's precision, or double with a single-precision N */
    int on_device;     /* B is device memory (sylva_solve_device) */
    int local;         /* distributed runs: rank 0 alone, on L gathered there (sylva_rcond) */
} sylva__solve_request;

/* What it did; times in seconds, summed over the blocks. */
typedef struct sylva__solve_report {
    int mode;                 /* where it ran: SYLVA_SOLVE_GPU, _CPU or _SEQUENTIAL */
    int steps;                /* refinement steps (the most of any block) */
    int64_t blocks;
    double berr_before, berr_after; /* worst componentwise backward error; −1 if not refined */
    double to_host, upload, solve, refine, download;
    double bytes_to_device, bytes_to_host;
    int ranks;                /* processes it ran on (1 unless distributed) */
    double bytes_ranks;       /* sent between the ranks, all ranks' sum */
    const char *why_not_gpu;  /* a GPU solve was wanted (asked, or AUTO after a GPU
                                 factorization or on device data) but ran on the CPU:
                                 why (a static string); NULL otherwise */
} sylva__solve_report;

/* B (n × nrhs, ld ldb, user's numbering) ← A⁻¹ B where q says (mode AUTO:
 * the GPU after a GPU factorization, else CPU tasks, or the sequential loop
 * for a small solve), in blocks of q->block columns,
 * each refined as q->refine asks (N must keep A's values then). A GPU
 * solve that cannot run there (a dynamic policy's factor, single
 * precision, no GPU worker, L larger than the device) runs on the CPU and
 * says so in rep->mode, and why in rep->why_not_gpu. Fails with
 * SYLVA_ERR_ARGUMENT (refinement without A's values), SYLVA_ERR_NO_MEMORY,
 * SYLVA_ERR_UNSUPPORTED (device data without CUDA) or SYLVA_ERR_RUNTIME. */
int sylva__numeric_solve(sylva__numeric *N, const sylva__solve_request *q, int64_t nrhs, void *B,
                         int64_t ldb, sylva__solve_report *rep);
/* Keep a double copy of A's values (nnz of dtype, the analyzed pattern)
 * for refinement's residuals; a later call replaces them (after a
 * refactorization). */
int sylva__numeric_keep_values(sylva__numeric *N, const void *values, sylva_dtype dtype, int64_t nnz);
/* For every front f: first_bad[f] = the first of its pivots (diagonal of
 * L11, 0-based) that is not finite and positive, or −1, and value[f] that
 * pivot; read where L is (a GPU task when it is on a GPU: L stays there;
 * L that must come to the host for it comes, and *to_host, when not NULL,
 * is the seconds that took, else 0). */
int sylva__numeric_pivot_scan(sylva__numeric *N, int64_t *first_bad, double *value, double *to_host);
/* 1 when the pivot scan reads L on the GPU where it is (a single
 * process, L on a GPU with room for the scan's task). */
int sylva__numeric_pivots_on_gpu(sylva__numeric *N);
/* 1 with SYLVA_FACTOR_PHASES=1 (read once): factorizations print where
 * their time went on stderr (docs/gpu.md, "The tree launch"). */
int sylva__factor_phases_on(void);
/* 1 when N keeps A's values. */
int sylva__numeric_refinable(const sylva__numeric *N);
/* 1 when L's valid copy is on a GPU. */
int sylva__numeric_on_device(const sylva__numeric *N);
/* 1 while N's direct GPU solve holds L on its GPU between solves
 * (runtime/solve_gpu_direct.c; for tests). */
int sylva__numeric_solve_held(sylva__numeric *N);
/* The solve in parts (solve_partial.c): B (n × nrhs, ld ldb, N's
 * precision) ← A⁻¹B, (LLᵀ)⁻¹B, L⁻¹B, L⁻ᵀB, PB or PᵀB, with P A Pᵀ = L Lᵀ
 * (sylva_system); L is brought to the host first when the system needs it. */
int sylva__numeric_solve_system(sylva__numeric *N, sylva_system sys, int64_t nrhs, void *B,
                                int64_t ldb);
/* log det A = 2 Σ log diag L: kept by the pivot check when it ran on a GPU
 * (L stays there), else summed on the host (L brought there first). */
int sylva__numeric_logdet(sylva__numeric *N, double *logdet);
/* (min_j L_jj / max_j L_jj)² of a factor whose pivots were checked
 * positive (pivot_ratio.c): read on the host, or for L on a GPU the
 * extremes its GPU pivot check found (NaN when that check has not run
 * since the factorization). Collective in a distributed run. */
int sylva__numeric_pivot_ratio(sylva__numeric *N, double *ratio);
/* L's values (plan layout) in host memory, brought there first; NULL on
 * failure. For tests that compare factors. */
const void *sylva__numeric_host_values(sylva__numeric *N);

#endif
