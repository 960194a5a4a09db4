"""Solutions and log-determinants against scipy.sparse.linalg.spsolve and
numpy.linalg.slogdet on the shipped and generated matrices; every input
format, index type and triangle; float32; 1-D and 2-D right-hand sides;
refactorization; L, perm, info, the linear operator; spsolve, factorized."""
import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.linalg as sla

import sylva
from conftest import EPS64, REAL, assert_solved, generated, lap2d, read_real


@pytest.mark.parametrize("name", REAL)
def test_real_matrices_against_scipy(name):
    A = read_real(name)
    n = A.shape[0]
    rng = np.random.default_rng(1)
    b = rng.standard_normal(n)
    with sylva.cholesky(A) as F:
        x = F(b)
        assert_solved(A, x, b)
        ref = sla.spsolve(A, b)
        # Both are backward stable: agree to the condition number's reach.
        assert np.linalg.norm(x - ref) <= 1e-6 * max(1.0, np.linalg.norm(ref)) * max(1.0, 1e-10 / F.rcond())
        if n <= 2500:
            sign, ld = np.linalg.slogdet(A.toarray())
            assert sign == 1.0
            assert abs(F.logdet() - ld) <= 1e-9 * max(1.0, abs(ld))


@pytest.mark.parametrize("kind,size", [("lap3d7", 10), ("lap2d5", 30), ("elast3d", 5), ("lap3d27", 6)])
def test_generated_matrices(kind, size, tmp_path):
    A = generated(kind, size, tmp_path)
    if A is None:
        A = lap2d(size)
    b = np.random.default_rng(2).standard_normal((A.shape[0], 3))
    F = sylva.cholesky(A, ordering="metis")
    assert_solved(A, F(b), b)
    sign, ld = np.linalg.slogdet(A.toarray())
    assert sign == 1.0 and abs(F.logdet() - ld) <= 1e-9 * abs(ld)
    F.close()


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo"])
@pytest.mark.parametrize("index", [np.int32, np.int64])
@pytest.mark.parametrize("lower", [None, True, False])
@pytest.mark.parametrize("array", [False, True])
def test_every_format_index_and_triangle(fmt, index, lower, array):
    full = read_real("bcsstk01")
    stored = full if lower is None else (sp.tril(full) if lower else sp.triu(full))
    M = stored.asformat(fmt)
    if fmt == "coo":
        M.row = M.row.astype(index)
        M.col = M.col.astype(index)
    else:
        M.indptr = M.indptr.astype(index)
        M.indices = M.indices.astype(index)
    if array:
        M = sp.csc_array(M).asformat(fmt) if fmt != "coo" else sp.coo_array(M)
    b = np.arange(1.0, full.shape[0] + 1)
    F = sylva.cholesky(M, lower=lower)
    assert_solved(full, F(b), b)
    np.testing.assert_allclose(F.logdet(), np.linalg.slogdet(full.toarray())[1], rtol=1e-12)


def test_unsorted_and_duplicate_entries_are_summed():
    full = lap2d(6)
    L = sp.tril(full, format="coo")
    # Split each value in two entries, shuffled: COO and CSC with duplicates.
    rng = np.random.default_rng(3)
    perm = rng.permutation(2 * L.nnz)
    row = np.concatenate([L.row, L.row])[perm]
    col = np.concatenate([L.col, L.col])[perm]
    val = np.concatenate([L.data / 2, L.data / 2])[perm]
    coo = sp.coo_matrix((val, (row, col)), shape=full.shape)
    order = np.argsort(col, kind="stable")  # columns in order, rows within them not
    indptr = np.concatenate([[0], np.cumsum(np.bincount(col, minlength=full.shape[0]))])
    csc2 = sp.csc_matrix((val[order], row[order], indptr), shape=full.shape)
    assert not csc2.has_canonical_format
    b = np.ones(full.shape[0])
    for M in (coo, csc2):
        assert_solved(full, sylva.cholesky(M, lower=True)(b), b)


def test_lower_triangle_is_used_in_place():
    A = sp.tril(lap2d(8), format="csc")
    A.sort_indices()
    F = sylva.cholesky(A, lower=True)
    assert F._matrix.in_place
    assert not sylva.cholesky(lap2d(8))._matrix.in_place


