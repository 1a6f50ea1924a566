"""Players' statistics from hand histories, as the usual trackers count them.

Every hand is replayed through the rules engine (as ``holdem validate``
replays it: :func:`~holdem.histories.replay`, by another site's convention
where only that explains it), and its log counted into one
:class:`Counts` per player, and one per player and position: hands, net
won (in the file's money and in big blinds), bb/100 with a 95% interval,
VPIP, PFR, 3-bet, fold to 3-bet, c-bet, fold to c-bet, aggression factor and
frequency, went to showdown and won at showdown, and the all-in adjusted
winnings (each all-in's pots shared by the players' equities when the last
chip went in, by :func:`~holdem.equities.equity`).  ``docs/stats.md``
defines each figure and its denominator.

Memory is bounded whatever the files' size: a player's counts are numbers,
and their winnings over the hands (:class:`Series`, for the plots) at most
twice :data:`POINTS` points.  Files are read as validate reads them, on one process
or several (:func:`stats_files`: whole files, or pieces of a large one, the
pieces' counts joined in order).

>>> from holdem.histories import read_phh_text
>>> hands = read_phh_text('''
... variant = 'NT'
... antes = [0, 0, 0]
... blinds_or_straddles = [1, 2, 0]
... min_bet = 2
... starting_stacks = [200, 200, 200]
... actions = ['d dh p1 AsKs', 'd dh p2 QdQh', 'd dh p3 7c2d', 'p3 f', 'p1 cbr 6', 'p2 f']
... players = ['Ann', 'Bob', 'Cid']
... ''')
>>> stats = Stats()
>>> stats.add_hands(hands)
>>> ann = stats.players["Ann"].total()
>>> ann.hands, ann.net_bb, ann.count("vpip"), ann.count("pfr")
(1, 1.0, 1, 1)
>>> stats.players["Bob"].positions["BB"].net_bb
-1.0
"""

from __future__ import annotations

import functools
import itertools
import math
import sys
from array import array
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from functools import partial
from operator import add
from pathlib import Path
from typing import Any

from .actions import ActionKind, Street
from .cards import Card
from .equities import equity
from .hand import Hand
from .histories.files import Piece, read_hands
from .histories.inputs import Source, input_name
from .histories.model import HandHistory, Problem
from .histories.parallel import map_files
from .histories.playback import replay

__all__ = [
    "FIGURES",
    "POINTS",
    "POSITIONS",
    "Counts",
    "Series",
    "Stats",
    "StatsReport",
    "position_names",
    "stats_file",
    "stats_files",
    "stats_piece",
]

#: The most points of a player's winnings over their hands that are kept (and
#: twice as many at most while counting): a long run is thinned, every other
#: point dropped, so a plot of a file of any size costs the same.
POINTS = 500

#: The positions, in the order of the tables (see :func:`position_names`).
POSITIONS = ("UTG", "UTG+1", "UTG+2", "UTG+3", "LJ", "HJ", "CO", "BTN", "SB", "BB")

_K = ActionKind
# (tuples, not sets: a kind is found in them by identity, without hashing an Enum)
_DECISIONS = (_K.FOLD, _K.CHECK, _K.CALL, _K.BET, _K.RAISE, _K.TIMEOUT)
_VOLUNTARY = (_K.CALL, _K.BET, _K.RAISE)
_AGGRESSIVE = (_K.BET, _K.RAISE)
_FOLD, _CALL, _DEAL_BOARD = _K.FOLD, _K.CALL, _K.DEAL_BOARD
_PREFLOP, _FLOP, _RIVER = Street.PREFLOP, Street.FLOP, Street.RIVER
#: 1.96: the half-width of a 95% interval, in standard errors (normal)
_Z95 = 1.96


