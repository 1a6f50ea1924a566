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

Long calls (:func:`evaluate_many`, :func:`value_counts`, and the equities)
stop within milliseconds on Ctrl-C and raise ``KeyboardInterrupt``, worker
threads included: see "Stopping" in ``csrc/holdem.h``.
"""

from __future__ import annotations

import itertools
import operator
import signal
import sys
from array import array
from collections import deque
from collections.abc import Callable, Generator, Iterable, Sequence
from contextlib import closing
from enum import IntEnum
from typing import TYPE_CHECKING, Any, NoReturn, SupportsIndex, TypeAlias, TypeVar, cast

from . import _fastcall
from ._core import ffi, lib
from .cards import RANK_NAMES, Card, format_card, parse_cards
from .errors import EvaluatorError, HoldemError, InvalidCardError, quote

if TYPE_CHECKING:
    from concurrent.futures import Future, ThreadPoolExecutor

HandValue: TypeAlias = int
CardsLike: TypeAlias = "str | Iterable[Card | str]"
_R = TypeVar("_R")

#: Most threads one call may use (``threads=`` of :func:`evaluate_many` and
#: :func:`~holdem.equities.equity`); more only adds overhead.
MAX_THREADS = 64

if lib.hd_init() != 0:  # pragma: no cover - would be a bug in the table builder
    raise HoldemError("the evaluator's lookup tables could not be built")

NUM_VALUES = lib.HD_NUM_VALUES
#: One more than the largest hand value (the size of a table indexed by value).
VALUE_LIMIT = lib.HD_VALUE_LIMIT


def _int_arg(name: str, value: object, low: int, high: int, error: type[HoldemError]) -> int:
    """``value`` as an int in [low, high]; TypeError if it is not an integer
    (a bool is not), ``error`` if it is out of range."""
    if type(value) is int:
        number = value
    elif isinstance(value, bool) or not hasattr(type(value), "__index__"):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    else:  # numpy.int64 and the like
        number = operator.index(cast(SupportsIndex, value))
    if not low <= number <= high:
        raise error(f"{name} must be {low} to {high}, got {quote(number)}")
    return number


# --- stopping long C calls ---------------------------------------------------


class _Stopped(Exception):
    """A C call in a worker thread that its stop flag ended (its result is dropped)."""


class _StopFlag:
    """The flag every C call of one computation reads (holdem.h, "Stopping")."""

    __slots__ = ("ptr",)

    def __init__(self) -> None:
        self.ptr = ffi.new("int *")

    def set(self) -> None:
        self.ptr[0] = 1

    def __bool__(self) -> bool:
        return bool(self.ptr[0])


try:  # signal.getsignal without its conversion to an enum, which takes 9 µs
    from _signal import getsignal as _getsignal  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover - not CPython
    _getsignal = signal.getsignal


def _in_main_thread() -> bool:
    import threading  # here: importing it with holdem would cost 0.25 MiB

    return threading.current_thread() is threading.main_thread()


def _c_call(stop: _StopFlag, fn: Callable[..., _R], *args: Any) -> _R:
    """``fn(*args, stop.ptr)``: a long C call that Ctrl-C or another thread can stop.

    In the main thread, under Python's default SIGINT handler, a Ctrl-C sets
    the flag (the C loops return within microseconds) and is then handed to
    Python, which raises ``KeyboardInterrupt`` here.  In a worker thread a
    set flag means the computation is being abandoned: :class:`_Stopped`.
    (Swapping the handler costs about 3 µs: calls well under a millisecond
    are better made directly, Python sees a Ctrl-C as soon as they return.)
    """
    main = _in_main_thread()
    installed = (
        main
        and _getsignal(signal.SIGINT) is signal.default_int_handler
        and lib.hd_sigint_begin(stop.ptr) == 1
    )
    try:
        result = fn(*args, stop.ptr)
    finally:
        if installed:
            lib.hd_sigint_end()
    if stop:
        _stopped(main)
    return result


def _stopped(main: bool) -> NoReturn:
    if main:
        _fastcall.check_signals()  # runs the pending Ctrl-C: raises KeyboardInterrupt
        raise KeyboardInterrupt  # pragma: no cover - the handler was swapped meanwhile
    raise _Stopped


def _result(future: Future[_R]) -> _R:
    """The result of a future; the wait wakes up now and then, so that a
    Ctrl-C is seen on every platform (Windows cannot interrupt a lock wait)."""
    while True:
        try:
            return future.result(timeout=0.25)
        except TimeoutError:
            if future.done():
                raise


def _parallel(
    fn: Callable[[int], _R], count: int, threads: int, stop: _StopFlag
) -> Generator[_R, None, None]:
    """``fn(0) .. fn(count - 1)`` in order, on at most ``threads`` threads.

    A window of two tasks a thread is started ahead.  Close it (use it in
    ``contextlib.closing``): when the caller stops reading (done early, an
    error, Ctrl-C) the flag is set, tasks not started are cancelled, the
    running ones return within microseconds and their threads are joined.
    """
    workers = min(threads, count)
    if workers <= 1:
        for i in range(count):
            yield fn(i)
        return
    from concurrent.futures import ThreadPoolExecutor

    pool = ThreadPoolExecutor(workers, thread_name_prefix="holdem")
    pending: deque[Future[_R]] = deque()
    started = 0
    try:
        for _ in range(count):
            while started < count and len(pending) < 2 * workers:
                pending.append(pool.submit(fn, started))
                started += 1
            yield _result(pending.popleft())
    finally:
        _close(pool, pending, stop)


def _close(pool: ThreadPoolExecutor, pending: deque[Future[Any]], stop: _StopFlag) -> None:
    """Stops the workers of ``pool`` and joins them; a Ctrl-C meanwhile is
    raised once they are joined.  (A worker whose start a Ctrl-C cut short is
    unknown to the pool; it finds the flag set and ends moments later.)"""
    interrupted = False
    while True:
        try:
            stop.set()
            for future in pending:
                future.cancel()
            pool.shutdown(wait=True)
            break
        except KeyboardInterrupt:
            interrupted = True
    if interrupted:
        raise KeyboardInterrupt


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
        raise EvaluatorError(f"{quote(value)} is not a hand value")
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


#: The places of a value's five ranks that are kickers, by category (a
#: flush's and a high card's first rank is the hand's name: the rest kick).
_KICKS = {
    Category.FOUR_OF_A_KIND: 4,
    Category.THREE_OF_A_KIND: 3,
    Category.TWO_PAIR: 4,
    Category.ONE_PAIR: 2,
    Category.FLUSH: 1,
    Category.HIGH_CARD: 1,
}


def deciding_kicker(value: HandValue, other: HandValue) -> int | None:
    """The rank (0 for a deuce .. 12 for an ace) of the kicker by which
    ``value`` beats ``other``: the first of its kickers that is higher than
    the other hand's, when both make the same hand otherwise (the same
    category and named ranks).  None when a kicker does not decide: a
    better or worse made hand, a tie, or a category without kickers.

    >>> from holdem.cards import RANK_NAMES
    >>> ace_king, ace_queen = evaluate("AsAd Kc 7h 5d 3c 2h"), evaluate("AhAc Qd 7h 5d 3c 2h")
    >>> RANK_NAMES[deciding_kicker(ace_king, ace_queen)]
    'King'
    >>> deciding_kicker(evaluate("AsAd Kc 7h 5d"), evaluate("KhKd Ac 7s 5c")) is None
    True
    """
    if value <= other or value >> 12 != other >> 12:
        return None
    first = _KICKS.get(Category(value >> 12))
    if first is None:
        return None
    mine, theirs = _ranks(value), _ranks(other)
    if mine[:first] != theirs[:first]:
        return None  # (decided by the made hand's own ranks)
    return next(a for a, b in zip(mine[first:], theirs[first:], strict=True) if a != b)


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
    """The card bytes of ``buffer`` for C, read in place."""
    if type(buffer) is bytes or type(buffer) is bytearray:  # the common case, quickly
        return ffi.from_buffer("uint8_t[]", buffer)
    try:
        view = memoryview(buffer)
    except TypeError:
        raise TypeError(
            "cards must be a buffer of bytes (bytes, bytearray, array('B'), numpy.uint8), "
            f"not {type(buffer).__name__}"
        ) from None
    with view:
        if view.itemsize != 1:
            raise TypeError(
                f"cards must be one byte each (uint8), got items of {view.itemsize} bytes"
            )
        if not view.c_contiguous:
            raise TypeError("the card buffer must be contiguous")
    return ffi.from_buffer("uint8_t[]", buffer)


# struct formats of a native unsigned 16-bit item (numpy and array('H') say 'H')
_UINT16_FORMATS = frozenset(("H", "@H", "=H", "<H" if sys.byteorder == "little" else ">H"))


def _out_view(out: Any, n: int) -> Any:
    """``out`` for C as n uint16 slots, checked: the right items, writable, big enough."""
    try:
        view = memoryview(out)
    except TypeError:
        raise TypeError(
            f"out must be a buffer of uint16 (array('H'), numpy.uint16), not {type(out).__name__}"
        ) from None
    with view:
        if view.format not in _UINT16_FORMATS or view.itemsize != 2:
            raise TypeError(
                "out must hold unsigned 16-bit items (array('H'), numpy.uint16), "
                f"not items of format {quote(view.format)}"
            )
        if view.readonly:
            raise TypeError("out is read-only")
        if not view.c_contiguous:
            raise TypeError("out must be contiguous")
        size = view.nbytes // 2
    if size < n:
        raise EvaluatorError(f"out holds {size} values, {n} are needed")
    return ffi.from_buffer("uint16_t[]", out, require_writable=True)


def _is_numpy(obj: object) -> bool:
    return type(obj).__module__.split(".")[0] == "numpy"


#: Fewest hands a thread of :func:`evaluate_many` gets: less is not worth a thread.
_MIN_HANDS_PER_THREAD = 1 << 16


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
    (a writable contiguous buffer of at least n unsigned 16-bit items:
    ``array('H')``, a ``numpy.uint16`` array), else a new ``array('H')``,
    or a ``numpy.uint16`` array when the input is a numpy array.

    ``check`` validates every hand in C as it is valued (a nanosecond or
    two a hand) and raises :class:`~holdem.errors.InvalidCardError` naming
    the first bad one; with ``check=False`` bad hands give meaningless
    values (never a crash).  ``threads`` (1 to :data:`MAX_THREADS`) splits
    the work over up to that many threads, each with at least 65,536 hands
    (the C call runs without the GIL).

    Raises ``TypeError`` for a buffer or ``out`` of the wrong kind and
    :class:`EvaluatorError` for a bad ``cards_per_hand``, ``threads`` or
    buffer length.  Ctrl-C stops it within milliseconds (``KeyboardInterrupt``).

    >>> list(evaluate_many(bytes([51, 47, 43, 39, 35, 0, 1]))) == [evaluate("AsKsQsJsTs2c2d")]
    True
    """
    k = _int_arg("cards_per_hand", cards_per_hand, 5, 7, EvaluatorError)
    threads = _int_arg("threads", threads, 1, MAX_THREADS, EvaluatorError)
    src = _byte_view(buffer)
    if len(src) % k:
        raise EvaluatorError(
            f"the buffer holds {len(src)} bytes, not a whole number of {k}-card hands"
        )
    n = len(src) // k
    if out is None:
        if _is_numpy(buffer):
            import numpy

            out = numpy.empty(n, dtype=numpy.uint16)
        else:
            out = array("H", bytes(2 * n))
        dst = ffi.from_buffer("uint16_t[]", out)
    else:
        dst = _out_view(out, n)
    batch = lib.hd_evaluate_batch_checked if check else lib.hd_evaluate_batch
    if n < _MIN_HANDS_PER_THREAD:  # well under a millisecond: nothing to stop
        found = batch(src, n, k, dst, ffi.NULL)  # with check: a bad hand's index, or -1
        bad = int(found) if check else -1
    else:
        stop = _StopFlag()
        parts = min(threads, n // _MIN_HANDS_PER_THREAD)
        step = -(-n // parts)

        def run(part: int) -> int:
            """Values the hands of one part; the index of a bad one, or -1."""
            start = part * step
            bad = _c_call(stop, batch, src + start * k, min(step, n - start), k, dst + start)
            return -1 if not check or bad < 0 else start + int(bad)

        with closing(_parallel(run, parts, threads, stop)) as results:
            bad = next((b for b in results if b >= 0), -1)
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
    133,784,560 seven-card hands take a fraction of a second, and Ctrl-C
    stops it at once).  Raises :class:`EvaluatorError` for a ``hand_size``
    that is not 5 to 7 (``TypeError`` if not an int) and
    :class:`~holdem.errors.InvalidCardError` for bad or clashing cards.

    >>> counts = value_counts(5)
    >>> sum(counts.values()), len(counts)
    (2598960, 7462)
    """
    size = _int_arg("hand_size", hand_size, 5, 7, EvaluatorError)
    fixed_cards = parse_cards(fixed)
    dead_cards = parse_cards(dead)
    taken = set(fixed_cards)
    if taken & set(dead_cards):
        clash = format_card(min(taken & set(dead_cards)))
        raise InvalidCardError(f"card {clash} is both fixed and dead", token=clash)
    if len(fixed_cards) > size:
        raise InvalidCardError(f"{len(fixed_cards)} fixed cards do not fit a {size}-card hand")
    pool = bytes(c for c in range(52) if c not in taken and c not in dead_cards)
    hist = ffi.new("uint64_t[]", VALUE_LIMIT)
    _c_call(_StopFlag(), lib.hd_enumerate, bytes(fixed_cards), len(fixed_cards), pool,
            len(pool), size - len(fixed_cards), hist)  # fmt: skip
    return {v: int(hist[v]) for v in range(VALUE_LIMIT) if hist[v]}