def test_float32():
    A = read_real("nos5")
    b = np.random.default_rng(4).standard_normal(A.shape[0])
    A32 = A.astype(np.float32)
    F = sylva.cholesky(A32)
    assert F.dtype == np.float32 and F.info["precision"] == "float32"
    x32 = F(b.astype(np.float32))
    assert x32.dtype == np.float32
    assert_solved(A, x32.astype(np.float64), b, tol=1e-5)
    # Mixed precision: float64 b, solved in float32 with float64 residuals.
    x64 = F(b)
    assert x64.dtype == np.float64
    assert_solved(A, x64, b, tol=1e-5)
    np.testing.assert_allclose(F.logdet(), np.linalg.slogdet(A.toarray())[1], rtol=1e-5)
    # A float32 factor of a float64 matrix, and refinement to double accuracy.
    G = sylva.cholesky(A, precision="float32", refine="auto")
    assert G.dtype == np.float32
    assert_solved(A, G(b), b)
    assert G.last_solve["refine_steps"] >= 1


def test_right_hand_side_shapes_and_types(lap):
    n = lap.shape[0]
    F = sylva.cholesky(lap)
    b1 = np.linspace(1, 2, n)
    x1 = F(b1)
    assert x1.shape == (n,) and x1.dtype == np.float64
    assert_solved(lap, x1, b1)
    B = np.random.default_rng(5).standard_normal((n, 7))
    for order in ("C", "F"):
        Bo = np.array(B, order=order)
        X = F.solve(Bo)
        assert X.shape == (n, 7)
        assert_solved(lap, X, B)
        np.testing.assert_array_equal(Bo, B)  # b is not touched
    X = F(B[:, ::2])  # a strided view
    assert_solved(lap, X, B[:, ::2])
    assert F(np.empty((n, 0))).shape == (n, 0)
    assert_solved(lap, F(list(b1)), b1)
    bi = np.arange(n)
    assert_solved(lap, F(bi), bi.astype(float))
    Bs = sp.csc_matrix(B)
    assert_solved(lap, F(Bs), B)
    np.testing.assert_allclose(F(b1), sla.spsolve(lap, b1), rtol=1e-10)


def test_refactor_same_pattern_new_values(lap):
    F = sylva.cholesky(lap)
    b = np.ones(lap.shape[0])
    A2 = (lap + 3 * sp.identity(lap.shape[0])).tocsc()
    F.refactor(A2)
    assert_solved(A2, F(b), b)
    np.testing.assert_allclose(F.logdet(), np.linalg.slogdet(A2.toarray())[1], rtol=1e-12)
    # Refactor from another format of the same pattern.
    A3 = (lap * 2).tocsr()
    F.refactor(A3)
    assert_solved(A3, F(b), b)
    # Same for a lower triangle.
    G = sylva.cholesky(sp.tril(lap, format="csc"), lower=True)
    G.refactor(sp.tril(A2, format="csc"))
    assert_solved(A2, G(b), b)


def test_factor_L_and_perm(lap):
    F = sylva.cholesky(lap, ordering="amd")
    L = F.L()
    p = F.perm
    assert sp.isspmatrix_csc(L) and L.shape == lap.shape and L.dtype == np.float64
    assert np.array_equal(np.sort(p), np.arange(lap.shape[0]))
    PAP = lap[p][:, p]
    assert abs(L @ L.T - PAP).max() <= 1e-12 * abs(lap).max()
    assert abs(sp.triu(L, 1)).max() == 0
    assert L.nnz == F.info["analysis"]["nnz_L"]
    with pytest.raises(ValueError):
        p[0] = 1  # read-only


def test_user_perm_and_options(lap):
    n = lap.shape[0]
    perm = np.arange(n)[::-1].copy()
    F = sylva.cholesky(lap, user_perm=perm)
    assert np.array_equal(F.perm, perm)
    assert F.info["analysis"]["ordering"] == "user"
    b = np.ones(n)
    for ordering in ("metis", "amd", "natural", "scotch", "nd-parallel", "auto"):
        for policy in sylva.policies():
            G = sylva.cholesky(lap, ordering=ordering, policy=policy, solve_mode="sequential",
                               nrelax=(4, 16, 48), zrelax=(0.8, 0.1, 0.05), small_front_rows=64)
            assert_solved(lap, G(b), b)
            assert G.info["analysis"]["policy"] == policy
            G.close()


