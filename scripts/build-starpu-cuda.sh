#!/usr/bin/env bash
# build-starpu-cuda.sh PREFIX — build StarPU 1.3.10 with CUDA from Debian's
# source package into PREFIX (Debian's own libstarpu is built without CUDA).
#
# CUDA 13 removed three things StarPU 1.3.10 uses; each is patched here:
#  - cudaDeviceProp.computeMode   -> cudaDeviceGetAttribute(cudaDevAttrComputeMode)
#  - the legacy <cublas.h> header  -> <cublas_v2.h>
#  - cublasInit/cublasShutdown/cublasSetKernelStream (legacy API) -> dropped
# And so that a process using no GPU maps none of CUDA's large libraries
# (cuBLAS with cuBLASLt, cuSPARSE with nvJitLink: over 800 MB of address
# space; a CPU run under `ulimit -v 1000000` could not even start):
#  - cuBLAS is not linked: StarPU's own cuBLAS calls (starpu_cublas.c's
#    handles, for programs that call starpu_cublas_init; sylva does not)
#    open it with dlopen on first use
#  - cuSPARSE is not used (configure is told it is not there; sylva does
#    not call starpu_cusparse_init)
# Only cudart (under 1 MB) stays linked. setup.sh rebuilds a prefix whose
# libstarpu still needs libcublas.
# --enable-maxcpus=256: the default is the build machine's core count, too few
# for the GPU host. --enable-mpi: StarPU-MPI (libstarpumpi-1.3), which sylva's
# several-process path uses (Open MPI from Debian: openmpi-bin, libopenmpi-dev).
set -euo pipefail
prefix=${1:?usage: build-starpu-cuda.sh PREFIX}
export DEBIAN_FRONTEND=noninteractive
sudo_() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
cuda_dir=$(dirname "$(dirname "$(command -v nvcc)")")

if ! grep -rqs '^Types:.*deb-src' /etc/apt/sources.list.d/ && ! grep -qs '^deb-src' /etc/apt/sources.list; then
  sudo_ tee /etc/apt/sources.list.d/sylva-debian-src.sources >/dev/null <<SRC
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
  sudo_ apt-get update -qq
fi
sudo_ apt-get install -y -qq --no-install-recommends dpkg-dev libhwloc-dev pkg-config \
  build-essential openmpi-bin libopenmpi-dev >/dev/null

work=$(mktemp -d /tmp/starpu-src.XXXX)
trap 'rm -rf "$work"' EXIT
cd "$work"
apt-get source -qq starpu >/dev/null 2>&1
src=$(find . -maxdepth 1 -type d -name 'starpu-1.3*' | head -1)
cd "$src"

# (1) computeMode left cudaDeviceProp in CUDA 13: ask the attribute instead.
perl -0pi -e 's/props\[devid\]\.computeMode/({ int mode_ = 0; cudaDeviceGetAttribute(&mode_, cudaDevAttrComputeMode, devid); mode_; })/' \
  src/drivers/cuda/driver_cuda.c
# (2) the legacy cuBLAS header is gone.
sed -i 's/#include <cublas.h>/#include <cublas_v2.h>/' \
  src/drivers/cuda/driver_cuda.h src/drivers/cuda/starpu_cublas.c
# (3) the legacy cuBLAS calls are gone; StarPU's per-worker v2 handles remain.
perl -0pi -e 's/cublasStatus cublasst = cublasInit\(\);\s*if \(STARPU_UNLIKELY\(cublasst\)\)\s*STARPU_CUBLAS_REPORT_ERROR\(cublasst\);/(void)0;/;
              s/cublasShutdown\(\);/(void)0;/g; s/cublasSetKernelStream\([^;]*\);/(void)0;/g' \
  src/drivers/cuda/starpu_cublas.c
if grep -q 'computeMode\|cublasInit\|cublasShutdown()\|cublasSetKernelStream\|<cublas.h>' \
     src/drivers/cuda/driver_cuda.c src/drivers/cuda/driver_cuda.h src/drivers/cuda/starpu_cublas.c; then
  echo "build-starpu-cuda: CUDA 13 patches did not apply" >&2; exit 1
fi

# (4) cuBLAS opened on first use instead of linked (see above).
perl -0pi -e 's/(#include <starpu_cublas_v2.h>\n)/$1#include <dlfcn.h>
\/* sylva (build-starpu-cuda.sh): cuBLAS is opened on first use, not linked. *\/
#define SYLVA_STR_(x) #x
#define SYLVA_STR(x) SYLVA_STR_(x)
static void *sylva_cublas(const char *name)
{
	static void *lib;
	if (!lib)
		lib = dlopen("libcublas.so." SYLVA_STR(CUBLAS_VER_MAJOR), RTLD_NOW | RTLD_GLOBAL);
	void *f = lib ? dlsym(lib, name) : NULL;
	STARPU_ASSERT_MSG(f, "cuBLAS: cannot load %s (%s)", name, dlerror());
	return f;
}
#undef cublasCreate
#undef cublasDestroy
#undef cublasSetStream
#define cublasCreate(h) ((cublasStatus_t (*)(cublasHandle_t *))sylva_cublas("cublasCreate_v2"))(h)
#define cublasDestroy(h) ((cublasStatus_t (*)(cublasHandle_t))sylva_cublas("cublasDestroy_v2"))(h)
#define cublasSetStream(h, s) ((cublasStatus_t (*)(cublasHandle_t, cudaStream_t))sylva_cublas("cublasSetStream_v2"))(h, s)
/' src/drivers/cuda/starpu_cublas.c
perl -pi -e 's/STARPU_CUDA_LDFLAGS="\$STARPU_CUDA_LDFLAGS -lcublas"/:/' configure
if ! grep -q 'sylva_cublas("cublasCreate_v2")' src/drivers/cuda/starpu_cublas.c || grep -q 'STARPU_CUDA_LDFLAGS -lcublas"' configure; then
  echo "build-starpu-cuda: the cuBLAS patch did not apply" >&2; exit 1
fi

# (5) cuSPARSE: configure's check says it is not there.
export ac_cv_lib_cusparse_cusparseCreate=no

./configure -q --prefix="$prefix" --enable-cuda --with-cuda-dir="$cuda_dir" \
  --enable-maxcpus=256 --disable-opencl --disable-fortran --enable-mpi \
  --disable-build-doc --disable-build-examples --disable-build-tests \
  --disable-starpufft --disable-socl --disable-starpupy 2>&1 | tail -5
make -j"$(nproc)" -s >/dev/null
sudo_ make -s install >/dev/null
if readelf -d "$prefix/lib/libstarpu-1.3.so" | grep -Eq 'NEEDED.*lib(cublas|cusparse)'; then
  echo "build-starpu-cuda: $prefix/lib/libstarpu-1.3.so still needs cuBLAS or cuSPARSE" >&2; exit 1
fi
echo "build-starpu-cuda: installed StarPU with CUDA into $prefix"
