/* hd_hand.c - the rules of one hand (RULES.md R3-R10): posting the forced
 * bets, dealing, the betting actions and the turn order, the showdown
 * defaults, the pots.  Every function works on a HandCore's state and
 * appends the log's records; hd_engine.c is the Python type on top.
 */
#include "hd_hand.h"

const hd_tables_t *hd_eval_tables;
PyObject *hd_kinds[NKINDS];
PyObject *hd_phases[NPHASES];
PyObject *hd_streets[NSTREETS];
PyObject *hd_action_type;
allocfunc hd_action_alloc;
PyObject *hd_empty_tuple;

/* ------------------------------------------------------------ records */

PyObject *hd_seat_obj(HandCore *h, int p) {
    if (p < 0) Py_RETURN_NONE;
    PyObject *o = PyTuple_GetItem(h->nos, p);
    Py_XINCREF(o);
    return o;
}

/* A new instance of a named tuple type with n items, filled by the caller
 * with PyTuple_SetItem (tuple.__new__ without the intermediate tuple). */
PyObject *hd_new_named(PyObject *type, allocfunc alloc, Py_ssize_t n) {
    return alloc((PyTypeObject *)type, n);
}

/* Fills a new tuple (NULL: its allocation failed) with n items whose
 * references it steals; NULL (everything released) if any is NULL. */
PyObject *hd_fill(PyObject *tuple, PyObject **items, int n) {
    int bad = !tuple;
    for (int i = 0; i < n; i++) {
        if (!items[i]) bad = 1;
        if (bad)
            Py_XDECREF(items[i]);
        else
            PyTuple_SetItem(tuple, i, items[i]);
    }
    if (bad) {
        Py_XDECREF(tuple);
        return NULL;
    }
    return tuple;
}

PyObject *hd_new_ref(PyObject *o) {
    Py_INCREF(o);
    return o;
}

/* A new Action (kind, seat, amount, to, street, all_in, cards, pot, run);
 * cards is stolen (NULL: no cards). */
static PyObject *make_record(HandCore *h, int kind, int p, int street, int64_t amount,
                             int64_t to, int all_in, PyObject *cards, int pot, int run) {
    PyObject *items[HD_ACTION_FIELDS] = {
        hd_new_ref(hd_kinds[kind]), hd_seat_obj(h, p), PyLong_FromLongLong(amount),
        PyLong_FromLongLong(to), hd_new_ref(hd_streets[street]), PyBool_FromLong(all_in),
        cards ? cards : hd_new_ref(hd_empty_tuple), PyLong_FromLong(pot), PyLong_FromLong(run)};
    return hd_fill(hd_new_named(hd_action_type, hd_action_alloc, HD_ACTION_FIELDS), items,
                   HD_ACTION_FIELDS);
}

/* Appends a record made (NULL: failed) to the log; returns it or NULL. */
static PyObject *log_record(HandCore *h, PyObject *record) {
    if (!record) return NULL;
    if (PyList_Append(h->log, record) < 0) {
        Py_DECREF(record);
        return NULL;
    }
    return record;
}

/* Appends a record to the log (run 0: any but a street of the second run);
 * returns it (new reference) or NULL. */
PyObject *hd_log_record(HandCore *h, int kind, int p, int street, int64_t amount, int64_t to,
                            int all_in, PyObject *cards, int pot) {
    return log_record(h, make_record(h, kind, p, street, amount, to, all_in, cards, pot, 0));
}

/* Same, without keeping the record. */
static int log_only(HandCore *h, int kind, int p, int street, int64_t amount, int64_t to,
                    int all_in, PyObject *cards, int pot) {
    PyObject *record = hd_log_record(h, kind, p, street, amount, to, all_in, cards, pot);
    if (!record) return -1;
    Py_DECREF(record);
    return 0;
}

PyObject *hd_card_pair(int8_t a, int8_t b) {
    return Py_BuildValue("(ii)", (int)a, (int)b);
}

/* ------------------------------------------------------------- chips */

/* Moves chips from p's stack into the pot (into the bet of the round when
 * live); 1 when that was the last of the stack (all-in). */
static int put_in(state_t *st, int p, int64_t chips, int live) {
    int64_t left = st->stacks[p] - chips;
    st->stacks[p] = left;
    st->contrib[p] += chips;
    if (live) st->bets[p] += chips;
    if (left) return 0;
    st->status[p] = ALL_IN;
    st->n_active--;
    return 1;
}

