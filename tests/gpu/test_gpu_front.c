/* test_gpu_front.c — the vbatched partial factorization (and its POTRF,
 * TRSM, SYRK, GEMM parts) against the CPU twins of front_batch_cpu.h, on
 * fresh random SPD fronts each run with every non-written position poisoned.
 * Batches mix all shape classes: (1,1), (2,1), (5,3), k = m, k = 1 with m
 * large, both sides of every crossover (tiny G = 4/8/16/32, fused buckets,
 * medium), empty entries, k = 0, and one non-SPD front per batch. Each
 * tuning variant (threads, panel widths, crossovers, DMMA or SIMT updates,
 * 64-thread small buckets, merged medium panels, the tiny kernels' forms,
 * a warp's lane groups in step, one launch for all tiny lane-group sizes,
 * the medium path's grids over the batch or over its list, the fused
 * buckets over their lists or not, the batch with and without its work
 * scratch, the medium path on a second stream from several host threads at
 * once) runs the same checks; the max-only and range (smallest m known) no-check
 * entries run one-size batches on both sides of every crossover and mixed
 * batches.
 * Usage: test_gpu_front [--quick [fused_list | streams]]   (quick: small sizes, for the
 * sanitizers; fused_list, streams: that test alone)
 * Exit: 0 pass, 1 fail, 77 no GPU. */
#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "front_batch_cpu.h"
#include "sylva.h"
#include "gpu_test_util.h"

static int quick, failures;
/* Which entry run_factor_batch calls: 0 the checked one (it derives the
 * smallest m), 1 max_nocheck (smallest m unknown: every class launched),
 * 2 range_nocheck with the batch's exact smallest m. */
static int entry_mode;

static void check(int ok, const char *what, int i, int m, int k, double err)
{
    if (!ok) {
        failures++;
        if (failures < 30)
            printf("FAIL %s: front %d (m=%d, k=%d) error %.3g\n", what, i, m, k, err);
    }
}

/* The GPU result of s (downloaded) against the CPU twin; returns the
 * largest backward error relative to m·ε and prints it under name. */
static double check_batch(frontset *s, const int *bad, const char *name)
{
    const int count = s->count;
    fs_download(s);
    /* CPU twin on a copy. */
    double *cpu = malloc(s->len * sizeof(double));
    memcpy(cpu, s->orig, s->len * sizeof(double));
    double **P = malloc((count + 1) * sizeof(double *)), **C = malloc((count + 1) * sizeof(double *));
    int *info = calloc(count + 1, sizeof(int));
    fs_host_ptrs(s, cpu, P, C);
    sylva__d_front_factor_batch_cpu(count, s->m, s->k, P, s->ldp, C, s->ldc, info);
    double worst = 0;
    for (int i = 0; i < count; i++) {
        const int m = s->m[i], k = s->k[i];
        check(s->info[i] == info[i], "info differs from CPU twin", i, m, k, s->info[i]);
        if (bad && bad[i] && bad[i] <= k) check(s->info[i] == bad[i], "info", i, m, k, s->info[i]);
        if (info[i] != 0) continue;
        double e = fs_backward_error(s, i, s->res), eps_m = (m > 0 ? m : 1) * DBL_EPSILON;
        check(e <= 10 * eps_m, "backward error", i, m, k, e);
        double d = fs_diff(s, i, s->res, cpu);
        check(d <= 1000 * eps_m, "difference to CPU twin", i, m, k, d);
        if (e / eps_m > worst) worst = e / eps_m;
    }
    printf("  %-34s %5d fronts  max backward error %.2f m·eps\n", name, count, worst);
    free(cpu), free(P), free(C), free(info);
    return worst;
}

/* One batch through the GPU and the CPU twin; returns the largest backward
 * error relative to m·ε. */
static double run_factor_batch(int count, const int *m, const int *k, const int *whole,
                               const int *bad, const sylva__kernel_tuning *t, const char *name)
{
    frontset s;
    fs_make(&s, count, m, k, whole, bad);
    fs_upload(&s);
    sylva__front_batch b = fs_batch(&s);
    int min_m = count > 0 ? s.m[0] : 0, max_m = 0, max_k = 0, rc;
    for (int i = 0; i < count; i++) {
        if (s.m[i] < min_m) min_m = s.m[i];
        if (s.m[i] > max_m) max_m = s.m[i];
        if (s.k[i] > max_k) max_k = s.k[i];
    }
    if (entry_mode == 1)
        rc = sylva__gpu_front_factor_vbatched_max_nocheck(&b, max_m, max_k, t, 0);
    else if (entry_mode == 2)
        rc = sylva__gpu_front_factor_vbatched_range_nocheck(&b, min_m, max_m, max_k, t, 0);
    else
        rc = sylva__gpu_front_factor_vbatched(&b, s.m, s.k, s.ldp, s.ldc, t, 0);
    check(rc == 0, "front_factor_vbatched returned", -1, 0, 0, rc);
    CK(cudaGetLastError());
    double worst = check_batch(&s, bad, name);
    fs_free(&s);
    return worst;
}

