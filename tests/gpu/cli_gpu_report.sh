#!/usr/bin/env bash
# cli_gpu_report.sh SYLVA SYLVA_GEN CHECK_TRACE — what `sylva factor` on one
# GPU reports beside the factor (exit 77 where `--mode gpu` finds no GPU):
#   - the pivot ratio, now computed where L stays: diag(1, 1e-20, 1) warns
#     on stderr from it ("pivot ratio"), its JSON has pivot_ratio 1e-20 and
#     singular true, --fail-singular exits 5; issue 36's case (the singular
#     1-D Neumann Laplacian, n = 200, with a right-hand side and --rcond)
#     factors, warns, and has a pivot ratio below 1e-10 in its JSON;
#   - a well-conditioned matrix: a pivot ratio in the JSON, no warning;
#   - the trace (--trace) with device memory counters (check_trace.py: one
#     per GPU, present because GPU tasks ran), on the tasks and on the
#     direct factorization (SYLVA_FACTOR_DIRECT=1).
set -u
sylva=$1 gen=$2 check=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0 checks=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { checks=$((checks + 1)); "$@" || fail "$*"; }

"$gen" lap3d7 10 -o "$tmp/a.mtx" >/dev/null
"$sylva" factor "$tmp/a.mtx" --mode gpu --gpus 1 -q 2>"$tmp/err"
rc=$?
if [ "$rc" = 4 ]; then echo "no GPU: skipped ($(head -1 "$tmp/err"))"; exit 77; fi
checks=$((checks + 1)); [ "$rc" = 0 ] || fail "--mode gpu on lap3d7:10: exit $rc: $(cat "$tmp/err")"

python3 - "$tmp" <<'PY'
import sys
d, n = sys.argv[1], 200
with open("%s/neu.mtx" % d, "w") as f:
    f.write("%%%%MatrixMarket matrix coordinate real symmetric\n%d %d %d\n" % (n, n, 2 * n - 1))
    for i in range(n):
        f.write("%d %d %d\n" % (i + 1, i + 1, 1 if i in (0, n - 1) else 2))
        if i + 1 < n: f.write("%d %d -1\n" % (i + 2, i + 1))
with open("%s/nb.mtx" % d, "w") as f:
    f.write("%%%%MatrixMarket matrix array real general\n%d 1\n" % n)
    for i in range(n): f.write("%r\n" % ((i - (n - 1) / 2.0) / n))
PY
printf '%%%%MatrixMarket matrix coordinate real symmetric\n3 3 3\n1 1 1\n2 2 1e-20\n3 3 1\n' >"$tmp/d.mtx"
json_is() { # FILE PYTHON-EXPR over d: the JSON record
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if ($2) else 1)" "$1"
}
expect() { # RC ARGS...: `sylva ARGS` exits RC (stderr in $tmp/err)
  local want=$1; shift
  "$sylva" "$@" -q 2>"$tmp/err"
  local rc=$?
  checks=$((checks + 1))
  [ "$rc" = "$want" ] || fail "sylva $*: exit $rc, want $want: $(head -3 "$tmp/err")"
}

# singular to working precision by the pivot ratio, computed on the GPU
expect 0 factor "$tmp/d.mtx" --mode gpu --gpus 1 --json "$tmp/d.json"
ok grep -qF "is singular to working precision (pivot ratio" "$tmp/err"
ok json_is "$tmp/d.json" "d['mode'] == 'gpu' and abs(d['pivot_ratio'] - 1e-20) < 1e-30 and d['singular'] is True"
expect 5 factor "$tmp/d.mtx" --mode gpu --gpus 1 --fail-singular

# issue 36's case, singular in exact arithmetic: its last pivot is rounding
# noise, so the GPU's rounding may make it non-positive (it did on an H100:
# column 101). Either it factors, warns (--rcond) and has its pivot ratio,
# or it fails as not positive definite naming a column (exit 3) — never a
# silent answer.
"$sylva" factor "$tmp/neu.mtx" --rhs "$tmp/nb.mtx" --rcond --mode gpu --gpus 1 --json "$tmp/n.json" 2>"$tmp/err"
rc=$?
checks=$((checks + 1))
if [ "$rc" = 0 ]; then
  ok grep -qF "is singular to working precision" "$tmp/err"
  ok json_is "$tmp/n.json" "d['mode'] == 'gpu' and d['pivot_ratio'] is not None and 0 < d['pivot_ratio'] < 1e-10 and d['singular'] is True"
elif [ "$rc" = 3 ]; then
  ok grep -qE "not positive definite: pivot of column [0-9]+ \(1-based\)" "$tmp/err"
else
  fail "neumann1d:200 on the GPU: exit $rc (want 0 with a warning, or 3): $(cat "$tmp/err")"
fi

# well conditioned: a ratio, no warning
"$sylva" factor "$tmp/a.mtx" --mode gpu --gpus 1 --json "$tmp/a.json" -q 2>"$tmp/err"
checks=$((checks + 1))
grep -q "warning" "$tmp/err" && fail "a warning for lap3d7:10: $(cat "$tmp/err")"
ok json_is "$tmp/a.json" "d['pivot_ratio'] is not None and 1e-3 < d['pivot_ratio'] <= 1 and d['singular'] is False"

# traces with device memory counters: tasks, then the direct factorization
for direct in 0 1; do
  SYLVA_FACTOR_DIRECT=$direct "$sylva" factor "$tmp/a.mtx" --mode gpu --gpus 1 -q --trace "$tmp/t$direct.json" \
    --batches "$tmp/b$direct.json" --json "$tmp/r$direct.json" || fail "trace run (direct=$direct)"
  ok python3 "$check" "$tmp/t$direct.json" "$tmp/r$direct.json" "$tmp/b$direct.json"
  ok grep -q '"device memory GPU 0 ' "$tmp/t$direct.json"
done
echo "cli_gpu_report: $checks checks, $fails failures"
[ "$fails" = 0 ]
