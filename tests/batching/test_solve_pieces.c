/* test_solve_pieces.c — the CPU solve's pieces (batching/solve_pieces.c)
 * on random and degenerate trees for 1, 2, 3 and 16 workers, against the
 * contract checked here independently: pieces are consecutive non-empty
 * ranges covering the fronts; a piece of several fronts holds whole
 * subtrees (every child of its fronts inside); a piece heavier than the
 * target is a single front; exported fronts are exactly those whose parent
 * lies in another piece, with disjoint out-buffer rows; forward
 * dependencies name exactly the pieces of external children (all earlier),
 * backward ones the pieces of exported fronts' parents (all later); and a
 * stack simulation of the forward pass finds each front's in-piece
 * children's updates on top of the stack, in order, and the peak the
 * pieces report; only single-front pieces are split, into at most
 * SYLVA__SOLVE_SPLIT_PER_WORKER parts per worker, no more than their L21
 * has rows (forward) or columns (backward). The trees are renumbered in postorder (as CHOLMOD's
 * are); one not in postorder is refused.
 *   test_solve_pieces [TREES]   (random trees per shape, default 40)
 */
#include <string.h>
#include <time.h>

#include "batching.h"
#include "check.h"
#include "random_trees.h"

static void check_pieces(const sylva__tree *t, const sylva__solve_pieces *sp, const char *what)
{
    int64_t ns = t->nfronts, np = sp->npieces;
    CHECK(np >= 1 && sp->first[0] == 0 && sp->first[np] == ns, "%s: pieces cover %lld..%lld of %lld", what,
          (long long)sp->first[0], (long long)sp->first[np], (long long)ns);
    double total = 0;
    for (int64_t f = 0; f < ns; f++) total += (double)t->fronts[f].m * (double)t->fronts[f].k;
    double target = sp->workers > 1 ? total / (SYLVA__SOLVE_PIECES_PER_WORKER * sp->workers) : total;
    char *need = calloc((size_t)np + 1, 1);
    int64_t *stack = malloc((size_t)ns * sizeof *stack), out_rows = 0;
    int64_t all_rows = 0, all_tasks = 0;
    for (int64_t f = 0; f < ns; f++) all_rows += t->fronts[f].m - t->fronts[f].k;
    char *used = calloc((size_t)all_rows + 1, 1); /* out-buffer rows */
    for (int64_t p = 0; p < np; p++) {
        int64_t lo = sp->first[p], hi = sp->first[p + 1];
        CHECK(lo < hi, "%s: piece %lld is empty", what, (long long)p);
        double work = 0;
        memset(need, 0, (size_t)np + 1);
        for (int64_t f = lo; f < hi; f++) {
            CHECK(sp->piece_of[f] == p, "%s: front %lld in piece %lld, says %lld", what, (long long)f, (long long)p,
                  (long long)sp->piece_of[f]);
            work += (double)t->fronts[f].m * (double)t->fronts[f].k;
            for (int64_t c = t->child_ptr[f]; c < t->child_ptr[f + 1]; c++) {
                int64_t ch = t->child_list[c];
                if (ch >= lo) continue;
                CHECK(hi - lo == 1, "%s: piece %lld of %lld fronts misses child %lld of %lld", what, (long long)p,
                      (long long)(hi - lo), (long long)ch, (long long)f);
                need[sp->piece_of[ch]] = 1;
            }
            int64_t par = t->fronts[f].parent, r = t->fronts[f].m - t->fronts[f].k;
            int exported = par >= hi;
            CHECK(exported == (sp->out_off[f] >= 0), "%s: front %lld exported %d, out_off %lld", what, (long long)f,
                  exported, (long long)sp->out_off[f]);
            if (exported) {
                for (int64_t i = 0; i < r; i++) {
                    int64_t row = sp->out_off[f] + i;
                    CHECK(row < sp->out_rows && !used[row], "%s: out row %lld of front %lld", what, (long long)row,
                          (long long)f);
                    if (row < sp->out_rows) used[row] = 1;
                }
                out_rows += r;
            }
        }
        const sylva__front *fr = &t->fronts[lo];
        int64_t cap = (int64_t)SYLVA__SOLVE_SPLIT_PER_WORKER * sp->workers;
        int split = sp->split_fwd[p] > 1 || sp->split_bwd[p] > 1;
        CHECK(sp->split_fwd[p] >= 1 && sp->split_bwd[p] >= 1 && sp->split_fwd[p] <= (cap > 1 ? cap : 1) &&
                  sp->split_bwd[p] <= (cap > 1 ? cap : 1),
              "%s: piece %lld split in %lld + %lld parts (cap %lld)", what, (long long)p, (long long)sp->split_fwd[p],
              (long long)sp->split_bwd[p], (long long)cap);
        CHECK(!split || (hi - lo == 1 && sp->workers > 1 && sp->split_fwd[p] <= fr->m - fr->k &&
                         sp->split_bwd[p] <= fr->k),
              "%s: piece %lld of %lld fronts split", what, (long long)p, (long long)(hi - lo));
        int64_t ndb = sp->diag_blocks[p], bs = SYLVA__SOLVE_DIAG_BLOCK, tasks = 0;
        CHECK(ndb == 1 || (hi - lo == 1 && sp->workers >= SYLVA__SOLVE_DIAG_MIN_WORKERS &&
                           ndb == (fr->k + bs - 1) / bs && fr->k > bs),
              "%s: piece %lld of %lld fronts, k %lld, in %lld diagonal blocks", what, (long long)p,
              (long long)(hi - lo), (long long)fr->k, (long long)ndb);
        for (int dir = 0; dir < 2 && ndb > 1; dir++)
            for (int64_t j = 0; j < ndb; j++) { /* each block's update groups tile the blocks beyond it */
                int64_t q = sylva__solve_diag_groups(sp, p, dir, j), next = dir ? 0 : j + 1;
                CHECK(q >= 0 && q <= sp->split_cap, "%s: %lld groups", what, (long long)q);
                for (int64_t g = 0; g < q; g++) {
                    int64_t b0, b1;
                    sylva__solve_diag_group(sp, p, dir, j, g, &b0, &b1);
                    CHECK(b0 == next && b1 > b0, "%s: piece %lld block %lld group %lld: blocks %lld..%lld", what,
                          (long long)p, (long long)j, (long long)g, (long long)b0, (long long)b1);
                    next = b1;
                }
                CHECK(next == (dir ? j : (q ? ndb : j + 1)), "%s: piece %lld block %lld: updates end at %lld", what,
                      (long long)p, (long long)j, (long long)next);
                tasks += q + (j > 0);
            }
        tasks += (sp->split_fwd[p] > 1 ? sp->split_fwd[p] : 0) + (sp->split_bwd[p] > 1 ? sp->split_bwd[p] : 0);
        CHECK(tasks == sp->split_tasks_of[p], "%s: piece %lld has %lld extra tasks, reports %lld", what, (long long)p,
              (long long)tasks, (long long)sp->split_tasks_of[p]);
        all_tasks += tasks;
        CHECK(work <= target * (1 + 1e-12) || hi - lo == 1, "%s: piece %lld of %lld fronts has work %g > %g", what,
              (long long)p, (long long)(hi - lo), work, target);
        int64_t nd = 0;
        for (int64_t q = 0; q < np; q++) nd += need[q];
        CHECK(nd == sp->fwd_ptr[p + 1] - sp->fwd_ptr[p], "%s: piece %lld needs %lld pieces, lists %lld", what,
              (long long)p, (long long)nd, (long long)(sp->fwd_ptr[p + 1] - sp->fwd_ptr[p]));
        for (int64_t d = sp->fwd_ptr[p]; d < sp->fwd_ptr[p + 1]; d++)
            CHECK(need[sp->fwd_list[d]] && sp->fwd_list[d] < p, "%s: piece %lld lists %lld", what, (long long)p,
                  (long long)sp->fwd_list[d]);
        memset(need, 0, (size_t)np + 1);
        for (int64_t f = lo; f < hi; f++)
            if (t->fronts[f].parent >= hi) need[sp->piece_of[t->fronts[f].parent]] = 1;
        nd = 0;
        for (int64_t q = 0; q < np; q++) nd += need[q];
        CHECK(nd == sp->bwd_ptr[p + 1] - sp->bwd_ptr[p], "%s: piece %lld backward deps", what, (long long)p);
        for (int64_t d = sp->bwd_ptr[p]; d < sp->bwd_ptr[p + 1]; d++)
            CHECK(need[sp->bwd_list[d]] && sp->bwd_list[d] > p, "%s: piece %lld lists parent piece %lld", what,
                  (long long)p, (long long)sp->bwd_list[d]);
        /* The forward stack, front by front. */
        int64_t top = 0, rows = 0, peak = 0;
        for (int64_t f = lo; f < hi; f++) {
            int64_t kids = 0;
            for (int64_t c = t->child_ptr[f]; c < t->child_ptr[f + 1]; c++)
                if (t->child_list[c] >= lo) kids++;
            CHECK(top >= kids, "%s: front %lld finds %lld updates for %lld children", what, (long long)f,
                  (long long)top, (long long)kids);
            int64_t q = top - kids;
            for (int64_t c = t->child_ptr[f]; c < t->child_ptr[f + 1] && q >= 0; c++) {
                int64_t ch = t->child_list[c];
                if (ch < lo) continue;
                CHECK(stack[q] == ch, "%s: front %lld expects child %lld on the stack, finds %lld", what,
                      (long long)f, (long long)ch, (long long)stack[q]);
                q++;
            }
            for (int64_t i = top - kids; i < top && i >= 0; i++) rows -= t->fronts[stack[i]].m - t->fronts[stack[i]].k;
            top -= kids;
            int64_t r = t->fronts[f].m - t->fronts[f].k;
            if (sp->out_off[f] < 0) {
                if (rows + r > peak) peak = rows + r;
                stack[top++] = f;
                rows += r;
            }
        }
        CHECK(peak <= sp->stack_rows[p] && sp->stack_rows[p] <= sp->max_stack_rows, "%s: piece %lld stack %lld rows, "
              "reports %lld", what, (long long)p, (long long)peak, (long long)sp->stack_rows[p]);
    }
    CHECK(all_tasks == sp->split_tasks, "%s: %lld extra tasks, reports %lld", what, (long long)all_tasks,
          (long long)sp->split_tasks);
    CHECK(out_rows == sp->out_rows, "%s: %lld exported rows, reports %lld", what, (long long)out_rows,
          (long long)sp->out_rows);
    free(need);
    free(stack);
    free(used);
}

