/* kernel_tuning.c — defaults, loader and writer of the GPU kernel tuning
 * table (contract in kernel_tuning.h); the writer goes through core's
 * atomic output (a table is whole or not there). Tables are looked for in
 * $SYLVA_TUNING_DIR, else in the install prefix's share/sylva/tuning, found
 * from where this code was loaded (libsylva, or the program it is linked
 * into), so a package moved to another prefix still finds them; the
 * configured prefix's directory is the last resort. */
#include "kernel_tuning.h"

#include "core.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dlfcn.h>
#include <sys/stat.h>

#ifndef SYLVA_KERNELS_TUNING_DIR /* set by kernels/CMakeLists.txt */
#define SYLVA_KERNELS_TUNING_DIR "share/sylva/tuning"
#endif
/* The tuning directory relative to the library directory (or, for a
 * program linked statically, to the program's directory). */
#ifndef SYLVA_KERNELS_TUNING_REL
#define SYLVA_KERNELS_TUNING_REL "../share/sylva/tuning"
#endif

/* <directory of the loaded object holding this code>/<rel> when it is a
 * directory; else the configured one. */
static void tuning_dir(char *buf, size_t bufsz)
{
    Dl_info info;
    if (dladdr((void *)tuning_dir, &info) && info.dli_fname) {
        const char *slash = strrchr(info.dli_fname, '/');
        struct stat st;
        if (slash &&
            snprintf(buf, bufsz, "%.*s/%s", (int)(slash - info.dli_fname), info.dli_fname,
                     SYLVA_KERNELS_TUNING_REL) < (int)bufsz &&
            stat(buf, &st) == 0 && S_ISDIR(st.st_mode))
            return;
    }
    snprintf(buf, bufsz, "%s", SYLVA_KERNELS_TUNING_DIR);
}

void sylva__kernel_tuning_defaults(sylva__kernel_tuning *t)
{
    /* The H100 80GB HBM3 table (kernels/tuning/, docs/perf-log.md v11, v14). */
    t->tiny_max_m = 32;
    t->fused_max_m = 160;
    t->fused_threads = 256;
    t->fused_panel = 8;
    t->panel_nb = 32;
    t->native_syrk_nb = 2048;
    t->native_panel_nb = 0;
    t->native_min_m = 2048;
    t->fused_mma_min_m = 0;
    t->fused_small_m = 96;
    t->gemm_mma = 2;
    t->panel_merge_min_count = 128;
    t->tiny_min_blocks = 4;
    t->tiny_fronts4 = 1;
    t->tiny_min_blocks4 = 0;
    t->tiny_one_launch = 1;
    t->tiny_warp_uniform = 8;
    t->native_trsm_nb = 256;
    t->native_trsm_doubling = 1;
    t->medium_list = 8;
    t->fused_list = 1;
    t->class_streams = 1;
}

#define SYLVA_TUNING_KEYS(X)                                                                  \
    X(tiny_max_m) X(fused_max_m) X(fused_threads) X(fused_panel) X(panel_nb)                 \
    X(native_syrk_nb) X(native_panel_nb) X(native_min_m) X(fused_mma_min_m) X(fused_small_m)  \
    X(gemm_mma) X(panel_merge_min_count) X(tiny_min_blocks) X(tiny_fronts4)                    \
    X(tiny_min_blocks4) X(tiny_one_launch) X(tiny_warp_uniform) X(native_trsm_nb) \
    X(native_trsm_doubling) X(medium_list) X(fused_list) X(class_streams)

