/* test_solve_plan.c — the GPU solve's per-pattern data checked without a
 * GPU: the solve blob's contract (every front once, in levels where no
 * front's ancestor shares or precedes its level, large fronts as the plan
 * says, parents and child counts, offsets into the groups' L slices, CB
 * rows, the permutation, a workspace layout without overlaps), the item
 * lists of both sweeps (every item of every front once, each after what it
 * needs), then the blob run by the CPU twin of the GPU solve
 * (kernels/solve_items_cpu.c: the same items in the same order) on a CPU
 * factor, for 1 and 5 right-hand sides, to c·n·ε; the GPU pivot check's
 * twin (kernels/solve_pivots_cpu.c) on the same blob: no failing pivot,
 * the extremes giving exactly the factorization's host pivot_ratio, the
 * log sums the log-determinant to rounding, and a NaN pivot planted in a
 * copy of L found where it is; and the residual on
 * A's permuted full pattern (frontal/full_pattern.c, the GPU residual's
 * input) against b − A x computed from A itself.
 *   test_solve_plan SPEC POLICY [small=N]
 */
#include <math.h>

#include "api.h"
#include "gpu_solve_plan.h"
#include "residual_cpu.h"
#include "test_util.h"

#define AT(type, blob, off) ((const type *)((const char *)(blob) + (off)))

/* A sweep's list with each LEAF item as FOLD items of its leaves (3 ints
 * each: the list position, the record, the code), checking that they are
 * small leaves and that no LEAF item is in the top's part (the top's
 * kernel has no LEAF branch); *n gets the entries. */
static int *expand_leaves(const sylva__solve_desc *d, const void *b, int forward, int *n)
{
    const sylva__solve_layout *y = &d->lay;
    const int *items = AT(int, b, forward ? y->fitems : y->bitems), count = forward ? d->nitems_f : d->nitems_b;
    const int *m = AT(int, b, y->m), *k = AT(int, b, y->k), *nchild = AT(int, b, y->nchild);
    int *out = test_alloc(3 * ((size_t)count + (size_t)d->nfronts) * sizeof *out + 1), e = 0;
    for (int q = 0; q < count && e < count + d->nfronts; q++) {
        int i = items[2 * q], code = items[2 * q + 1], leaves = SYLVA_SOLVE_INDEX(code);
        if (SYLVA_SOLVE_KIND(code) != SYLVA_SOLVE_LEAF) {
            out[3 * e] = q, out[3 * e + 1] = i, out[3 * e + 2] = code, e++;
            continue;
        }
        CHECK(leaves >= 1 && leaves <= SYLVA_SOLVE_LEAF_MAX && i >= 0 && i + leaves <= d->nfronts,
              "item %d: %d leaves from record %d", q, leaves, i);
        CHECK(forward ? q < count - d->ntop_f : q >= d->ntop_b, "item %d: a LEAF item in the top", q);
        for (int g = i; g < i + leaves && g >= 0 && g < d->nfronts && e < count + d->nfronts; g++) {
            CHECK(nchild[g] == 0 && m[g] <= SYLVA_SOLVE_LEAF_M && k[g] <= SYLVA_SOLVE_LEAF_K,
                  "item %d: record %d (%d rows, %d pivots, %d children) in a LEAF item", q, g, m[g], k[g], nchild[g]);
            out[3 * e] = q, out[3 * e + 1] = g, out[3 * e + 2] = SYLVA_SOLVE_ITEM(SYLVA_SOLVE_FOLD, 0), e++;
        }
    }
    *n = e;
    return out;
}

/* One sweep's item list: every item of every front once (a folded front's
 * one item, or its triangle and update items), in an order where each
 * item comes after what it needs: forward, a front's items after its
 * children's, its triangle items top down, each update after the triangle
 * items of its pivots;
 * backward, a front's items after its parent's, its updates first, its
 * triangle items bottom up. The top of the tree (SYLVA_SOLVE_TOP): the
 * forward list's last ntop_f items, the backward's first ntop_b; every
 * item of a front in the same part, the top closed upwards, its fronts'
 * triangle items SYLVA_SOLVE_TOP_TB rows. A LEAF item counts as a FOLD
 * item of each of its leaves (each a small leaf). */
