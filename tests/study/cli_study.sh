#!/usr/bin/env bash
# cli_study.sh SYLVA SYLVA_GEN MATRICES POLICIES — `sylva study` on CPU
# workers: every registered policy on a generated 3D problem (study.json
# with the first factorization apart, each run's spread and best starred
# only beyond it,
# schema-checked, each run's trace checked, study.html's SVG well-formed
# with a bar per run and the tree: check_study.py); --thresholds with
# --policies; the usage errors of its options; an indefinite matrix (every
# run fails, exit 3, the JSON and the report still written); a folder that
# cannot be made (exit 1, before any work).
set -u
sylva=$1 gen=$2 mats=$3 policies=$4
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0 checks=0
ok() { checks=$((checks + 1)); if ! "$@"; then echo "FAIL: $*"; fails=$((fails + 1)); fi; }
code() { local want=$1; shift; "$@" >"$tmp/out" 2>"$tmp/err"; local rc=$?; checks=$((checks + 1))
  if [ "$rc" != "$want" ]; then echo "FAIL: exit $rc, want $want: $*"; cat "$tmp/err"; fails=$((fails + 1)); fi; }

"$gen" lap3d7 12 -o "$tmp/a.mtx" >/dev/null
code 0 "$sylva" study "$tmp/a.mtx" --threads 2 --repeat 3 -o "$tmp/all" -q
ok python3 "$here/check_study.py" "$tmp/all" "$policies"

code 0 "$sylva" study "$tmp/a.mtx" --threads 2 --policies level,ready --thresholds -o "$tmp/thr"
ok python3 "$here/check_study.py" "$tmp/thr" level,ready --thresholds
ok grep -q "ready small=" "$tmp/out"
# The verdict line, and --repeat's default for a study (5: a spread to compare leads with).
ok grep -qE "^  (best|no best): " "$tmp/out"
ok python3 -c "import json,sys; sys.exit(json.load(open(sys.argv[1]))['options']['repeat'] != 5)" "$tmp/thr/study.json"
# One repetition: no spread, so no best, whatever the times.
code 0 "$sylva" study "$tmp/a.mtx" --threads 2 --policies none,level --repeat 1 -o "$tmp/one"
ok python3 "$here/check_study.py" "$tmp/one" none,level
ok grep -q "no best: .* fewer than 2 refactorizations" "$tmp/out"

# Usage errors: exit 2, naming the option.
code 2 "$sylva" study "$tmp/a.mtx" --policies level,bogus
ok grep -q "unknown policy 'bogus'" "$tmp/err"
code 2 "$sylva" study "$tmp/a.mtx" --policies level,level
ok grep -q "listed twice" "$tmp/err"
code 2 "$sylva" study "$tmp/a.mtx" --policies ,
code 2 "$sylva" study "$tmp/a.mtx" --rhs x.mtx
ok grep -q "does not apply to 'study'" "$tmp/err"
code 2 "$sylva" factor "$tmp/a.mtx" --thresholds
code 2 "$sylva" study "$tmp/a.mtx" --repeat 0
code 0 "$sylva" help study
ok grep -q -- "--policies" "$tmp/out"

# The folder: made when missing, refused when it cannot be.
code 1 "$sylva" study "$tmp/a.mtx" -o "$tmp/no/such/dir"
ok grep -q "cannot make folder" "$tmp/err"
: > "$tmp/file"
code 1 "$sylva" study "$tmp/a.mtx" -o "$tmp/file"

# Not positive definite: every run fails with the column, exit 3, outputs written.
code 3 "$sylva" study "$mats/edge/not_spd.mtx" --policies none,ready -o "$tmp/bad"
ok python3 - "$tmp/bad/study.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
assert s["status"] == "not_spd", s["status"]
assert [r["status"] for r in s["runs"]] == ["not_spd", "not_spd"], s["runs"]
assert all("column" in r["message"] for r in s["runs"]), s["runs"]
assert s["best"] is None
PY
ok test -s "$tmp/bad/study.html"

echo "cli_study: $checks checks, $fails failures"
[ "$fails" = 0 ]
