#!/usr/bin/env bash
# cli_defects.sh SYLVA MATRICES CASE — the command's side of the defects of
# issue 11, one CASE per defect (CTest: defect.NN_cli_*), each failing on
# the command before its fix: a FIFO as input (5), an unwritable --json
# (6; since issue 10 refused up front, exit 1), partial outputs on a full disk and for inaccurate runs (7), numbers
# that do not fit an option (8), a right-hand side of the wrong size (9),
# the default right-hand side for entries near DBL_MAX (10), absurd options
# (11), `--` and /proc files (12). A full disk is a file-size limit
# (ulimit -f) and /dev/full, which need no mount.
set -u
sylva=$1; dir=$2; case=$3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fails=0; checks=0
bcs=$dir/real/bcsstk14.mtx; small=$dir/real/bcsstk01.mtx
fail() { fails=$((fails + 1)); echo "FAIL: $*"; }
# expect CODE PATTERN -- ARGS...: exit code and a part of stdout/stderr.
expect() {
  local code=$1 pat=$2; shift 3
  timeout 60 "$sylva" "$@" >"$tmp/out" 2>"$tmp/err"; local rc=$?
  checks=$((checks + 1))
  if [ "$rc" != "$code" ] || ! grep -qF -- "$pat" "$tmp/err" "$tmp/out"; then
    fail "sylva $* -> exit $rc (want $code), output lacks '$pat':"; cat "$tmp/err"
  fi
}
count_in() { grep -cF -- "$1" "$2"; }

case $case in
fifo) # 5: not a regular file, at once (no writer would ever come)
  mkfifo "$tmp/in.mtx"
  expect 1 "not a regular file (a FIFO)" -- factor "$tmp/in.mtx"
  expect 1 "not a regular file" -- analyze "$tmp/in.mtx"
  expect 1 "not a regular file" -- factor "$small" --rhs "$tmp/in.mtx"
  expect 1 "not a regular file (a directory)" -- factor "$tmp" ;;
json) # 6: an output that cannot be created is refused before any work
  # (exit 1, with the reason); one that fails while written exits 4; a good
  # one is complete
  expect 1 "$tmp/no/such/dir/r.json" -- factor "$small" --json "$tmp/no/such/dir/r.json"
  [ "$(grep -c . "$tmp/err")" = 1 ] || { fail "more than one message:"; cat "$tmp/err"; }
  expect 1 "No such file or directory" -- analyze "$small" --json "$tmp/no/such/dir/r.json"
  expect 1 "r.json" -- analyze "$small" --batches "$tmp/no/such/dir/r.json"
  expect 4 "write error" -- factor "$small" --json /dev/full
  # a failure keeps its own exit code when the JSON cannot be written either
  expect 1 "no-such.mtx" -- factor "$tmp/no-such.mtx" --json /dev/full
  (ulimit -f 0; trap '' XFSZ; exec "$sylva" factor "$bcs" --json "$tmp/limit.json" >"$tmp/out" 2>"$tmp/err"); rc=$?
  checks=$((checks + 1))
  [ "$rc" = 4 ] && [ ! -e "$tmp/limit.json" ] || fail "--json over a file-size limit: exit $rc, file $(ls "$tmp")"
  expect 0 "backward error" -- factor "$small" --json "$tmp/ok.json"
  tail -c 2 "$tmp/ok.json" | grep -q '}' || fail "ok.json is not complete" ;;
