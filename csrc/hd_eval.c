/* hd_eval.c - the hand evaluator: table construction and evaluation.
 *
 * Tables are built deterministically by hd_init(), in about 20 ms:
 *  - every distinct five-card hand gets a raw score (category, then the five
 *    ranks in display order); sorting the 7,462 scores gives the values;
 *  - flush_value: for each 13-bit rank mask of a suit holding five or
 *    more cards, its best straight flush or flush;
 *  - rank_value / displacement: for each multiset of 5..7 ranks, its
 *    best non-flush hand, in a perfect hash built by hash and displace: the
 *    multisets are spread over buckets by hash, and the buckets, largest
 *    first, each get the smallest displacement that puts all their members
 *    on free slots: 2^17 slots for 73,775 multisets.
 */
#include <stdlib.h>
#include <string.h>

#include "hd_internal.h"

hd_tables_t hd_tables;

static uint32_t sorted_raw[HD_NUM_VALUES];
static unsigned category_start[11];
static int initialized;

/* raw score: category << 20 | five 4-bit ranks in display order. */
static uint32_t raw_score(int category, const int r[5]) {
    return (uint32_t)category << 20 | (uint32_t)r[0] << 16 |
           (uint32_t)r[1] << 12 | (uint32_t)r[2] << 8 | (uint32_t)r[3] << 4 |
           (uint32_t)r[4];
}

/* Top rank of the best straight in a 13-bit rank mask, or -1. */
static int straight_top(unsigned mask) {
    unsigned m = mask << 1 | (mask >> 12 & 1u); /* ace also below the deuce */
    for (int top = 12; top >= 3; top--)
        if ((m >> (top - 3) & 0x1fu) == 0x1fu) return top;
    return -1;
}

static void straight_ranks(int top, int r[5]) {
    for (int i = 0; i < 5; i++) r[i] = top - i >= 0 ? top - i : 12;
}

/* Raw score of the best flush or straight flush of a mask with >= 5 bits. */
static uint32_t flush_raw(unsigned mask) {
    int r[5], n = 0, top = straight_top(mask);
    if (top >= 0) {
        straight_ranks(top, r);
        return raw_score(HD_STRAIGHT_FLUSH, r);
    }
    for (int rank = 12; rank >= 0 && n < 5; rank--)
        if (mask >> rank & 1u) r[n++] = rank;
    return raw_score(HD_FLUSH, r);
}

/* Appends to r[len..] up to `want` ranks present in counts, highest first,
 * skipping the n_used ranks in used. */
static void kickers(const int counts[13], const int *used, int n_used, int r[5],
                   int len, int want) {
    for (int rank = 12; rank >= 0 && want > 0; rank--) {
        int skip = counts[rank] == 0;
        for (int i = 0; i < n_used; i++) skip |= used[i] == rank;
        if (!skip) {
            r[len++] = rank;
            want--;
        }
    }
}

/* Raw score of the best non-flush hand of a rank multiset of 5..7 cards. */
static uint32_t rank_raw(const int counts[13]) {
    int quad = -1, trips[2] = {-1, -1}, pairs[3] = {-1, -1, -1};
    int nt = 0, np = 0, r[5] = {0};
    unsigned mask = 0;
    for (int rank = 12; rank >= 0; rank--) {
        if (counts[rank]) mask |= 1u << rank;
        if (counts[rank] == 4 && quad < 0) quad = rank;
        else if (counts[rank] == 3 && nt < 2) trips[nt++] = rank;
        else if (counts[rank] == 2 && np < 3) pairs[np++] = rank;
    }
    if (quad >= 0) {
        r[0] = r[1] = r[2] = r[3] = quad;
        kickers(counts, &quad, 1, r, 4, 1);
        return raw_score(HD_FOUR_OF_A_KIND, r);
    }
    if (nt && (nt > 1 || np)) {
        int pair = nt > 1 ? trips[1] : -1;
        if (np && pairs[0] > pair) pair = pairs[0];
        r[0] = r[1] = r[2] = trips[0];
        r[3] = r[4] = pair;
        return raw_score(HD_FULL_HOUSE, r);
    }
    int top = straight_top(mask);
    if (top >= 0) {
        straight_ranks(top, r);
        return raw_score(HD_STRAIGHT, r);
    }
    if (nt) {
        r[0] = r[1] = r[2] = trips[0];
        kickers(counts, trips, 1, r, 3, 2);
        return raw_score(HD_THREE_OF_A_KIND, r);
    }
    if (np >= 2) {
        r[0] = r[1] = pairs[0];
        r[2] = r[3] = pairs[1];
        kickers(counts, pairs, 2, r, 4, 1);
        return raw_score(HD_TWO_PAIR, r);
    }
    if (np == 1) {
        r[0] = r[1] = pairs[0];
        kickers(counts, pairs, 1, r, 2, 3);
        return raw_score(HD_ONE_PAIR, r);
    }
    kickers(counts, NULL, 0, r, 0, 5);
    return raw_score(HD_HIGH_CARD, r);
}

