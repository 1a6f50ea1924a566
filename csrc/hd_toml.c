/* hd_toml.c - the plain TOML of PHH hand histories, read in C (holdem._fastcall).
 *
 * read_toml(lines, start, decimal, time, max_depth) reads the lines of one
 * hand as tomllib reads them, as a tuple (data, action_lines, key_lines), or
 * gives None for anything it does not read: the caller then has tomllib read
 * the hand (and word the error, if there is one).  None is always a safe
 * answer, so this reader is conservative: it takes only ASCII outside
 * strings, only blanks and tabs as white space, and leaves escapes, inline
 * tables and anything unusual to tomllib.  What it does take it reads as
 * tomllib does (tests/test_histories.py compares the two on the corpus and
 * on random pieces of TOML):
 *
 *   - top-level `key = value` lines, keys of A-Z a-z 0-9 _ -, each key once;
 *     blank lines and `#` comments anywhere;
 *   - values: 'literal' and "basic" strings without escapes, numbers,
 *     true/false, local times (hh:mm:ss[.fraction], given to time(text)),
 *     arrays of those (nested up to max_depth, over several lines,
 *     with comments, a trailing comma allowed);
 *   - a number is an int when it is at most 18 characters without a point,
 *     an exponent or inf/nan, else decimal(text) (a decimal.Decimal);
 *   - action_lines holds the line of each string of the `actions` array,
 *     key_lines the line of each key (both numbered from start).
 */
#define Py_LIMITED_API 0x030B0000
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <string.h>

#define TOML_MAX_DEPTH 64 /* the most max_depth taken */

enum { NOT_READ = 0, READ = 1, FAILED = -1 };
enum { OPEN, ITEM, COMMA };

typedef struct {
    PyObject *lines;   /* the list of str */
    Py_ssize_t n;      /* how many */
    Py_ssize_t i;      /* the line being read */
    const char *s;     /* its UTF-8 text */
    Py_ssize_t len, pos;
    long start;
    PyObject *decimal; /* called with the text of a number that is no int */
    PyObject *time;    /* called with the text of a local time */
    int max_depth;
} reader_t;

static int is_blank(char c) { return c == ' ' || c == '\t'; }
static int is_key_char(char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '-';
}
static int is_digit(char c) { return c >= '0' && c <= '9'; }
/* Python's (?![\w:.-]) after a number, (?!\w) after true/false: a byte that
 * may continue a word (any non-ASCII byte counts, to be safe). */
static int continues_number(char c) {
    return is_key_char(c) || c == ':' || c == '.' || (unsigned char)c >= 0x80;
}
static int continues_word(char c) {
    return is_key_char(c) && c != '-' ? 1 : (unsigned char)c >= 0x80;
}

/* Loads line r->i: READ, NOT_READ (a control character: TOML forbids it,
 * and Python says where) or FAILED. */
static int load_line(reader_t *r) {
    PyObject *line = PyList_GetItem(r->lines, r->i);
    if (line == NULL) return FAILED;
    if (!PyUnicode_Check(line)) return NOT_READ;
    r->s = PyUnicode_AsUTF8AndSize(line, &r->len);
    if (r->s == NULL) {
        PyErr_Clear(); /* lone surrogates: left to Python */
        return NOT_READ;
    }
    for (Py_ssize_t k = 0; k < r->len; k++) {
        unsigned char c = (unsigned char)r->s[k];
        if ((c < 0x20 && c != '\t') || c == 0x7f) return NOT_READ;
    }
    r->pos = 0;
    return READ;
}

/* Skips blanks; NOT_READ if a non-ASCII byte comes first outside a string
 * (it may be white space to Python). */
static int skip_blanks(reader_t *r) {
    while (r->pos < r->len && is_blank(r->s[r->pos])) r->pos++;
    if (r->pos < r->len && (unsigned char)r->s[r->pos] >= 0x80) return NOT_READ;
    return READ;
}

static int two_digits(const char *s) { return is_digit(s[0]) && is_digit(s[1]); }

/* The local time at r->pos (hh:mm:ss, then maybe a point and digits), or NULL
 * with *status NOT_READ or FAILED. */
static PyObject *read_time(reader_t *r, int *status) {
    const char *s = r->s + r->pos;
    Py_ssize_t left = r->len - r->pos, size = 8;
    *status = NOT_READ;
    if (left < 8 || !two_digits(s) || s[2] != ':' || !two_digits(s + 3) || s[5] != ':' ||
        !two_digits(s + 6))
        return NULL;
    if (size + 1 < left && s[size] == '.' && is_digit(s[size + 1])) {
        size += 2;
        while (size < left && is_digit(s[size])) size++;
    }
    if (size < left && (continues_number(s[size]))) return NULL;
    PyObject *raw = PyUnicode_FromStringAndSize(s, size);
    PyObject *value = raw ? PyObject_CallFunctionObjArgs(r->time, raw, NULL) : NULL;
    Py_XDECREF(raw);
    if (value == NULL) {
        *status = FAILED;
        return NULL;
    }
    r->pos += size;
    *status = READ;
    return value;
}