static void check_items(const sylva__solve_desc *d, const void *b, int forward)
{
    const sylva__solve_layout *y = &d->lay;
    const int count = forward ? d->nitems_f : d->nitems_b;
    int nex = 0, *ex = expand_leaves(d, b, forward, &nex);
    const int *nt = AT(int, b, y->nt), *nu = AT(int, b, forward ? y->nuf : y->nub), *par = AT(int, b, y->parent);
    const int *k = AT(int, b, y->k);
    int F = d->nfronts;
    int *first = test_alloc((size_t)F * sizeof *first + 1), *last = test_alloc((size_t)F * sizeof *last + 1);
    int *tri = test_alloc((size_t)F * sizeof *tri + 1), *upd = test_alloc((size_t)F * sizeof *upd + 1);
    int *top = test_alloc((size_t)F * sizeof *top + 1), *last_chunk = test_alloc((size_t)F * sizeof *last_chunk + 1);
    const int top0 = forward ? count - d->ntop_f : 0, top1 = forward ? count : d->ntop_b;
    char **seen = test_alloc((size_t)F * sizeof *seen + 1);
    for (int i = 0; i < F; i++) {
        first[i] = last[i] = -1, tri[i] = upd[i] = 0;
        seen[i] = memset(test_alloc((size_t)nu[i] + 1), 0, (size_t)nu[i] + 1);
    }
    for (int x = 0; x < nex; x++) {
        int q = ex[3 * x], i = ex[3 * x + 1], kind = SYLVA_SOLVE_KIND(ex[3 * x + 2]);
        int idx = SYLVA_SOLVE_INDEX(ex[3 * x + 2]);
        CHECK(i >= 0 && i < F, "item %d: record %d", q, i);
        if (i < 0 || i >= F) break;
        const int here = q >= top0 && q < top1, tb = here ? SYLVA_SOLVE_TOP_TB : SYLVA_SOLVE_TB;
        if (first[i] < 0) first[i] = q, top[i] = here;
        last[i] = q;
        CHECK(top[i] == here && (nt[i] == 0 || nt[i] == (k[i] + tb - 1) / tb), "item %d: record %d in both parts, "
              "or %d triangle items of %d rows for %d pivots", q, i, nt[i], tb, k[i]);
        if (kind == SYLVA_SOLVE_FOLD) {
            CHECK(nt[i] == 0 && first[i] == q, "item %d: record %d folded twice or also split", q, i);
        } else if (kind == SYLVA_SOLVE_TRI) {
            int want = forward ? tri[i] : nt[i] - 1 - tri[i], ready = 1;
            /* Backward: after every update item (a top front, waiting
             * by pivot chunk: of its own pivots' chunks). */
            int nbk = (k[i] + SYLVA_SOLVE_BK - 1) / SYLVA_SOLVE_BK, nbr = nbk ? nu[i] / nbk : 0;
            int chunked = here && nu[i] > 0;
            for (int u = 0; u < nu[i] && !forward; u++) {
                int j0 = u / nbr * SYLVA_SOLVE_BK;
                if ((!chunked || (j0 >= idx * tb && j0 < (idx + 1) * tb)) && !seen[i][u]) ready = 0;
            }
            CHECK(idx == want && ready, "item %d: triangle %d of record %d (expected %d, %d updates before it)", q,
                  idx, i, want, upd[i]);
            tri[i]++;
        } else {
            /* Forward: after the triangle blocks of its pivots, in any
             * order among themselves; backward: in order, before them. */
            int ok = kind == SYLVA_SOLVE_UPD;
            if (ok && forward) {
                int nku = (k[i] + SYLVA_SOLVE_UK - 1) / SYLVA_SOLVE_UK, j0 = idx % nku * SYLVA_SOLVE_UK;
                int j1 = j0 + SYLVA_SOLVE_UK < k[i] ? j0 + SYLVA_SOLVE_UK : k[i];
                ok = idx < nu[i] && !seen[i][idx] && tri[i] >= (j1 + tb - 1) / tb;
                if (ok) seen[i][idx] = 1;
            } else if (ok) {
                /* Backward: once each, before the triangle items of their
                 * pivots (checked there); in order before them all, or on
                 * a top front (waiting by pivot chunk) the last pivots'
                 * chunks first. */
                int nbk = (k[i] + SYLVA_SOLVE_BK - 1) / SYLVA_SOLVE_BK, nbr = nu[i] / nbk;
                ok = idx < nu[i] && !seen[i][idx] &&
                     (here ? upd[i] == 0 || idx / nbr <= last_chunk[i] : idx == upd[i] && tri[i] == 0);
                if (ok) seen[i][idx] = 1, last_chunk[i] = idx / nbr;
            }
            CHECK(ok, "item %d: update %d of record %d out of order", q, idx, i);
            upd[i]++;
        }
    }
    for (int i = 0; i < F; i++) {
        CHECK(first[i] >= 0 && tri[i] == nt[i] && upd[i] == nu[i], "record %d: %d of %d triangle and %d of %d update "
              "items", i, tri[i], nt[i], upd[i], nu[i]);
        int p = par[i];
        if (p >= 0 && first[i] >= 0)
            CHECK(forward ? last[i] < first[p] : first[i] > last[p], "record %d's items and its parent's out of order",
                  i);
        if (p >= 0 && first[i] >= 0 && first[p] >= 0)
            CHECK(!top[i] || top[p], "record %d is in the top, its parent %d is not", i, p);
    }
    for (int i = 0; i < F; i++) free(seen[i]);
    free(seen);
    free(ex);
    free(first);
    free(last);
    free(tri);
    free(upd);
    free(top);
    free(last_chunk);
}