static int64_t max_bet(const state_t *st, int n) {
    int64_t top = st->bets[0];
    for (int q = 1; q < n; q++)
        if (st->bets[q] > top) top = st->bets[q];
    return top;
}

/* The bet q must match preflop while the big blind, posted short, is above
 * every bet made (R3, R6): the full blind while another player can still
 * put it in, else only as much as the others can reach. */
static int64_t bet_for(HandCore *h, int q) {
    state_t *st = &h->st;
    int n = h->fx.n;
    int64_t top = max_bet(st, n);
    int64_t nominal = st->nominal;
    if (top >= nominal) {
        st->nominal = 0;
        return top;
    }
    int64_t reach = 0;
    for (int r = 0; r < n; r++) {
        int s = st->status[r];
        if (r != q && s != FOLDED && s != MUCKED) {
            int64_t most = s == ACTIVE ? st->bets[r] + st->stacks[r] : st->bets[r];
            if (most > reach) reach = most;
        }
    }
    if (reach > nominal) reach = nominal;
    return reach > top ? reach : top;
}

/* ------------------------------------------------------- the betting */

int hd_run(HandCore *h);
static int end_round(HandCore *h);

/* Finds the next player to act after p, or ends the round (R4). */
int hd_advance(HandCore *h, int p) {
    state_t *st = &h->st;
    int n = h->fx.n;
    if (st->n_in > 1) {
        int64_t bet = st->bet;
        int several = st->n_active >= 2;
        int64_t nominal = st->nominal;
        for (int i = 1; i <= n; i++) {
            int q = (p + i) % n;
            if (st->status[q] == ACTIVE) {
                if (nominal) bet = bet_for(h, q);
                if (st->bets[q] < bet || (st->faced[q] < 0 && several)) {
                    st->actor = (int8_t)q;
                    st->bet = bet;
                    return 0;
                }
            }
        }
    }
    if (end_round(h) < 0) return -1;
    return h->fx.auto_ ? hd_run(h) : 0;
}

static int begin_round(HandCore *h, int street) {
    state_t *st = &h->st;
    fixed_t *fx = &h->fx;
    int n = fx->n, start;
    st->street = (int8_t)street;
    if (street == S_PREFLOP) {
        start = fx->straddle_seat >= 0 ? fx->straddle_seat : fx->bb_seat;
        /* the bet is what was posted (R3): a straddle only as far as it was
         * posted, and the big blind in full even when posted short (R6) */
        int64_t big = fx->big_blind, top = max_bet(st, n);
        st->bet = top > big ? top : big;
        st->nominal = top < big ? big : 0;
        /* a straddle posted in full counts as the big blind for the minimum raise */
        st->full = fx->straddle && top >= fx->straddle && !(fx->rules & RV_STRADDLE_BY_BIG_BLIND)
                       ? top
                       : big;
        st->level = big;
        if (top < big && (fx->rules & RV_POSTED_SHORT_BLIND)) {
            /* a rule variant: the largest blind posted is the bet, raised by a big blind */
            st->bet = top;
            st->nominal = 0;
            st->level = top;
        }
        st->count = fx->rules & RV_BLIND_OUTSIDE_CAP ? 0 : 1;
    } else {
        start = fx->button;
        for (int q = 0; q < n; q++) {
            st->bets[q] = 0;
            st->faced[q] = -1;
        }
        st->bet = 0;
        st->nominal = 0;
        st->full = fx->big_blind;
        st->level = 0;
        st->count = 0;
    }
    st->base = st->level;
    st->short_inc = 0;
    st->capped = 0;
    st->hu_round = st->n_active == 2;
    int64_t bet = st->bet, nominal = st->nominal;
    int several = st->n_active >= 2;
    for (int i = 1; i <= n; i++) {
        int q = (start + i) % n;
        if (st->status[q] == ACTIVE) {
            if (nominal) bet = bet_for(h, q);
            if (st->bets[q] < bet || several) {
                st->actor = (int8_t)q;
                st->bet = bet;
                st->phase = PH_BETTING;
                st->aggressor = -1;
                return 0;
            }
        }
    }
    return end_round(h);
}

