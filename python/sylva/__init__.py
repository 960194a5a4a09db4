"""sylva: sparse Cholesky (multifrontal, StarPU-scheduled, CPU and GPU) for
SciPy, CuPy and PyTorch users.

    import sylva, scipy.sparse as sp
    F = sylva.cholesky(A)          # A: scipy.sparse, symmetric positive definite
    x = F(b)                       # or F.solve(b); b 1-D or 2-D
    F.logdet(), F.rcond(), F.L(), F.perm, F.info
    F.refactor(A2)                 # same pattern, new values
    x = sylva.spsolve(A, b)        # as scipy.sparse.linalg.spsolve

The distribution is named sylva-sparse (``pip install ./python`` from the
repository); the PyPI project named ``sylva`` is another, unrelated one.
docs/python.md has the whole API.
"""
import atexit as _atexit

from . import _sylva
from ._errors import NotPositiveDefiniteError, SylvaError, SylvaValueError
from ._factor import Analysis, Factor, analyze, cholesky, factorized, load_analysis, spsolve

__all__ = ["Analysis", "Factor", "NotPositiveDefiniteError", "SylvaError", "SylvaValueError", "analyze",
           "cholesky", "factorized", "load_analysis", "spsolve", "policies", "__version__"]

__version__ = _sylva.version
_sylva.set_errors(SylvaError, NotPositiveDefiniteError, SylvaValueError)
_atexit.register(_sylva.finalize)


def policies():
    """The batching policies' names (policy=)."""
    return _sylva.policies()
