/* test_ready.c — the dynamic `ready` policy against the static ones on one
 * matrix (2 CPU workers, METIS):
 *   - the same factor: every front's L block bit for bit equal to `none`'s
 *     and `subtree`'s (the same arithmetic per front, whatever the batch;
 *     the layouts differ), the solve to c·n·ε, a refactorization too;
 *   - the run's batches (sylva_factor_batch_record): every front in exactly
 *     one, flops adding up, no batch holding a front and its parent, every
 *     batch measured (a worker, start ≤ end), the task records matching,
 *     and no device memory sample on a CPU run;
 *   - the GPU form of the run's plan (blobs built per batch, as a GPU run
 *     builds them when it cuts) run by the CPU twin of the GPU group run:
 *     one level per batch, and the same solution;
 *   - a GPU solve asked of the ready factor runs on the CPU, accurately,
 *     and sylva_solve_info.why_not_gpu says why (the run's layout of L);
 *   - a matrix made indefinite: the same failing column under every policy.
 *   test_ready SPEC [small=N] [tile=N]
 */
#include <math.h>

#include "api.h"
#include "gpu_plan.h"
#include "solve.h"
#include "test_util.h"

static sylva_analysis_t *analyze(const sylva_matrix *A, const sylva_options *base, const char *policy)
{
    sylva_options o = *base;
    o.policy = policy;
    sylva_analysis_t *an = NULL;
    CHECK(sylva_analyze(A, &o, &an, NULL) == SYLVA_OK, "analyze %s: %s", policy, sylva_last_error());
    return an;
}

/* Every front's block of F equals G's, bit for bit. */
static void same_factor(const sylva_factor_t *F, const sylva_factor_t *G, const char *what)
{
    const sylva__plan *pf = sylva__numeric_plan(F->num), *pg = sylva__numeric_plan(G->num);
    const double *lf = sylva__numeric_host_values(F->num), *lg = sylva__numeric_host_values(G->num);
    const sylva__tree *t = pf->tree;
    CHECK(t->nfronts == pg->tree->nfronts, "%s: trees differ", what);
    int64_t differ = 0;
    for (int64_t f = 0; f < t->nfronts; f++)
        if (memcmp(lf + pf->l_off[f], lg + pg->l_off[f], (size_t)(t->fronts[f].m * t->fronts[f].k) * sizeof *lf))
            differ++;
    CHECK(differ == 0, "%s: %lld fronts differ", what, (long long)differ);
}

/* The run's batch and task records against its plan. */
static void check_records(const sylva_factor_t *F, const sylva_factor_info *fi, const char *what)
{
    const sylva__plan *pl = sylva__numeric_plan(F->num);
    const sylva__tree *t = pl->tree;
    int64_t nb = sylva_factor_batch_count(F), fronts = 0, tasks = 0;
    CHECK(nb == fi->batches && nb == fi->tasks, "%s: %lld batch records, %lld batches", what, (long long)nb,
          (long long)fi->batches);
    double flops = 0;
    for (int64_t b = 0; b < nb; b++) {
        sylva_batch_record r;
        CHECK(sylva_factor_batch_record(F, b, &r) == SYLVA_OK, "%s: batch %lld", what, (long long)b);
        fronts += r.fronts;
        flops += r.flops;
        tasks += r.tasks;
        CHECK(r.worker >= 0 && r.tasks >= 1 && r.start <= r.end && r.seconds >= 0 && r.gflops >= 0,
              "%s: batch %lld not measured (worker %d, tasks %d, %g..%g)", what, (long long)b, r.worker, r.tasks,
              r.start, r.end);
        CHECK(r.min_rows <= r.mean_rows && r.mean_rows <= r.max_rows && r.padding >= 0 && r.padding < 1 &&
                  r.padding_level >= 0 && r.padding_level < 1 && (r.fronts > 1 || r.padding == 0),
              "%s: batch %lld statistics", what, (long long)b);
    }
    CHECK(fronts == t->nfronts, "%s: batches hold %lld fronts of %lld", what, (long long)fronts, (long long)t->nfronts);
    CHECK(fabs(flops - t->flops) <= 1e-9 * t->flops, "%s: batch flops %g of %g", what, flops, t->flops);
    CHECK(tasks == sylva_factor_task_count(F), "%s: %lld tasks in batches, %lld recorded", what, (long long)tasks,
          (long long)sylva_factor_task_count(F));
    for (int64_t f = 0; f < t->nfronts; f++) {
        int64_t b = sylva_factor_front_batch(F, f);
        CHECK(b >= 0 && b < nb, "%s: front %lld in no batch", what, (long long)f);
        if (t->fronts[f].parent >= 0 && !strcmp(pl->policy, "ready"))
            CHECK(b != sylva_factor_front_batch(F, t->fronts[f].parent), "%s: front %lld with its parent", what,
                  (long long)f);
    }
    sylva_task_record tr;
    CHECK(sylva_factor_task_record(F, tasks, &tr) == SYLVA_ERR_ARGUMENT, "%s: task past the last accepted", what);
    /* A run on CPU workers has no device memory to sample. */
    sylva_memory_sample ms;
    if (fi->mode == SYLVA_MODE_CPU)
        CHECK(sylva_factor_memory_sample_count(F) == 0 && sylva_factor_memory_sample(F, 0, &ms) == SYLVA_ERR_ARGUMENT,
              "%s: %lld device memory samples on CPU workers", what, (long long)sylva_factor_memory_sample_count(F));
}

