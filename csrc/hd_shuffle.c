/* hd_shuffle.c - the deals of holdem.cards.Deck for an exact random.Random,
 * registered in holdem._fastcall (hd_fastcall.c) as deal_cards().
 *
 * Deck shuffles lazily: a forward Fisher-Yates shuffle done as cards are
 * dealt.  Step i draws j uniformly from the m = size - i cards left, with
 * rejection: j = getrandbits(bits) while j >= m, bits = m.bit_length().
 * In Python that loop costs a call of getrandbits per draw; here it is one
 * C loop that takes the same Mersenne Twister words and leaves the
 * generator in the same state.  The deck is a bytearray (one byte a card),
 * so a swap is two byte moves.
 *
 * What an exact random.Random does (CPython, Modules/_randommodule.c):
 * - getrandbits(k), 0 < k <= 32, takes one 32-bit output and returns its top
 *   k bits.  So each draw of the loop above, rejected or not, takes exactly
 *   one output, of which it uses the top `bits` bits.
 * - random() takes two outputs, a then b, and returns
 *   ((a >> 5) * 2**26 + (b >> 6)) / 2**53, which is exact in a double; so
 *   random() * 2**53 gives back the top 27 bits of a and the top 26 of b.
 * So while two draws or more are left (each takes a word at least), one
 * random() call gives the words of the next two draws, rejected or not, as
 * long as they use 26 bits or fewer (m < 2**26); the last draw, or one with
 * more bits, calls getrandbits(bits) as the Python loop does.  No word is
 * taken that the Python loop would not take, so the cards and the
 * generator's state afterwards are the same.  (getrandbits(32 * w) gives w
 * words in one call too, but turning its int into words through
 * int.to_bytes costs more than w / 2 calls of random(), measured.)
 *
 * Both are called through their C functions (PyCFunction_GetFunction of the
 * limited API) rather than as Python calls, which would cost several times
 * as much.  That is done only when random.Random's methods are
 * _random.Random's (as in every CPython so far) and take the arguments
 * expected (METH_NOARGS, METH_O); otherwise random.Random.getrandbits is
 * called normally, word by word, and random() is not used.  With the C
 * functions the loop runs no Python code: a Ctrl-C is seen when it returns.
 */
#define Py_LIMITED_API 0x030B0000
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>

#define PAIR_MAX_BITS 26 /* random() gives the top 26 bits of its second word */

static PyObject *random_type;         /* random.Random, the one class served */
static PyObject *getrandbits_method;  /* random.Random.getrandbits */
static PyCFunction getrandbits_c;     /* its C function if it is _random.Random's */
static PyCFunction random_c;          /* _random.Random.random's if random.Random's is it
                                       * and getrandbits_c is set: then pairs are taken */
static PyObject *bit_counts[33];      /* the ints 0..32 */

/* New reference to module_name.class_name, or to its attribute attr if not NULL. */
static PyObject *lookup(const char *module_name, const char *class_name, const char *attr) {
    PyObject *module = PyImport_ImportModule(module_name);
    if (!module) return NULL;
    PyObject *cls = PyObject_GetAttrString(module, class_name);
    Py_DECREF(module);
    if (!cls || !attr) return cls;
    PyObject *value = PyObject_GetAttrString(cls, attr);
    Py_DECREF(cls);
    return value;
}

/* The C function of method descriptor `method` bound to `rng` if it is a
 * builtin taking `flags` (METH_NOARGS, METH_O), else NULL; -1 on error. */
static int c_function(PyObject *method, PyObject *rng, int flags, PyCFunction *out) {
    PyObject *bound = PyObject_CallMethod(method, "__get__", "O", rng);
    if (!bound) return -1;
    *out = NULL;
    if (PyCFunction_Check(bound) && PyCFunction_GetSelf(bound) == rng &&
        PyCFunction_GetFlags(bound) == flags)
        *out = PyCFunction_GetFunction(bound);
    Py_DECREF(bound);
    return 0;
}

/* Checks that rng is an exact random.Random, looking that class and its
 * methods up the first time (and again if the random module was reloaded).
 * 0 if it is, -1 with an exception if not or on error. */
