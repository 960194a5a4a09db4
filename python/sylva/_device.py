"""Right-hand sides that live on a GPU: CuPy arrays (``__cuda_array_interface__``)
and torch CUDA tensors, solved where they are by ``sylva_solve_device``
(no host copy), the solution in a new array of the caller's type on the
same device. A torch tensor on the CPU is solved through NumPy and given
back as a torch tensor. Needs a libsylva built with CUDA (SylvaError
``unsupported`` otherwise) and a GPU factor or GPU workers (without them
libsylva copies B to the host and back).
"""
import numpy as np

__all__ = ["kind", "solve"]


def kind(b):
    """'cupy', 'torch-cuda', 'torch-cpu', or None for anything else."""
    mod = type(b).__module__
    if mod.startswith("torch"):
        return "torch-cuda" if getattr(b, "is_cuda", False) else "torch-cpu"
    if hasattr(b, "__cuda_array_interface__"):
        return "cupy"
    return None


def _check(b, n):
    if b.ndim not in (1, 2):
        raise ValueError(f"b must be 1-D or 2-D, not {b.ndim}-D")
    if b.shape[0] != n:
        raise ValueError(f"b has {b.shape[0]} rows, the matrix {n}")


def solve(factor, b, opts, solve_host):
    """A⁻¹ b for a device (or torch) b; solve_host(ndarray) for torch on the CPU."""
    k = kind(b)
    n = factor.shape[0]
    if k == "torch-cpu":
        import torch

        return torch.from_numpy(solve_host(b.detach().numpy()))
    _check(b, n)
    nrhs = 1 if b.ndim == 1 else int(b.shape[1])
    if k == "torch-cuda":
        import torch

        dt = torch.float64 if factor.dtype == np.float64 else torch.float32
        # (n, k) column-major is (k, n) row-major: a fresh copy, never b itself.
        x = b.detach().to(dt).clone() if b.ndim == 1 else b.detach().t().to(dt).clone(
            memory_format=torch.contiguous_format)
        x = x.contiguous()
        torch.cuda.current_stream(x.device).synchronize()
        factor._F.solve_device(x.data_ptr(), nrhs, max(n, 1), opts)
        return x if b.ndim == 1 else x.t()
    import cupy

    x = cupy.array(b, dtype=factor.dtype, order="F", copy=True)
    cupy.cuda.get_current_stream().synchronize()
    factor._F.solve_device(x.__cuda_array_interface__["data"][0], nrhs, max(n, 1), opts)
    return x
