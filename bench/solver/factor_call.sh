#!/usr/bin/env bash
# factor_call.sh — one device call of the factorization's measurements
# (docs/perf-log.md, "The factorization, v1"): the GPU solver tests, and
# bench-solver on the medium real matrices and the generated grids with
# the direct factorization (SYLVA_FACTOR_DIRECT=1) and with tasks (the
# default) in the same call, cuDSS beside both when
# CUDSS_LIB is set. Logs go to /tmp/factorwork, tarred into
# $OUT/logs.tar.xz beside the JSON; the compact table is printed last.
#   usage: bench/solver/factor_call.sh BUNDLE_TAR MATRIX_DIR PHASE...   (from the repository root)
# BUNDLE_TAR: a gpu-bundle (bundle.tar.xz) of build/bin, build/tests/gpu,
# build/bench; MATRIX_DIR: the medium real matrices (*.mtx.xz).
# Phases:
#   tests      scripts/gpu-solver.sh's test and sanitize phases on the direct path
#              (SYLVA_FACTOR_DIRECT=1), then a few of them on the task path
#   phases     SYLVA_FACTOR_PHASES=1 bench-solver runs of the direct path on $PHASE_SPECS,
#              level and subtree: each run's host time by phase (phases.log)
#   bench      bench-solver, GPU mode, policies $POLICIES (default level,subtree), $REPEAT
#              factorizations (default 5), one-column solves, on $SPECS, in each of
#              $BENCH_MODES (default "tree direct tasks"): tree = the direct path with
#              tree launches, direct = without them (SYLVA_TREE_LAUNCH=0), tasks = StarPU tasks
# TT=SECONDS: a phase that would start later than that is skipped.
set -uo pipefail
tarball=$1 mats=$(cd "$2" && pwd); shift 2
here=$PWD
RES=${OUT:-/tmp/factorout}
OUT=/tmp/factorwork
mkdir -p "$RES" "$OUT" /tmp/fb
[ -x /tmp/fb/bin/sylva ] || tar xf "$tarball" -C /tmp/fb
B=/tmp/fb
export LD_LIBRARY_PATH="$B/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export STARPU_HOME=$B/starpu-home STARPU_SILENT=1 SYLVA_TUNING_DIR=$here/kernels/tuning
mkdir -p "$STARPU_HOME"
R=$here/matrices/real
start=$(date +%s)
summary=$OUT/summary.txt
: > "$summary"
note() { echo "$*" | tee -a "$summary"; }
late() { [ -n "${TT:-}" ] && [ $(( $(date +%s) - start )) -gt "$TT" ]; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu,power.draw --format=csv,noheader >> "$summary" 2>&1
for f in "$mats"/*.mtx.xz; do n=$(basename "$f" .xz); [ -f "/tmp/$n" ] || xz -dc "$f" > "/tmp/$n"; done
SPECS=${SPECS:-"/tmp/apache1.mtx /tmp/cvxbqp1.mtx /tmp/crystm02.mtx /tmp/bcsstk25.mtx /tmp/Dubcova1.mtx
  /tmp/bcsstk38.mtx /tmp/bcsstk18.mtx $R/bcsstk13.mtx $R/bcsstk14.mtx $R/pyamg_bar.mtx $R/wathenSmall.mtx
  lap2d5:1000 lap2d5:2000 elast3d:30 lap3d7:60 lap3d27:60 lap3d7:100"}
cudss=(); [ -n "${CUDSS_LIB:-}" ] && cudss=(--cudss "$CUDSS_LIB")

for p in "$@"; do
  if late; then note "$p: skipped (past TT=$TT s)"; continue; fi
  s=$(date +%s)
  case $p in
  tests)
    SYLVA_FACTOR_DIRECT=1 OUT=$OUT/tests bash "$here/scripts/gpu-solver.sh" "$B" test sanitize > "$OUT/tests.log" 2>&1
    note "tests (direct): rc=$? ($(( $(date +%s) - s )) s)"
    grep -E "rc=" "$OUT/tests/summary.txt" | grep -v "rc=0 " | head -20
    for c in "lap3d7:12 compare=1" "elast3d:6 compare=1 small=64" "$R/bcsstk13.mtx" "lap2d5:600 memory"; do
      s=$(date +%s)
      # shellcheck disable=SC2086
      timeout 240 "$B/bin/test_gpu_solver" $c >> "$OUT/tests-tasks.log" 2>&1
      note "test_gpu_solver $(basename "${c%% *}") ${c#* } (tasks): rc=$? ($(( $(date +%s) - s )) s)"
    done ;;
  phases)
    # where each direct run's host time goes (SYLVA_FACTOR_PHASES=1), $PHASE_SPECS
    for m in ${PHASE_SPECS:-$R/bcsstk14.mtx /tmp/bcsstk18.mtx /tmp/apache1.mtx lap2d5:1000}; do
      for pol in level subtree; do
        SYLVA_FACTOR_DIRECT=1 SYLVA_FACTOR_PHASES=1 timeout 60 "$B/bin/bench-solver" --repeat 4 --policies $pol \
          --modes gpu --cholmod-threads none --nrhs 1 "$m" > "$OUT/phases.tmp" 2>&1
        echo "== $m $pol rc=$?" >> "$OUT/phases.log"; grep "^sylva " "$OUT/phases.tmp" >> "$OUT/phases.log"
      done
    done
    note "phases: $(grep -c '^sylva direct' "$OUT/phases.log") direct runs timed ($(( $(date +%s) - s )) s)" ;;
  bench)
    for mode in ${BENCH_MODES:-tree direct tasks}; do
      s=$(date +%s)
      case $mode in
      tree) env_=(SYLVA_FACTOR_DIRECT=1 SYLVA_TREE_LAUNCH=1) ;;
      direct) env_=(SYLVA_FACTOR_DIRECT=1 SYLVA_TREE_LAUNCH=0) ;;
      *) env_=(SYLVA_FACTOR_DIRECT=0) ;;
      esac
      # shellcheck disable=SC2086
      timeout "${BENCH_TIMEOUT:-280}" env "${env_[@]}" "$B/bin/bench-solver" --repeat "${REPEAT:-5}" \
        --policies "${POLICIES:-level,subtree}" --modes gpu --cholmod-threads none --nrhs 1 "${cudss[@]}" \
        --json "$OUT/bench-$mode.json" $SPECS > "$OUT/bench-$mode.log" 2> "$OUT/bench-$mode.err"
      note "bench-solver $mode: rc=$? ($(( $(date +%s) - s )) s)"
    done ;;
  esac
done
cp "$OUT"/*.json "$summary" "$RES/" 2>/dev/null
(cd "$OUT" && tar cJf "$RES/logs.tar.xz" --exclude='*.json' .)
for m in tree direct tasks; do [ -f "$OUT/bench-$m.log" ] && { echo "== bench $m"; grep -v '^\[starpu' "$OUT/bench-$m.log" | grep -E "gpu|cuDSS|matrix" | head -80; }; done
cat "$summary"
