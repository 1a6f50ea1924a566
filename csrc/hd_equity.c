/* hd_equity.c - equities: exact enumeration of boards, and Monte Carlo.
 *
 * Both add, per player, three kinds of counts over the deals they look at:
 * wins (the player alone has the best hand), ties_k[i * HD_TIE_SLOTS + k]
 * (the player shares the best hand with k - 1 others) and, for Monte Carlo,
 * the sum of squares of the player's share of the pot, for standard errors.
 * A player's equity is (wins + sum over k of ties_k / k) / deals, and the sum
 * of the squares of its shares, for a standard error, wins + ties_k / k^2.
 */
#include <float.h>
#include <stdlib.h>
#include <string.h>

#include "hd_internal.h"

typedef struct {
    unsigned n;
    uint64_t key[HD_MAX_PLAYERS], bits[HD_MAX_PLAYERS];
    uint64_t *wins, *ties_k;
} showdown_t;

/* Values one complete board (summed into key, bits) for every player; sets
 * bit i of *winners for each player with the best hand; returns how many. */
static inline unsigned showdown(const showdown_t *s, uint64_t key, uint64_t bits,
                                uint32_t *winners) {
    uint16_t best = 0;
    unsigned count = 0;
    uint32_t mask = 0;
    for (unsigned i = 0; i < s->n; i++) {
        uint16_t value = hd_lookup(key + s->key[i], bits | s->bits[i]);
        if (value > best) {
            best = value;
            count = 1;
            mask = UINT32_C(1) << i;
        } else if (value == best) {
            count++;
            mask |= UINT32_C(1) << i;
        }
    }
    *winners = mask;
    return count;
}

/* Adds one deal's result to the counts. */
static inline void tally(const showdown_t *s, uint32_t winners, unsigned count) {
    if (count == 1) {
        s->wins[hd_ctz64(winners)]++;
        return;
    }
    for (; winners; winners &= winners - 1)
        s->ties_k[hd_ctz64(winners) * HD_TIE_SLOTS + count]++;
}

static inline void score(const showdown_t *s, uint64_t key, uint64_t bits) {
    uint32_t winners;
    unsigned count = showdown(s, key, bits, &winners);
    tally(s, winners, count);
}

/* The board cards summed into a key (from HD_KEY_INIT) and bits, and or-ed
 * into *used as a 52-bit mask. */
static void sum_board(const uint8_t *board, unsigned nb, uint64_t *key, uint64_t *bits,
                      uint64_t *used) {
    *key = HD_KEY_INIT;
    *bits = 0;
    for (unsigned i = 0; i < nb; i++) {
        *key += hd_tables.card_key[board[i]];
        *bits |= hd_tables.card_bit[board[i]];
        *used |= UINT64_C(1) << board[i];
    }
}

/* Every choice of k cards from deck[from..nd) added to the board sums.  (No
 * stop flag in here: even read once per thousand boards it cost 2 to 3% of the
 * heads-up time; hd_equity_enumerate reads it between first board cards.) */
static uint64_t enumerate_boards(const showdown_t *s, const uint64_t *dk, const uint64_t *db,
                                 unsigned nd, unsigned from, unsigned k, uint64_t key,
                                 uint64_t bits) {
    uint64_t total = 0;
    if (k == 1 && s->n == 2) {
        /* heads-up, the common case: two lookups and three counters a board */
        uint64_t key0 = key + s->key[0], key1 = key + s->key[1];
        uint64_t bits0 = bits | s->bits[0], bits1 = bits | s->bits[1];
        uint64_t win0 = 0, win1 = 0, tie = 0;
        for (unsigned i = from; i < nd; i++) {
            uint16_t v0 = hd_lookup(key0 + dk[i], bits0 | db[i]);
            uint16_t v1 = hd_lookup(key1 + dk[i], bits1 | db[i]);
            win0 += v0 > v1;
            win1 += v1 > v0;
            tie += v0 == v1;
        }
        s->wins[0] += win0;
        s->wins[1] += win1;
        s->ties_k[2] += tie;
        s->ties_k[HD_TIE_SLOTS + 2] += tie;
        return nd - from;
    }
    if (k == 1) {
        for (unsigned i = from; i < nd; i++) score(s, key + dk[i], bits | db[i]);
        return nd - from;
    }
    for (unsigned i = from; i + k <= nd; i++)
        total += enumerate_boards(s, dk, db, nd, i + 1, k - 1, key + dk[i], bits | db[i]);
    return total;
}

