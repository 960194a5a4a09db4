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
count matches its slices. The dependencies: every flow starts ("s") on a
task slice of one batch and ends ("f") on the first task slice of another,
which started after the first batch's last task ended, and (with BATCHES)
each batch receives as many flows as the library says it has child
batches. The critical path: a track of consecutive slices, as many as
otherData says, ending with the run's last task, each naming a batch whose
task slices are marked critical_path (and no others are). The waiting
counters: one per worker, never negative, back to 0 at the end. The device
memory counters: one per GPU ("device memory GPU i (CUDA d)"), present
exactly when GPU tasks ran (or a direct GPU run) and absent on a CPU run
(otherData memory_samples 0 then), bytes whole and not negative, one
event per instant in time order, no more events than memory_samples.
Exit 0, or 1 with the first failure."""
import json
import sys

LANE, FETCH, CRITICAL = 1000, 100000, 200000
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
    names, slices, fetches, critical, flows, counters = {}, [], [], [], {}, {}
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
            {"transfer": fetches, "critical": critical}.get(e["cat"], slices).append(e)
        elif e["ph"] in ("s", "f"):
            if e["ph"] in flows.setdefault(e["id"], {}):
                fail("flow %r has two %s events" % (e["id"], e["ph"]))
            flows[e["id"]][e["ph"]] = e
        elif e["ph"] == "C":
            counters.setdefault(e["name"], []).append(e)
        elif e["ph"] != "M":
            fail("unexpected phase %r" % e["ph"])
    worker_tracks = sorted(t for t in names if t < LANE and t >= 0)
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
        if e["tid"] not in names or e["tid"] < FETCH or e["tid"] >= CRITICAL:
            fail("fetch slice off a data track: %r" % e)
        by_track.setdefault(e["tid"], []).append(e)
    for e in critical:
        if e["tid"] != CRITICAL or names.get(CRITICAL) != "critical path":
            fail("critical slice off the critical path's track: %r" % e)
        by_track.setdefault(e["tid"], []).append(e)
    for tid, evs in by_track.items():
        evs.sort(key=lambda e: e["ts"])
        for a, b in zip(evs, evs[1:]):
            if b["ts"] < a["ts"] + a["dur"] - 1e-3:
                fail("slices overlap on track %s" % names[tid])
    memory = {name: evs for name, evs in counters.items() if name.startswith("device memory GPU ")}
    for name in memory:
        del counters[name]
    check_memory(trace, record, memory)
    check_dependencies(trace, slices, critical, flows, counters, names, workers, batches)
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
    print("check_trace: %d workers, %d task slices, %d fetch slices, %d dependencies, critical path of %d: ok" %
          (workers, len(slices), len(fetches), len(flows), len(critical)))


def check_memory(trace, record, memory):
    samples = trace["otherData"].get("memory_samples")
    if not isinstance(samples, int) or samples < 0:
        fail("otherData memory_samples %r" % samples)
    gpu_ran = record["workers"]["tasks_gpu"] > 0 or bool(record["workers"].get("direct"))
    if gpu_ran != bool(memory):
        fail("device memory counters %r on a run %s GPU tasks" % (sorted(memory), "with" if gpu_ran else "without"))
    if not gpu_ran and samples != 0:
        fail("%d memory samples on a run without GPU tasks" % samples)
    if sum(len(evs) for evs in memory.values()) > samples:
        fail("more device memory events than otherData's %d samples" % samples)
    if len(memory) > record["runtime"]["gpus"]:
        fail("%d device memory counters for %d GPUs" % (len(memory), record["runtime"]["gpus"]))
    for name, evs in memory.items():
        ts = [e["ts"] for e in evs]
        if any(b <= a for a, b in zip(ts, ts[1:])) or min(ts) < 0:
            fail("counter %s: times not increasing or negative" % name)
        for e in evs:
            b = e["args"].get("bytes")
            if not isinstance(b, int) or b < 0:
                fail("counter %s: bytes %r" % (name, b))


def check_dependencies(trace, slices, critical, flows, counters, names, workers, batches):
    at = {(e["tid"], e["ts"]): e for e in slices}
    first = {}
    last_end = {}
    for e in slices:
        b = e["args"]["batch"]
        if b not in first or e["ts"] < first[b]["ts"]:
            first[b] = e
        last_end[b] = max(last_end.get(b, -1), e["ts"] + e["dur"])
    into = {}
    for fid, pair in flows.items():
        if set(pair) != {"s", "f"}:
            fail("flow %r lacks an end: %r" % (fid, pair))
        a, z = at.get((pair["s"]["tid"], pair["s"]["ts"])), at.get((pair["f"]["tid"], pair["f"]["ts"]))
        if a is None or z is None or pair["f"].get("bp") != "e":
            fail("flow %r is not bound to task slices: %r" % (fid, pair))
        u, v = a["args"]["batch"], z["args"]["batch"]
        if u == v or z is not first[v]:
            fail("flow %r from batch %d to %d, not to its first task" % (fid, u, v))
        if last_end[u] > z["ts"] + 1e-3:
            fail("batch %d started (%.3f us) before batch %d, which it waits for, ended (%.3f us)" %
                 (v, z["ts"], u, last_end[u]))
        into[v] = into.get(v, 0) + 1
    if batches is not None:
        for b in batches:
            if b["tasks"] > 0 and into.get(b["batch"], 0) != b["child_batches"]:
                fail("batch %d: %d dependency flows in, %d child batches" %
                     (b["batch"], into.get(b["batch"], 0), b["child_batches"]))
    other = trace["otherData"]
    if other["dependencies"] != len(flows):
        fail("%d flows, otherData says %d dependencies" % (len(flows), other["dependencies"]))
    critical.sort(key=lambda e: e["ts"])
    if len(critical) != other["critical_path_batches"] or (slices and not critical):
        fail("%d critical slices, otherData says %d" % (len(critical), other["critical_path_batches"]))
    if [e["args"]["step"] for e in critical] != list(range(1, len(critical) + 1)):
        fail("critical path steps out of order")
    on_path = {e["args"]["batch"] for e in critical}
    if critical and abs(critical[-1]["ts"] + critical[-1]["dur"] - max(last_end.values())) > 1e-3:
        fail("the critical path does not end with the run's last task")
    for e in slices:
        if e["args"]["critical_path"] != (e["args"]["batch"] in on_path):
            fail("task slice of batch %d marked critical_path %r" % (e["args"]["batch"], e["args"]["critical_path"]))
    wanted = {"waiting for " + names[w] for w in range(workers)}
    if not set(counters) <= wanted:
        fail("counters %r, not one per worker" % sorted(counters))
    for name, evs in counters.items():
        evs.sort(key=lambda e: e["ts"])
        if any(e["args"]["tasks"] < 0 for e in evs) or evs[-1]["args"]["tasks"] != 0:
            fail("counter %s goes negative or does not end at 0" % name)


main()
