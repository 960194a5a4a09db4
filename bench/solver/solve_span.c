/* solve_span.c — the CPU solve's task graph, measured without running it:
 * for a matrix and each worker count, the pieces and extra tasks
 * (batching/solve_pieces.c), the work and the span (the longest chain of
 * dependent tasks) for one right-hand side, with a front's cost taken as
 * k²/2 + (m − k)·k per direction (its TRSV and GEMV entries), and the
 * speedup bound work / max(span, work / workers). Split L21 products count
 * as their largest part, blocked L11 solves as their diagonal blocks and
 * each block's largest update group.
 *   solve-span SPEC [WORKERS,...]   (default 2,4,8,16)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
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
    sylva_analysis_free(an);
    sylva_matrix_free(A);
    return 0;
}
