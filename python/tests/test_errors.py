"""Every error class: TypeError and ValueError for bad arguments (raised
before libsylva is called), SylvaValueError (also a ValueError) for what
libsylva finds wrong with the input, NotPositiveDefiniteError (also a
numpy.linalg.LinAlgError) with the 0-based column, SylvaError for the rest
(with the status name and libsylva's message)."""
import numpy as np
import pytest
import scipy.sparse as sp

import sylva
from conftest import lap2d


def test_exception_hierarchy():
    assert issubclass(sylva.NotPositiveDefiniteError, np.linalg.LinAlgError)
    assert issubclass(sylva.NotPositiveDefiniteError, sylva.SylvaError)
    assert issubclass(sylva.SylvaValueError, ValueError)
    assert issubclass(sylva.SylvaValueError, sylva.SylvaError)


def test_not_positive_definite_names_the_column():
    A = lap2d(5).tolil()
    A[7, 7] = -10.0
    with pytest.raises(sylva.NotPositiveDefiniteError) as e:
        sylva.cholesky(A.tocsc(), ordering="natural")
    assert e.value.column == 7
    assert e.value.status == "not_spd"
    assert "column 8 (1-based)" in e.value.message
    assert isinstance(e.value, np.linalg.LinAlgError)
    # Whatever the ordering, the column is in the caller's numbering.
    with pytest.raises(sylva.NotPositiveDefiniteError) as e:
        sylva.cholesky(A.tocsr(), ordering="amd")
    assert e.value.column == 7


def test_refactor_not_positive_definite_then_recovers():
    A = lap2d(5)
    F = sylva.cholesky(A)
    with pytest.raises(sylva.NotPositiveDefiniteError) as e:
        F.refactor(-A)
    assert 0 <= e.value.column < 25
    with pytest.raises(sylva.SylvaError):
        F(np.ones(25))  # a failed refactorization leaves no factor to solve with
    F.refactor(A)
    assert np.isfinite(F(np.ones(25))).all()


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_nan_and_inf_values(bad):
    A = lap2d(4).tocsr()
    A.data[5] = bad
    r, c = A.nonzero()
    with pytest.raises(ValueError, match=r"A\(%d,%d\) is .*finite" % (r[5], c[5])) as e:
        sylva.cholesky(A)
    assert not isinstance(e.value, sylva.SylvaError)  # found before libsylva ran


def test_not_square():
    with pytest.raises(ValueError, match="square"):
        sylva.cholesky(sp.random(4, 5, density=0.5, format="csr"))


@pytest.mark.parametrize("dtype", [np.int64, np.complex128, np.float16, bool])
def test_wrong_value_dtype(dtype):
    with pytest.raises(TypeError, match="float64 or float32"):
        sylva.cholesky(sp.identity(3, format="csr", dtype=dtype))


def test_wrong_index_dtype():
    A = sp.identity(3, format="csr")
    A.indices = A.indices.astype(np.int16)
    A.indptr = A.indptr.astype(np.int16)
    with pytest.raises(TypeError, match="int32 or int64"):
        sylva.cholesky(A)


def test_dense_input_and_bad_lower():
    with pytest.raises(TypeError, match="scipy.sparse"):
        sylva.cholesky(np.eye(3))
    with pytest.raises(TypeError, match="lower"):
        sylva.cholesky(sp.identity(3, format="csr"), lower="yes")


def test_not_symmetric_is_a_value_error():
    A = lap2d(3).tolil()
    A[0, 1] = -0.5
    with pytest.raises(sylva.SylvaValueError) as e:
        sylva.cholesky(A.tocsc())
    assert e.value.status == "not_symmetric" and isinstance(e.value, ValueError)


def test_wrong_triangle():
    A = lap2d(3)
    with pytest.raises(sylva.SylvaValueError):
        sylva.cholesky(sp.triu(A, format="csc"), lower=True)
    with pytest.raises(sylva.SylvaValueError):
        sylva.cholesky(sp.tril(A, format="csr"), lower=False)


def test_bad_right_hand_sides():
    A = lap2d(3)
    F = sylva.cholesky(A)
    with pytest.raises(ValueError, match="rows"):
        F(np.ones(8))
    with pytest.raises(ValueError, match="1-D or 2-D"):
        F(np.ones((9, 1, 1)))
    with pytest.raises(TypeError, match="real"):
        F(np.ones(9, dtype=complex))
    with pytest.raises(TypeError, match="real"):
        F(np.array(["a"] * 9))


def test_bad_options():
    A = lap2d(3)
    with pytest.raises(TypeError, match="unknown option 'colour'"):
        sylva.cholesky(A, colour="blue")
    with pytest.raises(ValueError, match="ordering='best' is not one of: metis, amd"):
        sylva.cholesky(A, ordering="best")
    with pytest.raises(ValueError, match="policy='x' is not one of: .*subtree"):
        sylva.cholesky(A, policy="x")
    with pytest.raises(ValueError, match="precision"):
        sylva.cholesky(A, precision="float16")
    with pytest.raises(TypeError, match="threads must be an int"):
        sylva.cholesky(A, threads="2")
    with pytest.raises(TypeError, match="nrelax"):
        sylva.cholesky(A, nrelax=(1, 2))
    with pytest.raises(sylva.SylvaValueError, match="zrelax"):
        sylva.cholesky(A, zrelax=(0.5, 2.0, 0.1))
    with pytest.raises(sylva.SylvaValueError, match="refine"):
        sylva.cholesky(A, refine=1000)
    with pytest.raises(ValueError, match="user_perm"):
        sylva.cholesky(A, user_perm=[0, 1])
    with pytest.raises(sylva.SylvaValueError):
        sylva.cholesky(A, user_perm=[0] * 9)


def test_refine_without_a_copy_of_A():
    F = sylva.cholesky(lap2d(3))
    with pytest.raises(sylva.SylvaValueError, match="refine"):
        F.solve(np.ones(9), refine=2)


def test_pattern_mismatch():
    A = lap2d(4)
    F = sylva.cholesky(A)
    B = (A + sp.csc_matrix(([1.0, 1.0], ([0, 15], [15, 0])), shape=A.shape)).tocsc()
    with pytest.raises(sylva.SylvaValueError) as e:
        F.refactor(B)
    assert e.value.status == "pattern_mismatch"
    with pytest.raises(ValueError, match="rows"):
        F.refactor(lap2d(3))


def test_analysis_files(tmp_path):
    A = lap2d(4)
    with pytest.raises(sylva.SylvaError) as e:
        sylva.load_analysis(tmp_path / "missing.sya", A)
    assert e.value.status == "io"
    junk = tmp_path / "junk.sya"
    junk.write_bytes(b"not an analysis\n" * 10)
    with pytest.raises(sylva.SylvaError) as e:
        sylva.load_analysis(junk, A)
    assert e.value.status == "format"
    an = sylva.analyze(A)
    an.save(tmp_path / "a.sya")
    with pytest.raises(sylva.SylvaValueError) as e:
        sylva.load_analysis(tmp_path / "a.sya", lap2d(5))
    assert e.value.status == "pattern_mismatch"
    with pytest.raises(sylva.SylvaError) as e:
        an.save(tmp_path / "no" / "such" / "dir.sya")
    assert e.value.status == "io"
