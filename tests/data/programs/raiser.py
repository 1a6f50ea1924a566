"""A program that bets or raises whenever it may (for the tests): python raiser.py."""

from holdem import Decision, LegalActions, PlayerView
from holdem.protocol.player import play


def decide(view: PlayerView, legal: LegalActions) -> Decision:
    if legal.wager is not None and legal.min_to is not None:
        return Decision(legal.wager, legal.min_to)
    return Decision.check() if legal.check else Decision.call()


play(decide)
