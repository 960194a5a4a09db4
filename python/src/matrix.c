/* matrix.c — _sylva.Matrix: a symmetric matrix handed to libsylva from
 * compressed-column buffers (int32 or int64 indices, float64 values), in
 * one of three ways: "full" (both triangles, checked symmetric, copied once
 * by sylva_matrix_from_csc[32]), "lower" (the lower triangle, unsorted or
 * with duplicates, copied once), "wrap" (a lower triangle already sorted and
 * unique: used in place by sylva_matrix_wrap[32], the buffers held until the
 * Matrix goes; int32 indices are widened once). A failure raises the
 * library's status (a bad pattern is a SylvaValueError); the Python layer
 * has checked shapes, dtypes and finiteness before. */
#include <string.h>

#include "ext.h"

enum { MATRIX_FULL, MATRIX_LOWER, MATRIX_WRAP };

static int index_width(const Py_buffer *b, const char *what)
{
    const char *f = b->format ? b->format : "B";
    if (f[0] == '<' || f[0] == '=' || f[0] == '@') f++;
    if (b->itemsize == 4 && (f[0] == 'i' || f[0] == 'l') && !f[1]) return 4;
    if (b->itemsize == 8 && (f[0] == 'l' || f[0] == 'q') && !f[1]) return 8;
    PyErr_Format(PyExc_TypeError, "%s must hold int32 or int64 indices (buffer format '%s')", what,
                 f);
    return 0;
}

static int get(PyObject *o, Py_buffer *b, const char *what)
{
    if (PyObject_GetBuffer(o, b, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT)) return -1;
    if (b->ndim > 1) {
        PyBuffer_Release(b);
        PyErr_Format(PyExc_ValueError, "%s must be one-dimensional", what);
        return -1;
    }
    return 0;
}

static PyObject *matrix_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    static char *names[] = {"n", "indptr", "indices", "data", "how", NULL};
    long long n;
    PyObject *po, *io, *vo;
    const char *how;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "LOOOs", names, &n, &po, &io, &vo, &how))
        return NULL;
    int mode = !strcmp(how, "full")    ? MATRIX_FULL
               : !strcmp(how, "lower") ? MATRIX_LOWER
               : !strcmp(how, "wrap")  ? MATRIX_WRAP
                                       : -1;
    if (mode < 0)
        return PyErr_Format(PyExc_ValueError, "how must be full, lower or wrap, not '%s'", how);
    ext_matrix *self = (ext_matrix *)type->tp_alloc(type, 0);
    if (!self) return NULL;
    Py_buffer *p = &self->held[0], *i = &self->held[1], *v = &self->held[2];
    if (get(po, p, "indptr")) goto fail;
    self->nheld = 1;
    if (get(io, i, "indices")) goto fail;
    self->nheld = 2;
    if (get(vo, v, "data")) goto fail;
    self->nheld = 3;
    int wp = index_width(p, "indptr"), wi = wp ? index_width(i, "indices") : 0;
    if (!wp || !wi) goto fail;
    if (wp != wi) {
        PyErr_SetString(PyExc_TypeError, "indptr and indices must have the same integer type");
        goto fail;
    }
    if (v->itemsize != 8 || !v->format || strcmp(v->format, "d")) {
        PyErr_SetString(PyExc_TypeError, "data must be float64");
        goto fail;
    }
    if (n < 0 || p->len / wp != n + 1) {
        PyErr_Format(PyExc_ValueError, "indptr has %zd entries, not n + 1 = %lld", p->len / wp,
                     n + 1);
        goto fail;
    }
    int status;
    sylva_matrix *A = NULL;
    Py_BEGIN_ALLOW_THREADS
    if (mode == MATRIX_WRAP)
        status = wp == 8 ? sylva_matrix_wrap(n, p->buf, i->buf, v->buf, &A)
                         : sylva_matrix_wrap32(n, p->buf, i->buf, v->buf, &A);
    else if (wp == 8)
        status = sylva_matrix_from_csc(n, p->buf, i->buf, v->buf, mode == MATRIX_LOWER, &A);
    else
        status = sylva_matrix_from_csc32(n, p->buf, i->buf, v->buf, mode == MATRIX_LOWER, &A);
    Py_END_ALLOW_THREADS
    if (status) {
        ext_raise(status, sylva_last_error(), -1);
        goto fail;
    }
    self->A = A;
    /* Keep only what A uses in place: all three (wrap, int64), the values
     * (wrap32), nothing (copied). */
    int keep = mode != MATRIX_WRAP ? 0 : wp == 8 ? 3 : 1;
    if (keep == 1) {
        PyBuffer_Release(p);
        PyBuffer_Release(i);
        self->held[0] = self->held[2];
    } else if (keep == 0) {
        for (int k = 0; k < 3; k++) PyBuffer_Release(&self->held[k]);
    }
    self->nheld = keep;
    return (PyObject *)self;
fail:
    Py_DECREF(self);
    return NULL;
}

static void matrix_dealloc(ext_matrix *self)
{
    sylva_matrix_free(self->A);
    for (int k = 0; k < self->nheld; k++) PyBuffer_Release(&self->held[k]);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *matrix_n(ext_matrix *self, void *closure)
{
    (void)closure;
    return PyLong_FromLongLong(self->A ? self->A->n : 0);
}
static PyObject *matrix_nnz(ext_matrix *self, void *closure)
{
    (void)closure;
    return PyLong_FromLongLong(self->A ? self->A->nnz : 0);
}
static PyObject *matrix_in_place(ext_matrix *self, void *closure)
{
    (void)closure;
    return PyBool_FromLong(self->nheld > 0);
}

static PyGetSetDef matrix_getset[] = {
    {"n", (getter)matrix_n, NULL, "rows (and columns)", NULL},
    {"nnz", (getter)matrix_nnz, NULL, "stored entries of the lower triangle", NULL},
    {"in_place", (getter)matrix_in_place, NULL, "whether the caller's values are used in place",
     NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject ext_matrix_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sylva._sylva.Matrix",
    .tp_basicsize = sizeof(ext_matrix),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Matrix(n, indptr, indices, data, how): a symmetric matrix for libsylva "
              "(how: 'full', 'lower' or 'wrap'; see sylva/_input.py)",
    .tp_new = matrix_new,
    .tp_dealloc = (destructor)matrix_dealloc,
    .tp_getset = matrix_getset,
};

int ext_add_matrix(PyObject *m)
{
    if (PyType_Ready(&ext_matrix_type)) return -1;
    Py_INCREF(&ext_matrix_type);
    return PyModule_AddObject(m, "Matrix", (PyObject *)&ext_matrix_type);
}
