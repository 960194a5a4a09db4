/* test_gpu_solver.c — the whole factorization on the GPU against the CPU
 * path (exit 77 where there is no GPU):
 *   test_gpu_solver SPEC [policy=P|all] [modes=gpu,hybrid] [small=N] [compare=1]
 *                        [gpus=G] [maps=subtrees,scheduler] [balance=1] [tiles=N]
 *   test_gpu_solver SPEC memory
 * Every GPU of the machine is used; gpus=G skips (77) with fewer than G.
 * For each policy, mode and GPU mapping: the mode actually ran with GPU
 * tasks; the per-GPU statistics add up to the run's tasks, flops and L;
 * with balance=1 and several GPUs, the subtree mapping gives every GPU at
 * least a quarter of its even share of the flops; the
 * backward error of 1 and 16 right-hand sides is ≤ c·n·ε; in GPU-only mode
 * no byte came back to the host during the factorization, and on one GPU
 * the factorization checked the pivots there and sylva_logdet leaves L
 * there (the value checked against the CPU's with compare=1); a refactorization
 * uploads A's values and nothing else (the per-pattern maps stay on the
 * GPU), the first factorization more; with compare=1 (well-conditioned
 * generated matrices) L agrees with the CPU path's factor of the same plan
 * entry for entry (relative Frobenius difference ≤ 1e-10) and the
 * log-determinants agree; a matrix made indefinite reports the CPU path's
 * column. tiles=N: large fronts of more than N rows are factored as GPU
 * tile tasks (options.gpu_tile_rows), and a second indefinite matrix fails
 * late in the root front, inside one of its last tiles. `memory`: with a
 * device-memory limit at a third of L the factorization still runs
 * (StarPU evicts finished parts of L) and is accurate; with a limit below the largest task it stops with
 * SYLVA_ERR_NO_MEMORY and a message, before running anything.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api.h"
#include "check.h"
#include "sylva_gen.h"

static double rnd(void) { return 2.0 * rand() / (double)RAND_MAX - 1.0; }

static sylva_gpu_map map_opt = SYLVA_GPU_MAP_SUBTREES; /* the mapping being tested */
static int balance_check = 0;                         /* balance=1 */
static int64_t tile_rows = 0;                          /* tiles=N: options.gpu_tile_rows */

static void check_solve(const sylva_matrix *A, sylva_factor_t *F, int64_t nrhs, const char *what)
{
    int64_t n = A->n;
    double *B = malloc((size_t)(n * nrhs + 1) * sizeof *B), *X = malloc((size_t)(n * nrhs + 1) * sizeof *X);
    for (int64_t i = 0; i < n * nrhs; i++) X[i] = B[i] = rnd();
    CHECK(sylva_solve(F, nrhs, X, n) == SYLVA_OK, "%s: solve: %s", what, sylva_last_error());
    double tol = 4.0 * (double)n * DBL_EPSILON, worst = 0;
    for (int64_t c = 0; c < nrhs; c++) {
        double e = sylva_backward_error(A, X + c * n, B + c * n);
        if (!(e <= worst)) worst = e;
    }
    CHECK(worst <= tol, "%s: %lld rhs: backward error %.3e > %.3e", what, (long long)nrhs, worst, tol);
    printf("  %-36s nrhs %3lld: backward error %.2e\n", what, (long long)nrhs, worst);
    free(B);
    free(X);
}

static sylva_analysis_t *analyze(const sylva_matrix *A, const char *policy, sylva_exec_mode mode,
                                 int64_t small, const int64_t *perm, sylva_analysis_info *ai)
{
    sylva_options o;
    sylva_default_options(&o);
    o.policy = policy;
    o.mode = mode;
    o.small_front_rows = small;
    o.gpu_map = map_opt;
    o.gpu_tile_rows = tile_rows;
    if (perm) {
        o.ordering = SYLVA_ORDERING_USER;
        o.user_perm = perm;
    }
    sylva_analysis_t *an = NULL;
    CHECK(sylva_analyze(A, &o, &an, ai) == SYLVA_OK, "analyze: %s", sylva_last_error());
    return an;
}

/* ‖L_a − L_b‖_F / ‖L_b‖_F over every front (plans may differ in grouping,
 * not in fronts; a dynamic policy's layout is its run's plan). */