static int popcount13(unsigned mask) {
    int n = 0;
    for (; mask; mask &= mask - 1) n++;
    return n;
}

static int cmp_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Hand value of a raw score (binary search in the sorted scores). */
static uint16_t value_of_raw(uint32_t raw) {
    unsigned lo = 0, hi = HD_NUM_VALUES;
    while (lo < hi) {
        unsigned mid = (lo + hi) / 2;
        if (sorted_raw[mid] < raw) lo = mid + 1;
        else hi = mid;
    }
    unsigned category = raw >> 20;
    return (uint16_t)(category << 12 | (lo - category_start[category]));
}

/* Calls fn(counts, size, ctx) for every rank multiset of lo..hi cards with
 * each rank at most 4 times. */
static void for_each_multiset(int lo, int hi,
                              void (*fn)(const int *, int, void *), void *ctx) {
    int counts[13] = {0}, rank = 0, size = 0;
    /* odometer over counts[0..12] in 0..4 with the total capped at hi */
    for (;;) {
        if (size >= lo) fn(counts, size, ctx);
        for (rank = 0; rank < 13; rank++) {
            if (counts[rank] < 4 && size < hi) {
                counts[rank]++;
                size++;
                break;
            }
            size -= counts[rank];
            counts[rank] = 0;
        }
        if (rank == 13) return;
    }
}

static void collect_five(const int *counts, int size, void *ctx) {
    uint32_t **out = ctx;
    unsigned mask = 0;
    if (size != 5) return;
    *(*out)++ = rank_raw(counts);
    for (int rank = 0; rank < 13; rank++)
        if (counts[rank]) mask |= 1u << rank;
    if (popcount13(mask) == 5) *(*out)++ = flush_raw(mask);
}

enum { N_MULTISETS = 6175 + 18395 + 49205, N_BUCKETS = 1 << HD_BUCKET_BITS };

typedef struct {
    uint64_t hash[N_MULTISETS];
    uint16_t value[N_MULTISETS];
    size_t n;
} multisets_t;

static void collect_multiset(const int *counts, int size, void *ctx) {
    multisets_t *m = ctx;
    uint64_t x = 0;
    (void)size;
    for (int rank = 0; rank < 13; rank++) x += (uint64_t)counts[rank] << (3 * rank);
    m->hash[m->n] = x * HD_HASH_MUL;
    m->value[m->n] = value_of_raw(rank_raw(counts));
    m->n++;
}

/* Scratch space of build_rank_table, on the heap and freed after. */
typedef struct {
    multisets_t m;
    uint32_t member[N_MULTISETS], first[N_BUCKETS + 1], fill[N_BUCKETS], by_size[N_BUCKETS];
    uint8_t used[HD_RANK_SLOTS];
} scratch_t;

enum { MAX_BUCKET = 255 };

/* Places each bucket, largest first, at the smallest displacement that puts
 * all its members on free slots; 0, or -1 if one cannot be placed. */
