"""Equities: how often each hand or range wins, exactly or by Monte Carlo.

>>> result = equity(["AsKs", "QdQh"])
>>> result.method, [round(p.equity, 5) for p in result.players]
('exact', [0.46214, 0.53786])
>>> round(equity(["AK", "QQ+"]).players[0].equity, 6)
0.3179

Players are exact hands (``"AsKs"``, ``[51, 47]``), ranges (``"QQ+,AKs"``,
a :class:`~holdem.ranges.Range`) or ``"random"``.  The work runs in C
(``csrc/hd_equity.c``) in chunks, on ``threads`` threads (the C calls run
without the GIL).

- **Exact**: every assignment of combos to the players that shares no card is
  enumerated with every completion of the board.  Assignments that are the
  same up to a renaming of suits (one that keeps the board and dead cards in
  place) are computed once and counted with their multiplicity.  They go to
  C in runs of consecutive classes, a few milliseconds of work each (a flop
  against a random hand has some 100,000 classes of a thousand boards), and
  are added up in their order, so the result is the same on any number of
  threads.
- **Monte Carlo**: each deal draws one combo per player by weight and, if two
  players' cards collide, draws the whole deal again, which keeps the
  sampling unbiased; then it completes the board from the remaining cards.
  Work is cut in fixed chunks of deals, each with its own random stream
  derived from ``seed``, and merged in chunk order, so **the same seed gives
  the same result with any number of threads**.  It stops after ``trials``
  deals or once every player's standard error is at most ``stderr``.

Ctrl-C stops either within milliseconds, worker threads included, and
raises ``KeyboardInterrupt``.
"""

from __future__ import annotations

import contextlib
import itertools
import random
from array import array
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import closing
from dataclasses import dataclass
from functools import reduce
from math import comb, isfinite, sqrt
from numbers import Real
from operator import add, mul, truediv
from typing import Any, NamedTuple, TypeAlias, TypeVar, overload

from ._core import ffi, lib
from .cards import Card, format_card, parse_cards
from .cluster import check_address, connect, ordered
from .errors import EquityError, InvalidCardError, quote
from .evaluator import MAX_THREADS, _c_call, _int_arg, _parallel, _StopFlag
from .ranges import Combo, Range, RangeSyntaxError

PlayerLike: TypeAlias = "str | Range | Sequence[Card]"
MAX_PLAYERS = lib.HD_MAX_PLAYERS
_TIES = lib.HD_TIE_SLOTS
#: Exact enumeration is chosen automatically below this many hand evaluations.
EXACT_LIMIT = 150_000_000
#: ``exact=True`` refuses more hand evaluations than this (about a minute).
EXACT_MAX = 100 * EXACT_LIMIT
_CHUNK = 1 << 15  # Monte Carlo deals per chunk (one C call, one random stream)
_RUN_WORK = 1 << 21  # hand evaluations in a run of exact slices (some 5 ms: one task, one C call)
#: Most deals one Monte Carlo run simulates (``trials``, or the cap of a
#: ``stderr`` target).
MAX_TRIALS = 10**10
#: Seeds are 0 .. MAX_SEED (64 bits).
MAX_SEED = 2**64 - 1
_R = TypeVar("_R")
_LIST_LIMIT = 200_000  # legal deals are listed (exact, Monte Carlo without rejections) up to this
_SEARCH_LIMIT = 2_000_000  # combos looked at in the search for one legal deal (about 0.3 s)


@dataclass(frozen=True)
class PlayerEquity:
    """One player's result: ``equity`` is the expected share of the pot.

    ``win`` is the share of deals the player wins alone, ``tie`` the share it
    splits; ``stderr`` the standard error of ``equity`` (0 when exact).
    """

    hand: str
    equity: float
    win: float
    tie: float
    stderr: float


@dataclass(frozen=True)
class EquityResult:
    """The result of :func:`equity`, players in the order given."""

    players: tuple[PlayerEquity, ...]
    method: str  # "exact" or "monte carlo"
    deals: int  # boards scored (over the distinct deals of hole cards) or deals simulated
    board: tuple[Card, ...]
    dead: tuple[Card, ...]
    seed: int | None = None  # the Monte Carlo seed, to reproduce a run


