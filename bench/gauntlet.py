"""The gauntlet: reference opponents of the usual styles, written here, for
measuring our bots against players that are not our own (issue 32).

Each is an in-process bot (a :class:`holdem.bots.Bot` class, made with a
seed), seated in ``holdem simulate`` as ``py:bench/gauntlet.py:NAME``:

- ``Maniac``: all in at every decision (a call when it cannot raise).
- ``CallingStation``: the library's own: checks, else calls; never bets.
- ``PotBettor``: bets the pot when nobody has bet; facing a bet, calls.
- ``MinRaiser``: bets or raises the minimum whenever it may, else calls.
- ``TightAggressive``: a rule bot: opens the best 18% of hands to three big
  blinds, re-raises the best 6%, calls a raise with the best 12%; after the
  flop bets two thirds of the pot with top pair or better (and as the
  preflop raiser on the flop), calls with a pair of its own by pot odds,
  else checks or folds.
- ``EquityBot``: equity only: its Monte Carlo equity (``holdem.equities.share``,
  the C core's quick path, 400 deals) against a random hand for each player still in; raises two
  thirds of the pot above 0.70 (heads-up 0.62), calls when the equity
  beats the pot odds, else checks or folds.
- ``Nit``: plays QQ+ and AK only, raising them; after the flop bets and
  calls with top pair or better, else checks or folds.

In-process rather than programs: a program's turn costs a process's round
trip and a JSON view a decision, which would be most of a match's time
against the simple styles; in-process they cost what our bots cost, and
``holdem simulate`` asks ``Maniac.best_response`` for its figure.

``python bench/gauntlet.py equities`` computes the table of exact equities
against a random hand (:data:`EQUITY_FILE`) again, about 15 minutes on one
core.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from holdem import ActionKind, Decision, LegalActions, PlayerView, Street
from holdem.bots import Bot, CallingStation
from holdem.bots.base import made_by_hole, passive, wager
from holdem.bots.preflop import STARTING_HANDS, starting_hand, strength
from holdem.config import Structure
from holdem.equities import RANDOM, equity, share
from holdem.evaluator import Category, category, evaluate

__all__ = [
    "GAUNTLET", "CallingStation", "EquityBot", "Maniac", "MinRaiser", "Nit", "PotBettor",
    "TightAggressive", "maniac_best_response",
]  # fmt: skip

#: Exact equities of the 169 starting hands against one random hand (generated
#: by ``python bench/gauntlet.py equities``; do not edit).
EQUITY_FILE = Path(__file__).with_name("equity_vs_random.json")


class Maniac(Bot):
    """All in at every decision; a call (or a check) when it may not raise."""

    def decide(self, view: PlayerView, legal: LegalActions) -> Decision:
        if legal.all_in is not None:
            return Decision.all_in()
        return passive(legal)

    @staticmethod
    def best_response(seats: int, stack: int, structure: Structure) -> float | None:
        """What the best response earns against it heads-up in no-limit
        (:func:`maniac_best_response`); None otherwise (or without
        :data:`EQUITY_FILE`)."""
        if seats != 2 or Structure(structure) is not Structure.NO_LIMIT or not EQUITY_FILE.exists():
            return None
        return maniac_best_response(stack)


def maniac_best_response(stack: int, equities: dict[str, float] | None = None) -> float:
    """Big blinds per 100 hands that the best response to :class:`Maniac`
    earns heads-up, both players ``stack`` big blinds deep: exact, given the
    equities of the starting hands against a random hand (``equities``;
    default :data:`EQUITY_FILE`).

    Every hand ends all in or folded before the flop.  The maniac's cards
    are random, so a hand of equity ``e`` all in wins ``2 * stack * e -
    stack``.  On the button (the small blind) the best response folds (-0.5)
    or goes all in, whichever is more; in the big blind, facing the
    maniac's all in, it folds (-1) or calls.  Limping to fold to the
    maniac's raise (-1) is never better than folding at once.  The figure
    is the mean over the 1,326 hands (6 combos a pair, 4 suited, 12
    offsuit) and the two seats, times 100.
    """
    table = equities if equities is not None else json.loads(EQUITY_FILE.read_text())
    total = 0.0
    for name in STARTING_HANDS:
        combos = 6 if len(name) == 2 else 4 if name.endswith("s") else 12
        shove = 2 * stack * table[name] - stack
        total += combos * (max(-0.5, shove) + max(-1.0, shove)) / 2
    return 100 * total / 1326


class PotBettor(Bot):
    """Bets the pot when nobody has bet this round; facing a bet, calls."""

    def decide(self, view: PlayerView, legal: LegalActions) -> Decision:
        if legal.wager is ActionKind.BET:
            return wager(legal, view.pot)
        return passive(legal)


class MinRaiser(Bot):
    """Bets or raises the minimum whenever it may, else calls (or checks)."""

    def decide(self, view: PlayerView, legal: LegalActions) -> Decision:
        if legal.wager is not None and legal.min_to is not None:
            return wager(legal, legal.min_to)
        return passive(legal)


def _raised_preflop(view: PlayerView) -> bool:
    """Whether the viewer made the last raise before the flop."""
    last = None
    for action in view.log:
        if action.street is Street.PREFLOP and action.kind in (ActionKind.RAISE, ActionKind.BET):
            last = action.seat
    return last == view.seat


def _top_pair_or_better(hole: tuple[int, ...], board: tuple[int, ...]) -> bool:
    """A pair of its own with the board's highest card, an overpair, or more."""
    made = category(evaluate([*hole, *board]))
    if not made_by_hole(hole, board):
        return False
    if made > Category.ONE_PAIR:
        return True
    top = max(card // 4 for card in board)
    ranks = [card // 4 for card in hole]
    return top in ranks or (ranks[0] == ranks[1] and ranks[0] > top)


class TightAggressive(Bot):
    """A tight-aggressive rule bot (the module's notes)."""

    OPEN, THREE_BET, CALL = 0.60, 0.665, 0.63

    def decide(self, view: PlayerView, legal: LegalActions) -> Decision:
        if legal.show or legal.muck:
            return Decision.show() if legal.show else Decision.muck()
        hole, board, big = view.hole_cards, view.board, view.config.big_blind
        assert hole is not None
        if view.street is Street.PREFLOP:
            rating = strength(hole)
            raised = legal.bet > big
            if legal.wager is not None and rating >= (self.THREE_BET if raised else self.OPEN):
                return wager(legal, 3 * max(legal.bet, big))
            if raised and rating >= self.CALL and legal.call is not None:
                return Decision.call()
            return legal.check_or_fold()
        strong = _top_pair_or_better(hole, board)
        if legal.wager is not None and (
            strong or (legal.bet == 0 and view.street is Street.FLOP and _raised_preflop(view))
        ):
            return wager(legal, legal.bet + 2 * (view.pot + legal.bet) // 3)
        if legal.call is not None and made_by_hole(hole, board):
            call = legal.call - view.bets[legal.seat]
            if strong or call <= (view.pot + call) / 3:
                return Decision.call()
        return legal.check_or_fold()


class EquityBot(Bot):
    """Equity only, by Monte Carlo (the module's notes)."""

    TRIALS = 400

    def decide(self, view: PlayerView, legal: LegalActions) -> Decision:
        if legal.show or legal.muck:
            return Decision.show() if legal.show else Decision.muck()
        hole = view.hole_cards
        assert hole is not None
        others = sum(1 for s in view.statuses if s in ("active", "all_in")) - 1
        others = max(1, min(others, 8))
        # (the C core's quick path: holdem.equity's checks and range building
        # cost 20 ms a decision, most of a match's time)
        mine = share(hole, [RANDOM] * others, view.board, self.TRIALS, self.rng.getrandbits(63))
        call = 0 if legal.call is None else legal.call - view.bets[legal.seat]
        if legal.wager is not None and mine >= (0.62 if others == 1 else 0.70):
            return wager(legal, legal.bet + 2 * (view.pot + call) // 3)
        if legal.check:
            return Decision.check()
        if legal.call is not None and mine >= call / (view.pot + call):
            return Decision.call()
        return Decision.fold()


class Nit(Bot):
    """QQ+ and AK only, raised; after the flop top pair or better."""

    HANDS = frozenset({"AA", "KK", "QQ", "AKs", "AKo"})

    def decide(self, view: PlayerView, legal: LegalActions) -> Decision:
        if legal.show or legal.muck:
            return Decision.show() if legal.show else Decision.muck()
        hole, board = view.hole_cards, view.board
        assert hole is not None
        if view.street is Street.PREFLOP:
            if starting_hand(hole) not in self.HANDS:
                return legal.check_or_fold()
            if legal.wager is not None:
                return wager(legal, 3 * max(legal.bet, view.config.big_blind))
            return passive(legal)
        if _top_pair_or_better(hole, board):
            if legal.wager is not None and legal.bet == 0:
                return wager(legal, 2 * view.pot // 3)
            return passive(legal)
        return legal.check_or_fold()


#: The gauntlet's opponents by name (``py:bench/gauntlet.py:NAME``).
GAUNTLET: dict[str, type[Bot]] = {
    "Maniac": Maniac,
    "CallingStation": CallingStation,
    "PotBettor": PotBettor,
    "MinRaiser": MinRaiser,
    "TightAggressive": TightAggressive,
    "EquityBot": EquityBot,
    "Nit": Nit,
}


def _equities() -> None:
    """Writes :data:`EQUITY_FILE`: each starting hand's exact equity against a
    random hand (``holdem.equity(..., exact=True)``), a hand a line."""
    from holdem.bots.preflop import _example

    table = {}
    for name in STARTING_HANDS:
        table[name] = equity([_example(name), "random"], exact=True).players[0].equity
        print(f"{name} {table[name]:.6f}", file=sys.stderr, flush=True)
    EQUITY_FILE.write_text(json.dumps(table, indent=0) + "\n")


if __name__ == "__main__":
    if sys.argv[1:] != ["equities"]:
        sys.exit("usage: python bench/gauntlet.py equities")
    _equities()
