#!/usr/bin/env bash
# cli_oneshot_gpu.sh SYLVA SYLVA_GEN MATRICES_DIR — a GPU run after the
# runtime's start on its own thread (issue 35): the default run and --mode
# gpu factor on the GPU with their backward error, seconds.startup (the
# start, CUDA's included) and startup_wait consistent, cuBLAS and cuSOLVER
# opened (LD_DEBUG lists them: dlopen'ed with the first GPU context), and
# `analyze --mode gpu` planned for the GPU it waited for. Exit 77 (skipped)
# where sylva finds no GPU. The CPU runs of the same build: cli.oneshot.
set -u
sylva=$1; gen=$2; dir=$3
. "$(dirname "$0")/../cli_expect.sh" # $tmp, fail, expect, check
bcs=$dir/real/bcsstk14.mtx
"$sylva" factor "$bcs" -q --json "$tmp/probe.json" >/dev/null 2>&1
if ! python3 -c "import json,sys; sys.exit(0 if json.load(open(sys.argv[1]))['runtime']['gpus'] > 0 else 1)" "$tmp/probe.json" 2>/dev/null; then
  echo "cli_oneshot_gpu: no GPU found: skipped"; exit 77
fi
"$gen" lap3d7 20 -o "$tmp/lap.mtx" >/dev/null

s="d['seconds']"
for args in "$bcs" "$bcs --mode gpu" "$tmp/lap.mtx --mode gpu"; do
  checks=$((checks + 1))
  LD_DEBUG=files "$sylva" factor $args --json "$tmp/g.json" >"$tmp/out" 2>"$tmp/err" || fail "factor $args: exit $?: $(grep -v 'file=\|^ *[0-9]*: *$' "$tmp/err" | tail -5)"
  for lib in libcublas.so libcusolver.so; do
    checks=$((checks + 1))
    grep -q "file=[^ ]*$lib" "$tmp/err" || fail "factor $args: $lib was not opened"
  done
  check "$tmp/g.json" "d['status'] == 'ok' and d['mode'] == 'gpu' and d['runtime']['gpus'] >= 1 and d['backward_error'] < 1e-14"
  check "$tmp/g.json" "$s['startup'] > 0 and 0 <= $s['startup_wait'] <= $s['startup'] + 1e-6 and $s['wall'] >= $s['read'] + $s['analyze'] + $s['startup_wait'] + $s['factorize_first']"
done
expect 0 "policy" -- analyze "$bcs" --mode gpu --json "$tmp/a.json"
check "$tmp/a.json" "d['status'] == 'ok' and $s['startup'] > 0"

echo "cli_oneshot_gpu: $checks checks, $fails failures"
[ "$fails" = 0 ]
