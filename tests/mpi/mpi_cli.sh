#!/usr/bin/env bash
# mpi_cli.sh SYLVA SYLVA_GEN MATRICES CASE RANKS [ARG] — `sylva factor` under
# mpirun (Open MPI, --oversubscribe, one CPU worker per rank) against the
# same command in one process. Cases:
#   spd FILE        a shipped matrix: both runs succeed with backward error
#                   ≤ 4·n·ε, the same log det (to rounding), every rank's
#                   record in the JSON, the ranks' flops adding up to the
#                   matrix's, the bytes sent equal to the bytes received;
#                   run twice (--repeat 2: a refactorization) with 4
#                   right-hand sides and a refined solve, which runs
#                   over the ranks (solve.ranks in the JSON, bytes moved)
#   gen KIND:N      the same on a generated matrix (sylva-gen KIND N)
#   not_spd         a generated matrix with two diagonal entries made
#                   negative: both exit 3 naming the same column, and every
#                   rank prints the message
#   rank_fails      the last rank may fill 1 kB only (SYLVA_MEMORY_LIMIT):
#                   every rank exits non-zero with the same message naming it
# With SYLVA_TEST_TILES=1 a spd/gen case also checks that the top fronts'
# tiles were dealt: every rank ran tile tasks (tile_flops > 0).
# With SYLVA_TEST_MODE=gpu every run (one process and the ranks) is
# `--mode gpu` (extra options in SYLVA_TEST_ARGS, e.g. --gpu-tile-rows 256
# to deal the top fronts' tiles over the ranks' GPUs), the JSON must say
# mode gpu with every rank on a GPU, and rank_fails gives the last rank
# 1 MB of device memory (--device-memory) instead; without a GPU (the one-
# process run reports none) the case is skipped (exit 77).
# Every mpirun is bounded by `timeout`, so a hang fails the test (CTest's
# TIMEOUT is the second guard).
set -u
sylva=$1 gen=$2 mats=$3 case=$4 ranks=$5 arg=${6:-}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sylva-mpi.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 STARPU_NCPU=1 STARPU_WORKERS_NOBIND=1
export STARPU_SILENT=1 OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
limit=240
gpu=0
[ "${SYLVA_TEST_MODE:-cpu}" = gpu ] && gpu=1
# shellcheck disable=SC2206
extra=(${SYLVA_TEST_ARGS:-})
[ $gpu = 1 ] && extra=(--mode gpu "${extra[@]}")

# Each rank reports its own exit status ("rank-exit R CODE" on stderr), and
# mpirun lets every rank end by itself instead of killing the others when
# the first one exits non-zero (mpirun then exits 0: the ranks' own codes
# are what the cases check).
wrap='"$@"; rc=$?; echo "rank-exit $OMPI_COMM_WORLD_RANK $rc" >&2; exit $rc'
mpi=(timeout -k 10 "$limit" mpirun --oversubscribe --mca orte_abort_on_non_zero_status 0)

run_mpi() { # OUT ERR ARGS...: sylva factor on $ranks ranks
  local out=$1 err=$2
  shift 2
  "${mpi[@]}" -n "$ranks" sh -c "$wrap" sh "$sylva" factor "$@" >"$out" 2>"$err"
}

exits() { # ERR CODE: how many ranks exited with CODE ("nonzero": any but 0)
  if [ "$2" = nonzero ]; then grep -c '^rank-exit [0-9]* [1-9]' "$1"; else grep -c "^rank-exit [0-9]* $2\$" "$1"; fi
}

json() { # FILE EXPR: a value of the JSON record
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$1" "$2"
}

# GPU mode: skip (77) where one process finds no GPU.
need_gpu() { # MATRIX
  [ $gpu = 1 ] || return 0
  "$sylva" factor "$1" --mode gpu --json "$tmp/probe.json" >/dev/null 2>&1
  [ "$(json "$tmp/probe.json" 'd["runtime"]["gpus"]' 2>/dev/null)" -gt 0 ] 2>/dev/null && return 0
  echo "skip: no GPU"
  exit 77
}

