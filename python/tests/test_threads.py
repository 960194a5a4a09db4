"""Threads: the GIL is released while libsylva works (another Python thread
runs meanwhile), several factors are factored and solved from several
threads at once, one factor is solved from several threads, and the
runtime's thread count (threads=) is changed once no factor is open."""
import gc
import threading
import time

import numpy as np
import pytest

import sylva
from conftest import assert_solved, lap2d


def ticks_during(call):
    """How often another Python thread ran while call() ran, and call's
    duration: a call that held the GIL would let it run at most once."""
    ticks = 0
    started = threading.Event()
    done = threading.Event()

    def count():
        nonlocal ticks
        started.set()
        while not done.is_set():
            ticks += 1
            time.sleep(0.001)

    t = threading.Thread(target=count)
    t.start()
    started.wait()
    before = ticks
    start = time.perf_counter()
    try:
        result = call()
    finally:
        seconds = time.perf_counter() - start
        during = ticks - before
        done.set()
        t.join()
    return result, during, seconds


def test_gil_released_in_analysis_factorization_and_solve():
    A = lap2d(250)  # 62,500 rows: each call long enough to count ticks
    M, _ = sylva._input.as_matrix(A)
    sylva.cholesky(lap2d(3)).close()  # the runtime runs
    an, t_an, s_an = ticks_during(lambda: sylva._sylva.analyze(M, {"ordering": "metis"}, None))
    F, t_f, s_f = ticks_during(lambda: sylva._sylva.factorize(an, M))
    B = np.ones((A.shape[0], 32), order="F")
    _, t_s, s_s = ticks_during(lambda: F.solve(B, 32, "float64", None))
    assert_solved(A, B, np.ones((A.shape[0], 32)))
    for what, ticks, seconds in (("analysis", t_an, s_an), ("factorization", t_f, s_f), ("solve", t_s, s_s)):
        assert seconds < 0.02 or ticks >= 3, f"{what}: {ticks} ticks in {seconds:.3f} s: the GIL was held"
    F.close()


def test_factors_from_several_threads():
    mats = [lap2d(m) for m in (20, 25, 30, 35, 40, 45)]
    errors = []

    def work(A):
        try:
            for _ in range(3):
                with sylva.cholesky(A) as F:
                    b = np.random.default_rng().standard_normal((A.shape[0], 2))
                    assert_solved(A, F(b), b)
                    assert np.isfinite(F.logdet())
        except Exception as e:  # reported below, with the thread's matrix
            errors.append((A.shape, e))

    threads = [threading.Thread(target=work, args=(A,)) for A in mats]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors


def test_one_factor_solved_from_several_threads():
    A = lap2d(60)
    F = sylva.cholesky(A)
    B = np.random.default_rng(7).standard_normal((A.shape[0], 8))
    out = [None] * 8

    def solve(j):
        for _ in range(5):
            out[j] = F(B[:, j])

    threads = [threading.Thread(target=solve, args=(j,)) for j in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert_solved(A, np.column_stack(out), B)


def test_refactor_and_close_refused_while_another_thread_solves():
    A = lap2d(250)
    F = sylva.cholesky(A)
    B = np.ones((A.shape[0], 128))
    out = {}
    t = threading.Thread(target=lambda: out.setdefault("x", F(B)))
    t.start()
    deadline = time.perf_counter() + 10
    while not F._F.in_use and time.perf_counter() < deadline:
        pass
    assert F._F.in_use, "the solve did not start"
    with pytest.raises(RuntimeError, match="another thread solves"):
        F.refactor(A)
    with pytest.raises(RuntimeError, match="another thread solves"):
        F.close()
    t.join()
    assert_solved(A, out["x"], B)
    F.refactor(A)
    F.close()


def test_threads_option_restarts_the_runtime():
    gc.collect()  # factors of earlier tests
    A = lap2d(10)
    F = sylva.cholesky(A, threads=1)
    assert F.info["runtime"]["cpu_workers"] == 1
    with pytest.raises(sylva.SylvaValueError, match="still open"):
        sylva.cholesky(A, threads=2)
    G = sylva.cholesky(A)  # threads not given: the running runtime's
    assert G.info["runtime"]["cpu_workers"] == 1
    F.close()
    G.close()
    H = sylva.cholesky(A, threads=2)
    assert H.info["runtime"]["cpu_workers"] == 2
    assert_solved(A, H(np.ones(100)), np.ones(100))
    H.close()
    C = sylva.cholesky(A, mode="cpu")
    assert C.info["mode"] == "cpu" and C.info["runtime"]["gpu_workers"] == 0
    D = sylva.cholesky(A)  # mode not given: the running runtime's (no GPU workers)
    assert D.info["runtime"]["gpu_workers"] == 0
    C.close()
    D.close()
