/* hd_engine.c - holdem._engine: the Python type HandCore, on the rules of
 * hd_hand.c.
 *
 * holdem.hand.Hand is a Python subclass of HandCore.  HandCore holds a
 * hand's state in one C struct (per-player arrays and a few numbers: a
 * snapshot is one copy of it) and does everything that changes it, through
 * the rules in hd_hand.c: posting, dealing, the betting actions and the turn
 * order (RULES.md R3-R7), the showdown defaults (R10) and the pots (R9).
 * It appends the log's records (holdem.actions.Action named tuples) to a
 * Python list and builds holdem.actions.LegalActions and views.  Python
 * keeps everything that is not hot: checking the configuration, parsing
 * cards, the outcome, and every error message: when a fast check here
 * fails, the Python method that explains it (verify_check, _verify_wager,
 * ...) is called and raises.
 *
 * The limited API (abi3), like holdem._fastcall; METH_FASTCALL calls and no
 * GIL release: a step costs tens of nanoseconds.
 */
#include "hd_hand.h"

/* bound by bind() */
static PyObject *legal_type;
static allocfunc legal_alloc;
static PyObject *s_verify_check, *s_verify_call, *s_verify_fold, *s_verify_wager,
    *s_all_in_kind, *s_turn_timeout, *s_seat_kw, *s_to_kw, *s_seat_of, *s_outcome, *s_outcome_cache,
    *s_cfg;

/* A Python class with __slots__ whose instances the engine makes (PlayerView,
 * and the frozen dataclasses of an outcome): its slots' descriptors, set one
 * by one as the dataclass's own __init__ sets them (object.__setattr__). */
#define MAX_SLOTS 17
typedef struct {
    PyObject *type;
    allocfunc alloc;
    int n;
    PyObject *slot[MAX_SLOTS];
    descrsetfunc set[MAX_SLOTS];
} slotted_t;

static slotted_t view_rec, pot_rec, shown_rec, outcome_rec;

/* Binds rec to type and the names of its slots, in the order new_slotted
 * takes their values (n of them). */
static int bind_slotted(slotted_t *rec, PyObject *type, PyObject *names, int n, const char *what) {
    if (!PyType_Check(type) || !PyTuple_Check(names) || PyTuple_Size(names) != n) {
        PyErr_Format(PyExc_TypeError, "bind: %s must be a type and the names of its %d slots",
                     what, n);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        PyObject *descr = PyObject_GetAttr(type, PyTuple_GetItem(names, i));
        if (!descr) return -1;
        descrsetfunc set = (descrsetfunc)PyType_GetSlot(Py_TYPE(descr), Py_tp_descr_set);
        if (!set) {
            Py_DECREF(descr);
            PyErr_Format(PyExc_TypeError, "bind: %R of %s is not a slot",
                         PyTuple_GetItem(names, i), what);
            return -1;
        }
        SET_REF(rec->slot[i], descr);
        rec->set[i] = set;
    }
    rec->alloc = (allocfunc)PyType_GetSlot((PyTypeObject *)type, Py_tp_alloc);
    rec->n = n;
    Py_INCREF(type);
    SET_REF(rec->type, type);
    return 0;
}

/* A new instance of rec's class with its slots' values (references stolen;
 * NULL among them: an error is set, everything is released). */
static PyObject *new_slotted(const slotted_t *rec, PyObject **items) {
    PyObject *obj = rec->type ? rec->alloc((PyTypeObject *)rec->type, 0) : NULL;
    int bad = !obj;
    if (!rec->type) PyErr_SetString(PyExc_RuntimeError, "holdem engine: a record type is not bound");
    for (int i = 0; i < rec->n; i++) {
        if (!items[i] || (!bad && rec->set[i](rec->slot[i], obj, items[i]) < 0)) bad = 1;
        Py_XDECREF(items[i]);
    }
    if (bad) {
        Py_XDECREF(obj);
        return NULL;
    }
    return obj;
}

static int check_ready(HandCore *h) {
    if (h->ready) return 1;
    PyErr_SetString(PyExc_RuntimeError, "the hand is not set up (HandCore._setup not called)");
    return 0;
}

/* Reads the arguments of an action: `to` first when the action has one
 * (want_to), then the optional `seat`, positional or by keyword.  *to and
 * *seat are borrowed; *seat is NULL when absent or None. */
static int read_args(const char *name, PyObject *const *args, Py_ssize_t nargs,
                     PyObject *kwnames, int want_to, PyObject **to, PyObject **seat) {
    PyObject *slots[2] = {NULL, NULL}; /* to, seat */
    PyObject *names[2] = {s_to_kw, s_seat_kw};
    int first = want_to ? 0 : 1;
    Py_ssize_t nkw = kwnames ? PyTuple_Size(kwnames) : 0;
    if (nargs > 2 - first) {
        PyErr_Format(PyExc_TypeError, "%s() takes at most %d arguments (%zd given)", name,
                     2 - first, nargs);
        return -1;
    }
    for (Py_ssize_t i = 0; i < nargs; i++) slots[first + i] = args[i];
    for (Py_ssize_t i = 0; i < nkw; i++) {
        PyObject *key = PyTuple_GetItem(kwnames, i);
        int k = first, same = 0;
        for (; k < 2 && !same; k++) {
            same = PyObject_RichCompareBool(key, names[k], Py_EQ);
            if (same < 0) return -1;
        }
        if (!same || slots[k - 1]) {
            PyErr_Format(PyExc_TypeError, "%s() got an unexpected or repeated keyword argument %R",
                         name, key);
            return -1;
        }
        slots[k - 1] = args[nargs + i];
    }
    if (want_to && !slots[0]) {
        PyErr_Format(PyExc_TypeError, "%s() missing its argument 'to'", name);
        return -1;
    }
    if (to) *to = slots[0];
    *seat = slots[1] == Py_None ? NULL : slots[1];
    return 0;
}

static int read_seat(const char *name, PyObject *const *args, Py_ssize_t nargs,
                     PyObject *kwnames, PyObject **seat) {
    return read_args(name, args, nargs, kwnames, 0, NULL, seat);
}

/* Whether seat (NULL: anyone) is position p's table seat: -1 on error.  A
 * seat that is not an exact int is compared in Python: that may run code. */
static int is_seat(HandCore *h, PyObject *seat, int p) {
    if (!seat) return 1;
    PyObject *no = PyTuple_GetItem(h->nos, p);
    if (PyLong_CheckExact(seat)) {
        int overflow = 0;
        long long v = PyLong_AsLongLongAndOverflow(seat, &overflow);
        if (v == -1 && PyErr_Occurred()) return -1;
        return !overflow && v == PyLong_AsLongLong(no);
    }
    return PyObject_RichCompareBool(seat, no, Py_EQ);
}

/* Whether a betting decision by seat is pending: 1 yes, 0 no, -1 error. */
static int my_turn(HandCore *h, PyObject *seat) {
    if (h->st.phase != PH_BETTING) return 0;
    int p = h->st.actor;
    int same = is_seat(h, seat, p);
    if (same <= 0) return same;
    /* the comparison may have run Python code that acted on this very hand */
    return h->st.phase == PH_BETTING && h->st.actor == p;
}

/* Calls the Python method that explains a refusal; it raises.  If it does
 * not (the two disagree), that is a bug: say so. */
static PyObject *refuse(HandCore *h, PyObject *method, PyObject *const *args, size_t nargs) {
    PyObject *full[4];
    full[0] = (PyObject *)h;
    for (size_t i = 0; i < nargs; i++) full[i + 1] = args[i] ? args[i] : Py_None;
    PyObject *name = method;
    PyObject *callable = PyObject_GetAttr((PyObject *)h, name);
    if (!callable) return NULL;
    PyObject *tuple = PyTuple_New((Py_ssize_t)nargs);
    if (!tuple) {
        Py_DECREF(callable);
        return NULL;
    }
    for (size_t i = 0; i < nargs; i++) {
        Py_INCREF(full[i + 1]);
        PyTuple_SetItem(tuple, (Py_ssize_t)i, full[i + 1]);
    }
    PyObject *result = PyObject_Call(callable, tuple, NULL);
    Py_DECREF(tuple);
    Py_DECREF(callable);
    if (!result) return NULL;
    Py_DECREF(result);
    PyErr_Format(PyExc_SystemError, "holdem engine: %U allowed what the C core refused", name);
    return NULL;
}

static PyObject *Core_fold(HandCore *h, PyObject *const *args, Py_ssize_t nargs,
                           PyObject *kwnames) {
    PyObject *seat;
    if (!check_ready(h) || read_seat("fold", args, nargs, kwnames, &seat) < 0) return NULL;
    int ok = my_turn(h, seat);
    if (ok < 0) return NULL;
    if (!ok) return refuse(h, s_verify_fold, &seat, 1);
    return hd_do_fold(h, h->st.actor);
}

static PyObject *check_(HandCore *h, PyObject *seat) {
    state_t *st = &h->st;
    int ok = my_turn(h, seat);
    if (ok < 0) return NULL;
    int p = st->actor;
    if (!ok || st->bets[p] < st->bet) return refuse(h, s_verify_check, &seat, 1);
    return hd_do_check(h, p);
}

static PyObject *Core_check(HandCore *h, PyObject *const *args, Py_ssize_t nargs,
                            PyObject *kwnames) {
    PyObject *seat;
    if (!check_ready(h) || read_seat("check", args, nargs, kwnames, &seat) < 0) return NULL;
    return check_(h, seat);
}

static PyObject *Core_call(HandCore *h, PyObject *const *args, Py_ssize_t nargs,
                           PyObject *kwnames) {
    PyObject *seat;
    if (!check_ready(h) || read_seat("call", args, nargs, kwnames, &seat) < 0) return NULL;
    int ok = my_turn(h, seat);
    if (ok < 0) return NULL;
    if (!ok || h->st.bets[h->st.actor] >= h->st.bet) return refuse(h, s_verify_call, &seat, 1);
    return hd_do_call(h, h->st.actor);
}

