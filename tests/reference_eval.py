"""A slow, independent hand evaluator used as the tests' reference.

It shares no code or tables with holdem: it scores every five-card subset
directly from the poker rules and keeps the best.  A score is a tuple
(category, tie-break ranks...) where tuples compare as hands do.
Cards are (rank, suit) pairs with rank 2..14 (ace 14).
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

HIGH, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(1, 10)


def card_tuple(card: int) -> tuple[int, int]:
    """holdem's card int (rank * 4 + suit, deuce = 0) as (rank 2..14, suit)."""
    return card // 4 + 2, card % 4


def score5(cards: list[tuple[int, int]]) -> tuple[int, ...]:
    ranks = sorted((r for r, _ in cards), reverse=True)
    flush = len({s for _, s in cards}) == 1
    distinct = sorted(set(ranks), reverse=True)
    straight_high = 0
    if len(distinct) == 5:
        if distinct[0] - distinct[4] == 4:
            straight_high = distinct[0]
        elif distinct == [14, 5, 4, 3, 2]:
            straight_high = 5
    if straight_high and flush:
        return (STRAIGHT_FLUSH, straight_high)
    # ranks grouped by how many times they occur, then by rank
    groups = sorted(Counter(ranks).items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    shape = [n for _, n in groups]
    order = tuple(r for r, _ in groups)
    if shape == [4, 1]:
        return (QUADS, *order)
    if shape == [3, 2]:
        return (FULL_HOUSE, *order)
    if flush:
        return (FLUSH, *ranks)
    if straight_high:
        return (STRAIGHT, straight_high)
    if shape == [3, 1, 1]:
        return (TRIPS, *order)
    if shape == [2, 2, 1]:
        return (TWO_PAIR, *order)
    if shape == [2, 1, 1, 1]:
        return (PAIR, *order)
    return (HIGH, *ranks)


def score(cards: list[int]) -> tuple[int, ...]:
    """Best score of 5 to 7 holdem card ints."""
    hand = [card_tuple(c) for c in cards]
    return max(score5(list(five)) for five in combinations(hand, 5))
