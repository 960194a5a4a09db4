/* factor.c — _sylva.Factor over sylva_factor_t: factorize() (the GIL
 * released, one factorization at a time in the process), refactorize(),
 * solve() on a host buffer (sylva_solve_ex, in place) or a device pointer
 * (sylva_solve_device), logdet(), rcond(), L as compressed columns (csc()),
 * info() and close(). Solves from several threads may run at once; a
 * refactorization or close while one runs is refused (RuntimeError), not
 * waited for, so that no thread frees a factor another is reading. */
#include <string.h>

#include "ext.h"

PyObject *ext_analysis_info(const sylva_analysis_info *i, const sylva_options *o);

static int check_open(ext_factor *self)
{
    if (self->F) return 0;
    PyErr_SetString(PyExc_ValueError, "the factor is closed");
    return -1;
}

static int check_idle(ext_factor *self, const char *what)
{
    if (check_open(self)) return -1;
    if (!self->solving && !self->busy) return 0;
    PyErr_Format(PyExc_RuntimeError, "cannot %s the factor while another thread %s it", what,
                 self->busy ? "refactors" : "solves with");
    return -1;
}

/* factorize(analysis, matrix) */
static PyObject *py_factorize(PyObject *mod, PyObject *args)
{
    (void)mod;
    ext_analysis *an;
    ext_matrix *M;
    if (!PyArg_ParseTuple(args, "O!O!", &ext_analysis_type, &an, &ext_matrix_type, &M)) return NULL;
    if (!an->an) return PyErr_Format(PyExc_ValueError, "the analysis is closed");
    ext_factor *self = PyObject_New(ext_factor, &ext_factor_type);
    if (!self) return NULL;
    self->F = NULL;
    self->solving = self->busy = 0;
    memset(&self->info, 0, sizeof self->info);
    self->info.failed_column = -1;
    Py_INCREF(an);
    self->analysis = an;
    int status;
    const char *msg;
    Py_BEGIN_ALLOW_THREADS
    ext_factor_lock();
    status = sylva_factorize(an->an, M->A, &self->F, &self->info);
    msg = sylva_last_error();
    ext_factor_unlock();
    Py_END_ALLOW_THREADS
    if (self->F) ext_live_factors++;
    if (status) {
        ext_raise(status, msg, self->info.failed_column);
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject *)self;
}

static PyObject *factor_refactorize(ext_factor *self, PyObject *args)
{
    ext_matrix *M;
    if (!PyArg_ParseTuple(args, "O!", &ext_matrix_type, &M) || check_idle(self, "refactor"))
        return NULL;
    int status;
    const char *msg;
    self->busy = 1;
    self->info.failed_column = -1;
    Py_BEGIN_ALLOW_THREADS
    ext_factor_lock();
    status = sylva_refactorize(self->F, M->A, &self->info);
    msg = sylva_last_error();
    ext_factor_unlock();
    Py_END_ALLOW_THREADS
    self->busy = 0;
    if (status) return ext_raise(status, msg, self->info.failed_column);
    Py_RETURN_NONE;
}

static PyObject *solve_info(const sylva_solve_info *si)
{
    PyObject *d = PyDict_New();
    if (!d) return NULL;
    SET_S(d, "mode", sylva_solve_mode_name(si->mode));
    SET_I(d, "refine_steps", si->refine_steps);
    SET_I(d, "nrhs", si->nrhs);
    SET_I(d, "blocks", si->blocks);
    SET_F(d, "berr_before", si->berr_before);
    SET_F(d, "berr_after", si->berr_after);
    SET_F(d, "seconds", si->seconds);
    SET_F(d, "seconds_solve", si->seconds_solve);
    SET_F(d, "seconds_refine", si->seconds_refine);
    SET_F(d, "seconds_upload", si->seconds_upload);
    SET_F(d, "seconds_download", si->seconds_download);
    SET_F(d, "seconds_to_host", si->seconds_to_host);
    if (PyErr_Occurred()) {
        Py_DECREF(d);
        return NULL;
    }
    return d;
}