static int return_uncalled(HandCore *h) {
    state_t *st = &h->st;
    int n = h->fx.n;
    int64_t top = max_bet(st, n);
    if (!top) return 0;
    int p = 0;
    while (st->bets[p] != top) p++;
    if (OUT(st->status[p])) return 0;
    int64_t second = 0;
    for (int q = 0; q < n; q++)
        if (q != p && st->bets[q] > second) second = st->bets[q];
    if (second == top) return 0;
    int64_t excess = top - second;
    st->bets[p] = second;
    st->stacks[p] += excess;
    st->contrib[p] -= excess;
    st->returned[p] += excess;
    if (log_only(h, K_RETURN, p, st->street, excess, second, 0, NULL, -1) < 0) return -1;
    if (st->status[p] == ALL_IN) {
        st->status[p] = ACTIVE;
        st->n_active++;
    }
    return 0;
}

static void start_showdown(HandCore *h) {
    state_t *st = &h->st;
    int n = h->fx.n;
    int first = st->aggressor;
    if (first < 0 || OUT(st->status[first])) first = h->fx.first;
    int k = 0, face_up = 0;
    for (int i = 0; i < n; i++) {
        int q = (first + i) % n;
        int s = st->status[q];
        if (!OUT(s)) {
            st->sd_order[k++] = (int8_t)q;
            if (s == ALL_IN || s == PROTECTED) face_up = 1;
        }
    }
    st->sd_n = (int8_t)k;
    st->sd_i = 0;
    st->face_up = (int8_t)face_up;
    st->phase = PH_SHOWDOWN;
}

/* Whether every player still in the hand agreed to run it twice (R10). */
static int all_agree(HandCore *h) {
    state_t *st = &h->st;
    uint16_t in_hand = 0;
    for (int p = 0; p < h->fx.n; p++)
        if (!OUT(st->status[p])) in_hand |= 1u << p;
    return (in_hand & h->fx.twice) == in_hand;
}

static int end_round(HandCore *h) {
    state_t *st = &h->st;
    st->actor = -1;
    if (return_uncalled(h) < 0) return -1;
    if (st->n_in == 1) {
        st->phase = PH_AWARDING;
    } else if (st->street == S_RIVER) {
        if (st->runs && st->street2 < S_RIVER)
            st->phase = PH_BOARD; /* the second run's streets */
        else
            start_showdown(h);
    } else {
        st->phase = PH_BOARD;
        /* no more betting before the river: the rest is run twice where all agree */
        if (!st->runs && h->fx.twice && st->n_active <= 1 && all_agree(h)) {
            st->runs = 2;
            st->run_from = st->board_n;
            st->street2 = st->street;
        }
    }
    return 0;
}

/* ---------------------------------------------------------- showdown */

/* The value of p's hand on the second run's board (the first run's cards
 * before it began, the second stub's after). */
int32_t hd_value2(HandCore *h, int p) {
    state_t *st = &h->st;
    int32_t value = st->vals2[p];
    if (!value) {
        uint8_t cards[7];
        cards[0] = (uint8_t)st->hole[p][0];
        cards[1] = (uint8_t)st->hole[p][1];
        for (int i = 0; i < 5; i++)
            cards[2 + i] = (uint8_t)(i < st->run_from ? h->fx.stub[board_slot[i]]
                                                      : h->fx.stub2[board_slot[i]]);
        value = st->vals2[p] = hd_evaluate_in(hd_eval_tables, cards, 7);
    }
    return value;
}

static int32_t value_of(HandCore *h, int p) {
    state_t *st = &h->st;
    int32_t value = st->vals[p];
    if (!value) {
        uint8_t cards[7];
        cards[0] = (uint8_t)st->hole[p][0];
        cards[1] = (uint8_t)st->hole[p][1];
        for (int i = 0; i < 5; i++) cards[2 + i] = (uint8_t)h->fx.stub[board_slot[i]];
        value = st->vals[p] = hd_evaluate_in(hd_eval_tables, cards, 7);
    }
    return value;
}

/* K_SHOW or K_MUCK as the default decision of p; -1 if it needs their cards. */
int hd_default_showdown(HandCore *h, int p) {
    state_t *st = &h->st;
    if (st->hole[p][0] < 0) return -1;
    if (st->face_up) return K_SHOW;
    return value_of(h, p) >= st->sd_best ? K_SHOW : K_MUCK;
}

/* Whether p, to show at showdown, may muck: not when every hand is face up
 * (an all-in), nor as the last to bet or raise on the river, who was called
 * (R10; fx.aggressor_mucks: a room that allows it); always when p's cards are
 * unknown (a replay). */
