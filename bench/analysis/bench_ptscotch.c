/* bench_ptscotch.c — PT-Scotch's parallel nested dissection (Debian's
 * libptscotch-dev) against serial METIS, for issue 35's item 1 (a faster
 * ordering at METIS's fill): `mpirun -n P bench-ptscotch SPEC...` orders
 * each generated matrix (sylva-gen specs, lap3d7:60) over P processes and
 * prints, on rank 0, PT-Scotch's ordering time (best of --repeat R, the
 * graph's distribution not counted; its default strategy, and the same
 * with the leaves' amalgamation off as sylva's Scotch ordering has it) and
 * its fill — nnz(L) and flops of
 * sylva's analysis with that permutation (SYLVA_ORDERING_USER) — against
 * serial METIS's (sylva's analysis with ordering metis, timed the same way).
 * Every rank generates the whole matrix and builds its block of vertices
 * (the adjacency of A's pattern without the diagonal). Not a test: a
 * measurement (docs/analysis.md). Fails with a message and exit 1. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <scotch/ptscotch.h>

#include "order_internal.h"
#include "sylva.h"
#include "sylva_gen.h"

static int die(const char *what)
{
    fprintf(stderr, "bench-ptscotch: %s\n", what);
    MPI_Abort(MPI_COMM_WORLD, 1);
    return 1;
}

/* The adjacency of the vertices [lo, hi) of A's symmetric pattern (A holds
 * the lower triangle by columns): both directions, no diagonal. */
static void local_graph(const sylva_matrix *A, int64_t lo, int64_t hi, SCOTCH_Num **vert, SCOTCH_Num **edge)
{
    int64_t n = A->n, *deg = calloc((size_t)n, sizeof *deg);
    for (int64_t j = 0; j < n; j++)
        for (int64_t p = A->colptr[j]; p < A->colptr[j + 1]; p++)
            if (A->rowind[p] != j) deg[j]++, deg[A->rowind[p]]++;
    *vert = malloc((size_t)(hi - lo + 1) * sizeof **vert);
    int64_t m = 0;
    for (int64_t v = lo; v < hi; v++) (*vert)[v - lo] = (SCOTCH_Num)m, m += deg[v];
    (*vert)[hi - lo] = (SCOTCH_Num)m;
    *edge = malloc((size_t)(m + 1) * sizeof **edge);
    int64_t *fill = calloc((size_t)(hi - lo + 1), sizeof *fill);
    for (int64_t j = 0; j < n; j++)
        for (int64_t p = A->colptr[j]; p < A->colptr[j + 1]; p++) {
            int64_t i = A->rowind[p];
            if (i == j) continue;
            if (j >= lo && j < hi) (*edge)[(*vert)[j - lo] + fill[j - lo]++] = (SCOTCH_Num)i;
            if (i >= lo && i < hi) (*edge)[(*vert)[i - lo] + fill[i - lo]++] = (SCOTCH_Num)j;
        }
    free(fill);
    free(deg);
}

/* PT-Scotch's default strategy for `procs` processes (balance 0.2, as
 * frontal/order_scotch.c), and with leaf_amalgamation 0 the same with its
 * leaves' column-block amalgamation off (cmin=N -> cmin=0, as sylva's
 * Scotch ordering does: CHOLMOD makes its own supernodes). */
static void build_strategy(SCOTCH_Strat *s, int procs, int leaf_amalgamation)
{
    SCOTCH_stratInit(s);
    if (SCOTCH_stratDgraphOrderBuild(s, SCOTCH_STRATDEFAULT, procs, 0, 0.2)) die("SCOTCH_stratDgraphOrderBuild failed");
    if (leaf_amalgamation) return;
    static char text[1 << 16];
    FILE *f = fmemopen(text, sizeof text, "w");
    if (!f || SCOTCH_stratSave(s, f)) die("SCOTCH_stratSave failed");
    long len = ftell(f);
    fclose(f);
    text[len] = '\0';
    sylva__strategy_cmin0(text);
    SCOTCH_stratExit(s);
    SCOTCH_stratInit(s);
    if (SCOTCH_stratDgraphOrder(s, text)) die("SCOTCH_stratDgraphOrder failed");
}

/* PT-Scotch's ordering of A over the world's ranks: on rank 0 perm (new →
 * old, n), and the best time of `repeat`. */
