/* sylva.h — the public C API of sylva, a multifrontal sparse Cholesky solver
 * for symmetric positive definite (SPD) matrices, scheduled by StarPU.
 *
 * Life cycle: sylva_init → (read or wrap a matrix) → sylva_analyze (once per
 * sparsity pattern) → sylva_factorize (and sylva_refactorize with new values)
 * → sylva_solve, any number of times → sylva_*_free → sylva_finalize.
 * Every call returns a sylva_status: 0 success, negative error, positive
 * warning. After a failure, sylva_last_error() holds a precise message for the
 * calling thread (file:line: reason for input files, the column for a matrix
 * that is not positive definite). The library never exits or aborts on bad
 * input. Indices are 0-based int64_t; values are double (SYLVA_FLOAT64) or
 * float (SYLVA_FLOAT32): a matrix says which in its dtype, a factorization
 * runs in options.precision, and vectors passed with a matrix or a factor
 * have its type.
 */
#ifndef SYLVA_H
#define SYLVA_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SYLVA_VERSION_MAJOR 0
#define SYLVA_VERSION_MINOR 1
#define SYLVA_VERSION_PATCH 0
#define SYLVA_VERSION_STRING "0.1.0"

/* One table makes the enum, sylva_status_name() ("not_spd") and
 * sylva_strerror() (a sentence): X(enum, value, short name, description). */
#define SYLVA_STATUS_MAP(X)                                                           \
    X(SYLVA_OK, 0, "ok", "success")                                                        \
    X(SYLVA_ERR_ARGUMENT, -1, "argument", "invalid argument")                                    \
    X(SYLVA_ERR_IO, -2, "io", "cannot read or write file")                                 \
    X(SYLVA_ERR_FORMAT, -3, "format", "malformed input file")                                  \
    X(SYLVA_ERR_UNSUPPORTED, -4, "unsupported", "unsupported input variant")                        \
    X(SYLVA_ERR_NOT_SQUARE, -5, "not_square", "matrix is not square")                              \
    X(SYLVA_ERR_NOT_SYMMETRIC, -6, "not_symmetric", "matrix is not symmetric")                        \
    X(SYLVA_ERR_BAD_VALUE, -7, "bad_value", "value is NaN or infinite")                           \
    X(SYLVA_ERR_PATTERN_ONLY, -8, "pattern_only", "matrix has no values (pattern)")                  \
    X(SYLVA_ERR_NOT_SPD, -9, "not_spd", "matrix is not positive definite")                      \
    X(SYLVA_ERR_NO_MEMORY, -10, "no_memory", "out of memory")                                     \
    X(SYLVA_ERR_RUNTIME, -11, "runtime", "runtime failure")                                     \
    X(SYLVA_ERR_NOT_INITIALIZED, -12, "not_initialized", "sylva_init has not been called")              \
    X(SYLVA_ERR_PATTERN_MISMATCH, -13, "pattern_mismatch", "matrix pattern differs from the analysis")   \
    X(SYLVA_ERR_ORDERING, -14, "ordering", "ordering failed")

typedef enum {
#define SYLVA_X_ENUM(name, value, short_name, text) name = value,
    SYLVA_STATUS_MAP(SYLVA_X_ENUM)
#undef SYLVA_X_ENUM
} sylva_status;

/* "SYLVA_ERR_NOT_SPD" → "not_spd"; SYLVA_OK → "ok". */
const char *sylva_status_name(int status);
/* A one-line description of the status code. */
const char *sylva_strerror(int status);
/* The last error message of the calling thread ("" if none). */
const char *sylva_last_error(void);
const char *sylva_version(void);
/* Seconds on a monotonic clock, for timing differences. */
double sylva_wtime(void);

/* Scalar types of values, factors and vectors. */
typedef enum {
    SYLVA_FLOAT64 = 0, /* double */
    SYLVA_FLOAT32 = 1  /* float */
} sylva_dtype;
/* sizeof the scalar of a dtype (0 for an unknown one). */
size_t sylva_dtype_size(sylva_dtype dtype);
/* "float64", "float32"; sylva_dtype_from_name also takes "double", "single". */
const char *sylva_dtype_name(sylva_dtype dtype);
int sylva_dtype_from_name(const char *name);

/* The backward error under which the command line calls a solution accurate
 * (it exits 4 above it), for a solution computed in each precision. */
#define SYLVA_ACCURATE_BACKWARD_ERROR_FLOAT64 1e-12
#define SYLVA_ACCURATE_BACKWARD_ERROR_FLOAT32 1e-5

/* ---------------------------------------------------------------- matrix */

/* A sparse symmetric matrix: the lower triangle (row >= column) in
 * compressed sparse column form, rows sorted and unique within a column.
 * values == NULL for a pattern-only matrix (analysis only). */
typedef struct sylva_matrix {
    int64_t n;
    int64_t nnz;          /* stored entries = colptr[n] */
    int64_t *colptr;      /* n + 1 */
    int64_t *rowind;      /* nnz */
    void *values;         /* nnz scalars of type dtype, or NULL for a pattern */
    sylva_dtype dtype;    /* SYLVA_FLOAT64 unless made by sylva_matrix_convert */
    int owns_arrays;      /* 1 when sylva_matrix_free releases the arrays */
} sylva_matrix;

/* Read a Matrix Market file: plain, or gzip, bzip2 or xz compressed
 * (recognised by their first bytes, not by the name); "-" reads standard
 * input. On error returns a status, *A is NULL, and sylva_last_error() says
 * "FILE:LINE: reason" ("<stdin>" names standard input). The same as
 * sylva_read_matrix_market_opts(path, NULL, A). */
int sylva_read_matrix_market(const char *path, sylva_matrix **A);

/* A 'symmetric' file stores one triangle; when it stores both A(i,j) and
 * A(j,i) (i != j) for some entry: */