/* A batch of every shape class plus random sizes up to max_m. */
static void test_factor(const sylva__kernel_tuning *t, const char *name, int max_m)
{
    static const int fixed[][2] = {{1, 1}, {2, 1}, {5, 3}, {0, 0}, {3, 0}, {4, 4}, {5, 5},
                                   {8, 8}, {9, 4}, {16, 16}, {17, 9}, {32, 32}, {33, 33},
                                   {33, 1}, {64, 64}, {65, 20}, {96, 96}, {97, 50}, {128, 128},
                                   {129, 64}, {160, 160}, {161, 80}, {192, 192}, {193, 96}, {200, 1}, {256, 256},
                                   {300, 47}, {512, 512}, {513, 100}, {777, 1}, {1024, 300}};
    int nf = (int)(sizeof fixed / sizeof fixed[0]);
    int count = nf + (quick ? 30 : 200);
    int *m = calloc(count, sizeof(int)), *k = calloc(count, sizeof(int));
    int *whole = calloc(count, sizeof(int)), *bad = calloc(count, sizeof(int));
    int n = 0;
    for (int i = 0; i < nf; i++)
        if (fixed[i][0] <= max_m) m[n] = fixed[i][0], k[n] = fixed[i][1], whole[n] = i % 2, n++;
    while (n < count) {
        int mm = gt_randint(1, gt_randint(0, 3) ? (max_m < 200 ? max_m : 200) : max_m);
        m[n] = mm, k[n] = gt_randint(1, mm), whole[n] = gt_randint(0, 1), n++;
    }
    /* One non-SPD front in each size class present. */
    int marks[4] = {0, 0, 0, 0};
    for (int i = 0; i < n; i++) {
        int cls = m[i] <= 32 ? 0 : m[i] <= 192 ? 1 : 2;
        if (!marks[cls] && k[i] >= 2) marks[cls] = 1, bad[i] = gt_randint(1, k[i]);
    }
    run_factor_batch(n, m, k, whole, bad, t, name);
    free(m), free(k), free(whole), free(bad);
}

/* Batches of one size (both sides of every crossover) and one batch of
 * sizes lo..hi, through the max-only and the range entries: the range
 * entry launches only the classes at or above the smallest m. */
static void test_entries(const sylva__kernel_tuning *t)
{
    /* 109: a fused bucket whose packed front (47,960 B) fits the 48 KB
     * default only without the kernel's static arrays. */
    static const int ns[] = {1, 4, 5, 8, 9, 16, 17, 32, 33, 64, 65, 96, 97, 109, 128, 129, 160, 161, 200};
    enum { COUNT = 40 };
    int m[COUNT], k[COUNT], whole[COUNT], bad[COUNT];
    for (int mode = 1; mode <= 2; mode++) {
        entry_mode = mode;
        double worst = 0;
        for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
            if (quick && ns[i] > 97) break;
            for (int q = 0; q < COUNT; q++)
                m[q] = ns[i], k[q] = q % 3 ? ns[i] : gt_randint(1, ns[i]), whole[q] = q % 2, bad[q] = 0;
            if (ns[i] >= 2) bad[COUNT / 2] = gt_randint(1, k[COUNT / 2]);
            {
                char name[64];
                snprintf(name, sizeof name, "%s entry, m = %d", mode == 1 ? "max" : "range", ns[i]);
                double w = run_factor_batch(COUNT, m, k, whole, bad, t, name);
                if (w > worst) worst = w;
            }
        }
        /* mixed sizes whose smallest is inside the tiny and fused classes */
        static const int span[4][2] = {{1, 20}, {5, 40}, {17, 70}, {33, 170}};
        for (int r = 0; r < 4; r++) {
            for (int q = 0; q < COUNT; q++) {
                m[q] = q == 0 ? span[r][0] : q == 1 ? span[r][1] : gt_randint(span[r][0], span[r][1]);
                k[q] = gt_randint(1, m[q]), whole[q] = q % 2, bad[q] = 0;
            }
            char name[64];
            snprintf(name, sizeof name, "%s entry, m = %d..%d", mode == 1 ? "max" : "range", span[r][0], span[r][1]);
            run_factor_batch(COUNT, m, k, whole, bad, t, name);
        }
    }
    entry_mode = 0;
}

/* The medium path's list (medium_list ≥ 1, v10) on a level-like batch:
 * 8,400 fronts (more than one chunk of the list kernel), most tiny, 300
 * medium (m 161..260, k = 0 and non-SPD ones among them), and three with
 * 64, 65 and 67 panels of 16 (past the list's 64 counts); through the
 * checked and the range entries, a block per listed front (1) and 2 blocks
 * per SM looping over the list (2), with nb 32, and once without the
 * batch's work (quick: the first two). */
