/* test_gpu_native.c — the native (GPU-only) partial factorization of one big
 * front against the CPU twin and the backward error, for whole fronts up to
 * m = 16384, both CB-update forms (cublasDsyrk, DGEMM column tiles), k = m,
 * k = 1, one POTRF or right-looking panels, and non-SPD fronts (info on the
 * device, a failure in a later panel numbered in the front's columns); since
 * v8 the TRSM by inverted diagonal blocks, the inverses by a batched TRSM
 * or by doubling (k at and one past the block width, tails, widths 64–512
 * and 96 (no doubling: the batched TRSM), non-SPD fronts, L21 taller than
 * one GEMM's row chunk: 10000 × 1500).
 * Usage: test_gpu_native [--quick]. Exit: 0 pass, 1 fail, 77 no GPU. */
#include <cublas_v2.h>
#include <cusolverDn.h>
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "front_batch_cpu.h"
#include "front_cpu.h"
#include "gpu_test_util.h"

int main(int argc, char **argv)
{
    int quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
    gt_require_gpu();
    gt_seed();
    static const int sizes[][7] = {
        /* m, k, syrk nb, bad column, panel nb, TRSM nb, inverses by doubling */
        {1, 1, 0, 0, 0, 0, 0},              {2, 1, 0, 0, 0, 0, 0},
        {5, 3, 512, 0, 2, 0, 0},            {600, 128, 0, 0, 0, 128, 1},
        {600, 129, 0, 0, 0, 128, 0},        {600, 129, 0, 0, 0, 128, 1},
        {1500, 400, 0, 0, 0, 64, 0},        {2000, 600, 512, 300, 0, 256, 1},
        {2000, 600, 0, 77, 0, 64, 0},       {1200, 1000, 0, 0, 0, 96, 1},
        {3000, 1100, 0, 0, 0, 512, 0},      {2500, 700, 0, 0, 0, 64, 1},
        {1500, 1024, 0, 0, 0, 512, 1},      {700, 700, 0, 0, 256, 0, 0},
        {900, 1, 256, 0, 0, 0, 0},          {1500, 400, 256, 0, 128, 0, 0},
        {2000, 600, 512, 300, 256, 0, 0},   {2000, 600, 0, 77, 0, 0, 0},
        {4096, 1024, 1024, 0, 512, 0, 0},   {8192, 2048, 1024, 0, 512, 0, 0},
        {8192, 2048, 2048, 0, 0, 256, 1},   {10000, 1500, 2048, 0, 0, 256, 0},
        {16384, 4096, 0, 0, 0, 0, 0},       {16384, 4096, 2048, 0, 1024, 0, 0}};
    int n = (int)(sizeof sizes / sizeof sizes[0]), failures = 0;
    if (quick) n = 18; /* up to (2000, 600): what the sanitizers run */
    cusolverDnHandle_t solver;
    cublasHandle_t blas;
    if (cusolverDnCreate(&solver) != CUSOLVER_STATUS_SUCCESS || cublasCreate(&blas) != CUBLAS_STATUS_SUCCESS) {
        printf("FAIL: handles\n");
        return 1;
    }
    for (int t = 0; t < n; t++) {
        int m = sizes[t][0], k = sizes[t][1], whole = 1, bad = sizes[t][3];
        if (t % 3 == 1) whole = 0;
        frontset s;
        fs_make(&s, 1, &m, &k, &whole, &bad);
        fs_upload(&s);
        sylva__kernel_tuning tune;
        sylva__kernel_tuning_defaults(&tune);
        tune.native_syrk_nb = sizes[t][2];
        tune.native_panel_nb = sizes[t][4];
        tune.native_trsm_nb = sizes[t][5];
        tune.native_trsm_doubling = sizes[t][6];
        double *P = s.dpool + s.offP[0], *C = s.dpool + s.offC[0];
        int64_t wb = sylva__gpu_native_workspace_bytes(solver, k, P, s.ldp[0], &tune);
        void *work = NULL;
        CK(cudaMalloc(&work, wb > 0 ? wb : 1));
        int rc = sylva__gpu_front_factor_native(solver, blas, m, k, P, s.ldp[0], C, s.ldc[0], work,
                                                wb, s.dinfo, &tune, 0);
        fs_download(&s);
        cudaFree(work);
        double *cpu = malloc(s.len * sizeof(double));
        memcpy(cpu, s.orig, s.len * sizeof(double));
        int info = sylva__d_front_factor_cpu(m, k, cpu + s.offP[0], s.ldp[0],
                                           m > k ? cpu + s.offC[0] : NULL, s.ldc[0]);
        double e = -1, d = -1, eps_m = m * DBL_EPSILON;
        int ok = rc == 0 && s.info[0] == info && (!bad || info == bad);
        if (ok && info == 0) {
            e = fs_backward_error(&s, 0, s.res);
            d = fs_diff(&s, 0, s.res, cpu);
            ok = e <= 10 * eps_m && d <= 1000 * eps_m;
        }
        printf("  native m=%5d k=%5d syrk_nb=%4d panel_nb=%4d trsm_nb=%4d%s %s: info %d (cpu %d) backward %.2f m·eps, diff %.2g  %s\n",
               m, k, sizes[t][2], sizes[t][4], sizes[t][5], sizes[t][5] == 0 ? "   " : sizes[t][6] ? "dbl" : "bat", whole ? "whole" : "split", s.info[0], info,
               e < 0 ? -1.0 : e / eps_m, d, ok ? "ok" : "FAIL");
        failures += !ok;
        free(cpu);
        fs_free(&s);
    }
    cublasDestroy(blas);
    cusolverDnDestroy(solver);
    printf("%s: %d failures\n", failures ? "FAIL" : "PASS", failures);
    return failures ? 1 : 0;
}
