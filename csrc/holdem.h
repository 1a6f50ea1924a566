/* holdem.h - public C API of the holdem core.
 *
 * Card encoding (the one table every part of holdem points to):
 *
 *     card = rank * 4 + suit
 *     rank: 2=0 3=1 4=2 5=3 6=4 7=5 8=6 9=7 T=8 J=9 Q=10 K=11 A=12
 *     suit: c=0 d=1 h=2 s=3
 *
 *     so 2c=0, 2d=1, 2h=2, 2s=3, 3c=4, ..., Ac=48, Ad=49, Ah=50, As=51.
 *
 * Hand values: a hand value is a uint16_t, higher is better, equal values tie.
 *     value = category << 12 | index
 * where category is 1 (high card) .. 9 (straight flush), see HD_* below, and
 * index ranks the hand inside its category from 0 (weakest).  There are
 * exactly 7,462 distinct values; 0 is never a valid value.
 *
 * Call hd_init() once before anything else (the Python layer does so on
 * import).  Unless a function says otherwise it assumes valid input: cards
 * in 0..51, no card twice.  Invalid input never reads or writes out of
 * bounds, but gives meaningless values; no input makes a loop run forever.
 *
 * Stopping: every function whose work grows with its input takes a last
 * argument `const int *stop` (NULL: never stop).  It reads *stop between
 * blocks of work (a few thousand hands or deals; the exact enumeration once
 * per first board card) and returns early, with the work done so far, once
 * it is non-zero.  Another thread may set it (to abandon the work), and
 * so may Ctrl-C between hd_sigint_begin(stop) and hd_sigint_end().
 */
#ifndef HOLDEM_H
#define HOLDEM_H

#include <stddef.h>
#include <stdint.h>

#define HD_NUM_CARDS 52
#define HD_NUM_VALUES 7462
/* One past the largest hand value: size for arrays indexed by value. */
#define HD_VALUE_LIMIT (10 << 12)

/* Players in an equity calculation, and the size of a per-player row of
 * tie counters (indexed by the number of players sharing the pot). */
#define HD_MAX_PLAYERS 10
#define HD_TIE_SLOTS 11

#define HD_HIGH_CARD 1
#define HD_ONE_PAIR 2
#define HD_TWO_PAIR 3
#define HD_THREE_OF_A_KIND 4
#define HD_STRAIGHT 5
#define HD_FLUSH 6
#define HD_FULL_HOUSE 7
#define HD_FOUR_OF_A_KIND 8
#define HD_STRAIGHT_FLUSH 9

/* Builds the lookup tables; 0 on success.  Idempotent; the first call must
 * not race with any other call into the core. */
int hd_init(void);

/* Bytes of lookup tables the evaluator reads. */
size_t hd_table_bytes(void);

/* Value of the best five of seven cards; 0 if a card is > 51 or repeated
 * (checks anything, assumes nothing). */
uint16_t hd_evaluate7(uint8_t a, uint8_t b, uint8_t c, uint8_t d, uint8_t e,
                      uint8_t f, uint8_t g);

/* Value of the best five of n (5..7) valid cards. */
uint16_t hd_evaluate(const uint8_t *cards, size_t n);

/* Returned by hd_evaluate_batch_checked when *stop ended the work. */
#define HD_STOPPED (-2)

/* out[i] = value of cards[i*k .. i*k+k-1] for i < n; k is 5, 6 or 7 (else
 * nothing is done).  Returns the number of hands valued: n, or fewer when
 * *stop ended the work. */
size_t hd_evaluate_batch(const uint8_t *cards, size_t n, unsigned k, uint16_t *out,
                         const int *stop);

/* As hd_evaluate_batch, but first checks each hand: stops at the first
 * hand with a card > 51 or a repeated card and returns its index; returns
 * -1 when all n were valued, HD_STOPPED when *stop ended the work.  Assumes
 * nothing of the input. */
int64_t hd_evaluate_batch_checked(const uint8_t *cards, size_t n, unsigned k,
                                  uint16_t *out, const int *stop);

/* Writes the five ranks (0..12) of a value in display order (e.g. full
 * house: trips rank x3 then pair rank x2; wheel: 5 4 3 2 A) and returns
 * its category, or 0 if value is not a hand value. */
int hd_value_ranks(uint16_t value, uint8_t ranks[5]);

