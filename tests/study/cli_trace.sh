#!/usr/bin/env bash
# cli_trace.sh SYLVA SYLVA_GEN POLICIES — `sylva factor --trace --batches
# --json` on CPU workers for every registered policy, with batched small
# fronts and with tiled large ones: the trace is a Chrome trace with one
# track per worker and a slice per task, and the measured batches match it
# (check_trace.py); an idle worker still has its track (--threads 3 on a
# one-front matrix); a trace that cannot be written is refused before any
# work (exit 1).
set -u
sylva=$1 gen=$2 policies=$3
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0 checks=0
ok() { checks=$((checks + 1)); if ! "$@"; then echo "FAIL: $*"; fails=$((fails + 1)); fi; }

"$gen" lap3d7 10 -o "$tmp/a.mtx" >/dev/null
for p in ${policies//,/ }; do
  for extra in "" "--small-rows 16 --tile-rows 8"; do
    # shellcheck disable=SC2086
    ok "$sylva" factor "$tmp/a.mtx" --threads 2 --policy "$p" $extra -q --trace "$tmp/t.json" \
      --batches "$tmp/b.json" --json "$tmp/r.json"
    ok python3 "$here/check_trace.py" "$tmp/t.json" "$tmp/r.json" "$tmp/b.json"
  done
done
printf '%%%%MatrixMarket matrix coordinate real symmetric\n1 1 1\n1 1 4\n' > "$tmp/one.mtx"
ok "$sylva" factor "$tmp/one.mtx" --threads 3 -q --trace "$tmp/t1.json" --json "$tmp/r1.json"
ok python3 "$here/check_trace.py" "$tmp/t1.json" "$tmp/r1.json"
"$sylva" factor "$tmp/a.mtx" --trace "$tmp/nodir/t.json" 2>"$tmp/err"
rc=$?
ok test "$rc" = 1
ok grep -q -- "--trace: cannot write" "$tmp/err"
echo "cli_trace: $checks checks, $fails failures"
[ "$fails" = 0 ]
