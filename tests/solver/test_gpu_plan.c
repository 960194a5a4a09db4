/* test_gpu_plan.c — the GPU form of a plan checked without a GPU: every
 * group's blob is run, in plan order, by the CPU twin of the GPU group run
 * (kernels/group_cpu.c: the same blob, the same workspace and pointer setup,
 * the same level schedule as the device), with one CB pool per group, and
 * again with the pools in one arena laid out as the direct GPU
 * factorization lays them (sylva__plan_cb_arena: pools alive at once
 * apart, freed ones reused; the arena poisoned with NaN first), which must
 * give the same factor bit for bit; and again with runs of small groups
 * through the tree launch's twin (kernels/tree_cpu.c) in a random order in
 * which children come first (every other run in the work list's own
 * order), on the arena with runs
 * (sylva__plan_cb_arena_runs), which must give that factor bit for bit
 * too. The
 * factor it makes must solve A x = b to c·n·ε, have the log-determinant the
 * regular factorization has, and on a matrix made indefinite report (by the
 * genuine-failure rule) the column the regular factorization reports; each
 * level's smallest and largest m and largest k match its fronts.
 *   test_gpu_plan SPEC POLICY [small=N]
 */
#include <math.h>

#include "api.h"
#include "gpu_plan.h"
#include "gpu_tree.h"
#include "solve.h"
#include "test_util.h"

/* A random order of a run's items in which children come first (the
 * order the GPU's blocks might take them): Kahn's algorithm drawing from
 * the ready items at random. */
static void random_order(const sylva__tree_launch *t, int64_t nfronts, int *order)
{
    int n = t->nitems, nready = 0;
    int *item_of = malloc((size_t)(nfronts + 1) * sizeof *item_of), *pending = calloc((size_t)n + 1, sizeof *pending);
    int *parent = malloc((size_t)(n + 1) * sizeof *parent), *ready = malloc((size_t)(n + 1) * sizeof *ready);
    for (int64_t f = 0; f < nfronts; f++) item_of[f] = -1;
    for (int e = 0; e < n; e++) {
        const sylva__tree_group *G = &t->groups[t->items[2 * e]];
        item_of[((const int64_t *)((const char *)G->blob + G->lay.front_id))[t->items[2 * e + 1]]] = e;
        parent[e] = -1;
    }
    for (int e = 0; e < n; e++) {
        const sylva__tree_group *G = &t->groups[t->items[2 * e]];
        const int i = t->items[2 * e + 1];
        const int *cp = (const int *)((const char *)G->blob + G->lay.ch_ptr);
        const int64_t *cf = (const int64_t *)((const char *)G->blob + G->lay.ch_front);
        for (int c = cp[i]; c < cp[i + 1]; c++)
            if (item_of[cf[c]] >= 0) {
                pending[e]++;
                parent[item_of[cf[c]]] = e;
            }
    }
    for (int e = 0; e < n; e++)
        if (!pending[e]) ready[nready++] = e;
    for (int q = 0; q < n; q++) {
        CHECK(nready > 0, "tree run: no ready item after %d of %d", q, n);
        if (nready <= 0) break;
        int r = rand() % nready, e = ready[r];
        ready[r] = ready[--nready];
        order[q] = e;
        if (parent[e] >= 0 && --pending[parent[e]] == 0) ready[nready++] = parent[e];
    }
    free(item_of);
    free(pending);
    free(parent);
    free(ready);
}

/* Run every group through the twin; fills L. mode 0: a CB pool per group;
 * 1: the pools in one arena as the direct factorization lays them; 2: that
 * arena with runs of small groups (budget: a fraction of the pools' sum,
 * so runs are cut), each run by the tree launch's twin in a random order.
 * Returns the failing column (user numbering, 0-based) or −1, by the rule
 * the runtime uses: the smallest column among failed fronts none of whose
 * descendants failed. */
