/* t_solve_piece.c — one piece of the CPU solve on one column chunk, for one
 * scalar type (a precision template, core/precision.h; the pieces are
 * batching.h's, the shared run is runtime_internal.h's).
 *
 * Forward, fronts in increasing order: the piece's rows of the right-hand
 * side are gathered from B (user's numbering) into W (permuted); each
 * front adds its children's updates (from the piece's stack, or from the
 * out buffer for children of other pieces) into its pivot rows and its own
 * update, solves with L11 and adds L21·X1 to its update, which goes on the
 * stack, or to the out buffer when its parent is in another piece.
 * Backward, fronts in decreasing order: each front gathers its CB rows of
 * the solution from W (rows of ancestors, finished) and solves with L11ᵀ;
 * then the piece's rows go back to B. A task writes only its own rows of W
 * and B and its own updates, so tasks of independent pieces run at once.
 */
#include "precision.h"

static void SYLVA_TNAME(piece_forward)(const sylva__solve_piece_args *a, Scalar *stack)
{
    const sylva__solve_run *R = a->run;
    const sylva__solve_pieces *sp = R->sp;
    const sylva__tree *t = sp->tree;
    const Scalar *L = R->L;
    int64_t n = t->n, nc = a->nc, p = a->piece, ldo = sp->out_rows > 0 ? sp->out_rows : 1;
    Scalar *W = (Scalar *)R->W + a->c0 * n, *out = (Scalar *)R->out + a->c0 * ldo;
    int64_t spos = 0; /* stack top, in rows (an update of r rows takes r·nc scalars, ld r) */
    for (int64_t f = sp->first[p]; f < sp->first[p + 1]; f++) {
        const sylva__front *fr = &t->fronts[f];
        int64_t r = fr->m - fr->k, below = 0;
        for (int64_t c = t->child_ptr[f]; c < t->child_ptr[f + 1]; c++) {
            const sylva__front *ch = &t->fronts[t->child_list[c]];
            if (sp->out_off[t->child_list[c]] < 0) below += ch->m - ch->k;
        }
        int64_t base = spos - below;
        int exported = sp->out_off[f] >= 0;
        Scalar *U = exported ? out + sp->out_off[f] : stack + spos * nc;
        int64_t ldu = exported ? ldo : (r > 0 ? r : 1);
        for (int64_t c = 0; c < nc; c++)
            for (int64_t i = 0; i < r; i++) U[i + c * ldu] = 0;
        Scalar *X1 = W + fr->first_col;
        int64_t pos = base;
        for (int64_t c = t->child_ptr[f]; c < t->child_ptr[f + 1]; c++) {
            int64_t ch = t->child_list[c];
            const sylva__front *cf = &t->fronts[ch];
            int64_t rc = cf->m - cf->k;
            const Scalar *Uc;
            int64_t ldc;
            if (sp->out_off[ch] >= 0) {
                Uc = out + sp->out_off[ch];
                ldc = ldo;
            } else {
                Uc = stack + pos * nc;
                ldc = rc > 0 ? rc : 1;
                pos += rc;
            }
            SYLVA_TNAME(solve_extend_add_cpu)(rc, nc, Uc, ldc, t->relmap + cf->row_off + cf->k, fr->k,
                                              X1, n, U, ldu);
        }
        SYLVA_TNAME(front_solve_forward_cpu)(fr->m, fr->k, L + R->plan->l_off[f], fr->m, nc, X1, n, 1,
                                             U, ldu);
        if (exported) {
            spos = base;
        } else {
            memmove(stack + base * nc, U, (size_t)(r * nc) * sizeof *U);
            spos = base + r;
        }
    }
}

static void SYLVA_TNAME(piece_backward)(const sylva__solve_piece_args *a, Scalar *T)
{
    const sylva__solve_run *R = a->run;
    const sylva__solve_pieces *sp = R->sp;
    const sylva__tree *t = sp->tree;
    const Scalar *L = R->L;
    int64_t n = t->n, nc = a->nc, p = a->piece;
    Scalar *W = (Scalar *)R->W + a->c0 * n;
    for (int64_t f = sp->first[p + 1] - 1; f >= sp->first[p]; f--) {
        const sylva__front *fr = &t->fronts[f];
        int64_t r = fr->m - fr->k, ldt = r > 0 ? r : 1;
        SYLVA_TNAME(solve_gather_cpu)(r, nc, t->rows + fr->row_off + fr->k, W, n, T, ldt);
        SYLVA_TNAME(front_solve_backward_cpu)(fr->m, fr->k, L + R->plan->l_off[f], fr->m, nc, T, ldt,
                                              W + fr->first_col, n);
    }
}

void SYLVA_TNAME(solve_piece_cpu)(const sylva__solve_piece_args *a, void *scratch)
{
    const sylva__solve_run *R = a->run;
    const sylva__solve_pieces *sp = R->sp;
    const sylva__tree *t = sp->tree;
    int64_t n = t->n, p = a->piece;
    const sylva__front *lo = &t->fronts[sp->first[p]], *hi = &t->fronts[sp->first[p + 1] - 1];
    int64_t r0 = lo->first_col, r1 = hi->first_col + hi->k; /* the piece's rows */
    Scalar *W = (Scalar *)R->W + a->c0 * n, *B = (Scalar *)R->B + a->c0 * R->ldb;
    if (!a->backward) {
        for (int64_t c = 0; c < a->nc; c++)
            for (int64_t i = r0; i < r1; i++) W[i + c * n] = B[t->perm[i] + c * R->ldb];
        SYLVA_TNAME(piece_forward)(a, scratch);
    } else {
        SYLVA_TNAME(piece_backward)(a, scratch);
        for (int64_t c = 0; c < a->nc; c++)
            for (int64_t i = r0; i < r1; i++) B[t->perm[i] + c * R->ldb] = W[i + c * n];
    }
}
