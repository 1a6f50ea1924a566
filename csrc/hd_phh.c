/* hd_phh.c - the plain PHH hand, built in C (holdem._fastcall).
 *
 * build_phh(data, action_lines, line, context) takes the TOML data of one
 * PHH hand (a dict, as read_toml or tomllib gives it) and builds the parts
 * of its HandHistory, or gives None for anything that is not plain: the
 * Python reader (holdem.histories.phh._Reading) then builds the hand, and
 * words the error if there is one.  None is always a safe answer, so this
 * builder is conservative.  A hand is plain when:
 *
 *   - the variant is NT or FT, every required field is there, 2 to
 *     max_players players, and every per-player array has one value each;
 *   - every amount (antes, blinds, stacks, finishing stacks, winnings, the
 *     bet sizes, the bets of the actions) is an int from 0 below max_amount
 *     (the unit is 1);
 *   - the names are strings, the actions ASCII text without control
 *     characters, each a deal (`d dh pN CARDS`, `d db CARDS`) or a move
 *     (`pN f`, `pN cc`, `pN cbr AMOUNT`, `pN sm`, `pN sm -`, `pN sm CARDS`)
 *     of a player of the hand, with a `# comment` or not;
 *   - none of the user fields that change the model is there (context's
 *     `refused`), no muck of a player who won uncontested, and no
 *     ante_trimming_status = true with antes that differ.
 *
 * What it builds is what _Reading builds (tests/test_histories.py compares
 * the two on the corpus and on mutated hands): a tuple (variant, players,
 * antes, blinds, small_bet, big_bet, min_bet, moves, finishing_stacks,
 * winnings), the players and moves as the model's named tuples, the moves
 * in the model's order (an all-in's shows after the board), the forced bets
 * per player (heads-up, PHH's [small, big] turned round), finishing_stacks
 * and winnings None when the file has none.
 *
 * context: (Move, Player, kinds, refused, max_players, max_amount), kinds
 * the move kinds (deal_hole, deal_board, fold, check_call, bet_raise, show,
 * muck) and refused a tuple of keys.
 */
#define Py_LIMITED_API 0x030B0000
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <string.h>

enum { K_DEAL_HOLE, K_DEAL_BOARD, K_FOLD, K_CHECK_CALL, K_BET_RAISE, K_SHOW, K_MUCK, NKINDS };
#define MAXN 64   /* the most players a context may allow */
#define MAXARGS 4 /* the most words of an action */

typedef struct {
    PyObject *move_type, *player_type;
    allocfunc move_alloc, player_alloc;
    PyObject *kinds[NKINDS];
    PyObject *refused;
    long max_players;
    long long max_amount;
} context_t;

static int read_context(PyObject *obj, context_t *c) {
    if (!PyTuple_Check(obj) || PyTuple_Size(obj) != 6) goto bad;
    c->move_type = PyTuple_GetItem(obj, 0);
    c->player_type = PyTuple_GetItem(obj, 1);
    PyObject *kinds = PyTuple_GetItem(obj, 2);
    c->refused = PyTuple_GetItem(obj, 3);
    if (!PyType_Check(c->move_type) || !PyType_Check(c->player_type) || !PyTuple_Check(kinds) ||
        PyTuple_Size(kinds) != NKINDS || !PyTuple_Check(c->refused))
        goto bad;
    for (int k = 0; k < NKINDS; k++) c->kinds[k] = PyTuple_GetItem(kinds, k);
    c->max_players = PyLong_AsLong(PyTuple_GetItem(obj, 4));
    c->max_amount = PyLong_AsLongLong(PyTuple_GetItem(obj, 5));
    if (PyErr_Occurred()) return -1;
    if (c->max_players < 2 || c->max_players > MAXN) goto bad;
    c->move_alloc = (allocfunc)PyType_GetSlot((PyTypeObject *)c->move_type, Py_tp_alloc);
    c->player_alloc = (allocfunc)PyType_GetSlot((PyTypeObject *)c->player_type, Py_tp_alloc);
    if (c->move_alloc == NULL || c->player_alloc == NULL) goto bad;
    return 0;
bad:
    PyErr_SetString(PyExc_TypeError,
                    "build_phh: context is (Move, Player, kinds, refused, max_players, "
                    "max_amount)");
    return -1;
}

