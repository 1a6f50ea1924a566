"""Hand histories: one model for every file format, and the problems found in them.

Readers (:mod:`holdem.histories.phh`, :mod:`holdem.histories.pokerstars`) turn files into
:class:`HandHistory` records, one hand at a time; writers turn records back
into text; :mod:`holdem.histories.playback` plays a record through the rules engine and
compares every number the file claims with what the rules give.

Conventions, shared by all formats:

- **Players** are listed in clockwise seat order from the first seat left of
  the button, so the **button is the last player** (the small blind the
  first, except heads-up, where the button posts the small blind).  This is
  PHH's order, and the engine's seat numbering for replay.
- **Amounts are integers** in the file's smallest unit: a file in dollars
  and cents is read in cents (``unit = Decimal("0.01")``); no float anywhere.
  ``to_text(amount)`` gives the file's notation back.
- **Moves** are what happened, in order, with the line of the file they come
  from: deals, and each player's decisions.  Forced bets are in the hand's
  setup (:class:`Blinds`), not in the moves.
- **Claims** are the numbers a file states that the rules also determine
  (pots, collected amounts, rake, finishing stacks ...): replay checks them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, NamedTuple

from ..cards import Card, format_cards
from ..errors import HistoryFormatError, quote

__all__ = [
    "BET_RAISE",
    "CHECK_CALL",
    "DEAL_BOARD",
    "DEAL_HOLE",
    "DEAL_SECOND_BOARD",
    "FOLD",
    "MAX_AMOUNT",
    "MAX_PLACES",
    "MOVE_KINDS",
    "MUCK",
    "SECOND_RUN",
    "SHOW",
    "Blinds",
    "Claims",
    "HandHistory",
    "HistoryFormatError",
    "Move",
    "Player",
    "Problem",
    "decimal_places",
]

#: Amounts a file states are below this, in the file's notation (a bigger one
#: is refused, not rounded).
MAX_AMOUNT = 10**15
#: Amounts have at most this many decimal places.
MAX_PLACES = 6


def decimal_places(value: Decimal) -> int:
    """The decimal places of a finite amount without its trailing zeros (2.50: 1).

    Works on the digits alone, so no decimal context can trap or round.

    >>> decimal_places(Decimal("2.50")), decimal_places(Decimal("1E-9")), decimal_places(Decimal(7))
    (1, 9, 0)
    """
    _, digits, exponent = value.as_tuple()
    if not any(digits) or not isinstance(exponent, int):
        return 0
    zeros = len(digits) - len(bytes(digits).rstrip(b"\0"))
    return max(0, -(exponent + zeros))


#: Move kinds.  ``to`` is the player's total bet of the street after the
#: move (bets and raises); ``cards`` holds None for unknown cards.
DEAL_HOLE = "deal_hole"  # actor: the player dealt; cards: their hole cards
DEAL_BOARD = "deal_board"  # actor None; cards: the new board cards
FOLD = "fold"
CHECK_CALL = "check_call"  # a check, or a call (all-in for less included)
BET_RAISE = "bet_raise"  # a bet or a raise, to ``to``
SHOW = "show"  # cards: the shown cards (None where the file does not say)
MUCK = "muck"
#: actor None; cards: the new cards of the second run of a board run twice (R10),
#: dealt after the whole first run
DEAL_SECOND_BOARD = "deal_second_board"
MOVE_KINDS = (DEAL_HOLE, DEAL_BOARD, FOLD, CHECK_CALL, BET_RAISE, SHOW, MUCK, DEAL_SECOND_BOARD)
#: The end of the name of a pot won on the second run of a board run twice
#: (``claims.collected``: ``"side pot-1 (second run)"``).
SECOND_RUN = " (second run)"


class Player(NamedTuple):
    """One player of a hand.

    :ivar name: as the file writes it (None when the file has no names).
    :ivar stack: chips at the start of the hand (None when unknown).
    :ivar seat: the table's seat number as the file gives it (None if not given).
    """

    name: str | None
    stack: int | None
    seat: int | None = None


class Move(NamedTuple):
    """One step of a hand: a deal or a player's decision (a named tuple: many per hand).

    :ivar kind: one of :data:`MOVE_KINDS`.
    :ivar actor: index of the player in :attr:`HandHistory.players` (None: the dealer).
    :ivar to: the to-amount of a bet or raise (the player's total for the street).
    :ivar cards: dealt or shown cards; None for a card the file does not know.
    :ivar line: the line of the file it comes from (1-based; 0 if unknown).
    :ivar comment: a comment the file attaches to it.
    :ivar all_in: the file says it is all-in (replay checks it).
    :ivar stated: the other amount the file states, which replay checks: what
        a call puts in (PokerStars ``calls $3``), or by how much a raise
        raises (``raises $3 to $4.50``); None when the file states none.
    """

    kind: str
    actor: int | None = None
    to: int | None = None
    cards: tuple[Card | None, ...] = ()
    line: int = 0
    comment: str | None = None
    all_in: bool = False
    stated: int | None = None


@dataclass(frozen=True, slots=True)
class Blinds:
    """The forced bets of a hand, in chips.

    ``antes`` and ``blinds`` are per player (in :attr:`HandHistory.players`
    order), as the file states them, so unusual ones (a button ante, a
    straddle) keep their place.  ``dead`` are chips posted straight into the
    pot (a dead small blind), ``posts`` live posts of players who are not in
    the blinds (a new player's big blind).
    """

    antes: tuple[int, ...]
    blinds: tuple[int, ...]
    dead: tuple[int, ...] = ()
    posts: tuple[int, ...] = ()
    small_bet: int = 0  # fixed-limit
    big_bet: int = 0  # fixed-limit
    min_bet: int = 0  # no-limit and pot-limit (the big blind, usually)


@dataclass(frozen=True, slots=True)
class Claims:
    """Numbers the file states about the result, per player where it applies.

    Every field is None when the file does not state it.
    """

    finishing_stacks: tuple[int | None, ...] | None = None
    winnings: tuple[int, ...] | None = None  # chips won from the pots, per player
    collected: tuple[tuple[int, int, str], ...] | None = None  # (player, chips, pot name)
    returned: tuple[tuple[int, int], ...] | None = None  # (player, uncalled chips)
    total_pot: int | None = None
    rake: int | None = None
    described: tuple[tuple[int, str], ...] = ()  # (player, hand as the file describes it)
    lines: dict[str, int] = field(default_factory=dict)  # claim name -> line
    #: the pots as the file lists them, main pot first, then the side pots
    #: (PokerStars ``Main pot X. Side pot-1 Y.``); None when the file lists none.
    pots: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True)
class HandHistory:
    """One hand as read from a file.

    :ivar variant: ``"NT"`` no-limit, ``"FT"`` fixed-limit or ``"PT"``
        pot-limit Texas hold'em (PHH codes; PT is ours).
    :ivar players: clockwise from the first seat left of the button.
    :ivar blinds: the forced bets.
    :ivar moves: what happened, in order.
    :ivar claims: numbers the file states about the result.
    :ivar unit: the value of one chip in the file's notation.
    :ivar hand_id: the hand's identifier in the file, if any.
    :ivar source: the file it comes from; ``line`` where the hand starts.
    :ivar fields: everything else the file says (format specific, kept for
        writing the hand back: a PHH ``event``, a PokerStars table name ...).
    :ivar tournament: whether it is a tournament hand (else a cash game).
    :ivar chip: the smallest amount of the play, in units (see below).
    :ivar notes: warnings found while reading.
    """

    variant: str
    players: tuple[Player, ...]
    blinds: Blinds
    moves: tuple[Move, ...]
    claims: Claims = field(default_factory=Claims)
    unit: Decimal = Decimal(1)
    hand_id: str | None = None
    source: str | None = None
    line: int = 0
    fields: dict[str, Any] = field(default_factory=dict)
    tournament: bool = False
    #: The smallest amount the play itself uses (bets, blinds, stacks), in
    #: units: a claim that is not a multiple of it splits a chip.
    chip: int = 1
    #: Problems found while reading (warnings about the file itself).
    notes: tuple[Problem, ...] = ()

    def to_text(self, amount: int) -> str:
        """An amount in the file's notation: ``to_text(250) == '2.50'`` in cents."""
        value = (Decimal(amount) * self.unit).normalize()
        text = f"{value:f}"
        if self.unit < 1 and "." in text:
            places = -self.unit.as_tuple().exponent  # type: ignore[operator]
            whole, _, frac = text.partition(".")
            text = f"{whole}.{frac.ljust(places, '0')}"
        return text

    @property
    def where(self) -> str:
        """``path:line`` of the hand, for messages."""
        return f"{self.source or '<input>'}:{self.line}"

    def describe_move(self, move: Move) -> str:
        """A move in words, for messages: ``p3 raises to 600``."""
        who = "dealer" if move.actor is None else self.player_name(move.actor)
        if move.kind == DEAL_SECOND_BOARD:
            cards = "".join("??" if c is None else format_cards([c]) for c in move.cards)
            return f"{who} deals the second run {cards}"
        if move.kind in (DEAL_HOLE, DEAL_BOARD, SHOW):
            cards = "".join("??" if c is None else format_cards([c]) for c in move.cards)
            return f"{who} {move.kind.replace('_', ' ')} {cards}".rstrip()
        if move.kind == BET_RAISE:
            return f"{who} bets or raises to {self.to_text(move.to or 0)}"
        return f"{who} {move.kind.replace('_', ' or ')}"

    def check_writable(self) -> None:
        """Raises :class:`HistoryFormatError` if an amount is too large to write
        or a move names a player the hand does not have.

        The readers refuse amounts of :data:`MAX_AMOUNT` or more (in the
        file's notation); the writers do not write what would not read back.
        """
        n = len(self.players)
        for number, move in enumerate(self.moves, 1):
            if move.actor is not None and not 0 <= move.actor < n:
                raise HistoryFormatError(
                    f"move {number} is by player index {move.actor}, "
                    f"but the hand has {n} players (0 to {n - 1})",
                    path=self.source,
                    line=move.line or self.line,
                )
        c = self.claims
        b = self.blinds
        largest = max(
            (
                *(p.stack or 0 for p in self.players),
                *b.antes, *b.blinds, *b.dead, *b.posts, b.small_bet, b.big_bet, b.min_bet,
                *(m.to or 0 for m in self.moves),
                *(m.stated or 0 for m in self.moves),
                *(x or 0 for x in c.finishing_stacks or ()),
                *(c.winnings or ()),
                *(amount for _, amount, _ in c.collected or ()),
                *(amount for _, amount in c.returned or ()),
                *(c.pots or ()),
                c.total_pot or 0,
                c.rake or 0,
            ),
            default=0,
        )  # fmt: skip
        if largest * self.unit >= MAX_AMOUNT:
            raise HistoryFormatError(
                f"an amount of {self.to_text(largest)} is too large to write "
                f"(amounts are below 10^15)",
                path=self.source,
                line=self.line,
            )

    def player_name(self, index: int) -> str:
        """The name of a player, or ``p1``.. (1-based, as PHH numbers them)."""
        name = self.players[index].name if 0 <= index < len(self.players) else None
        return name if name else f"p{index + 1}"


def poster_folds(hand: HandHistory) -> list[int]:
    """The indices of the moves that fold a player whose forced bets took their
    whole stack, before any decision of theirs: PokerStars' fold of a player
    sitting out, who has no decision under the rules (an all-in player stays in
    the hand, R4)."""
    b = hand.blinds
    decided: set[int] = set()
    out = []
    for k, m in enumerate(hand.moves):
        i = m.actor
        if i is None or m.kind not in (FOLD, CHECK_CALL, BET_RAISE):
            continue
        if m.kind == FOLD and i not in decided and 0 <= i < len(hand.players):
            stack = hand.players[i].stack
            posted = sum(x[i] for x in (b.antes, b.blinds, b.dead, b.posts) if i < len(x))
            if stack is not None and posted and posted >= stack:
                out.append(k)
        decided.add(i)
    return out


@dataclass(frozen=True, slots=True)
class Problem:
    """Something wrong (or odd) in a hand history, and where.

    ``severity`` is ``"error"`` (the file breaks the rules or misstates a
    number), ``"warning"`` (a known irregularity, or something the rules
    allow but that is unusual) or ``"unsupported"`` (a hand the engine cannot
    represent yet, e.g. run it twice).
    """

    path: str
    line: int
    hand_id: str | None
    severity: str
    message: str
    code: str = ""

    @classmethod
    def internal(
        cls, path: str, line: int, hand_id: str | None, doing: str, exc: BaseException
    ) -> Problem:
        """A bug of ours met while ``doing`` something to a hand (reading it,
        replaying it): reported with the hand, code ``internal``, so that the
        other hands go on."""
        return cls(
            path,
            line,
            hand_id,
            "error",
            f"internal error while {doing} ({type(exc).__name__}: {quote(str(exc))}); "
            "please report it with this hand",
            "internal",
        )

    def __str__(self) -> str:
        hand = f" hand {self.hand_id}:" if self.hand_id else ""
        return f"{self.path}:{self.line}:{hand} {self.severity}: {self.message}"

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly form."""
        return {
            "path": self.path,
            "line": self.line,
            "hand": self.hand_id,
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
        }