static int place_buckets(scratch_t *w) {
    uint32_t size_count[MAX_BUCKET + 2] = {0}, slots[MAX_BUCKET];
    const uint32_t *first = w->first;
    for (unsigned b = 0; b < N_BUCKETS; b++) {
        if (first[b + 1] - first[b] > MAX_BUCKET) return -1;
        size_count[first[b + 1] - first[b]]++;
    }
    /* counting sort of the buckets by size, largest first */
    for (unsigned size = MAX_BUCKET + 1, start = 0; size-- > 0;) {
        unsigned count = size_count[size];
        size_count[size] = start;
        start += count;
    }
    for (unsigned b = 0; b < N_BUCKETS; b++) w->by_size[size_count[first[b + 1] - first[b]]++] = b;

    for (unsigned k = 0; k < N_BUCKETS; k++) {
        uint32_t b = w->by_size[k], size = first[b + 1] - first[b], d;
        const uint32_t *members = w->member + first[b];
        if (size == 0) break;
        for (d = 0; d < HD_RANK_SLOTS; d++) {
            unsigned i;
            for (i = 0; i < size; i++) {
                slots[i] = hd_slot(w->m.hash[members[i]], d);
                if (w->used[slots[i]]) break;
                w->used[slots[i]] = 1;
            }
            if (i == size) break;
            while (i-- > 0) w->used[slots[i]] = 0;
        }
        if (d == HD_RANK_SLOTS) return -1;
        for (unsigned i = 0; i < size; i++)
            hd_tables.rank_value[slots[i]] = w->m.value[members[i]];
        hd_tables.displacement[b] = d;
    }
    return 0;
}

/* Builds hd_tables.displacement and hd_tables.rank_value; 0, or -1. */
static int build_rank_table(void) {
    scratch_t *w = calloc(1, sizeof *w);
    int status;
    if (!w) return -1;
    for_each_multiset(5, 7, collect_multiset, &w->m);
    /* counting sort of the multisets by bucket: bucket b is
     * member[first[b] .. first[b + 1] - 1] */
    for (size_t i = 0; i < w->m.n; i++) w->first[HD_BUCKET(w->m.hash[i]) + 1]++;
    for (unsigned b = 0; b < N_BUCKETS; b++) w->first[b + 1] += w->first[b];
    memcpy(w->fill, w->first, sizeof w->fill);
    for (size_t i = 0; i < w->m.n; i++) w->member[w->fill[HD_BUCKET(w->m.hash[i])]++] = (uint32_t)i;
    status = place_buckets(w);
    free(w);
    return status;
}

int hd_init(void) {
    uint32_t *out = sorted_raw;
    if (initialized) return 0;
    for_each_multiset(5, 5, collect_five, &out);
    qsort(sorted_raw, HD_NUM_VALUES, sizeof sorted_raw[0], cmp_u32);
    for (int category = 0; category <= 10; category++) {
        unsigned i = 0;
        while (i < HD_NUM_VALUES && (sorted_raw[i] >> 20) < (unsigned)category) i++;
        category_start[category] = i;
    }
    for (unsigned mask = 0; mask < (1u << 13); mask++)
        hd_tables.flush_value[mask] =
            popcount13(mask) >= 5 ? value_of_raw(flush_raw(mask)) : 0;
    for (unsigned c = HD_NUM_CARDS; c < 256; c++) hd_tables.card_bit[c] = HD_BAD_CARD_BIT;
    for (unsigned c = 0; c < HD_NUM_CARDS; c++) {
        hd_tables.card_key[c] = (UINT64_C(1) << (3 * (c >> 2))) + (UINT64_C(1) << (48 + 4 * (c & 3)));
        hd_tables.card_bit[c] = UINT64_C(1) << (16 * (c & 3) + (c >> 2));
    }
    if (build_rank_table() != 0) return -1;
    initialized = 1;
    return 0;
}

size_t hd_table_bytes(void) { return sizeof hd_tables; }

const void *hd_tables_address(void) { return &hd_tables; }

