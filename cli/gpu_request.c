/* gpu_request.c — what the command does with a request for GPUs: an
 * explicit one (--mode gpu or hybrid, --gpus N > 0) that the runtime
 * cannot meet is a failure (exit 4) naming what was found, never a silent
 * CPU run; without one (--mode auto) the summary says where the run went
 * and, for a CPU run, why (cli_where_cpu). Called after sylva_init, when
 * the runtime knows its GPUs. */
#include <string.h>

#include "cli.h"

int cli_gpu_requested(const cli_args *a)
{
    if (a->opts.mode == SYLVA_MODE_GPU || a->opts.mode == SYLVA_MODE_HYBRID) return 1;
    return a->opts.mode != SYLVA_MODE_CPU && a->opts.ncuda > 0;
}

/* The option that asked for GPUs, as the user wrote it. */
static const char *request_text(const cli_args *a, char *buf, size_t size)
{
    if (a->opts.mode == SYLVA_MODE_GPU || a->opts.mode == SYLVA_MODE_HYBRID)
        snprintf(buf, size, "--mode %s%s", sylva_exec_mode_name(a->opts.mode), a->opts.ncuda > 0 ? " --gpus " : "");
    else buf[0] = 0;
    if (a->opts.ncuda > 0) snprintf(buf + strlen(buf), size - strlen(buf), "%s%d", buf[0] ? "" : "--gpus ", a->opts.ncuda);
    return buf;
}

int cli_check_gpus(const cli_args *a)
{
    if (!cli_gpu_requested(a)) return SYLVA_OK;
    sylva_runtime_info ri;
    int status = sylva_runtime_query(&ri);
    if (status) return status;
    int want = a->opts.ncuda > 0 ? a->opts.ncuda : 1;
    if (ri.gpus >= want) return SYLVA_OK;
    char asked[64];
    request_text(a, asked, sizeof asked);
    if (ri.gpus == 0)
        return cli_error(SYLVA_ERR_RUNTIME,
                         "%s asks for GPUs, but none was found (no CUDA device visible, or sylva built "
                         "without CUDA); %d CPU worker%s found: drop %s to run on them",
                         asked, ri.cpu_workers, ri.cpu_workers == 1 ? "" : "s", asked);
    return cli_error(SYLVA_ERR_RUNTIME, "%s asks for %d GPUs, but %d %s found (%s)", asked, want, ri.gpus,
                     ri.gpus == 1 ? "was" : "were", sylva_gpu_name());
}

const char *cli_where_cpu(const cli_args *a, const sylva_factor_info *fi)
{
    return fi->ranks > 1                           ? "a run over several processes uses CPU workers"
           : a->opts.mode == SYLVA_MODE_CPU        ? "--mode cpu"
           : a->opts.ncuda == 0                    ? "--gpus 0"
           : sylva_gpu_count() == 0                ? "no GPU found"
           : a->opts.precision != SYLVA_FLOAT64    ? "GPUs factor in double precision only"
                                                   : "CPU run";
}