static void check_blob(const sylva__plan *pl, const sylva__gpu_solve_plan *gs)
{
    const sylva__tree *t = pl->tree;
    const sylva__solve_desc *d = &gs->desc;
    const sylva__solve_layout *y = &d->lay;
    const void *b = gs->blob;
    int64_t *level = test_alloc((size_t)t->nfronts * sizeof *level + 1), rows = 0;
    for (int64_t f = 0; f < t->nfronts; f++) level[f] = -1;
    CHECK(d->nfronts == t->nfronts && d->level_ptr[0] == 0 && d->level_ptr[d->nlevels] == d->nfronts,
          "levels cover %d of %lld fronts", d->level_ptr[d->nlevels], (long long)t->nfronts);
    int64_t *record = test_alloc((size_t)t->nfronts * sizeof *record + 1);
    for (int l = 0; l < d->nlevels; l++) {
        for (int i = d->level_ptr[l]; i < d->level_ptr[l + 1]; i++) {
            int64_t col = AT(int64_t, b, y->col)[i], f = t->col2front[col];
            const sylva__front *fr = &t->fronts[f];
            int64_t g = pl->front_group[f];
            CHECK(fr->first_col == col && level[f] < 0, "record %d: front %lld listed twice or not at its column", i,
                  (long long)f);
            level[f] = l;
            record[f] = i;
            CHECK(AT(int, b, y->m)[i] == fr->m && AT(int, b, y->k)[i] == fr->k, "record %d sizes", i);
            CHECK(AT(int, b, y->group)[i] == g && AT(int, b, y->large)[i] == pl->large[g], "record %d group", i);
            CHECK(pl->l_off[pl->front_list[pl->group_ptr[g]]] + AT(int64_t, b, y->lofs)[i] == pl->l_off[f],
                  "record %d L offset", i);
            int64_t r = fr->m - fr->k, ro = AT(int64_t, b, y->rofs)[i];
            CHECK(!memcmp(AT(int64_t, b, y->rows) + ro, t->rows + fr->row_off + fr->k, (size_t)r * sizeof(int64_t)),
                  "record %d rows", i);
            CHECK(r <= d->max_cb_rows, "record %d: %lld rows above the maximum", i, (long long)r);
            CHECK(AT(int, b, y->nchild)[i] == t->child_ptr[f + 1] - t->child_ptr[f], "record %d children", i);
            rows += r;
        }
    }
    for (int64_t f = 0; f < t->nfronts; f++) {
        int64_t p = t->fronts[f].parent;
        CHECK(level[f] >= 0, "front %lld missing", (long long)f);
        if (level[f] < 0) continue;
        CHECK(AT(int, b, y->parent)[record[f]] == (p >= 0 ? record[p] : -1), "front %lld parent record", (long long)f);
        if (p >= 0) CHECK(level[p] > level[f], "front %lld at level %lld, its parent at %lld", (long long)f,
                          (long long)level[f], (long long)level[p]);
    }
    check_items(d, b, 1);
    check_items(d, b, 0);
    free(record);
    CHECK(!memcmp(AT(int64_t, b, y->perm), t->perm, (size_t)t->n * sizeof(int64_t)), "permutation");
    CHECK(y->rows + rows * 8 <= y->perm && y->perm + t->n * 8 <= y->bytes, "blob layout");
    for (int refine = 0; refine < 2; refine++) { /* in order, aligned, each array before the next */
        sylva__solve_ws w;
        sylva__solve_ws_layout(d, 7, refine, &w);
        size_t vec = (size_t)t->n * 7 * sizeof(double);
        /* The forward's counters, then the backward's right after them
         * (sylva__gpu_solve_begin zeroes both at once). */
        size_t start[] = {w.Lp, w.gbase, w.flow, w.flowb, w.bad, w.badval, w.plo, w.phi, w.x, w.b, w.r, w.d, w.omega};
        size_t chunks = (7 + SYLVA_SOLVE_COLS - 1) / SYLVA_SOLVE_COLS;
        size_t flow = 3 * (size_t)d->nfronts * chunks + SYLVA_SOLVE_TICKETS;
        size_t flowb = (size_t)(3 * d->nfronts + (d->ntop_b > 0 ? t->n : 0)) * chunks + SYLVA_SOLVE_TICKETS;
        size_t size[] = {(size_t)d->nfronts * 8, (size_t)d->ngroups * 8, flow * 4, flowb * 4,
                         (size_t)d->nfronts * 4, (size_t)d->nfronts * 8, (size_t)d->nfronts * 8,
                         (size_t)d->nfronts * 8, vec, vec, vec, vec, 7 * 8};
        int count = refine ? 13 : 9;
        CHECK(w.flowb == w.flow + flow * 4, "workspace: the backward's counters at %zu, not right after the "
              "forward's (%zu + %zu)", w.flowb, w.flow, flow * 4);
        for (int i = 0; i < count; i++) {
            size_t end = i + 1 < count ? start[i + 1] : w.bytes;
            CHECK((i == 3 ? start[i] % 4 : start[i] % 256) == 0 && start[i] + size[i] <= end, "workspace (refine "
                  "%d): array %d at %zu, %zu bytes, next at %zu", refine, i, start[i], size[i], end);
        }
        CHECK(w.stage % 256 == 0 && w.stage >= start[count - 1] + size[count - 1] &&
                  w.stage + (size_t)t->n * 7 * sizeof(double) <= w.bytes,
              "workspace (refine %d): stage at %zu of %zu", refine, w.stage, w.bytes);
    }
    free(level);
}

