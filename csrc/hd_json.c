/* hd_json.c - the JSON text of a player's view and of a log's records, for
 * the protocol's turn and action lines (holdem.protocol.texts).
 *
 * A room server writes a view at every turn and a record at every step of
 * every hand; in Python that is most of what a decision costs it.  These
 * writers give the very text encode(view.to_dict(since)) and
 * encode(record.to_dict()) give (the same keys in the same order, compact,
 * ASCII), straight from the objects the engine built: a view's slots and the
 * records, which are tuples.  tests/test_protocol_texts.py holds them to
 * that over random hands.  A view with an outcome (the hand is over) is left
 * to Python: view_json answers None.
 */
#include "hd_hand.h"

/* The view's slots read here, in the order of holdem.views._VIEW_FIELDS. */
enum {
    V_SEAT, V_HOLE, V_CONFIG, V_PHASE, V_STREET, V_BOARD, V_STACKS, V_BETS, V_CONTRIB, V_CODES,
    V_CURRENT_BET, V_ACTOR, V_LEGAL, V_LOG, V_OUTCOME, NVIEW
};

/* bound by bind_json() */
static PyObject *view_type;
static PyObject *view_descr[NVIEW];
static descrgetfunc view_get[NVIEW];
static char card_text[52][3];
#define NSTATUS 5
static char status_text[NSTATUS][16];
static char kind_text[NKINDS][16];
static char phase_text[NPHASES][16];
static char street_text[NSTREETS][16];

/* ------------------------------------------------------------ the buffer */

typedef struct {
    char *data;
    size_t len, cap;
    char small[2048];
} buf_t;

static void buf_init(buf_t *b) {
    b->data = b->small;
    b->len = 0;
    b->cap = sizeof b->small;
}

static void buf_free(buf_t *b) {
    if (b->data != b->small) PyMem_Free(b->data);
}

/* Room for n more bytes, made (0, or -1 with MemoryError). */
static int buf_grow(buf_t *b, size_t n) {
    size_t cap = b->cap * 2;
    while (cap < b->len + n) cap *= 2;
    char *data = PyMem_Malloc(cap);
    if (!data) {
        PyErr_NoMemory();
        return -1;
    }
    memcpy(data, b->data, b->len);
    buf_free(b);
    b->data = data;
    b->cap = cap;
    return 0;
}

/* Room for n more bytes (0, or -1 with MemoryError). */
static inline int buf_room(buf_t *b, size_t n) {
    return b->len + n <= b->cap ? 0 : buf_grow(b, n);
}

static inline int put(buf_t *b, const char *text, size_t n) {
    if (buf_room(b, n) < 0) return -1;
    memcpy(b->data + b->len, text, n);
    b->len += n;
    return 0;
}

#define PUT(b, literal) put((b), (literal), sizeof(literal) - 1)

static inline int put_str(buf_t *b, const char *text) { return put(b, text, strlen(text)); }