int hd_may_muck(const HandCore *h, int p) {
    const state_t *st = &h->st;
    if (st->hole[p][0] < 0) return 1;
    return !st->face_up && (h->fx.aggressor_mucks || p != st->aggressor);
}

static void next_shower(state_t *st) {
    st->sd_i++;
    /* the last one left after the others mucked wins without showing */
    if (st->sd_i >= st->sd_n || st->n_in == 1) st->phase = PH_AWARDING;
}

PyObject *hd_do_show(HandCore *h, int p) {
    state_t *st = &h->st;
    int32_t value = value_of(h, p);
    if (value > st->sd_best) st->sd_best = value;
    st->shown[p] = 1;
    PyObject *cards = hd_card_pair(st->hole[p][0], st->hole[p][1]);
    if (!cards) return NULL;
    PyObject *record = hd_log_record(h, K_SHOW, p, st->street, 0, 0, 0, cards, -1);
    if (record) next_shower(st);
    return record;
}

PyObject *hd_do_muck(HandCore *h, int p) {
    state_t *st = &h->st;
    st->status[p] = MUCKED;
    st->n_in--;
    PyObject *record = hd_log_record(h, K_MUCK, p, st->street, 0, 0, 0, NULL, -1);
    if (record) next_shower(st);
    return record;
}

static int auto_showdown(HandCore *h) {
    state_t *st = &h->st;
    while (st->phase == PH_SHOWDOWN) {
        int p = st->sd_order[st->sd_i];
        int decision = hd_default_showdown(h, p);
        if (decision < 0) return 0; /* waits for cards nobody knows */
        PyObject *record = decision == K_SHOW ? hd_do_show(h, p) : hd_do_muck(h, p);
        if (!record) return -1;
        Py_DECREF(record);
    }
    return 0;
}

/* ------------------------------------------------------------- pots */

typedef struct {
    int n;
    int64_t amount[MAXPOTS];
    uint16_t eligible[MAXPOTS];
} pots_t;

static void add_pot(pots_t *pots, int64_t amount, uint16_t eligible) {
    if (pots->n && pots->eligible[pots->n - 1] == eligible) {
        pots->amount[pots->n - 1] += amount;
    } else {
        pots->amount[pots->n] = amount;
        pots->eligible[pots->n] = eligible;
        pots->n++;
    }
}

/* The pots of holdem.pots.build_pots (its docstring says how), for the
 * contributions of n positions; in_hand and all_in are bit masks. */
static void build_pots(const int64_t *contrib, int n, uint16_t in_hand, uint16_t all_in,
                       pots_t *pots) {
    int64_t levels[MAXP], total = 0, prev = 0, formed = 0;
    int nlevels = 0;
    pots->n = 0;
    for (int p = 0; p < n; p++) {
        total += contrib[p];
        if (in_hand >> p & all_in >> p & 1) {
            int64_t c = contrib[p];
            int i = 0;
            while (i < nlevels && levels[i] < c) i++;
            if (i < nlevels && levels[i] == c) continue;
            memmove(&levels[i + 1], &levels[i], (size_t)(nlevels - i) * sizeof levels[0]);
            levels[i] = c;
            nlevels++;
        }
    }
    for (int l = 0; l < nlevels; l++) {
        int64_t level = levels[l], amount = 0;
        uint16_t eligible = 0;
        for (int p = 0; p < n; p++) {
            int64_t c = contrib[p];
            if (c > prev) amount += (c < level ? c : level) - prev;
            if ((in_hand >> p & 1) && (c >= level || !(all_in >> p & 1))) eligible |= 1u << p;
        }
        if (amount) {
            add_pot(pots, amount, eligible);
            formed += amount;
        }
        prev = level;
    }
    int64_t rest = total - formed;
    if (rest) {
        uint16_t eligible = 0;
        for (int p = 0; p < n; p++)
            if ((in_hand >> p & 1) && (contrib[p] > prev || !(all_in >> p & 1)))
                eligible |= 1u << p;
        if (!eligible && pots->n)  /* dead chips above every level: the last pot */
            pots->amount[pots->n - 1] += rest;
        else if (pots->n && pots->eligible[pots->n - 1] == eligible)
            pots->amount[pots->n - 1] += rest;
        else {
            pots->amount[pots->n] = rest;
            pots->eligible[pots->n] = eligible ? eligible : in_hand;
            pots->n++;
        }
    }
}

