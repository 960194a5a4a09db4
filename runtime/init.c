/* init.c — start and stop StarPU with the options' worker counts and
 * scheduler, and the check every StarPU return code goes through. CPU
 * workers run single-threaded BLAS: StarPU supplies the parallelism. Fails
 * with SYLVA_ERR_RUNTIME when StarPU cannot start.
 */
#include <errno.h>
#include <stdlib.h>

#include "blas.h"
#include "runtime_internal.h"

static int ready;

int sylva__starpu_status(int rc, const char *call, const char *file, int line)
{
    if (rc == 0) return SYLVA_OK;
    return sylva__fail(SYLVA_ERR_RUNTIME, "%s:%d: StarPU failed (code %d%s): %s", file, line, rc,
                       rc == -ENODEV ? ", no worker can run the task" : "", call);
}

int sylva__runtime_start(const sylva_options *opts)
{
    if (ready) return SYLVA_OK;
    if (!opts->verbose) setenv("STARPU_SILENT", "1", 0);
    struct starpu_conf conf;
    starpu_conf_init(&conf);
    if (opts->ncpus >= 0) conf.ncpus = opts->ncpus;
    /* The CUDA codelets are not wired yet: no CUDA workers (they would only
     * cost start-up time and memory). */
    conf.ncuda = 0;
    conf.nopencl = 0;
    conf.sched_policy_name = opts->scheduler ? opts->scheduler : "lws";
    int rc = starpu_init(&conf);
    if (rc != 0)
        return sylva__fail(SYLVA_ERR_RUNTIME, "StarPU failed to start (%s)",
                           rc == -ENODEV ? "no worker available" : "starpu_init error");
    if (starpu_cpu_worker_get_count() == 0) {
        starpu_shutdown();
        return sylva__fail(SYLVA_ERR_RUNTIME, "StarPU started without CPU workers");
    }
    openblas_set_num_threads(1);
    /* Idle workers poll for work and take cores from the main thread's own
     * phases (analysis, solve; docs/perf-log.md). They are paused outside
     * factorization (sylva__factor_submit resumes them). */
    starpu_pause();
    ready = 1;
    return SYLVA_OK;
}

void sylva__runtime_stop(void)
{
    if (!ready) return;
    starpu_resume();
    starpu_shutdown();
    ready = 0;
}

int sylva__runtime_ready(void) { return ready; }

int sylva__runtime_workers(void) { return ready ? (int)starpu_worker_get_count() : 0; }