/* The options of one solve: the analysis' with the caller's refine,
 * solve_mode and solve_block (a dict, or None for the analysis' own). */
static int solve_options(ext_factor *self, PyObject *dict, sylva_options *o,
                         const sylva_options **use)
{
    *use = NULL;
    if (dict == Py_None) return 0;
    sylva_options given;
    if (ext_options(dict, &given)) return -1;
    *o = self->analysis->opts;
    if (PyDict_GetItemString(dict, "refine")) o->refine = given.refine;
    if (PyDict_GetItemString(dict, "solve_mode")) o->solve_mode = given.solve_mode;
    if (PyDict_GetItemString(dict, "solve_block")) o->solve_block = given.solve_block;
    *use = o;
    return 0;
}

/* solve(buffer, nrhs, dtype, options): B (n x nrhs, column-major, the
 * given dtype) in place. */
static PyObject *factor_solve(ext_factor *self, PyObject *args)
{
    PyObject *bo, *dict;
    long long nrhs;
    const char *dtype_name;
    if (!PyArg_ParseTuple(args, "OLsO", &bo, &nrhs, &dtype_name, &dict) || check_open(self))
        return NULL;
    int dtype = sylva_dtype_from_name(dtype_name);
    if (dtype < 0)
        return PyErr_Format(PyExc_TypeError, "dtype must be float64 or float32, not %s",
                            dtype_name);
    sylva_options o;
    const sylva_options *use;
    if (solve_options(self, dict, &o, &use)) return NULL;
    Py_buffer b;
    if (PyObject_GetBuffer(bo, &b, PyBUF_WRITABLE | PyBUF_ANY_CONTIGUOUS)) return NULL;
    int64_t n = self->analysis->info.n;
    if (nrhs < 0 ||
        b.len != (Py_ssize_t)(n * nrhs * (int64_t)sylva_dtype_size((sylva_dtype)dtype))) {
        PyBuffer_Release(&b);
        return PyErr_Format(PyExc_ValueError,
                            "the right-hand sides' buffer has %zd bytes, not n x nrhs = "
                            "%lld x %lld %s",
                            b.len, (long long)n, nrhs, dtype_name);
    }
    sylva_solve_info si;
    int status;
    const char *msg;
    self->solving++;
    Py_BEGIN_ALLOW_THREADS
    status = sylva_solve_ex(self->F, use, (sylva_dtype)dtype, nrhs, b.buf, n > 0 ? n : 1, &si);
    msg = sylva_last_error();
    Py_END_ALLOW_THREADS
    self->solving--;
    PyBuffer_Release(&b);
    if (status) return ext_raise(status, msg, -1);
    return solve_info(&si);
}

/* solve_device(pointer, nrhs, ldb, options): B on the device, in place. */
static PyObject *factor_solve_device(ext_factor *self, PyObject *args)
{
    unsigned long long ptr;
    long long nrhs, ldb;
    PyObject *dict;
    if (!PyArg_ParseTuple(args, "KLLO", &ptr, &nrhs, &ldb, &dict) || check_open(self)) return NULL;
    sylva_options o;
    const sylva_options *use;
    if (solve_options(self, dict, &o, &use)) return NULL;
    sylva_solve_info si;
    int status;
    const char *msg;
    self->solving++;
    Py_BEGIN_ALLOW_THREADS
    status = sylva_solve_device(self->F, use, nrhs, (void *)(uintptr_t)ptr, ldb, &si);
    msg = sylva_last_error();
    Py_END_ALLOW_THREADS
    self->solving--;
    if (status) return ext_raise(status, msg, -1);
    return solve_info(&si);
}

static PyObject *factor_logdet(ext_factor *self, PyObject *unused)
{
    (void)unused;
    if (check_open(self)) return NULL;
    double ld = 0;
    int status;
    const char *msg;
    self->solving++;
    Py_BEGIN_ALLOW_THREADS
    status = sylva_logdet(self->F, &ld);
    msg = sylva_last_error();
    Py_END_ALLOW_THREADS
    self->solving--;
    if (status) return ext_raise(status, msg, -1);
    return PyFloat_FromDouble(ld);
}