/* Solve nrhs random columns through the twin; returns the worst backward error. */
static double twin_solve(const sylva_matrix *A, const sylva__plan *pl, const sylva__gpu_solve_plan *gs,
                         const double *L, int64_t nrhs)
{
    const sylva__solve_desc *d = &gs->desc;
    int64_t n = A->n;
    double **gbase = test_alloc((size_t)(pl->ngroups + 1) * sizeof *gbase);
    for (int64_t g = 0; g < pl->ngroups; g++) gbase[g] = (double *)L + pl->l_off[pl->front_list[pl->group_ptr[g]]];
    double *B = test_alloc((size_t)(n * nrhs + 1) * sizeof *B), *X = test_alloc((size_t)(n * nrhs + 1) * sizeof *X);
    double *Y = test_alloc((size_t)(n * nrhs + 1) * sizeof *Y);
    double *T = test_alloc((size_t)(d->max_cb_rows * nrhs + 1) * sizeof *T);
    const int64_t *perm = AT(int64_t, gs->blob, d->lay.perm);
    for (int64_t i = 0; i < n * nrhs; i++) B[i] = test_rand();
    for (int64_t c = 0; c < nrhs; c++)
        for (int64_t i = 0; i < n; i++) X[i + c * n] = B[perm[i] + c * n];
    sylva__solve_items_cpu(d, gs->blob, gbase, nrhs, X, T);
    for (int64_t c = 0; c < nrhs; c++)
        for (int64_t i = 0; i < n; i++) Y[perm[i] + c * n] = X[i + c * n];
    double e = test_check_solution(A, Y, B, nrhs, "twin solve");
    free(gbase);
    free(B);
    free(X);
    free(Y);
    free(T);
    return e;
}

/* The pivot check's twin on the blob over L (host), against the host's
 * pivot ratio and log-determinant; then over a copy of L with the middle
 * record's middle pivot NaN, which it must find there and only there. */