@functools.cache
def position_names(players: int) -> tuple[str, ...]:
    """The positions of a hand's players, in the order of
    :attr:`~holdem.histories.HandHistory.players` (the button last).

    Heads-up the button (who posts the small blind) is ``BTN``; with more
    players the first two are ``SB`` and ``BB``; between the big blind and
    the button, the last three seats are ``LJ``, ``HJ``, ``CO`` (as many as
    there are, from the button's right), the first one is always ``UTG`` and
    those after it ``UTG+1`` ...

    >>> position_names(2), position_names(6)
    (('BB', 'BTN'), ('SB', 'BB', 'UTG', 'HJ', 'CO', 'BTN'))
    >>> position_names(9)
    ('SB', 'BB', 'UTG', 'UTG+1', 'UTG+2', 'LJ', 'HJ', 'CO', 'BTN')
    """
    if players == 2:
        return ("BB", "BTN")
    middle = players - 3  # seats between the big blind and the button
    late = min(max(middle - 1, 0), 3)  # of them, named from the button's right
    early = ("UTG", *(f"UTG+{k}" for k in range(1, middle - late)))[: middle - late]
    return ("SB", "BB", *early, *("LJ", "HJ", "CO")[3 - late :], "BTN")[:players]


#: The whole-number counts of :class:`Counts`, in the order of its list ``counts``.
COUNTED = (
    "hands",
    "decided",  # hands with a decision before the flop (VPIP's and PFR's denominator)
    "vpip",
    "pfr",
    "three_bet_chances",
    "three_bet",
    "fold_three_bet_chances",
    "fold_three_bet",
    "cbet_chances",
    "cbet",
    "fold_cbet_chances",
    "fold_cbet",
    "post_aggressive",  # bets and raises after the flop
    "post_calls",
    "post_folds",
    "post_checks",  # checks (and protected timeouts)
    "saw_flop",
    "showdowns",
    "showdowns_won",
    "all_ins",  # hands whose result the all-in adjustment changed
)
_AT = {name: k for k, name in enumerate(COUNTED)}


class Counts:
    """One player's counts over hands (all of them, or those of one position).

    ``counts`` holds the whole numbers of :data:`COUNTED` (``count(name)``
    reads one); the amounts: ``net`` in the files' money (chips times their
    unit), the others in big blinds of each hand's own big blind.  The
    figures (:meth:`figures`) are ratios of these; ``docs/stats.md`` says
    what each counts.
    """

    __slots__ = ("adjusted_bb", "counts", "m2", "net", "net_bb", "no_showdown_bb", "showdown_bb")

    def __init__(self) -> None:
        self.counts = [0] * len(COUNTED)
        self.net = Decimal(0)
        #: net won in big blinds; ``m2``: the sum of the hands' squared
        #: deviations from their mean (Welford's), for the interval
        self.net_bb = self.m2 = 0.0
        self.adjusted_bb = self.showdown_bb = self.no_showdown_bb = 0.0

    @property
    def hands(self) -> int:
        return self.counts[0]

    def count(self, name: str) -> int:
        """One of the counts of :data:`COUNTED`."""
        return self.counts[_AT[name]]

    def __reduce__(self) -> tuple[Any, ...]:
        # (to another process in one tuple: pickle's own way for slots costs
        # several times as much, and a file's counts go back from a worker)
        amounts = (self.net_bb, self.m2, self.adjusted_bb, self.showdown_bb, self.no_showdown_bb)
        return (_made_counts, (self.counts, str(self.net), *amounts))

    @property
    def mean_bb(self) -> float:
        """Big blinds won a hand on average."""
        return self.net_bb / self.hands if self.hands else 0.0

    def merge(self, other: Counts) -> None:
        """Takes in another's counts (the same player's other hands)."""
        n, m = self.counts[0], other.counts[0]
        if n and m:  # (Chan et al.: the deviations of the two together)
            delta = other.net_bb / m - self.net_bb / n
            self.m2 += other.m2 + delta * delta * n * m / (n + m)
        else:
            self.m2 += other.m2
        self.counts = list(map(add, self.counts, other.counts))
        self.net += other.net
        self.net_bb += other.net_bb
        self.adjusted_bb += other.adjusted_bb
        self.showdown_bb += other.showdown_bb
        self.no_showdown_bb += other.no_showdown_bb

    def figures(self) -> dict[str, Any]:
        """The figures, by name (:data:`FIGURES` says what each is); a ratio of
        nothing (no chance to 3-bet ...) is None."""
        n = self.hands
        ci = _Z95 * math.sqrt(self.m2 / (n - 1) / n) * 100 if n > 1 else None
        ratios = {name: _ratio(count, of) for name, (count, of) in self.chances().items()}
        return {
            "hands": n,
            "net": self.net,
            "net_bb": self.net_bb,
            "bb_per_100": 100 * self.net_bb / n if n else None,
            "ci95": ci,
            **ratios,
            "all_in_adjusted_bb": self.adjusted_bb,
            "all_in_adjusted_bb_per_100": 100 * self.adjusted_bb / n if n else None,
            "all_ins": self.count("all_ins"),
            "showdown_bb": self.showdown_bb,
            "no_showdown_bb": self.no_showdown_bb,
        }

    def chances(self) -> dict[str, tuple[int, int]]:
        """Each ratio's count and denominator: ``{"vpip": (12, 40), ...}``."""
        c = dict(zip(COUNTED, self.counts, strict=True))
        aggressive = c["post_aggressive"]
        decisions = aggressive + c["post_calls"] + c["post_folds"]  # (checks are not counted)
        return {
            "vpip": (c["vpip"], c["decided"]),
            "pfr": (c["pfr"], c["decided"]),
            "three_bet": (c["three_bet"], c["three_bet_chances"]),
            "fold_to_three_bet": (c["fold_three_bet"], c["fold_three_bet_chances"]),
            "cbet": (c["cbet"], c["cbet_chances"]),
            "fold_to_cbet": (c["fold_cbet"], c["fold_cbet_chances"]),
            "aggression": (aggressive, c["post_calls"]),
            "aggression_frequency": (aggressive, decisions),
            "wtsd": (c["showdowns"], c["saw_flop"]),
            "wsd": (c["showdowns_won"], c["showdowns"]),
        }


