/* solve_span.c — the CPU solve's task graph, measured without running it:
 * for a matrix and each worker count, the pieces and extra tasks
 * (batching/solve_pieces.c), the work and the span (the longest chain of
 * dependent tasks) for one right-hand side, with a front's cost taken as
 * k²/2 + (m − k)·k per direction (its TRSV and GEMV entries), and the
 * speedup bound work / max(span, work / workers). Split L21 products count
 * as their largest part, blocked L11 solves as their diagonal blocks and
 * each block's largest update group. Then the GPU sweeps' critical path in
 * item steps (kernels/gpu_solve.h's items, solve_items.c's estimated
 * starts): forward, a folded front is one step after its children, a
 * split front its triangle chain plus one step for its updates; backward
 * the same from the root down; with the chain steps (triangle blocks) on
 * the path counted apart, and the root's chain.
 *   solve-span SPEC [WORKERS,...]   (default 2,4,8,16)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "gpu_solve.h"
#include "sylva_gen.h"

/* A piece's chain in one direction: its triangle (whole or in blocks) and
 * its products (whole or the largest part). */
static double chain(const sylva__solve_pieces *sp, const sylva__tree *t, int64_t p, int backward, double *work)
{
    double tri = 0, prod = 0;
    for (int64_t f = sp->first[p]; f < sp->first[p + 1]; f++) {
        double k = (double)t->fronts[f].k, r = (double)(t->fronts[f].m - t->fronts[f].k);
        tri += k * k / 2;
        prod += r * k;
    }
    *work += tri + prod;
    int64_t nd = sp->diag_blocks[p], bs = SYLVA__SOLVE_DIAG_BLOCK;
    if (nd > 1) {
        tri = 0;
        for (int64_t j = 0; j < nd; j++) {
            tri += (double)bs * bs / 2;
            if (sylva__solve_diag_groups(sp, p, backward, j) > 0) {
                int64_t b0, b1;
                sylva__solve_diag_group(sp, p, backward, j, 0, &b0, &b1);
                tri += (double)(b1 - b0) * bs * bs;
            }
        }
    }
    return tri + prod / (double)(backward ? sp->split_bwd[p] : sp->split_fwd[p]);
}

static void span(const sylva__tree *t, int workers, const char *name)
{
    sylva__solve_pieces *sp = NULL;
    if (sylva__solve_pieces_build(t, workers, &sp)) {
        fprintf(stderr, "solve-span: %s\n", sylva_last_error());
        return;
    }
    int64_t np = sp->npieces;
    double *F = calloc((size_t)np + 1, sizeof *F), *B = calloc((size_t)np + 1, sizeof *B), work = 0, crit = 0;
    for (int64_t p = 0; p < np; p++) { /* forward: after the children's pieces */
        double start = 0;
        for (int64_t d = sp->fwd_ptr[p]; d < sp->fwd_ptr[p + 1]; d++)
            if (F[sp->fwd_list[d]] > start) start = F[sp->fwd_list[d]];
        F[p] = start + chain(sp, t, p, 0, &work);
    }
    for (int64_t p = np - 1; p >= 0; p--) { /* backward: after the parents' pieces, or its own forward */
        double start = sp->bwd_ptr[p + 1] > sp->bwd_ptr[p] ? 0 : F[p];
        for (int64_t d = sp->bwd_ptr[p]; d < sp->bwd_ptr[p + 1]; d++)
            if (B[sp->bwd_list[d]] > start) start = B[sp->bwd_list[d]];
        B[p] = start + chain(sp, t, p, 1, &work);
        if (B[p] > crit) crit = B[p];
    }
    double floor = work / workers;
    printf("%-16s %3d workers: %4lld pieces, %5lld extra tasks, span %5.1f%% of the work, speedup bound %5.2fx\n",
           name, workers, (long long)np, (long long)sp->split_tasks, 100 * crit / work,
           work / (crit > floor ? crit : floor));
    free(F);
    free(B);
    sylva__solve_pieces_free(sp);
}

/* A front's steps on a sweep's path (its triangle blocks in *chain). */
static int64_t gpu_steps(const sylva__front *fr, int64_t *chain)
{
    int64_t k = fr->k, r = fr->m - fr->k;
    *chain = 0;
    if (k <= SYLVA_SOLVE_FOLD_K && r <= SYLVA_SOLVE_FOLD_R) return 1;
    *chain = (k + SYLVA_SOLVE_TB - 1) / SYLVA_SOLVE_TB;
    return *chain + 1;
}

/* The longest path of dependent item steps through the tree (a root to a
 * leaf: the forward and the backward sweep have the same one), and the
 * triangle blocks on it. Fronts are numbered children first. */
static void gpu_path(const sylva__tree *t, const char *name)
{
    int64_t F = t->nfronts, best = 0, best_chain = 0, root_chain = 0, folded = 0;
    int64_t *len = calloc((size_t)F + 1, sizeof *len), *ch = calloc((size_t)F + 1, sizeof *ch);
    for (int64_t f = 0; f < F; f++) { /* len[f]: the longest path below f, before f */
        int64_t c, s = gpu_steps(&t->fronts[f], &c), p = t->fronts[f].parent;
        folded += c == 0;
        if (p >= 0 && p <= f) {
            printf("%s: front %lld's parent comes before it: no GPU path\n", name, (long long)f);
            break;
        }
        int64_t L = len[f] + s, C = ch[f] + c;
        if (p >= 0) {
            if (L > len[p]) len[p] = L, ch[p] = C;
        } else if (L > best) {
            best = L, best_chain = C, root_chain = c;
        }
    }
    printf("%-16s GPU sweep: %lld fronts (%lld folded), longest path %lld item steps, %lld of them triangle "
           "blocks (root chain %lld)\n",
           name, (long long)F, (long long)folded, (long long)best, (long long)best_chain, (long long)root_chain);
    free(len);
    free(ch);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: solve-span SPEC [WORKERS,...]\n");
        return 2;
    }
    sylva_matrix *A = NULL;
    if (sylva_gen_from_spec(argv[1], &A)) {
        fprintf(stderr, "solve-span: %s: %s\n", argv[1], sylva_last_error());
        return 1;
    }
    sylva_options o;
    sylva_default_options(&o);
    sylva_analysis_t *an = NULL;
    if (sylva_analyze(A, &o, &an, NULL)) {
        fprintf(stderr, "solve-span: %s\n", sylva_last_error());
        return 1;
    }
    char buf[128];
    snprintf(buf, sizeof buf, "%s", argc > 2 ? argv[2] : "2,4,8,16");
    for (char *w = strtok(buf, ","); w; w = strtok(NULL, ",")) span(an->tree, atoi(w), argv[1]);
    gpu_path(an->tree, argv[1]);
    sylva_analysis_free(an);
    sylva_matrix_free(A);
    return 0;
}
