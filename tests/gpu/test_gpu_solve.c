/* test_gpu_solve.c — the solve on the GPU against the CPU solve, after a
 * GPU factorization (exit 77 where there is no GPU):
 *   test_gpu_solve SPEC [policy=P] [small=N] [memory=MIB]
 * For 1, 64 and 20 right-hand sides (one column; 16 and 5 chunks of 4
 * columns): the GPU solve (mode AUTO: where the factor
 * is) runs on the GPU, has a backward error ≤ c·n·ε like the CPU solve of
 * the same factor, uploads the right-hand sides and downloads the
 * solution once (bytes moved: about the block each way, never L), and
 * leaves L on the device (the pivot check runs there too); the device-
 * pointer entry solves B in device memory with no transfer at all; 40
 * right-hand sides in blocks of 16 make three blocks; refinement on the
 * device (automatic; 4 and 20 columns) ends at or below where it started,
 * at a few ε; and a
 * CPU solve after it brings L to the host and agrees; a `ready` factor's
 * device-pointer solve runs on the CPU, accurately, and says why
 * (info.why_not_gpu). With memory=MIB
 * (options.device_memory) only the automatic block is tested: a block
 * whose workspace would not fit that memory beside L runs on the GPU in
 * smaller blocks, where an explicit block of that size runs on the CPU.
 */
#include <cuda_runtime.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api.h"
#include "check.h"
#include "sylva_gen.h"

static double rnd(void) { return 2.0 * rand() / (double)RAND_MAX - 1.0; }

static double worst_berr(const sylva_matrix *A, const double *X, const double *B, int64_t nrhs)
{
    double w = 0;
    for (int64_t c = 0; c < nrhs; c++) {
        double e = sylva_backward_error(A, X + c * A->n, B + c * A->n);
        if (!(e <= w)) w = e;
    }
    return w;
}

/* Solve nrhs random columns with `o` on host arrays; returns the worst
 * backward error and fills info. */
static double host_solve(const sylva_matrix *A, sylva_factor_t *F, const sylva_options *o, int64_t nrhs,
                         sylva_solve_info *info, const char *what)
{
    int64_t n = A->n;
    double *B = malloc((size_t)(n * nrhs) * sizeof *B), *X = malloc((size_t)(n * nrhs) * sizeof *X);
    for (int64_t i = 0; i < n * nrhs; i++) X[i] = B[i] = rnd();
    CHECK(sylva_solve_ex(F, o, SYLVA_FLOAT64, nrhs, X, n, info) == SYLVA_OK, "%s: %s", what, sylva_last_error());
    double e = worst_berr(A, X, B, nrhs), tol = 4.0 * (double)n * DBL_EPSILON;
    CHECK(e <= tol, "%s: %lld rhs: backward error %.3e > %.3e", what, (long long)nrhs, e, tol);
    free(B);
    free(X);
    return e;
}

