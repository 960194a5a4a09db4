#!/usr/bin/env bash
# install_example.sh BUILD_DIR SOURCE_DIR — the installed package as a user
# gets it. Installs sylva into a temporary prefix, moves the prefix (nothing
# may point back into the build or the first prefix), then, with
# LD_LIBRARY_PATH unset:
#  - runs the installed `sylva` (version, a factorization) and `sylva-gen`;
#  - checks the man page: it renders, and it has an entry for every option
#    `sylva --help` names;
#  - builds docs/example with find_package(sylva COMPONENTS static): the
#    shared (sylva::sylva) and static (sylva::sylva_static) Poisson programs
#    and the program that includes sylva_cholmod.h; runs each;
#  - builds the same three with pkg-config (sylva, sylva-static) and
#    nothing else (no -rpath of its own, no LD_LIBRARY_PATH); runs each;
#  - `man -M PREFIX/share/man sylva` finds the page (where man is installed).
# Every program must solve accurately; the static ones must not need
# libsylva.so.
set -euo pipefail
build=$1; src=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "install_example: $*" >&2; exit 1; }
unset LD_LIBRARY_PATH

cmake --install "$build" --prefix "$tmp/first" >/dev/null
mv "$tmp/first" "$tmp/prefix"
P=$tmp/prefix
libdir=$(dirname "$(find "$P" -name 'libsylva.so.*' | head -1)")

# The commands, from the moved prefix.
"$P/bin/sylva" --version | grep -q "^sylva " || fail "installed sylva --version"
"$P/bin/sylva" factor "$src/matrices/real/bcsstk14.mtx" | tee "$tmp/cli.out" | grep -q "backward error" \
  || fail "installed sylva factor"
"$P/bin/sylva-gen" lap2d5 20 -o "$tmp/lap.mtx" >/dev/null || fail "installed sylva-gen"
"$P/bin/sylva" factor "$tmp/lap.mtx" -q || fail "installed sylva on sylva-gen's matrix"

# The man page: installed, renders cleanly, every option of --help in it.
man1=$P/share/man/man1/sylva.1
[ -s "$man1" ] || fail "no man page at share/man/man1/sylva.1"
if command -v groff >/dev/null; then
  groff -man -Tutf8 -ww -z "$man1" 2>"$tmp/groff.err" || fail "groff failed on sylva.1"
  [ ! -s "$tmp/groff.err" ] || { cat "$tmp/groff.err" >&2; fail "groff warnings on sylva.1"; }
fi
if command -v man >/dev/null; then
  [ "$(man -M "$P/share/man" -w sylva 2>/dev/null)" = "$man1" ] || fail "man -M $P/share/man -w sylva does not find $man1"
  [ "$(MANPATH="$P/share/man" man -w sylva 2>/dev/null)" = "$man1" ] || fail "MANPATH=$P/share/man man -w sylva does not find $man1"
fi
options=$("$P/bin/sylva" --help | grep -oE '(^|[][ (|,])--?[a-z][a-z-]*' | sed 's/^[][ (|,]*//' | sort -u)
for opt in $options; do
  roff=$(printf '%s' "$opt" | sed 's/-/\\-/g')
  grep -qF -- "$roff" "$man1" || fail "sylva.1 has no entry for $opt (sylva --help names it)"
done

# CMake: shared, static and sylva_cholmod.h.
cmake -S "$src/docs/example" -B "$tmp/ex" -DCMAKE_PREFIX_PATH="$P" >/dev/null
cmake --build "$tmp/ex" >/dev/null
for prog in solve_poisson solve_poisson_static cholmod_input; do
  "$tmp/ex/$prog" | tee "$tmp/$prog.cmake.out"
  grep -q "backward error" "$tmp/$prog.cmake.out" || fail "$prog (CMake) did not solve"
done
if readelf -d "$tmp/ex/solve_poisson_static" | grep -q 'libsylva\.so'; then
  fail "solve_poisson_static needs libsylva.so"
fi

# pkg-config: the same three programs.
export PKG_CONFIG_PATH="$libdir/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
ex=$src/docs/example
# sylva.pc's Cflags hold no StarPU headers (sylva.h needs none; a
# starpu-1.3.pc found first on PKG_CONFIG_PATH could be another StarPU's),
# and its Libs a run path: the programs run without LD_LIBRARY_PATH.
if pkg-config --cflags sylva | grep -q starpu; then fail "sylva.pc's Cflags name StarPU: $(pkg-config --cflags sylva)"; fi
cc "$ex/solve_poisson.c" $(pkg-config --cflags --libs sylva) -o "$tmp/pc_shared"
cc "$ex/solve_poisson.c" $(pkg-config --cflags --libs sylva-static) -o "$tmp/pc_static"
cc "$ex/cholmod_input.c" $(pkg-config --cflags --libs sylva) -lcholmod -o "$tmp/pc_cholmod"
readelf -d "$tmp/pc_shared" | grep -qE "(RUNPATH|RPATH).*$libdir" || fail "no run path to $libdir in a pkg-config program"
for prog in pc_shared pc_static pc_cholmod; do
  "$tmp/$prog" | tee "$tmp/$prog.out"
  grep -q "backward error" "$tmp/$prog.out" || fail "$prog (pkg-config) did not solve"
done
if readelf -d "$tmp/pc_static" | grep -q 'libsylva\.so'; then
  fail "the sylva-static program needs libsylva.so"
fi
# The static programs load the StarPU libsylva.so was linked with.
want=$(ldd "$libdir/libsylva.so" | awk '/libstarpu-1.3/ {print $3}')
for prog in "$tmp/pc_static" "$tmp/ex/solve_poisson_static"; do
  got=$(ldd "$prog" | awk '/libstarpu-1.3/ {print $3}')
  [ "$got" = "$want" ] || fail "$prog loads StarPU from $got, libsylva from $want"
done
echo "install_example: ok"
