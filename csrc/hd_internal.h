/* hd_internal.h - the evaluator's tables and its inline lookup, shared by
 * the C files of the core.  Not part of the public API.
 *
 * A hand is summed into two 64-bit words, so partial hands (hole cards, a
 * board) can be summed once and extended card by card:
 *
 *   key:  bits 0..38 the count of each rank, 3 bits a rank (rank r adds
 *         1 << 3r), bits 48..63 four 4-bit suit counters that start at 3, so
 *         a suit reaches bit 3 of its counter exactly when it holds five cards;
 *   bits: the cards as a mask, 16 bits per suit, bit (16 * suit + rank).
 *
 * With at most 7 cards and a flush, no quads or full house is possible, so a
 * flush hand is valued by its suit's 13-bit mask alone; any other hand by its
 * rank counts, through a perfect hash (hash and displace): the counts
 * pick a bucket, the bucket's displacement picks the slot.
 */
#ifndef HD_INTERNAL_H
#define HD_INTERNAL_H

#include <stdint.h>

#include "holdem.h"

#if defined(_MSC_VER)
#include <intrin.h>
static inline unsigned hd_ctz64(uint64_t x) {
    unsigned long i;
    _BitScanForward64(&i, x);
    return (unsigned)i;
}
#else
#define hd_ctz64(x) ((unsigned)__builtin_ctzll(x))
#endif

/* The 52 card bits of a card mask. */
#define HD_ALL_CARDS ((UINT64_C(1) << HD_NUM_CARDS) - 1)
#define HD_KEY_INIT (UINT64_C(0x3333) << 48)
#define HD_FLUSH_FLAGS UINT64_C(0x8888)
#define HD_COUNT_MASK ((UINT64_C(1) << 39) - 1)
#define HD_BUCKET_BITS 13
#define HD_RANK_SLOTS (1u << 17) /* for 73,775 rank multisets of 5..7 cards */
#define HD_BUCKET(hash) ((uint32_t)((hash) >> (64 - HD_BUCKET_BITS)))
/* card_bit of a byte that is not a card: an unused bit (a 16-bit suit lane
 * holds 13 ranks), so that checked paths can spot it; lookups ignore it. */
#define HD_BAD_CARD_BIT (UINT64_C(1) << 15)
#define HD_HASH_MUL UINT64_C(0x9E3779B97F4A7C15)
#define HD_DISP_MUL 0x85EBCA6Bu
#define HD_SLOT_MUL 0xC2B2AE35u

/* All the tables a lookup reads, in one block so that another extension
 * module of the package can read them in place (see hd_fastcall.c). */
typedef struct {
    /* indexed by any byte: entries past 51 are zero, so bad input stays in bounds */
    uint64_t card_key[256];
    uint64_t card_bit[256];
    uint16_t flush_value[1 << 13];
    uint32_t displacement[1 << HD_BUCKET_BITS];
    uint16_t rank_value[HD_RANK_SLOTS];
} hd_tables_t;

extern hd_tables_t hd_tables;

/* Address of hd_tables, for the per-hand extension module. */
const void *hd_tables_address(void);

/* Slot of the rank counts whose hash is h, in a bucket displaced by d. */
static inline uint32_t hd_slot(uint64_t h, uint32_t d) {
    return ((uint32_t)(h >> 16) + d) & (HD_RANK_SLOTS - 1);
}

/* Value of a hand of 5..7 cards summed into key (from HD_KEY_INIT) and bits. */
static inline uint16_t hd_lookup_in(const hd_tables_t *t, uint64_t key, uint64_t bits) {
    uint64_t flush = (key >> 48) & HD_FLUSH_FLAGS;
    if (flush) {
        unsigned shift = hd_ctz64(flush) & ~3u; /* 4 * suit */
        return t->flush_value[(bits >> (4 * shift)) & 0x1fff];
    }
    uint64_t h = (key & HD_COUNT_MASK) * HD_HASH_MUL;
    return t->rank_value[hd_slot(h, t->displacement[HD_BUCKET(h)])];
}

static inline uint16_t hd_lookup(uint64_t key, uint64_t bits) {
    return hd_lookup_in(&hd_tables, key, bits);
}

/* Whether the cards whose bits were or-ed into or_bits and added into
 * sum_bits are all valid and distinct (a repeated card makes a carry). */
static inline int hd_cards_ok(uint64_t or_bits, uint64_t sum_bits) {
    return or_bits == sum_bits && !(or_bits & HD_BAD_CARD_BIT);
}

/* Work between two reads of a stop flag: hands, deals or boards. */
#define HD_STOP_EVERY 4096u

/* Whether the caller asked the work to stop (see holdem.h).  volatile: another
 * thread or a signal handler sets the flag while the loop runs. */
static inline int hd_stopped(const int *stop) {
    return stop != NULL && *(const volatile int *)stop != 0;
}

/* Number of set bits of a 64-bit word. */
static inline unsigned hd_popcount64(uint64_t x) {
    x = x - ((x >> 1) & UINT64_C(0x5555555555555555));
    x = (x & UINT64_C(0x3333333333333333)) + ((x >> 2) & UINT64_C(0x3333333333333333));
    x = (x + (x >> 4)) & UINT64_C(0x0f0f0f0f0f0f0f0f);
    return (unsigned)((x * UINT64_C(0x0101010101010101)) >> 56);
}

/* Value of n (5..7) valid cards. */
static inline uint16_t hd_evaluate_in(const hd_tables_t *t, const uint8_t *cards, size_t n) {
    uint64_t key = HD_KEY_INIT, bits = 0;
    for (size_t i = 0; i < n; i++) {
        key += t->card_key[cards[i]];
        bits |= t->card_bit[cards[i]];
    }
    return hd_lookup_in(t, key, bits);
}

#endif