static void gpu_vs_cpu(const sylva_matrix *A, sylva_factor_t *F, int64_t nrhs)
{
    char what[64];
    snprintf(what, sizeof what, "GPU solve, %lld rhs", (long long)nrhs);
    sylva_options o;
    sylva_default_options(&o);
    sylva_solve_info gi, ci;
    host_solve(A, F, &o, nrhs, &gi, what); /* the first call uploads the solve's blob */
    double eg = host_solve(A, F, &o, nrhs, &gi, what);
    CHECK(gi.mode == SYLVA_SOLVE_GPU, "%s ran in %s", what, sylva_solve_mode_name(gi.mode));
    double block = 8.0 * (double)A->n * (double)nrhs;
    CHECK(gi.bytes_to_host <= 1.01 * block && gi.bytes_to_host >= block,
          "%s: %.0f bytes to the host for a %.0f-byte block", what, gi.bytes_to_host, block);
    CHECK(gi.bytes_to_device <= 1.01 * block && gi.bytes_to_device >= block,
          "%s: %.0f bytes to the device for a %.0f-byte block", what, gi.bytes_to_device, block);
    CHECK(sylva__numeric_on_device(F->num), "%s: L left the device", what);
    printf("  %-22s backward error %.2e: upload %.2e s, solve %.2e s, download %.2e s\n", what, eg,
           gi.seconds_upload, gi.seconds_solve, gi.seconds_download);
    /* The device-pointer entry: no transfer. */
    int64_t n = A->n;
    double *B = malloc((size_t)(n * nrhs) * sizeof *B), *X = malloc((size_t)(n * nrhs) * sizeof *X), *dB = NULL;
    for (int64_t i = 0; i < n * nrhs; i++) B[i] = rnd();
    size_t bytes = (size_t)(n * nrhs) * sizeof *B;
    CHECK(cudaMalloc((void **)&dB, bytes) == cudaSuccess, "cudaMalloc");
    CHECK(cudaMemcpy(dB, B, bytes, cudaMemcpyHostToDevice) == cudaSuccess, "cudaMemcpy up");
    /* o: no refinement (the analysis' options refine, whose first use
     * uploads A's values and pattern). */
    CHECK(sylva_solve_device(F, &o, nrhs, dB, n, &gi) == SYLVA_OK, "solve_device: %s", sylva_last_error());
    CHECK(cudaMemcpy(X, dB, bytes, cudaMemcpyDeviceToHost) == cudaSuccess, "cudaMemcpy down");
    double ed = worst_berr(A, X, B, nrhs);
    CHECK(ed <= 4.0 * (double)n * DBL_EPSILON, "device entry, %lld rhs: backward error %.3e", (long long)nrhs, ed);
    CHECK(gi.mode == SYLVA_SOLVE_GPU && gi.bytes_to_host == 0 && gi.bytes_to_device == 0,
          "device entry: mode %s, %.0f bytes up, %.0f down", sylva_solve_mode_name(gi.mode), gi.bytes_to_device,
          gi.bytes_to_host);
    printf("  %-22s backward error %.2e (device pointers), solve %.2e s\n", what, ed, gi.seconds_solve);
    cudaFree(dB);
    free(B);
    free(X);
    /* The CPU solve of the same factor. */
    o.solve_mode = SYLVA_SOLVE_CPU;
    double ec = host_solve(A, F, &o, nrhs, &ci, "CPU solve");
    CHECK(ci.mode == SYLVA_SOLVE_CPU, "CPU solve ran in %s", sylva_solve_mode_name(ci.mode));
    printf("  %-22s backward error %.2e (CPU, L to host %.2e s)\n", "", ec, ci.seconds_to_host);
}

static void blocks_and_refinement(const sylva_matrix *A, sylva_factor_t *F)
{
    sylva_options o;
    sylva_default_options(&o);
    o.solve_block = 16;
    sylva_solve_info info;
    host_solve(A, F, &o, 40, &info, "GPU solve in blocks");
    CHECK(info.blocks == 3 && info.mode == SYLVA_SOLVE_GPU, "40 rhs in blocks of 16: %lld blocks, mode %s",
          (long long)info.blocks, sylva_solve_mode_name(info.mode));
    o.solve_block = 0;
    o.refine = SYLVA_REFINE_AUTO;
    for (int64_t nrhs = 4; nrhs <= 20; nrhs += 16) { /* one column chunk; five (the residual over them) */
        host_solve(A, F, &o, nrhs, &info, "GPU refinement");
        CHECK(info.mode == SYLVA_SOLVE_GPU, "refinement ran in %s", sylva_solve_mode_name(info.mode));
        CHECK(info.berr_before >= 0 && info.berr_after <= info.berr_before && info.berr_after <= 8 * DBL_EPSILON,
              "device refinement, %lld rhs: %.3e -> %.3e in %d steps", (long long)nrhs, info.berr_before,
              info.berr_after, info.refine_steps);
    }
    o.refine = 2;
    host_solve(A, F, &o, 1, &info, "GPU refinement, 2 steps");
    CHECK(info.refine_steps == 2 && info.seconds_refine > 0, "refine = 2: %d steps", info.refine_steps);
    printf("  device refinement: %.2e -> %.2e (%d steps, %.2e s)\n", info.berr_before, info.berr_after,
           info.refine_steps, info.seconds_refine);
}