uint64_t hd_equity_enumerate(const uint8_t *holes, unsigned n, const uint8_t *board,
                             unsigned nb, const uint8_t *deck, unsigned nd, unsigned lo,
                             unsigned hi, uint64_t *wins, uint64_t *ties_k,
                             const int *stop) {
    showdown_t s;
    uint64_t dk[HD_NUM_CARDS], db[HD_NUM_CARDS], key, bits, used = 0, total = 0;
    unsigned k = 5 - nb;
    if (n < 2 || n > HD_MAX_PLAYERS || nb > 5 || nd > HD_NUM_CARDS) return 0;
    s.n = n;
    s.wins = wins;
    s.ties_k = ties_k;
    for (unsigned i = 0; i < n; i++) {
        s.key[i] = hd_tables.card_key[holes[2 * i]] + hd_tables.card_key[holes[2 * i + 1]];
        s.bits[i] = hd_tables.card_bit[holes[2 * i]] | hd_tables.card_bit[holes[2 * i + 1]];
    }
    sum_board(board, nb, &key, &bits, &used);
    if (k == 0) {
        if (lo > 0) return 0;
        score(&s, key, bits);
        return 1;
    }
    for (unsigned i = 0; i < nd; i++) {
        dk[i] = hd_tables.card_key[deck[i]];
        db[i] = hd_tables.card_bit[deck[i]];
    }
    if (hi > nd) hi = nd;
    /* the stop flag is read once per first board card: at most C(47, 4) boards */
    for (unsigned i = lo; i < hi && i + k <= nd && !hd_stopped(stop); i++) {
        if (k == 1) {
            score(&s, key + dk[i], bits | db[i]);
            total++;
        } else {
            total += enumerate_boards(&s, dk, db, nd, i + 1, k - 1, key + dk[i], bits | db[i]);
        }
    }
    return total;
}

size_t hd_equity_enumerate_batch(const uint8_t *holes, unsigned n, const uint8_t *board,
                                 unsigned nb, const uint8_t *decks, unsigned nd,
                                 const uint32_t *lo, const uint32_t *hi, size_t m,
                                 uint64_t *count, uint64_t *wins, uint64_t *ties_k,
                                 const int *stop) {
    size_t j;
    /* each slice is one hd_equity_enumerate, which reads the flag per first
     * board card; read here too, for slices of a river board (no card left) */
    for (j = 0; j < m && !hd_stopped(stop); j++) {
        size_t row = (size_t)n * j;
        count[j] = hd_equity_enumerate(holes + 2 * row, n, board, nb, decks + (size_t)nd * j, nd,
                                       lo[j], hi[j], wins + row, ties_k + row * HD_TIE_SLOTS, stop);
    }
    return j;
}

/* ---- Monte Carlo ------------------------------------------------------ */

