#!/usr/bin/env bash
# mpi-device.sh BUNDLE_DIR OMPI_DIR [SPEC...] — several processes on one
# many-core machine without an MPI of its own (the GPU machine, docs/gpu.md):
# Open MPI from OMPI_DIR (an unpacked scripts/pack-openmpi.sh tree), sylva
# and sylva-gen from BUNDLE_DIR (gpu-bundle). For each SPEC (sylva-gen
# KIND:N, default lap3d7:60) `sylva factor --mode cpu --nrhs R`: one
# process with CORES CPU workers (default 14), then P ranks (RANKS, default
# "2 4") sized by sylva (each its share of the cores less one: the
# machine's cores / P − 1), each twice (the second kept; TWICE=0: once),
# and a 2-rank run with --rcond (it gathers L on rank 0: the gather's
# time; RCOND=0 leaves it out). MODE=gpu
# (default cpu) runs every one of them with --mode gpu instead (one process
# on the GPU, the ranks dealt the machine's GPUs: on a one-GPU machine they
# share it). TESTS="CASE:RANKS[:ARG] ..." first runs those cases of
# tests/mpi/mpi_cli.sh (in MODE; TEST_ARGS: its SYLVA_TEST_ARGS), each
# line ok/FAIL/skip in tests.txt. MEMORY=SIZE (e.g. 6G) adds, for each
# SPEC, a run in one process and one on 2 ranks with --device-memory SIZE
# each (the memory scaling: what one GPU's share cannot hold, the ranks'
# shares can; on a one-GPU machine the 2 ranks share it) and the bytes
# each run moved from its GPUs to the host (evictions). JSON per run and
# mpi.json / a table (last) under $OUT.
set -uo pipefail
B=$(cd "$1" && pwd); O=$(cd "$2" && pwd); shift 2
specs=${*:-lap3d7:60}
OUT=${OUT:-$PWD/mpi-device-out}; mkdir -p "$OUT"
CORES=${CORES:-14}; RANKS=${RANKS:-2 4}; NRHS=${NRHS:-1 16}; MODE=${MODE:-cpu}
source "$O/env.sh"
export LD_LIBRARY_PATH="$B/lib:$LD_LIBRARY_PATH" STARPU_SILENT=1 STARPU_HOME=$B/starpu-home
export OMPI_MCA_btl_vader_single_copy_mechanism=none
mpi=(timeout 300 mpirun --allow-run-as-root --oversubscribe --bind-to none)
"${mpi[@]}" -n 2 hostname > "$OUT/hostname.txt" 2>&1 || { echo "mpirun does not run:"; cat "$OUT/hostname.txt"; exit 1; }
here=$(cd "$(dirname "$0")/.." && pwd)
: > "$OUT/tests.txt"
i=0
for t in ${TESTS:-}; do
  IFS=: read -r tc tr ta <<< "$t" # ta keeps the rest (gen:2:lap3d7:30)
  i=$((i + 1)); log=$OUT/test-$i-$tc-$tr.log
  SYLVA_TEST_MODE=$MODE SYLVA_TEST_ARGS=${TEST_ARGS:-} timeout 600 bash "$here/tests/mpi/mpi_cli.sh" "$B/bin/sylva" \
    "$B/bin/sylva-gen" "$here/matrices" "$tc" "$tr" "$ta" > "$log" 2>&1
  rc=$?
  v=FAIL; [ $rc = 0 ] && v=ok; [ $rc = 77 ] && v=skip
  echo "$v $t (exit $rc): $(tail -1 "$log")" | tee -a "$OUT/tests.txt"