static PyObject *Core_check_or_call(HandCore *h, PyObject *const *args, Py_ssize_t nargs,
                                    PyObject *kwnames) {
    PyObject *seat;
    if (!check_ready(h) || read_seat("check_or_call", args, nargs, kwnames, &seat) < 0)
        return NULL;
    int ok = my_turn(h, seat);
    if (ok < 0) return NULL;
    if (ok && h->st.bets[h->st.actor] < h->st.bet) return hd_do_call(h, h->st.actor);
    return check_(h, seat); /* checks, or raises saying why not */
}

/* bet(to, seat=None) and raise_to(to, seat=None) */
static PyObject *wager_(HandCore *h, int kind, const char *name, PyObject *const *args,
                        Py_ssize_t nargs, PyObject *kwnames) {
    PyObject *seat, *to_obj;
    if (!check_ready(h) || read_args(name, args, nargs, kwnames, 1, &to_obj, &seat) < 0)
        return NULL;
    int ok = my_turn(h, seat);
    if (ok < 0) return NULL;
    int64_t to = 0;
    if (ok && PyLong_Check(to_obj) && !PyBool_Check(to_obj)) { /* an int, as Python checks */
        int overflow = 0;
        to = PyLong_AsLongLongAndOverflow(to_obj, &overflow);
        if (to == -1 && PyErr_Occurred()) return NULL;
        ok = !overflow && hd_wager_ok(h, kind, to, h->st.actor);
    } else {
        ok = 0;
    }
    if (!ok) {
        PyObject *refusal[3] = {hd_kinds[kind], to_obj, seat};
        return refuse(h, s_verify_wager, refusal, 3);
    }
    return hd_do_wager(h, kind, h->st.actor, to);
}

static PyObject *Core_bet(HandCore *h, PyObject *const *args, Py_ssize_t nargs,
                          PyObject *kwnames) {
    return wager_(h, K_BET, "bet", args, nargs, kwnames);
}

static PyObject *Core_raise_to(HandCore *h, PyObject *const *args, Py_ssize_t nargs,
                               PyObject *kwnames) {
    return wager_(h, K_RAISE, "raise_to", args, nargs, kwnames);
}

static PyObject *Core_all_in(HandCore *h, PyObject *const *args, Py_ssize_t nargs,
                             PyObject *kwnames) {
    PyObject *seat;
    if (!check_ready(h) || read_seat("all_in", args, nargs, kwnames, &seat) < 0) return NULL;
    int ok = my_turn(h, seat);
    if (ok < 0) return NULL;
    if (ok) {
        state_t *st = &h->st;
        int p = st->actor;
        int64_t everything = st->bets[p] + st->stacks[p];
        if (everything <= st->bet) return hd_do_call(h, p);
        int kind = st->bet ? K_RAISE : K_BET;
        if (hd_wager_ok(h, kind, everything, p)) return hd_do_wager(h, kind, p, everything);
    }
    return refuse(h, s_all_in_kind, &seat, 1);
}

static PyObject *Core_timeout(HandCore *h, PyObject *const *args, Py_ssize_t nargs,
                              PyObject *kwnames) {
    PyObject *seat;
    if (!check_ready(h) || read_seat("timeout", args, nargs, kwnames, &seat) < 0) return NULL;
    int ok = my_turn(h, seat);
    if (ok < 0) return NULL;
    if (!ok) return refuse(h, s_turn_timeout, &seat, 1);
    state_t *st = &h->st;
    int p = st->actor;
    st->status[p] = PROTECTED;
    st->n_active--;
    PyObject *record = hd_log_record(h, K_TIMEOUT, p, st->street, 0, st->bets[p], 0, NULL, -1);
    if (record && hd_advance(h, p) < 0) Py_CLEAR(record);
    return record;
}

static PyObject *opt_int(int present, int64_t value) {
    if (present) return PyLong_FromLongLong(value);
    return hd_new_ref(Py_None);
}

static PyObject *bool_obj(int value) { return hd_new_ref(value ? Py_True : Py_False); }

/* LegalActions(seat, fold, check, call, wager, min_to, max_to, all_in, show, muck, bet) */
static PyObject *new_legal(HandCore *h, int p, int fold, int check, PyObject *call,
                           PyObject *wager, PyObject *min_to, PyObject *max_to,
                           PyObject *all_in, int show, int muck, int64_t bet) {
    PyObject *items[11] = {hd_seat_obj(h, p), bool_obj(fold), bool_obj(check), call, wager,
                           min_to, max_to, all_in, bool_obj(show), bool_obj(muck),
                           PyLong_FromLongLong(bet)};
    return hd_fill(hd_new_named(legal_type, legal_alloc, 11), items, 11);
}

static PyObject *Core_legal_actions(HandCore *h, PyObject *unused) {
    (void)unused;
    if (!check_ready(h)) return NULL;
    state_t *st = &h->st;
    if (st->phase == PH_SHOWDOWN) {
        int p = st->sd_order[st->sd_i];
        return new_legal(h, p, 0, 0, hd_new_ref(Py_None), hd_new_ref(Py_None), hd_new_ref(Py_None),
                         hd_new_ref(Py_None), hd_new_ref(Py_None), 1, hd_may_muck(h, p), 0);
    }
    if (st->phase != PH_BETTING) Py_RETURN_NONE;
    int p = st->actor;
    int64_t bet = st->bet, mine = st->bets[p];
    int64_t everything = mine + st->stacks[p];
    int facing = mine < bet;
    int64_t lo = 0, hi = 0;
    int wager = -1, has_range = 0, has_all_in = 0;
    if (hd_wager_range(h, p, &lo, &hi) == WR_OK) {
        has_range = 1;
        wager = bet ? K_RAISE : K_BET;
        if (everything <= hi) has_all_in = 1;
        if (lo > everything) { /* only an all-in for less is left (R5) */
            has_range = 0;
            wager = -1;
        }
    } else if (everything <= bet) {
        has_all_in = 1;
    }
    return new_legal(h, p, 1, !facing, opt_int(facing, bet < everything ? bet : everything),
                     hd_new_ref(wager < 0 ? Py_None : hd_kinds[wager]), opt_int(has_range, lo),
                     opt_int(has_range, hi), opt_int(has_all_in, everything), 0, 0, bet);
}

/* ------------------------------------------- set-up, state, snapshots */

static int read_i64(PyObject *obj, int64_t *out) {
    long long v = PyLong_AsLongLong(obj);
    if (v == -1 && PyErr_Occurred()) return -1;
    *out = v;
    return 0;
}

static int kind_code(PyObject *kind) {
    for (int k = 0; k < NKINDS; k++)
        if (hd_kinds[k] == kind) return k;
    PyErr_SetString(PyExc_ValueError, "not an ActionKind");
    return -1;
}

/* -1 for None, else the card int */
static int read_card(PyObject *obj, int8_t *out) {
    if (obj == Py_None) {
        *out = -1;
        return 0;
    }
    long v = PyLong_AsLong(obj);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (v < 0 || v > 51) {
        PyErr_SetString(PyExc_ValueError, "a card is 0..51");
        return -1;
    }
    *out = (int8_t)v;
    return 0;
}

static int read_hole(PyObject *item, int8_t *pair) {
    if (item == Py_None) {
        pair[0] = pair[1] = -1;
        return 0;
    }
    PyObject *a = PySequence_GetItem(item, 0), *b = a ? PySequence_GetItem(item, 1) : NULL;
    int bad = !b || read_card(a, &pair[0]) < 0 || read_card(b, &pair[1]) < 0;
    Py_XDECREF(a);
    Py_XDECREF(b);
    return bad ? -1 : 0;
}

PyDoc_STRVAR(setup_doc,
"_setup(nos, stacks, auto, structure, button, first, bb_seat, straddle_seat, big_blind,\n"
"       straddle, small_bet, big_bet, raise_cap, cap_policy, forced, hole, stub, rules,\n"
"       aggressor_mucks, /)\n--\n\n"
"Sets up a new hand: holdem.hand.Hand.__init__ calls it with what it has checked.\n"
"hole: the hole cards by position (None where unknown), and stub the 8 cards\n"
"after them (burns and board); or hole None and stub the 2n + 8 cards of the deal.\n"
"rules: the bits of the configuration's rule variants (0: RULES.md as it is);\n"
"aggressor_mucks: the river's last aggressor, called, may muck (R10: 0).");