static inline int put_i64(buf_t *b, long long v) {
    if (buf_room(b, 21) < 0) return -1;
    char *out = b->data + b->len;
    if (v >= 0 && v < 10) { /* (most of a view's numbers are small) */
        *out = (char)('0' + v);
        b->len += 1;
        return 0;
    }
    char digits[24];
    int n = 0;
    unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
    do {
        digits[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    size_t at = 0;
    if (v < 0) out[at++] = '-';
    while (n) out[at++] = digits[--n];
    b->len += at;
    return 0;
}

/* An int object's value (-1 with an error when it is not an int). */
static inline int read_int(PyObject *o, long long *v) {
    if (!PyLong_Check(o) || PyBool_Check(o)) {
        PyErr_Format(PyExc_TypeError, "hd_json: an int, not %R", o);
        return -1;
    }
    *v = PyLong_AsLongLong(o);
    return *v == -1 && PyErr_Occurred() ? -1 : 0;
}

static inline int put_int(buf_t *b, PyObject *o) {
    long long v;
    return read_int(o, &v) < 0 ? -1 : put_i64(b, v);
}

/* An int or null. */
static int put_opt(buf_t *b, PyObject *o) { return o == Py_None ? PUT(b, "null") : put_int(b, o); }

static int put_bool(buf_t *b, PyObject *o) {
    int truth = PyObject_IsTrue(o);
    if (truth < 0) return -1;
    return truth ? PUT(b, "true") : PUT(b, "false");
}

/* A tuple of ints as a JSON list. */
static int put_ints(buf_t *b, PyObject *t) {
    if (!PyTuple_Check(t)) {
        PyErr_SetString(PyExc_TypeError, "hd_json: a tuple of ints");
        return -1;
    }
    Py_ssize_t n = PyTuple_Size(t);
    if (PUT(b, "[") < 0) return -1;
    for (Py_ssize_t i = 0; i < n; i++) {
        if ((i && PUT(b, ",") < 0) || put_int(b, PyTuple_GetItem(t, i)) < 0) return -1;
    }
    return PUT(b, "]");
}

/* A tuple of cards as a JSON list of their names. */
static int put_cards(buf_t *b, PyObject *t) {
    if (!PyTuple_Check(t)) {
        PyErr_SetString(PyExc_TypeError, "hd_json: a tuple of cards");
        return -1;
    }
    Py_ssize_t n = PyTuple_Size(t);
    if (buf_room(b, 2 + 5 * (size_t)n) < 0) return -1;
    b->data[b->len++] = '[';
    for (Py_ssize_t i = 0; i < n; i++) {
        long long c;
        if (read_int(PyTuple_GetItem(t, i), &c) < 0) return -1;
        if (c < 0 || c > 51) {
            PyErr_Format(PyExc_ValueError, "hd_json: %lld is not a card", c);
            return -1;
        }
        if (i) b->data[b->len++] = ',';
        b->data[b->len++] = '"';
        b->data[b->len++] = card_text[c][0];
        b->data[b->len++] = card_text[c][1];
        b->data[b->len++] = '"';
    }
    b->data[b->len++] = ']';
    return 0;
}

/* The index of an enum member among the bound ones (-1 with an error). */
static int member_index(PyObject *o, PyObject **members, int n, const char *what) {
    for (int i = 0; i < n; i++)
        if (members[i] == o) return i;
    PyErr_Format(PyExc_TypeError, "hd_json: %R is not a %s", o, what);
    return -1;
}

static int put_quoted(buf_t *b, const char *text) {
    return PUT(b, "\"") < 0 || put_str(b, text) < 0 ? -1 : PUT(b, "\"");
}

/* ------------------------------------------------------------ records */

/* One record (an Action: kind, seat, amount, to, street, all_in, cards, pot,
 * run), as Action.to_dict() writes it: fields at their defaults left out. */
static int put_record(buf_t *b, PyObject *r) {
    if (!PyTuple_Check(r) || PyTuple_Size(r) != HD_ACTION_FIELDS) {
        PyErr_SetString(PyExc_TypeError, "hd_json: a record is an Action");
        return -1;
    }
    int kind = member_index(PyTuple_GetItem(r, 0), hd_kinds, NKINDS, "kind");
    int street = member_index(PyTuple_GetItem(r, 4), hd_streets, NSTREETS, "street");
    if (kind < 0 || street < 0) return -1;
    PyObject *seat = PyTuple_GetItem(r, 1), *cards = PyTuple_GetItem(r, 6);
    long long amount, to, pot, run;
    if (read_int(PyTuple_GetItem(r, 2), &amount) < 0 || read_int(PyTuple_GetItem(r, 3), &to) < 0 ||
        read_int(PyTuple_GetItem(r, 7), &pot) < 0 || read_int(PyTuple_GetItem(r, 8), &run) < 0)
        return -1;
    int all_in = PyObject_IsTrue(PyTuple_GetItem(r, 5));
    if (all_in < 0) return -1;
    if (PUT(b, "{\"kind\":") < 0 || put_quoted(b, kind_text[kind]) < 0 ||
        PUT(b, ",\"street\":") < 0 || put_quoted(b, street_text[street]) < 0)
        return -1;
    if (seat != Py_None && (PUT(b, ",\"seat\":") < 0 || put_int(b, seat) < 0)) return -1;
    if (amount && (PUT(b, ",\"amount\":") < 0 || put_i64(b, amount) < 0)) return -1;
    if (to && (PUT(b, ",\"to\":") < 0 || put_i64(b, to) < 0)) return -1;
    if (all_in && PUT(b, ",\"all_in\":true") < 0) return -1;
    if (!PyTuple_Check(cards)) {
        PyErr_SetString(PyExc_TypeError, "hd_json: a record's cards are a tuple");
        return -1;
    }
    if (PyTuple_Size(cards) && (PUT(b, ",\"cards\":") < 0 || put_cards(b, cards) < 0)) return -1;
    if (pot >= 0 && (PUT(b, ",\"pot\":") < 0 || put_i64(b, pot) < 0)) return -1;
    if (run && (PUT(b, ",\"run\":") < 0 || put_i64(b, run) < 0)) return -1;
    return PUT(b, "}");
}

/* ------------------------------------------------------------ a view */

/* The menu (a LegalActions: seat, fold, check, call, wager, min_to, max_to,
 * all_in, show, muck, bet), as LegalActions.to_dict() writes it. */
static int put_menu(buf_t *b, PyObject *m) {
    if (!PyTuple_Check(m) || PyTuple_Size(m) != 11) {
        PyErr_SetString(PyExc_TypeError, "hd_json: a menu is a LegalActions");
        return -1;
    }
    PyObject *wager = PyTuple_GetItem(m, 4);
    if (PUT(b, "{\"seat\":") < 0 || put_int(b, PyTuple_GetItem(m, 0)) < 0 ||
        PUT(b, ",\"fold\":") < 0 || put_bool(b, PyTuple_GetItem(m, 1)) < 0 ||
        PUT(b, ",\"check\":") < 0 || put_bool(b, PyTuple_GetItem(m, 2)) < 0 ||
        PUT(b, ",\"call\":") < 0 || put_opt(b, PyTuple_GetItem(m, 3)) < 0 ||
        PUT(b, ",\"wager\":") < 0)
        return -1;
    if (wager == Py_None) {
        if (PUT(b, "null") < 0) return -1;
    } else {
        int kind = member_index(wager, hd_kinds, NKINDS, "kind");
        if (kind < 0 || put_quoted(b, kind_text[kind]) < 0) return -1;
    }
    return PUT(b, ",\"min_to\":") < 0 || put_opt(b, PyTuple_GetItem(m, 5)) < 0 ||
                   PUT(b, ",\"max_to\":") < 0 || put_opt(b, PyTuple_GetItem(m, 6)) < 0 ||
                   PUT(b, ",\"all_in\":") < 0 || put_opt(b, PyTuple_GetItem(m, 7)) < 0 ||
                   PUT(b, ",\"show\":") < 0 || put_bool(b, PyTuple_GetItem(m, 8)) < 0 ||
                   PUT(b, ",\"muck\":") < 0 || put_bool(b, PyTuple_GetItem(m, 9)) < 0 ||
                   PUT(b, ",\"bet\":") < 0 || put_int(b, PyTuple_GetItem(m, 10)) < 0
               ? -1
               : PUT(b, "}");
}

/* The shown hands of a log (PlayerView.shown): after the river's betting,
 * each SHOW record with a seat, in order. */
static int put_shown(buf_t *b, PyObject *log, int street) {
    if (PUT(b, "[") < 0) return -1;
    if (street == S_RIVER) {
        int first = 1;
        Py_ssize_t n = PyTuple_Size(log);
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *r = PyTuple_GetItem(log, i);
            if (!PyTuple_Check(r) || PyTuple_Size(r) != HD_ACTION_FIELDS) {
                PyErr_SetString(PyExc_TypeError, "hd_json: a record is an Action");
                return -1;
            }
            if (PyTuple_GetItem(r, 0) != hd_kinds[K_SHOW] || PyTuple_GetItem(r, 1) == Py_None)
                continue;
            if ((!first && PUT(b, ",") < 0) || PUT(b, "{\"seat\":") < 0 ||
                put_int(b, PyTuple_GetItem(r, 1)) < 0 || PUT(b, ",\"cards\":") < 0 ||
                put_cards(b, PyTuple_GetItem(r, 6)) < 0 || PUT(b, "}") < 0)
                return -1;
            first = 0;
        }
    }
    return PUT(b, "]");
}

static int put_view(buf_t *b, PyObject **v, Py_ssize_t since, PyObject *config) {
    PyObject *log = v[V_LOG], *codes = v[V_CODES], *contrib = v[V_CONTRIB];
    if (!PyTuple_Check(log) || !PyTuple_Check(codes) || !PyTuple_Check(contrib)) {
        PyErr_SetString(PyExc_TypeError, "hd_json: not a view of the engine");
        return -1;
    }
    Py_ssize_t n_log = PyTuple_Size(log);
    if (since < 0 || since > n_log) {
        PyErr_Format(PyExc_ValueError, "log index %zd is outside 0..%zd (the log's length)", since,
                     n_log);
        return -1;
    }
    int phase = member_index(v[V_PHASE], hd_phases, NPHASES, "phase");
    int street = member_index(v[V_STREET], hd_streets, NSTREETS, "street");
    if (phase < 0 || street < 0) return -1;
    if (PUT(b, "{\"seat\":") < 0 || put_opt(b, v[V_SEAT]) < 0 || PUT(b, ",\"hole_cards\":") < 0)
        return -1;
    int hole = v[V_HOLE] != Py_None && PyObject_IsTrue(v[V_HOLE]);
    if ((hole ? put_cards(b, v[V_HOLE]) : PUT(b, "null")) < 0) return -1;
    if (PUT(b, ",\"phase\":") < 0 || put_quoted(b, phase_text[phase]) < 0 ||
        PUT(b, ",\"street\":") < 0 || put_quoted(b, street_text[street]) < 0 ||
        PUT(b, ",\"board\":") < 0 || put_cards(b, v[V_BOARD]) < 0 || PUT(b, ",\"stacks\":") < 0 ||
        put_ints(b, v[V_STACKS]) < 0 || PUT(b, ",\"bets\":") < 0 || put_ints(b, v[V_BETS]) < 0 ||
        PUT(b, ",\"contributions\":") < 0 || put_ints(b, contrib) < 0 ||
        PUT(b, ",\"statuses\":[") < 0)
        return -1;
    Py_ssize_t n = PyTuple_Size(codes);
    for (Py_ssize_t i = 0; i < n; i++) {
        long long code;
        if (read_int(PyTuple_GetItem(codes, i), &code) < 0) return -1;
        if (code < 0 || code >= NSTATUS) {
            PyErr_Format(PyExc_ValueError, "hd_json: %lld is not a status", code);
            return -1;
        }
        if ((i && PUT(b, ",") < 0) || put_quoted(b, status_text[code]) < 0) return -1;
    }
    long long pot = 0;
    n = PyTuple_Size(contrib);
    for (Py_ssize_t i = 0; i < n; i++) {
        long long c;
        if (read_int(PyTuple_GetItem(contrib, i), &c) < 0) return -1;
        pot += c;
    }
    if (PUT(b, "],\"pot\":") < 0 || put_i64(b, pot) < 0 || PUT(b, ",\"current_bet\":") < 0 ||
        put_int(b, v[V_CURRENT_BET]) < 0 || PUT(b, ",\"actor\":") < 0 ||
        put_opt(b, v[V_ACTOR]) < 0 || PUT(b, ",\"legal\":") < 0)
        return -1;
    if ((v[V_LEGAL] == Py_None ? PUT(b, "null") : put_menu(b, v[V_LEGAL])) < 0) return -1;
    if (PUT(b, ",\"shown\":") < 0 || put_shown(b, log, street) < 0 ||
        PUT(b, ",\"outcome\":null") < 0)
        return -1;
    if (!since) {
        Py_ssize_t size;
        const char *text = PyUnicode_AsUTF8AndSize(config, &size);
        if (!text || PUT(b, ",\"config\":") < 0 || put(b, text, (size_t)size) < 0) return -1;
    }
    if (PUT(b, ",\"log_start\":") < 0 || put_i64(b, since) < 0 || PUT(b, ",\"log\":[") < 0)
        return -1;
    for (Py_ssize_t i = since; i < n_log; i++) {
        if ((i > since && PUT(b, ",") < 0) || put_record(b, PyTuple_GetItem(log, i)) < 0) return -1;
    }
    return PUT(b, "]}");
}

static PyObject *text_of(buf_t *b) {
    PyObject *out = PyUnicode_FromStringAndSize(b->data, (Py_ssize_t)b->len);
    buf_free(b);
    return out;
}

PyObject *hd_view_json(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "view_json(view, since, config_text)");
        return NULL;
    }
    if (!view_type) {
        PyErr_SetString(PyExc_RuntimeError, "holdem._engine: bind_json() was not called");
        return NULL;
    }
    PyObject *view = args[0], *config = args[2];
    if (!PyObject_TypeCheck(view, (PyTypeObject *)view_type) || !PyUnicode_Check(config)) {
        PyErr_SetString(PyExc_TypeError, "view_json: a PlayerView, an int and a str");
        return NULL;
    }
    Py_ssize_t since = PyLong_AsSsize_t(args[1]);
    if (since == -1 && PyErr_Occurred()) return NULL;
    PyObject *v[NVIEW] = {NULL};
    PyObject *out = NULL;
    for (int i = 0; i < NVIEW; i++) {
        v[i] = view_get[i](view_descr[i], view, view_type);
        if (!v[i]) goto done;
    }
    if (v[V_OUTCOME] != Py_None) { /* the hand is over: Python writes its outcome */
        out = Py_NewRef(Py_None);
        goto done;
    }
    buf_t b;
    buf_init(&b);
    if (put_view(&b, v, since, config) < 0) {
        buf_free(&b);
        goto done;
    }
    out = text_of(&b);
