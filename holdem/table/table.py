"""A table of 2 to 10 seats that plays hand after hand on :class:`~holdem.Hand`.

The table keeps the players (:class:`~holdem.table.seating.Seat` by seat
number), places the button and the blinds by its policy
(:func:`~holdem.table.seating.plan_hand`), deals each hand with the table's
seat numbers and names, and carries the stacks from hand to hand.  Seating,
leaving, sitting out, coming back and adding chips happen between hands; asked
for during a hand, they wait for its end.  Every change is an event
(:mod:`holdem.table.events`) told to the subscribers.

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

import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import Any, NamedTuple

from ..actions import Decision, LegalActions
from ..config import MAX_CHIPS, MAX_PLAYERS, HandConfig, Post, Structure
from ..errors import ConfigError, TableError
from ..hand import Hand
from ..pots import Outcome
from ..views import PlayerView
from .events import (
    EVENT_TYPES as _EVENT_TYPES,
)
from .events import (
    ActionTaken,
    ChipsAdded,
    Event,
    HandEnded,
    HandStarted,
    SatIn,
    SatOut,
    SeatFreed,
    SeatTaken,
)
from .schedule import Level
from .seating import BUTTON_POLICIES, ButtonPolicy, Plan, Positions, Seat, Status, plan_hand
from .timer import TurnTimer

__all__ = ["Decide", "HandResult", "Rake", "Table"]

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

    def of(self, pot: int, flop: bool) -> int:
        """The rake of a hand whose pots hold ``pot`` chips; ``flop``: a flop was dealt."""
        if not flop:
            return 0
        taken = int(pot * self.rate / 100)  # rounded down: the house takes no fraction of a chip
        return taken if self.cap is None else min(taken, self.cap)


class HandResult(NamedTuple):
    """One hand a table played (a named tuple: one a hand)."""

    hand: int
    plan: Plan
    #: the forced bets it was played at (a level of blinds and ante)
    blinds: Level
    #: the engine's hand (its log, config, board, outcome: for hand histories)
    played: Hand
    #: chips by seat before the hand and after it (and after the rake), the
    #: seats dealt in
    started: Mapping[int, int]
    stacks: Mapping[int, int]
    #: seats left with no chips
    busted: tuple[int, ...] = ()
    rake: int = 0
    #: the rake each seat paid from its winnings (for the hand's history)
    raked: Mapping[int, int] = MappingProxyType({})

    @property
    def outcome(self) -> Outcome:
        """How the hand ended (the engine's :class:`~holdem.pots.Outcome`)."""
        outcome = self.played.outcome
        assert outcome is not None  # (a result is of a finished hand)
        return outcome


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
        self.max_seats = seats
        self.structure = Structure(structure)
        self.button_policy: ButtonPolicy = button_policy
        self.tournament = tournament
        self._rng = rng if isinstance(rng, random.Random) else random.Random(rng)
        self._first_button = button
        self._blinds = Level(
            small_blind=small_blind, big_blind=big_blind, ante=ante, big_blind_ante=big_blind_ante
        )
        self._check_blinds(self._blinds)
        self._seats: dict[int, Seat] = {}
        self._positions: Positions | None = None
        self._hand: Hand | None = None
        self._plan: Plan | None = None
        self._started: dict[int, int] = {}
        self._logged = 0  # the records of the hand's log told as events so far
        self._after_hand: list[Callable[[], None]] = []
        self._listeners: list[tuple[Callable[[Event], None], tuple[type, ...] | None]] = []
        self._wanted: set[type] = set()  # event types someone listens to
        # the plans of the next hand by the seats (as the button policy sees them)
        # and the last positions: a table's seats take few different shapes
        self._plans: dict[tuple[Any, ...], tuple[Plan, tuple[str, ...], int] | None] = {}
        self._shapes: dict[tuple[Any, ...], int] = {}  # the seats' shapes seen, numbered
        #: the seats' shape now, numbered (None: to be seen again)
        self._shape: tuple[int, tuple[Any, ...]] | None = None
        self.hands_played = 0
        self.rake = rake
        self.timer = timer
        self._counts: TurnTimer | None = None  # timeouts told by time_out(), without a timer
        #: seats of tournament players taken away by timeouts: their stack stays
        #: in play, checking or folding at once, until they come back
        self.away: set[int] = set()

    # ---------------------------------------------------------------- state

    @property
    def seats(self) -> Mapping[int, Seat]:
        """The occupied seats (a read-only view)."""
        return MappingProxyType(self._seats)

    def seat(self, seat: int) -> Seat | None:
        """The player at ``seat`` (None: the seat is empty)."""
        return self._seats.get(seat)

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
        return self._positions

    def subscribe(
        self, listener: Callable[[Event], None], kinds: Iterable[type] | None = None
    ) -> None:
        """Calls ``listener(event)`` for every event from now on (of the event
        types ``kinds`` only, when given: the table then builds no other)."""
        wanted = None if kinds is None else tuple(kinds)
        self._listeners.append((listener, wanted))
        self._wanted.update(_EVENT_TYPES if wanted is None else wanted)

    def emit(self, event: Event) -> None:
        """Tells the subscribers an event (games built on the table tell theirs too)."""
        for listener, kinds in self._listeners:
            if kinds is None or type(event) in kinds:
                listener(event)

    def _seats_changed(self) -> None:
        self._shape = None

    def set_blinds(self, blinds: Level) -> None:
        """The blinds of the next hands (from the next hand on, if one is being played)."""
        self._check_blinds(blinds)
        self._blinds = blinds

    def _check_blinds(self, b: Level) -> None:
        HandConfig(  # the engine's checks, worded by the engine
            stacks=(2 * b.big_blind + b.ante + 1,) * 3,
            button=0,
            small_blind=b.small_blind,
            big_blind=b.big_blind,
            ante=b.ante,
            big_blind_ante=b.big_blind_ante,
            structure=self.structure,
        )

    # ---------------------------------------------------------------- seats

    def _seat(self, seat: int) -> Seat:
        if seat not in self._seats:
            raise TableError(f"seat {seat} is empty", seat=seat)
        return self._seats[seat]

    def _later(self, seat: int, change: Callable[[], None]) -> bool:
        """Does ``change`` now between hands (True), or after the hand being
        played when the seat is in it (False)."""
        if self._hand is not None and seat in self._started:
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
        if any(s.name == name for s in self._seats.values()):
            raise TableError(f"{name} is already at the table", seat=seat)
        self._check_chips(seat, chips)
        if self.tournament and self.hands_played:
            raise TableError(f"seat {seat}: nobody joins a freezeout once it has begun", seat=seat)
        first = self.hands_played == 0 or self.tournament
        status: Status = "playing" if first else ("posting" if post else "waiting")
        self._seats[seat] = Seat(name=name, chips=chips, status=status, new=not first)
        self._seats_changed()
        self.emit(SeatTaken(seat=seat, name=name, chips=chips))

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

        def go() -> None:
            gone = self._seats.pop(seat)
            self._seats_changed()
            self.emit(SeatFreed(seat=seat, name=gone.name, chips=gone.chips, reason="left"))

        return self._later(seat, go)

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
                self._seats[seat] = now._replace(status="sitting_out")
                self._seats_changed()
                self.emit(SatOut(seat=seat, name=now.name))

        return self._later(seat, out)

    def sit_in(self, seat: int, *, post: bool = False) -> None:
        """The player comes back.  Owing no blinds, they are dealt in at once;
        owing some, they post them (``post``: the big blind live and the small
        blind dead) or wait for the big blind."""
        state = self._seat(seat)
        if state.status != "sitting_out":
            raise TableError(f"{state.name} is not sitting out", seat=seat)
        if not state.chips:
            raise TableError(f"{state.name} has no chips: a rebuy (add_chips) first", seat=seat)
        owes = state.missed_big or state.missed_small or state.new
        how: Status = "posting" if owes and post else "waiting" if owes else "playing"
        self._seats[seat] = state._replace(status=how)
        self._seats_changed()
        self.emit(SatIn(seat=seat, name=state.name, how=how))

    def add_chips(self, seat: int, chips: int, *, most: int | None = None) -> bool:
        """Adds chips to a stack (a cash top-up or rebuy): at once between hands
        (True); asked for during a hand the player is in, the chips are added
        before the next hand (False: they are not in play in this one), no
        more than make the stack ``most`` then (a hand won meanwhile may leave
        room for fewer, or none: the ``chips_added`` event says how many).  A
        player who lost every chip keeps the seat, sitting out, until they
        rebuy (then they play on, or wait for the big blind if it passed them)
        or leave."""
        state = self._seat(seat)
        if self.tournament:
            raise TableError(f"{state.name}: nobody adds chips in a freezeout (R11)", seat=seat)
        self._check_chips(seat, chips)
        deferred = self._hand is not None and seat in self._started

        def add() -> None:
            now = self._seats.get(seat)
            if now is None:
                return
            added = chips if most is None else min(chips, max(0, most - now.chips))
            if added:
                self._seats[seat] = now._replace(chips=now.chips + added)
                if not now.chips:  # a rebuy after a bust: the player may be dealt in again
                    self._seats_changed()
                    if now.status == "sitting_out":
                        owes = now.missed_big or now.missed_small
                        self._seats[seat] = self._seats[seat]._replace(
                            status="waiting" if owes else "playing"
                        )
                if ChipsAdded in self._wanted:
                    self.emit(
                        ChipsAdded(
                            seat=seat,
                            name=now.name,
                            chips=added,
                            stack=now.chips + added,
                            deferred=deferred,
                        )
                    )

        return self._later(seat, add)

    # ---------------------------------------------------------------- hands

    def can_deal(self) -> bool:
        """Whether the next hand can be dealt (two players or more to deal in)."""
        return self._hand is None and self._next_plan() is not None

    def _next_plan(self) -> tuple[Plan, tuple[str, ...], int] | None:
        """The next hand's plan, its players' names and the button's position
        among the seats dealt in (see :class:`~holdem.config.HandConfig`'s
        ``button``): remembered while the seats stay as they are."""
        last = self._positions
        shape = self._shape
        if shape is None:
            # what plan_hand reads of the seats: all but the number of chips (as a
            # small number: the shape itself is long to hash every hand)
            seen = tuple(
                (seat, state.name, state.status, state.chips > 0, state.missed_small,
                 state.missed_big, state.new)
                for seat, state in sorted(self._seats.items())
            )  # fmt: skip
            shape = self._shape = (self._shapes.setdefault(seen, len(self._shapes)), seen)
        key = (shape[0], last)
        if key in self._plans:
            return self._plans[key]
        # tables of the same players (a series of tournaments) share their plans
        shared = (shape[1], last, self.button_policy, self.tournament, self._first_button)
        plan = _SHARED_PLANS.get(shared, _UNKNOWN)
        if plan is _UNKNOWN:
            plan = plan_hand(
                self._seats,
                last,
                policy=self.button_policy,
                tournament=self.tournament,
                button=self._first_button,
            )
            if len(_SHARED_PLANS) >= 4096:
                _SHARED_PLANS.clear()
            _SHARED_PLANS[shared] = plan
        known = None
        if plan is not None:
            dealt = plan.dealt
            before = [s for s in dealt if s <= plan.button]  # a dead button: the seat before it
            position = dealt.index(before[-1]) if before else len(dealt) - 1
            known = (plan, tuple(self._seats[s].name for s in dealt), position)
        if len(self._plans) >= 4096:  # (the numbers start again: this key is not kept)
            self._plans.clear()
            self._shapes.clear()
            self._shape = None
        else:
            self._plans[key] = known
        return known

    def start_hand(self) -> Hand:
        """Deals the next hand (its forced bets posted): play it through
        :attr:`hand`, then call :meth:`finish_hand`."""
        if self._hand is not None:
            raise TableError("a hand is being played: finish it first")
        known = self._next_plan()
        if known is None:
            raise TableError("fewer than two players can be dealt in")
        plan, names, position = known
        b = self._blinds
        seats = self._seats
        dealt = plan.dealt
        posts: tuple[Post, ...] = ()
        if plan.posts:
            posts = tuple(
                Post(
                    seat=dealt.index(seat),
                    amount=b.big_blind if what == "big" else b.small_blind,
                    dead=what == "small",
                )
                for seat, what in plan.posts
            )
        stacks = tuple([seats[s].chips for s in dealt])
        config = HandConfig(
            stacks=stacks,
            button=position,
            small_blind=b.small_blind,
            big_blind=b.big_blind,
            structure=self.structure,
            ante=b.ante,
            big_blind_ante=b.big_blind_ante,
            missing_small_blind=plan.small_blind is None and len(dealt) > 2,
            dead_button=plan.button not in dealt,
            posts=posts,
            hand_id=self.hands_played + 1,
            # seats 0..n-1 are the engine's own numbers: the plain (faster) configuration
            seats=() if dealt[-1] == len(dealt) - 1 else dealt,
            names=names,
        )
        self._plan = plan
        self._positions = plan.positions
        self._started = dict(zip(dealt, stacks, strict=True))
        if plan.missed:
            for seat, what in plan.missed:
                state = seats[seat]
                seats[seat] = state._replace(
                    missed_big=state.missed_big or what == "big",
                    missed_small=state.missed_small or what == "small",
                )
            self._seats_changed()
        self._hand = hand = Hand(config, rng=self._rng)
        self._logged = 0
        if HandStarted in self._wanted:
            self.emit(
                HandStarted(
                    hand=self.hands_played + 1,
                    button=plan.button,
                    small_blind_seat=plan.small_blind,
                    big_blind_seat=plan.big_blind,
                    seats=dealt,
                    stacks=stacks,
                    names=names,
                    small_blind=b.small_blind,
                    big_blind=b.big_blind,
                    ante=b.ante,
                )
            )
        self._tell_actions()
        return hand

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
        hand, plan = self._hand, self._plan
        if hand is None or plan is None:
            raise TableError("no hand is being played")
        if not hand.done:
            raise TableError("the hand is not over")
        stacks = dict(zip(plan.dealt, hand.stacks, strict=True))  # (dealt: the config's seats)
        rake = 0
        raked: dict[int, int] = {}
        if self.rake is not None:
            outcome = hand.outcome
            assert outcome is not None
            rake = self.rake.of(outcome.total, len(hand.board) >= 3)
            raked = _rake_from_winners(outcome, rake) if rake else {}
            for seat, taken in raked.items():
                stacks[seat] -= taken
        seats = self._seats
        busted: list[int] = []
        for seat, chips in stacks.items():
            state = seats[seat]
            if not chips:
                busted.append(seat)
            if state[2:] == _PLAIN_PLAYER:  # playing, owing nothing: only the chips change
                if chips != state.chips:  # (a player who folded for free keeps the record)
                    seats[seat] = Seat(name=state.name, chips=chips)  # (the rest: defaults)
                    if not chips:
                        self._seats_changed()
                continue
            came_in = seat == plan.big_blind or any(s == seat for s, _ in plan.posts)
            seats[seat] = state._replace(
                chips=chips,
                status="playing" if state.status in ("waiting", "posting") else state.status,
                new=False,
                missed_big=state.missed_big and not came_in,
                missed_small=state.missed_small and not came_in,
            )
            self._seats_changed()
        self.hands_played += 1
        number = self.hands_played
        result = HandResult(
            hand=number,
            plan=plan,
            blinds=self._blinds,
            started=self._started,
            stacks=stacks,
            busted=tuple(busted),
            rake=rake,
            raked=raked,
            played=hand,
        )
        self._hand = self._plan = None
        self._started = {}
        if HandEnded in self._wanted:
            self.emit(
                HandEnded(
                    hand=number,
                    outcome=result.outcome,
                    seats=plan.dealt,
                    stacks=tuple(stacks[s] for s in plan.dealt),
                    rake=rake,
                )
            )
        if self._after_hand:
            later, self._after_hand = self._after_hand, []
            for change in later:
                change()
        wanted = self._wanted
        for seat in busted:
            out = self._seats.get(seat)
            if out is None or out.chips:
                continue
            self._seats_changed()
            if self.tournament:  # out of the tournament
                del self._seats[seat]
                if SeatFreed in wanted:
                    self.emit(SeatFreed(seat=seat, name=out.name, chips=0, reason="busted"))
            else:  # a cash player keeps the seat until they rebuy (add_chips) or leave
                self._seats[seat] = out._replace(status="sitting_out")
                if SatOut in wanted:
                    self.emit(SatOut(seat=seat, name=out.name))
        self._take_away_timed_out(plan.dealt)
        return result

    def play_hand(self, players: Decide | Mapping[int, Decide]) -> HandResult:
        """Deals and plays one hand: each decision is asked of ``players`` (one
        for every seat, or one per seat), from the player's view and menu."""
        hand = self.start_hand()
        decide_for = players if isinstance(players, Mapping) else None
        timer, away, seats = self.timer, self.away, self._seats
        tell = ActionTaken in self._wanted
        legal_actions, view, act = hand.legal_actions, hand.view, hand.act
        while not hand.done:
            seat = hand.actor
            assert seat is not None
            legal = legal_actions()
            assert legal is not None
            decide: Any = players if decide_for is None else decide_for[seat]
            if away and seat in away:
                decision = Decision.check() if legal.check else Decision.fold()
            elif timer is None:
                decision = decide(view(seat), legal)
            else:
                name = seats[seat].name
                timer.start(name)
                decision = decide(view(seat), legal)
                if timer.stop(name):
                    timer.acted(name)
                else:
                    decision = timer.timeout(name, legal, hand.can_timeout(seat))
            act(decision, seat=seat)
            if tell:
                self._tell_actions()
        return self.finish_hand()

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
        hand.act(timer.timeout(self._seats[seat].name, legal, hand.can_timeout(seat)), seat=seat)
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
                self._seats_changed()
                self.away.discard(seat)
                self.emit(
                    SeatFreed(seat=seat, name=state.name, chips=state.chips, reason="timeouts")
                )

    def come_back(self, seat: int) -> None:
        """A tournament player taken away by timeouts decides again."""
        state = self._seat(seat)
        self.away.discard(seat)
        if self.timer is not None:
            self.timer.acted(state.name)


#: What follows the name and chips of a player who plays and owes nothing.
_PLAIN_PLAYER = Seat(name="", chips=0)[2:]
#: Plans by seats' shape, last positions and rules, for every table of the process.
_SHARED_PLANS: dict[tuple[Any, ...], Any] = {}
_UNKNOWN = object()


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
