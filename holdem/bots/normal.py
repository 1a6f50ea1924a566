"""The normal bot: the easy bot's hand reading, with position, stack depth,
pot odds and the board's texture.

Before the flop it plays a range by position: it opens (raises first in)
with a preflop rating (:mod:`holdem.bots.preflop`) of at least 0.61 in the
first third of the seats after the big blind, 0.58 in the middle, 0.54 on the
button and in the cutoff and 0.56 from the small blind (wider with few
players dealt in: heads-up 0.44, three-handed 0.50 on the button); facing a
raise it re-raises with 0.66 and up and calls with the opening rating plus
0.04 (heads-up 0.47, three-handed 0.53) when the price is at most a fifth of
its stack, else folds; facing a re-raise it raises again with 0.77 and up
(jacks and better), calls with 0.66 and folds the rest.  With 15 big blinds or
fewer behind (a tournament's short stack) it pushes or folds: all in with
0.56 and up at 10 to 15 big blinds, 0.53 below 10, 0.50 below 5; it calls
another player's all-in with 0.60 and up.

After the flop it estimates how often its hand is best by the river from
its made hand and its draws: two pair and better 0.85 (better than the
board's own hand, and not the board's pair and one of its own), a top pair 0.70 (0.60
on a wet board: paired, two or more of a suit, or three cards within five
ranks), a lower pair 0.45, a flush draw 0.35 on the flop and 0.19 on the
turn, an open-ended straight draw 0.32 and 0.17 (both together: their sum),
nothing 0.10.  It bets or raises two thirds of the pot when that estimate
is 0.70 or more (a value bet), bets a draw half of the pot a third of the
time (a semi-bluff), heads-up on the flop after raising before it bets half
the pot two times in three (a continuation bet), calls when the estimate
beats the pot odds (the call over the pot after it), and otherwise checks or
folds.

>>> from holdem import Hand, HandConfig
>>> hand = Hand(HandConfig(stacks=(100, 100), button=0, small_blind=1, big_blind=2),
...             hole_cards=["AsAh", "7c2d"])
>>> str(NormalBot(seed=1).decide(hand.view(0), hand.legal_actions()))
'raise to 6'
"""

from __future__ import annotations

from ..actions import ActionKind, Decision, LegalActions, Phase, Street
from ..evaluator import Category, category, evaluate
from ..views import PlayerView
from .base import Bot, board_category, passive, showdown, wager
from .preflop import strength

__all__ = ["NormalBot"]

#: opening ratings by position: early, middle, late (cutoff and button), small blind
OPEN = {"early": 0.61, "middle": 0.58, "late": 0.54, "small blind": 0.56, "big blind": 0.56}
#: with few players dealt in, wider: heads-up the small blind (the button)
#: opens the best 70% of hands; three-handed the button the best 45%
OPEN_FEW = {2: {"small blind": 0.44, "big blind": 0.44}, 3: {"late": 0.50, "small blind": 0.52}}
#: the rating that calls a raise (of at most a fifth of its stack) when few are dealt in
CALL_FEW = {2: 0.47, 3: 0.53}
RERAISE, CALL_MORE = 0.66, 0.04
#: facing a re-raise: raise again with this rating (jacks and better), call
#: with RERAISE
FOUR_BET = 0.77
CBET = 2 / 3  # heads-up on the flop, the raiser before it bets half the pot this often
SHORT = 15  # big blinds behind: push or fold
PUSH = ((5, 0.50), (10, 0.53), (16, 0.56))  # below each depth, push with this rating
CALL_ALL_IN = 0.60
VALUE, DRAW_BET = 0.70, 1 / 3


