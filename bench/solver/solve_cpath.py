#!/usr/bin/env python3
"""solve_cpath.py — the critical path of a GPU solve trace (SYLVA_SOLVE_TRACE=FILE, kernels/gpu_solve_trace.cu;
its lines carry each front's parent record, triangle items, update items and part since v15). Per sweep (column
chunk 0), from the item that ends last back to the start, each item's predecessor is the item it depends on
(gpu_solve_flow.cu's waits: forward, the children's signals — a folded child's item, a split child's last update —
and the triangle item before; backward, the parent's signal — its folded item or its first triangle item — or the
front's own update items, and the triangle item after; an update item forward, its front's triangle items) that
ended last before the item's own end. Each step from predecessor P to item X is split into take delay (X taken
after P was done: no block free, or X's launch not started), wake (P done → X ready) and work (X ready, or P done
if later → X done), summed per kind and part (top: the top's launch), then listed front by front.
  usage: solve_cpath.py TRACE
"""
import sys
from collections import defaultdict

KINDS = {0: "fold", 1: "tri", 2: "upd", 3: "leaf"}


def main():
    rows = []
    with open(sys.argv[1]) as f:
        head = next(f).split()
        if "parent" not in head:
            sys.exit("solve_cpath.py: a trace without the parent column (written before v15)")
        for line in f:
            p = line.split()
            if len(p) >= 17:
                rows.append(tuple(int(x) for x in p[:17]))
    front = {}
    for r in rows:
        front[r[2]] = dict(m=r[3], k=r[4], parent=r[13], nt=r[14])
    children = defaultdict(set)
    for f, v in front.items():
        if v["parent"] >= 0:
            children[v["parent"]].add(f)
    for sweep in (0, 1):
        it = sorted((r for r in rows if r[0] == sweep and r[7] == 0), key=lambda r: r[1])
        if not it:
            continue
        by = defaultdict(lambda: defaultdict(list))
        nu = {}
        for r in it:
            by[r[2]][r[5]].append(r)
            nu[r[2]] = r[15]
        t0 = min(r[8] for r in it)

        def signal(f):
            if front[f]["nt"] == 0:
                return by[f][0] + by[f][3]  # its FOLD item, or its line of a LEAF item
            if sweep == 0:
                return by[f][2] or by[f][1]
            return [x for x in by[f][1] if x[6] == 0]

        def deps(r):
            f, kind, idx = r[2], r[5], r[6]
            d = []
            if sweep == 0:
                if kind != 2:
                    for c in children[f]:
                        d += signal(c)
                if kind == 1 and idx > 0:
                    d += [x for x in by[f][1] if x[6] == idx - 1]
                if kind == 2:
                    d += by[f][1]
            else:
                par = front[f]["parent"]
                if par >= 0 and par in front and (kind != 1 or nu[f] == 0):
                    d += signal(par)
                if kind == 1:
                    d += by[f][2]
                    if idx < front[f]["nt"] - 1:
                        d += [x for x in by[f][1] if x[6] == idx + 1]
            return d

        r = max(it, key=lambda x: x[10])
        path = [(r, None)]
        while True:
            ds = [x for x in deps(r) if x[10] <= r[10]]
            if not ds:
                break
            p = max(ds, key=lambda x: x[10])
            path[-1] = (r, p)
            path.append((p, None))
            r = p
        path.reverse()
        acc = defaultdict(float)
        first = path[0][0]
        acc["start"] += (first[9] - t0) / 1e3
        acc[f"work {'top' if first[16] else 'bot'} {KINDS[first[5]]}"] += (first[10] - first[9]) / 1e3
        segs = []
        prev = first
        for r, _ in path[1:]:
            part = "top" if r[16] else "bot"
            delay = max(0, r[8] - prev[10])
            wake = max(0, r[9] - max(prev[10], r[8]))
            work = r[10] - max(r[9], prev[10])
            acc[f"take delay {part}"] += delay / 1e3
            acc[f"wake {part} {KINDS[r[5]]}"] += wake / 1e3
            acc[f"work {part} {KINDS[r[5]]}"] += work / 1e3
            if segs and segs[-1][0] == r[2] and segs[-1][1] == r[5]:
                s = segs[-1]
                segs[-1] = (s[0], s[1], s[2] + 1, s[3] + delay, s[4] + wake, s[5] + work, part)
            else:
                segs.append((r[2], r[5], 1, delay, wake, work, part))
            prev = r
        span = (max(x[10] for x in it) - t0) / 1e3
        print(f"{'forward' if sweep == 0 else 'backward'}: span {span:.1f} us, {len(it)} items, critical path "
              f"{len(path)} items")
        for name, v in sorted(acc.items(), key=lambda kv: -kv[1]):
            if v >= 0.05:
                print(f"  {name:20s} {v:8.1f} us")
        print("  front      m      k  kind part items  delay_us  wake_us  work_us")
        for f, kind, cnt, de, wa, wo, part in segs:
            print(f"  {f:6d} {front[f]['m']:6d} {front[f]['k']:6d}  {KINDS[kind]:4s} {part:4s} {cnt:5d} "
                  f"{de / 1e3:9.1f} {wa / 1e3:8.1f} {wo / 1e3:8.1f}")
        for part in (0, 1):
            rs = [x for x in it if x[16] == part]
            if rs:
                print(f"  {'top' if part else 'bottom'} launch: {len(rs)} items, first take "
                      f"{(min(x[8] for x in rs) - t0) / 1e3:.1f} us, last take {(max(x[8] for x in rs) - t0) / 1e3:.1f}"
                      f", end {(max(x[10] for x in rs) - t0) / 1e3:.1f}")


if __name__ == "__main__":
    main()
