/* t_front_cpu.c — partial factorization, A-scatter, extend-add and solve
 * steps of one front on the CPU with OpenBLAS (a small front's solve steps
 * with plain loops), for one scalar type (a precision template,
 * core/precision.h; contract in front_cpu.h). */
#include "precision.h"

int SYLVA_TNAME(front_factor_cpu)(int64_t m, int64_t k, Scalar *P, int64_t ldp, Scalar *C,
                                  int64_t ldc)
{
    if (k <= 0) return 0;
    int kk = (int)k, ld = (int)ldp, info = 0;
    SYLVA_LAPACK(potrf)("L", &kk, P, &ld, &info);
    if (info != 0) return info;
    int64_t r = m - k;
    if (r <= 0) return 0;
    /* L21 = F21 · L11⁻ᴴ */
    SYLVA_CBLAS(trsm)(CblasColMajor, CblasRight, CblasLower, SYLVA_CBLAS_CONJ_TRANS, CblasNonUnit,
                      (int)r, kk, 1, P, ld, P + k, ld);
    /* C −= L21 · L21ᴴ (lower) */
    SYLVA_CBLAS(syrk)(CblasColMajor, CblasLower, CblasNoTrans, (int)r, kk, -1, P + k, ld, 1, C,
                      (int)ldc);
    return 0;
}

void SYLVA_TNAME(scatter_add_cpu)(int64_t count, const int64_t *src, const int64_t *dst,
                                  const Scalar *values, Scalar *out)
{
    for (int64_t i = 0; i < count; i++) out[dst[i]] += values[src[i]];
}

void SYLVA_TNAME(extend_add_cpu)(int64_t mc, const Scalar *cb, int64_t ldcb, const int64_t *relmap,
                                 int64_t kp, Scalar *P, int64_t ldp, Scalar *C, int64_t ldc)
{
    for (int64_t j = 0; j < mc; j++) {
        const Scalar *col = cb + j * ldcb;
        int64_t pj = relmap[j];
        if (pj < kp) {
            Scalar *dst = P + pj * ldp;
            for (int64_t i = j; i < mc; i++) dst[relmap[i]] += col[i];
        } else {
            /* Rows of a column at or past kp are all ≥ kp too (relmap grows). */
            Scalar *dst = C + (pj - kp) * ldc - kp;
            for (int64_t i = j; i < mc; i++) dst[relmap[i]] += col[i];
        }
    }
}

/* Plain loops for a small front's solve steps, one column at a time
 * (SYLVA__SOLVE_LOOP_MAX, front_cpu.h: no OpenBLAS call, so no lock). */
static int SYLVA_TNAME(solve_loops)(int64_t rows, int64_t cols, int64_t nrhs)
{
    return rows * cols * nrhs <= SYLVA__SOLVE_LOOP_MAX;
}

/* x ← L⁻¹ x, L lower k × k (ld ldp). */
static void SYLVA_TNAME(loop_trsv_n)(int64_t k, const Scalar *P, int64_t ldp, Scalar *x)
{
    for (int64_t j = 0; j < k; j++) {
        const Scalar *col = P + j * ldp;
        Scalar xj = x[j] / col[j];
        x[j] = xj;
        for (int64_t i = j + 1; i < k; i++) x[i] -= col[i] * xj;
    }
}

/* Σ a[i]·b[i], four partial sums (one chain of dependent additions would
 * run at a quarter of the multiply-add rate). */
static Scalar SYLVA_TNAME(loop_dot)(int64_t n, const Scalar *a, const Scalar *b)
{
    Scalar s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    int64_t i = 0;
    for (; i + 4 <= n; i += 4) {
        s0 += a[i] * b[i];
        s1 += a[i + 1] * b[i + 1];
        s2 += a[i + 2] * b[i + 2];
        s3 += a[i + 3] * b[i + 3];
    }
    for (; i < n; i++) s0 += a[i] * b[i];
    return (s0 + s1) + (s2 + s3);
}

/* x ← L⁻ᵀ x. */
static void SYLVA_TNAME(loop_trsv_t)(int64_t k, const Scalar *P, int64_t ldp, Scalar *x)
{
    for (int64_t j = k - 1; j >= 0; j--) {
        const Scalar *col = P + j * ldp;
        x[j] = (x[j] - SYLVA_TNAME(loop_dot)(k - j - 1, col + j + 1, x + j + 1)) / col[j];
    }
}

