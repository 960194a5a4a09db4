/* solve.c — sylva_solve, sylva_solve_ex, sylva_solve_device and the solve
 * mode names: argument and option checks, the automatic block size, the
 * factor's usability (its last factorization succeeded, its pivots are
 * finite and positive), right-hand sides near overflow scaled and the
 * solution checked finite (solve_scale.c), timing and the info struct,
 * over runtime/'s solve. Every failure returns a status with a message.
 */
#include <string.h>

#include "api.h"

static const char *const solve_mode_names[] = {"auto", "gpu", "cpu", "sequential"};

int sylva_solve_mode_from_name(const char *name)
{
    for (int i = 0; name && i < (int)(sizeof solve_mode_names / sizeof solve_mode_names[0]); i++)
        if (!strcmp(name, solve_mode_names[i])) return i;
    return -1;
}

const char *sylva_solve_mode_name(int mode)
{
    return mode >= 0 && mode < (int)(sizeof solve_mode_names / sizeof solve_mode_names[0])
               ? solve_mode_names[mode]
               : "unknown";
}

/* Columns solved at once: the option, or as many as fit the budget of
 * permuted copies (at least SYLVA__SOLVE_MIN_BLOCK); never more than nrhs. */
static int64_t block_size(const sylva_options *o, int64_t n, size_t es, int64_t nrhs)
{
    int64_t b = o->solve_block;
    if (b <= 0) {
        b = n > 0 ? SYLVA__SOLVE_BLOCK_BYTES / (n * (int64_t)es) : nrhs;
        if (b < SYLVA__SOLVE_MIN_BLOCK) b = SYLVA__SOLVE_MIN_BLOCK;
    }
    if (b > nrhs) b = nrhs;
    return b > 0 ? b : 1;
}

static int solve_here(const sylva_factor_t *F, const sylva_options *opts, sylva_dtype dtype, int64_t nrhs,
                      void *B, int64_t ldb, int on_device, int local, sylva_solve_info *info, const char *who);

/* In a distributed run rank 0 solves its B, each block over the ranks
 * where L is (the other ranks serve it until rank 0 ends); its outcome is
 * every rank's; the other ranks' B is not touched. */
static int solve(const sylva_factor_t *F, const sylva_options *opts, sylva_dtype dtype, int64_t nrhs, void *B,
                 int64_t ldb, int on_device, sylva_solve_info *info, const char *who)
{
    if (sylva__dist_size() < 2) return solve_here(F, opts, dtype, nrhs, B, ldb, on_device, 0, info, who);
    if (info) {
        memset(info, 0, sizeof *info);
        info->berr_before = info->berr_after = -1;
        info->ranks = sylva__dist_size();
    }
    /* The pivot check is collective: every rank, before rank 0 goes on
     * (after a GPU factorization it brings each rank's L to its host: the
     * solve's time). */
    double t0 = sylva__now(), to_host = 0;
    int status = F ? sylva__factor_usable(F, who, &to_host)
                   : sylva__fail(SYLVA_ERR_ARGUMENT, "%s: NULL factor", who);
    if ((status = sylva__dist_agree(status))) return status;
    if (sylva__dist_rank() == 0) {
        status = solve_here(F, opts, dtype, nrhs, B, ldb, on_device, 0, info, who);
        if (info) {
            info->seconds_to_host += to_host;
            info->seconds = sylva__now() - t0;
        }
        int ended = sylva__numeric_solve_end();
        if (!status) status = ended;
    } else {
        status = sylva__numeric_solve_serve(F->num);
    }
    return sylva__dist_agree(status);
}

int sylva__solve_local(const sylva_factor_t *F, int64_t nrhs, void *B, int64_t ldb)
{
    return solve_here(F, NULL, F ? sylva__numeric_dtype(F->num) : SYLVA_FLOAT64, nrhs, B, ldb, 0, 1, NULL,
                      "sylva_solve");
}

