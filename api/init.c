/* init.c — sylva_init, sylva_init_begin (the start on a thread of its
 * own: runtime/init_async.c), sylva_init_wait and sylva_finalize: check the
 * runtime options (options_check.c) in the calling thread, start and stop
 * the runtime (with StarPU-MPI in a distributed run: runtime/dist_mpi.c),
 * and sylva_agree, the status
 * agreement of a distributed run. */
#include <stdio.h>
#include <string.h>

#include "api.h"

int sylva_init(const sylva_options *opts)
{
    sylva__clear_error();
    sylva_options def;
    if (!opts) {
        sylva_default_options(&def);
        opts = &def;
    }
    int status = sylva__options_check_init(opts);
    int on_thread;
    return status ? status : sylva__runtime_begin(opts, 0, &on_thread);
}

int sylva_init_begin(const sylva_options *opts, int *on_thread)
{
    sylva__clear_error();
    int dummy;
    if (!on_thread) on_thread = &dummy;
    *on_thread = 0;
    sylva_options def;
    if (!opts) {
        sylva_default_options(&def);
        opts = &def;
    }
    int status = sylva__options_check_init(opts);
    return status ? status : sylva__runtime_begin(opts, 1, on_thread);
}

int sylva_init_wait(double *seconds_start, double *seconds_waited)
{
    /* The last error stays (a caller's failure beside the start) unless
     * the start failed. */
    int status = sylva__runtime_wait();
    sylva__runtime_start_times(seconds_start, seconds_waited);
    return status;
}

int sylva_finalize(void)
{
    sylva__runtime_stop();
    return SYLVA_OK;
}

int sylva_gpu_count(void) { return sylva__runtime_gpus(); }

const char *sylva_gpu_name(void) { return sylva__runtime_gpu_name(); }

int sylva_runtime_query(sylva_runtime_info *info)
{
    sylva__clear_error();
    if (!info) return sylva__fail(SYLVA_ERR_ARGUMENT, "sylva_runtime_query: info is NULL");
    memset(info, 0, sizeof *info);
    int status = sylva__runtime_check("sylva_runtime_query");
    if (status) return status;
    info->cpu_workers = sylva__runtime_cpu_workers();
    info->gpu_workers = sylva__runtime_gpu_workers();
    info->gpus = sylva__runtime_gpus();
    snprintf(info->scheduler, sizeof info->scheduler, "%s", sylva__runtime_scheduler());
    info->rank = sylva__dist_rank();
    info->ranks = sylva__dist_size();
    return SYLVA_OK;
}

int sylva_agree(int status, const char *message)
{
    if (status && message) sylva__fail(status, "%s", message);
    return sylva__dist_agree(status);
}

const char *sylva_scheduler_name(int i) { return i < 0 ? NULL : sylva__runtime_scheduler_name(i, NULL); }

const char *sylva_scheduler_summary(int i)
{
    const char *summary = NULL;
    return i >= 0 && sylva__runtime_scheduler_name(i, &summary) ? summary : NULL;
}