/* y ← beta·y + alpha·A x, A rows × cols (ld lda); beta 0 or 1 (0: y not read). */
static void SYLVA_TNAME(loop_gemv_n)(int64_t rows, int64_t cols, Scalar alpha, const Scalar *A, int64_t lda,
                                     const Scalar *x, Scalar beta, Scalar *y)
{
    if (beta == 0)
        for (int64_t i = 0; i < rows; i++) y[i] = 0;
    for (int64_t j = 0; j < cols; j++) {
        const Scalar *col = A + j * lda;
        Scalar a = alpha * x[j];
        for (int64_t i = 0; i < rows; i++) y[i] += col[i] * a;
    }
}

/* y ← y + alpha·Aᵀ x, A rows × cols. */
static void SYLVA_TNAME(loop_gemv_t)(int64_t rows, int64_t cols, Scalar alpha, const Scalar *A, int64_t lda,
                                     const Scalar *x, Scalar *y)
{
    for (int64_t j = 0; j < cols; j++) y[j] += alpha * SYLVA_TNAME(loop_dot)(rows, A + j * lda, x);
}

void SYLVA_TNAME(front_solve_forward_cpu)(int64_t m, int64_t k, const Scalar *P, int64_t ldp,
                                          int64_t nrhs, Scalar *X1, int64_t ldx, Scalar beta,
                                          Scalar *T, int64_t ldt)
{
    int64_t r = m - k;
    if (SYLVA_TNAME(solve_loops)(m, k, nrhs)) {
        for (int64_t c = 0; c < nrhs; c++) {
            SYLVA_TNAME(loop_trsv_n)(k, P, ldp, X1 + c * ldx);
            if (r > 0) SYLVA_TNAME(loop_gemv_n)(r, k, 1, P + k, ldp, X1 + c * ldx, beta, T + c * ldt);
        }
        return;
    }
    if (nrhs == 1) {
        SYLVA_CBLAS(trsv)(CblasColMajor, CblasLower, CblasNoTrans, CblasNonUnit, (int)k, P,
                          (int)ldp, X1, 1);
        if (r > 0)
            SYLVA_CBLAS(gemv)(CblasColMajor, CblasNoTrans, (int)r, (int)k, 1, P + k, (int)ldp, X1, 1,
                              beta, T, 1);
        return;
    }
    SYLVA_CBLAS(trsm)(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasNonUnit, (int)k,
                      (int)nrhs, 1, P, (int)ldp, X1, (int)ldx);
    if (r > 0)
        SYLVA_CBLAS(gemm)(CblasColMajor, CblasNoTrans, CblasNoTrans, (int)r, (int)nrhs, (int)k, 1,
                          P + k, (int)ldp, X1, (int)ldx, beta, T, (int)ldt);
}

void SYLVA_TNAME(front_solve_backward_cpu)(int64_t m, int64_t k, const Scalar *P, int64_t ldp,
                                           int64_t nrhs, const Scalar *T, int64_t ldt, Scalar *X1,
                                           int64_t ldx)
{
    int64_t r = m - k;
    if (SYLVA_TNAME(solve_loops)(m, k, nrhs)) {
        for (int64_t c = 0; c < nrhs; c++) {
            if (r > 0) SYLVA_TNAME(loop_gemv_t)(r, k, -1, P + k, ldp, T + c * ldt, X1 + c * ldx);
            SYLVA_TNAME(loop_trsv_t)(k, P, ldp, X1 + c * ldx);
        }
        return;
    }
    if (nrhs == 1) {
        if (r > 0)
            SYLVA_CBLAS(gemv)(CblasColMajor, SYLVA_CBLAS_CONJ_TRANS, (int)r, (int)k, -1, P + k,
                              (int)ldp, T, 1, 1, X1, 1);
        SYLVA_CBLAS(trsv)(CblasColMajor, CblasLower, SYLVA_CBLAS_CONJ_TRANS, CblasNonUnit, (int)k, P,
                          (int)ldp, X1, 1);
        return;
    }
    if (r > 0)
        SYLVA_CBLAS(gemm)(CblasColMajor, SYLVA_CBLAS_CONJ_TRANS, CblasNoTrans, (int)k, (int)nrhs,
                          (int)r, -1, P + k, (int)ldp, T, (int)ldt, 1, X1, (int)ldx);
    SYLVA_CBLAS(trsm)(CblasColMajor, CblasLeft, CblasLower, SYLVA_CBLAS_CONJ_TRANS, CblasNonUnit,
                      (int)k, (int)nrhs, 1, P, (int)ldp, X1, (int)ldx);
}

