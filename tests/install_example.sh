#!/usr/bin/env bash
# install_example.sh BUILD_DIR SOURCE_DIR — install sylva into a temporary
# prefix, then build docs/example against it twice: with find_package(sylva)
# (CMake package) and with pkg-config; both programs must solve accurately.
set -euo pipefail
build=$1; src=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
cmake -S "$src/docs/example" -B "$tmp/ex" -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
cmake --build "$tmp/ex" >/dev/null
"$tmp/ex/solve_poisson" | tee "$tmp/out1"
export PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
cc "$src/docs/example/solve_poisson.c" $(pkg-config --cflags --libs sylva) \
   -Wl,-rpath,"$tmp/prefix/lib" -o "$tmp/pc_example"
"$tmp/pc_example" | tee "$tmp/out2"
grep -q "backward error" "$tmp/out1" && grep -q "backward error" "$tmp/out2"
