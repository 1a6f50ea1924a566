"""The hard bot: its equity against ranges narrowed from the public actions,
decisions by expected value, bluffs and sizes in measure, within a time budget.

For every other player still in the hand it keeps a range of hole cards
(a :class:`~holdem.ranges.Range`) narrowed by what they did in the public
log: before the flop a player who raised holds the best 20% of starting
hands (a re-raiser the best 7%), one who called a raise the best 35%, one
who limped or checked the best 70% but the best 5% (who would have
raised); after the flop each bet or raise keeps the hands that make a pair
or better with the board at full weight and the others at a third (bluffs
and draws), each call keeps them at full weight and the others at a half.
It then estimates its equity against each of them by Monte Carlo
(:func:`holdem.equity`, the C equity core; the deals sampled from that range,
never from the cards it cannot see) and against several takes the product
(the chance to beat each, as if they were apart). The work is bounded by its
time budget (default 50 ms a decision) without a clock, so that the same
seed gives the same decisions anywhere: 30,000 deals against one range for
each second of the budget (1,500 at 50 ms, between 300 and 20,000), and
against at most two players, the others counting as the mean of those.

Before the flop it opens by the normal bot's chart (by position and the
players dealt in); facing a raise it re-raises with an equity of 0.60 or
more against the raisers' ranges, calls when the call's expected value is
more than 5% of the pot, and folds otherwise.  After the flop, with ``p`` the
pot and ``c`` the call:

- it raises or bets for value when its equity is 0.62 or more (against two
  or more players, 0.62 minus 0.04 for each beyond the first is not lower
  than 0.50), to half the pot, two thirds or the pot, at random;
- it calls when the call's expected value, ``equity * (p + c) - c``, is
  positive, else it folds (or checks when that is free);
- heads-up, when it could check, it bets half the pot when that earns more
  than checking: the other player's hands with nothing of their own on the
  board fold (a share ``f`` of the range), the rest call (its equity
  against them ``e``), so a bet ``b`` earns ``f * p + (1 - f) * (e * (p + 2b)
  - b)`` against ``equity * p`` for a check;
- it bluffs in measure: when it could check with an equity under 0.30 it
  bets two thirds of the pot 15% of the time (10% on the river), and it
  raises as a bluff 5% of the time when it would fold.

Before the flop, at 12 big blinds or fewer and with nobody in before it (no
call and no raise), it pushes all in when its equity against the callers' range (the best 25%)
is 0.48 or more.

>>> from holdem import Hand, HandConfig
>>> hand = Hand(HandConfig(stacks=(100, 100), button=0, small_blind=1, big_blind=2),
...             hole_cards=["AsAh", "7c2d"])
>>> HardBot(seed=1).decide(hand.view(0), hand.legal_actions()).kind.value
'raise'
"""

from __future__ import annotations

import itertools

from ..actions import ActionKind, Decision, LegalActions, Phase, Street
from ..equities import equity
from ..evaluator import evaluate_many
from ..ranges import Range
from ..views import PlayerView
from .base import Bot, board_category, passive, showdown, wager
from .normal import opening
from .preflop import strength

__all__ = ["HardBot"]

VALUE = 0.62
CROWD = 0.04
BLUFF, RIVER_BLUFF, BLUFF_RAISE = 0.15, 0.10, 0.05
PUSH_DEPTH, PUSH_EQUITY = 12, 0.48
#: facing a raise before the flop: re-raise with this equity against the
#: raisers, call when the call's value is above this share of the pot
PRE_RERAISE, PRE_MARGIN = 0.60, 0.05
MAX_TRIALS, MIN_TRIALS = 20_000, 300
#: deals against one range for each second of the budget, and the most
#: players it deals against (fixed, not timed: the same seed must give the
#: same decisions on any machine)
TRIALS_A_SECOND, MOST_READ = 30_000, 2
_BETS = (ActionKind.BET, ActionKind.RAISE)
_IN = (ActionKind.CALL, ActionKind.BET, ActionKind.RAISE)
_READ = (ActionKind.BET, ActionKind.RAISE, ActionKind.CALL, ActionKind.CHECK)
_PRE = Street.PREFLOP
_ANY = Range.parse("random")


def _ranked_combos() -> list[tuple[int, int]]:
    combos = list(itertools.combinations(range(52), 2))
    combos.sort(key=lambda c: -strength(c))
    return [(max(c), min(c)) for c in combos]


#: every two cards, the best starting hands first
RANKED = _ranked_combos()


def top(fraction: float, skip: float = 0.0) -> dict[tuple[int, int], float]:
    """The best ``fraction`` of starting hands (by combos), less the best
    ``skip``; each cut at the end of a starting hand, so that a hand is in
    with all its suits or not at all."""
    return dict.fromkeys(RANKED[_cut(skip) : _cut(fraction)], 1.0)


