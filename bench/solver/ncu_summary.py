#!/usr/bin/env python3
"""ncu_summary.py — one profiled solve's kernels from `ncu --csv --print-units base`
(bench-solver with BENCH_PROFILE_NRHS, docs/perf-log.md "The solve, v9"): per kernel
name its launches, summed duration, grid and block sizes, registers, shared memory
and DRAM bytes; then the totals. usage: ncu_summary.py FILE.csv [LABEL]"""
import csv
import sys
from collections import OrderedDict


def main():
    path = sys.argv[1]
    label = sys.argv[2] if len(sys.argv) > 2 else path
    rows = []
    with open(path, newline="") as f:
        lines = [l for l in f if l.startswith('"')]
    for r in csv.DictReader(lines):
        rows.append(r)
    k = OrderedDict()
    for r in rows:
        name = r.get("Kernel Name", "?")
        e = k.setdefault(name, {"n": 0, "ids": set(), "metrics": {}, "grids": set(), "blocks": set()})
        e["ids"].add(r.get("ID"))
        e["grids"].add(r.get("Grid Size", ""))
        e["blocks"].add(r.get("Block Size", ""))
        m, u, v = r.get("Metric Name"), r.get("Metric Unit"), r.get("Metric Value", "0").replace(",", "")
        try:
            v = float(v)
        except ValueError:
            continue
        e["metrics"].setdefault(m, []).append(v)
    launches = len({r.get("ID") for r in rows})
    tot_t = 0.0
    tot_b = 0.0
    print(f"== {label}: {launches} kernel launches, {len(k)} kernel names")
    print(f"{'kernel':60} {'n':>5} {'sum us':>9} {'max us':>8} {'regs':>5} {'smem':>7} {'DRAM MB':>8} grids / blocks")
    for name, e in sorted(k.items(), key=lambda x: -sum(x[1]["metrics"].get("gpu__time_duration.sum", [0]))):
        t = e["metrics"].get("gpu__time_duration.sum", [0])
        b = e["metrics"].get("dram__bytes_read.sum", [0])
        w = e["metrics"].get("dram__bytes_write.sum", [0])
        regs = max(e["metrics"].get("launch__registers_per_thread", [0]))
        sm = max(e["metrics"].get("launch__shared_mem_per_block_static", [0])) + max(
            e["metrics"].get("launch__shared_mem_per_block_dynamic", [0]))
        tot_t += sum(t)
        tot_b += sum(b) + sum(w)
        g = sorted(e["grids"])
        grids = ','.join(g[:3]) + ('…' if len(g) > 3 else '')
        print(f"{name[:60]:60} {len(e['ids']):5} {sum(t) / 1e3:9.1f} {max(t) / 1e3:8.1f} {regs:5.0f} {sm:7.0f} "
              f"{(sum(b) + sum(w)) / 1e6:8.1f} {grids} / {','.join(sorted(e['blocks']))}")
    print(f"total kernel time {tot_t / 1e6:.3f} ms, DRAM {tot_b / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