/* Awards one pot (its index i among the awarded ones; run 1: on the second run's
 * board) to the best hands of the eligible players; *last is its last record. */
static int award_pot(HandCore *h, int i, int run, int64_t amount, uint16_t eligible,
                     PyObject **last) {
    state_t *st = &h->st;
    fixed_t *fx = &h->fx;
    int n = fx->n;
    int winners[MAXP], nwin = 0, many = 0;
    int32_t best = -1;
    for (int q = 0; q < n; q++)
        if (eligible >> q & 1) many++;
    for (int q = 0; q < n; q++) {
        if (!(eligible >> q & 1)) continue;
        if (many > 1) {
            int32_t v = run ? hd_value2(h, q) : st->vals[q];
            if (v > best) {
                best = v;
                nwin = 0;
            }
            if (v == best) winners[nwin++] = q;
        } else {
            winners[nwin++] = q;
        }
    }
    /* winners clockwise from the first seat left of the button; the odd
     * chips one at a time in that order (R9) */
    int ordered[MAXP], k = 0;
    for (int i2 = 0; i2 < n; i2++) {
        int q = (fx->first + i2) % n;
        for (int w = 0; w < nwin; w++)
            if (winners[w] == q) ordered[k++] = q;
    }
    if (!nwin) return 0; /* a pot nobody can win: not built (every pot has eligibles) */
    int64_t share = amount / nwin, odd = amount % nwin;
    st->pot_amount[i] = amount;
    st->pot_eligible[i] = eligible;
    st->pot_nwin[i] = (int8_t)nwin;
    st->pot_run[i] = (int8_t)run;
    for (int w = 0; w < nwin; w++) {
        int q = ordered[w];
        int64_t chips = share + (w < odd ? 1 : 0);
        st->stacks[q] += chips;
        st->pot_win[i][w] = (int8_t)q;
        st->pot_share[i][w] = chips;
        Py_XDECREF(*last);
        *last = hd_log_record(h, K_WIN, q, st->street, chips, 0, 0, NULL, i);
        if (!*last) return -1;
    }
    return 0;
}

static int award(HandCore *h, PyObject **last) {
    state_t *st = &h->st;
    fixed_t *fx = &h->fx;
    int n = fx->n;
    pots_t pots;
    pots.n = 0;
    int64_t total = 0;
    for (int p = 0; p < n; p++) total += st->contrib[p];
    uint16_t in_hand = 0, all_in = 0;
    for (int p = 0; p < n; p++) {
        int s = st->status[p];
        if (!OUT(s)) in_hand |= 1u << p;
        if (s == ALL_IN || s == PROTECTED) all_in |= 1u << p;
    }
    if (st->n_in == 1) { /* everybody else folded: one pot, no showdown */
        pots.n = 1;
        pots.amount[0] = total;
        pots.eligible[0] = in_hand;
    } else if (!all_in) {
        /* nobody all-in: one pot of everything for everybody still in */
        if (total) {
            pots.n = 1;
            pots.amount[0] = total;
            pots.eligible[0] = in_hand;
        }
    } else if (fx->rules & RV_DEAD_ANTES) {
        /* a rule variant: the dead chips are one main pot for everybody in the hand,
         * the rest makes the pots as usual */
        int64_t live[MAXP], dead = 0;
        for (int p = 0; p < n; p++) {
            live[p] = st->contrib[p] - st->dead[p];
            dead += st->dead[p];
        }
        build_pots(live, n, in_hand, all_in, &pots);
        if (dead && pots.n && pots.eligible[0] == in_hand) {
            pots.amount[0] += dead;
        } else if (dead) {
            memmove(&pots.amount[1], &pots.amount[0], (size_t)pots.n * sizeof pots.amount[0]);
            memmove(&pots.eligible[1], &pots.eligible[0], (size_t)pots.n * sizeof pots.eligible[0]);
            pots.amount[0] = dead;
            pots.eligible[0] = in_hand;
            pots.n++;
        }
    } else {
        /* antes and dead blinds too are their poster's money in the pots (R3, R9) */
        build_pots(st->contrib, n, in_hand, all_in, &pots);
    }
    PyObject *record = NULL;
    int twice = st->runs == 2;
    for (int run = 0; run <= twice; run++) {
        for (int i = pots.n - 1; i >= 0; i--) { /* last-formed first (R9) */
            /* a board run twice: each pot in two halves, the odd chip to the first run */
            int64_t amount = twice ? (run ? pots.amount[i] / 2 : pots.amount[i] - pots.amount[i] / 2)
                                   : pots.amount[i];
            if (award_pot(h, run * pots.n + i, run, amount, pots.eligible[i], &record) < 0)
                return -1;
        }
    }
    st->n_pots = (int8_t)(twice ? 2 * pots.n : pots.n);
    for (int p = 0; p < n; p++) {
        st->contrib[p] = 0;
        st->bets[p] = 0;
    }
    st->phase = PH_COMPLETE;
    *last = record;
    return 0;
}

