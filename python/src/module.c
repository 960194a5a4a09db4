/* module.c — the extension module sylva._sylva (ext.h says why it is C
 * over the CPython API): the runtime's start and stop (sylva_init with the
 * options that concern it, restarted only while no factor is alive), the
 * package's exception classes (set_errors) and the raising of a libsylva
 * status as one of them, the process-wide factorization lock, and the
 * status names and version. */
#include <stdio.h>
#include <string.h>

#include "ext.h"

extern PyMethodDef ext_analysis_functions[], ext_factor_functions[];

static PyObject *error_class, *not_spd_class, *value_error_class; /* set_errors */
static PyThread_type_lock factor_lock;
Py_ssize_t ext_live_factors;
static int running;
static sylva_options running_opts;

void ext_factor_lock(void) { PyThread_acquire_lock(factor_lock, WAIT_LOCK); }
void ext_factor_unlock(void) { PyThread_release_lock(factor_lock); }

/* Statuses that say the input or an argument is wrong: SylvaValueError,
 * which is also a ValueError. */
static int is_value_status(int status)
{
    return status == SYLVA_ERR_ARGUMENT || status == SYLVA_ERR_NOT_SQUARE ||
           status == SYLVA_ERR_NOT_SYMMETRIC || status == SYLVA_ERR_BAD_VALUE ||
           status == SYLVA_ERR_PATTERN_ONLY || status == SYLVA_ERR_PATTERN_MISMATCH;
}

PyObject *ext_raise(int status, const char *message, int64_t column)
{
    PyObject *cls = status == SYLVA_ERR_NOT_SPD ? not_spd_class
                    : is_value_status(status)   ? value_error_class
                                                : error_class;
    const char *msg = message && *message ? message : sylva_strerror(status);
    if (!cls) {
        PyErr_Format(PyExc_RuntimeError, "%s: %s", sylva_status_name(status), msg);
        return NULL;
    }
    PyObject *col = column >= 0 ? PyLong_FromLongLong(column) : Py_NewRef(Py_None);
    PyObject *e =
        col ? PyObject_CallFunction(cls, "ssO", sylva_status_name(status), msg, col) : NULL;
    Py_XDECREF(col);
    if (e) {
        PyErr_SetObject(cls, e);
        Py_DECREF(e);
    }
    return NULL;
}

static PyObject *py_set_errors(PyObject *mod, PyObject *args)
{
    (void)mod;
    PyObject *a, *b, *c;
    if (!PyArg_ParseTuple(args, "OOO", &a, &b, &c)) return NULL;
    Py_XSETREF(error_class, Py_NewRef(a));
    Py_XSETREF(not_spd_class, Py_NewRef(b));
    Py_XSETREF(value_error_class, Py_NewRef(c));
    Py_RETURN_NONE;
}

/* The runtime options that sylva_init compares (docs/api.md). */
static int same_runtime(const sylva_options *a, const sylva_options *b)
{
    return a->ncpus == b->ncpus && a->ncuda == b->ncuda &&
           (a->mode == SYLVA_MODE_CPU) == (b->mode == SYLVA_MODE_CPU) &&
           a->device_memory == b->device_memory &&
           ((!a->scheduler && !b->scheduler) ||
            (a->scheduler && b->scheduler && !strcmp(a->scheduler, b->scheduler)));
}

/* init(options): start the runtime, or keep the running one when it has
 * these options; restart it when it has others and no factor is alive. */
static PyObject *py_init(PyObject *mod, PyObject *opts)
{
    (void)mod;
    sylva_options o;
    if (ext_options(opts, &o)) return NULL;
    if (running && same_runtime(&o, &running_opts)) Py_RETURN_NONE;
    if (running && ext_live_factors > 0) {
        char msg[400];
        snprintf(msg, sizeof msg,
                 "the runtime runs with threads=%d, gpus=%d, mode=%s; %zd factor(s) are "
                 "still open: close them before asking for other runtime options (threads, "
                 "gpus, mode='cpu', device_memory, scheduler)",
                 running_opts.ncpus, running_opts.ncuda, sylva_exec_mode_name(running_opts.mode),
                 ext_live_factors);
        return ext_raise(SYLVA_ERR_ARGUMENT, msg, -1);
    }
    int status;
    const char *msg;
    Py_BEGIN_ALLOW_THREADS
    ext_factor_lock();
    if (running) sylva_finalize();
    running = 0;
    status = sylva_init(&o);
    msg = sylva_last_error();
    ext_factor_unlock();
    Py_END_ALLOW_THREADS
    if (status) return ext_raise(status, msg, -1);
    running = 1;
    running_opts = o;
    Py_RETURN_NONE;
}

