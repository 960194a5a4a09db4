#!/usr/bin/env bash
# build-starpu-cuda.sh PREFIX — build StarPU 1.3.10 with CUDA from Debian's
# source package into PREFIX (Debian's own libstarpu is built without CUDA).
#
# CUDA 13 removed three things StarPU 1.3.10 uses; each is patched here:
#  - cudaDeviceProp.computeMode   -> cudaDeviceGetAttribute(cudaDevAttrComputeMode)
#  - the legacy <cublas.h> header  -> <cublas_v2.h>
#  - cublasInit/cublasShutdown/cublasSetKernelStream (legacy API) -> dropped
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

./configure -q --prefix="$prefix" --enable-cuda --with-cuda-dir="$cuda_dir" \
  --enable-maxcpus=256 --disable-opencl --disable-fortran --enable-mpi \
  --disable-build-doc --disable-build-examples --disable-build-tests \
  --disable-starpufft --disable-socl --disable-starpupy 2>&1 | tail -5
make -j"$(nproc)" -s >/dev/null
sudo_ make -s install >/dev/null
echo "build-starpu-cuda: installed StarPU with CUDA into $prefix"
