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

from ..actions import Decision, LegalActions
from ..views import PlayerView

__all__ = ["Bot", "CallingStation", "RandomBot"]

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
