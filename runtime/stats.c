/* stats.c — what a factorization (or a GPU solve) run measured, from StarPU's profiling
 * (enabled at start, init.c): bytes moved host → GPU and GPU → host (bus
 * counters), tasks per kind of worker and the GPU workers' time in tasks
 * (worker counters). Reading a counter resets it, so a run reads them once
 * before it starts (sylva__stats_reset) and once after. Cannot fail. */
#include <string.h>
#include <time.h>

#include "runtime_internal.h"

static double seconds(const struct timespec *t) { return (double)t->tv_sec + 1e-9 * (double)t->tv_nsec; }

void sylva__stats_reset(void)
{
    struct starpu_profiling_bus_info b;
    for (int bus = 0; bus < starpu_bus_get_count(); bus++) starpu_bus_get_profiling_info(bus, &b);
    struct starpu_profiling_worker_info w;
    for (unsigned i = 0; i < starpu_worker_get_count(); i++) starpu_profiling_worker_get_info((int)i, &w);
}

void sylva__stats_bytes(double *to_device, double *to_host)
{
    *to_device = *to_host = 0;
    for (int bus = 0; bus < starpu_bus_get_count(); bus++) {
        struct starpu_profiling_bus_info b;
        memset(&b, 0, sizeof b);
        if (starpu_bus_get_profiling_info(bus, &b) != 0) continue;
        enum starpu_node_kind src = starpu_node_get_kind((unsigned)starpu_bus_get_src(bus));
        enum starpu_node_kind dst = starpu_node_get_kind((unsigned)starpu_bus_get_dst(bus));
        if (src == STARPU_CPU_RAM && dst == STARPU_CUDA_RAM) *to_device += (double)b.transferred_bytes;
        if (src == STARPU_CUDA_RAM && dst == STARPU_CPU_RAM) *to_host += (double)b.transferred_bytes;
    }
}

void sylva__stats_read(sylva__factor_report *rep)
{
    sylva__stats_bytes(&rep->bytes_to_device, &rep->bytes_to_host);
    rep->tasks_cpu = rep->tasks_gpu = 0;
    rep->gpu_busy = 0;
    for (unsigned i = 0; i < starpu_worker_get_count(); i++) {
        struct starpu_profiling_worker_info w;
        memset(&w, 0, sizeof w);
        if (starpu_profiling_worker_get_info((int)i, &w) != 0) continue;
        if (starpu_worker_get_type((int)i) == STARPU_CUDA_WORKER) {
            rep->tasks_gpu += w.executed_tasks;
            rep->gpu_busy += seconds(&w.executing_time);
        } else {
            rep->tasks_cpu += w.executed_tasks;
        }
    }
}