/* Under options.device_memory = mem bytes: nrhs columns whose permuted
 * copy alone is larger than mem. The automatic block (solve_block = 0,
 * all of them) is halved until it fits: the solve runs on the GPU in
 * several blocks. An explicit block of a quarter of them (its workspace
 * about half of mem, within the device's size beside L, maybe not within
 * what is still free) runs on the GPU or the CPU, but ends, right (in
 * call 8 of docs/perf-log.md "The solve, v26" such a block waited forever
 * for memory); the whole block asked for explicitly does not fit and runs
 * on the CPU (last: a CPU solve brings L to the host). */
static void auto_block_halved(const sylva_matrix *A, sylva_factor_t *F, int64_t mem)
{
    const int64_t nrhs = mem / (8 * A->n) + 1;
    sylva_options o;
    sylva_default_options(&o);
    sylva_solve_info info;
    host_solve(A, F, &o, nrhs, &info, "automatic block");
    CHECK(info.mode == SYLVA_SOLVE_GPU && info.blocks >= 2, "%lld rhs, automatic block under %lld bytes: mode %s, "
          "%lld blocks", (long long)nrhs, (long long)mem, sylva_solve_mode_name(info.mode), (long long)info.blocks);
    printf("  automatic block: %lld rhs in %lld blocks on the GPU\n", (long long)nrhs, (long long)info.blocks);
    o.solve_block = nrhs / 4;
    host_solve(A, F, &o, nrhs, &info, "explicit quarter block");
    CHECK(info.blocks == (nrhs + o.solve_block - 1) / o.solve_block, "blocks of %lld: %lld",
          (long long)o.solve_block, (long long)info.blocks);
    printf("  explicit blocks of %lld: %lld blocks, %s\n", (long long)o.solve_block, (long long)info.blocks,
           sylva_solve_mode_name(info.mode));
    o.solve_block = nrhs;
    host_solve(A, F, &o, nrhs, &info, "explicit block");
    CHECK(info.mode == SYLVA_SOLVE_CPU && info.blocks == 1, "%lld rhs in one explicit block: mode %s, %lld blocks",
          (long long)nrhs, sylva_solve_mode_name(info.mode), (long long)info.blocks);
}

/* The direct solve (runtime/solve_gpu_direct.c) holds L on the GPU between
 * solves, unless SYLVA_SOLVE_DIRECT=0 (with several GPUs L may be spread
 * over them: held or not, both are right there); a refactorization with other values
 * (2A) must release it first (a stale L or A would leave a backward error
 * of 1/3), as must bringing L to the host, after which a GPU solve takes
 * the task; the factor is freed while held (main, after this). */