/* The run's plan in its GPU form, run by the twin (as test_gpu_plan.c). */
static void twin_run(const sylva_factor_t *F, const sylva_matrix *A)
{
    const sylva__plan *pl = sylva__numeric_plan(F->num);
    int64_t ng = pl->ngroups, nl = pl->l_off[pl->tree->nfronts], n = A->n;
    double *L = malloc((size_t)(nl + 1) * sizeof *L), **pools = calloc((size_t)ng + 1, sizeof *pools);
    for (int64_t i = 0; i < nl; i++) L[i] = NAN;
    int64_t multi = 0;
    for (int64_t g = 0; g < ng; g++) {
        sylva__group_desc d;
        void *blob = NULL, *levels = NULL;
        CHECK(sylva__gpu_group_build(pl, g, &d, &blob, &levels) == SYLVA_OK, "blob of batch %lld", (long long)g);
        multi += d.nlevels != 1;
        pools[g] = calloc((size_t)d.cb_pool + 1, sizeof(double));
        double **child = calloc((size_t)d.nchild_pools + 1, sizeof *child);
        for (int s = 0; s < d.nchild_pools; s++) child[s] = pools[pl->dep_list[pl->dep_ptr[g] + s]];
        size_t wb = sylva__group_workspace_bytes(&d, 0);
        void *work = malloc(wb);
        memset(work, 0xff, wb);
        sylva__group_buffers b = {blob, A->values, L + pl->l_off[pl->front_list[pl->group_ptr[g]]], pools[g], child,
                                  work, wb};
        CHECK(sylva__group_factor_cpu(&d, &b, 1) == SYLVA_OK, "twin batch %lld", (long long)g);
        const int *info = sylva__group_info(&d, work);
        for (int i = 0; i < d.nfronts; i++) CHECK(info[i] == 0, "twin batch %lld front %d failed", (long long)g, i);
        free(work);
        free(child);
        free(blob);
        free(levels);
    }
    CHECK(multi == 0, "%lld ready batches with more than one level", (long long)multi);
    double *x = malloc((size_t)(n + 1) * sizeof *x), *b = malloc((size_t)(n + 1) * sizeof *b);
    for (int64_t i = 0; i < n; i++) b[i] = x[i] = test_rand();
    CHECK(sylva__d_solve_seq(pl, L, 1, x, n > 0 ? n : 1) == SYLVA_OK, "twin solve");
    double e = test_check_solution(A, x, b, 1, "twin of the ready run's blobs");
    printf("  twin of %lld ready batches: backward error %.2e\n", (long long)ng, e);
    for (int64_t g = 0; g < ng; g++) free(pools[g]);
    free(pools);
    free(L);
    free(x);
    free(b);
}

/* A GPU solve asked of a ready factor (its L has the run's layout; the
 * GPU solve works on the analysis'): it runs on the CPU, accurately, and
 * the info says why; a static policy's factor says why only when it is the
 * machine (no GPU worker), and nothing when the solve went where asked. */