static void test_medium_list(const sylva__kernel_tuning *t)
{
    enum { COUNT = 8400, MED = 300 };
    int *m = malloc(COUNT * sizeof(int)), *k = malloc(COUNT * sizeof(int));
    int *whole = malloc(COUNT * sizeof(int)), *bad = calloc(COUNT, sizeof(int));
    for (int q = 0; q < COUNT; q++) {
        const int med = q % (COUNT / MED) == 7;
        m[q] = med ? gt_randint(161, 260) : gt_randint(1, 16);
        k[q] = med && q % 5 == 0 ? 0 : gt_randint(1, m[q]);
        whole[q] = q % 2;
        if (med && (q / (COUNT / MED)) % 7 == 3 && k[q] >= 2) bad[q] = gt_randint(1, k[q]);
    }
    static const int big[3][2] = {{1030, 1020}, {1040, 1030}, {1100, 1060}};
    for (int q = 0; q < 3; q++) m[100 + 2 * q] = big[q][0], k[100 + 2 * q] = big[q][1];
    static const int modes[4] = {1, 2, 1, 1};
    for (int r = 0; r < (quick ? 2 : 4); r++) { /* quick (the sanitizers): both grid forms */
        sylva__kernel_tuning u = *t;
        u.panel_nb = 16, u.medium_list = modes[r];
        entry_mode = r == 1 ? 0 : 2;
        gt_batch_work = r != 3;
        char name[64];
        snprintf(name, sizeof name, "medium list %d, %s%s", modes[r], r == 1 ? "checked" : "range",
                 r == 3 ? ", no work" : r == 2 ? ", nb 32" : "");
        if (r == 2) u.panel_nb = 32;
        run_factor_batch(COUNT, m, k, whole, bad, &u, name);
    }
    entry_mode = 0, gt_batch_work = 1;
    free(m), free(k), free(whole), free(bad);
}

/* The fused class's lists (fused_list 1, v11) on a batch of 8,400 fronts
 * (more than one chunk of the list kernel): every fused bucket's edges
 * (m = 32q, 32q + 1), random m in the class (38%), tiny (60%) and medium
 * fronts (2%), k = 0
 * and non-SPD fronts; forms: the table's (with and without the medium
 * list), 64-thread blocks with panels of 16 on SIMT updates up to 192 rows,
 * the lists off, the batch without work, the range entry with the smallest
 * m inside a bucket (a first launch not aligned to 32 rows) and the max
 * entry (quick: the first three, 600 fronts). */
static void test_fused_list(const sylva__kernel_tuning *t)
{
    const int count = quick ? 600 : 8400;
    int *m = malloc(count * sizeof(int)), *k = malloc(count * sizeof(int));
    int *whole = malloc(count * sizeof(int)), *bad = calloc(count, sizeof(int));
    static const int edge[] = {32, 33, 64, 65, 96, 97, 128, 129, 160, 161, 192, 193};
    for (int q = 0; q < count; q++) {
        const int r = q % 10;
        m[q] = q < 12 ? edge[q] : r < 6 ? gt_randint(1, 32) : q % 50 ? gt_randint(33, 192) : gt_randint(193, 260);
        k[q] = q % 13 == 5 ? 0 : q % 4 == 1 ? m[q] : gt_randint(1, m[q]);
        whole[q] = q % 2;
        if (q % 97 == 11 && k[q] >= 2) bad[q] = gt_randint(1, k[q]);
    }
    struct { int fused_max, threads, panel, mma_min, small, medium, list, work, entry; const char *name; } v[] = {
        {160, 0, 0, -1, -1, -1, 1, 1, 2, "fused list, table's forms"},
        {192, 64, 16, 192, 192, 0, 1, 1, 0, "fused list, 64 thr, panel 16, SIMT"},
        {192, 256, 8, 0, 0, 8, 1, 1, 1, "fused list, 256 thr, DMMA, max entry"},
        {160, 0, 0, -1, -1, 0, 1, 1, 2, "fused list, no medium list"},
        {160, 0, 0, -1, -1, -1, 0, 1, 2, "fused list off"},
        {160, 0, 0, -1, -1, -1, 1, 0, 2, "fused list, batch without work"},
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0] && (!quick || i < 3); i++) {
        sylva__kernel_tuning u = *t;
        u.fused_max_m = v[i].fused_max, u.fused_list = v[i].list;
        if (v[i].threads) u.fused_threads = v[i].threads, u.fused_panel = v[i].panel;
        if (v[i].mma_min >= 0) u.fused_mma_min_m = v[i].mma_min, u.fused_small_m = v[i].small;
        if (v[i].medium >= 0) u.medium_list = v[i].medium;
        entry_mode = v[i].entry, gt_batch_work = v[i].work;
        run_factor_batch(count, m, k, whole, bad, &u, v[i].name);
    }
    /* the range entry with the smallest m at 40 (the first bucket (39, 64]) */
    for (int q = 0; q < count; q++)
        if (m[q] < 40) m[q] = 40 + q % 150, k[q] = q % 13 == 5 ? 0 : gt_randint(1, m[q]), bad[q] = 0;
    entry_mode = 2, gt_batch_work = 1;
    run_factor_batch(count, m, k, whole, bad, t, "fused list, range entry m ≥ 40");
    entry_mode = 0;
    free(m), free(k), free(whole), free(bad);
}

