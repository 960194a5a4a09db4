#!/usr/bin/env python3
"""check_trace.py TRACE RECORD [BATCHES] — a `sylva factor --trace` file
checked as a Chrome trace (JSON object format) against the run's --json
record: as many tasks logged as StarPU's workers say they executed; a
traceEvents list; one named track (thread) per StarPU worker
(cpu_workers + gpu_workers of the record), idle ones included; one complete
("X") slice per task (measured.tasks of the record) on its worker's track or
one of its lanes, never overlapping another slice of that track; slices
named by task kind with the batch statistics as arguments; with BATCHES
(the --batches file), every slice's batch exists and each batch's task
count matches its slices. Exit 0, or 1 with the first failure."""
import json
import sys

LANE, FETCH = 1000, 100000
KINDS = {"batch", "front", "potrf", "trsm", "syrk", "gemm"}


def fail(msg):
    print("check_trace: FAIL: " + msg)
    sys.exit(1)


def main():
    trace = json.load(open(sys.argv[1]))
    record = json.load(open(sys.argv[2]))
    batches = json.load(open(sys.argv[3])) if len(sys.argv) > 3 else None
    if not isinstance(trace, dict) or not isinstance(trace.get("traceEvents"), list):
        fail("no traceEvents list")
    workers = record["runtime"]["cpu_workers"] + record["runtime"]["gpu_workers"]
    ntasks = record["measured"]["tasks"]
    # StarPU's own count of executed tasks (worker profiling), independent of sylva's task log;
    # a direct GPU factorization runs no task: one record per batch of the plan.
    executed = record["workers"]["tasks_cpu"] + record["workers"]["tasks_gpu"]
    if record["workers"].get("direct"):
        executed = record["batches"]
    if ntasks != executed:
        fail("%d tasks logged, %s %d" % (ntasks, "the plan has batches:" if record["workers"].get("direct")
                                         else "StarPU's workers executed", executed))
    names, slices, fetches = {}, [], []
    for e in trace["traceEvents"]:
        for key in ("ph", "pid"):
            if key not in e:
                fail("event without %s: %r" % (key, e))
        if e["ph"] == "M" and e["name"] == "thread_name":
            if e["tid"] in names:
                fail("track %d named twice" % e["tid"])
            names[e["tid"]] = e["args"]["name"]
        elif e["ph"] == "X":
            if not (isinstance(e["ts"], (int, float)) and isinstance(e["dur"], (int, float)) and e["dur"] >= 0):
                fail("bad times in %r" % e)
            (fetches if e["cat"] == "transfer" else slices).append(e)
        elif e["ph"] != "M":
            fail("unexpected phase %r" % e["ph"])
    worker_tracks = sorted(t for t in names if t < LANE)
    if worker_tracks != list(range(workers)):
        fail("worker tracks %r, expected one per worker 0..%d" % (worker_tracks, workers - 1))
    if len(set(names[t] for t in worker_tracks)) != workers:
        fail("worker tracks not named apart: %r" % names)
    if len(slices) != ntasks:
        fail("%d task slices for %d tasks" % (len(slices), ntasks))
    by_track = {}
    for e in slices:
        if e["name"] not in KINDS:
            fail("slice named %r" % e["name"])
        if e["tid"] not in names or e["tid"] >= FETCH or e["tid"] % LANE >= workers:
            fail("task slice on track %r, not a worker's" % e["tid"])
        for key in ("batch", "fronts", "min_m", "max_m", "mean_m", "min_k", "max_k", "flops", "padding"):
            if key not in e["args"]:
                fail("slice without %s: %r" % (key, e))
        by_track.setdefault(e["tid"], []).append(e)
    for e in fetches:
        if e["tid"] not in names or e["tid"] < FETCH:
            fail("fetch slice off a data track: %r" % e)
        by_track.setdefault(e["tid"], []).append(e)
    for tid, evs in by_track.items():
        evs.sort(key=lambda e: e["ts"])
        for a, b in zip(evs, evs[1:]):
            if b["ts"] < a["ts"] + a["dur"] - 1e-3:
                fail("slices overlap on track %s" % names[tid])
    if batches is not None:
        count = {}
        for e in slices:
            count[e["args"]["batch"]] = count.get(e["args"]["batch"], 0) + 1
        if len(batches) != record["batches"]:
            fail("%d batches in the file, %d in the record" % (len(batches), record["batches"]))
        for b in batches:
            if count.get(b["batch"], 0) != b["tasks"]:
                fail("batch %d: %d slices, %d tasks" % (b["batch"], count.get(b["batch"], 0), b["tasks"]))
            if not (b["start"] <= b["end"] and b["worker"] >= 0 and b["seconds"] >= 0):
                fail("batch %d not measured: %r" % (b["batch"], b))
        if sum(count.values()) != ntasks or set(count) - set(b["batch"] for b in batches):
            fail("slices of batches that do not exist")
    print("check_trace: %d workers, %d task slices, %d fetch slices: ok" % (workers, len(slices), len(fetches)))


main()
