/* factor.c — sylva_factorize, sylva_refactorize, sylva_logdet,
 * sylva_factor_to_host: argument checks, the pattern check, the
 * finite-value and pivot checks (factor_values.c), conversion of A's values
 * to the factor's precision when they differ, a copy of A's values for
 * refinement when the analysis' options ask for it, timing and the info
 * struct, over runtime/'s numeric factor. A factor holds a reference on
 * its analysis. After a failed (re)factorization the factor refuses solves
 * until one succeeds (the solves are solve.c's). Every failure returns a
 * status with a message. In a distributed run rank 0's A is checked and
 * its values factored over every rank; each step's outcome is every
 * rank's (sylva__dist_agree).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "io.h"

/* A's arrays, values and pattern as the factorization needs them. */
static int check_input(const sylva__tree *t, const sylva_matrix *A)
{
    int status = sylva__api_check_matrix(A);
    if (status) return status;
    if (!A->values && A->nnz > 0)
        return sylva__fail(SYLVA_ERR_PATTERN_ONLY,
                           "matrix has no values (a pattern file): it can be analyzed, not factored");
    if ((status = sylva__tree_check_pattern(t, A))) return status;
    return sylva__check_values(A, "sylva_factorize");
}

/* Factor A's values into F's numeric object and fill info. */
static int run_factor(sylva_factor_t *F, const sylva_matrix *A, sylva_factor_info *info, const char *who)
{
    const sylva_analysis_t *an = F->an;
    F->valid = 0;
    sylva__measure_free(F);
    const sylva__tree *t = an->tree;
    if (info) {
        memset(info, 0, sizeof *info);
        info->failed_column = -1;
        info->pivot_ratio = NAN;
    }
    int status = sylva__runtime_check(who);
    if (status) return status;
    /* Several processes: rank 0's A is checked and factored; the outcome of
     * its checks is every rank's. */
    int root = sylva__dist_rank() == 0;
    status = root ? check_input(t, A) : SYLVA_OK;
    if ((status = sylva__dist_agree(status))) return status;
    double t0 = sylva__now();
    sylva_dtype prec = sylva__numeric_dtype(F->num);
    const void *values = root ? A->values : NULL;
    int64_t nnz = root ? A->nnz : an->nnz_A;
    void *converted = NULL;
    if (root && A->dtype != prec && A->nnz > 0) {
        converted = sylva__malloc((size_t)A->nnz, sylva__dtype_size(prec));
        if (converted) {
            sylva__convert_values(A->nnz, A->dtype, A->values, prec, converted);
            values = converted;
            sylva_matrix C = *A; /* a value beyond FLT_MAX is inf in float */
            C.values = converted;
            C.dtype = prec;
            status = sylva__check_values(&C, "sylva_factorize (converted to the factor's precision)");
        } else {
            status = SYLVA_ERR_NO_MEMORY;
        }
    }
    if ((status = sylva__dist_agree(status))) {
        free(converted);
        return status;
    }
    sylva__factor_report rep;
    sylva__numeric_set_progress(F->num, an->opts.progress, an->opts.progress_arg);
    sylva__numeric_set_gpu_map(F->num, an->opts.gpu_map);
    sylva__numeric_set_gpu_tile_rows(F->num, an->opts.gpu_tile_rows);
    sylva__api_progress(&an->opts, "factorize", 0);
    status = sylva__numeric_factor(F->num, values, nnz, an->opts.tile_rows, an->opts.mode, &rep);
    /* Refinement's residuals use A's own values (in double), not the
     * factor's (perhaps single-precision) copy: on rank 0, which solves. */
    if (!status)
        status = sylva__dist_agree(an->opts.refine != 0 && root
                                       ? sylva__numeric_keep_values(F->num, A->values, A->dtype, A->nnz)
                                       : SYLVA_OK);
    free(converted);
    /* Check L's pivots now where L is: on the host after a CPU
     * factorization (collective when distributed: the mode is every
     * rank's), by a small task on the GPU after a single-process run on
     * one GPU (which also leaves the first one-column solve's workspace
     * allocated, solve_gpu.c). Else when the solve or logdet first needs
     * the check: a distributed GPU run's L comes to the hosts then, L too
     * large for the task comes to the host, and L spread over several
     * GPUs is gathered on one (as the GPU solve needs it). */
    F->pivots_checked = 0;
    double t_check = sylva__now();
    if (!status && (rep.mode == SYLVA_MODE_CPU || (rep.gpus == 1 && sylva__numeric_pivots_on_gpu(F->num)))) {
        status = sylva__check_pivots(an, F->num, &rep.failed_column, NULL);
        F->pivots_checked = 1;
    }
    double secs = sylva__now() - t0;
    if (sylva__factor_phases_on())
        fprintf(stderr, "sylva factorize: %.3f ms in all, the pivot check %.3f ms\n", 1e3 * secs,
                1e3 * (sylva__now() - t_check));
    /* The pivot ratio: where L is on the host, read there (O(n),
     * collective when distributed); where it stayed on one GPU, the
     * extremes the GPU pivot check above found. A run whose check comes
     * later (several GPUs or processes on GPUs) has none yet (NaN). */
    double ratio = NAN;
    if (!status && (rep.mode == SYLVA_MODE_CPU || F->pivots_checked))
        status = sylva__numeric_pivot_ratio(F->num, &ratio);
    if (!status) sylva__api_progress(&an->opts, "factorize", 1);
    F->gpus = rep.mode == SYLVA_MODE_CPU ? 0 : rep.gpus < SYLVA__MAX_GPUS ? rep.gpus : SYLVA__MAX_GPUS;
    memcpy(F->gpu, rep.gpu, sizeof F->gpu);
    if (info) {
        info->flops = t->flops;
        info->seconds = secs;
        info->gflops = secs > 0 ? t->flops / secs * 1e-9 : 0;
        info->tasks = rep.tasks;
        info->batches = sylva__numeric_plan(F->num)->ngroups; /* a dynamic policy's: this run's */
        info->failed_column = rep.failed_column;
        info->mode = (sylva_exec_mode)rep.mode;
        info->gpus = rep.gpus;
        info->tasks_cpu = rep.tasks_cpu;
        info->tasks_gpu = rep.tasks_gpu;
        info->gpu_busy_seconds = rep.gpu_busy;
        info->bytes_to_device = rep.bytes_to_device;
        info->bytes_to_host = rep.bytes_to_host;
        info->peak_device_bytes = rep.peak_device;
        info->gpu_seconds_batched = rep.gpu_seconds[0];
        info->gpu_flops_batched = rep.gpu_flops[0];
        info->gpu_seconds_large = rep.gpu_seconds[1];
        info->gpu_flops_large = rep.gpu_flops[1];
        info->peak_rss_bytes = sylva__peak_rss_bytes();
        info->bytes_between_gpus = rep.bytes_between_gpus;
        info->ranks = rep.ranks > 0 ? rep.ranks : 1;
        info->direct = sylva__numeric_direct(F->num);
        info->busy_seconds = rep.busy_seconds;
        info->bytes_sent = rep.bytes_sent;
        info->bytes_received = rep.bytes_received;
        info->pivot_ratio = ratio;
    }
    return status;
}

