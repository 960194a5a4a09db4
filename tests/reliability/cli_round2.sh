#!/usr/bin/env bash
# cli_round2.sh SYLVA MATRICES CASE — the command's side of the defects of
# issue 36 (reliability, second round), one CASE per defect (CTest:
# defect2.NN_cli_*), each failing on the command before its fix: outputs
# that are the process's own streams (1; with issue 37's `-` as standard
# output).
set -u
sylva=$1; dir=$2; case=$3
. "$(dirname "$0")/../cli_expect.sh" # $tmp, fail, expect
small=$dir/real/bcsstk01.mtx
json_ok() { python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$1" 2>/dev/null; }

case $case in
streams) # 1: a path that is a standard stream is written in place, appended to
  # when opened for appending; `-` is standard output (the summary then on
  # standard error), and two outputs on it are refused
  cd "$tmp" || exit 2
  echo "earlier line" >log.txt
  "$sylva" factor "$small" -o /dev/stdout >>log.txt 2>err.txt; rc=$?; checks=$((checks + 1))
  [ "$rc" = 0 ] && [ "$(head -1 log.txt)" = "earlier line" ] && grep -q "^%%MatrixMarket matrix array" log.txt &&
    grep -q "backward error" log.txt || { fail "-o /dev/stdout >> log.txt: exit $rc, log.txt:"; head -3 log.txt; cat err.txt; }
  echo "earlier error" >err.log
  "$sylva" factor "$small" --json /dev/stderr 2>>err.log >out.txt; rc=$?; checks=$((checks + 1))
  [ "$rc" = 0 ] && [ "$(head -1 err.log)" = "earlier error" ] && tail -n +2 err.log >e.json && json_ok e.json ||
    { fail "--json /dev/stderr 2>> err.log: exit $rc, err.log:"; head -3 err.log; }
  echo "fd three" >fd3.txt
  "$sylva" factor "$small" -o /dev/fd/3 -q 3>>fd3.txt; rc=$?; checks=$((checks + 1))
  [ "$rc" = 0 ] && [ "$(head -1 fd3.txt)" = "fd three" ] && [ "$(sed -n 2p fd3.txt)" = "%%MatrixMarket matrix array real general" ] ||
    { fail "-o /dev/fd/3 3>> fd3.txt: exit $rc"; head -3 fd3.txt; }
  echo "linked" >target.txt; ln -s target.txt link.txt
  "$sylva" factor "$small" -o link.txt -q >>target.txt; rc=$?; checks=$((checks + 1))
  [ "$rc" = 0 ] && [ -L link.txt ] && [ "$(head -1 target.txt)" = linked ] && grep -q "^48 1" target.txt ||
    { fail "-o LINK to the file standard output appends to: exit $rc"; ls -l; head -3 target.txt; }
  # a link elsewhere is still replaced through (atomic, the link kept)
  echo "old" >other.txt; ln -s other.txt olink.txt
  expect 0 "backward error" -- factor "$small" -o olink.txt
  [ -L olink.txt ] && [ "$(head -1 other.txt)" = "%%MatrixMarket matrix array real general" ] || fail "-o LINK: $(ls -l)"
  # `-`: standard output; the summary goes to standard error
  "$sylva" factor "$small" -o - >sol.mtx 2>err.txt; rc=$?; checks=$((checks + 1))
  [ "$rc" = 0 ] && [ ! -e ./- ] && [ "$(head -1 sol.mtx)" = "%%MatrixMarket matrix array real general" ] &&
    [ "$(wc -l <sol.mtx)" = 50 ] && grep -q "backward error" err.txt ||
    { fail "-o -: exit $rc, files $(ls), stdout:"; head -3 sol.mtx; cat err.txt; }
  "$sylva" factor "$small" --json - >r.json 2>err.txt; rc=$?; checks=$((checks + 1))
  [ "$rc" = 0 ] && [ ! -e ./- ] && json_ok r.json && grep -q "backward error" err.txt ||
    { fail "--json -: exit $rc"; head -3 r.json; }
  "$sylva" analyze "$small" --json - >a.json 2>err.txt; rc=$?; checks=$((checks + 1))
  [ "$rc" = 0 ] && json_ok a.json && grep -q "nnz(L)" err.txt || fail "analyze --json -: exit $rc"
  "$sylva" analyze "$small" --save - >a.sya 2>/dev/null && "$sylva" factor "$small" --analysis a.sya -q; rc=$?
  checks=$((checks + 1)); [ "$rc" = 0 ] || fail "analyze --save - then --analysis: exit $rc"
  expect 2 "-o and --json both write to standard output" -- factor "$small" -o - --json -
  expect 2 "--json and --batches both write to standard output" -- analyze "$small" --json - --batches -
  expect 2 "a study writes a folder" -- study "$small" -o -
  expect 2 "FILE and --rhs are both standard input" -- factor - --rhs - <"$small"
  [ ! -e ./- ] || fail "a file named - was created"
  # standard output closed: refused before the work
  "$sylva" factor "$small" -o - >&- 2>err.txt; rc=$?; checks=$((checks + 1))
  [ "$rc" = 1 ] && grep -q "standard output is not open for writing" err.txt || { fail "-o - with stdout closed: exit $rc"; cat err.txt; }
  cd - >/dev/null ;;
*) echo "unknown case $case"; exit 2 ;;
esac
echo "$case: $checks checks, $fails failures"
[ "$fails" = 0 ]
