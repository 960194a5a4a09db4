#!/usr/bin/env bash
# fuzz.sh SECONDS [TARGET...] — build the libFuzzer targets of tests/fuzz
# (clang, -fsanitize=fuzzer,address,undefined, CUDA off, Debian's CPU StarPU)
# into build-fuzz/ and run each for SECONDS: mm_read (serial against
# parallel chunking), parse_number (against strtod/strtoll bit for bit),
# dense, solve (read → analyze → factorize → solve → refactorize with option
# bytes), decompress (gzip/bzip2/xz from memory, archive refusals, then the
# reader), analysis_load (saved analyses: the file reader against the
# in-memory check, then the analysis of what they load). Seeds come from tests/fuzz/corpus/TARGET (read only); what the run
# finds interesting goes to build-fuzz/fuzz-corpus/TARGET, so long runs pile
# up coverage. Prints one line per target: seconds, executions, result. A
# finding (crash, sanitizer report, FUZZ_ASSERT, leak, timeout, memory
# limit) leaves build-fuzz/fuzz-findings/TARGET-* and makes the script exit
# 1; reproduce with `build-fuzz/tests/fuzz/fuzz_TARGET FILE`.
# SYLVA_FUZZ_JOBS=N runs N fuzzing processes per target (default 1).
set -uo pipefail
secs=${1:?usage: scripts/fuzz.sh SECONDS [TARGET...]}
shift
here=$(cd "$(dirname "$0")/.." && pwd)
build=${SYLVA_FUZZ_BUILD_DIR:-$here/build-fuzz}
targets=${*:-mm_read parse_number dense solve decompress analysis_load}
jobs=${SYLVA_FUZZ_JOBS:-1}

command -v clang >/dev/null || { echo "fuzz.sh: clang is needed (bash setup.sh --dev, or apt-get install clang libclang-rt-14-dev)"; exit 2; }
# PKG_CONFIG_PATH unset: Debian's CPU StarPU, so no CUDA library is mapped.
env -u PKG_CONFIG_PATH cmake -S "$here" -B "$build" -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Debug \
  -DSYLVA_FUZZ=ON -DSYLVA_ENABLE_CUDA=OFF >/dev/null || exit 2
for t in $targets; do
  cmake --build "$build" -j"$(nproc)" --target "fuzz_$t" >/dev/null || { echo "fuzz.sh: build of fuzz_$t failed"; exit 2; }
done

mkdir -p "$build/fuzz-findings"
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$here/tests/lsan.supp:print_suppressions=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export STARPU_SILENT=1
status=0
for t in $targets; do
  work="$build/fuzz-corpus/$t"
  mkdir -p "$work"
  log="$build/fuzz-$t.log" jobdir="$build/fuzz-jobs/$t"
  parallel=()
  [ "$jobs" -gt 1 ] && parallel=(-jobs="$jobs" -workers="$jobs")
  rm -rf "$jobdir" && mkdir -p "$jobdir"
  # libFuzzer's jobs write fuzz-N.log in the working directory.
  (cd "$jobdir" && exec "$build/tests/fuzz/fuzz_$t" -max_total_time="$secs" -print_final_stats=1 \
    -timeout=30 -rss_limit_mb=4096 -max_len=65536 "${parallel[@]}" \
    -artifact_prefix="$build/fuzz-findings/$t-" "$work" "$here/tests/fuzz/corpus/$t") >"$log" 2>&1
  rc=$?
  cat "$jobdir"/fuzz-*.log >>"$log" 2>/dev/null
  execs=$(grep -h 'stat::number_of_executed_units' "$log" | awk '{s += $2} END {print s + 0}')
  if [ $rc = 0 ] && ! grep -qE 'ERROR: (libFuzzer|AddressSanitizer|LeakSanitizer)|runtime error|FUZZ_ASSERT' "$log"; then
    echo "fuzz $t: ${secs} s, $execs executions, no finding"
  else
    echo "fuzz $t: ${secs} s, $execs executions, FINDING (exit $rc; log $log):"
    grep -hE 'ERROR|runtime error|FUZZ_ASSERT|SUMMARY|Test unit written' "$log" | head -8
    status=1
  fi
done
exit $status