static void held_between_solves(const sylva_matrix *A, sylva_factor_t *F)
{
    const char *e = getenv("SYLVA_SOLVE_DIRECT");
    int direct = !(e && !strcmp(e, "0")), any = direct && sylva_gpu_count() > 1;
    sylva_options o;
    sylva_default_options(&o);
    sylva_solve_info info;
    host_solve(A, F, &o, 1, &info, "GPU solve (held)");
    CHECK(info.mode == SYLVA_SOLVE_GPU && (any || sylva__numeric_solve_held(F->num) == direct),
          "after a GPU solve: mode %s, held %d (direct %d)", sylva_solve_mode_name(info.mode),
          sylva__numeric_solve_held(F->num), direct);
    sylva_matrix A2 = *A;
    A2.owns_arrays = 0;
    double *v2 = malloc((size_t)A->nnz * sizeof *v2);
    for (int64_t p = 0; p < A->nnz; p++) v2[p] = 2.0 * ((const double *)A->values)[p];
    A2.values = v2;
    sylva_factor_info fi;
    CHECK(sylva_refactorize(F, &A2, &fi) == SYLVA_OK, "refactorize 2A: %s", sylva_last_error());
    CHECK(!sylva__numeric_solve_held(F->num), "held across a refactorization");
    o.refine = SYLVA_REFINE_AUTO; /* A's values on the device: 2A's now */
    host_solve(&A2, F, &o, 3, &info, "GPU solve of 2A, refined");
    CHECK(info.mode == SYLVA_SOLVE_GPU && info.berr_after <= 8 * DBL_EPSILON, "2A refined: mode %s, %.3e",
          sylva_solve_mode_name(info.mode), info.berr_after);
    o.refine = 0;
    o.solve_block = 2;
    host_solve(&A2, F, &o, 5, &info, "GPU solve of 2A in blocks");
    CHECK(info.blocks == 3 && (any || sylva__numeric_solve_held(F->num) == direct), "2A in blocks of 2: %lld blocks",
          (long long)info.blocks);
    double secs = 0;
    CHECK(sylva_factor_to_host(F, &secs) == SYLVA_OK, "to host: %s", sylva_last_error());
    CHECK(!sylva__numeric_solve_held(F->num), "held after sylva_factor_to_host");
    o.solve_block = 0;
    o.solve_mode = SYLVA_SOLVE_GPU; /* L on the host: the task's way */
    host_solve(&A2, F, &o, 1, &info, "GPU solve after to_host");
    CHECK(info.mode == SYLVA_SOLVE_GPU && !sylva__numeric_solve_held(F->num), "after to_host: mode %s, held %d",
          sylva_solve_mode_name(info.mode), sylva__numeric_solve_held(F->num));
    CHECK(sylva_refactorize(F, A, &fi) == SYLVA_OK, "refactorize A: %s", sylva_last_error());
    o.solve_mode = SYLVA_SOLVE_AUTO;
    host_solve(A, F, &o, 1, &info, "GPU solve of A again");
    CHECK(any || sylva__numeric_solve_held(F->num) == direct, "held again: %d", sylva__numeric_solve_held(F->num));
    printf("  held between solves: %d (refactorization, blocks, refinement, to_host, free)\n", direct);
    free(v2);
}

/* A dynamic policy's (ready) factor on device data: the GPU solve needs
 * the analysis' layout of L, so sylva_solve_device solves it on the CPU
 * (B copied to the host and back), accurately, and says why. */