done:
    for (int i = 0; i < NVIEW; i++) Py_XDECREF(v[i]);
    return out;
}

PyObject *hd_record_json(PyObject *self, PyObject *record) {
    (void)self;
    if (!view_type) {
        PyErr_SetString(PyExc_RuntimeError, "holdem._engine: bind_json() was not called");
        return NULL;
    }
    buf_t b;
    buf_init(&b);
    if (put_record(&b, record) < 0) {
        buf_free(&b);
        return NULL;
    }
    return text_of(&b);
}

/* ------------------------------------------------------------ binding */

/* Copies the strings of a tuple of n str into table (each shorter than width). */
static int bind_texts(PyObject *t, int n, char *table, size_t width, const char *what) {
    if (!PyTuple_Check(t) || PyTuple_Size(t) != n) {
        PyErr_Format(PyExc_ValueError, "bind_json: %s must be a tuple of %d strings", what, n);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        Py_ssize_t size;
        const char *text = PyUnicode_AsUTF8AndSize(PyTuple_GetItem(t, i), &size);
        if (!text) return -1;
        if ((size_t)size >= width) {
            PyErr_Format(PyExc_ValueError, "bind_json: %s: %s is too long", what, text);
            return -1;
        }
        memcpy(table + (size_t)i * width, text, (size_t)size + 1);
    }
    return 0;
}