/* ------------------------------------------------------ dealer steps */

/* One forced bet (a post a stack of zero cannot make is skipped); *last is
 * its record or NULL when none was left to post. */
static int post(HandCore *h, PyObject **last) {
    state_t *st = &h->st;
    fixed_t *fx = &h->fx;
    *last = NULL;
    while (!*last && st->post_i < fx->nforced) {
        int i = st->post_i++;
        int kind = fx->f_kind[i], p = fx->f_pos[i];
        int64_t stack = st->stacks[p];
        if (!stack) continue;
        int64_t chips = fx->f_amount[i] < stack ? fx->f_amount[i] : stack;
        int live = kind != K_ANTE && kind != K_DEAD_BLIND; /* a live blind */
        if (!live) st->dead[p] += chips;
        int all_in = put_in(st, p, chips, live);
        *last = hd_log_record(h, kind, p, S_PREFLOP, chips, live ? st->bets[p] : 0, all_in, NULL,
                           -1);
        if (!*last) return -1;
    }
    if (st->post_i == fx->nforced) st->phase = PH_DEALING;
    return 0;
}

static PyObject *deal_hole(HandCore *h) {
    PyObject *record = hd_log_record(h, K_DEAL_HOLE, -1, S_PREFLOP, 0, 0, 0, NULL, -1);
    if (!record) return NULL;
    h->st.dealt = 1;
    if (begin_round(h, S_PREFLOP) < 0) {
        Py_DECREF(record);
        return NULL;
    }
    return record;
}

/* Whether the cards of the next street are known (dealing it needs them). */
int hd_next_street_known(const HandCore *h) {
    const state_t *st = &h->st;
    int second = st->runs && st->street == S_RIVER; /* the second run's next street */
    int street = (second ? st->street2 : st->street) + 1;
    const int8_t *stub = second ? h->fx.stub2 : h->fx.stub;
    if (street >= NSTREETS) return 0;
    for (int i = board_after[street - 1]; i < board_after[street]; i++)
        if (stub[board_slot[i]] < 0) return 0;
    return 1;
}

/* The cards of a street from a run's stub (the second run's: run 1), or NULL with
   the error Python raises naming the cards missing. */
static PyObject *street_cards(HandCore *h, const int8_t *stub, int street, int run) {
    int from = board_after[street - 1], to = board_after[street];
    for (int i = from; i < to; i++)
        if (stub[board_slot[i]] < 0) {
            /* Python says which cards are missing, and raises */
            PyObject *none = PyObject_CallMethod((PyObject *)h, "_missing_board", "Oi",
                                                 hd_streets[street], run);
            if (!none) return NULL;
            Py_DECREF(none);
            PyErr_SetString(PyExc_SystemError, "holdem engine: _missing_board did not raise");
            return NULL;
        }
    PyObject *cards = PyTuple_New(to - from);
    if (!cards) return NULL;
    for (int i = from; i < to; i++)
        PyTuple_SetItem(cards, i - from, PyLong_FromLong(stub[board_slot[i]]));
    return cards;
}

/* The next street of the second run (R10): its record carries run 1. */
static PyObject *deal_second_run(HandCore *h) {
    state_t *st = &h->st;
    int street = st->street2 + 1;
    PyObject *cards = street_cards(h, h->fx.stub2, street, 1);
    if (!cards) return NULL;
    st->street2 = (int8_t)street;
    PyObject *record = log_record(h, make_record(h, K_DEAL_BOARD, -1, street, 0, 0, 0, cards, -1, 1));
    if (record && street == S_RIVER) start_showdown(h);
    return record;
}

