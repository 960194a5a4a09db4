#!/usr/bin/env bash
# solve_v8_final.sh — the v8 session's last device call (docs/perf-log.md,
# "The solve, v8"): the solve tests (scripts/gpu-solver.sh solve), the
# record (scripts/gpu-solver.sh bench: GPU and CPU solves of lap3d7:60,
# lap2d5:1000, elast3d:30 and bcsstk13; lap3d7:100's GPU solves only — its
# sequential 64-column solves alone took ~65 s of v7's record, and no target
# reads them), then with solve_v8_call.sh the v6 build's GPU solves
# (control), the copy rates, and this build again (named mode3: its
# SYLVA_SOLVE_PIN=3 was meant for v8e's other form, but the task accepts
# modes 0-2 only, so the default ran). Phases run in order of
# importance; each gets what is left of LIMIT seconds (default 320).
#   usage: solve_v8_final.sh CARRY_DIR   (from the repository root; OUT set)
set -u
C=$(cd "$1" && pwd)
here=$PWD
OUT=${OUT:-/tmp/v8final}
mkdir -p /tmp/b /tmp/o "$OUT"
# The tuning tables this build reads (CARRY_DIR/tuning, the branch's): the
# tree that travels is main's working copy, whose tables may have keys that
# this build (and the v6 control) refuse.
[ -d "$C/tuning" ] && export SYLVA_TUNING_DIR=$C/tuning
tar xf "$C/bundle/bundle.tar.xz" -C /tmp/b
start=$(date +%s)
left() { echo $(( ${LIMIT:-320} - ($(date +%s) - start) )); }
log=$OUT/final-summary.txt
OUT=/tmp/o/solve bash "$C/gpu-solver.sh" /tmp/b solve > /tmp/o/solve.out 2>&1
{ echo "# solve phase: $(( $(date +%s) - start )) s"; cat /tmp/o/solve/summary.txt; } >> "$log"
R=$here/matrices/real
common=(BENCH_MODES=gpu BENCH_POLICIES=subtree CHOLMOD_THREADS=none BENCH_NRHS=1,64 BENCH_REPEAT=3
        BENCH_ENV=SYLVA_SOLVE_PHASES=1)
t=$(date +%s)
env "${common[@]}" BENCH_SPECS="lap3d7:60 lap2d5:1000 elast3d:30 $R/bcsstk13.mtx" BENCH_NAME=record \
  BENCH_TIMEOUT=$(( $(left) - 60 )) OUT=/tmp/o/rec bash "$C/gpu-solver.sh" /tmp/b bench > /tmp/o/rec.out 2>&1
env "${common[@]}" BENCH_SPECS="lap3d7:100" BENCH_NAME=record100 BENCH_ARGS=--gpu-solves-only \
  BENCH_TIMEOUT=$(( $(left) - 45 )) OUT=/tmp/o/rec100 bash "$C/gpu-solver.sh" /tmp/b bench >> /tmp/o/rec.out 2>&1
{ echo "# record: $(( $(date +%s) - t )) s"; cat /tmp/o/rec/summary.txt /tmp/o/rec/record.log;
  cat /tmp/o/rec100/summary.txt /tmp/o/rec100/record100.log; } >> "$log"
cp /tmp/o/rec/record.json /tmp/o/rec100/record100.json "$OUT/" 2>/dev/null
t=$(date +%s)
[ "$(left)" -gt 30 ] && SPECS="lap3d7:60 lap2d5:1000 lap3d7:100 elast3d:30 $R/bcsstk13.mtx" OUT=/tmp/o/ctl \
  timeout $(( $(left) - 5 )) \
  bash "$C/solve_v8_call.sh" "$C" control:v6 rates bench:mode3:SYLVA_SOLVE_PIN=3,4096,65536 > /tmp/o/ctl.out 2>&1
{ echo "# control, rates, mode 3: $(( $(date +%s) - t )) s"; cat /tmp/v8work/v8/summary.txt 2>/dev/null; } >> "$log"
[ -d /tmp/v8work/v8 ] && tar cJf "$OUT/ctl.tar.xz" -C /tmp/v8work v8 /tmp/o/ctl.out 2>/dev/null
tar cJf "$OUT/final.tar.xz" -C /tmp/o solve rec rec100 solve.out rec.out 2>/dev/null
grep -vE "^copy rates|ngroups" "$log" | cut -c1-200
echo "total $(( $(date +%s) - start )) s"
