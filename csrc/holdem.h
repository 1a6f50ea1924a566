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
 * bounds, but gives meaningless values.
 */
#ifndef HOLDEM_H
#define HOLDEM_H

#include <stddef.h>
#include <stdint.h>

#define HD_NUM_CARDS 52
#define HD_NUM_VALUES 7462
/* One past the largest hand value: size for arrays indexed by value. */
#define HD_VALUE_LIMIT (10 << 12)

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

/* Value of the best five of seven cards; 0 if a card is > 51 or repeated. */
uint16_t hd_evaluate7(uint8_t a, uint8_t b, uint8_t c, uint8_t d, uint8_t e,
                      uint8_t f, uint8_t g);

/* Value of the best five of n (5..7) valid cards. */
uint16_t hd_evaluate(const uint8_t *cards, size_t n);

/* out[i] = value of cards[i*k .. i*k+k-1] for i < n; k is 5, 6 or 7. */
void hd_evaluate_batch(const uint8_t *cards, size_t n, unsigned k,
                       uint16_t *out);

/* Index of the first of n k-card hands with a card > 51 or a repeated card,
 * or -1 if all are valid.  Checks anything; assumes nothing. */
int64_t hd_check_batch(const uint8_t *cards, size_t n, unsigned k);

/* Writes the five ranks (0..12) of a value in display order (e.g. full
 * house: trips rank x3 then pair rank x2; wheel: 5 4 3 2 A) and returns
 * its category, or 0 if value is not a hand value. */
int hd_value_ranks(uint16_t value, uint8_t ranks[5]);

/* Counts, into hist[value] (HD_VALUE_LIMIT slots, added to), the value of
 * every hand made of the n_fixed fixed cards plus k cards drawn from the
 * n_pool pool cards, n_fixed + k in 5..7; returns the number of hands. */
uint64_t hd_enumerate(const uint8_t *fixed, unsigned n_fixed,
                      const uint8_t *pool, unsigned n_pool, unsigned k,
                      uint64_t *hist);

#endif