/* class_streams (v14): the medium path on a second stream beside the tiny
 * and fused launches. First, THREADS host threads at once (a process's
 * first vbatched calls: each thread makes its second stream and events, and
 * the fused list launches' occupancy cache fills from several threads),
 * each on its own stream with its own batch, class_streams 1 and 2 on
 * alternate threads; then on stream 0 (the legacy default stream) a batch
 * of every class (fused bucket edges, tiny, medium fronts of 161..300 rows,
 * k = 0 and non-SPD fronts) with each form: the table's lists, the grids
 * over the batch (lists off), without work, the max and checked entries,
 * panel nb 16; batches without fused fronts (tiny + medium), without tiny
 * ones (the range entry from m = 40), all medium (no fork) and without
 * medium fronts (no fork); and class_streams 0 on the same batch (quick:
 * 2 threads, 500 fronts, the first four forms). */
#define CS_THREADS 4
typedef struct {
    frontset s;
    sylva__kernel_tuning t;
    int min_m, max_m, max_k, rc;
} cs_job;

static void *cs_thread(void *p)
{
    cs_job *j = p;
    cudaStream_t st;
    CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    sylva__front_batch b = fs_batch(&j->s);
    j->rc = sylva__gpu_front_factor_vbatched_range_nocheck(&b, j->min_m, j->max_m, j->max_k, &j->t, st);
    CK(cudaStreamSynchronize(st));
    CK(cudaStreamDestroy(st));
    return NULL;
}

static void cs_shapes(int count, int *m, int *k, int *whole, int *bad)
{
    static const int edge[] = {32, 33, 64, 65, 96, 97, 128, 129, 160, 161, 192, 193};
    for (int q = 0; q < count; q++) {
        const int r = q % 10;
        m[q] = q < 12 ? edge[q] : r < 4 ? gt_randint(1, 32) : r < 8 ? gt_randint(33, 160) : gt_randint(161, 300);
        k[q] = q % 13 == 5 ? 0 : q % 4 == 1 ? m[q] : gt_randint(1, m[q]);
        whole[q] = q % 2, bad[q] = 0;
        if (q % 97 == 11 && k[q] >= 2) bad[q] = gt_randint(1, k[q]);
    }
}