static int check_rng(PyObject *rng) {
    if (random_type && (PyObject *)Py_TYPE(rng) == random_type) return 0;
    int result = -1;
    PyObject *type = lookup("random", "Random", NULL);
    PyObject *getrandbits = NULL, *random = NULL, *base_getrandbits = NULL, *base_random = NULL;
    PyCFunction getrandbits_fn = NULL, random_fn = NULL;
    if (!type) goto done;
    if ((PyObject *)Py_TYPE(rng) != type) {
        PyErr_SetString(PyExc_TypeError, "deal_cards() takes an exact random.Random");
        goto done;
    }
    if (!(getrandbits = PyObject_GetAttrString(type, "getrandbits")) ||
        !(random = PyObject_GetAttrString(type, "random")) ||
        !(base_getrandbits = lookup("_random", "Random", "getrandbits")) ||
        !(base_random = lookup("_random", "Random", "random")))
        goto done;
    /* the word-by-word reading above holds for _random.Random's methods */
    if (getrandbits == base_getrandbits &&
        c_function(getrandbits, rng, METH_O, &getrandbits_fn) < 0)
        goto done;
    if (getrandbits_fn && random == base_random &&
        c_function(random, rng, METH_NOARGS, &random_fn) < 0)
        goto done;
    for (int k = 0; k <= 32; k++)
        if (!bit_counts[k] && !(bit_counts[k] = PyLong_FromLong(k))) goto done;
    Py_XDECREF(random_type);
    Py_XDECREF(getrandbits_method);
    random_type = type;
    getrandbits_method = getrandbits;
    type = getrandbits = NULL; /* kept */
    getrandbits_c = getrandbits_fn;
    random_c = random_fn;
    result = 0;
done:
    Py_XDECREF(type);
    Py_XDECREF(getrandbits);
    Py_XDECREF(random);
    Py_XDECREF(base_getrandbits);
    Py_XDECREF(base_random);
    return result;
}

/* rng.random() through its C function (only called when random_c is set). */
static PyObject *call_random(PyObject *rng) { return random_c(rng, NULL); }

/* rng.getrandbits(k), through its C function where it could be had. */
static PyObject *call_getrandbits(PyObject *rng, int k) {
    if (getrandbits_c) return getrandbits_c(rng, bit_counts[k]);
    return PyObject_CallFunctionObjArgs(getrandbits_method, rng, bit_counts[k], NULL);
}

/* Puts the top bits of the next two words in words[0], words[1] (the bits
 * below them zero).  0 on success, -1 on error. */
static int next_pair(PyObject *rng, uint32_t *words) {
    PyObject *value = call_random(rng);
    if (!value) return -1;
    double x = PyFloat_AsDouble(value);
    Py_DECREF(value);
    if (x == -1.0 && PyErr_Occurred()) return -1;
    if (!(x >= 0.0 && x < 1.0)) {
        PyErr_SetString(PyExc_ValueError, "deal_cards(): random() gave a value outside [0, 1)");
        return -1;
    }
    uint64_t both = (uint64_t)(x * 9007199254740992.0); /* * 2**53: exact */
    words[0] = (uint32_t)(both >> 26) << 5;
    words[1] = (uint32_t)(both & 0x3FFFFFF) << 6;
    return 0;
}

/* Puts the next word's top `bits` bits in words[0] as above. */
static int next_word(PyObject *rng, int bits, uint32_t *words) {
    PyObject *value = call_getrandbits(rng, bits);
    if (!value) return -1;
    unsigned long top = PyLong_AsUnsignedLong(value);
    Py_DECREF(value);
    if (top == (unsigned long)-1 && PyErr_Occurred()) return -1;
    if ((uint64_t)top >> bits) { /* bits <= 32 */
        PyErr_SetString(PyExc_ValueError, "deal_cards(): getrandbits() gave too many bits");
        return -1;
    }
    words[0] = bits == 32 ? (uint32_t)top : (uint32_t)top << (32 - bits);
    return 0;
}

static int bit_length(uint32_t m) {
    int bits = 0;
    while (m) {
        bits++;
        m >>= 1;
    }
    return bits;
}

/* The forward Fisher-Yates steps from..to-1 on the bytearray cards of
 * `size` bytes.  0 on success, -1 on error (the steps before it are done). */
