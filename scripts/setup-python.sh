#!/usr/bin/env bash
# setup-python.sh — the Python package (python/, `import sylva`) on Debian 12,
# after setup.sh: Debian's python3-numpy, python3-scipy, python3-pytest (and
# python3-dev, python3-venv), a virtual environment (default .venv; Debian's
# system Python refuses `pip install` outside one) that sees them, PyPI's
# scikit-build-core in it, and `pip install ./python` into it, built through
# the project's CMake with the same CUDA choice and StarPU as the build
# directory (default build/). Then it tells that build directory where the
# environment's Python is (SYLVA_TEST_PYTHON), so that ctest runs the
# package's tests (python.pytest). Non-interactive, idempotent; the build
# under python/build/ is incremental.
#   bash scripts/setup-python.sh          then: .venv/bin/python -c 'import sylva'
#   SYLVA_VENV=DIR SYLVA_BUILD_DIR=DIR SYLVA_PYTHON_CUDA=ON|OFF bash scripts/setup-python.sh
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
venv=${SYLVA_VENV:-$here/.venv}
build_dir=${SYLVA_BUILD_DIR:-$here/build}
export DEBIAN_FRONTEND=noninteractive
sudo_() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

pkgs="python3 python3-dev python3-venv python3-pip python3-numpy python3-scipy python3-pytest"
missing=""
for p in $pkgs; do dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"; done
if [ -n "$missing" ]; then
  echo "setup-python: installing$missing"
  sudo_ apt-get update -qq
  sudo_ apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi

# Debian's interpreter (not another python3 earlier on PATH), whose
# dist-packages hold the numpy and scipy just installed.
if [ ! -x "$venv/bin/python" ]; then
  /usr/bin/python3 -m venv --system-site-packages "$venv"
fi
py=$venv/bin/python
"$py" -c 'import scikit_build_core' 2>/dev/null ||
  "$py" -m pip install --quiet --disable-pip-version-check 'scikit-build-core>=0.8'

# The build directory's CUDA choice and StarPU (setup.sh's), so that the
# wheel's libsylva is the same library.
cache=$build_dir/CMakeCache.txt
cuda=OFF
if [ -f "$cache" ]; then
  grep -q '^SYLVA_ENABLE_CUDA:BOOL=ON' "$cache" && cuda=ON
  starpu_libdir=$(sed -n 's/^STARPU_LIBDIR:INTERNAL=//p' "$cache")
  [ -n "$starpu_libdir" ] && export PKG_CONFIG_PATH="$starpu_libdir/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
fi
# SYLVA_PYTHON_CUDA=ON|OFF overrides it (a CPU-only package skips compiling
# the CUDA kernels a second time).
cuda=${SYLVA_PYTHON_CUDA:-$cuda}
if [ "$cuda" = ON ]; then export PATH=/usr/local/cuda/bin:$PATH; fi
echo "setup-python: pip install ./python into $venv (CUDA $cuda)"
"$py" -m pip install --quiet --disable-pip-version-check --no-build-isolation \
  --config-settings=cmake.define.SYLVA_ENABLE_CUDA=$cuda "$here/python"
"$py" -c 'import sylva; print("setup-python: sylva", sylva.__version__, "from", sylva.__file__)'

if [ -f "$cache" ]; then
  cmake -S "$here" -B "$build_dir" -DSYLVA_TEST_PYTHON="$py" >/dev/null
  echo "setup-python: ctest in $build_dir runs python.pytest with $py"
fi
