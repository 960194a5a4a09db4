"""Matrices into libsylva: a scipy.sparse matrix or array (CSR, CSC or COO;
other formats are converted to CSC), a cupyx.scipy.sparse matrix or a
torch sparse CSR tensor (copied to host memory: libsylva factors a host
matrix), with int32 or int64 indices and float64 or float32 values.

``lower=None``: both triangles, as SciPy users store a symmetric matrix;
libsylva checks them equal and keeps the lower one (one copy of the
values). ``lower=True``/``False``: only that triangle is given. A lower
triangle in CSC (or an upper one in CSR: the same arrays) already sorted
and without duplicates is used in place (no copy); the other triangle is
converted once by SciPy. float32 values are widened to float64 once (the
C API takes double values; a float32 factorization converts them back).
Shape, dtype and finiteness are checked here, before any work.
"""
import numpy as np
import scipy.sparse as sp

from . import _sylva

__all__ = ["as_matrix"]


def _to_host(A):
    """cupyx.scipy.sparse and torch sparse CSR into scipy.sparse."""
    mod = type(A).__module__
    if mod.startswith("cupyx"):
        return A.get()
    if mod.startswith("torch"):
        import torch

        if getattr(A, "layout", None) == torch.sparse_csr:
            return sp.csr_matrix(
                (A.values().cpu().numpy(), A.col_indices().cpu().numpy(), A.crow_indices().cpu().numpy()),
                shape=tuple(A.shape),
            )
        if getattr(A, "layout", None) == torch.sparse_coo:
            A = A.coalesce()
            i = A.indices().cpu().numpy()
            return sp.coo_matrix((A.values().cpu().numpy(), (i[0], i[1])), shape=tuple(A.shape))
        raise TypeError(f"A must be a sparse torch tensor (sparse_csr or sparse_coo), not layout {A.layout}")
    return A


def _first_bad(A, data):
    k = int(np.flatnonzero(~np.isfinite(data))[0])
    if A.format == "coo":
        return int(A.row[k]), int(A.col[k]), data[k]
    major = int(np.searchsorted(A.indptr, k, side="right") - 1)
    minor = int(A.indices[k])
    return (major, minor, data[k]) if A.format == "csr" else (minor, major, data[k])


def check(A, lower):
    """A as a checked scipy.sparse matrix in CSR, CSC or COO form."""
    A = _to_host(A)
    if not sp.issparse(A):
        raise TypeError(
            f"A must be a scipy.sparse matrix or array (CSR, CSC or COO), not {type(A).__name__}; "
            "a dense array can be given as scipy.sparse.csc_array(A)"
        )
    if lower not in (None, True, False):
        raise TypeError(f"lower must be None, True or False, not {lower!r}")
    if A.ndim != 2 or A.shape[0] != A.shape[1]:
        raise ValueError(f"A must be square, not of shape {tuple(A.shape)}")
    if A.format not in ("csr", "csc", "coo"):
        A = A.tocsc()
    if A.dtype.newbyteorder("=") not in (np.float64, np.float32):
        raise TypeError(f"A's values must be float64 or float32, not {A.dtype}")
    idx = (A.row, A.col) if A.format == "coo" else (A.indptr, A.indices)
    for a in idx:
        if a.dtype.newbyteorder("=") not in (np.int32, np.int64):
            raise TypeError(f"A's indices must be int32 or int64, not {a.dtype}")
    if A.nnz and not np.isfinite(A.data).all():
        i, j, v = _first_bad(A, A.data)
        raise ValueError(f"A({i},{j}) is {v}: values must be finite (no NaN or infinity)")
    return A


def as_matrix(A, lower=None):
    """A checked and handed to libsylva: a ``_sylva.Matrix``, and A's dtype."""
    A = check(A, lower)
    dtype = A.dtype
    if A.format == "coo":
        A = A.tocsc() if lower is not False else A.tocsr()
    if lower is None:
        how = "full"
    else:
        # Lower CSC and upper CSR are the same arrays: libsylva's layout.
        if (A.format == "csc") != bool(lower):
            A = A.tocsr() if A.format == "csc" else A.tocsc()
        how = "wrap" if A.has_canonical_format else "lower"
    # Contiguous, native byte order (no copy when they already are).
    indices = np.ascontiguousarray(A.indices, dtype=A.indices.dtype.newbyteorder("="))
    indptr = np.ascontiguousarray(A.indptr, dtype=indices.dtype)
    data = np.ascontiguousarray(A.data, dtype=np.float64)
    return _sylva.Matrix(A.shape[0], indptr, indices, data, how), dtype
