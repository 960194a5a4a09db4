#!/usr/bin/env python3
"""solve_trace.py — summary of a GPU solve trace (SYLVA_SOLVE_TRACE=FILE,
kernels/gpu_solve_trace.cu; one line per ticket: sweep ticket front m k
kind index chunk take ready done sm block, times in ns). Per sweep: its
span, per item kind the count and mean wait (ready − take) and work (done
− ready); its two launches (the top's and the bottom's, told apart by
their tickets' times) with their spans and, for the folded fronts, the
wait's percentiles; the largest split fronts (most triangle blocks) with their
chain's start, end and µs per step, and the update wave: forward, how long
after the chain's last block the front's update items end (what its
parent waits for); backward, how long the update items take from the
front's start before its chain may begin.
  usage: solve_trace.py TRACE [FRONTS]   (FRONTS: how many, default 8)
"""
import sys
from collections import defaultdict

KINDS = {0: "fold", 1: "tri", 2: "upd", 3: "leaf"}


def launches(items, t0):
    """The sweep's two launches (top and bottom, gpu_solve.h), told apart in
    list order: the second starts at the first ticket from which every take
    follows every earlier item's end. Per launch its items, span, mean wait
    and work; for its folded fronts the wait's percentiles (a waiting block
    holds its slot)."""
    items = sorted(items, key=lambda r: r[1])
    n = len(items)
    later = [0] * (n + 1)
    later[n] = 1 << 62
    for i in range(n - 1, -1, -1):
        later[i] = min(later[i + 1], items[i][8])
    split, end = n, 0
    for i in range(1, n):
        end = max(end, items[i - 1][10])
        if later[i] >= end:
            split = i
            break
    for name, part in (("first", items[:split]), ("second", items[split:])):
        if not part:
            continue
        wait = sum(r[9] - r[8] for r in part) / len(part) / 1e3
        work = sum(r[10] - r[9] for r in part) / len(part) / 1e3
        print(f"  {name} launch: {len(part)} items, {(min(r[8] for r in part) - t0) / 1e3:.0f}"
              f"-{(max(r[10] for r in part) - t0) / 1e3:.0f} us, wait {wait:.2f} us, work {work:.2f} us")
        folds = sorted(r[9] - r[8] for r in part if r[5] == 0)
        if folds:
            pct = [folds[int(q * (len(folds) - 1))] / 1e3 for q in (0.5, 0.9, 0.99)]
            print(f"    folded fronts' wait, 50/90/99th percentile: {pct[0]:.1f} / {pct[1]:.1f} / {pct[2]:.1f} us")


def main():
    path = sys.argv[1]
    top = int(sys.argv[2]) if len(sys.argv) > 2 else 8
    rows = []
    with open(path) as f:
        next(f)
        for line in f:
            p = line.split()
            if len(p) < 13:
                continue
            rows.append(tuple(int(x) for x in p[:11]))
    for sweep in (0, 1):
        items = [r for r in rows if r[0] == sweep and r[7] == 0]  # chunk 0
        if not items:
            continue
        t0 = min(r[8] for r in items)
        t1 = max(r[10] for r in items)
        print(f"{'forward' if sweep == 0 else 'backward'} sweep: {(t1 - t0) / 1e3:.1f} us, {len(items)} items (chunk 0)")
        by = defaultdict(list)
        for r in items:
            by[r[5]].append(r)
        for kind, rs in sorted(by.items()):
            wait = sum(r[9] - r[8] for r in rs) / len(rs) / 1e3
            work = sum(r[10] - r[9] for r in rs) / len(rs) / 1e3
            print(f"  {KINDS.get(kind, kind):5s} {len(rs):7d} items, wait {wait:7.2f} us, work {work:7.2f} us")
        launches(items, t0)
        fronts = defaultdict(list)
        for r in items:
            if r[5] != 0:
                fronts[r[2]].append(r)
        big = sorted(fronts.items(), key=lambda kv: -sum(1 for r in kv[1] if r[5] == 1))[:top]
        print("  front      m      k  blocks  start_us  chain_us  us/step  upd_end-chain_end_us" if sweep == 0 else
              "  front      m      k  blocks  start_us  upd_us  chain_us  us/step")
        for fr, rs in big:
            tri = sorted((r for r in rs if r[5] == 1), key=lambda r: r[6])
            upd = [r for r in rs if r[5] == 2]
            if not tri:
                continue
            m, k, nb = tri[0][3], tri[0][4], len(tri)
            if sweep == 0:
                start = tri[0][9]
                end = tri[-1][10]
                wave = (max(r[10] for r in upd) - end) / 1e3 if upd else 0.0
                step = (end - start) / nb / 1e3
                print(f"  {fr:6d} {m:6d} {k:6d} {nb:7d} {(start - t0) / 1e3:9.1f} {(end - start) / 1e3:9.1f} "
                      f"{step:8.2f} {wave:9.1f}")
            else:
                start = min(r[9] for r in rs)
                uend = max(r[10] for r in upd) if upd else start
                cstart = tri[-1][9]
                end = tri[0][10]
                step = (end - cstart) / nb / 1e3
                print(f"  {fr:6d} {m:6d} {k:6d} {nb:7d} {(start - t0) / 1e3:9.1f} {(uend - start) / 1e3:7.1f} "
                      f"{(end - cstart) / 1e3:9.1f} {step:8.2f}")


if __name__ == "__main__":
    main()