static PyObject *Core_setup(HandCore *h, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 19) {
        PyErr_SetString(PyExc_TypeError, "_setup() takes 19 arguments");
        return NULL;
    }
    fixed_t *fx = &h->fx;
    state_t *st = &h->st;
    memset(fx, 0, sizeof *fx);
    memset(st, 0, sizeof *st);
    PyObject *nos = args[0], *stacks = args[1];
    args++; /* the rest as numbered in the signature, from auto on */
    if (!PyTuple_Check(nos) || !PyTuple_Check(stacks) || PyTuple_Size(stacks) != PyTuple_Size(nos)) {
        PyErr_SetString(PyExc_TypeError, "_setup: nos and stacks must be tuples of one size");
        return NULL;
    }
    Py_ssize_t n = PyTuple_Size(nos);
    if (n < 2 || n > MAXP) {
        PyErr_SetString(PyExc_ValueError, "_setup: 2 to 10 players");
        return NULL;
    }
    fx->n = (int)n;
    int64_t v[11];
    for (int i = 0; i < 11; i++)
        if (read_i64(args[1 + i], &v[i]) < 0) return NULL;
    fx->auto_ = v[0] != 0;
    fx->fixed = v[1] == FIXED_LIMIT;
    fx->pot_limit = v[1] == POT_LIMIT;
    fx->button = (int)v[2];
    fx->first = (int)v[3];
    fx->bb_seat = (int)v[4];
    fx->straddle_seat = (int)v[5];
    fx->big_blind = v[6];
    fx->straddle = v[7];
    fx->small_bet = v[8];
    fx->big_bet = v[9];
    fx->raise_cap = v[10];
    int64_t policy;
    if (read_i64(args[12], &policy) < 0) return NULL;
    fx->cap_policy = (int)policy;
    int64_t rules;
    if (read_i64(args[16], &rules) < 0) return NULL;
    fx->rules = (int)rules;
    int64_t mucks;
    if (read_i64(args[17], &mucks) < 0) return NULL;
    fx->aggressor_mucks = mucks != 0;
    PyObject *forced = args[13], *hole = args[14], *stub = args[15];
    /* hole None: stub holds the 2n + 8 cards dealt, in the order of the deal */
    Py_ssize_t dealt = hole == Py_None ? 2 * n : 0;
    if (!PyTuple_Check(forced) || PyTuple_Size(forced) > MAXF ||
        (hole != Py_None && (!PyList_Check(hole) || PyList_Size(hole) != n)) ||
        !PyList_Check(stub) || PyList_Size(stub) != dealt + STUB) {
        PyErr_SetString(PyExc_ValueError, "_setup: bad forced bets, hole cards or stub");
        return NULL;
    }
    fx->nforced = (int)PyTuple_Size(forced);
    for (int i = 0; i < fx->nforced; i++) {
        PyObject *f = PyTuple_GetItem(forced, i);
        int64_t pos, amount;
        int kind;
        if (!PyTuple_Check(f) || PyTuple_Size(f) != 3) {
            PyErr_SetString(PyExc_ValueError, "_setup: a forced bet is (kind, seat, amount)");
            return NULL;
        }
        if ((kind = kind_code(PyTuple_GetItem(f, 0))) < 0 ||
            read_i64(PyTuple_GetItem(f, 1), &pos) < 0 ||
            read_i64(PyTuple_GetItem(f, 2), &amount) < 0)
            return NULL;
        fx->f_kind[i] = (int8_t)kind;
        fx->f_pos[i] = (int8_t)pos;
        fx->f_amount[i] = amount;
    }
    for (int i = 0; i < STUB; i++)
        if (read_card(PyList_GetItem(stub, dealt + i), &fx->stub[i]) < 0) return NULL;
    for (int p = 0; p < n; p++) {
        if (read_i64(PyTuple_GetItem(stacks, p), &st->stacks[p]) < 0) return NULL;
        fx->start[p] = st->stacks[p];
        st->faced[p] = -1;
        if (dealt) { /* one card at a time round the table, from the first left of the button */
            int q = (fx->first + p) % (int)n;
            if (read_card(PyList_GetItem(stub, p), &st->hole[q][0]) < 0 ||
                read_card(PyList_GetItem(stub, n + p), &st->hole[q][1]) < 0)
                return NULL;
        } else if (read_hole(PyList_GetItem(hole, p), st->hole[p]) < 0) {
            return NULL;
        }
    }
    st->n_active = st->n_in = (int8_t)n;
    st->phase = PH_POSTING;
    st->street = S_PREFLOP;
    st->actor = -1;
    st->aggressor = -1;
    fx->plain_seats = 1;
    for (int p = 0; p < n; p++) {
        long no = PyLong_AsLong(PyTuple_GetItem(nos, p));
        if (no == -1 && PyErr_Occurred()) return NULL;
        if (no != p) fx->plain_seats = 0;
    }
    Py_INCREF(nos);
    SET_REF(h->nos, nos);
    PyObject *log = PyList_New(0);
    if (!log) return NULL;
    SET_REF(h->log, log);
    Py_CLEAR(h->log_tuple);
    h->ready = 1;
    Py_RETURN_NONE;
}

static int read_pos(HandCore *h, PyObject *obj, int *p) {
    long v = PyLong_AsLong(obj);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (v < 0 || v >= h->fx.n) {
        PyErr_SetString(PyExc_IndexError, "position out of range");
        return -1;
    }
    *p = (int)v;
    return 0;
}

static PyObject *Core_run(HandCore *h, PyObject *unused) {
    (void)unused;
    if (!check_ready(h) || hd_run(h) < 0) return NULL;
    Py_RETURN_NONE;
}

PyDoc_STRVAR(step_doc, "_step($self, /)\n--\n\n"
"The next dealer step (posting, dealing, a street, awarding): its last record or None.");

static PyObject *Core_step(HandCore *h, PyObject *unused) {
    (void)unused;
    if (!check_ready(h)) return NULL;
    return hd_dealer_step(h);
}

static PyObject *Core_show(HandCore *h, PyObject *arg) {
    int p;
    if (!check_ready(h) || read_pos(h, arg, &p) < 0) return NULL;
    if (h->st.phase != PH_SHOWDOWN || h->st.hole[p][0] < 0 || h->st.board_n != 5) {
        PyErr_SetString(PyExc_RuntimeError, "_show: no showdown or unknown cards");
        return NULL;
    }
    return hd_do_show(h, p);
}

static PyObject *Core_muck(HandCore *h, PyObject *arg) {
    int p;
    if (!check_ready(h) || read_pos(h, arg, &p) < 0) return NULL;
    if (h->st.phase != PH_SHOWDOWN) {
        PyErr_SetString(PyExc_RuntimeError, "_muck: no showdown");
        return NULL;
    }
    return hd_do_muck(h, p);
}

PyDoc_STRVAR(set_second_run_doc, "_set_second_run($self, twice, stub, /)\n--\n\n"
"Run it twice (R10): twice, the bit mask of the positions that agree; stub, the\n"
"8 cards of the second run (burns and board as _setup's stub; None: unknown),\n"
"of which the streets after the board's run-out begins are dealt.");

static PyObject *Core_set_second_run(HandCore *h, PyObject *const *args, Py_ssize_t nargs) {
    int64_t twice;
    if (nargs != 2 || !PyList_Check(args[1]) || PyList_Size(args[1]) != STUB) {
        PyErr_SetString(PyExc_TypeError, "_set_second_run(twice, stub of 8 cards)");
        return NULL;
    }
    if (!check_ready(h) || read_i64(args[0], &twice) < 0) return NULL;
    for (int i = 0; i < STUB; i++)
        if (read_card(PyList_GetItem(args[1], i), &h->fx.stub2[i]) < 0) return NULL;
    h->fx.twice = (uint16_t)twice;
    Py_RETURN_NONE;
}

PyDoc_STRVAR(forfeit_doc, "_forfeit($self, position, /)\n--\n\n"
"An all-in player gives up the pots, their chips left in them (a replay by the\n"
"convention pokerstars-sitting-out-fold): a fold record; a lone player left wins.");

static PyObject *Core_forfeit(HandCore *h, PyObject *arg) {
    int p;
    if (!check_ready(h) || read_pos(h, arg, &p) < 0) return NULL;
    int phase = h->st.phase;
    if (h->st.status[p] != ALL_IN || (phase != PH_BETTING && phase != PH_BOARD)) {
        PyErr_SetString(PyExc_RuntimeError, "_forfeit: not an all-in player in the betting");
        return NULL;
    }
    return hd_do_forfeit(h, p);
}

static PyObject *Core_set_hole(HandCore *h, PyObject *const *args, Py_ssize_t nargs) {
    int p;
    int8_t a, b;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "_set_hole(position, card, card)");
        return NULL;
    }
    if (!check_ready(h) || read_pos(h, args[0], &p) < 0 || read_card(args[1], &a) < 0 ||
        read_card(args[2], &b) < 0)
        return NULL;
    if (a < 0 || b < 0) {
        PyErr_SetString(PyExc_ValueError, "_set_hole: two known cards");
        return NULL;
    }
    h->st.hole[p][0] = a;
    h->st.hole[p][1] = b;
    h->st.vals[p] = 0;
    Py_RETURN_NONE;
}

static PyObject *Core_default_showdown(HandCore *h, PyObject *arg) {
    int p;
    if (!check_ready(h) || read_pos(h, arg, &p) < 0) return NULL;
    int decision = hd_default_showdown(h, p);
    if (decision < 0) Py_RETURN_NONE;
    Py_INCREF(hd_kinds[decision]);
    return hd_kinds[decision];
}

PyDoc_STRVAR(range_doc, "_range($self, p, /)\n--\n\n"
"(0, lo, hi): the to-amounts of a bet or raise by position p; or (code, 0, 0),\n"
"why there is none (1: a call takes every chip, 2: nobody could call a raise,\n"
"3: fixed-limit, not reopened, 4: capped, 5: not reopened).");

static PyObject *Core_range(HandCore *h, PyObject *arg) {
    int p;
    int64_t lo = 0, hi = 0;
    if (!check_ready(h) || read_pos(h, arg, &p) < 0) return NULL;
    int code = hd_wager_range(h, p, &lo, &hi);
    return Py_BuildValue("(iLL)", code, (long long)lo, (long long)hi);
}

static PyObject *i64_tuple(const int64_t *v, int n) {
    PyObject *t = PyTuple_New(n);
    if (!t) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *x = PyLong_FromLongLong(v[i]);
        if (!x) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SetItem(t, i, x);
    }
    return t;
}

static PyObject *i8_tuple(const int8_t *v, int n) {
    int64_t wide[MAXP];
    for (int i = 0; i < n; i++) wide[i] = v[i];
    return i64_tuple(wide, n);
}

static PyObject *board_tuple(HandCore *h) {
    int8_t cards[5];
    for (int i = 0; i < h->st.board_n; i++) cards[i] = h->fx.stub[board_slot[i]];
    return i8_tuple(cards, h->st.board_n);
}

static PyObject *hole_of(HandCore *h, int p) {
    if (h->st.hole[p][0] < 0) Py_RETURN_NONE;
    return hd_card_pair(h->st.hole[p][0], h->st.hole[p][1]);
}

