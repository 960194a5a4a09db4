/* solve_pieces.c — cuts the assembly tree into the CPU solve's pieces
 * (contract in batching.h): subtrees split from the roots down, the
 * heaviest first (Geist and Ng's subtree-to-worker mapping), until each is
 * at most the target work; split roots become single-front "top" pieces;
 * runs of consecutive subtrees are packed up to the target; then each
 * piece's dependencies, exported updates and stack peak, and how the large
 * top fronts' L21 products are split. Postorder makes a
 * subtree a range of consecutive fronts, so pieces are ranges. O(nfronts
 * log nfronts); fails on memory, or with SYLVA_ERR_RUNTIME on a tree that
 * is not in postorder (CHOLMOD's supernodal trees are).
 */
#include <stdlib.h>

#include "batching.h"

static double front_work(const sylva__front *f) { return (double)f->m * (double)f->k; }

/* A max-heap of fronts keyed by their subtree work. */
typedef struct heap {
    int64_t *a, n;
    const double *key;
} heap;

static void heap_push(heap *h, int64_t f)
{
    int64_t i = h->n++;
    while (i > 0 && h->key[h->a[(i - 1) / 2]] < h->key[f]) {
        h->a[i] = h->a[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->a[i] = f;
}

static int64_t heap_pop(heap *h)
{
    int64_t top = h->a[0], last = h->a[--h->n], i = 0;
    for (;;) {
        int64_t c = 2 * i + 1;
        if (c >= h->n) break;
        if (c + 1 < h->n && h->key[h->a[c + 1]] > h->key[h->a[c]]) c++;
        if (h->key[h->a[c]] <= h->key[last]) break;
        h->a[i] = h->a[c];
        i = c;
    }
    if (h->n > 0) h->a[i] = last;
    return top;
}

/* Mark top[f] for the fronts split off; the rest belong to candidate
 * subtrees. */
static void split(const sylva__tree *t, const double *sub, double target, int64_t *buf, char *top)
{
    heap h = {buf, 0, sub};
    for (int64_t f = 0; f < t->nfronts; f++)
        if (t->fronts[f].parent < 0) heap_push(&h, f);
    while (h.n > 0) {
        int64_t f = h.a[0];
        if (sub[f] <= target) break;
        heap_pop(&h);
        if (t->child_ptr[f] == t->child_ptr[f + 1]) continue; /* a heavy leaf stays whole */
        top[f] = 1;
        for (int64_t c = t->child_ptr[f]; c < t->child_ptr[f + 1]; c++) heap_push(&h, t->child_list[c]);
    }
}

/* 1 when t is in postorder: parents after children, and each front's
 * children's subtrees (size[] fronts each, filled here) are consecutive
 * ranges ending just before it. */
static int postordered(const sylva__tree *t, int64_t *size)
{
    for (int64_t f = 0; f < t->nfronts; f++) size[f] = 1;
    for (int64_t f = 0; f < t->nfronts; f++) {
        int64_t p = t->fronts[f].parent;
        if (p >= 0 && p <= f) return 0;
        if (p >= 0) size[p] += size[f];
    }
    for (int64_t f = 0; f < t->nfronts; f++) {
        int64_t next = f - size[f] + 1;
        for (int64_t c = t->child_ptr[f]; c < t->child_ptr[f + 1]; c++) {
            int64_t ch = t->child_list[c];
            if (ch - size[ch] + 1 != next) return 0;
            next = ch + 1;
        }
        if (next != f) return 0;
    }
    return 1;
}

/* Sorted unique entries of list[lo..hi); returns the new end. */
static int64_t uniq(int64_t *list, int64_t lo, int64_t hi)
{
    for (int64_t i = lo + 1; i < hi; i++) { /* insertion sort: lists are short */
        int64_t v = list[i], j = i;
        while (j > lo && list[j - 1] > v) {
            list[j] = list[j - 1];
            j--;
        }
        list[j] = v;
    }
    int64_t u = lo;
    for (int64_t i = lo; i < hi; i++)
        if (u == lo || list[u - 1] != list[i]) list[u++] = list[i];
    return u;
}

/* Pieces: a top front alone, or consecutive candidate subtrees packed up
 * to the target. Fills sp->first and sp->npieces. */
static void pack(const sylva__tree *t, const double *sub, const char *top, double target,
                 sylva__solve_pieces *sp)
{
    int64_t np = 0, f = 0, ns = t->nfronts;
    while (f < ns) {
        sp->first[np++] = f;
        if (top[f]) {
            f++;
            continue;
        }
        /* f starts a candidate subtree (fronts before it are placed, and
         * subtrees are ranges): its root is the ancestor whose parent is top
         * or absent; the next subtree starts after that root. */
        double acc = 0;
        int first = 1;
        while (f < ns && !top[f]) {
            int64_t r = f;
            while (t->fronts[r].parent >= 0 && !top[t->fronts[r].parent]) r = t->fronts[r].parent;
            if (!first && acc + sub[r] > target) break;
            acc += sub[r];
            first = 0;
            f = r + 1;
        }
    }
    sp->first[np] = ns;
    sp->npieces = np;
}

int64_t sylva__solve_diag_groups(const sylva__solve_pieces *sp, int64_t p, int backward, int64_t j)
{
    int64_t rest = backward ? j : sp->diag_blocks[p] - 1 - j; /* blocks to update */
    return rest < sp->split_cap ? rest : sp->split_cap;
}

void sylva__solve_diag_group(const sylva__solve_pieces *sp, int64_t p, int backward, int64_t j, int64_t g,
                             int64_t *b0, int64_t *b1)
{
    int64_t q = sylva__solve_diag_groups(sp, p, backward, j);
    int64_t first = backward ? 0 : j + 1, rest = backward ? j : sp->diag_blocks[p] - 1 - j;
    *b0 = first + rest * g / q;
    *b1 = first + rest * (g + 1) / q;
}

/* Parts of a single-front piece's L21 products (by rows forward, by
 * columns backward) and diagonal blocks of its L11; 1 for small fronts and
 * one worker. Then how many tasks each piece adds. */
static void splits(const sylva__tree *t, sylva__solve_pieces *sp)
{
    int64_t cap = (int64_t)SYLVA__SOLVE_SPLIT_PER_WORKER * sp->workers;
    sp->split_cap = cap > 1 ? cap : 1;
    sp->split_tasks = 0;
    for (int64_t p = 0; p < sp->npieces; p++) {
        const sylva__front *f = &t->fronts[sp->first[p]];
        int64_t r = f->m - f->k, nf = 1, nb = 1, nd = 1;
        int single = sp->workers > 1 && sp->first[p + 1] - sp->first[p] == 1;
        if (single && r * f->k >= SYLVA__SOLVE_SPLIT_MIN_ENTRIES) {
            nf = (r + SYLVA__SOLVE_SPLIT_ROWS - 1) / SYLVA__SOLVE_SPLIT_ROWS;
            nb = (f->k + SYLVA__SOLVE_SPLIT_COLS - 1) / SYLVA__SOLVE_SPLIT_COLS;
            nf = nf < cap ? nf : cap;
            nb = nb < cap ? nb : cap;
        }
        if (single && sp->workers >= SYLVA__SOLVE_DIAG_MIN_WORKERS && f->k > SYLVA__SOLVE_DIAG_BLOCK)
            nd = (f->k + SYLVA__SOLVE_DIAG_BLOCK - 1) / SYLVA__SOLVE_DIAG_BLOCK;
        sp->split_fwd[p] = nf;
        sp->split_bwd[p] = nb;
        sp->diag_blocks[p] = nd;
        int64_t tasks = (nf > 1 ? nf : 0) + (nb > 1 ? nb : 0);
        if (nd > 1) { /* per direction: the blocks after the first, and each block's updates */
            tasks += 2 * (nd - 1);
            for (int64_t j = 0; j < nd; j++)
                tasks += sylva__solve_diag_groups(sp, p, 0, j) + sylva__solve_diag_groups(sp, p, 1, j);
        }
        sp->split_tasks_of[p] = tasks;
        sp->split_tasks += tasks;
    }
}

static int links(const sylva__tree *t, sylva__solve_pieces *sp)
{
    int64_t ns = t->nfronts, np = sp->npieces;
    sp->fwd_list = sylva__malloc((size_t)ns + 1, sizeof(int64_t));
    sp->bwd_list = sylva__malloc((size_t)ns + 1, sizeof(int64_t));
    if (!sp->fwd_list || !sp->bwd_list) return SYLVA_ERR_NO_MEMORY;
    int64_t nf = 0, nb = 0;
    sp->out_rows = 0;
    for (int64_t p = 0; p < np; p++) {
        sp->fwd_ptr[p] = nf;
        sp->bwd_ptr[p] = nb;
        int64_t sptr = 0, peak = 0;
        sp->work[p] = 0;
        for (int64_t f = sp->first[p]; f < sp->first[p + 1]; f++) {
            const sylva__front *fr = &t->fronts[f];
            int64_t on_stack = 0; /* rows of in-piece children's updates */
            for (int64_t c = t->child_ptr[f]; c < t->child_ptr[f + 1]; c++) {
                int64_t ch = t->child_list[c];
                if (sp->piece_of[ch] != p) sp->fwd_list[nf++] = sp->piece_of[ch];
                else on_stack += t->fronts[ch].m - t->fronts[ch].k;
            }
            int64_t r = fr->m - fr->k;
            int exported = fr->parent >= 0 && sp->piece_of[fr->parent] != p;
            sp->out_off[f] = -1;
            if (exported) {
                sp->out_off[f] = sp->out_rows;
                sp->out_rows += r;
                sp->bwd_list[nb++] = sp->piece_of[fr->parent];
                sptr -= on_stack;
            } else {
                if (sptr + r > peak) peak = sptr + r; /* the update is made above its children */
                sptr += r - on_stack;
            }
            sp->work[p] += front_work(fr);
            if (fr->m > sp->max_rows) sp->max_rows = fr->m;
        }
        nf = uniq(sp->fwd_list, sp->fwd_ptr[p], nf);
        nb = uniq(sp->bwd_list, sp->bwd_ptr[p], nb);
        sp->stack_rows[p] = peak;
        if (peak > sp->max_stack_rows) sp->max_stack_rows = peak;
    }
    sp->fwd_ptr[np] = nf;
    sp->bwd_ptr[np] = nb;
    return SYLVA_OK;
}

int sylva__solve_pieces_build(const sylva__tree *t, int workers, sylva__solve_pieces **out)
{
    *out = NULL;
    int64_t ns = t->nfronts;
    sylva__solve_pieces *sp = sylva__calloc(1, sizeof *sp);
    double *sub = sylva__malloc((size_t)ns + 1, sizeof *sub);
    int64_t *buf = sylva__malloc((size_t)ns + 1, sizeof *buf);
    char *top = sylva__calloc((size_t)ns + 1, 1);
    int status = SYLVA_ERR_NO_MEMORY;
    if (!sp || !sub || !buf || !top) goto done;
    sp->tree = t;
    sp->workers = workers;
    sp->first = sylva__malloc((size_t)ns + 2, sizeof(int64_t));
    sp->piece_of = sylva__malloc((size_t)ns + 1, sizeof(int64_t));
    sp->out_off = sylva__malloc((size_t)ns + 1, sizeof(int64_t));
    if (!sp->first || !sp->piece_of || !sp->out_off) goto done;
    double total = 0;
    if (!postordered(t, buf)) {
        status = sylva__fail(SYLVA_ERR_RUNTIME, "the solve needs the assembly tree in postorder");
        goto done;
    }
    for (int64_t f = 0; f < ns; f++) sub[f] = front_work(&t->fronts[f]);
    for (int64_t f = 0; f < ns; f++) { /* children before parents */
        total += front_work(&t->fronts[f]);
        if (t->fronts[f].parent >= 0) sub[t->fronts[f].parent] += sub[f];
    }
    double target = workers > 1 ? total / ((double)SYLVA__SOLVE_PIECES_PER_WORKER * workers) : total;
    split(t, sub, target, buf, top);
    pack(t, sub, top, target, sp);
    int64_t np = sp->npieces;
    for (int64_t p = 0; p < np; p++)
        for (int64_t f = sp->first[p]; f < sp->first[p + 1]; f++) sp->piece_of[f] = p;
    sp->fwd_ptr = sylva__malloc((size_t)np + 1, sizeof(int64_t));
    sp->bwd_ptr = sylva__malloc((size_t)np + 1, sizeof(int64_t));
    sp->stack_rows = sylva__malloc((size_t)np + 1, sizeof(int64_t));
    sp->work = sylva__malloc((size_t)np + 1, sizeof(double));
    sp->split_fwd = sylva__malloc((size_t)np + 1, sizeof(int64_t));
    sp->split_bwd = sylva__malloc((size_t)np + 1, sizeof(int64_t));
    sp->diag_blocks = sylva__malloc((size_t)np + 1, sizeof(int64_t));
    sp->split_tasks_of = sylva__malloc((size_t)np + 1, sizeof(int64_t));
    if (!sp->fwd_ptr || !sp->bwd_ptr || !sp->stack_rows || !sp->work || !sp->split_fwd || !sp->split_bwd ||
        !sp->diag_blocks || !sp->split_tasks_of)
        goto done;
    status = links(t, sp);
    if (!status) splits(t, sp);
done:
    free(sub);
    free(buf);
    free(top);
    if (status) sylva__solve_pieces_free(sp);
    else *out = sp;
    return status;
}

void sylva__solve_pieces_free(sylva__solve_pieces *sp)
{
    if (!sp) return;
    free(sp->first);
    free(sp->piece_of);
    free(sp->fwd_ptr);
    free(sp->fwd_list);
    free(sp->bwd_ptr);
    free(sp->bwd_list);
    free(sp->out_off);
    free(sp->stack_rows);
    free(sp->work);
    free(sp->split_fwd);
    free(sp->split_bwd);
    free(sp->diag_blocks);
    free(sp->split_tasks_of);
    free(sp);
}