typedef enum {
    SYLVA_BOTH_REFUSE = 0, /* SYLVA_ERR_FORMAT at the line of the first mirrored entry */
    SYLVA_BOTH_SUM,        /* A(i,j) = the two summed (what most readers do silently) */
    SYLVA_BOTH_LOWER,      /* keep the lower-triangle entry (i > j), ignore its mirror */
    SYLVA_BOTH_AVERAGE     /* their mean */
} sylva_both_triangles;
/* A 'general' file must be symmetric; when its triangles differ: */
typedef enum {
    SYLVA_SYMMETRIZE_NONE = 0, /* SYLVA_ERR_NOT_SYMMETRIC naming the first difference */
    SYLVA_SYMMETRIZE_LOWER,    /* A = the lower triangle, mirrored */
    SYLVA_SYMMETRIZE_UPPER,    /* A = the upper triangle, mirrored */
    SYLVA_SYMMETRIZE_AVERAGE   /* A = (A + A^T) / 2 */
} sylva_symmetrize;
typedef struct sylva_read_options {
    sylva_both_triangles symmetric_both; /* a 'symmetric' file storing both A(i,j) and A(j,i) */
    sylva_symmetrize symmetrize;         /* a 'general' file */
    double symmetrize_tol;               /* > 0: refuse asymmetry above tol (relative); 0: none */
    char reserved[64];
} sylva_read_options;
/* Defaults: refuse both cases (every field 0). */
void sylva_default_read_options(sylva_read_options *o);
/* sylva_read_matrix_market with options (NULL = defaults); "-" = stdin.
 * With symmetrize_tol > 0 an entry whose |A(i,j) - A(j,i)| exceeds
 * tol * max(|A(i,j)|, |A(j,i)|) is still SYLVA_ERR_NOT_SYMMETRIC (a missing
 * entry counts as 0). Options out of range: SYLVA_ERR_ARGUMENT. */
int sylva_read_matrix_market_opts(const char *path, const sylva_read_options *o, sylva_matrix **A);
/* What a read found, for messages and reports. */
typedef struct sylva_read_info {
    const char *compression; /* "gzip", "bzip2", "xz", or "" for a plain file */
    int64_t mirrored;        /* 'symmetric' file: entries stored in both triangles
                                (combined as symmetric_both says) */
    int64_t asymmetric;      /* 'general' file read with symmetrize: entries whose
                                two triangles differ (a missing one counts as 0) */
    double max_asymmetry;    /* largest |A(i,j) - A(j,i)| / max(|A(i,j)|, |A(j,i)|)
                                over those (0 when none) */
    char reserved[64];
} sylva_read_info;
/* sylva_read_matrix_market_opts that also fills *info (may be NULL); info
 * is filled on success only. */
int sylva_read_matrix_market_info(const char *path, const sylva_read_options *o, sylva_matrix **A,
                                  sylva_read_info *info);

/* Which part of the symmetric matrix CSC arrays hold (sylva_matrix_from_csc's
 * `storage`). SciPy: tril(A, format="csc") is LOWER, triu(A, format="csc")
 * UPPER, A itself FULL. */
typedef enum {
    SYLVA_CSC_FULL = 0,  /* both triangles: checked numerically symmetric (an entry
                            without its mirror counts against 0), upper dropped */
    SYLVA_CSC_LOWER = 1, /* the lower triangle (row >= column); an entry above the
                            diagonal is SYLVA_ERR_ARGUMENT */
    SYLVA_CSC_UPPER = 2  /* the upper triangle (row <= column), transposed; an entry
                            below the diagonal is SYLVA_ERR_ARGUMENT */
} sylva_csc_storage;

/* Build a matrix from CSC arrays holding the part of A that `storage` says
 * (a sylva_csc_storage; another value is SYLVA_ERR_ARGUMENT). Entries may be
 * unsorted and duplicated (summed). Arrays are copied; the caller keeps its
 * own. values may be NULL (pattern). */
int sylva_matrix_from_csc(int64_t n, const int64_t *colptr, const int64_t *rowind,
                          const double *values, int storage, sylva_matrix **A);
/* Wrap caller-owned arrays that already satisfy the contract above (lower,
 * sorted, unique); checked, not copied. Free with sylva_matrix_free. */
int sylva_matrix_wrap(int64_t n, int64_t *colptr, int64_t *rowind, double *values,
                      sylva_matrix **A);
/* The same with 32-bit indices (n and the entries below 2^31), read once:
 * sylva_matrix_from_csc32 builds A's arrays straight from the caller's
 * (the one copy, with the same checks, sorting and summing as
 * sylva_matrix_from_csc); sylva_matrix_wrap32 widens the indices into
 * arrays A owns and uses the caller's values in place (not copied: they
 * must outlive A). */
int sylva_matrix_from_csc32(int64_t n, const int32_t *colptr, const int32_t *rowind,
                            const double *values, int storage, sylva_matrix **A);
int sylva_matrix_wrap32(int64_t n, const int32_t *colptr, const int32_t *rowind, double *values,
                        sylva_matrix **A);
void sylva_matrix_free(sylva_matrix *A);
/* A copy of A (arrays owned by the copy) with values of another type;
 * a pattern stays a pattern. */
int sylva_matrix_convert(const sylva_matrix *A, sylva_dtype dtype, sylva_matrix **out);
/* y = A x for the full symmetric matrix A (stored lower); x and y have A's
 * dtype (the sums are formed in double). */
void sylva_matrix_symv(const sylva_matrix *A, const void *x, void *y);
/* max_i sum_j |a_ij| of the full symmetric matrix. */
double sylva_matrix_norm_inf(const sylva_matrix *A);

/* Dense vectors in Matrix Market array format (n x nrhs, column-major).
 * The reader takes what sylva_read_matrix_market takes ("-", compressed
 * files) and allocates no more than the file can hold, whatever its size
 * line says; the writer writes atomically, as sylva_write_file. */
int sylva_read_dense(const char *path, int64_t *n, int64_t *nrhs, double **X);
int sylva_write_dense(const char *path, int64_t n, int64_t nrhs, const double *X,
                      int64_t ldx);

/* Write size bytes to path atomically: into a temporary file in the same
 * directory, flushed and synced, then renamed over path; on any failure
 * (full disk, no permission) path keeps its old contents (or does not
 * exist), the temporary is removed, and SYLVA_ERR_IO names the reason. A
 * path that exists and is not a regular file (/dev/null, a FIFO) is
 * written in place, and so is a stream the process holds: "-" (standard
 * output), /dev/stdout, /dev/stderr, /dev/fd/N, or a link to the file
 * standard output or error is (written through a duplicate of its
 * descriptor: appended to when opened for appending). Every file sylva
 * and its command write goes this way. */
int sylva_write_file(const char *path, const void *data, size_t size);

/* --------------------------------------------------------------- options */

