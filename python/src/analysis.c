/* analysis.c — _sylva.Analysis over sylva_analysis_t: made by analyze()
 * (sylva_analyze, the GIL released) or load_analysis() (sylva_analysis_load),
 * saved by save(), read by perm() and info(). An analysis is reference
 * counted by libsylva, so a factor made from it keeps working after the
 * Analysis object goes (docs/api.md, "Lifetime"); the Factor holds a
 * reference to it anyway for its options and permutation. */
#include "ext.h"

static int check_open(ext_analysis *self)
{
    if (self->an) return 0;
    PyErr_SetString(PyExc_ValueError, "the analysis is closed");
    return -1;
}

/* analyze(matrix, options, user_perm) */
static PyObject *py_analyze(PyObject *mod, PyObject *args)
{
    (void)mod;
    ext_matrix *M;
    PyObject *opts, *perm;
    if (!PyArg_ParseTuple(args, "O!OO", &ext_matrix_type, &M, &opts, &perm)) return NULL;
    ext_analysis *self = PyObject_New(ext_analysis, &ext_analysis_type);
    if (!self) return NULL;
    self->an = NULL;
    if (ext_options(opts, &self->opts)) goto fail;
    Py_buffer pb = {0};
    if (perm != Py_None) {
        if (PyObject_GetBuffer(perm, &pb, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT)) goto fail;
        if (pb.itemsize != 8 || pb.len / 8 != M->A->n || !pb.format ||
            !strchr("lq", pb.format[0])) {
            PyBuffer_Release(&pb);
            PyErr_Format(PyExc_ValueError, "user_perm must be %lld int64 entries",
                         (long long)M->A->n);
            goto fail;
        }
        self->opts.user_perm = pb.buf;
        self->opts.ordering = SYLVA_ORDERING_USER;
    }
    int status;
    const char *msg;
    Py_BEGIN_ALLOW_THREADS
    status = sylva_analyze(M->A, &self->opts, &self->an, &self->info);
    msg = sylva_last_error();
    Py_END_ALLOW_THREADS
    self->opts.user_perm = NULL;
    if (perm != Py_None) PyBuffer_Release(&pb);
    if (status) {
        ext_raise(status, msg, -1);
        goto fail;
    }
    return (PyObject *)self;
fail:
    Py_DECREF(self);
    return NULL;
}

/* load_analysis(path, matrix, options) */
static PyObject *py_load_analysis(PyObject *mod, PyObject *args)
{
    (void)mod;
    PyObject *path_obj, *opts;
    ext_matrix *M;
    if (!PyArg_ParseTuple(args, "O&O!O", PyUnicode_FSConverter, &path_obj, &ext_matrix_type, &M,
                          &opts))
        return NULL;
    ext_analysis *self = PyObject_New(ext_analysis, &ext_analysis_type);
    if (!self) {
        Py_DECREF(path_obj);
        return NULL;
    }
    self->an = NULL;
    int status = ext_options(opts, &self->opts) ? -100 : 0;
    const char *path = PyBytes_AS_STRING(path_obj), *msg = NULL;
    if (!status) {
        Py_BEGIN_ALLOW_THREADS
        status = sylva_analysis_load(path, M->A, &self->opts, &self->an, &self->info);
        msg = sylva_last_error();
        Py_END_ALLOW_THREADS
        if (status) ext_raise(status, msg, -1);
    }
    Py_DECREF(path_obj);
    if (status) {
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject *)self;
}

static PyObject *analysis_save(ext_analysis *self, PyObject *args)
{
    PyObject *path_obj;
    if (check_open(self) || !PyArg_ParseTuple(args, "O&", PyUnicode_FSConverter, &path_obj))
        return NULL;
    int status;
    const char *msg, *path = PyBytes_AS_STRING(path_obj);
    Py_BEGIN_ALLOW_THREADS
    status = sylva_analysis_save(self->an, path);
    msg = sylva_last_error();
    Py_END_ALLOW_THREADS
    Py_DECREF(path_obj);
    if (status) return ext_raise(status, msg, -1);
    Py_RETURN_NONE;
}