def _cut(fraction: float) -> int:
    """The index in :data:`RANKED` of the end of the starting hand the
    ``fraction`` of all combos falls in."""
    end = int(fraction * len(RANKED))
    if 0 < end < len(RANKED):
        last = strength(RANKED[end - 1])
        while end < len(RANKED) and strength(RANKED[end]) == last:
            end += 1
    return end


class HardBot(Bot):
    """Equity against narrowed ranges, by expected value (the module's notes).

    :param budget: the seconds a decision may take (default 0.05).
    """

    def __init__(self, seed: int | None = None, budget: float = 0.05) -> None:
        super().__init__(seed)
        self.budget = budget
        # the ranges read this hand, by position and what they are read from
        self._hand: object = None
        self._hole: tuple[int, ...] | None = None
        self._read: dict[tuple[object, ...], Range] = {}
        self._split: dict[tuple[object, ...], tuple[float, Range | None]] = {}

    def decide(self, view: PlayerView, legal: LegalActions) -> Decision:
        if view.phase is Phase.SHOWDOWN:
            return showdown(legal)
        me = view.config.seat_numbers.index(view.seat)
        to_call = 0 if legal.call is None else legal.call - view.bets[me]
        pot = view.pot
        others = [p for p, s in enumerate(view.statuses) if p != me and s in ("active", "all_in")]
        big_blind = view.config.big_blind
        if not view.board and view.stacks[me] + view.bets[me] <= PUSH_DEPTH * big_blind:
            nobody_in = not any(  # (no call nor raise before it: limpers are in too)
                a.seat is not None and a.kind in _IN for a in view.log
            )
            if nobody_in and legal.all_in is not None:
                return Decision.all_in() if self.push(view) else legal.check_or_fold()
        if not view.board:
            return self._preflop(view, legal, me, to_call, others)
        eq = self.equity(view, others)
        value = max(0.50, VALUE - CROWD * (len(others) - 1))
        if eq >= value and legal.wager is not None:
            size = self.rng.choice((1 / 2, 2 / 3, 1))
            return wager(legal, view.bets[me] + to_call + int(size * (pot + to_call)))
        if to_call == 0:
            if (
                len(others) == 1
                and legal.wager is not None
                and self._pays_to_bet(view, others[0], eq)
            ):
                return wager(legal, view.bets[me] + (pot + 1) // 2)
            bluff = RIVER_BLUFF if view.street is Street.RIVER else BLUFF
            if eq < 0.30 and legal.wager is not None and self.rng.random() < bluff:
                return wager(legal, view.bets[me] + (2 * pot) // 3)
            return passive(legal)
        if eq * (pot + to_call) - to_call > 0:
            return passive(legal)
        if legal.wager is not None and self.rng.random() < BLUFF_RAISE:
            return wager(legal, view.bets[me] + to_call + pot)
        return legal.check_or_fold()

    def _preflop(
        self, view: PlayerView, legal: LegalActions, me: int, to_call: int, others: list[int]
    ) -> Decision:
        """Before the flop: it opens by position and the players dealt in (the
        normal bot's chart); facing a raise, its equity against the raisers'
        ranges decides: re-raise, call when the call pays with a margin for
        playing the rest of the hand, or fold."""
        hole = view.hole_cards
        assert hole is not None
        big_blind = view.config.big_blind
        if view.current_bet <= big_blind:  # nobody raised
            if strength(hole) >= opening(view, me) and legal.wager is not None:
                return wager(legal, 3 * big_blind + view.current_bet - big_blind)
            return legal.check_or_fold() if to_call else passive(legal)
        raisers = [p for p in others if view.bets[p] > big_blind] or others
        eq = self.equity(view, raisers)
        if eq >= PRE_RERAISE and legal.wager is not None:
            return wager(legal, 3 * view.current_bet)
        pot = view.pot
        if eq * (pot + to_call) - to_call > PRE_MARGIN * pot:
            return passive(legal)
        return legal.check_or_fold()

    def _pays_to_bet(self, view: PlayerView, position: int, eq: float) -> bool:
        """Whether betting half the pot against one player earns more than
        checking: their hands with nothing of their own fold, the others call
        (its equity against those), and a check wins its equity of the pot."""
        air, calling = self.split(view, position)
        if calling is None:
            return True  # (nothing they hold calls)
        pot = view.pot
        bet = (pot + 1) // 2
        hole = view.hole_cards
        assert hole is not None
        trials = max(MIN_TRIALS, self._trials() // 2)
        against = equity([tuple(hole), calling], board=tuple(view.board), trials=trials,
                         seed=self.rng.randrange(2**31)).players[0].equity  # fmt: skip
        betting = air * pot + (1 - air) * (against * (pot + 2 * bet) - bet)
        return betting > eq * pot

    def split(self, view: PlayerView, position: int) -> tuple[float, Range | None]:
        """The share of player ``position``'s range with nothing of its own
        on this board (who folds to a bet), and the rest of it (who calls)."""
        read = self.range_of(view, position)
        key = ("split", position, len(view.log), view.board)
        cached = self._split.get(key)
        if cached is not None:
            return cached
        items = read.items()
        made = _made([c for c, _ in items], list(view.board))
        total = sum(w for _, w in items)
        kept = {c: w for (c, w), m in zip(items, made, strict=True) if m}
        air = 1 - sum(kept.values()) / total if total else 0.0
        result = (air, Range(kept) if kept else None)
        self._split[key] = result
        return result

    def _trials(self) -> int:
        return int(min(MAX_TRIALS, max(MIN_TRIALS, self.budget * TRIALS_A_SECOND)))

    def equity(self, view: PlayerView, others: list[int]) -> float:
        """Its equity against the ranges of ``others`` (positions): against
        each by Monte Carlo, and against several the product of those (the
        chance to beat each, as if they were apart)."""
        hole = view.hole_cards
        assert hole is not None
        if not others:
            return 1.0
        trials = self._trials()
        product = 1.0
        for done, position in enumerate(others):
            if done == MOST_READ:  # the rest as the mean of those done
                product *= product ** ((len(others) - done) / done)
                break
            result = equity(
                [tuple(hole), self.range_of(view, position)],
                board=tuple(view.board),
                trials=trials,
                seed=self.rng.randrange(2**31),
            )
            product *= result.players[0].equity
        return product

    def push(self, view: PlayerView) -> bool:
        """Whether its equity against the callers of a push (the best 25% of
        starting hands) is at least 0.48."""
        hole = view.hole_cards
        assert hole is not None
        result = equity([tuple(hole), _CALLERS], trials=2_000, seed=self.rng.randrange(2**31))
        return result.players[0].equity >= PUSH_EQUITY

    def range_of(self, view: PlayerView, position: int) -> Range:
        """The hands player ``position`` may hold after what the log shows they
        did (read again only when they acted or a card came since)."""
        # a new hand: another configuration, or the same one (a simulation deals
        # hand after hand on one) with other hole cards
        if view.config is not self._hand or view.hole_cards != self._hole:
            self._hand, self._hole, self._read = view.config, view.hole_cards, {}
            self._split = {}
        seat = view.config.seat_numbers[position]
        # what the reading depends on: the betting before the flop, the board,
        # and what they did after it
        key = (
            position,
            view.board,
            tuple(
                [(a.seat, a.kind, a.to) for a in view.log if a.kind in _READ and a.street is _PRE]
            ),
            tuple([(a.kind, a.street) for a in view.log if a.seat == seat and a.kind in _READ]),
        )
        read = self._read.get(key)
        if read is None:
            known: set[int] = {*view.hole_cards, *view.board} if view.hole_cards else set()
            weights = {
                c: w
                for c, w in self._read_range(view, seat).items()
                if c[0] not in known and c[1] not in known
            }
            read = self._read[key] = Range(weights) if weights else _ANY.without(known)
        return read

    def _read_range(self, view: PlayerView, seat: int) -> dict[tuple[int, int], float]:
        big_blind = view.config.big_blind
        raises = calls = 0
        limped = raised = False  # (raised: somebody raised before this action)
        for action in view.log:
            if action.street is not Street.PREFLOP:
                break
            if action.kind in _BETS and action.to > big_blind:
                if action.seat == seat:
                    raises += 2 if raised else 1  # (a re-raise reads as two)
                    calls = 0
                raised = True
            elif action.kind is ActionKind.CALL and action.seat == seat:
                if raised:
                    calls += 1
                else:
                    limped = True
            elif action.kind is ActionKind.CHECK and action.seat == seat:
                limped = True
        if raises >= 2:
            weights = top(0.07)
        elif raises == 1:
            weights = top(0.20)
        elif calls:
            weights = top(0.35)
        elif limped:
            weights = top(0.70, skip=0.05)
        else:
            weights = top(1.0)
        board: list[int] = []
        for action in view.log:
            if action.kind is ActionKind.DEAL_BOARD:
                board.extend(action.cards)
            elif (
                action.seat == seat
                and len(board) >= 3
                and (action.kind in _BETS or action.kind is ActionKind.CALL)
            ):
                low = 1 / 3 if action.kind in _BETS else 1 / 2
                dealt = set(board)
                combos = [c for c in weights if c[0] not in dealt and c[1] not in dealt]
                made = _made(combos, board)
                weights = {
                    c: weights[c] * (1.0 if m else low) for c, m in zip(combos, made, strict=True)
                }
        return weights


def _made(combos: list[tuple[int, int]], board: list[int]) -> list[bool]:
    """For each of ``combos``, whether it makes a better hand with the board
    than the board alone (:func:`~holdem.bots.base.made_by_hole`), valued in
    one call into C (a value's category is its top bits)."""
    if not combos:
        return []
    tail = bytes(board)
    values = evaluate_many(b"".join([bytes(c) + tail for c in combos]), 2 + len(board), check=False)
    better = (int(board_category(board)) + 1) << 12
    return [value >= better for value in values]


#: who calls a push: the best 25% of starting hands
_CALLERS = Range(top(0.25))