typedef enum {
    SYLVA_ORDERING_METIS = 0, /* nested dissection (METIS_NodeND) */
    SYLVA_ORDERING_AMD = 1,
    SYLVA_ORDERING_NATURAL = 2,
    SYLVA_ORDERING_USER = 3, /* options.user_perm */
    SYLVA_ORDERING_SCOTCH = 4,      /* Scotch nested dissection, threaded (ncpus threads) */
    SYLVA_ORDERING_ND_PARALLEL = 5, /* METIS nested dissection, parts ordered on ncpus threads */
    SYLVA_ORDERING_AUTO = 6         /* nd-parallel when several cores, else metis */
} sylva_ordering;

/* Where a solve runs (options.solve_mode). */
typedef enum {
    SYLVA_SOLVE_AUTO = 0,      /* where the factor is: on a GPU after a GPU factorization
                                  (double precision), else on the CPU workers (one thread
                                  when the solve is too small for tasks to pay: fewer than
                                  2^22 entries of L times columns, or one CPU worker) */
    SYLVA_SOLVE_GPU = 1,       /* on a GPU (L is copied there if it is not) */
    SYLVA_SOLVE_CPU = 2,       /* StarPU tasks on the CPU workers (L brought to the host) */
    SYLVA_SOLVE_SEQUENTIAL = 3 /* one host thread, front after front (the reference) */
} sylva_solve_mode;

/* options.refine: iterative refinement after each solve. 0: none; N > 0
 * (at most SYLVA_MAX_REFINE_STEPS): exactly N steps; SYLVA_REFINE_AUTO:
 * until the componentwise backward error (sylva_solve_info) is at most
 * SYLVA_REFINE_TARGET units of roundoff of the right-hand side's type, or
 * no longer halves in a step, at most SYLVA_REFINE_AUTO_STEPS steps. A
 * step: r = b − A x (sums in double, where x lives: on the GPU for a GPU
 * solve), d = A⁻¹ r with the factor, x += d. */
#define SYLVA_REFINE_AUTO (-1)
#define SYLVA_MAX_REFINE_STEPS 100
#define SYLVA_REFINE_AUTO_STEPS 10
#define SYLVA_REFINE_TARGET 2.0

/* Where the numeric factorization runs. */
typedef enum {
    SYLVA_MODE_AUTO = 0,   /* on the GPUs when there are, else on the CPU */
    SYLVA_MODE_GPU = 1,    /* every task on a GPU */
    SYLVA_MODE_HYBRID = 2, /* GPUs and CPU workers; StarPU's perfmodels place each task */
    SYLVA_MODE_CPU = 3     /* CPU workers only (no GPU is started) */
} sylva_exec_mode;

/* Where the groups go when a factorization runs on several GPUs. */
typedef enum {
    /* Proportional mapping (the default): the assembly tree is split into
     * subtrees balanced by flops, each subtree's groups run on its GPU (its
     * contribution blocks never leave it), and the groups above the split
     * go where StarPU's data-aware scheduler puts them. */
    SYLVA_GPU_MAP_SUBTREES = 0,
    /* StarPU's scheduler places every group (dmdas: where its data and the
     * perfmodels say it finishes first). */
    SYLVA_GPU_MAP_SCHEDULER = 1
} sylva_gpu_map;

typedef struct sylva_options {
    sylva_ordering ordering;
    const int64_t *user_perm; /* SYLVA_ORDERING_USER: new → old, length n */
    /* Relaxed supernode amalgamation (CHOLMOD's nrelax/zrelax). */
    int64_t nrelax[3];
    double zrelax[3];
    /* Batching policy by name: "none", "level", "sized", "subtree", "ready". */
    const char *policy;
    /* Fronts with at most this many rows are "small" and batched; larger
     * ones are factored alone: on a GPU by cuSOLVER/cuBLAS, on CPU-only runs
     * as tiles of tile_rows (0: not tiled). 0 = the default: 256 on the
     * CPU, the GPU model's tuned value when the factorization runs on GPUs. */
    int64_t small_front_rows;
    int64_t tile_rows;
    /* Target flops per batch task (level/sized/subtree grouping). */
    double batch_flops;
    /* StarPU workers (set at sylva_init): -1 = StarPU's default (every
     * core; every GPU), 0 = none of that kind. ncpus is also the analysis'
     * thread count (nd-parallel, scotch, index maps; -1 = every CPU the
     * process may run on). */
    int ncpus;
    int ncuda;
    /* StarPU scheduler name; NULL = "dmdas" with GPUs, "lws" without. */
    const char *scheduler;
    int verbose;
    /* Precision of the factorization; a matrix of the other type is
     * converted when it is factored. Right-hand sides have this type. GPUs
     * run double precision; a single-precision factorization runs on the CPU. */
    sylva_dtype precision;
    sylva_exec_mode mode;
    /* Device memory each GPU may use, in bytes (set at sylva_init); 0 = all. */
    int64_t device_memory;
    /* Called, when not NULL, as phases of sylva_analyze and sylva_factorize
     * progress: phase ("ordering", "symbolic", "plan", "factorize") and the
     * fraction done (0 at its start, 1 at its end; the factorization also in
     * between, by flops of finished tasks, from StarPU's threads, one call
     * at a time). For progress displays; it must return quickly. */
    void (*progress)(void *arg, const char *phase, double fraction);
    void *progress_arg;
    /* The solve. refine: SYLVA_REFINE_AUTO, 0 or N steps (above); a factor
     * keeps a double copy of A's values for the residuals only when the
     * options given to sylva_analyze ask for refinement. solve_mode: where
     * the solve runs. solve_block: right-hand sides solved at once (memory
     * grows with it: about (2 + 3 with refinement) · n · solve_block
     * scalars); 0 = automatic: as many as one n-row copy fits in 512 MiB,
     * at least 16 (67 when n = 10⁶), and for a GPU solve halved, not below
     * 16, until L and the block's workspace fit the GPU and the memory
     * still free there (an explicit block that does not fit runs on the
     * CPU). sylva_solve uses the analysis' options; sylva_solve_ex and
     * sylva_solve_device may be given others for these three. */
    int refine;
    sylva_solve_mode solve_mode;
    int64_t solve_block;
    /* Several GPUs: how groups are placed on them (sylva_gpu_map). */
    sylva_gpu_map gpu_map;
    /* Several processes (StarPU-MPI; a build with SYLVA_ENABLE_MPI), set
     * at sylva_init: SYLVA_MPI_AUTO distributes when the program has
     * initialized MPI or an MPI launcher started the process (mpirun -n P,
     * P > 1); SYLVA_MPI_ON always (sylva_init initializes MPI when the
     * program has not); SYLVA_MPI_OFF never. "Distributed runs" below. */
    int mpi;
    /* GPU runs: a large front of more rows than this is factored as tile
     * tasks of gpu_tile_rows rows (cuSOLVER/cuBLAS), which StarPU may put
     * on any GPU, instead of one task on one GPU. 0 = automatic: tiles of
     * 2048 for the fronts of more than 4096 rows that no GPU owns (above
     * the subtree split; every one under SYLVA_GPU_MAP_SCHEDULER) when
     * there are several GPUs, none on one GPU; −1 = never. */
    int64_t gpu_tile_rows;
    char reserved[64];
} sylva_options;

