/* gpu_libs.cu — cuBLAS and cuSOLVER opened with dlopen on first use
 * (contract in gpu_libs.cuh): by soname (the loader's search: the
 * caller's run path, LD_LIBRARY_PATH, ld.so.cache), else in the CUDA
 * toolkit's library folder found at build time. Loaded once under
 * pthread_once; never closed (the process's exit unmaps them). */
#define SYLVA__GPU_LIBS_NO_REDIRECT
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#include "core.h"
#include "gpu_libs.cuh"

#define SYLVA__STR_(x) #x
#define SYLVA__STR(x) SYLVA__STR_(x)

sylva__gpu_lib_table sylva__gpu_lib;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char failure[512]; /* "" when loaded */

static void *open_lib(const char *soname)
{
    void *h = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
#ifdef SYLVA_CUDA_LIBDIR
    if (!h) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", SYLVA_CUDA_LIBDIR, soname);
        h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    }
#endif
    if (!h) snprintf(failure, sizeof failure, "cannot open %s (a GPU run needs it): %s", soname, dlerror());
    return h;
}

static void load_once(void)
{
    sylva__gpu_lib_table t;
    void *blas = open_lib("libcublas.so." SYLVA__STR(CUBLAS_VER_MAJOR));
    void *solver = blas ? open_lib("libcusolver.so." SYLVA__STR(CUSOLVER_VER_MAJOR)) : NULL;
    if (!blas || !solver) return;
    /* "cus…" symbols are cuSOLVER's, "cub…" cuBLAS's. */
#define SYLVA__GPU_LIB_LOAD(name, symbol)                                                            \
    t.p_##name = (decltype(t.p_##name))dlsym(#symbol[2] == 's' ? solver : blas, #symbol);            \
    if (!t.p_##name && !failure[0])                                                                   \
        snprintf(failure, sizeof failure, "%s has no %s", #symbol[2] == 's' ? "cuSOLVER" : "cuBLAS", #symbol);
    SYLVA__GPU_LIB_FUNCS(SYLVA__GPU_LIB_LOAD)
#undef SYLVA__GPU_LIB_LOAD
    if (!failure[0]) sylva__gpu_lib = t;
}

extern "C" int sylva__gpu_libs_load(void)
{
    pthread_once(&once, load_once);
    return failure[0] ? sylva__fail(SYLVA_ERR_RUNTIME, "%s", failure) : SYLVA_OK;
}

const sylva__gpu_lib_table &sylva__gpu_libs(void)
{
    pthread_once(&once, load_once);
    return sylva__gpu_lib;
}
