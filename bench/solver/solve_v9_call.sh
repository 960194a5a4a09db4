#!/usr/bin/env bash
# solve_v9_call.sh — one device call of the solve's v9 measurements
# (docs/perf-log.md, "The solve, v9"). Bundles under CARRY_DIR/NAME/bundle.tar.xz
# are unpacked to /tmp/bNAME on first use; everything goes to /tmp/v9work
# (tarred into $OUT/v9.tar.xz at the end) with a summary on stdout.
#   usage: solve_v9_call.sh CARRY_DIR PHASE...
# Phases:
#   profile:BUNDLE   ncu (--clock-control none, --profile-from-start off) of one
#                    1-column solve of each $PSPECS by sylva and by cuDSS
#                    ($CUDSS_LIB), summarized by ncu_summary.py
#   bench:NAME:BUNDLE:NRHS:ENV   bench-solver --gpu-solves-only --repeat 3 on $SPECS
#                    (ENV: VAR=value+VAR=value, or -), cuDSS too when CUDSS=1
#   trace:NAME:BUNDLE:ENV   one traced 1-column solve of lap3d7:60 (SYLVA_SOLVE_TRACE),
#                    summarized by solve_trace.py
#   chain:K:BACKGROUND   CARRY_DIR/chain-step (bench/kernels/chain_step.cu) on a K-pivot triangle
#   record:NAME:BUNDLE   bench-solver with the CPU solves too (tasks, sequential) on $RSPECS, 1 and
#                    64 columns, then lap3d7:100's GPU solves only
#   tests:BUNDLE     test_gpu_solve on the solve cases, test_refine mode=gpu, memcheck
set -uo pipefail
C=$(cd "$1" && pwd); shift
here=$PWD
OUT=${OUT:-/tmp/v9out}
O=/tmp/v9work
mkdir -p "$O" "$OUT"
SPECS=${SPECS:-"lap3d7:60 lap2d5:1000 lap3d7:100 elast3d:30 $here/matrices/real/bcsstk13.mtx"}
PSPECS=${PSPECS:-"lap3d7:60 lap3d7:100"}
export STARPU_SILENT=1 SYLVA_TUNING_DIR=${SYLVA_TUNING_DIR:-$C/tuning}
export STARPU_HOME=/tmp/starpu-home-v9
mkdir -p "$STARPU_HOME"
summary=$O/summary.txt
note() { echo "$*" | tee -a "$summary"; }
bdir() { [ -d "/tmp/b$1" ] || { mkdir -p "/tmp/b$1" && tar xf "$C/$1/bundle.tar.xz" -C "/tmp/b$1"; }; echo "/tmp/b$1"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu,power.draw --format=csv,noheader >> "$summary" 2>&1
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1 || echo /usr/local/cuda/bin/ncu)
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
MET=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,launch__grid_size,launch__block_size
MET=$MET,launch__registers_per_thread,launch__shared_mem_per_block_static,launch__shared_mem_per_block_dynamic
for ph in "$@"; do
  IFS=: read -r kind a1 a2 a3 a4 <<< "$ph"
  s=$(date +%s)
  case $kind in
    profile)
      B=$(bdir "$a1")
      for sp in $PSPECS; do
        n=$(basename "$sp" .mtx | tr ':' '_')
        LD_LIBRARY_PATH=$B/lib BENCH_PROFILE_NRHS=1 timeout 150 "$NCU" --clock-control none \
          --profile-from-start off --metrics "$MET" --csv --print-units base --log-file "$O/ncu-$n.csv" \
          "$B/bin/bench-solver" --in-process --repeat 3 --policies subtree --modes gpu --cholmod-threads none \
          --nrhs 1 --gpu-solves-only --cudss "$CUDSS_LIB" --json "$O/prof-$n.json" "$sp" \
          > "$O/prof-$n.log" 2>&1
        note "profile $sp: rc=$? ($(( $(date +%s) - s )) s)"
        python3 "$C/ncu_summary.py" "$O/ncu-$n.csv" "$sp" > "$O/ncu-$n.txt" 2>&1
        python3 - "$O/prof-$n.json" <<'PY' >> "$O/ncu-$n.txt"
import json, sys
for r in json.load(open(sys.argv[1])):
    s = r["solves"][0] if r["solves"] else {}
    print(r["solver"], "nnz_L", r["nnz_L"], "solve 1 col ms %.3f" % (1e3 * s.get("gpu", 0)),
          "kernels ms %.3f" % (1e3 * s.get("gpu_solve", 0)), "berr", s.get("backward_error"))