/* Counts, into hist[value] (HD_VALUE_LIMIT slots, added to), the value of
 * every hand made of the n_fixed fixed cards plus k cards drawn from the
 * n_pool pool cards, n_fixed + k in 5..7; returns the number of hands. */
uint64_t hd_enumerate(const uint8_t *fixed, unsigned n_fixed,
                      const uint8_t *pool, unsigned n_pool, unsigned k,
                      uint64_t *hist, const int *stop);

/* Exact equity: scores every completion of the nb-card board (nb = 0, 3,
 * 4 or 5) with cards of deck[0..nd) for n (2..10) players holding
 * holes[2i], holes[2i+1]; only the boards whose first drawn card has its
 * index in [lo, hi) (to split the work).  deck must hold no card of the
 * holes or board.  Adds to wins[i] and ties_k[i * HD_TIE_SLOTS + k] (player i
 * shares the best hand with k - 1 others); returns the boards scored. */
uint64_t hd_equity_enumerate(const uint8_t *holes, unsigned n, const uint8_t *board,
                             unsigned nb, const uint8_t *deck, unsigned nd, unsigned lo,
                             unsigned hi, uint64_t *wins, uint64_t *ties_k,
                             const int *stop);

/* Exact equity of m slices in one call (for slices too small to be worth a
 * call each): slice j is hd_equity_enumerate of holes[2nj .. 2n(j+1)) and
 * decks[nd j .. nd(j+1)) with lo[j], hi[j]; it adds to wins[n j + i] and
 * ties_k[(n j + i) * HD_TIE_SLOTS + k] and sets count[j] to its boards.
 * Returns the slices begun: m, all done, unless *stop ended the work (then
 * the last one begun may be partly done). */
size_t hd_equity_enumerate_batch(const uint8_t *holes, unsigned n, const uint8_t *board,
                                 unsigned nb, const uint8_t *decks, unsigned nd,
                                 const uint32_t *lo, const uint32_t *hi, size_t m,
                                 uint64_t *count, uint64_t *wins, uint64_t *ties_k,
                                 const int *stop);

/* Monte Carlo equity over `trials` deals from the random stream `seed`:
 * player i gets one of its combos combos[2j], combos[2j+1] for j in
 * [start[i], start[i+1]), drawn with probability proportional to
 * weights[j]; a deal where cards collide (with each other, the board or the
 * dead mask) is drawn again whole, so the result has no bias; the board is
 * completed from the unused cards.  Adds to wins and ties_k as above, and
 * to *rejected the deals drawn again.  Stops early after max_rejects
 * rejections; returns the deals scored: 0 at once when the weights of a
 * player do not sum to a positive number or too few cards are left to
 * complete the board. */
uint64_t hd_equity_montecarlo(const uint8_t *combos, const double *weights,
                              const uint32_t *start, unsigned n, const uint8_t *board,
                              unsigned nb, uint64_t dead, uint64_t trials, uint64_t seed,
                              uint64_t max_rejects, uint64_t *wins, uint64_t *ties_k,
                              uint64_t *rejected, const int *stop);

/* Monte Carlo over a list of m whole deals: deal j gives player i the
 * cards deals[2(jn + i)] and deals[2(jn + i) + 1].  Each deal is drawn with
 * probability proportional to weights[j] (the caller lists only deals with
 * no card twice and none on the board or dead), then the board is completed
 * as in hd_equity_montecarlo.  No rejections: the choice for ranges whose
 * legal deals are few enough to list.  Returns the deals scored (0 as in
 * hd_equity_montecarlo). */
uint64_t hd_equity_montecarlo_deals(const uint8_t *deals, const double *weights, uint32_t m,
                                    unsigned n, const uint8_t *board, unsigned nb,
                                    uint64_t dead, uint64_t trials, uint64_t seed,
                                    uint64_t *wins, uint64_t *ties_k, const int *stop);

/* Until hd_sigint_end(), SIGINT (Ctrl-C) also sets *stop, then runs the
 * handler that was there before.  Returns 1 if installed, 0 if not: when
 * another call has it installed, or the current handler is the default or
 * ignores the signal (then nothing would follow a stop).  Meant for the
 * thread Python runs its signal handlers in, around one long call. */
int hd_sigint_begin(int *stop);

/* Puts back the handler hd_sigint_begin found (call it only after a 1). */
void hd_sigint_end(void);

#endif
