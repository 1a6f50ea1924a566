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

import random
from enum import Enum, IntEnum
from typing import Any, NamedTuple

from .cards import Card, format_card, format_cards
from .wire import Fields, kept_reading

__all__ = [
    "PLAYER_KINDS",
    "REFEREE_KINDS",
    "STATUS_NAMES",
    "Action",
    "ActionKind",
    "Choice",
    "Decision",
    "LegalActions",
    "Phase",
    "Street",
]


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
    """What an :class:`Action` record or a :class:`Decision` does.

    The value is its stable snake_case name, the same in records, decisions,
    legal actions, hand histories and JSON (``"small_blind"``, ``"all_in"``).
    """

    # player decisions while betting (RULES.md R5, R13)
    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"
    #: Only a request: the record of an all-in is a CALL, BET or RAISE with ``all_in``.
    ALL_IN = "all_in"
    #: Protected timeout: stops betting without folding (R13 disconnect protection).
    TIMEOUT = "timeout"
    # player decisions at showdown (R10)
    SHOW = "show"
    MUCK = "muck"
    # forced bets (R3)
    ANTE = "ante"
    SMALL_BLIND = "small_blind"
    BIG_BLIND = "big_blind"
    STRADDLE = "straddle"
    LIVE_POST = "live_post"
    DEAD_BLIND = "dead_blind"
    # dealer steps
    DEAL_HOLE = "deal_hole"
    DEAL_BOARD = "deal_board"
    #: An uncalled part of a bet goes back to its bettor (R9).
    RETURN = "return"
    #: A share of a pot goes to a winner (R9).
    WIN = "win"


class Phase(Enum):
    """What a hand waits for."""

    #: Forced bets to post (a dealer step).
    POSTING = "posting"
    #: Hole cards to deal (a dealer step).
    DEALING = "dealing"
    #: A player must act (:attr:`Hand.actor`).
    BETTING = "betting"
    #: The next street's cards to deal (a dealer step).
    BOARD = "board"
    #: A player must show or muck (:attr:`Hand.actor`); :meth:`Hand.step` applies the default.
    SHOWDOWN = "showdown"
    #: Pots to award (a dealer step).
    AWARDING = "awarding"
    #: The hand is over; :attr:`Hand.outcome` says how.
    COMPLETE = "complete"


#: Names of the player statuses (snake_case tokens), as ``Hand.statuses`` gives them:
#: in the hand and may bet, all-in, folded, protected by a timeout (R13), mucked.
STATUS_NAMES = ("active", "all_in", "folded", "protected", "mucked")


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
    :ivar pot: for WIN, the index of the pot in the outcome's pots (0 is the
        main pot); else -1.
    :ivar run: for DEAL_BOARD, 1 where it deals the second run of a board run
        twice (R10), as an outcome's pots and shown hands name their run; else 0.
    """

    kind: ActionKind
    seat: int | None
    amount: int = 0
    to: int = 0
    street: Street = Street.PREFLOP
    all_in: bool = False
    cards: tuple[Card, ...] = ()
    pot: int = -1
    run: int = 0

    def __str__(self) -> str:
        kind = self.kind
        if kind is ActionKind.DEAL_HOLE:
            return "hole cards dealt"
        if kind is ActionKind.DEAL_BOARD:
            run = " (second run)" if self.run else ""
            return f"{self.street.label}{run}: {format_cards(self.cards)}"
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
        """The wire form: the kind and street as tokens, cards as a list; fields at
        their defaults (no seat, no amount, ...) are left out.

        >>> Action(ActionKind.CALL, 2, amount=5, to=10).to_dict()
        {'kind': 'call', 'street': 'preflop', 'seat': 2, 'amount': 5, 'to': 10}
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
            out["cards"] = [format_card(c) for c in self.cards]
        if self.pot >= 0:
            out["pot"] = self.pot
        if self.run:
            out["run"] = self.run
        return out

    @classmethod
    def from_dict(cls, data: Any) -> Action:
        """The record of :meth:`to_dict`'s form (raises ``WireError`` naming the field)."""
        return kept_reading(_READ_ACTIONS, data, cls._read)

    @classmethod
    def _read(cls, data: Any) -> Action:
        f = Fields(data, "action")
        kind = f.token("kind", ActionKind)
        pot = f.integer("pot", default=-1, minimum=-1)
        run = f.integer("run", default=0, minimum=0, maximum=1)
        if kind is ActionKind.DEAL_BOARD and pot == 1:  # (the second run's, as written
            pot, run = -1, 1  # before it was named "run": hands kept by a room, files)
        record = cls(
            kind=kind,
            seat=f.integer("seat", default=None),
            amount=f.integer("amount", default=0),
            to=f.integer("to", default=0),
            street=street_of(f.text("street"), f),
            all_in=f.boolean("all_in", default=False),
            cards=f.cards("cards", default=()),
            pot=pot,
            run=run,
        )
        f.done()
        return record


