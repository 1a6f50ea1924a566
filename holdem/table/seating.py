"""Who is dealt in, and where the button and the blinds go, hand after hand (RULES.md R3).

A pure policy: :func:`plan_hand` takes the table's seats as they are between
hands (:class:`Seat`) and the positions of the last hand
(:class:`Positions`), and gives the next hand's :class:`Plan`: the seats
dealt in, the button, the blinds, the posts of players coming in, and the
blinds that sitting-out players miss.  :class:`~holdem.table.Table` applies
it.

Two button policies:

- ``"dead"`` (TDA; the default): the big blind always moves forward one
  player, the small blind goes where the big blind was and the button where
  the small blind was.  So the small blind's seat may be empty for a hand
  (a dead small blind: nobody posts it) and the button may sit on an empty
  seat (a dead button).  Nobody posts the big blind twice in a row, nobody
  skips it, and a player takes the button only after the blinds.
- ``"moving"`` (casual games): the button moves to the next player dealt
  in, the blinds follow it; nobody owes missed blinds, but a player
  sitting between the last button and the last big blind (new, or back from
  sitting out) waits until the button has passed (R3), so nobody posts the
  big blind twice in a row.

Heads-up (two players dealt in) the button posts the small blind (R3); the
big blind still moves forward, so going from three players to two nobody
posts it twice in a row.

Cash games (``tournament=False``) under the dead button: a player who sits
out is skipped by the blinds and owes what passed them (``missed_small``,
``missed_big``); to be dealt in again before the big blind reaches them they
post the big blind live and the small blind dead (or the small blind dead
alone, when only that passed them), or they wait for the big blind.  A new
player waits for the big blind or posts one to play at once, except between
the button and the big blind, where they wait until the button has passed.

>>> seats = {s: Seat(name, 100) for s, name in enumerate(["Ann", "Bob", "Cid", "Dee"])}
>>> first = plan_hand(seats, None, button=0)
>>> first.button, first.small_blind, first.big_blind, first.dealt
(0, 1, 2, (0, 1, 2, 3))
>>> del seats[1]  # the small blind busts: the button goes to the empty seat 1
>>> second = plan_hand(seats, first.positions)
>>> second.button, second.small_blind, second.big_blind, second.dealt_button
(1, 2, 3, False)
>>> del seats[2]  # heads-up: Dee, the last big blind, has the button and the small blind
>>> third = plan_hand(seats, second.positions)
>>> third.button, third.small_blind, third.big_blind
(3, 3, 0)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Literal, NamedTuple

from ..config import MAX_TABLE_SEATS
from ..errors import ConfigError

__all__ = [
    "BUTTON_POLICIES",
    "ButtonPolicy",
    "Plan",
    "Positions",
    "Seat",
    "Status",
    "plan_hand",
]

ButtonPolicy = Literal["dead", "moving"]
#: The button policies, and what each does (see the module's notes).
BUTTON_POLICIES: dict[str, str] = {
    "dead": "TDA dead button: the big blind moves forward one player every hand",
    "moving": "the button moves to the next player dealt in; no missed blinds",
}

#: How a player is at the table between hands.
#: ``playing``: dealt in; ``sitting_out``: not dealt in; ``waiting``: dealt in
#: when the big blind reaches them; ``posting``: dealt in at once by posting
#: what they owe (where the rules allow it, else they wait).
Status = Literal["playing", "sitting_out", "waiting", "posting"]


class Seat(NamedTuple):
    """A player at a table between hands (the table keeps one per occupied
    seat, replaced when it changes: a named tuple, made anew every hand)."""

    name: str
    chips: int
    status: Status = "playing"
    #: blinds that passed the player while they sat out (cash games)
    missed_small: bool = False
    missed_big: bool = False
    #: a player who sat down since the last hand and has not played yet
    new: bool = False


@dataclass(frozen=True, slots=True)
class Positions:
    """The seats of the button and the blinds of a hand (the small blind's seat
    even when it was dead: the next hand's button goes there)."""

    button: int
    small_blind: int
    big_blind: int


@dataclass(frozen=True, slots=True)
class Plan:
    """The next hand, by table seat."""

    #: the seats dealt in, in increasing order
    dealt: tuple[int, ...]
    #: the button's seat (not dealt in: a dead button)
    button: int
    #: the seat that posts the small blind (None: a dead small blind)
    small_blind: int | None
    big_blind: int
    #: the positions to give the policy for the hand after
    positions: Positions
    #: what players coming in post, by seat: ``"big"`` the big blind live,
    #: ``"small"`` the small blind dead (straight into the pot)
    posts: tuple[tuple[int, str], ...] = ()
    #: sitting-out seats the small blind (``"small"``) or the big blind
    #: (``"big"``) passes this hand: they owe it when they come back
    missed: tuple[tuple[int, str], ...] = ()

    @property
    def dealt_button(self) -> bool:
        """Whether the button's seat is dealt in (False: a dead button)."""
        return self.button in self.dealt

    @property
    def heads_up(self) -> bool:
        return len(self.dealt) == 2


def plan_hand(
    seats: Mapping[int, Seat],
    last: Positions | None,
    *,
    policy: ButtonPolicy = "dead",
    tournament: bool = False,
    button: int | None = None,
) -> Plan | None:
    """The next hand of a table whose occupied seats are ``seats`` (seat
    number to :class:`Seat`), after a hand at ``last`` (None: the first
    hand, with the button on ``button`` or else on the first seat dealt in).
    None when fewer than two players can be dealt in.

    In a tournament everyone with chips is dealt in (an absent player's stack
    stays in play, R13) and nobody owes missed blinds.
    """
    if policy not in BUTTON_POLICIES:
        raise ConfigError(
            f"unknown button policy {policy!r}: one of {', '.join(BUTTON_POLICIES)}",
            field="button_policy",
            value=policy,
        )
    for seat in seats:
        if not 0 <= seat < MAX_TABLE_SEATS:
            raise ConfigError(f"seat {seat} is not a table seat", field="seats", value=seat)
    if last is None:
        return _first_hand(seats, tournament, button, owing=not tournament and policy == "dead")
    if policy == "moving":
        return _moving(seats, last, tournament)
    return _dead_button(seats, last, tournament)


def _ready(state: Seat, tournament: bool) -> bool:
    """Whether a player is dealt in without anything to post or wait for."""
    if state.chips <= 0:
        return False
    if tournament:
        return True
    return state.status == "playing" and not (state.missed_big or state.missed_small)


def _after(seat: int, seats: list[int]) -> list[int]:
    """``seats`` (sorted) clockwise from the first one after ``seat``."""
    later = [s for s in seats if s > seat]
    return later + [s for s in seats if s <= seat]


def _between(seat: int, start: int, end: int) -> bool:
    """Whether ``seat`` is strictly between ``start`` and ``end``, clockwise."""
    if start < end:
        return start < seat < end
    return seat > start or seat < end


def _present(seats: Mapping[int, Seat], tournament: bool) -> list[int]:
    """The seats of the players with chips who are not sitting out."""
    return sorted(
        s
        for s, state in seats.items()
        if state.chips > 0 and (tournament or state.status != "sitting_out")
    )


def _first_hand(
    seats: Mapping[int, Seat], tournament: bool, button: int | None, *, owing: bool
) -> Plan | None:
    """The first hand: everyone present is dealt in (new players too: nobody has
    posted yet), the button where asked or on the first of them."""
    dealt = _present(seats, tournament)
    if len(dealt) < 2:
        return None
    if button is not None and not 0 <= button < MAX_TABLE_SEATS:
        raise ConfigError(f"button {button} is not a table seat", field="button", value=button)
    plan = _from_button(dealt, button if button in dealt else dealt[0], None)
    if not owing:  # a tournament, or a moving button: nobody owes missed blinds
        return plan
    # players sitting out whom the blinds went past owe them, as at any later
    # hand: the first player after the button (where the small blind would
    # have been) the small blind, the others before the big blind the big one
    passed = [
        s for s in _after(plan.button, sorted(seats)) if _between(s, plan.button, plan.big_blind)
    ]
    missed = [
        (s, "small" if i == 0 and plan.small_blind != plan.button else "big")
        for i, s in enumerate(passed)
        if seats[s].status == "sitting_out"
    ]
    return replace(plan, missed=tuple(missed)) if missed else plan


def _from_button(dealt: list[int], button: int, last_big: int | None) -> Plan:
    """The blinds after the button; heads-up the button posts the small blind,
    and the other player the big one unless they had it last hand (``last_big``)."""
    order = _after(button, dealt)
    if len(dealt) == 2:
        small, big = button, order[0]
        if big == last_big:  # nobody posts the big blind twice in a row
            small, big = big, small
            button = small
    else:
        small, big = order[0], order[1]
    return Plan(
        dealt=tuple(dealt),
        button=button,
        small_blind=small,
        big_blind=big,
        positions=Positions(button=button, small_blind=small, big_blind=big),
    )


def _dead_button(seats: Mapping[int, Seat], last: Positions, tournament: bool) -> Plan | None:
    occupied = sorted(s for s, state in seats.items() if state.chips > 0)
    # who may take the big blind: everyone but the players sitting out (those
    # waiting for it, or posting their way in, owe it)
    eligible = [s for s in occupied if tournament or seats[s].status != "sitting_out"]
    if not eligible:
        return None
    big = _after(last.big_blind, eligible)[0]
    small, button = last.big_blind, last.small_blind
    dealt = {s for s in occupied if _ready(seats[s], tournament)}
    dealt.add(big)
    if len(dealt) > 2 and not _in_order(dealt, button, small, big):
        # the last positions do not lead here (the last hand was heads-up, or
        # players left): the small blind and the button are the players just
        # before the big blind, and the button one who held a position last
        # hand (a player who has paid no blind waits a hand: R3)
        paid = {last.button, last.small_blind, last.big_blind}
        while len(dealt) > 2:
            before = [s for s in reversed(_after(big, sorted(dealt))) if s != big]
            small, button = before[0], before[1]
            if button in paid:
                break
            dealt.discard(button)
    posts: list[tuple[int, str]] = []
    if not tournament and last.button != last.small_blind:  # (after heads-up: wait a hand)
        ready = set(dealt)
        for s in occupied:
            state = seats[s]
            if s in ready or state.status != "posting" or s == button or _between(s, button, big):
                continue  # (between the button and the big blind: wait for the button to pass)
            dealt.add(s)
            if state.missed_big or not state.missed_small:  # a new player: the big blind
                posts.append((s, "big"))
            if state.missed_big or state.missed_small:
                posts.append((s, "small"))
        if posts and not _in_order(dealt, button, small, big):
            dealt, posts = ready, []  # (posting in would upset the blinds: wait a hand)
    if len(dealt) < 2:
        return None
    if len(dealt) == 2:
        # heads-up: the other player has the button and posts the small blind
        # (a player posting their way in is the button: the small blind is their post)
        small = button = next(s for s in dealt if s != big)
        posts = []
    return Plan(
        dealt=tuple(sorted(dealt)),
        button=button,
        small_blind=small if small in dealt else None,
        big_blind=big,
        positions=Positions(button=button, small_blind=small, big_blind=big),
        posts=tuple(posts),
        # the small blind was the last big blind's: a player sitting out there
        # misses it, even when the blinds were placed again (after heads-up)
        missed=_missed(seats, last.big_blind, big, tournament),
    )


def _in_order(dealt: set[int], button: int, small: int, big: int) -> bool:
    """Whether clockwise from the button come the small blind's seat (if dealt
    in), then the big blind, with no other player dealt in between."""
    if button == big or small == big:
        return False
    if small != button and not (_between(small, button, big)):
        return False
    return not any(_between(s, button, big) and s != small for s in dealt)


def _missed(
    seats: Mapping[int, Seat],
    last_big: int,
    big: int,
    tournament: bool,
) -> tuple[tuple[int, str], ...]:
    """The blinds sitting-out players miss this hand: the big blind passes the
    seats between the last big blind and this one; the last big blind's seat
    (this hand's small blind, dead when its player sits out) misses the
    small blind."""
    if tournament:
        return ()
    out: list[tuple[int, str]] = []
    for s, state in sorted(seats.items()):
        if state.status != "sitting_out":
            continue
        if s == last_big:
            out.append((s, "small"))
        if _between(s, last_big, big):
            out.append((s, "big"))
    return tuple(out)


def _moving(seats: Mapping[int, Seat], last: Positions, tournament: bool) -> Plan | None:
    """The button to the next player dealt in (the last small blind, when
    still there), the blinds after it.  A player sitting where the button and
    the blinds pass over now, between the last button and the last big blind
    (not dealt in last hand: those seats sat side by side, but for the small
    blind's), waits until the button has passed (R3), so nobody posts the big
    blind twice in a row.  Nobody owes missed blinds."""
    dealt = _present(seats, tournament)
    if len(dealt) < 2:
        return None
    passed = [s for s in dealt if _between(s, last.button, last.big_blind)
              and (s != last.small_blind or seats[s].new)]  # fmt: skip
    if len(dealt) - len(passed) >= 2:
        dealt = [s for s in dealt if s not in passed]
    elif len(dealt) > 2:  # (too few dealt in last hand are left: the big blind moves on)
        big = _after(last.big_blind, dealt)[0]
        before = [s for s in reversed(_after(big, dealt)) if s != big]
        return _from_button(dealt, before[1], last.big_blind)
    return _from_button(dealt, _after(last.button, dealt)[0], last.big_blind)
