#!/usr/bin/env python3
"""multi_gpu_table.py — the multi-GPU benchmark's table and JSON from the
`sylva factor --json` records that scripts/gpu-solver.sh (phases `multi`
and `tiles`) writes, one per matrix and configuration, named
PHASE-MATRIX-CONFIG.json.

For each matrix: every configuration's factorization time (the best of
--repeat), its speed-up over the reference run of the same matrix (config
`1gpu`, or `native` in the one-GPU tiles phase), the GPU tile size, backward
error, per-GPU share of the flops, L and peak memory, bytes between GPUs
and back to the host. Writes OUT (one JSON document with every row) and
prints the table (Markdown) last.
    multi_gpu_table.py OUT.json RECORD.json...
"""
import json
import os
import re
import sys


def row(path):
    with open(path) as f:
        d = json.load(f)
    m = re.match(r"[a-z]+-(.+)-([^-]+)\.json$", os.path.basename(path))
    matrix, config = (m.group(1), m.group(2)) if m else (d.get("file", "?"), "?")
    gpus = d.get("gpu_devices", [])
    return {
        "matrix": matrix,
        "config": config,
        "status": d.get("status"),
        "message": d.get("message", ""),
        "n": d.get("n"),
        "flops": d.get("flops"),
        "factor_bytes": d.get("memory", {}).get("factor_bytes"),
        "seconds": d.get("seconds", {}).get("factorize"),
        "seconds_first": d.get("seconds", {}).get("factorize_first"),
        "backward_error": d.get("backward_error"),
        "gpus": d.get("gpus"),
        "gpu_map": d.get("options", {}).get("gpu_map"),
        "gpu_tile_rows": d.get("options", {}).get("gpu_tile_rows"),
        "device_memory": d.get("options", {}).get("device_memory"),
        "bytes_between_gpus": d.get("workers", {}).get("bytes_between_gpus"),
        "bytes_to_host": d.get("workers", {}).get("bytes_to_host"),
        "per_gpu": gpus,
    }


def main():
    out, paths = sys.argv[1], sys.argv[2:]
    rows = []
    for p in sorted(paths):
        try:
            rows.append(row(p))
        except (OSError, ValueError) as e:
            rows.append({"matrix": os.path.basename(p), "config": "?", "status": "unreadable", "message": str(e)})
    one = {r["matrix"]: r.get("seconds") for r in rows
           if r["config"] in ("1gpu", "native") and r.get("status") == "ok"}
    for r in rows:
        base, s = one.get(r["matrix"]), r.get("seconds")
        r["speedup_vs_1gpu"] = base / s if base and s and r.get("status") == "ok" else None
    with open(out, "w") as f:
        json.dump({"rows": rows}, f, indent=1)
    print("| matrix | config | tile rows | status | factor s | × reference | backward error | flops per GPU % "
          "| L per GPU GB | peak per GPU GB | GPU→GPU GB | GPU→host GB |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for r in rows:
        per = r.get("per_gpu") or []
        fl = r.get("flops") or 0
        share = "/".join(f"{100 * g['flops'] / fl:.0f}" for g in per) if fl and per else "-"
        lgb = "/".join(f"{g['factor_bytes'] / 1e9:.1f}" for g in per) if per else "-"
        pk = "/".join(f"{g['peak_device_bytes'] / 1e9:.1f}" for g in per) if per else "-"
        sp = f"{r['speedup_vs_1gpu']:.2f}" if r.get("speedup_vs_1gpu") else "-"
        sec = f"{r['seconds']:.3f}" if isinstance(r.get("seconds"), (int, float)) else "-"
        be = f"{r['backward_error']:.1e}" if isinstance(r.get("backward_error"), (int, float)) else "-"
        gg = f"{r['bytes_between_gpus'] / 1e9:.2f}" if isinstance(r.get("bytes_between_gpus"), (int, float)) else "-"
        gh = f"{r['bytes_to_host'] / 1e9:.2f}" if isinstance(r.get("bytes_to_host"), (int, float)) else "-"
        st = r.get("status") if r.get("status") == "ok" else f"{r.get('status')}: {r.get('message', '')[:60]}"
        tr = r.get("gpu_tile_rows")
        tr = "auto" if tr == 0 else "-" if tr is None else str(tr)
        print(f"| {r['matrix']} | {r['config']} | {tr} | {st} | {sec} | {sp} | {be} | {share} | {lgb} | {pk} | {gg} | {gh} |")


if __name__ == "__main__":
    main()
