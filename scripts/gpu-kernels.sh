#!/usr/bin/env bash
# gpu-kernels.sh — everything the GPU kernels need run on a GPU machine, in
# one call: the GPU tests, the same tests (reduced sizes) under
# compute-sanitizer memcheck and racecheck, the tuning sweep, and the
# benchmark with the table just tuned. Logs and JSON go to $OUT (default
# ./gpu-kernels-out); a compact summary is printed last.
#   usage: scripts/gpu-kernels.sh BUNDLE_DIR [test] [sanitize] [tune] [bench] [profile] [variants]
#          [variants-native] [variants-medium] [variants-fused] [variants-streams] [tune-streams]
# profile: Nsight Compute (SpeedOfLight, Occupancy, LaunchStats, warp
# stalls) of the fused kernel at n = 64 and 128 and of the medium path at
# n = 256, each in its table, SIMT and 64-thread forms (bench-kernels
# --profile N); PROFILE_SPECS="N,kernel-regex,launches ..." profiles others
# instead (NCU_MORE=1 adds the memory, scheduler and compute sections);
# reports in $OUT/ncu.txt, a digest in the summary; PROFILE_VB="N ..." the
# vbatched batches (default 256) whose kernels are summed per name. variants:
# bench-kernels --variants (the v7 candidates, each timed twice);
# variants-native: bench-kernels --variants-native (v8: the native TRSM
# forms, whole fronts and TRSM phases; POTRF alternatives alone);
# variants-medium: bench-kernels --variants-medium (v10: the medium path's
# grids over the batch or over its list of fronts); variants-fused:
# bench-kernels --variants-fused (v11: the fused buckets' lists, gemm_mma's
# forms); variants-streams: bench-kernels --variants-streams (v14: the medium
# path on a second stream or not, each size class alone); tune-streams:
# bench-kernels --tune-streams (v14: class_streams and fused_list under it
# only, into $OUT/tuning.txt from the table in use). (At most
# 8 files come back from a device call: keep what lands in $OUT to that.)
# RACECHECK_TESTS limits racecheck to the tests named (default
# test_gpu_assembly test_gpu_front); TESTS the test and sanitize phases' tests
# (default all four).
# BUNDLE_DIR is an unpacked gpu-bundle of build/tests/gpu/* and
# build/bench/kernels/bench-kernels (see docs/kernels.md). No phase named: all.
set -uo pipefail
B=$(cd "$1" && pwd); shift
phases=${*:-test sanitize tune bench}
OUT=${OUT:-$PWD/gpu-kernels-out}
mkdir -p "$OUT"
export LD_LIBRARY_PATH="$B/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS:-16}
# The shipped tuning tables, as CTest points at them (installed: share/sylva/tuning).
export SYLVA_TUNING_DIR=${SYLVA_TUNING_DIR:-$(cd "$(dirname "$0")/.." && pwd)/kernels/tuning}
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
summary="$OUT/summary.txt"
: > "$summary"
note() { echo "$*" | tee -a "$summary"; }

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw \
  --format=csv > /tmp/gpu-kernels-gpu.txt 2>&1 || true
note "gpu: $(tail -1 /tmp/gpu-kernels-gpu.txt)"

