"""sylva's Python API: cholesky, analyze, load_analysis, spsolve, factorized
and the Factor and Analysis they return, over the extension module _sylva
(libsylva's handles). Options keep libsylva's names (docs/python.md maps
them to the command line's); ``threads`` and ``gpus`` start the runtime
(sylva_init) on the first factorization and keep it running; asking for
other ones restarts it when no factor is open.
"""
import numpy as np
import scipy.sparse as sp

from . import _device, _input, _sylva

__all__ = ["Analysis", "Factor", "analyze", "cholesky", "factorized", "load_analysis", "spsolve"]

_RUNTIME_KEYS = ("ncpus", "ncuda", "device_memory", "scheduler")
_running = {}  # the runtime options of the running runtime (after init)


def _options(options, dtype):
    """The Python names into the extension's: threads -> ncpus, gpus -> ncuda;
    precision defaults to A's dtype; None means the default."""
    o = {k: v for k, v in options.items() if v is not None}
    if "threads" in o:
        o["ncpus"] = o.pop("threads")
    if "gpus" in o:
        o["ncuda"] = o.pop("gpus")
    for k in ("ncpus", "ncuda"):
        if k in options:
            raise TypeError(f"unknown option '{k}' (use {'threads' if k == 'ncpus' else 'gpus'}=)")
    if "precision" not in o and dtype is not None:
        o["precision"] = np.dtype(dtype).name
    if isinstance(o.get("precision"), type) or isinstance(o.get("precision"), np.dtype):
        o["precision"] = np.dtype(o["precision"]).name
    return o


def _start(opts):
    """Start the runtime with opts' runtime options; those not given are the
    running runtime's (or the defaults: every core, every GPU)."""
    rt = {k: opts[k] for k in _RUNTIME_KEYS if k in opts}
    for k in _RUNTIME_KEYS:
        if k not in rt and k in _running:
            rt[k] = _running[k]
    if opts.get("mode", _running.get("mode")) == "cpu":
        rt["mode"] = "cpu"  # a runtime without GPU workers (given, or the running one's)
    _sylva.init(rt)
    _running.clear()
    _running.update(rt)


