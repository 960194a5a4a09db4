/* dist_mpi.c — several processes through StarPU-MPI (runtime.h's
 * sylva__dist_* contract): whether a run is distributed, starting StarPU
 * with StarPU-MPI (the cores and GPUs of a machine dealt to the ranks on
 * it) and stopping both, and the few collectives the layers above need
 * (status agreement with the failing rank's message, broadcast, sums and
 * maxima). MPI is initialized here with MPI_THREAD_MULTIPLE when
 * the program has not done it (these collectives run beside StarPU-MPI's
 * progress thread; StarPU's own initialization would ask for SERIALIZED
 * only) and finalized at stop; a program that initialized MPI itself must
 * have asked for MPI_THREAD_MULTIPLE, else sylva_init fails with
 * SYLVA_ERR_UNSUPPORTED. An MPI call that fails is SYLVA_ERR_RUNTIME (MPI's
 * default handler aborts the job first, which is the only safe end of a
 * broken communicator).
 */
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mpi.h>
#include <starpu_mpi.h>

#include "runtime_internal.h"

static int dist_on;      /* the runtime runs with StarPU-MPI and more than one rank */
static int mpi_started;  /* StarPU-MPI is running */
static int mpi_ours;     /* MPI was initialized here: finalize it at stop */
static int my_rank, nranks = 1;
/* sylva's own collectives: a duplicate of MPI_COMM_WORLD, so that they never
 * meet StarPU-MPI's traffic (and its barrier) on the world communicator. */
static MPI_Comm comm = MPI_COMM_NULL;

int sylva__dist_rank(void) { return dist_on ? my_rank : 0; }

int sylva__dist_size(void) { return dist_on ? nranks : 1; }

/* An MPI launcher started this process among several (Open MPI, MPICH's
 * Hydra / PMI, PMIx). */
static int launched_several(void)
{
    const char *vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE", "MPI_LOCALNRANKS"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *v = getenv(vars[i]);
        if (v && atoi(v) > 1) return 1;
    }
    return 0;
}

/* Ranks that share this machine share its cores and its GPUs. Cores:
 * unless the user placed StarPU's workers (STARPU_WORKERS_CPUID,
 * STARPU_WORKERS_NOBIND) or sized them (options.ncpus, STARPU_NCPU), each
 * rank takes its share — the cores its launcher bound it to, else the
 * machine's divided by the ranks on it — as that many CPU workers less one
 * (the main and StarPU-MPI's progress threads) less one per GPU worker (a
 * GPU worker's thread drives its stream), unbound. StarPU binds its
 * workers from core 0 on in every process: two ranks of 7 workers on 16
 * cores ran on the same 7 cores and factored 15× slower
 * (docs/perf-log.md). GPUs: deal_gpus. */
static void share_node(struct starpu_conf *conf, int local, int gpu_workers)
{
    if (local < 2 || getenv("STARPU_WORKERS_CPUID") || getenv("STARPU_WORKERS_NOBIND")) return;
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    long mine = online;
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) mine = CPU_COUNT(&set);
    long share = (mine < online ? mine : online / local) - 1 - gpu_workers;
    if (conf->ncpus < 0 && !getenv("STARPU_NCPU")) conf->ncpus = share > 1 ? (int)share : 1;
    setenv("STARPU_WORKERS_NOBIND", "1", 0);
    setenv("STARPU_MPI_NOBIND", "1", 0);
}

/* The machine's GPUs dealt to the ranks on it, unless the user chose
 * (STARPU_WORKERS_CUDAID, STARPU_NCUDA) or asked for none: with at least
 * as many GPUs as local ranks, local rank l takes GPUs l, l + local, …
 * (at most options.ncuda of them), so one rank per GPU is the default;
 * with fewer, rank l takes GPU l mod G and the ranks sharing a GPU share
 * its memory — each may use its part (STARPU_LIMIT_CUDA_MEM) unless
 * options.device_memory (or that variable) says otherwise. Returns the
 * GPU workers this rank will run (StarPU's NWORKER_PER_CUDA per GPU). */
