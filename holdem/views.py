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
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .actions import Action, ActionKind, LegalActions, Street
from .cards import Card, format_cards
from .config import HandConfig
from .pots import Outcome

if TYPE_CHECKING:  # pragma: no cover
    from .hand import Hand, Phase

__all__ = ["PlayerView", "player_view"]


@dataclass(frozen=True, slots=True)
class PlayerView:
    """A hand as one player (or a spectator, ``seat=None``) may see it.

    :ivar seat: the viewer, or None for a spectator.
    :ivar hole_cards: the viewer's own hole cards once dealt (else None).
    :ivar config: the public configuration (structure, blinds, starting stacks).
    :ivar phase: what the hand waits for.
    :ivar street: the current street.
    :ivar board: board cards dealt.
    :ivar stacks: chips behind, per seat.
    :ivar bets: live bets of the current round, per seat.
    :ivar contributions: chips put in during the hand, per seat.
    :ivar statuses: ``active``, ``all-in``, ``folded``, ``protected`` or ``mucked``.
    :ivar pot: chips in the middle (pots plus current bets).
    :ivar current_bet: the to-amount a call reaches.
    :ivar actor: the seat whose decision the hand waits for, if any.
    :ivar legal: the viewer's legal actions when it is their turn, else None.
    :ivar shown: cards shown at showdown so far: ``((seat, cards), ...)``.
    :ivar log: the public log.
    :ivar outcome: the outcome once the hand is over.
    """

    seat: int | None
    hole_cards: tuple[Card, ...] | None
    config: HandConfig
    phase: Phase
    street: Street
    board: tuple[Card, ...]
    stacks: tuple[int, ...]
    bets: tuple[int, ...]
    contributions: tuple[int, ...]
    statuses: tuple[str, ...]
    pot: int
    current_bet: int
    actor: int | None
    legal: LegalActions | None
    shown: tuple[tuple[int, tuple[Card, ...]], ...]
    log: tuple[Action, ...]
    outcome: Outcome | None

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly form (cards as text, enums as their values)."""
        cfg = self.config
        return {
            "seat": self.seat,
            "hole_cards": format_cards(self.hole_cards) if self.hole_cards else None,
            "structure": cfg.structure.value,
            "button": cfg.button,
            "dead_button": cfg.dead_button,
            "small_blind": cfg.small_blind,
            "big_blind": cfg.big_blind,
            "ante": cfg.ante,
            "straddle": cfg.straddle,
            "phase": self.phase.value,
            "street": self.street.label,
            "board": format_cards(self.board),
            "stacks": list(self.stacks),
            "bets": list(self.bets),
            "contributions": list(self.contributions),
            "statuses": list(self.statuses),
            "pot": self.pot,
            "current_bet": self.current_bet,
            "actor": self.actor,
            "legal": self.legal.to_dict() if self.legal is not None else None,
            "shown": [{"seat": s, "cards": format_cards(c)} for s, c in self.shown],
            "log": [a.to_dict() for a in self.log],
            "outcome": self.outcome.to_dict() if self.outcome is not None else None,
        }


def player_view(hand: Hand, seat: int | None) -> PlayerView:
    """Builds the :class:`PlayerView` of ``seat`` (None: a spectator)."""
    n = hand.config.players
    if seat is not None and not (isinstance(seat, int) and 0 <= seat < n):
        raise ValueError(f"seat must be 0..{n - 1} or None, not {seat!r}")
    log = hand.log
    actor = hand.actor
    return PlayerView(
        seat=seat,
        hole_cards=hand.hole_cards(seat) if seat is not None else None,
        config=hand.config,
        phase=hand.phase,
        street=hand.street,
        board=hand.board,
        stacks=hand.stacks,
        bets=hand.bets,
        contributions=hand.contributions,
        statuses=hand.statuses,
        pot=hand.pot,
        current_bet=hand.current_bet,
        actor=actor,
        legal=hand.legal_actions() if actor is not None and actor == seat else None,
        shown=tuple(
            (a.seat, a.cards) for a in log if a.kind is ActionKind.SHOW and a.seat is not None
        ),
        log=log,
        outcome=hand.outcome,
    )
