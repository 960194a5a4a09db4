#!/usr/bin/env bash
# cli_solve.sh SYLVA SYLVA_GEN MATRICES_DIR — the solve's options of
# `sylva factor`: --nrhs K (K generated right-hand sides, one backward error
# each, K columns in -o), --refine N (exactly N steps) and auto, a single
# precision factor refined to double accuracy on double right-hand sides,
# --solve-mode (where it ran, in the JSON; why not on a GPU when one was
# asked of a ready factor), the JSON "solve" and "memory"
# records, and each bad value or combination refused with exit 2.
set -u
sylva=$1; gen=$2; dir=$3
. "$(dirname "$0")/../cli_expect.sh" # $tmp, fail, expect, check
bcs=$dir/real/bcsstk14.mtx
"$gen" lap2d5 40 -o "$tmp/lap.mtx" >/dev/null

# --nrhs: K columns, K backward errors, all small, and K columns written.
expect 0 "3 right-hand sides" -- factor "$bcs" --nrhs 3 --threads 2 --json "$tmp/k3.json" -o "$tmp/x3.mtx"
check "$tmp/k3.json" "d['nrhs'] == 3 and len(d['backward_errors']) == 3 and max(d['backward_errors']) < 1e-14"
check "$tmp/k3.json" "d['solve']['nrhs'] == 3 and d['options']['nrhs'] == 3 and d['rhs'].startswith('A*X')"
checks=$((checks + 1))
grep -v '^%' "$tmp/x3.mtx" | head -1 | grep -qx "1806 3" || fail "-o with --nrhs 3: header $(grep -v '^%' "$tmp/x3.mtx" | head -1)"

# --refine N takes exactly N steps and reports the backward error around them.
expect 0 "2 refinement steps" -- factor "$bcs" --refine 2 --json "$tmp/r2.json"
check "$tmp/r2.json" "d['solve']['refine_steps'] == 2 and d['options']['refine'] == 2"
check "$tmp/r2.json" "0 <= d['solve']['backward_error_after'] < 1e-14 and d['solve']['backward_error_before'] >= 0"
# No refinement: the before/after fields say so (-1).
expect 0 "backward error" -- factor "$bcs" --json "$tmp/r0.json"
check "$tmp/r0.json" "d['solve']['refine_steps'] == 0 and d['solve']['backward_error_after'] == -1"

# A single-precision factor refined on double right-hand sides reaches
# double accuracy (lap2d5:40 is well conditioned); unrefined it does not.
expect 0 "backward error" -- factor "$tmp/lap.mtx" --precision single --json "$tmp/s0.json"
check "$tmp/s0.json" "d['backward_error'] > 1e-10"
expect 0 "refinement step" -- factor "$tmp/lap.mtx" --precision single --refine auto --json "$tmp/sa.json"
check "$tmp/sa.json" "d['backward_error'] < 1e-14 and 1 <= d['solve']['refine_steps'] <= 10 and d['options']['refine'] == 'auto'"

# --solve-mode: where it ran.
for m in sequential cpu; do
  expect 0 "solve ($m)" -- factor "$bcs" --solve-mode $m --nrhs 2 --json "$tmp/m.json"
  check "$tmp/m.json" "d['solve']['mode'] == '$m' and d['options']['solve_mode'] == '$m' and d['backward_error'] < 1e-14"
  check "$tmp/m.json" "d['solve']['why_not_gpu'] is None"
done
# A GPU solve asked of a ready (dynamic policy) factor runs on the CPU, and
# the summary and the JSON say why (whatever the machine: the factor's
# layout rules it out first).
why="a dynamic policy's (ready) factor: its L has the run's layout, the GPU solve the analysis'"
expect 0 "; not on a GPU: $why" -- factor "$bcs" --policy ready --solve-mode gpu --json "$tmp/rg.json"
check "$tmp/rg.json" "d['solve']['mode'] != 'gpu' and d['solve']['why_not_gpu'] == \"$why\" and d['backward_error'] < 1e-14"

# --solve-block: the blocks the right-hand sides ran in.
expect 0 "backward error" -- factor "$bcs" --nrhs 5 --solve-block 2 --json "$tmp/b2.json"
check "$tmp/b2.json" "d['solve']['blocks'] == 3 and d['options']['solve_block'] == 2 and d['backward_error'] < 1e-14"

# The memory record: the prediction, the measured peak, L.
check "$tmp/k3.json" "d['memory']['predicted_peak_bytes'] > d['memory']['baseline_bytes'] > 0"
check "$tmp/k3.json" "d['memory']['peak_rss_bytes'] > 0 and d['memory']['factor_bytes'] > 0"
check "$tmp/k3.json" "d['memory']['on_gpu'] in (True, False)"
expect 0 "memory: peak" -- factor "$bcs"

# Bad values and combinations: exit 2, naming the option.
expect 2 "--nrhs needs an integer" -- factor "$bcs" --nrhs 0
expect 2 "--nrhs needs an integer" -- factor "$bcs" --nrhs 2x
expect 2 "come from --rhs" -- factor "$bcs" --nrhs 2 --rhs "$tmp/x3.mtx"
expect 2 "--refine needs auto or an integer" -- factor "$bcs" --refine 101
expect 2 "--refine needs auto or an integer" -- factor "$bcs" --refine -1
expect 2 "unknown solve mode 'frob'" -- factor "$bcs" --solve-mode frob
expect 2 "--solve-block needs an integer in 0..2147483647" -- factor "$bcs" --solve-block -1
expect 2 "does not apply to 'analyze'" -- analyze "$bcs" --refine 1
expect 2 "does not apply to 'analyze'" -- analyze "$bcs" --nrhs 2

echo "cli_solve: $checks checks, $fails failures"
[ "$fails" = 0 ]
