"""Hand evaluation: the typed Python face of the C evaluator.

A :data:`HandValue` is an ``int``: higher is better, equal values tie, and
``value >> 12`` is the :class:`Category`.  There are exactly 7,462 distinct
values.  ``max(hands, key=evaluate)`` picks a winner.

>>> v = evaluate("AsKs QhJhTh 9h2c")
>>> category(v).label, describe(v)
('Straight', 'Straight, Ace high')
>>> evaluate("2c2d 5h5s Kh Kd Ks") > evaluate("AcAd 5h5s Kh Kd 2s")
True

Three ways in, from the most checked to the fastest:

- :func:`evaluate` takes text or card ints, validates them and raises
  :class:`~holdem.errors.InvalidCardError` on bad input;
- :func:`evaluate7` takes seven card ints and is the bare C call: it returns
  0 instead of raising when a card is out of range or repeated;
- :func:`evaluate_many` values millions of hands from a byte buffer in one call.
"""

from __future__ import annotations

import itertools
from array import array
from collections.abc import Callable, Iterable, Sequence
from enum import IntEnum
from typing import Any, TypeAlias

from . import _fastcall
from ._core import ffi, lib
from .cards import RANK_NAMES, Card, format_card, parse_cards
from .errors import HoldemError, InvalidCardError

HandValue: TypeAlias = int
CardsLike: TypeAlias = "str | Iterable[Card | str]"

if lib.hd_init() != 0:  # pragma: no cover - would be a bug in the table builder
    raise HoldemError("the evaluator's lookup tables could not be built")

NUM_VALUES = lib.HD_NUM_VALUES
#: One more than the largest hand value (the size of a table indexed by value).
VALUE_LIMIT = lib.HD_VALUE_LIMIT


class Category(IntEnum):
    """Hand categories, weakest first; ``value >> 12`` of a :data:`HandValue`."""

    HIGH_CARD = 1
    ONE_PAIR = 2
    TWO_PAIR = 3
    THREE_OF_A_KIND = 4
    STRAIGHT = 5
    FLUSH = 6
    FULL_HOUSE = 7
    FOUR_OF_A_KIND = 8
    STRAIGHT_FLUSH = 9

    @property
    def label(self) -> str:
        """The name players use: ``Category.TWO_PAIR.label == 'Two Pair'``."""
        return _LABELS[self]


_LABELS = dict(zip(Category, (
    "High Card", "One Pair", "Two Pair", "Three of a Kind", "Straight",
    "Flush", "Full House", "Four of a Kind", "Straight Flush",
), strict=True))  # fmt: skip


def _evaluate_checked(cards: CardsLike) -> HandValue:
    """:func:`evaluate` for what the C fast path does not take: parses, validates."""
    parsed = parse_cards(cards)
    _check_count(parsed)
    return int(lib.hd_evaluate(bytes(parsed), len(parsed)))


_fastcall.bind(int(ffi.cast("uintptr_t", lib.hd_tables_address())), _evaluate_checked)

#: ``evaluate(cards)``: value of the best five of 5, 6 or 7 cards, given as
#: text (``"AsKs QhJhTh 9h2c"``) or as card ints or text items.  Raises
#: :class:`~holdem.errors.InvalidCardError` naming the bad card.  A list or
#: tuple of ints is valued in C without any Python-level work.
evaluate: Callable[[CardsLike], HandValue] = _fastcall.evaluate

#: ``evaluate7(a, b, c, d, e, f, g)``: value of seven card ints, or 0 if a
#: card is not in 0..51 or is repeated.  The bare C call, for hot loops.
evaluate7: Callable[[int, int, int, int, int, int, int], HandValue] = _fastcall.evaluate7


def _check_count(cards: Sequence[Card]) -> None:
    if not 5 <= len(cards) <= 7:
        raise InvalidCardError(f"a hand has 5 to 7 cards, got {len(cards)}")


def category(value: HandValue) -> Category:
    """The :class:`Category` of a hand value."""
    _ranks(value)
    return Category(value >> 12)


def _ranks(value: HandValue) -> tuple[int, ...]:
    """The five ranks of a value in display order (full house: trips first)."""
    out = ffi.new("uint8_t[5]")
    if (
        not isinstance(value, int)
        or not 0 <= value < VALUE_LIMIT
        or not lib.hd_value_ranks(value, out)
    ):
        raise HoldemError(f"{value!r} is not a hand value")
    return tuple(out)