def _made_counts(counts: list[int], net: str, *amounts: float) -> Counts:
    """A :class:`Counts` from what its ``__reduce__`` gives."""
    made = Counts.__new__(Counts)
    made.counts, made.net = counts, Decimal(net)
    made.net_bb, made.m2, made.adjusted_bb, made.showdown_bb, made.no_showdown_bb = amounts
    return made


#: The figures of :meth:`Counts.figures`, in the order of the tables and the
#: CSV, with what each is (``docs/stats.md`` has the definitions).
FIGURES = {
    "hands": "hands dealt in",
    "net": "net won, in the files' money (after the rake the file states)",
    "net_bb": "net won in big blinds",
    "bb_per_100": "big blinds won per 100 hands",
    "ci95": "half-width of the 95% interval of bb/100",
    "vpip": "voluntarily put money in the pot before the flop",
    "pfr": "raised before the flop",
    "three_bet": "3-bet, of the chances to",
    "fold_to_three_bet": "folded to a 3-bet after opening",
    "cbet": "continuation bet on the flop, of the chances to",
    "fold_to_cbet": "folded to a continuation bet on the flop",
    "aggression": "bets and raises over calls after the flop",
    "aggression_frequency": "bets and raises of the bets, raises, calls and folds after the flop",
    "wtsd": "went to showdown, of the flops seen",
    "wsd": "won money at showdown, of the showdowns",
    "all_in_adjusted_bb": "net won in big blinds, all-in pots shared by equity",
    "all_in_adjusted_bb_per_100": "the all-in adjusted winnings per 100 hands",
    "all_ins": "hands whose result the all-in adjustment changed",
    "showdown_bb": "net won in big blinds in hands that reached a showdown",
    "no_showdown_bb": "net won in big blinds in hands that did not",
}


def _ratio(count: int, of: int) -> float | None:
    return count / of if of else None


