#!/usr/bin/env python3
"""check_study.py DIR POLICIES [--thresholds] — a `sylva study` folder
checked: study.json against its schema (every key, its type and its range;
one run per configuration — each policy of the comma-separated POLICIES,
and with --thresholds its four variants —, every run accurate, its first
factorization apart and its ranked times — the refactorizations, or the
one factorization — giving its median, min and max, `fastest` the fastest
median and `worst` the slowest, `best` the fastest only when its lead over
the runner-up exceeds the spread (max − min) of either, else null, the
measured summaries consistent),
each run's trace a valid Chrome trace with a slice per task, and study.html
self-contained (no external reference) with every inline SVG well-formed
XML, a bar per run and the tree. Exit 0, or 1 naming the first failure."""
import json
import math
import os
import re
import sys
import xml.etree.ElementTree as ET


def fail(msg):
    print("check_study: FAIL: " + msg)
    sys.exit(1)


def typed(obj, key, kind, where):
    if key not in obj:
        fail("%s: no %s" % (where, key))
    v = obj[key]
    ok = {"int": lambda x: isinstance(x, int) and not isinstance(x, bool),
          "num": lambda x: isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x),
          "str": lambda x: isinstance(x, str),
          "bool": lambda x: isinstance(x, bool),
          "list": lambda x: isinstance(x, list),
          "obj": lambda x: isinstance(x, dict),
          "str?": lambda x: x is None or isinstance(x, str)}[kind](v)
    if not ok:
        fail("%s: %s = %r is not %s" % (where, key, v, kind))
    return v


SUMMARY = {"batches": "int", "tasks": "int", "span_seconds": "num", "cpu_busy_seconds": "num",
           "cpu_idle_seconds": "num", "gpu_busy_seconds": "num", "gpu_idle_seconds": "num",
           "fetch_seconds": "num", "batch_seconds_median": "num", "gflops_min": "num", "gflops_median": "num",
           "gflops_max": "num", "fronts_per_batch": "num", "padding": "num", "padding_level": "num",
           "batch_size_hist": "list", "padding_hist": "list"}
RUN = {"label": "str", "policy": "str", "small_rows": "int", "batch_flops": "num", "status": "str",
       "mode": "str", "seconds": "list", "seconds_first": "num", "ranked_repetitions": "int",
       "seconds_median": "num", "seconds_best": "num", "seconds_worst": "num",
       "measured_repetition": "int", "gflops": "num", "backward_error": "num", "accurate": "bool",
       "plan_batches": "int", "plan_padding_waste": "num", "measured": "obj", "trace": "str"}
TOP = {"status": "str", "command": "str", "version": "str", "file": "str", "n": "int", "nnz_A": "int",
       "nnz_L": "int", "flops": "num", "fronts": "int", "tree_height": "int", "max_front_rows": "int",
       "ordering": "str", "rhs": "str", "runtime": "obj", "options": "obj", "fastest": "str", "best": "str?",
       "verdict": "str", "worst": "str",
       "runs": "list", "html": "str"}