static int solve_here(const sylva_factor_t *F, const sylva_options *opts, sylva_dtype dtype, int64_t nrhs,
                      void *B, int64_t ldb, int on_device, int local, sylva_solve_info *info, const char *who)
{
    double t0 = sylva__now();
    if (info) {
        memset(info, 0, sizeof *info);
        info->berr_before = info->berr_after = -1;
        info->nrhs = nrhs;
        info->ranks = 1;
    }
    if (!F || (!B && nrhs > 0)) return sylva__fail(SYLVA_ERR_ARGUMENT, "%s: NULL argument", who);
    int64_t n = F->an->tree->n;
    if (nrhs < 0 || ldb < n || ldb < 1)
        return sylva__fail(SYLVA_ERR_ARGUMENT, "%s: nrhs = %lld, ldb = %lld for n = %lld", who,
                           (long long)nrhs, (long long)ldb, (long long)n);
    const sylva_options *o = opts ? opts : &F->an->opts;
    int status = sylva__options_check_solve(o, who);
    if (status) return status;
    sylva_dtype fd = sylva__numeric_dtype(F->num);
    if (!sylva__dtype_size(dtype))
        return sylva__fail(SYLVA_ERR_ARGUMENT, "%s: dtype %d is not a sylva_dtype", who, (int)dtype);
    if (dtype != fd && !(fd == SYLVA_FLOAT32 && dtype == SYLVA_FLOAT64))
        return sylva__fail(SYLVA_ERR_ARGUMENT,
                           "%s: right-hand sides of type %s for a %s factor: use the factor's type%s", who,
                           sylva_dtype_name(dtype), sylva_dtype_name(fd),
                           fd == SYLVA_FLOAT32 ? " or float64 (mixed precision)" : "");
    if (on_device && nrhs > 0 && sylva__runtime_pointer_device(B) < 0) {
        if (sylva__runtime_cuda_devices() == 0)
            return sylva__fail(SYLVA_ERR_UNSUPPORTED, "%s: no CUDA device (none here, or a build without CUDA)",
                               who);
        return sylva__fail(SYLVA_ERR_ARGUMENT, "%s: B is not CUDA device memory", who);
    }
    if (o->refine != 0 && !sylva__numeric_refinable(F->num))
        return sylva__fail(SYLVA_ERR_ARGUMENT,
                           "%s: options.refine = %d, but the factor keeps no copy of A for the residuals: "
                           "set refine in the options given to sylva_analyze",
                           who, o->refine);
    double check_copy; /* the pivot check's copy of L to the host */
    if ((status = sylva__factor_usable(F, who, &check_copy))) return status;
    sylva__solve_request q = {.mode = o->solve_mode,
                              .refine = o->refine,
                              .block = block_size(o, n, sylva_dtype_size(dtype), nrhs),
                              .block_auto = o->solve_block == 0,
                              .dtype = dtype,
                              .on_device = on_device,
                              .local = local};
    sylva__solve_report rep;
    memset(&rep, 0, sizeof rep);
    int *exps = NULL; /* host columns scaled away from overflow (solve_scale.c) */
    int checked = !on_device && !local && nrhs > 0 && n > 0;
    if (checked && (status = sylva__solve_scale(dtype, fd, n, nrhs, B, ldb, &exps, who))) return status;
    status = sylva__numeric_solve(F->num, &q, nrhs, B, ldb, &rep);
    if (checked) {
        int st = sylva__solve_unscale(dtype, n, nrhs, B, ldb, exps, who);
        if (!status) status = st;
    }
    if (info) {
        info->mode = (sylva_solve_mode)rep.mode;
        info->refine_steps = rep.steps;
        info->blocks = rep.blocks;
        info->berr_before = rep.berr_before;
        info->ranks = rep.ranks;
        info->bytes_between_ranks = rep.bytes_ranks;
        info->berr_after = rep.berr_after;
        info->seconds_to_host = check_copy + rep.to_host;
        info->seconds_upload = rep.upload;
        info->seconds_solve = rep.solve;
        info->seconds_refine = rep.refine;
        info->seconds_download = rep.download;
        info->why_not_gpu = rep.why_not_gpu;
        info->bytes_to_device = rep.bytes_to_device;
        info->bytes_to_host = rep.bytes_to_host;
        info->seconds = sylva__now() - t0;
    }
    return status;
}

int sylva_solve(const sylva_factor_t *F, int64_t nrhs, void *B, int64_t ldb)
{
    sylva__clear_error();
    return solve(F, NULL, F ? sylva__numeric_dtype(F->num) : SYLVA_FLOAT64, nrhs, B, ldb, 0, NULL,
                 "sylva_solve");
}

int sylva_solve_ex(const sylva_factor_t *F, const sylva_options *opts, sylva_dtype dtype, int64_t nrhs,
                   void *B, int64_t ldb, sylva_solve_info *info)
{
    sylva__clear_error();
    return solve(F, opts, dtype, nrhs, B, ldb, 0, info, "sylva_solve_ex");
}

int sylva_solve_device(const sylva_factor_t *F, const sylva_options *opts, int64_t nrhs, void *B,
                       int64_t ldb, sylva_solve_info *info)
{
    sylva__clear_error();
    return solve(F, opts, F ? sylva__numeric_dtype(F->num) : SYLVA_FLOAT64, nrhs, B, ldb, 1, info,
                 "sylva_solve_device");
}