def test_info(lap):
    F = sylva.cholesky(lap)
    info = F.info
    for key in ("seconds", "flops", "gflops", "mode", "gpus", "peak_rss_bytes", "tasks"):
        assert key in info
    a = info["analysis"]
    assert a["n"] == lap.shape[0] and a["nnz_L"] > 0 and a["seconds"] >= 0 and a["predicted_peak_bytes"] > 0
    assert info["mode"] in ("cpu", "gpu", "hybrid")
    assert info["runtime"]["cpu_workers"] >= 1


def test_rcond(lap):
    F = sylva.cholesky(lap)
    exact = 1.0 / (sla.norm(lap, 1) * np.linalg.norm(np.linalg.inv(lap.toarray()), 1))
    rc = F.rcond()
    assert exact * 0.99 <= rc <= 3.1 * exact


def test_refine_and_solve_modes(lap):
    b = np.ones(lap.shape[0])
    F = sylva.cholesky(lap, refine=2)
    x = F(b)
    assert F.last_solve["refine_steps"] == 2
    assert_solved(lap, x, b)
    for mode in ("cpu", "sequential", "auto"):
        assert_solved(lap, F.solve(b, solve_mode=mode, refine=0), b)
        assert F.last_solve["refine_steps"] == 0
    assert_solved(lap, F.solve(np.ones((lap.shape[0], 40)), solve_block=16), np.ones((lap.shape[0], 40)))
    assert F.last_solve["blocks"] == 3


def test_linear_operator_with_eigsh():
    A = lap2d(10)
    F = sylva.cholesky(A)
    op = F.as_linear_operator()
    assert op.shape == A.shape
    vals = sla.eigsh(A, k=3, sigma=0, which="LM", OPinv=op, return_eigenvectors=False)
    ref = np.sort(np.linalg.eigvalsh(A.toarray())[:3])
    np.testing.assert_allclose(np.sort(vals), ref, rtol=1e-10)
    np.testing.assert_allclose(op @ np.ones(100), F(np.ones(100)))


def test_spsolve_and_factorized(lap):
    b = np.random.default_rng(6).standard_normal(lap.shape[0])
    np.testing.assert_allclose(sylva.spsolve(lap, b), sla.spsolve(lap, b), rtol=1e-9)
    solve = sylva.factorized(lap)
    np.testing.assert_allclose(solve(b), sla.factorized(lap)(b), rtol=1e-9)


def test_analyze_save_load(lap, tmp_path):
    an = sylva.analyze(lap, ordering="amd")
    assert an.info["ordering"] == "amd" and an.shape == lap.shape
    path = tmp_path / "lap.sya"
    an.save(path)
    an.save(str(path))
    b = np.ones(lap.shape[0])
    A2 = (lap + sp.identity(lap.shape[0])).tocsc()
    for A in (lap, A2):
        with an.factor(A) as F:
            assert_solved(A, F(b), b)
    loaded = sylva.load_analysis(path, A2)
    assert np.array_equal(loaded.perm, an.perm)
    with loaded.factor(A2) as F:
        assert_solved(A2, F(b), b)
    an.close()
    loaded.close()


def test_context_manager_and_close(lap):
    with sylva.cholesky(lap) as F:
        F(np.ones(lap.shape[0]))
    assert F.closed
    F.close()  # idempotent
    for call in (lambda: F(np.ones(lap.shape[0])), F.logdet, F.L, F.rcond, lambda: F.perm):
        with pytest.raises(ValueError, match="closed"):
            call()
    assert "closed" in repr(F)


def test_identity_and_tiny():
    for n in (1, 2, 5):
        A = sp.identity(n, format="csc") * 4.0
        F = sylva.cholesky(A)
        np.testing.assert_allclose(F(np.ones(n)), np.full(n, 0.25))
        assert abs(F.logdet() - n * np.log(4.0)) < 1e-12


def test_strided_and_byte_swapped_arrays():
    A = lap2d(6).tocsr()
    b = np.ones(36)
    data = np.empty(2 * A.nnz)
    data[::2] = A.data  # a strided view as the values
    S = sp.csr_matrix((data[::2], A.indices, A.indptr), shape=A.shape, copy=False)
    assert_solved(A, sylva.cholesky(S)(b), b)
    B = sp.csr_matrix((A.data.astype(">f8"), A.indices.astype(">i4"), A.indptr.astype(">i4")), shape=A.shape)
    assert_solved(A, sylva.cholesky(B)(b), b)
