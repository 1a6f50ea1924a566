/* hd_fastcall.c - the per-hand calls, as a small CPython extension module
 * (holdem._fastcall, limited API, abi3).
 *
 * Why not cffi: every cffi call releases and retakes the GIL and converts its
 * arguments through a tuple, about 100 ns more than a builtin call; for one
 * hand that is most of the cost.  These functions take their arguments by
 * METH_FASTCALL / METH_O, keep the GIL (a lookup takes nanoseconds) and read
 * the tables that the cffi module holdem._core built (bind() passes their
 * address), so the tables exist once.  Long calls (batches, enumeration,
 * equity) stay in cffi, where releasing the GIL pays off.
 */
#define Py_LIMITED_API 0x030B0000
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "hd_internal.h"

static const hd_tables_t *tables;
static PyObject *fallback; /* evaluate() for everything but plain int hands */

/* Reads a card from an int object into *out: 1 if it is an exact int in
 * 0..51, 0 if it is anything else (no exception set), -1 on error. */
static int read_card(PyObject *obj, uint8_t *out) {
    if (!PyLong_CheckExact(obj)) return 0;
    long value = PyLong_AsLong(obj);
    if (value == -1 && PyErr_Occurred()) {
        PyErr_Clear(); /* too large: not a card */
        return 0;
    }
    if (value < 0 || value >= HD_NUM_CARDS) return 0;
    *out = (uint8_t)value;
    return 1;
}

/* Value of distinct valid cards, or 0 if two are equal. */
static uint16_t value_if_distinct(const uint8_t *cards, size_t n) {
    uint64_t seen = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t bit = UINT64_C(1) << cards[i];
        if (seen & bit) return 0;
        seen |= bit;
    }
    return hd_evaluate_in(tables, cards, n);
}

static int check_bound(void) {
    if (tables) return 1;
    PyErr_SetString(PyExc_RuntimeError, "holdem._fastcall is not bound to the tables");
    return 0;
}

PyDoc_STRVAR(evaluate7_doc,
"evaluate7($module, a, b, c, d, e, f, g, /)\n--\n\n"
"Value of seven card ints, or 0 if a card is not in 0..51 or is repeated.");

static PyObject *evaluate7(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    uint8_t cards[7];
    (void)self;
    if (!check_bound()) return NULL;
    if (nargs != 7) {
        PyErr_Format(PyExc_TypeError, "evaluate7() takes 7 cards (%zd given)", nargs);
        return NULL;
    }
    for (int i = 0; i < 7; i++) {
        if (!PyLong_Check(args[i])) {
            PyErr_Format(PyExc_TypeError, "evaluate7() takes card ints: argument %d is not an int",
                         i + 1);
            return NULL;
        }
        int ok = read_card(args[i], &cards[i]);
        if (ok <= 0) return PyLong_FromLong(0);
    }
    return PyLong_FromLong(value_if_distinct(cards, 7));
}

PyDoc_STRVAR(evaluate_doc,
"evaluate($module, cards, /)\n--\n\n"
"Value of the best five of 5 to 7 cards.\n\n"
"A list or tuple of card ints is valued here; anything else (text, other\n"
"iterables, bad cards) goes to holdem.evaluator._evaluate_checked, which\n"
"parses, validates and raises InvalidCardError.");

static PyObject *evaluate(PyObject *self, PyObject *cards) {
    uint8_t buf[7];
    Py_ssize_t n = -1;
    (void)self;
    if (!check_bound()) return NULL;
    if (PyList_CheckExact(cards)) n = PyList_Size(cards);
    else if (PyTuple_CheckExact(cards)) n = PyTuple_Size(cards);
    if (n >= 5 && n <= 7) {
        int good = 1;
        for (Py_ssize_t i = 0; i < n && good; i++) {
            PyObject *item = PyList_CheckExact(cards) ? PyList_GetItem(cards, i)
                                                      : PyTuple_GetItem(cards, i);
            good = item && read_card(item, &buf[i]) > 0;
        }
        if (good) {
            uint16_t value = value_if_distinct(buf, (size_t)n);
            if (value) return PyLong_FromLong(value);
        }
    }
    return PyObject_CallFunctionObjArgs(fallback, cards, NULL);
}

PyDoc_STRVAR(bind_doc,
"bind($module, address, fallback, /)\n--\n\n"
"Reads the tables at address (holdem._core's hd_tables_address()) and\n"
"sends evaluate() calls it cannot answer to fallback.");

static PyObject *bind(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 2 || !PyCallable_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "bind(address, fallback)");
        return NULL;
    }
    void *address = PyLong_AsVoidPtr(args[0]);
    if (!address) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "null table address");
        return NULL;
    }
    Py_INCREF(args[1]);
    Py_XDECREF(fallback);
    fallback = args[1];
    tables = address;
    Py_RETURN_NONE;
}

PyDoc_STRVAR(check_signals_doc,
"check_signals($module, /)\n--\n\n"
"Runs now the Python handlers of the signals received so far, as the\n"
"interpreter does between bytecodes; raises what they raise (a Ctrl-C:\n"
"KeyboardInterrupt).  For after a C call that a Ctrl-C stopped.");

static PyObject *check_signals(PyObject *self, PyObject *unused) {
    (void)self;
    (void)unused;
    if (PyErr_CheckSignals() < 0) return NULL;
    Py_RETURN_NONE;
}

PyObject *hd_deal_cards(PyObject *, PyObject *const *, Py_ssize_t); /* hd_shuffle.c */
extern const char hd_deal_cards_doc[];
PyObject *hd_read_toml(PyObject *, PyObject *const *, Py_ssize_t); /* hd_toml.c */
extern const char hd_read_toml_doc[];
PyObject *hd_build_phh(PyObject *, PyObject *const *, Py_ssize_t); /* hd_phh.c */
extern const char hd_build_phh_doc[];

static PyMethodDef methods[] = {
    {"evaluate7", (PyCFunction)(void (*)(void))evaluate7, METH_FASTCALL, evaluate7_doc},
    {"evaluate", evaluate, METH_O, evaluate_doc},
    {"bind", (PyCFunction)(void (*)(void))bind, METH_FASTCALL, bind_doc},
    {"check_signals", check_signals, METH_NOARGS, check_signals_doc},
    {"deal_cards", (PyCFunction)(void (*)(void))hd_deal_cards, METH_FASTCALL,
     hd_deal_cards_doc},
    {"read_toml", (PyCFunction)(void (*)(void))hd_read_toml, METH_FASTCALL, hd_read_toml_doc},
    {"build_phh", (PyCFunction)(void (*)(void))hd_build_phh, METH_FASTCALL, hd_build_phh_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_fastcall",
    "Per-hand evaluation calls without cffi's per-call overhead.", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__fastcall(void) { return PyModule_Create(&module); }
