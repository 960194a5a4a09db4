"""Shared helpers of the sylva package's tests: the shipped matrices
(matrices/real, SYLVA_MATRICES), generated ones (sylva-gen, SYLVA_GEN, or a
2-D Laplacian made here), and the backward error the C tests use."""
import os
import pathlib
import subprocess

import numpy as np
import pytest
import scipy.io
import scipy.sparse as sp

ROOT = pathlib.Path(__file__).resolve().parents[2]
MATRICES = pathlib.Path(os.environ.get("SYLVA_MATRICES", ROOT / "matrices"))
# The SPD matrices shipped with values (jagmesh7 is a pattern).
REAL = ["1138_bus", "Trefethen_500", "bcsstk01", "bcsstk13", "bcsstk14", "gr_30_30", "mesh1e1", "nos5",
        "pts5ldd03", "pyamg_bar", "wathenSmall"]
EPS64 = np.finfo(np.float64).eps


def read_real(name):
    """A shipped matrix as float64 CSC, both triangles (as SciPy users hold it)."""
    A = scipy.io.mmread(str(MATRICES / "real" / f"{name}.mtx"))
    return sp.csc_matrix(A, dtype=np.float64)


def sylva_gen():
    exe = os.environ.get("SYLVA_GEN") or str(ROOT / "build" / "matrices" / "sylva-gen")
    return exe if os.access(exe, os.X_OK) else None


def generated(kind, size, tmp_path):
    """sylva-gen's matrix (kind, size) read back, or None without sylva-gen."""
    exe = sylva_gen()
    if not exe:
        return None
    out = tmp_path / f"{kind}_{size}.mtx"
    subprocess.run([exe, kind, str(size), "-o", str(out)], check=True, capture_output=True)
    return sp.csc_matrix(scipy.io.mmread(str(out)), dtype=np.float64)


def lap2d(m):
    """The 2-D 5-point Laplacian on an m x m grid (n = m², SPD), CSC."""
    T = sp.diags([-np.ones(m - 1), 2 * np.ones(m), -np.ones(m - 1)], [-1, 0, 1])
    I = sp.identity(m)
    A = sp.csc_matrix(sp.kron(I, T) + sp.kron(T, I))
    A.eliminate_zeros()
    return A


def backward_error(A, x, b):
    """‖b − A x‖∞ / (‖A‖∞ ‖x‖∞ + ‖b‖∞), columnwise worst (PaStiX, SPRAL)."""
    x = np.asarray(x).reshape(A.shape[0], -1)
    b = np.asarray(b).reshape(A.shape[0], -1)
    r = b - A @ x
    na = abs(A).sum(axis=1).max()
    return max(np.abs(r[:, j]).max() / (na * np.abs(x[:, j]).max() + np.abs(b[:, j]).max())
               for j in range(b.shape[1]))


def assert_solved(A, x, b, tol=None):
    tol = tol if tol is not None else 100 * A.shape[0] * EPS64
    assert np.all(np.isfinite(x)), "solution has NaN or infinity"
    be = backward_error(A, x, b)
    assert be <= tol, f"backward error {be:.3e} > {tol:.3e}"


@pytest.fixture
def lap():
    return lap2d(12)