static void ready_on_device(const sylva_matrix *A, const sylva_options *base)
{
    sylva_options o = *base;
    o.policy = "ready";
    sylva_analysis_t *an = NULL;
    sylva_factor_t *F = NULL;
    CHECK(sylva_analyze(A, &o, &an, NULL) == SYLVA_OK, "analyze ready: %s", sylva_last_error());
    CHECK(an && sylva_factorize(an, A, &F, NULL) == SYLVA_OK, "factorize ready: %s", sylva_last_error());
    int64_t n = A->n, nrhs = 3;
    size_t bytes = (size_t)(n * nrhs) * sizeof(double);
    double *B = malloc(bytes), *X = malloc(bytes), *dB = NULL;
    for (int64_t i = 0; i < n * nrhs; i++) B[i] = rnd();
    CHECK(cudaMalloc((void **)&dB, bytes) == cudaSuccess, "cudaMalloc");
    CHECK(cudaMemcpy(dB, B, bytes, cudaMemcpyHostToDevice) == cudaSuccess, "cudaMemcpy up");
    sylva_solve_info info;
    int st = F ? sylva_solve_device(F, NULL, nrhs, dB, n, &info) : SYLVA_ERR_ARGUMENT;
    CHECK(st == SYLVA_OK, "solve_device on a ready factor: %s", sylva_last_error());
    CHECK(cudaMemcpy(X, dB, bytes, cudaMemcpyDeviceToHost) == cudaSuccess, "cudaMemcpy down");
    double e = st ? 1 : worst_berr(A, X, B, nrhs);
    CHECK(e <= 4.0 * (double)n * DBL_EPSILON, "solve_device on a ready factor: backward error %.3e", e);
    CHECK(!st && info.mode != SYLVA_SOLVE_GPU && info.why_not_gpu && strstr(info.why_not_gpu, "dynamic policy"),
          "solve_device on a ready factor: mode %s, why %s", sylva_solve_mode_name(info.mode),
          info.why_not_gpu ? info.why_not_gpu : "(none)");
    printf("  ready factor, device pointers: backward error %.2e on the %s (%s)\n", e,
           sylva_solve_mode_name(info.mode), info.why_not_gpu ? info.why_not_gpu : "");
    cudaFree(dB);
    free(B);
    free(X);
    sylva_factor_free(F);
    sylva_analysis_free(an);
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0); /* a run cut off by a timeout still shows how far it got */
    if (argc < 2) {
        fprintf(stderr, "usage: test_gpu_solve SPEC [policy=P] [small=N]\n");
        return 2;
    }
    const char *seed_env = getenv("SYLVA_TEST_SEED");
    unsigned seed = seed_env ? (unsigned)strtoul(seed_env, NULL, 10) : (unsigned)time(NULL);
    printf("seed %u\n", seed);
    srand(seed);
    sylva_options o;
    sylva_default_options(&o);
    o.refine = SYLVA_REFINE_AUTO; /* the factor keeps A for the device refinement */
    for (int i = 2; i < argc; i++) {
        if (!strncmp(argv[i], "policy=", 7)) o.policy = argv[i] + 7;
        else if (!strncmp(argv[i], "small=", 6)) o.small_front_rows = atoll(argv[i] + 6);
        else if (!strncmp(argv[i], "memory=", 7)) o.device_memory = atoll(argv[i] + 7) << 20;
    }
    o.mode = SYLVA_MODE_GPU;
    if (sylva_init(&o) != SYLVA_OK || sylva_gpu_count() == 0) {
        printf("no GPU: skipped\n");
        sylva_finalize();
        return 77;
    }
    o.refine = 0; /* solves choose their own below; the analysis' setting keeps A */
    sylva_options ao = o;
    ao.refine = SYLVA_REFINE_AUTO;
    sylva_matrix *A = NULL;
    CHECK(sylva_gen_from_spec(argv[1], &A) == SYLVA_OK, "load %s: %s", argv[1], sylva_last_error());
    sylva_analysis_t *an = NULL;
    sylva_factor_t *F = NULL;
    sylva_factor_info fi;
    CHECK(A && sylva_analyze(A, &ao, &an, NULL) == SYLVA_OK, "analyze: %s", sylva_last_error());
    CHECK(an && sylva_factorize(an, A, &F, &fi) == SYLVA_OK, "factorize: %s", sylva_last_error());
    if (F) {
        CHECK(fi.mode == SYLVA_MODE_GPU, "factorized in %s", sylva_exec_mode_name(fi.mode));
        printf("%s: n = %lld, GPU factorization %.3f s\n", argv[1], (long long)A->n, fi.seconds);
    }
    if (F && o.device_memory > 0) auto_block_halved(A, F, o.device_memory);
    else if (F) {
        gpu_vs_cpu(A, F, 1);
        /* The CPU solve brought L to the host: factor again to have it on the device. */
        CHECK(sylva_refactorize(F, A, &fi) == SYLVA_OK, "refactorize: %s", sylva_last_error());
        gpu_vs_cpu(A, F, 64);
        CHECK(sylva_refactorize(F, A, &fi) == SYLVA_OK, "refactorize: %s", sylva_last_error());
        gpu_vs_cpu(A, F, 20); /* a number of columns that is not a power of two */
        CHECK(sylva_refactorize(F, A, &fi) == SYLVA_OK, "refactorize: %s", sylva_last_error());
        blocks_and_refinement(A, F);
        held_between_solves(A, F);
        if (strcmp(o.policy, "ready") != 0) ready_on_device(A, &o);
    }
    sylva_factor_free(F);
    sylva_analysis_free(an);
    sylva_matrix_free(A);
    sylva_finalize();
    return test_exit("test_gpu_solve");
}
