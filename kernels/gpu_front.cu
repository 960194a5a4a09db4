/* gpu_front.cu — the vbatched entry points of gpu_front.h: argument checks
 * on host copies of the sizes (checked entries), and the dispatch of a batch
 * over the size classes (no-check entries): tiny fronts to the register
 * kernel, small ones to the fused shared-memory kernel, the rest to the
 * left-looking panel path; each launch serves its class and lets the other
 * fronts exit (the checked entries and the range entry skip the launches
 * wholly below the batch's smallest m; given the batch's work scratch,
 * one block first lists the fused class's fronts by bucket (fused_list) and
 * the panel path's (medium_list), and their launches run over those lists;
 * with class_streams the lists and the panel path's launches run on a second
 * stream beside the other classes'). The crossovers come from the tuning table. The dispatch is a
 * template on the scalar type; the C entry points instantiate it for
 * double. */
#include "gpu_common.cuh"
#include "gpu_gemm.cuh"

static const sylva__kernel_tuning *tuning_or_default(const sylva__kernel_tuning *t,
                                                     sylva__kernel_tuning *buf)
{
    if (t && sylva__kernel_tuning_check(t) == 0) return t;
    sylva__kernel_tuning_defaults(buf);
    return buf;
}

/* Fronts with min_m ≤ m ≤ max_m (host-known; min_m ≤ 1: unknown): the
 * classes, buckets and tiny lane groups wholly below min_m are not launched
 * (each launch reads every front's metadata to let the others exit). */
template <typename T>
static int factor_vbatched(const sylva::front_batch<T> &b, int min_m, int max_m, int max_k,
                           const sylva__kernel_tuning *tune, cudaStream_t s)
{
    sylva__kernel_tuning buf;
    const sylva__kernel_tuning *t = tuning_or_default(tune, &buf);
    if (b.count <= 0 || max_m <= 0 || max_k <= 0) return SYLVA_OK;
    const int floor = min_m > 1 ? (min_m <= max_m ? min_m - 1 : max_m) : 0; /* m > floor */
    int rc = SYLVA_OK;
    const int tiny = t->tiny_max_m < max_m ? t->tiny_max_m : max_m;
    const int fused_hi = t->fused_max_m < max_m ? t->fused_max_m : max_m;
    const int fused_lo = tiny > floor ? tiny : floor;
    int lo = fused_hi > tiny ? fused_hi : tiny;
    if (lo < floor) lo = floor;
    /* The lists pay only beside fronts of other classes or buckets (perf-log
     * v10, v11): a batch known to be all medium (floor at or above the
     * class's lower end) runs v9's grids, one known to lie in one fused
     * bucket a block per front. */
    const bool fused_on = fused_hi > fused_lo, med_on = max_m > lo;
    const int medium_list = !b.work || (floor > 0 && floor >= (fused_hi > tiny ? fused_hi : tiny)) ? 0
                            : t->medium_list;
    const bool one_bucket = floor > 0 && !med_on && floor >= tiny && floor >= (fused_hi - 1) / 32 * 32;
    const int fused_list = b.work && fused_on && !one_bucket ? t->fused_list : 0;
    const bool lists = (fused_list && fused_on) || (medium_list && med_on);
    /* class_streams (v14): the classes touch disjoint fronts, so the medium
     * path's chain of launches (whose steps leave SM resources idle) runs on
     * the thread's second stream, forked from s, beside the tiny and fused
     * launches on s; s then waits for it. The lists are built at the head of
     * the second stream (the tiny kernels do not read them and run beside
     * that one-block kernel; the fused launches wait for it). Its launches
     * are queued first; at the greatest priority (1) its pending blocks are
     * dispatched before the other classes' as SMs free up. No second stream
     * to be had: one stream, as with 0. */
    cudaStream_t ms = s;
    cudaEvent_t ev[3] = {nullptr, nullptr, nullptr}; /* fork, lists built, join */
    const bool split = t->class_streams && med_on && (fused_on || tiny > floor) &&
                       sylva::class_streams(t->class_streams == 1, &ms, ev) == SYLVA_OK;
    if (split && (cudaEventRecord(ev[0], s) != cudaSuccess || cudaStreamWaitEvent(ms, ev[0], 0) != cudaSuccess))
        return sylva__launch_status();
    if (lists)
        rc = sylva::launch_front_lists(b, fused_list ? fused_lo : 0, fused_list ? fused_hi : 0,
                                       medium_list && med_on ? lo : -1, t->panel_nb, ms);
    if (split) {
        /* Recorded and joined even after a failed launch: s must not run
         * ahead of the second stream's queued work. */
        if (lists && cudaEventRecord(ev[1], ms) != cudaSuccess) return sylva__launch_status();
        if (rc == SYLVA_OK)
            rc = sylva::launch_blocked(b, lo, max_m, max_k, t->panel_nb, t->gemm_mma, t->panel_merge_min_count,
                                       medium_list, ms);
        if (cudaEventRecord(ev[2], ms) != cudaSuccess) return sylva__launch_status();
    }
    if (rc == SYLVA_OK && tiny > floor) rc = sylva::launch_tiny(b, floor, tiny, t, s);
    if (split && lists && cudaStreamWaitEvent(s, ev[1], 0) != cudaSuccess) return sylva__launch_status();
    if (rc == SYLVA_OK && fused_on) rc = sylva::launch_fused(b, fused_lo, fused_hi, t, fused_list, s);
    if (split) {
        if (cudaStreamWaitEvent(s, ev[2], 0) != cudaSuccess) return sylva__launch_status();
    } else if (rc == SYLVA_OK && med_on) {
        rc = sylva::launch_blocked(b, lo, max_m, max_k, t->panel_nb, t->gemm_mma, t->panel_merge_min_count,
                                   medium_list, s);
    }
    return rc;
}