static PyObject *deal_street(HandCore *h) {
    state_t *st = &h->st;
    if (st->runs && st->street == S_RIVER) return deal_second_run(h);
    int street = st->street + 1;
    PyObject *cards = street_cards(h, h->fx.stub, street, 0);
    if (!cards) return NULL;
    st->burns_n++;
    st->board_n = (int8_t)board_after[street];
    PyObject *record = hd_log_record(h, K_DEAL_BOARD, -1, street, 0, 0, 0, cards, -1);
    if (!record) return NULL;
    if (begin_round(h, street) < 0) {
        Py_DECREF(record);
        return NULL;
    }
    return record;
}

/* The next dealer step for step() (the showdown default is the caller's). */
PyObject *hd_dealer_step(HandCore *h) {
    PyObject *record = NULL;
    switch (h->st.phase) {
    case PH_POSTING:
        if (post(h, &record) < 0) return NULL;
        break;
    case PH_DEALING:
        return deal_hole(h);
    case PH_BOARD:
        return deal_street(h);
    case PH_AWARDING:
        if (award(h, &record) < 0) return NULL;
        break;
    default:
        PyErr_SetString(PyExc_RuntimeError, "no dealer step is pending");
        return NULL;
    }
    if (record) return record;
    Py_RETURN_NONE;
}

/* Dealer steps until a player must decide or the hand is over. */
int hd_run(HandCore *h) {
    state_t *st = &h->st;
    for (;;) {
        int phase = st->phase;
        if (phase == PH_BETTING || phase == PH_COMPLETE) return 0;
        if (phase == PH_SHOWDOWN) {
            if (auto_showdown(h) < 0) return -1;
            if (st->phase == PH_SHOWDOWN) return 0; /* waits for cards nobody knows */
            continue;
        }
        PyObject *record = NULL;
        if (phase == PH_POSTING) {
            while (st->phase == PH_POSTING) {
                if (post(h, &record) < 0) return -1;
                Py_XDECREF(record);
            }
            continue;
        }
        record = hd_dealer_step(h);
        if (!record) return -1;
        Py_DECREF(record);
    }
}

/* -------------------------------------------------- the legal wagers */

static int uncapped(HandCore *h) {
    switch (h->fx.cap_policy) {
    case CAP_TWO_LEFT:
        return h->st.n_active <= 2 && !h->st.capped;
    case CAP_ROUND_START:
        return h->st.hu_round;
    default:
        return 0;
    }
}

/* The (lo, hi) to-amounts of a bet or raise by p, or why there is none (a
 * W_ code).  The minimum may exceed what the player has: an all-in for less
 * is then the only wager (checked by the callers). */
int hd_wager_range(HandCore *h, int p, int64_t *lo, int64_t *hi) {
    state_t *st = &h->st;
    fixed_t *fx = &h->fx;
    int n = fx->n;
    int64_t bet = st->bet;
    if (st->stacks[p] <= bet - st->bets[p]) return WR_CALL_TAKES_ALL;
    int found = 0;
    for (int i = 1; i < n && !found; i++) {
        int q = (p + i) % n;
        found = st->status[q] == ACTIVE && st->stacks[q] + st->bets[q] > bet;
    }
    if (!found) return WR_NOBODY_CALLS;
    int64_t faced = st->faced[p];
    if (fx->fixed) {
        if (faced >= 0 && faced >= st->level) return WR_NOT_REOPENED_FIXED;
        if (st->count > fx->raise_cap && !uncapped(h)) return WR_CAPPED;
        int64_t unit = st->street < S_TURN ? fx->small_bet : fx->big_bet;
        *lo = *hi = st->base + unit;
        return WR_OK;
    }
    if (faced >= 0 && bet - faced < st->full) return WR_NOT_REOPENED;
    *lo = bet + (st->short_inc ? st->short_inc : st->full);
    if (fx->pot_limit) {
        int64_t pot = 0;
        for (int q = 0; q < n; q++) pot += st->contrib[q];
        *hi = bet + pot + bet - st->bets[p];
        if (*hi < *lo) *hi = *lo;
    } else {
        *hi = st->bets[p] + st->stacks[p];
    }
    int64_t everything = st->bets[p] + st->stacks[p];
    if (*hi > everything) *hi = everything;
    return WR_OK;
}

/* Whether p may bet (K_BET) or raise (K_RAISE) to `to`: the conditions of
 * Hand._wager_problem, without its messages. */