static void test_class_streams(const sylva__kernel_tuning *t)
{
    const int count = quick ? 500 : 3000, nthreads = quick ? 2 : CS_THREADS;
    int *m = malloc(count * sizeof(int)), *k = malloc(count * sizeof(int));
    int *whole = malloc(count * sizeof(int)), *bad = malloc(count * sizeof(int));
    {
        cs_job job[CS_THREADS];
        int *jbad[CS_THREADS];
        pthread_t th[CS_THREADS];
        for (int i = 0; i < nthreads; i++) {
            cs_shapes(count, m, k, whole, bad);
            fs_make(&job[i].s, count, m, k, whole, bad);
            fs_upload(&job[i].s);
            jbad[i] = malloc(count * sizeof(int));
            memcpy(jbad[i], bad, count * sizeof(int));
            job[i].t = *t, job[i].t.class_streams = 1 + i % 2;
            job[i].min_m = 1, job[i].max_m = 0, job[i].max_k = 0;
            for (int q = 0; q < count; q++) {
                if (m[q] > job[i].max_m) job[i].max_m = m[q];
                if (k[q] > job[i].max_k) job[i].max_k = k[q];
            }
        }
        CK(cudaDeviceSynchronize());
        for (int i = 0; i < nthreads; i++)
            if (pthread_create(&th[i], NULL, cs_thread, &job[i]) != 0) check(0, "pthread_create", i, 0, 0, 0);
        for (int i = 0; i < nthreads; i++) {
            pthread_join(th[i], NULL);
            check(job[i].rc == 0, "front_factor_vbatched returned (thread)", i, 0, 0, job[i].rc);
            char name[64];
            snprintf(name, sizeof name, "class streams %d, thread %d", job[i].t.class_streams, i);
            check_batch(&job[i].s, jbad[i], name);
            fs_free(&job[i].s), free(jbad[i]);
        }
    }
    cs_shapes(count, m, k, whole, bad);
    struct { int streams, fused_list, medium_list, nb, work, entry; const char *name; } v[] = {
        {1, 1, 8, 32, 1, 2, "class streams 1, table's lists"},
        {2, 1, 8, 32, 1, 2, "class streams 2, table's lists"},
        {1, 0, 0, 32, 1, 2, "class streams 1, lists off"},
        {1, 1, 1, 16, 1, 0, "class streams 1, medium list 1, nb 16, checked"},
        {2, 0, 2, 32, 1, 1, "class streams 2, medium list 2, max entry"},
        {1, 1, 8, 32, 0, 2, "class streams 1, batch without work"},
        {0, 1, 8, 32, 1, 2, "class streams 0, table's lists"},
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0] && (!quick || i < 4); i++) {
        sylva__kernel_tuning u = *t;
        u.class_streams = v[i].streams, u.fused_list = v[i].fused_list, u.medium_list = v[i].medium_list;
        u.panel_nb = v[i].nb;
        entry_mode = v[i].entry, gt_batch_work = v[i].work;
        run_factor_batch(count, m, k, whole, bad, &u, v[i].name);
    }
    entry_mode = 2, gt_batch_work = 1;
    if (!quick) {
        sylva__kernel_tuning u = *t;
        u.class_streams = 1;
        /* tiny + medium, no fused class (fused_max_m = tiny_max_m: no fused launch) */
        for (int q = 0; q < count; q++)
            if (m[q] > 32 && m[q] <= 160)
                m[q] = q % 2 ? gt_randint(1, 32) : gt_randint(161, 300), k[q] = gt_randint(1, m[q]), bad[q] = 0;
        u.fused_max_m = u.tiny_max_m;
        run_factor_batch(count, m, k, whole, bad, &u, "class streams 1, tiny + medium");
        u.fused_max_m = t->fused_max_m;
        /* fused + medium from m = 40 (the range entry: no tiny launch) */
        for (int q = 0; q < count; q++)
            if (m[q] < 40) m[q] = 40 + q % 200, k[q] = gt_randint(1, m[q]), bad[q] = 0;
        run_factor_batch(count, m, k, whole, bad, &u, "class streams 1, fused + medium, m ≥ 40");
        /* all medium: no fork */
        for (int q = 0; q < count; q++)
            if (m[q] <= 160) m[q] = 161 + q % 100, k[q] = gt_randint(1, m[q]), bad[q] = 0;
        run_factor_batch(count, m, k, whole, bad, &u, "class streams 1, all medium");
        /* no medium fronts: no fork */
        for (int q = 0; q < count; q++) m[q] = 1 + q % 160, k[q] = gt_randint(1, m[q]), bad[q] = 0;
        run_factor_batch(count, m, k, whole, bad, &u, "class streams 1, no medium");
    }
    entry_mode = 0;
    free(m), free(k), free(whole), free(bad);
}

/* POTRF, TRSM, SYRK and GEMM entries against their CPU twins. */
static void test_parts(const sylva__kernel_tuning *t)
{
    int count = quick ? 12 : 60, maxn = quick ? 100 : 400;
    int *n = malloc(count * sizeof(int)), *r = malloc(count * sizeof(int));
    for (int i = 0; i < count; i++) n[i] = gt_randint(0, maxn), r[i] = gt_randint(0, maxn);
    n[0] = 1, r[0] = 1, n[1] = 0, r[1] = 5;
    /* POTRF = fronts with k = m. */
    int *whole = calloc(count, sizeof(int));
    for (int i = 0; i < count; i++) whole[i] = 1;
    {
        frontset s;
        fs_make(&s, count, n, n, whole, NULL);
        fs_upload(&s);
        int rc = sylva__gpu_potrf_vbatched(count, s.dm, s.dP, s.dldp, s.dinfo, s.m, s.ldp, t, 0);
        check(rc == 0, "potrf returned", -1, 0, 0, rc);
        fs_download(&s);
        for (int i = 0; i < count; i++) {
            double e = fs_backward_error(&s, i, s.res);
            check(s.info[i] == 0 && e <= 10 * (n[i] + 1) * DBL_EPSILON, "potrf backward error",
                  i, n[i], n[i], e);
        }
        /* Bad arguments are refused before any launch. */
        int badn[1] = {-1}, badld[1] = {1};
        check(sylva__gpu_potrf_vbatched(1, s.dm, s.dP, s.dldp, s.dinfo, badn, badld, t, 0) ==
                  SYLVA_ERR_ARGUMENT,
              "potrf accepts n < 0", 0, -1, 0, 0);
        /* TRSM: B (r × n) ← B·L⁻ᵀ with the L just made; GEMM/SYRK on B. */
        double **hL = malloc(count * sizeof(double *)), **hB = malloc(count * sizeof(double *));
        double **dBp = malloc(count * sizeof(double *)), **hC = malloc(count * sizeof(double *));
        double **dCp = malloc(count * sizeof(double *));
        int *ldb = malloc(count * sizeof(int)), *ldc = malloc(count * sizeof(int));
        double **dB, **dC;
        int *dn, *dr, *dldb, *dldc;
        for (int i = 0; i < count; i++) {
            ldb[i] = (r[i] > 1 ? r[i] : 1) + gt_randint(0, 2);
            ldc[i] = (r[i] > 1 ? r[i] : 1);
            size_t nb = (size_t)ldb[i] * (n[i] > 0 ? n[i] : 1), nc = (size_t)ldc[i] * (r[i] > 0 ? r[i] : 1);
            hB[i] = malloc(nb * sizeof(double)), hC[i] = malloc(nc * sizeof(double));
            for (size_t q = 0; q < nb; q++) hB[i][q] = gt_rand();
            for (size_t q = 0; q < nc; q++) hC[i][q] = gt_rand();
            CK(cudaMalloc((void **)&dBp[i], nb * sizeof(double)));
            CK(cudaMalloc((void **)&dCp[i], nc * sizeof(double)));
            CK(cudaMemcpy(dBp[i], hB[i], nb * sizeof(double), cudaMemcpyHostToDevice));
            CK(cudaMemcpy(dCp[i], hC[i], nc * sizeof(double), cudaMemcpyHostToDevice));
            hL[i] = s.res + s.offP[i];
        }
        size_t pb = count * sizeof(double *), ib = count * sizeof(int);
        CK(cudaMalloc((void **)&dB, pb));
        CK(cudaMalloc((void **)&dC, pb));
        CK(cudaMalloc((void **)&dn, ib));
        CK(cudaMalloc((void **)&dr, ib));
        CK(cudaMalloc((void **)&dldb, ib));
        CK(cudaMalloc((void **)&dldc, ib));
        CK(cudaMemcpy(dB, dBp, pb, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(dC, dCp, pb, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(dn, n, ib, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(dr, r, ib, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(dldb, ldb, ib, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(dldc, ldc, ib, cudaMemcpyHostToDevice));
        /* L = the factored fronts on the device (s.dP). */
        rc = sylva__gpu_trsm_vbatched(count, dr, dn, s.dP, s.dldp, dB, dldb, r, n, s.ldp, ldb, t, 0);
        check(rc == 0, "trsm returned", -1, 0, 0, rc);
        sylva__d_trsm_batch_cpu(count, r, n, hL, s.ldp, hB, ldb);
        /* SYRK: C ← −B·Bᵀ + C (lower), then GEMM full: C ← 0.5·B·Bᵀ + 2·C. */
        rc = sylva__gpu_syrk_vbatched(count, dr, dn, -1.0, dB, dldb, 1.0, dC, dldc, r, n, ldb, ldc, 0);
        check(rc == 0, "syrk returned", -1, 0, 0, rc);
        sylva__d_syrk_batch_cpu(count, r, n, -1.0, hB, ldb, 1.0, hC, ldc);
        int maxr = 0, maxn2 = 0;
        for (int i = 0; i < count; i++) maxr = r[i] > maxr ? r[i] : maxr, maxn2 = n[i] > maxn2 ? n[i] : maxn2;
        rc = sylva__gpu_gemm_nt_vbatched_max_nocheck(count, dr, dr, dn, 0.5, dB, dldb, dB, dldb, 2.0,
                                                     dC, dldc, 0, maxr, maxr, maxn2, 0);
        check(rc == 0, "gemm returned", -1, 0, 0, rc);
        sylva__d_gemm_nt_batch_cpu(count, r, r, n, 0.5, hB, ldb, hB, ldb, 2.0, hC, ldc, 0);
        CK(cudaDeviceSynchronize());
        for (int i = 0; i < count; i++) {
            size_t nb = (size_t)ldb[i] * (n[i] > 0 ? n[i] : 1), nc = (size_t)ldc[i] * (r[i] > 0 ? r[i] : 1);
            double *gB = malloc(nb * sizeof(double)), *gC = malloc(nc * sizeof(double));
            CK(cudaMemcpy(gB, dBp[i], nb * sizeof(double), cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(gC, dCp[i], nc * sizeof(double), cudaMemcpyDeviceToHost));
            double num = 0, den = 0;
            for (int c = 0; c < n[i]; c++)
                for (int q = 0; q < r[i]; q++) {
                    double a = gB[q + (size_t)c * ldb[i]], b = hB[i][q + (size_t)c * ldb[i]];
                    num += (a - b) * (a - b), den += b * b;
                }
            double e = den > 0 ? sqrt(num / den) : sqrt(num);
            check(e == e && e <= 1000 * (n[i] + 1) * DBL_EPSILON, "trsm vs CPU twin", i, r[i], n[i], e);
            num = den = 0;
            for (int c = 0; c < r[i]; c++)
                for (int q = 0; q < r[i]; q++) {
                    double a = gC[q + (size_t)c * ldc[i]], b = hC[i][q + (size_t)c * ldc[i]];
                    num += (a - b) * (a - b), den += b * b;
                }
            e = den > 0 ? sqrt(num / den) : sqrt(num);
            check(e == e && e <= 100 * (n[i] + 1) * DBL_EPSILON, "syrk+gemm vs CPU twin", i, r[i], n[i], e);
            free(gB), free(gC), free(hB[i]), free(hC[i]);
            cudaFree(dBp[i]), cudaFree(dCp[i]);
        }
        printf("  potrf/trsm/syrk/gemm vbatched      %5d entries checked\n", count);
        cudaFree(dB), cudaFree(dC), cudaFree(dn), cudaFree(dr), cudaFree(dldb), cudaFree(dldc);
        free(hL), free(hB), free(dBp), free(hC), free(dCp), free(ldb), free(ldc);
        fs_free(&s);
    }
    free(n), free(r), free(whole);
}

int main(int argc, char **argv)
{
    quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
    gt_require_gpu();
    gt_seed();
    const int alone = argc < 3 ? 0 : strcmp(argv[2], "fused_list") == 0 ? 1 : strcmp(argv[2], "streams") == 0 ? 2 : 0;
    if (alone) { /* that test alone (racecheck) */
        sylva__kernel_tuning t;
        sylva__kernel_tuning_defaults(&t);
        if (alone == 1) test_fused_list(&t);
        else test_class_streams(&t);
        printf("%s: %d failures\n", failures ? "FAIL" : "PASS", failures);
        return failures ? 1 : 0;
    }
    int max_m = quick ? 200 : 1100;
    sylva__kernel_tuning t;
    sylva__kernel_tuning_defaults(&t);
    test_class_streams(&t); /* first: its threads make the process's first calls */
    test_factor(&t, "defaults", max_m);
    test_entries(&t);
    {   /* the tiny forms the table does not take, through both entries: one
         * launch for every lane-group size or one per size (one-size batches
         * take one launch either way), the 4-lane kernel capped or not */
        sylva__kernel_tuning u = t;
        u.tiny_one_launch = !t.tiny_one_launch, u.tiny_min_blocks4 = t.tiny_min_blocks4 ? 0 : 16;
        u.tiny_warp_uniform = t.tiny_warp_uniform == 16 ? 0 : 16;
        test_entries(&u);
    }
    /* Every kernel variant, and the crossovers moved. */
    struct { int tiny, fused, threads, panel, nb, mma_min, small, gemm_mma, merge; const char *name; } v[] = {
        {32, 192, 64, 16, 16, 0, 0, 1, 0, "fused 64 thr, panel 16, nb 16"},
        {32, 192, 256, 16, 32, 0, 0, 1, 0, "fused 256 thr, panel 16"},
        {32, 192, 64, 8, 32, 0, 0, 1, 0, "fused 64 thr, panel 8"},
        {16, 64, 64, 8, 32, 0, 0, 1, 0, "tiny ≤ 16, fused ≤ 64"},
        {0, 0, 256, 8, 16, 0, 0, 1, 1, "all medium path, nb 16, merged panels"},
        {0, 0, 256, 8, 32, 0, 0, 1, 0, "all medium path, nb 32"},
        {0, 0, 256, 8, 32, 0, 0, 1, 1, "all medium path, nb 32, merged panels"},
        {0, 0, 256, 8, 32, 0, 0, 1, 1, "all medium path, merged, grid over the batch (list 0)"},
        {0, 0, 256, 8, 32, 0, 0, 1, 0, "all medium path, row blocks, list 0"},
        {0, 0, 256, 8, 16, 0, 0, 1, 1, "all medium path, nb 16, merged, list 2 blocks/SM"},
        {0, 0, 256, 8, 32, 0, 0, 1, 0, "all medium path, row blocks, list 2 blocks/SM"},
        {0, 0, 256, 8, 32, 0, 0, 2, 1, "all medium path, merged, DMMA on v9's grids, SIMT on the list"},
        {32, 160, 256, 8, 16, 0, 96, 2, 128, "medium DMMA on v9's grids, SIMT on the list, nb 16"},
        {32, 160, 256, 8, 32, 0, 96, 1, 128, "list 1, the batch without work"},
        {0, 192, 256, 8, 32, 0, 0, 1, 0, "no tiny: fused from m = 1"},
        {32, 160, 256, 8, 32, 0, 96, 1, 128, "tiny 32-lane kernel at 5 blocks/SM"},
        {32, 160, 256, 8, 32, 0, 96, 1, 128, "tiny 32-lane predicated, compiler's registers"},
        {32, 160, 256, 8, 32, 0, 96, 1, 128, "tiny 4-lane groups of 2 fronts"},
        {32, 160, 256, 8, 32, 0, 96, 1, 128, "tiny 4-lane groups of 4 fronts"},
        {32, 160, 256, 8, 32, 0, 96, 1, 128, "tiny one launch, 32-lane unpredicated"},
        {32, 160, 256, 8, 32, 0, 96, 1, 128, "tiny one launch, 32-lane at 5 blocks/SM"},
        {32, 160, 256, 8, 32, 0, 96, 1, 128, "tiny one launch, 32-lane predicated, compiler's"},
        {16, 160, 256, 8, 32, 0, 96, 1, 128, "tiny one launch, tiny ≤ 16"},
        {32, 160, 256, 8, 32, 0, 96, 1, 128, "tiny one launch per size"},
        {32, 160, 256, 8, 32, 0, 96, 1, 128, "tiny 4-lane at 12 blocks/SM"},
        {32, 160, 256, 8, 32, 0, 96, 1, 128, "tiny 4-lane at 16 blocks/SM"},
        {32, 160, 256, 8, 32, 0, 96, 1, 128, "tiny warp-uniform groups"},
        {32, 160, 256, 8, 32, 0, 96, 1, 128, "tiny warp-uniform groups, one launch per size"},
        {32, 160, 256, 8, 32, 0, 96, 1, 128, "tiny warp-uniform groups, 4-lane at 16 blocks/SM"},
        {32, 160, 256, 8, 32, 0, 96, 1, 128, "tiny warp-uniform groups, 4-lane groups of 2 fronts"},
        {32, 160, 256, 8, 32, 0, 96, 1, 128, "tiny warp-uniform groups, 4-lane groups of 4 fronts"},
        {32, 160, 256, 8, 32, 0, 96, 1, 128, "tiny groups on their own"},
        {32, 160, 256, 8, 32, 0, 96, 1, 128, "tiny warp-uniform to G = 4"},
        {32, 160, 256, 8, 32, 0, 96, 1, 128, "tiny warp-uniform to G = 8"},
        {32, 160, 256, 8, 32, 0, 96, 1, 128, "tiny warp-uniform to G = 8, one launch per size"},
        /* The SIMT forms (v4) and the DMMA crossovers moved. */
        {32, 192, 256, 8, 32, 192, 0, 0, 0, "SIMT: fused and GEMM"},
        {32, 192, 64, 16, 16, 192, 0, 0, 0, "SIMT: fused 64 thr, panel 16, nb 16"},
        {0, 0, 256, 8, 32, 192, 0, 0, 1, "SIMT: all medium path, merged panels"},
        {32, 192, 256, 8, 32, 64, 96, 1, 0, "DMMA above 64, 64 thr to 96"},
        {32, 192, 256, 16, 32, 96, 64, 1, 0, "DMMA above 96, panel 16, 64 thr to 64"},
        {32, 160, 256, 8, 32, 128, 192, 1, 0, "DMMA above 128, 64 thr all fused"},
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        sylva__kernel_tuning u = t;
        u.tiny_max_m = v[i].tiny, u.fused_max_m = v[i].fused, u.fused_threads = v[i].threads;
        u.fused_panel = v[i].panel, u.panel_nb = v[i].nb, u.fused_mma_min_m = v[i].mma_min;
        u.fused_small_m = v[i].small, u.gemm_mma = v[i].gemm_mma;
        u.panel_merge_min_count = v[i].merge; /* 1: always (the batches have 231 fronts) */
        u.tiny_min_blocks = strstr(v[i].name, "5 blocks/SM") ? 5 : strstr(v[i].name, "predicated, compiler") ? 0 : 4;
        u.tiny_fronts4 = strstr(v[i].name, "groups of 2") ? 2 : strstr(v[i].name, "groups of 4") ? 4 : 1;
        u.tiny_one_launch = strstr(v[i].name, "one launch per size") ? 0 : strstr(v[i].name, "one launch") ? 1 : t.tiny_one_launch;
        u.tiny_min_blocks4 = strstr(v[i].name, "12 blocks/SM") ? 12 : strstr(v[i].name, "16 blocks/SM") ? 16 : t.tiny_min_blocks4;
        u.tiny_warp_uniform = strstr(v[i].name, "to G = 4") ? 4 : strstr(v[i].name, "to G = 8") ? 8
                              : strstr(v[i].name, "warp-uniform") ? 16 : strstr(v[i].name, "on their own") ? 0
                              : t.tiny_warp_uniform;
        u.medium_list = strstr(v[i].name, "list 0") ? 0 : strstr(v[i].name, "list 2") ? 2
                        : strstr(v[i].name, "list 1") ? 1 : t.medium_list;
        gt_batch_work = strstr(v[i].name, "without work") == NULL;
        test_factor(&u, v[i].name, quick ? 200 : 600);
        gt_batch_work = 1;
    }
    test_medium_list(&t);
    test_fused_list(&t);
    {   /* the parts on the SIMT GEMM tiles (the defaults take DMMA) */
        sylva__kernel_tuning u = t;
        u.gemm_mma = 0;
        test_parts(&u);
    }
    test_parts(&t);
    printf("%s: %d failures\n", failures ? "FAIL" : "PASS", failures);
    return failures ? 1 : 0;
}
