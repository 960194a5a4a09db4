#!/usr/bin/env bash
# check-layers.sh [SOURCE_DIR] — the layer rules of docs/architecture.md,
# checked on the sources (CTest runs it as `layers.includes`):
#   - StarPU's headers are included only in runtime/, MPI's (mpi.h,
#     starpu_mpi*.h) only there, in tests/mpi/ (a program that
#     initializes MPI itself) and in bench-ptscotch (PT-Scotch's MPI graph);
#   - CUDA's headers (cuda*.h, cublas*, cusolver*) only in kernels/, in the
#     GPU kernel tests and benchmark that exercise kernels/ directly, and in
#     bench-solver's cuDSS runner (cuDSS takes device arrays);
#   - every quoted include of a library layer names a header of the same
#     layer or of a layer below it: core < io < frontal < batching < runtime
#     < api, kernels over core only and used by runtime only, cli over
#     include/ only.
# Prints each violation as FILE:LINE: reason and exits 1 if there is one.
set -u
top=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$top" || exit 2
status=0
bad() { echo "$1: $2"; status=1; }

declare -A allowed=(
  [core]="core include"
  [io]="io core include"
  [frontal]="frontal io core include"
  [batching]="batching frontal io core include"
  [kernels]="kernels core include"
  [runtime]="runtime batching frontal io core kernels include"
  [api]="api runtime batching frontal io core include"
  [cli]="cli include"
)
# Where each header of ours lives.
declare -A home
for d in "${!allowed[@]}" include; do
  for h in "$d"/*.h "$d"/*.cuh; do [ -e "$h" ] && home[$(basename "$h")]=$d; done
done

while IFS= read -r hit; do
  file=${hit%%:*}; rest=${hit#*:}; line=${rest%%:*}; text=${rest#*:}
  layer=${file%%/*}
  case $text in
  *'<starpu'*)
    [ "$layer" = runtime ] || bad "$file:$line" "StarPU header outside runtime/" ;;
  *'<mpi.h>'*)
    case $file in runtime/*|tests/mpi/*|bench/analysis/bench_ptscotch.c) ;;
    *) bad "$file:$line" "MPI header outside runtime/ (and the MPI tests, bench-ptscotch)" ;; esac ;;
  *'<cuda'*|*'<cublas'*|*'<cusolver'*)
    case $file in kernels/*|tests/gpu/*|bench/kernels/*|bench/solver/run_cudss.c) ;;
    *) bad "$file:$line" "CUDA header outside kernels/" ;; esac ;;
  *'"'*)
    [ -n "${allowed[$layer]:-}" ] || continue
    h=$(sed -E 's/.*"([^"]+)".*/\1/' <<<"$text"); h=$(basename "$h")
    d=${home[$h]:-}
    [ -n "$d" ] || continue                 # t_*.c templates, outside headers
    [[ " ${allowed[$layer]} " == *" $d "* ]] ||
      bad "$file:$line" "$layer/ includes $d/$h (allowed: ${allowed[$layer]})" ;;
  esac
done < <(grep -nE '^\s*#\s*include' --include='*.c' --include='*.h' --include='*.cu' \
           --include='*.cuh' -r core io frontal batching kernels runtime api cli bench tests matrices \
           2>/dev/null)
[ $status = 0 ] && echo "check-layers: every include follows the layer rules"
exit $status