def street_of(label: str, fields: Fields | None = None) -> Street:
    """The :class:`Street` of its label (``"flop"``; ``fields``: the wire reader
    whose ``street`` field it is, for the error)."""
    for street in Street:
        if street.label == label:
            return street
    names = ", ".join(s.label for s in Street)
    if fields is not None:
        raise fields.error("street", label, f"{label!r} is not one of {names}")
    raise ValueError(f"{label!r} is not a street: one of {names}")


#: The decisions a player may make while betting or at showdown (RULES.md R5, R10).
PLAYER_KINDS = (
    ActionKind.FOLD,
    ActionKind.CHECK,
    ActionKind.CALL,
    ActionKind.BET,
    ActionKind.RAISE,
    ActionKind.ALL_IN,
    ActionKind.SHOW,
    ActionKind.MUCK,
)
#: Steps a referee (a table, a protocol server) takes for a player: not on a menu.
REFEREE_KINDS = (ActionKind.TIMEOUT,)
_WAGERS = (ActionKind.BET, ActionKind.RAISE)
# records and menus read before (Action.from_dict, LegalActions.from_dict)
_READ_ACTIONS: dict[Any, Action] = {}
_READ_MENUS: dict[Any, LegalActions] = {}


class Decision(NamedTuple):
    """What a player decides: the one value a bot returns, a program sends, a
    table checks against the menu (``decision in legal``) and ``Hand.act``
    applies.

    :ivar kind: one of :data:`PLAYER_KINDS` (or ``TIMEOUT``, a referee's step).
    :ivar to: the to-amount of a bet or raise (the player's total bet of the
        round afterwards); None for every other kind.
    :ivar cards: for a show whose cards the hand does not know (a replay):
        the two cards; else empty.

    >>> Decision.raise_to(600)
    Decision(kind=<ActionKind.RAISE: 'raise'>, to=600, cards=())
    >>> str(Decision.raise_to(600)), Decision.from_dict({"kind": "call"}) == Decision.call()
    ('raise to 600', True)
    """

    kind: ActionKind
    to: int | None = None
    cards: tuple[Card, ...] = ()

    @classmethod
    def fold(cls) -> Decision:
        return cls(ActionKind.FOLD)

    @classmethod
    def check(cls) -> Decision:
        return cls(ActionKind.CHECK)

    @classmethod
    def call(cls) -> Decision:
        return cls(ActionKind.CALL)

    @classmethod
    def bet(cls, to: int) -> Decision:
        return cls(ActionKind.BET, to)

    @classmethod
    def raise_to(cls, to: int) -> Decision:
        return cls(ActionKind.RAISE, to)

    @classmethod
    def all_in(cls) -> Decision:
        return cls(ActionKind.ALL_IN)

    @classmethod
    def show(cls, cards: tuple[Card, ...] = ()) -> Decision:
        return cls(ActionKind.SHOW, None, tuple(cards))

    @classmethod
    def muck(cls) -> Decision:
        return cls(ActionKind.MUCK)

    @classmethod
    def timeout(cls) -> Decision:
        """A protected timeout (R13): a referee's step, never on a player's menu."""
        return cls(ActionKind.TIMEOUT)

    def __str__(self) -> str:
        if self.kind in _WAGERS:
            return f"{self.kind.value} to {self.to}"
        if self.kind is ActionKind.SHOW and self.cards:
            return f"show {format_cards(self.cards)}"
        return self.kind.value

    def to_dict(self) -> dict[str, Any]:
        """``{"kind": "raise", "to": 600}``; a show with cards adds ``"cards": ["As", "Kd"]``."""
        out: dict[str, Any] = {"kind": self.kind.value}
        if self.to is not None:
            out["to"] = self.to
        if self.cards:
            out["cards"] = [format_cards([c]) for c in self.cards]
        return out

    @classmethod
    def from_dict(cls, data: Any, where: str = "decision") -> Decision:
        """The decision of :meth:`to_dict`'s form; raises :class:`~holdem.errors.WireError`
        naming the field that is wrong (its path from ``where``)."""
        if type(data) is dict and len(data) == 1:  # {"kind": "call"}: the most common
            kind_text = data.get("kind")
            if type(kind_text) is str and kind_text in _PLAIN:
                return _PLAIN[kind_text]
        f = Fields(data, where)
        if (
            isinstance(data, dict)
            and isinstance(data.get("kind"), str)
            and data["kind"] in _DEALER_STEPS
        ):
            step = data["kind"]
            raise f.error("kind", step, f"{step!r} is a dealer step, not a decision")
        kind = f.token("kind", ActionKind, choices=PLAYER_KINDS + REFEREE_KINDS)
        to = f.integer("to", default=None)
        if (to is None) == (kind in _WAGERS):
            why = "a bet or raise needs its to-amount" if to is None else "only a bet or raise"
            raise f.error("to", to, why)
        cards = f.cards("cards", default=())
        if cards and (kind is not ActionKind.SHOW or len(cards) != 2):
            raise f.error("cards", data.get("cards"), "only a show gives cards, two of them")
        f.done()
        return cls(kind, to, cards)