_PLURAL = tuple(name + ("es" if name == "Six" else "s") for name in RANK_NAMES)


def describe(value: HandValue, *, kickers: bool = False) -> str:
    """Describes a hand value as players say it.

    >>> describe(evaluate("KsKd9h9c2s"))
    'Two Pair, Kings and Nines'
    >>> describe(evaluate("KsKd9h9c2s"), kickers=True)
    'Two Pair, Kings and Nines, Two kicker'
    >>> describe(evaluate("5c4d3h2sAs"))
    'Straight, Five high'
    """
    r = _ranks(value)
    cat = Category(value >> 12)
    name, plural = RANK_NAMES, _PLURAL
    kick: tuple[int, ...] = ()
    if cat is Category.STRAIGHT_FLUSH:
        text = "Royal Flush" if r[0] == 12 else f"Straight Flush, {name[r[0]]} high"
    elif cat is Category.FOUR_OF_A_KIND:
        text, kick = f"Four of a Kind, {plural[r[0]]}", r[4:]
    elif cat is Category.FULL_HOUSE:
        text = f"Full House, {plural[r[0]]} full of {plural[r[3]]}"
    elif cat is Category.FLUSH:
        text, kick = f"Flush, {name[r[0]]} high", r[1:]
    elif cat is Category.STRAIGHT:
        text = f"Straight, {name[r[0]]} high"
    elif cat is Category.THREE_OF_A_KIND:
        text, kick = f"Three of a Kind, {plural[r[0]]}", r[3:]
    elif cat is Category.TWO_PAIR:
        text, kick = f"Two Pair, {plural[r[0]]} and {plural[r[2]]}", r[4:]
    elif cat is Category.ONE_PAIR:
        text, kick = f"One Pair, {plural[r[0]]}", r[2:]
    else:
        text, kick = f"High Card, {name[r[0]]}", r[1:]
    if kickers and kick:
        words = ", ".join(name[k] for k in kick)
        text += f", {words} kicker{'s' if len(kick) > 1 else ''}"
    return text


def best_five(cards: CardsLike) -> list[Card]:
    """The five cards that make the hand, in display order.

    Ranks come as players read them (quads or trips first, then pairs, then
    kickers; a wheel ends with its ace).

    >>> from holdem.cards import format_cards
    >>> format_cards(best_five("9c 9d As Kh 9s 2c Ad"))
    '9s 9d 9c As Ad'
    """
    parsed = parse_cards(cards)
    value = _evaluate_checked(parsed)
    for five in itertools.combinations(parsed, 5):
        if lib.hd_evaluate(bytes(five), 5) == value:
            break
    else:  # pragma: no cover - the best hand is always made of five of the cards
        raise AssertionError("no five cards make the hand")
    left = sorted(five, reverse=True)  # within a rank: spades first
    out = []
    for rank in _ranks(value):
        pick = next(c for c in left if c >> 2 == rank)
        left.remove(pick)
        out.append(pick)
    return out


def _byte_view(buffer: Any) -> Any:
    view = memoryview(buffer)
    if view.itemsize != 1:
        raise TypeError(f"cards must be one byte each (uint8), got items of {view.itemsize} bytes")
    if not view.c_contiguous:
        raise TypeError("the card buffer must be contiguous")
    return ffi.from_buffer("uint8_t[]", buffer)


def _is_numpy(obj: object) -> bool:
    return type(obj).__module__.split(".")[0] == "numpy"


