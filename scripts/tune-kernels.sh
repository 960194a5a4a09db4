#!/usr/bin/env bash
# tune-kernels.sh — sweep the GPU kernel parameters (kernel_tuning.h: tiny /
# fused / medium crossovers, fused threads and panel width, medium panel
# width, native SYRK tile and panel widths) on this machine's GPU and install
# the table where the library looks for it (kernels/tuning/<GPU model>.txt,
# or $SYLVA_TUNING_DIR). Runs bench-kernels --tune (about a minute on an H100).
#   usage: scripts/tune-kernels.sh [BUILD_DIR]   (default build)
set -euo pipefail
build=${1:-build}
bin="$build/bench/kernels/bench-kernels"
[ -x "$bin" ] || { echo "tune-kernels: $bin not built (SYLVA_ENABLE_CUDA=ON)" >&2; exit 1; }
model=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | sed 's/[^A-Za-z0-9]/_/g')
dir=${SYLVA_TUNING_DIR:-$(dirname "$0")/../kernels/tuning}
mkdir -p "$dir"
"$bin" --tune "$dir/$model.txt"
echo "tune-kernels: wrote $dir/$model.txt"