static double factor_difference(sylva_factor_t *Fa, sylva_factor_t *Fb)
{
    const sylva__plan *pa = sylva__numeric_plan(Fa->num), *pb = sylva__numeric_plan(Fb->num);
    const double *La = sylva__numeric_host_values(Fa->num), *Lb = sylva__numeric_host_values(Fb->num);
    if (!La || !Lb) return INFINITY;
    double d = 0, r = 0;
    const sylva__tree *t = pa->tree;
    for (int64_t f = 0; f < t->nfronts; f++) {
        const sylva__front *fr = &t->fronts[f];
        for (int64_t c = 0; c < fr->k; c++)
            for (int64_t i = c; i < fr->m; i++) {
                double a = La[pa->l_off[f] + i + c * fr->m], b = Lb[pb->l_off[f] + i + c * fr->m];
                d += (a - b) * (a - b);
                r += b * b;
            }
    }
    return sqrt(d / r);
}

/* Each GPU's share of the run: the shares add up to the run's GPU tasks,
 * flops and L; with balance_check, the subtree mapping of a static policy
 * gives every GPU at least a quarter of an even share of the flops. */
static void check_gpu_shares(sylva_factor_t *F, const sylva_factor_info *fi, const sylva_analysis_info *ai,
                             const char *policy, sylva_exec_mode mode, const char *what)
{
    double flops = 0, lbytes = 0;
    int64_t tasks = 0;
    for (int i = 0; i < fi->gpus; i++) {
        sylva_gpu_stats g;
        CHECK(sylva_factor_gpu_stats(F, i, &g) == SYLVA_OK, "%s: GPU %d stats: %s", what, i, sylva_last_error());
        tasks += g.tasks;
        flops += g.flops;
        lbytes += g.factor_bytes;
        printf("  GPU %d (device %d): %lld tasks, busy %.3f s, %.1f%% of the flops, L %.1f MB, peak %.1f MB, "
               "%.1f MB from the host, %.1f MB from other GPUs\n",
               i, g.device, (long long)g.tasks, g.busy_seconds, 100 * g.flops / fi->flops, g.factor_bytes / 1e6,
               g.peak_device_bytes / 1e6, g.bytes_from_host / 1e6, g.bytes_from_gpus / 1e6);
        if (balance_check && fi->gpus > 1 && map_opt == SYLVA_GPU_MAP_SUBTREES && mode == SYLVA_MODE_GPU &&
            strcmp(policy, "ready") != 0)
            CHECK(g.flops >= fi->flops / (4.0 * fi->gpus), "%s: GPU %d did %.1f%% of the flops", what, i,
                  100 * g.flops / fi->flops);
    }
    sylva_gpu_stats none;
    CHECK(sylva_factor_gpu_stats(F, fi->gpus, &none) == SYLVA_ERR_ARGUMENT, "%s: stats of GPU %d of %d", what,
          fi->gpus, fi->gpus);
    if (mode != SYLVA_MODE_GPU) return; /* hybrid: CPU workers did the rest */
    CHECK(tasks == fi->tasks_gpu, "%s: GPUs ran %lld tasks, %lld in all", what, (long long)tasks,
          (long long)fi->tasks_gpu);
    CHECK(fabs(flops - fi->flops) <= 1e-9 * fi->flops, "%s: GPUs did %.6e flops of %.6e", what, flops, fi->flops);
    CHECK(fabs(lbytes - ai->factor_bytes) <= 1e-9 * ai->factor_bytes, "%s: GPUs wrote %.6e bytes of L of %.6e", what,
          lbytes, ai->factor_bytes);
}