extern "C" int sylva__gpu_front_factor_vbatched_max_nocheck(const sylva__front_batch *b,
                                                            int max_m, int max_k,
                                                            const sylva__kernel_tuning *tune,
                                                            cudaStream_t s)
{
    return factor_vbatched(sylva::mirror(*b), 0, max_m, max_k, tune, s);
}

extern "C" int sylva__gpu_front_factor_vbatched_range_nocheck(const sylva__front_batch *b,
                                                              int min_m, int max_m, int max_k,
                                                              const sylva__kernel_tuning *tune,
                                                              cudaStream_t s)
{
    return factor_vbatched(sylva::mirror(*b), min_m, max_m, max_k, tune, s);
}

extern "C" int sylva__gpu_front_factor_vbatched(const sylva__front_batch *b, const int *h_m,
                                                const int *h_k, const int *h_ldp,
                                                const int *h_ldc,
                                                const sylva__kernel_tuning *tune, cudaStream_t s)
{
    if (!b || b->count < 0 || (b->count > 0 && (!h_m || !h_k || !h_ldp || !h_ldc)))
        return SYLVA_ERR_ARGUMENT;
    int min_m = 0, max_m = 0, max_k = 0;
    for (int i = 0; i < b->count; i++) {
        const int m = h_m[i], k = h_k[i];
        if (m < 0 || k < 0 || k > m || h_ldp[i] < (m > 1 ? m : 1) ||
            (m > k && h_ldc[i] < m - k))
            return SYLVA_ERR_ARGUMENT;
        if (i == 0 || m < min_m) min_m = m;
        if (m > max_m) max_m = m;
        if (k > max_k) max_k = k;
    }
    return sylva__gpu_front_factor_vbatched_range_nocheck(b, min_m, max_m, max_k, tune, s);
}

/* POTRF is the front factorization with m = k (C never touched). */
extern "C" int sylva__gpu_potrf_vbatched_max_nocheck(int count, const int *n, double *const *A,
                                                     const int *lda, int *info, int max_n,
                                                     const sylva__kernel_tuning *tune,
                                                     cudaStream_t s)
{
    sylva__front_batch b = {count, n, n, A, lda, A, lda, info, nullptr};
    return sylva__gpu_front_factor_vbatched_max_nocheck(&b, max_n, max_n, tune, s);
}

extern "C" int sylva__gpu_potrf_vbatched(int count, const int *n, double *const *A,
                                         const int *lda, int *info, const int *h_n,
                                         const int *h_lda, const sylva__kernel_tuning *tune,
                                         cudaStream_t s)
{
    if (count < 0 || (count > 0 && (!h_n || !h_lda))) return SYLVA_ERR_ARGUMENT;
    int min_n = 0, max_n = 0;
    for (int i = 0; i < count; i++) {
        if (h_n[i] < 0 || h_lda[i] < (h_n[i] > 1 ? h_n[i] : 1)) return SYLVA_ERR_ARGUMENT;
        if (i == 0 || h_n[i] < min_n) min_n = h_n[i];
        if (h_n[i] > max_n) max_n = h_n[i];
    }
    sylva__front_batch b = {count, n, n, A, lda, A, lda, info, nullptr};
    return sylva__gpu_front_factor_vbatched_range_nocheck(&b, min_n, max_n, max_n, tune, s);
}

