"""The players at a table and the plans of its next hands, remembered.

:func:`~holdem.table.seating.plan_hand` says who is dealt in and where the
button and the blinds go; it reads every seat, so a table asks it again only
when what it reads changed.  :class:`Plans` keeps, for each seat, what the
policy reads of its player (an entry), numbers the seats' shapes (the sorted
entries) and remembers the plan of each shape after each last position, in
the table and, shared by every table of the process, by the shape itself (a
series of tournaments of the same players deals the same plans).  A
:class:`Deal` is a plan with all that dealing it needs beside, worked out
once.  :class:`Player` is the table's record of a player, changed in place.

The table tells :meth:`Plans.changed` of every seat whose player sat down,
left, sat out or in, busted, rebought, or came in or missed a blind; the
entries are made again before the next plan, and the shape is seen again only
if one of them is not what it was (a bust and a rebuy between two hands leave
it as it was).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from operator import attrgetter, itemgetter
from typing import Any

from ..config import HandConfig
from .seating import ButtonPolicy, Plan, Positions, Seat, Status, plan_hand

__all__ = ["Deal", "Plans", "Player"]


class Player:
    """A player at the table, as the table keeps them: changed in place hand
    after hand (callers get :class:`~holdem.table.seating.Seat` snapshots)."""

    __slots__ = Seat._fields

    def __init__(self, name: str, chips: int, status: Status, new: bool) -> None:
        self.name = name
        self.chips = chips
        self.status: Status = status
        self.missed_small = False
        self.missed_big = False
        self.new = new

    def snapshot(self) -> Seat:
        return Seat._make(_seat_fields(self))

    def plain(self) -> bool:
        """Playing and owing nothing: a hand changes only their chips."""
        return self.status == "playing" and not (self.missed_small or self.missed_big or self.new)


@dataclass(frozen=True, slots=True, eq=False)
class Deal:
    """A plan and what dealing it needs beside, worked out once (slots: read a
    dozen times a hand)."""

    plan: Plan
    #: the names of the players dealt in, and the button's position among them
    names: tuple[str, ...]
    position: int
    #: the posts by position: (position, the big blind (else the small), dead)
    posts: tuple[tuple[int, bool, bool], ...]
    #: the configuration's fields that follow from the plan
    missing_small_blind: bool
    dead_button: bool
    seats: tuple[int, ...]
    #: everyone dealt in plays and owes nothing (a hand changes only their chips)
    plain: bool
    #: the players dealt in, from the seats
    players: Callable[[Mapping[int, Player]], tuple[Player, ...]]
    #: the plan's positions, numbered (for the next hand's key)
    number: int
    #: a configuration of a hand dealt on this plan by the number of its forced
    #: bets and structure (see Table._check_blinds): the next hand at those
    #: blinds is that configuration with other stacks (HandConfig.restacked)
    made: dict[int, HandConfig]


class Plans:
    """The next hands' plans of one table (see the module's notes)."""

    __slots__ = (
        "_changed",
        "_entries",
        "_plans",
        "_rules",
        "_shape",
        "_shapes",
        "policy",
        "previous",
    )

    def __init__(self, policy: ButtonPolicy, tournament: bool, button: int | None) -> None:
        self.policy: ButtonPolicy = policy
        self._rules = (policy, tournament, button)
        #: the plan of the last hand dealt (None before the first)
        self.previous: Deal | None = None
        #: by seat, what the policy reads of the player, and the seats changed since
        self._entries: dict[int, tuple[Any, ...]] = {}
        self._changed: set[int] = set()
        #: the seats' shape now, numbered (None: to be seen again), the shapes
        #: seen, and the plans by shape number and last positions' number
        self._shape: tuple[int, tuple[Any, ...]] | None = None
        self._shapes: dict[tuple[Any, ...], int] = {}
        self._plans: dict[tuple[int, int], Deal | None] = {}

    @property
    def positions(self) -> Positions | None:
        """The button and blinds' seats of the last hand dealt."""
        return None if self.previous is None else self.previous.plan.positions

    @property
    def button(self) -> int | None:
        """The seat asked for the first hand's button (None: the first player's)."""
        button: int | None = self._rules[2]
        return button

    def resume(self, positions: Positions) -> None:
        """The next plans follow a hand dealt at ``positions`` (a table made
        again from its snapshot: that hand's other parts are not known, and
        the next plan needs only its positions)."""
        button, small, big = positions.button, positions.small_blind, positions.big_blind
        plan = Plan(dealt=(), button=button, small_blind=small, big_blind=big, positions=positions)
        self.previous = Deal(
            plan=plan,
            names=(),
            position=0,
            posts=(),
            missing_small_blind=False,
            dead_button=True,
            seats=(),
            plain=True,
            players=_no_players,
            number=_POSITIONS.setdefault(positions, len(_POSITIONS)),
            made={},
        )

    def changed(self, seat: int) -> None:
        """The player of ``seat`` sat down, left or changed what the policy reads."""
        self._changed.add(seat)

    def next(self, seats: Mapping[int, Player]) -> Deal | None:
        """The next hand's plan (None: fewer than two players can be dealt in)."""
        previous = self.previous
        if self._changed:
            self._note_changes(seats)
        shape = self._shape
        if shape is None:
            seen = tuple(sorted(self._entries.items()))
            shape = self._shape = (self._shapes.setdefault(seen, len(self._shapes)), seen)
        # (the last positions by their number: a Positions hashes slowly)
        last_number = -1 if previous is None else previous.number
        key = (shape[0], last_number)
        deal = self._plans.get(key, _UNKNOWN)
        if deal is not _UNKNOWN:
            return deal  # type: ignore[return-value]
        shared = (shape[1], last_number, *self._rules)
        deal = _SHARED_PLANS.get(shared, _UNKNOWN)
        if deal is _UNKNOWN:
            policy, tournament, button = self._rules
            plan = plan_hand(
                {seat: p.snapshot() for seat, p in seats.items()},
                self.positions,
                policy=policy,
                tournament=tournament,
                button=button,
            )
            deal = None if plan is None else _deal(plan, seats)
            if len(_SHARED_PLANS) >= 4096:
                _SHARED_PLANS.clear()
            _SHARED_PLANS[shared] = deal
        if len(self._plans) >= 4096:  # (the numbers start again: this key is not kept)
            self._plans.clear()
            self._shapes.clear()
            self._shape = None
        else:
            self._plans[key] = deal
        return deal

    def _note_changes(self, seats: Mapping[int, Player]) -> None:
        """The entries of the players who changed, made again; the shape is
        seen again if any is not what it was."""
        entries = self._entries
        for seat in self._changed:
            p = seats.get(seat)
            entry = None if p is None else (
                p.name, p.status, p.chips > 0, p.missed_small, p.missed_big, p.new
            )  # fmt: skip
            if entry != entries.get(seat):
                self._shape = None
                if entry is None:
                    del entries[seat]
                else:
                    entries[seat] = entry
        self._changed.clear()


