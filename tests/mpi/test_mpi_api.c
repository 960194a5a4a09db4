/* test_mpi_api.c FILE — the library in a distributed run, as a program
 * that initializes MPI itself (MPI_THREAD_MULTIPLE) uses it: rank 0 reads
 * FILE, every rank calls the collective functions with NULL data except
 * rank 0; then
 *   - the solve on rank 0 has backward error ≤ 4·n·ε, and log det is the
 *     same on every rank;
 *   - the solve runs over the ranks and leaves L where it is: sylva_rcond
 *     (rank 0 alone, on L gathered there) refuses until
 *     sylva_factor_to_host gathers it; 5 columns with ldb > n in blocks of
 *     2 (3 blocks, each over every rank; the rows past n untouched), each
 *     column ≤ 4·n·ε, rows moved between ranks reported;
 *   - a single-precision factor with double right-hand sides, refined
 *     (every correction solve over the ranks) to double accuracy;
 *   - with every allocation of rank 1 failing from the k-th on during a
 *     solve, every rank returns the same status, and the next solve
 *     succeeds;
 *   - a refactorization with A's values doubled gives log det + n log 2 and
 *     an accurate solve (L, CBs and A's values sent again, nothing stale);
 *   - every rank's record (sylva_factor_rank_info) is the same on every rank,
 *     the flops add up to the matrix's and the bytes sent to the bytes
 *     received;
 *   - with every allocation of rank 1 failing from the k-th on (core/'s
 *     failure hook) during a factorization, for each k up to what a
 *     factorization allocates there, every rank returns the same status,
 *     and after a failure a factorization without the hook succeeds:
 *     no hang, no rank left behind;
 *   - sylva_agree gives every rank the failing rank's status and message;
 *   - a pivot made negative in the root front (its tiles dealt over the
 *     ranks) is the failing column on every rank.
 * Each rank checks and the ranks' failure counts are summed: the program
 * exits non-zero on every rank when any check failed. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core.h"
#include "sylva.h"

static int rank, ranks;

/* The same int on every rank. */
static int same_everywhere(int v)
{
    int lo = v, hi = v;
    MPI_Allreduce(MPI_IN_PLACE, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return lo == hi;
}

static int same_double(double v)
{
    double lo = v, hi = v;
    MPI_Allreduce(MPI_IN_PLACE, &lo, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &hi, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return lo == hi;
}

/* Rank 0: b = A·1 and x = b (the others: NULL); returns rank 0's n, 0
 * elsewhere. */
static int64_t ones_rhs(const sylva_matrix *A, double **x, double **b)
{
    int64_t n = rank == 0 && A ? A->n : 0;
    if (rank != 0) return 0;
    double *one = malloc(((size_t)n + 1) * sizeof *one);
    *x = calloc((size_t)n + 1, sizeof **x);
    *b = calloc((size_t)n + 1, sizeof **b);
    for (int64_t i = 0; i < n; i++) one[i] = 1;
    sylva_matrix_symv(A, one, *b);
    memcpy(*x, *b, (size_t)n * sizeof **x);
    free(one);
    return n;
}

/* Rank 0: solve A x = A·1 and check the backward error. */
static void check_solve(const sylva_factor_t *F, const sylva_matrix *A, const char *what)
{
    double *x = NULL, *b = NULL;
    int64_t n = ones_rhs(A, &x, &b);
    int st = sylva_solve(F, 1, x, n > 0 ? n : 1);
    CHECK(st == SYLVA_OK, "%s: sylva_solve: %s", what, sylva_last_error());
    if (rank == 0 && st == SYLVA_OK) {
        double e = sylva_backward_error(A, x, b), tol = 4.0 * (double)(n > 1 ? n : 1) * 0x1p-52;
        CHECK(e <= tol, "%s: backward error %.3e > 4·n·ε = %.3e", what, e, tol);
    }
    free(x);
    free(b);
}

/* Rank 0: 5 right-hand sides A·X (X's column c all c + 1), ldb = n + 3, in
 * blocks of 2 over the ranks. */
static void check_blocks(const sylva_factor_t *F, const sylva_matrix *A, const sylva_options *o)
{
    int64_t n = A ? A->n : 0, ld = n + 3, k = 5;
    double *x = NULL, *b = NULL, *col = NULL;
    if (rank == 0) {
        x = calloc((size_t)(ld * k), sizeof *x);
        b = calloc((size_t)(ld * k), sizeof *b);
        col = malloc(((size_t)n + 1) * sizeof *col);
        for (int64_t c = 0; c < k; c++) {
            for (int64_t i = 0; i < n; i++) col[i] = (double)(c + 1);
            sylva_matrix_symv(A, col, b + c * ld);
            memcpy(x + c * ld, b + c * ld, (size_t)n * sizeof *x);
            for (int64_t i = n; i < ld; i++) x[i + c * ld] = -7;
        }
    }
    sylva_options so = *o;
    so.solve_block = 2;
    sylva_solve_info si;
    int st = sylva_solve_ex(F, &so, SYLVA_FLOAT64, rank == 0 ? k : 0, x, ld, &si);
    CHECK(st == SYLVA_OK, "5 columns in blocks of 2: %s", sylva_last_error());
    if (rank == 0 && st == SYLVA_OK) {
        CHECK(si.ranks == ranks && si.blocks == 3 && si.bytes_between_ranks > 0,
              "solve info: %d ranks, %lld blocks, %.0f bytes between ranks", si.ranks, (long long)si.blocks,
              si.bytes_between_ranks);
        double tol = 4.0 * (double)(n > 1 ? n : 1) * 0x1p-52;
        for (int64_t c = 0; c < k; c++) {
            double e = sylva_backward_error(A, x + c * ld, b + c * ld);
            CHECK(e <= tol, "column %lld: backward error %.3e > %.3e", (long long)c, e, tol);
            for (int64_t i = n; i < ld; i++)
                CHECK(x[i + c * ld] == -7, "column %lld: row %lld past n written", (long long)c, (long long)i);
        }
    }
    free(x);
    free(b);
    free(col);
}

/* A single-precision factor of A, double right-hand sides refined to
 * double accuracy. */
static void check_single(const sylva_matrix *A, const sylva_options *o)
{
    sylva_options so = *o;
    so.precision = SYLVA_FLOAT32;
    so.refine = SYLVA_REFINE_AUTO;
    sylva_analysis_t *an = NULL;
    sylva_factor_t *F = NULL;
    int st = sylva_analyze(A, &so, &an, NULL);
    if (!st) st = sylva_factorize(an, A, &F, NULL);
    CHECK(st == SYLVA_OK, "single precision: %s", sylva_last_error());
    double *x = NULL, *b = NULL;
    int64_t n = ones_rhs(A, &x, &b);
    sylva_solve_info si;
    if (!st) st = sylva_solve_ex(F, &so, SYLVA_FLOAT64, rank == 0 ? 1 : 0, x, n > 0 ? n : 1, &si);
    CHECK(st == SYLVA_OK, "single precision, refined: %s", sylva_last_error());
    if (rank == 0 && st == SYLVA_OK) {
        double e = sylva_backward_error(A, x, b), tol = 4.0 * (double)(n > 1 ? n : 1) * 0x1p-52;
        CHECK(e <= tol && si.refine_steps > 0, "single precision: backward error %.3e > %.3e after %d steps", e,
              tol, si.refine_steps);
    }
    free(x);
    free(b);
    sylva_factor_free(F);
    sylva_analysis_free(an);
}

int main(int argc, char **argv)
{
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    if (argc != 2) {
        fprintf(stderr, "usage: test_mpi_api FILE.mtx\n");
        MPI_Finalize();
        return 2;
    }
    sylva_options o;
    sylva_default_options(&o);
    o.mode = SYLVA_MODE_CPU;
    /* Large fronts too: tiled on their owner below the split, their tiles
     * dealt over the ranks above it (tiles of 48: a few per front, so the
     * allocation-failure loop below stays short on a 2-core machine). */
    o.small_front_rows = 64;
    o.tile_rows = 48;
    CHECK(sylva_init(&o) == SYLVA_OK, "sylva_init: %s", sylva_last_error());
    sylva_runtime_info ri;
    sylva_runtime_query(&ri);
    CHECK(ri.rank == rank && ri.ranks == ranks, "runtime: rank %d of %d, MPI says %d of %d", ri.rank, ri.ranks,
          rank, ranks);

    /* sylva_agree: the lowest failing rank's status and message. */
    int st = sylva_agree(rank == ranks - 1 ? SYLVA_ERR_IO : SYLVA_OK, rank == ranks - 1 ? "the disk is gone" : NULL);
    char want[64];
    snprintf(want, sizeof want, "rank %d: the disk is gone", ranks - 1);
    CHECK(st == SYLVA_ERR_IO && strcmp(sylva_last_error(), want) == 0, "sylva_agree: %d, '%s'", st,
          sylva_last_error());
    CHECK(sylva_agree(SYLVA_OK, NULL) == SYLVA_OK, "sylva_agree(OK) failed");

    sylva_matrix *A = NULL;
    st = rank == 0 ? sylva_read_matrix_market(argv[1], &A) : SYLVA_OK;
    st = sylva_agree(st, NULL);
    CHECK(st == SYLVA_OK, "read: %s", sylva_last_error());
    sylva_analysis_t *an = NULL;
    sylva_analysis_info ai;
    if (!st) st = sylva_analyze(A, &o, &an, &ai);
    CHECK(st == SYLVA_OK && same_everywhere((int)ai.batches), "sylva_analyze: %s", sylva_last_error());
    sylva_factor_t *F = NULL;
    sylva_factor_info fi;
    if (!st) st = sylva_factorize(an, A, &F, &fi);
    CHECK(st == SYLVA_OK, "sylva_factorize: %s", sylva_last_error());
    CHECK(fi.ranks == ranks, "factor info: %d ranks", fi.ranks);
    if (!st) check_solve(F, A, "first factorization");
    double ld1 = 0;
    if (!st) CHECK(sylva_logdet(F, &ld1) == SYLVA_OK && same_double(ld1), "log det differs between ranks");
    /* The solve and log det left L on its ranks: rank 0 cannot estimate
     * the condition number until L is gathered there. */
    double rc = 0;
    if (!st && rank == 0 && ranks > 1)
        CHECK(sylva_rcond(F, A, &rc) == SYLVA_ERR_UNSUPPORTED, "sylva_rcond before L was gathered: %s",
              sylva_last_error());
    if (!st) CHECK(sylva_factor_to_host(F, NULL) == SYLVA_OK, "sylva_factor_to_host: %s", sylva_last_error());
    if (!st && rank == 0) CHECK(sylva_rcond(F, A, &rc) == SYLVA_OK && rc > 0, "sylva_rcond: %s", sylva_last_error());
    if (!st) check_blocks(F, A, &o);
    if (!st) check_single(A, &o);

    /* Every rank's record, the same everywhere. */
    double flops = 0, sent = 0, received = 0;
    for (int q = 0; !st && q < ranks; q++) {
        sylva_rank_info k;
        CHECK(sylva_factor_rank_info(F, q, &k) == SYLVA_OK, "rank info %d: %s", q, sylva_last_error());
        CHECK(same_double(k.bytes_sent) && same_double(k.flops), "rank %d's record differs between ranks", q);
        flops += k.flops;
        sent += k.bytes_sent;
        received += k.bytes_received;
    }
    if (!st) {
        sylva_rank_info k;
        CHECK(sylva_factor_rank_info(F, ranks, &k) == SYLVA_ERR_ARGUMENT, "rank info past the last rank");
        CHECK(fabs(flops - ai.flops) <= 1e-9 * ai.flops, "ranks' flops %.6e, matrix %.6e", flops, ai.flops);
        CHECK(sent == received && sent > 0, "bytes sent %.0f, received %.0f", sent, received);
    }

    /* New values (doubled): a refactorization on every rank. */
    if (rank == 0 && A)
        for (int64_t p = 0; p < A->nnz; p++) ((double *)A->values)[p] *= 2;
    if (!st) st = sylva_refactorize(F, A, &fi);
    CHECK(st == SYLVA_OK, "sylva_refactorize: %s", sylva_last_error());
    if (!st) {
        check_solve(F, A, "refactorization");
        double ld2 = 0, n = (double)ai.n;
        CHECK(sylva_logdet(F, &ld2) == SYLVA_OK, "log det: %s", sylva_last_error());
        CHECK(fabs(ld2 - (ld1 + n * log(2.0))) <= 1e-9 * fabs(ld2), "log det %.12g, want %.12g", ld2,
              ld1 + n * log(2.0));
    }

    /* Rank 1 runs out of memory from its k-th allocation on, in a solve. */
    int64_t scount = 0;
    double *sx = rank == 0 && A ? calloc((size_t)A->n + 1, sizeof *sx) : NULL;
    int64_t sn = rank == 0 && A ? A->n : 0;
    if (!st && ranks > 1) {
        if (rank == 1) sylva__alloc_fault_set(0, 0);
        st = sylva_solve(F, rank == 0 ? 1 : 0, sx, sn > 0 ? sn : 1);
        if (rank == 1) scount = sylva__alloc_fault_count();
        sylva__alloc_fault_set(-1, 0);
        MPI_Bcast(&scount, 1, MPI_INT64_T, 1, MPI_COMM_WORLD);
        CHECK(st == SYLVA_OK && scount > 0, "counting rank 1's allocations in a solve: %s (%lld)", sylva_last_error(),
              (long long)scount);
    }
    for (int64_t k = 1; !st && k <= scount; k++) {
        if (rank == 1) sylva__alloc_fault_set(k, 1);
        int s = sylva_solve(F, rank == 0 ? 1 : 0, sx, sn > 0 ? sn : 1);
        sylva__alloc_fault_set(-1, 0);
        CHECK(same_everywhere(s), "solve, k = %lld: the ranks returned different statuses (%d here)", (long long)k, s);
        CHECK(s == SYLVA_ERR_NO_MEMORY && strncmp(sylva_last_error(), "rank 1: ", 8) == 0,
              "solve, k = %lld: %s: '%s'", (long long)k, sylva_status_name(s), sylva_last_error());
    }
    free(sx);
    if (!st) check_solve(F, A, "after the solve's allocation failures");

    /* Rank 1 runs out of memory from its k-th allocation on. */
    int64_t count = 0;
    if (!st && ranks > 1) {
        if (rank == 1) sylva__alloc_fault_set(0, 0); /* count only */
        st = sylva_refactorize(F, A, &fi);
        if (rank == 1) count = sylva__alloc_fault_count();
        sylva__alloc_fault_set(-1, 0);
        MPI_Bcast(&count, 1, MPI_INT64_T, 1, MPI_COMM_WORLD);
        CHECK(st == SYLVA_OK && count > 0, "counting rank 1's allocations: %s (%lld)", sylva_last_error(),
              (long long)count);
    }
    int failures = 0;
    for (int64_t k = 1; !st && k <= count; k++) {
        if (rank == 1) sylva__alloc_fault_set(k, 1);
        int s = sylva_refactorize(F, A, &fi);
        sylva__alloc_fault_set(-1, 0);
        CHECK(same_everywhere(s), "k = %lld: the ranks returned different statuses (%d here)", (long long)k, s);
        if (s) {
            failures++;
            CHECK(s == SYLVA_ERR_NO_MEMORY && strncmp(sylva_last_error(), "rank 1: ", 8) == 0,
                  "k = %lld: %s: '%s'", (long long)k, sylva_status_name(s), sylva_last_error());
            s = sylva_refactorize(F, A, &fi);
            CHECK(s == SYLVA_OK, "k = %lld: the factorization after a failure: %s", (long long)k, sylva_last_error());
            if (s) break;
        }
        check_solve(F, A, "after an allocation failure");
    }
    CHECK(count == 0 || failures > 0, "no allocation failure of rank 1 failed the factorization");

    /* Not positive definite at the 100th column from the last eliminated
     * (bcsstk14: in the root front, whose 144 pivots are dealt over the
     * ranks in tiles of 48; the POTRF tiles after it run on other ranks on
     * garbage and fail too): every rank names that column. */
    if (!st) {
        int64_t n = ai.n, col = n > 100 ? sylva_analysis_perm(an)[n - 100] : 0;
        if (rank == 0)
            for (int64_t p = A->colptr[col]; p < A->colptr[col + 1]; p++)
                if (A->rowind[p] == col) ((double *)A->values)[p] = -1e3 * fabs(((double *)A->values)[p]) - 1;
        int s = sylva_refactorize(F, A, &fi);
        /* Named by the front statuses ("not positive"), not by the scan of
         * L's pivots for NaN that follows a factorization without one. */
        CHECK(s == SYLVA_ERR_NOT_SPD && fi.failed_column == col && same_everywhere((int)fi.failed_column) &&
                  strstr(sylva_last_error(), "is not positive") && !strstr(sylva_last_error(), "overflowed"),
              "not SPD at column %lld: status %d, column %lld, '%s'", (long long)col, s, (long long)fi.failed_column,
              sylva_last_error());
    }

    sylva_factor_free(F);
    sylva_analysis_free(an);
    sylva_matrix_free(A);
    sylva_finalize();
    int total = test_failures;
    MPI_Allreduce(MPI_IN_PLACE, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) printf("test_mpi_api: %d ranks, %lld fault points on rank 1\n", ranks, (long long)count);
    int code = test_exit("test_mpi_api");
    MPI_Finalize();
    return total ? (code ? code : 1) : 0;
}