/* An amount: 1 if obj is an exact int from 0 below the limit (in *out), 0 if not. */
static int amount_of(PyObject *obj, long long limit, long long *out) {
    if (obj == NULL || !PyLong_CheckExact(obj)) return 0;
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(obj, &overflow);
    if (overflow || (v == -1 && PyErr_Occurred())) {
        PyErr_Clear();
        return 0;
    }
    if (v < 0 || v >= limit) return 0;
    *out = v;
    return 1;
}

/* The list data[key] if it is one of n values, else NULL (a borrowed reference). */
static PyObject *per_player(PyObject *data, const char *key, Py_ssize_t n) {
    PyObject *value = PyDict_GetItemString(data, key);
    if (value == NULL || !PyList_Check(value) || PyList_Size(value) != n) return NULL;
    return value;
}

/* The amounts of a per-player array as a new tuple (turned round heads-up when
 * `turn`), or NULL with no exception set when one is not plain. */
static PyObject *amounts(PyObject *list, Py_ssize_t n, long long limit, int turn) {
    PyObject *out = PyTuple_New(n);
    if (out == NULL) return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PyList_GetItem(list, i);
        long long v;
        if (!amount_of(item, limit, &v)) {
            Py_DECREF(out);
            return NULL;
        }
        Py_INCREF(item);
        PyTuple_SetItem(out, turn && n == 2 ? 1 - i : i, item);
    }
    return out;
}

/* --- actions */

typedef struct {
    const char *s; /* the word (not NUL-terminated) */
    Py_ssize_t len;
} word_t;

/* ASCII digits making a number below 10^18: 1 (in *out) or 0. */
static int whole(word_t w, long long *out) {
    if (w.len < 1 || w.len > 18) return 0;
    long long v = 0;
    for (Py_ssize_t i = 0; i < w.len; i++) {
        if (w.s[i] < '0' || w.s[i] > '9') return 0;
        v = v * 10 + (w.s[i] - '0');
    }
    *out = v;
    return 1;
}

static int rank_of(char c) {
    const char *ranks = "23456789TJQKA", *at = strchr(ranks, c);
    return c && at ? (int)(at - ranks) : -1;
}

static int suit_of(char c) {
    const char *suits = "cdhs", *at = strchr(suits, c);
    return c && at ? (int)(at - suits) : -1;
}

/* Run-together cards (`AsKd`, `??`) as a new tuple of ints and None, or NULL
 * (no exception set) when malformed or not `count` cards (1 to 3 known cards
 * when count is 0). */
static PyObject *cards_of(word_t w, Py_ssize_t count) {
    if (w.len % 2 || w.len == 0) return NULL;
    Py_ssize_t n = w.len / 2;
    if (count ? n != count : n > 3) return NULL;
    PyObject *out = PyTuple_New(n);
    if (out == NULL) return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        char r = w.s[2 * i], u = w.s[2 * i + 1];
        PyObject *card;
        if (r == '?' && u == '?' && count) {
            card = Py_None;
            Py_INCREF(card);
        } else {
            int rank = rank_of(r), suit = suit_of(u);
            card = rank < 0 || suit < 0 ? NULL : PyLong_FromLong(rank * 4 + suit);
        }
        if (card == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SetItem(out, i, card);
    }
    return out;
}

/* The player of `pN` (0-based, below n), or -1. */
static int player_of(word_t w, Py_ssize_t n) {
    long long number;
    if (w.len < 2 || w.s[0] != 'p') return -1;
    word_t digits = {w.s + 1, w.len - 1};
    if (!whole(digits, &number) || number < 1 || number > n) return -1;
    return (int)(number - 1);
}

static int is(word_t w, const char *text) {
    return (size_t)w.len == strlen(text) && memcmp(w.s, text, (size_t)w.len) == 0;
}

/* One action as a Move (a new reference), NULL with no exception set when it
 * is not plain, NULL with an exception on error. */