class Series:
    """A player's winnings over their hands, in big blinds: after hand ``k``
    the actual, all-in adjusted, showdown and non-showdown winnings, kept
    at every ``every``-th hand and always at the last one, at most
    ``2 * POINTS`` points (thinned to every other point, and ``every``
    doubled, when there are more)."""

    __slots__ = ("every", "last", "points")

    def __init__(self) -> None:
        self.every = 1
        self.points: list[tuple[int, float, float, float, float]] = []
        self.last: tuple[int, float, float, float, float] | None = None

    def add(self, point: tuple[int, float, float, float, float]) -> None:
        """The totals after one more hand (its number first)."""
        self.last = point
        if point[0] % self.every == 0:
            self.points.append(point)
            if len(self.points) > 2 * POINTS:
                self._thin()

    def _thin(self) -> None:
        while len(self.points) > 2 * POINTS:
            self.points = self.points[1::2]
            self.every *= 2

    def merge(self, other: Series) -> None:
        """Takes in the points of the same player's later hands (counted from
        their own first hand: moved on by this series' last totals), kept
        every ``every``-th hand, the larger ``every`` of the two (counted from
        the first hand, or, when the other's points are already thinned, from
        their own first hand)."""
        if other.last is None:
            return
        base = self.last or (0, 0.0, 0.0, 0.0, 0.0)
        every = max(self.every, other.every)
        if every != self.every:
            self.points = [p for p in self.points if p[0] % every == 0]
            self.every = every
        shift = base[0] if other.every == 1 else 0
        self.points.extend(
            (base[0] + p[0], base[1] + p[1], base[2] + p[2], base[3] + p[3], base[4] + p[4])
            for p in other.points
            if (shift + p[0]) % every == 0
        )
        last = other.last
        self.last = (
            base[0] + last[0], base[1] + last[1], base[2] + last[2], base[3] + last[3],
            base[4] + last[4],
        )  # fmt: skip
        self._thin()

    def curve(self) -> list[tuple[int, float, float, float, float]]:
        """The points, the first hand's totals at 0 and the last hand's always in."""
        points = [(0, 0.0, 0.0, 0.0, 0.0), *self.points]
        if self.last is not None and points[-1] != self.last:
            points.append(self.last)
        return points


class PlayerStats:
    """One player's counts by position (``positions``: the player's total is
    :meth:`total`), their ``hands``, and their winnings over the hands
    (``series``, when asked for: with the running totals it is made of,
    ``net_bb`` ..., kept only then)."""

    __slots__ = ("adjusted_bb", "hands", "net_bb", "no_showdown_bb", "positions", "series",
                 "showdown_bb")  # fmt: skip

    def __init__(self, series: bool = False) -> None:
        self.positions: dict[str, Counts] = {}
        self.series = Series() if series else None
        self.hands = 0
        self.net_bb = self.adjusted_bb = self.showdown_bb = self.no_showdown_bb = 0.0

    def __reduce__(self) -> tuple[Any, ...]:
        # (one tuple, as Counts)
        totals = (self.hands, self.net_bb, self.adjusted_bb, self.showdown_bb, self.no_showdown_bb)
        return (_made_player, (self.positions, self.series, *totals))

    def total(self) -> Counts:
        """The counts of every position together."""
        total = Counts()
        for name in POSITIONS:
            counts = self.positions.get(name)
            if counts is not None:
                total.merge(counts)
        return total

    def merge(self, other: PlayerStats) -> None:
        """Takes in the same player's later hands."""
        for name, counts in other.positions.items():
            mine = self.positions.get(name)
            if mine is None:
                self.positions[name] = counts
            else:
                mine.merge(counts)
        if self.series is not None and other.series is not None:
            self.series.merge(other.series)
        self.hands += other.hands
        self.net_bb += other.net_bb
        self.adjusted_bb += other.adjusted_bb
        self.showdown_bb += other.showdown_bb
        self.no_showdown_bb += other.no_showdown_bb


def _made_player(
    positions: dict[str, Counts], series: Series | None, hands: int, *totals: float
) -> PlayerStats:
    """A :class:`PlayerStats` from what its ``__reduce__`` gives."""
    made = PlayerStats.__new__(PlayerStats)
    made.positions, made.series, made.hands = positions, series, hands
    made.net_bb, made.adjusted_bb, made.showdown_bb, made.no_showdown_bb = totals
    return made


