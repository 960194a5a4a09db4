/* core.h — the ground floor every layer of sylva may include, and which
 * includes nothing of ours but the public header: error reporting (the
 * per-thread last message), checked allocation (with the tests'
 * allocation-failure hook), the memory budget, atomic output files, the
 * monotonic timer, and the named constants more than one layer uses.
 * Nothing here can fail loudly: sylva__fail() records a message and returns
 * its status, the allocators return NULL after recording
 * SYLVA_ERR_NO_MEMORY, the output functions return SYLVA_ERR_IO.
 *
 *   return sylva__fail(SYLVA_ERR_FORMAT, "%s:%lld: bad entry", path, line);
 */
#ifndef SYLVA_CORE_H
#define SYLVA_CORE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sylva.h"

#if defined(__GNUC__)
#define SYLVA_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define SYLVA_PRINTF(a, b)
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------ errors */

/* Record a printf-style message for the calling thread (read back by
 * sylva_last_error()) and return `status`. */
int sylva__fail(int status, const char *fmt, ...) SYLVA_PRINTF(2, 3);
void sylva__clear_error(void);
/* src into dst (cap bytes, NUL-terminated, truncated to fit) with control
 * bytes (below 0x20, and 0x7f) written as \xHH: what every message goes
 * through (sylva__fail). */
void sylva__escape_controls(char *dst, size_t cap, const char *src);
/* v in the fewest digits (15 to 17) that read back as v, into buf (at
 * least 32 bytes): a message's value is the value, 1.0000001 not "1". */
const char *sylva__exact(char *buf, size_t cap, double v);
const char *sylva__last_error(void);
/* The status table of sylva.h: "not_spd", and a one-line description. */
const char *sylva__status_name(int status);
const char *sylva__strerror(int status);

/* ------------------------------------------------------------ memory */

/* malloc/calloc/realloc of count × size bytes (checked for overflow) that
 * record SYLVA_ERR_NO_MEMORY on failure; a zero-byte request returns a valid
 * pointer; a failed realloc leaves the old block alive. The caller frees
 * with free(). Every allocation of sylva's own goes through these. */
void *sylva__malloc(size_t count, size_t size);
void *sylva__calloc(size_t count, size_t size);
void *sylva__realloc(void *old, size_t count, size_t size);

/* Large short-lived host buffers (contribution blocks, task workspaces):
 * from SYLVA__HOST_MAP_MIN_BYTES on they are mapped pages, unmapped when
 * freed, so their memory leaves the process at once; smaller ones come
 * from malloc (64-byte aligned). Free with sylva__host_unmap and the same
 * size. sylva__host_alloc checks count × size, records SYLVA_ERR_NO_MEMORY
 * and obeys the test hook below; sylva__host_map does neither (StarPU's
 * own host allocations, runtime/init.c). */
void *sylva__host_alloc(size_t count, size_t size);
void *sylva__host_map(size_t bytes);
void sylva__host_unmap(void *p, size_t bytes);
#define SYLVA__HOST_MAP_MIN_BYTES ((size_t)1 << 20)

/* Test hook (tests/reliability): from now on, count the allocations above
 * and make the k-th one fail (k >= 1), or every one from the k-th on
 * (persistent); k = 0 only counts; k < 0 disarms (the count of the last
 * armed period stays). Not for production use: the counter is
 * process-wide. */
void sylva__alloc_fault_set(int64_t k, int persistent);
/* Allocations counted since the hook was last set. */
int64_t sylva__alloc_fault_count(void);

/* Bytes this process may still fill (free memory and swap, cgroup limit,
 * address-space limit; SYLVA_MEMORY_LIMIT overrides), and the check made
 * before filling arrays whose size the input chose: SYLVA_ERR_NO_MEMORY
 * "WHO: out of memory: WHAT needs X GB, Y GB are available". */
double sylva__memory_available(void);
int sylva__memory_check(double bytes, const char *who, const char *what);

/* The process's resident memory now, and its peak so far (bytes; 0 where
 * the system does not say). core/rss.c. */
