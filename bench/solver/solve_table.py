#!/usr/bin/env python3
"""solve_table.py — the GPU solve's rows of one or more bench-solver JSON
files side by side (docs/perf-log.md's solve tables): per matrix and
right-hand-side count, for each file (named by its stem) sylva's GPU solve
time, its kernel part and its copies, the ratio to cuDSS (from the file
itself, else from --cudss FILE), the throughput of that count against one
right-hand side, and the CPU tasks against the sequential loop when the
file has them. Markdown on stdout.
  usage: solve_table.py [--cudss FILE] RUN.json [RUN.json ...]
"""
import json
import os
import sys


def load(path):
    with open(path) as f:
        return json.load(f)


def solves(rows, solver):
    out = {}
    for r in rows:
        if r.get("ok") and r["solver"] == solver:
            for s in r["solves"]:
                out[(r["matrix"], s["nrhs"])] = s
    return out


def main():
    args = sys.argv[1:]
    ref = {}
    if args[:1] == ["--cudss"]:
        ref = solves(load(args[1]), "cudss")
        args = args[2:]
    print("| run | matrix | nrhs | sylva GPU s | solve only s | up + down ms | cuDSS s | ÷ cuDSS | "
          "throughput × | CPU tasks s | sequential s | seq ÷ tasks |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for path in args:
        rows = load(path)
        name = os.path.splitext(os.path.basename(path))[0]
        cudss = solves(rows, "cudss") or ref
        gpu = {}
        for r in rows:
            if r.get("ok") and r["solver"].startswith("sylva"):
                for s in r["solves"]:
                    if s["gpu"] > 0:
                        gpu[(r["matrix"], s["nrhs"])] = s
        for (mat, nrhs), s in gpu.items():
            c = cudss.get((mat, nrhs), {}).get("gpu", 0)
            one = gpu.get((mat, 1), {}).get("gpu", 0)
            thru = nrhs * one / s["gpu"] if one > 0 and nrhs > 1 else 0
            cpu, seq = s.get("cpu", 0), s.get("sequential", 0)
            print(f"| {name} | {mat} | {nrhs} | {s['gpu']:.4f} | {s['gpu_solve']:.4f} | "
                  f"{1e3 * (s['gpu_upload'] + s['gpu_download']):.2f} | {c:.4f} | "
                  f"{s['gpu'] / c if c > 0 else 0:.2f} | {thru if thru else '':{'.1f' if thru else ''}} | "
                  f"{cpu:.4f} | {seq:.4f} | {seq / cpu if cpu > 0 else 0:.2f} |")


if __name__ == "__main__":
    main()
