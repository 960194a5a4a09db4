#!/usr/bin/env bash
# solve_call.sh — one device call of the GPU solve's measurements
# (docs/perf-log.md, "The solve, v8" to "v10": each session's calls were
# made with this driver's phases). Builds are gpu-bundles under
# CARRY_DIR/NAME/bundle.tar.xz, unpacked to /tmp/bNAME on first use, so
# that a control build rides in the same call; everything goes to
# /tmp/solvework (tarred into $OUT/solve.tar.xz: few files come back) with
# a summary on stdout, the compact table last.
#   usage: bench/solver/solve_call.sh CARRY_DIR PHASE...   (from the repository root;
#          TT=SECONDS: phases that would start later than that are skipped)
# Phases (ENV: VAR=value+VAR=value, or -):
#   tests:BUNDLE     scripts/gpu-solver.sh BUNDLE solve (every GPU solve test, the forced crossovers
#                    and page-locked paths, refinement, memcheck and racecheck, the copy rates)
#   bench:NAME:BUNDLE:NRHS:ENV   bench-solver --gpu-solves-only --repeat $REP (default 3) on $SPECS,
#                    the phases on stderr (SYLVA_SOLVE_PHASES); cuDSS too when CUDSS_LIB is set
#   trace:NAME:BUNDLE:ENV[:SPEC]   one traced 1-column solve of SPEC (default lap3d7:60; NAME.mtx:
#                    matrices/real's) (SYLVA_SOLVE_TRACE), solve_trace.py and solve_cpath.py (its
#                    critical path); TRACE_RAW=1 keeps the trace
#   blocktime:NAME:BUNDLE:NRHS:SPEC   one traced solve of NRHS columns of SPEC (its first block) and
#                    solve_blocktime.py's sums per launch and item kind (NAME.blocktime)
#   cpu:NAME:BUNDLE:SPEC   bench-solver on SPEC with the CPU solves too (the CPU workers' solve against
#                    the sequential one, after the GPU solves), 1 and 64 columns
#   hostread:BUNDLE  host-read: the host's memory read rate at 1, 2, 4, 8, 16 threads (hostread.json)
#   profile:BUNDLE   ncu (--clock-control none) of one solve of $PNRHS columns (default 1) of each $PSPECS by sylva and,
#                    with CUDSS_LIB, by cuDSS (bench-solver's BENCH_PROFILE_NRHS), ncu_summary.py
#   chain:K:BACKGROUND   CARRY_DIR/chain-step (bench/kernels/chain_step.cu) on a K-pivot triangle
# The record with the CPU solves is scripts/gpu-solver.sh's bench phase
# (BENCH_MODES=gpu BENCH_POLICIES=subtree CHOLMOD_THREADS=none BENCH_NRHS=1,64).
# CARRY_DIR also holds the tuning tables the builds read (CARRY_DIR/tuning,
# SYLVA_TUNING_DIR: the tree that travels is main's working copy). A build
# may also be bin-only: CARRY_DIR/NAME/bin.tar.xz (its bin/, and lib/ for
# what it replaces) unpacked over the full bundle $BASE_BUNDLE, so that
# several builds share one set of libraries in the carry.
set -uo pipefail
C=$(cd "$1" && pwd); shift
here=$PWD
B_SCRIPTS=$here/bench/solver
OUT=${OUT:-/tmp/solveout}
O=/tmp/solvework
mkdir -p "$O" "$OUT"
R=$here/matrices/real
SPECS=${SPECS:-"lap3d7:60 lap2d5:1000 lap3d7:100 elast3d:30 $R/bcsstk13.mtx"}
PSPECS=${PSPECS:-"lap3d7:60 lap3d7:100"}
export STARPU_SILENT=1 SYLVA_TUNING_DIR=${SYLVA_TUNING_DIR:-$C/tuning}
export STARPU_HOME=/tmp/starpu-home-solve
mkdir -p "$STARPU_HOME"
summary=$O/summary.txt
note() { echo "$*" | tee -a "$summary"; }
bdir() {
  if [ ! -d "/tmp/b$1" ]; then
    mkdir -p "/tmp/b$1"
    if [ -f "$C/$1/bin.tar.xz" ]; then tar xf "$BASE_BUNDLE" -C "/tmp/b$1" && tar xf "$C/$1/bin.tar.xz" -C "/tmp/b$1"
    else tar xf "$C/$1/bundle.tar.xz" -C "/tmp/b$1"; fi
  fi
  echo "/tmp/b$1"
}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu,power.draw --format=csv,noheader >> "$summary" 2>&1
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1 || echo /usr/local/cuda/bin/ncu)
MET=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,launch__grid_size,launch__block_size
MET=$MET,launch__registers_per_thread,launch__shared_mem_per_block_static,launch__shared_mem_per_block_dynamic
cudss=(); [ -n "${CUDSS_LIB:-}" ] && cudss=(--cudss "$CUDSS_LIB")
t_call=$(date +%s)
for ph in "$@"; do
  IFS=: read -r kind a1 a2 a3 a4 <<< "$ph"
  s=$(date +%s)
  if [ -n "${TT:-}" ] && [ $(( s - t_call )) -gt "$TT" ]; then note "skipped $ph (past TT=$TT s)"; continue; fi
  case $kind in
    tests)
      B=$(bdir "$a1")
      OUT=$O/tests-$a1 bash "$here/scripts/gpu-solver.sh" "$B" solve > "$O/tests-$a1.log" 2>&1
      note "tests $a1: rc=$? ($(( $(date +%s) - s )) s)"
      grep -v "rc=0" "$O/tests-$a1/summary.txt" | tee -a "$summary"
      note "$(grep -c "rc=0" "$O/tests-$a1/summary.txt") lines rc=0" ;;
    bench)
      B=$(bdir "$a2")
      envs=${a4//+/ }; [ "$envs" = - ] && envs=
      # shellcheck disable=SC2086
      LD_LIBRARY_PATH=$B/lib timeout 300 env $envs SYLVA_SOLVE_PHASES=1 "$B/bin/bench-solver" --repeat "${REP:-3}" \
        --policies subtree --modes gpu --cholmod-threads none --nrhs "$a3" --gpu-solves-only "${cudss[@]}" \
        --json "$O/$a1.json" $SPECS > "$O/$a1.log" 2> "$O/$a1.err"
      note "bench $a1 ($a2 $a3 $envs): rc=$? ($(( $(date +%s) - s )) s)" ;;
    trace)
      B=$(bdir "$a2")
      envs=${a3//+/ }; [ "$envs" = - ] && envs=
      sp=${a4:-lap3d7:60}; [[ $sp == *.mtx && $sp != /* ]] && sp=$R/$sp
      # shellcheck disable=SC2086
      LD_LIBRARY_PATH=$B/lib timeout 120 env $envs SYLVA_SOLVE_TRACE="$O/trace-$a1.txt" "$B/bin/bench-solver" \
        --repeat 1 --policies subtree --modes gpu --cholmod-threads none --nrhs 1 --gpu-solves-only \
        "$sp" > "$O/trace-$a1.log" 2>&1
      note "trace $a1 ($a2 $envs $sp): rc=$? ($(( $(date +%s) - s )) s)"
      python3 "$B_SCRIPTS/solve_trace.py" "$O/trace-$a1.txt" 4 > "$O/trace-$a1.sum" 2>&1
      python3 "$B_SCRIPTS/solve_cpath.py" "$O/trace-$a1.txt" > "$O/trace-$a1.cpath" 2>&1
      if [ "${TRACE_RAW:-0}" = 1 ]; then xz -f "$O/trace-$a1.txt"; else rm -f "$O/trace-$a1.txt"; fi ;;
    blocktime)
      B=$(bdir "$a2")
      sp=$a4; [[ $sp == *.mtx && $sp != /* ]] && sp=$R/$sp
      LD_LIBRARY_PATH=$B/lib SYLVA_SOLVE_TRACE="$O/bt-$a1.txt" timeout 150 "$B/bin/bench-solver" --repeat 1 \
        --policies subtree --modes gpu --cholmod-threads none --nrhs "$a3" --gpu-solves-only "$sp" \
        > "$O/bt-$a1.log" 2>&1
      note "blocktime $a1 ($a2 $a3 $sp): rc=$? ($(( $(date +%s) - s )) s)"
      python3 "$B_SCRIPTS/solve_blocktime.py" "$O/bt-$a1.txt" > "$O/$a1.blocktime" 2>&1
      rm -f "$O/bt-$a1.txt" ;;
    cpu)
      B=$(bdir "$a2")
      sp=$a3${a4:+:$a4}; [[ $sp == *.mtx && $sp != /* ]] && sp=$R/$sp # a generator spec's colon split it
      LD_LIBRARY_PATH=$B/lib timeout 300 "$B/bin/bench-solver" --repeat "${REP:-3}" --policies subtree \
        --modes gpu --cholmod-threads none --nrhs 1,64 --json "$O/$a1.json" "$sp" > "$O/$a1.log" 2>&1
      note "cpu $a1 ($a2 $sp): rc=$? ($(( $(date +%s) - s )) s)" ;;
    hostread)
      B=$(bdir "$a1")
      timeout 120 "$B/bin/host-read" --json "$O/hostread.json" | tee -a "$summary"
      note "hostread: rc=$? ($(( $(date +%s) - s )) s)" ;;
    profile)
      B=$(bdir "$a1")
      for sp in $PSPECS; do
        n=$(basename "$sp" .mtx | tr ':' '_')
        LD_LIBRARY_PATH=$B/lib BENCH_PROFILE_NRHS=${PNRHS:-1} timeout 150 "$NCU" --clock-control none \
          --profile-from-start off --metrics "$MET" --csv --print-units base --log-file "$O/ncu-$n.csv" \
          "$B/bin/bench-solver" --in-process --repeat 3 --policies subtree --modes gpu --cholmod-threads none \
          --nrhs "${PNRHS:-1}" --gpu-solves-only "${cudss[@]}" --json "$O/prof-$n.json" "$sp" > "$O/prof-$n.log" 2>&1
        note "profile $sp: rc=$? ($(( $(date +%s) - s )) s)"
        python3 "$B_SCRIPTS/ncu_summary.py" "$O/ncu-$n.csv" "$sp" > "$O/ncu-$n.txt" 2>&1
      done ;;
    chain)
      timeout 60 "$C/chain-step" "$a1" "$a2" 2>&1 | tee -a "$summary" ;;
    *) note "unknown phase $ph" ;;
  esac
done
cat "$O"/ncu-*.txt "$O"/trace-*.sum "$O"/*.blocktime 2>/dev/null
tar cJf "$OUT/solve.tar.xz" -C /tmp solvework
for j in "$O"/*.json; do
  [ -f "$j" ] || continue
  python3 - "$j" <<'PY' | tee -a "$summary"
import json, os, sys
for r in json.load(open(sys.argv[1])):
    for s in r.get("solves", []):
        print("%-12s %-10s %-12s nrhs %2d  total %7.3f ms  device %7.3f  kernels %7.3f  berr %.1e" % (
            os.path.basename(sys.argv[1])[:-5], r["solver"][:10], r["matrix"][:12], s["nrhs"], 1e3 * s["gpu"],
            1e3 * s.get("gpu_device", 0), 1e3 * s.get("gpu_solve", 0), s.get("backward_error") or 0) + (
            "  cpu %.3f  sequential %.3f" % (1e3 * s["cpu"], 1e3 * s["sequential"]) if s.get("cpu") else ""))
PY
done
# Kernels (the phases' `solve`), best of each matrix's one-column solves (the
# .err's lines come matrix after matrix, the same count each).
for e in "$O"/*.err; do
  [ -f "$e" ] || continue
  python3 - "$e" $SPECS <<'PY' | tee -a "$summary"
import os, re, sys
v = [float(m.group(1)) for l in open(sys.argv[1]) if " nrhs 1 " in l for m in [re.search(r" solve ([0-9.]+)", l)] if m]
specs = sys.argv[2:]
if v and len(v) % len(specs) == 0:
    g = len(v) // len(specs)
    print("%-12s kernels, best of %d: %s" % (os.path.basename(sys.argv[1])[:-4], g, " ".join(
        "%s %.3f" % (os.path.basename(s)[:12], min(v[i * g:(i + 1) * g])) for i, s in enumerate(specs))))
PY
done
cp "$summary" "$OUT/summary.txt"