/* The same tree renumbered in postorder (children in increasing order):
 * the pieces need it, and CHOLMOD's supernodal trees are. */
static sylva__tree *postorder(const sylva__tree *t)
{
    int64_t ns = t->nfronts, k = 0;
    int64_t *order = malloc((size_t)ns * sizeof *order), *newid = malloc((size_t)ns * sizeof *newid);
    int64_t *stack = malloc((size_t)ns * sizeof *stack), *next = calloc((size_t)ns, sizeof *next);
    for (int64_t root = 0; root < ns; root++) {
        if (t->fronts[root].parent >= 0) continue;
        int64_t sp = 0;
        stack[sp++] = root;
        while (sp > 0) {
            int64_t f = stack[sp - 1];
            if (t->child_ptr[f] + next[f] < t->child_ptr[f + 1]) {
                stack[sp++] = t->child_list[t->child_ptr[f] + next[f]++];
            } else {
                order[k++] = f;
                sp--;
            }
        }
    }
    for (int64_t i = 0; i < ns; i++) newid[order[i]] = i;
    int64_t *parent = malloc((size_t)ns * sizeof *parent), *m = malloc((size_t)ns * sizeof *m),
            *kk = malloc((size_t)ns * sizeof *kk);
    for (int64_t i = 0; i < ns; i++) {
        const sylva__front *f = &t->fronts[order[i]];
        parent[i] = f->parent >= 0 ? newid[f->parent] : -1;
        m[i] = f->m;
        kk[i] = f->k;
    }
    sylva__tree *p = make_tree(ns, parent, m, kk);
    free(order);
    free(newid);
    free(stack);
    free(next);
    free(parent);
    free(m);
    free(kk);
    return p;
}

