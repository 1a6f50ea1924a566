"""What one player may know about a hand (RULES.md R14).

A :class:`PlayerView` is built from public data (stacks, bets, pots, the
board, the public log, cards shown at showdown) plus the viewer's own hole
cards.  Bots and remote programs only ever receive views: nothing in a
view, its repr or its :meth:`~PlayerView.to_dict` holds another player's
unshown cards, the deck or the burns.

>>> from holdem.config import HandConfig
>>> from holdem.hand import Hand
>>> hand = Hand(HandConfig(stacks=(100, 100), button=0, small_blind=1, big_blind=2),
...             hole_cards=["AsKs", "7c2d"], board="QsJsTs2h3h")
>>> v = hand.view(0)
>>> v.hole_cards == hand.hole_cards(0), v.actor, v.legal.call
(True, 0, 2)
>>> hand.view(1).legal is None
True

A view is a snapshot: it keeps saying what it said when it was taken, and
:meth:`~PlayerView.log_since` gives only the records a program has not seen:

>>> seen = v.log_length
>>> _ = hand.call()
>>> v.actor, hand.view(0).actor
(0, 1)
>>> [str(a) for a in hand.view(1).log_since(seen)]
['seat 0 calls 1']
"""

from __future__ import annotations

from dataclasses import FrozenInstanceError
from typing import Any, NoReturn

from .actions import STATUS_NAMES, Action, ActionKind, LegalActions, Phase, Street, street_of
from .cards import Card, format_card
from .config import HandConfig
from .pots import Outcome
from .wire import Fields

__all__ = ["PlayerView"]

_K_SHOW = ActionKind.SHOW
_S_RIVER = Street.RIVER
_new = object.__new__
_STATUS_CODES = {name: code for code, name in enumerate(STATUS_NAMES)}


#: The slots of a view in the order of :func:`_make_view`'s arguments, then its
#: two caches: the C core (``Hand.view``) fills them in this order.
_VIEW_FIELDS = (
    "seat",
    "hole_cards",
    "config",
    "phase",
    "street",
    "board",
    "stacks",
    "bets",
    "contributions",
    "_codes",
    "current_bet",
    "actor",
    "legal",
    "log",
    "outcome",
    "_statuses",
    "_shown",
)


class _ViewSlots:
    """The storage of a view: what is taken when it is made, and two caches.

    ``_codes`` are the status codes (indexes into ``STATUS_NAMES``; their names are
    made on first use of :attr:`PlayerView.statuses`); ``_statuses`` and
    ``_shown`` are None until first asked for.
    """

    __slots__ = _VIEW_FIELDS

    seat: int | None
    hole_cards: tuple[Card, ...] | None
    config: HandConfig
    phase: Phase
    street: Street
    board: tuple[Card, ...]
    stacks: tuple[int, ...]
    bets: tuple[int, ...]
    contributions: tuple[int, ...]
    current_bet: int
    actor: int | None
    legal: LegalActions | None
    log: tuple[Action, ...]
    outcome: Outcome | None
    _codes: tuple[int, ...]
    _statuses: tuple[str, ...] | None
    _shown: tuple[tuple[int, tuple[Card, ...]], ...] | None


class _Building(_ViewSlots):
    """A view while :func:`_make_view` fills it in (then it becomes a :class:`PlayerView`)."""

    __slots__ = ()