for p in $phases; do
  case $p in
  test)
    for t in ${TESTS:-test_kernel_tuning test_gpu_assembly test_gpu_front test_gpu_native}; do
      s=$(date +%s)
      timeout 150 "$B/bin/$t" > "$OUT/$t.log" 2>&1; rc=$?
      cat "$OUT/$t.log" >> "$OUT/tests.log"; rm -f "$OUT/$t.log"
      note "test $t: rc=$rc ($(( $(date +%s) - s )) s)"
    done
    grep -E "FAIL|seed" "$OUT/tests.log" | head -20 ;;
  sanitize)
    for tool in memcheck racecheck; do
      for t in ${TESTS:-test_gpu_assembly test_gpu_front test_gpu_native}; do
        [ $t = test_kernel_tuning ] && continue
        [ $tool = racecheck ] && [ $t = test_gpu_native ] && continue  # no shared memory of ours
        # RACECHECK_TESTS: the tests racecheck runs (default both)
        [ $tool = racecheck ] && [[ " ${RACECHECK_TESTS:-test_gpu_assembly test_gpu_front} " != *" $t "* ]] && continue
        f=()
        s=$(date +%s)
        # racecheck of test_gpu_front --quick took 323 s on the H100 (v10's medium-list cases)
        lim=150; [ $tool = racecheck ] && lim=450
        timeout $lim "$CS" --tool $tool "${f[@]}" --error-exitcode 9 --print-limit 20 \
          "$B/bin/$t" --quick >> "$OUT/sanitize.log" 2>&1; rc=$?
        note "$tool $t --quick: rc=$rc ($(( $(date +%s) - s )) s)"
      done
    done
    grep -E "ERROR SUMMARY|Invalid|hazard" "$OUT/sanitize.log" | sort | uniq -c | head -20 ;;
  variants)
    s=$(date +%s)
    tab=()
    [ -f "$OUT/tuning.txt" ] && tab=(--table "$OUT/tuning.txt")
    timeout 150 "$B/bin/bench-kernels" "${tab[@]}" --variants > "$OUT/variants.log" 2>&1; rc=$?
    note "variants: rc=$rc ($(( $(date +%s) - s )) s)"
    grep "^variants" "$OUT/variants.log" >> "$summary" ;;
  variants-native)
    s=$(date +%s)
    timeout 150 "$B/bin/bench-kernels" --variants-native > "$OUT/variants-native.log" 2>&1; rc=$?
    note "variants-native: rc=$rc ($(( $(date +%s) - s )) s)"
    grep "^variants" "$OUT/variants-native.log" >> "$summary" ;;
  variants-medium|variants-fused|variants-streams)
    s=$(date +%s)
    timeout 150 "$B/bin/bench-kernels" --$p > "$OUT/$p.log" 2>&1; rc=$?
    note "$p: rc=$rc ($(( $(date +%s) - s )) s)"
    grep "^variants" "$OUT/$p.log" >> "$summary" ;;
  tune-streams)
    s=$(date +%s)
    timeout 120 "$B/bin/bench-kernels" --tune-streams "$OUT/tuning.txt" > "$OUT/tune-streams.log" 2>&1; rc=$?
    note "tune-streams: rc=$rc ($(( $(date +%s) - s )) s): $(grep 'score' "$OUT/tune-streams.log" | tr '\n' ' ')" ;;
  tune)
    s=$(date +%s)
    timeout 180 "$B/bin/bench-kernels" --tune "$OUT/tuning.txt" > "$OUT/tune.log" 2>&1; rc=$?
    note "tune: rc=$rc ($(( $(date +%s) - s )) s): $(grep '^tuned' "$OUT/tune.log")" ;;
  bench)
    tab=()
    [ -f "$OUT/tuning.txt" ] && tab=(--table "$OUT/tuning.txt")
    s=$(date +%s)
    timeout 240 "$B/bin/bench-kernels" "${tab[@]}" --json "$OUT/bench.json" > "$OUT/bench.log" 2>&1; rc=$?
    note "bench: rc=$rc ($(( $(date +%s) - s )) s)" ;;
  profile)
    NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
    tab=()
    [ -f "$OUT/tuning.txt" ] && tab=(--table "$OUT/tuning.txt")
    specs=${PROFILE_SPECS:-"64,fused_front,3 128,fused_front,3 256,gemm_front|panel_front,8"}
    for spec in $specs; do
      set -- ${spec//,/ }
      s=$(date +%s)
      timeout 120 "$NCU" --kernel-name "regex:$2" --launch-count "$3" --section SpeedOfLight \
        --section Occupancy --section LaunchStats --section WarpStateStats \
        ${NCU_MORE:+--section MemoryWorkloadAnalysis --section SchedulerStats --section ComputeWorkloadAnalysis} \
        "$B/bin/bench-kernels" "${tab[@]}" --profile "$1" > /tmp/ncu-n$1.txt 2>&1; rc=$?
      cat /tmp/ncu-n$1.txt >> "$OUT/ncu.txt"
      note "ncu n=$1: rc=$rc ($(( $(date +%s) - s )) s)"
      grep -E "^  [a-z_]+.*\(|Duration|Compute \(SM\) Throughput|Memory Throughput|Registers Per|Achieved Occupancy|Theoretical Occupancy|Block Limit (Registers|Shared|Warps)|Warp Cycles Per Issued|stalled|profile n=" \
        /tmp/ncu-n$1.txt | sed 's/^ *//' | cut -c1-150 | head -60 >> "$summary"
    done
    # The remaining misses: the native front's kernels (the first 60
    # launches: a warm-up call) and the vbatched N = 256 batch; per kernel
    # name: launches and summed duration (ncu serializes kernels).
    # PROFILE_VB="N ...": the vbatched batches profiled (default 256; with
    # PROFILE_SPECS set: only those named here, and no native front).
    extra=()
    [ -z "${PROFILE_SPECS:-}" ] && extra+=("native --profile-native")
    [ -z "${PROFILE_SPECS:-}" ] || [ -n "${PROFILE_VB:-}" ] || continue
    for N in ${PROFILE_VB:-256}; do extra+=("vb$N --profile-vbatched $N"); done
    for spec in "${extra[@]}"; do
      set -- $spec
      s=$(date +%s)
      timeout 60 "$NCU" --launch-count 60 --section SpeedOfLight --section LaunchStats \
        "$B/bin/bench-kernels" "${tab[@]}" "${@:2}" > /tmp/ncu-$1.txt 2>&1; rc=$?
      cat /tmp/ncu-$1.txt >> "$OUT/ncu.txt"
      note "ncu $1: rc=$rc ($(( $(date +%s) - s )) s)"
      awk '/\([0-9]+, [0-9]+, [0-9]+\)x\(/{name=$0; sub(/\(.*$/, "", name); sub(/^ */, "", name)}
           /Duration/{u=$2; v=$3; if(u=="ms")v*=1000; if(u=="s")v*=1e6; n[name]++; t[name]+=v}
           END{for(k in n) printf "%.1f us, %d launches: %s\n", t[k], n[k], substr(k,1,90)}' /tmp/ncu-$1.txt \
        | sort -rn | head -12 >> "$summary"
    done ;;
  esac
done
echo "==== summary"
cat "$summary"
[ -f "$OUT/tune.log" ] && grep -E "^  " "$OUT/tune.log"
[ -f "$OUT/bench.log" ] && sed -n '/^row/,$p' "$OUT/bench.log" && grep -E "^measured|warning" "$OUT/bench.log" | head -5
exit 0