int sylva__kernel_tuning_check(const sylva__kernel_tuning *t)
{
    if (t->tiny_max_m < 0 || t->tiny_max_m > 32) return -1;
    if (t->fused_max_m < 0 || t->fused_max_m > 192) return -1;
    if (t->fused_threads != 64 && t->fused_threads != 256) return -1;
    if (t->fused_panel != 8 && t->fused_panel != 16) return -1;
    if (t->panel_nb != 16 && t->panel_nb != 32) return -1;
    if (t->native_syrk_nb < 0) return -1;
    if (t->native_panel_nb < 0) return -1;
    if (t->native_min_m < 0) return -1;
    if (t->fused_mma_min_m < 0 || t->fused_mma_min_m > 192) return -1;
    if (t->fused_small_m < 0 || t->fused_small_m > 192) return -1;
    if (t->gemm_mma < 0 || t->gemm_mma > 2) return -1;
    if (t->panel_merge_min_count < 0) return -1;
    if (t->tiny_min_blocks != 0 && t->tiny_min_blocks != 4 && t->tiny_min_blocks != 5) return -1;
    if (t->tiny_fronts4 != 1 && t->tiny_fronts4 != 2 && t->tiny_fronts4 != 4) return -1;
    if (t->tiny_min_blocks4 != 0 && t->tiny_min_blocks4 != 12 && t->tiny_min_blocks4 != 16)
        return -1;
    if (t->tiny_one_launch != 0 && t->tiny_one_launch != 1) return -1;
    if (t->tiny_warp_uniform != 0 && t->tiny_warp_uniform != 4 && t->tiny_warp_uniform != 8 &&
        t->tiny_warp_uniform != 16)
        return -1;
    if (t->native_trsm_nb != 0 && (t->native_trsm_nb < 64 || t->native_trsm_nb > 1024)) return -1;
    if (t->native_trsm_doubling != 0 && t->native_trsm_doubling != 1) return -1;
    if (t->medium_list < 0 || t->medium_list > 64) return -1;
    if (t->fused_list != 0 && t->fused_list != 1) return -1;
    if (t->class_streams < 0 || t->class_streams > 2) return -1;
    return 0;
}

int sylva__kernel_tuning_load(const char *path, sylva__kernel_tuning *t, char *msg, size_t msgsz)
{
    sylva__kernel_tuning_defaults(t);
    struct stat st; /* a FIFO or a device is not a table (and would block or never end) */
    if (stat(path, &st) != 0) return errno == ENOENT ? 1 : -1;
    if (!S_ISREG(st.st_mode)) {
        if (msg) snprintf(msg, msgsz, "%s: not a regular file (%s)", path, sylva__file_kind((unsigned)st.st_mode));
        return -1;
    }
    FILE *f = fopen(path, "r");
    if (!f) return errno == ENOENT ? 1 : -1;
    sylva__kernel_tuning r = *t;
    char line[256];
    int lineno = 0, bad = 0;
    while (!bad && fgets(line, sizeof line, f)) {
        lineno++;
        char *hash = strchr(line, '#');
        if (hash) *hash = '\0';
        char key[64];
        long v;
        int n = sscanf(line, "%63s %ld", key, &v);
        if (n <= 0) continue; /* blank or comment */
        if (n != 2 || v < 0 || v > 1000000) {
            bad = 1;
            break;
        }
#define X(name)                                                                               \
    if (strcmp(key, #name) == 0) {                                                            \
        r.name = (int)v;                                                                      \
        continue;                                                                             \
    }
        SYLVA_TUNING_KEYS(X)
#undef X
        bad = 1;
    }
    fclose(f);
    if (!bad && sylva__kernel_tuning_check(&r) != 0) bad = 1, lineno = 0;
    if (bad) {
        if (msg) snprintf(msg, msgsz, "%s:%d: bad tuning entry", path, lineno);
        return -1;
    }
    *t = r;
    return 0;
}

int sylva__kernel_tuning_save(const char *path, const sylva__kernel_tuning *t, const char *gpu_name)
{
    sylva__out out; /* atomic: a table is whole or not there */
    if (sylva__out_open(&out, path)) return -1;
    FILE *f = out.f;
    fprintf(f, "# sylva GPU kernel tuning table for %s (written by the tuner)\n",
            gpu_name ? gpu_name : "unknown GPU");
#define X(name) fprintf(f, "%s %d\n", #name, t->name);
    SYLVA_TUNING_KEYS(X)
#undef X
    return sylva__out_close(&out) == SYLVA_OK ? 0 : -1;
}

void sylva__kernel_tuning_path(const char *gpu_name, char *buf, size_t bufsz)
{
    const char *dir = getenv("SYLVA_TUNING_DIR");
    char found[4096];
    if (!dir || !*dir) {
        tuning_dir(found, sizeof found);
        dir = found;
    }
    char name[128];
    size_t i = 0;
    for (; gpu_name && gpu_name[i] && i + 1 < sizeof name; i++)
        name[i] = isalnum((unsigned char)gpu_name[i]) ? gpu_name[i] : '_';
    name[i] = '\0';
    snprintf(buf, bufsz, "%s/%s.txt", dir, i ? name : "default");
}