/* options.mpi */
typedef enum { SYLVA_MPI_AUTO = 0, SYLVA_MPI_ON = 1, SYLVA_MPI_OFF = 2 } sylva_mpi_mode;

/* What the options may hold (docs/limits.md has the whole table):
 * sylva_init refuses ncpus or ncuda outside -1..SYLVA_MAX_WORKERS, a mode
 * that is not a sylva_exec_mode, a negative device_memory; sylva_analyze
 * refuses a gpu_map that is not a sylva_gpu_map; sylva_analyze
 * refuses nrelax outside 0..2^31-1, zrelax outside [0, 1] (or NaN),
 * small_front_rows or tile_rows outside 0..2^31-1, a negative or non-finite
 * batch_flops, and a tile_rows that splits the large fronts into more than
 * SYLVA_MAX_TINY_TILE_TASKS tile tasks averaging under
 * SYLVA_MIN_TILE_TASK_FLOPS flops. Each with SYLVA_ERR_ARGUMENT and a
 * message naming the option and its range. */
#define SYLVA_MAX_WORKERS 4096
#define SYLVA_MAX_TINY_TILE_TASKS 100000
#define SYLVA_MIN_TILE_TASK_FLOPS 1e4

void sylva_default_options(sylva_options *opts);
/* Parse an ordering name ("metis", "amd", "natural", "user", "scotch",
 * "nd-parallel", "auto"); -1 if unknown. */
int sylva_ordering_from_name(const char *name);
const char *sylva_ordering_name(int ordering);
/* The i-th registered batching policy's name and one-line summary, NULL
 * past the last one. */
const char *sylva_policy_name(int i);
const char *sylva_policy_summary(int i);

/* Parse a GPU mapping name ("subtrees", "scheduler"); -1 if unknown. */
int sylva_gpu_map_from_name(const char *name);
const char *sylva_gpu_map_name(int map);

/* Parse a mode name ("auto", "gpu", "hybrid", "cpu"); -1 if unknown. */
int sylva_exec_mode_from_name(const char *name);
const char *sylva_exec_mode_name(int mode);

/* Start and stop the runtime (StarPU). opts may be NULL (defaults). */
int sylva_init(const sylva_options *opts);
int sylva_finalize(void);
/* sylva_init begun on a thread of its own, so that StarPU's and CUDA's
 * start runs beside the caller's work (reading and analyzing a matrix):
 * returns at once with the options' failure, else SYLVA_OK and
 * *on_thread = 1 while the start runs on its thread. A distributed run
 * (options.mpi), or a runtime already running, starts in the calling
 * thread as sylva_init does (*on_thread = 0; its failure is returned
 * here). Every call that needs the runtime waits for the start to end
 * (sylva_analyze orders the matrix and builds its tree first) and fails
 * with its status and message if it failed, until the next sylva_init,
 * sylva_init_begin or sylva_finalize. sylva_init_wait waits, and returns
 * the start's status with the seconds it took (from sylva_init_begin or
 * sylva_init to its end) and those the caller waited for it (0 when its
 * own work took longer); either pointer may be NULL; it leaves
 * sylva_last_error() as it was unless the start failed. on_thread may be
 * NULL. */
int sylva_init_begin(const sylva_options *opts, int *on_thread);
int sylva_init_wait(double *seconds_start, double *seconds_waited);

/* Distributed runs (StarPU-MPI; mpirun -n P, options.mpi). Every rank
 * calls the same sylva functions in the same order, with the same
 * options; these are collective: sylva_analyze, sylva_analysis_load,
 * sylva_factorize, sylva_refactorize, sylva_solve, sylva_solve_ex,
 * sylva_factor_to_host, sylva_logdet, sylva_agree, sylva_finalize. MPI:
 * sylva_init initializes it (MPI_THREAD_MULTIPLE) when the program has
 * not, and sylva_finalize then finalizes it; a program that initializes it
 * must ask for MPI_THREAD_MULTIPLE. Rank 0 holds the data:
 * its matrix (A), permutation and right-hand sides are used, the other
 * ranks may pass NULL for A and B; rank 0 orders the matrix and sends its
 * pattern and permutation, and each rank rebuilds the same tree and plan
 * (checked: a difference is SYLVA_ERR_RUNTIME). The groups of the plan are
 * mapped to ranks (proportional mapping of subtrees); each rank receives
 * the values of A its groups assemble, factors its groups, and keeps its
 * part of L; contribution blocks move between ranks as tasks need them.
 * The solve runs over the ranks: each front is solved on the rank that
 * holds its L, and only rows of the right-hand sides move; B and the
 * solution are rank 0's (the other ranks pass NULL and nrhs 0), and rank
 * 0's refinement runs each correction solve over the ranks too.
 * sylva_logdet adds the ranks' sums; sylva_factor_to_host gathers L on rank
 * 0. A failure on any rank is returned by every rank, with the failing
 * rank's message ("rank R: ..."). sylva_rcond, the partial solves
 * (sylva_solve_system) and GPU workers are one-process only: in a
 * distributed run they run on rank 0 after sylva_factor_to_host has
 * gathered L, on CPU workers. sylva_init refuses
 * SYLVA_MPI_ON in a build without MPI (SYLVA_ERR_UNSUPPORTED). */
/* In a distributed run every rank passes its status and gets the first
 * failure of the lowest rank that failed (with its message as
 * sylva_last_error(), prefixed "rank R: "), else SYLVA_OK; one process:
 * status itself. message: the failure's message (NULL: sylva_last_error()).
 * For the caller's own steps that only rank 0 does (reading files) before
 * the next collective call. */
