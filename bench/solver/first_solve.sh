#!/usr/bin/env bash
# first_solve.sh — what a user of the CLI sees on a GPU: `sylva factor FILE
# --mode gpu` in a fresh process per run, its factorization and its first
# (and only) one-column solve, for each build given, the builds taking
# turns run by run so that they share the machine's drift.
#   usage: bench/solver/first_solve.sh LABEL=BUNDLE_DIR[@TUNING_DIR] ...
# BUNDLE_DIR: an unpacked gpu-bundle holding bin/sylva and bin/sylva-gen;
# TUNING_DIR: the kernel tuning tables that build runs with
# (SYLVA_TUNING_DIR; default the environment's).
# Environment: SPECS (sylva-gen KIND:N, default "lap3d7:60 lap2d5:1000
# lap3d7:100"), REPEAT (runs per build and matrix, default 3), ARGS (more
# `sylva factor` options, e.g. --repeat 3: then factorize is the best
# refactorization and factorize_first the first), OUT (default
# ./first-solve-out). Each run's JSON is OUT/LABEL-MATRIX-R.json;
# first_solve.json holds every run's seconds.factorize_first, .factorize
# and .solve, and the table (printed last) the median of each.
set -uo pipefail
[ $# -ge 1 ] || { sed -n 2,16p "$0"; exit 2; }
OUT=${OUT:-$PWD/first-solve-out}; mkdir -p "$OUT"
SPECS=${SPECS:-lap3d7:60 lap2d5:1000 lap3d7:100}; REPEAT=${REPEAT:-3}
first=${1#*=}; first=${first%@*}
for s in $SPECS; do
  f=$OUT/${s/:/_}.mtx
  [ -f "$f" ] || LD_LIBRARY_PATH="$first/lib" "$first/bin/sylva-gen" ${s/:/ } -o "$f" > /dev/null ||
    { echo "sylva-gen $s failed"; exit 1; }
done
for s in $SPECS; do
  for r in $(seq 1 "$REPEAT"); do
    for b in "$@"; do
      label=${b%%=*}; dir=${b#*=}; tuning=${SYLVA_TUNING_DIR:-}
      case $dir in *@*) tuning=${dir#*@}; dir=${dir%@*} ;; esac
      j=$OUT/$label-${s/:/_}-$r.json
      SYLVA_TUNING_DIR=$tuning STARPU_HOME=$dir/starpu-home LD_LIBRARY_PATH="$dir/lib" STARPU_SILENT=1 \
        timeout 300 "$dir/bin/sylva" factor "$OUT/${s/:/_}.mtx" --mode gpu ${ARGS:-} --json "$j" \
        > "$OUT/$label-${s/:/_}-$r.log" 2>&1 || echo "$label $s run $r: exit $? (log $OUT/$label-${s/:/_}-$r.log)"
    done
  done
done
python3 - "$OUT" "$SPECS" "$@" <<'EOF'
import json, os, statistics, sys
out, specs, builds = sys.argv[1], sys.argv[2].split(), [b.split("=", 1)[0] for b in sys.argv[3:]]
rows, runs = [], []
for s in specs:
    for b in builds:
        first, fac, sol = [], [], []
        for r in range(1, 100):
            p = os.path.join(out, f"{b}-{s.replace(':', '_')}-{r}.json")
            if not os.path.exists(p):
                break
            try:
                d = json.load(open(p))
            except ValueError:
                continue
            if d.get("status") != "ok":
                continue
            sec = d["seconds"]
            first.append(sec["factorize_first"]); fac.append(sec["factorize"]); sol.append(sec["solve"])
            runs.append({"build": b, "matrix": s, "run": r, "factorize_first": sec["factorize_first"],
                         "factorize": sec["factorize"], "solve": sec["solve"],
                         "backward_error": d.get("backward_error")})
        if fac:
            rows.append({"matrix": s, "build": b, "runs": len(fac), "first_median": statistics.median(first),
                         "factorize_median": statistics.median(fac),
                         "solve_median": statistics.median(sol), "sum_median": statistics.median(
                             [x + y for x, y in zip(fac, sol)])})
json.dump({"runs": runs, "table": rows}, open(os.path.join(out, "first_solve.json"), "w"), indent=1)
print("| matrix | build | runs | first factorization ms | factorize ms | first solve ms | sum ms |")
print("| --- | --- | --- | --- | --- | --- | --- |")
for r in rows:
    print(f"| {r['matrix']} | {r['build']} | {r['runs']} | {1e3 * r['first_median']:.1f} | "
          f"{1e3 * r['factorize_median']:.1f} | "
          f"{1e3 * r['solve_median']:.2f} | {1e3 * r['sum_median']:.1f} |")
EOF