/* the position whose decision is pending (betting or showdown), else -1 */
static int deciding(HandCore *h) {
    if (h->st.phase == PH_BETTING) return h->st.actor;
    if (h->st.phase == PH_SHOWDOWN) return h->st.sd_order[h->st.sd_i];
    return -1;
}

/* The log as a tuple (views and the log property share it while it lasts). */
static PyObject *log_tuple(HandCore *h) {
    if (h->log_tuple && PyTuple_Size(h->log_tuple) != PyList_Size(h->log))
        Py_CLEAR(h->log_tuple);
    if (!h->log_tuple) h->log_tuple = PyList_AsTuple(h->log);
    Py_XINCREF(h->log_tuple);
    return h->log_tuple;
}

PyDoc_STRVAR(view_doc, "view($self, seat, /)\n--\n\n"
"What ``seat`` may know (RULES.md R14): a :class:`~holdem.views.PlayerView`.\n\n"
"``None`` gives a spectator's view (no hole cards at all); a seat not at\n"
"the table raises :class:`~holdem.errors.ConfigError`, as in\n"
":meth:`hole_cards`.  The view is a snapshot: tuples of the public\n"
"state, the viewer's own cards, and their legal actions on their turn.");

/* The position of a table seat (Hand._seat checks it and explains a bad one). */
static int position_of(HandCore *h, PyObject *seat, int *p) {
    if (PyLong_CheckExact(seat)) {
        long v = PyLong_AsLong(seat);
        if (v == -1 && PyErr_Occurred()) PyErr_Clear();
        else if (h->fx.plain_seats) {
            if (v >= 0 && v < h->fx.n) {
                *p = (int)v;
                return 0;
            }
        } else {  /* a table's seat numbers: the position whose number it is */
            for (int q = 0; q < h->fx.n; q++) {
                if (PyTuple_GetItem(h->nos, q) == seat ||
                    PyLong_AsLong(PyTuple_GetItem(h->nos, q)) == v) {
                    *p = q;
                    return 0;
                }
            }
        }
    }
    PyObject *pos = PyObject_CallMethodObjArgs((PyObject *)h, s_seat_of, seat, NULL);
    if (!pos) return -1;
    int bad = read_pos(h, pos, p);
    Py_DECREF(pos);
    return bad;
}

static PyObject *Core_view(HandCore *h, PyObject *seat) {
    if (!check_ready(h)) return NULL;
    state_t *st = &h->st;
    int n = h->fx.n, p = -1;
    if (seat != Py_None && position_of(h, seat, &p) < 0) return NULL;
    PyObject *outcome = PyObject_GetAttr((PyObject *)h, s_outcome_cache);
    if (outcome == Py_None && st->phase == PH_COMPLETE) {
        Py_DECREF(outcome);
        outcome = PyObject_GetAttr((PyObject *)h, s_outcome);
    }
    if (!outcome) return NULL;
    int actor = deciding(h);
    PyObject *items[17] = {
        hd_new_ref(seat),
        p >= 0 && st->dealt ? hole_of(h, p) : hd_new_ref(Py_None),
        PyObject_GetAttr((PyObject *)h, s_cfg),
        hd_new_ref(hd_phases[st->phase]),
        hd_new_ref(hd_streets[st->street]),
        board_tuple(h),
        i64_tuple(st->stacks, n),
        i64_tuple(st->bets, n),
        i64_tuple(st->contrib, n),
        i8_tuple(st->status, n),
        PyLong_FromLongLong(st->bet),
        hd_seat_obj(h, actor),
        actor >= 0 && actor == p ? Core_legal_actions(h, NULL) : hd_new_ref(Py_None),
        log_tuple(h),
        outcome,
        hd_new_ref(Py_None), /* the statuses and the shown hands: made when first read */
        hd_new_ref(Py_None),
    };
    return new_slotted(&view_rec, items);
}

static PyObject *Core_snap(HandCore *h, PyObject *unused) {
    (void)unused;
    if (!check_ready(h)) return NULL;
    h->st.log_len = PyList_Size(h->log);
    return PyBytes_FromStringAndSize((const char *)&h->st, sizeof h->st);
}

static PyObject *Core_load(HandCore *h, PyObject *arg) {
    if (!check_ready(h)) return NULL;
    if (!PyBytes_Check(arg) || PyBytes_Size(arg) != (Py_ssize_t)sizeof h->st) {
        PyErr_SetString(PyExc_ValueError, "_load: not a snapshot of this engine");
        return NULL;
    }
    memcpy(&h->st, PyBytes_AsString(arg), sizeof h->st);
    Py_CLEAR(h->log_tuple); /* the log may be as long again, with other records */
    if (PyList_SetSlice(h->log, h->st.log_len, PY_SSIZE_T_MAX, NULL) < 0) return NULL;
    Py_RETURN_NONE;
}

static PyTypeObject *core_type;

static PyObject *Core_copy_to(HandCore *h, PyObject *arg) {
    if (!check_ready(h)) return NULL;
    if (!PyObject_TypeCheck(arg, core_type)) {
        PyErr_SetString(PyExc_TypeError, "_copy_to: not a HandCore");
        return NULL;
    }
    HandCore *other = (HandCore *)arg;
    PyObject *log = PyList_GetSlice(h->log, 0, PY_SSIZE_T_MAX);
    if (!log) return NULL;
    other->st = h->st;
    other->fx = h->fx;
    SET_REF(other->log, log);
    Py_CLEAR(other->log_tuple);
    Py_INCREF(h->nos);
    SET_REF(other->nos, h->nos);
    other->ready = 1;
    Py_RETURN_NONE;
}

/* ------------------------------------------- replaying a hand history */

/* A history's moves (holdem.histories.Move named tuples: kind, actor, to,
 * cards, line, comment, all_in, stated) are played here without a Python
 * call per move.  The engine imports nothing of the histories: the caller
 * gives the kind strings, in the order of holdem.histories.MOVE_KINDS. */
enum { M_DEAL_HOLE, M_DEAL_BOARD, M_FOLD, M_CHECK_CALL, M_BET_RAISE, M_SHOW, M_MUCK,
       M_DEAL_SECOND_BOARD, NMOVES };
enum { MV_KIND, MV_ACTOR, MV_TO, MV_CARDS, MV_LINE, MV_COMMENT, MV_ALL_IN, MV_STATED, MV_FIELDS };

static int check_kinds(PyObject *kinds) {
    int ok = PyTuple_Check(kinds) && PyTuple_Size(kinds) == NMOVES;
    for (int k = 0; ok && k < NMOVES; k++) ok = PyUnicode_CheckExact(PyTuple_GetItem(kinds, k));
    if (!ok) PyErr_SetString(PyExc_TypeError, "kinds: the 8 move kinds (str), as MOVE_KINDS");
    return ok ? 0 : -1;
}

/* The M_ code of a move's kind; -1 for another str, -2 for anything but a
 * str (whose == the caller's Python may answer otherwise). */
static int move_kind(PyObject *kind, PyObject *kinds) {
    for (int k = 0; k < NMOVES; k++)
        if (PyTuple_GetItem(kinds, k) == kind) return k;
    if (!PyUnicode_CheckExact(kind)) return -2;
    for (int k = 0; k < NMOVES; k++)
        if (PyUnicode_Compare(kind, PyTuple_GetItem(kinds, k)) == 0) return k;
    return -1;
}

/* The fields of a move: NULL unless it is a tuple of (at least) a Move's fields. */
static PyObject *move_field(PyObject *move, int field) {
    if (!PyTuple_Check(move) || PyTuple_Size(move) < MV_FIELDS) return NULL;
    return PyTuple_GetItem(move, field);
}

/* Whether o is an int (exactly: not a bool) that fits in *v. */
static int exact_i64(PyObject *o, int64_t *v) {
    if (!PyLong_CheckExact(o)) return 0;
    int overflow = 0;
    long long x = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow || (x == -1 && PyErr_Occurred())) {
        PyErr_Clear();
        return 0;
    }
    *v = x;
    return 1;
}

/* The card of o (an int 0..51, exactly), else -1. */
static int card_of(PyObject *o) {
    int64_t v;
    return exact_i64(o, &v) && v >= 0 && v < 52 ? (int)v : -1;
}

PyDoc_STRVAR(script_cards_doc, "script_cards(moves, n, kinds, /)\n--\n\n"
"The known cards of a history's moves, as Hand gives them to _setup: (hole, stub),\n"
"the hole cards of the n players (None where unknown: the last deal of two known\n"
"cards to a player counts) and the 8 cards after them (the board where known,\n"
"burns unknown).  None when a card, a player or a kind needs Python's checks and\n"
"messages: not an int 0..51, a player not in 0..n-1, a card twice, a board of\n"
"more than 5 cards.");