static PyObject *move_of(const context_t *c, PyObject *text, PyObject *line, Py_ssize_t n,
                         int *kind, int *actor) {
    Py_ssize_t len;
    const char *s = PyUnicode_AsUTF8AndSize(text, &len);
    if (s == NULL) { /* a lone surrogate (not ASCII either): Python reads it */
        if (PyErr_ExceptionMatches(PyExc_UnicodeEncodeError)) PyErr_Clear();
        return NULL;
    }
    Py_ssize_t end = len; /* the action without its comment */
    for (Py_ssize_t i = 0; i < len; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch < 0x20 || ch >= 0x7f) return NULL; /* Python splits and strips those */
        if (ch == '#' && end == len) end = i;
    }
    word_t args[MAXARGS];
    int nargs = 0;
    for (Py_ssize_t i = 0; i < end;) {
        if (s[i] == ' ') {
            i++;
            continue;
        }
        if (nargs == MAXARGS) return NULL;
        Py_ssize_t j = i;
        while (j < end && s[j] != ' ') j++;
        args[nargs++] = (word_t){s + i, j - i};
        i = j;
    }
    if (nargs < 2) return NULL; /* a comment alone, or malformed */
    PyObject *cards = NULL, *to = NULL;
    *actor = -1;
    if (is(args[0], "d")) {
        if (is(args[1], "db") && nargs == 3) {
            *kind = K_DEAL_BOARD;
            cards = cards_of(args[2], 0);
        } else if (is(args[1], "dh") && nargs == 4) {
            *kind = K_DEAL_HOLE;
            *actor = player_of(args[2], n);
            cards = *actor < 0 ? NULL : cards_of(args[3], 2);
        }
        if (cards == NULL) return NULL;
    } else {
        *actor = player_of(args[0], n);
        if (*actor < 0) return NULL;
        long long amount;
        if (is(args[1], "f") && nargs == 2)
            *kind = K_FOLD;
        else if (is(args[1], "cc") && nargs == 2)
            *kind = K_CHECK_CALL;
        else if (is(args[1], "cbr") && nargs == 3 && whole(args[2], &amount) &&
                 amount < c->max_amount) {
            *kind = K_BET_RAISE;
            to = PyLong_FromLongLong(amount);
            if (to == NULL) return NULL;
        } else if (is(args[1], "sm") && nargs == 2)
            *kind = K_MUCK;
        else if (is(args[1], "sm") && nargs == 3) {
            *kind = K_SHOW;
            cards = is(args[2], "-") ? PyTuple_Pack(2, Py_None, Py_None) : cards_of(args[2], 2);
            if (cards == NULL) return NULL;
        } else
            return NULL;
    }
    PyObject *comment = Py_None;
    Py_INCREF(comment);
    if (end < len) {
        Py_ssize_t a = end + 1, b = len;
        while (a < b && s[a] == ' ') a++;
        while (b > a && s[b - 1] == ' ') b--;
        Py_DECREF(comment);
        comment = PyUnicode_FromStringAndSize(s + a, b - a);
    }
    PyObject *items[8] = {
        c->kinds[*kind],
        *actor < 0 ? Py_None : PyLong_FromLong(*actor),
        to ? to : Py_None,
        cards ? cards : PyTuple_New(0),
        line,
        comment,
        Py_False,
        Py_None,
    };
    Py_INCREF(items[0]);
    if (*actor < 0) Py_INCREF(Py_None);
    if (!to) Py_INCREF(Py_None);
    Py_INCREF(line);
    Py_INCREF(Py_False);
    Py_INCREF(Py_None);
    PyObject *move = c->move_alloc((PyTypeObject *)c->move_type, 8);
    int bad = move == NULL;
    for (int i = 0; i < 8; i++) {
        if (items[i] == NULL) bad = 1;
        if (bad)
            Py_XDECREF(items[i]);
        else
            PyTuple_SetItem(move, i, items[i]);
    }
    if (bad) {
        Py_XDECREF(move);
        if (!PyErr_Occurred()) PyErr_NoMemory();
        return NULL;
    }
    return move;
}

/* The moves of the actions in the model's order (a new tuple), or NULL (an
 * exception set or not, as move_of). */
static PyObject *moves_of(const context_t *c, PyObject *actions, PyObject *action_lines,
                          PyObject *line, Py_ssize_t n) {
    Py_ssize_t count = PyList_Size(actions), known = PyList_Size(action_lines);
    PyObject *moves = PyTuple_New(count);
    int *kinds = PyMem_Malloc(sizeof(int) * (size_t)(count ? count : 1));
    if (moves == NULL || kinds == NULL) {
        Py_XDECREF(moves);
        PyMem_Free(kinds);
        return PyErr_NoMemory();
    }
    unsigned long long folded = 0;
    int nfolded = 0, last = -1;
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *where = i < known ? PyList_GetItem(action_lines, i) : line;
        int kind, actor;
        PyObject *move = move_of(c, PyList_GetItem(actions, i), where, n, &kind, &actor);
        if (move == NULL) goto fail;
        PyTuple_SetItem(moves, i, move);
        kinds[i] = kind;
        if (kind == K_FOLD && !(folded >> actor & 1)) {
            folded |= 1ULL << actor;
            nfolded++;
        } else if (kind == K_MUCK && nfolded == n - 1 && !(folded >> actor & 1))
            goto fail; /* a muck by the player who won uncontested: Python warns */
        if (kind == K_FOLD || kind == K_CHECK_CALL || kind == K_BET_RAISE || kind == K_DEAL_HOLE)
            last = (int)i;
    }
    /* an all-in's shows after the whole board, as the showdown comes */
    Py_ssize_t boards = 0;
    for (Py_ssize_t i = last + 1; i < count; i++) boards += kinds[i] == K_DEAL_BOARD;
    if (boards && boards < count - last - 1) {
        PyObject *ordered = PyTuple_New(count);
        if (ordered == NULL) goto fail;
        Py_ssize_t at = 0;
        for (Py_ssize_t i = 0; i <= last; i++) {
            PyObject *m = PyTuple_GetItem(moves, i);
            Py_INCREF(m);
            PyTuple_SetItem(ordered, at++, m);
        }
        for (int pass = 0; pass < 2; pass++)
            for (Py_ssize_t i = last + 1; i < count; i++)
                if ((kinds[i] == K_DEAL_BOARD) == (pass == 0)) {
                    PyObject *m = PyTuple_GetItem(moves, i);
                    Py_INCREF(m);
                    PyTuple_SetItem(ordered, at++, m);
                }
        Py_DECREF(moves);
        moves = ordered;
    }
    PyMem_Free(kinds);
    return moves;
fail:
    PyMem_Free(kinds);
    Py_DECREF(moves);
    return NULL;
}

/* --- the hand */

static PyObject *players_of(const context_t *c, PyObject *data, PyObject *stacks, Py_ssize_t n) {
    PyObject *names = per_player(data, "players", n), *seats = per_player(data, "seats", n);
    PyObject *out = PyTuple_New(n);
    if (out == NULL) return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *name = names ? PyList_GetItem(names, i) : Py_None;
        if (name != Py_None && !PyUnicode_CheckExact(name)) goto fail; /* str(name): Python */
        if (name != Py_None && PyUnicode_GetLength(name) == 0) name = Py_None;
        PyObject *seat = seats ? PyList_GetItem(seats, i) : Py_None;
        if (!PyLong_Check(seat)) seat = Py_None;
        PyObject *player = c->player_alloc((PyTypeObject *)c->player_type, 3);
        if (player == NULL) goto fail;
        PyObject *items[3] = {name, PyList_GetItem(stacks, i), seat};
        for (int k = 0; k < 3; k++) {
            Py_INCREF(items[k]);
            PyTuple_SetItem(player, k, items[k]);
        }
        PyTuple_SetItem(out, i, player);
    }
    return out;
fail:
    Py_DECREF(out);
    return NULL;
}

/* A required bet size: 1 if it is a plain amount (a new reference in *out), else 0. */
static int bet_size(PyObject *data, const char *key, long long limit, PyObject **out) {
    PyObject *value = PyDict_GetItemString(data, key);
    long long v;
    if (!amount_of(value, limit, &v)) return 0;
    *out = Py_NewRef(value);
    return 1;
}

/* Whether the values of a list are exact ints, all the same (0 for anything
 * else: amounts() refuses it all the same).  No Python code runs, so nothing
 * can change the data whose items the caller holds borrowed. */
static int same_values(PyObject *list) {
    Py_ssize_t n = PyList_Size(list);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PyList_GetItem(list, i);
        if (!PyLong_CheckExact(item)) return 0;
        int eq = PyObject_RichCompareBool(PyList_GetItem(list, 0), item, Py_EQ);
        if (eq != 1) {
            PyErr_Clear();
            return 0;
        }
    }
    return 1;
}

const char hd_build_phh_doc[] =
    "build_phh($module, data, action_lines, line, context, /)\n--\n\n"
    "The parts of the HandHistory of one plain PHH hand (its TOML data; the line\n"
    "of each action, and of the hand), or None where the Python reader builds it:\n"
    "(variant, players, antes, blinds, small_bet, big_bet, min_bet, moves,\n"
    "finishing_stacks, winnings).  context: (Move, Player, kinds, refused,\n"
    "max_players, max_amount).";

