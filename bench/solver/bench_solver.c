/* bench_solver.c — sylva against CHOLMOD (supernodal, Debian's SuiteSparse)
 * and, where its library is given, NVIDIA cuDSS, on the same matrices in
 * one run. sylva runs in each mode asked (gpu, hybrid, cpu) with each
 * policy asked; every sylva and CHOLMOD row factors the same ordering (the
 * first analysis' METIS permutation, handed on), cuDSS orders the matrix
 * itself. Factorize times: the first (with sylva's per-pattern uploads on
 * GPUs) and the best of --repeat (refactorizations); on GPUs L stays there
 * (sylva's to_host is timed apart, as is the solve). Prints a table, last,
 * and writes every row as JSON.
 *   bench-solver [--threads T] [--repeat R] [--policies P,...|all]
 *                [--modes gpu,hybrid,cpu] [--small-rows N,...] [--cholmod-threads T,...|none]
 *                [--cudss LIB] [--in-process] [--gpu-solves-only] [--nrhs K,...]
 *                [--solve-block K] [--json F] SPEC...
 * SPEC: lap2d5:N, lap3d7:N, lap3d27:N, elast3d:N (N per side) or a .mtx
 * path. --cudss (or $SYLVA_CUDSS_LIB): path of libcudss.so.1.
 * --gpu-solves-only: time the GPU solves alone (the CPU and sequential
 * solves of a 10⁶-row matrix with 64 columns take minutes).
 * --solve-block K (or $BENCH_SOLVE_BLOCK): sylva's options.solve_block for
 * every solve (default 0, automatic); the JSON rows carry it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_solver.h"
#include "sylva_gen.h"

#define MAX_ROWS 512
#define MAX_ITEMS 16

/* A spec as rows name it: a file's base name, a generator spec as given. */
static const char *display_name(const char *spec)
{
    const char *slash = strrchr(spec, '/');
    return slash ? slash + 1 : spec;
}

/* Split "a,b,c" into items (pointers into a copy). */
static int split(const char *list, char *buf, size_t cap, const char **items)
{
    snprintf(buf, cap, "%s", list);
    int n = 0;
    for (char *s = strtok(buf, ","); s && n < MAX_ITEMS; s = strtok(NULL, ",")) items[n++] = s;
    return n;
}

double *bench_rhs(int64_t n, int64_t nrhs)
{
    double *B = malloc((size_t)(n * nrhs + 1) * sizeof *B);
    uint64_t x = 88172645463325252ull;
    for (int64_t i = 0; B && i < n * nrhs; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        B[i] = (double)(x >> 11) * 0x1p-52 - 1.0;
    }
    return B;
}

double bench_worst_berr(const sylva_matrix *A, const double *X, const double *B, int64_t nrhs)
{
    double w = 0;
    for (int64_t c = 0; c < nrhs; c++) {
        double e = sylva_backward_error(A, X + c * A->n, B + c * A->n);
        if (!(e <= w)) w = e;
    }
    return w;
}

/* Solve times per right-hand-side count: sequential / CPU tasks, GPU /
 * cuDSS on the same matrix, and the GPU's many-RHS throughput gain. */
static void print_solves(const bench_row *rows, int nrows)
{
    printf("\n%-20s %-13s %-12s %5s %9s %9s %7s %9s %9s %8s %8s %9s\n", "matrix", "solver", "config", "nrhs",
           "seq s", "cpu s", "seq/cpu", "gpu s", "cuDSS s", "gpu/cuDSS", "thru xK", "berr");
    for (int i = 0; i < nrows; i++) {
        const bench_row *r = &rows[i];
        if (!r->ok || !strcmp(r->solver, "cholmod")) continue;
        for (int q = 0; q < r->nsolves; q++) {
            const bench_solve *s = &r->solves[q];
            double cudss = 0;
            for (int j = 0; j < nrows; j++)
                if (!strcmp(rows[j].matrix, r->matrix) && !strcmp(rows[j].solver, "cudss") && rows[j].ok)
                    for (int p = 0; p < rows[j].nsolves; p++)
                        if (rows[j].solves[p].nrhs == s->nrhs) cudss = rows[j].solves[p].gpu;
            /* Throughput of this count against one right-hand side. */
            double one = 0;
            for (int p = 0; p < r->nsolves; p++)
                if (r->solves[p].nrhs == 1) one = r->solves[p].gpu;
            double thru = one > 0 && s->gpu > 0 ? (double)s->nrhs * one / s->gpu : 0;
            printf("%-20s %-13s %-12s %5lld %9.4f %9.4f %7.2f %9.4f %9.4f %8.2f %8.1f %9.1e\n", r->matrix,
                   r->solver, r->config, (long long)s->nrhs, s->seq, s->cpu, s->cpu > 0 ? s->seq / s->cpu : 0,
                   s->gpu, cudss, cudss > 0 && strcmp(r->solver, "cudss") ? s->gpu / cudss : 0, thru, s->berr);
        }
    }
    printf("(seq/cpu: the CPU solve's speedup over the sequential one; gpu/cuDSS < 1: faster than cuDSS; "
           "thru xK: K right-hand sides per second against one, on the GPU)\n");
}

