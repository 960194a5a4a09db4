#!/usr/bin/env bash
# solve_v8_call.sh — one device call of the solve's v8 measurements
# (docs/perf-log.md, "The solve, v8"): unpack the bundle(s), then the
# phases named on the command line, everything into /tmp/v8work/v8 (tarred
# into $OUT/v8.tar.xz at the end: few files come back) and a short summary
# on stdout and in $OUT/summary.txt.
#   usage: solve_v8_call.sh CARRY_DIR PHASE...
# CARRY_DIR holds bundle/bundle.tar.xz (this branch) and, for the phase
# control, v6/bundle.tar.xz (main's build). Phases:
#   rates       test_gpu_stage (pin paths) and --rates 2 8 110 512 (MB)
#   tests       test_gpu_solve on a few cases with SYLVA_SOLVE_PIN=1,0, 0 and
#               2,0,4 (every block registered, pieces of a page), memcheck of
#               test_gpu_stage and of one solve page-locked in pieces
#   bench:NAME:ENV...  bench-solver --gpu-solves-only on $SPECS (1 and 64
#               columns, repeat 3) with ENV (VAR=value+VAR=value), phases
#               on stderr; JSON NAME.json
#   control:NAME:ENV...  the same with the v6 bundle
#   w8:NAME:ENV...  the same with CARRY_DIR/w8 (a build with SYLVA_SOLVE_COLS=8)
#   w8tests     that build's test_gpu_solve on lap3d7:16, elast3d:6, lap2d5:60
#   prev:NAME:ENV...  the same with CARRY_DIR/prev (an earlier build of this branch)
set -uo pipefail
C=$(cd "$1" && pwd); shift
here=$PWD
OUT=${OUT:-/tmp/v8out}
O=/tmp/v8work/v8
mkdir -p "$O" "$OUT"
SPECS=${SPECS:-"lap3d7:60 lap2d5:1000 lap3d7:100 elast3d:30 $here/matrices/real/bcsstk13.mtx"}
unpack() { mkdir -p "$2" && tar xf "$1" -C "$2"; }
[ -d /tmp/b8 ] || unpack "$C/bundle/bundle.tar.xz" /tmp/b8
[ -f "$C/v6/bundle.tar.xz" ] && { [ -d /tmp/b6 ] || unpack "$C/v6/bundle.tar.xz" /tmp/b6; }
[ -f "$C/prev/bundle.tar.xz" ] && { [ -d /tmp/bprev ] || unpack "$C/prev/bundle.tar.xz" /tmp/bprev; }
[ -f "$C/w8/bundle.tar.xz" ] && { [ -d /tmp/bw8 ] || unpack "$C/w8/bundle.tar.xz" /tmp/bw8; }
export STARPU_SILENT=1 SYLVA_TUNING_DIR=${SYLVA_TUNING_DIR:-$here/kernels/tuning}
export STARPU_HOME=/tmp/starpu-home-v8
mkdir -p "$STARPU_HOME"
summary=$O/summary.txt
note() { echo "$*" | tee -a "$summary"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu,power.draw --format=csv,noheader >> "$summary" 2>&1
bench() { # B NAME ENV
  local B=$1 name=$2 envs=${3//+/ } s rc
  s=$(date +%s)
  # shellcheck disable=SC2086
  LD_LIBRARY_PATH=$B/lib timeout 200 env $envs SYLVA_SOLVE_PHASES=1 "$B/bin/bench-solver" --repeat 3 \
    --policies subtree --modes gpu --cholmod-threads none --small-rows 0 --nrhs 1,64 --gpu-solves-only \
    --json "$O/$name.json" $SPECS > "$O/$name.log" 2> "$O/$name.err"; rc=$?
  note "bench $name ($envs): rc=$rc ($(( $(date +%s) - s )) s)"
}
for ph in "$@"; do
  case $ph in
    rates)
      LD_LIBRARY_PATH=/tmp/b8/lib timeout 60 /tmp/b8/bin/test_gpu_stage > "$O/stage-test.log" 2>&1
      note "test_gpu_stage: rc=$? $(grep -c '^ok' "$O/stage-test.log") ok, $(grep -c '^FAIL' "$O/stage-test.log") FAIL"
      for mb in 2 8 110 512; do
        LD_LIBRARY_PATH=/tmp/b8/lib timeout 60 /tmp/b8/bin/test_gpu_stage --rates $mb >> "$O/rates.log" 2>&1
      done
      while read -r l; do note "  $l"; done < "$O/rates.log" ;;
    tests)
      for c in "SYLVA_SOLVE_PIN=1,0 lap3d7:16" "SYLVA_SOLVE_PIN=2,0,4 lap3d7:16" "SYLVA_SOLVE_PIN=2,0,4 lap2d5:60" \
               "SYLVA_SOLVE_PIN=2,0,4 elast3d:6 small=64" "SYLVA_SOLVE_PIN=0 lap3d7:16" \
               "SYLVA_SOLVE_PIN=2,0,4 lap3d7:40"; do
        s=$(date +%s)
        # shellcheck disable=SC2086
        LD_LIBRARY_PATH=/tmp/b8/lib timeout 120 env ${c%% *} /tmp/b8/bin/test_gpu_solve ${c#* } \
          >> "$O/solve-tests.log" 2>&1
        note "test_gpu_solve $c: rc=$? ($(( $(date +%s) - s )) s)"
      done
      LD_LIBRARY_PATH=/tmp/b8/lib SYLVA_SOLVE_PIN=2,0,4 timeout 120 /tmp/b8/bin/test_refine mode=gpu \
        >> "$O/solve-tests.log" 2>&1
      note "test_refine mode=gpu SYLVA_SOLVE_PIN=2,0,4: rc=$?"
      CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
      LD_LIBRARY_PATH=/tmp/b8/lib timeout 120 "$CS" --tool memcheck --error-exitcode 9 /tmp/b8/bin/test_gpu_stage \
        > "$O/memcheck-stage.log" 2>&1
      rc=$?
      note "memcheck test_gpu_stage: rc=$rc $(grep -c '^ok' "$O/memcheck-stage.log") ok," \
        "$(grep -m1 'ERROR SUMMARY' "$O/memcheck-stage.log")"
      LD_LIBRARY_PATH=/tmp/b8/lib SYLVA_SOLVE_PIN=2,0,4 timeout 200 "$CS" --tool memcheck --error-exitcode 9 \
        /tmp/b8/bin/test_gpu_solve lap2d5:60 > "$O/memcheck-solve.log" 2>&1
      rc=$?
      note "memcheck test_gpu_solve lap2d5:60 SYLVA_SOLVE_PIN=2,0,4: rc=$rc" \
        "$(grep -m1 'ERROR SUMMARY' "$O/memcheck-solve.log")" ;;
    bench:*) IFS=: read -r _ name envs <<< "$ph"; bench /tmp/b8 "$name" "${envs:-}" ;;
    control:*) IFS=: read -r _ name envs <<< "$ph"; bench /tmp/b6 "$name" "${envs:-}" ;;
    w8:*) IFS=: read -r _ name envs <<< "$ph"; bench /tmp/bw8 "$name" "${envs:-}" ;;
    prev:*) IFS=: read -r _ name envs <<< "$ph"; bench /tmp/bprev "$name" "${envs:-}" ;;
    w8tests)
      for c in "lap3d7:16" "elast3d:6 small=64" "lap2d5:60" "lap3d7:40"; do
        # shellcheck disable=SC2086
        LD_LIBRARY_PATH=/tmp/bw8/lib timeout 120 /tmp/bw8/bin/test_gpu_solve $c >> "$O/w8-tests.log" 2>&1
        note "w8 test_gpu_solve $c: rc=$?"
      done ;;
  esac
