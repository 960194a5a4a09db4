/* bench_analysis.c — the analysis phase per ordering: ordering time, CHOLMOD's
 * supernodal symbolic analysis with that permutation alone
 * (cholmod_l_analyze_p, CHOLMOD_GIVEN, sylva's relaxation), sylva's map
 * building alone (relmap + amap, rebuilt on the tree), the whole
 * sylva__tree_build, and the fill (CHOLMOD's lnz and fl for that
 * permutation) against serial METIS_NodeND on the same matrix.
 *   bench-analysis [--threads N] [--orderings LIST] [--repeat R] [--json F] SPEC...
 * LIST is comma-separated NAME or NAME:THREADS (default
 * metis,nd-parallel:1,nd-parallel:2,nd-parallel:N,scotch:1,scotch:N,amd with
 * N = --threads, default all CPUs); metis always runs first (the reference).
 * Prints a table; with --json, writes the JSON rows after every matrix.
 * Exit 1 on any failure, including an ordering that is not a permutation.
 */
#include <cholmod.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "frontal.h"
#include "json.h"
#include "order_internal.h"
#include "sylva.h"
#include "sylva_cholmod.h"
#include "sylva_gen.h"
#include "tree_maps.h"

enum { MAX_ORDERINGS = 16, MAX_ROWS = 256 };

typedef struct run {
    const char *matrix;
    char ordering[32];
    int threads;
    int64_t n, nnz_A;
    double order_s, symbolic_s, maps_s, tree_s, lnz, fl;
    double lnz_ratio, fl_ratio, speedup; /* against serial METIS; speedup of ordering + symbolic */
} run;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int is_permutation(int64_t n, const int64_t *perm)
{
    char *seen = calloc((size_t)n + 1, 1);
    int ok = seen != NULL;
    for (int64_t i = 0; ok && i < n; i++) {
        ok = perm[i] >= 0 && perm[i] < n && !seen[perm[i]];
        if (ok) seen[perm[i]] = 1;
    }
    free(seen);
    return ok;
}

/* CHOLMOD's supernodal analysis alone, as sylva__tree_build runs it. */
static int cholmod_symbolic(const sylva_matrix *A, const int64_t *perm, const sylva_options *o, run *r)
{
    cholmod_common cc;
    cholmod_l_start(&cc);
    cc.print = 0;
    cc.nmethods = 1;
    cc.method[0].ordering = CHOLMOD_GIVEN;
    cc.postorder = 1;
    cc.supernodal = CHOLMOD_SUPERNODAL;
    for (int i = 0; i < 3; i++) {
        cc.nrelax[i] = (size_t)o->nrelax[i];
        cc.zrelax[i] = o->zrelax[i];
    }
    cholmod_sparse S;
    sylva_matrix_cholmod_view(A, &S);
    S.xtype = CHOLMOD_PATTERN;
    double t0 = now();
    cholmod_factor *L = cholmod_l_analyze_p(&S, (SuiteSparse_long *)perm, NULL, 0, &cc);
    r->symbolic_s = now() - t0;
    r->lnz = cc.lnz;
    r->fl = cc.fl;
    int ok = L != NULL && cc.status == CHOLMOD_OK;
    cholmod_l_free_factor(&L, &cc);
    cholmod_l_finish(&cc);
    return ok ? 0 : -1;
}

static int measure(const sylva_matrix *A, const char *name, int threads, int repeat, run *r)
{
    sylva_options o;
    sylva_default_options(&o);
    o.ordering = sylva_ordering_from_name(name);
    o.ncpus = threads;
    if ((int)o.ordering < 0) {
        fprintf(stderr, "bench-analysis: unknown ordering %s\n", name);
        return -1;
    }
    int64_t *perm = malloc((size_t)A->n * sizeof *perm + 1);
    if (!perm) return -1;
    r->order_s = 1e300;
    for (int k = 0; k < repeat; k++) {
        double t0 = now();
        if (sylva__order(A, &o, perm)) {
            fprintf(stderr, "bench-analysis: %s: %s\n", name, sylva_last_error());
            free(perm);
            return -1;
        }
        double t = now() - t0;
        if (t < r->order_s) r->order_s = t;
    }
    if (!is_permutation(A->n, perm)) {
        fprintf(stderr, "bench-analysis: %s: result is not a permutation\n", name);
        free(perm);
        return -1;
    }
    int status = cholmod_symbolic(A, perm, &o, r);
    sylva__tree *tree = NULL;
    double t0 = now();
    if (!status) status = sylva__tree_build(A, perm, &o, &tree);
    r->tree_s = now() - t0;
    if (!status) { /* the maps alone, built again on the same tree */
        free(tree->relmap);
        free(tree->amap_ptr);
        free(tree->amap_src);
        free(tree->amap_dst);
        tree->relmap = tree->amap_ptr = tree->amap_src = tree->amap_dst = NULL;
        t0 = now();
        status = sylva__tree_maps(tree, A, sylva__order_threads(o.ncpus));
        r->maps_s = now() - t0;
    }
    sylva__tree_free(tree);
    free(perm);
    if (status) fprintf(stderr, "bench-analysis: %s: symbolic analysis failed: %s\n", name, sylva_last_error());
    return status ? -1 : 0;
}

static int parse_orderings(const char *list, int nthreads, char names[][32], int *threads)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s", list);
    int k = 0;
    for (char *tok = strtok(buf, ","); tok && k < MAX_ORDERINGS; tok = strtok(NULL, ",")) {
        char *colon = strchr(tok, ':');
        threads[k] = nthreads;
        if (colon) {
            *colon = '\0';
            threads[k] = colon[1] == 'N' ? nthreads : atoi(colon + 1);
        }
        snprintf(names[k], 32, "%s", tok);
        if (threads[k] < 1) return -1;
        k++;
    }
    return k;
}