static void print_table(const bench_row *rows, int nrows)
{
    printf("%-20s %-13s %-12s %9s %9s %8s %8s %9s %8s %8s %8s %8s %7s\n", "matrix", "solver", "config",
           "fact1 s", "fact s", "tohost s", "solve s", "berr", "x cuDSS", "x CHOLMOD", "peak MB",
           "pred MB", "x mem");
    for (int i = 0; i < nrows; i++) {
        const bench_row *r = &rows[i];
        double cudss = 0, cholmod = 0, cholmod_mem = 0;
        for (int j = 0; j < nrows; j++) {
            if (strcmp(rows[j].matrix, r->matrix) || !rows[j].ok) continue;
            if (!strcmp(rows[j].solver, "cudss")) cudss = rows[j].factor_best;
            if (!strcmp(rows[j].solver, "cholmod") && (cholmod == 0 || rows[j].factor_best < cholmod))
                cholmod = rows[j].factor_best;
            if (!strcmp(rows[j].solver, "cholmod") && (cholmod_mem == 0 || rows[j].peak_rss < cholmod_mem))
                cholmod_mem = rows[j].peak_rss;
        }
        if (!r->ok) {
            printf("%-20s %-13s %-12s  failed: %s\n", r->matrix, r->solver, r->config, r->note);
            continue;
        }
        printf("%-20s %-13s %-12s %9.4f %9.4f %8.4f %8.4f %9.1e %8.3f %8.3f %8.1f %8.1f %7.2f%s%s\n",
               r->matrix, r->solver, r->config, r->factor_first, r->factor_best, r->to_host, r->solve,
               r->berr, cudss > 0 ? r->factor_best / cudss : 0, cholmod > 0 ? r->factor_best / cholmod : 0,
               r->peak_rss / 1e6, r->predicted_peak / 1e6,
               cholmod_mem > 0 ? r->peak_rss / cholmod_mem : 0, r->note[0] ? "  " : "", r->note);
    }
    printf("(fact1: first factorization; fact: best of the repeats; x cuDSS, x CHOLMOD: fact / the "
           "reference's best fact on the same matrix, < 1 means faster; peak MB: the row's process' "
           "peak resident memory, pred MB: sylva's prediction of it, x mem: peak / CHOLMOD's)\n");
}

/* A sylva or CHOLMOD row as bench_isolated runs it. */
typedef struct row_job {
    const sylva_matrix *A;
    const bench_opts *o;
    sylva_exec_mode mode;
    const char *policy;
    int64_t small_rows;
    const int64_t *perm;
    int threads; /* CHOLMOD's */
} row_job;

static int sylva_row(void *arg, int64_t **perm_out, bench_row *r)
{
    const row_job *j = arg;
    return bench_sylva(j->A, j->o, j->mode, j->policy, j->small_rows, j->perm, perm_out, r);
}

static int cholmod_row(void *arg, int64_t **perm_out, bench_row *r)
{
    (void)perm_out;
    const row_job *j = arg;
    return bench_cholmod(j->A, j->perm, j->threads, j->o->repeat, r);
}

static int cudss_row(void *arg, int64_t **perm_out, bench_row *r)
{
    (void)perm_out;
    const row_job *j = arg;
    return bench_cudss(j->A, j->o->cudss, j->o, r);
}

/* Whether this machine has GPUs for sylva (in r->tasks_gpu). */
static int probe_gpus(void *arg, int64_t **perm_out, bench_row *r)
{
    (void)arg;
    (void)perm_out;
    sylva_options probe;
    sylva_default_options(&probe);
    int st = sylva_init(&probe);
    r->tasks_gpu = sylva_gpu_count();
    sylva_finalize();
    return st;
}

/* One row, in a process of its own unless --in-process. */
static int run_row(int in_process, bench_row_fn fn, row_job *j, int64_t **perm_out, bench_row *r)
{
    if (in_process) return fn(j, perm_out, r);
    return bench_isolated(fn, j, j->A->n, perm_out, r);
}

