/* stats.c — what a factorization (or a GPU solve) run measured, from StarPU's profiling
 * (enabled at start, init.c): bytes moved host → GPU, GPU → host and
 * between GPUs (bus counters), tasks per kind of worker and the GPU
 * workers' time in tasks (worker counters), in total and per GPU in use. Reading a counter resets it, so a run reads them once
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

/* A memory node's GPU index (sylva__gpu_index), −1 for the host. */
static int node_gpu(int node)
{
    if (starpu_node_get_kind((unsigned)node) != STARPU_CUDA_RAM) return -1;
    return sylva__gpu_index(starpu_memory_node_get_devid((unsigned)node));
}

/* The bus counters into *to_device, *to_host and, with rep, the bytes
 * between GPUs and per GPU. */
static void read_buses(double *to_device, double *to_host, sylva__factor_report *rep)
{
    *to_device = *to_host = 0;
    for (int bus = 0; bus < starpu_bus_get_count(); bus++) {
        struct starpu_profiling_bus_info b;
        memset(&b, 0, sizeof b);
        if (starpu_bus_get_profiling_info(bus, &b) != 0) continue;
        int src = starpu_bus_get_src(bus), dst = starpu_bus_get_dst(bus);
        enum starpu_node_kind sk = starpu_node_get_kind((unsigned)src), dk = starpu_node_get_kind((unsigned)dst);
        double bytes = (double)b.transferred_bytes;
        if (sk == STARPU_CPU_RAM && dk == STARPU_CUDA_RAM) *to_device += bytes;
        if (sk == STARPU_CUDA_RAM && dk == STARPU_CPU_RAM) *to_host += bytes;
        if (!rep) continue;
        int sg = node_gpu(src), dg = node_gpu(dst);
        if (sk == STARPU_CUDA_RAM && dk == STARPU_CUDA_RAM) rep->bytes_between_gpus += bytes;
        if (sg >= 0 && dk == STARPU_CPU_RAM) rep->gpu[sg].bytes_to_host += bytes;
        if (sg >= 0 && dg >= 0) rep->gpu[sg].bytes_to_gpus += bytes;
        if (dg >= 0 && sk == STARPU_CPU_RAM) rep->gpu[dg].bytes_from_host += bytes;
        if (dg >= 0 && sg >= 0) rep->gpu[dg].bytes_from_gpus += bytes;
    }
}

void sylva__stats_bytes(double *to_device, double *to_host) { read_buses(to_device, to_host, NULL); }

void sylva__stats_read(sylva__factor_report *rep)
{
    rep->bytes_between_gpus = 0;
    memset(rep->gpu, 0, sizeof rep->gpu);
    for (int d = 0; d < SYLVA__MAX_GPUS; d++) rep->gpu[d].device = -1;
    read_buses(&rep->bytes_to_device, &rep->bytes_to_host, rep);
    rep->tasks_cpu = rep->tasks_gpu = 0;
    rep->gpu_busy = rep->cpu_busy = 0;
    for (unsigned i = 0; i < starpu_worker_get_count(); i++) {
        struct starpu_profiling_worker_info w;
        memset(&w, 0, sizeof w);
        if (starpu_profiling_worker_get_info((int)i, &w) != 0) continue;
        if (starpu_worker_get_type((int)i) == STARPU_CUDA_WORKER) {
            int d = sylva__gpu_index(starpu_worker_get_devid((int)i));
            rep->tasks_gpu += w.executed_tasks;
            rep->gpu_busy += seconds(&w.executing_time);
            if (d >= 0) {
                rep->gpu[d].device = starpu_worker_get_devid((int)i);
                rep->gpu[d].tasks += w.executed_tasks;
                rep->gpu[d].busy_seconds += seconds(&w.executing_time);
            }
        } else {
            rep->tasks_cpu += w.executed_tasks;
            rep->cpu_busy += seconds(&w.executing_time);
        }
    }
}