done
# Compact: each bench's GPU rows, and the phase lines' medians per (matrix order, nrhs).
for j in "$O"/*.json; do
  [ -f "$j" ] || continue
  python3 - "$j" <<'PY' | tee -a "$summary"
import json, sys, os
rows = json.load(open(sys.argv[1]))
name = os.path.basename(sys.argv[1])[:-5]
for r in rows:
    if r.get("solver") != "sylva-gpu": continue
    for s in r.get("solves", []):
        ms = lambda k: 1e3 * s.get(k, 0)
        print(f"{name:10s} {r['matrix'][-14:]:14s} {s['nrhs']:3d} gpu {ms('gpu'):8.2f} up {ms('gpu_upload'):7.2f} "
              f"solve {ms('gpu_solve'):7.2f} down {ms('gpu_download'):7.2f} berr {s.get('backward_error', 0):.1e}")
PY
done
# The phase lines (SYLVA_SOLVE_PHASES) per bench: the best of each field per (ngroups, nrhs).
for e in "$O"/*.err; do
  [ -f "$e" ] || continue
  python3 - "$e" <<'PY' | tee -a "$summary"
import re, sys, os, collections
best = collections.OrderedDict()
for l in open(sys.argv[1]):
    m = re.match(r"sylva GPU solve phases: nrhs (\d+) ngroups (\d+): (.*)", l)
    if not m: continue
    key = (int(m.group(2)), int(m.group(1)))
    vals = dict((k, float(v)) for k, v in re.findall(r"([a-z-]+) (-?[0-9.]+)", m.group(3)))
    b = best.setdefault(key, {})
    for k, v in vals.items(): b[k] = min(b.get(k, 1e30), v)
name = os.path.basename(sys.argv[1])[:-4]
for (g, n), b in best.items():
    print(f"{name:10s} ngroups {g:4d} nrhs {n:3d}: " + " ".join(f"{k} {v:.3f}" for k, v in b.items()))
PY
done
tar cJf "$OUT/v8.tar.xz" -C /tmp/v8work v8
cp "$summary" "$OUT/summary.txt"