static PyObject *script_cards(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "script_cards(moves, n, kinds)");
        return NULL;
    }
    PyObject *moves = args[0], *kinds = args[2];
    long n = PyLong_AsLong(args[1]);
    if (n == -1 && PyErr_Occurred()) return NULL;
    if (!PyTuple_Check(moves) || n < 2 || n > MAXP) {
        PyErr_SetString(PyExc_ValueError, "script_cards: a tuple of moves, 2 to 10 players");
        return NULL;
    }
    if (check_kinds(kinds) < 0) return NULL;
    int8_t hole[MAXP][2], board[5];
    int nboard = 0;
    memset(hole, -1, sizeof hole);
    for (Py_ssize_t i = 0; i < PyTuple_Size(moves); i++) {
        PyObject *move = PyTuple_GetItem(moves, i);
        PyObject *kind_obj = move_field(move, MV_KIND);
        if (!kind_obj) Py_RETURN_NONE;
        int kind = move_kind(kind_obj, kinds);
        PyObject *cards = PyTuple_GetItem(move, MV_CARDS);
        if (kind == -2) Py_RETURN_NONE;
        if (kind == M_DEAL_HOLE) {
            PyObject *actor = PyTuple_GetItem(move, MV_ACTOR);
            int64_t a;
            if (actor == Py_None) continue;
            if (!exact_i64(actor, &a) || a < 0 || a >= n || !PyTuple_Check(cards)) Py_RETURN_NONE;
            if (PyTuple_Size(cards) != 2 || PyTuple_GetItem(cards, 0) == Py_None ||
                PyTuple_GetItem(cards, 1) == Py_None)
                continue;
            int x = card_of(PyTuple_GetItem(cards, 0)), y = card_of(PyTuple_GetItem(cards, 1));
            if (x < 0 || y < 0) Py_RETURN_NONE;
            hole[a][0] = (int8_t)x;
            hole[a][1] = (int8_t)y;
        } else if (kind == M_DEAL_SECOND_BOARD) {
            Py_RETURN_NONE; /* a board run twice: Python deals the second run */
        } else if (kind == M_DEAL_BOARD) {
            if (!PyTuple_Check(cards)) Py_RETURN_NONE;
            for (Py_ssize_t j = 0; j < PyTuple_Size(cards); j++) {
                PyObject *c = PyTuple_GetItem(cards, j);
                if (c == Py_None) continue;
                int card = card_of(c);
                if (card < 0 || nboard == 5) Py_RETURN_NONE;
                board[nboard++] = (int8_t)card;
            }
        }
    }
    uint64_t seen = 0;
    for (int p = 0; p < n; p++)
        for (int k = 0; k < 2 && hole[p][0] >= 0; k++) {
            if (seen >> hole[p][k] & 1) Py_RETURN_NONE;
            seen |= (uint64_t)1 << hole[p][k];
        }
    for (int i = 0; i < nboard; i++) {
        if (seen >> board[i] & 1) Py_RETURN_NONE;
        seen |= (uint64_t)1 << board[i];
    }
    PyObject *hole_list = PyList_New(n), *stub = PyList_New(STUB);
    if (!hole_list || !stub) goto fail;
    for (int p = 0; p < n; p++) {
        PyObject *x = hole[p][0] < 0 ? hd_new_ref(Py_None) : hd_card_pair(hole[p][0], hole[p][1]);
        if (!x) goto fail;
        PyList_SetItem(hole_list, p, x);
    }
    for (int i = 0; i < STUB; i++) PyList_SetItem(stub, i, hd_new_ref(Py_None));
    for (int i = 0; i < nboard; i++) {
        PyObject *x = PyLong_FromLong(board[i]);
        if (!x) goto fail;
        PyList_SetItem(stub, board_slot[i], x);
    }
    return Py_BuildValue("(NN)", hole_list, stub);
fail:
    Py_XDECREF(hole_list);
    Py_XDECREF(stub);
    return NULL;
}

PyDoc_STRVAR(deal_in_doc, "_deal_in($self, /)\n--\n\n"
"Posts every forced bet and deals the hole cards: the dealer steps of a new\n"
"hand up to its first decision (what step() does, one at a time).");

static PyObject *Core_deal_in(HandCore *h, PyObject *unused) {
    (void)unused;
    if (!check_ready(h)) return NULL;
    while (h->st.phase == PH_POSTING || h->st.phase == PH_DEALING) {
        int dealing = h->st.phase == PH_DEALING;
        PyObject *record = hd_dealer_step(h);
        if (!record) return NULL;
        Py_DECREF(record);
        if (dealing) break;
    }
    Py_RETURN_NONE;
}

/* The table seat of position p. */
static int64_t seat_no(HandCore *h, int p) {
    return h->fx.plain_seats ? p : PyLong_AsLongLong(PyTuple_GetItem(h->nos, p));
}

/* 1 for a step's record (released), -1 for NULL (an error). */
static int step_done(PyObject *record) {
    if (!record) return -1;
    Py_DECREF(record);
    return 1;
}

/* Plays one move if it is plain: 1 played (a deal of hole cards skipped, a
 * show or muck kept in showdown), 0 not plain (nothing changed), -1 error. */
static int play_move(HandCore *h, PyObject *move, PyObject *kinds, PyObject *showdown) {
    state_t *st = &h->st;
    PyObject *kind_obj = move_field(move, MV_KIND), *record;
    if (!kind_obj) return 0;
    int kind = move_kind(kind_obj, kinds);
    switch (kind) {
    case M_DEAL_HOLE:
        return 1;
    case M_SHOW:
    case M_MUCK:
        return PyList_Append(showdown, move) < 0 ? -1 : 1;
    case M_DEAL_BOARD: {
        PyObject *cards = PyTuple_GetItem(move, MV_CARDS);
        if (st->phase != PH_BOARD || !hd_next_street_known(h) || !PyTuple_Check(cards) ||
            PyTuple_Size(cards) != board_after[st->street + 1] - board_after[st->street])
            return 0;
        record = hd_dealer_step(h);
        break;
    }
    case M_FOLD:
    case M_CHECK_CALL:
    case M_BET_RAISE: {
        int p = st->actor;
        int64_t seat, to = 0;
        PyObject *all_in = PyTuple_GetItem(move, MV_ALL_IN), *to_obj = PyTuple_GetItem(move, MV_TO);
        if (st->phase != PH_BETTING || PyTuple_GetItem(move, MV_STATED) != Py_None ||
            !exact_i64(PyTuple_GetItem(move, MV_ACTOR), &seat) || seat != seat_no(h, p) ||
            (all_in != Py_False && all_in != Py_True))
            return 0;
        int marked = all_in == Py_True; /* then the move must be all-in */
        int64_t everything = st->bets[p] + st->stacks[p];
        if (kind == M_FOLD) {
            if (marked) return 0;
            record = hd_do_fold(h, p);
        } else if (kind == M_CHECK_CALL) {
            int64_t need = st->bet - st->bets[p];
            if (need < st->stacks[p] ? need : st->stacks[p]) { /* Hand.to_call */
                if (need <= 0 || (marked && everything > st->bet)) return 0;
                record = hd_do_call(h, p);
            } else {
                if (need > 0 || marked) return 0;
                record = hd_do_check(h, p);
            }
        } else {
            int wager = st->bet ? K_RAISE : K_BET;
            if ((to_obj != Py_None && !exact_i64(to_obj, &to)) || !hd_wager_ok(h, wager, to, p) ||
                (marked && to != everything))
                return 0;
            record = hd_do_wager(h, wager, p, to);
        }
        break;
    }
    default:
        return 0;
    }
    return step_done(record);
}

PyDoc_STRVAR(play_script_doc, "_play_script($self, moves, start, kinds, showdown, /)\n--\n\n"
"Plays a history's moves from moves[start] on while they are plain (kinds: the\n"
"move kinds, in the order of holdem.histories.MOVE_KINDS): deals of hole cards\n"
"(skipped), the deal of the street due, folds, checks and calls, and bets and\n"
"raises the rules allow, by the player to act; shows and mucks are appended to\n"
"the list showdown.  Returns the index of the first move it did not play\n"
"(len(moves): none), having changed nothing for it: a stated amount, an all-in\n"
"mark the move would not make, or anything the rules refuse (the caller plays\n"
"it and words the error).  Our rules only: rule variants change no check here.");

static PyObject *Core_play_script(HandCore *h, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "_play_script(moves, start, kinds, showdown)");
        return NULL;
    }
    if (!check_ready(h) || check_kinds(args[2]) < 0) return NULL;
    PyObject *moves = args[0], *showdown = args[3];
    Py_ssize_t i = PyLong_AsSsize_t(args[1]);
    if (i == -1 && PyErr_Occurred()) return NULL;
    if (!PyTuple_Check(moves) || !PyList_Check(showdown) || i < 0) {
        PyErr_SetString(PyExc_TypeError, "_play_script: a tuple of moves, a start >= 0, a list");
        return NULL;
    }
    for (; i < PyTuple_Size(moves); i++) {
        int played = play_move(h, PyTuple_GetItem(moves, i), args[2], showdown);
        if (played < 0) return NULL;
        if (!played) break;
    }
    return PyLong_FromSsize_t(i);
}

/* The show or muck of p's player in showdown (the last one; borrowed, NULL:
 * none); 0 when a move's player is not an exact int (Python's == decides). */
static int shown_by(HandCore *h, PyObject *showdown, int p, PyObject **move) {
    int64_t seat = seat_no(h, p), actor;
    *move = NULL;
    for (Py_ssize_t i = PyList_Size(showdown) - 1; i >= 0; i--) {
        PyObject *m = PyList_GetItem(showdown, i), *who = move_field(m, MV_ACTOR);
        if (!who || !exact_i64(who, &actor)) return 0;
        if (actor == seat) {
            *move = m;
            break;
        }
    }
    return 1;
}

/* One plain step of the end of a hand: 1 done, 0 not plain (nothing changed), -1 error. */
static int finish_step(HandCore *h, PyObject *showdown, PyObject *kinds) {
    state_t *st = &h->st;
    PyObject *record, *move;
    int p;
    switch (st->phase) {
    case PH_BOARD:
        if (!hd_next_street_known(h)) return 0;
        /* fall through */
    case PH_AWARDING:
        record = hd_dealer_step(h);
        break;
    case PH_SHOWDOWN:
        p = st->sd_order[st->sd_i];
        if (st->hole[p][0] < 0 || !shown_by(h, showdown, p, &move)) return 0;
        if (!move) { /* the default (R10) */
            record = hd_default_showdown(h, p) == K_SHOW ? hd_do_show(h, p) : hd_do_muck(h, p);
            break;
        }
        switch (move_kind(PyTuple_GetItem(move, MV_KIND), kinds)) {
        case M_MUCK:
            if (!hd_may_muck(h, p)) return 0; /* shown all the same: the caller warns */
            record = hd_do_muck(h, p);
            break;
        case M_SHOW: {
            /* the file's cards, when it gives both, are the ones held */
            PyObject *cards = PyTuple_GetItem(move, MV_CARDS);
            int known[3], k = 0;
            if (!PyTuple_Check(cards)) return 0;
            for (Py_ssize_t i = 0; i < PyTuple_Size(cards) && k < 3; i++) {
                PyObject *c = PyTuple_GetItem(cards, i);
                if (c != Py_None) known[k++] = card_of(c);
            }
            if (k == 2) {
                int a = st->hole[p][0], b = st->hole[p][1];
                if (!((known[0] == a && known[1] == b) || (known[0] == b && known[1] == a)))
                    return 0;
            }
            record = hd_do_show(h, p);
            break;
        }
        default:
            return 0;
        }
        break;
    default:
        return 0;
    }
    return step_done(record);
}

