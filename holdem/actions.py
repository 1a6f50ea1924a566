"""Action records of a hand's log, streets, and the legal actions of a turn.

Every step of a hand, a player's or the dealer's, appends one
:class:`Action` record to the hand's log.  Records carry only public
information: the dealing of hole cards is logged without the cards, burns
are not logged at all, so a log can be shown to anybody (RULES.md R14).

>>> a = Action(ActionKind.RAISE, 4, amount=400, to=600, street=Street.PREFLOP)
>>> str(a)
'seat 4 raises to 600'
>>> a.to, a.all_in
(600, False)
"""

from __future__ import annotations

from enum import Enum, IntEnum
from typing import Any, NamedTuple

from .cards import Card, format_cards

__all__ = ["Action", "ActionKind", "LegalActions", "Street"]


class Street(IntEnum):
    """Betting rounds, in order (RULES.md R4)."""

    PREFLOP = 0
    FLOP = 1
    TURN = 2
    RIVER = 3

    @property
    def label(self) -> str:
        """Lower-case name: ``Street.FLOP.label == 'flop'``."""
        return self.name.lower()


class ActionKind(Enum):
    """What an :class:`Action` record did.  The value is its stable name."""

    # player decisions while betting (RULES.md R5, R13)
    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"
    #: Only a request: the record of an all-in is a CALL, BET or RAISE with ``all_in``.
    ALL_IN = "all-in"
    #: Protected timeout: stops betting without folding (R13 disconnect protection).
    TIMEOUT = "timeout"
    # player decisions at showdown (R10)
    SHOW = "show"
    MUCK = "muck"
    # forced bets (R3)
    ANTE = "ante"
    SMALL_BLIND = "small blind"
    BIG_BLIND = "big blind"
    STRADDLE = "straddle"
    LIVE_POST = "post"
    DEAD_BLIND = "dead blind"
    # dealer steps
    DEAL_HOLE = "deal hole"
    DEAL_BOARD = "deal board"
    #: An uncalled part of a bet goes back to its bettor (R9).
    RETURN = "return"
    #: A share of a pot goes to a winner (R9).
    WIN = "win"


_VERBS = {
    ActionKind.FOLD: "folds",
    ActionKind.CHECK: "checks",
    ActionKind.CALL: "calls",
    ActionKind.BET: "bets",
    ActionKind.RAISE: "raises to",
    ActionKind.TIMEOUT: "times out (protected)",
    ActionKind.SHOW: "shows",
    ActionKind.MUCK: "mucks",
    ActionKind.ANTE: "posts ante",
    ActionKind.SMALL_BLIND: "posts small blind",
    ActionKind.BIG_BLIND: "posts big blind",
    ActionKind.STRADDLE: "posts straddle",
    ActionKind.LIVE_POST: "posts",
    ActionKind.DEAD_BLIND: "posts dead",
    ActionKind.RETURN: "takes back uncalled",
    ActionKind.WIN: "wins",
}