static int64_t run_twin(const sylva__plan *pl, const sylva__gpu_plan *gp, const double *A, double *L, int mode)
{
    const sylva__tree *t = pl->tree;
    const int arena = mode > 0;
    double **pools = calloc((size_t)pl->ngroups + 1, sizeof *pools);
    int *info = calloc((size_t)t->nfronts + 1, sizeof *info);
    int64_t *size = calloc((size_t)pl->ngroups + 1, sizeof *size), *off = calloc((size_t)pl->ngroups + 1, sizeof *off);
    int64_t *run = calloc((size_t)pl->ngroups + 1, sizeof *run);
    char *eligible = calloc((size_t)pl->ngroups + 1, 1);
    int64_t total = 0, sum = 0;
    for (int64_t g = 0; g < pl->ngroups; g++) {
        eligible[g] = (char)(mode == 2 && sylva__gpu_group_tree_ok(&gp->groups[g]));
        size[g] = gp->groups[g].cb_pool + (eligible[g] ? gp->groups[g].scratch : 0);
        sum += size[g];
    }
    CHECK(sylva__plan_cb_arena_runs(pl, size, mode == 2 ? eligible : NULL, sum / 8, run, off, &total) == SYLVA_OK,
          "arena: %s", sylva_last_error());
    double *cb = arena ? malloc((size_t)(total + 1) * sizeof *cb) : NULL;
    for (int64_t i = 0; arena && i <= total; i++) cb[i] = NAN; /* each group must zero its pool */
    sylva__tree_group *tg = calloc((size_t)pl->ngroups + 1, sizeof *tg);
    double ***child = calloc((size_t)pl->ngroups + 1, sizeof *child);
    int *items = malloc((size_t)(t->nfronts + 1) * 2 * sizeof *items), *order = malloc((size_t)(t->nfronts + 1) * sizeof *order);
    int *done = calloc((size_t)t->nfronts + 1, sizeof *done), *front_run = malloc((size_t)(t->nfronts + 1) * sizeof(int));
    for (int64_t f = 0; f < t->nfronts; f++) front_run[f] = -1;
    for (int64_t g = 0; g < pl->ngroups; g++) {
        const sylva__group_desc *d = &gp->groups[g];
        pools[g] = arena ? cb + off[g] : calloc((size_t)d->cb_pool + 1, sizeof(double));
        child[g] = calloc((size_t)d->nchild_pools + 1, sizeof **child);
        for (int s = 0; s < d->nchild_pools; s++) child[g][s] = pools[pl->dep_list[pl->dep_ptr[g] + s]];
        int64_t first = pl->front_list[pl->group_ptr[g]];
        tg[g] = (sylva__tree_group){gp->blobs[g], L + pl->l_off[first], d->cb_pool > 0 ? pools[g] : NULL,
                                    pools[g] + d->cb_pool, child[g], d->lay};
    }
    int runs = 0;
    for (int64_t g = 0; g < pl->ngroups;) {
        const sylva__group_desc *d = &gp->groups[g];
        if (run[g] >= 0) {
            int n = 0, max_m = 0;
            int64_t end = g;
            for (; end < pl->ngroups && run[end] == run[g]; end++)
                for (int i = 0; i < gp->groups[end].nfronts; i++, n++) {
                    items[2 * n] = (int)end;
                    items[2 * n + 1] = i;
                    for (int l = 0; l < gp->groups[end].nlevels; l++)
                        if (gp->groups[end].level_max_m[l] > max_m) max_m = gp->groups[end].level_max_m[l];
                }
            for (int e = 0; e < n; e++) {
                const sylva__tree_group *G = &tg[items[2 * e]];
                front_run[((const int64_t *)((const char *)G->blob + G->lay.front_id))[items[2 * e + 1]]] = (int)run[g];
            }
            sylva__tree_launch tl = {tg, items, n, max_m, NULL, done, front_run, (int)run[g], 1, A, NULL, (int)g, (int)end};
            /* Every other run in the work list's own order (the order the
             * blocks claim items in; it must put children first too). */
            if (runs % 2) random_order(&tl, t->nfronts, order);
            CHECK(sylva__tree_factor_cpu(&tl, runs % 2 ? order : NULL, info) == SYLVA_OK, "tree run %lld: %s",
                  (long long)run[g], sylva_last_error());
            runs++;
            g = end;
            continue;
        }
        size_t wb = sylva__group_workspace_bytes(d, 0);
        void *work = malloc(wb);
        memset(work, 0xff, wb); /* the setup must write what the run reads */
        int64_t first = pl->front_list[pl->group_ptr[g]];
        sylva__group_buffers b = {gp->blobs[g], A, L + pl->l_off[first], pools[g], child[g], work, wb};
        CHECK(sylva__group_factor_cpu(d, &b, 1) == SYLVA_OK, "group %lld", (long long)g);
        const int *gi = sylva__group_info(d, work);
        const int64_t *ids = (const int64_t *)((const char *)gp->blobs[g] + d->lay.front_id);
        for (int i = 0; i < d->nfronts; i++) info[ids[i]] = gi[i];
        free(work);
        g++;
    }
    if (mode == 2) printf("  tree twin: %d runs\n", runs);
    for (int64_t g = 0; g < pl->ngroups; g++) free(child[g]);
    free(child);
    free(tg);
    free(items);
    free(order);
    free(done);
    free(front_run);
    free(run);
    free(eligible);
    int64_t col = -1;
    char *bad = calloc((size_t)t->nfronts + 1, 1); /* a descendant failed */
    for (int64_t f = 0; f < t->nfronts; f++) {
        for (int64_t c = t->child_ptr[f]; c < t->child_ptr[f + 1]; c++) {
            int64_t ch = t->child_list[c];
            if (bad[ch] || info[ch] != 0) bad[f] = 1;
        }
        if (info[f] > 0 && !bad[f]) {
            int64_t cc = t->perm[t->fronts[f].first_col + info[f] - 1];
            if (col < 0 || cc < col) col = cc;
        }
    }
    for (int64_t g = 0; g < pl->ngroups && !arena; g++) free(pools[g]);
    free(cb);
    free(size);
    free(off);
    free(pools);
    free(info);
    free(bad);
    return col;
}