int sylva_agree(int status, const char *message);
/* GPUs the running runtime uses (0 without CUDA, without a device, or with
 * ncuda = 0), and their model ("" without). */
int sylva_gpu_count(void);
const char *sylva_gpu_name(void);

/* What the running runtime has: its workers (a GPU may have several, one
 * per stream) and scheduler. SYLVA_ERR_NOT_INITIALIZED before sylva_init. */
typedef struct sylva_runtime_info {
    int cpu_workers;
    int gpu_workers;
    int gpus;
    char scheduler[32];
    int rank, ranks;    /* this process and the processes of a distributed run (0 and 1 otherwise) */
    char reserved[76];
} sylva_runtime_info;
int sylva_runtime_query(sylva_runtime_info *info);
/* StarPU's i-th scheduling policy name (options.scheduler) and its one-line
 * summary; NULL past the last. sylva_init refuses another name with
 * SYLVA_ERR_ARGUMENT listing these. */
const char *sylva_scheduler_name(int i);
const char *sylva_scheduler_summary(int i);

/* -------------------------------------------------------------- analysis */

typedef struct sylva_analysis sylva_analysis_t;

#define SYLVA_FRONT_HIST_BINS 16

typedef struct sylva_analysis_info {
    int64_t n;
    int64_t nnz_A;          /* stored lower entries */
    int64_t nnz_L;          /* entries of L, supernodal (as CHOLMOD's lnz) */
    double flops;           /* factorization flops (as CHOLMOD's fl) */
    int64_t fronts;
    int64_t tree_height;    /* fronts on the longest leaf→root path */
    int64_t max_front_rows;
    int64_t front_hist[SYLVA_FRONT_HIST_BINS]; /* fronts with rows in [2^i, 2^(i+1)); the
                                                  last bin also holds larger ones */
    int64_t batches;        /* groups the policy made */
    int64_t small_fronts;
    int64_t large_fronts;
    double factor_bytes;    /* memory of L */
    double peak_cb_bytes;   /* contribution blocks alive at once (sequential) */
    double fronts_per_batch;/* mean */
    double size_spread;     /* mean over batches of max rows / min rows */
    double padding_waste;   /* 1 − Σ flops / Σ_batches (fronts × largest front flops) */
    double seconds;         /* the whole analysis; its phases: */
    double seconds_ordering, seconds_symbolic, seconds_maps, seconds_plan;
    sylva_ordering ordering; /* the ordering used (SYLVA_ORDERING_AUTO resolved) */
    /* Memory (bytes of resident memory; docs/limits.md has the model).
     * memory_on_gpu: 1 when the factorization will run on GPUs, whose
     * contribution blocks and workspaces are device memory and not in the
     * predictions. memory_baseline_bytes: the process's resident memory when
     * the analysis ended (A, the analysis, libraries, anything else the
     * program holds). predicted_peak_bytes: the process's predicted peak
     * during a first sylva_factorize — the baseline plus L as it is written,
     * the contribution blocks alive at once, workspaces and a converted copy
     * of A's values when the precisions differ. predicted_refactor_peak_bytes:
     * the same for sylva_refactorize, when all of L is already resident. */
    int memory_on_gpu;
    double memory_baseline_bytes;
    double predicted_peak_bytes;
    double predicted_refactor_peak_bytes;
    int64_t small_front_rows; /* the thresholds the plan was made with (0 resolved): */
    double batch_flops;       /* fronts with more rows are large; flops per batch */
    char reserved[48];
} sylva_analysis_info;

/* Order, find supernodes, build the assembly tree and the batching plan.
 * A may be a pattern. info may be NULL. */
int sylva_analyze(const sylva_matrix *A, const sylva_options *opts,
                  sylva_analysis_t **an, sylva_analysis_info *info);
void sylva_analysis_free(sylva_analysis_t *an);

/* Save an analysis to path (written to a temporary file, renamed when
 * complete): the fill-reducing permutation, the ordering that made it, the
 * amalgamation settings and a fingerprint of the pattern. */
int sylva_analysis_save(const sylva_analysis_t *an, const char *path);
/* Redo an analysis of A from a saved one, skipping the ordering: the tree
 * and batch plan are rebuilt under opts (policy, thresholds, precision may
 * differ from the saved run's; the ordering and amalgamation come from the
 * file). SYLVA_ERR_PATTERN_MISMATCH when A's pattern is not the saved one;
 * SYLVA_ERR_FORMAT for a file that is not an analysis, truncated, corrupted
 * (checksum) or of another version; SYLVA_ERR_IO when it cannot be read. */
int sylva_analysis_load(const char *path, const sylva_matrix *A, const sylva_options *opts,
                        sylva_analysis_t **an, sylva_analysis_info *info);

/* One batch (group) of the plan, for policy studies. */
typedef struct sylva_batch_info {
    int64_t fronts;
    int64_t min_rows, max_rows;
    int64_t child_batches; /* batches whose contribution blocks it reads */
    double flops;
    int large;             /* a large front alone (tiled) */
    char reserved[60];
} sylva_batch_info;
int64_t sylva_analysis_batch_count(const sylva_analysis_t *an);
int sylva_analysis_batch(const sylva_analysis_t *an, int64_t i, sylva_batch_info *out);

/* One front of the assembly tree (fronts are numbered in postorder: a
 * child before its parent), for drawing the tree. */
typedef struct sylva_front_info {
    int64_t parent;        /* -1 for a root */
    int64_t rows, cols;    /* m and k: rows of the front, pivot columns */
    int64_t height;        /* 0 for a leaf */
    double flops;
    int64_t batch;         /* its batch in the analysis' plan */
    char reserved[32];
} sylva_front_info;
int64_t sylva_analysis_front_count(const sylva_analysis_t *an);
int sylva_analysis_front(const sylva_analysis_t *an, int64_t i, sylva_front_info *out);

/* The fill-reducing permutation (new → old), length n; owned by `an`. */
const int64_t *sylva_analysis_perm(const sylva_analysis_t *an);

/* --------------------------------------------------------- factorization */

typedef struct sylva_factor sylva_factor_t;