static void twin_pivots(const sylva__plan *pl, const sylva__gpu_solve_plan *gs, const double *L, double ratio,
                        double logdet)
{
    const sylva__solve_desc *d = &gs->desc;
    const int F = d->nfronts;
    const int *m = AT(int, gs->blob, d->lay.m), *k = AT(int, gs->blob, d->lay.k);
    const int *grp = AT(int, gs->blob, d->lay.group);
    const int64_t *lofs = AT(int64_t, gs->blob, d->lay.lofs);
    int64_t nl = pl->l_off[pl->tree->nfronts];
    double **gbase = test_alloc((size_t)(pl->ngroups + 1) * sizeof *gbase);
    double *C = test_alloc((size_t)(nl + 1) * sizeof *C);
    int *bad = test_alloc((size_t)(F + 1) * sizeof *bad);
    double *val = test_alloc((size_t)(F + 1) * sizeof *val), *lo = test_alloc((size_t)(F + 1) * sizeof *lo);
    double *hi = test_alloc((size_t)(F + 1) * sizeof *hi);
    const int pi = F / 2, pj = F > 0 ? k[pi] / 2 : 0; /* where pass 1 plants its NaN */
    memcpy(C, L, (size_t)nl * sizeof *C);
    if (F > 0) C[pl->l_off[pl->front_list[pl->group_ptr[grp[pi]]]] + lofs[pi] + pj + (int64_t)pj * m[pi]] = NAN;
    for (int pass = 0; pass < 2 && F > 0; pass++) {
        const double *base = pass ? C : L;
        for (int64_t g = 0; g < pl->ngroups; g++)
            gbase[g] = (double *)base + pl->l_off[pl->front_list[pl->group_ptr[g]]];
        sylva__solve_pivots_cpu(d, gs->blob, gbase, bad, val, lo, hi);
        double pmin, pmax, logs = 0;
        int good = sylva__solve_pivot_extremes(F, bad, lo, hi, &pmin, &pmax), others = 0;
        if (pass == 0) {
            for (int i = 0; i < F; i++) {
                CHECK(bad[i] == -1, "twin pivots: record %d has a bad pivot %d (%g)", i, bad[i], val[i]);
                logs += val[i];
            }
            double r = (pmin / pmax) * (pmin / pmax);
            CHECK(good && r == ratio, "twin pivots: extremes %.17g, %.17g give %.17g, the host pivot_ratio is %.17g",
                  pmin, pmax, r, ratio);
            CHECK(fabs(2 * logs - logdet) <= 1e-12 * (fabs(logdet) + (double)d->n),
                  "twin pivots: 2 Σ log L_jj = %.17g, logdet %.17g", 2 * logs, logdet);
            printf("twin pivots: %d fronts, pivots in [%.6e, %.6e], ratio %.6e\n", F, pmin, pmax, r);
        } else {
            for (int i = 0; i < F; i++) others += i != pi && bad[i] != -1;
            CHECK(bad[pi] == pj && isnan(val[pi]) && !good && !others,
                  "twin pivots: the NaN at record %d pivot %d reported as %d (%g), all good %d, %d others bad",
                  pi, pj, bad[pi], val[pi], good, others);
        }
    }
    free(gbase);
    free(C);
    free(bad);
    free(val);
    free(lo);
    free(hi);
}

/* The residual on the full pattern, permuted and in the user's numbering,
 * against b − A x from sylva_matrix_symv. */
