#!/usr/bin/env bash
# cli_exit_codes.sh SYLVA MATRICES_DIR POLICIES — the `sylva` command's exit
# codes and messages: every file of the bad-input corpus
# (matrices/bad/EXPECTED.tsv: file, status, line, message part) exits 1 with
# "FILE:LINE: ..." on stderr; a not-positive-definite matrix exits 3 naming
# the column; a pattern file cannot be factored (exit 1); usage errors exit
# 2; --json is written on failure too, with the status name. POLICIES: the
# registered policies (from batching/policies.c), comma-separated.
set -u
sylva=$1; dir=$2; policies=${3//,/ }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fails=0; checks=0
expect() { # expect CODE PATTERN -- ARGS...
  local code=$1 pat=$2; shift 3
  "$sylva" "$@" >"$tmp/out" 2>"$tmp/err"; local rc=$?
  checks=$((checks + 1))
  if [ "$rc" != "$code" ] || ! grep -qF -- "$pat" "$tmp/err" "$tmp/out"; then
    fails=$((fails + 1))
    echo "FAIL: sylva $* -> exit $rc (want $code), output lacks '$pat':"; cat "$tmp/err"
  fi
}
code_of() { case $1 in not_spd) echo 3;; no_memory|runtime|ordering) echo 4;; *) echo 1;; esac; }

# The bad-input corpus.
while IFS=$'\t' read -r file status line part; do
  case $file in ""|"#"*) continue;; esac
  want="$file"; [ "$line" -gt 0 ] 2>/dev/null && want="$file:$line:"
  expect "$(code_of "$status")" "$want" -- factor "$dir/bad/$file"
  expect "$(code_of "$status")" "$part" -- factor "$dir/bad/$file"
done < "$dir/bad/EXPECTED.tsv"

# Not positive definite: exit 3, the column, and the JSON status
# (matrices/edge/README.md says which column fails in natural order).
while read -r file column; do
  expect 3 "column $column" -- factor "$dir/edge/$file" --ordering natural --json "$tmp/j.json"
  grep -q '"status": "not_spd"' "$tmp/j.json" || { fails=$((fails + 1)); echo "FAIL: JSON status"; cat "$tmp/j.json"; }
  grep -q "\"failed_column\": $column" "$tmp/j.json" || { fails=$((fails + 1)); echo "FAIL: JSON column"; }
done <<'LIST'
not_spd.mtx 2
no_entries.mtx 1
LIST

# A pattern file can be analyzed but not factored.
expect 0 "nnz(L)" -- analyze "$dir/real/jagmesh7.mtx"
expect 1 "pattern" -- factor "$dir/real/jagmesh7.mtx"
# Missing file.
expect 1 "no-such-file.mtx" -- factor "$tmp/no-such-file.mtx"
# Usage.
expect 2 "unknown command" -- frobnicate x.mtx
expect 2 "unknown option" -- factor "$dir/real/bcsstk01.mtx" --frob
expect 2 "unknown policy 'frob' (${3//,/, })" -- factor "$dir/real/bcsstk01.mtx" --policy frob
for pol in $policies; do expect 0 "  $pol " -- --help; done
expect 2 "unknown precision" -- factor "$dir/real/bcsstk01.mtx" --precision half
expect 2 "unknown GPU mapping 'frob' (subtrees, scheduler)" -- factor "$dir/real/bcsstk01.mtx" --gpu-map frob
expect 2 "--gpu-tile-rows needs an integer in -1..2147483647, not '-2'" -- factor "$dir/real/bcsstk01.mtx" --gpu-tile-rows -2
expect 0 "nnz(L)" -- factor "$dir/real/bcsstk14.mtx" --gpu-tile-rows 64 --json "$tmp/gtr.json"
grep -q '"gpu_tile_rows": 64' "$tmp/gtr.json" || { fails=$((fails + 1)); echo "FAIL: JSON gpu_tile_rows"; }
expect 0 "float32" -- factor "$dir/real/bcsstk14.mtx" --precision single --json "$tmp/single.json"
grep -q '"precision": "float32"' "$tmp/single.json" || { fails=$((fails + 1)); echo "FAIL: JSON precision"; }
expect 2 "unknown ordering" -- factor "$dir/real/bcsstk01.mtx" --ordering frob
expect 2 "--threads" -- factor "$dir/real/bcsstk01.mtx" --threads 0
expect 2 "missing FILE" -- factor
expect 2 "needs a value" -- factor "$dir/real/bcsstk01.mtx" --json
expect 0 "usage" -- --help
expect 0 "sylva " -- --version
# A good run: exit 0, backward error printed, JSON with the required keys.
expect 0 "backward error" -- factor "$dir/real/bcsstk14.mtx" --json "$tmp/ok.json" -o "$tmp/x.mtx"
for k in status n nnz_A nnz_L flops fronts tasks policy ordering precision seconds read analyze factorize solve gflops backward_error; do
  grep -q "\"$k\"" "$tmp/ok.json" || { fails=$((fails + 1)); echo "FAIL: JSON lacks $k"; }
done
grep -q '"status": "ok"' "$tmp/ok.json" || { fails=$((fails + 1)); echo "FAIL: JSON status ok"; }
# Policy study output: one JSON row per batch, as many as the plan has.
for pol in $policies; do
  expect 0 "policy $pol" -- analyze "$dir/real/wathenSmall.mtx" --policy $pol --batches "$tmp/b.json" --json "$tmp/a.json"
  rows=$(grep -c '"batch":' "$tmp/b.json"); want=$(sed -n 's/.*"batches": \([0-9]*\).*/\1/p' "$tmp/a.json")
  [ "$rows" = "$want" ] && [ "$rows" -gt 0 ] || { fails=$((fails + 1)); echo "FAIL: $pol: $rows batch rows, plan says $want"; }
done
# The written solution reads back as the right-hand side's shape.
expect 0 "backward error" -- factor "$dir/real/bcsstk14.mtx" --rhs "$tmp/x.mtx"

echo "$((checks - fails)) passed, $fails failed"
[ "$fails" = 0 ]