class Analysis:
    """The analysis of a sparsity pattern (ordering, assembly tree, plan):
    ``factor(A)`` factors any matrix of that pattern, ``save(path)`` keeps it
    for ``load_analysis``. Made by ``analyze`` or ``load_analysis``."""

    def __init__(self, handle, opts, lower, n, dtype):
        self._an = handle
        self._opts = opts
        self._lower = lower
        self._dtype = dtype
        self.shape = (n, n)

    def factor(self, A):
        """Factor A (the analyzed pattern; new values): a Factor."""
        M, _ = _input.as_matrix(A, self._lower)
        if M.n != self.shape[0]:
            raise ValueError(f"A has {M.n} rows, the analysis {self.shape[0]}")
        _start(self._opts)
        return Factor(_sylva.factorize(self._an, M), M, self._lower)

    def save(self, path):
        """Write the analysis (permutation, ordering, amalgamation, pattern
        fingerprint) to path, atomically."""
        self._an.save(path)

    @property
    def perm(self):
        """The fill-reducing permutation, new -> old (int64, read-only)."""
        return np.frombuffer(self._an.perm(), dtype=np.int64)

    @property
    def info(self):
        """What the analysis found: sylva_analysis_info as a dict."""
        return self._an.info()

    def close(self):
        """Release the analysis (factors made from it keep working)."""
        self._an.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class Factor:
    """A Cholesky factorization P A Pᵀ = L Lᵀ of a sparse SPD matrix A.

    ``F(b)`` or ``F.solve(b)`` solves A x = b (b 1-D or 2-D; NumPy, CuPy or
    torch); ``logdet()``, ``rcond()``, ``refactor(A_new)``, ``L()``,
    ``perm``, ``info``, ``as_linear_operator()``; ``close()`` frees it (also
    as a context manager). Made by ``cholesky`` or ``Analysis.factor``.
    """

    def __init__(self, handle, matrix, lower):
        self._F = handle
        self._matrix = matrix
        self._lower = lower
        self.dtype = np.dtype(handle.dtype)
        self.shape = (handle.n, handle.n)
        self.last_solve = None

    def solve(self, b, *, refine=None, solve_mode=None, solve_block=None):
        """x with A x = b. b: an array of n rows (1-D or 2-D: NumPy, a CuPy
        array or a torch tensor, solved on its device), or a scipy.sparse
        matrix (made dense). The result has b's shape and array type; its
        dtype is the factor's (float64 for float64 b with a float32 factor:
        mixed precision). refine (int or "auto"), solve_mode ("auto", "gpu",
        "cpu", "sequential") and solve_block override the factor's options
        for this solve (refinement needs refine= given to cholesky)."""
        opts = {k: v for k, v in (("refine", refine), ("solve_mode", solve_mode),
                                  ("solve_block", solve_block)) if v is not None} or None
        if _device.kind(b):
            return _device.solve(self, b, opts, lambda h: self.solve(h, refine=refine, solve_mode=solve_mode,
                                                                    solve_block=solve_block))
        if sp.issparse(b):
            b = b.toarray()
        a = np.asarray(b)
        n = self.shape[0]
        if a.ndim not in (1, 2):
            raise ValueError(f"b must be 1-D or 2-D, not {a.ndim}-D")
        if a.shape[0] != n:
            raise ValueError(f"b has {a.shape[0]} rows, the matrix {n}")
        if a.dtype.kind not in "fiub":
            raise TypeError(f"b must hold real numbers, not {a.dtype}")
        dt = np.float32 if self.dtype == np.float32 and a.dtype == np.float32 else np.float64
        x = np.array(a, dtype=dt, order="F", copy=True)
        nrhs = 1 if a.ndim == 1 else a.shape[1]
        if nrhs and n:
            self.last_solve = self._F.solve(x, nrhs, x.dtype.name, opts)
        return x

    __call__ = solve

    def logdet(self):
        """log det A (= 2 Σ log diag L)."""
        return self._F.logdet()

    def rcond(self):
        """An estimate of the reciprocal 1-norm condition number of A
        (Hager–Higham; never much too small, at most ~3x too large). It
        reads A's arrays where the factor used them in place."""
        if self._matrix is None:
            raise ValueError("the factor is closed")
        return self._F.rcond(self._matrix)

    def refactor(self, A):
        """Factor new values of the same pattern (the same storage: lower=
        as given to cholesky) into this factor, reusing its analysis and
        memory."""
        M, _ = _input.as_matrix(A, self._lower)
        if M.n != self.shape[0]:
            raise ValueError(f"A has {M.n} rows, the factor {self.shape[0]}")
        self._F.refactorize(M)
        self._matrix = M

    def L(self):
        """L as a scipy.sparse CSC matrix, in the factor's ordering:
        P A Pᵀ = L Lᵀ with (P b)[k] = b[perm[k]]."""
        n = self.shape[0]
        nnz = self._F.nnz()
        colptr = np.empty(n + 1, np.int64)
        rowind = np.empty(nnz, np.int64)
        values = np.empty(nnz, self.dtype)
        self._F.csc(colptr, rowind, values)
        return sp.csc_matrix((values, rowind, colptr), shape=(n, n))

    @property
    def perm(self):
        """The fill-reducing permutation, new -> old (int64, read-only)."""
        return np.frombuffer(self._F.perm(), dtype=np.int64)

    @property
    def info(self):
        """What the factorization did (sylva_factor_info: seconds, flops,
        gflops, tasks, mode and gpus where it ran, peak memory) with the
        analysis' (info['analysis']: nnz_L, flops, ordering, times, predicted
        memory) and the runtime's (info['runtime'])."""
        d = self._F.info()
        d["runtime"] = _sylva.runtime()
        return d

    def as_linear_operator(self):
        """A⁻¹ as a scipy.sparse.linalg.LinearOperator (e.g. for
        ``eigsh(A, sigma=0, OPinv=F.as_linear_operator())``)."""
        from scipy.sparse.linalg import LinearOperator

        return LinearOperator(self.shape, matvec=self.solve, rmatvec=self.solve, matmat=self.solve,
                              dtype=self.dtype)

    def close(self):
        """Free the factor (idempotent); later calls raise ValueError."""
        self._F.close()
        self._matrix = None

    @property
    def closed(self):
        return self._F.closed

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        state = "closed" if self.closed else f"nnz(L)={self._F.nnz()}"
        return f"<sylva.Factor {self.shape[0]}x{self.shape[1]} {self.dtype.name} {state}>"