double sylva__rss_bytes(void);
double sylva__peak_rss_bytes(void);

/* ------------------------------------------------------------ output files */

/* Every file sylva writes goes through these (core/out_file.c): a temporary
 * file in the target's directory renamed over it on success, so a failure
 * never leaves a truncated file. Devices and FIFOs are written in place,
 * and so are streams the process holds ("-" is standard output). */
typedef struct sylva__out {
    FILE *f;    /* write here (stdio) */
    char *path; /* the target */
    char *tmp;  /* the temporary, NULL when written in place */
    int guard;  /* its slot in out_signals.c's table (0: none) */
} sylva__out;
int sylva__out_open(sylva__out *o, const char *path);
/* Flush, sync, close and rename: SYLVA_OK, or SYLVA_ERR_IO with the
 * temporary removed. Closes o in every case. */
int sylva__out_close(sylva__out *o);
/* Close and remove the temporary (a failed writer's way out). */
void sylva__out_abort(sylva__out *o);
/* While a temporary exists, SIGINT, SIGTERM and SIGHUP (when their action
 * is the default) remove it before ending the process (core/out_signals.c):
 * guard returns the slot to unguard with (0 when none was free). */
int sylva__out_guard(const char *tmp);
void sylva__out_unguard(int guard);
/* The descriptor path names when it is a stream this process holds open
 * ("-", /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N, a link to
 * standard output's or error's file), else -1. */
int sylva__out_stream_fd(const char *path);
/* The whole of data into path, the same way. */
int sylva__write_file(const char *path, const void *data, size_t size);

/* ------------------------------------------------------------ input files */

/* Open path for reading only when it is a regular file (core/in_file.c):
 * the descriptor (the caller closes it) and the file's size, or
 * SYLVA_ERR_IO "PATH: not a regular file (a FIFO)" / "PATH: cannot open:
 * REASON", without blocking on a FIFO. sylva__file_kind names what a
 * st_mode is ("a FIFO", "a character device", ...). */
int sylva__open_regular(const char *path, int *fd, int64_t *size);
const char *sylva__file_kind(unsigned mode);

/* Bytes of one scalar of a dtype (0 for an unknown dtype). */
size_t sylva__dtype_size(sylva_dtype dtype);

/* ------------------------------------------------------------ time */

/* Seconds on the monotonic clock (differences only). */
double sylva__now(void);

/* The environment variable `name` as a switch read once into *cache
 * (which starts at −1): "1" gives 1, "0" gives 0, anything else `dflt`. */
int sylva__env_switch(const char *name, int dflt, int *cache);

/* ------------------------------------------------------------ constants */

/* Arrays sized by the input are checked against the memory budget
 * (sylva__memory_check) from this many bytes on. */
#define SYLVA__BUDGET_CHECK_BYTES ((int64_t)64 << 20)

/* Threads a phase of io/ (parse, CSC build) uses at most. */
#define SYLVA__IO_MAX_THREADS 16

/* Fronts with more rows are large (factored alone) on CPU-only runs, unless
 * the options say otherwise; GPU runs take the GPU model's tuned value. */
#define SYLVA__CPU_SMALL_FRONT_ROWS 256

/* Automatic batch size (sylva_analyze, batch_flops = 0): enough groups per
 * tree level for every worker to take this many ... */
#define SYLVA__AUTO_GROUPS_PER_WORKER 4.0
/* ... but no automatic batch under this many flops. */
#define SYLVA__AUTO_MIN_BATCH_FLOPS 1e6

/* On GPUs, small fronts totalling at most this many flops go into one
 * automatic batch: below it a task's overhead exceeds its work. */
#define SYLVA__GPU_ONE_BATCH_FLOPS 2e9

/* StarPU workers (each with its own stream) per GPU, unless the
 * environment's STARPU_NWORKER_PER_CUDA says otherwise. */
#define SYLVA__WORKERS_PER_GPU "2"

/* On GPUs, automatic batches are cut so that a task's data takes at most
 * 1/this of the device memory (the rest for L, other CBs and eviction). */