class PlayerView(_ViewSlots):
    """A hand as one player (or a spectator, ``seat=None``) may see it.

    Immutable: a snapshot of the moment it was taken, whatever the hand
    does afterwards (including :meth:`~holdem.hand.Hand.pop`).  Taking one
    costs about as much as one action: the few per-seat lists are copied as
    tuples, and ``statuses`` and ``shown`` are worked out the first time
    they are read.

    :ivar seat: the viewer, or None for a spectator.
    :ivar hole_cards: the viewer's own hole cards once dealt (else None).
    :ivar config: the public configuration (structure, blinds, starting stacks).
    :ivar phase: what the hand waits for.
    :ivar street: the current street.
    :ivar board: board cards dealt.
    :ivar stacks: chips behind, per seat.
    :ivar bets: live bets of the current round, per seat.
    :ivar contributions: chips put in during the hand, per seat.
    :ivar statuses: ``active``, ``all_in``, ``folded``, ``protected`` or ``mucked``.
    :ivar pot: chips in the middle (pots plus current bets).
    :ivar current_bet: the to-amount a call reaches.
    :ivar actor: the seat whose decision the hand waits for, if any.
    :ivar legal: the viewer's legal actions when it is their turn, else None.
    :ivar shown: cards shown at showdown so far: ``((seat, cards), ...)``.
    :ivar log: the public log.
    :ivar log_length: how many records ``log`` holds (see :meth:`log_since`).
    :ivar outcome: the outcome once the hand is over.
    """

    __slots__ = ()
    #: The public fields, in the order of the repr.
    __match_args__ = (
        "seat",
        "hole_cards",
        "config",
        "phase",
        "street",
        "board",
        "stacks",
        "bets",
        "contributions",
        "statuses",
        "pot",
        "current_bet",
        "actor",
        "legal",
        "shown",
        "log",
        "outcome",
    )

    @property
    def statuses(self) -> tuple[str, ...]:
        """Per seat: ``active``, ``all_in``, ``folded``, ``protected`` or ``mucked``."""
        names = self._statuses
        if names is None:
            names = tuple(map(STATUS_NAMES.__getitem__, self._codes))
            object.__setattr__(self, "_statuses", names)
        return names

    @property
    def pot(self) -> int:
        """Chips in the middle: all pots plus the bets of the current round."""
        return sum(self.contributions)

    @property
    def shown(self) -> tuple[tuple[int, tuple[Card, ...]], ...]:
        """Cards shown at showdown so far: ``((seat, cards), ...)``, in the order shown."""
        shown = self._shown
        if shown is None:
            # a showdown follows the river's betting (R10): nothing is shown before
            shown = (
                tuple([(a[1], a[6]) for a in self.log if a[0] is _K_SHOW and a[1] is not None])
                if self.street is _S_RIVER
                else ()
            )
            object.__setattr__(self, "_shown", shown)
        return shown

    @property
    def log_length(self) -> int:
        """How many records :attr:`log` holds: the index the next record will have."""
        return len(self.log)

    def log_since(self, index: int) -> tuple[Action, ...]:
        """The public records from ``index`` on: ``log[index:]``, for sending a delta.

        A program that already has the first ``index`` records of this hand
        (``index`` is the :attr:`log_length` of the last view it was sent)
        needs only these.  The log of a hand only grows as it is played, so
        the earlier records are the ones it has.  ``index`` must be in
        ``0..log_length``: anything else means the program is out of step
        (:class:`ValueError`).
        """
        if isinstance(index, bool) or not isinstance(index, int):
            raise TypeError(f"a log index is an int, not {type(index).__name__}")
        log = self.log
        if not 0 <= index <= len(log):
            raise ValueError(f"log index {index} is outside 0..{len(log)} (the log's length)")
        return log[index:]

    def to_dict(self, since: int = 0) -> dict[str, Any]:
        """The wire form: the configuration, the state, the viewer's cards and menu,
        and the log from ``since`` on (``log_start``).

        With ``since`` above 0 it is a delta, for a program that already has
        the view sent before in the same hand: it leaves out what that one
        holds and this hand does not change, the first ``since`` records and
        the configuration (:meth:`from_dict` with ``previous`` puts them back).
        """
        log = self.log_since(since)
        legal = self.legal
        outcome = self.outcome
        out = {
            "seat": self.seat,
            "hole_cards": _card_list(self.hole_cards) if self.hole_cards else None,
            "phase": self.phase.value,
            "street": self.street.label,
            "board": _card_list(self.board),
            "stacks": list(self.stacks),
            "bets": list(self.bets),
            "contributions": list(self.contributions),
            "statuses": list(self.statuses),
            "pot": self.pot,
            "current_bet": self.current_bet,
            "actor": self.actor,
            "legal": legal.to_dict() if legal is not None else None,
            "shown": [{"seat": s, "cards": _card_list(c)} for s, c in self.shown],
            "outcome": outcome.to_dict() if outcome is not None else None,
        }
        if not since:
            out["config"] = self.config.to_dict()
        out["log_start"] = since
        out["log"] = [a.to_dict() for a in log]
        return out

    @classmethod
    def from_dict(cls, data: Any, previous: PlayerView | None = None) -> PlayerView:
        """The view of :meth:`to_dict`'s form; a delta (``log_start`` > 0) needs the
        ``previous`` view its program received, whose log (and configuration,
        unless the delta carries one) it continues.  ``pot``
        and ``shown`` follow from the rest and are checked against it."""
        f = Fields(data, "view")
        start = f.integer("log_start", default=0)
        if start and (previous is None or previous.log_length < start):
            have = "no view" if previous is None else f"{previous.log_length} records"
            raise f.error("log_start", start, f"a delta from record {start}, but {have}")
        if start and "config" not in data:
            config = previous.config  # type: ignore[union-attr]  # (a delta: the same hand)
        else:
            config = HandConfig.from_dict(f.raw("config", "a configuration"))
        records = f.raw("log", "a list of records")
        if not isinstance(records, list):
            raise f.error("log", records, "expected a list of records")
        log = tuple(Action.from_dict(r) for r in records)
        if start:
            log = previous.log[:start] + log  # type: ignore[union-attr]
        statuses = f.raw("statuses", "a list of statuses")
        # (a status that is a list or an object cannot be looked up: it is no status)
        if not isinstance(statuses, list) or any(
            not isinstance(s, str) or s not in _STATUS_CODES for s in statuses
        ):
            raise f.error("statuses", statuses, f"expected a list of {', '.join(STATUS_NAMES)}")
        hole = f.cards("hole_cards", optional=True)
        if hole is not None and len(hole) != 2:
            raise f.error("hole_cards", data["hole_cards"], "expected two cards or null")
        board = f.cards("board")
        if len(board) > 5:
            raise f.error("board", data["board"], "a board has at most five cards")
        raw_legal = f.raw("legal", "legal actions or null")
        raw_outcome = f.raw("outcome", "an outcome or null")
        view = _make_view(
            seat=f.integer("seat", optional=True),
            hole_cards=hole,
            config=config,
            phase=f.token("phase", Phase),
            street=street_of(f.text("street"), f),
            board=board,
            stacks=f.integers("stacks"),
            bets=f.integers("bets"),
            contributions=f.integers("contributions"),
            codes=tuple(_STATUS_CODES[s] for s in statuses),
            current_bet=f.integer("current_bet"),
            actor=f.integer("actor", optional=True),
            legal=None if raw_legal is None else LegalActions.from_dict(raw_legal),
            log=log,
            outcome=None if raw_outcome is None else Outcome.from_dict(raw_outcome),
        )
        if f.integer("pot") != view.pot:
            raise f.error("pot", data["pot"], f"the contributions add up to {view.pot}")
        if f.raw("shown", "a list of shown hands") != [
            {"seat": s, "cards": _card_list(c)} for s, c in view.shown
        ]:
            raise f.error("shown", data["shown"], "not the hands the log shows")
        f.done()
        return view

    # ------------------------------------------------ value semantics

    def _key(self) -> tuple[Any, ...]:
        # statuses follow from the codes, shown from the log, pot from the contributions
        return (
            self.seat,
            self.hole_cards,
            self.config,
            self.phase,
            self.street,
            self.board,
            self.stacks,
            self.bets,
            self.contributions,
            self._codes,
            self.current_bet,
            self.actor,
            self.legal,
            self.log,
            self.outcome,
        )

    def __eq__(self, other: object) -> bool:
        if type(other) is not PlayerView:
            return NotImplemented
        return self is other or self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__match_args__)
        return f"PlayerView({fields})"

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> NoReturn:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __reduce__(self) -> tuple[Any, ...]:
        # for pickle and copy: the fields are _make_view's arguments, in order
        return (_make_view, self._key())