PyDoc_STRVAR(finish_script_doc, "_finish_script($self, showdown, kinds, /)\n--\n\n"
"Plays the end of a replayed hand while it is plain: the deals of the streets\n"
"whose cards are known, the showdown of players whose cards are known (by the\n"
"last show or muck of theirs in the list showdown, or by default when there is\n"
"none) and the award.  Stops, having changed nothing for it, at a step the caller\n"
"must play and word: a betting decision, unknown cards, a muck when every hand is\n"
"shown, shown cards that are not the ones held.  The positions it showed or\n"
"mucked are _sd_order[:_sd_i].");

static PyObject *Core_finish_script(HandCore *h, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "_finish_script(showdown, kinds)");
        return NULL;
    }
    if (!check_ready(h) || check_kinds(args[1]) < 0) return NULL;
    if (!PyList_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "_finish_script: showdown must be a list");
        return NULL;
    }
    int done;
    while ((done = finish_step(h, args[0], args[1])) > 0) {
    }
    if (done < 0) return NULL;
    Py_RETURN_NONE;
}

/* ----------------------------------------------------------- outcome */

/* The table seats of k positions, as a tuple. */
static PyObject *seats_of(HandCore *h, const int8_t *pos, int k) {
    PyObject *t = PyTuple_New(k);
    if (!t) return NULL;
    for (int i = 0; i < k; i++) PyTuple_SetItem(t, i, hd_seat_obj(h, pos[i]));
    return t;
}

PyDoc_STRVAR(make_outcome_doc, "_make_outcome($self, /)\n--\n\n"
"The Outcome of a finished hand (Hand.outcome keeps it): its Pot and ShownHand\n"
"records made here, their slots set as their dataclasses' __init__ sets them.");

static PyObject *Core_make_outcome(HandCore *h, PyObject *unused) {
    (void)unused;
    if (!check_ready(h)) return NULL;
    state_t *st = &h->st;
    int n = h->fx.n, npots = 0, nshown = 0, nmucked = 0;
    if (st->phase != PH_COMPLETE) {
        PyErr_SetString(PyExc_RuntimeError, "_make_outcome: the hand is not over");
        return NULL;
    }
    for (int i = 0; i < st->n_pots; i++) npots += st->pot_nwin[i] != 0;
    int8_t shown[MAXP], mucked[MAXP];
    for (int i = 0; i < st->sd_n; i++) {
        int q = st->sd_order[i];
        if (st->shown[q]) shown[nshown++] = (int8_t)q;
        if (st->status[q] == MUCKED) mucked[nmucked++] = (int8_t)q;
    }
    int runs = st->runs == 2 ? 2 : 1; /* a board run twice: each shown hand on each board */
    PyObject *pots = PyTuple_New(npots), *shown_t = PyTuple_New(runs * nshown);
    if (!pots || !shown_t) goto fail;
    for (int i = 0, j = 0; i < st->n_pots; i++) {
        int nwin = st->pot_nwin[i];
        if (!nwin) continue;
        int8_t eligible[MAXP];
        int k = 0;
        for (int q = 0; q < n; q++)
            if (st->pot_eligible[i] >> q & 1) eligible[k++] = (int8_t)q;
        PyObject *items[5] = {PyLong_FromLongLong(st->pot_amount[i]), seats_of(h, eligible, k),
                              seats_of(h, st->pot_win[i], nwin),
                              i64_tuple(st->pot_share[i], nwin), PyLong_FromLong(st->pot_run[i])};
        PyObject *pot = new_slotted(&pot_rec, items);
        if (!pot) goto fail;
        PyTuple_SetItem(pots, j++, pot);
    }
    for (int i = 0; i < runs * nshown; i++) {
        int q = shown[i % nshown], run = i >= nshown;
        int32_t value = run ? hd_value2(h, q) : st->vals[q];
        PyObject *items[4] = {hd_seat_obj(h, q), hole_of(h, q), PyLong_FromLong(value),
                              PyLong_FromLong(run)};
        PyObject *hand = new_slotted(&shown_rec, items);
        if (!hand) goto fail;
        PyTuple_SetItem(shown_t, i, hand);
    }
    int64_t net[MAXP];
    for (int p = 0; p < n; p++) net[p] = st->stacks[p] - h->fx.start[p];
    PyObject *items[7] = {pots, shown_t, seats_of(h, mucked, nmucked), i64_tuple(st->returned, n),
                          i64_tuple(net, n), i64_tuple(st->stacks, n), bool_obj(st->sd_n > 0)};
    return new_slotted(&outcome_rec, items);
fail:
    Py_XDECREF(pots);
    Py_XDECREF(shown_t);
    return NULL;
}

/* --------------------------------------------------------- getters */

static PyObject *get_done(HandCore *h, void *c) {
    (void)c;
    return PyBool_FromLong(h->st.phase == PH_COMPLETE);
}

static PyObject *get_actor(HandCore *h, void *c) {
    (void)c;
    if (!check_ready(h)) return NULL;
    return hd_seat_obj(h, deciding(h));
}

static PyObject *get_stacks(HandCore *h, void *c) {
    (void)c;
    return i64_tuple(h->st.stacks, h->fx.n);
}

static PyObject *get_phase(HandCore *h, void *c) {
    (void)c;
    if (!check_ready(h)) return NULL;
    Py_INCREF(hd_phases[h->st.phase]);
    return hd_phases[h->st.phase];
}

static PyObject *get_street(HandCore *h, void *c) {
    (void)c;
    if (!check_ready(h)) return NULL;
    Py_INCREF(hd_streets[h->st.street]);
    return hd_streets[h->st.street];
}

static PyObject *i64_list(const int64_t *v, int n) {
    PyObject *t = i64_tuple(v, n);
    if (!t) return NULL;
    PyObject *l = PySequence_List(t);
    Py_DECREF(t);
    return l;
}

/* the per-player arrays, as lists (copies), for the Python side */
static PyObject *get_array(HandCore *h, void *which) {
    state_t *st = &h->st;
    int n = h->fx.n;
    switch ((int)(intptr_t)which) {
    case 0: return i64_list(st->stacks, n);
    case 1: return i64_list(st->bets, n);
    case 2: return i64_list(st->contrib, n);
    case 3: return i64_list(st->faced, n);
    case 4: return i64_list(st->returned, n);
    default: break;
    }
    PyObject *l = PyList_New(n);
    if (!l) return NULL;
    for (int p = 0; p < n; p++) {
        PyObject *x;
        switch ((int)(intptr_t)which) {
        case 5: x = PyLong_FromLong(st->status[p]); break;
        case 6: x = PyBool_FromLong(st->shown[p]); break;
        case 7: x = PyLong_FromLong(st->vals[p]); break;
        default: x = hole_of(h, p); break;
        }
        if (!x) {
            Py_DECREF(l);
            return NULL;
        }
        PyList_SetItem(l, p, x);
    }
    return l;
}

static PyObject *get_sd_order(HandCore *h, void *c) {
    (void)c;
    return i8_tuple(h->st.sd_order, h->st.sd_n);
}

static PyObject *get_stub(HandCore *h, void *c) {
    (void)c;
    PyObject *l = PyList_New(STUB);
    if (!l) return NULL;
    for (int i = 0; i < STUB; i++) {
        PyObject *x;
        if (h->fx.stub[i] < 0) {
            Py_INCREF(Py_None);
            x = Py_None;
        } else {
            x = PyLong_FromLong(h->fx.stub[i]);
        }
        PyList_SetItem(l, i, x);
    }
    return l;
}

static PyObject *get_board(HandCore *h, void *c) {
    (void)c;
    PyObject *t = board_tuple(h);
    if (!t) return NULL;
    PyObject *l = PySequence_List(t);
    Py_DECREF(t);
    return l;
}

static PyObject *get_burns(HandCore *h, void *c) {
    (void)c;
    PyObject *l = PyList_New(h->st.burns_n);
    if (!l) return NULL;
    for (int i = 0; i < h->st.burns_n; i++) {
        int card = h->fx.stub[burn_slot[i + 1]];
        PyObject *x;
        if (card < 0) {
            Py_INCREF(Py_None);
            x = Py_None;
        } else {
            x = PyLong_FromLong(card);
        }
        PyList_SetItem(l, i, x);
    }
    return l;
}

static PyObject *get_log(HandCore *h, void *c) {
    (void)c;
    if (!check_ready(h)) return NULL;
    Py_INCREF(h->log);
    return h->log;
}

static PyObject *get_log_tuple(HandCore *h, void *c) {
    (void)c;
    if (!check_ready(h)) return NULL;
    return log_tuple(h);
}

static PyObject *positions(uint16_t mask, int n) {
    int8_t v[MAXP];
    int k = 0;
    for (int p = 0; p < n; p++)
        if (mask >> p & 1) v[k++] = (int8_t)p;
    return i8_tuple(v, k);
}