static PyObject *factor_rcond(ext_factor *self, PyObject *args)
{
    ext_matrix *M;
    if (!PyArg_ParseTuple(args, "O!", &ext_matrix_type, &M) || check_open(self)) return NULL;
    double rc = 0;
    int status;
    const char *msg;
    self->solving++;
    Py_BEGIN_ALLOW_THREADS
    status = sylva_rcond(self->F, M->A, &rc);
    msg = sylva_last_error();
    Py_END_ALLOW_THREADS
    self->solving--;
    if (status) return ext_raise(status, msg, -1);
    return PyFloat_FromDouble(rc);
}

static PyObject *factor_nnz(ext_factor *self, PyObject *unused)
{
    (void)unused;
    if (check_open(self)) return NULL;
    return PyLong_FromLongLong(sylva_factor_nnz(self->F));
}

/* csc(colptr, rowind, values): L (permuted numbering) into int64, int64
 * and factor-dtype buffers of n + 1, nnz and nnz entries. */
static PyObject *factor_csc(ext_factor *self, PyObject *args)
{
    PyObject *o[3];
    if (!PyArg_ParseTuple(args, "OOO", &o[0], &o[1], &o[2]) || check_open(self)) return NULL;
    int64_t n = self->analysis->info.n, nnz = sylva_factor_nnz(self->F);
    Py_ssize_t want[3] = {
        (Py_ssize_t)((n + 1) * 8), (Py_ssize_t)(nnz * 8),
        (Py_ssize_t)(nnz * (int64_t)sylva_dtype_size(sylva_factor_dtype(self->F)))};
    Py_buffer b[3];
    int got = 0;
    for (; got < 3; got++) {
        if (PyObject_GetBuffer(o[got], &b[got], PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS)) break;
        if (b[got].len != want[got]) {
            PyErr_Format(PyExc_ValueError, "csc: buffer %d has %zd bytes, not %zd", got, b[got].len,
                         want[got]);
            got++;
            break;
        }
    }
    int status = -1;
    const char *msg = NULL;
    if (got == 3 && !PyErr_Occurred()) {
        self->solving++;
        Py_BEGIN_ALLOW_THREADS
        status = sylva_factor_csc(self->F, SYLVA_NUMBERING_PERMUTED, b[0].buf, b[1].buf, b[2].buf);
        msg = sylva_last_error();
        Py_END_ALLOW_THREADS
        self->solving--;
    }
    for (int k = 0; k < got; k++) PyBuffer_Release(&b[k]);
    if (PyErr_Occurred()) return NULL;
    if (status) return ext_raise(status, msg, -1);
    Py_RETURN_NONE;
}

static PyObject *factor_info(ext_factor *self, PyObject *unused)
{
    (void)unused;
    PyObject *d = PyDict_New();
    if (!d) return NULL;
    const sylva_factor_info *i = &self->info;
    SET_F(d, "flops", i->flops);
    SET_F(d, "seconds", i->seconds);
    SET_F(d, "gflops", i->gflops);
    SET_I(d, "tasks", i->tasks);
    SET_I(d, "batches", i->batches);
    SET_S(d, "mode", sylva_exec_mode_name(i->mode));
    SET_I(d, "gpus", i->gpus);
    SET_I(d, "tasks_cpu", i->tasks_cpu);
    SET_I(d, "tasks_gpu", i->tasks_gpu);
    SET_F(d, "gpu_busy_seconds", i->gpu_busy_seconds);
    SET_F(d, "bytes_to_device", i->bytes_to_device);
    SET_F(d, "bytes_to_host", i->bytes_to_host);
    SET_F(d, "peak_device_bytes", i->peak_device_bytes);
    SET_F(d, "peak_rss_bytes", i->peak_rss_bytes);
    SET_F(d, "pivot_ratio", i->pivot_ratio);
    dset(d, "direct", PyBool_FromLong(i->direct));
    SET_S(d, "precision", self->F ? sylva_dtype_name(sylva_factor_dtype(self->F)) : "");
    dset(d, "analysis", ext_analysis_info(&self->analysis->info, &self->analysis->opts));
    if (PyErr_Occurred()) {
        Py_DECREF(d);
        return NULL;
    }
    return d;
}