def _make_view(
    seat: int | None,
    hole_cards: tuple[Card, ...] | None,
    config: HandConfig,
    phase: Phase,
    street: Street,
    board: tuple[Card, ...],
    stacks: tuple[int, ...],
    bets: tuple[int, ...],
    contributions: tuple[int, ...],
    codes: tuple[int, ...],
    current_bet: int,
    actor: int | None,
    legal: LegalActions | None,
    log: tuple[Action, ...],
    outcome: Outcome | None,
) -> PlayerView:
    """A view of already public (and immutable) parts: :meth:`Hand.view` calls it.

    Only the caller knows what a seat may see; this function stores what it
    is given, nothing else.
    """
    v = _new(_Building)
    v.seat = seat
    v.hole_cards = hole_cards
    v.config = config
    v.phase = phase
    v.street = street
    v.board = board
    v.stacks = stacks
    v.bets = bets
    v.contributions = contributions
    v._codes = codes
    v.current_bet = current_bet
    v.actor = actor
    v.legal = legal
    v.log = log
    v.outcome = outcome
    v._statuses = None
    v._shown = None
    v.__class__ = PlayerView  # type: ignore[assignment]  # same slots: frozen from now on
    return v  # type: ignore[return-value]


def _card_list(cards: tuple[Card, ...] | None) -> list[str]:
    return [format_card(c) for c in cards or ()]
