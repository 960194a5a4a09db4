#!/usr/bin/env bash
# gpu-solver.sh — everything the GPU factorization needs run on a GPU
# machine, in one call: the GPU kernel tests (the kernels under the
# factorization), the whole-solver GPU tests (every policy × GPU-only and
# hybrid against the CPU path, transfer counters, the device-memory limit),
# compute-sanitizer memcheck on a small matrix, the GPU solve's tests (GPU
# solve against the CPU solve, 1 and 64 right-hand sides, device pointers,
# refinement on the device, the staged host copies, the page-locked ones
# (SYLVA_SOLVE_PIN), the sweeps' chain-step
# variants (SYLVA_SOLVE_STEP, SYLVA_SOLVE_POLL), the top of the tree's launch
# with its crossover forced low (SYLVA_SOLVE_TOP), the small leaves' grouping (SYLVA_SOLVE_LEAF), the fold threshold
# moved down (SYLVA_SOLVE_FOLD), memcheck,
# racecheck), and bench-solver (sylva in each
# mode, CHOLMOD at several thread counts, cuDSS when its library is given;
# solve timings for 1 and 64 right-hand sides). Logs and JSON go to $OUT
# (default ./gpu-solver-out); a compact summary is printed last.
# The multi phase (machines with several GPUs) factors MULTI_SPECS (default
# lap3d7:100 lap3d7:140 lap3d27:80) with `sylva factor` on one GPU and on
# MULTI_GPUS (default 2) GPUs under each mapping (subtrees, scheduler), and
# lap3d7:100 under --device-memory MULTI_MEMORY (default 6G) on one GPU and
# on two; each run's JSON is multi-MATRIX-CONFIG.json, the table
# multi.json / multi.md (bench/solver/multi_gpu_table.py).
# The tiles phase factors TILES_SPECS (default lap3d7:100) on one GPU with
# the large fronts whole (--gpu-tile-rows -1) and as tile tasks of each of
# TILES_ROWS (default 4096 2048 1024) rows; table tiles.json / tiles.md.
# The tables phase factors TABLE_SPECS (default lap3d7:60 lap3d7:100
# lap2d5:1000) on the GPU under the library's tuning table and under
# TUNED_DIR's, taking turns (TABLES_MODE: another --mode); table
# tables.md (tuned / library).
# The report phase runs what a factorization reports beside its factor
# (tests/gpu/test_gpu_report.c on the tasks and the direct path: the GPU
# pivot ratio against the host's scan and the CPU's, the device memory
# samples; tests/gpu/cli_gpu_report.sh: the singular warning from a GPU
# run, traces with device memory counters).
#   usage: scripts/gpu-solver.sh BUNDLE_DIR [kernels] [test] [sanitize] [solve] [bench] [analysis] [study] [multi] [tiles] [tables] [report]
# BUNDLE_DIR: an unpacked gpu-bundle of build/bin, build/tests/gpu and
# build/bench (docs/gpu.md). Environment: CUDSS_LIB (libcudss.so.1),
# KERNEL_ARGS (e.g. --quick: the kernel tests' reduced sizes),
# BENCH_SPECS (matrices; default below), BENCH_NAME (the JSON/log name),
# BENCH_SMALL_ROWS (small/large thresholds to sweep, default 0 = tuned), BENCH_POLICIES (default all),
# BENCH_NRHS (right-hand-side counts of the solve timings, default 1,64),
# BENCH_MODES (default gpu,hybrid,cpu), BENCH_REPEAT (default 3),
# CHOLMOD_THREADS (default 4,8,16), BENCH_ARGS (more bench-solver options, e.g.
# --gpu-solves-only), BENCH_ENV (VAR=value ... for the bench
# process, e.g. STARPU_NWORKER_PER_CUDA=2); the analysis phase runs
# bench-analysis on every core (ANALYSIS_SPECS, ANALYSIS_ARGS). StarPU's perfmodels are kept in
# BUNDLE_DIR/starpu-home: the test phase calibrates them for the bench.
# The study phase runs `sylva study` (every policy, STUDY_REPEAT times,
# default 3; STUDY_ARGS more options, e.g. --thresholds) on STUDY_SPECS
# (default lap3d7:60 lap2d5:1000) into $OUT/study-SPEC/ (study.json,
# study.html, gzipped traces), and a screenshot of each report when a
# chromium is there (else scripts/study-shot.sh takes it where one is).
set -uo pipefail
B=$(cd "$1" && pwd); shift
phases=${*:-kernels test sanitize solve bench}
OUT=${OUT:-$PWD/gpu-solver-out}
mkdir -p "$OUT"
here=$(cd "$(dirname "$0")/.." && pwd)
export LD_LIBRARY_PATH="$B/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export STARPU_HOME=${STARPU_HOME:-$B/starpu-home}
export SYLVA_TUNING_DIR=${SYLVA_TUNING_DIR:-$here/kernels/tuning}
export STARPU_SILENT=1
mkdir -p "$STARPU_HOME"
R=$here/matrices/real
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
summary="$OUT/summary.txt"
: > "$summary"
note() { echo "$*" | tee -a "$summary"; }

nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,temperature.gpu,power.draw \
  --format=csv > "$OUT/gpu.txt" 2>&1 || true
note "gpu: $(tail -1 "$OUT/gpu.txt")"

# Perfmodels for the scheduler's placements: one small run per configuration.
warm_perfmodels() {
  local w=${MULTI_TMP:-/tmp/sylva-multi} cfg
  mkdir -p "$w"
  [ -f "$w/warm.mtx" ] || "$B/bin/sylva-gen" lap3d7 60 -o "$w/warm.mtx" > /dev/null
  for cfg in "$@"; do
    # shellcheck disable=SC2086
    "$B/bin/sylva" factor "$w/warm.mtx" $cfg --repeat 3 -q > /dev/null 2>&1
  done
}

# factor_runs PHASE SPEC NAME:ARGS...: SPEC generated and analyzed once,
# then `sylva factor` with each configuration's arguments (MULTI_REPEAT
# times, the best reported) into $OUT/PHASE-MATRIX-NAME.json and .log.
factor_runs() {
  local phase=$1 spec=$2 w=${MULTI_TMP:-/tmp/sylva-multi} s rc r cfg args; shift 2
  local kind=${spec%%:*} size=${spec#*:} name=${spec//[:\/]/_}
  mkdir -p "$w"
  s=$(date +%s)
  "$B/bin/sylva-gen" "$kind" "$size" -o "$w/$name.mtx" > /dev/null &&
    "$B/bin/sylva" analyze "$w/$name.mtx" --save "$w/$name.sya" > "$OUT/$phase-$name-analyze.log" 2>&1
  note "$phase $spec: generated and analyzed ($(( $(date +%s) - s )) s)"
  for r in "$@"; do
    cfg=${r%%:*} args=${r#*:}
    s=$(date +%s)
    # shellcheck disable=SC2086
    timeout "${MULTI_TIMEOUT:-240}" "$B/bin/sylva" factor "$w/$name.mtx" --analysis "$w/$name.sya" $args \
      --repeat "${MULTI_REPEAT:-3}" -v --json "$OUT/$phase-$name-$cfg.json" > "$OUT/$phase-$name-$cfg.log" 2>&1; rc=$?
    note "$phase $spec $cfg: rc=$rc ($(( $(date +%s) - s )) s) $(grep -m1 'time:' "$OUT/$phase-$name-$cfg.log")"
  done
  rm -f "$w/$name.mtx" "$w/$name.sya"
}

for p in $phases; do
  case $p in
  kernels)
    for tst in test_kernel_tuning test_gpu_assembly test_gpu_front test_gpu_native; do
      s=$(date +%s)
      # shellcheck disable=SC2086
      timeout 200 "$B/bin/$tst" ${KERNEL_ARGS:-} > "$OUT/kernels-$tst.log" 2>&1; rc=$?
      note "kernels $tst: rc=$rc ($(( $(date +%s) - s )) s) $(grep -cE 'FAIL' "$OUT/kernels-$tst.log") FAIL lines"
    done ;;
  test)
    # The ctest cases (tests/gpu/solver_cases.txt, NAME:ARGUMENTS).
    mapfile -t cases < <(grep -v '^#' "$here/tests/gpu/solver_cases.txt" | sed "s|^[^:]*:||; s|@R@|$R|g")
    for c in "${cases[@]}"; do
      s=$(date +%s)
      # shellcheck disable=SC2086
      timeout 240 "$B/bin/test_gpu_solver" $c >> "$OUT/solver-tests.log" 2>&1; rc=$?
      note "test_gpu_solver $(basename "${c%% *}") ${c#* }: rc=$rc ($(( $(date +%s) - s )) s)"
    done
    grep -E "CHECK|failures" "$OUT/solver-tests.log" | grep -v " 0 failures" | head -30 ;;
  report)
    for direct in 0 1; do
      for c in "lap3d7:20" "$R/bcsstk14.mtx" "neumann1d:200 singular=1"; do
        s=$(date +%s)
        # shellcheck disable=SC2086
        SYLVA_FACTOR_DIRECT=$direct timeout 240 "$B/bin/test_gpu_report" $c >> "$OUT/report-tests.log" 2>&1; rc=$?
        note "test_gpu_report $(basename "${c%% *}") direct=$direct: rc=$rc ($(( $(date +%s) - s )) s)"
      done
    done
    s=$(date +%s)
    timeout 300 bash "$here/tests/gpu/cli_gpu_report.sh" "$B/bin/sylva" "$B/bin/sylva-gen" \
      "$here/tests/study/check_trace.py" >> "$OUT/report-tests.log" 2>&1; rc=$?
    note "cli_gpu_report.sh: rc=$rc ($(( $(date +%s) - s )) s) $(grep -m1 'cli_gpu_report:' "$OUT/report-tests.log")"
    grep -E "CHECK|FAIL|failures" "$OUT/report-tests.log" | grep -v " 0 failures" | head -30 ;;
  sanitize)
    s=$(date +%s)
    timeout 300 "$CS" --tool memcheck --error-exitcode 9 --print-limit 20 \
      "$B/bin/test_gpu_solver" lap3d7:8 policy=subtree modes=gpu > "$OUT/sanitize.log" 2>&1; rc=$?
    note "memcheck test_gpu_solver lap3d7:8 subtree gpu: rc=$rc ($(( $(date +%s) - s )) s) $(grep -m1 'ERROR SUMMARY' "$OUT/sanitize.log")"
    s=$(date +%s)
    timeout 300 "$CS" --tool memcheck --error-exitcode 9 --print-limit 20 \
      "$B/bin/test_gpu_solver" elast3d:4 policy=level modes=gpu small=32 > "$OUT/sanitize2.log" 2>&1; rc=$?
    note "memcheck test_gpu_solver elast3d:4 level gpu small=32: rc=$rc ($(( $(date +%s) - s )) s) $(grep -m1 'ERROR SUMMARY' "$OUT/sanitize2.log")"
    s=$(date +%s)
    timeout 300 "$CS" --tool memcheck --error-exitcode 9 --print-limit 20 \
      "$B/bin/test_gpu_solver" lap3d7:10 policy=subtree modes=gpu small=48 tiles=24 > "$OUT/sanitize3.log" 2>&1; rc=$?
    note "memcheck test_gpu_solver lap3d7:10 subtree gpu tiles=24: rc=$rc ($(( $(date +%s) - s )) s) $(grep -m1 'ERROR SUMMARY' "$OUT/sanitize3.log")"
    # The tree launch (direct path, docs/gpu.md): its shared-memory assembly
    # and factorization under racecheck.
    s=$(date +%s)
    SYLVA_FACTOR_DIRECT=1 timeout 300 "$CS" --tool racecheck --error-exitcode 9 --print-limit 20 \
      "$B/bin/test_gpu_solver" lap3d7:8 policy=subtree modes=gpu > "$OUT/sanitize-tree-race.log" 2>&1; rc=$?
    note "racecheck test_gpu_solver lap3d7:8 subtree gpu (direct, tree launch): rc=$rc ($(( $(date +%s) - s )) s) $(grep -m1 'ERROR SUMMARY' "$OUT/sanitize-tree-race.log")" ;;
  solve)
    # lap3d7:40 and lap3d27:16: larger split fronts (triangle chains of
    # every length mod 64, fronts of ≤ 64 pivots over > 512 CB rows);
    # lap3d7:28: a fused bucket ending at m = 109 (its factorization once
    # failed to launch, docs/perf-log.md).
    cases=(
      "lap3d7:12" "elast3d:6 small=64" "lap2d5:60" "lap3d27:12" "lap3d7:16 policy=level"
      "lap3d7:40" "lap3d27:16" "lap3d7:28"
      "$R/bcsstk14.mtx" "$R/wathenSmall.mtx" "$R/1138_bus.mtx" "$R/pyamg_bar.mtx" "$R/bcsstk13.mtx"
      "lap3d7:20 memory=64") # the automatic block halved to fit 64 MiB of device memory
    for c in "${cases[@]}"; do
      s=$(date +%s)
      # shellcheck disable=SC2086
      timeout 240 "$B/bin/test_gpu_solve" $c >> "$OUT/solve-tests.log" 2>&1; rc=$?
      note "test_gpu_solve $(basename "${c%% *}") ${c#* }: rc=$rc ($(( $(date +%s) - s )) s)"
    done
    for c in lap2d5:60 lap3d7:16; do # host blocks through the staging slots (off by default)
      s=$(date +%s)
      SYLVA_SOLVE_STAGE=1 timeout 240 "$B/bin/test_gpu_solve" $c >> "$OUT/solve-tests.log" 2>&1; rc=$?
      note "test_gpu_solve $c SYLVA_SOLVE_STAGE=1: rc=$rc ($(( $(date +%s) - s )) s)"
    done
    # Host blocks page-locked for the solve whatever their size (pieces of a page, whole) and pageable.
    for c in "2,0,4 lap3d7:16" "2,0,4 lap2d5:60" "1,0 lap3d7:16" "0 lap3d7:16"; do
      s=$(date +%s)
      # shellcheck disable=SC2086
      SYLVA_SOLVE_PIN=${c%% *} timeout 240 "$B/bin/test_gpu_solve" ${c#* } >> "$OUT/solve-tests.log" 2>&1; rc=$?
      note "test_gpu_solve ${c#* } SYLVA_SOLVE_PIN=${c%% *}: rc=$rc ($(( $(date +%s) - s )) s)"
    done
    # The task's path where the direct solve would run; a sweep's two launches one after the other.
    for c in "SYLVA_SOLVE_DIRECT=0 lap3d7:16" "SYLVA_SOLVE_DIRECT=0 elast3d:6 small=64" \
      "SYLVA_SOLVE_OVERLAP=0 lap3d7:16" "SYLVA_SOLVE_OVERLAP=0 lap3d27:12"; do
      s=$(date +%s)
      # shellcheck disable=SC2086
      env ${c%% *} timeout 240 "$B/bin/test_gpu_solve" ${c#* } >> "$OUT/solve-tests.log" 2>&1; rc=$?
      note "test_gpu_solve ${c#* } ${c%% *}: rc=$rc ($(( $(date +%s) - s )) s)"
    done
    for c in "0 lap3d7:16" "0 elast3d:6 small=64" "1 lap3d7:16" "2 lap3d7:16"; do # chain-step variants (default 3)
      s=$(date +%s)
      # shellcheck disable=SC2086
      SYLVA_SOLVE_STEP=${c%% *} timeout 240 "$B/bin/test_gpu_solve" ${c#* } >> "$OUT/solve-tests.log" 2>&1; rc=$?
      note "test_gpu_solve ${c#* } SYLVA_SOLVE_STEP=${c%% *}: rc=$rc ($(( $(date +%s) - s )) s)"
    done
    # The top of the tree's launch with its crossover forced low (fronts on both sides; every split front on top).
    for c in "64 lap3d7:28" "64 elast3d:6 small=64" "1 lap3d7:16" "1 elast3d:6 small=64" "64 $R/bcsstk13.mtx"; do
      s=$(date +%s)
      # shellcheck disable=SC2086
      SYLVA_SOLVE_TOP=${c%% *} timeout 240 "$B/bin/test_gpu_solve" ${c#* } >> "$OUT/solve-tests.log" 2>&1; rc=$?
      note "test_gpu_solve $(basename "${c#* }") SYLVA_SOLVE_TOP=${c%% *}: rc=$rc ($(( $(date +%s) - s )) s)"
    done
    # Small leaves a FOLD item each (0), in odd groups (3), the most to a LEAF item (64).
    for c in "0 lap2d5:60" "3 lap2d5:60" "64 lap2d5:60" "3 lap3d7:16" "0 elast3d:6 small=64"; do
      s=$(date +%s)
      # shellcheck disable=SC2086
      SYLVA_SOLVE_LEAF=${c%% *} timeout 240 "$B/bin/test_gpu_solve" ${c#* } >> "$OUT/solve-tests.log" 2>&1; rc=$?
      note "test_gpu_solve ${c#* } SYLVA_SOLVE_LEAF=${c%% *}: rc=$rc ($(( $(date +%s) - s )) s)"
    done
    # The fold threshold moved down (fronts of more than 32 pivots split), alone and with the top's crossover at 48.
    for c in "SYLVA_SOLVE_FOLD=32 lap3d7:40" "SYLVA_SOLVE_FOLD=32 elast3d:6 small=64" \
      "SYLVA_SOLVE_FOLD=32 $R/bcsstk13.mtx" "SYLVA_SOLVE_FOLD=32 $R/pyamg_bar.mtx" \
      "SYLVA_SOLVE_FOLD=48,SYLVA_SOLVE_TOP=48 lap3d7:28" "SYLVA_SOLVE_FOLD=48,SYLVA_SOLVE_TOP=48 $R/bcsstk13.mtx"; do
      s=$(date +%s) e=${c%% *}
      # shellcheck disable=SC2086
      env ${e//,/ } timeout 240 "$B/bin/test_gpu_solve" ${c#* } >> "$OUT/solve-tests.log" 2>&1; rc=$?
      note "test_gpu_solve $(basename "${c#* }") ${c%% *}: rc=$rc ($(( $(date +%s) - s )) s)"
    done
    s=$(date +%s)
    SYLVA_SOLVE_TOP=1 timeout 300 "$CS" --tool memcheck --error-exitcode 9 --print-limit 20 \
      "$B/bin/test_gpu_solve" lap3d7:12 > "$OUT/sanitize-solve-top.log" 2>&1; rc=$?
    note "memcheck test_gpu_solve lap3d7:12 SYLVA_SOLVE_TOP=1: rc=$rc ($(( $(date +%s) - s )) s)"
    s=$(date +%s)
    SYLVA_SOLVE_TOP=1 timeout 300 "$CS" --tool racecheck --error-exitcode 9 --print-limit 20 \
      "$B/bin/test_gpu_solve" lap3d7:12 > "$OUT/racecheck-solve-top.log" 2>&1; rc=$?
    note "racecheck test_gpu_solve lap3d7:12 SYLVA_SOLVE_TOP=1: rc=$rc ($(( $(date +%s) - s )) s)"
    s=$(date +%s)
    SYLVA_SOLVE_POLL=32,4096 timeout 240 "$B/bin/test_gpu_solve" lap3d7:16 >> "$OUT/solve-tests.log" 2>&1; rc=$?
    note "test_gpu_solve lap3d7:16 SYLVA_SOLVE_POLL=32,4096: rc=$rc ($(( $(date +%s) - s )) s)"
    s=$(date +%s)
    timeout 240 "$B/bin/test_refine" mode=gpu >> "$OUT/solve-tests.log" 2>&1; rc=$?
    note "test_refine mode=gpu: rc=$rc ($(( $(date +%s) - s )) s)"
    s=$(date +%s)
    timeout 120 "$CS" --tool memcheck --error-exitcode 9 --print-limit 20 \
      "$B/bin/test_gpu_stage" >> "$OUT/solve-tests.log" 2>&1; rc=$?
    note "memcheck test_gpu_stage (staged host copies): rc=$rc ($(( $(date +%s) - s )) s) $(grep -c '^ok' "$OUT/solve-tests.log") ok lines"
    # The host link and the staged copy outside StarPU (a solve's 64 columns of lap3d7:60: 110 MB).
    timeout 60 "$B/bin/test_gpu_stage" --rates 110 > "$OUT/copy-rates.log" 2>&1
    while read -r l; do note "copy rates: $l"; done < "$OUT/copy-rates.log"
    s=$(date +%s)
    timeout 300 "$CS" --tool memcheck --error-exitcode 9 --print-limit 20 \
      "$B/bin/test_gpu_solve" elast3d:4 small=32 > "$OUT/sanitize-solve.log" 2>&1; rc=$?
    note "memcheck test_gpu_solve elast3d:4 small=32: rc=$rc ($(( $(date +%s) - s )) s) $(grep -m1 'ERROR SUMMARY' "$OUT/sanitize-solve.log")"
    # elast3d:4 folds every front: the triangle and update items need split
    # ones (lap3d7:16, lap3d27:16); lap3d7:16's blocks page-locked in pieces.
    for c in lap3d7:16 lap3d27:16; do
      s=$(date +%s)
      pin=; [ "$c" = lap3d7:16 ] && pin=2,0,4
      env ${pin:+SYLVA_SOLVE_PIN=$pin} timeout 300 "$CS" --tool memcheck --error-exitcode 9 --print-limit 20 \
        "$B/bin/test_gpu_solve" $c > "$OUT/sanitize-solve-${c//:/_}.log" 2>&1; rc=$?
      note "memcheck test_gpu_solve $c: rc=$rc ($(( $(date +%s) - s )) s) $(grep -m1 'ERROR SUMMARY' "$OUT/sanitize-solve-${c//:/_}.log")"
    done
    # The CPU solve's task graph at this host's core count (its speedup bound).
    "$B/bin/solve-span" lap3d7:60 "2,4,8,$(nproc)" > "$OUT/solve-span.log" 2>&1
    note "solve-span lap3d7:60: $(tail -1 "$OUT/solve-span.log")"
    grep -E "CHECK|failures" "$OUT/solve-tests.log" | grep -v " 0 failures" | head -30 ;;
  bench)
    specs=${BENCH_SPECS:-"lap3d7:60 lap3d27:60 lap2d5:1000 elast3d:30 $R/bcsstk13.mtx $R/pyamg_bar.mtx"}
    name=${BENCH_NAME:-bench}
    cudss=()
    [ -n "${CUDSS_LIB:-}" ] && cudss=(--cudss "$CUDSS_LIB")
    s=$(date +%s)
    # shellcheck disable=SC2086
    timeout "${BENCH_TIMEOUT:-420}" env ${BENCH_ENV:-} "$B/bin/bench-solver" --repeat "${BENCH_REPEAT:-3}" \
      --policies "${BENCH_POLICIES:-all}" --modes "${BENCH_MODES:-gpu,hybrid,cpu}" \
      --cholmod-threads "${CHOLMOD_THREADS:-4,8,16}" --small-rows "${BENCH_SMALL_ROWS:-0}" \
      --nrhs "${BENCH_NRHS:-1,64}" ${BENCH_ARGS:-} \
      "${cudss[@]}" --json "$OUT/$name.json" $specs > "$OUT/$name.log" 2> "$OUT/$name.err"; rc=$?
    note "bench-solver $name: rc=$rc ($(( $(date +%s) - s )) s)"
    grep -v '^\[starpu' "$OUT/$name.err" | tail -40 ;;
  study)
    for spec in ${STUDY_SPECS:-lap3d7:60 lap2d5:1000}; do
      kind=${spec%%:*} size=${spec#*:} name=study-${spec//[:\/]/_}
      "$B/bin/sylva-gen" "$kind" "$size" -o "$OUT/$name.mtx" > /dev/null
      s=$(date +%s)
      # shellcheck disable=SC2086
      timeout "${STUDY_TIMEOUT:-540}" "$B/bin/sylva" study "$OUT/$name.mtx" --repeat "${STUDY_REPEAT:-3}" \
        ${STUDY_ARGS:-} -o "$OUT/$name" > "$OUT/$name.log" 2> "$OUT/$name.err"; rc=$?
      note "study $spec: rc=$rc ($(( $(date +%s) - s )) s)"
      cat "$OUT/$name.log" | tee -a "$summary"
      rm -f "$OUT/$name.mtx"
      gzip -f "$OUT/$name"/trace_*.json 2>/dev/null
      if command -v chromium > /dev/null; then
        timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1100,3600 \
          --screenshot="$OUT/$name.png" "file://$OUT/$name/study.html" > /dev/null 2>&1
      fi
    done ;;
  multi)
    g=${MULTI_GPUS:-2}
    warm_perfmodels "--gpus 1" "--gpus $g --gpu-map subtrees" "--gpus $g --gpu-map scheduler"
    for spec in ${MULTI_SPECS:-lap3d7:100 lap3d7:140 lap3d27:80}; do
      runs=("1gpu:--gpus 1" "${g}gpu_subtrees:--gpus $g --gpu-map subtrees"
            "${g}gpu_whole:--gpus $g --gpu-map subtrees --gpu-tile-rows -1"
            "${g}gpu_scheduler:--gpus $g --gpu-map scheduler")
      [ "$spec" = lap3d7:100 ] && runs+=("1gpu_mem:--gpus 1 --device-memory ${MULTI_MEMORY:-6G}"
                                       "${g}gpu_mem:--gpus $g --device-memory ${MULTI_MEMORY:-6G}")
      factor_runs multi "$spec" "${runs[@]}"
    done
    python3 "$here/bench/solver/multi_gpu_table.py" "$OUT/multi.json" "$OUT"/multi-*-*.json > "$OUT/multi.md"
    cat "$OUT/multi.md" | tee -a "$summary" ;;
  tiles)
    # One GPU: the large fronts whole (native path) against tile tasks.
    warm_perfmodels "--gpus 1 --gpu-tile-rows -1" "--gpus 1 --gpu-tile-rows 1024"
    for spec in ${TILES_SPECS:-lap3d7:100}; do
      runs=("native:--gpus 1 --gpu-tile-rows -1")
      for t in ${TILES_ROWS:-4096 2048 1024}; do runs+=("t$t:--gpus 1 --gpu-tile-rows $t"); done
      factor_runs tiles "$spec" "${runs[@]}"
    done
    python3 "$here/bench/solver/multi_gpu_table.py" "$OUT/tiles.json" "$OUT"/tiles-*-*.json > "$OUT/tiles.md"
    cat "$OUT/tiles.md" | tee -a "$summary" ;;
  tables)
    # Whole factorizations under two kernel tuning tables, taking turns: the
    # one the library loads (SYLVA_TUNING_DIR; the built-in defaults where it
    # has none for this GPU) and TUNED_DIR's (e.g. this call's tuner table,
    # named <GPU model>.txt). TABLE_SPECS analyzed once; the best of
    # TABLES_REPEAT factorizations per run, two turns each; tables.md.
    [ -d "${TUNED_DIR:-}" ] || { note "tables: TUNED_DIR is not a directory"; continue; }
    warm_perfmodels "--mode gpu"
    w=/tmp/sylva-tables
    mkdir -p "$w"
    for spec in ${TABLE_SPECS:-lap3d7:60 lap3d7:100 lap2d5:1000}; do
      kind=${spec%%:*} size=${spec#*:} name=${spec//[:\/]/_}
      "$B/bin/sylva-gen" "$kind" "$size" -o "$w/$name.mtx" > /dev/null &&
        "$B/bin/sylva" analyze "$w/$name.mtx" --save "$w/$name.sya" > /dev/null 2>&1
      for turn in 1 2; do
        for t in library tuned; do
          dir=$SYLVA_TUNING_DIR
          [ $t = tuned ] && dir=$TUNED_DIR
          SYLVA_TUNING_DIR=$dir timeout 150 "$B/bin/sylva" factor "$w/$name.mtx" --analysis "$w/$name.sya" \
            --mode ${TABLES_MODE:-gpu} --repeat "${TABLES_REPEAT:-3}" -q --json "$OUT/tables-$name-$t-$turn.json" \
            > "$OUT/tables-$name-$t-$turn.log" 2>&1
          note "tables $spec $t turn $turn: rc=$?"
        done
      done
      rm -f "$w/$name.mtx" "$w/$name.sya"
    done
    python3 - "$OUT" > "$OUT/tables.md" <<'PY'
import glob, json, os, sys
best = {}
for f in glob.glob(os.path.join(sys.argv[1], "tables-*.json")):
    name, table = os.path.basename(f)[7:-5].rsplit("-", 2)[:2]
    try:
        s = json.load(open(f))["seconds"]["factorize"]
    except (OSError, ValueError, KeyError):
        continue
    k = best.setdefault(name, {})
    k[table] = min(s, k.get(table, s))
print("| matrix | library's table s | tuned table s | tuned / library |")
print("| --- | --- | --- | --- |")
for name, k in sorted(best.items()):
    a, b = k.get("library"), k.get("tuned")
    r = f"{b / a:.3f}" if a and b else "-"
    print(f"| {name} | {a:.4f} | {b:.4f} | {r} |" if a and b else f"| {name} | {a} | {b} | - |")
PY
    cat "$OUT/tables.md" | tee -a "$summary" ;;
  analysis)
    s=$(date +%s)
    # shellcheck disable=SC2086
    timeout "${ANALYSIS_TIMEOUT:-300}" "$B/bin/bench-analysis" --threads "$(nproc)" \
      --json "$OUT/analysis.json" ${ANALYSIS_ARGS:-} ${ANALYSIS_SPECS:-lap3d7:100} > "$OUT/analysis.log" 2>&1; rc=$?
    note "bench-analysis: rc=$rc ($(( $(date +%s) - s )) s)"
    tail -30 "$OUT/analysis.log" ;;
  esac
done
echo "==== summary"
cat "$summary"
for f in "$OUT"/*.log; do case $f in *bench*.log) cat "$f" ;; esac; done
exit 0