static int deal_gpus(struct starpu_conf *conf, int lrank, int local)
{
    if (conf->ncuda == 0) return 0;
    int G = sylva__gpu_device_count();
    const char *per = getenv("STARPU_NWORKER_PER_CUDA");
    int streams = per && atoi(per) > 0 ? atoi(per) : 1;
    if (G <= 0 || getenv("STARPU_WORKERS_CUDAID") || getenv("STARPU_NCUDA"))
        return streams * (conf->ncuda > 0 ? conf->ncuda : G);
    int want = conf->ncuda > 0 ? conf->ncuda : G, n = 0;
    if (G >= local) {
        for (int d = lrank; d < G && n < want && n < STARPU_NMAXWORKERS; d += local)
            conf->workers_cuda_gpuid[n++] = (unsigned)d;
    } else {
        int d = lrank % G, sharers = (local - 1 - d) / G + 1;
        conf->workers_cuda_gpuid[n++] = (unsigned)d;
        int64_t bytes = sylva__gpu_device_memory(d);
        if (sharers > 1 && bytes > 0 && !getenv("STARPU_LIMIT_CUDA_MEM")) {
            char mib[32];
            snprintf(mib, sizeof mib, "%lld", (long long)(bytes / sharers >> 20));
            setenv("STARPU_LIMIT_CUDA_MEM", mib, 1);
        }
    }
    conf->use_explicit_workers_cuda_gpuid = 1;
    conf->ncuda = n;
    return streams * n;
}

/* This rank's place among the ranks of its machine: its local rank and
 * their number (1 and 0 when MPI cannot say). */
static void local_ranks(int *lrank, int *local)
{
    MPI_Comm node;
    *lrank = 0;
    *local = 1;
    if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) != MPI_SUCCESS) return;
    MPI_Comm_rank(node, lrank);
    MPI_Comm_size(node, local);
    MPI_Comm_free(&node);
}

int sylva__dist_wanted(int mpi_mode)
{
    int initialized = 0, finalized = 0;
    MPI_Initialized(&initialized);
    MPI_Finalized(&finalized);
    if (finalized) return mpi_mode == SYLVA_MPI_ON; /* its start says why it cannot */
    return mpi_mode == SYLVA_MPI_ON || (mpi_mode == SYLVA_MPI_AUTO && (initialized || launched_several()));
}

