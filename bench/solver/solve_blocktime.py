#!/usr/bin/env python3
"""solve_blocktime.py — where a GPU solve's block time goes, over every
column chunk (solve_trace.py reads chunk 0 only): per sweep and launch
(bottom, top) and per item kind, the tickets, and the blocks' time waiting
(ready − take) and working (done − ready) summed over them, in ms, with
each launch's span and distinct blocks. A LEAF ticket's lines (one per
leaf) count once. Input: a trace of SYLVA_SOLVE_TRACE=FILE
(kernels/gpu_solve_trace.cu: sweep ticket front m k kind index chunk take
ready done sm block parent nt nu top, times in ns).
  usage: solve_blocktime.py TRACE
"""
import sys
from collections import defaultdict

KINDS = {0: "fold", 1: "tri", 2: "upd", 3: "leaf"}


def main(path):
    seen = set()
    parts = defaultdict(lambda: defaultdict(lambda: [0, 0, 0]))  # (sweep, top) -> kind -> [n, wait, work]
    span = defaultdict(lambda: [1 << 62, 0, set()])
    with open(path) as f:
        for line in f:
            p = line.split()
            if len(p) < 17 or not p[0].isdigit():
                continue
            sweep, ticket, kind, top = int(p[0]), int(p[1]), int(p[5]), int(p[16])
            if (sweep, top, ticket) in seen:
                continue
            seen.add((sweep, top, ticket))
            take, ready, done = int(p[8]), int(p[9]), int(p[10])
            c = parts[(sweep, top)][kind]
            c[0] += 1
            c[1] += ready - take
            c[2] += done - ready
            s = span[(sweep, top)]
            s[0], s[1] = min(s[0], take), max(s[1], done)
            s[2].add((p[11], p[12]))
    for (sweep, top) in sorted(parts):
        s = span[(sweep, top)]
        name = f"{'forward' if sweep == 0 else 'backward'} {'top' if top else 'bottom'}"
        print(f"{name}: span {(s[1] - s[0]) / 1e6:.3f} ms, {len(s[2])} blocks")
        for kind, (n, wait, work) in sorted(parts[(sweep, top)].items()):
            print(f"  {KINDS.get(kind, kind):5s} {n:8d} tickets  wait {wait / 1e6:9.2f} ms  work {work / 1e6:9.2f} ms"
                  f"  ({work / n / 1e3:.2f} us a ticket)")


if __name__ == "__main__":
    main(sys.argv[1])