@dataclass
class Stats:
    """Players' counts (by name, in the order first met), and the hands left out.

    ``series``: keep each player's winnings over their hands (the plots).
    """

    series: bool = False
    players: dict[str, PlayerStats] = field(default_factory=dict)
    #: hands read, and those left out: they do not replay (``holdem validate``
    #: says why; the first such problems are kept, :data:`KEPT_PROBLEMS`)
    hands: int = 0
    left_out: int = 0
    problems: list[Problem] = field(default_factory=list)
    #: all-in hands not adjusted: a player's cards are not known
    unknown_all_ins: int = 0

    def add_hands(self, items: Iterable[HandHistory | Problem]) -> None:
        """Counts every hand a reader gives (a problem is a hand left out)."""
        for item in items:
            if isinstance(item, Problem):
                if item.code != "outside":  # (text outside any hand: no hand)
                    self.hands += 1
                    self._leave_out(item)
                continue
            self.hands += 1
            self.add_hand(item)

    def _leave_out(self, problem: Problem) -> None:
        self.left_out += 1
        if len(self.problems) < KEPT_PROBLEMS:
            self.problems.append(problem)

    def add_hand(self, history: HandHistory) -> None:
        """Counts one hand (or leaves it out, keeping why)."""
        try:
            result = replay(history, check_claims=False)
        except Exception as exc:  # a bug of ours: the hand is left out, named
            where = history.source or "<input>"
            self._leave_out(
                Problem.internal(where, history.line, history.hand_id, "replaying", exc)
            )
            return
        hand = result.hand
        if not result.ok or hand is None or hand.outcome is None:
            problem = next((p for p in result.problems if p.severity != "warning"), None)
            if problem is None:  # (a warning that stopped the replay: unknown cards)
                problem = result.problems[-1] if result.problems else _unfinished(history)
            self._leave_out(problem)
            return
        try:
            _count_hand(self, history, hand)  # (what it counts is added at its end)
        except Exception as exc:  # a bug of ours, as above
            where = history.source or "<input>"
            self._leave_out(Problem.internal(where, history.line, history.hand_id, "counting", exc))

    def merge(self, other: Stats) -> None:
        """Takes in the counts of later hands (another piece, another file):
        the other's players are taken over, not copied (leave it alone after)."""
        self.hands += other.hands
        self.unknown_all_ins += other.unknown_all_ins
        self.left_out += other.left_out
        self.problems.extend(other.problems[: KEPT_PROBLEMS - len(self.problems)])
        for name, player in other.players.items():
            mine = self.players.get(name)
            if mine is None:
                self.players[name] = player
            else:
                mine.merge(player)

    def player(self, name: str) -> PlayerStats:
        """A player's counts (made on first use)."""
        player = self.players.get(name)
        if player is None:
            player = self.players[name] = PlayerStats(self.series)
        return player


def _unfinished(h: HandHistory) -> Problem:
    where = h.source or "<input>"
    return Problem(where, h.line, h.hand_id, "error", "the replay did not finish", "incomplete")


#: Problems of hands left out that :class:`Stats` keeps (the count is whole).
KEPT_PROBLEMS = 20


@dataclass
class StatsReport:
    """What counting one file gave: its counts, or why it could not be read
    (from a line on: the hands before it are counted)."""

    path: str
    stats: Stats
    unreadable: str | None = None

    def add(self, part: StatsReport) -> None:
        """Takes in a later piece of the same file (:func:`stats_piece`)."""
        self.stats.merge(part.stats)
        if part.unreadable is not None:
            self.unreadable = part.unreadable

    def finish(self) -> StatsReport:
        return self


def stats_file(
    path: Source, fmt: str | None = None, *, name: str | None = None, series: bool = False
) -> StatsReport:
    """The counts of every hand of a file or stream; never raises for bad content."""
    report = StatsReport(input_name(path, name), Stats(series))
    _read_into(report, lambda: read_hands(path, fmt, path=name))
    return report


def stats_piece(piece: Piece, *, series: bool = False) -> StatsReport:
    """The counts of one piece of a file (join them in order with
    :meth:`StatsReport.add`)."""
    report = StatsReport(piece.name, Stats(series))
    text = [piece.text]  # (one chunk: the readers split it at once)
    _read_into(report, lambda: read_hands(text, piece.fmt, path=piece.name, first_line=piece.first))
    report.unreadable = piece.unreadable or report.unreadable
    return report