def analyze(A, *, lower=None, user_perm=None, **options):
    """The analysis of A's pattern (values are not needed but may be
    there): an Analysis whose ``factor(A)`` factors matrices of that
    pattern. Options as ``cholesky``'s."""
    M, dtype = _input.as_matrix(A, lower)
    opts = _options(options, dtype)
    if user_perm is not None:
        user_perm = np.ascontiguousarray(user_perm, dtype=np.int64)
    return Analysis(_sylva.analyze(M, opts, user_perm), opts, lower, M.n, dtype)


def load_analysis(path, A, *, lower=None, **options):
    """An analysis of A from one saved by ``Analysis.save`` (no ordering this
    time). A must have the saved pattern (SylvaValueError
    ``pattern_mismatch`` otherwise); options as ``cholesky``'s (the ordering
    and amalgamation come from the file)."""
    M, dtype = _input.as_matrix(A, lower)
    opts = _options(options, dtype)
    return Analysis(_sylva.load_analysis(path, M, opts), opts, lower, M.n, dtype)


def cholesky(A, *, lower=None, ordering=None, policy=None, mode=None, gpus=None, threads=None,
             precision=None, refine=None, solve_mode=None, solve_block=None, user_perm=None, **options):
    """Factor a sparse symmetric positive definite matrix: a Factor.

    A: a scipy.sparse matrix or array (CSR, CSC or COO; int32 or int64
    indices; float64 or float32 values), a cupyx.scipy.sparse matrix or a
    torch sparse CSR tensor (copied to the host). ``lower=None``: both
    triangles stored (checked symmetric); ``True``/``False``: only the
    lower/upper one.

    ordering: "auto" (default), "metis", "nd-parallel", "scotch", "amd",
    "natural", or user_perm= (new -> old). policy: the batching policy
    ("subtree" default, "level", "sized", "none", "ready"). mode: "auto",
    "gpu", "hybrid", "cpu". gpus, threads: GPUs and CPU worker threads
    (default: all). precision: "float64" or "float32" (default: A's).
    refine: iterative refinement steps of each solve (an int or "auto").
    solve_mode, solve_block: where and how many columns a solve runs.
    Further options: small_front_rows, tile_rows, batch_flops, nrelax,
    zrelax, scheduler, gpu_map, gpu_tile_rows, device_memory, verbose.

    Raises TypeError/ValueError for bad arguments (before any work),
    NotPositiveDefiniteError (with .column) and SylvaError."""
    options.update(ordering=ordering, policy=policy, mode=mode, gpus=gpus, threads=threads,
                   precision=precision, refine=refine, solve_mode=solve_mode, solve_block=solve_block)
    M, dtype = _input.as_matrix(A, lower)
    opts = _options(options, dtype)
    if user_perm is not None:
        user_perm = np.ascontiguousarray(user_perm, dtype=np.int64)
    an = _sylva.analyze(M, opts, user_perm)
    _start(opts)
    return Factor(_sylva.factorize(an, M), M, lower)


def spsolve(A, b, **options):
    """x with A x = b for a sparse SPD A (as scipy.sparse.linalg.spsolve):
    cholesky(A, **options) then solve(b)."""
    with cholesky(A, **options) as F:
        return F.solve(b)


def factorized(A, **options):
    """A function solving A x = b (as scipy.sparse.linalg.factorized): the
    solve of cholesky(A, **options), which lives as long as the function."""
    return cholesky(A, **options).solve
