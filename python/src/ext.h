/* ext.h — what the files of the extension module _sylva share: the three
 * handle types (Matrix, Analysis, Factor), the raising of a libsylva status
 * as the package's exception, and the options read from a Python dict.
 * Why C with the CPython API and the buffer protocol (no NumPy C API, no
 * C++ binding library, no ctypes): libsylva is C, so the binding needs no
 * other compiler; arrays arrive as buffers (PEP 3118), so the module builds
 * without NumPy's headers and runs under NumPy 1.x and 2.x alike; and a
 * compiled module can release the GIL around every long call and check
 * every argument's type, which ctypes declarations cannot. The package's
 * Python half (python/sylva/) does the SciPy and NumPy work. */
#ifndef SYLVA_EXT_H
#define SYLVA_EXT_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <sylva.h>

/* A matrix handed to libsylva, and the buffers whose memory it uses in
 * place (released with it). */
typedef struct {
    PyObject_HEAD
    sylva_matrix *A;
    Py_buffer held[3];
    int nheld;
} ext_matrix;

typedef struct {
    PyObject_HEAD
    sylva_analysis_t *an;
    sylva_analysis_info info;
    sylva_options opts; /* as given (names point into the library's tables) */
} ext_analysis;

/* A factor. `solving` and `busy` are read and written under the GIL: a
 * refactorization or close waits for no one and is refused while another
 * thread solves with the factor (docs/api.md: not while refactorized). */
typedef struct {
    PyObject_HEAD
    sylva_factor_t *F;
    ext_analysis *analysis; /* a reference: its options and permutation */
    sylva_factor_info info;
    int solving;
    int busy;
} ext_factor;

extern PyTypeObject ext_matrix_type, ext_analysis_type, ext_factor_type;

/* Raise the package's exception for a failed libsylva call (its message is
 * the calling thread's sylva_last_error(), read by the caller right after
 * the call, before another call can replace it); returns NULL. */
PyObject *ext_raise(int status, const char *message, int64_t column);

/* Fill *o from the defaults and a dict of options (keys as the Python
 * API's: ordering, policy, mode, ncpus, ncuda, precision, refine,
 * solve_mode, solve_block, ...); 0 on success, -1 with an exception set. */
int ext_options(PyObject *dict, sylva_options *o);

/* The one factorization at a time that StarPU's task flow allows per
 * process (docs/api.md, "Threads"): taken without the GIL. */
void ext_factor_lock(void);
void ext_factor_unlock(void);
/* Factors alive (the runtime is restarted only when there are none). */
extern Py_ssize_t ext_live_factors;

int ext_add_matrix(PyObject *m);
int ext_add_factor(PyObject *m);

/* d[k] = v, taking v's reference (a NULL v, a failed conversion, is
 * skipped: the error stays set for the caller); the info dicts' fields. */
static inline void dset(PyObject *d, const char *k, PyObject *v)
{
    if (v) PyDict_SetItemString(d, k, v);
    Py_XDECREF(v);
}
#define SET_I(d, k, v) dset(d, k, PyLong_FromLongLong((long long)(v)))
#define SET_F(d, k, v) dset(d, k, PyFloat_FromDouble((double)(v)))
#define SET_S(d, k, v) dset(d, k, PyUnicode_FromString(v))

#endif