static double total(const run *r) { return r->order_s + r->tree_s; }

static void print_table(const run *rows, int nrows, int nthreads)
{
    printf("threads %d (N); seconds (ordering: best of the repeats); ratios against serial METIS\n", nthreads);
    printf("%-14s %8s %-12s %3s | %8s %8s %7s %8s | %12s %9s | %6s %6s %7s\n", "matrix", "n", "ordering", "thr",
           "order", "symbolic", "maps", "analysis", "nnz(L)", "GFLOP", "nnzL x", "flop x", "speedup");
    for (int i = 0; i < nrows; i++) {
        const run *r = &rows[i];
        printf("%-14s %8lld %-12s %3d | %8.3f %8.3f %7.3f %8.3f | %12.0f %9.2f | %6.3f %6.3f %7.2f\n", r->matrix,
               (long long)r->n, r->ordering, r->threads, r->order_s, r->symbolic_s, r->maps_s, total(r), r->lnz,
               r->fl * 1e-9, r->lnz_ratio, r->fl_ratio, r->speedup);
    }
    printf("(symbolic = cholmod_l_analyze_p with the permutation, alone; maps = sylva's relmap + amap on the\n"
           " row's threads; analysis = ordering + sylva__tree_build (CHOLMOD + fronts + maps), no batching plan;\n"
           " speedup = METIS's analysis / this row's, same matrix)\n");
}

static int write_json(const char *path, const run *rows, int nrows)
{
    json_writer j;
    if (json_open(&j, path, '[')) return -1;
    for (int i = 0; i < nrows; i++) {
        const run *r = &rows[i];
        json_begin(&j, NULL, '{');
        json_str(&j, "matrix", r->matrix);
        json_int(&j, "n", r->n);
        json_int(&j, "nnz_A", r->nnz_A);
        json_str(&j, "ordering", r->ordering);
        json_int(&j, "threads", r->threads);
        json_num(&j, "order_s", r->order_s);
        json_num(&j, "symbolic_s", r->symbolic_s);
        json_num(&j, "maps_s", r->maps_s);
        json_num(&j, "tree_build_s", r->tree_s);
        json_num(&j, "analysis_s", total(r));
        json_num(&j, "nnz_L", r->lnz);
        json_num(&j, "flops", r->fl);
        json_num(&j, "nnz_L_ratio", r->lnz_ratio);
        json_num(&j, "flops_ratio", r->fl_ratio);
        json_num(&j, "speedup", r->speedup);
        json_end(&j);
    }
    return json_close(&j) == SYLVA_OK ? 0 : -1;
}

int main(int argc, char **argv)
{
    int nthreads = sylva__order_threads(0), repeat = 1;
    const char *json = NULL, *list = NULL;
    const char *specs[64];
    int nspecs = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--threads") && i + 1 < argc) nthreads = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--orderings") && i + 1 < argc) list = argv[++i];
        else if (!strcmp(argv[i], "--repeat") && i + 1 < argc) repeat = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--json") && i + 1 < argc) json = argv[++i];
        else if (argv[i][0] == '-' || nspecs == 64) {
            fprintf(stderr, "usage: bench-analysis [--threads N] [--orderings LIST] [--repeat R] [--json F] SPEC...\n");
            return 2;
        } else specs[nspecs++] = argv[i];
    }
    if (nthreads < 1 || repeat < 1 || nspecs == 0) {
        fprintf(stderr, "bench-analysis: need SPEC..., --threads >= 1, --repeat >= 1\n");
        return 2;
    }
    char deflist[256];
    snprintf(deflist, sizeof deflist, "nd-parallel:1,nd-parallel:2%s,scotch:1%s,amd:1",
             nthreads > 2 ? ",nd-parallel:N" : "", nthreads > 1 ? ",scotch:N" : "");
    char names[MAX_ORDERINGS][32];
    int threads[MAX_ORDERINGS];
    int nord = parse_orderings(list ? list : deflist, nthreads, names, threads);
    if (nord < 0) return 2;
    static run rows[MAX_ROWS];
    int nrows = 0;
    for (int s = 0; s < nspecs; s++) {
        sylva_matrix *A = NULL;
        if (sylva_gen_from_spec(specs[s], &A)) {
            fprintf(stderr, "bench-analysis: %s: %s\n", specs[s], sylva_last_error());
            return 1;
        }
        run ref = {.matrix = specs[s], .threads = 1, .n = A->n, .nnz_A = A->nnz};
        snprintf(ref.ordering, sizeof ref.ordering, "metis");
        if (measure(A, "metis", 1, repeat, &ref)) return 1;
        double ref_total = total(&ref);
        for (int k = -1; k < nord && nrows < MAX_ROWS; k++) {
            if (k >= 0 && !strcmp(names[k], "metis")) continue;
            run r = ref;
            if (k >= 0) {
                snprintf(r.ordering, sizeof r.ordering, "%s", names[k]);
                r.threads = threads[k];
                if (measure(A, names[k], threads[k], repeat, &r)) return 1;
            }
            r.lnz_ratio = r.lnz / ref.lnz;
            r.fl_ratio = r.fl / ref.fl;
            r.speedup = ref_total / total(&r);
            rows[nrows++] = r;
            fprintf(stderr, "%s %s:%d order %.3f s\n", specs[s], r.ordering, r.threads, r.order_s);
        }
        sylva_matrix_free(A);
        if (json && write_json(json, rows, nrows)) { /* after every matrix: a long run keeps what it did */
            fprintf(stderr, "bench-analysis: cannot write %s\n", json);
            return 1;
        }
    }
    print_table(rows, nrows, nthreads);
    return 0;
}