int sylva__dist_start(struct starpu_conf *conf, int mpi_mode)
{
    int initialized = 0, finalized = 0;
    MPI_Initialized(&initialized);
    MPI_Finalized(&finalized);
    /* MPI cannot start again once finalized (by sylva_finalize or the
     * program): one process then, unless SYLVA_MPI_ON asks for more. */
    if (finalized && mpi_mode == SYLVA_MPI_ON)
        return sylva__fail(SYLVA_ERR_UNSUPPORTED, "options.mpi = SYLVA_MPI_ON, but MPI was finalized before");
    if (!sylva__dist_wanted(mpi_mode)) {
        /* One process: the one-process values stand (sylva__dist_stop
         * left them), read meanwhile by a caller beside a start on a
         * thread (init_async.c). */
        int rc = starpu_init(conf);
        return rc ? sylva__fail(SYLVA_ERR_RUNTIME, "StarPU failed to start (%s)",
                                rc == -ENODEV ? "no worker available" : "starpu_init error")
                  : SYLVA_OK;
    }
    dist_on = mpi_started = mpi_ours = 0;
    my_rank = 0;
    nranks = 1;
    int provided = 0;
    if (!initialized) {
        if (MPI_Init_thread(NULL, NULL, MPI_THREAD_MULTIPLE, &provided) != MPI_SUCCESS)
            return sylva__fail(SYLVA_ERR_RUNTIME, "MPI_Init_thread failed");
        mpi_ours = 1;
    } else {
        MPI_Query_thread(&provided);
    }
    if (provided < MPI_THREAD_MULTIPLE) {
        if (mpi_ours) MPI_Finalize();
        mpi_ours = 0;
        return sylva__fail(SYLVA_ERR_UNSUPPORTED,
                           "MPI gives thread level %d, sylva needs MPI_THREAD_MULTIPLE (%d): initialize "
                           "MPI with MPI_Init_thread(..., MPI_THREAD_MULTIPLE, ...), or let sylva_init do it",
                           provided, MPI_THREAD_MULTIPLE);
    }
    int world = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &world);
    if (world > 1) {
        int lrank, local;
        local_ranks(&lrank, &local);
        share_node(conf, local, deal_gpus(conf, lrank, local));
    }
    int rc = starpu_mpi_init_conf(NULL, NULL, 0, MPI_COMM_WORLD, conf);
    if (rc) {
        if (mpi_ours) MPI_Finalize();
        mpi_ours = 0;
        return sylva__fail(SYLVA_ERR_RUNTIME, "StarPU-MPI failed to start (%s)",
                           rc == -ENODEV ? "no worker available" : "starpu_mpi_init_conf error");
    }
    mpi_started = 1;
    if (MPI_Comm_dup(MPI_COMM_WORLD, &comm) != MPI_SUCCESS) {
        sylva__dist_stop();
        return sylva__fail(SYLVA_ERR_RUNTIME, "MPI_Comm_dup failed");
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &my_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    dist_on = nranks > 1;
    return SYLVA_OK;
}

void sylva__dist_stop(void)
{
    if (comm != MPI_COMM_NULL) MPI_Comm_free(&comm);
    if (mpi_started) starpu_mpi_shutdown(); /* waits for the other ranks, stops StarPU */
    else starpu_shutdown();
    if (mpi_ours) MPI_Finalize();
    dist_on = mpi_started = mpi_ours = 0;
    my_rank = 0;
    nranks = 1;
}

static int mpi_check(int rc, const char *what)
{
    if (rc == MPI_SUCCESS) return SYLVA_OK;
    return sylva__fail(SYLVA_ERR_RUNTIME, "%s failed (MPI error %d)", what, rc);
}

int sylva__dist_agree(int status)
{
    if (!dist_on) return status;
    /* The lowest failing rank (nranks when none failed), then its status
     * and message from it. */
    int mine = status ? my_rank : nranks, first = nranks;
    if (mpi_check(MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm), "MPI_Allreduce"))
        return SYLVA_ERR_RUNTIME;
    if (first == nranks) return SYLVA_OK;
    struct {
        int status;
        char message[480];
    } m;
    memset(&m, 0, sizeof m);
    if (my_rank == first) {
        m.status = status;
        snprintf(m.message, sizeof m.message, "%s", sylva__last_error());
    }
    if (mpi_check(MPI_Bcast(&m, (int)sizeof m, MPI_BYTE, first, comm), "MPI_Bcast"))
        return SYLVA_ERR_RUNTIME;
    /* A message that already names its rank keeps it (agreed twice). */
    if (!strncmp(m.message, "rank ", 5)) return sylva__fail(m.status, "%s", m.message);
    return sylva__fail(m.status, "rank %d: %s", first, m.message[0] ? m.message : sylva__status_name(m.status));
}

int sylva__dist_bcast(void *buf, int64_t bytes) { return sylva__dist_bcast_from(buf, bytes, 0); }

int sylva__dist_bcast_from(void *buf, int64_t bytes, int root)
{
    if (!dist_on) return SYLVA_OK;
    char *p = buf;
    for (int64_t off = 0; off < bytes;) { /* MPI counts are ints */
        int64_t c = bytes - off < INT_MAX / 2 ? bytes - off : INT_MAX / 2;
        if (mpi_check(MPI_Bcast(p + off, (int)c, MPI_BYTE, root, comm), "MPI_Bcast")) return SYLVA_ERR_RUNTIME;
        off += c;
    }
    return SYLVA_OK;
}