static PyObject *factor_perm(ext_factor *self, PyObject *unused)
{
    (void)unused;
    if (check_open(self)) return NULL;
    return PyObject_CallMethod((PyObject *)self->analysis, "perm", NULL);
}

static PyObject *factor_dtype(ext_factor *self, void *closure)
{
    (void)closure;
    if (check_open(self)) return NULL;
    return PyUnicode_FromString(sylva_dtype_name(sylva_factor_dtype(self->F)));
}

static PyObject *factor_n(ext_factor *self, void *closure)
{
    (void)closure;
    return PyLong_FromLongLong(self->analysis->info.n);
}

static void release(ext_factor *self)
{
    if (!self->F) return;
    sylva_factor_free(self->F);
    self->F = NULL;
    ext_live_factors--;
}

static PyObject *factor_close(ext_factor *self, PyObject *unused)
{
    (void)unused;
    if (self->F && check_idle(self, "close")) return NULL;
    release(self);
    Py_RETURN_NONE;
}

static PyObject *factor_closed(ext_factor *self, void *closure)
{
    (void)closure;
    return PyBool_FromLong(!self->F);
}

static void factor_dealloc(ext_factor *self)
{
    release(self);
    Py_XDECREF(self->analysis);
    PyObject_Free(self);
}

static PyMethodDef factor_methods[] = {
    {"refactorize", (PyCFunction)factor_refactorize, METH_VARARGS, "refactorize(matrix)"},
    {"solve", (PyCFunction)factor_solve, METH_VARARGS,
     "solve(buffer, nrhs, dtype, options) -> dict"},
    {"solve_device", (PyCFunction)factor_solve_device, METH_VARARGS,
     "solve_device(pointer, nrhs, ldb, options) -> dict"},
    {"logdet", (PyCFunction)factor_logdet, METH_NOARGS, "logdet() -> float"},
    {"rcond", (PyCFunction)factor_rcond, METH_VARARGS, "rcond(matrix) -> float"},
    {"nnz", (PyCFunction)factor_nnz, METH_NOARGS, "nnz() -> entries of L"},
    {"csc", (PyCFunction)factor_csc, METH_VARARGS,
     "csc(colptr, rowind, values): L, permuted numbering"},
    {"info", (PyCFunction)factor_info, METH_NOARGS, "info() -> dict"},
    {"perm", (PyCFunction)factor_perm, METH_NOARGS, "perm() -> bytes of n int64: new -> old"},
    {"close", (PyCFunction)factor_close, METH_NOARGS, "close(): free the factor"},
    {NULL, NULL, 0, NULL},
};

static PyObject *factor_in_use(ext_factor *self, void *closure)
{
    (void)closure;
    return PyLong_FromLong(self->solving + self->busy);
}

static PyGetSetDef factor_getset[] = {
    {"in_use", (getter)factor_in_use, NULL, "calls running on the factor in other threads", NULL},
    {"dtype", (getter)factor_dtype, NULL, "the factor's precision", NULL},
    {"n", (getter)factor_n, NULL, "rows", NULL},
    {"closed", (getter)factor_closed, NULL, "whether close() ran", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject ext_factor_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sylva._sylva.Factor",
    .tp_basicsize = sizeof(ext_factor),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "a numeric factor (sylva_factor_t): made by factorize()",
    .tp_dealloc = (destructor)factor_dealloc,
    .tp_methods = factor_methods,
    .tp_getset = factor_getset,
};

PyMethodDef ext_factor_functions[] = {
    {"factorize", py_factorize, METH_VARARGS, "factorize(analysis, matrix) -> Factor"},
    {NULL, NULL, 0, NULL},
};