def _deal(plan: Plan, seats: Mapping[int, Player]) -> Deal:
    """What dealing ``plan`` needs beside it, worked out once."""
    dealt = plan.dealt
    before = [s for s in dealt if s <= plan.button]  # a dead button: the seat before it
    return Deal(
        plan=plan,
        names=tuple([seats[s].name for s in dealt]),
        position=dealt.index(before[-1]) if before else len(dealt) - 1,
        posts=tuple(
            [(dealt.index(seat), what == "big", what == "small") for seat, what in plan.posts]
        ),
        missing_small_blind=plan.small_blind is None and len(dealt) > 2,
        dead_button=plan.button not in dealt,
        # seats 0..n-1 are the engine's own numbers: the plain (faster) configuration
        seats=() if dealt[-1] == len(dealt) - 1 else dealt,
        plain=all(seats[s].plain() for s in dealt),
        players=itemgetter(*dealt),
        number=_POSITIONS.setdefault(plan.positions, len(_POSITIONS)),
        made={},
    )


def _no_players(seats: Mapping[int, Player]) -> tuple[Player, ...]:
    return ()


_seat_fields = attrgetter(*Seat._fields)
#: Plans (:class:`Deal`) by seats' shape, last positions and rules, for every
#: table of the process.
_SHARED_PLANS: dict[tuple[Any, ...], Any] = {}
_UNKNOWN = object()
#: Positions by number (a table has at most 10 * 10 * 10 of them)
_POSITIONS: dict[Positions, int] = {}