done
for spec in $specs; do
  m=/tmp/$spec.mtx
  "$B/bin/sylva-gen" "${spec%%:*}" "${spec#*:}" -o "$m" > /dev/null 2>&1 || { echo "sylva-gen $spec failed"; exit 1; }
  for r in $NRHS; do
    for i in $([ "${TWICE:-1}" = 0 ] && echo 1 || echo 1 2); do
      STARPU_NCPU=$CORES "$B/bin/sylva" factor "$m" --mode "$MODE" --nrhs "$r" --json "$OUT/$spec-1p-r$r.json" \
        > "$OUT/$spec-1p-r$r.log" 2>&1
      for p in $RANKS; do
        "${mpi[@]}" -n "$p" -x STARPU_SILENT -x STARPU_HOME -x LD_LIBRARY_PATH \
          "$B/bin/sylva" factor "$m" --mode "$MODE" --nrhs "$r" --json "$OUT/$spec-${p}p-r$r.json" \
          > "$OUT/$spec-${p}p-r$r.log" 2>&1
      done
    done
  done
  [ "${RCOND:-1}" = 0 ] || "${mpi[@]}" -n 2 -x STARPU_SILENT -x STARPU_HOME -x LD_LIBRARY_PATH \
    "$B/bin/sylva" factor "$m" --mode "$MODE" --rcond --json "$OUT/$spec-2p-rcond.json" > "$OUT/$spec-2p-rcond.log" 2>&1
  [ -n "${MEMORY:-}" ] || continue
  "$B/bin/sylva" factor "$m" --mode "$MODE" --device-memory "$MEMORY" --json "$OUT/$spec-1p-mem.json" \
    > "$OUT/$spec-1p-mem.log" 2>&1
  "${mpi[@]}" -n 2 -x STARPU_SILENT -x STARPU_HOME -x LD_LIBRARY_PATH \
    "$B/bin/sylva" factor "$m" --mode "$MODE" --device-memory "$MEMORY" --json "$OUT/$spec-2p-mem.json" \
    > "$OUT/$spec-2p-mem.log" 2>&1
done
python3 - "$OUT" <<'PY'
import glob, json, os, sys
out = sys.argv[1]; rows = []
for f in sorted(glob.glob(os.path.join(out, "*.json"))):
    if f.endswith("mpi.json"): continue
    try: d = json.load(open(f))
    except Exception as e: rows.append({"run": os.path.basename(f), "error": str(e)}); continue
    s = d.get("seconds", {}); sv = d.get("solve", {})
    rows.append({"run": os.path.basename(f)[:-5], "status": d.get("status"), "factorize": s.get("factorize"),
                 "solve": s.get("solve"), "to_host": s.get("to_host"), "ranks": d.get("runtime", {}).get("ranks"),
                 "workers": d.get("runtime", {}).get("cpu_workers"),
                 "solve_bytes_between_ranks": sv.get("bytes_between_ranks"), "backward_error": d.get("backward_error"),
                 "peak_rss_rank0": d.get("memory", {}).get("peak_rss_bytes"), "mode": d.get("mode"),
                 "gpu_busy": sum(k.get("gpu_busy_seconds", 0) for k in d.get("ranks", [])) or d.get("workers", {}).get("gpu_busy_seconds"),
                 "evicted": d.get("workers", {}).get("bytes_to_host")})
json.dump(rows, open(os.path.join(out, "mpi.json"), "w"), indent=1)
print("| run | status | mode | workers | factorize s | GPU busy s | GPU→host MB (rank 0) | solve s | gather s | solve MB between ranks | backward error |")
print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
for r in rows:
    if "error" in r: print("| %s | %s |" % (r["run"], r["error"])); continue
    f = lambda v, p="%.4f": p % v if isinstance(v, (int, float)) else "-"
    print("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (r["run"], r["status"], r["mode"], r["workers"], f(r["factorize"]), f(r["gpu_busy"]), f((r["evicted"] or 0) / 1e6, "%.0f"), f(r["solve"]),
          f(r["to_host"]), f((r["solve_bytes_between_ranks"] or 0) / 1e6, "%.2f"), f(r["backward_error"], "%.1e")))
PY
