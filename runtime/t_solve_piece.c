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
 * then the piece's rows go back to B. A split piece (one large front)
 * leaves its L21 products to part tasks: row ranges of the update after
 * its forward task, column ranges of L21ᵀ·x before its backward task. A
 * task writes only its own rows of W and B and its own updates (or its
 * own rows or columns of them), so tasks of independent pieces, and the
 * parts of one, run at once.
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
        /* A split piece leaves L21's product to its part tasks; a blocked
         * one solves its first diagonal block here, the rest in block tasks. */
        int64_t kk = sp->diag_blocks[p] > 1 ? SYLVA__SOLVE_DIAG_BLOCK : fr->k;
        int64_t mm = sp->split_fwd[p] > 1 || sp->diag_blocks[p] > 1 ? kk : fr->m;
        SYLVA_TNAME(front_solve_forward_cpu)(mm, kk, L + R->plan->l_off[f], fr->m, nc, X1, n, 1, U, ldu);
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
        if (sp->split_bwd[p] > 1 || sp->diag_blocks[p] > 1) {
            /* Parts applied L21ᵀ, block tasks solved all but the first
             * diagonal block: the pivot rows of that block remain. */
            int64_t kk = sp->diag_blocks[p] > 1 ? SYLVA__SOLVE_DIAG_BLOCK : fr->k;
            SYLVA_TNAME(front_solve_backward_cpu)(kk, kk, L + R->plan->l_off[f], fr->m, nc, T, 1, W + fr->first_col, n);
            continue;
        }
        SYLVA_TNAME(solve_gather_cpu)(r, nc, t->rows + fr->row_off + fr->k, W, n, T, ldt);
        SYLVA_TNAME(front_solve_backward_cpu)(fr->m, fr->k, L + R->plan->l_off[f], fr->m, nc, T, ldt,
                                              W + fr->first_col, n);
    }
}

/* One part of a split piece's front: rows [i0, i1) of U += L21·X1
 * (forward), or columns [j0, j1) of X1 −= L21ᵀ·X(rows) (backward). */
static void SYLVA_TNAME(piece_part)(const sylva__solve_piece_args *a, Scalar *T)
{
    const sylva__solve_run *R = a->run;
    const sylva__solve_pieces *sp = R->sp;
    const sylva__tree *t = sp->tree;
    int64_t p = a->piece, f = sp->first[p], n = t->n, nc = a->nc;
    const sylva__front *fr = &t->fronts[f];
    const Scalar *L = (const Scalar *)R->L + R->plan->l_off[f];
    int64_t r = fr->m - fr->k, ldo = sp->out_rows > 0 ? sp->out_rows : 1;
    Scalar *W = (Scalar *)R->W + a->c0 * n, *X1 = W + fr->first_col;
    if (a->kind == SYLVA__SOLVE_FWD_PART) {
        int64_t per = (r + sp->split_fwd[p] - 1) / sp->split_fwd[p], i0 = a->part * per;
        int64_t i1 = i0 + per < r ? i0 + per : r;
        Scalar *U = (Scalar *)R->out + a->c0 * ldo + sp->out_off[f];
        SYLVA_TNAME(solve_update_cpu)(i1 - i0, fr->k, L + fr->k + i0, fr->m, nc, X1, n, 1, U + i0, ldo);
    } else {
        int64_t per = (fr->k + sp->split_bwd[p] - 1) / sp->split_bwd[p], j0 = a->part * per;
        int64_t j1 = j0 + per < fr->k ? j0 + per : fr->k, ldt = r > 0 ? r : 1;
        SYLVA_TNAME(solve_gather_cpu)(r, nc, t->rows + fr->row_off + fr->k, W, n, T, ldt);
        SYLVA_TNAME(solve_update_t_cpu)(r, j1 - j0, L + fr->k + j0 * fr->m, fr->m, nc, T, ldt, X1 + j0, n);
    }
}

/* A blocked piece's diagonal block j (L11's block or its transpose), or
 * the update after it of a group of blocks below (forward) or above
 * (backward). The last block forward also forms L21·X1 when no part tasks
 * do; the last backward first applies L21ᵀ, likewise. */