/* The number at r->pos (its sign included) as an int or a Decimal, or NULL
 * with *status NOT_READ (not a number Python reads so) or FAILED. */
static PyObject *read_number(reader_t *r, int *status) {
    const char *s = r->s;
    Py_ssize_t p = r->pos, end = r->len, begin = p;
    int plain = 1; /* no point, exponent, inf or nan */
    *status = NOT_READ;
    if (end - p >= 3 && two_digits(s + p) && s[p + 2] == ':') return read_time(r, status);
    if (p < end && (s[p] == '+' || s[p] == '-')) p++;
    if (p + 3 <= end && (memcmp(s + p, "inf", 3) == 0 || memcmp(s + p, "nan", 3) == 0)) {
        p += 3;
        plain = 0;
    } else {
        if (p >= end || !is_digit(s[p])) return NULL;
        if (s[p] == '0') {
            p++;
        } else {
            while (p < end && is_digit(s[p])) p++;
        }
        if (p + 1 < end && s[p] == '.' && is_digit(s[p + 1])) {
            p += 2;
            while (p < end && is_digit(s[p])) p++;
            plain = 0;
        }
        if (p < end && (s[p] == 'e' || s[p] == 'E')) {
            Py_ssize_t q = p + 1;
            if (q < end && (s[q] == '+' || s[q] == '-')) q++;
            if (q < end && is_digit(s[q])) {
                while (q < end && is_digit(s[q])) q++;
                p = q;
                plain = 0;
            }
        }
    }
    if (p < end && continues_number(s[p])) return NULL; /* 1.5.3, 01 ... */
    Py_ssize_t size = p - begin;
    char text[32];
    PyObject *value;
    if (plain && size <= 18) {
        memcpy(text, s + begin, (size_t)size);
        text[size] = '\0';
        value = PyLong_FromString(text, NULL, 10);
    } else {
        PyObject *raw = PyUnicode_FromStringAndSize(s + begin, size);
        if (raw == NULL) {
            *status = FAILED;
            return NULL;
        }
        value = PyObject_CallFunctionObjArgs(r->decimal, raw, NULL);
        Py_DECREF(raw);
    }
    if (value == NULL) {
        *status = FAILED;
        return NULL;
    }
    r->pos = p;
    *status = READ;
    return value;
}

/* The string at r->pos (a quote), or NULL with *status NOT_READ or FAILED. */
static PyObject *read_string(reader_t *r, int *status) {
    char quote = r->s[r->pos];
    Py_ssize_t p = r->pos + 1;
    *status = NOT_READ;
    while (p < r->len && r->s[p] != quote) {
        if (quote == '"' && r->s[p] == '\\') return NULL; /* an escape: left to Python */
        p++;
    }
    if (p >= r->len) return NULL; /* not closed on its line */
    PyObject *value = PyUnicode_DecodeUTF8(r->s + r->pos + 1, p - r->pos - 1, NULL);
    if (value == NULL) {
        *status = FAILED;
        return NULL;
    }
    r->pos = p + 1;
    *status = READ;
    return value;
}

/* Reads the value of one key, from r->pos, over as many lines as its arrays
 * take: *out gets it.  READ, NOT_READ or FAILED. */
static int read_value(reader_t *r, int actions, PyObject *action_lines, PyObject **out) {
    PyObject *stack[TOML_MAX_DEPTH];
    int depth = 0, prev = OPEN, status = NOT_READ;
    PyObject *value = NULL;
    for (;;) {
        if (skip_blanks(r) != READ) goto done;
        char c = r->pos < r->len ? r->s[r->pos] : '\0';
        if (c == '\0' || c == '#') { /* the end of the line, or a comment to it */
            if (depth == 0) {
                if (value == NULL) goto done;
                *out = value;
                return READ;
            }
            if (++r->i >= r->n) goto done; /* an array left open */
            int loaded = load_line(r);
            if (loaded != READ) {
                status = loaded;
                goto done;
            }
            continue;
        }
        if (c == '[') {
            if ((depth == 0 && value != NULL) || (depth && prev == ITEM) ||
                depth >= r->max_depth)
                goto done;
            PyObject *list = PyList_New(0);
            if (list == NULL) goto failed;
            stack[depth++] = list;
            prev = OPEN;
            r->pos++;
            continue;
        }
        if (c == ']') {
            if (depth == 0) goto done;
            PyObject *closed = stack[--depth];
            if (depth) {
                int appended = PyList_Append(stack[depth - 1], closed);
                Py_DECREF(closed);
                if (appended < 0) goto failed;
            } else {
                value = closed;
            }
            prev = ITEM;
            r->pos++;
            continue;
        }
        if (c == ',') {
            if (depth == 0 || prev != ITEM) goto done;
            prev = COMMA;
            r->pos++;
            continue;
        }
        if ((value != NULL && depth == 0) || (depth && prev == ITEM)) goto done;
        PyObject *item;
        int got;
        if (c == '\'' || c == '"') {
            item = read_string(r, &got);
            if (item != NULL && actions && depth == 1) {
                PyObject *number = PyLong_FromLong(r->start + (long)r->i);
                if (number == NULL || PyList_Append(action_lines, number) < 0) {
                    Py_XDECREF(number);
                    Py_DECREF(item);
                    goto failed;
                }
                Py_DECREF(number);
            }
        } else if ((c == 't' || c == 'f') &&
                   (strncmp(r->s + r->pos, "true", 4) == 0 ||
                    strncmp(r->s + r->pos, "false", 5) == 0)) {
            Py_ssize_t size = c == 't' ? 4 : 5;
            if (r->pos + size > r->len ||
                (r->pos + size < r->len && continues_word(r->s[r->pos + size])))
                goto done;
            item = PyBool_FromLong(c == 't');
            got = READ;
            r->pos += size;
        } else {
            item = read_number(r, &got);
        }
        if (item == NULL) {
            status = got;
            goto done;
        }
        if (depth) {
            int appended = PyList_Append(stack[depth - 1], item);
            Py_DECREF(item);
            if (appended < 0) goto failed;
            prev = ITEM;
        } else {
            value = item;
        }
    }
failed:
    status = FAILED;
done:
    while (depth) Py_DECREF(stack[--depth]);
    Py_XDECREF(value);
    return status;
}

