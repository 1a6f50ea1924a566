/* hd_hand.h - one hand of hold'em in C: the state (state_t, fixed_t), the
 * Python object that holds it (HandCore), and the rules that change it
 * (hd_hand.c), shared with the Python type built on them (hd_engine.c).
 */
#ifndef HD_HAND_H
#define HD_HAND_H

#define Py_LIMITED_API 0x030B0000
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <string.h>
#include <structmember.h>

#include "hd_internal.h"

/* The names below are shared by the two files of the module only: hidden, so
 * that no other library's symbol of the same name can stand in for them. */
#if defined(__GNUC__)
#pragma GCC visibility push(hidden)
#endif

#define MAXP 10
#define MAXF (3 * MAXP + 4) /* forced bets: antes, blinds, straddle, posts */
#define MAXPOTS (MAXP + 2)
#define MAXAWARDS (2 * MAXPOTS) /* the pots of a board run twice: each one's two halves */

/* ActionKind, in the order of its members (bind() checks the count) */
enum {
    K_FOLD, K_CHECK, K_CALL, K_BET, K_RAISE, K_ALL_IN, K_TIMEOUT, K_SHOW, K_MUCK,
    K_ANTE, K_SMALL_BLIND, K_BIG_BLIND, K_STRADDLE, K_LIVE_POST, K_DEAD_BLIND,
    K_DEAL_HOLE, K_DEAL_BOARD, K_RETURN, K_WIN, NKINDS
};
/* Phase, in the order of its members */
enum { PH_POSTING, PH_DEALING, PH_BETTING, PH_BOARD, PH_SHOWDOWN, PH_AWARDING, PH_COMPLETE,
       NPHASES };
enum { S_PREFLOP, S_FLOP, S_TURN, S_RIVER, NSTREETS };
/* player statuses, as holdem.actions.STATUS_NAMES lists them */
enum { ACTIVE, ALL_IN, FOLDED, PROTECTED, MUCKED };
/* HeadsUpCap */
enum { CAP_NEVER, CAP_ROUND_START, CAP_TWO_LEFT };
/* structures */
enum { NO_LIMIT, POT_LIMIT, FIXED_LIMIT };

/* why there is no bet or raise (wager_range's answer; 0: there is one) */
enum { WR_OK, WR_CALL_TAKES_ALL, WR_NOBODY_CALLS, WR_NOT_REOPENED_FIXED, WR_CAPPED, WR_NOT_REOPENED };

/* where each street's cards sit in the stub after the hole cards:
 * burn, flop x3, burn, turn, burn, river */
static const int burn_slot[NSTREETS] = {-1, 0, 4, 6};
static const int board_slot[5] = {1, 2, 3, 5, 7};
static const int board_after[NSTREETS] = {0, 3, 4, 5};
#define STUB 8

/* Replaces the reference in dst by src (a new reference), as Py_XSETREF does
 * outside the limited API. */
#define SET_REF(dst, src)         \
    do {                          \
        PyObject *old_ = (PyObject *)(dst); \
        (dst) = (src);            \
        Py_XDECREF(old_);         \
    } while (0)

#define OUT(s) ((s) == FOLDED || (s) == MUCKED)

/* Everything that changes during a hand: a snapshot is a copy of this. */
typedef struct {
    int64_t stacks[MAXP], bets[MAXP], contrib[MAXP], faced[MAXP], returned[MAXP];
    int64_t dead[MAXP]; /* the part of contrib posted dead (antes, dead blinds) */
    int64_t bet, nominal, full, level, count;
    int64_t base;      /* fixed-limit: the amount the next raise counts from (the level, R7) */
    int64_t short_inc; /* the increment of the last short all-in raise (rule variant) */
    int32_t vals[MAXP];
    int32_t vals2[MAXP]; /* the hands' values on the second run's board (0: not yet) */
    int32_t sd_best;
    int8_t status[MAXP], shown[MAXP];
    int8_t hole[MAXP][2]; /* -1: unknown */
    int8_t sd_order[MAXP];
    int8_t phase, street, actor, capped, hu_round, aggressor, dealt, face_up;
    int8_t n_active, n_in, post_i, sd_n, sd_i, board_n, burns_n, n_pots;
    /* run it twice (R10): runs 2 once the rest of the board is dealt twice, from
     * board_n run_from; street2 the last street dealt on the second run */
    int8_t runs, run_from, street2;
    /* the awarded pots (R9), main pot first; a board run twice: the first run's
     * halves, then the second's (pot_run 1) */
    int64_t pot_amount[MAXAWARDS];
    uint16_t pot_eligible[MAXAWARDS]; /* bit p: position p */
    int8_t pot_nwin[MAXAWARDS];
    int8_t pot_run[MAXAWARDS];
    int8_t pot_win[MAXAWARDS][MAXP];
    int64_t pot_share[MAXAWARDS][MAXP];
    Py_ssize_t log_len; /* filled in by a snapshot */
} state_t;