PyObject *hd_build_phh(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    context_t c;
    if (nargs != 4 || !PyDict_Check(args[0]) || !PyList_Check(args[1]) ||
        !PyLong_Check(args[2])) {
        PyErr_SetString(PyExc_TypeError, "build_phh(data, action_lines, line, context)");
        return NULL;
    }
    if (read_context(args[3], &c) < 0) return NULL;
    PyObject *data = args[0], *line = args[2];
    /* keys exactly str: looking one up runs no Python code (the == of another
     * key could change the data while its values are held borrowed) */
    Py_ssize_t at = 0;
    PyObject *key, *value;
    while (PyDict_Next(data, &at, &key, &value))
        if (!PyUnicode_CheckExact(key)) Py_RETURN_NONE;
    for (Py_ssize_t i = 0; i < PyTuple_Size(c.refused); i++) {
        int has = PyDict_Contains(data, PyTuple_GetItem(c.refused, i));
        if (has) return has < 0 ? NULL : Py_NewRef(Py_None);
    }
    PyObject *variant = PyDict_GetItemString(data, "variant");
    if (variant == NULL || !PyUnicode_CheckExact(variant)) Py_RETURN_NONE;
    int fixed = PyUnicode_CompareWithASCIIString(variant, "FT") == 0;
    if (!fixed && PyUnicode_CompareWithASCIIString(variant, "NT") != 0) Py_RETURN_NONE;
    PyObject *stacks = PyDict_GetItemString(data, "starting_stacks");
    PyObject *actions = PyDict_GetItemString(data, "actions");
    if (stacks == NULL || !PyList_Check(stacks) || actions == NULL || !PyList_Check(actions))
        Py_RETURN_NONE;
    Py_ssize_t n = PyList_Size(stacks);
    if (n < 2 || n > c.max_players) Py_RETURN_NONE;
    static const char *arrays[] = {"antes", "blinds_or_straddles", "players", "seats",
                                   "finishing_stacks", "winnings"};
    for (size_t k = 0; k < sizeof arrays / sizeof *arrays; k++) {
        int required = k < 2;
        if ((required || PyDict_GetItemString(data, arrays[k]) != NULL) &&
            per_player(data, arrays[k], n) == NULL)
            Py_RETURN_NONE;
    }
    for (Py_ssize_t i = 0; i < PyList_Size(actions); i++)
        if (!PyUnicode_CheckExact(PyList_GetItem(actions, i))) Py_RETURN_NONE; /* as _Reading */
    PyObject *trimming = PyDict_GetItemString(data, "ante_trimming_status");
    if (trimming == Py_True && !same_values(per_player(data, "antes", n))) Py_RETURN_NONE;

    PyObject *parts[10] = {NULL};
    PyObject *finishing = per_player(data, "finishing_stacks", n);
    PyObject *winnings = per_player(data, "winnings", n);
    parts[0] = Py_NewRef(variant);
    parts[2] = amounts(per_player(data, "antes", n), n, c.max_amount, 1);
    parts[3] = parts[2] ? amounts(per_player(data, "blinds_or_straddles", n), n, c.max_amount, 1)
                        : NULL;
    PyObject *stack_amounts = parts[3] ? amounts(stacks, n, c.max_amount, 0) : NULL;
    parts[8] = !stack_amounts   ? NULL
               : finishing ? amounts(finishing, n, c.max_amount, 0)
                           : Py_NewRef(Py_None);
    parts[9] = !parts[8]   ? NULL
               : winnings ? amounts(winnings, n, c.max_amount, 0)
                          : Py_NewRef(Py_None);
    Py_XDECREF(stack_amounts);
    PyObject *result = NULL;
    if (parts[9] == NULL) goto out;
    /* the bet sizes of the variant (another variant's are fields of the file's own) */
    if (fixed ? !bet_size(data, "small_bet", c.max_amount, &parts[4]) ||
                    !bet_size(data, "big_bet", c.max_amount, &parts[5])
              : !bet_size(data, "min_bet", c.max_amount, &parts[6]))
        goto out;
    for (int k = 4; k <= 6; k++)
        if (parts[k] == NULL) parts[k] = PyLong_FromLong(0);
    if (parts[4] == NULL || parts[5] == NULL || parts[6] == NULL) goto out;
    parts[1] = players_of(&c, data, stacks, n);
    if (parts[1] == NULL) goto out;
    parts[7] = moves_of(&c, actions, args[1], line, n);
    if (parts[7] == NULL) goto out;
    result = PyTuple_New(10);
    if (result == NULL) goto out;
    for (int k = 0; k < 10; k++) {
        PyTuple_SetItem(result, k, parts[k]);
        parts[k] = NULL;
    }
out:
    for (int k = 0; k < 10; k++) Py_XDECREF(parts[k]);
    if (result == NULL && !PyErr_Occurred()) Py_RETURN_NONE; /* not plain: Python builds it */
    return result;
}