typedef struct sylva_factor_info {
    double flops;
    double seconds;     /* the numeric factorization; on GPUs L stays there */
    double gflops;
    int64_t tasks;      /* StarPU tasks submitted */
    int64_t batches;
    /* SYLVA_ERR_NOT_SPD: the column (user's numbering, 0-based) whose pivot
     * was not positive; -1 otherwise. */
    int64_t failed_column;
    sylva_exec_mode mode; /* where it ran (never AUTO) */
    int gpus;             /* GPU workers it could use */
    int64_t tasks_cpu, tasks_gpu; /* tasks each kind of worker ran */
    double gpu_busy_seconds;      /* GPU workers' time in tasks (summed over GPUs) */
    double bytes_to_device;       /* host → GPU transfers during the factorization */
    double bytes_to_host;         /* GPU → host transfers during the factorization */
    double peak_device_bytes;     /* device memory in use, highest sample at task starts */
    /* GPU time and flops by kind of task: batches of small fronts, and large
     * fronts (native cuSOLVER/cuBLAS path). */
    double gpu_seconds_batched, gpu_flops_batched;
    double gpu_seconds_large, gpu_flops_large;
    /* The process's peak resident memory so far (getrusage's high-water
     * mark), read when the factorization ended: compare with the analysis'
     * predicted_peak_bytes. */
    double peak_rss_bytes;
    double bytes_between_gpus;    /* GPU → GPU transfers (several GPUs; sylva_factor_gpu_stats) */
    /* Distributed runs: the processes, and this one's share (the others'
     * through sylva_factor_rank_info). One process: ranks = 1 and zeros. */
    double busy_seconds;           /* this rank's workers' time in tasks */
    double bytes_sent, bytes_received; /* between ranks, this rank's */
    int ranks;
    /* Fields below were added after 0.1.0 out of `reserved` (the struct
     * keeps its size and every earlier field its offset). */
    /* 1 when the factorization ran direct: one GPU, no StarPU task, every
     * group launched in plan order on one stream from the calling thread
     * (docs/gpu.md, "The direct factorization"); tasks is then 0. */
    int direct;
    /* (min_j L_jj / max_j L_jj)²: CHOLMOD's cheap estimate of the reciprocal
     * condition number, from the pivots of the last factorization (of the
     * float pivots with a single-precision factor). Below the precision's
     * epsilon the matrix is singular to working precision. Read where L
     * is: on the host, or on the GPU by the pivot check that ends a
     * factorization of one process on one GPU. NaN where not computed: a
     * failed factorization, one over several GPUs or processes' GPUs. */
    double pivot_ratio;
    char reserved[72];
} sylva_factor_info;

/* Numeric factorization of A (same pattern as analyzed). info may be NULL. */
int sylva_factorize(const sylva_analysis_t *an, const sylva_matrix *A, sylva_factor_t **F,
                    sylva_factor_info *info);
/* Factor new values of the same pattern into F, reusing its memory. */
int sylva_refactorize(sylva_factor_t *F, const sylva_matrix *A, sylva_factor_info *info);
/* One GPU's share of F's last factorization, for i in 0..info.gpus − 1
 * (at most SYLVA_MAX_GPU_STATS GPUs are described): busy_seconds sums its
 * workers' (streams') time in tasks; factor_bytes is the part of L its
 * tasks wrote (L stays there after a GPU factorization); bytes moved from
 * and to the host and the other GPUs (peer-to-peer where the GPUs allow
 * it). SYLVA_ERR_ARGUMENT for another i, or after a CPU factorization. */
#define SYLVA_MAX_GPU_STATS 16
typedef struct sylva_gpu_stats {
    int device;               /* CUDA device number */
    int64_t tasks;
    double busy_seconds;
    double flops;
    double factor_bytes;
    double peak_device_bytes; /* device memory in use, highest sample at task starts */
    double bytes_from_host, bytes_to_host;
    double bytes_from_gpus, bytes_to_gpus;
    char reserved[64];
} sylva_gpu_stats;
int sylva_factor_gpu_stats(const sylva_factor_t *F, int i, sylva_gpu_stats *out);
/* One process of a distributed factorization (every rank has every
 * rank's record once the factorization ended): the tasks it ran, its
 * workers' time in them, the bytes it sent to and received from the other
 * ranks during the factorization (A's values and contribution blocks: what
 * the task graph moves, counted by sylva; neither the solve's rows nor a
 * gathering of L by sylva_factor_to_host is included), the flops and bytes of L of the groups it owns.
 * SYLVA_ERR_ARGUMENT for a rank outside 0 .. ranks − 1; one process: rank
 * 0 only, all zeros. */
typedef struct sylva_rank_info {
    int64_t tasks;
    double busy_seconds;
    double bytes_sent, bytes_received;
    double factor_bytes;
    double flops;      /* it ran: its groups factored whole, and the tile tasks it ran */
    double tile_flops; /* of those, the tile tasks' (large fronts whose tiles are dealt over the ranks) */
    /* GPU runs: the rank's GPUs, their workers' time in tasks, their peak
     * device memory (bytes in use on the device, every process's), and the
     * bytes moved between the rank's host memory and its GPUs. */
    double gpu_busy_seconds, peak_device_bytes, bytes_host_device;
    int gpus;
    char reserved[28];
} sylva_rank_info;
int sylva_factor_rank_info(const sylva_factor_t *F, int rank, sylva_rank_info *out);
/* After a GPU factorization L stays on the GPU; this brings it to host
 * memory (overlapped asynchronous copies into page-locked memory) and says
 * how long it took (0 when it was already there). sylva_solve and
 * sylva_logdet call it when they need to (safely from several threads):
 * a CPU solve does, a GPU solve does not, and neither does sylva_logdet
 * when the pivot check ran on the GPU. */
int sylva_factor_to_host(const sylva_factor_t *F, double *seconds);
/* Solve A X = B in place; B is n x nrhs, column-major, leading dim ldb, of
 * the factor's type (sylva_factor_dtype), in host memory. Runs where the
 * analysis' options say (solve_mode, AUTO: where the factor is: after a GPU
 * factorization on the GPU — B is uploaded once and the solution
 * downloaded once —, else on the CPU workers), with their refine and
 * solve_block. */