static PyObject *analysis_perm(ext_analysis *self, PyObject *unused)
{
    (void)unused;
    if (check_open(self)) return NULL;
    return PyBytes_FromStringAndSize((const char *)sylva_analysis_perm(self->an),
                                     (Py_ssize_t)(self->info.n * (int64_t)sizeof(int64_t)));
}

PyObject *ext_analysis_info(const sylva_analysis_info *i, const sylva_options *o)
{
    PyObject *d = PyDict_New();
    if (!d) return NULL;
    SET_I(d, "n", i->n);
    SET_I(d, "nnz_A", i->nnz_A);
    SET_I(d, "nnz_L", i->nnz_L);
    SET_F(d, "flops", i->flops);
    SET_I(d, "fronts", i->fronts);
    SET_I(d, "tree_height", i->tree_height);
    SET_I(d, "max_front_rows", i->max_front_rows);
    SET_I(d, "batches", i->batches);
    SET_I(d, "small_fronts", i->small_fronts);
    SET_I(d, "large_fronts", i->large_fronts);
    SET_F(d, "factor_bytes", i->factor_bytes);
    SET_F(d, "peak_cb_bytes", i->peak_cb_bytes);
    SET_F(d, "seconds", i->seconds);
    SET_F(d, "seconds_ordering", i->seconds_ordering);
    SET_F(d, "seconds_symbolic", i->seconds_symbolic);
    SET_F(d, "seconds_maps", i->seconds_maps);
    SET_F(d, "seconds_plan", i->seconds_plan);
    SET_S(d, "ordering", sylva_ordering_name(i->ordering));
    SET_S(d, "policy", o->policy ? o->policy : sylva_policy_name(0));
    SET_S(d, "precision", sylva_dtype_name(o->precision));
    SET_I(d, "memory_on_gpu", i->memory_on_gpu);
    SET_F(d, "memory_baseline_bytes", i->memory_baseline_bytes);
    SET_F(d, "predicted_peak_bytes", i->predicted_peak_bytes);
    SET_F(d, "predicted_refactor_peak_bytes", i->predicted_refactor_peak_bytes);
    SET_I(d, "small_front_rows", i->small_front_rows);
    SET_F(d, "batch_flops", i->batch_flops);
    if (PyErr_Occurred()) {
        Py_DECREF(d);
        return NULL;
    }
    return d;
}

static PyObject *analysis_info(ext_analysis *self, PyObject *unused)
{
    (void)unused;
    return ext_analysis_info(&self->info, &self->opts);
}

static PyObject *analysis_close(ext_analysis *self, PyObject *unused)
{
    (void)unused;
    sylva_analysis_free(self->an);
    self->an = NULL;
    Py_RETURN_NONE;
}

static void analysis_dealloc(ext_analysis *self)
{
    sylva_analysis_free(self->an);
    PyObject_Free(self);
}

static PyMethodDef analysis_methods[] = {
    {"save", (PyCFunction)analysis_save, METH_VARARGS,
     "save(path): write the analysis (sylva_analysis_save)"},
    {"perm", (PyCFunction)analysis_perm, METH_NOARGS, "perm() -> bytes of n int64: new -> old"},
    {"info", (PyCFunction)analysis_info, METH_NOARGS, "info() -> dict of sylva_analysis_info"},
    {"close", (PyCFunction)analysis_close, METH_NOARGS, "close(): release the analysis"},
    {NULL, NULL, 0, NULL},
};

PyTypeObject ext_analysis_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sylva._sylva.Analysis",
    .tp_basicsize = sizeof(ext_analysis),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "an analysis (sylva_analysis_t): made by analyze() or load_analysis()",
    .tp_dealloc = (destructor)analysis_dealloc,
    .tp_methods = analysis_methods,
};

PyMethodDef ext_analysis_functions[] = {
    {"analyze", py_analyze, METH_VARARGS, "analyze(matrix, options, user_perm) -> Analysis"},
    {"load_analysis", py_load_analysis, METH_VARARGS,
     "load_analysis(path, matrix, options) -> Analysis"},
    {NULL, NULL, 0, NULL},
};
