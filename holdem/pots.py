"""Side pots from contribution levels, splitting, and a hand's outcome (RULES.md R9).

>>> build_pots([100, 300, 300], [True, True, True], [True, False, False])
[(300, (0, 1, 2)), (400, (1, 2))]
>>> split(7, [2, 0], order_from=1, players=3)
[(2, 4), (0, 3)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .cards import Card, format_card
from .evaluator import describe
from .wire import Fields

__all__ = ["Outcome", "Pot", "ShownHand", "build_pots", "split"]


def build_pots(
    contributions: Sequence[int], in_hand: Sequence[bool], all_in: Sequence[bool]
) -> list[tuple[int, tuple[int, ...]]]:
    """Splits the chips put in into pots: ``[(amount, eligible seats), ...]``.

    The main pot comes first.  Side pots are built from the contribution
    levels of the all-in players still in the hand (``all_in``: no chips
    left, or protected by a timeout): each can win from every opponent at
    most what they put in themselves, antes and dead blinds included (R3,
    R9).  A player in the hand who is not all-in contends for every pot.
    Folded players' chips stay in the pots they reach.  Neighbouring levels
    with the same eligible players are one pot.  Chips above the highest
    level that nobody left can win (only a folded player's can be) go into
    the last pot; if nobody in the hand put in anything, all the chips form
    one pot for all of them.
    """
    levels = sorted(
        {c for c, live, out in zip(contributions, in_hand, all_in, strict=True) if live and out}
    )
    total = sum(contributions)
    pots: list[tuple[int, tuple[int, ...]]] = []
    prev = 0
    for level in levels:
        amount = 0
        for c in contributions:
            if c > prev:
                amount += (c if c < level else level) - prev
        eligible = tuple(
            p for p, c in enumerate(contributions) if in_hand[p] and (c >= level or not all_in[p])
        )
        if amount:
            if pots and pots[-1][1] == eligible:
                pots[-1] = (pots[-1][0] + amount, eligible)
            else:
                pots.append((amount, eligible))
        prev = level
    rest = total - sum(amount for amount, _ in pots)
    if rest:
        eligible = tuple(
            p for p, c in enumerate(contributions) if in_hand[p] and (c > prev or not all_in[p])
        )
        if not eligible and pots:  # dead chips above every level: the last pot
            pots[-1] = (pots[-1][0] + rest, pots[-1][1])
        elif pots and pots[-1][1] == eligible:
            pots[-1] = (pots[-1][0] + rest, eligible)
        else:
            live = tuple(p for p, here in enumerate(in_hand) if here)
            pots.append((rest, eligible or live))
    return pots


def split(
    amount: int, winners: Sequence[int], order_from: int, players: int
) -> list[tuple[int, int]]:
    """Shares of a pot among tied winners: ``[(seat, chips), ...]``.

    Winners are listed clockwise from seat ``order_from`` (the first seat
    left of the button); chips that do not divide go one at a time to
    them in that order (RULES.md R9).
    """
    ordered = sorted(winners, key=lambda p: (p - order_from) % players)
    share, odd = divmod(amount, len(ordered))
    return [(p, share + (1 if i < odd else 0)) for i, p in enumerate(ordered)]


@dataclass(frozen=True, slots=True)
class Pot:
    """One pot of a finished hand.

    :ivar amount: chips in the pot.
    :ivar eligible: seats that could win it.
    :ivar winners: seats that won it, clockwise from the first seat left of the button.
    :ivar shares: chips each winner got, in the order of ``winners``.
    :ivar run: the board it was won on: 0, or 1 for the second run of a board run
        twice (R10: each pot is split in two halves, each won on its own board).
    """

    amount: int
    eligible: tuple[int, ...]
    winners: tuple[int, ...] = ()
    shares: tuple[int, ...] = ()
    run: int = 0

    def to_dict(self) -> dict[str, Any]:
        """The wire form (``run`` only when it is the second run)."""
        out: dict[str, Any] = {
            "amount": self.amount,
            "eligible": list(self.eligible),
            "winners": list(self.winners),
            "shares": list(self.shares),
        }
        if self.run:
            out["run"] = self.run
        return out

    @classmethod
    def from_dict(cls, data: Any, where: str = "pot") -> Pot:
        f = Fields(data, where)
        pot = cls(
            amount=f.integer("amount"),
            eligible=f.integers("eligible"),
            winners=f.integers("winners", default=()),
            shares=f.integers("shares", default=()),
            run=f.integer("run", default=0, maximum=1),
        )
        f.done()
        return pot


#: Each hand value's description, once written (every hand ended at a showdown
#: tells its shown hands with theirs).
_DESCRIPTIONS: dict[int, str] = {}


@dataclass(frozen=True, slots=True)
class ShownHand:
    """Hole cards shown at showdown, with the value the engine read from them (R10):
    on the board, or where it was run twice on each run's board (``run`` 0, 1)."""

    seat: int
    cards: tuple[Card, ...]
    value: int
    run: int = 0

    @property
    def description(self) -> str:
        """The hand as players say it: ``'Two Pair, Kings and Nines'``."""
        text = _DESCRIPTIONS.get(self.value)
        if text is None:
            text = describe(self.value)
            if len(_DESCRIPTIONS) < 8192:  # (a hand has one of 7,462 values)
                _DESCRIPTIONS[self.value] = text
        return text

    def to_dict(self) -> dict[str, Any]:
        """The wire form (the description is for people; ``from_dict`` ignores it;
        ``run`` only when it is the second run)."""
        out: dict[str, Any] = {
            "seat": self.seat,
            "cards": [format_card(c) for c in self.cards],
            "value": self.value,
            "description": self.description,
        }
        if self.run:
            out["run"] = self.run
        return out

    @classmethod
    def from_dict(cls, data: Any, where: str = "shown") -> ShownHand:
        f = Fields(data, where)
        shown = cls(
            seat=f.integer("seat"),
            cards=f.cards("cards"),
            value=f.integer("value"),
            run=f.integer("run", default=0, maximum=1),
        )
        f.text("description", default="")
        f.done()
        return shown


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a hand ended: data, not an exception.

    :ivar pots: every pot, the main pot first (they are awarded last-formed first).
    :ivar shown: hands shown at showdown, in the order they were shown.
    :ivar mucked: seats that mucked at showdown.
    :ivar returned: uncalled chips given back, per seat.
    :ivar net: each seat's result: final stack minus starting stack.
    :ivar stacks: final stacks.
    :ivar showdown: whether the hand went to a showdown (else all but one folded).
    """

    pots: tuple[Pot, ...]
    shown: tuple[ShownHand, ...]
    mucked: tuple[int, ...]
    returned: tuple[int, ...]
    net: tuple[int, ...]
    stacks: tuple[int, ...]
    showdown: bool

    @property
    def winners(self) -> tuple[int, ...]:
        """Seats that won chips from any pot, lowest seat first."""
        return tuple(sorted({p for pot in self.pots for p in pot.winners}))

    @property
    def total(self) -> int:
        """Chips in all the pots together."""
        return sum(pot.amount for pot in self.pots)

    @classmethod
    def from_dict(cls, data: Any) -> Outcome:
        """The outcome of :meth:`to_dict`'s form (raises ``WireError`` naming the field)."""
        f = Fields(data, "outcome")

        def items(name: str) -> list[Any]:
            value = f.raw(name, "a list")
            if not isinstance(value, list):
                raise f.error(name, value, "expected a list")
            return value

        pots = tuple(Pot.from_dict(p, f"outcome.pots[{i}]") for i, p in enumerate(items("pots")))
        shown = tuple(
            ShownHand.from_dict(s, f"outcome.shown[{i}]") for i, s in enumerate(items("shown"))
        )
        outcome = cls(
            pots=pots,
            shown=shown,
            mucked=f.integers("mucked"),
            returned=f.integers("returned"),
            net=_signed(f, "net"),
            stacks=f.integers("stacks"),
            showdown=f.boolean("showdown"),
        )
        f.done()
        return outcome

    def to_dict(self) -> dict[str, Any]:
        """The wire form."""
        return {
            "pots": [pot.to_dict() for pot in self.pots],
            "shown": [hand.to_dict() for hand in self.shown],
            "mucked": list(self.mucked),
            "returned": list(self.returned),
            "net": list(self.net),
            "stacks": list(self.stacks),
            "showdown": self.showdown,
        }


def _signed(f: Fields, name: str) -> tuple[int, ...]:
    value = f.raw(name, "a list of integers")
    if not isinstance(value, list) or not all(
        isinstance(x, int) and not isinstance(x, bool) for x in value
    ):
        raise f.error(name, value, "expected a list of integers")
    return tuple(value)