int sylva_solve(const sylva_factor_t *F, int64_t nrhs, void *B, int64_t ldb);
/* The solve in parts, as CHOLMOD's cholmod_solve systems. The factor is
 * P A Pᵀ = L Lᵀ, with P the fill-reducing permutation: (P b)[k] =
 * b[perm[k]], perm = sylva_analysis_perm (new → old). B (n × nrhs,
 * column-major, ld ldb, the factor's type) is replaced by
 *   SYLVA_SYS_A    A⁻¹ B (what sylva_solve does)
 *   SYLVA_SYS_LLT  (L Lᵀ)⁻¹ B   (B in the permuted numbering)
 *   SYLVA_SYS_L    L⁻¹ B        (permuted numbering)
 *   SYLVA_SYS_LT   L⁻ᵀ B        (permuted numbering)
 *   SYLVA_SYS_P    P B          (user's numbering → permuted)
 *   SYLVA_SYS_PT   Pᵀ B         (permuted → user's numbering)
 * so that A⁻¹ = Pᵀ L⁻ᵀ L⁻¹ P. */
typedef enum {
    SYLVA_SYS_A = 0,
    SYLVA_SYS_LLT = 1,
    SYLVA_SYS_L = 2,
    SYLVA_SYS_LT = 3,
    SYLVA_SYS_P = 4,
    SYLVA_SYS_PT = 5
} sylva_system;
int sylva_solve_system(const sylva_factor_t *F, sylva_system system, int64_t nrhs, void *B,
                       int64_t ldb);

/* L as a sparse matrix. sylva_factor_nnz: its entries (as CHOLMOD's lnz;
 * the analysis info's nnz_L). sylva_factor_csc fills caller arrays of n + 1,
 * nnz and nnz scalars of the factor's type (values may be NULL for the
 * pattern) with L in compressed sparse columns, rows sorted within each
 * column:
 *   SYLVA_NUMBERING_PERMUTED  L itself: lower triangular, P A Pᵀ = L Lᵀ,
 *                             the diagonal first in each column;
 *   SYLVA_NUMBERING_USER      Pᵀ L P, L in the user's numbering: column
 *                             perm[j] holds column j of L with rows
 *                             perm[i]; A = (Pᵀ L P)(Pᵀ L P)ᵀ, but it is not
 *                             triangular. */
typedef enum { SYLVA_NUMBERING_PERMUTED = 0, SYLVA_NUMBERING_USER = 1 } sylva_numbering;
int64_t sylva_factor_nnz(const sylva_factor_t *F);
int sylva_factor_csc(const sylva_factor_t *F, sylva_numbering numbering, int64_t *colptr,
                     int64_t *rowind, void *values);

/* The supernodal view of L (as CHOLMOD's supernodal factor): supernode s
 * holds the pivot columns first_col .. first_col + ncols − 1 (permuted
 * numbering) of L, on the sorted rows rows[0 .. nrows) (permuted numbering;
 * the first ncols are the pivot columns themselves), stored column-major
 * in values (nrows × ncols, leading dimension nrows, the factor's type);
 * the strict upper triangle of the top ncols × ncols block is not part of
 * L. The pointers are into F (no copy): valid until F is refactorized or
 * freed. Supernodes are in postorder (children before parents).
 * sylva_factor_supernode brings L to host memory first after a GPU run. */
typedef struct sylva_supernode {
    int64_t first_col;
    int64_t ncols;
    int64_t nrows;
    const int64_t *rows;
    const void *values;
    int64_t parent; /* the supernode its update goes to, −1 for a root */
    char reserved[24];
} sylva_supernode;
int64_t sylva_factor_supernode_count(const sylva_factor_t *F);
int sylva_factor_supernode(const sylva_factor_t *F, int64_t s, sylva_supernode *out);


/* What a solve did. The componentwise backward error of a solution x of
 * column b is max_i |b − A x|_i / (|A| |x| + |b|)_i; the worst over the
 * columns is reported before the first and after the last refinement step
 * (−1 without refinement). Seconds: to_host (L brought to host memory for a
 * CPU solve after a GPU factorization, with the first solve's pivot check
 * there; distributed: rank 0's part), upload (B to the device), solve
 * (the first forward and backward substitution of every block, with the
 * permutations), refine (residuals, correction solves, updates), download
 * (the solution back); bytes moved each way between host and devices. */
typedef struct sylva_solve_info {
    sylva_solve_mode mode; /* where it ran (never AUTO) */
    int refine_steps;      /* steps taken (the most of any block of columns) */
    int64_t nrhs;
    int64_t blocks;        /* blocks of at most solve_block columns */
    double berr_before, berr_after;
    double seconds;        /* the whole call */
    double seconds_to_host, seconds_upload, seconds_solve, seconds_refine, seconds_download;
    double bytes_to_device, bytes_to_host;
    int ranks;                  /* processes the solve ran on (1 unless distributed) */
    double bytes_between_ranks; /* distributed: right-hand-side rows sent between ranks, all ranks */
    /* A GPU solve was wanted (solve_mode GPU, or AUTO after a GPU
     * factorization or on device data) and ran on the CPU: why (a static
     * string: "no GPU worker", a dynamic policy's factor, single precision,
     * not enough device memory); NULL when it ran where wanted. */
    const char *why_not_gpu;
    char reserved[104];
} sylva_solve_info;

/* sylva_solve with a choice: opts (NULL: the analysis' options) gives
 * refine, solve_mode and solve_block; dtype is B's type: the factor's, or
 * SYLVA_FLOAT64 with a single-precision factor (mixed precision: the
 * solves in float, the residuals and the solution in double, so
 * refinement brings the solution to double accuracy); info may be NULL.
 * SYLVA_ERR_ARGUMENT: bad sizes or pointers, an option out of range, a
 * dtype the factor cannot take, refinement asked of a factor that keeps no
 * copy of A (set refine in the options given to sylva_analyze). */
int sylva_solve_ex(const sylva_factor_t *F, const sylva_options *opts, sylva_dtype dtype,
                   int64_t nrhs, void *B, int64_t ldb, sylva_solve_info *info);

/* The same on device memory: B (n x nrhs, leading dim ldb, the factor's
 * type) is a CUDA device pointer; the solve runs on that device and B never
 * leaves it (with opts->solve_mode CPU or SEQUENTIAL, or where the GPU
 * solve cannot run — without GPU workers, or on a dynamic policy's (ready)
 * factor, whose L has its run's layout — B is copied to the host and
 * back; info->why_not_gpu says why). SYLVA_ERR_ARGUMENT when B is
 * not device memory; SYLVA_ERR_UNSUPPORTED in a build without CUDA. */
int sylva_solve_device(const sylva_factor_t *F, const sylva_options *opts, int64_t nrhs, void *B,
                       int64_t ldb, sylva_solve_info *info);

