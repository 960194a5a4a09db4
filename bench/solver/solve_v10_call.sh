#!/usr/bin/env bash
# solve_v10_call.sh — one device call of the solve's v10 measurements (the top
# of the tree's launch; docs/perf-log.md, "The solve, v10"). Bundles under
# CARRY_DIR/NAME/bundle.tar.xz are unpacked to /tmp/bNAME on first use;
# everything goes to /tmp/v10work (tarred into $OUT/v10.tar.xz) with a
# summary on stdout, the compact table last.
#   usage: solve_v10_call.sh CARRY_DIR PHASE...
# Phases:
#   tests:BUNDLE[:racecheck]   test_gpu_solve (1 and 64 columns) on small matrices with the top's crossover forced
#                    low (SYLVA_SOLVE_TOP=100: fronts on both sides; 1: every split front on top) and at
#                    its default, test_refine mode=gpu, memcheck and racecheck of the top's launch
#   bench:NAME:BUNDLE:NRHS:ENV   bench-solver --gpu-solves-only --repeat 3 on $SPECS
#                    (ENV: VAR=value+VAR=value, or -)
#   trace:NAME:BUNDLE:ENV   one traced 1-column solve of lap3d7:60 (SYLVA_SOLVE_TRACE), solve_trace.py
#   chain:K:BACKGROUND   CARRY_DIR/chain-step (bench/kernels/chain_step.cu) on a K-pivot triangle
set -uo pipefail
C=$(cd "$1" && pwd); shift
here=$PWD
OUT=${OUT:-/tmp/v10out}
O=/tmp/v10work
mkdir -p "$O" "$OUT"
SPECS=${SPECS:-"lap3d7:60 lap2d5:1000 lap3d7:100 elast3d:30 $here/matrices/real/bcsstk13.mtx"}
export STARPU_SILENT=1 SYLVA_TUNING_DIR=${SYLVA_TUNING_DIR:-$C/tuning}
export STARPU_HOME=/tmp/starpu-home-v10
mkdir -p "$STARPU_HOME"
summary=$O/summary.txt
note() { echo "$*" | tee -a "$summary"; }
bdir() { [ -d "/tmp/b$1" ] || { mkdir -p "/tmp/b$1" && tar xf "$C/$1/bundle.tar.xz" -C "/tmp/b$1"; }; echo "/tmp/b$1"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu,power.draw --format=csv,noheader >> "$summary" 2>&1
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for ph in "$@"; do
  IFS=: read -r kind a1 a2 a3 a4 <<< "$ph"
  s=$(date +%s)
  case $kind in
    tests)
      B=$(bdir "$a1")
      R=$here/matrices/real
      [ "${a2:-}" = racecheck ] ||
        for c in "100 lap3d7:16" "100 lap3d7:28" "100 elast3d:6 small=64" "100 lap3d27:12" "100 lap2d5:60" \
               "1 lap3d7:28" "1 elast3d:6 small=64" "100 $R/bcsstk13.mtx" "100 $R/bcsstk14.mtx" "1 lap3d7:16" \
               "1 lap3d7:16 policy=level" "- lap3d7:40" "- lap3d7:16"; do
        t=$(date +%s)
        top=${c%% *}; [ "$top" = - ] && top=
        # shellcheck disable=SC2086
        LD_LIBRARY_PATH=$B/lib SYLVA_SOLVE_TOP=$top timeout 120 "$B/bin/test_gpu_solve" ${c#* } \
          >> "$O/tests-$a1.log" 2>&1
        note "test_gpu_solve $(basename "${c#* }") SYLVA_SOLVE_TOP=${top:-default}: rc=$? ($(( $(date +%s) - t )) s)"
      done
      [ "${a2:-}" = racecheck ] || {
        LD_LIBRARY_PATH=$B/lib SYLVA_SOLVE_TOP=100 timeout 60 "$B/bin/test_refine" mode=gpu >> "$O/tests-$a1.log" 2>&1
        note "test_refine mode=gpu SYLVA_SOLVE_TOP=100: rc=$?"
      }
      for tool in ${a2:-memcheck racecheck}; do
        t=$(date +%s)
        # racecheck on the sweeps' kernels alone (the factorization's, all instrumented, took > 80 s)
        filt=(); [ $tool = racecheck ] && filt=(--kernel-name kns=flow_kernel)
        LD_LIBRARY_PATH=$B/lib SYLVA_SOLVE_TOP=1 timeout 80 "$CS" --tool $tool "${filt[@]}" --error-exitcode 9 \
          --print-limit 20 "$B/bin/test_gpu_solve" lap3d7:12 > "$O/$tool-$a1.log" 2>&1
        note "$tool test_gpu_solve lap3d7:12 SYLVA_SOLVE_TOP=1: rc=$? ($(( $(date +%s) - t )) s)" \
          "$(grep -m1 'ERROR SUMMARY\|RACECHECK SUMMARY' "$O/$tool-$a1.log")"
      done ;;
    bench)
      B=$(bdir "$a2")
      envs=${a4//+/ }; [ "$envs" = - ] && envs=
      # shellcheck disable=SC2086
      LD_LIBRARY_PATH=$B/lib timeout 150 env $envs SYLVA_SOLVE_PHASES=1 "$B/bin/bench-solver" --repeat 3 \
        --policies subtree --modes gpu --cholmod-threads none --nrhs "$a3" --gpu-solves-only \
        --json "$O/$a1.json" $SPECS > "$O/$a1.log" 2> "$O/$a1.err"
      note "bench $a1 ($a2 $a3 $envs): rc=$? ($(( $(date +%s) - s )) s)" ;;
    trace)
      B=$(bdir "$a2")
      envs=${a3//+/ }; [ "$envs" = - ] && envs=
      # shellcheck disable=SC2086
      LD_LIBRARY_PATH=$B/lib timeout 90 env $envs SYLVA_SOLVE_TRACE="$O/trace-$a1.txt" "$B/bin/bench-solver" \
        --repeat 1 --policies subtree --modes gpu --cholmod-threads none --nrhs 1 --gpu-solves-only \
        lap3d7:60 > "$O/trace-$a1.log" 2>&1
      note "trace $a1 ($a2 $envs): rc=$? ($(( $(date +%s) - s )) s)"
      python3 "$C/solve_trace.py" "$O/trace-$a1.txt" 4 > "$O/trace-$a1.sum" 2>&1
      rm -f "$O/trace-$a1.txt" ;;
    chain)
      timeout 60 "$C/chain-step" "$a1" "$a2" 2>&1 | tee -a "$summary" ;;
  esac
done
cat "$O"/trace-*.sum 2>/dev/null
tar cJf "$OUT/v10.tar.xz" -C /tmp v10work
for j in "$O"/*.json; do
  [ -f "$j" ] || continue
  python3 - "$j" <<'PY' | tee -a "$summary"
import json, os, sys
for r in json.load(open(sys.argv[1])):
    for s in r["solves"]:
        print("%-10s %-12s nrhs %2d  total %7.3f ms  kernels %7.3f  berr %.1e" % (
            os.path.basename(sys.argv[1])[:-5], r["matrix"][:12], s["nrhs"], 1e3 * s["gpu"],
            1e3 * s["gpu_solve"], s["backward_error"] or 0))
PY
done
cp "$summary" "$OUT/summary.txt"