/* Each level's extremes as the launches take them: the smallest and
 * largest m (the range entry skips the kernel classes below the smallest),
 * the largest k, over the level's fronts in the blob. */
static void check_levels(const sylva__gpu_plan *gp)
{
    for (int64_t g = 0; g < gp->ngroups; g++) {
        const sylva__group_desc *d = &gp->groups[g];
        const int *m = (const int *)((const char *)gp->blobs[g] + d->lay.m);
        const int *k = (const int *)((const char *)gp->blobs[g] + d->lay.k);
        for (int l = 0; l < d->nlevels; l++) {
            int lo = m[d->level_ptr[l]], hi = 0, hk = 0;
            for (int i = d->level_ptr[l]; i < d->level_ptr[l + 1]; i++) {
                if (m[i] < lo) lo = m[i];
                if (m[i] > hi) hi = m[i];
                if (k[i] > hk) hk = k[i];
            }
            CHECK(d->level_min_m[l] == lo && d->level_max_m[l] == hi && d->level_max_k[l] == hk,
                  "group %lld level %d: m in [%d, %d], k ≤ %d; the plan says [%d, %d], %d",
                  (long long)g, l, lo, hi, hk, d->level_min_m[l], d->level_max_m[l], d->level_max_k[l]);
        }
    }
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: test_gpu_plan SPEC POLICY [small=N]\n");
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
    o.policy = argv[2];
    o.ncpus = 2;
    if (argc > 3 && !strncmp(argv[3], "small=", 6)) o.small_front_rows = atoll(argv[3] + 6);
    CHECK(sylva_init(&o) == SYLVA_OK, "init: %s", sylva_last_error());
    sylva_analysis_t *an = NULL;
    CHECK(sylva_analyze(A, &o, &an, NULL) == SYLVA_OK, "analyze: %s", sylva_last_error());
    const sylva__plan *pl = an->plan;
    sylva__gpu_plan *gp = NULL;
    CHECK(sylva__gpu_plan_build(pl, &gp) == SYLVA_OK, "gpu plan: %s", sylva_last_error());
    check_levels(gp);
    int64_t n = A->n, nl = pl->l_off[pl->tree->nfronts];
    double *L = malloc((size_t)(nl + 1) * sizeof *L);
    for (int64_t i = 0; i < nl; i++) L[i] = NAN; /* every entry must be written */
    CHECK(run_twin(pl, gp, A->values, L, 0) == -1, "SPD matrix reported a failure");
    double *L2 = malloc((size_t)(nl + 1) * sizeof *L2);
    for (int64_t i = 0; i < nl; i++) L2[i] = NAN;
    CHECK(run_twin(pl, gp, A->values, L2, 1) == -1, "SPD matrix reported a failure (CB arena)");
    CHECK(memcmp(L, L2, (size_t)nl * sizeof *L) == 0, "the CB arena's factor differs from the separate pools'");
    for (int64_t i = 0; i < nl; i++) L2[i] = NAN;
    CHECK(run_twin(pl, gp, A->values, L2, 2) == -1, "SPD matrix reported a failure (tree launches)");
    CHECK(memcmp(L, L2, (size_t)nl * sizeof *L) == 0, "the tree launches' factor differs from the groups'");
    free(L2);
    double *b = malloc((size_t)(n + 1) * sizeof *b), *x = malloc((size_t)(n + 1) * sizeof *x);
    for (int64_t i = 0; i < n; i++) b[i] = x[i] = test_rand();
    CHECK(sylva__d_solve_seq(pl, L, 1, x, n > 0 ? n : 1) == SYLVA_OK, "solve");
    double e = test_check_solution(A, x, b, 1, "twin factor");
    printf("%s %s: %lld groups, blobs %.1f MB, twin factor backward error %.2e\n", argv[1], argv[2],
           (long long)pl->ngroups, gp->blob_bytes / 1e6, e);
    sylva_factor_t *F = NULL;
    CHECK(sylva_factorize(an, A, &F, NULL) == SYLVA_OK, "factorize: %s", sylva_last_error());
    double ld_ref = 0, ld = sylva__d_logdet(pl, L, NULL, 0);
    sylva_logdet(F, &ld_ref);
    CHECK(fabs(ld - ld_ref) <= 1e-10 * (fabs(ld_ref) + 1), "logdet %.15g vs %.15g", ld, ld_ref);
    sylva_factor_free(F);

    /* Indefinite: a negative diagonal entry half way; the same column. */
    double *v = A->values;
    int64_t j = n / 2;
    for (int64_t p = A->colptr[j]; p < A->colptr[j + 1]; p++)
        if (A->rowind[p] == j) v[p] = -v[p] * 1e3;
    sylva_factor_info fi;
    int st = sylva_factorize(an, A, &F, &fi);
    CHECK(st == SYLVA_ERR_NOT_SPD, "indefinite factorize gave %d", st);
    for (int mode = 0; mode < 3; mode++) {
        int64_t col = run_twin(pl, gp, A->values, L, mode);
        CHECK(col == fi.failed_column, "twin%s reports column %lld, the factorization %lld",
              mode == 1 ? " (CB arena)" : mode == 2 ? " (tree launches)" : "", (long long)col,
              (long long)fi.failed_column);
    }
    free(L);
    free(b);
    free(x);
    sylva__gpu_plan_free(gp);
    sylva_analysis_free(an);
    sylva_matrix_free(A);
    sylva_finalize();
    return test_exit("test_gpu_plan");
}