def evaluate_many(
    buffer: Any,
    cards_per_hand: int = 7,
    *,
    out: Any = None,
    check: bool = True,
    threads: int = 1,
) -> Any:
    """Values every hand of a buffer of cards, in one call into C.

    ``buffer`` is any contiguous buffer of card bytes (``bytes``,
    ``bytearray``, ``array('B')``, a ``numpy.uint8`` array of shape
    ``(n, cards_per_hand)`` ...), read in place.  Returns ``out`` if given
    (any writable buffer of at least n uint16), else a new ``array('H')``,
    or a ``numpy.uint16`` array when the input is a numpy array.

    ``check`` validates every hand in C as it is valued (a nanosecond or
    two a hand) and raises :class:`~holdem.errors.InvalidCardError` naming
    the first bad one; with ``check=False`` bad hands give meaningless
    values (never a crash).  ``threads`` splits the work over that many threads (the C call
    runs without the GIL).

    >>> list(evaluate_many(bytes([51, 47, 43, 39, 35, 0, 1]))) == [evaluate("AsKsQsJsTs2c2d")]
    True
    """
    k = cards_per_hand
    if k not in (5, 6, 7):
        raise ValueError(f"cards_per_hand must be 5, 6 or 7, not {k!r}")
    src = _byte_view(buffer)
    if len(src) % k:
        raise ValueError(f"the buffer holds {len(src)} bytes, not a whole number of {k}-card hands")
    n = len(src) // k
    if out is None:
        if _is_numpy(buffer):
            import numpy

            out = numpy.empty(n, dtype=numpy.uint16)
        else:
            out = array("H", bytes(2 * n))
    dst = ffi.from_buffer("uint16_t[]", out, require_writable=True)
    if len(dst) < n:
        raise ValueError(f"out holds {len(dst)} values, {n} are needed")

    def run(start: int, count: int) -> int:
        """Values hands [start, start + count); the index of a bad one, or -1."""
        if not check:
            lib.hd_evaluate_batch(src + start * k, count, k, dst + start)
            return -1
        bad = lib.hd_evaluate_batch_checked(src + start * k, count, k, dst + start)
        return -1 if bad < 0 else start + bad

    if threads <= 1 or n < 65536:
        bad = run(0, n)
    else:
        from concurrent.futures import ThreadPoolExecutor

        step = -(-n // threads)
        with ThreadPoolExecutor(threads) as pool:
            found = list(
                pool.map(lambda start: run(start, min(step, n - start)), range(0, n, step))
            )
        bad = min((b for b in found if b >= 0), default=-1)
    if bad >= 0:
        raise _bad_hand(list(src[bad * k : bad * k + k]), bad)
    return out


def _bad_hand(cards: list[int], index: int) -> InvalidCardError:
    for position, c in enumerate(cards, 1):
        if c >= 52:
            return InvalidCardError(
                f"hand at index {index}: byte {c} at position {position} is not a card (0..51)",
                token=c,
                position=position,
            )
        if c in cards[: position - 1]:
            return InvalidCardError(
                f"hand at index {index}: duplicate card {format_card(c)} at position {position}",
                token=format_card(c),
                position=position,
            )
    raise AssertionError(f"hand {index} was reported bad but is valid")  # pragma: no cover


def value_counts(
    hand_size: int = 7,
    *,
    fixed: CardsLike = (),
    dead: CardsLike = (),
) -> dict[HandValue, int]:
    """Counts the values of every hand of ``hand_size`` cards (5..7).

    Each hand holds the ``fixed`` cards plus cards drawn from the rest of the
    deck without the ``dead`` ones; the enumeration runs in C (all
    133,784,560 seven-card hands take a fraction of a second).

    >>> counts = value_counts(5)
    >>> sum(counts.values()), len(counts)
    (2598960, 7462)
    """
    fixed_cards = parse_cards(fixed)
    dead_cards = parse_cards(dead)
    taken = set(fixed_cards)
    if taken & set(dead_cards):
        clash = format_card(min(taken & set(dead_cards)))
        raise InvalidCardError(f"card {clash} is both fixed and dead", token=clash)
    if not 5 <= hand_size <= 7:
        raise ValueError(f"hand_size must be 5, 6 or 7, not {hand_size!r}")
    if len(fixed_cards) > hand_size:
        raise InvalidCardError(f"{len(fixed_cards)} fixed cards do not fit a {hand_size}-card hand")
    pool = bytes(c for c in range(52) if c not in taken and c not in dead_cards)
    hist = ffi.new("uint64_t[]", VALUE_LIMIT)
    lib.hd_enumerate(bytes(fixed_cards), len(fixed_cards), pool, len(pool),
                     hand_size - len(fixed_cards), hist)  # fmt: skip
    return {v: int(hist[v]) for v in range(VALUE_LIMIT) if hist[v]}
