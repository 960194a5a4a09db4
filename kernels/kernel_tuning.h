/* kernel_tuning.h — run-time tuning parameters of the GPU kernels (block
 * sizes, crossovers), with built-in defaults measured on an H100 and an
 * optional per-GPU-model table written by scripts/tune-kernels.sh.
 * Plain C, no CUDA: the CPU build reads and writes the same tables.
 * Table format: text, one `key value` per line, `#` starts a comment; unknown
 * keys are an error (a stale table should be noticed, not half-read).
 */
#ifndef SYLVA_KERNELS_KERNEL_TUNING_H
#define SYLVA_KERNELS_KERNEL_TUNING_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sylva__kernel_tuning {
    int tiny_max_m;     /* m ≤ this (≤ 32): register kernel, a lane group per front */
    int fused_max_m;    /* m ≤ this (≤ 192): one thread block per front, shared memory */
    int fused_threads;  /* 64 or 256 threads per block of the fused kernel */
    int fused_panel;    /* 8 or 16: panel width inside the fused kernel */
    int panel_nb;       /* 16 or 32: left-looking panel width above fused_max_m */
    int native_syrk_nb; /* 0: cublasDsyrk; else DGEMM column tiles of this width */
    int native_panel_nb; /* 0: one POTRF + one TRSM; else right-looking panels of this width */
    int native_min_m;   /* the GPU runs' small/large threshold: fronts with more rows go
                           native (chosen from bench-solver sweeps, not by the tuner) */
    int fused_mma_min_m; /* fused buckets of fronts with m > this (≤ 192) run their trailing
                            updates on FP64 tensor cores (DMMA); the others on SIMT DFMA */
    int fused_small_m;  /* fused buckets of m ≤ this (≤ 192) run on 64-thread blocks whatever
                           fused_threads says (more fronts per SM); 0: off */
    int gemm_mma;       /* 1: the medium path's GEMM tiles on DMMA; 0: SIMT DFMA; 2 (v10): DMMA
                           on v9's grids, SIMT on the list's forms */
    int panel_merge_min_count; /* medium path: batches of at least this many fronts factor and
                                  solve each panel in one block per front (0: never) */
    int tiny_min_blocks; /* the 32-lane tiny kernel: 0 (compiler's registers), 5 (capped at 96
                            registers, 5 blocks/SM), 4 (unpredicated update, 128 registers) */
    int tiny_fronts4;   /* 1, 2 or 4: fronts per lane group of the 4-lane tiny kernel (m ≤ 4) */
    int tiny_min_blocks4; /* the 4-lane tiny kernel with one front per group: 0 (compiler's
                             registers), 12 or 16 (capped at 40 / 32 registers: 12 / 16
                             blocks/SM) */
    int tiny_one_launch; /* 1: a batch whose tiny fronts span several lane-group sizes takes one
                            launch for all of them (when tiny_fronts4 = 1); 0: one per size */
    int tiny_warp_uniform; /* the tiny kernels of G ≤ this lanes (0, 4, 8 or 16): a warp's lane
                              groups go through each column together (whole-warp shuffles);
                              the others each group on its own (sub-warp masks); 0: none
                              (v7 had 0 / 1; 1 is now refused, 16 is v7's 1) */
    int native_trsm_nb; /* the native L21 TRSM for k above it: 0: cuBLAS's; else (64..1024) by
                           the inverses of the nb × nb diagonal blocks and GEMM (workspace) */
    int native_trsm_doubling; /* those inverses: 0: one batched TRSM; 1: by doubling from the
                                 32-blocks (batched TRSM, then batched GEMMs; nb = 32·2^p,
                                 else as 0) */
    int medium_list;    /* the medium path, when the batch has a work scratch: 0 (v9) a block per
                           front of the batch, the others exit; 1 its fronts listed on the device
                           (by pivot panels, most first) and a block per listed front; B ≥ 2
                           (≤ 64): B·SMs blocks looping over the list */
    int fused_list;     /* the fused buckets, when the batch has a work scratch: 0 (v10) a block
                           per front of the batch, the others exit; 1 (v11) their fronts listed
                           on the device by bucket (most pivots first) and each bucket's launch
                           as many blocks as are resident, claiming the listed fronts in turn */
    int class_streams;  /* v14: a batch with medium fronts and fronts of another class: 0 one stream;
                           1 the medium path's launches on a second stream (the calling thread's, at
                           the device's greatest priority) beside the tiny and fused launches on the
                           caller's, forked after the lists and joined at the end; 2 the same with
                           the second stream at the default priority */
} sylva__kernel_tuning;

void sylva__kernel_tuning_defaults(sylva__kernel_tuning *t);
/* Defaults, then the keys found in `path`. Returns 0 when read, 1 when the
 * file does not exist (defaults kept), −1 on a malformed line or bad value
 * (defaults kept; msg, when not NULL, says which line). */
int sylva__kernel_tuning_load(const char *path, sylva__kernel_tuning *t, char *msg, size_t msgsz);
int sylva__kernel_tuning_save(const char *path, const sylva__kernel_tuning *t, const char *gpu_name);
/* The table's path for a GPU model: $SYLVA_TUNING_DIR (default: the
 * source tree's kernels/tuning, set at build time) / model name with
 * non-alphanumerics as '_' . ".txt" (cudaDeviceProp.name). Callers load
 * it with sylva__kernel_tuning_load() (today the GPU tests and
 * bench-kernels). */
void sylva__kernel_tuning_path(const char *gpu_name, char *buf, size_t bufsz);
/* 0 when every field is in range. */
int sylva__kernel_tuning_check(const sylva__kernel_tuning *t);

#ifdef __cplusplus
}
#endif

#endif