static void run_policy(sylva_matrix *A, const char *policy, sylva_exec_mode mode, int64_t small,
                       int compare, const int64_t *perm)
{
    char what[96];
    snprintf(what, sizeof what, "%s %s%s", sylva_exec_mode_name(mode), policy,
             sylva_gpu_count() > 1 ? (map_opt == SYLVA_GPU_MAP_SUBTREES ? " subtrees" : " scheduler") : "");
    sylva_analysis_info ai;
    sylva_analysis_t *an = analyze(A, policy, mode, small, perm, &ai);
    if (!an) return;
    sylva_factor_t *F = NULL;
    sylva_factor_info fi, ri;
    CHECK(sylva_factorize(an, A, &F, &fi) == SYLVA_OK, "%s: factorize: %s", what, sylva_last_error());
    if (!F) return;
    CHECK(fi.mode == mode, "%s: ran in mode %s", what, sylva_exec_mode_name(fi.mode));
    CHECK(fi.gpus == sylva_gpu_count(), "%s: ran on %d GPUs of %d", what, fi.gpus, sylva_gpu_count());
    check_gpu_shares(F, &fi, &ai, policy, mode, what);
    double a_bytes = 8.0 * (double)A->nnz;
    if (mode == SYLVA_MODE_GPU) {
        /* Hybrid runs may put any task on a CPU worker; GPU-only runs put
         * every one on a GPU, and nothing comes back. */
        CHECK(fi.tasks_gpu >= fi.tasks && fi.tasks_cpu == 0, "%s: %lld GPU, %lld CPU tasks of %lld", what,
              (long long)fi.tasks_gpu, (long long)fi.tasks_cpu, (long long)fi.tasks);
        CHECK(fi.bytes_to_host == 0, "%s: %.0f bytes came back to the host", what, fi.bytes_to_host);
        CHECK(fi.bytes_to_device > a_bytes, "%s: first factorization uploaded %.0f bytes, A alone is %.0f",
              what, fi.bytes_to_device, a_bytes);
    }
    /* One process, L on one GPU with the analysis' layout: the
     * factorization checked the pivots there (api/factor.c). */
    if (mode == SYLVA_MODE_GPU && strcmp(policy, "ready") != 0 && fi.gpus == 1) {
        CHECK(F->pivots_checked, "%s: the pivots were left unchecked after the factorization", what);
        /* The check summed the log-determinant there (compared with the
         * CPU factor's below, with compare=1): L stays on the GPU. */
        double ld = 0;
        CHECK(sylva_logdet(F, &ld) == SYLVA_OK && isfinite(ld), "%s: logdet %g: %s", what, ld, sylva_last_error());
        CHECK(sylva__numeric_on_device(F->num), "%s: sylva_logdet brought L to the host", what);
    }
    CHECK(sylva_refactorize(F, A, &ri) == SYLVA_OK, "%s: refactorize: %s", what, sylva_last_error());
    /* A static plan's per-pattern data stays on the GPU: a refactorization
     * uploads A's values only. The dynamic `ready` policy builds each
     * batch's data when it cuts it, so it uploads that again. */
    if (mode == SYLVA_MODE_GPU && strcmp(policy, "ready") != 0 && fi.gpus == 1)
        CHECK(ri.bytes_to_device == a_bytes, "%s: refactorization uploaded %.0f bytes, A's values are %.0f",
              what, ri.bytes_to_device, a_bytes);
    /* On several GPUs each one gets the values its tasks read, and a group
     * above the split may run on another GPU than the first time: still
     * never more than the first factorization's uploads plus A's values
     * once per other GPU. */
    if (mode == SYLVA_MODE_GPU && strcmp(policy, "ready") != 0 && fi.gpus > 1)
        CHECK(ri.bytes_to_device >= a_bytes && ri.bytes_to_device <= fi.bytes_to_device + (fi.gpus - 1) * a_bytes &&
                  ri.bytes_to_host == 0,
              "%s: refactorization on %d GPUs uploaded %.0f bytes (first %.0f, A's values %.0f), %.0f back", what,
              fi.gpus, ri.bytes_to_device, fi.bytes_to_device, a_bytes, ri.bytes_to_host);
    if (mode == SYLVA_MODE_GPU && strcmp(policy, "ready") == 0)
        CHECK(ri.bytes_to_device >= a_bytes && ri.bytes_to_host == 0 && ri.batches == ri.tasks,
              "%s: refactorization uploaded %.0f bytes (A's values are %.0f), %.0f back, %lld batches, %lld tasks",
              what, ri.bytes_to_device, a_bytes, ri.bytes_to_host, (long long)ri.batches, (long long)ri.tasks);
    printf("%s: %.3f s (refactorization %.3f s, GPU busy %.3f s), %lld GPU + %lld CPU tasks, "
           "%.1f MB up (%.1f MB on refactorization), peak device %.1f MB\n",
           what, fi.seconds, ri.seconds, ri.gpu_busy_seconds, (long long)ri.tasks_gpu,
           (long long)ri.tasks_cpu, fi.bytes_to_device / 1e6, ri.bytes_to_device / 1e6,
           fi.peak_device_bytes / 1e6);
    check_solve(A, F, 1, what);
    check_solve(A, F, 16, what);
    if (compare) {
        sylva_analysis_t *ac = analyze(A, policy, SYLVA_MODE_CPU, small, perm, NULL);
        sylva_factor_t *Fc = NULL;
        CHECK(sylva_factorize(ac, A, &Fc, NULL) == SYLVA_OK, "%s: CPU factorize", what);
        if (Fc) {
            double diff = factor_difference(F, Fc), ld = 0, ldc = 0;
            CHECK(diff <= 1e-10, "%s: L differs from the CPU factor by %.3e", what, diff);
            sylva_logdet(F, &ld);
            sylva_logdet(Fc, &ldc);
            CHECK(fabs(ld - ldc) <= 1e-10 * fabs(ldc), "%s: logdet %.15g vs CPU %.15g", what, ld, ldc);
            printf("  L vs CPU factor: relative difference %.2e\n", diff);
        }
        sylva_factor_free(Fc);
        sylva_analysis_free(ac);
    }
    sylva_factor_free(F);
    sylva_analysis_free(an);
}