PY
      done ;;
    bench)
      B=$(bdir "$a2")
      envs=${a4//+/ }; [ "$envs" = - ] && envs=
      cud=(); [ "${CUDSS:-0}" = 1 ] && cud=(--cudss "$CUDSS_LIB")
      # shellcheck disable=SC2086
      LD_LIBRARY_PATH=$B/lib timeout 300 env $envs SYLVA_SOLVE_PHASES=1 "$B/bin/bench-solver" --repeat 3 \
        --policies subtree --modes gpu --cholmod-threads none --nrhs "$a3" --gpu-solves-only "${cud[@]}" \
        --json "$O/$a1.json" $SPECS > "$O/$a1.log" 2> "$O/$a1.err"
      note "bench $a1 ($a2 $a3 $envs): rc=$? ($(( $(date +%s) - s )) s)" ;;
    trace)
      B=$(bdir "$a2")
      envs=${a3//+/ }; [ "$envs" = - ] && envs=
      # shellcheck disable=SC2086
      LD_LIBRARY_PATH=$B/lib timeout 120 env $envs SYLVA_SOLVE_TRACE="$O/trace-$a1.txt" "$B/bin/bench-solver" \
        --repeat 1 --policies subtree --modes gpu --cholmod-threads none --nrhs 1 --gpu-solves-only \
        lap3d7:60 > "$O/trace-$a1.log" 2>&1
      note "trace $a1 ($a2 $envs): rc=$? ($(( $(date +%s) - s )) s)"
      python3 "$C/solve_trace.py" "$O/trace-$a1.txt" 4 > "$O/trace-$a1.sum" 2>&1
      rm -f "$O/trace-$a1.txt" ;;
    chain)
      timeout 60 "$C/chain-step" "$a1" "$a2" 2>&1 | tee -a "$summary" ;;
    record)
      B=$(bdir "$a2")
      LD_LIBRARY_PATH=$B/lib timeout 200 "$B/bin/bench-solver" --repeat 3 --policies subtree --modes gpu \
        --cholmod-threads none --nrhs 1,64 --json "$O/$a1.json" ${RSPECS:-lap3d7:60 lap2d5:1000 elast3d:30} \
        "$here/matrices/real/bcsstk13.mtx" > "$O/$a1.log" 2> "$O/$a1.err"
      note "record $a1: rc=$? ($(( $(date +%s) - s )) s)"
      LD_LIBRARY_PATH=$B/lib timeout 90 "$B/bin/bench-solver" --repeat 3 --policies subtree --modes gpu \
        --cholmod-threads none --nrhs 1,64 --gpu-solves-only --json "$O/$a1-lap3d7_100.json" lap3d7:100 \
        > "$O/$a1-lap3d7_100.log" 2>> "$O/$a1.err"
      note "record $a1 lap3d7:100: rc=$? ($(( $(date +%s) - s )) s)"
      python3 - "$O/$a1.json" <<'PY' | tee -a "$summary"
import json, sys
for r in json.load(open(sys.argv[1])):
    for s in r["solves"]:
        print("%-12s nrhs %2d  gpu %7.3f ms  cpu tasks %8.4f s  sequential %8.4f s  seq/tasks %.2f" % (
            r["matrix"][:12], s["nrhs"], 1e3 * s["gpu"], s["cpu"], s["sequential"],
            s["sequential"] / s["cpu"] if s["cpu"] else 0))
PY
      ;;
    tests)
      B=$(bdir "$a1")
      export LD_LIBRARY_PATH=$B/lib
      R=$here/matrices/real
      for c in "lap3d7:12" "elast3d:6 small=64" "lap2d5:60" "lap3d27:12" "lap3d7:16 policy=level" "lap3d7:40" \
               "lap3d27:16" "lap3d7:28" "$R/bcsstk14.mtx" "$R/wathenSmall.mtx" "$R/1138_bus.mtx" \
               "$R/pyamg_bar.mtx" "$R/bcsstk13.mtx" ${TEST_EXTRA:-}; do
        t=$(date +%s)
        # shellcheck disable=SC2086
        timeout 200 "$B/bin/test_gpu_solve" $c >> "$O/tests-$a1.log" 2>&1
        note "test_gpu_solve $(basename "${c%% *}") ${c#* }: rc=$? ($(( $(date +%s) - t )) s)"
      done
      timeout 120 "$B/bin/test_refine" mode=gpu >> "$O/tests-$a1.log" 2>&1
      note "test_refine mode=gpu: rc=$?"
      for c in lap3d7:16 "lap3d27:12"; do
        # shellcheck disable=SC2086
        timeout 200 "$CS" --tool memcheck --error-exitcode 9 --print-limit 20 "$B/bin/test_gpu_solve" $c \
          > "$O/memcheck-$a1.log" 2>&1
        note "memcheck test_gpu_solve $c: rc=$? $(grep -m1 'ERROR SUMMARY' "$O/memcheck-$a1.log")"
      done
      unset LD_LIBRARY_PATH ;;
  esac
done
for j in "$O"/*.json; do
  [ -f "$j" ] || continue
  python3 - "$j" <<'PY' | tee -a "$summary"
import json, os, sys
for r in json.load(open(sys.argv[1])):
    for s in r["solves"]:
        print("%-12s %-10s %-12s nrhs %2d  total %7.3f ms  kernels %7.3f  berr %.1e" % (
            os.path.basename(sys.argv[1])[:-5], r["solver"][:10], r["matrix"][:12], s["nrhs"], 1e3 * s["gpu"],
            1e3 * s["gpu_solve"], s["backward_error"] or 0))
PY
done
cat "$O"/ncu-*.txt "$O"/trace-*.sum 2>/dev/null
tar cJf "$OUT/v9.tar.xz" -C /tmp v9work
cp "$summary" "$OUT/summary.txt"