class Action(NamedTuple):
    """One record of a hand's log (immutable).

    A named tuple rather than a frozen dataclass: a hand appends one per
    step and a frozen dataclass costs five times as much to build (about
    1.7 µs against 0.35 µs), which is a fifth of a whole simulated hand.

    :ivar kind: what happened (:class:`ActionKind`).
    :ivar seat: the player, or None for a dealer step without one.
    :ivar amount: chips moved by this step: from the stack into the pot
        (posts, calls, bets, raises), or back to the stack (RETURN, WIN).
    :ivar to: for betting actions and live blinds, the player's total
        bet of the round afterwards (the "to-amount"); else 0.
    :ivar street: the street it happened on.
    :ivar all_in: the player has no chips left after it.
    :ivar cards: board cards dealt (DEAL_BOARD) or cards shown (SHOW).
    :ivar pot: for WIN, the index of the pot (0 is the main pot); else -1.
    """

    kind: ActionKind
    seat: int | None
    amount: int = 0
    to: int = 0
    street: Street = Street.PREFLOP
    all_in: bool = False
    cards: tuple[Card, ...] = ()
    pot: int = -1

    def __str__(self) -> str:
        kind = self.kind
        if kind is ActionKind.DEAL_HOLE:
            return "hole cards dealt"
        if kind is ActionKind.DEAL_BOARD:
            return f"{self.street.label}: {format_cards(self.cards)}"
        who = f"seat {self.seat}"
        verb = _VERBS.get(kind, kind.value)
        if kind in (ActionKind.BET, ActionKind.RAISE):
            text = f"{who} {verb} {self.to}"
        elif kind is ActionKind.SHOW:
            text = f"{who} shows {format_cards(self.cards)}"
        elif kind is ActionKind.WIN:
            text = f"{who} wins {self.amount} from pot {self.pot}"
        elif self.amount:
            text = f"{who} {verb} {self.amount}"
        else:
            text = f"{who} {verb}"
        return text + (" and is all-in" if self.all_in else "")

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly form: enum names as strings, cards as text.

        >>> Action(ActionKind.CALL, 2, amount=5, to=10).to_dict()["kind"]
        'call'
        """
        out: dict[str, Any] = {"kind": self.kind.value, "street": self.street.label}
        if self.seat is not None:
            out["seat"] = self.seat
        if self.amount:
            out["amount"] = self.amount
        if self.to:
            out["to"] = self.to
        if self.all_in:
            out["all_in"] = True
        if self.cards:
            out["cards"] = format_cards(self.cards)
        if self.pot >= 0:
            out["pot"] = self.pot
        return out


class LegalActions(NamedTuple):
    """Exactly what the player to act may do now (RULES.md R5).

    Amounts are to-amounts: the player's total bet of the round after the
    action.  ``None`` means the action is not allowed.  Immutable; a named
    tuple for the same reason as :class:`Action` (bots ask at every turn).

    :ivar seat: the player to act.
    :ivar fold: folding is allowed (always, while betting; also when a
        check is free: the hand is then simply given up).
    :ivar check: checking is allowed.
    :ivar call: to-amount of a call (less than the bet when the call is
        all-in), or None.
    :ivar wager: :attr:`ActionKind.BET` or :attr:`ActionKind.RAISE` when
        the player may bet or raise, else None.
    :ivar min_to: smallest legal bet or raise to-amount, or None.
    :ivar max_to: largest legal bet or raise to-amount, or None.
    :ivar all_in: to-amount of going all-in when that is allowed (a call,
        bet or raise for everything the player has, possibly less than a
        call or a minimum raise), else None.
    :ivar timeout: the protected timeout is allowed.
    :ivar show: at showdown, the player may show.
    :ivar muck: at showdown, the player may muck.
    """

    seat: int
    fold: bool = False
    check: bool = False
    call: int | None = None
    wager: ActionKind | None = None
    min_to: int | None = None
    max_to: int | None = None
    all_in: int | None = None
    timeout: bool = False
    show: bool = False
    muck: bool = False

    @property
    def kinds(self) -> tuple[ActionKind, ...]:
        """The allowed :class:`ActionKind` s, in a fixed order."""
        out = []
        if self.fold:
            out.append(ActionKind.FOLD)
        if self.check:
            out.append(ActionKind.CHECK)
        if self.call is not None:
            out.append(ActionKind.CALL)
        if self.wager is not None:
            out.append(self.wager)
        if self.all_in is not None:
            out.append(ActionKind.ALL_IN)
        if self.timeout:
            out.append(ActionKind.TIMEOUT)
        if self.show:
            out.append(ActionKind.SHOW)
        if self.muck:
            out.append(ActionKind.MUCK)
        return tuple(out)

    def __str__(self) -> str:
        parts = []
        if self.fold:
            parts.append("fold")
        if self.check:
            parts.append("check")
        if self.call is not None:
            parts.append(f"call to {self.call}")
        if self.wager is not None:
            verb = "bet" if self.wager is ActionKind.BET else "raise"
            if self.min_to == self.max_to:
                parts.append(f"{verb} to {self.min_to}")
            else:
                parts.append(f"{verb} to {self.min_to}..{self.max_to}")
        if self.all_in is not None:
            parts.append(f"all-in to {self.all_in}")
        if self.timeout:
            parts.append("timeout")
        if self.show:
            parts.append("show")
        if self.muck:
            parts.append("muck")
        return f"seat {self.seat}: " + ", ".join(parts)

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly form (omits what is not allowed)."""
        out: dict[str, Any] = {"seat": self.seat, "actions": [k.value for k in self.kinds]}
        if self.call is not None:
            out["call"] = self.call
        if self.wager is not None:
            out["min_to"] = self.min_to
            out["max_to"] = self.max_to
        if self.all_in is not None:
            out["all_in"] = self.all_in
        return out