static double ptscotch_order(const sylva_matrix *A, int repeat, int leaf_amalgamation, int64_t *perm)
{
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int64_t n = A->n, lo = n * rank / size, hi = n * (rank + 1) / size;
    SCOTCH_Num *vert, *edge;
    local_graph(A, lo, hi, &vert, &edge);
    SCOTCH_Num *peri_loc = malloc((size_t)(hi - lo + 1) * sizeof *peri_loc);
    double best = 1e300;
    for (int r = 0; r < repeat; r++) {
        SCOTCH_Dgraph g;
        SCOTCH_Dordering o;
        SCOTCH_Strat s;
        if (SCOTCH_dgraphInit(&g, MPI_COMM_WORLD) ||
            SCOTCH_dgraphBuild(&g, 0, (SCOTCH_Num)(hi - lo), (SCOTCH_Num)(hi - lo), vert, vert + 1, NULL, NULL,
                               vert[hi - lo], vert[hi - lo], edge, NULL, NULL))
            die("SCOTCH_dgraphBuild failed");
        build_strategy(&s, size, leaf_amalgamation);
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        if (SCOTCH_dgraphOrderInit(&g, &o) || SCOTCH_dgraphOrderCompute(&g, &o, &s)) die("SCOTCH_dgraphOrderCompute failed");
        MPI_Barrier(MPI_COMM_WORLD);
        double t = MPI_Wtime() - t0;
        if (t < best) best = t;
        if (SCOTCH_dgraphOrderPerm(&g, &o, peri_loc)) die("SCOTCH_dgraphOrderPerm failed");
        SCOTCH_dgraphOrderExit(&g, &o);
        SCOTCH_stratExit(&s);
        SCOTCH_dgraphExit(&g);
    }
    /* peri: old → new, gathered on rank 0, inverted into perm. */
    int *counts = malloc((size_t)size * sizeof *counts), *displs = malloc((size_t)size * sizeof *displs);
    for (int q = 0; q < size; q++) {
        displs[q] = (int)(n * q / size);
        counts[q] = (int)(n * (q + 1) / size) - displs[q];
    }
    SCOTCH_Num *peri = rank == 0 ? malloc((size_t)(n + 1) * sizeof *peri) : NULL;
    MPI_Gatherv(peri_loc, (int)(hi - lo), MPI_INT, peri, counts, displs, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 0)
        for (int64_t v = 0; v < n; v++) perm[peri[v]] = v;
    free(peri);
    free(counts);
    free(displs);
    free(peri_loc);
    free(vert);
    free(edge);
    return best;
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int repeat = 3, first = 1;
    if (argc > 2 && !strcmp(argv[1], "--repeat")) repeat = atoi(argv[2]), first = 3;
    if (first >= argc) return die("usage: mpirun -n P bench-ptscotch [--repeat R] SPEC...");
    if (rank == 0)
        printf("| matrix | n | METIS (s) | PT-Scotch, %d process%s (s) | nnz(L) ratio | flops ratio | "
               "leaf amalgamation off: (s) | nnz(L) ratio | flops ratio |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n",
               size, size == 1 ? "" : "es");
    for (int a = first; a < argc; a++) {
        sylva_matrix *A = NULL;
        if (sylva_gen_from_spec(argv[a], &A)) return die(sylva_last_error());
        int64_t *perm[2];
        double t_pt[2];
        for (int v = 0; v < 2; v++) {
            perm[v] = malloc((size_t)(A->n + 1) * sizeof *perm[v]);
            t_pt[v] = ptscotch_order(A, repeat, v == 0, perm[v]);
        }
        if (rank == 0) {
            sylva_options o;
            sylva_default_options(&o);
            o.ncpus = 1;
            sylva_analysis_info metis, pts[2];
            double t_metis = 1e300;
            for (int r = 0; r < repeat; r++) {
                sylva_analysis_t *an = NULL;
                o.ordering = SYLVA_ORDERING_METIS;
                if (sylva_analyze(A, &o, &an, &metis)) return die(sylva_last_error());
                if (metis.seconds_ordering < t_metis) t_metis = metis.seconds_ordering;
                sylva_analysis_free(an);
            }
            for (int v = 0; v < 2; v++) {
                sylva_analysis_t *an = NULL;
                o.ordering = SYLVA_ORDERING_USER;
                o.user_perm = perm[v];
                if (sylva_analyze(A, &o, &an, &pts[v])) return die(sylva_last_error());
                sylva_analysis_free(an);
            }
            printf("| %s | %lld | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f |\n", argv[a], (long long)A->n, t_metis,
                   t_pt[0], (double)pts[0].nnz_L / (double)metis.nnz_L, pts[0].flops / metis.flops, t_pt[1],
                   (double)pts[1].nnz_L / (double)metis.nnz_L, pts[1].flops / metis.flops);
            fflush(stdout);
        }
        free(perm[0]);
        free(perm[1]);
        sylva_matrix_free(A);
    }
    MPI_Finalize();
    return 0;
}