def _read_into(report: StatsReport, items: Any) -> None:
    from .errors import HistoryFormatError

    try:
        report.stats.add_hands(items())
    except HistoryFormatError as exc:
        report.unreadable = str(exc)
    except OSError as exc:
        report.unreadable = exc.strerror or str(exc)


def stats_files(
    sources: Sequence[Source],
    fmt: str | None = None,
    *,
    jobs: int = 1,
    series: bool = False,
    progress: Any = None,
    cluster: str | None = None,
    ship: bool = False,
) -> Iterator[StatsReport]:
    """The report of each file (a path) or stream, in order, counted on ``jobs``
    processes, or a Dask cluster's workers (``cluster``, ``ship``:
    docs/cluster.md), as ``holdem validate`` shares them
    (:func:`~holdem.histories.parallel.map_files`); ``progress(n)`` is told of
    every ``n`` bytes done."""
    return map_files(
        sources,
        fmt,
        whole=partial(_stats_whole, series=series),
        piece=partial(stats_piece, series=series),
        jobs=jobs,
        progress=progress,
        cluster=cluster,
        ship=ship,
    )


def _stats_whole(
    path: Source, fmt: str | None, *, name: str | None = None, series: bool = False
) -> StatsReport:
    return stats_file(path, fmt, name=name, series=series)


# -- one hand ---------------------------------------------------------------


