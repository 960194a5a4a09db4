#!/usr/bin/env bash
# cli_round2.sh SYLVA MATRICES CASE — the command's side of the defects of
# issue 36 (reliability, second round), one CASE per defect (CTest:
# defect2.NN_cli_*), each failing on the command before its fix: outputs
# that are the process's own streams (1; with issue 37's `-` as standard
# output), --perm and --analysis taking what the other readers refuse (2),
# SIGINT, SIGTERM or SIGHUP during a write leaving the temporary (4; the
# library's side is test_round2 signals), numerically singular matrices
# passing without a word (6), single precision blaming the matrix (7), an
# output over the input or over another output (8), a name too long for
# the file system found only after the run (9), control bytes of input
# files reaching the terminal through messages (10), file names that are
# not UTF-8 making the JSON invalid (11), a memory budget blind to the
# process's own cgroup (v1, v2) and RLIMIT_DATA (12), forged saved analyses
# with a valid checksum refused without naming the file or the field (13);
# and `sylva study` under mpirun running once per rank (study_mpirun).
set -u
sylva=$1; dir=$2; case=$3
. "$(dirname "$0")/../cli_expect.sh" # $tmp, fail, expect
small=$dir/real/bcsstk01.mtx
# expect as cli_expect.sh's, under a time limit: a hang is a failure
expect() {
  local code=$1 pat=$2; shift 3
  timeout 30 "$sylva" "$@" >"$tmp/out" 2>"$tmp/err"; local rc=$?
  checks=$((checks + 1))
  if [ "$rc" != "$code" ] || ! grep -qF -- "$pat" "$tmp/err" "$tmp/out"; then
    fail "sylva $* -> exit $rc (want $code), output lacks '$pat':"; cat "$tmp/out" "$tmp/err"
  fi
}
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
inputs) # 2: --perm and --analysis read regular files only (a FIFO must not
  # hang, /dev/zero must not fill memory), within the memory budget
  mkfifo "$tmp/fifo"
  for opt in --perm --analysis; do
    t0=$(date +%s)
    expect 1 "$tmp/fifo: not a regular file (a FIFO)" -- factor "$small" $opt "$tmp/fifo"
    expect 1 "/dev/zero: not a regular file (a character device)" -- factor "$small" $opt /dev/zero
    [ $(( $(date +%s) - t0 )) -le 5 ] || fail "$opt: refusing a FIFO and /dev/zero took over 5 s"
  done
  # standard input stays allowed for --perm; a stream of zero bytes is one
  # token, refused at once and quoted
  head -c 50000000 /dev/zero | timeout 20 "$sylva" factor "$small" --perm - >"$tmp/out" 2>"$tmp/err"; rc=$?
  checks=$((checks + 1))
  [ "$rc" = 1 ] && grep -qF -- "-:1: '\x00\x00" "$tmp/err" || { fail "--perm - from /dev/zero: exit $rc"; head -c 300 "$tmp/err"; }
  seq 1 48 | "$sylva" factor "$small" --perm - -q; rc=$?; checks=$((checks + 1))
  [ "$rc" = 0 ] || fail "--perm - from a pipe: exit $rc"
  # an analysis file larger than the budget is refused before it is read
  python3 - "$tmp/big.sya" <<'PY'
import struct, sys
n = 12_000_000
hdr = b"SYLVAANL" + struct.pack("<iiqqQqqqddd", 1, 0, n, 100, 0, 0, 0, 0, 0, 0, 0)
with open(sys.argv[1], "wb") as f:
    f.write(hdr)
    f.truncate(len(hdr) + 8 * n + 8)
PY
  SYLVA_MEMORY_LIMIT=50M expect 4 "the analysis file needs" -- factor "$small" --analysis "$tmp/big.sya" ;;
signals) # 4: a signal during -o's write removes the temporary; the process
  # ends by the signal and no partial output is left. The command starts
  # with every signal's default action (a background job of a script has
  # SIGINT ignored).
  gen=$4
  "$gen" lap3d7 30 -o "$tmp/big.mtx" >/dev/null
  cd "$tmp" || exit 2
  for sig in INT TERM HUP; do
    rm -f x.mtx .x.mtx.sylva-*
    python3 -c 'import os, signal, sys