#define SYLVA__GPU_TASK_MEMORY_SHARE 4

/* Tasks a factorization keeps submitted at most: StarPU's tasks cost
 * several kB each until they run, and a tiled front makes O(NB³) of them, so the
 * submission waits (down to 3/4 of this) rather than hold them all. Far
 * more than the workers need for lookahead. */
#define SYLVA__MAX_SUBMITTED_TASKS 1024
/* The memory model's runtime workspace (api/memory.c): what one submitted
 * StarPU task holds until it runs, and what one CPU worker's BLAS touches
 * in its packing buffers (measured on the dev box: docs/limits.md). */
#define SYLVA__TASK_DESCRIPTOR_BYTES 8192.0
#define SYLVA__WORKER_BLAS_BYTES 4194304.0
/* The CPU solve cuts the tree into pieces of about 1/this of the work
 * per CPU worker (more pieces than workers, so subtrees balance). */
#define SYLVA__SOLVE_PIECES_PER_WORKER 4
/* A single-front piece whose L21 holds at least this many entries (m − k)·k
 * has its L21 products split into tasks of at least SYLVA__SOLVE_SPLIT_ROWS
 * rows (forward) or SYLVA__SOLVE_SPLIT_COLS columns (backward), at most
 * SYLVA__SOLVE_SPLIT_PER_WORKER per CPU worker: the fronts near the root
 * hold half the solve's work and would otherwise run on one core. */
#define SYLVA__SOLVE_SPLIT_MIN_ENTRIES 65536
#define SYLVA__SOLVE_SPLIT_ROWS 128
#define SYLVA__SOLVE_SPLIT_COLS 32
#define SYLVA__SOLVE_SPLIT_PER_WORKER 2
/* With at least SYLVA__SOLVE_DIAG_MIN_WORKERS CPU workers, a single-front
 * piece with more pivots than SYLVA__SOLVE_DIAG_BLOCK solves its L11 in
 * diagonal blocks of that many columns, the update of the rows beyond each
 * block split into tasks (so the root's triangle is not one core's). With
 * fewer workers the tree and the L21 splits already give the work's bound,
 * and the blocks' extra task hops only cost (docs/performance.md). */
#define SYLVA__SOLVE_DIAG_BLOCK 256
#define SYLVA__SOLVE_DIAG_MIN_WORKERS 4
/* In solve mode AUTO on the CPU, a solve of fewer than this many entries of
 * L times right-hand sides (or with one CPU worker) runs the sequential
 * loop: below it, tasks cost more than they save (measured on 2 cores:
 * bcsstk14 0.1 ms sequential, 0.2–0.4 ms as tasks; docs/performance.md). */
#define SYLVA__SOLVE_TASKS_MIN_WORK ((int64_t)1 << 22)
/* A block of right-hand sides is split into independent column chunks of
 * at least this many columns when workers would otherwise idle. */
#define SYLVA__SOLVE_MIN_CHUNK 16
/* Automatic solve block (options.solve_block = 0): as many right-hand
 * sides at once as one permuted n-row copy of them fits in this many
 * bytes, but never fewer than SYLVA__SOLVE_MIN_BLOCK columns (a GPU solve
 * halves it, not below that, until its workspace fits the GPU). 512 MiB:
 * 67 columns at n = 10⁶, so that 64 run as one block (0.89–0.91 of the
 * time of blocks of 33 and 31 on the H200, docs/perf-log.md "The solve,
 * v26"). */
#define SYLVA__SOLVE_BLOCK_BYTES ((int64_t)512 << 20)
#define SYLVA__SOLVE_MIN_BLOCK 16

/* Status of one front after a factorization (front_info arrays). Positive
 * values are LAPACK's info: the failing pivot, 1-based within the front. */
typedef enum sylva__front_status {
    SYLVA__FRONT_OK = 0,
    SYLVA__FRONT_SKIPPED = -1,  /* a descendant failed: not computed */
    SYLVA__FRONT_NO_MEMORY = -2 /* the task could not get its workspace */
} sylva__front_status;

#ifdef __cplusplus
}
#endif

#endif
