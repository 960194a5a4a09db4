#!/usr/bin/env bash
# cli_oneshot.sh SYLVA MATRICES_DIR — a one-shot `sylva factor` (docs/cli.md,
# "Wall time and start-up"): the JSON's seconds.wall, startup and
# startup_wait, consistent with the phases (the wall covers them, the wait
# is part of the start), and the summary's wall line; `analyze --json` has
# them too; a runtime start that fails on its thread (no CPU worker, no GPU)
# is the run's failure (exit 4, StarPU's message, in the JSON too); a bad
# file beside the start is still exit 1 with its message.
set -u
sylva=$1; dir=$2
. "$(dirname "$0")/../cli_expect.sh" # $tmp, fail, expect
check() {
  checks=$((checks + 1))
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if eval(sys.argv[2]) else 1)" "$1" "$2" ||
    fail "$1: not ($2): $(head -c 3000 "$1")"
}
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

echo "cli_oneshot: $checks checks, $fails failures"
[ "$fails" = 0 ]