for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP): signal.signal(s, signal.SIG_DFL)
os.execv(sys.argv[1], sys.argv[1:])' "$sylva" factor big.mtx --nrhs 64 -o x.mtx -q &
    pid=$!
    seen=0
    for _ in $(seq 1 5000); do ls -A | grep -q '^\.x\.mtx\.sylva-' && { seen=1; break; }; sleep 0.002; done
    kill -"$sig" "$pid"; wait "$pid"; rc=$?; checks=$((checks + 1))
    [ "$seen" = 1 ] || fail "SIG$sig: no temporary was seen (the write was too fast to interrupt)"
    [ "$rc" = $((128 + $(kill -l "$sig"))) ] || fail "SIG$sig during the write: exit $rc"
    left=$(ls -A | grep -c '^\.x\.mtx\.sylva-')
    [ "$left" = 0 ] || fail "SIG$sig during the write left $left temporary file(s)"
    [ ! -e x.mtx ] || fail "SIG$sig during the write left a partial x.mtx"
  done
  cd - >/dev/null ;;
singular) # 6: the pivot ratio in the summary and the JSON; a warning below
  # epsilon (pivot ratio, or --rcond); --fail-singular makes it exit 5
  printf '%%%%MatrixMarket matrix coordinate real symmetric\n3 3 3\n1 1 1\n2 2 1e-20\n3 3 1\n' >"$tmp/d.mtx"
  expect 0 "pivot ratio 1.000e-20" -- factor "$tmp/d.mtx" --json "$tmp/d.json"
  grep -qF "warning: $tmp/d.mtx is singular to working precision (pivot ratio" "$tmp/err" || fail "no warning: $(cat "$tmp/err")"
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(not (abs(d['pivot_ratio'] - 1e-20) < 1e-30 and d['singular'] is True and d['status'] == 'ok'))" "$tmp/d.json" ||
    fail "JSON pivot_ratio/singular: $(grep -E 'pivot|singular|status' "$tmp/d.json")"
  expect 5 "numerically singular (--fail-singular); the solution is not written" -- factor "$tmp/d.mtx" --fail-singular -o "$tmp/x.mtx" --json "$tmp/f.json"
  [ ! -e "$tmp/x.mtx" ] || fail "--fail-singular wrote -o"
  grep -q '"status": "singular"' "$tmp/f.json" || fail "JSON status under --fail-singular: $(grep status "$tmp/f.json")"
  # the singular Neumann Laplacian: rounding makes it factor; --rcond sees it
  python3 - "$tmp/neu.mtx" "$tmp/nb.mtx" <<'PY'
import sys
n = 200
with open(sys.argv[1], "w") as f:
    f.write("%%%%MatrixMarket matrix coordinate real symmetric\n%d %d %d\n" % (n, n, 2 * n - 1))
    for i in range(n):
        f.write("%d %d %d\n" % (i + 1, i + 1, 1 if i in (0, n - 1) else 2))
        if i + 1 < n: f.write("%d %d -1\n" % (i + 2, i + 1))
with open(sys.argv[2], "w") as f:
    f.write("%%%%MatrixMarket matrix array real general\n%d 1\n" % n)
    for i in range(n): f.write("%r\n" % ((i - (n - 1) / 2.0) / n))
PY
  expect 0 "(rcond" -- factor "$tmp/neu.mtx" --rhs "$tmp/nb.mtx" --rcond
  grep -qF "singular to working precision" "$tmp/err" || fail "Neumann --rcond: no warning"
  expect 5 "numerically singular" -- factor "$tmp/neu.mtx" --rhs "$tmp/nb.mtx" --rcond --fail-singular
  # a well-conditioned matrix: no warning, --fail-singular passes
  expect 0 "pivot ratio" -- factor "$small" --fail-singular
  grep -q "warning" "$tmp/err" && fail "a warning for bcsstk01: $(cat "$tmp/err")" ;;
single) # 7: an SPD matrix that rounding to float makes indefinite: said so,
  # with the way out; in double it factors
  printf '%%%%MatrixMarket matrix coordinate real symmetric\n2 2 3\n1 1 1\n2 1 0.99999999\n2 2 1\n' >"$tmp/f.mtx"
  expect 0 "backward error" -- factor "$tmp/f.mtx"
  expect 3 "$tmp/f.mtx is not positive definite in single precision (column 2" -- factor "$tmp/f.mtx" --precision single
  grep -qF "try --precision double" "$tmp/err" || fail "no --precision double hint: $(cat "$tmp/err")"
  grep -qF "Likely causes: the matrix is indefinite" "$tmp/err" && fail "single precision still blames the matrix" ;;