static void write_json(const char *path, const bench_row *rows, int nrows, const bench_opts *o)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "bench-solver: cannot write %s\n", path);
        return;
    }
    fprintf(f, "[\n");
    for (int i = 0; i < nrows; i++) {
        const bench_row *r = &rows[i];
        fprintf(f,
                "  {\"matrix\": \"%s\", \"solver\": \"%s\", \"config\": \"%s\", \"ok\": %s, \"note\": \"%s\", "
                "\"threads\": %d, \"repeat\": %d, \"solve_block\": %lld, \"device\": \"%s\", \"n\": %lld, "
                "\"nnz_L\": %lld, \"flops\": %.17g,\n"
                "   \"analyze\": %.6g, \"factorize_first\": %.6g, \"factorize\": %.6g, \"to_host\": %.6g, "
                "\"solve\": %.6g, \"backward_error\": %.3g, \"tasks\": %lld, \"tasks_gpu\": %lld, "
                "\"tasks_cpu\": %lld, \"gpu_busy\": %.6g, \"bytes_to_device\": %.17g, "
                "\"bytes_to_host\": %.17g, \"peak_device_bytes\": %.17g, \"gpu_seconds_batched\": %.6g, "
                "\"gpu_flops_batched\": %.6g, \"gpu_seconds_large\": %.6g, \"gpu_flops_large\": %.6g, "
                "\"peak_rss_bytes\": %.17g, \"predicted_peak_bytes\": %.17g,\n   \"solves\": [",
                r->matrix, r->solver, r->config, r->ok ? "true" : "false", r->note, o->threads, o->repeat,
                (long long)o->solve_block, r->device, (long long)r->n, (long long)r->nnz_L, r->flops, r->analyze,
                r->factor_first, r->factor_best, r->to_host, r->solve, r->berr, (long long)r->tasks,
                (long long)r->tasks_gpu, (long long)r->tasks_cpu, r->gpu_busy, r->bytes_to_device,
                r->bytes_to_host, r->peak_device, r->gpu_s_batched, r->gpu_f_batched, r->gpu_s_large,
                r->gpu_f_large, r->peak_rss, r->predicted_peak);
        for (int q = 0; q < r->nsolves; q++) {
            const bench_solve *b = &r->solves[q];
            fprintf(f,
                    "%s{\"nrhs\": %lld, \"gpu\": %.6g, \"gpu_upload\": %.6g, \"gpu_solve\": %.6g, "
                    "\"gpu_download\": %.6g, \"gpu_device\": %.6g, \"cpu\": %.6g, \"sequential\": %.6g, "
                    "\"backward_error\": %.3g}",
                    q ? ", " : "", (long long)b->nrhs, b->gpu, b->gpu_upload, b->gpu_solve, b->gpu_download,
                    b->gpu_device, b->cpu, b->seq, b->berr);
        }
        fprintf(f, "]}%s\n", i + 1 < nrows ? "," : "");
    }
    fprintf(f, "]\n");
    fclose(f);
}