static void SYLVA_TNAME(piece_block)(const sylva__solve_piece_args *a, Scalar *T)
{
    const sylva__solve_run *R = a->run;
    const sylva__solve_pieces *sp = R->sp;
    const sylva__tree *t = sp->tree;
    int64_t p = a->piece, f = sp->first[p], n = t->n, nc = a->nc, bs = SYLVA__SOLVE_DIAG_BLOCK;
    const sylva__front *fr = &t->fronts[f];
    const Scalar *L = (const Scalar *)R->L + R->plan->l_off[f];
    int64_t m = fr->m, k = fr->k, r = m - k, j = a->part, j0 = j * bs, jb = k - j0 < bs ? k - j0 : bs;
    int64_t ldo = sp->out_rows > 0 ? sp->out_rows : 1, last = sp->diag_blocks[p] - 1;
    Scalar *X1 = (Scalar *)R->W + a->c0 * n + fr->first_col;
    const Scalar *Ljj = L + j0 + j0 * m;
    if (a->kind == SYLVA__SOLVE_FWD_DIAG) {
        SYLVA_TNAME(front_solve_forward_cpu)(jb, jb, Ljj, m, nc, X1 + j0, n, 1, T, 1);
        if (j == last && sp->split_fwd[p] <= 1 && r > 0)
            SYLVA_TNAME(solve_update_cpu)(r, k, L + k, m, nc, X1, n, 1,
                                          (Scalar *)R->out + a->c0 * ldo + sp->out_off[f], ldo);
        return;
    }
    if (a->kind == SYLVA__SOLVE_BWD_DIAG) {
        if (j == last && sp->split_bwd[p] <= 1 && r > 0) {
            SYLVA_TNAME(solve_gather_cpu)(r, nc, t->rows + fr->row_off + k, (Scalar *)R->W + a->c0 * n, n, T, r);
            SYLVA_TNAME(solve_update_t_cpu)(r, k, L + k, m, nc, T, r, X1, n);
        }
        SYLVA_TNAME(front_solve_backward_cpu)(jb, jb, Ljj, m, nc, T, 1, X1 + j0, n);
        return;
    }
    int64_t b0, b1;
    sylva__solve_diag_group(sp, p, a->kind == SYLVA__SOLVE_BWD_UPD, j, a->group, &b0, &b1);
    int64_t i0 = b0 * bs, i1 = b1 * bs < k ? b1 * bs : k;
    if (a->kind == SYLVA__SOLVE_FWD_UPD) /* X1[i0:i1] −= L[i0:i1, block j] · X1[block j] */
        SYLVA_TNAME(solve_update_cpu)(i1 - i0, jb, L + i0 + j0 * m, m, nc, X1 + j0, n, -1, X1 + i0, n);
    else /* X1[i0:i1] −= L[block j, i0:i1]ᵀ · X1[block j] */
        SYLVA_TNAME(solve_update_t_cpu)(jb, i1 - i0, L + j0 + i0 * m, m, nc, X1 + j0, n, X1 + i0, n);
}

void SYLVA_TNAME(solve_piece_cpu)(const sylva__solve_piece_args *a, void *scratch)
{
    if (a->kind == SYLVA__SOLVE_FWD_PART || a->kind == SYLVA__SOLVE_BWD_PART) {
        SYLVA_TNAME(piece_part)(a, scratch);
        return;
    }
    if (a->kind != SYLVA__SOLVE_FWD && a->kind != SYLVA__SOLVE_BWD) {
        SYLVA_TNAME(piece_block)(a, scratch);
        return;
    }
    const sylva__solve_run *R = a->run;
    const sylva__solve_pieces *sp = R->sp;
    const sylva__tree *t = sp->tree;
    int64_t n = t->n, p = a->piece;
    const sylva__front *lo = &t->fronts[sp->first[p]], *hi = &t->fronts[sp->first[p + 1] - 1];
    int64_t r0 = lo->first_col, r1 = hi->first_col + hi->k; /* the piece's rows */
    Scalar *W = (Scalar *)R->W + a->c0 * n, *B = (Scalar *)R->B + a->c0 * R->ldb;
    if (a->kind == SYLVA__SOLVE_FWD) {
        for (int64_t c = 0; c < a->nc; c++)
            for (int64_t i = r0; i < r1; i++) W[i + c * n] = B[t->perm[i] + c * R->ldb];
        SYLVA_TNAME(piece_forward)(a, scratch);
    } else {
        SYLVA_TNAME(piece_backward)(a, scratch);
        for (int64_t c = 0; c < a->nc; c++)
            for (int64_t i = r0; i < r1; i++) B[t->perm[i] + c * R->ldb] = W[i + c * n];
    }
}
