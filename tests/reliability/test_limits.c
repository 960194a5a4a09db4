/* test_limits.c — the option ranges of docs/limits.md at each boundary,
 * through the public API: every field of sylva_options just outside its
 * range is refused by sylva_analyze or sylva_init with SYLVA_ERR_ARGUMENT
 * and a message naming it, the boundary itself is accepted, and a tile size
 * that would split large fronts into millions of tiny tasks is refused at
 * once (defect 11 of issue 11; CTest: defect.11_option_ranges). */
#include <math.h>
#include <stdio.h>

#include "reliability_util.h"

/* 11: every option outside its range is refused with its name; the
 * boundaries themselves are accepted. */
static void expect_analyze(const sylva_matrix *A, const sylva_options *o, int want,
                           const char *name, const char *what)
{
    sylva_analysis_t *an = NULL;
    int st = sylva_analyze(A, o, &an, NULL);
    CHECK(st == want, "%s: %s (%s)", what, sylva_status_name(st), sylva_last_error());
    if (want != SYLVA_OK)
        CHECK(contains(sylva_last_error(), name), "%s: message '%s' lacks '%s'", what,
              sylva_last_error(), name);
    sylva_analysis_free(an);
}

static void case_option_ranges(void)
{
    sylva_matrix *A = tridiag(50);
    sylva_options o;
#define OPT(field, value, want)                                                                    \
    do {                                                                                           \
        sylva_default_options(&o);                                                                 \
        o.field = value;                                                                           \
        expect_analyze(A, &o, want, #field, #field " = " #value);                                  \
    } while (0)
    OPT(small_front_rows, -1, SYLVA_ERR_ARGUMENT);
    OPT(small_front_rows, 0, SYLVA_OK);
    OPT(small_front_rows, 1, SYLVA_OK);
    OPT(small_front_rows, 2147483647, SYLVA_OK);
    OPT(small_front_rows, 2147483648LL, SYLVA_ERR_ARGUMENT);
    OPT(tile_rows, -1, SYLVA_ERR_ARGUMENT);
    OPT(tile_rows, 0, SYLVA_OK);
    OPT(tile_rows, 2147483647, SYLVA_OK);
    OPT(tile_rows, 2147483648LL, SYLVA_ERR_ARGUMENT);
    OPT(batch_flops, -1, SYLVA_ERR_ARGUMENT);
    OPT(batch_flops, NAN, SYLVA_ERR_ARGUMENT);
    OPT(batch_flops, INFINITY, SYLVA_ERR_ARGUMENT);
    OPT(batch_flops, 0, SYLVA_OK);
    OPT(batch_flops, 1e300, SYLVA_OK);
    OPT(nrelax[0], -1, SYLVA_ERR_ARGUMENT);
    OPT(nrelax[2], -5, SYLVA_ERR_ARGUMENT);
    OPT(nrelax[1], 0, SYLVA_OK);
    OPT(nrelax[1], 2147483647, SYLVA_OK);
    OPT(nrelax[1], 2147483648LL, SYLVA_ERR_ARGUMENT);
    OPT(zrelax[0], NAN, SYLVA_ERR_ARGUMENT);
    OPT(zrelax[1], 1e300, SYLVA_ERR_ARGUMENT);
    OPT(zrelax[2], -0.5, SYLVA_ERR_ARGUMENT);
    OPT(zrelax[2], 1.0000001, SYLVA_ERR_ARGUMENT);
    OPT(zrelax[0], 0, SYLVA_OK);
    OPT(zrelax[0], 1, SYLVA_OK);
    OPT(ordering, (sylva_ordering)7, SYLVA_ERR_ARGUMENT);
    OPT(ordering, (sylva_ordering)-1, SYLVA_ERR_ARGUMENT);
    OPT(precision, (sylva_dtype)2, SYLVA_ERR_ARGUMENT);
    OPT(mode, (sylva_exec_mode)4, SYLVA_ERR_ARGUMENT);
    OPT(gpu_map, (sylva_gpu_map)2, SYLVA_ERR_ARGUMENT);
    OPT(gpu_map, (sylva_gpu_map)-1, SYLVA_ERR_ARGUMENT);
    OPT(gpu_map, SYLVA_GPU_MAP_SCHEDULER, SYLVA_OK);
    OPT(gpu_tile_rows, -2, SYLVA_ERR_ARGUMENT);
    OPT(gpu_tile_rows, -1, SYLVA_OK);
    OPT(gpu_tile_rows, 2147483647, SYLVA_OK);
    OPT(gpu_tile_rows, 2147483648LL, SYLVA_ERR_ARGUMENT);
#undef OPT
    sylva_matrix_free(A);
    /* Tiles of one row on large fronts: millions of tiny tasks, refused at
     * once; a sensible tile is fine. */
    int64_t n = 90;
    int64_t *cp = malloc((size_t)(n + 1) * sizeof *cp),
            *ri = malloc((size_t)(n * (n + 1) / 2) * sizeof *ri);
    double *v = malloc((size_t)(n * (n + 1) / 2) * sizeof *v);
    int64_t nz = 0;
    for (int64_t j = 0; j < n; j++) { /* dense SPD: one front of 90 rows */
        cp[j] = nz;
        for (int64_t i = j; i < n; i++) {
            ri[nz] = i;
            v[nz++] = i == j ? (double)n : 0.5;
        }
    }
    cp[n] = nz;
    A = NULL;
    CHECK(sylva_matrix_from_csc(n, cp, ri, v, 1, &A) == SYLVA_OK, "dense: %s", sylva_last_error());
    sylva_default_options(&o);
    o.small_front_rows = 1;
    o.tile_rows = 1;
    double t0 = sylva_wtime();
    expect_analyze(A, &o, SYLVA_ERR_ARGUMENT, "tile_rows", "tile_rows = 1, small_front_rows = 1");
    CHECK(sylva_wtime() - t0 < 2.0, "the refusal took %.2f s", sylva_wtime() - t0);
    o.tile_rows = 16;
    expect_analyze(A, &o, SYLVA_OK, "", "tile_rows = 16, small_front_rows = 1");
    sylva_matrix_free(A);
    free(cp);
    free(ri);
    free(v);
    /* sylva_init */
    struct {
        int ncpus, ncuda, mode;
        int64_t devmem;
        const char *name;
    } bad[] = {
        {-2, 0, SYLVA_MODE_CPU, 0, "ncpus"},         {SYLVA_MAX_WORKERS + 1, 0, 3, 0, "ncpus"},
        {1, -2, SYLVA_MODE_CPU, 0, "ncuda"},         {1, 0, 9, 0, "mode"},
        {1, 0, SYLVA_MODE_CPU, -1, "device_memory"}, {0, 0, SYLVA_MODE_CPU, 0, "ncpus"}};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        sylva_default_options(&o);
        o.ncpus = bad[k].ncpus;
        o.ncuda = bad[k].ncuda;
        o.mode = (sylva_exec_mode)bad[k].mode;
        o.device_memory = bad[k].devmem;
        int st = sylva_init(&o);
        CHECK(st == SYLVA_ERR_ARGUMENT, "init with bad %s: %s", bad[k].name, sylva_status_name(st));
        CHECK(contains(sylva_last_error(), bad[k].name), "init message '%s'", sylva_last_error());
        if (st == SYLVA_OK) sylva_finalize();
    }
    /* options.mpi: a sylva_mpi_mode (0..2). */
    int bad_mpi[] = {-1, SYLVA_MPI_OFF + 1};
    for (size_t k = 0; k < sizeof bad_mpi / sizeof bad_mpi[0]; k++) {
        sylva_default_options(&o);
        o.mpi = bad_mpi[k];
        int st = sylva_init(&o);
        CHECK(st == SYLVA_ERR_ARGUMENT && contains(sylva_last_error(), "options.mpi"), "init with mpi = %d: %s (%s)",
              bad_mpi[k], sylva_status_name(st), sylva_last_error());
        if (st == SYLVA_OK) sylva_finalize();
    }
    /* SYLVA_MPI_OFF: one process whatever the environment says. */
    sylva_default_options(&o);
    o.mpi = SYLVA_MPI_OFF;
    o.ncpus = 1;
    int st = sylva_init(&o);
    sylva_runtime_info rt;
    CHECK(st == SYLVA_OK && sylva_runtime_query(&rt) == SYLVA_OK && rt.rank == 0 && rt.ranks == 1,
          "init with mpi = OFF: %s, rank %d of %d", sylva_last_error(), rt.rank, rt.ranks);
    if (st == SYLVA_OK) sylva_finalize();
    /* SYLVA_MPI_ON: MPI started by sylva_init (one rank here) in a build
     * with StarPU-MPI, SYLVA_ERR_UNSUPPORTED without; after it, MPI is
     * finalized and cannot start again: ON is refused, AUTO is one
     * process. */
    o.mpi = SYLVA_MPI_ON;
    st = sylva_init(&o);
    CHECK(st == SYLVA_OK || st == SYLVA_ERR_UNSUPPORTED, "init with mpi = ON: %s", sylva_last_error());
    if (st == SYLVA_OK) {
        CHECK(sylva_runtime_query(&rt) == SYLVA_OK && rt.ranks == 1, "mpi = ON alone: %d ranks", rt.ranks);
        sylva_finalize();
        st = sylva_init(&o);
        CHECK(st == SYLVA_ERR_UNSUPPORTED && contains(sylva_last_error(), "finalized"),
              "init with mpi = ON after MPI was finalized: %s", sylva_last_error());
        if (st == SYLVA_OK) sylva_finalize();
    } else {
        CHECK(contains(sylva_last_error(), "without StarPU-MPI"), "mpi = ON: '%s'", sylva_last_error());
    }
    o.mpi = SYLVA_MPI_AUTO;
    st = sylva_init(&o);
    CHECK(st == SYLVA_OK && sylva_runtime_query(&rt) == SYLVA_OK && rt.ranks == 1, "init with mpi = AUTO then: %s",
          sylva_last_error());
    if (st == SYLVA_OK) sylva_finalize();
}

int main(void)
{
    case_option_ranges();
    return test_exit("option_ranges");
}
