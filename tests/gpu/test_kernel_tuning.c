/* test_kernel_tuning.c — the tuning table loader (no GPU needed): defaults
 * when the file is missing, values read back after a save, a malformed or
 * out-of-range table refused with defaults kept, every shipped table valid. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel_tuning.h"

int main(void)
{
    int fail = 0;
    sylva__kernel_tuning d, t, u;
    char msg[256], path[] = "/tmp/sylva_tuning_testXXXXXX";
    sylva__kernel_tuning_defaults(&d);
    fail |= sylva__kernel_tuning_check(&d) != 0;
    fail |= sylva__kernel_tuning_load("/nonexistent/x.txt", &t, msg, sizeof msg) != 1;
    fail |= memcmp(&t, &d, sizeof t) != 0;
    int fd = mkstemp(path);
    if (fd < 0) return 1;
    u = d;
    u.fused_max_m = 96, u.panel_nb = 16, u.native_syrk_nb = 0;
    u.fused_mma_min_m = 64, u.fused_small_m = 0, u.gemm_mma = 0, u.panel_merge_min_count = 0; /* v5 keys */
    u.tiny_min_blocks = 5, u.tiny_fronts4 = 2; /* v6 keys */
    u.tiny_min_blocks4 = 12, u.tiny_one_launch = !d.tiny_one_launch; /* v7 keys */
    u.tiny_warp_uniform = d.tiny_warp_uniform == 8 ? 16 : 8;
    u.native_trsm_nb = 256, u.native_trsm_doubling = !d.native_trsm_doubling; /* v8 keys */
    u.medium_list = d.medium_list == 1 ? 2 : 1, u.gemm_mma = 2;                /* v10 */
    u.fused_list = !d.fused_list;                                               /* v11 */
    u.class_streams = d.class_streams == 1 ? 2 : 1;                            /* v14 */
    fail |= sylva__kernel_tuning_save(path, &u, "NVIDIA H100 80GB HBM3") != 0;
    fail |= sylva__kernel_tuning_load(path, &t, msg, sizeof msg) != 0;
    fail |= memcmp(&t, &u, sizeof t) != 0;
    FILE *f = fopen(path, "w");
    fprintf(f, "# comment\nfused_max_m 999\n");
    fclose(f);
    fail |= sylva__kernel_tuning_load(path, &t, msg, sizeof msg) != -1;
    fail |= memcmp(&t, &d, sizeof t) != 0;
    /* Each out-of-range value (v5–v14 keys) and an unknown key, alone. */
    const char *refused[] = {"tiny_min_blocks 3", "tiny_fronts4 3", "tiny_min_blocks4 8", "tiny_one_launch 2",
                             "tiny_warp_uniform 1", "tiny_warp_uniform 12", "gemm_mma 3", "medium_list 65",
                             "fused_list 2", "class_streams 3", "class_streams -1",
                             "fused_small_m 193", "native_trsm_nb 32", "native_trsm_nb 2048",
                             "native_trsm_doubling 2", "no_such_key 3"};
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
        f = fopen(path, "w");
        fprintf(f, "%s\n", refused[i]);
        fclose(f);
        if (sylva__kernel_tuning_load(path, &t, msg, sizeof msg) != -1) {
            fprintf(stderr, "test_kernel_tuning: '%s' accepted\n", refused[i]);
            fail = 1;
        }
    }
    remove(path);
    char p2[512];
    sylva__kernel_tuning_path("NVIDIA H100 80GB HBM3", p2, sizeof p2);
    fail |= strstr(p2, "NVIDIA_H100_80GB_HBM3.txt") == NULL;
    /* Every shipped table loads and passes the range checks (CTest points
     * SYLVA_TUNING_DIR at kernels/tuning; installed, it is share/sylva/tuning). */
    const char *shipped[] = {"NVIDIA H100 80GB HBM3", "NVIDIA H200"};
    for (size_t i = 0; i < sizeof shipped / sizeof *shipped; i++) {
        sylva__kernel_tuning_path(shipped[i], p2, sizeof p2);
        int rc = sylva__kernel_tuning_load(p2, &t, msg, sizeof msg);
        if (rc != 0) printf("shipped table %s: %s\n", p2, rc == 1 ? "missing" : msg);
        fail |= rc != 0;
    }
    printf("%s\n", fail ? "FAIL" : "PASS");
    return fail;
}