def _as_range(player: PlayerLike, index: int) -> Range:
    if isinstance(player, Range):
        return player
    if isinstance(player, bytes | bytearray):
        raise TypeError(f"player {index} is {type(player).__name__}: give a str, cards or a Range")
    if isinstance(player, str):
        try:
            cards = parse_cards(player)
        except InvalidCardError:
            cards = []
        if len(cards) == 2:
            return Range([(cards[0], cards[1])])
        try:
            return Range.parse(player)
        except RangeSyntaxError as exc:
            raise RangeSyntaxError(
                f"player {index}: {exc}", token=exc.token, column=exc.column
            ) from None
    cards = parse_cards(player)
    if len(cards) != 2:
        raise InvalidCardError(f"player {index} has {len(cards)} cards, a hand has 2")
    return Range([(cards[0], cards[1])])


def equity(
    players: Sequence[PlayerLike],
    *,
    board: str | Iterable[Card | str] = (),
    dead: str | Iterable[Card | str] = (),
    exact: bool | None = None,
    trials: int | None = None,
    stderr: float | None = None,
    seed: int | None = None,
    threads: int = 1,
    progress: Callable[[float], None] | None = None,
    cluster: str | None = None,
) -> EquityResult:
    """Equity of 2 to 10 players (hands or ranges) on a board of 0, 3, 4 or 5 cards.

    ``exact=None`` enumerates when that takes at most :data:`EXACT_LIMIT`
    evaluations and uses Monte Carlo otherwise; ``exact=True`` forces
    enumeration, ``exact=False`` Monte Carlo.  Monte Carlo runs ``trials``
    deals, or until every player's standard error is at most ``stderr``
    (default 0.0005 when neither is given).  ``progress`` is called with the
    fraction done (0..1) as the work goes.  ``cluster``: a Dask cluster's
    address (``tcp://HOST:8786`` or ``local:N``, :mod:`holdem.cluster`)
    whose workers take the chunks instead of ``threads``, with the same
    result.

    Limits: ``trials`` 1 to :data:`MAX_TRIALS`, ``stderr`` a positive finite
    number, ``seed`` 0 to :data:`MAX_SEED`, ``threads`` 1 to
    :data:`~holdem.evaluator.MAX_THREADS`; the hands, board and dead cards
    must leave enough cards to complete the board.  Bad values raise
    :class:`EquityError` (or the :class:`~holdem.errors.InvalidCardError` /
    :class:`~holdem.ranges.RangeSyntaxError` of a bad card or range), values
    of a wrong type ``TypeError``.
    """
    trials, stderr, seed, threads = _check_arguments(exact, trials, stderr, seed, threads, progress)
    if cluster is not None:
        check_address(cluster)
        if threads != 1:
            raise EquityError("a cluster takes the place of threads: give one of them")
    if isinstance(players, str | bytes | bytearray):
        raise TypeError("players must be a list of hands or ranges, not one str")
    try:
        count = len(players)
    except TypeError:
        raise TypeError(f"players must be a list, not {type(players).__name__}") from None
    if not 2 <= count <= MAX_PLAYERS:
        raise EquityError(f"equity needs 2 to {MAX_PLAYERS} players, got {count}")
    board_cards = parse_cards(board)
    dead_cards = parse_cards(dead)
    if len(board_cards) not in (0, 3, 4, 5):
        raise InvalidCardError(f"the board has 0, 3, 4 or 5 cards, got {len(board_cards)}")
    known = board_cards + dead_cards
    _check_distinct_known(board_cards, dead_cards)
    ranges = []
    owner = {c: "the board" for c in board_cards} | {c: "the dead cards" for c in dead_cards}
    for i, p in enumerate(players, 1):
        full = _as_range(p, i)
        if len(full) == 1:  # an exact hand: say which card it shares, and with whom
            for c in next(iter(full)):
                if c in owner:
                    raise InvalidCardError(
                        f"duplicate card {format_card(c)} ({owner[c]} and player {i})",
                        token=format_card(c),
                    )
                owner[c] = f"player {i}"
        r = full.without(known)
        if not len(r):
            raise EquityError(
                f"player {i} ({_short(_describe(p))}) has no hand left once the board and "
                "dead cards are taken out"
            )
        ranges.append(_normalized(r))
    _check_cards_left(count, len(board_cards), len(dead_cards))
    names = tuple(_describe(p) for p in players)

    # the legal deals of hole cards, when they are few enough to list
    bound = 1
    for r in ranges:
        bound *= len(r)
    deals = list(_legal_deals(ranges)) if bound <= _LIST_LIMIT else None
    if deals == [] or (deals is None and _has_legal_deal(ranges) is False):
        raise EquityError("the ranges leave no legal deal: every combination shares a card")
    if deals is not None and not sum(w for _, w in deals) > 0:
        raise EquityError("the weights of the combos that can be dealt together are too small")
    plan = None
    if exact is not False and trials is None and stderr is None:
        plan = _exact_plan(deals, len(ranges), board_cards, dead_cards, forced=exact is True)
    with contextlib.ExitStack() as using:
        client = None if cluster is None else using.enter_context(connect(cluster))
        if plan is not None:
            return _run_exact(plan, names, board_cards, dead_cards, threads, progress, client)
        return _run_monte_carlo(ranges, deals, names, board_cards, dead_cards, trials, stderr,
                                seed, threads, progress, client)  # fmt: skip