int sylva_factor_rank_info(const sylva_factor_t *F, int rank, sylva_rank_info *out)
{
    sylva__clear_error();
    if (!F || !out) return sylva__fail(SYLVA_ERR_ARGUMENT, "sylva_factor_rank_info: NULL argument");
    memset(out, 0, sizeof *out);
    sylva__rank_stats st;
    int status = sylva__numeric_rank_stats(F->num, rank, &st);
    if (status) return status;
    out->tasks = st.tasks;
    out->busy_seconds = st.busy_seconds;
    out->bytes_sent = st.bytes_sent;
    out->bytes_received = st.bytes_received;
    out->factor_bytes = st.factor_bytes;
    out->flops = st.flops;
    out->tile_flops = st.tile_flops;
    out->gpus = st.gpus;
    out->gpu_busy_seconds = st.gpu_busy_seconds;
    out->peak_device_bytes = st.peak_device_bytes;
    out->bytes_host_device = st.bytes_host_device;
    return SYLVA_OK;
}

int sylva_factorize(const sylva_analysis_t *an, const sylva_matrix *A, sylva_factor_t **out,
                    sylva_factor_info *info)
{
    sylva__clear_error();
    if (info) info->failed_column = -1;
    if (!an || !out) return sylva__fail(SYLVA_ERR_ARGUMENT, "sylva_factorize: NULL argument");
    *out = NULL;
    int status = sylva__runtime_check("sylva_factorize"); /* before any StarPU data is made */
    if (status) return status;
    sylva_factor_t *F = sylva__calloc(1, sizeof *F);
    status = F ? SYLVA_OK : SYLVA_ERR_NO_MEMORY;
    if (F) {
        F->an = (sylva_analysis_t *)an; /* the reference count is not the caller's const */
        __atomic_add_fetch(&F->an->refs, 1, __ATOMIC_ACQ_REL);
        status = sylva__numeric_create(an->rt, an->opts.precision, &F->num);
    }
    /* Distributed: a rank without room stops every rank here. */
    if (!(status = sylva__dist_agree(status))) status = run_factor(F, A, info, "sylva_factorize");
    if (status) {
        sylva_factor_free(F);
        return status;
    }
    F->valid = 1;
    *out = F;
    return SYLVA_OK;
}