/* A negative diagonal entry in column j: GPU and CPU runs name the same
 * column. */
static void check_not_spd(const sylva_matrix *A0, const char *policy, sylva_exec_mode mode, int64_t small,
                          const int64_t *perm, int64_t j)
{
    sylva_matrix *A = NULL;
    CHECK(sylva_matrix_convert(A0, SYLVA_FLOAT64, &A) == SYLVA_OK, "copy");
    double *v = A->values;
    for (int64_t p = A->colptr[j]; p < A->colptr[j + 1]; p++)
        if (A->rowind[p] == j) v[p] = -1e3 * fabs(v[p]) - 1;
    sylva_factor_info fg, fc;
    sylva_factor_t *F = NULL;
    sylva_analysis_t *ag = analyze(A, policy, mode, small, perm, NULL), *ac = analyze(A, policy, SYLVA_MODE_CPU, small, perm, NULL);
    int sg = sylva_factorize(ag, A, &F, &fg), sc = sylva_factorize(ac, A, &F, &fc);
    CHECK(sg == SYLVA_ERR_NOT_SPD && sc == SYLVA_ERR_NOT_SPD, "%s: statuses %d (GPU), %d (CPU)", policy, sg, sc);
    CHECK(fg.failed_column == fc.failed_column, "%s %s: GPU says column %lld, CPU %lld", sylva_exec_mode_name(mode),
          policy, (long long)fg.failed_column, (long long)fc.failed_column);
    printf("  not SPD (%s %s): column %lld on both\n", sylva_exec_mode_name(mode), policy,
           (long long)fg.failed_column + 1);
    sylva_analysis_free(ag);
    sylva_analysis_free(ac);
    sylva_matrix_free(A);
}

