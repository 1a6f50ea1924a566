"""What a bot remembers of the other players: statistics read from the public
log of the hands it played with them, bounded for a bot that runs for weeks.

A :class:`Book` keeps a :class:`Stats` for each player it has seen, by the
name the view gives them (``view.config.names``) or else by their seat
number, the most recently seen :data:`MOST_PLAYERS` only, each with its last
:data:`MOST_SHOWN` hands shown.  It reads only what any player at the table
reads: the log of actions (who bet, called, folded, how much, all in or not)
and the cards shown at a showdown; never another player's unshown cards.

A hand is counted once: the bot hands the book each view it gets
(:meth:`Book.read`, at its turns; the counts of the hand so far are kept
aside) and, where the caller tells it, the hand's end
(:meth:`Book.read` with ``over=True``, from :meth:`~holdem.bots.Bot.observe`);
a hand whose end it was not told is counted as far as it saw it when the
next one begins.

>>> from holdem import Hand, HandConfig, Decision
>>> hand = Hand(HandConfig(stacks=(200, 200), button=0, small_blind=1, big_blind=2))
>>> _ = hand.act(Decision.raise_to(6)); _ = hand.act(Decision.fold())
>>> book = Book()
>>> book.read(hand.view(1), over=True)
>>> book.stats(hand.view(1), 0).hands, book.stats(hand.view(1), 0).pfr
(1, 1)
"""

from __future__ import annotations

from collections import OrderedDict, deque
from dataclasses import dataclass, field

from ..actions import ActionKind, Street
from ..cards import Card
from ..views import PlayerView

__all__ = ["MOST_PLAYERS", "MOST_SHOWN", "PRIORS", "Book", "Stats"]

#: the most players a book remembers (the least recently seen are forgotten)
MOST_PLAYERS = 64
#: the most shown hands it keeps of a player (the latest)
MOST_SHOWN = 32
#: what a player it knows nothing of is taken to do, and how many hands of
#: evidence that guess weighs: (share, weight) by figure
PRIORS = {
    "vpip": (0.35, 4.0),
    "pfr": (0.18, 4.0),
    "shove": (0.02, 2.0),
    "reraise": (0.08, 3.0),
    "aggression": (0.30, 4.0),
    "fold": (0.45, 3.0),
    "fold_back": (0.25, 3.0),
    "raise_back": (0.30, 3.0),
}
#: how many of a street's own times facing a bet weigh as much as all streets'
STREET_WEIGHT = 10.0
_STREETS = (Street.PREFLOP, Street.FLOP, Street.TURN, Street.RIVER)
_WAGERS = (ActionKind.BET, ActionKind.RAISE)
_DECISIONS = (ActionKind.FOLD, ActionKind.CHECK, ActionKind.CALL, ActionKind.BET,
              ActionKind.RAISE)  # fmt: skip
_FORCED = (ActionKind.SMALL_BLIND, ActionKind.BIG_BLIND, ActionKind.STRADDLE,
           ActionKind.LIVE_POST)  # fmt: skip


@dataclass
class Stats:
    """One player's counts over the hands seen with them.

    :ivar hands: hands they were dealt in.
    :ivar acted: hands they made a decision in before the flop (not a walk).
    :ivar vpip: hands they put chips in before the flop of their own will
        (a call, bet or raise; not a blind).
    :ivar pfr: hands they bet or raised before the flop.
    :ivar shoves: hands they went all in by a bet or raise before the flop.
    :ivar wagers: bets and raises after the flop.
    :ivar calls: calls after the flop.
    :ivar checks: checks after the flop.
    :ivar faced: by street (0 preflop .. 3 river), the times they acted
        facing a bet (before the flop: a raise, more than the big blind).
    :ivar folded: of those, the folds.
    :ivar raised: of those, the raises.
    :ivar back: before the flop, the times they faced a re-raise of their
        own raise, and of those the folds and the raises again.
    :ivar shown: their latest hands shown, with whether they bet or raised
        after the flop in that hand.
    """

    hands: int = 0
    acted: int = 0
    vpip: int = 0
    pfr: int = 0
    shoves: int = 0
    wagers: int = 0
    calls: int = 0
    checks: int = 0
    faced: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    folded: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    raised: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    back: list[int] = field(default_factory=lambda: [0, 0, 0])
    shown: deque[tuple[tuple[Card, ...], bool]] = field(
        default_factory=lambda: deque(maxlen=MOST_SHOWN)
    )

    def add(self, other: Stats) -> None:
        """Adds a hand's counts (``other``) to these."""
        self.hands += other.hands
        self.acted += other.acted
        self.vpip += other.vpip
        self.pfr += other.pfr
        self.shoves += other.shoves
        self.wagers += other.wagers
        self.calls += other.calls
        self.checks += other.checks
        for street in range(4):
            self.faced[street] += other.faced[street]
            self.folded[street] += other.folded[street]
            self.raised[street] += other.raised[street]
        for i in range(3):
            self.back[i] += other.back[i]
        self.shown.extend(other.shown)

    def share(self, figure: str) -> float:
        """A figure as a share, the counts seen with :data:`PRIORS`' guess:
        ``vpip``, ``pfr`` and ``shove`` of the hands they had a say in
        before the flop; ``aggression``, the
        bets and raises of their decisions after the flop; ``fold`` and
        ``reraise``, of the times they faced a raise before the flop (not
        of their own); ``fold_back`` and ``raise_back``, of the times their
        raise there was raised again;
        ``fold``, of the times they faced a bet after the flop."""
        prior, weight = PRIORS[figure]
        seen: int
        if figure == "vpip":
            seen, out_of = self.vpip, self.acted
        elif figure == "pfr":
            seen, out_of = self.pfr, self.acted
        elif figure == "shove":
            seen, out_of = self.shoves, self.acted
        elif figure == "aggression":
            seen, out_of = self.wagers, self.wagers + self.calls + self.checks
        elif figure == "reraise":
            seen, out_of = self.raised[0], self.faced[0]
        elif figure == "fold_back":
            seen, out_of = self.back[1], self.back[0]
        elif figure == "raise_back":
            seen, out_of = self.back[2], self.back[0]
        else:
            seen, out_of = sum(self.folded[1:]), sum(self.faced[1:])
        return (seen + prior * weight) / (out_of + weight)

    def folds(self, street: Street) -> float:
        """The share of the times they folded facing a bet on ``street``:
        after the flop, of all streets after it, the street's own weighing
        in as they come (those who reach the river facing a bet are the
        hands that went on: few folds there say little); before the flop,
        with the hands they do not play as the guess (a player who plays
        few hands folds to raises, whether or not a raise was seen)."""
        index = _STREETS.index(street)
        if index == 0:
            prior, weight = 1 - self.share("vpip"), PRIORS["fold"][1]
        else:  # (all streets after the flop together, a street's own few weighing in)
            prior, weight = self.share("fold"), STREET_WEIGHT
        return (self.folded[index] + prior * weight) / (self.faced[index] + weight)