int sylva_refactorize(sylva_factor_t *F, const sylva_matrix *A, sylva_factor_info *info)
{
    sylva__clear_error();
    if (info) info->failed_column = -1;
    if (!F) return sylva__fail(SYLVA_ERR_ARGUMENT, "sylva_refactorize: factor is NULL");
    int status = run_factor(F, A, info, "sylva_refactorize");
    F->valid = status == SYLVA_OK;
    return status;
}

int sylva__factor_usable(const sylva_factor_t *F, const char *who, double *to_host)
{
    if (to_host) *to_host = 0;
    int forked = sylva__runtime_forked(who);
    if (forked) return forked;
    /* Solves may run concurrently on one factor: the flags are atomic. */
    if (!__atomic_load_n(&F->valid, __ATOMIC_ACQUIRE) || !sylva__numeric_ok(F->num))
        return sylva__fail(SYLVA_ERR_ARGUMENT, "%s: the factorization did not succeed", who);
    if (__atomic_load_n(&F->pivots_checked, __ATOMIC_ACQUIRE)) return SYLVA_OK;
    sylva_factor_t *G = (sylva_factor_t *)F; /* the check's result is cached */
    int64_t col;
    int status = sylva__check_pivots(F->an, F->num, &col, to_host);
    if (status) __atomic_store_n(&G->valid, 0, __ATOMIC_RELEASE);
    __atomic_store_n(&G->pivots_checked, 1, __ATOMIC_RELEASE);
    return status;
}

int sylva_factor_to_host(const sylva_factor_t *F, double *seconds)
{
    sylva__clear_error();
    double s = 0;
    if (!F) return sylva__fail(SYLVA_ERR_ARGUMENT, "sylva_factor_to_host: factor is NULL");
    if (!__atomic_load_n(&F->valid, __ATOMIC_ACQUIRE) || !sylva__numeric_ok(F->num))
        return sylva__fail(SYLVA_ERR_ARGUMENT, "sylva_factor_to_host: the factorization did not succeed");
    /* The copy first, timed; then the pivot check, which needs L here. */
    int status = sylva__numeric_to_host(F->num, &s);
    if (seconds) *seconds = s;
    return status ? status : sylva__factor_usable(F, "sylva_factor_to_host", NULL);
}

sylva_dtype sylva_factor_dtype(const sylva_factor_t *F)
{
    return F ? sylva__numeric_dtype(F->num) : SYLVA_FLOAT64;
}

int sylva_logdet(const sylva_factor_t *F, double *logdet)
{
    sylva__clear_error();
    if (!F || !logdet) return sylva__fail(SYLVA_ERR_ARGUMENT, "sylva_logdet: NULL argument");
    int status = sylva__factor_usable(F, "sylva_logdet", NULL);
    return status ? status : sylva__numeric_logdet(F->num, logdet);
}

void sylva_factor_free(sylva_factor_t *F)
{
    if (!F) return;
    sylva__measure_free(F);
    sylva__numeric_free(F->num);
    sylva__analysis_release(F->an);
    free(F);
}

int sylva_factor_gpu_stats(const sylva_factor_t *F, int i, sylva_gpu_stats *out)
{
    sylva__clear_error();
    if (!F || !out) return sylva__fail(SYLVA_ERR_ARGUMENT, "sylva_factor_gpu_stats: NULL argument");
    if (i < 0 || i >= F->gpus)
        return sylva__fail(SYLVA_ERR_ARGUMENT, "sylva_factor_gpu_stats: GPU %d of %d (the last factorization's)", i,
                           F->gpus);
    *out = F->gpu[i];
    return SYLVA_OK;
}
