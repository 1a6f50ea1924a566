"""Complete hands consistent with what one player sees, for search and Monte
Carlo bots (RULES.md R14: the hidden cards are never an input).

:func:`sample_hand` takes a :class:`~holdem.views.PlayerView` and returns a
:class:`~holdem.hand.Hand` at the same point of the same hand: the viewer's
own cards, the board and every card shown stay as they are; every card the
viewer has not seen (the other players' hole cards, the burns, the board to
come) is dealt uniformly from the cards the viewer has not seen; then the
public log's decisions are played again.  A bot can then search the sampled
hand (``push``/``pop``) or play it out.

>>> from holdem.config import HandConfig
>>> from holdem.hand import Hand
>>> hand = Hand(HandConfig(stacks=(100, 100, 100), button=0, small_blind=1, big_blind=2), rng=3)
>>> _ = hand.raise_to(6)
>>> view = hand.view(1)
>>> guess = sample_hand(view, rng=9)
>>> guess.hole_cards(1) == view.hole_cards, guess.log == view.log
(True, True)
"""

from __future__ import annotations

import random

from .actions import ActionKind, Decision
from .cards import Card, Deck
from .errors import HoldemError
from .hand import Hand
from .views import PlayerView

__all__ = ["play_betting", "sample_hand", "seen_cards"]

_REPLAYED = {
    ActionKind.FOLD,
    ActionKind.CHECK,
    ActionKind.CALL,
    ActionKind.BET,
    ActionKind.RAISE,
    ActionKind.TIMEOUT,
}


def seen_cards(view: PlayerView) -> set[Card]:
    """The cards the viewer has seen: their own, the board and the shown hands."""
    seen = set(view.board)
    if view.hole_cards:
        seen.update(view.hole_cards)
    for _, cards in view.shown:
        seen.update(cards)
    return seen


def sample_hand(view: PlayerView, rng: int | random.Random | None = None) -> Hand:
    """A full hand at the point of ``view``, the unseen cards drawn with ``rng``.

    Every unknown card is dealt uniformly from the cards the viewer has not
    seen (no reading of hands into what players did).  The betting decisions
    of the log are played again; the sampled hand runs its dealer steps and
    showdown defaults by itself (``auto=True``), so at a showdown a player
    whose cards were sampled may show or muck otherwise than in the real
    hand.  Up to the showdown its log equals the view's log.
    """
    config = view.config
    position = {seat: i for i, seat in enumerate(config.seat_numbers)}
    hole: list[tuple[Card, ...] | None] = [None] * config.players
    if view.seat is not None and view.hole_cards:
        hole[position[view.seat]] = tuple(view.hole_cards)
    for seat, cards in view.shown:
        hole[position[seat]] = tuple(cards)
    deck = Deck(rng, exclude=seen_cards(view))
    hand = Hand(view.config, deck=deck, hole_cards=hole, board=tuple(view.board) or None)
    return play_betting(hand, view)


def play_betting(hand: Hand, view: PlayerView) -> Hand:
    """``hand`` (of the view's configuration) with the betting decisions of
    the view's public log played on it (:class:`~holdem.errors.HoldemError`
    when they do not fit it)."""
    for record in view.log:
        kind = record.kind
        if kind not in _REPLAYED:
            continue
        if hand.done:
            raise HoldemError("the view's log goes on after the hand it describes ended")
        to = record.to if kind is ActionKind.BET or kind is ActionKind.RAISE else None
        hand.act(Decision(kind, to), seat=record.seat)
    return hand