/* xoshiro256** (Blackman and Vigna), seeded through splitmix64. */
typedef struct {
    uint64_t s[4];
} rng_t;

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t rng_next(rng_t *r) {
    uint64_t *s = r->s, result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

static void rng_seed(rng_t *r, uint64_t seed) {
    for (int i = 0; i < 4; i++) {
        uint64_t z = (seed += UINT64_C(0x9E3779B97F4A7C15));
        z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
        z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
        r->s[i] = z ^ (z >> 31);
    }
}

/* Uniform integer in [0, bound), bound >= 1, without bias (Lemire). */
static inline uint32_t rng_below(rng_t *r, uint32_t bound) {
    uint64_t m = (uint64_t)(uint32_t)(rng_next(r) >> 32) * bound;
    uint32_t low = (uint32_t)m;
    if (low < bound) {
        uint32_t threshold = (0u - bound) % bound; /* 2^32 mod bound */
        while (low < threshold) {
            m = (uint64_t)(uint32_t)(rng_next(r) >> 32) * bound;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

/* Walker's alias table over m weights: draw = one uniform slot, one coin. */
typedef struct {
    uint32_t m;
    uint32_t *alias;
    uint64_t *cut; /* keep slot j if 53-bit uniform < cut[j] */
} alias_t;

static int alias_build(alias_t *a, const double *w, uint32_t m) {
    double total = 0, *scaled = malloc(m * sizeof *scaled);
    uint32_t *small = malloc(m * sizeof *small), *large = malloc(m * sizeof *large);
    uint32_t ns = 0, nl = 0;
    a->m = m;
    a->alias = malloc(m * sizeof *a->alias);
    a->cut = malloc(m * sizeof *a->cut);
    for (uint32_t j = 0; scaled && j < m; j++) total += w[j];
    /* no weights, or weights that sum to nothing usable (0, NaN, infinity) */
    if (!scaled || !small || !large || !a->alias || !a->cut || !(total > 0) ||
        !(total <= DBL_MAX)) {
        free(scaled), free(small), free(large), free(a->alias), free(a->cut);
        a->alias = NULL, a->cut = NULL;
        return -1;
    }
    for (uint32_t j = 0; j < m; j++) {
        scaled[j] = w[j] > 0 ? w[j] * m / total : 0.0;
        if (scaled[j] < 1.0) small[ns++] = j;
        else large[nl++] = j;
    }
    while (ns && nl) {
        uint32_t s = small[--ns], l = large[nl - 1];
        a->cut[s] = (uint64_t)(scaled[s] * 9007199254740992.0); /* 2^53 */
        a->alias[s] = l;
        scaled[l] -= 1.0 - scaled[s];
        if (scaled[l] < 1.0) {
            nl--;
            small[ns++] = l;
        }
    }
    /* what is left is 1 up to rounding */
    while (nl) a->cut[large[--nl]] = UINT64_C(1) << 53, a->alias[large[nl]] = large[nl];
    while (ns) a->cut[small[--ns]] = UINT64_C(1) << 53, a->alias[small[ns]] = small[ns];
    free(scaled), free(small), free(large);
    return 0;
}

static inline uint32_t alias_draw(const alias_t *a, rng_t *r) {
    if (a->m == 1) return 0;
    uint32_t j = rng_below(r, a->m);
    return (rng_next(r) >> 11) < a->cut[j] ? j : a->alias[j];
}

/* Adds the k cards still to come to (key, bits), drawn uniformly from the
 * cards not in *used (exact: a 32-bit draw that would favour some cards is
 * thrown away), two draws per random word.  The caller makes sure that at
 * least k cards are not in *used: otherwise this would never return. */
static inline void draw_board(rng_t *rng, unsigned k, uint64_t *used, uint64_t *key,
                              uint64_t *bits) {
    const uint32_t threshold = (uint32_t)((UINT64_C(1) << 32) % HD_NUM_CARDS); /* 48 */
    unsigned j = 0;
    while (j < k) {
        uint64_t x = rng_next(rng);
        for (int half = 0; half < 2 && j < k; half++, x >>= 32) {
            uint64_t m = (x & 0xffffffffu) * HD_NUM_CARDS;
            unsigned card = (unsigned)(m >> 32);
            if ((uint32_t)m < threshold || (*used >> card & 1)) continue;
            *used |= UINT64_C(1) << card;
            *key += hd_tables.card_key[card];
            *bits |= hd_tables.card_bit[card];
            j++;
        }
    }
}

uint64_t hd_equity_montecarlo(const uint8_t *combos, const double *weights,
                              const uint32_t *start, unsigned n, const uint8_t *board,
                              unsigned nb, uint64_t dead, uint64_t trials, uint64_t seed,
                              uint64_t max_rejects, uint64_t *wins, uint64_t *ties_k,
                              uint64_t *rejected, const int *stop) {
    alias_t table[HD_MAX_PLAYERS];
    unsigned drawn[HD_MAX_PLAYERS], n_drawn = 0; /* the players with a choice of combos */
    showdown_t s;
    rng_t rng;
    uint64_t base_key, base_bits, used0 = dead, done = 0, rejects = 0;
    unsigned k = 5 - nb;
    int ok = 1;
    if (n < 2 || n > HD_MAX_PLAYERS || nb > 5) return 0;
    sum_board(board, nb, &base_key, &base_bits, &used0);
    s.n = n;
    s.wins = wins;
    s.ties_k = ties_k;
    for (unsigned i = 0; i < n; i++) {
        const uint8_t *c = combos + 2 * start[i];
        if (start[i + 1] - start[i] == 1) { /* a known hand: once for all deals */
            uint64_t pair = (UINT64_C(1) << c[0]) | (UINT64_C(1) << c[1]);
            if (used0 & pair) ok = 0;
            used0 |= pair;
            s.key[i] = hd_tables.card_key[c[0]] + hd_tables.card_key[c[1]];
            s.bits[i] = hd_tables.card_bit[c[0]] | hd_tables.card_bit[c[1]];
        } else if (alias_build(&table[n_drawn], weights + start[i], start[i + 1] - start[i]) == 0) {
            drawn[n_drawn++] = i;
        } else {
            ok = 0;
        }
    }
    /* every deal takes the same number of cards: is any left for the board? */
    if (hd_popcount64(used0 & HD_ALL_CARDS) + 2 * n_drawn + k > HD_NUM_CARDS) ok = 0;
    rng_seed(&rng, seed);
    /* in blocks of at most HD_STOP_EVERY deals and as many rejections, with the
     * stop flag read between two blocks */
    while (ok && done < trials && rejects <= max_rejects && !hd_stopped(stop)) {
        uint64_t done_to = trials - done > HD_STOP_EVERY ? done + HD_STOP_EVERY : trials;
        uint64_t rejects_to =
            max_rejects - rejects > HD_STOP_EVERY ? rejects + HD_STOP_EVERY : max_rejects;
        while (done < done_to && rejects <= rejects_to) {
            uint64_t used = used0, key = base_key, bits = base_bits;
            unsigned d;
            for (d = 0; d < n_drawn; d++) {
                unsigned i = drawn[d];
                const uint8_t *c = combos + 2 * (start[i] + alias_draw(&table[d], &rng));
                uint64_t pair = (UINT64_C(1) << c[0]) | (UINT64_C(1) << c[1]);
                if (used & pair) break;
                used |= pair;
                s.key[i] = hd_tables.card_key[c[0]] + hd_tables.card_key[c[1]];
                s.bits[i] = hd_tables.card_bit[c[0]] | hd_tables.card_bit[c[1]];
            }
            if (d < n_drawn) { /* a collision: draw the whole deal again, so no bias */
                rejects++;
                continue;
            }
            draw_board(&rng, k, &used, &key, &bits);
            score(&s, key, bits);
            done++;
        }
    }
    for (unsigned d = 0; d < n_drawn; d++) free(table[d].alias), free(table[d].cut);
    *rejected += rejects;
    return done;
}

uint64_t hd_equity_montecarlo_deals(const uint8_t *deals, const double *weights, uint32_t m,
                                    unsigned n, const uint8_t *board, unsigned nb,
                                    uint64_t dead, uint64_t trials, uint64_t seed,
                                    uint64_t *wins, uint64_t *ties_k, const int *stop) {
    alias_t table;
    showdown_t s;
    rng_t rng;
    uint64_t base_key, base_bits, used0 = dead;
    uint64_t t;
    unsigned k = 5 - nb;
    if (n < 2 || n > HD_MAX_PLAYERS || nb > 5 || m == 0) return 0;
    sum_board(board, nb, &base_key, &base_bits, &used0);
    /* a deal adds its 2n cards to these (fewer if, against the contract, it
     * shares some with the board or the dead cards: then more are left) */
    if (hd_popcount64(used0 & HD_ALL_CARDS) + 2 * n + k > HD_NUM_CARDS) return 0;
    if (alias_build(&table, weights, m)) return 0;
    s.n = n;
    s.wins = wins;
    s.ties_k = ties_k;
    rng_seed(&rng, seed);
    for (t = 0; t < trials && !hd_stopped(stop);) { /* blocks, as in hd_equity_montecarlo */
        uint64_t to = trials - t > HD_STOP_EVERY ? t + HD_STOP_EVERY : trials;
        for (; t < to; t++) {
            const uint8_t *c = deals + 2 * (size_t)n * alias_draw(&table, &rng);
            uint64_t used = used0, key = base_key, bits = base_bits;
            for (unsigned i = 0; i < n; i++, c += 2) {
                used |= (UINT64_C(1) << c[0]) | (UINT64_C(1) << c[1]);
                s.key[i] = hd_tables.card_key[c[0]] + hd_tables.card_key[c[1]];
                s.bits[i] = hd_tables.card_bit[c[0]] | hd_tables.card_bit[c[1]];
            }
            draw_board(&rng, k, &used, &key, &bits);
            score(&s, key, bits);
        }
    }
    free(table.alias), free(table.cut);
    return t;
}