/* Parse a solve mode name ("auto", "gpu", "cpu", "sequential"); -1 if unknown. */
int sylva_solve_mode_from_name(const char *name);
const char *sylva_solve_mode_name(int mode);
/* The precision the factor was computed in. */
sylva_dtype sylva_factor_dtype(const sylva_factor_t *F);
/* log(det(A)) = 2 sum log(diag(L)); after a GPU factorization summed on
 * the GPU by the pivot check (L stays there; with the factor on several
 * GPUs or processes as the pivot check says, docs/gpu.md). */
int sylva_logdet(const sylva_factor_t *F, double *logdet);
/* An estimate of the reciprocal condition number 1 / (‖A‖₁ ‖A⁻¹‖₁) of the
 * factored matrix A (LAPACK's dlacn2, Hager–Higham: a few solves with F).
 * The estimate of ‖A⁻¹‖₁ is a lower bound, in practice within a factor of
 * 3, so rcond may be somewhat too large, never much too small. */
int sylva_rcond(const sylva_factor_t *F, const sylva_matrix *A, double *rcond);
void sylva_factor_free(sylva_factor_t *F);

/* ------------------------------------------ measurements (policy studies) */

/* What a factorization ran, from StarPU's task profiling (not timers in
 * the kernels): every task, and per batch its fronts, sizes and times.
 * Available after sylva_factorize or sylva_refactorize returned (also a
 * failed refactorization: what ran until it stopped), for the last run;
 * times are seconds since that run's submission began. docs/policies.md
 * explains every statistic. */

/* The kinds of task. */
typedef enum {
    SYLVA_TASK_BATCH = 0,      /* a batch of small fronts: assembled and factored together */
    SYLVA_TASK_FRONT = 1,      /* a large front alone (on a CPU-only run with tiles: its assembly) */
    SYLVA_TASK_TILE_POTRF = 2, /* the tile tasks of a large front on CPU-only runs */
    SYLVA_TASK_TILE_TRSM = 3,
    SYLVA_TASK_TILE_SYRK = 4,
    SYLVA_TASK_TILE_GEMM = 5
} sylva_task_kind;
/* "batch", "front", "potrf", "trsm", "syrk", "gemm"; "?" otherwise. */
const char *sylva_task_kind_name(int kind);

typedef enum { SYLVA_WORKER_CPU = 0, SYLVA_WORKER_GPU = 1 } sylva_worker_kind;
/* One StarPU worker of the running runtime (ids 0 .. cpu_workers +
 * gpu_workers − 1). */
typedef struct sylva_worker_info {
    int id;
    int kind;              /* sylva_worker_kind */
    int device;            /* the GPU's number (GPU workers), the CPU worker's index */
    char name[64];         /* StarPU's name: "CPU 0", "CUDA 0.1 (H100 ...)" */
    char reserved[52];
} sylva_worker_info;
int sylva_worker_query(int id, sylva_worker_info *out);

/* One task: its batch (index in the run's batches), kind and worker, and
 * when it was submitted, fetched its input data (host/device transfers and
 * allocation; equal when nothing moved), started and ended. −1: StarPU
 * recorded no such time. */
typedef struct sylva_task_record {
    int64_t batch;
    int kind;              /* sylva_task_kind */
    int worker;
    double submitted, fetch_start, fetch_end, start, end;
    char reserved[32];
} sylva_task_record;
/* Tasks of the last run in the order they ended. */
int64_t sylva_factor_task_count(const sylva_factor_t *F);
int sylva_factor_task_record(const sylva_factor_t *F, int64_t i, sylva_task_record *out);
/* The device memory StarPU had allocated on each GPU over the last run:
 * one sample at every GPU task's start (its buffers allocated) and end,
 * in the order taken (a direct factorization: one at each batch's end).
 * None after a run without GPU workers. bytes is StarPU's account of the
 * GPU's memory node (its data, scratch and caches: what it may still
 * evict included, other processes' memory not), not cudaMemGetInfo's. */
typedef struct sylva_memory_sample {
    double time;   /* seconds since the run began (the task records' clock) */
    int gpu;       /* index among the run's GPUs (sylva_factor_gpu_stats) */
    int device;    /* CUDA device number */
    int64_t bytes; /* bytes StarPU had allocated there */
    char reserved[32];
} sylva_memory_sample;
int64_t sylva_factor_memory_sample_count(const sylva_factor_t *F);
int sylva_factor_memory_sample(const sylva_factor_t *F, int64_t i, sylva_memory_sample *out);

/* One batch of the last run (for a dynamic policy, the batches cut while it
 * ran, in the order they were cut). */
typedef struct sylva_batch_record {
    int64_t batch;
    int64_t fronts;
    int64_t min_rows, max_rows, min_cols, max_cols; /* m and k of its fronts */
    double mean_rows, mean_cols;
    double flops;
    double padding;        /* 1 − flops / (fronts × flops of its largest front): the
                              share of a fixed-size batched kernel's work that is padding */
    double padding_level;  /* the same with each level's largest m and k (independent
                              fronts go in one launch sized by their maxima: sylva's kernels) */
    int64_t child_batches; /* batches whose contribution blocks it reads */
    int large;             /* one large front */
    int tasks;             /* StarPU tasks it ran: 1, or 1 + the tile tasks of a large front */
    int worker;            /* the worker of its (first) task; −1 when it did not run */
    int worker_kind;       /* sylva_worker_kind */
    double submitted;      /* when its first task was submitted */
    double start, end;     /* first start and last end of its tasks (NaN: did not run) */
    double seconds;        /* its tasks' execution times summed */
    double fetch_seconds;  /* its tasks' input fetch times summed */
    double gflops;         /* flops / seconds / 1e9 */
    char reserved[64];
} sylva_batch_record;
int64_t sylva_factor_batch_count(const sylva_factor_t *F);
int sylva_factor_batch_record(const sylva_factor_t *F, int64_t i, sylva_batch_record *out);
/* The batch of the last run that holds front f (sylva_analysis_front's
 * numbering); -1 when there is none. */
int64_t sylva_factor_front_batch(const sylva_factor_t *F, int64_t front);

/* Backward error ‖b − A x‖∞ / (‖A‖∞ ‖x‖∞ + ‖b‖∞) of one solution; x and b
 * have A's dtype. */
double sylva_backward_error(const sylva_matrix *A, const void *x, const void *b);

#ifdef __cplusplus
}
#endif
#endif /* SYLVA_H */