static PyObject *py_finalize(PyObject *mod, PyObject *unused)
{
    (void)mod, (void)unused;
    if (running) {
        Py_BEGIN_ALLOW_THREADS
        ext_factor_lock();
        sylva_finalize();
        ext_factor_unlock();
        Py_END_ALLOW_THREADS
    }
    running = 0;
    Py_RETURN_NONE;
}

static PyObject *py_runtime(PyObject *mod, PyObject *unused)
{
    (void)mod, (void)unused;
    sylva_runtime_info ri;
    if (!running || sylva_runtime_query(&ri)) Py_RETURN_NONE;
    return Py_BuildValue("{s:i,s:i,s:i,s:s,s:s,s:n}", "cpu_workers", ri.cpu_workers, "gpu_workers",
                         ri.gpu_workers, "gpus", ri.gpus, "scheduler", ri.scheduler, "gpu_name",
                         sylva_gpu_name(), "live_factors", ext_live_factors);
}

static PyObject *py_status_names(PyObject *mod, PyObject *unused)
{
    (void)mod, (void)unused;
    PyObject *d = PyDict_New();
#define SYLVA_X_NAME(name, value, short_name, text)                                                \
    if (d) {                                                                                       \
        PyObject *v = PyLong_FromLong(value);                                                      \
        if (!v || PyDict_SetItemString(d, short_name, v)) Py_CLEAR(d);                             \
        Py_XDECREF(v);                                                                             \
    }
    SYLVA_STATUS_MAP(SYLVA_X_NAME)
#undef SYLVA_X_NAME
    return d;
}

static PyObject *py_policies(PyObject *mod, PyObject *unused)
{
    (void)mod, (void)unused;
    PyObject *l = PyList_New(0);
    for (int i = 0; l && sylva_policy_name(i); i++) {
        PyObject *s = PyUnicode_FromString(sylva_policy_name(i));
        if (!s || PyList_Append(l, s)) Py_CLEAR(l);
        Py_XDECREF(s);
    }
    return l;
}

static PyMethodDef module_functions[] = {
    {"set_errors", py_set_errors, METH_VARARGS,
     "set_errors(SylvaError, NotPositiveDefiniteError, SylvaValueError)"},
    {"init", py_init, METH_O, "init(options): start (or keep) the runtime"},
    {"finalize", py_finalize, METH_NOARGS, "finalize(): stop the runtime"},
    {"runtime", py_runtime, METH_NOARGS, "runtime() -> dict of the running runtime, or None"},
    {"status_names", py_status_names, METH_NOARGS, "status_names() -> {name: code}"},
    {"policies", py_policies, METH_NOARGS, "policies() -> the batching policies' names"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    "sylva._sylva",
    "libsylva's handles (the compiled half of sylva)",
    -1,
    module_functions,
    NULL,
    NULL,
    NULL,
    NULL,
};

static int add_functions(PyObject *m, PyMethodDef *defs)
{
    for (PyMethodDef *d = defs; d->ml_name; d++) {
        PyObject *f = PyCFunction_New(d, NULL);
        if (!f || PyModule_AddObject(m, d->ml_name, f)) {
            Py_XDECREF(f);
            return -1;
        }
    }
    return 0;
}

PyMODINIT_FUNC PyInit__sylva(void)
{
    factor_lock = PyThread_allocate_lock();
    if (!factor_lock) return PyErr_NoMemory();
    PyObject *m = PyModule_Create(&module_def);
    if (!m) return NULL;
    if (ext_add_matrix(m) || PyType_Ready(&ext_analysis_type) || PyType_Ready(&ext_factor_type) ||
        add_functions(m, ext_analysis_functions) || add_functions(m, ext_factor_functions) ||
        PyModule_AddStringConstant(m, "version", sylva_version())) {
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&ext_analysis_type);
    Py_INCREF(&ext_factor_type);
    PyModule_AddObject(m, "Analysis", (PyObject *)&ext_analysis_type);
    PyModule_AddObject(m, "Factor", (PyObject *)&ext_factor_type);
    return m;
}