static int draw(PyObject *cards, uint32_t size, uint32_t from, uint32_t to, PyObject *rng) {
    uint32_t words[2];
    uint32_t i = from;
    uint32_t m = size - i; /* cards left to draw from */
    int bits = bit_length(m);
    unsigned char *deck = (unsigned char *)PyByteArray_AsString(cards);
    while (i < to) {
        int n = 2; /* words in hand */
        if (to - i >= 2 && bits <= PAIR_MAX_BITS && random_c) {
            if (next_pair(rng, words) < 0) return -1;
        } else {
            if (next_word(rng, bits, words) < 0) return -1;
            n = 1;
            if (!getrandbits_c) { /* a Python call, which may have changed the bytearray */
                deck = (unsigned char *)PyByteArray_AsString(cards);
                if (PyByteArray_Size(cards) != (Py_ssize_t)size) {
                    PyErr_SetString(PyExc_RuntimeError, "deal_cards(): the deck changed size");
                    return -1;
                }
            }
        }
        for (int k = 0; k < n; k++) { /* without branches: a rejection is a coin toss */
            uint32_t j = words[k] >> (32 - bits);
            uint32_t accept = j < m;
            j &= 0U - accept; /* a rejected draw swaps card i with itself */
            unsigned char card = deck[i];
            deck[i] = deck[i + j];
            deck[i + j] = card;
            i += accept;
            m -= accept;
            bits -= m < (UINT32_C(1) << (bits - 1)); /* bits = m.bit_length() */
        }
    }
    return 0;
}

const char hd_deal_cards_doc[] =
    "deal_cards($module, cards, start, end, drawn, rng, /)\n--\n\n"
    "The cards[start:end] of the bytearray cards as a list of ints, after the\n"
    "forward Fisher-Yates steps drawn..end-1 (none if drawn >= end) done on it\n"
    "in place as holdem.cards.Deck's Python loop does them: step i swaps\n"
    "cards[i] and cards[i + j], j = rng.getrandbits(m.bit_length()) drawn again\n"
    "while j >= m, m = len(cards) - i.  rng must be an exact random.Random; it\n"
    "is left in the same state as by that loop.";

PyObject *hd_deal_cards(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    Py_ssize_t bounds[3]; /* start, end, drawn */
    (void)self;
    if (nargs != 5) {
        PyErr_Format(PyExc_TypeError, "deal_cards() takes 5 arguments (%zd given)", nargs);
        return NULL;
    }
    PyObject *cards = args[0];
    PyObject *rng = args[4];
    if (!PyByteArray_Check(cards)) {
        PyErr_SetString(PyExc_TypeError, "deal_cards(): cards must be a bytearray");
        return NULL;
    }
    for (int k = 0; k < 3; k++) {
        bounds[k] = PyLong_AsSsize_t(args[k + 1]);
        if (bounds[k] == -1 && PyErr_Occurred()) return NULL;
    }
    Py_ssize_t start = bounds[0], end = bounds[1], drawn = bounds[2];
    Py_ssize_t size = PyByteArray_Size(cards);
    if (size < 0) return NULL;
    if (start < 0 || start > end || end > size || drawn < 0 || drawn > size) {
        PyErr_Format(PyExc_ValueError,
                     "deal_cards(): need 0 <= start <= end <= %zd and 0 <= drawn <= %zd, "
                     "got %zd, %zd, %zd",
                     size, size, start, end, drawn);
        return NULL;
    }
    if ((uint64_t)size > UINT32_MAX) { /* a draw of more than 32 bits takes more words */
        PyErr_SetString(PyExc_ValueError, "deal_cards(): too many cards");
        return NULL;
    }
    if (drawn < end) {
        if (check_rng(rng) < 0) return NULL;
        if (draw(cards, (uint32_t)size, (uint32_t)drawn, (uint32_t)end, rng) < 0) return NULL;
    }
    PyObject *dealt = PyList_New(end - start);
    if (!dealt) return NULL;
    /* after PyList_New, which may run a collection and so Python code */
    const unsigned char *deck = (const unsigned char *)PyByteArray_AsString(cards);
    if (PyByteArray_Size(cards) != size) {
        Py_DECREF(dealt);
        PyErr_SetString(PyExc_RuntimeError, "deal_cards(): the deck changed size");
        return NULL;
    }
    for (Py_ssize_t k = start; k < end; k++) {
        PyObject *card = PyLong_FromLong(deck[k]); /* a cached small int */
        if (!card) {
            Py_DECREF(dealt);
            return NULL;
        }
        PyList_SetItem(dealt, k - start, card); /* steals card; cannot fail here */
    }
    return dealt;
}