int hd_wager_ok(HandCore *h, int kind, int64_t to, int p) {
    state_t *st = &h->st;
    int64_t bet = st->bet, lo, hi;
    if (kind == K_BET && bet) return 0;
    if (kind == K_RAISE && !bet) return 0;
    int64_t everything = st->bets[p] + st->stacks[p];
    if (to > everything) return 0;
    if (hd_wager_range(h, p, &lo, &hi) != WR_OK) return 0;
    if (to == everything && bet < to && to < lo) return 1; /* all-in for less (R5) */
    if (lo > everything || to < lo || to > hi) return 0;
    return 1;
}

/* ------------------------------------------------------- the actions */

PyObject *hd_do_fold(HandCore *h, int p) {
    state_t *st = &h->st;
    st->status[p] = FOLDED;
    st->n_active--;
    st->n_in--;
    PyObject *record = hd_log_record(h, K_FOLD, p, st->street, 0, 0, 0, NULL, -1);
    if (record && hd_advance(h, p) < 0) Py_CLEAR(record);
    return record;
}

/* An all-in player gives up the pots (a site's fold of a player sitting out,
 * replayed by a convention): out of the hand, the chips put in stay in the
 * pots; a lone player left takes them. */
PyObject *hd_do_forfeit(HandCore *h, int p) {
    state_t *st = &h->st;
    st->status[p] = FOLDED;
    st->n_in--;
    PyObject *record = hd_log_record(h, K_FOLD, p, st->street, 0, 0, 0, NULL, -1);
    if (!record || st->n_in > 1) return record;
    int ended = 0;
    if (st->phase == PH_BETTING) {
        ended = end_round(h); /* (the uncalled bet back, then the award) */
    } else if (st->phase == PH_BOARD) {
        st->phase = PH_AWARDING;
    }
    if (ended < 0 || (h->fx.auto_ && hd_run(h) < 0)) Py_CLEAR(record);
    return record;
}

PyObject *hd_do_check(HandCore *h, int p) {
    state_t *st = &h->st;
    st->faced[p] = h->fx.fixed ? st->level : st->bet;
    PyObject *record = hd_log_record(h, K_CHECK, p, st->street, 0, st->bets[p], 0, NULL, -1);
    if (record && hd_advance(h, p) < 0) Py_CLEAR(record);
    return record;
}

PyObject *hd_do_call(HandCore *h, int p) {
    state_t *st = &h->st;
    int64_t bet = st->bet, mine = st->bets[p];
    int64_t everything = mine + st->stacks[p];
    int64_t to = everything > bet ? bet : everything;
    int64_t chips = to - mine;
    int all_in = put_in(st, p, chips, 1);
    st->faced[p] = h->fx.fixed ? st->level : bet;
    PyObject *record = hd_log_record(h, K_CALL, p, st->street, chips, to, all_in, NULL, -1);
    if (record && hd_advance(h, p) < 0) Py_CLEAR(record);
    return record;
}

PyObject *hd_do_wager(HandCore *h, int kind, int p, int64_t to) {
    state_t *st = &h->st;
    fixed_t *fx = &h->fx;
    int64_t bet = st->bet;
    int64_t chips = to - st->bets[p];
    int all_in = put_in(st, p, chips, 1);
    if (fx->fixed) {
        int64_t unit = st->street < S_TURN ? fx->small_bet : fx->big_bet;
        /* a full raise, or an all-in of at least half a bet over the level (R7) */
        int counted = 2 * (to - st->level) >= unit;
        if (counted || (fx->rules & RV_NO_HALF_BET_RULE)) {
            /* (the rule variant: a shorter all-in too counts toward the cap and
             * the next raise is a bet over it, but it reopens nothing) */
            st->base = to;
            st->count++;
            if (st->count > fx->raise_cap && st->n_active + all_in > 2) st->capped = 1;
        }
        if (counted) st->level = to;
        st->faced[p] = st->level;
    } else {
        if (to - bet >= st->full) {
            st->full = to - bet;
            st->short_inc = 0;
        } else if (bet && (fx->rules & RV_SHORT_ALL_IN_MIN_RAISE)) {
            st->short_inc = to - bet; /* the rule variant: the next minimum raise */
        }
        st->faced[p] = to;
    }
    st->bet = to;
    st->aggressor = (int8_t)p;
    PyObject *record = hd_log_record(h, kind, p, st->street, chips, to, all_in, NULL, -1);
    if (record && hd_advance(h, p) < 0) Py_CLEAR(record);
    return record;
}