def check_json(d, policies, thresholds):
    s = json.load(open(os.path.join(d, "study.json")))
    for k, t in TOP.items():
        typed(s, k, t, "study.json")
    if s["status"] != "ok" or s["command"] != "study":
        fail("status %r, command %r" % (s["status"], s["command"]))
    for k in ("cpu_workers", "gpu_workers", "gpus"):
        typed(s["runtime"], k, "int", "runtime")
    for k, t in (("repeat", "int"), ("thresholds", "bool"), ("max_backward_error", "num")):
        typed(s["options"], k, t, "options")
    runs = s["runs"]
    per = 5 if thresholds else 1
    if [r["policy"] for r in runs] != [p for p in policies for _ in range(per)]:
        fail("runs %r for policies %r" % ([r["label"] for r in runs], policies))
    if len(set(r["label"] for r in runs)) != len(runs):
        fail("labels repeat")
    tol = s["options"]["max_backward_error"]
    for r in runs:
        w = "run " + r.get("label", "?")
        for k, t in RUN.items():
            typed(r, k, t, w)
        for k, t in SUMMARY.items():
            typed(r["measured"], k, t, w + " measured")
        m = r["measured"]
        if r["status"] != "ok" or not r["accurate"] or not (0 <= r["backward_error"] <= tol):
            fail("%s: status %s, backward error %r" % (w, r["status"], r["backward_error"]))
        ranked = r["seconds"][1:] if len(r["seconds"]) > 1 else r["seconds"]
        if len(r["seconds"]) != s["options"]["repeat"] or sorted(ranked)[(len(ranked) - 1) // 2] != r["seconds_median"]:
            fail("%s: seconds %r, median %r" % (w, r["seconds"], r["seconds_median"]))
        if r["seconds_first"] != r["seconds"][0] or r["ranked_repetitions"] != len(ranked):
            fail("%s: first %r, %d ranked of %r" % (w, r["seconds_first"], r["ranked_repetitions"], r["seconds"]))
        if r["seconds_best"] != min(ranked) or r["seconds_worst"] != max(ranked) or r["seconds_median"] <= 0:
            fail("%s: min %r, max %r of %r" % (w, r["seconds_best"], r["seconds_worst"], ranked))
        if sum(m["batch_size_hist"]) != m["batches"] or sum(m["padding_hist"]) != m["batches"]:
            fail("%s: histograms do not add up to %d batches" % (w, m["batches"]))
        if m["tasks"] < m["batches"] or m["batches"] < 1:
            fail("%s: %d tasks for %d batches" % (w, m["tasks"], m["batches"]))
        if not (0 <= m["padding"] < 1 and 0 <= m["padding_level"] < 1 and m["gflops_min"] <= m["gflops_median"] <= m["gflops_max"]):
            fail("%s: padding or rates out of range: %r" % (w, m))
        if m["cpu_busy_seconds"] + m["gpu_busy_seconds"] <= 0 or m["span_seconds"] <= 0:
            fail("%s: nothing measured" % w)
        if abs(m["fronts_per_batch"] * m["batches"] - s["fronts"]) > 1e-6 * s["fronts"]:
            fail("%s: %g fronts per batch × %d batches != %d fronts" % (w, m["fronts_per_batch"], m["batches"], s["fronts"]))
        if r["policy"] != "ready" and r["plan_batches"] != m["batches"]:
            fail("%s: plan has %d batches, the run %d" % (w, r["plan_batches"], m["batches"]))
        check_trace_file(os.path.join(d, r["trace"]), m, s["runtime"], w)
    med = {r["label"]: r["seconds_median"] for r in runs}
    if med[s["fastest"]] != min(med.values()) or med[s["worst"]] != max(med.values()):
        fail("fastest %s / worst %s are not the fastest / slowest of %r" % (s["fastest"], s["worst"], med))
    # best: the fastest, only when its lead over the runner-up exceeds the spread of either.
    order = sorted(runs, key=lambda r: r["seconds_median"])
    starred = False
    if len(order) >= 2 and order[0]["ranked_repetitions"] >= 2 and order[1]["ranked_repetitions"] >= 2:
        lead = order[1]["seconds_median"] - order[0]["seconds_median"]
        spread = max(r["seconds_worst"] - r["seconds_best"] for r in order[:2])
        starred = lead > spread
    if s["best"] != (s["fastest"] if starred else None):
        fail("best %r, but the fastest %s %s its runner-up by more than the spread: %s" %
             (s["best"], s["fastest"], "leads" if starred else "does not lead", s["verdict"]))
    if not s["verdict"].startswith("best: " if starred else "no best" if len(order) >= 2 else "one run succeeded"):
        fail("verdict %r" % s["verdict"])
    return s


def check_trace_file(path, m, runtime, w):
    t = json.load(open(path))
    ev = t["traceEvents"]
    tracks = [e["tid"] for e in ev if e["ph"] == "M" and e["name"] == "thread_name" and e["tid"] < 1000]
    if sorted(tracks) != list(range(runtime["cpu_workers"] + runtime["gpu_workers"])):
        fail("%s: trace tracks %r" % (w, tracks))
    if sum(1 for e in ev if e["ph"] == "X" and e["cat"] == "task") != m["tasks"]:
        fail("%s: trace slices differ from %d tasks" % (w, m["tasks"]))


def check_html(d, s):
    html = open(os.path.join(d, "study.html"), encoding="utf-8").read()
    if re.search(r'(src|href)\s*=\s*"(https?:)?//', html) or "@import" in html or "url(http" in html:
        fail("study.html refers to something outside itself")
    svgs = re.findall(r"<svg\b.*?</svg>", html, re.S)
    for i, svg in enumerate(svgs):
        try:
            ET.fromstring(svg)
        except ET.ParseError as e:
            fail("SVG %d is not well-formed: %s" % (i, e))
    for r in s["runs"]:
        fl = re.sub(r"[^A-Za-z0-9.-]", "_", r["label"])
        if 'id="bar-%s"' % fl not in html or 'id="row-%s"' % fl not in html:
            fail("no bar or row for %s" % r["label"])
    tree = re.search(r'<svg id="tree-best".*?</svg>', html, re.S)
    if not tree or tree.group(0).count('class="front"') < 1:
        fail("no tree of the best run")
    if s["verdict"].replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;") not in html:
        fail("the verdict is not in study.html")
    starred = re.findall(r'<rect class="bar best"', html)
    if len(starred) != (1 if s["best"] else 0):
        fail("%d starred bars for best %r" % (len(starred), s["best"]))
    cpu = [r for r in s["runs"] if r["mode"] == "cpu"]
    if cpu and 'class="hist padding"' in html:
        fail("a padding histogram for CPU runs, which pad nothing")
    if 'id="timeline-best"' not in html:
        fail("no timeline of the best run")
    print("check_study: %d runs, %d inline SVGs, best %s: ok" % (len(s["runs"]), len(svgs), s["best"]))


def main():
    d, policies = sys.argv[1], sys.argv[2].split(",")
    s = check_json(d, policies, "--thresholds" in sys.argv[3:])
    check_html(d, s)


main()