/* the awarded pots, main pot first: (amount, eligible, winners, shares) by position */
static PyObject *get_awards(HandCore *h, void *c) {
    (void)c;
    state_t *st = &h->st;
    int n = h->fx.n;
    PyObject *l = PyList_New(0);
    if (!l || st->phase != PH_COMPLETE) return l;
    for (int i = 0; i < st->n_pots; i++) {
        if (!st->pot_nwin[i]) continue;
        PyObject *item = Py_BuildValue("(LNNN)", (long long)st->pot_amount[i],
                                       positions(st->pot_eligible[i], n),
                                       i8_tuple(st->pot_win[i], st->pot_nwin[i]),
                                       i64_tuple(st->pot_share[i], st->pot_nwin[i]));
        if (!item || PyList_Append(l, item) < 0) {
            Py_XDECREF(item);
            Py_DECREF(l);
            return NULL;
        }
        Py_DECREF(item);
    }
    return l;
}

static PyObject *get_bool(HandCore *h, void *which) {
    switch ((int)(intptr_t)which) {
    case 0: return PyBool_FromLong(h->st.dealt);
    case 1: return PyBool_FromLong(h->st.face_up);
    case 2: return PyBool_FromLong(h->fx.auto_);
    default: return PyBool_FromLong(h->fx.fixed);
    }
}

/* an int8_t field of the state, read as a signed number (T_BYTE reads a plain
 * char, unsigned on some platforms) */
static PyObject *get_i8(HandCore *h, void *offset) {
    return PyLong_FromLong(*(const int8_t *)((const char *)h + (intptr_t)offset));
}

#define I8(name, field) {name, (getter)get_i8, NULL, NULL, (void *)offsetof(HandCore, field)}

#define ARRAY(name, i) {name, (getter)get_array, NULL, NULL, (void *)(intptr_t)(i)}
#define BOOL(name, i) {name, (getter)get_bool, NULL, NULL, (void *)(intptr_t)(i)}

static PyGetSetDef core_getset[] = {
    {"done", (getter)get_done, NULL, "True once the pots are awarded.", NULL},
    {"actor", (getter)get_actor, NULL,
     "The seat whose decision the hand waits for (betting or showdown), else None.", NULL},
    {"stacks", (getter)get_stacks, NULL,
     "Chips behind, per player, in the order of the configuration's stacks\n"
     "(``config.seat_numbers`` gives their table seats).", NULL},
    {"_phase", (getter)get_phase, NULL, NULL, NULL},
    {"_street", (getter)get_street, NULL, NULL, NULL},
    ARRAY("_stacks", 0), ARRAY("_bets", 1), ARRAY("_contrib", 2), ARRAY("_faced", 3),
    ARRAY("_returned", 4), ARRAY("_status", 5), ARRAY("_shown", 6), ARRAY("_vals", 7),
    ARRAY("_hole", 8),
    BOOL("_dealt", 0), BOOL("_face_up", 1), BOOL("_auto", 2), BOOL("_fixed", 3),
    I8("_actor", st.actor), I8("_post_i", st.post_i), I8("_sd_i", st.sd_i),
    I8("_aggressor", st.aggressor),
    {"_sd_order", (getter)get_sd_order, NULL, NULL, NULL},
    {"_stub", (getter)get_stub, NULL, NULL, NULL},
    {"_board", (getter)get_board, NULL, NULL, NULL},
    {"_burns", (getter)get_burns, NULL, NULL, NULL},
    {"_log", (getter)get_log, NULL, NULL, NULL},
    {"log", (getter)get_log_tuple, NULL,
     "Every step so far.  Public information only (RULES.md R14).", NULL},
    {"_awards", (getter)get_awards, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

#define MEMBER(name, type, field) {name, type, offsetof(HandCore, field), READONLY, NULL}

static PyMemberDef core_members[] = {
    MEMBER("_bet", T_LONGLONG, st.bet),
    MEMBER("_full", T_LONGLONG, st.full),
    MEMBER("_n", T_INT, fx.n),
    {NULL, 0, 0, 0, NULL},
};

#define FAST (METH_FASTCALL | METH_KEYWORDS)
#define METHOD(name, fn, flags, doc) {name, (PyCFunction)(void (*)(void))fn, flags, doc}

static PyMethodDef core_methods[] = {
    METHOD("fold", Core_fold, FAST, "fold($self, seat=None)\n--\n\nFolds the hand of the player to act."),
    METHOD("check", Core_check, FAST, "check($self, seat=None)\n--\n\nChecks."),
    METHOD("call", Core_call, FAST,
           "call($self, seat=None)\n--\n\n"
           "Calls the current bet (all-in for less when the stack is short)."),
    METHOD("check_or_call", Core_check_or_call, FAST,
           "check_or_call($self, seat=None)\n--\n\n"
           "Checks if that is possible, else calls (a calling station's turn)."),
    METHOD("bet", Core_bet, FAST,
           "bet($self, to, seat=None)\n--\n\nBets: the first chips of a round, ``to`` in total."),
    METHOD("raise_to", Core_raise_to, FAST,
           "raise_to($self, to, seat=None)\n--\n\n"
           "Raises to ``to``: the player's total bet of the round afterwards."),
    METHOD("all_in", Core_all_in, FAST,
           "all_in($self, seat=None)\n--\n\n"
           "Puts in every chip: a call, bet or raise, recorded as such with ``all_in``."),
    METHOD("timeout", Core_timeout, FAST,
           "timeout($self, seat=None)\n--\n\n"
           "Protected timeout (RULES.md R13 disconnect protection).\n\n"
           "The player stops betting without folding: they stay in the hand,\n"
           "all-in for what they have already put in, and can win only the pots\n"
           "formed so far; the others go on betting into side pots.  (The plain\n"
           "timeout rule, check if possible else fold, is :meth:`check` or\n"
           ":meth:`fold`.)"),
    METHOD("legal_actions", Core_legal_actions, METH_NOARGS,
           "legal_actions($self, /)\n--\n\n"
           "Exactly what the player to act may do now, or None if nobody is to act.\n\n"
           "Amounts are to-amounts (the player's total bet of the round)."),
    METHOD("_setup", Core_setup, METH_FASTCALL, setup_doc),
    METHOD("_run", Core_run, METH_NOARGS, NULL),
    METHOD("_step", Core_step, METH_NOARGS, step_doc),
    METHOD("_show", Core_show, METH_O, NULL),
    METHOD("_muck", Core_muck, METH_O, NULL),
    METHOD("_forfeit", Core_forfeit, METH_O, forfeit_doc),
    METHOD("_set_second_run", Core_set_second_run, METH_FASTCALL, set_second_run_doc),
    METHOD("_set_hole", Core_set_hole, METH_FASTCALL, NULL),
    METHOD("_default_showdown", Core_default_showdown, METH_O, NULL),
    METHOD("_range", Core_range, METH_O, range_doc),
    METHOD("view", Core_view, METH_O, view_doc),
    METHOD("_snap", Core_snap, METH_NOARGS, NULL),
    METHOD("_load", Core_load, METH_O, NULL),
    METHOD("_copy_to", Core_copy_to, METH_O, NULL),
    METHOD("_deal_in", Core_deal_in, METH_NOARGS, deal_in_doc),
    METHOD("_play_script", Core_play_script, METH_FASTCALL, play_script_doc),
    METHOD("_finish_script", Core_finish_script, METH_FASTCALL, finish_script_doc),
    METHOD("_make_outcome", Core_make_outcome, METH_NOARGS, make_outcome_doc),
    {NULL, NULL, 0, NULL},
};

static int Core_traverse(HandCore *h, visitproc visit, void *arg) {
    Py_VISIT(h->log);
    Py_VISIT(h->nos);
    Py_VISIT(h->log_tuple);
    Py_VISIT((PyObject *)Py_TYPE((PyObject *)h));
    return 0;
}

static int Core_clear(HandCore *h) {
    Py_CLEAR(h->log);
    Py_CLEAR(h->nos);
    Py_CLEAR(h->log_tuple);
    h->ready = 0;
    return 0;
}

static void Core_dealloc(HandCore *h) {
    PyTypeObject *type = Py_TYPE((PyObject *)h);
    PyObject_GC_UnTrack(h);
    Core_clear(h);
    freefunc free_ = (freefunc)PyType_GetSlot(type, Py_tp_free);
    free_(h);
    Py_DECREF((PyObject *)type);
}

static PyType_Slot core_slots[] = {
    {Py_tp_doc, "The state and rules of one hand in C: the base of holdem.hand.Hand."},
    {Py_tp_methods, core_methods},
    {Py_tp_getset, core_getset},
    {Py_tp_members, core_members},
    {Py_tp_traverse, Core_traverse},
    {Py_tp_clear, Core_clear},
    {Py_tp_dealloc, Core_dealloc},
    {0, NULL},
};

static PyType_Spec core_spec = {
    "holdem._engine.HandCore", sizeof(HandCore), 0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC, core_slots,
};

/* ------------------------------------------------------------ module */

static int bind_members(PyObject *seq, PyObject **out, Py_ssize_t count, const char *what) {
    if (!PyTuple_Check(seq) || PyTuple_Size(seq) != count) {
        PyErr_Format(PyExc_ValueError, "bind: %s must be a tuple of %zd members", what, count);
        return -1;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *item = PyTuple_GetItem(seq, i);
        Py_INCREF(item);
        SET_REF(out[i], item);
    }
    return 0;
}

PyDoc_STRVAR(bind_doc,
"bind($module, address, kinds, phases, streets, action, legal, view, slots, /)\n--\n\n"
"Binds the engine to the evaluator's tables (holdem._core's\n"
"hd_tables_address()) and to the Python types it builds: the members of\n"
"ActionKind, Phase and Street in definition order, Action and LegalActions,\n"
"and PlayerView with the names of its slots in the order Hand.view fills\n"
"them (holdem.views._VIEW_FIELDS).");

static PyObject *bind(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 8) {
        PyErr_SetString(PyExc_TypeError,
                        "bind(address, kinds, phases, streets, action, legal, view, slots)");
        return NULL;
    }
    void *address = PyLong_AsVoidPtr(args[0]);
    if (!address) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "null table address");
        return NULL;
    }
    if (bind_members(args[1], hd_kinds, NKINDS, "kinds") < 0 ||
        bind_members(args[2], hd_phases, NPHASES, "phases") < 0 ||
        bind_members(args[3], hd_streets, NSTREETS, "streets") < 0)
        return NULL;
    if (!PyType_Check(args[4]) || !PyType_Check(args[5])) {
        PyErr_SetString(PyExc_TypeError, "bind: action and legal must be types");
        return NULL;
    }
    Py_INCREF(args[4]);
    SET_REF(hd_action_type, args[4]);
    Py_INCREF(args[5]);
    SET_REF(legal_type, args[5]);
    if (bind_slotted(&view_rec, args[6], args[7], 17, "view") < 0) return NULL;
    hd_action_alloc = (allocfunc)PyType_GetSlot((PyTypeObject *)hd_action_type, Py_tp_alloc);
    legal_alloc = (allocfunc)PyType_GetSlot((PyTypeObject *)legal_type, Py_tp_alloc);
    if (!hd_action_alloc || !legal_alloc) {
        PyErr_SetString(PyExc_TypeError, "bind: action and legal must be tuple types");
        return NULL;
    }
    hd_eval_tables = address;
    Py_RETURN_NONE;
}