overlap) # 8: an output naming an input, or two outputs one file: refused
  # before any work (exit 1), the input untouched
  cp "$small" "$tmp/m.mtx"; cp "$small" "$tmp/keep.mtx"
  printf '%%%%MatrixMarket matrix array real general\n48 1\n' >"$tmp/b.mtx"; seq 1 48 >>"$tmp/b.mtx"
  expect 1 "-o $tmp/m.mtx is the matrix $tmp/m.mtx" -- factor "$tmp/m.mtx" -o "$tmp/m.mtx"
  expect 1 "--json $tmp/./m.mtx is the matrix" -- factor "$tmp/m.mtx" --json "$tmp/./m.mtx"
  expect 1 "--save $tmp/m.mtx is the matrix" -- analyze "$tmp/m.mtx" --save "$tmp/m.mtx"
  expect 1 "--json $tmp/m.mtx is the matrix" -- analyze "$tmp/m.mtx" --json "$tmp/m.mtx"
  expect 1 "-o $tmp/b.mtx is --rhs" -- factor "$tmp/m.mtx" --rhs "$tmp/b.mtx" -o "$tmp/b.mtx"
  expect 1 "--save $tmp/m.mtx is the matrix" -- study "$tmp/m.mtx" --save "$tmp/m.mtx" -o "$tmp/st"
  cmp -s "$tmp/m.mtx" "$tmp/keep.mtx" || fail "the input matrix was changed"
  expect 1 "-o $tmp/X and --json $tmp/X are the same file" -- factor "$tmp/m.mtx" -o "$tmp/X" --json "$tmp/X"
  [ ! -e "$tmp/X" ] || fail "-o X --json X wrote X"
  ln -s m.mtx "$tmp/link.mtx"
  expect 1 "is the matrix" -- factor "$tmp/m.mtx" -o "$tmp/link.mtx"
  cmp -s "$tmp/m.mtx" "$tmp/keep.mtx" || fail "the input matrix was changed through a link"
  # devices may be shared
  expect 0 "backward error" -- factor "$tmp/m.mtx" -o /dev/null --json /dev/null ;;
long_name) # 9: refused before the work (exit 1), for every output
  long=$(printf 'x%.0s' $(seq 1 300))
  for opt in -o --json --batches --save; do
    expect 1 "the name has 300 bytes, more than the" -- factor "$small" $opt "$tmp/$long"
  done
  expect 1 "the name has 300 bytes" -- analyze "$small" --json "$tmp/$long"
  expect 0 "backward error" -- factor "$small" -o "$tmp/$(printf 'y%.0s' $(seq 1 255))" ;;
controls) # 10: every message escapes control bytes (\x1b), whatever
  # part of a file they come from
  esc=$(printf '\033')
  printf '%%%%MatrixMarket matrix coordinate real \033]0;pwned\007\n1 1 1\n1 1 1\n' >"$tmp/banner.mtx"
  printf '%%%%MatrixMarket matrix coordinate real symmetric\n1 1 1\n1 1 \033[2J\n' >"$tmp/value.mtx"
  printf '%%%%MatrixMarket matrix array real general\n48 1\n\033[2J\n' >"$tmp/rhs.mtx"
  { seq 1 47; printf '\033[2J\n'; } >"$tmp/perm.txt"
  cp "$small" "$tmp/name$(printf '\033')[2J.mtx"
  for args in "factor $tmp/banner.mtx" "factor $tmp/value.mtx" "factor $small --rhs $tmp/rhs.mtx" \
              "factor $small --perm $tmp/perm.txt" "analyze $tmp/banner.mtx --json $tmp/j.json"; do
    # shellcheck disable=SC2086
    expect 1 '\x1b' -- $args
    grep -q "$esc" "$tmp/err" "$tmp/out" && fail "sylva $args: a raw ESC reached the terminal: $(cat -v "$tmp/err")"
  done
  expect 1 '\x1b' -- factor "$tmp/name${esc}[2J.mtx" --rhs "$tmp/rhs.mtx"
  grep -q "$esc" "$tmp/err" && fail "a file name's ESC reached the terminal: $(cat -v "$tmp/err")"
  python3 -c "import json,sys; m=json.load(open(sys.argv[1]))['message']; sys.exit('\x1b' in m)" "$tmp/j.json" ||
    fail "the JSON message holds a raw ESC" ;;