int main(int argc, char **argv)
{
    int trees = argc > 1 ? atoi(argv[1]) : 40;
    const char *s = getenv("SYLVA_TEST_SEED");
    rng = s ? strtoull(s, NULL, 10) : (uint64_t)time(NULL) * 2654435761u + 1;
    printf("seed %llu (set SYLVA_TEST_SEED to repeat)\n", (unsigned long long)rng);
    const int workers[] = {1, 2, 3, 16};
    int64_t pieces = 0, split = 0, blocked = 0;
    for (int sh = 0; sh < 6; sh++)
        for (int r = 0; r < (sh == 0 ? 1 : trees); r++) {
            sylva__tree *raw = shape_tree(sh, rnd(2, 200)), *t = postorder(raw);
            if (r % 4 == 3) /* fronts large enough to split */
                for (int64_t f = 0; f < t->nfronts; f++)
                    t->fronts[f].m += 2000 + 300 * (t->fronts[f].parent < 0), t->fronts[f].k += 40 + 300 * (t->fronts[f].parent < 0);
            if (sh == 4 && r == 0) { /* a random tree is seldom in postorder: refused, not mis-cut */
                sylva__solve_pieces *bad = NULL;
                int st = sylva__solve_pieces_build(raw, 2, &bad);
                CHECK(st == SYLVA_OK || st == SYLVA_ERR_RUNTIME, "non-postorder tree: status %d", st);
                if (bad) check_pieces(raw, bad, "a tree accepted as postordered");
                sylva__solve_pieces_free(bad);
            }
            free_tree(raw);
            for (size_t w = 0; w < sizeof workers / sizeof workers[0]; w++) {
                char what[64];
                snprintf(what, sizeof what, "shape %d tree %d, %d workers", sh, r, workers[w]);
                sylva__solve_pieces *sp = NULL;
                CHECK(sylva__solve_pieces_build(t, workers[w], &sp) == SYLVA_OK, "%s: %s", what, sylva_last_error());
                if (!sp) continue;
                check_pieces(t, sp, what);
                pieces += sp->npieces;
                for (int64_t p = 0; p < sp->npieces; p++) {
                    split += sp->split_fwd[p] > 1 || sp->split_bwd[p] > 1;
                    blocked += sp->diag_blocks[p] > 1;
                }
                sylva__solve_pieces_free(sp);
            }
            free_tree(t);
        }
    printf("%lld pieces checked, %lld of them split, %lld in diagonal blocks\n", (long long)pieces, (long long)split,
           (long long)blocked);
    CHECK(split > 0 && blocked > 0, "no piece was split or blocked: those checks checked nothing");
    return test_exit("test_solve_pieces");
}
