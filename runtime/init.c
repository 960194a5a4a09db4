/* init.c — sylva_init/sylva_finalize (start and stop StarPU with the
 * options' worker counts and scheduler), and sylva_default_options. CPU
 * workers run single-threaded BLAS: StarPU supplies the parallelism.
 * Fails with SYLVA_ERR_RUNTIME when StarPU cannot start.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "blas.h"
#include "error.h"
#include "runtime.h"

static int ready;

void sylva_default_options(sylva_options *o)
{
    memset(o, 0, sizeof *o);
    o->ordering = SYLVA_ORDERING_AUTO;
    o->user_perm = NULL;
    /* CHOLMOD's defaults for relaxed amalgamation. */
    o->nrelax[0] = 4;
    o->nrelax[1] = 16;
    o->nrelax[2] = 48;
    o->zrelax[0] = 0.8;
    o->zrelax[1] = 0.1;
    o->zrelax[2] = 0.05;
    o->policy = "subtree";
    o->small_front_rows = 256;
    o->tile_rows = 256;
    o->batch_flops = 0; /* automatic: see sylva_analyze */
    o->ncpus = -1;
    o->ncuda = -1;
    o->scheduler = NULL;
    o->verbose = 0;
}

int sylva_ordering_from_name(const char *name)
{
    if (!name) return -1;
    if (!strcmp(name, "metis")) return SYLVA_ORDERING_METIS;
    if (!strcmp(name, "amd")) return SYLVA_ORDERING_AMD;
    if (!strcmp(name, "natural")) return SYLVA_ORDERING_NATURAL;
    if (!strcmp(name, "user")) return SYLVA_ORDERING_USER;
    if (!strcmp(name, "scotch")) return SYLVA_ORDERING_SCOTCH;
    if (!strcmp(name, "nd-parallel")) return SYLVA_ORDERING_ND_PARALLEL;
    if (!strcmp(name, "auto")) return SYLVA_ORDERING_AUTO;
    return -1;
}

int sylva_init(const sylva_options *opts)
{
    if (ready) return SYLVA_OK;
    sylva_options def;
    if (!opts) {
        sylva_default_options(&def);
        opts = &def;
    }
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
     * phases (analysis, solve: measured 2× slower with 2 workers on 2
     * cores). They are paused outside factorization (sylva__factor_submit). */
    starpu_pause();
    ready = 1;
    return SYLVA_OK;
}

int sylva_finalize(void)
{
    if (!ready) return SYLVA_OK;
    starpu_resume();
    starpu_shutdown();
    ready = 0;
    return SYLVA_OK;
}

int sylva__runtime_ready(void) { return ready; }

int sylva__runtime_workers(void) { return ready ? (int)starpu_worker_get_count() : 0; }
