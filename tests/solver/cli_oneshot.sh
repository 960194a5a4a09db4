#!/usr/bin/env bash
# cli_oneshot.sh SYLVA MATRICES_DIR — a one-shot `sylva factor` (docs/cli.md,
# "Wall time and start-up"): the JSON's seconds.wall, startup and
# startup_wait, consistent with the phases (the wall covers them, the wait
# is part of the start), and the summary's wall line; `analyze --json` has
# them too; a runtime start that fails on its thread (no CPU worker, no GPU)
# is the run's failure (exit 4, StarPU's message, in the JSON too); a bad
# file beside the start is still exit 1 with its message. And a CPU run
# under `ulimit -v 1000000` (1 GB of address space) maps none of CUDA's
# libraries (cuBLAS, cuBLASLt, cuSOLVER, cuSPARSE, nvJitLink: LD_DEBUG
# lists every library loaded, at start or by dlopen) and succeeds: with
# --mode cpu everywhere, and by default on a machine without a GPU.
set -u
sylva=$1; dir=$2
. "$(dirname "$0")/../cli_expect.sh" # $tmp, fail, expect, check
bcs=$dir/real/bcsstk14.mtx

# The seconds: wall covers every phase and the wait; the wait is part of the start.
expect 0 "runtime start-up" -- factor "$bcs" --json "$tmp/f.json"
grep -Eq '^  wall [0-9.]+ s so far; runtime start-up [0-9.]+ s, [0-9.]+ s of it waited for$' "$tmp/out" ||
  fail "no wall line in the summary: $(cat "$tmp/out")"
s="d['seconds']"
check "$tmp/f.json" "$s['startup'] > 0 and 0 <= $s['startup_wait'] <= $s['startup'] + 1e-6"
check "$tmp/f.json" "$s['wall'] >= $s['read'] + $s['rhs'] + $s['analyze'] + $s['startup_wait'] + $s['factorize_first'] + $s['solve'] - 1e-6"
check "$tmp/f.json" "0 < $s['wall'] < 600 and $s['startup'] < $s['wall']"
expect 0 "analyze" -- analyze "$bcs" --json "$tmp/a.json"
check "$tmp/a.json" "$s['startup'] > 0 and 0 <= $s['startup_wait'] <= $s['startup'] + 1e-6 and $s['wall'] >= $s['read'] + $s['analyze']"

# A start that fails on its thread: the analysis waits for it and fails with it.
STARPU_NCPU=0 expect 4 "StarPU failed to start" -- factor "$bcs" --mode cpu --json "$tmp/n.json"
check "$tmp/n.json" "d['status'] == 'runtime' and 'StarPU failed to start' in d['message']"
STARPU_NCPU=0 expect 4 "StarPU failed to start" -- analyze "$bcs" --mode cpu
# Bad input beside the start: its own message, exit 1.
printf '%%%%MatrixMarket matrix coordinate real symmetric\n3 3 1\n1 1 x\n' >"$tmp/bad.mtx"
expect 1 "bad.mtx:3" -- factor "$tmp/bad.mtx" --json "$tmp/b.json"
check "$tmp/b.json" "d['status'] == 'format' and 'bad.mtx:3' in d['message']"

# A CPU run in 1 GB of address space, with none of CUDA's libraries mapped.
if ldd "$sylva" 2>/dev/null | grep -q libasan; then
  echo "ulimit -v part skipped (ASan build: its shadow memory needs more address space)"
else
  cuda_libs='file=lib(cublas|cublasLt|cusolver|cusparse|nvJitLink)\.so'
  modes="--mode=cpu"
  nvidia-smi -L 2>/dev/null | grep -q '^GPU ' || modes="$modes --mode=auto"
  for m in $modes; do
    checks=$((checks + 1))
    (ulimit -v 1000000; LD_DEBUG=files "$sylva" factor "$bcs" $m --json "$tmp/u.json" >"$tmp/out" 2>"$tmp/err")
    rc=$?
    if [ $rc != 0 ]; then fail "ulimit -v 1000000, $m: exit $rc: $(grep -v 'file=\|^ *[0-9]*: *$' "$tmp/err" | tail -5)"
    elif grep -Eq "$cuda_libs" "$tmp/err"; then fail "$m maps CUDA libraries: $(grep -Eo "$cuda_libs[^ ]*" "$tmp/err" | sort -u | tr '\n' ' ')"
    fi
    check "$tmp/u.json" "d['status'] == 'ok' and d['runtime']['gpus'] == 0"
  done
fi

echo "cli_oneshot: $checks checks, $fails failures"
[ "$fails" = 0 ]
