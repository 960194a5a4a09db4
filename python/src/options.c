/* options.c — a Python dict of options into a sylva_options: names
 * ("metis", "subtree", "cpu", "float32", "auto") through libsylva's own
 * parsers, numbers type-checked. An unknown key is a TypeError, an unknown
 * name or a value of the wrong type a ValueError or TypeError naming the
 * option and what it may be; ranges are libsylva's to check (its
 * SYLVA_ERR_ARGUMENT names the option). Names are kept as the library's
 * own strings, so an options struct outlives the dict it came from. */
#include <string.h>

#include "ext.h"

typedef int (*from_name_fn)(const char *);
typedef const char *(*name_of_fn)(int);

static int name_error(const char *key, const char *value, name_of_fn name_of)
{
    char list[512] = "";
    size_t len = 0;
    for (int i = 0; i < 64; i++) {
        const char *n = name_of(i);
        if (!n || !*n || n[0] == '?' || !strcmp(n, "unknown")) break;
        len += (size_t)snprintf(list + len, len < sizeof list ? sizeof list - len : 0, "%s%s",
                                len ? ", " : "", n);
    }
    PyErr_Format(PyExc_ValueError, "%s='%s' is not one of: %s", key, value, list);
    return -1;
}

static const char *str_of(PyObject *v, const char *key)
{
    if (!PyUnicode_Check(v)) {
        PyErr_Format(PyExc_TypeError, "%s must be a str, not %.100s", key, Py_TYPE(v)->tp_name);
        return NULL;
    }
    return PyUnicode_AsUTF8(v);
}

static int enum_of(PyObject *v, const char *key, from_name_fn parse, name_of_fn name_of, int *out)
{
    const char *s = str_of(v, key);
    if (!s) return -1;
    int x = parse(s);
    if (x < 0) return name_error(key, s, name_of);
    *out = x;
    return 0;
}

static int int_of(PyObject *v, const char *key, int64_t *out)
{
    if (!PyLong_Check(v) || PyBool_Check(v)) {
        PyErr_Format(PyExc_TypeError, "%s must be an int, not %.100s", key, Py_TYPE(v)->tp_name);
        return -1;
    }
    long long x = PyLong_AsLongLong(v);
    if (x == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "%s is out of range of a 64-bit integer", key);
        return -1;
    }
    *out = (int64_t)x;
    return 0;
}

static int small_int_of(PyObject *v, const char *key, int *out)
{
    int64_t x;
    if (int_of(v, key, &x)) return -1;
    if (x < INT32_MIN || x > INT32_MAX) {
        PyErr_Format(PyExc_ValueError, "%s = %lld is out of range of an int", key, (long long)x);
        return -1;
    }
    *out = (int)x;
    return 0;
}

static int float_of(PyObject *v, const char *key, double *out)
{
    if (!PyFloat_Check(v) && !(PyLong_Check(v) && !PyBool_Check(v))) {
        PyErr_Format(PyExc_TypeError, "%s must be a number, not %.100s", key, Py_TYPE(v)->tp_name);
        return -1;
    }
    *out = PyFloat_AsDouble(v);
    return *out == -1.0 && PyErr_Occurred() ? -1 : 0;
}

static int triple_of(PyObject *v, const char *key, int64_t ni[3], double nd[3])
{
    PyObject *seq = PySequence_Fast(v, "");
    if (!seq || PySequence_Fast_GET_SIZE(seq) != 3) {
        Py_XDECREF(seq);
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "%s must be a sequence of 3 numbers", key);
        return -1;
    }
    int bad = 0;
    for (int i = 0; i < 3 && !bad; i++) {
        PyObject *x = PySequence_Fast_GET_ITEM(seq, i);
        bad = ni ? int_of(x, key, &ni[i]) : float_of(x, key, &nd[i]);
    }
    Py_DECREF(seq);
    return bad ? -1 : 0;
}