int main(int argc, char **argv)
{
    bench_opts o = {.threads = -1, .repeat = 3, .cudss = getenv("SYLVA_CUDSS_LIB")};
    if (getenv("BENCH_SOLVE_BLOCK")) o.solve_block = atoll(getenv("BENCH_SOLVE_BLOCK"));
    const char *json = NULL, *policies = "subtree", *modes = NULL, *cholmod_threads = NULL;
    const char *small_list = "0", *nrhs_list = "1,64";
    int in_process = 0;
    static bench_row rows[MAX_ROWS];
    int nrows = 0;
    const char *specs[64];
    int nspecs = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--threads") && v) o.threads = atoi(argv[++i]);
        else if (!strcmp(a, "--repeat") && v) o.repeat = atoi(argv[++i]);
        else if (!strcmp(a, "--policies") && v) policies = argv[++i];
        else if (!strcmp(a, "--modes") && v) modes = argv[++i];
        else if (!strcmp(a, "--small-rows") && v) small_list = argv[++i];
        else if (!strcmp(a, "--cholmod-threads") && v) cholmod_threads = argv[++i];
        else if (!strcmp(a, "--cudss") && v) o.cudss = argv[++i];
        else if (!strcmp(a, "--nrhs") && v) nrhs_list = argv[++i];
        else if (!strcmp(a, "--solve-block") && v) o.solve_block = atoll(argv[++i]);
        else if (!strcmp(a, "--json") && v) json = argv[++i];
        else if (!strcmp(a, "--in-process")) in_process = 1;
        else if (!strcmp(a, "--gpu-solves-only")) o.gpu_solves_only = 1;
        else if (a[0] == '-') {
            fprintf(stderr, "bench-solver: unknown option %s\n", a);
            return 2;
        } else if (nspecs < 64) specs[nspecs++] = a;
    }
    if (o.repeat < 1) o.repeat = 1;
    if (o.solve_block < 0) {
        fprintf(stderr, "bench-solver: --solve-block %lld: must be 0 (automatic) or positive\n",
                (long long)o.solve_block);
        return 2;
    }
    char kbuf[128];
    const char *ks[MAX_ITEMS];
    int nk = strcmp(nrhs_list, "none") ? split(nrhs_list, kbuf, sizeof kbuf, ks) : 0;
    for (int q = 0; q < nk && o.n_nrhs < BENCH_MAX_NRHS; q++) {
        o.nrhs[o.n_nrhs] = atoll(ks[q]);
        if (o.nrhs[o.n_nrhs] < 1) {
            fprintf(stderr, "bench-solver: --nrhs %s: counts must be positive\n", nrhs_list);
            return 2;
        }
        o.n_nrhs++;
    }
    /* Default modes: every mode on a machine with GPUs, cpu otherwise
     * (asked in a child: CUDA started here would not survive the forks of
     * the rows). */
    if (!modes) {
        bench_row pr;
        memset(&pr, 0, sizeof pr);
        if (in_process) probe_gpus(NULL, NULL, &pr);
        else bench_isolated(probe_gpus, NULL, 0, NULL, &pr);
        modes = pr.tasks_gpu > 0 ? "gpu,hybrid,cpu" : "cpu";
    }
    char pbuf[512], mbuf[128], cbuf[128], sbuf[128];
    const char *pol[MAX_ITEMS], *mode[MAX_ITEMS], *cth[MAX_ITEMS], *sr[MAX_ITEMS];
    int nsr = split(small_list, sbuf, sizeof sbuf, sr);
    int npol = 0;
    if (!strcmp(policies, "all"))
        for (npol = 0; sylva_policy_name(npol) && npol < MAX_ITEMS; npol++) pol[npol] = sylva_policy_name(npol);
    else
        npol = split(policies, pbuf, sizeof pbuf, pol);
    int nmode = split(modes, mbuf, sizeof mbuf, mode);
    char tdefault[16];
    snprintf(tdefault, sizeof tdefault, "%d", o.threads > 0 ? o.threads : 4);
    int ncth = cholmod_threads && !strcmp(cholmod_threads, "none")
                   ? 0
                   : split(cholmod_threads ? cholmod_threads : tdefault, cbuf, sizeof cbuf, cth);
    for (int s = 0; s < nspecs; s++) {
        sylva_matrix *A = NULL;
        if (sylva_gen_from_spec(specs[s], &A)) {
            fprintf(stderr, "bench-solver: %s: %s\n", specs[s], sylva_last_error());
            return 1;
        }
        int64_t *perm = NULL;
        for (int m = 0; m < nmode; m++) {
            int em = sylva_exec_mode_from_name(mode[m]);
            if (em < 0) {
                fprintf(stderr, "bench-solver: unknown mode %s\n", mode[m]);
                return 2;
            }
            for (int p = 0; p < npol; p++)
                for (int q = 0; q < nsr && nrows < MAX_ROWS; q++) {
                    bench_row *r = &rows[nrows++];
                    memset(r, 0, sizeof *r);
                    snprintf(r->matrix, sizeof r->matrix, "%s", display_name(specs[s]));
                    row_job j = {A, &o, (sylva_exec_mode)em, pol[p], atoll(sr[q]), perm, 0};
                    run_row(in_process, sylva_row, &j, perm ? NULL : &perm, r);
                    fprintf(stderr, "done %s %s %s: %s (%.4f s)\n", specs[s], r->solver, r->config,
                            r->ok ? "ok" : r->note, r->factor_best);
                    if (json) write_json(json, rows, nrows, &o);
                }
        }
        for (int t = 0; t < ncth && perm && nrows < MAX_ROWS; t++) {
            bench_row *r = &rows[nrows++];
            memset(r, 0, sizeof *r);
            snprintf(r->matrix, sizeof r->matrix, "%s", display_name(specs[s]));
            row_job j = {A, &o, SYLVA_MODE_CPU, NULL, 0, perm, atoi(cth[t])};
            run_row(in_process, cholmod_row, &j, NULL, r);
            fprintf(stderr, "done %s cholmod %s (%.4f s)\n", specs[s], cth[t], r->factor_best);
            if (json) write_json(json, rows, nrows, &o);
        }
        if (o.cudss && nrows < MAX_ROWS) {
            bench_row *r = &rows[nrows++];
            memset(r, 0, sizeof *r);
            snprintf(r->matrix, sizeof r->matrix, "%s", display_name(specs[s]));
            row_job j = {A, &o, SYLVA_MODE_GPU, NULL, 0, NULL, 0};
            run_row(in_process, cudss_row, &j, NULL, r);
            fprintf(stderr, "done %s cudss: %s (%.4f s)\n", specs[s], r->ok ? "ok" : r->note, r->factor_best);
        }
        free(perm);
        sylva_matrix_free(A);
        if (json) write_json(json, rows, nrows, &o); /* after every row: a cut-off run keeps what it did */
    }
    print_table(rows, nrows);
    print_solves(rows, nrows);
    return 0;
}
