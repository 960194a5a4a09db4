/* api.h — the shape of the public handles behind include/sylva.h, shared by
 * the api/ files (the only layer that defines sylva_* entry points; each is
 * a thin wrapper over runtime/, batching/, frontal/ or io/).
 *
 * An analysis owns its tree and plan (built once per pattern); a factor
 * owns its numeric values and holds a reference on the analysis it was
 * made from: sylva_analysis_free drops the caller's reference, and the
 * analysis goes when the last factor made from it is freed (docs/api.md).
 */
#ifndef SYLVA_API_H
#define SYLVA_API_H

#include "analysis_file.h"
#include "runtime.h"

struct sylva_analysis {
    int refs; /* the caller's (until sylva_analysis_free) + one per live factor */
    sylva__tree *tree;
    sylva__plan *plan;
    sylva__rt_plan *rt;
    sylva__plan_stats stats;
    sylva_options opts;
    char policy[32];
    double seconds[4];          /* ordering, symbolic, maps, plan */
    sylva_ordering ordering;    /* the ordering used (AUTO resolved) */
    int64_t nnz_A;              /* A's stored entries and */
    uint64_t pattern_hash;      /* pattern fingerprint (sylva_analysis_save) */
};

/* Tell the options' progress callback, if any. */
static inline void sylva__api_progress(const sylva_options *o, const char *phase, double fraction)
{
    if (o->progress) o->progress(o->progress_arg, phase, fraction);
}

typedef struct sylva__measure sylva__measure;

struct sylva_factor {
    sylva_analysis_t *an; /* one reference held */
    sylva__numeric *num;
    int valid;          /* the last (re)factorization succeeded: solves may use it */
    int pivots_checked; /* L's pivots were found finite and positive */
    sylva__measure *measure; /* index of the last run's tasks by batch (measure.c), made on demand */
    int gpus;                /* the last factorization's GPUs (0: it ran on the CPU) */
    sylva_gpu_stats gpu[SYLVA__MAX_GPUS]; /* and each one's share */
};

/* SYLVA_OK when F holds a usable factor: its last factorization succeeded
 * and, after a GPU one, its pivots are finite and positive (checked once,
 * when L first comes to the host; a GPU solve does not bring it). to_host
 * (may be NULL): the seconds the check spent bringing L there, else 0. */
int sylva__factor_usable(const sylva_factor_t *F, const char *who, double *to_host);

/* solve.c: sylva_solve on this process alone (in a distributed run: rank
 * 0, L gathered), for sylva_rcond's repeated solves. */
int sylva__solve_local(const sylva_factor_t *F, int64_t nrhs, void *B, int64_t ldb);
/* Host right-hand sides near overflow (solve_scale.c): scale lets each
 * column whose largest entry exceeds the square root of the factor type's
 * range be scaled by 2^-e (*exps: NULL when none was; SYLVA_ERR_BAD_VALUE
 * for a NaN or infinite entry); unscale scales the solution back, frees
 * exps and returns SYLVA_ERR_BAD_VALUE when it is not finite. */
int sylva__solve_scale(sylva_dtype dtype, sylva_dtype factor_dtype, int64_t n, int64_t nrhs, void *B, int64_t ldb,
                       int **exps, const char *who);
int sylva__solve_unscale(sylva_dtype dtype, int64_t n, int64_t nrhs, void *B, int64_t ldb, int *exps,
                         const char *who);

/* options_check.c: the solve's options (refine, solve_mode, solve_block). */
int sylva__options_check_solve(const sylva_options *o, const char *who);

/* measure.c: drop the index of the last run's measurements (a new run starts). */
void sylva__measure_free(sylva_factor_t *F);

/* SYLVA_OK when A's arrays are consistent (not a full validation: io/ did
 * that when A was made). */
int sylva__api_check_matrix(const sylva_matrix *A);
/* sylva_analyze in one process (analysis.c), and over the ranks of a
 * distributed run (analysis_dist.c: rank 0's A; NULL elsewhere). */
int sylva__analyze_one(const sylva_matrix *A, const sylva_options *opts, sylva_analysis_t **out,
                       sylva_analysis_info *info);
int sylva__analyze_dist(const sylva_matrix *A, const sylva_options *opts, sylva_analysis_t **out,
                        sylva_analysis_info *info);
/* analysis_save.c: the options an analysis from a saved record runs with
 * (opts or the defaults, with the record's permutation as a user
 * ordering and its amalgamation settings); o->user_perm points into r. */
void sylva__options_of_record(const sylva_options *opts, const sylva__analysis_record *r, sylva_options *o);
/* Drop one reference; the last frees the analysis. */
void sylva__analysis_release(sylva_analysis_t *an);

/* options_check.c: the ranges of docs/limits.md, SYLVA_ERR_ARGUMENT naming
 * the option. _tiles: tiled large fronts (more than small_rows rows) must not
 * make more than SYLVA_MAX_TINY_TILE_TASKS tasks under
 * SYLVA_MIN_TILE_TASK_FLOPS flops each. */
int sylva__options_check_init(const sylva_options *o);
int sylva__options_check_analysis(const sylva_options *o);
int sylva__options_check_tiles(const sylva__tree *t, int64_t small_rows, int64_t tile_rows, const char *name);

/* factor_values.c: every value of A is finite (SYLVA_ERR_BAD_VALUE naming
 * the first that is not), and L's pivots are finite and positive after a
 * factorization (SYLVA_ERR_NOT_SPD naming the column). */
int sylva__check_values(const sylva_matrix *A, const char *who);
int sylva__check_pivots(const sylva_analysis_t *an, sylva__numeric *num, int64_t *failed_column, double *to_host);

/* memory.c: the resident memory a first factorization and a
 * refactorization add to the process (bytes), on GPUs (on_gpu) or CPUs. */
void sylva__memory_predict(const sylva_analysis_t *an, const sylva_matrix *A, int on_gpu,
                           double *first, double *refactor);

#endif
