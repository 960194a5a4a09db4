#!/usr/bin/env bash
# setup.sh — install what sylva needs on Debian 12, then configure and build it.
# (clang and libclang-rt-14-dev are for the fuzz targets: scripts/fuzz.sh;
# chromium is the headless browser of the study report's test, study.chromium.)
#
# Idempotent: packages already present are skipped by apt, a StarPU prefix that
# already has its library is reused, and the CMake build is incremental.
#   bash setup.sh            deps + build (Release) into ./build
#   SYLVA_BUILD_TYPE=Asan bash setup.sh    sanitizer build into ./build-asan
# When nvcc is on PATH (or /usr/local/cuda/bin), StarPU 1.3.10 is built with
# CUDA from Debian's source package into $STARPU_PREFIX (default
# /opt/starpu-cuda), with StarPU-MPI; otherwise Debian's libstarpu-dev (CPU
# only, StarPU-MPI included) is used. Open MPI (openmpi-bin, libopenmpi-dev)
# is installed for the several-process path (SYLVA_ENABLE_MPI, docs/architecture.md).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build_type=${SYLVA_BUILD_TYPE:-Release}
build_dir=${SYLVA_BUILD_DIR:-$here/build}
[ "$build_type" = Asan ] && build_dir=${SYLVA_BUILD_DIR:-$here/build-asan}
starpu_prefix=${STARPU_PREFIX:-/opt/starpu-cuda}
export DEBIAN_FRONTEND=noninteractive

sudo_() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

pkgs="build-essential cmake pkg-config gfortran libstarpu-dev libhwloc-dev
      libmetis-dev libscotch-dev libsuitesparse-dev libopenblas-dev liblapacke-dev
      zlib1g-dev libbz2-dev liblzma-dev gzip bzip2 xz-utils python3 clang libclang-rt-14-dev chromium
      openmpi-bin libopenmpi-dev"
missing=""
for p in $pkgs; do dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"; done
if [ -n "$missing" ]; then
  echo "setup: installing$missing"
  sudo_ apt-get update -qq
  sudo_ apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi

if [ -z "${SYLVA_NO_CUDA:-}" ] && ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH=/usr/local/cuda/bin:$PATH
fi

cmake_extra=()
if [ -z "${SYLVA_NO_CUDA:-}" ] && command -v nvcc >/dev/null; then
  # A prefix built before StarPU-MPI was enabled lacks libstarpumpi: rebuild it.
  if [ ! -e "$starpu_prefix/lib/libstarpu-1.3.so" ] || [ ! -e "$starpu_prefix/lib/libstarpumpi-1.3.so" ]; then
    bash "$here/scripts/build-starpu-cuda.sh" "$starpu_prefix"
  fi
  export PKG_CONFIG_PATH="$starpu_prefix/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
  cmake_extra+=(-DSYLVA_ENABLE_CUDA=ON)
else
  cmake_extra+=(-DSYLVA_ENABLE_CUDA=OFF)
fi

cmake -S "$here" -B "$build_dir" -DCMAKE_BUILD_TYPE="$build_type" "${cmake_extra[@]}" >/dev/null
cmake --build "$build_dir" -j"$(nproc)"
echo "setup: built $build_dir ($build_type)"