PyDoc_STRVAR(bind_outcome_doc,
"bind_outcome($module, pot, pot_slots, shown, shown_slots, outcome, outcome_slots, /)\n--\n\n"
"Binds the engine to the records of an outcome (holdem.pots.Pot, ShownHand and\n"
"Outcome) and the names of their slots in the order _make_outcome fills them:\n"
"amount, eligible, winners, shares; seat, cards, value; pots, shown, mucked,\n"
"returned, net, stacks, showdown.");

static PyObject *bind_outcome(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError, "bind_outcome(pot, slots, shown, slots, outcome, slots)");
        return NULL;
    }
    if (bind_slotted(&pot_rec, args[0], args[1], 5, "pot") < 0 ||
        bind_slotted(&shown_rec, args[2], args[3], 4, "shown") < 0 ||
        bind_slotted(&outcome_rec, args[4], args[5], 7, "outcome") < 0)
        return NULL;
    Py_RETURN_NONE;
}

/* holdem.config.HandConfig, for restack(): its slots' descriptors (the
 * stacks first, then the hand id, then the others) and the chip limit. */
#define CONFIG_SLOTS 32
static struct {
    PyObject *type;
    allocfunc alloc;
    int n;
    long long max_chips;
    PyObject *slot[CONFIG_SLOTS];
    descrgetfunc get[CONFIG_SLOTS];
    descrsetfunc set[CONFIG_SLOTS];
} config_rec;

PyDoc_STRVAR(bind_config_doc,
"bind_config($module, type, slots, max_chips, /)\n--\n\n"
"Binds restack() to HandConfig: its slots' names (the stacks first, the hand\n"
"id second, then every other) and MAX_CHIPS.");

static PyObject *bind_config(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 3 || !PyType_Check(args[0]) || !PyTuple_Check(args[1]) ||
        !PyLong_Check(args[2])) {
        PyErr_SetString(PyExc_TypeError, "bind_config(type, slots, max_chips)");
        return NULL;
    }
    Py_ssize_t n = PyTuple_Size(args[1]);
    if (n < 2 || n > CONFIG_SLOTS) {
        PyErr_Format(PyExc_TypeError, "bind_config: 2 to %d slots, not %zd", CONFIG_SLOTS, n);
        return NULL;
    }
    long long max_chips = PyLong_AsLongLong(args[2]);
    if (max_chips == -1 && PyErr_Occurred()) return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *descr = PyObject_GetAttr(args[0], PyTuple_GetItem(args[1], i));
        if (!descr) return NULL;
        descrgetfunc get = (descrgetfunc)PyType_GetSlot(Py_TYPE(descr), Py_tp_descr_get);
        descrsetfunc set = (descrsetfunc)PyType_GetSlot(Py_TYPE(descr), Py_tp_descr_set);
        if (!get || !set) {
            Py_DECREF(descr);
            PyErr_Format(PyExc_TypeError, "bind_config: %R is not a slot",
                         PyTuple_GetItem(args[1], i));
            return NULL;
        }
        SET_REF(config_rec.slot[i], descr);
        config_rec.get[i] = get;
        config_rec.set[i] = set;
    }
    config_rec.alloc = (allocfunc)PyType_GetSlot((PyTypeObject *)args[0], Py_tp_alloc);
    config_rec.n = (int)n;
    config_rec.max_chips = max_chips;
    Py_INCREF(args[0]);
    SET_REF(config_rec.type, args[0]);
    Py_RETURN_NONE;
}

PyDoc_STRVAR(restack_doc,
"restack($module, config, stacks, hand_id, /)\n--\n\n"
"A copy of a HandConfig with other stacks and hand id: None unless config is\n"
"a HandConfig (not a subclass) and stacks\n"
"is a tuple of as many ints (exactly int) of 1 to MAX_CHIPS - 1 as config's.\n"
"Nothing else is checked: the other fields are config's, checked when it was\n"
"made, and no check of a configuration reads the stacks' values but these.");

static PyObject *restack(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "restack(config, stacks, hand_id)");
        return NULL;
    }
    PyObject *config = args[0], *stacks = args[1], *type = config_rec.type;
    if (!type) {
        PyErr_SetString(PyExc_RuntimeError, "holdem engine: HandConfig is not bound");
        return NULL;
    }
    if ((PyObject *)Py_TYPE(config) != type || !PyTuple_CheckExact(stacks)) Py_RETURN_NONE;
    PyObject *old = config_rec.get[0](config_rec.slot[0], config, type);
    if (!old) return NULL;
    Py_ssize_t n = PyTuple_Check(old) ? PyTuple_Size(old) : -1;
    Py_DECREF(old);
    if (PyTuple_Size(stacks) != n) Py_RETURN_NONE;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *chips = PyTuple_GetItem(stacks, i);
        if (!PyLong_CheckExact(chips)) Py_RETURN_NONE;
        int overflow = 0;
        long long value = PyLong_AsLongLongAndOverflow(chips, &overflow);
        if (overflow || value < 1 || value >= config_rec.max_chips) Py_RETURN_NONE;
    }
    PyObject *copy = config_rec.alloc((PyTypeObject *)type, 0);
    if (!copy) return NULL;
    if (config_rec.set[0](config_rec.slot[0], copy, stacks) < 0 ||
        config_rec.set[1](config_rec.slot[1], copy, args[2]) < 0) {
        Py_DECREF(copy);
        return NULL;
    }
    for (int i = 2; i < config_rec.n; i++) {
        PyObject *value = config_rec.get[i](config_rec.slot[i], config, type);
        int bad = !value || config_rec.set[i](config_rec.slot[i], copy, value) < 0;
        Py_XDECREF(value);
        if (bad) {
            Py_DECREF(copy);
            return NULL;
        }
    }
    return copy;
}

static PyMethodDef module_methods[] = {
    {"bind", (PyCFunction)(void (*)(void))bind, METH_FASTCALL, bind_doc},
    {"bind_outcome", (PyCFunction)(void (*)(void))bind_outcome, METH_FASTCALL, bind_outcome_doc},
    {"script_cards", (PyCFunction)(void (*)(void))script_cards, METH_FASTCALL, script_cards_doc},
    {"bind_config", (PyCFunction)(void (*)(void))bind_config, METH_FASTCALL, bind_config_doc},
    {"restack", (PyCFunction)(void (*)(void))restack, METH_FASTCALL, restack_doc},
    {"bind_json", (PyCFunction)(void (*)(void))hd_bind_json, METH_FASTCALL,
     "bind_json($module, view, slots, cards, statuses, kinds, phases, streets, /)\n--\n\n"
     "Binds the JSON writers to PlayerView (the names of its slots, in the order\n"
     "of holdem.views._VIEW_FIELDS) and to the texts of the cards (52), the\n"
     "statuses, and the members of ActionKind, Phase and Street."},
    {"view_json", (PyCFunction)(void (*)(void))hd_view_json, METH_FASTCALL,
     "view_json($module, view, since, config_text, /)\n--\n\n"
     "encode(view.to_dict(since)) (config_text: the configuration's JSON),\n"
     "written in C; None for a view with an outcome (the hand is over)."},
    {"record_json", (PyCFunction)(void (*)(void))hd_record_json, METH_O,
     "record_json($module, record, /)\n--\n\nencode(record.to_dict()), written in C."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_engine",
    "The state and rules of one hand in C (the base type of holdem.hand.Hand).", -1,
    module_methods, NULL, NULL, NULL, NULL,
};

static int intern(PyObject **slot, const char *text) {
    *slot = PyUnicode_InternFromString(text);
    return *slot ? 0 : -1;
}

PyMODINIT_FUNC PyInit__engine(void) {
    hd_empty_tuple = PyTuple_New(0);
    if (!hd_empty_tuple || intern(&s_verify_check, "verify_check") < 0 ||
        intern(&s_verify_call, "verify_call") < 0 || intern(&s_verify_fold, "verify_fold") < 0 ||
        intern(&s_verify_wager, "_verify_wager") < 0 ||
        intern(&s_all_in_kind, "_all_in_kind") < 0 ||
        intern(&s_turn_timeout, "verify_timeout") < 0 ||
        intern(&s_seat_kw, "seat") < 0 || intern(&s_to_kw, "to") < 0 ||
        intern(&s_seat_of, "_seat") < 0 || intern(&s_outcome, "outcome") < 0 ||
        intern(&s_outcome_cache, "_outcome") < 0 || intern(&s_cfg, "_cfg") < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    core_type = (PyTypeObject *)PyType_FromSpec(&core_spec);
    if (!core_type || PyModule_AddObject(m, "HandCore", (PyObject *)core_type) < 0) {
        Py_XDECREF((PyObject *)core_type);
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF((PyObject *)core_type);
    return m;
}