/* What is fixed when the hand is made. */
typedef struct {
    int n, auto_, fixed, pot_limit, first, button, bb_seat, straddle_seat, cap_policy;
    int64_t big_blind, straddle, small_bet, big_bet, raise_cap;
    int nforced;
    int8_t f_kind[MAXF], f_pos[MAXF];
    int64_t f_amount[MAXF];
    int8_t stub[STUB]; /* -1: unknown */
    int8_t stub2[STUB]; /* the second run's burns and board, where run twice (-1: unknown) */
    uint16_t twice;     /* the positions that agree to run it twice (R10; 0: none) */
    int64_t start[MAXP]; /* the stacks the hand starts with */
    int plain_seats;   /* the table seats are 0..n-1 (seat numbers are positions) */
    int rules;         /* RV_ bits: rule variants of other engines and sites (0: RULES.md) */
    int aggressor_mucks; /* the river's last aggressor, called, may muck (a room's; R10: no) */
} fixed_t;

/* Rule variants (HandConfig.rule_variants), as bits of fixed_t.rules. */
enum {
    RV_POSTED_SHORT_BLIND = 1,   /* a short big blind: the largest blind posted is the bet */
    RV_BLIND_OUTSIDE_CAP = 2,    /* fixed-limit: the big blind is not one of the capped bets */
    RV_NO_HALF_BET_RULE = 4,     /* fixed-limit: a short all-in raise is counted from */
    RV_SHORT_ALL_IN_MIN_RAISE = 8, /* no-limit: a short all-in's increment is the next minimum */
    RV_DEAD_ANTES = 16,            /* dead chips are one main pot every player in can win */
    RV_STRADDLE_BY_BIG_BLIND = 32  /* a straddle is raised by the big blind */
};

typedef struct {
    PyObject_HEAD
    state_t st;
    fixed_t fx;
    int ready;
    PyObject *log;  /* list of Action */
    PyObject *nos;  /* tuple: table seat number of each position */
    PyObject *log_tuple; /* the log as a tuple, while the log has not changed (NULL: none) */
} HandCore;


/* The Python objects the rules build records of, bound by holdem._engine.bind(). */
extern const hd_tables_t *hd_eval_tables;
extern PyObject *hd_kinds[NKINDS];
extern PyObject *hd_phases[NPHASES];
extern PyObject *hd_streets[NSTREETS];
extern PyObject *hd_action_type;
/* The fields of an Action: kind, seat, amount, to, street, all_in, cards, pot, run. */
#define HD_ACTION_FIELDS 9
extern allocfunc hd_action_alloc;
extern PyObject *hd_empty_tuple;

/* --- hd_hand.c: building records (new references; NULL on error) */
PyObject *hd_seat_obj(HandCore *h, int p);
PyObject *hd_new_named(PyObject *type, allocfunc alloc, Py_ssize_t n);
PyObject *hd_fill(PyObject *tuple, PyObject **items, int n);
PyObject *hd_new_ref(PyObject *o);
PyObject *hd_log_record(HandCore *h, int kind, int p, int street, int64_t amount, int64_t to, int all_in, PyObject *cards, int pot);
PyObject *hd_card_pair(int8_t a, int8_t b);

/* --- hd_json.c: the JSON text of views and records (module functions) */
PyObject *hd_bind_json(PyObject *self, PyObject *const *args, Py_ssize_t nargs);
PyObject *hd_view_json(PyObject *self, PyObject *const *args, Py_ssize_t nargs);
PyObject *hd_record_json(PyObject *self, PyObject *record);

/* --- hd_hand.c: the rules; -1 or NULL on error (an exception is set) */
int hd_run(HandCore *h);
int hd_advance(HandCore *h, int p);
int hd_default_showdown(HandCore *h, int p);
int hd_may_muck(const HandCore *h, int p);
PyObject *hd_do_show(HandCore *h, int p);
PyObject *hd_do_muck(HandCore *h, int p);
PyObject *hd_dealer_step(HandCore *h);
int hd_next_street_known(const HandCore *h);
int hd_wager_range(HandCore *h, int p, int64_t *lo, int64_t *hi);
int hd_wager_ok(HandCore *h, int kind, int64_t to, int p);
PyObject *hd_do_fold(HandCore *h, int p);
PyObject *hd_do_forfeit(HandCore *h, int p);
int32_t hd_value2(HandCore *h, int p);
PyObject *hd_do_check(HandCore *h, int p);
PyObject *hd_do_call(HandCore *h, int p);
PyObject *hd_do_wager(HandCore *h, int kind, int p, int64_t to);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif
