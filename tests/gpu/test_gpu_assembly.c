/* test_gpu_assembly.c — batched scatter-add of A's entries and batched
 * extend-add of child CBs on the GPU against their CPU twins, on random
 * parents (poisoned outside their lower triangles), several children per
 * parent in one launch (the atomic path), empty children and scatter lists.
 * Usage: test_gpu_assembly [--quick]. Exit: 0 pass, 1 fail, 77 no GPU. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "front_batch_cpu.h"
#include "gpu_test_util.h"

static void *dev_copy(const void *h, size_t bytes)
{
    void *d;
    CK(cudaMalloc(&d, bytes ? bytes : 1));
    if (bytes) CK(cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice));
    return d;
}

/* A sorted random subset of {0..n−1} of size c. */
static void subset(int64_t *out, int c, int n)
{
    int got = 0;
    for (int i = 0; i < n && got < c; i++)
        if (gt_randint(0, n - i - 1) < c - got) out[got++] = i;
}

int main(int argc, char **argv)
{
    int quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
    gt_require_gpu();
    gt_seed();
    int np = quick ? 12 : 150, maxm = quick ? 80 : 400, failures = 0;
    int *m = malloc(np * sizeof(int)), *k = malloc(np * sizeof(int)), *whole = malloc(np * sizeof(int));
    for (int i = 0; i < np; i++) {
        m[i] = gt_randint(1, maxm), k[i] = gt_randint(1, m[i]), whole[i] = gt_randint(0, 1);
    }
    m[0] = 1, k[0] = 1;
    frontset s;
    fs_make(&s, np, m, k, whole, NULL);
    fs_upload(&s);
    double *cpu = malloc(s.len * sizeof(double));
    memcpy(cpu, s.orig, s.len * sizeof(double));
    double **hP = malloc(np * sizeof(double *)), **hC = malloc(np * sizeof(double *));
    double **dPp = malloc(np * sizeof(double *)), **dCp = malloc(np * sizeof(double *));
    fs_host_ptrs(&s, cpu, hP, hC);
    for (int i = 0; i < np; i++) dPp[i] = s.dpool + s.offP[i], dCp[i] = s.dpool + s.offC[i];

    /* ---- Scatter: two lists per parent (into P and into C). */
    int ns = 2 * np;
    int64_t nv = 100000, *sn = calloc(ns, sizeof(int64_t)), max_sn = 0;
    double *values = malloc(nv * sizeof(double));
    for (int64_t i = 0; i < nv; i++) values[i] = gt_rand();
    int64_t **hsrc = malloc(ns * sizeof(int64_t *)), **hdst = malloc(ns * sizeof(int64_t *));
    int64_t **dsrc = malloc(ns * sizeof(int64_t *)), **ddst = malloc(ns * sizeof(int64_t *));
    double **hout = malloc(ns * sizeof(double *)), **dout = malloc(ns * sizeof(double *));
    for (int e = 0; e < ns; e++) {
        int i = e / 2, inC = e % 2, r = m[i] - k[i];
        int cols = inC ? r : k[i], ld = inC ? s.ldc[i] : s.ldp[i], rows = inC ? r : m[i];
        int64_t cap = 0;
        for (int c = 0; c < cols; c++) cap += rows - c;
        sn[e] = e % 7 == 3 ? 0 : gt_randint(0, (int)(cap < 2000 ? cap : 2000));
        hsrc[e] = malloc((sn[e] + 1) * sizeof(int64_t)), hdst[e] = malloc((sn[e] + 1) * sizeof(int64_t));
        /* distinct lower positions: a random subset of the packed lower triangle */
        int64_t *pick = malloc((cap + 1) * sizeof(int64_t));
        subset(pick, (int)sn[e], (int)cap);
        for (int64_t q = 0; q < sn[e]; q++) {
            int64_t p = pick[q];
            int c = 0;
            while (p >= rows - c) p -= rows - c, c++;
            hdst[e][q] = (c + p) + (int64_t)c * ld;
            hsrc[e][q] = gt_randint(0, (int)nv - 1);
        }
        free(pick);
        if (sn[e] > max_sn) max_sn = sn[e];
        hout[e] = inC ? hC[i] : hP[i], dout[e] = inC ? dCp[i] : dPp[i];
        dsrc[e] = dev_copy(hsrc[e], sn[e] * sizeof(int64_t));
        ddst[e] = dev_copy(hdst[e], sn[e] * sizeof(int64_t));
    }
    sylva__scatter_batch sb = {ns, dev_copy(sn, ns * sizeof(int64_t)),
                               dev_copy(dsrc, ns * sizeof(int64_t *)),
                               dev_copy(ddst, ns * sizeof(int64_t *)),
                               dev_copy(values, nv * sizeof(double)),
                               dev_copy(dout, ns * sizeof(double *))};
    if (sylva__gpu_scatter_add_vbatched_max_nocheck(&sb, max_sn, 0) != 0) failures++;
    sylva__d_scatter_add_batch_cpu(ns, sn, (const int64_t *const *)hsrc, (const int64_t *const *)hdst,
                                 values, hout);

    /* ---- Extend-add: 0..4 children per parent, one launch. */
    int nc = 0, cap_c = 5 * np, max_mc = 0;
    int *mc = malloc(cap_c * sizeof(int)), *ldcb = malloc(cap_c * sizeof(int)), *kp = malloc(cap_c * sizeof(int));
    int *ldp = malloc(cap_c * sizeof(int)), *ldc = malloc(cap_c * sizeof(int));
    double **hcb = malloc(cap_c * sizeof(double *)), **dcb = malloc(cap_c * sizeof(double *));
    int64_t **hrel = malloc(cap_c * sizeof(int64_t *)), **drel = malloc(cap_c * sizeof(int64_t *));
    double **eP = malloc(cap_c * sizeof(double *)), **eC = malloc(cap_c * sizeof(double *));
    double **edP = malloc(cap_c * sizeof(double *)), **edC = malloc(cap_c * sizeof(double *));
    for (int i = 0; i < np; i++) {
        int children = gt_randint(0, 4);
        for (int c = 0; c < children; c++, nc++) {
            mc[nc] = c == 3 ? 0 : gt_randint(1, m[i]);
            ldcb[nc] = (mc[nc] > 1 ? mc[nc] : 1) + gt_randint(0, 2);
            size_t len = (size_t)ldcb[nc] * (mc[nc] > 0 ? mc[nc] : 1);
            hcb[nc] = malloc(len * sizeof(double));
            for (size_t q = 0; q < len; q++) hcb[nc][q] = gt_rand();
            hrel[nc] = malloc((mc[nc] + 1) * sizeof(int64_t));
            subset(hrel[nc], mc[nc], m[i]);
            dcb[nc] = dev_copy(hcb[nc], len * sizeof(double));
            drel[nc] = dev_copy(hrel[nc], mc[nc] * sizeof(int64_t));
            kp[nc] = k[i], ldp[nc] = s.ldp[i], ldc[nc] = s.ldc[i];
            eP[nc] = hP[i], eC[nc] = hC[i], edP[nc] = dPp[i], edC[nc] = dCp[i];
            if (mc[nc] > max_mc) max_mc = mc[nc];
        }
    }
    sylva__extend_add_batch eb = {nc, dev_copy(mc, nc * sizeof(int)),
                                  dev_copy(dcb, nc * sizeof(double *)),
                                  dev_copy(ldcb, nc * sizeof(int)),
                                  dev_copy(drel, nc * sizeof(int64_t *)),
                                  dev_copy(kp, nc * sizeof(int)),
                                  dev_copy(edP, nc * sizeof(double *)),
                                  dev_copy(ldp, nc * sizeof(int)),
                                  dev_copy(edC, nc * sizeof(double *)),
                                  dev_copy(ldc, nc * sizeof(int))};
    if (sylva__gpu_extend_add_vbatched_max_nocheck(&eb, max_mc, 0) != 0) failures++;
    sylva__d_extend_add_batch_cpu(nc, mc, (const double *const *)hcb, ldcb,
                                (const int64_t *const *)hrel, kp, eP, ldp, eC, ldc);
    fs_download(&s);
    double worst = 0;
    for (int i = 0; i < np; i++) {
        double d = fs_diff(&s, i, s.res, cpu);
        if (!fs_poison_intact(&s, i, s.res) || !(d <= 8 * DBL_EPSILON)) {
            if (failures < 20) printf("FAIL parent %d (m=%d, k=%d): difference %.3g\n", i, m[i], k[i], d);
            failures++;
        }
        if (d > worst) worst = d;
    }
    printf("  scatter %d lists, extend-add %d children into %d parents: max rel diff %.2g\n",
           ns, nc, np, worst);
    printf("%s: %d failures\n", failures ? "FAIL" : "PASS", failures);
    return failures ? 1 : 0; /* process exit frees the rest */
}