def _count_hand(stats: Stats, h: HandHistory, hand: Hand) -> None:
    """Adds one replayed hand to its players' counts (one pass over its log)."""
    outcome = hand.outcome
    assert outcome is not None
    n = len(h.players)
    big_blind = hand.config.big_blind
    decided = [False] * n
    vpip, pfr = [False] * n, [False] * n
    three_chance, three = [False] * n, [False] * n
    fold3_chance, fold3 = [False] * n, [False] * n
    cbet_chance, cbet = [False] * n, [False] * n
    fcbet_chance, fcbet = [False] * n, [False] * n
    aggressive, calls, folds, passive = [0] * n, [0] * n, [0] * n, [0] * n
    folded = [False] * n
    saw_flop = [False] * n
    raises = 0  # before the flop: 1 the open, 2 the 3-bet ...
    opener = aggressor = -1  # who made the open raise; the last raise before the flop
    flop_bets = 0  # bets and raises on the flop so far
    cbettor = -1  # who bet first on the flop, when it is the preflop aggressor
    board = 0  # board cards dealt (the first run)
    last_board = 0  # ... when the last decision was made
    for kind, p, _, _, street, _, cards, _, run in hand.log:
        if kind is _DEAL_BOARD:
            if not run:  # (the second run of a board run twice: not a flop seen)
                if board == 0:
                    for q in range(n):
                        saw_flop[q] = not folded[q]
                board += len(cards)
            continue
        if p is None or kind not in _DECISIONS:
            continue
        last_board = board
        if street is _PREFLOP:
            decided[p] = True
            if raises == 1 and not three_chance[p] and p != opener:
                three_chance[p] = True
                three[p] = kind in _AGGRESSIVE
            elif raises == 2 and p == opener and not fold3_chance[p]:
                fold3_chance[p] = True
                fold3[p] = kind is _FOLD
            if kind in _VOLUNTARY:
                vpip[p] = True
                if kind in _AGGRESSIVE:
                    pfr[p] = True
                    raises += 1
                    aggressor = p
                    if raises == 1:
                        opener = p
        else:
            if kind in _AGGRESSIVE:
                aggressive[p] += 1
            elif kind is _CALL:
                calls[p] += 1
            elif kind is _FOLD:
                folds[p] += 1
            else:
                passive[p] += 1  # checks (and timeouts): decisions, neither
            if street is _FLOP:
                if flop_bets == 0 and p == aggressor and not cbet_chance[p]:
                    cbet_chance[p] = True
                    cbet[p] = kind in _AGGRESSIVE
                    if cbet[p]:
                        cbettor = p
                elif flop_bets == 1 and cbettor >= 0 and p != cbettor and not fcbet_chance[p]:
                    fcbet_chance[p] = True
                    fcbet[p] = kind is _FOLD
                if kind in _AGGRESSIVE:
                    flop_bets += 1
        if kind is _FOLD:
            folded[p] = True
    at_showdown = set()
    if outcome.showdown:
        at_showdown = {s.seat for s in outcome.shown} | set(outcome.mucked)
    awards = [0] * n
    for pot in outcome.pots:
        for seat, share in zip(pot.winners, pot.shares, strict=True):
            awards[seat] += share
    rake = _rake_paid(h, awards)
    adjusted = [0.0] * n
    if outcome.showdown and last_board < 5 and len(at_showdown) > 1:
        shares = _all_in_shares(hand, last_board)
        if shares is None:
            stats.unknown_all_ins += 1
        else:
            adjusted = [s - a for s, a in zip(shares, awards, strict=True)]
    positions = position_names(n)
    unit = h.unit
    players = stats.players
    for p, seated in enumerate(h.players):
        net_chips = outcome.net[p] - rake[p]
        net_bb = net_chips / big_blind
        adjusted_bb = net_bb + adjusted[p] / big_blind
        showed = p in at_showdown
        name = seated.name or f"p{p + 1}"  # (as HandHistory.player_name names them)
        player = players.get(name) or stats.player(name)
        c = player.positions.get(positions[p])
        if c is None:
            c = player.positions[positions[p]] = Counts()
        hands = c.counts[0] + 1
        delta = net_bb - c.net_bb / (hands - 1) if hands > 1 else net_bb
        c.net_bb += net_bb
        c.m2 += delta * (net_bb - c.net_bb / hands)
        c.net += net_chips * unit
        c.adjusted_bb += adjusted_bb
        if showed:
            c.showdown_bb += net_bb
        else:
            c.no_showdown_bb += net_bb
        c.counts = list(
            map(
                add,
                c.counts,
                (
                    1, decided[p], vpip[p], pfr[p], three_chance[p], three[p], fold3_chance[p],
                    fold3[p], cbet_chance[p], cbet[p], fcbet_chance[p], fcbet[p], aggressive[p],
                    calls[p], folds[p], passive[p], saw_flop[p], showed, showed and awards[p] > 0,
                    adjusted[p] != 0,
                ),
            )
        )  # fmt: skip
        player.hands += 1
        if player.series is not None:  # (the running totals it is drawn from)
            player.net_bb += net_bb
            player.adjusted_bb += adjusted_bb
            if showed:
                player.showdown_bb += net_bb
            else:
                player.no_showdown_bb += net_bb
            player.series.add(
                (
                    player.hands,
                    player.net_bb,
                    player.adjusted_bb,
                    player.showdown_bb,
                    player.no_showdown_bb,
                )
            )


def _rake_paid(h: HandHistory, awards: Sequence[int]) -> list[int]:
    """The chips of each player's awards that the file says they did not get
    (the rake taken from their pots): the rules' awards less what the file
    says they collected (its winnings, without collections); 0 where the
    file says nothing, or more than the awards."""
    claims = h.claims
    kept: Sequence[int] | None = None
    if claims.collected is not None:
        got = [0] * len(awards)
        for who, amount, _ in claims.collected:
            if 0 <= who < len(got):
                got[who] += amount
        kept = got
    elif (
        claims.winnings is not None
        and len(claims.winnings) == len(awards)
        and (any(claims.winnings) or not any(awards))  # (never filled in: all 0)
    ):
        kept = claims.winnings
    if kept is None:
        return [0] * len(awards)
    return [a - k if 0 <= k <= a else 0 for a, k in zip(awards, kept, strict=True)]