#: The decisions that are their kind alone, by the kind's token (``from_dict``'s
#: short way).
_PLAIN = {k.value: Decision(k) for k in PLAYER_KINDS + REFEREE_KINDS if k not in _WAGERS}
#: The values of the kinds that only the dealer's steps record.
_DEALER_STEPS = frozenset(
    k.value for k in ActionKind if k not in PLAYER_KINDS and k not in REFEREE_KINDS
)


_CHECK, _FOLD = Decision(ActionKind.CHECK), Decision(ActionKind.FOLD)


class Choice(NamedTuple):
    """One line of a player's menu: a kind of decision and, for a bet or raise,
    the range of to-amounts (``min_to``..``max_to``, both legal)."""

    kind: ActionKind
    min_to: int | None = None
    max_to: int | None = None

    def __str__(self) -> str:
        if self.min_to is None:
            return self.kind.value
        if self.min_to == self.max_to:
            return f"{self.kind.value} to {self.min_to}"
        return f"{self.kind.value} to {self.min_to}..{self.max_to}"


class LegalActions(NamedTuple):
    """Exactly what the player to act may do now (RULES.md R5): their menu.

    Amounts are to-amounts: the player's total bet of the round after the
    action.  ``None`` means the action is not allowed.  Immutable; a named
    tuple for the same reason as :class:`Action` (bots ask at every turn).
    Only the player's own decisions are on it: the protected timeout is a
    referee's step (``Hand.timeout``), not a choice.

    ``decision in legal`` tells whether a :class:`Decision` is allowed,
    :attr:`choices` lists the menu, :meth:`sample` draws a random decision.

    :ivar seat: the player to act.
    :ivar fold: folding is allowed (always, while betting; also when a
        check is free: the hand is then simply given up).
    :ivar check: checking is allowed.
    :ivar call: to-amount of a call (less than the bet when the call is
        all-in), or None.
    :ivar wager: :attr:`ActionKind.BET` or :attr:`ActionKind.RAISE` when
        the player may make a full bet or raise, else None.
    :ivar min_to: smallest legal bet or raise to-amount, or None.
    :ivar max_to: largest legal bet or raise to-amount, or None.
    :ivar all_in: to-amount of going all-in when that is allowed (a call,
        bet or raise for everything the player has, possibly less than a
        call or a minimum raise), else None.
    :ivar show: at showdown, the player may show.
    :ivar muck: at showdown, the player may muck.
    :ivar bet: the bet to match (the to-amount a call reaches in full); 0
        when nobody has bet this round.
    """

    seat: int
    fold: bool = False
    check: bool = False
    call: int | None = None
    wager: ActionKind | None = None
    min_to: int | None = None
    max_to: int | None = None
    all_in: int | None = None
    show: bool = False
    muck: bool = False
    bet: int = 0

    @property
    def kinds(self) -> tuple[ActionKind, ...]:
        """The allowed :class:`ActionKind` s, in a fixed order."""
        return tuple(choice.kind for choice in self.choices)

    @property
    def choices(self) -> tuple[Choice, ...]:
        """The menu: one :class:`Choice` per allowed kind, in a fixed order
        (fold, check, call, bet or raise with its range, all-in, show, muck)."""
        out = []
        if self.fold:
            out.append(Choice(ActionKind.FOLD))
        if self.check:
            out.append(Choice(ActionKind.CHECK))
        if self.call is not None:
            out.append(Choice(ActionKind.CALL))
        if self.wager is not None:
            out.append(Choice(self.wager, self.min_to, self.max_to))
        if self.all_in is not None:
            out.append(Choice(ActionKind.ALL_IN))
        if self.show:
            out.append(Choice(ActionKind.SHOW))
        if self.muck:
            out.append(Choice(ActionKind.MUCK))
        return tuple(out)

    def __contains__(self, decision: object) -> bool:
        """Whether ``decision`` (a :class:`Decision`) is allowed now.

        A bet or raise must be of the kind on the menu, to an amount in the
        range, or to exactly the all-in amount (an all-in for less than a
        full bet or raise, R5).  A show's cards are checked by the hand.
        """
        if not isinstance(decision, Decision):
            return False
        kind = decision.kind
        if kind in _WAGERS:
            to = decision.to
            if not isinstance(to, int) or isinstance(to, bool):
                return False
            if to == self.all_in and to > self.bet:  # all-in, perhaps for less than a full one
                return kind is (ActionKind.RAISE if self.bet else ActionKind.BET)
            return (
                kind is self.wager
                and self.min_to is not None
                and self.max_to is not None
                and self.min_to <= to <= self.max_to
            )
        if decision.to is not None:
            return False
        if kind is ActionKind.FOLD:
            return self.fold
        if kind is ActionKind.CHECK:
            return self.check
        if kind is ActionKind.CALL:
            return self.call is not None
        if kind is ActionKind.ALL_IN:
            return self.all_in is not None
        if kind is ActionKind.SHOW:
            return self.show
        if kind is ActionKind.MUCK:
            return self.muck
        return False

    def check_or_fold(self) -> Decision:
        """Check when it is free, else fold: what a player who does not decide
        does (out of time, gone, or leaving; RULES.md R13)."""
        return _CHECK if self.check else _FOLD

    def sample(self, rng: random.Random) -> Decision:
        """A random allowed decision, drawn with ``rng``.

        The distribution: first a :class:`Choice` of :attr:`choices`, each
        with the same chance; a bet or raise then goes to an amount drawn
        uniformly from ``min_to``..``max_to`` (every whole chip alike).
        Going all-in is its own choice.
        """
        choices = self.choices
        choice = choices[rng.randrange(len(choices))] if len(choices) > 1 else choices[0]
        kind = choice.kind
        if choice.min_to is not None and choice.max_to is not None:
            return Decision(kind, rng.randint(choice.min_to, choice.max_to))
        return Decision(kind)

    def __str__(self) -> str:
        parts = []
        for choice in self.choices:
            kind = choice.kind
            if kind is ActionKind.CALL:
                parts.append(f"call to {self.call}")
            elif kind is ActionKind.ALL_IN:
                parts.append(f"all-in to {self.all_in}")
            else:
                parts.append(str(choice))
        return f"seat {self.seat}: " + ", ".join(parts)

    def to_dict(self) -> dict[str, Any]:
        """JSON form: every field, by name; kinds as their names."""
        return {
            "seat": self.seat,
            "fold": self.fold,
            "check": self.check,
            "call": self.call,
            "wager": self.wager.value if self.wager is not None else None,
            "min_to": self.min_to,
            "max_to": self.max_to,
            "all_in": self.all_in,
            "show": self.show,
            "muck": self.muck,
            "bet": self.bet,
        }

    @classmethod
    def from_dict(cls, data: Any) -> LegalActions:
        """The legal actions of :meth:`to_dict`'s form (raises ``WireError``)."""
        return kept_reading(_READ_MENUS, data, cls._read)

    @classmethod
    def _read(cls, data: Any) -> LegalActions:
        f = Fields(data, "legal")
        legal = cls(
            seat=f.integer("seat"),
            fold=f.boolean("fold"),
            check=f.boolean("check"),
            call=f.integer("call", optional=True),
            wager=(wager := f.token("wager", ActionKind, optional=True, choices=_WAGERS)),
            min_to=f.integer("min_to", optional=True),
            max_to=f.integer("max_to", optional=True),
            all_in=f.integer("all_in", optional=True),
            show=f.boolean("show"),
            muck=f.boolean("muck"),
            bet=f.integer("bet"),
        )
        f.done()
        if (legal.min_to is None) != (legal.max_to is None) or (
            legal.min_to is not None and (wager is None or legal.min_to > legal.max_to)  # type: ignore[operator]
        ):
            raise f.error("min_to", legal.min_to, "min_to..max_to is not a range of a wager")
        return legal