check_spd() { # FILE
  local f=$1
  need_gpu "$f"
  "$sylva" factor --repeat 2 --nrhs 4 --refine 1 "$f" "${extra[@]}" --json "$tmp/one.json" >"$tmp/one.out" 2>&1 ||
    fail "one process failed: $(cat "$tmp/one.out")"
  run_mpi "$tmp/p.out" "$tmp/p.err" --repeat 2 --nrhs 4 --refine 1 "$f" "${extra[@]}" --json "$tmp/p.json"
  local rc=$?
  [ $rc = 124 ] && fail "$ranks ranks: timed out (a hang)"
  [ $rc = 0 ] || fail "$ranks ranks exited $rc: $(cat "$tmp/p.err")"
  [ "$(exits "$tmp/p.err" 0)" = "$ranks" ] || fail "not every rank exited 0: $(cat "$tmp/p.err")"
  python3 - "$tmp/one.json" "$tmp/p.json" "$ranks" "$gpu" "${SYLVA_TEST_TILES:-0}" <<'PY' || exit 1
import json, sys
one, dist, ranks = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), int(sys.argv[3])
gpu, tiles = sys.argv[4] == "1", sys.argv[5] == "1"
eps = 2.0 ** -52
n = dist["n"]
tol = 4.0 * max(n, 1) * eps
def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)
for name, d in (("one process", one), ("%d ranks" % ranks, dist)):
    if d["status"] != "ok": fail("%s: status %s" % (name, d["status"]))
    b = d["backward_error"]
    if not (b <= tol): fail("%s: backward error %r > 4·n·ε = %.3e" % (name, b, tol))
if dist["runtime"]["ranks"] != ranks: fail("runtime.ranks = %r, not %d" % (dist["runtime"]["ranks"], ranks))
want = "gpu" if gpu else "cpu"
for name, d in (("one process", one), ("%d ranks" % ranks, dist)):
    if d["mode"] != want: fail("%s: mode %r, not %r" % (name, d["mode"], want))
if gpu:
    for r in dist["ranks"]:
        if not (r["gpus"] >= 1 and r["gpu_busy_seconds"] > 0 and r["peak_device_bytes"] > 0):
            fail("rank %d did not factor on a GPU: %r" % (r["rank"], r))
if one["runtime"]["ranks"] != 1: fail("one process: runtime.ranks = %r" % one["runtime"]["ranks"])
if abs(dist["logdet"] - one["logdet"]) > 1e-10 * max(1.0, abs(one["logdet"])):
    fail("log det %r against %r in one process" % (dist["logdet"], one["logdet"]))
recs = dist["ranks"]
if len(recs) != ranks or [r["rank"] for r in recs] != list(range(ranks)):
    fail("ranks records: %r" % recs)
flops = sum(r["flops"] for r in recs)
if abs(flops - dist["flops"]) > 1e-9 * dist["flops"]:
    fail("the ranks' flops add up to %r, the matrix has %r" % (flops, dist["flops"]))
sent, received = sum(r["bytes_sent"] for r in recs), sum(r["bytes_received"] for r in recs)
if sent != received: fail("bytes sent %r != bytes received %r" % (sent, received))
if sent <= 0: fail("no bytes moved between %d ranks" % ranks)
if sum(r["tasks"] for r in recs) < dist["tasks"]: fail("the ranks ran fewer tasks than submitted: %r" % recs)
for r in recs:
    if not 0 <= r["tile_flops"] <= r["flops"] * (1 + 1e-12):
        fail("rank %d: tile_flops %r outside 0 .. its flops %r" % (r["rank"], r["tile_flops"], r["flops"]))
    if tiles and not r["tile_flops"] > 0: fail("rank %d ran no tile task (tiles not dealt): %r" % (r["rank"], r))