output) # 7: -o over a full disk leaves the old file; inaccurate runs write none
  expect 0 "backward error" -- factor "$bcs" -o "$tmp/x.mtx"
  cp "$tmp/x.mtx" "$tmp/x.ref"
  printf 'old\n' >"$tmp/y.mtx"
  (ulimit -f 8; trap '' XFSZ; exec "$sylva" factor "$bcs" -o "$tmp/y.mtx" >"$tmp/out" 2>"$tmp/err"); rc=$?
  checks=$((checks + 1))
  [ "$rc" = 4 ] || { fail "-o over a file-size limit: exit $rc (want 4)"; cat "$tmp/err"; }
  [ "$(cat "$tmp/y.mtx")" = old ] || fail "-o over a file-size limit changed the old file ($(wc -c <"$tmp/y.mtx") bytes)"
  [ "$(ls -A "$tmp" | grep -c sylva)" = 0 ] || fail "a temporary file was left: $(ls -A "$tmp")"
  grep -qF "write error" "$tmp/err" || fail "no write error message: $(cat "$tmp/err")"
  expect 4 "write error" -- factor "$bcs" -o /dev/full
  (ulimit -f 8; trap '' XFSZ; exec "$sylva" factor "$bcs" -o "$tmp/new.mtx" >/dev/null 2>&1); rc=$?
  [ "$rc" = 4 ] && [ ! -e "$tmp/new.mtx" ] || fail "a partial new -o file: exit $rc, $(ls "$tmp")"
  cmp -s "$tmp/x.mtx" "$tmp/x.ref" || fail "x.mtx changed"
  # inaccurate (single precision held to a double bound): exit 4, no -o. (A
  # right-hand side beyond FLT_MAX was the case here until issue 36: it is
  # now scaled, and solved accurately.)
  printf '%%%%MatrixMarket matrix coordinate real symmetric\n2 2 3\n1 1 4\n2 1 1\n2 2 3\n' >"$tmp/d.mtx"
  printf '%%%%MatrixMarket matrix array real general\n2 1\n1e39\n1\n' >"$tmp/b.mtx"
  expect 0 "backward error" -- factor "$tmp/d.mtx" --precision single --rhs "$tmp/b.mtx"
  expect 4 "exceeds" -- factor "$tmp/d.mtx" --precision single --rhs "$tmp/b.mtx" --max-backward-error 1e-15 -o "$tmp/ill_x.mtx" --json "$tmp/ill.json"
  [ ! -e "$tmp/ill_x.mtx" ] || fail "an inaccurate solution was written"
  grep -q '"status": "inaccurate"' "$tmp/ill.json" || fail "JSON status of the inaccurate run" ;;
integers) # 8: numbers that do not fit are usage errors
  for v in 2147483648 4294967297 -1 0 1e3 12x ""; do
    expect 2 "--threads needs an integer" -- factor "$small" --threads "$v"
  done
  for v in 2147483648 9223372036854775808 0; do expect 2 "--repeat needs an integer" -- factor "$small" --repeat "$v"; done
  for v in 2147483648 -1; do expect 2 "--small-rows" -- factor "$small" --small-rows "$v"; done
  for v in 2147483648 -1; do expect 2 "--tile-rows" -- factor "$small" --tile-rows "$v"; done
  for v in 4097 -1; do expect 2 "--gpus" -- factor "$small" --gpus "$v"; done
  expect 0 "backward error" -- factor "$small" --threads 1 --repeat 2 ;;
rhs) # 9: one message, naming both sizes, also in the JSON
  printf '%%%%MatrixMarket matrix array real general\n3 1\n1\n2\n3\n' >"$tmp/b3.mtx"
  expect 1 "the right-hand side has 3 rows, the matrix" -- factor "$small" --rhs "$tmp/b3.mtx" --json "$tmp/r.json"
  [ "$(grep -c . "$tmp/err")" = 1 ] || { fail "more than one message:"; cat "$tmp/err"; }
  grep -q '"message": ".*3 rows' "$tmp/r.json" || { fail "JSON message:"; cat "$tmp/r.json"; } ;;
default_rhs) # 10: b = A·1 overflows: scaled, said, and the backward error is a number
  printf '%%%%MatrixMarket matrix coordinate real symmetric\n3 3 5\n1 1 1.5e308\n2 1 6e307\n2 2 1.5e308\n3 2 6e307\n3 3 1.5e308\n' >"$tmp/big.mtx"
  expect 0 "backward error" -- factor "$tmp/big.mtx" --json "$tmp/big.json"
  grep -qF "overflows" "$tmp/err" || fail "the scaling is not said: $(cat "$tmp/err")"
  grep -qE 'backward error [0-9]' "$tmp/out" || fail "backward error is not a number: $(cat "$tmp/out")"
  grep -q '"backward_error": null' "$tmp/big.json" && fail "JSON backward_error is null" ;;
options) # 11: absurd options are refused with the option and its range
  for v in nan inf -inf "" -1 1e400 1x; do
    expect 2 "--batch-flops needs a finite number" -- factor "$small" --batch-flops "$v"
  done
  t0=$(date +%s)
  expect 1 "tile_rows = 1" -- factor "$bcs" --tile-rows 1 --small-rows 1
  [ $(( $(date +%s) - t0 )) -le 10 ] || fail "refusing --tile-rows 1 took over 10 s"
  expect 0 "backward error" -- factor "$bcs" --tile-rows 8 --small-rows 16 ;;
messages) # 12: `--` ends the options; /proc files are read
  cp "$small" "$tmp/-x.mtx"
  cd "$tmp" && expect 0 "backward error" -- factor -- -x.mtx && cd - >/dev/null
  expect 2 "unexpected argument" -- factor -- "$small" "$small"
  expect 1 "bad banner" -- factor /proc/self/status ;;
*) echo "unknown case $case"; exit 2 ;;
esac
echo "$case: $checks runs, $fails failures"
[ "$fails" = 0 ]