void SYLVA_TNAME(solve_update_cpu)(int64_t rows, int64_t k, const Scalar *L21s, int64_t ldl, int64_t nrhs,
                                   const Scalar *X1, int64_t ldx, Scalar alpha, Scalar *U, int64_t ldu)
{
    if (rows <= 0 || k <= 0) return;
    if (SYLVA_TNAME(solve_loops)(rows, k, nrhs))
        for (int64_t c = 0; c < nrhs; c++) SYLVA_TNAME(loop_gemv_n)(rows, k, alpha, L21s, ldl, X1 + c * ldx, 1, U + c * ldu);
    else if (nrhs == 1)
        SYLVA_CBLAS(gemv)(CblasColMajor, CblasNoTrans, (int)rows, (int)k, alpha, L21s, (int)ldl, X1, 1, 1, U, 1);
    else
        SYLVA_CBLAS(gemm)(CblasColMajor, CblasNoTrans, CblasNoTrans, (int)rows, (int)nrhs, (int)k, alpha, L21s,
                          (int)ldl, X1, (int)ldx, 1, U, (int)ldu);
}

void SYLVA_TNAME(solve_update_t_cpu)(int64_t r, int64_t cols, const Scalar *L21s, int64_t ldl, int64_t nrhs,
                                     const Scalar *T, int64_t ldt, Scalar *X1s, int64_t ldx)
{
    if (r <= 0 || cols <= 0) return;
    if (SYLVA_TNAME(solve_loops)(r, cols, nrhs))
        for (int64_t c = 0; c < nrhs; c++) SYLVA_TNAME(loop_gemv_t)(r, cols, -1, L21s, ldl, T + c * ldt, X1s + c * ldx);
    else if (nrhs == 1)
        SYLVA_CBLAS(gemv)(CblasColMajor, SYLVA_CBLAS_CONJ_TRANS, (int)r, (int)cols, -1, L21s, (int)ldl, T, 1, 1,
                          X1s, 1);
    else
        SYLVA_CBLAS(gemm)(CblasColMajor, SYLVA_CBLAS_CONJ_TRANS, CblasNoTrans, (int)cols, (int)nrhs, (int)r, -1,
                          L21s, (int)ldl, T, (int)ldt, 1, X1s, (int)ldx);
}

void SYLVA_TNAME(solve_extend_add_cpu)(int64_t mc, int64_t nrhs, const Scalar *U, int64_t ldu,
                                       const int64_t *relmap, int64_t kp, Scalar *X1, int64_t ldx,
                                       Scalar *Up, int64_t ldup)
{
    for (int64_t c = 0; c < nrhs; c++) {
        const Scalar *u = U + c * ldu;
        Scalar *x = X1 + c * ldx;
        int64_t i = 0;
        /* relmap grows: the pivot rows come first. */
        for (; i < mc && relmap[i] < kp; i++) x[relmap[i]] -= u[i];
        for (; i < mc; i++) Up[c * ldup + relmap[i] - kp] += u[i];
    }
}

void SYLVA_TNAME(solve_gather_cpu)(int64_t r, int64_t nrhs, const int64_t *rows, const Scalar *W,
                                   int64_t ldw, Scalar *T, int64_t ldt)
{
    for (int64_t c = 0; c < nrhs; c++)
        for (int64_t i = 0; i < r; i++) T[i + c * ldt] = W[rows[i] + c * ldw];
}

void SYLVA_TNAME(solve_scatter_sub_cpu)(int64_t r, int64_t nrhs, const int64_t *rows, const Scalar *T,
                                        int64_t ldt, Scalar *W, int64_t ldw)
{
    for (int64_t c = 0; c < nrhs; c++)
        for (int64_t i = 0; i < r; i++) W[rows[i] + c * ldw] -= T[i + c * ldt];
}
