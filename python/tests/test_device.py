"""Right-hand sides on a GPU (CuPy arrays, torch CUDA tensors), solved
there by sylva_solve_device; torch tensors on the CPU. Each test skips
when its library or a GPU is absent (CI has neither); they run on the GPU
machine."""
import numpy as np
import pytest

import sylva
from conftest import assert_solved, lap2d


def gpu_factor(A):
    F = sylva.cholesky(A)
    if F.info["runtime"]["gpus"] == 0:
        pytest.skip("libsylva runs without a GPU here")
    return F


def test_cupy_solve_on_the_device():
    cupy = pytest.importorskip("cupy")
    try:
        cupy.cuda.runtime.getDeviceCount()
    except Exception:
        pytest.skip("no CUDA device")
    A = lap2d(40)
    F = gpu_factor(A)
    b = np.random.default_rng(8).standard_normal((A.shape[0], 3))
    for rhs in (b[:, 0], b):
        d = cupy.asarray(rhs)
        x = F(d)
        assert isinstance(x, cupy.ndarray) and x.shape == rhs.shape
        assert_solved(A, cupy.asnumpy(x), rhs)
        np.testing.assert_array_equal(cupy.asnumpy(d), rhs)  # b untouched
    import cupyx.scipy.sparse as csp

    G = sylva.cholesky(csp.csr_matrix(A))  # a device matrix, read on the host
    assert_solved(A, G(b), b)


def test_torch_cuda_solve_on_the_device():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("no CUDA device")
    A = lap2d(40)
    F = gpu_factor(A)
    b = np.random.default_rng(9).standard_normal((A.shape[0], 3))
    for rhs in (b[:, 0], b):
        t = torch.tensor(rhs, device="cuda")
        x = F(t)
        assert isinstance(x, torch.Tensor) and x.is_cuda and tuple(x.shape) == rhs.shape
        assert_solved(A, x.cpu().numpy(), rhs)


def test_torch_cpu_tensors():
    torch = pytest.importorskip("torch")
    A = lap2d(10)
    b = np.ones(100)
    F = sylva.cholesky(A)
    x = F(torch.tensor(b))
    assert isinstance(x, torch.Tensor)
    assert_solved(A, x.numpy(), b)
    T = torch.sparse_csr_tensor(torch.tensor(A.tocsr().indptr), torch.tensor(A.tocsr().indices),
                                torch.tensor(A.tocsr().data), size=A.shape)
    assert_solved(A, sylva.cholesky(T)(b), b)


def test_device_solve_refuses_host_memory():
    """The device path's binding (sylva_solve_device) on a pointer that is not
    device memory: libsylva refuses it (argument), or a build without CUDA
    says so (unsupported); nothing crashes. Runs everywhere."""
    A = lap2d(5)
    F = sylva.cholesky(A)
    x = np.ones(25)
    with pytest.raises(sylva.SylvaError) as e:
        F._F.solve_device(x.ctypes.data, 1, 25, None)
    assert e.value.status in ("argument", "unsupported")
    np.testing.assert_array_equal(x, np.ones(25))