/* The registry's own string for a policy or scheduler name, or NULL. */
static const char *registry_name(const char *s, name_of_fn name_of)
{
    for (int i = 0; name_of(i); i++)
        if (!strcmp(name_of(i), s)) return name_of(i);
    return NULL;
}
static const char *policy_name(int i) { return sylva_policy_name(i); }
static const char *scheduler_name(int i) { return sylva_scheduler_name(i); }
static const char *dtype_name(int i) { return i < 2 ? sylva_dtype_name((sylva_dtype)i) : NULL; }
static int dtype_from_name(const char *s) { return sylva_dtype_from_name(s); }
static int refine_from_name(const char *s) { return strcmp(s, "auto") ? -1 : 0; }
static const char *refine_name(int i) { return i == 0 ? "auto (or an int)" : NULL; }

static int one(PyObject *key, PyObject *v, sylva_options *o)
{
    const char *k = str_of(key, "an option name");
    if (!k) return -1;
    int e;
    if (!strcmp(k, "ordering")) {
        if (enum_of(v, k, sylva_ordering_from_name, sylva_ordering_name, &e)) return -1;
        o->ordering = (sylva_ordering)e;
    } else if (!strcmp(k, "policy") || !strcmp(k, "scheduler")) {
        int policy = k[0] == 'p';
        const char *s = str_of(v, k);
        if (!s) return -1;
        const char *r = registry_name(s, policy ? policy_name : scheduler_name);
        if (!r) return name_error(k, s, policy ? policy_name : scheduler_name);
        *(policy ? &o->policy : &o->scheduler) = r;
    } else if (!strcmp(k, "mode")) {
        if (enum_of(v, k, sylva_exec_mode_from_name, sylva_exec_mode_name, &e)) return -1;
        o->mode = (sylva_exec_mode)e;
    } else if (!strcmp(k, "solve_mode")) {
        if (enum_of(v, k, sylva_solve_mode_from_name, sylva_solve_mode_name, &e)) return -1;
        o->solve_mode = (sylva_solve_mode)e;
    } else if (!strcmp(k, "gpu_map")) {
        if (enum_of(v, k, sylva_gpu_map_from_name, sylva_gpu_map_name, &e)) return -1;
        o->gpu_map = (sylva_gpu_map)e;
    } else if (!strcmp(k, "precision")) {
        if (enum_of(v, k, dtype_from_name, dtype_name, &e)) return -1;
        o->precision = (sylva_dtype)e;
    } else if (!strcmp(k, "refine")) {
        if (PyUnicode_Check(v)) {
            if (enum_of(v, k, refine_from_name, refine_name, &e)) return -1;
            o->refine = SYLVA_REFINE_AUTO;
        } else if (small_int_of(v, k, &o->refine)) {
            return -1;
        }
    } else if (!strcmp(k, "ncpus")) {
        return small_int_of(v, "threads", &o->ncpus);
    } else if (!strcmp(k, "ncuda")) {
        return small_int_of(v, "gpus", &o->ncuda);
    } else if (!strcmp(k, "verbose")) {
        return small_int_of(v, k, &o->verbose);
    } else if (!strcmp(k, "solve_block")) {
        return int_of(v, k, &o->solve_block);
    } else if (!strcmp(k, "small_front_rows")) {
        return int_of(v, k, &o->small_front_rows);
    } else if (!strcmp(k, "tile_rows")) {
        return int_of(v, k, &o->tile_rows);
    } else if (!strcmp(k, "gpu_tile_rows")) {
        return int_of(v, k, &o->gpu_tile_rows);
    } else if (!strcmp(k, "device_memory")) {
        return int_of(v, k, &o->device_memory);
    } else if (!strcmp(k, "batch_flops")) {
        return float_of(v, k, &o->batch_flops);
    } else if (!strcmp(k, "nrelax")) {
        return triple_of(v, k, o->nrelax, NULL);
    } else if (!strcmp(k, "zrelax")) {
        return triple_of(v, k, NULL, o->zrelax);
    } else {
        PyErr_Format(PyExc_TypeError, "unknown option '%s'", k);
        return -1;
    }
    return 0;
}

int ext_options(PyObject *dict, sylva_options *o)
{
    sylva_default_options(o);
    o->mpi = SYLVA_MPI_OFF; /* one Python process is one sylva process */
    if (!dict || dict == Py_None) return 0;
    if (!PyDict_Check(dict)) {
        PyErr_SetString(PyExc_TypeError, "options must be a dict");
        return -1;
    }
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    while (PyDict_Next(dict, &pos, &key, &value))
        if (value != Py_None && one(key, value, o)) return -1;
    return 0;
}