# The solve ran over the ranks (L left where it was made), 4 columns in
# one block, refined once: every correction solve over the ranks too.
sv = dist["solve"]
if sv["ranks"] != ranks: fail("solve.ranks = %r, not %d" % (sv["ranks"], ranks))
if not sv["bytes_between_ranks"] > 0: fail("the solve moved no bytes between %d ranks" % ranks)
if sv["refine_steps"] != 1: fail("solve.refine_steps = %r, not 1" % sv["refine_steps"])
if one["solve"]["ranks"] != 1: fail("one process: solve.ranks = %r" % one["solve"]["ranks"])
fb = sum(r["factor_bytes"] for r in recs)
if abs(fb - dist["memory"]["factor_bytes"]) > 0.5: fail("the ranks' L adds up to %r, not %r" % (fb, dist["memory"]["factor_bytes"]))
print("ok: %d ranks, backward error %.3e (one process %.3e), %.0f bytes between ranks"
      % (ranks, dist["backward_error"], one["backward_error"], sent))
PY
}

case $case in
spd) check_spd "$mats/real/$arg" ;;
gen)
  "$gen" "${arg%%:*}" "${arg#*:}" -o "$tmp/a.mtx" >/dev/null 2>&1 || fail "sylva-gen $arg"
  check_spd "$tmp/a.mtx" ;;
not_spd)
  "$gen" lap3d7 14 -o "$tmp/a.mtx" >/dev/null 2>&1 || fail "sylva-gen"
  # Two pivots made negative, in different subtrees.
  awk 'NR<=3 && /^%/ {print; next} !h {print; h=1; next} $1==$2 && ($1==700 || $1==2000) {$3=-10*$3} {print}' \
    "$tmp/a.mtx" >"$tmp/bad.mtx"
  need_gpu "$tmp/a.mtx"
  "$sylva" factor "$tmp/bad.mtx" "${extra[@]}" --json "$tmp/one.json" >"$tmp/one.out" 2>&1
  [ $? = 3 ] || fail "one process: exit $? (want 3): $(cat "$tmp/one.out")"
  run_mpi "$tmp/p.out" "$tmp/p.err" "$tmp/bad.mtx" "${extra[@]}" --json "$tmp/p.json"
  rc=$?
  [ $rc = 124 ] && fail "$ranks ranks: timed out (a hang)"
  [ "$(exits "$tmp/p.err" 3)" = "$ranks" ] || fail "not every rank exited 3: $(cat "$tmp/p.err")"
  c1=$(json "$tmp/one.json" 'd["failed_column"]') cp=$(json "$tmp/p.json" 'd["failed_column"]')
  [ "$c1" -gt 0 ] && [ "$c1" = "$cp" ] || fail "failing column $cp on $ranks ranks, $c1 in one process"
  said=$(grep -c "pivot of column $c1 (1-based) is not positive" "$tmp/p.err")
  [ "$said" = "$ranks" ] || fail "$said of $ranks ranks said column $c1: $(cat "$tmp/p.err")"
  echo "ok: column $c1 on $ranks ranks and in one process" ;;
rank_fails)
  "$gen" lap3d7 14 -o "$tmp/a.mtx" >/dev/null 2>&1 || fail "sylva-gen"
  need_gpu "$tmp/a.mtx"
  last=$((ranks - 1))
  # CPU: host memory; GPU: device memory too small for the largest task.
  short=(env SYLVA_MEMORY_LIMIT=1K "$sylva" factor "$tmp/a.mtx")
  [ $gpu = 1 ] && short=("$sylva" factor "$tmp/a.mtx" --device-memory 1M)
  "${mpi[@]}" -n "$last" sh -c "$wrap" sh "$sylva" factor "$tmp/a.mtx" "${extra[@]}" : \
    -n 1 sh -c "$wrap" sh "${short[@]}" "${extra[@]}" >"$tmp/p.out" 2>"$tmp/p.err"
  rc=$?
  [ $rc = 124 ] && fail "$ranks ranks with rank $last out of memory: timed out (a hang)"
  [ "$(exits "$tmp/p.err" 4)" = "$ranks" ] || fail "not every rank exited 4 (out of memory): $(cat "$tmp/p.err")"
  said=$(grep -c "^sylva: rank $last: .*\(out of memory\|device memory\)" "$tmp/p.err")
  [ "$said" = "$ranks" ] || fail "$said of $ranks ranks gave rank $last's message: $(cat "$tmp/p.err")"
  echo "ok: every rank exited 4 with rank $last's message" ;;
*) fail "unknown case $case" ;;
esac