const char hd_read_toml_doc[] =
    "read_toml($module, lines, start, decimal, time, max_depth, /)\n--\n\n"
    "The plain TOML of one PHH hand (its lines, without line ends; start: the\n"
    "number of the first) as (data, action_lines, key_lines), or None where\n"
    "the Python reader must read it.  decimal(text) makes the numbers that are\n"
    "not ints, time(text) the local times; what they raise is raised.";

PyObject *hd_read_toml(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 5 || !PyList_Check(args[0]) || !PyCallable_Check(args[2]) ||
        !PyCallable_Check(args[3])) {
        PyErr_SetString(PyExc_TypeError, "read_toml(lines, start, decimal, time, max_depth)");
        return NULL;
    }
    reader_t r = {
        .lines = args[0], .n = PyList_Size(args[0]), .decimal = args[2], .time = args[3]};
    r.start = PyLong_AsLong(args[1]);
    long depth = PyLong_AsLong(args[4]);
    if (PyErr_Occurred()) return NULL;
    if (depth < 1 || depth > TOML_MAX_DEPTH) {
        PyErr_SetString(PyExc_ValueError, "read_toml: max_depth is 1 to 64");
        return NULL;
    }
    r.max_depth = (int)depth;
    PyObject *data = PyDict_New(), *action_lines = PyList_New(0), *key_lines = PyDict_New();
    PyObject *result = NULL;
    int status = FAILED;
    if (data == NULL || action_lines == NULL || key_lines == NULL) goto out;
    for (r.i = 0; r.i < r.n; r.i++) {
        status = load_line(&r);
        if (status != READ) goto out;
        status = NOT_READ;
        if (skip_blanks(&r) != READ) goto out;
        if (r.pos == r.len || r.s[r.pos] == '#') continue; /* blank, or a comment */
        Py_ssize_t begin = r.pos;
        while (r.pos < r.len && is_key_char(r.s[r.pos])) r.pos++;
        Py_ssize_t key_end = r.pos;
        if (key_end == begin || skip_blanks(&r) != READ || r.pos >= r.len ||
            r.s[r.pos] != '=')
            goto out;
        r.pos++;
        status = FAILED;
        PyObject *key = PyUnicode_FromStringAndSize(r.s + begin, key_end - begin);
        if (key == NULL) goto out;
        int seen = PyDict_Contains(data, key);
        PyObject *line = seen ? NULL : PyLong_FromLong(r.start + (long)r.i);
        if (seen || line == NULL || PyDict_SetItem(key_lines, key, line) < 0) {
            status = seen == 1 ? NOT_READ : FAILED; /* a key given twice: Python says so */
            Py_XDECREF(line);
            Py_DECREF(key);
            goto out;
        }
        Py_DECREF(line);
        int actions = key_end - begin == 7 && memcmp(r.s + begin, "actions", 7) == 0;
        PyObject *value = NULL;
        status = read_value(&r, actions, action_lines, &value);
        if (status == READ) {
            status = PyDict_SetItem(data, key, value) < 0 ? FAILED : READ;
            Py_DECREF(value);
        }
        Py_DECREF(key);
        if (status != READ) goto out;
    }
    result = PyTuple_Pack(3, data, action_lines, key_lines);
out:
    Py_XDECREF(data);
    Py_XDECREF(action_lines);
    Py_XDECREF(key_lines);
    (void)status;
    if (result == NULL && !PyErr_Occurred()) Py_RETURN_NONE; /* not read: Python reads it */
    return result;
}