class NormalBot(Bot):
    """Ranges by position, push-or-fold when short, pot odds after the flop
    (the module's notes)."""

    def decide(self, view: PlayerView, legal: LegalActions) -> Decision:
        if view.phase is Phase.SHOWDOWN:
            return showdown(legal)
        me = view.config.seat_numbers.index(view.seat)
        behind = view.stacks[me]
        to_call = 0 if legal.call is None else legal.call - view.bets[me]
        if not view.board:
            return self._preflop(view, legal, me, behind, to_call)
        return self._postflop(view, legal, me, to_call)

    # ------------------------------------------------------------ preflop

    def _preflop(
        self, view: PlayerView, legal: LegalActions, me: int, behind: int, to_call: int
    ) -> Decision:
        assert view.hole_cards is not None
        rating = strength(view.hole_cards)
        big_blind = view.config.big_blind
        depth = (behind + view.bets[me]) / big_blind
        facing_all_in = any(s == "all_in" for s in view.statuses) and to_call > 0
        if facing_all_in:
            return passive(legal) if rating >= CALL_ALL_IN else legal.check_or_fold()
        if depth <= SHORT:
            push = next(r for limit, r in PUSH if depth < limit)  # (depth < 16 here)
            if rating >= push and legal.all_in is not None:
                return Decision.all_in()
            return legal.check_or_fold()
        dealt = len(view.config.stacks)
        first_in = opening(view, me)
        raised = view.current_bet > big_blind
        if not raised:
            if rating >= first_in and legal.wager is not None:
                return wager(legal, 3 * big_blind + view.current_bet - big_blind)
            return legal.check_or_fold() if to_call else passive(legal)
        if _raises(view) >= 2:  # a re-raise to face: its own narrower ranges
            if rating >= FOUR_BET and legal.wager is not None:
                return wager(legal, 3 * view.current_bet)
            return passive(legal) if rating >= RERAISE else legal.check_or_fold()
        if rating >= RERAISE and legal.wager is not None:
            return wager(legal, 3 * view.current_bet)
        calling = CALL_FEW.get(dealt, first_in + CALL_MORE)
        if rating >= calling and 5 * to_call <= behind:
            return passive(legal)
        return legal.check_or_fold()

    # ------------------------------------------------------------ postflop

    def _postflop(self, view: PlayerView, legal: LegalActions, me: int, to_call: int) -> Decision:
        estimate, draw = self.estimate(view)
        pot = view.pot
        if estimate >= VALUE and legal.wager is not None:
            return wager(legal, view.bets[me] + to_call + (2 * (pot + to_call)) // 3)
        if to_call == 0:
            if draw and legal.wager is not None and self.rng.random() < DRAW_BET:
                return wager(legal, view.bets[me] + (pot + 1) // 2)
            if _continues(view, me) and legal.wager is not None and self.rng.random() < CBET:
                return wager(legal, view.bets[me] + (pot + 1) // 2)
            return passive(legal)
        price = to_call / (pot + to_call)
        return passive(legal) if estimate > price else Decision.fold()

    def estimate(self, view: PlayerView) -> tuple[float, bool]:
        """How often its hand is best by the river (a rough figure), and
        whether it is a draw (the module's notes)."""
        hole, board = view.hole_cards, view.board
        assert hole is not None
        cards = [*hole, *board]
        made = category(evaluate(cards))  # (after the flop: 5 cards or more)
        board_ranks = [c // 4 for c in board]
        paired_board = len(set(board_ranks)) < len(board_ranks)
        if (
            made >= Category.TWO_PAIR
            and made > board_category(board)  # (the board's own hand is anybody's)
            and not (made == Category.TWO_PAIR and paired_board)
        ):
            return 0.85, False
        hole_ranks = [c // 4 for c in hole]
        pair = next((r for r in hole_ranks if r in board_ranks), None)
        if hole_ranks[0] == hole_ranks[1] and hole_ranks[0] > max(board_ranks):
            pair = hole_ranks[0]  # an overpair
        drawing = len(board) < 5
        flush = drawing and _flush_draw(hole, board)
        straight = drawing and _open_ended(hole_ranks, board_ranks)
        turn = len(board) == 4
        draw_value = (0.19 if turn else 0.35) * flush + (0.17 if turn else 0.32) * straight
        if pair is not None:
            top = pair >= max(board_ranks)
            value = (0.60 if _wet(board) else 0.70) if top else 0.45
            return max(value, draw_value), bool(flush or straight)
        if hole_ranks[0] == hole_ranks[1]:  # an underpair
            return max(0.35, draw_value), bool(flush or straight)
        return max(0.10, draw_value), bool(flush or straight)


def opening(view: PlayerView, me: int) -> float:
    """The rating that opens (raises first in) from position ``me``, by the
    position and how many players are dealt in."""
    position = _position(view, me)
    return OPEN_FEW.get(len(view.config.stacks), {}).get(position, OPEN[position])


def _position(view: PlayerView, me: int) -> str:
    """Where the bot sits for the first round: ``early``, ``middle``,
    ``late`` (cutoff and button), ``small blind`` or ``big blind``."""
    config = view.config
    n = len(config.stacks)
    if me == config.big_blind_seat:
        return "big blind"
    if me == config.small_blind_seat:
        return "small blind"
    if me == config.button or (n > 3 and me == (config.button - 1) % n):
        return "late"
    first = (config.big_blind_seat + 1) % n
    order = (me - first) % n  # 0: first to act
    others = max(1, n - 4)  # the seats before the cutoff
    return "early" if order < (others + 2) // 3 else "middle"


def _raises(view: PlayerView) -> int:
    """The raises before the flop so far (the big blind is not one)."""
    big_blind = view.config.big_blind
    return sum(
        1
        for action in view.log
        if action.street is Street.PREFLOP
        and action.kind in (ActionKind.BET, ActionKind.RAISE)
        and action.to > big_blind
    )


def _continues(view: PlayerView, me: int) -> bool:
    """A continuation bet's spot: the flop, one opponent left, and this player
    the last to raise before it."""
    if len(view.board) != 3 or sum(s in ("active", "all_in") for s in view.statuses) != 2:
        return False
    seat = view.config.seat_numbers[me]
    raiser = None
    for action in view.log:
        if action.street is not Street.PREFLOP:
            break
        if action.kind in (ActionKind.BET, ActionKind.RAISE):
            raiser = action.seat
    return raiser == seat


def _flush_draw(hole: tuple[int, ...], board: tuple[int, ...]) -> bool:
    """Four of a suit, one of them its own (not a made flush)."""
    suits = [c % 4 for c in (*hole, *board)]
    return any(suits.count(s) == 4 and s in (c % 4 for c in hole) for s in set(suits))


def _open_ended(hole: list[int], board: list[int]) -> bool:
    """Four ranks in a row with room at both ends, one of them its own."""
    ranks = set(hole) | set(board)
    for low in range(9):  # 4 in a row from low, an open card below and above (the
        # ace below 2-3-4-5)
        run = set(range(low, low + 4))
        if run <= ranks and run & set(hole) and low - 1 not in ranks and low + 4 not in ranks:
            return True
    return False


def _wet(board: tuple[int, ...]) -> bool:
    """Paired, two or more of a suit, or three cards within five ranks."""
    ranks = sorted({c // 4 for c in board})
    suits = [c % 4 for c in board]
    if len(ranks) < len(board) or max(suits.count(s) for s in set(suits)) >= 2:
        return True
    return any(ranks[i + 2] - ranks[i] <= 4 for i in range(len(ranks) - 2))