PyObject *hd_bind_json(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 7) {
        PyErr_SetString(PyExc_TypeError,
                        "bind_json(view, slots, cards, statuses, kinds, phases, streets)");
        return NULL;
    }
    PyObject *type = args[0], *names = args[1];
    if (!PyType_Check(type) || !PyTuple_Check(names) || PyTuple_Size(names) < NVIEW) {
        PyErr_SetString(PyExc_TypeError, "bind_json: a view type and the names of its slots");
        return NULL;
    }
    if (!hd_kinds[0] || !hd_phases[0] || !hd_streets[0]) {
        PyErr_SetString(PyExc_RuntimeError, "bind_json: bind() first");
        return NULL;
    }
    for (int i = 0; i < NVIEW; i++) {
        PyObject *descr = PyObject_GetAttr(type, PyTuple_GetItem(names, i));
        if (!descr) return NULL;
        descrgetfunc get = (descrgetfunc)PyType_GetSlot(Py_TYPE(descr), Py_tp_descr_get);
        if (!get) {
            Py_DECREF(descr);
            PyErr_Format(PyExc_TypeError, "bind_json: %R is not a slot", PyTuple_GetItem(names, i));
            return NULL;
        }
        SET_REF(view_descr[i], descr);
        view_get[i] = get;
    }
    if (bind_texts(args[2], 52, &card_text[0][0], sizeof card_text[0], "cards") < 0 ||
        bind_texts(args[3], NSTATUS, &status_text[0][0], sizeof status_text[0], "statuses") < 0 ||
        bind_texts(args[4], NKINDS, &kind_text[0][0], sizeof kind_text[0], "kinds") < 0 ||
        bind_texts(args[5], NPHASES, &phase_text[0][0], sizeof phase_text[0], "phases") < 0 ||
        bind_texts(args[6], NSTREETS, &street_text[0][0], sizeof street_text[0], "streets") < 0)
        return NULL;
    Py_INCREF(type);
    SET_REF(view_type, type);
    Py_RETURN_NONE;
}
