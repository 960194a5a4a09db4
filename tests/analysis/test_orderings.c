/* test_orderings.c — every ordering returns a permutation, and the threaded
 * ones are reproducible. Modes (argv[1]):
 *   spec SPEC      a generated or Matrix Market matrix
 *   special        disconnected graphs, isolated vertices, a dense row,
 *                  n = 0, 1, 2, an edgeless graph
 *   chain N        a path of N vertices (10⁶ in CTest: no deep recursion)
 *   rng            METIS's per-thread random stream: same permutations as
 *                  libc's shared stream, the caller's rand() untouched,
 *                  concurrent METIS calls identical to serial ones
 * In spec/special/chain: nd-parallel on 1, 2 and 4 threads gives one
 * permutation (and twice the same on 4), Scotch twice the same on 2, and
 * the caller's CPU affinity and SIGABRT/SIGTERM handlers are unchanged;
 * auto picks nd-parallel (2 threads, n ≥ 16384) or metis (1 thread).
 * SYLVA_METIS_SHARED_RNG=1 (set by CTest for one run) must force the
 * serialized METIS path; otherwise the per-thread stream must be installed.
 */
#include <metis.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>

#include "frontal.h"
#include "order_internal.h"
#include "test_util.h"

typedef struct named {
    const char *name;
    int threads;
} named;

static const named orderings[] = {{"metis", 1},       {"amd", 1},         {"natural", 1}, {"auto", 2},
                                  {"nd-parallel", 1}, {"nd-parallel", 2}, {"nd-parallel", 4},
                                  {"scotch", 1},      {"scotch", 2}};
enum { NORDERINGS = sizeof orderings / sizeof orderings[0] };

static int is_perm(int64_t n, const int64_t *p)
{
    char *seen = calloc((size_t)n + 1, 1);
    int ok = 1;
    for (int64_t i = 0; ok && i < n; i++) {
        ok = p[i] >= 0 && p[i] < n && !seen[p[i]];
        if (ok) seen[p[i]] = 1;
    }
    free(seen);
    return ok;
}

static int64_t *order(const sylva_matrix *A, const char *name, int threads, const char *what)
{
    sylva_options o;
    sylva_default_options(&o);
    o.ordering = sylva_ordering_from_name(name);
    o.ncpus = threads;
    int64_t *perm = malloc((size_t)A->n * sizeof *perm + 8);
    for (int64_t i = 0; i < A->n; i++) perm[i] = -7;
    int st = sylva__order(A, &o, perm);
    CHECK(st == SYLVA_OK, "%s: %s on %d threads failed: %s", what, name, threads, sylva_last_error());
    if (st) {
        free(perm);
        return NULL;
    }
    CHECK(is_perm(A->n, perm), "%s: %s on %d threads: not a permutation", what, name, threads);
    return perm;
}

static void same(int64_t n, const int64_t *a, const int64_t *b, const char *what, const char *how)
{
    if (!a || !b) return;
    int64_t i = 0;
    while (i < n && a[i] == b[i]) i++;
    CHECK(i == n, "%s: %s: permutations differ at %lld", what, how, (long long)i);
}

/* The threaded orderings leave the caller's CPU affinity and signal
 * handlers as they were (Scotch binds threads; METIS swaps handlers). */
static void check_process_state(const cpu_set_t *cpus0, const char *what)
{
    cpu_set_t cpus;
    sched_getaffinity(0, sizeof cpus, &cpus);
    CHECK(CPU_EQUAL(&cpus, cpus0), "%s: the caller's CPU affinity changed", what);
    struct sigaction abrt, term;
    sigaction(SIGABRT, NULL, &abrt);
    sigaction(SIGTERM, NULL, &term);
    CHECK(abrt.sa_handler == SIG_DFL && term.sa_handler == SIG_DFL, "%s: SIGABRT/SIGTERM handlers left changed",
          what);
}

static void check_all(const sylva_matrix *A, const char *what)
{
    int64_t *p[NORDERINGS];
    cpu_set_t cpus0;
    sched_getaffinity(0, sizeof cpus0, &cpus0);
    for (int k = 0; k < NORDERINGS; k++) p[k] = order(A, orderings[k].name, orderings[k].threads, what);
    check_process_state(&cpus0, what);
    /* auto on 2 threads: nd-parallel from 16384 vertices on, else METIS. */
    same(A->n, p[3], A->n >= 16384 ? p[5] : p[0], what, "auto on 2 threads vs its documented choice");
    int64_t *serial_auto = order(A, "auto", 1, what);
    same(A->n, serial_auto, p[0], what, "auto on 1 thread vs metis");
    free(serial_auto);
    same(A->n, p[4], p[5], what, "nd-parallel 1 vs 2 threads");
    same(A->n, p[4], p[6], what, "nd-parallel 1 vs 4 threads");
    int64_t *again = order(A, "nd-parallel", 4, what);
    same(A->n, p[6], again, what, "nd-parallel 4 threads, twice");
    free(again);
    again = order(A, "scotch", 2, what);
    same(A->n, p[8], again, what, "scotch 2 threads, twice");
    free(again);
    for (int k = 0; k < NORDERINGS; k++) free(p[k]);
    printf("  %-34s n %8lld: %d orderings ok\n", what, (long long)A->n, NORDERINGS);
}

