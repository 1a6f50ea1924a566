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

from ..actions import ActionKind, Decision, LegalActions
from ..views import PlayerView

__all__ = ["Bot", "CallingStation", "RandomBot", "fold_or_check", "passive", "showdown", "wager"]

_CHECK, _CALL, _FOLD, _SHOW = Decision.check(), Decision.call(), Decision.fold(), Decision.show()


class Bot(ABC):
    """A player that decides from its view and its legal decisions.

    :param seed: the seed of the bot's own random choices (None: a fresh one).
    """

    #: the level's name (``easy``, ``random``, ...), as ``simulate`` reports it
    name = "bot"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    @abstractmethod
    def decide(self, view: PlayerView, legal: LegalActions) -> Decision:
        """The decision of the player to act, who sees ``view`` and may take
        any decision on ``legal`` (and no other)."""

    def __call__(self, view: PlayerView, legal: LegalActions) -> Decision:
        return self.decide(view, legal)

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class RandomBot(Bot):
    """Any legal decision, each kind alike, a bet or raise to a uniform amount
    (:meth:`LegalActions.sample`)."""

    name = "random"

    def decide(self, view: PlayerView, legal: LegalActions) -> Decision:
        return legal.sample(self.rng)


class CallingStation(Bot):
    """Checks when it can, else calls (all in if that is what a call takes);
    never folds to a bet it can call, never bets; shows at showdown."""

    name = "calling station"

    def decide(self, view: PlayerView, legal: LegalActions) -> Decision:
        if legal.check:
            return _CHECK
        if legal.call is not None:
            return _CALL
        if legal.show:
            return _SHOW
        return _FOLD


# ------------------------------------------------- decisions off the menu


def passive(legal: LegalActions) -> Decision:
    """Check, else call (all in when that is the call), else fold."""
    if legal.check:
        return _CHECK
    if legal.call is not None:
        return _CALL
    return _FOLD


def fold_or_check(legal: LegalActions) -> Decision:
    """Check when it is free, else fold."""
    return _CHECK if legal.check else _FOLD


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
