#!/usr/bin/env bash
# bench-cpu-scaling.sh BUNDLE_DIR — on a many-core host, sylva vs CHOLMOD
# (bench-solver: same matrices, same ordering, same thread count) at several
# thread counts, so each can be compared at its best count (16-thread
# OpenBLAS is slow on small calls). JSON per thread count under $OUT; a
# compact table last.
set -uo pipefail
b=${1:?bundle dir}; out=${OUT:-/tmp/out}; mkdir -p "$out"
export STARPU_HOME="$b/starpu-home" STARPU_SILENT=1
mats=${SYLVA_BENCH_MATRICES:-"lap3d7:60 lap3d27:40 elast3d:24 lap2d5:1000"}
threads=${SYLVA_BENCH_THREADS:-"4 8 16"}
for t in $threads; do
  "$b/run" bench-solver --threads "$t" --repeat 2 --json "$out/solver-t$t.json" $mats \
    > "$out/solver-t$t.txt" 2>&1 || echo "bench-solver --threads $t failed"
done
python3 - "$out" $threads <<'PY'
import json, sys
out, threads = sys.argv[1], sys.argv[2:]
rows = {}
for t in threads:
    try: data = json.load(open(f"{out}/solver-t{t}.json"))
    except Exception as e: print("missing", t, e); continue
    for r in data: rows.setdefault(r["matrix"], {})[int(t)] = r
print(f"{'matrix':14} {'GFLOP':>7} " + " ".join(f"{'t'+t+' sylva/chol':>18}" for t in threads) + "   best sylva  best CHOLMOD  ratio")
for m, byt in rows.items():
    cells, bs, bc = [], 1e9, 1e9
    for t in threads:
        r = byt.get(int(t))
        if not r: cells.append(f"{'-':>18}"); continue
        s, c = r["sylva"]["factorize"], r["cholmod"]["factorize"]
        bs, bc = min(bs, s), min(bc, c)
        cells.append(f"{s:8.3f}/{c:8.3f} s")
    fl = next(iter(byt.values()))["flops"] / 1e9
    print(f"{m:14} {fl:7.1f} " + " ".join(cells) + f"   {bs:9.3f} s  {bc:9.3f} s  {bs/bc:5.2f}")
PY