/* Lower CSC with a full diagonal from an edge list (either orientation). */
static sylva_matrix *from_edges(int64_t n, int64_t ne, const int64_t *e)
{
    int64_t *colptr = calloc((size_t)n + 1, sizeof *colptr), *rowind = malloc((size_t)(n + ne) * sizeof *rowind + 8);
    for (int64_t j = 0; j < n; j++) colptr[j + 1] = 1;
    for (int64_t k = 0; k < ne; k++) colptr[(e[2 * k] < e[2 * k + 1] ? e[2 * k] : e[2 * k + 1]) + 1]++;
    for (int64_t j = 0; j < n; j++) colptr[j + 1] += colptr[j];
    int64_t *next = malloc((size_t)n * sizeof *next + 8);
    for (int64_t j = 0; j < n; j++) {
        next[j] = colptr[j] + 1;
        rowind[colptr[j]] = j;
    }
    for (int64_t k = 0; k < ne; k++) {
        int64_t a = e[2 * k], b = e[2 * k + 1];
        rowind[next[a < b ? a : b]++] = a < b ? b : a;
    }
    sylva_matrix *A = NULL;
    int st = sylva_matrix_from_csc(n, colptr, rowind, NULL, 1, &A);
    CHECK(st == SYLVA_OK, "building a test graph: %s", sylva_last_error());
    free(colptr);
    free(rowind);
    free(next);
    return A;
}

/* Edges of an nx × ny 5-point grid whose vertices start at `base`. */
static int64_t grid_edges(int64_t base, int64_t nx, int64_t ny, int64_t *e)
{
    int64_t k = 0;
    for (int64_t y = 0; y < ny; y++)
        for (int64_t x = 0; x < nx; x++) {
            int64_t v = base + x + nx * y;
            if (x + 1 < nx) e[2 * k] = v, e[2 * k + 1] = v + 1, k++;
            if (y + 1 < ny) e[2 * k] = v, e[2 * k + 1] = v + nx, k++;
        }
    return k;
}

static void run_graph(int64_t n, int64_t ne, int64_t *e, const char *what)
{
    sylva_matrix *A = from_edges(n, ne, e);
    if (A) check_all(A, what);
    sylva_matrix_free(A);
}

static void special(void)
{
    enum { G = 120 }; /* 14,400-vertex grids: big enough to be dissected */
    int64_t *e = malloc(sizeof *e * 2 * (8 * G * G + 100000));
    int64_t ne;
    /* Two grids and 5,000 isolated vertices, interleaved with nothing. */
    ne = grid_edges(0, G, G, e);
    ne += grid_edges(G * G + 5000, G, G, e + 2 * ne);
    run_graph(2 * G * G + 5000, ne, e, "two grids + 5000 isolated");
    /* 3,000 small components (paths of 7) and a grid. */
    ne = grid_edges(0, G, G, e);
    for (int64_t c = 0; c < 3000; c++)
        for (int64_t i = 0; i < 6; i++) {
            e[2 * ne] = G * G + 7 * c + i;
            e[2 * ne + 1] = G * G + 7 * c + i + 1;
            ne++;
        }
    run_graph(G * G + 21000, ne, e, "grid + 3000 paths");
    /* A dense row: vertex 0 adjacent to every vertex of a grid. */
    ne = grid_edges(1, G, G, e);
    for (int64_t v = 1; v <= G * G; v++) {
        e[2 * ne] = 0;
        e[2 * ne + 1] = v;
        ne++;
    }
    run_graph(G * G + 1, ne, e, "grid + dense row");
    /* A star alone: all separators are the centre. */
    ne = 0;
    for (int64_t v = 1; v < 20000; v++) e[2 * ne] = v, e[2 * ne + 1] = 0, ne++;
    run_graph(20000, ne, e, "star of 20000");
    run_graph(30000, 0, e, "edgeless 30000");
    run_graph(0, 0, e, "empty");
    run_graph(1, 0, e, "one vertex");
    e[0] = 0, e[1] = 1;
    run_graph(2, 1, e, "one edge");
    free(e);
}

