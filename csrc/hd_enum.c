/* hd_enum.c - exhaustive enumeration of hands drawn from a set of cards.
 *
 * The rank keys add, so each level of the enumeration extends the partial
 * sums of the level above by one card: a hand costs one add, one or and one
 * lookup however many cards it has.
 */
#include "hd_internal.h"

typedef struct {
    uint64_t key[HD_NUM_CARDS], bits[HD_NUM_CARDS];
    unsigned n;
    uint64_t *hist;
    const int *stop;
} pool_t;

/* Every choice of 2 cards from pool[from..]: the innermost levels, flat
 * (at most 1,275 hands, so the stop flag is read once a call). */
static uint64_t enum_two(const pool_t *p, unsigned from, uint64_t key,
                         uint64_t bits) {
    uint64_t *hist = p->hist;
    if (hd_stopped(p->stop)) return 0;
    for (unsigned i = from; i + 1 < p->n; i++) {
        uint64_t k1 = key + p->key[i], b1 = bits | p->bits[i];
        for (unsigned j = i + 1; j < p->n; j++)
            hist[hd_lookup(k1 + p->key[j], b1 | p->bits[j])]++;
    }
    uint64_t m = p->n > from ? p->n - from : 0;
    return m < 2 ? 0 : m * (m - 1) / 2;
}

/* Every choice of k >= 2 cards from pool[from..] added to (key, bits). */
static uint64_t enum_k(const pool_t *p, unsigned from, unsigned k, uint64_t key,
                       uint64_t bits) {
    uint64_t total = 0;
    if (k == 2) return enum_two(p, from, key, bits);
    for (unsigned i = from; i + k <= p->n; i++)
        total += enum_k(p, i + 1, k - 1, key + p->key[i], bits | p->bits[i]);
    return total;
}

uint64_t hd_enumerate(const uint8_t *fixed, unsigned n_fixed,
                      const uint8_t *pool, unsigned n_pool, unsigned k,
                      uint64_t *hist, const int *stop) {
    pool_t p;
    uint64_t key = HD_KEY_INIT, bits = 0;
    for (unsigned i = 0; i < n_fixed; i++) {
        key += hd_tables.card_key[fixed[i]];
        bits |= hd_tables.card_bit[fixed[i]];
    }
    if (n_pool > HD_NUM_CARDS || k > n_pool) return 0;
    if (k == 0) {
        hist[hd_lookup(key, bits)]++;
        return 1;
    }
    if (k == 1) {
        for (unsigned i = 0; i < n_pool; i++)
            hist[hd_lookup(key + hd_tables.card_key[pool[i]], bits | hd_tables.card_bit[pool[i]])]++;
        return n_pool;
    }
    p.n = n_pool;
    p.hist = hist;
    p.stop = stop;
    for (unsigned i = 0; i < n_pool; i++) {
        p.key[i] = hd_tables.card_key[pool[i]];
        p.bits[i] = hd_tables.card_bit[pool[i]];
    }
    return enum_k(&p, 0, k, key, bits);
}
