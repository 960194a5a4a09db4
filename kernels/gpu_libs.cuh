/* gpu_libs.cuh — cuBLAS and cuSOLVER opened at run time (gpu_libs.cu), not
 * linked: a process that uses no GPU maps neither (with cuBLASLt,
 * cuSPARSE and nvJitLink, which cuSOLVER needs, over 900 MB of address
 * space; a CPU run of a CUDA build then fits `ulimit -v 1000000`). Every
 * kernels/ file that calls them includes this header instead of
 * <cublas_v2.h> and <cusolverDn.h>: each function sylva calls is redirected
 * to a pointer of sylva__gpu_lib, loaded once (thread-safe) on the first
 * call. sylva__gpu_libs_load is the load with its failure (a library or a
 * symbol missing) as a status and message; a GPU context's creation
 * (gpu_context.cu) checks it first, so a call through a pointer that did
 * not load cannot happen after a context was made. Adding a call: add it
 * to SYLVA__GPU_LIB_FUNCS and to the redirections below. */
#ifndef SYLVA_KERNELS_GPU_LIBS_CUH
#define SYLVA_KERNELS_GPU_LIBS_CUH

#include <cublas_v2.h>
#include <cusolverDn.h>

/* X(name the code calls, symbol the library exports) */
#define SYLVA__GPU_LIB_FUNCS(X)                                                                        \
    X(cublasCreate, cublasCreate_v2)                                                                  \
    X(cublasDestroy, cublasDestroy_v2)                                                                \
    X(cublasSetStream, cublasSetStream_v2)                                                            \
    X(cublasSetPointerMode, cublasSetPointerMode_v2)                                                  \
    X(cublasDgemm, cublasDgemm_v2)                                                                    \
    X(cublasSgemm, cublasSgemm_v2)                                                                    \
    X(cublasDsyrk, cublasDsyrk_v2)                                                                    \
    X(cublasSsyrk, cublasSsyrk_v2)                                                                    \
    X(cublasDtrsm, cublasDtrsm_v2)                                                                    \
    X(cublasStrsm, cublasStrsm_v2)                                                                    \
    X(cublasDtrsmBatched, cublasDtrsmBatched)                                                         \
    X(cublasDgemmBatched, cublasDgemmBatched)                                                         \
    X(cusolverDnCreate, cusolverDnCreate)                                                             \
    X(cusolverDnDestroy, cusolverDnDestroy)                                                           \
    X(cusolverDnSetStream, cusolverDnSetStream)                                                       \
    X(cusolverDnDpotrf_bufferSize, cusolverDnDpotrf_bufferSize)                                       \
    X(cusolverDnSpotrf_bufferSize, cusolverDnSpotrf_bufferSize)                                       \
    X(cusolverDnDpotrf, cusolverDnDpotrf)                                                             \
    X(cusolverDnSpotrf, cusolverDnSpotrf)

struct sylva__gpu_lib_table {
#define SYLVA__GPU_LIB_POINTER(name, symbol) decltype(&::symbol) p_##name;
    SYLVA__GPU_LIB_FUNCS(SYLVA__GPU_LIB_POINTER)
#undef SYLVA__GPU_LIB_POINTER
};
extern sylva__gpu_lib_table sylva__gpu_lib;
/* Load both libraries and every pointer, once: SYLVA_OK, or
 * SYLVA_ERR_RUNTIME naming the library or symbol and dlerror's reason
 * (every later call returns the same). */
extern "C" int sylva__gpu_libs_load(void);
/* The table, loaded: for the redirections (a failed load leaves it NULL;
 * see the contract above). */
const sylva__gpu_lib_table &sylva__gpu_libs(void);

#ifndef SYLVA__GPU_LIBS_NO_REDIRECT
#undef cublasCreate
#undef cublasDestroy
#undef cublasSetStream
#undef cublasSetPointerMode
#undef cublasDgemm
#undef cublasSgemm
#undef cublasDsyrk
#undef cublasSsyrk
#undef cublasDtrsm
#undef cublasStrsm
#define cublasCreate sylva__gpu_libs().p_cublasCreate
#define cublasDestroy sylva__gpu_libs().p_cublasDestroy
#define cublasSetStream sylva__gpu_libs().p_cublasSetStream
#define cublasSetPointerMode sylva__gpu_libs().p_cublasSetPointerMode
#define cublasDgemm sylva__gpu_libs().p_cublasDgemm
#define cublasSgemm sylva__gpu_libs().p_cublasSgemm
#define cublasDsyrk sylva__gpu_libs().p_cublasDsyrk
#define cublasSsyrk sylva__gpu_libs().p_cublasSsyrk
#define cublasDtrsm sylva__gpu_libs().p_cublasDtrsm
#define cublasStrsm sylva__gpu_libs().p_cublasStrsm
#define cublasDtrsmBatched sylva__gpu_libs().p_cublasDtrsmBatched
#define cublasDgemmBatched sylva__gpu_libs().p_cublasDgemmBatched
#define cusolverDnCreate sylva__gpu_libs().p_cusolverDnCreate
#define cusolverDnDestroy sylva__gpu_libs().p_cusolverDnDestroy
#define cusolverDnSetStream sylva__gpu_libs().p_cusolverDnSetStream
#define cusolverDnDpotrf_bufferSize sylva__gpu_libs().p_cusolverDnDpotrf_bufferSize
#define cusolverDnSpotrf_bufferSize sylva__gpu_libs().p_cusolverDnSpotrf_bufferSize
#define cusolverDnDpotrf sylva__gpu_libs().p_cusolverDnDpotrf
#define cusolverDnSpotrf sylva__gpu_libs().p_cusolverDnSpotrf
#endif

#endif