static void gpu_solve_asked(const sylva_factor_t *ready, const sylva_factor_t *none, const sylva_matrix *A)
{
    int64_t n = A->n;
    double *x = malloc((size_t)(n + 1) * sizeof *x), *b = malloc((size_t)(n + 1) * sizeof *b);
    sylva_options o;
    sylva_default_options(&o);
    o.solve_mode = SYLVA_SOLVE_GPU;
    sylva_solve_info info;
    for (int64_t i = 0; i < n; i++) b[i] = x[i] = test_rand();
    CHECK(sylva_solve_ex(ready, &o, SYLVA_FLOAT64, 1, x, n > 0 ? n : 1, &info) == SYLVA_OK, "ready, GPU solve: %s",
          sylva_last_error());
    test_check_solution(A, x, b, 1, "ready, GPU solve asked");
    CHECK(info.mode != SYLVA_SOLVE_GPU && info.why_not_gpu &&
              strstr(info.why_not_gpu, "a dynamic policy's (ready) factor"),
          "ready, GPU solve asked: ran in %s, why: %s", sylva_solve_mode_name(info.mode),
          info.why_not_gpu ? info.why_not_gpu : "(none)");
    printf("  ready, GPU solve asked: on the %s: %s\n", sylva_solve_mode_name(info.mode),
           info.why_not_gpu ? info.why_not_gpu : "");
    for (int64_t i = 0; i < n; i++) b[i] = x[i] = test_rand();
    CHECK(sylva_solve_ex(none, &o, SYLVA_FLOAT64, 1, x, n > 0 ? n : 1, &info) == SYLVA_OK, "none, GPU solve: %s",
          sylva_last_error());
    test_check_solution(A, x, b, 1, "none, GPU solve asked");
    if (sylva_gpu_count() == 0)
        CHECK(info.mode != SYLVA_SOLVE_GPU && info.why_not_gpu && !strcmp(info.why_not_gpu, "no GPU worker"),
              "none, GPU solve asked without a GPU: ran in %s, why: %s", sylva_solve_mode_name(info.mode),
              info.why_not_gpu ? info.why_not_gpu : "(none)");
    else
        CHECK(info.mode != SYLVA_SOLVE_GPU || !info.why_not_gpu, "none, GPU solve on a GPU, yet a why: %s",
              info.why_not_gpu);
    o.solve_mode = SYLVA_SOLVE_CPU;
    CHECK(sylva_solve_ex(ready, &o, SYLVA_FLOAT64, 1, x, n > 0 ? n : 1, &info) == SYLVA_OK && !info.why_not_gpu,
          "ready, CPU solve asked: %s, why %s", sylva_last_error(), info.why_not_gpu ? info.why_not_gpu : "(none)");
    free(x);
    free(b);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_ready SPEC [small=N] [tile=N]\n");
        return 2;
    }
    test_seed();
    sylva_matrix *A = NULL;
    if (test_load(argv[1], &A)) {
        fprintf(stderr, "cannot load %s: %s\n", argv[1], sylva_last_error());
        return 1;
    }
    sylva_options o;
    sylva_default_options(&o);
    o.ordering = SYLVA_ORDERING_METIS;
    o.ncpus = 2;
    for (int i = 2; i < argc; i++) {
        if (!strncmp(argv[i], "small=", 6)) o.small_front_rows = atoll(argv[i] + 6);
        else if (!strncmp(argv[i], "tile=", 5)) o.tile_rows = atoll(argv[i] + 5);
    }
    CHECK(sylva_init(&o) == SYLVA_OK, "init: %s", sylva_last_error());
    const char *policies[] = {"ready", "none", "subtree", "level", "sized"};
    enum { NP = sizeof policies / sizeof policies[0] };
    sylva_analysis_t *an[NP];
    sylva_factor_t *F[NP];
    for (int p = 0; p < NP; p++) {
        an[p] = analyze(A, &o, policies[p]);
        sylva_factor_info fi;
        CHECK(sylva_factorize(an[p], A, &F[p], &fi) == SYLVA_OK, "factorize %s: %s", policies[p], sylva_last_error());
        check_records(F[p], &fi, policies[p]);
        if (p == 0) printf("%s: %lld fronts, ready cut %lld batches\n", argv[1], (long long)an[0]->tree->nfronts,
                           (long long)fi.batches);
    }
    same_factor(F[0], F[1], "ready vs none");
    same_factor(F[0], F[2], "ready vs subtree");
    int64_t n = A->n;
    double *x = malloc((size_t)(n + 1) * sizeof *x), *b = malloc((size_t)(n + 1) * sizeof *b);
    for (int64_t i = 0; i < n; i++) b[i] = x[i] = test_rand();
    CHECK(sylva_solve(F[0], 1, x, n > 0 ? n : 1) == SYLVA_OK, "solve: %s", sylva_last_error());
    printf("  ready solve: backward error %.2e\n", test_check_solution(A, x, b, 1, "ready solve"));
    twin_run(F[0], A);
    gpu_solve_asked(F[0], F[1], A);

    /* Refactorization: a new run, a new cut; the factor stays right. */
    sylva_factor_info fi;
    CHECK(sylva_refactorize(F[0], A, &fi) == SYLVA_OK, "refactorize: %s", sylva_last_error());
    check_records(F[0], &fi, "ready refactorized");
    same_factor(F[0], F[1], "ready refactorized vs none");

    /* Indefinite: the same failing column under every policy, at two places. */
    double *v = A->values;
    for (int place = 0; place < 2; place++) {
        int64_t j = place == 0 ? n / 2 : n / 7, col[NP];
        for (int64_t p = A->colptr[j]; p < A->colptr[j + 1]; p++)
            if (A->rowind[p] == j) v[p] = -v[p] * 1e3;
        for (int p = 0; p < NP; p++) {
            int st = sylva_refactorize(F[p], A, &fi);
            CHECK(st == SYLVA_ERR_NOT_SPD, "%s: indefinite matrix gave %d", policies[p], st);
            col[p] = fi.failed_column;
        }
        for (int p = 0; p < NP; p++)
            CHECK(col[p] == col[1] && col[p] >= 0, "%s reports column %lld, none %lld", policies[p],
                  (long long)col[p], (long long)col[1]);
        printf("  indefinite at %lld: column %lld under every policy\n", (long long)j, (long long)col[1]);
    }
    for (int p = 0; p < NP; p++) {
        sylva_factor_free(F[p]);
        sylva_analysis_free(an[p]);
    }
    free(x);
    free(b);
    sylva_matrix_free(A);
    sylva_finalize();
    return test_exit("test_ready");
}