def _check_arguments(
    exact: object,
    trials: object,
    stderr: object,
    seed: object,
    threads: object,
    progress: object,
) -> tuple[int | None, float | None, int | None, int]:
    """The checked numeric arguments of :func:`equity`."""
    if exact is not None and not isinstance(exact, bool):
        raise TypeError(f"exact must be None, True or False, not {quote(exact)}")
    if progress is not None and not callable(progress):
        raise TypeError(f"progress must be callable, not {type(progress).__name__}")
    n_threads = _int_arg("threads", threads, 1, MAX_THREADS, EquityError)
    n_trials = None if trials is None else _int_arg("trials", trials, 1, MAX_TRIALS, EquityError)
    n_seed = None if seed is None else _int_arg("seed", seed, 0, MAX_SEED, EquityError)
    target = None
    if stderr is not None:
        if isinstance(stderr, bool) or not isinstance(stderr, Real):
            raise TypeError(f"stderr must be a number, not {type(stderr).__name__}")
        try:
            target = float(stderr)
        except OverflowError:  # an int or fraction too large for a float: not finite
            target = float("inf")
        if not (isfinite(target) and target > 0):
            raise EquityError(f"stderr must be a positive number, got {quote(stderr)}")
    if exact and (trials is not None or stderr is not None):
        raise EquityError("exact=True takes no trials or stderr")
    return n_trials, target, n_seed, n_threads


def _check_cards_left(players: int, board: int, dead: int) -> None:
    """Raises unless the deck holds the hole cards and the rest of the board."""
    left = 52 - board - dead
    if 2 * players > left:
        raise EquityError(
            f"{players} players need {2 * players} hole cards but only {left} are left once "
            "the board and dead cards are taken out"
        )
    left -= 2 * players
    if 5 - board > left:
        need = 5 - board
        raise EquityError(
            f"the board needs {need} more card{'s' * (need > 1)} but only {left} "
            f"{'is' if left == 1 else 'are'} left once the hands, board and dead cards "
            "are taken out"
        )


def _normalized(r: Range) -> Range:
    """The range with its largest weight 1: the same draws (each player's
    weights count only relative to each other), and products of weights
    that underflow less."""
    top = max(w for _, w in r.items())
    return r if top == 1 else Range({c: w / top for c, w in r.items()})