int sylva__dist_reduce_sum(void *v, int64_t n, int single, int root)
{
    if (!dist_on) return SYLVA_OK;
    MPI_Datatype type = single ? MPI_FLOAT : MPI_DOUBLE;
    size_t size = single ? sizeof(float) : sizeof(double);
    char *p = v;
    for (int64_t off = 0; off < n;) {
        int64_t c = n - off < INT_MAX / 2 ? n - off : INT_MAX / 2;
        void *at = p + (size_t)off * size;
        int rc = my_rank == root ? MPI_Reduce(MPI_IN_PLACE, at, (int)c, type, MPI_SUM, root, comm)
                                 : MPI_Reduce(at, NULL, (int)c, type, MPI_SUM, root, comm);
        if (mpi_check(rc, "MPI_Reduce")) return SYLVA_ERR_RUNTIME;
        off += c;
    }
    return SYLVA_OK;
}

/* In-place all-reduce of n elements, in pieces MPI's int counts hold. */
static int allreduce(void *v, int64_t n, MPI_Datatype type, size_t size, MPI_Op op)
{
    if (!dist_on) return SYLVA_OK;
    char *p = v;
    for (int64_t off = 0; off < n;) {
        int64_t c = n - off < INT_MAX / 2 ? n - off : INT_MAX / 2;
        if (mpi_check(MPI_Allreduce(MPI_IN_PLACE, p + (size_t)off * size, (int)c, type, op, comm),
                      "MPI_Allreduce"))
            return SYLVA_ERR_RUNTIME;
        off += c;
    }
    return SYLVA_OK;
}

int sylva__dist_min_int(int *v, int64_t n) { return allreduce(v, n, MPI_INT, sizeof *v, MPI_MIN); }

int sylva__dist_sum_double(double *v, int64_t n) { return allreduce(v, n, MPI_DOUBLE, sizeof *v, MPI_SUM); }

int sylva__dist_max_i64(int64_t *v, int64_t n) { return allreduce(v, n, MPI_INT64_T, sizeof *v, MPI_MAX); }

int sylva__dist_same(uint64_t v)
{
    if (!dist_on) return 1;
    uint64_t lo = v, hi = v;
    if (allreduce(&lo, 1, MPI_UINT64_T, sizeof lo, MPI_MIN) || allreduce(&hi, 1, MPI_UINT64_T, sizeof hi, MPI_MAX))
        return 0;
    return lo == hi;
}

int sylva__dist_send_recv(void *buf, int64_t bytes, int from, int to, int tag)
{
    if (!dist_on || from == to) return SYLVA_OK;
    char *p = buf;
    for (int64_t off = 0; off < bytes;) {
        int64_t c = bytes - off < INT_MAX / 2 ? bytes - off : INT_MAX / 2;
        int rc = my_rank == from ? MPI_Send(p + off, (int)c, MPI_BYTE, to, tag, comm)
                 : my_rank == to ? MPI_Recv(p + off, (int)c, MPI_BYTE, from, tag, comm, MPI_STATUS_IGNORE)
                                 : MPI_SUCCESS;
        if (mpi_check(rc, my_rank == from ? "MPI_Send" : "MPI_Recv")) return SYLVA_ERR_RUNTIME;
        off += c;
    }
    return SYLVA_OK;
}

int sylva__dist_all_gather(const void *mine, void *all, int64_t bytes)
{
    if (!dist_on) {
        memcpy(all, mine, (size_t)bytes);
        return SYLVA_OK;
    }
    return mpi_check(MPI_Allgather(mine, (int)bytes, MPI_BYTE, all, (int)bytes, MPI_BYTE, comm),
                     "MPI_Allgather");
}
