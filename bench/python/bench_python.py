#!/usr/bin/env python3
"""bench_python.py — what the Python package costs over libsylva, and sylva
against scikit-sparse's cholesky (CHOLMOD), on the same matrices; JSON.

    python bench/python/bench_python.py [--threads 1,2] [--repeat 5] [--json out.json]
                                        [--gen build/matrices/sylva-gen] SPEC...

SPEC: KIND:N for sylva-gen (lap3d7:50, elast3d:20, ...) or a .mtx path.
Each (solver, thread count) runs in a process of its own (sylva_init sets
OpenBLAS to one thread while sylva runs, which CHOLMOD must not see), with
OPENBLAS_NUM_THREADS = the thread count for CHOLMOD's BLAS.

Rows of solver "sylva" (the Python API) time, from Python, each call a
user makes and set beside it the seconds libsylva measured inside the
same call (its info structs), so that overhead = python / C - 1:
  first:    cholesky(A) from a scipy.sparse CSC (checks, the one copy into
            libsylva's matrix, analysis, factorization) against the
            matrix's construction (_sylva.Matrix, C) + analysis + factor
            seconds;
  factor:   refactor(A) (checks, the copy, the numeric factorization;
            best of --repeat) against the matrix's construction (C) +
            sylva_factor_info.seconds of that call;
  solve:    F(b), one right-hand side (best of --repeat), against
            sylva_solve_info.seconds.
Rows of solver "scikit-sparse" (when sksparse imports): cholesky(A)
(analysis + factorization), cholesky_inplace(A) (refactorization, best
of --repeat), F(b). Both solvers use the METIS ordering; sylva its
default batching policy and CPU workers.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np


def load(spec, gen, cache):
    import scipy.io
    import scipy.sparse as sp

    if spec.endswith(".mtx"):
        return sp.csc_matrix(scipy.io.mmread(spec), dtype=np.float64)
    kind, size = spec.split(":")
    npz = os.path.join(cache, f"{kind}_{size}.npz")
    if not os.path.exists(npz):
        mtx = os.path.join(cache, f"{kind}_{size}.mtx")
        subprocess.run([gen, kind, size, "-o", mtx], check=True, capture_output=True)
        sp.save_npz(npz, sp.csc_matrix(scipy.io.mmread(mtx), dtype=np.float64))
        os.unlink(mtx)
    return sp.load_npz(npz).tocsc()


def wall(call):
    t = time.perf_counter()
    r = call()
    return time.perf_counter() - t, r


def run_sylva(A, threads, repeat):
    import sylva
    from sylva import _sylva

    b = np.random.default_rng(0).standard_normal(A.shape[0])
    sylva.cholesky(A[:10, :10] + 10 * __import__("scipy.sparse").sparse.identity(10), threads=threads).close()
    t_first, F = wall(lambda: sylva.cholesky(A, threads=threads, ordering="metis"))

    def c_matrix():  # what a C program does with the same arrays: sylva_matrix_from_csc32
        return wall(lambda: _sylva.Matrix(A.shape[0], A.indptr, A.indices, A.data, "full"))[0]

    info = F.info
    c_first = c_matrix() + info["analysis"]["seconds"] + info["seconds"]
    fac, sol = [], []
    for _ in range(repeat):
        t, _ = wall(lambda: F.refactor(A))
        fac.append((t, F.info["seconds"] + c_matrix()))
        t, x = wall(lambda: F(b))
        sol.append((t, F.last_solve["seconds"]))
    best_f = min(fac)
    best_s = min(sol)
    r = np.abs(A @ x - b).max() / (abs(A).sum(axis=1).max() * np.abs(x).max() + np.abs(b).max())
    rows = []
    for phase, py, c, samples in (("first", t_first, c_first, [(t_first, c_first)]), ("factor", *best_f, fac),
                                  ("solve", *best_s, sol)):
        rows.append({"solver": "sylva", "phase": phase, "threads": threads, "python_s": py, "c_s": c,
                     "overhead": py / c - 1, "overhead_median": statistics.median(p / q - 1 for p, q in samples),
                     "backward_error": float(r), "nnz_L": info["analysis"]["nnz_L"],
                     "flops": info["analysis"]["flops"], "mode": info["mode"]})
    F.close()
    return rows


def run_sksparse(A, threads, repeat):
    from sksparse.cholmod import cholesky

    b = np.random.default_rng(0).standard_normal(A.shape[0])
    t_first, F = wall(lambda: cholesky(A, ordering_method="metis"))
    fac = [wall(lambda: F.cholesky_inplace(A))[0] for _ in range(repeat)]
    sol = []
    for _ in range(repeat):
        t, x = wall(lambda: F(b))
        sol.append(t)
    r = np.abs(A @ x - b).max() / (abs(A).sum(axis=1).max() * np.abs(x).max() + np.abs(b).max())
    return [{"solver": "scikit-sparse", "phase": p, "threads": threads, "python_s": t, "backward_error": float(r)}
            for p, t in (("first", t_first), ("factor", min(fac)), ("solve", min(sol)))]


def child(args):
    A = load(args.spec[0], args.gen, args.cache)
    rows = (run_sylva if args.child == "sylva" else run_sksparse)(A, args.threads_one, args.repeat)
    for r in rows:
        r.update(matrix=args.spec[0], n=A.shape[0], nnz=int(A.nnz))
    print(json.dumps(rows))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("spec", nargs="+")
    ap.add_argument("--threads", default=str(os.cpu_count()))
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--json")
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--gen", default=os.path.join(here, "..", "..", "build", "matrices", "sylva-gen"))
    ap.add_argument("--solvers", default="sylva,scikit-sparse")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    ap.add_argument("--threads-one", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--cache", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        return child(args)
    rows = []
    with tempfile.TemporaryDirectory() as cache:
        for spec in args.spec:
            for solver in args.solvers.split(","):
                if solver == "scikit-sparse":
                    probe = subprocess.run([sys.executable, "-c", "import sksparse.cholmod"], capture_output=True)
                    if probe.returncode:
                        print("scikit-sparse: not importable, skipped", file=sys.stderr)
                        continue
                for t in (int(x) for x in args.threads.split(",")):
                    env = dict(os.environ, OPENBLAS_NUM_THREADS=str(t))
                    cmd = [sys.executable, __file__, spec, "--child", solver, "--threads-one", str(t),
                           "--repeat", str(args.repeat), "--gen", args.gen, "--cache", cache]
                    out = subprocess.run(cmd, env=env, capture_output=True, text=True)
                    if out.returncode:
                        sys.exit(f"{solver} {spec} threads={t} failed:\n{out.stderr}")
                    got = json.loads(out.stdout.strip().splitlines()[-1])
                    rows += got
                    for r in got:
                        extra = f"  C {r['c_s']:.4f} s  overhead {100 * r['overhead']:+.1f}%" if "c_s" in r else ""
                        print(f"{spec:>12} {solver:>13} t={t} {r['phase']:>6} {r['python_s']:.4f} s{extra}",
                              file=sys.stderr)
                    if args.json:
                        with open(args.json, "w") as f:
                            json.dump({"rows": rows, "cpus": os.cpu_count()}, f, indent=1)
    print(json.dumps({"rows": rows}, indent=1))


if __name__ == "__main__":
    main()
