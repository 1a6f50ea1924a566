"""What a bot is, and two yardsticks: a random legal player and a calling station.

A bot decides from what a player may know, its :class:`~holdem.PlayerView`,
and its menu of legal decisions (RULES.md R14): one method,
``decide(view, legal) -> Decision``.  A bot is also callable the same way, so
it can sit at a :class:`~holdem.table.Table` as a player.  Its random choices
come from its own :class:`random.Random`, seeded at creation: the same seed
and the same views give the same decisions.

>>> from holdem import Decision, Hand, HandConfig
>>> hand = Hand(HandConfig(stacks=(100, 100), button=0, small_blind=1, big_blind=2), rng=5)
>>> bot = CallingStation()
>>> bot.decide(hand.view(hand.actor), hand.legal_actions()) == Decision.call()
True
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import TypeGuard

from ..actions import ActionKind, Decision, LegalActions
from ..cards import Card
from ..evaluator import Category, category, evaluate
from ..views import PlayerView

__all__ = [
    "Bot",
    "CallingStation",
    "RandomBot",
    "board_category",
    "learns",
    "made_by_hole",
    "passive",
    "showdown",
    "wager",
]

_CHECK, _CALL, _FOLD, _SHOW = Decision.check(), Decision.call(), Decision.fold(), Decision.show()


class Bot(ABC):
    """A player that decides from its view and its legal decisions.

    :param seed: the seed of the bot's own random choices (None: a fresh one).
    """

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    @abstractmethod
    def decide(self, view: PlayerView, legal: LegalActions) -> Decision:
        """The decision of the player to act, who sees ``view`` and may take
        any decision on ``legal`` (and no other)."""

    def __call__(self, view: PlayerView, legal: LegalActions) -> Decision:
        return self.decide(view, legal)

    def observe(self, view: PlayerView) -> None:
        """Told the end of a hand it was dealt in, as it saw it (the public
        log to the end, the cards shown): a bot that learns about the other
        players reads it here.  Nothing by default.  Not every caller tells
        it (a room's bots learn from their own turns alone): a bot must
        decide well without it."""
        return None  # (a hook, not abstract: most bots need nothing)

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class RandomBot(Bot):
    """Any legal decision, each kind alike, a bet or raise to a uniform amount
    (:meth:`LegalActions.sample`)."""

    def decide(self, view: PlayerView, legal: LegalActions) -> Decision:
        return legal.sample(self.rng)


class CallingStation(Bot):
    """Checks when it can, else calls (all in if that is what a call takes);
    never folds to a bet it can call, never bets; shows at showdown."""

    def decide(self, view: PlayerView, legal: LegalActions) -> Decision:
        if legal.check:
            return _CHECK
        if legal.call is not None:
            return _CALL
        if legal.show:
            return _SHOW
        return _FOLD


def learns(player: object) -> TypeGuard[Bot]:
    """Whether ``player`` is a bot that reads the hands' ends
    (:meth:`Bot.observe`): callers tell only those (a view a hand and seat
    costs a little)."""
    return isinstance(player, Bot) and type(player).observe is not Bot.observe


# ------------------------------------------------- decisions off the menu


def passive(legal: LegalActions) -> Decision:
    """Check, else call (all in when that is the call), else fold."""
    if legal.check:
        return _CHECK
    if legal.call is not None:
        return _CALL
    return _FOLD


def showdown(legal: LegalActions) -> Decision:
    """Show the cards when the menu allows it, else muck."""
    return _SHOW if legal.show else Decision.muck()


def wager(legal: LegalActions, to: int) -> Decision:
    """A bet or raise to about ``to``, within the menu's range (all in when
    that is the top of it); the menu must allow a bet or raise."""
    assert legal.wager is not None and legal.min_to is not None and legal.max_to is not None
    amount = min(max(to, legal.min_to), legal.max_to)
    if amount == legal.max_to and legal.all_in == amount:
        return Decision.all_in()
    if legal.wager is ActionKind.RAISE:
        return Decision.raise_to(amount)
    return Decision.bet(amount)


# ------------------------------------------------------- reading the cards


def board_category(board: Sequence[Card]) -> Category:
    """The hand the board alone makes (before the river: a pair, two pair,
    three or four of a kind on the board; nothing else shows in 3 or 4 cards)."""
    key = tuple(board)
    known = _BOARDS.get(key)
    if known is None:
        if len(_BOARDS) >= 4096:  # (the boards of a few hundred hands at once)
            _BOARDS.clear()
        known = _BOARDS[key] = _board_category(key)
    return known


#: boards seen, by their cards: every player of a hand asks of the same board
_BOARDS: dict[tuple[Card, ...], Category] = {}


def _board_category(board: Sequence[Card]) -> Category:
    if len(board) >= 5:
        return category(evaluate(board))
    ranks = [card // 4 for card in board]
    most = max((ranks.count(r) for r in ranks), default=0)
    pairs = sum(1 for r in set(ranks) if ranks.count(r) == 2)
    if most >= 4:
        return Category.FOUR_OF_A_KIND
    if most == 3:
        return Category.THREE_OF_A_KIND
    if pairs == 2:
        return Category.TWO_PAIR
    return Category.ONE_PAIR if pairs == 1 else Category.HIGH_CARD


def made_by_hole(hole: Sequence[Card], board: Sequence[Card]) -> bool:
    """Whether two hole cards make a better hand with the board (3 to 5
    cards) than the board makes alone: a pair or more of their own."""
    return category(evaluate([*hole, *board])) > board_category(board)
