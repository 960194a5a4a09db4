/* precision.h — one source for every precision, in CHOLMOD's way
 * (Include/cholmod_template.h): a worker file t_NAME.c is written once in
 * terms of the macros below, and NAME.c instantiates it per precision:
 *
 *     #define SYLVA_DOUBLE
 *     #include "t_NAME.c"
 *     #define SYLVA_SINGLE
 *     #include "t_NAME.c"
 *
 * t_NAME.c includes this header first; each inclusion drops the previous
 * precision's macros, consumes the selector (SYLVA_DOUBLE or SYLVA_SINGLE,
 * double when none is set) and defines:
 *   Scalar          the scalar type: double, float
 *   SYLVA_TNAME(x)  x with the precision's prefix: sylva__d_x, sylva__s_x
 *   SYLVA_TYPE      the precision's sylva_dtype value
 *   SYLVA_EPS       the unit roundoff of Scalar
 *   SYLVA_CBLAS(f)  CBLAS routine f for Scalar: SYLVA_CBLAS(trsm) is cblas_dtrsm
 *   SYLVA_LAPACK(f) Fortran LAPACK routine f: SYLVA_LAPACK(potrf) is dpotrf_
 *   SYLVA_CONJ(x), SYLVA_CBLAS_CONJ_TRANS: the conjugate and the conjugate
 *                   transpose — the one place complex types will change
 *                   (identity and CblasTrans while the types are real).
 * No include guard: it is meant to be included once per precision.
 */
#include <float.h>

#undef Scalar
#undef SYLVA_TNAME
#undef SYLVA_TNAME_
#undef SYLVA_TYPE
#undef SYLVA_EPS
#undef SYLVA_CBLAS
#undef SYLVA_LAPACK
#undef SYLVA_CONJ
#undef SYLVA_CBLAS_CONJ_TRANS

#if defined(SYLVA_SINGLE)
#undef SYLVA_SINGLE
#define Scalar float
#define SYLVA_TNAME_(x) sylva__s_##x
#define SYLVA_TYPE SYLVA_FLOAT32
#define SYLVA_EPS FLT_EPSILON
#define SYLVA_CBLAS(f) cblas_s##f
#define SYLVA_LAPACK(f) s##f##_
#else
#undef SYLVA_DOUBLE
#define Scalar double
#define SYLVA_TNAME_(x) sylva__d_##x
#define SYLVA_TYPE SYLVA_FLOAT64
#define SYLVA_EPS DBL_EPSILON
#define SYLVA_CBLAS(f) cblas_d##f
#define SYLVA_LAPACK(f) d##f##_
#endif

#define SYLVA_TNAME(x) SYLVA_TNAME_(x)
#define SYLVA_CONJ(x) (x)
#define SYLVA_CBLAS_CONJ_TRANS CblasTrans
