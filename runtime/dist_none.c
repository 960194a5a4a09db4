/* dist_none.c — the sylva__dist_* contract (runtime.h, runtime_internal.h)
 * in a build without StarPU-MPI: always one process (rank 0 of 1), the
 * collectives return their input, StarPU starts and stops plainly, and
 * asking for several processes (SYLVA_MPI_ON) is SYLVA_ERR_UNSUPPORTED.
 * The distributed factorization is never reached (one rank); its entry
 * points say so if called.
 */
#include <errno.h>
#include <string.h>

#include "runtime_internal.h"

int sylva__dist_rank(void) { return 0; }

int sylva__dist_size(void) { return 1; }

int sylva__dist_wanted(int mpi_mode) { return mpi_mode == SYLVA_MPI_ON; }

int sylva__dist_start(struct starpu_conf *conf, int mpi_mode)
{
    if (mpi_mode == SYLVA_MPI_ON)
        return sylva__fail(SYLVA_ERR_UNSUPPORTED,
                           "options.mpi = SYLVA_MPI_ON, but this sylva was built without StarPU-MPI "
                           "(SYLVA_ENABLE_MPI)");
    int rc = starpu_init(conf);
    return rc ? sylva__fail(SYLVA_ERR_RUNTIME, "StarPU failed to start (%s)",
                            rc == -ENODEV ? "no worker available" : "starpu_init error")
              : SYLVA_OK;
}

void sylva__dist_stop(void) { starpu_shutdown(); }

int sylva__dist_agree(int status) { return status; }

int sylva__dist_bcast(void *buf, int64_t bytes)
{
    (void)buf;
    (void)bytes;
    return SYLVA_OK;
}

int sylva__dist_bcast_from(void *buf, int64_t bytes, int root)
{
    (void)buf;
    (void)bytes;
    (void)root;
    return SYLVA_OK;
}

int sylva__dist_reduce_sum(void *v, int64_t n, int single, int root)
{
    (void)v;
    (void)n;
    (void)single;
    (void)root;
    return SYLVA_OK;
}

int sylva__dist_min_int(int *v, int64_t n)
{
    (void)v;
    (void)n;
    return SYLVA_OK;
}

int sylva__dist_sum_double(double *v, int64_t n)
{
    (void)v;
    (void)n;
    return SYLVA_OK;
}

int sylva__dist_max_i64(int64_t *v, int64_t n)
{
    (void)v;
    (void)n;
    return SYLVA_OK;
}

int sylva__dist_same(uint64_t v)
{
    (void)v;
    return 1;
}

int sylva__dist_send_recv(void *buf, int64_t bytes, int from, int to, int tag)
{
    (void)buf;
    (void)bytes;
    (void)from;
    (void)to;
    (void)tag;
    return SYLVA_OK;
}

int sylva__dist_all_gather(const void *mine, void *all, int64_t bytes)
{
    memcpy(all, mine, (size_t)bytes);
    return SYLVA_OK;
}

int sylva__factor_submit_dist(sylva__numeric *N, const void *A_values, int64_t nnz, int64_t tile_rows,
                              int mode, sylva__factor_report *rep)
{
    (void)N;
    (void)A_values;
    (void)nnz;
    (void)tile_rows;
    (void)mode;
    (void)rep;
    return sylva__fail(SYLVA_ERR_UNSUPPORTED, "a distributed factorization needs a build with StarPU-MPI");
}

int sylva__numeric_gather(sylva__numeric *N)
{
    (void)N;
    return SYLVA_OK;
}