static void check_residual(const sylva_matrix *A, const sylva__tree *t)
{
    sylva__full_pattern *fp = NULL;
    CHECK(sylva__full_pattern_build(t, &fp) == SYLVA_OK, "full pattern");
    if (!fp) return;
    int64_t n = A->n;
    CHECK(fp->nnz == 2 * A->nnz - n || fp->nnz < 2 * A->nnz, "full pattern has %lld entries for %lld stored",
          (long long)fp->nnz, (long long)A->nnz);
    double *x = test_alloc((size_t)(n + 1) * sizeof *x), *b = test_alloc((size_t)(n + 1) * sizeof *b);
    double *ax = test_alloc((size_t)(n + 1) * sizeof *ax), *r = test_alloc((size_t)(n + 1) * sizeof *r);
    double *xp = test_alloc((size_t)(n + 1) * sizeof *xp), *bp = test_alloc((size_t)(n + 1) * sizeof *bp);
    double *rp = test_alloc((size_t)(n + 1) * sizeof *rp);
    for (int64_t i = 0; i < n; i++) x[i] = test_rand(), b[i] = test_rand();
    sylva_matrix_symv(A, x, ax);
    double w_user, w_perm, worst = 0, scale = 0;
    sylva__d_residual_cpu(0, n, fp->rowptr, fp->colind, fp->valind, A->values, t->perm, 1, x, n, b, n, r, n, &w_user);
    for (int64_t i = 0; i < n; i++) xp[i] = x[t->perm[i]], bp[i] = b[t->perm[i]];
    sylva__d_residual_cpu(0, n, fp->rowptr, fp->colind, fp->valind, A->values, NULL, 1, xp, n, bp, n, rp, n, &w_perm);
    for (int64_t i = 0; i < n; i++) {
        double d = fabs(r[i] - (b[i] - ax[i])), dp = fabs(rp[i] - r[t->perm[i]]);
        if (!(d <= worst)) worst = d;
        if (!(dp <= worst)) worst = dp;
        if (fabs(b[i]) + fabs(ax[i]) > scale) scale = fabs(b[i]) + fabs(ax[i]);
    }
    CHECK(worst <= 1e-13 * scale, "residual differs from b − A x by %.3e (scale %.3e)", worst, scale);
    CHECK(w_user == w_perm && w_user > 0, "backward errors %.3e (user numbering) and %.3e (permuted)", w_user, w_perm);
    free(x);
    free(b);
    free(ax);
    free(r);
    free(xp);
    free(bp);
    free(rp);
    sylva__full_pattern_free(fp);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: test_solve_plan SPEC POLICY [small=N]\n");
        return 2;
    }
    test_seed();
    sylva_matrix *A = NULL;
    if (test_load(argv[1], &A)) {
        fprintf(stderr, "cannot load %s: %s\n", argv[1], sylva_last_error());
        return 1;
    }
    sylva_options o;
    sylva_default_options(&o);
    o.policy = argv[2];
    o.ncpus = 2;
    if (argc > 3 && !strncmp(argv[3], "small=", 6)) o.small_front_rows = atoll(argv[3] + 6);
    CHECK(sylva_init(&o) == SYLVA_OK, "init: %s", sylva_last_error());
    sylva_analysis_t *an = NULL;
    sylva_factor_t *F = NULL;
    CHECK(sylva_analyze(A, &o, &an, NULL) == SYLVA_OK, "analyze: %s", sylva_last_error());
    sylva_factor_info info;
    CHECK(an && sylva_factorize(an, A, &F, &info) == SYLVA_OK, "factorize: %s", sylva_last_error());
    if (F) {
        const sylva__plan *pl = sylva__numeric_plan(F->num); /* a dynamic policy's: its run's */
        sylva__gpu_solve_plan *gs = NULL;
        CHECK(sylva__gpu_solve_plan_build(pl, &gs) == SYLVA_OK, "solve plan: %s", sylva_last_error());
        const double *L = sylva__numeric_host_values(F->num);
        if (gs && L) {
            check_blob(pl, gs);
            double logdet = NAN;
            CHECK(sylva_logdet(F, &logdet) == SYLVA_OK, "logdet: %s", sylva_last_error());
            twin_pivots(pl, gs, L, info.pivot_ratio, logdet);
            double e1 = twin_solve(A, pl, gs, L, 1), e5 = twin_solve(A, pl, gs, L, 5);
            const int *fi = AT(int, gs->blob, gs->desc.lay.fitems);
            int leaves = 0;
            for (int q = 0; q < gs->desc.nitems_f; q++)
                if (SYLVA_SOLVE_KIND(fi[2 * q + 1]) == SYLVA_SOLVE_LEAF) leaves += SYLVA_SOLVE_INDEX(fi[2 * q + 1]);
            printf("%s %s: %d levels, %d + %d items (top %d + %d; %d leaves in LEAF items), blob %.2f MB; twin solve "
                   "backward error %.2e (1), %.2e (5)\n", argv[1], argv[2], gs->desc.nlevels, gs->desc.nitems_f,
                   gs->desc.nitems_b, gs->desc.ntop_f, gs->desc.ntop_b, leaves, gs->desc.lay.bytes / 1e6, e1, e5);
        }
        check_residual(A, pl->tree);
        int64_t *bad = test_alloc((size_t)(pl->tree->nfronts + 1) * sizeof *bad);
        double *val = test_alloc((size_t)(pl->tree->nfronts + 1) * sizeof *val);
        CHECK(sylva__numeric_pivot_scan(F->num, bad, val, NULL) == SYLVA_OK, "pivot scan");
        for (int64_t f = 0; f < pl->tree->nfronts; f++) CHECK(bad[f] == -1, "front %lld: bad pivot %lld", (long long)f, (long long)bad[f]);
        free(bad);
        free(val);
        sylva__gpu_solve_plan_free(gs);
    }
    sylva_factor_free(F);
    sylva_analysis_free(an);
    sylva_matrix_free(A);
    sylva_finalize();
    return test_exit("test_solve_plan");
}