static void chain(int64_t n)
{
    int64_t *e = malloc(sizeof *e * 2 * (size_t)n);
    for (int64_t i = 0; i + 1 < n; i++) e[2 * i] = i, e[2 * i + 1] = i + 1;
    char what[64];
    snprintf(what, sizeof what, "chain of %lld", (long long)n);
    run_graph(n, n - 1, e, what);
    free(e);
}

/* ---- METIS's random stream */

typedef struct metis_job {
    idx_t n, *xadj, *adj, *perm;
} metis_job;

static void *metis_node_nd(void *arg)
{
    metis_job *J = arg;
    idx_t nv = J->n, options[METIS_NOPTIONS], *iperm = malloc((size_t)J->n * sizeof *iperm);
    METIS_SetDefaultOptions(options);
    options[METIS_OPTION_NUMBERING] = 0;
    int rc = METIS_NodeND(&nv, J->xadj, J->adj, NULL, options, J->perm, iperm);
    CHECK(rc == METIS_OK, "METIS_NodeND returned %d", rc);
    free(iperm);
    return NULL;
}

static void rng(void)
{
    sylva_matrix *A = NULL;
    if (test_load("lap3d7:20", &A)) return;
    int32_t *xadj, *adj;
    CHECK(!sylva__adjacency32(A->n, A->colptr, A->rowind, "test", &xadj, &adj), "adjacency");
    enum { T = 4 };
    metis_job jobs[T + 1];
    for (int t = 0; t <= T; t++) {
        jobs[t].n = (idx_t)A->n;
        jobs[t].xadj = malloc((size_t)(A->n + 1) * sizeof(idx_t));
        jobs[t].adj = malloc((size_t)xadj[A->n] * sizeof(idx_t));
        memcpy(jobs[t].xadj, xadj, (size_t)(A->n + 1) * sizeof(idx_t));
        memcpy(jobs[t].adj, adj, (size_t)xadj[A->n] * sizeof(idx_t));
        jobs[t].perm = malloc((size_t)A->n * sizeof(idx_t));
    }
    /* jobs[T]: METIS on libc's stream, before sylva redirects it. */
    metis_node_nd(&jobs[T]);
    CHECK(sylva__metis_rng_private() == 1, "METIS's rand/srand could not be redirected");
    srand(5);
    int r1 = rand(), r2 = rand();
    srand(5);
    CHECK(rand() == r1, "the caller's rand() stream changed");
    metis_node_nd(&jobs[0]); /* reseeds METIS's own stream only */
    CHECK(rand() == r2, "METIS still draws from the caller's rand() stream");
    for (idx_t i = 0; i < jobs[0].n; i++)
        if (jobs[0].perm[i] != jobs[T].perm[i]) {
            CHECK(0, "METIS_NodeND differs on the per-thread stream at %d", (int)i);
            break;
        }
    for (int round = 0; round < 3; round++) {
        pthread_t tid[T];
        for (int t = 0; t < T; t++) pthread_create(&tid[t], NULL, metis_node_nd, &jobs[t]);
        for (int t = 0; t < T; t++) pthread_join(tid[t], NULL);
        for (int t = 0; t < T; t++)
            for (idx_t i = 0; i < jobs[t].n; i++)
                if (jobs[t].perm[i] != jobs[T].perm[i]) {
                    CHECK(0, "concurrent METIS_NodeND (round %d, thread %d) differs at %d", round, t, (int)i);
                    break;
                }
    }
    printf("  METIS_NodeND: per-thread stream = libc stream, %d concurrent calls x 3 identical\n", T);
    for (int t = 0; t <= T; t++) {
        free(jobs[t].xadj);
        free(jobs[t].adj);
        free(jobs[t].perm);
    }
    free(xadj);
    free(adj);
    sylva_matrix_free(A);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_orderings spec SPEC | special | chain N | rng\n");
        return 2;
    }
    int shared = getenv("SYLVA_METIS_SHARED_RNG") != NULL;
    if (strcmp(argv[1], "rng"))
        CHECK(sylva__metis_rng_private() == !shared, "METIS stream %s, expected %s",
              sylva__metis_rng_private() ? "per-thread" : "shared (serialized)", shared ? "shared" : "per-thread");
    if (!strcmp(argv[1], "spec") && argc > 2) {
        sylva_matrix *A = NULL;
        if (test_load(argv[2], &A)) {
            fprintf(stderr, "cannot load %s: %s\n", argv[2], sylva_last_error());
            return 1;
        }
        check_all(A, argv[2]);
        sylva_matrix_free(A);
    } else if (!strcmp(argv[1], "special")) special();
    else if (!strcmp(argv[1], "chain") && argc > 2) chain(atoll(argv[2]));
    else if (!strcmp(argv[1], "rng")) rng();
    else return 2;
    printf("%s\n", test_failures ? "FAILED" : "ok");
    return test_failures ? 1 : 0;
}
