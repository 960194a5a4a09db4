#!/usr/bin/env bash
# setup.sh — install what sylva needs on Debian 12, then configure and build it.
#   bash setup.sh         a user's install: the library, the `sylva` and
#                         `sylva-gen` commands and their tests (Release, ./build)
#   bash setup.sh --dev   a developer's (and CI's): also clang and
#                         libclang-rt-14-dev (the fuzz targets: scripts/fuzz.sh),
#                         chromium (the headless browser of the study report's
#                         test, study.chromium), Open MPI (the several-process
#                         path, SYLVA_ENABLE_MPI, and its tests), and the
#                         benchmarks (bench/)
#   SYLVA_BUILD_TYPE=Asan bash setup.sh [--dev]   sanitizer build into ./build-asan
# Without --dev, tests that need a developer's tool skip with a message
# (study.chromium) or are not configured (tests/mpi: CMake says why).
#
# Idempotent: packages already present are skipped by apt, a StarPU prefix that
# already has its library is reused, and the CMake build is incremental.
# The CUDA variant: StarPU 1.3.10 is built with CUDA (and StarPU-MPI, so
# with Open MPI) from Debian's source package into $STARPU_PREFIX (default
# /opt/starpu-cuda) — with --dev whenever nvcc is on PATH (or
# /usr/local/cuda/bin: CI compiles the CUDA code on a machine without a
# GPU), without it only when a GPU is also there (nvidia-smi lists one) or
# SYLVA_CUDA=1 asks; SYLVA_NO_CUDA=1 never. Otherwise Debian's libstarpu-dev
# (CPU only, StarPU-MPI included) is used.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dev=0
for arg in "$@"; do
  case $arg in
    --dev) dev=1 ;;
    -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
    *) echo "setup: unknown argument '$arg' (--dev, --help)" >&2; exit 2 ;;
  esac
done
build_type=${SYLVA_BUILD_TYPE:-Release}
build_dir=${SYLVA_BUILD_DIR:-$here/build}
[ "$build_type" = Asan ] && build_dir=${SYLVA_BUILD_DIR:-$here/build-asan}
starpu_prefix=${STARPU_PREFIX:-/opt/starpu-cuda}
export DEBIAN_FRONTEND=noninteractive

sudo_() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

if [ -z "${SYLVA_NO_CUDA:-}" ] && ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH=/usr/local/cuda/bin:$PATH
fi
cuda=0
if [ -z "${SYLVA_NO_CUDA:-}" ] && command -v nvcc >/dev/null; then
  if [ $dev = 1 ] || [ -n "${SYLVA_CUDA:-}" ] || nvidia-smi -L 2>/dev/null | grep -q '^GPU '; then
    cuda=1
  else
    echo "setup: nvcc is here but no GPU: the CPU build (SYLVA_CUDA=1 or --dev builds the CUDA one)"
  fi
fi

pkgs="build-essential cmake pkg-config gfortran libstarpu-dev libhwloc-dev
      libmetis-dev libscotch-dev libsuitesparse-dev libopenblas-dev liblapacke-dev
      zlib1g-dev libbz2-dev liblzma-dev gzip bzip2 xz-utils python3"
dev_pkgs="clang libclang-rt-14-dev chromium openmpi-bin libopenmpi-dev"
mpi_pkgs="openmpi-bin libopenmpi-dev" # the CUDA StarPU is built with StarPU-MPI
[ $dev = 1 ] && pkgs="$pkgs $dev_pkgs"
[ $cuda = 1 ] && pkgs="$pkgs $mpi_pkgs"
missing=""
for p in $pkgs; do
  case " $missing " in *" $p "*) continue ;; esac
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  echo "setup: installing$missing"
  sudo_ apt-get update -qq
  sudo_ apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi

cmake_extra=(-DSYLVA_BUILD_BENCH=$([ $dev = 1 ] && echo ON || echo OFF))
if [ $cuda = 1 ]; then
  # A prefix built before StarPU-MPI was enabled lacks libstarpumpi: rebuild it.
  # One that links cuBLAS or cuSPARSE (built before build-starpu-cuda.sh opened
  # cuBLAS at run time) maps them in CPU runs too: rebuild it.
  if [ ! -e "$starpu_prefix/lib/libstarpu-1.3.so" ] || [ ! -e "$starpu_prefix/lib/libstarpumpi-1.3.so" ] ||
     readelf -d "$starpu_prefix/lib/libstarpu-1.3.so" | grep -Eq "NEEDED.*lib(cublas|cusparse)"; then
    bash "$here/scripts/build-starpu-cuda.sh" "$starpu_prefix"
  fi
  export PKG_CONFIG_PATH="$starpu_prefix/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
  cmake_extra+=(-DSYLVA_ENABLE_CUDA=ON)
else
  cmake_extra+=(-DSYLVA_ENABLE_CUDA=OFF)
fi

cmake -S "$here" -B "$build_dir" -DCMAKE_BUILD_TYPE="$build_type" "${cmake_extra[@]}" >/dev/null
cmake --build "$build_dir" -j"$(nproc)"
echo "setup: built $build_dir ($build_type$([ $cuda = 1 ] && echo ", CUDA")$([ $dev = 1 ] && echo ", developer's: benchmarks too"))"
