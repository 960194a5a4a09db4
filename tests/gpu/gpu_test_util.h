/* gpu_test_util.h — shared pieces of the GPU kernel tests and benchmark:
 * a set of random SPD fronts in one host pool and one device pool (either
 * whole m × m fronts, P = F, C = F + k + k·ld, or separate P and C blocks),
 * NaN poison in every position a kernel must not write, the partial
 * backward error ‖F − L·Lᵀ − C‖_F/‖F‖_F, and CUDA error checks that exit.
 * Exit code 77 means "no GPU here" (CTest SKIP_RETURN_CODE). */
#ifndef SYLVA_TESTS_GPU_TEST_UTIL_H
#define SYLVA_TESTS_GPU_TEST_UTIL_H

#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

#include "gpu_front.h"

/* Exits with a message when a CUDA call fails (an expression). */
void gt_cuda_check(cudaError_t e, const char *file, int line, const char *what);
#define CK(call) gt_cuda_check((call), __FILE__, __LINE__, #call)

typedef struct frontset {
    int count;
    int *m, *k, *ldp, *ldc, *info, *bad_col; /* host; bad_col: 0 or the column made non-SPD */
    int *whole;                              /* one m × m block (P = F) */
    size_t *offP, *offC;                     /* into the pools */
    size_t len;                              /* pool length (doubles) */
    double *orig, *res;                      /* host pools: input, GPU result */
    double *dpool;
    int *dm, *dk, *dldp, *dldc, *dinfo;
    double **dP, **dC;
    int *dwork; /* the batch's scratch (SYLVA_FRONT_WORK_BYTES), all bits set by fs_upload */
} frontset;

/* Exit 77 when no CUDA device is usable. */
void gt_require_gpu(void);
/* Seed from time (or $SYLVA_TEST_SEED), printed. */
uint64_t gt_seed(void);
double gt_rand(void); /* uniform in [−1, 1) */
int gt_randint(int lo, int hi);

/* Fronts of the given shapes; whole[i] ≠ 0: one m × m block. bad_col[i] > 0
 * makes F(j, j) negative for j = bad_col − 1 (so info = bad_col). */
void fs_make(frontset *s, int count, const int *m, const int *k, const int *whole,
             const int *bad_col);
void fs_upload(frontset *s);   /* orig → device, info = 0 */
void fs_download(frontset *s); /* device → res, info */
void fs_free(frontset *s);
/* The batch of s's device arrays; its work scratch s->dwork when
 * gt_batch_work ≠ 0 (the default), else NULL. */
sylva__front_batch fs_batch(const frontset *s);
extern int gt_batch_work;
/* Partial backward error of front i in pool `out` (lower only), or 1e300
 * when a poisoned position was written or a NaN appears. */
double fs_backward_error(const frontset *s, int i, const double *out);
/* ‖out − ref‖_F/‖ref‖_F over front i's lower triangles. */
double fs_diff(const frontset *s, int i, const double *out, const double *ref);
/* 1 when every position outside front i's lower triangles is still poison. */
int fs_poison_intact(const frontset *s, int i, const double *out);
/* Host pointer arrays into a pool (for the CPU twins). */
void fs_host_ptrs(const frontset *s, double *pool, double **P, double **C);
/* Partial factorization flops of one front. */
double gt_front_flops(double m, double k);
int gt_is_poison(double x);
extern const double gt_poison;
extern int gt_pad_max; /* leading dims get 0..gt_pad_max extra rows (default 3) */

#endif