def _short(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[:limit] + "..."


def _describe(player: PlayerLike) -> str:
    if isinstance(player, str):
        return player
    if isinstance(player, Range):
        return str(player)
    return "".join(format_card(c) for c in parse_cards(player))


def _check_distinct_known(board: list[Card], dead: list[Card]) -> None:
    clash = set(board) & set(dead)
    if clash:
        card = format_card(min(clash))
        raise InvalidCardError(f"card {card} is both on the board and dead", token=card)


# --- exact ---------------------------------------------------------------


@dataclass(frozen=True)
class _ExactPlan:
    classes: list[tuple[tuple[Combo, ...], float]]  # representative deal, total weight
    deck: bytes  # cards left for the board when no hole card is taken out
    draws: int  # board cards to deal


def _suit_maps(board: list[Card], dead: list[Card]) -> list[list[Card]]:
    """Card maps of the suit renamings that keep the board and the dead cards in place."""
    maps = []
    for perm in itertools.permutations(range(4)):
        card_map = [(c & ~3) | perm[c & 3] for c in range(52)]
        if {card_map[c] for c in board} == set(board) and {card_map[c] for c in dead} == set(dead):
            maps.append(card_map)
    return maps


Deal: TypeAlias = tuple[Combo, ...]


def _exact_plan(
    deals: list[tuple[Deal, float]] | None,
    n: int,
    board: list[Card],
    dead: list[Card],
    forced: bool,
) -> _ExactPlan | None:
    """The distinct deals to enumerate, or None when Monte Carlo should be used."""
    draws = 5 - len(board)
    boards = comb(52 - len(board) - len(dead) - 2 * n, draws)
    if deals is None:
        if forced:
            raise EquityError("exact enumeration over so many combinations of hands is too "
                              "large; use Monte Carlo")  # fmt: skip
        return None
    if not forced and len(deals) * boards * n > 50 * EXACT_LIMIT:
        return None  # far too big even before merging symmetric deals
    maps = _suit_maps(board, dead)
    classes: dict[Deal, float] = {}
    if len(maps) > 1:
        # each combo's image under each renaming, for the combos that occur
        used = {combo for deal, _ in deals for combo in deal}
        images = [
            {(a, b): (m[a], m[b]) if m[a] > m[b] else (m[b], m[a]) for a, b in used} for m in maps
        ]
        for deal, weight in deals:
            key = min(tuple(image[c] for c in deal) for image in images)
            classes[key] = classes.get(key, 0.0) + weight
    else:
        for deal, weight in deals:
            classes[deal] = classes.get(deal, 0.0) + weight
    work = len(classes) * boards * n
    if not forced and work > EXACT_LIMIT:
        return None
    if work > EXACT_MAX:
        raise EquityError(
            f"exact enumeration would take {work:.2g} hand evaluations, more than the "
            f"limit of {EXACT_MAX:.2g}; use Monte Carlo"
        )
    taken = set(board) | set(dead)
    deck = bytes(c for c in range(52) if c not in taken)
    return _ExactPlan(sorted(classes.items()), deck, draws)


def _legal_deals(ranges: list[Range]) -> Iterable[tuple[tuple[Combo, ...], float]]:
    """Every choice of one combo per player with no card twice, and its weight."""
    items = [r.items() for r in ranges]

    def walk(
        i: int, used: int, deal: tuple[Combo, ...], weight: float
    ) -> Iterator[tuple[tuple[Combo, ...], float]]:
        if i == len(items):
            yield deal, weight
            return
        for combo, w in items[i]:
            bits = (1 << combo[0]) | (1 << combo[1])
            if not used & bits:
                yield from walk(i + 1, used | bits, (*deal, combo), weight * w)

    yield from walk(0, 0, (), 1.0)


def _run_exact(
    plan: _ExactPlan,
    names: tuple[str, ...],
    board: list[Card],
    dead: list[Card],
    threads: int,
    progress: Callable[[float], None] | None,
    client: Any = None,
) -> EquityResult:
    n = len(names)
    nd = len(plan.deck) - 2 * n  # (the cards left for every class's boards)
    if plan.draws == 0:
        cuts = [(0, 1)]
    else:  # few classes: cut each by its first board card, for threads and progress
        step = 4 if len(plan.classes) < 16 else nd
        cuts = [(lo, min(lo + step, nd)) for lo in range(0, nd, step)]
    work = [n * _boards(nd, plan.draws, lo, hi) for lo, hi in cuts]  # (hand evaluations)
    total = len(plan.classes) * sum(work)
    cards = bytes(itertools.chain.from_iterable(itertools.chain.from_iterable(
        deal for deal, _ in plan.classes)))  # fmt: skip
    holes = [cards[i : i + 2 * n] for i in range(0, len(cards), 2 * n)]
    slices = _Slices(  # (every class's cuts, in turn)
        n=n,
        nd=nd,
        holes=cards if len(cuts) == 1 else b"".join(h * len(cuts) for h in holes),
        decks=b"".join(plan.deck.translate(None, h) * len(cuts) for h in holes),
        lo=array("I", [lo for lo, _ in cuts] * len(plan.classes)),
        hi=array("I", [hi for _, hi in cuts] * len(plan.classes)),
    )
    weights = [weight for _, weight in plan.classes for _ in cuts]
    board_bytes = bytes(board)
    results: Iterator[tuple[list[int], list[int], list[int]]]
    if client is None:  # (runs of slices, each one task and one C call)
        runs = _runs(work * len(plan.classes), total, threads)
        stop = _StopFlag()

        def run(number: int) -> tuple[list[int], list[int], list[int]]:
            return _enumerate_run(slices[runs[number] : runs[number + 1]], board_bytes, stop)

        results = _parallel(run, len(runs) - 1, threads, stop)
    else:  # (the same slices, runs of them sized by their time)
        results = ordered(client, _enumerate_run, slices, args=(board_bytes,))
    totals = _Totals(n)
    deals = done = 0
    with closing(results):
        for counts, wins, ties in results:
            totals.add(weights[done : done + len(counts)], counts, wins, ties)
            deals += sum(counts)
            done += len(counts)
            if progress:  # (the evaluations done: whole classes, then the cuts of one)
                whole, cut = divmod(done, len(cuts))
                progress((whole * sum(work) + sum(work[:cut])) / total)
    players = tuple(totals.player(i, names[i], 0.0) for i in range(n))
    return EquityResult(players, "exact", deals, tuple(board), tuple(dead))


def _boards(nd: int, draws: int, lo: int, hi: int) -> int:
    """The boards of ``draws`` cards from a deck of ``nd`` whose first card is ``deck[lo:hi]``."""
    return 1 if draws == 0 else comb(nd - lo, draws) - comb(nd - hi, draws)


def _runs(work: Sequence[int], total: int, threads: int) -> list[int]:
    """Where the runs of consecutive slices of exact enumeration start, and
    the last one ends: runs of :data:`_RUN_WORK` evaluations (``work``: each
    slice's), or less down to an eighth of it so that each thread has eight
    runs (a task and a C call each: to share the work out evenly to the end,
    and to show progress)."""
    size = max(_RUN_WORK // 8, min(_RUN_WORK, total // (8 * threads)))
    bounds = [0]
    held = 0
    for i, w in enumerate(work):
        held += w
        if held >= size:
            bounds.append(i + 1)
            held = 0
    if held:
        bounds.append(len(work))
    return bounds


class _Slice(NamedTuple):
    """A slice of exact enumeration: the boards, whose first card is
    ``deck[lo:hi]``, of a deal of hole cards (``holes``, two a player)."""

    holes: bytes
    deck: bytes
    lo: int
    hi: int


@dataclass(frozen=True, slots=True, kw_only=True)
class _Slices(Sequence[_Slice]):
    """Slices of exact enumeration of ``n`` players, in the arrays that
    ``hd_equity_enumerate_batch`` takes: slice ``j`` has its hole cards at
    ``2 * n * j`` in ``holes``, its deck of ``nd`` cards at ``nd * j`` in
    ``decks``, and ``lo[j]``, ``hi[j]``.  ``slices[a:b]`` is a run of them."""

    n: int
    nd: int
    holes: bytes
    decks: bytes
    lo: array[int]
    hi: array[int]

    def __len__(self) -> int:
        return len(self.lo)

    @overload
    def __getitem__(self, index: int) -> _Slice: ...
    @overload
    def __getitem__(self, index: slice) -> _Slices: ...
    def __getitem__(self, index: int | slice) -> _Slice | _Slices:
        h, d = 2 * self.n, self.nd
        if isinstance(index, slice):
            a, b, step = index.indices(len(self))
            if step != 1:
                raise ValueError("a run of slices is consecutive")
            b = max(a, b)
            return _Slices(n=self.n, nd=d, holes=self.holes[h * a : h * b],
                           decks=self.decks[d * a : d * b], lo=self.lo[a:b],
                           hi=self.hi[a:b])  # fmt: skip
        j = range(len(self))[index]
        return _Slice(self.holes[h * j : h * (j + 1)], self.decks[d * j : d * (j + 1)],
                      self.lo[j], self.hi[j])  # fmt: skip


def _enumerate_run(
    run: _Slices, board: bytes, stop: _StopFlag | None = None
) -> tuple[list[int], list[int], list[int]]:
    """A run of slices of exact enumeration in one C call, here or on a
    cluster's worker: each one's boards counted, then the wins (``n`` a slice)
    and the ties (``n * HD_TIE_SLOTS`` a slice), in order."""
    m, n = len(run), run.n
    counts = ffi.new("uint64_t[]", m)
    wins = ffi.new("uint64_t[]", m * n)
    ties = ffi.new("uint64_t[]", m * n * _TIES)
    _c_call(stop or _StopFlag(), lib.hd_equity_enumerate_batch, run.holes, n, board, len(board),
            run.decks, run.nd, ffi.from_buffer("uint32_t[]", run.lo),
            ffi.from_buffer("uint32_t[]", run.hi), m, counts, wins, ties)  # fmt: skip
    return ffi.unpack(counts, m), ffi.unpack(wins, m * n), ffi.unpack(ties, m * n * _TIES)


def _in_runs(results: Iterator[list[_R]]) -> Iterator[_R]:
    """The results of the runs' slices (chunks) one by one, in order; closing
    it closes the runs' results (the cluster's futures cancelled)."""
    with closing(results):  # type: ignore[type-var]
        for run in results:
            yield from run


class _Totals:
    """Weighted sums of wins, ties and shares over chunks of work."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.deals = 0.0
        self.win = [0.0] * n
        self.tie = [0.0] * n
        self.share = [0.0] * n
        self.share_sq = [0.0] * n  # sum of the squares of the per-deal shares

    def add(
        self, weights: Sequence[float], counts: Sequence[int], wins: Sequence[int],
        ties: Sequence[int],
    ) -> None:  # fmt: skip
        """Adds chunks of work in order: chunk ``j`` has ``counts[j]`` deals,
        each counted ``weights[j]`` times, and its players' wins and ties at
        ``n * j`` in ``wins`` and at ``n * HD_TIE_SLOTS * j`` in ``ties``.

        Each total adds its chunks' terms in their order, so the sums are the
        same however the chunks come (one or many at a time); computed total
        by total rather than chunk by chunk (half the time)."""
        n, step = self.n, self.n * _TIES
        self.deals = reduce(add, map(mul, weights, counts), self.deals)
        for i in range(n):
            won = wins[i::n]
            # (ties of k players, k = 2..n: none of more players than there are)
            by_k = [ties[i * _TIES + k :: step] for k in range(2, n + 1)]
            tied = by_k[0] if n == 2 else list(map(sum, zip(*by_k, strict=True)))
            self.win[i] = reduce(add, map(mul, weights, won), self.win[i])
            self.tie[i] = reduce(add, map(mul, weights, tied), self.tie[i])
            if any(map(any, by_k[1:])):  # a share of a third or less: each term as it was
                rows = [ties[j : j + _TIES] for j in range(i * _TIES, len(ties), step)]
                share = [
                    w + sum(r[k] / k for k in range(2, _TIES))
                    for w, r in zip(won, rows, strict=True)
                ]
                sq = [
                    w + sum(r[k] / k**2 for k in range(2, _TIES))
                    for w, r in zip(won, rows, strict=True)
                ]
            else:  # (the same terms: those sums add only zeros after row[2] / 2 or / 4)
                share = list(map(add, won, map(truediv, tied, itertools.repeat(2))))
                sq = list(map(add, won, map(truediv, tied, itertools.repeat(4))))
            self.share[i] = reduce(add, map(mul, weights, share), self.share[i])
            self.share_sq[i] = reduce(add, map(mul, weights, sq), self.share_sq[i])

    def player(self, i: int, name: str, stderr: float) -> PlayerEquity:
        d = self.deals
        return PlayerEquity(name, self.share[i] / d, self.win[i] / d, self.tie[i] / d, stderr)


# --- Monte Carlo -----------------------------------------------------------


def _has_legal_deal(ranges: list[Range]) -> bool | None:
    """Whether one combo per player can be dealt with no card twice; None
    when a bounded search could not tell (Monte Carlo will, by its rejections).

    A depth-first search that deals next to the player with the fewest combos
    left, and gives up on a branch as soon as a player has none, or the
    players whose combos all lie within one player's cards are more than
    those cards can serve.
    """
    work = 0

    def search(players: list[list[int]]) -> bool | None:
        nonlocal work
        if not players:
            return True
        if min(map(len, players)) == 0:
            return False
        unions = []  # the cards each player's combos use
        for masks in players:
            union = 0
            for mask in masks:
                union |= mask
            unions.append(union)
        # the players whose combos all lie in one player's cards need 2 of them each
        for union in unions:
            if 2 * sum(not other & ~union for other in unions) > union.bit_count():
                return False
        first = min(range(len(players)), key=lambda i: len(players[i]))
        rest = players[:first] + players[first + 1 :]
        size = sum(map(len, players))
        unknown = False
        for mask in players[first]:
            work += size
            if work > _SEARCH_LIMIT:
                return None
            found = search([[m for m in masks if not m & mask] for masks in rest])
            if found:
                return True
            unknown = unknown or found is None
        return None if unknown else False

    return search([[(1 << a) | (1 << b) for a, b in r] for r in ranges])


def _run_monte_carlo(
    ranges: list[Range],
    deals: list[tuple[Deal, float]] | None,
    names: tuple[str, ...],
    board: list[Card],
    dead: list[Card],
    trials: int | None,
    stderr: float | None,
    seed: int | None,
    threads: int,
    progress: Callable[[float], None] | None,
    client: Any = None,
) -> EquityResult:
    n = len(ranges)
    if seed is None:
        seed = random.SystemRandom().randrange(2**63)
    if trials is None and stderr is None:
        stderr = 0.0005
    limit = trials if trials is not None else MAX_TRIALS
    dead_mask = 0
    for c in dead:
        dead_mask |= 1 << c
    if deals is not None:  # draw whole legal deals: no rejections
        table = _Table(n, bytes(board), dead_mask, [w for _, w in deals],
                       bytes(c for deal, _ in deals for combo in deal for c in combo))  # fmt: skip
    else:  # draw each player's combo, and the whole deal again on a collision
        combos = bytearray()
        weights: list[float] = []
        start = [0]
        for r in ranges:
            for (a, b), w in r.items():
                combos += bytes((a, b))
                weights.append(w)
            start.append(len(weights))
        table = _Table(n, bytes(board), dead_mask, weights, bytes(combos), tuple(start))
    chunks = -(-limit // _CHUNK)
    results: Iterator[tuple[int, list[int], list[int]]]
    if client is None:
        stop = _StopFlag()
        sampler = _Sampler(table, stop)

        def run(chunk: int) -> tuple[int, list[int], list[int]]:
            return sampler.chunk(chunk, limit, seed)

        results = _parallel(run, chunks, threads, stop)
    else:  # (runs of chunks sized by their time)
        [shared] = client.scatter([table], broadcast=True)  # (sent once to each worker)
        results = _in_runs(ordered(client, _sample_run, range(chunks), args=(shared, limit, seed)))
    totals = _Totals(n)
    done = 0
    error = [1.0] * n
    # Chunks are started ahead (a window of 2 per thread, so no thread waits
    # for a batch to finish) and their results read in chunk order: the run
    # stops at the same chunk whatever the number of threads.
    with closing(results):  # type: ignore[type-var]
        for chunk, (count, wins, ties) in enumerate(results):
            if count == 0:
                raise EquityError("the ranges collide on almost every deal; no deal was found")
            totals.add((1.0,), (count,), wins, ties)
            done += count
            error = [_stderr(totals.share[i], totals.share_sq[i], done) for i in range(n)]
            finished = stderr is not None and done >= 1000 and max(error) <= stderr
            if progress and (finished or chunk % 8 == 7 or chunk == chunks - 1):
                if stderr is not None:
                    progress(min(1.0, (stderr / max(max(error), 1e-300)) ** 2))
                else:
                    progress(done / limit)
            if finished:
                break  # closing the results drops the chunks started ahead
    players = tuple(totals.player(i, names[i], error[i]) for i in range(n))
    return EquityResult(players, "monte carlo", done, tuple(board), tuple(dead), seed)


class _Table(NamedTuple):
    """What Monte Carlo deals are drawn from: the players, the board, the dead
    cards (a mask), and either the legal deals (``cards``: each deal's hole
    cards, player by player) or each player's combos (``cards``: two cards
    each, the players' from ``start[i]`` to ``start[i + 1]``), with their
    weights."""

    n: int
    board: bytes
    dead_mask: int
    weights: list[float]
    cards: bytes
    start: tuple[int, ...] | None = None  # (None: the legal deals)


class _Sampler:
    """Monte Carlo chunks of a :class:`_Table` (its C arrays made once)."""

    def __init__(self, table: _Table, stop: _StopFlag) -> None:
        self.table, self.stop = table, stop
        self.cards = ffi.new("uint8_t[]", table.cards)
        self.weights = ffi.new("double[]", table.weights)
        self.start = None if table.start is None else ffi.new("uint32_t[]", list(table.start))

    def chunk(self, chunk: int, limit: int, seed: int) -> tuple[int, list[int], list[int]]:
        """Chunk ``chunk`` of a run of ``limit`` deals: the deals simulated,
        the wins and the ties (its own random stream, of ``seed`` and its number)."""
        t, n = self.table, self.table.n
        size = min(_CHUNK, limit - chunk * _CHUNK)
        wins = ffi.new("uint64_t[]", n)
        ties = ffi.new("uint64_t[]", n * _TIES)
        chunk_seed = (seed * 0x9E3779B97F4A7C15 + chunk) % 2**64
        if self.start is None:
            count = _c_call(self.stop, lib.hd_equity_montecarlo_deals, self.cards, self.weights,
                            len(t.weights), n, t.board, len(t.board), t.dead_mask, size,
                            chunk_seed, wins, ties)  # fmt: skip
        else:
            rejected = ffi.new("uint64_t *")
            count = _c_call(self.stop, lib.hd_equity_montecarlo, self.cards, self.weights,
                            self.start, n, t.board, len(t.board), t.dead_mask, size, chunk_seed,
                            1000 * size + 10_000, wins, ties, rejected)  # fmt: skip
        return int(count), list(wins), list(ties)


def _sample_run(
    run: range, table: _Table, limit: int, seed: int
) -> list[tuple[int, list[int], list[int]]]:
    """A run of Monte Carlo chunks on a cluster's worker, in order."""
    sampler = _Sampler(table, _StopFlag())
    return [sampler.chunk(chunk, limit, seed) for chunk in run]


def _stderr(share: float, sum_sq: float, deals: int) -> float:
    mean = share / deals
    variance = max(sum_sq / deals - mean * mean, 0.0)
    return sqrt(variance / deals)


# --- the bots' fast path ---------------------------------------------------


class Packed:
    """A range packed for the C core once, for many quick equities against it
    (:func:`share`): its combos' cards and their weights, as bytes.

    ``weights`` maps combos to positive weights; a combo that holds a card
    of the board or of the hand it is dealt against is drawn again in C, so
    one packing serves every board.
    """

    __slots__ = ("cards", "size", "weights")

    def __init__(self, weights: Mapping[Combo, float]) -> None:
        self.size = len(weights)
        self.cards = bytes(itertools.chain.from_iterable(weights))
        self.weights = array("d", weights.values()).tobytes()


#: every two cards, alike
RANDOM = Packed(dict.fromkeys(itertools.combinations(range(52), 2), 1.0))
_ONE = array("d", [1.0]).tobytes()
_NO_STOP = ffi.new("int *")


def share(
    hole: Sequence[Card],
    ranges: Sequence[Packed],
    board: Sequence[Card] = (),
    trials: int = 1000,
    seed: int = 0,
) -> float:
    """The share of the pot that ``hole`` wins against one player of each of
    ``ranges`` on ``board``, by Monte Carlo over ``trials`` deals of the
    random stream ``seed`` (the same seed, the same figure): the bots' quick
    equity, one C call with no checks of its input, which must be sound
    (distinct cards; 1 to 9 ranges, each with a combo that can be dealt).
    0.5 when no deal could be made."""
    n = 1 + len(ranges)
    cards = b"".join([bytes(hole), *[r.cards for r in ranges]])
    weights = b"".join([_ONE, *[r.weights for r in ranges]])
    start = [0, 1]
    for r in ranges:
        start.append(start[-1] + r.size)
    wins = ffi.new("uint64_t[]", n)
    ties = ffi.new("uint64_t[]", n * _TIES)
    rejected = ffi.new("uint64_t *")
    done = lib.hd_equity_montecarlo(
        cards, ffi.from_buffer("double[]", weights), ffi.new("uint32_t[]", start), n,
        bytes(board), len(board), 0, trials, seed & MAX_SEED, 1000 * trials + 10_000,
        wins, ties, rejected, _NO_STOP,
    )  # fmt: skip
    if not done:
        return 0.5
    split = sum(ties[k] / k for k in range(2, _TIES))  # (player 0's row: the first)
    return float((wins[0] + split) / done)


__all__ = [
    "EXACT_LIMIT",
    "EXACT_MAX",
    "MAX_SEED",
    "MAX_TRIALS",
    "RANDOM",
    "EquityError",
    "EquityResult",
    "Packed",
    "PlayerEquity",
    "equity",
    "share",
]
