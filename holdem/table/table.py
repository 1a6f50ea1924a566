"""A table of 2 to 10 seats that plays hand after hand on :class:`~holdem.Hand`.

The table keeps the players (:class:`~holdem.table.seating.Seat` by seat
number), places the button and the blinds by its policy
(:func:`~holdem.table.seating.plan_hand`), deals each hand with the table's
seat numbers and names, and carries the stacks from hand to hand.  Seating,
leaving, sitting out, coming back and adding chips happen between hands; asked
for during a hand, they wait for its end.  Every change is an event
(:mod:`holdem.table.events`) told to the subscribers.  Between hands
:meth:`Table.snapshot` gives the table as JSON data, and
:meth:`Table.from_snapshot` makes it again (:mod:`holdem.table.snapshot`).

>>> from holdem import Decision
>>> table = Table(seats=3, small_blind=1, big_blind=2, rng=7)
>>> for seat, name in enumerate(["Ann", "Bob", "Cid"]):
...     table.sit(seat, name, 100)
>>> result = table.play_hand(lambda view, legal: Decision.check() if legal.check
...                          else Decision.call() if legal.call is not None else Decision.fold())
>>> result.hand, sum(result.stacks.values())
(1, 300)
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from itertools import compress
from operator import attrgetter, itemgetter, not_
from types import FunctionType, MappingProxyType
from typing import Any, NamedTuple, get_args

from ..actions import Action, Decision, LegalActions
from ..bots.base import learns
from ..config import (
    MAX_CHIPS,
    MAX_PLAYERS,
    MAX_TABLE_SEATS,
    HandConfig,
    HeadsUpCap,
    Post,
    Structure,
    _coerce_enum,
)
from ..errors import ConfigError, IllegalActionError, TableError
from ..hand import Hand
from ..pots import Outcome
from ..units import ONE, check_unit, unit_text
from ..views import PlayerView
from ..wire import Fields
from . import snapshot as snap
from .events import (
    EVENT_TYPES as _EVENT_TYPES,
)
from .events import (
    ActionTaken,
    CardsShown,
    ChipsAdded,
    Event,
    HandEnded,
    HandStarted,
    SatIn,
    SatOut,
    SeatFreed,
    SeatTaken,
)
from .plans import Deal, Plans, Player
from .schedule import Level
from .seating import BUTTON_POLICIES, ButtonPolicy, Plan, Positions, Seat, Status
from .snapshot import Field
from .timer import TurnTimer

__all__ = ["Decide", "HandResult", "Ledger", "Rake", "Table"]

#: A player: what they decide from their view and their menu.
Decide = Callable[[PlayerView, LegalActions], Decision]


@dataclass(frozen=True, slots=True)
class Rake:
    """The house's share of a cash game's pots: ``percent`` of the pot, at most
    ``cap`` chips (None: no cap), and nothing from a hand that ends before the
    flop ("no flop, no drop")."""

    percent: float | int | Fraction
    cap: int | None = None

    def __post_init__(self) -> None:
        if not 0 <= self.rate <= 100:
            raise ConfigError(
                f"rake percent is 0 to 100, not {self.percent!r}",
                field="percent",
                value=self.percent,
            )
        if self.cap is not None and (isinstance(self.cap, bool) or self.cap < 0):
            raise ConfigError(
                f"rake cap must be 0 or more, not {self.cap!r}", field="cap", value=self.cap
            )

    @property
    def rate(self) -> Fraction:
        """The percent as an exact fraction (0.1 is one tenth, not a float's)."""
        percent = self.percent
        return Fraction(str(percent)) if isinstance(percent, float) else Fraction(percent)

    def to_dict(self) -> dict[str, Any]:
        """The wire form: ``percent`` a number (a fraction that is not a whole
        number as text, ``"1/3"``) and ``cap`` (null: no cap).

        >>> Rake(5, cap=3).to_dict(), Rake(Fraction(1, 3)).to_dict()
        ({'percent': 5, 'cap': 3}, {'percent': '1/3', 'cap': None})
        """
        percent: Any = self.percent
        if isinstance(percent, Fraction):
            percent = percent.numerator if percent.denominator == 1 else str(percent)
        return {"percent": percent, "cap": self.cap}

    @classmethod
    def from_dict(cls, data: Any, where: str = "rake") -> Rake:
        """The rake of :meth:`to_dict`'s form."""
        f = Fields(data, where)
        percent = f.raw("percent", "a number of percent")
        cap = f.integer("cap", optional=True)
        f.done()
        if isinstance(percent, str):
            try:
                percent = Fraction(percent)
            except (ValueError, ZeroDivisionError):
                raise f.error("percent", percent, "expected a number or a fraction") from None
        elif not isinstance(percent, int | float) or isinstance(percent, bool):
            raise f.error("percent", percent, "expected a number of percent")
        if isinstance(percent, float) and not math.isfinite(percent):
            raise f.error("percent", percent, "expected a finite number of percent")
        return cls(percent, cap)

    def of(self, pot: int, flop: bool) -> int:
        """The rake of a hand whose pots hold ``pot`` chips; ``flop``: a flop was dealt."""
        if not flop:
            return 0
        taken = int(pot * self.rate / 100)  # rounded down: the house takes no fraction of a chip
        return taken if self.cap is None else min(taken, self.cap)


#: No rake taken
_NO_RAKE: Mapping[int, int] = MappingProxyType({})


class HandResult(NamedTuple):
    """One hand a table played (a named tuple: one a hand)."""

    hand: int
    plan: Plan
    #: the forced bets it was played at (a level of blinds and ante)
    blinds: Level
    #: the engine's hand (its log, config, board, outcome: for hand histories)
    played: Hand
    #: the chips of the seats dealt in (``plan.dealt``, in that order) before
    #: the hand, and after it and the rake (see :attr:`started`, :attr:`stacks`)
    chips_before: tuple[int, ...]
    chips_after: tuple[int, ...]
    #: seats left with no chips
    busted: tuple[int, ...] = ()
    rake: int = 0
    #: the rake each seat paid from its winnings (for the hand's history)
    raked: Mapping[int, int] = _NO_RAKE

    @property
    def started(self) -> dict[int, int]:
        """Chips by seat before the hand (the seats dealt in)."""
        return dict(zip(self.plan.dealt, self.chips_before, strict=True))

    @property
    def stacks(self) -> dict[int, int]:
        """Chips by seat after the hand and the rake (the seats dealt in)."""
        return dict(zip(self.plan.dealt, self.chips_after, strict=True))

    @property
    def outcome(self) -> Outcome:
        """How the hand ended (the engine's :class:`~holdem.pots.Outcome`)."""
        outcome = self.played.outcome
        assert outcome is not None  # (a result is of a finished hand)
        return outcome


class Ledger(NamedTuple):
    """A player's chips over a session at a table (by name)."""

    #: chips brought to the table: the first stack, top-ups and rebuys
    brought: int
    #: chips taken away: leaving, or freed by timeouts (those still at the
    #: table are not counted)
    taken: int
    #: hands dealt in
    hands: int


class Table:
    """A table of ``seats`` seats (2 to 10) playing hands at ``blinds``.

    :param button_policy: ``"dead"`` (TDA, default) or ``"moving"`` (see
        :mod:`holdem.table.seating`).
    :param tournament: everyone with chips is dealt in, nobody sits out or
        owes blinds, nobody adds chips.
    :param rng: a seed or :class:`random.Random` for the cards.
    :param button: the first hand's button seat (default: the first player's).
    :param rake: the house's share of the pots (cash games).
    :param timer: a :class:`~holdem.table.timer.TurnTimer` for
        :meth:`play_hand`: a decision that comes too late is replaced by the
        timeout rule (R13).  Timeouts in a row (``free_seat_after``) free the
        seat of a cash player, who leaves with their chips; a tournament
        player's stack stays in play, checking or folding, until
        :meth:`come_back` (or it busts).
    :param raise_cap: fixed-limit raises after the bet in a round (R8: 3,
        a bet and three raises; the WSOP's 4), in every hand of the table.
    :param heads_up_cap: when the fixed-limit cap is lifted for two players
        (:class:`~holdem.config.HeadsUpCap` or its value): default ``never``
        at a tournament (R8: the cap always applies), ``two_left`` at a cash
        table (Robert's Rules); ``never`` at a cash table is a limit room
        whose rules state no heads-up exception.
    :param show_after_hand: a player may show their cards after the hand,
        having folded or won it uncontested (R10; :meth:`show_cards`).
    :param aggressor_may_muck: the last to bet or raise on the river, once
        called, may muck at the showdown (a room that allows it; R10: they
        show first).  The showdowns a table plays by the defaults never
        muck the first hand shown, which can always win: the option is the
        hands' (:class:`~holdem.config.HandConfig`), for their records and
        for hands played step by step.
    :param run_it_twice: run it twice (R10; off by default): when every player
        left in a hand is all-in before the river (at most one of them has
        chips, and has matched) and all of them agree, the rest of the board is
        dealt twice and each pot split in two halves (an odd chip to the first
        run), each won on its own board.  Every player agrees unless they said
        no (:meth:`agree_to_run_twice`).
    :param unit: the chip unit (R9): what one chip is worth in the table's
        money (default 1).  The blinds, the stacks and every amount are whole
        chips; the unit says how they read (a 5/10 fixed-limit table with a 2.5
        small blind: ``small_blind=5, big_blind=10, unit="0.5"``).
    """

    def __init__(
        self,
        seats: int = 6,
        *,
        small_blind: int,
        big_blind: int,
        ante: int = 0,
        big_blind_ante: bool = False,
        structure: Structure | str = Structure.NO_LIMIT,
        button_policy: ButtonPolicy = "dead",
        tournament: bool = False,
        rng: int | random.Random | None = None,
        button: int | None = None,
        rake: Rake | None = None,
        timer: TurnTimer | None = None,
        raise_cap: int = 3,
        heads_up_cap: HeadsUpCap | str | None = None,
        show_after_hand: bool = True,
        aggressor_may_muck: bool = False,
        run_it_twice: bool = False,
        unit: Decimal | str | int = ONE,
    ) -> None:
        if isinstance(seats, bool) or not isinstance(seats, int) or not 2 <= seats <= MAX_PLAYERS:
            raise ConfigError(
                f"a table has 2 to {MAX_PLAYERS} seats, not {seats!r}", field="seats", value=seats
            )
        if button_policy not in BUTTON_POLICIES:
            raise ConfigError(
                f"button_policy is one of {', '.join(BUTTON_POLICIES)}, not {button_policy!r}",
                field="button_policy",
                value=button_policy,
            )
        if button is not None and (
            isinstance(button, bool) or not isinstance(button, int) or not 0 <= button < seats
        ):
            raise ConfigError(
                f"button: a seat of the table (0 to {seats - 1}), not {button!r}",
                field="button",
                value=button,
            )
        self.max_seats = seats
        self.structure = Structure(structure)
        self.button_policy: ButtonPolicy = button_policy
        self.tournament = tournament
        #: the fixed-limit cap's raises, and when it is lifted heads-up (R8)
        self.raise_cap = raise_cap
        self.heads_up_cap: HeadsUpCap = _coerce_enum(
            "heads_up_cap",
            (HeadsUpCap.NEVER if tournament else HeadsUpCap.TWO_LEFT)
            if heads_up_cap is None
            else heads_up_cap,
            HeadsUpCap,
        )
        #: R10's options: shows after the hand, and a river aggressor's muck
        self.show_after_hand = bool(show_after_hand)
        self.aggressor_may_muck = bool(aggressor_may_muck)
        self._rng = rng if isinstance(rng, random.Random) else random.Random(rng)
        self._blinds = Level(
            small_blind=small_blind, big_blind=big_blind, ante=ante, big_blind_ante=big_blind_ante
        )
        #: the chip unit: what a chip is worth in the table's money (R9)
        self.unit: Decimal = check_unit(unit)
        self._forced = self._check_blinds(self._blinds)  # (the blinds' number)
        self._seats: dict[int, Player] = {}
        self._plans = Plans(button_policy, tournament, button)  # the next hands' plans
        self._hand: Hand | None = None
        #: the hand being played: its plan, its players and their chips when it began
        self._deal: tuple[Deal, tuple[Player, ...], tuple[int, ...]] | None = None
        self._dealt: tuple[int, ...] = ()  # its seats (() between hands)
        self._logged = 0  # the records of the hand's log told as events so far
        self._after_hand: list[Callable[[], None]] = []
        self._leaving: set[int] = set()  # seats to be freed after the hand being played
        self._listeners: dict[type, list[Callable[[Event], None]]] = {}  # by event type
        self._wanted: set[type] = set()  # event types someone listens to
        self._starts = self._ends = False  # events to tell as a hand starts, as it ends
        self.hands_played = 0
        self._chips_in_out: dict[str, list[int]] = {}  # by name: brought, taken
        self._dealt_names: dict[tuple[str, ...], int] = {}  # hands by the names dealt in
        self.rake = rake
        self.timer = timer
        self._counts: TurnTimer | None = None  # timeouts told by time_out(), without a timer
        #: seats of tournament players taken away by timeouts: their stack stays
        #: in play, checking or folding at once, until they come back
        self.away: set[int] = set()
        #: the last hand the table finished (its players may show their cards)
        self.last_hand: HandResult | None = None
        self.run_it_twice = bool(run_it_twice)
        self._twice_declined: set[int] = set()  # seats whose players said no

    # ---------------------------------------------------------------- state

    @property
    def seats(self) -> Mapping[int, Seat]:
        """The occupied seats as they are now (a read-only snapshot)."""
        return MappingProxyType({seat: p.snapshot() for seat, p in sorted(self._seats.items())})

    def stack(self, seat: int) -> int:
        """The chips of the player at ``seat`` now (the hand's bets not taken off:
        what they had when it began, during a hand)."""
        return self._seat(seat).chips

    def name(self, seat: int) -> str:
        """The name of the player at ``seat`` (:class:`TableError` if it is empty)."""
        return self._seat(seat).name

    def ledger(self) -> dict[str, Ledger]:
        """Each player's chips brought and taken away, and hands dealt, by name
        (a cash game's results: :class:`~holdem.table.CashGame`)."""
        hands = _hands_dealt(self)
        return {
            name: Ledger(brought=brought, taken=taken, hands=hands[name])
            for name, (brought, taken) in self._chips_in_out.items()
        }

    def seat(self, seat: int) -> Seat | None:
        """The player at ``seat`` as they are now (None: the seat is empty)."""
        player = self._seats.get(seat)
        return None if player is None else player.snapshot()

    @property
    def blinds(self) -> Level:
        """The forced bets of the next hands (a :class:`~holdem.table.Level`; its
        length, if any, is the schedule's business, not the table's)."""
        return self._blinds

    @property
    def hand(self) -> Hand | None:
        """The hand being played (None between hands)."""
        return self._hand

    @property
    def positions(self) -> Positions | None:
        """The button and blinds' seats of the last hand dealt."""
        return self._plans.positions

    def subscribe(
        self, listener: Callable[[Event], None], kinds: Iterable[type] | None = None
    ) -> None:
        """Calls ``listener(event)`` for every event from now on (of the event
        types ``kinds`` only, when given: the table then builds no other)."""
        wanted = _EVENT_TYPES if kinds is None else tuple(kinds)
        for kind in dict.fromkeys(wanted):
            self._listeners.setdefault(kind, []).append(listener)
        self._wanted.update(wanted)
        self._starts = HandStarted in self._wanted or ActionTaken in self._wanted
        self._ends = HandEnded in self._wanted

    def wants(self, kind: type) -> bool:
        """Whether someone listens to events of type ``kind`` (a game built on
        the table need not make the others)."""
        return kind in self._wanted

    def emit(self, event: Event) -> None:
        """Tells the subscribers an event (games built on the table tell theirs too)."""
        for listener in self._listeners.get(type(event), ()):
            listener(event)

    def set_blinds(self, blinds: Level) -> None:
        """The blinds of the next hands (from the next hand on, if one is being played)."""
        self._forced = self._check_blinds(blinds)
        self._blinds = blinds

    def _check_blinds(self, b: Level) -> int:
        """Checks the blinds of a level at this table's structure; their number
        (levels alike get one: it keys the plans' configurations, which every
        table of the process shares: the chip unit is in it too, R9)."""
        key = (b.small_blind, b.big_blind, b.ante, b.big_blind_ante, self.structure.value,
               self.raise_cap, self.heads_up_cap.value, self.aggressor_may_muck,
               self.unit)  # fmt: skip
        number = _FORCED.get(key)
        if number is not None:
            return number
        HandConfig(  # the engine's checks, worded by the engine
            stacks=(2 * b.big_blind + b.ante + 1,) * 3,
            button=0,
            small_blind=b.small_blind,
            big_blind=b.big_blind,
            ante=b.ante,
            big_blind_ante=b.big_blind_ante,
            structure=self.structure,
            raise_cap=self.raise_cap,
            heads_up_cap=self.heads_up_cap,
            aggressor_may_muck=self.aggressor_may_muck,
        )
        return _FORCED.setdefault(key, len(_FORCED))

    # ---------------------------------------------------------------- seats

    def _seat(self, seat: int) -> Player:
        if seat not in self._seats:
            raise TableError(f"seat {seat} is empty", seat=seat)
        return self._seats[seat]

    def _later(self, seat: int, change: Callable[[], None]) -> bool:
        """Does ``change`` now between hands (True), or after the hand being
        played when the seat is in it (False)."""
        if seat in self._dealt:  # (dealt: () between hands)
            self._after_hand.append(change)
            return False
        change()
        return True

    def sit(self, seat: int, name: str, chips: int, *, post: bool = False) -> None:
        """A player sits down with ``chips`` at an empty ``seat``.  At the first
        hand everyone is dealt in; later (cash) a new player waits for the big
        blind, or with ``post`` posts one to be dealt in at once (not between
        the button and the big blind: there they wait for the button to pass)."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.max_seats:
            raise TableError(f"seat {seat!r}: this table's seats are 0 to {self.max_seats - 1}")
        if seat in self._seats:
            raise TableError(f"seat {seat} is taken by {self._seats[seat].name}", seat=seat)
        if not isinstance(name, str) or not name.strip():
            raise TableError(f"seat {seat}: a player needs a name, not {name!r}", seat=seat)
        if name in map(_name, self._seats.values()):
            raise TableError(f"{name} is already at the table", seat=seat)
        self._check_chips(seat, chips)
        if self.tournament and self.hands_played:
            raise TableError(f"seat {seat}: nobody joins a freezeout once it has begun", seat=seat)
        first = self.hands_played == 0 or self.tournament
        status: Status = "playing" if first else ("posting" if post else "waiting")
        self._seats[seat] = Player(name=name, chips=chips, status=status, new=not first)
        self._twice_declined.discard(seat)  # (a new player agrees until they say no)
        self._chips_in_out.setdefault(name, [0, 0])[0] += chips
        self._plans.changed(seat)
        if SeatTaken in self._wanted:
            self.emit(SeatTaken(seat=seat, name=name, chips=chips))

    def agree_to_run_twice(self, seat: int, agree: bool = True) -> None:
        """Whether the player at ``seat`` agrees to run it twice (R10), from the
        next hand on (a table made with ``run_it_twice``; a player agrees
        unless they said no, and a new player at the seat agrees again)."""
        if not self.run_it_twice:
            raise TableError("this table does not run it twice (run_it_twice is off)", seat=seat)
        self._seat(seat)
        if agree:
            self._twice_declined.discard(seat)
        else:
            self._twice_declined.add(seat)

    def agrees_to_run_twice(self, seat: int) -> bool:
        """Whether the player at ``seat`` runs it twice where all agree (R10): a
        table made with ``run_it_twice`` whose player did not say no."""
        return self.run_it_twice and seat not in self._twice_declined

    def _check_chips(self, seat: int, chips: int) -> None:
        if isinstance(chips, bool) or not isinstance(chips, int) or not 0 < chips < MAX_CHIPS:
            raise TableError(
                f"seat {seat}: chips must be a positive integer, not {chips!r}", seat=seat
            )

    def leave(self, seat: int) -> bool:
        """The player leaves the table with their chips (after the hand, if they
        are in the one being played: then False)."""
        state = self._seat(seat)
        if self.tournament:
            raise TableError(
                f"{state.name}: a tournament stack stays in play until it busts", seat=seat
            )

        if seat in self._leaving:  # (asked again during the same hand: once is enough)
            return False

        def go() -> None:
            self._leaving.discard(seat)
            gone = self._seats.pop(seat)
            self.away.discard(seat)
            self._chips_in_out[gone.name][1] += gone.chips
            self._plans.changed(seat)
            self.emit(SeatFreed(seat=seat, name=gone.name, chips=gone.chips, reason="left"))

        now = self._later(seat, go)
        if not now:
            self._leaving.add(seat)
        return now

    def sit_out(self, seat: int) -> bool:
        """The player sits out (from the next hand): not dealt in; in a cash
        game the blinds that pass them are owed when they come back."""
        state = self._seat(seat)
        if self.tournament:
            raise TableError(
                f"{state.name}: in a tournament an absent player's stack stays in play", seat=seat
            )

        def out() -> None:
            now = self._seats.get(seat)
            if now is not None and now.status != "sitting_out":
                now.status = "sitting_out"
                self._plans.changed(seat)
                self.emit(SatOut(seat=seat, name=now.name))

        return self._later(seat, out)

    def sit_in(self, seat: int, *, post: bool = False) -> None:
        """The player comes back.  Owing no blinds, they are dealt in at once;
        owing some, they post them (``post``: the big blind live and the small
        blind dead) or wait for the big blind.  A player waiting for the big
        blind (back, or rebought after losing every chip) may choose to post
        instead: ``sit_in(seat, post=True)`` again."""
        state = self._seat(seat)
        if state.status == "waiting" and post:
            state.status = "posting"
            self._plans.changed(seat)
            self.emit(SatIn(seat=seat, name=state.name, how="posting"))
            return
        if state.status != "sitting_out":
            raise TableError(f"{state.name} is not sitting out", seat=seat)
        if not state.chips:
            raise TableError(f"{state.name} has no chips: a rebuy (add_chips) first", seat=seat)
        owes = state.missed_big or state.missed_small or state.new
        how: Status = "posting" if owes and post else "waiting" if owes else "playing"
        state.status = how
        self._plans.changed(seat)
        self.emit(SatIn(seat=seat, name=state.name, how=how))

    def add_chips(
        self, seat: int, chips: int, *, most: int | None = None, least: int | None = None
    ) -> bool:
        """Adds chips to a stack (a cash top-up or rebuy): at once between hands
        (True); asked for during a hand the player is in, the chips are added
        before the next hand (False: they are not in play in this one), no
        more than make the stack ``most`` then (a hand won meanwhile may leave
        room for fewer, or none: the ``chips_added`` event says how many), and
        none if the hand busted the player and they come to less than
        ``least`` (a rebuy below the least a stack may start with).  A
        player who lost every chip keeps the seat, sitting out, until they
        rebuy (then they play on, or wait for the big blind if it passed them)
        or leave."""
        player = self._seats.get(seat)
        if player is None or self.tournament or type(chips) is not int or not 0 < chips < MAX_CHIPS:
            self._refuse_chips(seat, chips)
        deferred = seat in self._dealt
        return self._later(
            seat, lambda: self._add_chips(seat, chips, most, least, deferred=deferred)
        )

    def _refuse_chips(self, seat: int, chips: int) -> None:
        """Raises the error of adding ``chips`` at ``seat``, if there is one."""
        player = self._seat(seat)
        if self.tournament:
            raise TableError(f"{player.name}: nobody adds chips in a freezeout (R11)", seat=seat)
        self._check_chips(seat, chips)  # (an int of another type may be a good number)

    def _add_chips(
        self, seat: int, chips: int, most: int | None, least: int | None, *, deferred: bool
    ) -> None:
        player = self._seats.get(seat)
        if player is None:  # (left during the hand)
            return
        before = player.chips
        added = chips if most is None else min(chips, most - before)
        if added <= 0 or (not before and least is not None and added < least):
            return  # (no room; or a top-up asked for during a hand that busted the
            # player: as a rebuy it is below the least a stack may start with)
        player.chips = before + added
        self._chips_in_out[player.name][0] += added
        if not before:  # a rebuy after a bust: the player may be dealt in again
            if player.status == "sitting_out":
                player.status = "waiting" if player.missed_big or player.missed_small else "playing"
            self._plans.changed(seat)
        if ChipsAdded in self._wanted:
            self.emit(
                ChipsAdded(
                    seat=seat, name=player.name, chips=added, stack=player.chips, deferred=deferred
                )
            )

    # ---------------------------------------------------------------- hands

    def can_deal(self) -> bool:
        """Whether the next hand can be dealt (two players or more to deal in)."""
        return self._hand is None and self._plans.next(self._seats) is not None

    def start_hand(self) -> Hand:
        """Deals the next hand (its forced bets posted): play it through
        :attr:`hand`, then call :meth:`finish_hand`."""
        if self._hand is not None:
            raise TableError("a hand is being played: finish it first")
        known = self._plans.next(self._seats)
        if known is None:
            raise TableError("fewer than two players can be dealt in")
        b = self._blinds
        players = known.players(self._seats)
        stacks = tuple(map(_chips, players))
        twice = self.run_it_twice
        made = known.made.get(self._forced) if not twice else None
        if made is not None:
            config = made.restacked(stacks, self.hands_played + 1)
        else:
            config = HandConfig(
                stacks=stacks,
                button=known.position,
                small_blind=b.small_blind,
                big_blind=b.big_blind,
                structure=self.structure,
                ante=b.ante,
                big_blind_ante=b.big_blind_ante,
                missing_small_blind=known.missing_small_blind,
                dead_button=known.dead_button,
                posts=_posts(known.posts, b) if known.posts else (),
                raise_cap=self.raise_cap,
                heads_up_cap=self.heads_up_cap,
                hand_id=self.hands_played + 1,
                seats=known.seats,
                names=known.names,
                aggressor_may_muck=self.aggressor_may_muck,
                run_twice=tuple(
                    i for i, seat in enumerate(known.plan.dealt) if seat not in self._twice_declined
                )
                if twice
                else (),
                unit=self.unit,
            )
            if len(known.made) >= 64:  # (a schedule of many levels: keep the latest)
                known.made.clear()
            if not twice:  # (who agrees may change from hand to hand)
                known.made[self._forced] = config
        self._hand = hand = Hand(config, rng=self._rng)
        self._deal = (known, players, stacks)
        self._dealt = known.plan.dealt
        self._plans.previous = known
        self._logged = 0  # (the records told as events: none of this hand yet)
        if known.plan.missed:
            self._miss_blinds(known.plan)
        if self._starts:
            self._tell_start(known, stacks)
        return hand

    def _miss_blinds(self, plan: Plan) -> None:
        """Marks the blinds that pass sitting-out players (cash games)."""
        for seat, what in plan.missed:
            state = self._seats[seat]
            if what == "big":
                state.missed_big = True
            else:
                state.missed_small = True
            self._plans.changed(seat)

    def _tell_start(self, known: Deal, stacks: tuple[int, ...]) -> None:
        plan, b = known.plan, self._blinds
        if HandStarted in self._wanted:
            self.emit(
                HandStarted(
                    hand=self.hands_played + 1,
                    button=plan.button,
                    small_blind_seat=plan.small_blind,
                    big_blind_seat=plan.big_blind,
                    seats=plan.dealt,
                    stacks=stacks,
                    names=known.names,
                    small_blind=b.small_blind,
                    big_blind=b.big_blind,
                    ante=b.ante,
                    big_blind_ante=b.big_blind_ante,
                )
            )
        self._tell_actions()

    def _tell_actions(self) -> None:
        """Tells the hand's new log records as events."""
        hand = self._hand
        if hand is None or ActionTaken not in self._wanted:
            return
        log = hand.log
        for action in log[self._logged :]:
            self.emit(ActionTaken(hand=self.hands_played + 1, action=action))
        self._logged = len(log)

    def act(self, decision: Decision) -> None:
        """Applies the decision of the player to act in the hand being played."""
        hand = self._hand
        if hand is None:
            raise TableError("no hand is being played")
        seat = hand.actor
        hand.act(decision)
        timer = self.timer or self._counts
        if timer is not None and seat is not None and seat in self._seats:
            timer.acted(self._seats[seat].name)  # (decided in time: the count starts again)
        self._tell_actions()

    def finish_hand(self) -> HandResult:
        """Ends the hand being played (it must be over): the stacks carried to
        the seats, the rake taken from the winners (cash games), and what was
        asked for during the hand done."""
        hand, deal = self._hand, self._deal
        if hand is None or deal is None:
            raise TableError("no hand is being played")
        if not hand.done:
            raise TableError("the hand is not over")
        known, players, started = deal
        plan = known.plan
        final = hand.stacks  # (by the config's seats: the seats dealt in)
        rake, raked = 0, _NO_RAKE
        if self.rake is not None:
            rake, raked, final = self._take_rake(hand, plan.dealt, final)
        any(map(_set_chips, players, final))  # (player.chips = chips, each: None, so all)
        if not known.plain:
            self._came_in(plan, players)
        busted: tuple[int, ...] = ()
        if 0 in final:  # (wound up below: their seats noted there)
            busted = tuple(compress(plan.dealt, map(not_, final)))
        self.hands_played = number = self.hands_played + 1
        names = known.names
        self._dealt_names[names] = self._dealt_names.get(names, 0) + 1
        result = HandResult(
            hand=number,
            plan=plan,
            blinds=self._blinds,
            chips_before=started,
            chips_after=final,
            busted=busted,
            rake=rake,
            raked=raked,
            played=hand,
        )
        self._hand = self._deal = None
        self._dealt = ()
        self.last_hand = result
        if busted or self._after_hand or self._ends or self.timer or self._counts:
            self._wind_up(result)
        return result

    def _take_rake(
        self, hand: Hand, dealt: tuple[int, ...], final: tuple[int, ...]
    ) -> tuple[int, Mapping[int, int], tuple[int, ...]]:
        """The rake of the hand, who paid it, and the stacks after it."""
        assert self.rake is not None
        outcome = hand.outcome
        assert outcome is not None
        rake = self.rake.of(outcome.total, len(hand.board) >= 3)
        if not rake:
            return 0, _NO_RAKE, final
        raked = _rake_from_winners(outcome, rake)
        return rake, raked, tuple([c - raked.get(s, 0) for s, c in zip(dealt, final, strict=True)])

    def _came_in(self, plan: Plan, players: tuple[Player, ...]) -> None:
        """After a hand someone came into: they play and owe nothing now."""
        for seat, player in zip(plan.dealt, players, strict=True):
            came_in = seat == plan.big_blind or any(s == seat for s, _ in plan.posts)
            if player.status in ("waiting", "posting"):
                player.status = "playing"
            player.new = False
            player.missed_big = player.missed_big and not came_in
            player.missed_small = player.missed_small and not came_in
            self._plans.changed(seat)

    def _wind_up(self, result: HandResult) -> None:
        """The end of a hand beyond the stacks: its events, what was asked for
        during it, the players it busted, and those who timed out too often."""
        wanted = self._wanted
        if HandEnded in wanted:
            self.emit(
                HandEnded(
                    hand=result.hand,
                    outcome=result.outcome,
                    seats=result.plan.dealt,
                    stacks=result.chips_after,
                    rake=result.rake,
                )
            )
        if self._after_hand:
            later, self._after_hand = self._after_hand, []
            for change in later:
                change()
        for seat in result.busted:
            self._plans.changed(seat)
            out = self._seats.get(seat)
            if out is None or out.chips:  # (left, or chips added after the hand)
                continue
            if self.tournament:  # out of the tournament
                del self._seats[seat]
                self.away.discard(seat)
                if SeatFreed in wanted:
                    self.emit(SeatFreed(seat=seat, name=out.name, chips=0, reason="busted"))
            else:  # a cash player keeps the seat until they rebuy (add_chips) or leave
                out.status = "sitting_out"
                if SatOut in wanted:
                    self.emit(SatOut(seat=seat, name=out.name))
        if self.timer is not None or self._counts is not None:
            self._take_away_timed_out(result.plan.dealt)

    def play_hand(self, players: Decide | Mapping[int, Decide]) -> HandResult:
        """Deals and plays one hand: each decision is asked of ``players`` (one
        for every seat, or one per seat), from the player's view and menu."""
        hand = self.start_hand()
        decide_for = None if type(players) is FunctionType else _by_seat(players)
        timer, away, seats = self.timer, self.away, self._seats
        tell = ActionTaken in self._wanted
        legal_actions, view, act = hand.legal_actions, hand.view, hand.act
        if decide_for is None and timer is None and not away and not tell:
            decide_all: Any = players  # (one player for all, nothing else to do: the short way)
            while not hand.done:
                seat = hand.actor
                act(decide_all(view(seat), legal_actions()), seat=seat)
            return self.finish_hand()
        while not hand.done:
            seat = hand.actor
            assert seat is not None
            legal = legal_actions()
            assert legal is not None
            decide: Any = players if decide_for is None else decide_for[seat]
            if away and seat in away:
                decision = legal.check_or_fold()
            elif timer is None:
                decision = decide(view(seat), legal)
            else:
                name = seats[seat].name
                timer.start(name)
                decision = decide(view(seat), legal)
                if timer.stop(name):
                    timer.acted(name)
                else:
                    decision = timer.timeout(name, legal, _protects(hand, seat))
            act(decision, seat=seat)
            if tell:
                self._tell_actions()
        if decide_for is not None:  # (the bots that learn are told the hand's end)
            for seat in hand.config.seat_numbers:
                player = decide_for.get(seat)
                if learns(player):
                    player.observe(view(seat))
        return self.finish_hand()

    def show_cards(self, seat: int) -> Action:
        """The player at ``seat`` shows their cards of the table's last finished
        hand (R10: having folded, or won it uncontested), where the table
        allows it (``show_after_hand``): the show's record, told as a
        ``cards_shown`` event (:class:`~holdem.table.events.CardsShown`).
        Refused (:class:`~holdem.errors.TableError`, saying why) at a table
        that does not allow it, before its first hand is over, for a seat
        not dealt in that hand, and where the hand refuses it (shown or
        mucked already)."""
        last = self.last_hand
        if not self.show_after_hand:
            raise TableError("this table does not let players show their cards after the hand",
                             seat=seat)  # fmt: skip
        if last is None:
            raise TableError("no hand has ended here since the table was made (or made again, "
                             "after a restart): a player shows the cards of the last hand "
                             "played", seat=seat)  # fmt: skip
        if seat not in last.plan.dealt:
            raise TableError(f"seat {seat} was not dealt in hand {last.hand}, the last hand "
                             "played: nothing to show", seat=seat)  # fmt: skip
        try:
            record = last.played.show(seat=seat)
        except IllegalActionError as exc:
            raise TableError(str(exc), seat=seat) from None
        if CardsShown in self._wanted:
            names = last.played.config.names
            name = names[last.plan.dealt.index(seat)] if names else None
            self.emit(CardsShown(hand=last.hand, seat=seat, name=name or str(seat), action=record))
        return record

    def time_out(self) -> None:
        """The player to act ran out of time (a caller keeping the clock itself):
        the table's timeout rule decides for them."""
        hand = self._hand
        if hand is None or hand.actor is None:
            raise TableError("nobody is to act")
        seat = hand.actor
        legal = hand.legal_actions()
        assert legal is not None
        timer = self._referee()
        hand.act(timer.timeout(self._seats[seat].name, legal, _protects(hand, seat)), seat=seat)
        self._tell_actions()

    def _referee(self) -> TurnTimer:
        """The timer that counts timeouts: the table's, or (a caller keeping the
        clock itself, without one) a default one made at the first timeout."""
        if self.timer is None:
            if self._counts is None:
                self._counts = TurnTimer()
            return self._counts
        return self.timer

    def _take_away_timed_out(self, seats: tuple[int, ...]) -> None:
        """After a hand: players who timed out too often in a row leave (cash),
        or play on checking and folding (tournaments)."""
        timer = self.timer or self._counts
        if timer is None:
            return
        for seat in seats:
            state = self._seats.get(seat)
            if state is None or not timer.must_leave(state.name):
                continue
            if self.tournament:
                self.away.add(seat)
            else:
                del self._seats[seat]
                self._chips_in_out[state.name][1] += state.chips
                self._plans.changed(seat)
                self.away.discard(seat)
                self.emit(
                    SeatFreed(seat=seat, name=state.name, chips=state.chips, reason="timeouts")
                )

    def come_back(self, seat: int) -> None:
        """A player taken away by timeouts (a tournament's stack, or a seat its
        caller sat out for them) decides again: their timeouts in a row start
        again."""
        state = self._seat(seat)
        self.away.discard(seat)
        timer = self.timer or self._counts
        if timer is not None:
            timer.acted(state.name)

    # ---------------------------------------------------------------- snapshots

    def reseed(self, rng: int | random.Random | None) -> None:
        """Deals the next hands from ``rng`` (a seed or a :class:`random.Random`):
        for instance the table a snapshot was taken of, to play on as the
        table made again from it (:meth:`from_snapshot` with the same ``rng``)
        plays."""
        self._rng = rng if isinstance(rng, random.Random) else random.Random(rng)

    def snapshot(self) -> dict[str, Any]:
        """What the table carries from one hand to the next, as JSON data
        (dicts, lists, strings, numbers, booleans and nulls): its settings,
        its players, where the button and the blinds were last, the hands
        played, the ledger, the players ``away`` and the timer's clocks.
        :meth:`from_snapshot` makes the table again (``docs/tables.md``,
        "Snapshots", lists the fields).

        Only between hands (before the first :meth:`start_hand`, or after
        :meth:`finish_hand`): during a hand it raises
        :class:`~holdem.errors.TableError`.  Nothing asked for during a hand
        is left waiting then: :meth:`finish_hand` does the leaves, sit-outs
        and top-ups that waited for the hand's end before it returns.  Not
        in it: the cards' random generator (a table made again is given a
        new one), the subscribers, and the timer's clocks (given again).
        """
        if self._hand is not None:
            raise TableError("a hand is being played: a snapshot is taken between hands")
        return snap.write(self, _TABLE_FIELDS)

    @classmethod
    def from_snapshot(
        cls,
        data: Any,
        *,
        rng: int | random.Random | None = None,
        timer: TurnTimer | None = None,
        where: str = "table",
    ) -> Table:
        """The table of a :meth:`snapshot`, dealing from ``rng`` (a seed or a
        :class:`random.Random`; the snapshot has none).  Given the same
        ``rng`` and the same decisions, it plays the hands the table the
        snapshot was taken of would have played (:meth:`reseed` gives that
        table a new ``rng`` too).

        ``timer``: the table's timer from now on, on its own clocks and
        rules; it takes the players' clocks of the snapshot (time banks,
        timeouts in a row, protections used: :meth:`TurnTimer.restore`).
        Without it, a table whose snapshot has a timer gets one of the
        snapshot's rules on the system's clocks
        (:meth:`TurnTimer.from_snapshot`).

        The data is checked: a field missing, unknown or of the wrong type
        raises :class:`~holdem.errors.WireError`, a value the rules refuse
        (a seat out of the table, a name twice, blinds the engine refuses)
        :class:`~holdem.errors.ConfigError`, each naming the field by its
        path from ``where`` (``"table.players[2].seat"``).
        """
        v = snap.read(data, where, _TABLE_FIELDS)
        try:
            table = cls._blank(v, rng)
        except ConfigError as exc:  # (the blinds: the engine's checks)
            raise snap.located(f"{where}.blinds", exc) from None
        table._resume(v, where)
        if v["timeout_counts"] is not None:
            table._counts = TurnTimer.from_snapshot(
                v["timeout_counts"], where=f"{where}.timeout_counts"
            )
        table.timer = _timer_of(v["timer"], timer, f"{where}.timer")  # (last: all else is good)
        return table

    @classmethod
    def _blank(cls, v: dict[str, Any], rng: int | random.Random | None) -> Table:
        """A table of a snapshot's settings (``v``), with nobody seated."""
        blinds: Level = v["blinds"]
        table = cls(
            v["seats"],
            small_blind=blinds.small_blind,
            big_blind=blinds.big_blind,
            ante=blinds.ante,
            big_blind_ante=blinds.big_blind_ante,
            structure=v["structure"],
            button_policy=v["button_policy"],
            tournament=v["tournament"],
            rng=rng,
            button=v["button"],
            rake=v["rake"],
            raise_cap=v["raise_cap"],
            heads_up_cap=v["heads_up_cap"],
            show_after_hand=v["show_after_hand"],
            aggressor_may_muck=v["aggressor_may_muck"],
            run_it_twice=v["run_it_twice"],
            unit=v["unit"],
        )
        table._blinds = blinds  # (the level itself, its length too: results carry it)
        return table

    def _resume(self, v: dict[str, Any], where: str) -> None:
        """A new table's state from a snapshot's values (read by _TABLE_FIELDS)."""
        self.hands_played = v["hands_played"]
        positions: Positions | None = v["positions"]
        if (positions is None) != (self.hands_played == 0):
            why = f"null before the first hand, and only then (hands_played: {self.hands_played})"
            raise _refused(f"{where}.positions", positions, why)
        if positions is not None:
            for field in _POSITIONS_FIELDS:
                self._check_seat(field.get(positions), f"{where}.positions.{field.name}")
            self._plans.resume(positions)
        self._chips_in_out = _ledger_of(v["ledger"], f"{where}.ledger")
        self._dealt_names = {(p["name"],): p["hands"] for p in v["ledger"] if p["hands"]}
        for i, p in enumerate(v["players"]):
            self._resume_player(p, f"{where}.players[{i}]")
        away: tuple[int, ...] = v["away"]
        snap.unique(away, f"{where}.away", "seat")
        for i, seat in enumerate(away):
            if seat not in self._seats:
                raise _refused(f"{where}.away[{i}]", seat, f"seat {seat} has no player")
        self.away = set(away)
        declined: tuple[int, ...] = v["twice_declined"]
        for i, seat in enumerate(declined):
            if seat not in self._seats:
                raise _refused(f"{where}.twice_declined[{i}]", seat, f"seat {seat} has no player")
        self._twice_declined = set(declined)

    def _resume_player(self, p: dict[str, Any], where: str) -> None:
        seat, name = p["seat"], p["name"]
        self._check_seat(seat, f"{where}.seat")
        if seat in self._seats:
            raise _refused(f"{where}.seat", seat, f"seat {seat} has two players")
        if name in map(_name, self._seats.values()):
            raise _refused(f"{where}.name", name, f"{name} is at two seats")
        if name not in self._chips_in_out:
            raise _refused(f"{where}.name", name, f"{name} is not in the ledger")
        if self.tournament and not p["chips"]:
            raise _refused(f"{where}.chips", 0, "a tournament player with no chips is out")
        player = Player(name=name, chips=p["chips"], status=p["status"], new=p["new"])
        player.missed_small, player.missed_big = p["missed_small"], p["missed_big"]
        self._seats[seat] = player
        self._plans.changed(seat)

    def _check_seat(self, seat: int, where: str) -> None:
        if not 0 <= seat < self.max_seats:
            raise _refused(where, seat, f"this table's seats are 0 to {self.max_seats - 1}")


def _refused(field: str, value: object, why: str) -> ConfigError:
    return ConfigError(f"{field}: {why}", field=field, value=value)


def _timer_of(data: dict[str, Any] | None, timer: TurnTimer | None, where: str) -> TurnTimer | None:
    """The timer of a table made again: ``timer`` with the players' clocks of
    the snapshot's ``data``, or one made from ``data``."""
    if timer is None:
        return None if data is None else TurnTimer.from_snapshot(data, where=where)
    if data is not None:
        timer.restore(data, where=where)
    return timer


def _ledger_of(entries: list[dict[str, Any]], where: str) -> dict[str, list[int]]:
    """The table's record of chips in and out, by name, from a snapshot's ledger."""
    snap.unique([entry["name"] for entry in entries], where, "name")
    return {entry["name"]: [entry["brought"], entry["taken"]] for entry in entries}


#: A seat number as a snapshot gives it (checked against the table's seats after)
_SEAT = snap.integer(maximum=MAX_PLAYERS - 1)

#: The fields of a snapshot's positions (the last hand's button and blinds)
_POSITIONS_FIELDS = tuple(
    Field(name, attrgetter(name), _SEAT) for name in ("button", "small_blind", "big_blind")
)


def _positions_from(data: Any, where: str) -> Positions:
    return Positions(**snap.read(data, where, _POSITIONS_FIELDS))


#: The fields of a snapshot's player: the seat, then a Seat's fields.
_PLAYER_FIELDS = (
    Field("seat", itemgetter(0), _SEAT),
    Field("name", lambda e: e[1].name, snap.name),
    Field("chips", lambda e: e[1].chips, snap.integer(maximum=MAX_CHIPS - 1)),
    Field("status", lambda e: e[1].status, snap.choice(get_args(Status))),
    Field("missed_small", lambda e: e[1].missed_small, snap.boolean),
    Field("missed_big", lambda e: e[1].missed_big, snap.boolean),
    Field("new", lambda e: e[1].new, snap.boolean),
)
assert tuple(f.name for f in _PLAYER_FIELDS[1:]) == Seat._fields

#: The fields of a snapshot's ledger entry: the name, then a Ledger's fields.
_LEDGER_FIELDS = (
    Field("name", itemgetter(0), snap.name),
    Field("brought", lambda e: e[1].brought, snap.integer()),
    Field("taken", lambda e: e[1].taken, snap.integer()),
    Field("hands", lambda e: e[1].hands, snap.integer()),
)
assert tuple(f.name for f in _LEDGER_FIELDS[1:]) == Ledger._fields


def _hands_dealt(table: Table) -> dict[str, int]:
    """The hands each player of the ledger was dealt, by name."""
    hands: dict[str, int] = dict.fromkeys(table._chips_in_out, 0)
    for names, count in table._dealt_names.items():
        for name in names:
            hands[name] += count
    return hands


# A table's snapshot is taken after every hand of a room server: its players
# and ledger are written at once here (a literal, not a call a field), the
# same entries as snap.write(entry, _PLAYER_FIELDS / _LEDGER_FIELDS), which
# tests/test_table_snapshot.py holds them to.
def _player_data(seat: int, p: Player) -> dict[str, Any]:
    """A player's entry of a snapshot, as ``snap.write((seat, p), _PLAYER_FIELDS)``."""
    return {
        "seat": seat,
        "name": p.name,
        "chips": p.chips,
        "status": p.status,
        "missed_small": p.missed_small,
        "missed_big": p.missed_big,
        "new": p.new,
    }


def _ledger_data(table: Table) -> list[dict[str, Any]]:
    """The ledger's entries of a snapshot, as ``snap.write(entry, _LEDGER_FIELDS)`` each."""
    hands = _hands_dealt(table)
    return [
        {"name": name, "brought": brought, "taken": taken, "hands": hands[name]}
        for name, (brought, taken) in table._chips_in_out.items()
    ]


assert tuple(_player_data(0, Player("Ann", 1, "playing", new=False))) == tuple(
    f.name for f in _PLAYER_FIELDS
)


def _optional(value: Any, to_data: Callable[[Any], Any]) -> Any:
    return None if value is None else to_data(value)


#: The fields of a table's snapshot (Table.snapshot, Table.from_snapshot).
_TABLE_FIELDS = (
    Field("version", lambda t: snap.SNAPSHOT_VERSION, snap.version),
    Field("seats", attrgetter("max_seats"), snap.integer(minimum=2, maximum=MAX_PLAYERS)),
    Field("blinds", lambda t: t.blinds.to_dict(), snap.record(Level.from_dict)),
    Field("structure", lambda t: t.structure.value, lambda f, n: f.token(n, Structure)),
    #: the fixed-limit cap (R8); a snapshot of a server before them has neither:
    #: the table's defaults (the policy its game's)
    Field(
        "raise_cap",
        attrgetter("raise_cap"),
        lambda f, n: f.integer(n, default=3, maximum=MAX_CHIPS - 1),
    ),
    Field(
        "heads_up_cap",
        lambda t: t.heads_up_cap.value,
        lambda f, n: f.token(n, HeadsUpCap, default=None),
    ),
    #: R10's options (a snapshot of a server before them: the defaults)
    Field(
        "show_after_hand", attrgetter("show_after_hand"), lambda f, n: f.boolean(n, default=True)
    ),
    Field(
        "aggressor_may_muck",
        attrgetter("aggressor_may_muck"),
        lambda f, n: f.boolean(n, default=False),
    ),
    Field("button_policy", attrgetter("button_policy"), snap.choice(BUTTON_POLICIES)),
    Field("tournament", attrgetter("tournament"), snap.boolean),
    Field(
        "rake",
        lambda t: _optional(t.rake, Rake.to_dict),
        snap.record(Rake.from_dict, optional=True),
    ),
    #: the first hand's button, as asked for (None: the first player's)
    Field(
        "button",
        lambda t: t._plans.button,
        snap.integer(maximum=MAX_TABLE_SEATS - 1, optional=True),
    ),
    #: the last hand's button and blinds (None before the first hand)
    Field(
        "positions",
        lambda t: _optional(t.positions, lambda p: snap.write(p, _POSITIONS_FIELDS)),
        snap.record(_positions_from, optional=True),
    ),
    Field("hands_played", attrgetter("hands_played"), snap.integer()),
    Field(
        "players",
        lambda t: [_player_data(seat, p) for seat, p in sorted(t._seats.items())],
        snap.records(_PLAYER_FIELDS),
    ),
    Field("away", lambda t: sorted(t.away), lambda f, n: f.integers(n)),
    Field("ledger", lambda t: _ledger_data(t), snap.records(_LEDGER_FIELDS)),
    Field(
        "timer",
        lambda t: _optional(t.timer, TurnTimer.snapshot),
        snap.raw_object(optional=True),
    ),
    #: the timeouts told by time_out() to a table without a timer
    Field(
        "timeout_counts",
        lambda t: _optional(t._counts, TurnTimer.snapshot),
        snap.raw_object(optional=True),
    ),
    #: run it twice (R10), and the seats whose players said no (left out of a
    #: snapshot taken before they were: off, nobody)
    Field("run_it_twice", attrgetter("run_it_twice"), lambda f, n: f.boolean(n, default=False)),
    Field(
        "twice_declined",
        lambda t: sorted(t._twice_declined),
        lambda f, n: f.integers(n, default=()),
    ),
    #: the chip unit (R9), as text (a snapshot without it: 1)
    Field("unit", lambda t: unit_text(t.unit), lambda f, n: f.text(n, default="1")),
)


#: Forced bets and structures that passed the engine's checks, by number (a
#: process meets few of them; the numbers stay: configurations are kept by them)
_FORCED: dict[tuple[Any, ...], int] = {}


_chips = attrgetter("chips")
_name = attrgetter("name")
_set_chips: Callable[[Player, int], None] = Player.__dict__["chips"].__set__


def _posts(posts: tuple[tuple[int, bool, bool], ...], blinds: Level) -> tuple[Post, ...]:
    """The posts of a hand (see :attr:`Deal.posts`) at ``blinds``."""
    return tuple(
        Post(seat=position, amount=blinds.big_blind if big else blinds.small_blind, dead=dead)
        for position, big, dead in posts
    )


def _protects(hand: Hand, seat: int) -> bool:
    """Whether a protected timeout (R13) would protect something for the
    player to act at ``seat``: the hand allows one, and they have chips in
    the pot (with none, the timeout rule checks or folds: nothing is kept,
    and no protection is spent)."""
    return hand.can_timeout(seat) and hand.contributions[hand.config.seat_numbers.index(seat)] > 0


def _by_seat(players: Decide | Mapping[int, Decide]) -> Mapping[int, Decide] | None:
    """The players by seat, or None for one player deciding for every seat."""
    return players if isinstance(players, Mapping) else None


def _rake_from_winners(outcome: Outcome, rake: int) -> dict[int, int]:
    """Who pays the rake: the winners of the main pot first, then of each side
    pot, each pot's winners in equal parts (the odd chips from the first)."""
    taken: dict[int, int] = {}
    left = rake
    for pot in outcome.pots:
        if not left:
            break
        part = min(left, pot.amount)
        left -= part
        share, odd = divmod(part, len(pot.winners))
        for i, seat in enumerate(pot.winners):
            taken[seat] = taken.get(seat, 0) + share + (1 if i < odd else 0)
    return taken