utf8) # 11: --json and study.json stay valid (strict UTF-8) JSON; invalid
  # bytes as \u00XX, valid UTF-8 as it is
  name="$tmp/n$(printf '\377\300')é.mtx"
  cp "$small" "$name"
  strict() { python3 -c "import json,sys; d=json.loads(open(sys.argv[1],'rb').read().decode('utf-8')); print(d['file'])" "$1"; }
  expect 0 "backward error" -- factor "$name" --json "$tmp/f.json"
  [ "$(strict "$tmp/f.json")" = "$tmp/n$(printf '\303\277\303\200')é.mtx" ] || fail "factor --json: $(strict "$tmp/f.json" 2>&1 | tail -1)"
  expect 0 "nnz(L)" -- analyze "$name" --json "$tmp/a.json"
  strict "$tmp/a.json" >/dev/null || fail "analyze --json is not valid UTF-8 JSON"
  expect 1 "cannot open" -- factor "$name" --rhs "$name.missing" --json "$tmp/e.json"
  python3 -c "import json,sys; d=json.loads(open(sys.argv[1],'rb').read().decode('utf-8')); sys.exit('missing' not in d['message'])" "$tmp/e.json" ||
    fail "a failure's JSON message is not valid UTF-8 JSON"
  expect 0 "subtree" -- study "$name" --policies subtree --repeat 1 -o "$tmp/st"
  python3 -c "import json,sys; json.loads(open(sys.argv[1],'rb').read().decode('utf-8'))" "$tmp/st/study.json" ||
    fail "study.json is not valid UTF-8 JSON" ;;
budget) # 12: the budget (here met by a saved analysis larger than it)
  # follows the process's own cgroup, v1 and v2, with its ancestors, and
  # RLIMIT_DATA. The cgroup files are a fake tree (SYLVA__TEST_ROOT).
  sya() { python3 - "$1" "$2" <<'PY'
import struct, sys
n = int(sys.argv[2])
hdr = b"SYLVAANL" + struct.pack("<iiqqQqqqddd", 1, 0, n, 100, 0, 0, 0, 0, 0, 0, 0)
with open(sys.argv[1], "wb") as f:
    f.write(hdr)
    f.truncate(len(hdr) + 8 * n + 8)
PY
  }
  sya "$tmp/a.sya" 25000000 # 200 MB, sparse
  f=$tmp/v1; mkdir -p "$f/proc/self" "$f/sys/fs/cgroup/memory/grp/sub"
  printf '4:memory:/grp/sub\n0::/\n' >"$f/proc/self/cgroup"
  printf '35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n' >"$f/proc/self/mountinfo"
  echo 150000000 >"$f/sys/fs/cgroup/memory/grp/memory.limit_in_bytes"
  echo 100000000 >"$f/sys/fs/cgroup/memory/grp/memory.usage_in_bytes"
  echo 9223372036854771712 >"$f/sys/fs/cgroup/memory/grp/sub/memory.limit_in_bytes"
  echo 50000000 >"$f/sys/fs/cgroup/memory/grp/sub/memory.usage_in_bytes"
  SYLVA__TEST_ROOT=$f expect 4 "the analysis file needs 0.2 GB, 0.05 GB are available" -- analyze "$small" --analysis "$tmp/a.sya"
  f=$tmp/v2; mkdir -p "$f/proc/self" "$f/sys/fs/cgroup/a/b"
  printf '0::/a/b\n' >"$f/proc/self/cgroup"
  printf '30 23 0:26 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw\n' >"$f/proc/self/mountinfo"
  echo max >"$f/sys/fs/cgroup/a/b/memory.max"; echo 1000 >"$f/sys/fs/cgroup/a/b/memory.current"
  echo 130000000 >"$f/sys/fs/cgroup/a/memory.max"; echo 100000000 >"$f/sys/fs/cgroup/a/memory.current"
  SYLVA__TEST_ROOT=$f expect 4 "the analysis file needs 0.2 GB, 0.03 GB are available" -- analyze "$small" --analysis "$tmp/a.sya"
  # RLIMIT_DATA: a 2 GB analysis under a 1.5 GB data limit (not under
  # AddressSanitizer, whose shadow memory cannot be mapped under it)
  if ldd "$sylva" 2>/dev/null | grep -q libasan; then echo "budget: RLIMIT_DATA part skipped (ASan build)"; exit $((fails > 0)); fi
  sya "$tmp/b.sya" 260000000
  (ulimit -d 1500000; exec "$sylva" analyze "$small" --analysis "$tmp/b.sya") >"$tmp/out" 2>"$tmp/err"; rc=$?
  checks=$((checks + 1))
  [ "$rc" = 4 ] && grep -q "the analysis file needs 2.08 GB, 1\.[0-9]* GB are available" "$tmp/err" ||
    { fail "RLIMIT_DATA: exit $rc"; cat "$tmp/err"; } ;;