/* Value of n cards into *value if they are valid and distinct; else 0. */
static inline int evaluate_checked(const uint8_t *cards, size_t n, uint16_t *value) {
    uint64_t key = HD_KEY_INIT, or_bits = 0, sum_bits = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t bit = hd_tables.card_bit[cards[i]];
        key += hd_tables.card_key[cards[i]];
        or_bits |= bit;
        sum_bits += bit;
    }
    if (!hd_cards_ok(or_bits, sum_bits)) return 0;
    *value = hd_lookup(key, or_bits);
    return 1;
}

uint16_t hd_evaluate7(uint8_t a, uint8_t b, uint8_t c, uint8_t d, uint8_t e,
                      uint8_t f, uint8_t g) {
    const uint8_t cards[7] = {a, b, c, d, e, f, g};
    uint16_t value = 0;
    evaluate_checked(cards, 7, &value);
    return value;
}

uint16_t hd_evaluate(const uint8_t *cards, size_t n) {
    return hd_evaluate_in(&hd_tables, cards, n);
}

/* The batch loops over hands [from, to) for a constant k, so that the
 * compiler unrolls them. */
#define BATCH(k)                                                                        \
    do {                                                                                \
        for (size_t i = from; i < to; i++)                                              \
            out[i] = hd_evaluate_in(&hd_tables, cards + (k) * i, (k));                  \
    } while (0)
#define BATCH_CHECKED(k)                                                                \
    do {                                                                                \
        for (size_t i = from; i < to; i++)                                              \
            if (!evaluate_checked(cards + (k) * i, (k), &out[i])) return (int64_t)i;    \
    } while (0)

/* Values hands [from, to): -1, or with `checked` the index of the first
 * hand with a bad or repeated card (valued no further). */
static inline int64_t batch_block(const uint8_t *cards, size_t from, size_t to, unsigned k,
                                  uint16_t *out, int checked) {
    if (checked) {
        switch (k) {
        case 7: BATCH_CHECKED(7); break;
        case 6: BATCH_CHECKED(6); break;
        default: BATCH_CHECKED(5); break;
        }
    } else {
        switch (k) {
        case 7: BATCH(7); break;
        case 6: BATCH(6); break;
        default: BATCH(5); break;
        }
    }
    return -1;
}

/* Both batch entry points: blocks of HD_STOP_EVERY hands, *stop read between
 * two blocks.  Returns -1 when all n were valued, a bad hand's index, or
 * HD_STOPPED; *done is the number of hands valued. */
static inline int64_t batch(const uint8_t *cards, size_t n, unsigned k, uint16_t *out,
                            const int *stop, int checked, size_t *done) {
    for (size_t from = 0; from < n; from += HD_STOP_EVERY) {
        size_t to = n - from > HD_STOP_EVERY ? from + HD_STOP_EVERY : n;
        int64_t bad;
        *done = from;
        if (hd_stopped(stop)) return HD_STOPPED;
        bad = batch_block(cards, from, to, k, out, checked);
        if (bad >= 0) return bad;
    }
    *done = n;
    return -1;
}

size_t hd_evaluate_batch(const uint8_t *cards, size_t n, unsigned k, uint16_t *out,
                         const int *stop) {
    size_t done = 0;
    if (k >= 5 && k <= 7) batch(cards, n, k, out, stop, 0, &done);
    return done;
}

int64_t hd_evaluate_batch_checked(const uint8_t *cards, size_t n, unsigned k, uint16_t *out,
                                  const int *stop) {
    size_t done;
    if (k < 5 || k > 7) return 0;
    return batch(cards, n, k, out, stop, 1, &done);
}

int hd_value_ranks(uint16_t value, uint8_t ranks[5]) {
    unsigned category = value >> 12, index = value & 0xfffu;
    if (category < HD_HIGH_CARD || category > HD_STRAIGHT_FLUSH ||
        category_start[category] + index >= category_start[category + 1])
        return 0;
    uint32_t raw = sorted_raw[category_start[category] + index];
    for (int i = 0; i < 5; i++) ranks[i] = (uint8_t)(raw >> (16 - 4 * i) & 0xfu);
    return (int)category;
}