def _all_in_shares(hand: Hand, board_cards: int) -> list[float] | None:
    """Each player's expected chips from the pots of an all-in, shared by the
    players' equities on the board as it was when the last decision was made
    (``board_cards`` of it); None when a contender's cards are not known."""
    outcome = hand.outcome
    assert outcome is not None
    n = len(outcome.net)
    board: tuple[Card, ...] = ()
    for action in hand.log:  # (the first run's board)
        if action.kind is _DEAL_BOARD and not action.run:
            board += action.cards
    board = board[:board_cards]
    shares = [0.0] * n
    known: dict[tuple[int, ...], list[float]] = {}
    for pot in outcome.pots:
        eligible = tuple(sorted(pot.eligible))
        if len(eligible) == 1:
            shares[eligible[0]] += pot.amount
            continue
        equities = known.get(eligible)
        if equities is None:
            cards = [hand.hole_cards(seat) for seat in eligible]
            if any(c is None for c in cards):
                return None
            equities = known[eligible] = _equities(tuple(cards), board)  # type: ignore[arg-type]
        for seat, share in zip(eligible, equities, strict=True):
            shares[seat] += share * pot.amount
    return shares


def _equities(cards: tuple[tuple[Card, Card], ...], board: tuple[Card, ...]) -> list[float]:
    """The players' exact equities (known hands: at most 1,712,304 boards, far
    below :data:`~holdem.equities.EXACT_LIMIT`, so ``equity`` enumerates);
    two players before the flop from :func:`heads_up_equity`'s table.  The
    cards of players who folded stay in the deck, shown or not."""
    if not board and len(cards) == 2:
        first = heads_up_equity(cards[0], cards[1])
        if first is not None:
            return [first, 1.0 - first]
    key = (cards, board)
    found = _EQUITIES.get(key)
    if found is None:
        if len(_EQUITIES) > 4096:
            _EQUITIES.clear()
        players = [list(c) for c in cards]
        result = equity(players, board=board, exact=True)
        found = _EQUITIES[key] = [p.equity for p in result.players]
    return found


#: Equities by hands and board (a file often has the same all-in twice: a
#: tournament's, written by several players' clients).
_EQUITIES: dict[tuple[Any, ...], list[float]] = {}


#: The boards of five cards from the 48 two hands leave.
HEADS_UP_BOARDS = math.comb(48, 5)
_SUIT_RENAMINGS = tuple(itertools.permutations(range(4)))


def heads_up_key(first: Sequence[Card], second: Sequence[Card]) -> tuple[int, bool]:
    """The key of a heads-up matchup in :func:`heads_up_equity`'s table, the
    same for every matchup that is the same up to a renaming of suits and an
    exchange of the hands; and whether the key has the hands exchanged.
    The key: the four cards (``rank * 4 + suit``), six bits each, each hand
    its higher card first, the least of all renamings."""
    best, swapped = -1, False
    for a, b, exchanged in ((first, second, False), (second, first, True)):
        for suits in _SUIT_RENAMINGS:
            x, y = (c - c % 4 + suits[c % 4] for c in a)
            z, w = (c - c % 4 + suits[c % 4] for c in b)
            if x < y:
                x, y = y, x
            if z < w:
                z, w = w, z
            key = x << 18 | y << 12 | z << 6 | w
            if best < 0 or key < best:
                best, swapped = key, exchanged
    return best, swapped


def heads_up_equity(first: Sequence[Card], second: Sequence[Card]) -> float | None:
    """The first hand's exact equity against the second before the flop, from
    the table ``bench/heads_up_table.py`` writes (``holdem/data``); None
    without the table (:func:`~holdem.equities.equity` then works it out)."""
    table = _heads_up_table()
    if table is None:
        return None
    key, swapped = heads_up_key(first, second)
    won = table.get(key)
    if won is None:
        return None
    share = won / (2 * HEADS_UP_BOARDS)
    return 1.0 - share if swapped else share


@functools.cache
def _heads_up_table() -> dict[int, int] | None:
    path = Path(__file__).with_name("data") / "heads_up_preflop.bin"
    try:
        raw = path.read_bytes()
    except OSError:
        return None
    numbers = array("I")
    numbers.frombytes(raw[: len(raw) // 8 * 8])
    if sys.byteorder != "little":
        numbers.byteswap()
    return dict(zip(numbers[0::2], numbers[1::2], strict=True))