extern "C" int sylva__gpu_trsm_vbatched_max_nocheck(int count, const int *m, const int *n,
                                                    double *const *L, const int *ldl,
                                                    double *const *B, const int *ldb, int max_m,
                                                    int max_n, const sylva__kernel_tuning *tune,
                                                    cudaStream_t s)
{
    sylva__kernel_tuning buf;
    const sylva__kernel_tuning *t = tuning_or_default(tune, &buf);
    return sylva::launch_trsm(count, m, n, L, ldl, B, ldb, max_m, max_n, t->panel_nb, t->gemm_mma,
                              s);
}

extern "C" int sylva__gpu_trsm_vbatched(int count, const int *m, const int *n, double *const *L,
                                        const int *ldl, double *const *B, const int *ldb,
                                        const int *h_m, const int *h_n, const int *h_ldl,
                                        const int *h_ldb, const sylva__kernel_tuning *tune,
                                        cudaStream_t s)
{
    if (count < 0 || (count > 0 && (!h_m || !h_n || !h_ldl || !h_ldb))) return SYLVA_ERR_ARGUMENT;
    int max_m = 0, max_n = 0;
    for (int i = 0; i < count; i++) {
        if (h_m[i] < 0 || h_n[i] < 0 || h_ldl[i] < (h_n[i] > 1 ? h_n[i] : 1) ||
            h_ldb[i] < (h_m[i] > 1 ? h_m[i] : 1))
            return SYLVA_ERR_ARGUMENT;
        if (h_m[i] > max_m) max_m = h_m[i];
        if (h_n[i] > max_n) max_n = h_n[i];
    }
    return sylva__gpu_trsm_vbatched_max_nocheck(count, m, n, L, ldl, B, ldb, max_m, max_n, tune,
                                                s);
}

extern "C" int sylva__gpu_syrk_vbatched_max_nocheck(int count, const int *n, const int *k,
                                                    double alpha, double *const *A,
                                                    const int *lda, double beta,
                                                    double *const *C, const int *ldc, int max_n,
                                                    int max_k, cudaStream_t s)
{
    (void)max_k;
    sylva::gemm_args<double> g = {count, n, n, k, A, lda, A, lda, C, ldc, 0};
    return sylva::launch_gemm_generic(g, alpha, beta, 1, max_n, max_n, 1, s);
}

extern "C" int sylva__gpu_syrk_vbatched(int count, const int *n, const int *k, double alpha,
                                        double *const *A, const int *lda, double beta,
                                        double *const *C, const int *ldc, const int *h_n,
                                        const int *h_k, const int *h_lda, const int *h_ldc,
                                        cudaStream_t s)
{
    if (count < 0 || (count > 0 && (!h_n || !h_k || !h_lda || !h_ldc))) return SYLVA_ERR_ARGUMENT;
    int max_n = 0, max_k = 0;
    for (int i = 0; i < count; i++) {
        if (h_n[i] < 0 || h_k[i] < 0 || h_lda[i] < (h_n[i] > 1 ? h_n[i] : 1) ||
            h_ldc[i] < (h_n[i] > 1 ? h_n[i] : 1))
            return SYLVA_ERR_ARGUMENT;
        if (h_n[i] > max_n) max_n = h_n[i];
        if (h_k[i] > max_k) max_k = h_k[i];
    }
    return sylva__gpu_syrk_vbatched_max_nocheck(count, n, k, alpha, A, lda, beta, C, ldc, max_n,
                                                max_k, s);
}

extern "C" int sylva__gpu_gemm_nt_vbatched_max_nocheck(int count, const int *m, const int *n,
                                                       const int *k, double alpha,
                                                       double *const *A, const int *lda,
                                                       double *const *B, const int *ldb,
                                                       double beta, double *const *C,
                                                       const int *ldc, int lower, int max_m,
                                                       int max_n, int max_k, cudaStream_t s)
{
    (void)max_k;
    sylva::gemm_args<double> g = {count, m, n, k, A, lda, B, ldb, C, ldc, 0};
    return sylva::launch_gemm_generic(g, alpha, beta, lower, max_m, max_n, 1, s);
}