forged) # 13: each forged field named with the file and its exact value
  expect 0 "nnz(L)" -- analyze "$small" --save "$tmp/ok.sya"
  forge() { python3 - "$tmp/ok.sya" "$tmp/$1.sya" "$2" <<'PY'
import struct, sys
src = open(sys.argv[1], "rb").read()
h = list(struct.unpack("<8siiqqQ3q3d", src[:88])); n = h[3]
perm = list(struct.unpack("<%dq" % n, src[88:88 + 8 * n]))
exec(sys.argv[3])  # edits h (fields) or perm
def fnv(x, data):
    for b in data: x = ((x ^ b) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return x
hb = struct.pack("<8siiqqQ3q3d", *h); pb = struct.pack("<%dq" % len(perm), *perm)
open(sys.argv[2], "wb").write(hb + pb + struct.pack("<Q", fnv(fnv(14695981039346656037, hb), pb)))
PY
  }
  forge zrelax 'h[11] = 1.0000001'
  expect 1 "$tmp/zrelax.sya: corrupted: field zrelax[2] = 1.0000001 is out of range 0..1" -- factor "$small" --analysis "$tmp/zrelax.sya"
  forge repeat 'perm[5] = perm[4]'
  expect 1 "$tmp/repeat.sya: corrupted: field perm[5] =" -- factor "$small" --analysis "$tmp/repeat.sya"
  grep -q "user permutation" "$tmp/err" && fail "the message speaks of a user permutation"
  forge range 'perm[0] = 48'
  expect 1 "$tmp/range.sya: corrupted: field perm[0] = 48 is out of range 0..47" -- factor "$small" --analysis "$tmp/range.sya"
  forge nrelax 'h[6] = -4'
  expect 1 "$tmp/nrelax.sya: corrupted: field nrelax[0] = -4" -- analyze "$small" --analysis "$tmp/nrelax.sya"
  forge ordering 'h[2] = 77'
  expect 1 "$tmp/ordering.sya: corrupted: field ordering = 77" -- factor "$small" --analysis "$tmp/ordering.sya"
  forge same 'pass'
  expect 0 "backward error" -- factor "$small" --analysis "$tmp/same.sya" ;;
study_mpirun) # refused at once on every rank (the launchers' variables)
  for var in OMPI_COMM_WORLD_SIZE=2 PMI_SIZE=4 PMIX_SIZE=2; do
    env "$var" timeout 30 "$sylva" study "$small" -o "$tmp/st" >"$tmp/out" 2>"$tmp/err"; rc=$?; checks=$((checks + 1))
    [ "$rc" = 2 ] && grep -q "study runs in one process: start it without mpirun" "$tmp/err" && [ ! -e "$tmp/st/study.json" ] ||
      { fail "$var sylva study: exit $rc"; cat "$tmp/err"; }
  done
  env OMPI_COMM_WORLD_SIZE=1 timeout 120 "$sylva" study "$small" --policies subtree --repeat 1 -o "$tmp/st1" >/dev/null 2>&1 ||
    fail "a study under a one-rank launcher failed"
  # analyze likewise: refused before it reads or writes anything
  for var in OMPI_COMM_WORLD_SIZE=2 PMI_SIZE=4; do
    env "$var" timeout 30 "$sylva" analyze "$small" --save "$tmp/an.sya" >"$tmp/out" 2>"$tmp/err"; rc=$?; checks=$((checks + 1))
    [ "$rc" = 2 ] && grep -q "analyze runs in one process: start it without mpirun" "$tmp/err" && [ ! -e "$tmp/an.sya" ] ||
      { fail "$var sylva analyze: exit $rc"; cat "$tmp/err"; }
  done
  env OMPI_COMM_WORLD_SIZE=1 timeout 60 "$sylva" analyze "$small" --save "$tmp/an1.sya" >/dev/null 2>&1 && [ -s "$tmp/an1.sya" ] ||
    fail "an analysis under a one-rank launcher failed" ;;
*) echo "unknown case $case"; exit 2 ;;
esac
echo "$case: $checks checks, $fails failures"
[ "$fails" = 0 ]
