"""The exceptions sylva raises.

Arguments are checked before any work: a wrong type is a ``TypeError``, a
wrong value or shape a ``ValueError``. What libsylva itself refuses is a
``SylvaError`` carrying the library's status name (``"not_symmetric"``)
and its message; those statuses that say the input is wrong (argument,
not_square, not_symmetric, bad_value, pattern_only, pattern_mismatch) are
``SylvaValueError``, also a ``ValueError``. A matrix that is not positive
definite is ``NotPositiveDefiniteError``, also a
``numpy.linalg.LinAlgError``, with the failing column (0-based, the
caller's numbering).
"""
import numpy as np

__all__ = ["SylvaError", "SylvaValueError", "NotPositiveDefiniteError"]


class SylvaError(Exception):
    """libsylva refused or failed: ``status`` is its status name
    (``"runtime"``, ``"io"``, ``"format"``, ...), ``message`` its message."""

    def __init__(self, status, message, column=None):
        super().__init__(f"{message} [{status}]")
        self.status = status
        self.message = message


class SylvaValueError(SylvaError, ValueError):
    """libsylva found the input wrong (not symmetric, another pattern, an
    option out of range): both a ``SylvaError`` and a ``ValueError``."""


class NotPositiveDefiniteError(SylvaError, np.linalg.LinAlgError):
    """The matrix is not positive definite: ``column`` is the column
    (0-based, the caller's numbering) whose pivot was not positive."""

    def __init__(self, status, message, column=None):
        super().__init__(status, message)
        self.column = column