static int memory_test(sylva_matrix *A)
{
    sylva_options o;
    sylva_default_options(&o);
    o.mode = SYLVA_MODE_GPU;
    CHECK(sylva_init(&o) == SYLVA_OK, "init: %s", sylva_last_error());
    sylva_analysis_t *an = NULL;
    sylva_analysis_info ai;
    CHECK(sylva_analyze(A, &o, &an, &ai) == SYLVA_OK, "analyze");
    double factor = ai.factor_bytes;
    sylva_analysis_free(an);
    sylva_finalize();
    /* A third of L (lap2d5:600: 100 MB, its largest task about 20 MB): it
     * cannot all stay on the GPU, StarPU must evict finished parts. */
    o.device_memory = (int64_t)(factor / 3);
    if (o.device_memory < (64 << 20)) o.device_memory = 64 << 20;
    CHECK(sylva_init(&o) == SYLVA_OK, "init with a limit: %s", sylva_last_error());
    CHECK(sylva_analyze(A, &o, &an, &ai) == SYLVA_OK, "analyze");
    sylva_factor_t *F = NULL;
    sylva_factor_info fi;
    int st = sylva_factorize(an, A, &F, &fi);
    CHECK(st == SYLVA_OK, "limit %.0f MB (L is %.0f MB): %s", o.device_memory / 1e6, factor / 1e6, sylva_last_error());
    printf("device memory limited to %.0f MB for L of %.0f MB: %s, %.3f s, %.1f MB back to the host\n",
           o.device_memory / 1e6, factor / 1e6, st ? "failed" : "ok", fi.seconds, fi.bytes_to_host / 1e6);
    if (F) check_solve(A, F, 1, "evicting run");
    sylva_factor_free(F);
    sylva_analysis_free(an);
    sylva_finalize();
    /* Below the largest task: a clear refusal before anything runs. */
    o.device_memory = 1 << 20;
    CHECK(sylva_init(&o) == SYLVA_OK, "init with 1 MB: %s", sylva_last_error());
    CHECK(sylva_analyze(A, &o, &an, &ai) == SYLVA_OK, "analyze");
    F = NULL;
    st = sylva_factorize(an, A, &F, &fi);
    CHECK(st == SYLVA_ERR_NO_MEMORY && strstr(sylva_last_error(), "device memory"),
          "1 MB limit: status %d, '%s'", st, sylva_last_error());
    printf("device memory limited to 1 MB: %s\n", sylva_last_error());
    sylva_factor_free(F);
    sylva_analysis_free(an);
    sylva_finalize();
    return test_exit("test_gpu_solver memory");
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0); /* a run cut off by a timeout still shows how far it got */
    if (argc < 2) {
        fprintf(stderr, "usage: test_gpu_solver SPEC [policy=P|all] [modes=gpu,hybrid] [small=N] [compare=1] "
                        "[gpus=G] [maps=subtrees,scheduler] [balance=1] [tiles=N] | SPEC memory\n");
        return 2;
    }
    const char *seed = getenv("SYLVA_TEST_SEED");
    unsigned s = seed ? (unsigned)strtoul(seed, NULL, 10) : (unsigned)time(NULL);
    printf("seed %u (set SYLVA_TEST_SEED to replay)\n", s);
    srand(s);
    sylva_options o;
    sylva_default_options(&o);
    if (sylva_init(&o) != SYLVA_OK || sylva_gpu_count() == 0) {
        printf("no GPU: skipped\n");
        sylva_finalize();
        return 77;
    }
    printf("GPUs: %d (%s)\n", sylva_gpu_count(), sylva_gpu_name());
    sylva_matrix *A = NULL;
    if (sylva_gen_from_spec(argv[1], &A)) {
        fprintf(stderr, "cannot load %s: %s\n", argv[1], sylva_last_error());
        return 1;
    }
    if (argc > 2 && !strcmp(argv[2], "memory")) {
        sylva_finalize();
        int rc = memory_test(A);
        sylva_matrix_free(A);
        return rc;
    }
    const char *policy = "all", *modes = "gpu,hybrid", *maps = "subtrees";
    int64_t small = 0;
    int compare = 0, gpus = 1;
    for (int i = 2; i < argc; i++) {
        if (!strncmp(argv[i], "policy=", 7)) policy = argv[i] + 7;
        else if (!strncmp(argv[i], "maps=", 5)) maps = argv[i] + 5;
        else if (!strncmp(argv[i], "gpus=", 5)) gpus = atoi(argv[i] + 5);
        else if (!strncmp(argv[i], "balance=", 8)) balance_check = atoi(argv[i] + 8);
        else if (!strncmp(argv[i], "modes=", 6)) modes = argv[i] + 6;
        else if (!strncmp(argv[i], "small=", 6)) small = atoll(argv[i] + 6);
        else if (!strncmp(argv[i], "compare=", 8)) compare = atoi(argv[i] + 8);
        else if (!strncmp(argv[i], "tiles=", 6)) tile_rows = atoll(argv[i] + 6);
    }
    if (sylva_gpu_count() < gpus) {
        printf("%d GPUs here, the case needs %d: skipped\n", sylva_gpu_count(), gpus);
        sylva_matrix_free(A);
        sylva_finalize();
        return 77;
    }
    /* One ordering for every run (and a fixed small/large threshold when
     * comparing factors: the same fronts in both plans). */
    if (compare && small == 0) small = 256;
    sylva_analysis_t *first = analyze(A, "subtree", SYLVA_MODE_CPU, small, NULL, NULL);
    int64_t *perm = malloc((size_t)(A->n + 1) * sizeof *perm);
    memcpy(perm, sylva_analysis_perm(first), (size_t)A->n * sizeof *perm);
    sylva_analysis_free(first);
    for (int i = 0; sylva_policy_name(i); i++) {
        const char *p = sylva_policy_name(i);
        if (strcmp(policy, "all") && strcmp(policy, p)) continue;
        for (int m = SYLVA_MODE_GPU; m <= SYLVA_MODE_HYBRID; m++) {
            if (!strstr(modes, sylva_exec_mode_name(m))) continue;
            for (int g = SYLVA_GPU_MAP_SUBTREES; g <= SYLVA_GPU_MAP_SCHEDULER; g++) {
                if (!strstr(maps, sylva_gpu_map_name(g))) continue;
                map_opt = (sylva_gpu_map)g;
                run_policy(A, p, (sylva_exec_mode)m, small, compare, perm);
                check_not_spd(A, p, (sylva_exec_mode)m, small, perm, A->n / 3);
                /* The 71st column from the last eliminated: in the root
                 * front, in a tile after its first. */
                if (tile_rows > 0 && A->n > 71)
                    check_not_spd(A, p, (sylva_exec_mode)m, small, perm, perm[A->n - 71]);
            }
        }
    }
    free(perm);
    sylva_matrix_free(A);
    sylva_finalize();
    return test_exit("test_gpu_solver");
}
