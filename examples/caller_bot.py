"""A bot for `holdem play`, `holdem simulate` and the protocol, as a program:
it checks when it can, calls a bet of at most a third of the pot, and folds
to bigger ones.

    holdem play --seats 3 --bots "cmd:python examples/caller_bot.py",easy
"""

from holdem import Decision
from holdem.protocol.player import play


def decide(view, legal):
    if legal.check:
        return Decision.check()
    mine = view.bets[view.config.seat_numbers.index(view.seat)]  # my bet this round
    if legal.call is not None and 3 * (legal.call - mine) <= view.pot:
        return Decision.call()
    return Decision.fold()


play(decide)
