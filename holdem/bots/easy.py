"""The easy bot: plays the immediate strength of its cards, with simple thresholds.

Before the flop it rates its two cards by their equity against one random
hand (:mod:`holdem.bots.preflop`), less a little for every other player still
in the hand; after the flop by the made hand its cards make with the board
(a pair it holds a card of, two pair and better), ignoring draws.  Then:

- **strong** (before the flop a rating of 0.62 and up, about the best 10% of
  hands against one opponent; after it two pair or better that its cards
  make, not the board's pair and one of its own): raises to three times the
  bet before the flop, bets or raises about two thirds of the pot after it,
  sometimes just calls;
- **fair** (0.50 and up; after the flop a pair or more that its cards make
  better than the board's): checks or calls, folds to a bet of more than the
  pot, sometimes bets a third of it;
- **weak**: checks when it can, calls a bet of at most a tenth of the pot now
  and then, else folds.

A tenth of its decisions take the next tier up or down at random, so that it
is not a rule a human reads after ten hands.  It plays every structure: a
bet or raise goes to the nearest amount the menu allows (fixed-limit: the one
amount).  At showdown it shows.

>>> from holdem import Hand, HandConfig
>>> hand = Hand(HandConfig(stacks=(100, 100), button=0, small_blind=1, big_blind=2),
...             hole_cards=["AsAh", "7c2d"])
>>> str(EasyBot(seed=1).decide(hand.view(0), hand.legal_actions()))
'raise to 6'
"""

from __future__ import annotations

from ..actions import Decision, LegalActions, Phase
from ..evaluator import Category, evaluate
from ..views import PlayerView
from .base import Bot, board_category, passive, showdown, wager
from .preflop import strength

__all__ = ["EasyBot"]

STRONG, FAIR, WEAK = 2, 1, 0
#: the preflop rating of a strong and of a fair hand
STRONG_PREFLOP, FAIR_PREFLOP = 0.62, 0.50
#: what the rating loses for every other player in the hand past the first
CROWD = 0.02
#: the share of decisions that take a tier up or down at random
WOBBLE = 0.1


class EasyBot(Bot):
    """Thresholds on the strength of its own cards (the module's notes)."""

    def decide(self, view: PlayerView, legal: LegalActions) -> Decision:
        if view.phase is Phase.SHOWDOWN:
            return showdown(legal)
        tier = self.tier(view)
        roll = self.rng.random()
        if roll < WOBBLE / 2:
            tier = min(STRONG, tier + 1)
        elif roll < WOBBLE:
            tier = max(WEAK, tier - 1)
        pot = view.pot
        mine = _own(view, view.bets)
        to_call = 0 if legal.call is None else legal.call - mine
        if tier == STRONG:
            if legal.wager is not None and self.rng.random() < 0.85:
                if not view.board:  # three times the bet (or the big blind)
                    return wager(legal, 3 * max(view.current_bet, view.config.big_blind))
                return wager(legal, mine + to_call + (2 * (pot + to_call)) // 3)
            return passive(legal)
        if tier == FAIR:
            if to_call == 0:
                if legal.wager is not None and self.rng.random() < 0.25:
                    return wager(legal, (pot + 2) // 3)
                return passive(legal)
            return passive(legal) if to_call <= max(pot, view.config.big_blind) else _FOLD
        if to_call == 0:
            return passive(legal)
        if 10 * to_call <= pot and self.rng.random() < 0.3:
            return passive(legal)
        return _FOLD

    def tier(self, view: PlayerView) -> int:
        """How strong its cards are now: ``STRONG``, ``FAIR`` or ``WEAK``."""
        hole = view.hole_cards
        assert hole is not None  # (a player to act holds cards)
        if not view.board:
            others = sum(1 for s in view.statuses if s in ("active", "all_in")) - 1
            rating = strength(hole) - CROWD * max(0, others - 1)
            return STRONG if rating >= STRONG_PREFLOP else FAIR if rating >= FAIR_PREFLOP else WEAK
        made = evaluate([*hole, *view.board]) >> 12  # (a value's category is its top bits)
        board = board_category(view.board)
        if made <= board:  # (the board's hand: its cards add nothing)
            return WEAK
        if made >= Category.TWO_PAIR and (board == Category.HIGH_CARD or made - board >= 2):
            return STRONG
        return FAIR if made >= Category.ONE_PAIR else WEAK


_FOLD = Decision.fold()


def _own(view: PlayerView, per_seat: tuple[int, ...]) -> int:
    """The viewer's entry of a per-seat tuple (by position in the hand)."""
    return per_seat[view.config.seat_numbers.index(view.seat)]