class Book:
    """The statistics of the players a bot has seen (the module's notes)."""

    def __init__(self, most: int = MOST_PLAYERS) -> None:
        self.most = most
        self.players: OrderedDict[str, Stats] = OrderedDict()
        # the hand being read: its identity and its counts so far, by key
        self._hand: tuple[object, ...] | None = None
        self._pending: dict[str, Stats] = {}

    def stats(self, view: PlayerView, position: int) -> Stats:
        """What it knows of the player at ``position`` of ``view``'s hand
        (the hands before this one: a new player's is empty)."""
        known = self.players.get(key(view, position))
        return known if known is not None else Stats()

    def read(self, view: PlayerView, over: bool = False) -> None:
        """Reads the hand of ``view`` as far as it goes: counted once the
        next hand begins, or now when ``over``."""
        hand = (id(view.config), view.config, view.hole_cards)
        if self._hand is not None and (self._hand[0] != hand[0] or self._hand[2] != hand[2]):
            self._commit()
        self._hand = hand
        self._pending = count(view)
        if over:
            self._commit()

    def _commit(self) -> None:
        for name, counts in self._pending.items():
            known = self.players.pop(name, None)
            if known is None:
                known = Stats()
                while len(self.players) >= self.most:  # (forget the least recently seen)
                    self.players.popitem(last=False)
            known.add(counts)
            self.players[name] = known
        self._pending = {}
        self._hand = None


def key(view: PlayerView, position: int) -> str:
    """A player's name in a book: their name in the view, else their seat."""
    names = view.config.names
    name = names[position] if position < len(names) else None
    return f"name {name}" if name else f"seat {view.config.seat_numbers[position]}"


def count(view: PlayerView) -> dict[str, Stats]:
    """The counts of the other players in the hand of ``view``, as far as its
    log goes (one pass)."""
    config = view.config
    seats = config.seat_numbers
    me = view.seat
    names = {seat: key(view, p) for p, seat in enumerate(seats) if seat != me}
    out = {name: Stats(hands=1) for name in names.values()}
    level, bets = 0, dict.fromkeys(seats, 0)  # (this street's bet to match, and each's)
    street = 0
    voluntary: set[int] = set()
    raised_pre: set[int] = set()
    aggressive: set[int] = set()
    big_blind = config.big_blind
    for action in view.log:
        kind, seat = action.kind, action.seat
        if kind is ActionKind.DEAL_BOARD:
            level, bets = 0, dict.fromkeys(seats, 0)
            street = min(3, _STREETS.index(action.street))
            continue
        if seat is None:
            continue
        if kind in _FORCED:
            bets[seat] = max(bets.get(seat, 0), action.to)
            level = max(level, action.to)
            continue
        if kind not in _DECISIONS and kind is not ActionKind.SHOW:
            continue  # (a win, a return: the dealer's)
        name = names.get(seat)
        if name is None:  # (the viewer's own, or a seat not dealt in)
            if kind in _WAGERS or kind is ActionKind.CALL:
                bets[seat] = action.to
                level = max(level, action.to)
            continue
        stats = out[name]
        if kind is ActionKind.SHOW:
            if action.cards:
                stats.shown.append((action.cards, seat in aggressive))
            continue
        facing = level > bets.get(seat, 0) and (street > 0 or level > big_blind)
        if facing and kind in (ActionKind.FOLD, ActionKind.CALL, *_WAGERS):
            if street == 0 and seat in raised_pre:  # (their raise raised again)
                stats.back[0] += 1
                stats.back[1] += kind is ActionKind.FOLD
                stats.back[2] += kind in _WAGERS
            else:
                stats.faced[street] += 1
                stats.folded[street] += kind is ActionKind.FOLD
                stats.raised[street] += kind in _WAGERS
        if kind in _WAGERS or kind is ActionKind.CALL:
            bets[seat] = action.to
            level = max(level, action.to)
        if street == 0:
            stats.acted = 1
            if kind in _WAGERS or kind is ActionKind.CALL:
                voluntary.add(seat)
            if kind in _WAGERS:
                if seat not in raised_pre:
                    stats.pfr = 1
                    raised_pre.add(seat)
                if action.all_in:
                    stats.shoves = 1
        elif kind in _WAGERS:
            stats.wagers += 1
            aggressive.add(seat)
        elif kind is ActionKind.CALL:
            stats.calls += 1
        elif kind is ActionKind.CHECK:
            stats.checks += 1
    for seat in voluntary:
        name = names.get(seat)
        if name is not None:
            out[name].vpip = 1
    return out
