"""The hard bot: it models the other players from what it has seen of them,
narrows their ranges by those figures and their actions, and decides by
expected value against those ranges, within a time budget.

It keeps a :class:`~holdem.bots.opponents.Book` of every player it has
played with (bounded: the latest 64 players, 32 shown hands each): how often
they put chips in before the flop (VPIP), raise there (PFR), go all in
there, re-raise, bet or raise after the flop (aggression), and fold facing
a bet on each street, and the hands they showed.  It reads them from the
public log of its views and, where the caller tells it, from the end of each
hand (:meth:`~holdem.bots.Bot.observe`): never a card it cannot see.  Each
figure starts from a guess (:data:`~holdem.bots.opponents.PRIORS`) that the
hands seen outweigh.

A player's range this hand (a weight for each two cards, the best starting
hands first by :data:`RANKED`):

- before the flop, one who went all in holds the best share of hands they
  go all in with (a maniac: any hand); one who raised, the best share they
  raise (their PFR; a re-raise, their re-raise share); one who called a
  raise, their VPIP less the best hands they would have re-raised; one who
  limped or checked, their VPIP less the hands they raise;
- after the flop each bet or raise keeps the hands that make a pair or
  better of their own with the board whole, and the others (air, draws) at
  a weight that grows with how often they bet (a player who bets everything
  keeps their whole range; a raise squares it); each call keeps the air at
  a weight that falls with how often they fold (a calling station keeps it
  all).

Its equity is dealt against all those ranges at once (by Monte Carlo in C,
:func:`holdem.equities.share`), 30,000 deals for each second of its budget
(1,500 at the default 50 ms; no clock read, so that the same seed gives
the same decisions anywhere).  Then, with ``p`` the pot and ``c`` the call:

- before the flop, with nobody raising, it raises (three big blinds) when
  that earns more than folding or checking: the players behind fold (their
  fold share), re-raise (their re-raise share; all in for one who shoves)
  or call (its equity against their VPIP range, of which it takes 85%: the
  hand is still to play); so it steals against folders and folds hands
  that do not stand an all in against a maniac;
- facing a raise it folds, calls (``0.85 * equity * (p + c) - c``) or
  re-raises (folds of the raisers, and its equity against what goes on),
  the best of the three; facing an all in it calls when
  ``equity * (p + c) > c``;
- after the flop, facing a bet, it raises for value with an equity of 0.62
  or more (less 0.04 a player past the first, not under 0.50), calls when
  ``equity * (p + c) > c`` (lighter against a player who bets everything:
  their range is wider), else folds;
- with no bet to call it compares checking (``equity * p``) with betting a
  third, two thirds or the pot: each player folds the air of their range as
  often as they fold to bets, and calls with the rest (``f * p + (1 - f) *
  (e * (p + 2b) - b)``, ``e`` its equity against the callers): so it bets
  thin and big against a calling station, and checks what a bet would only
  fold out;
- a bet whose worth is its folds (an equity under a half against the
  callers), and a raise as a bluff, are made at a frequency set by the
  board and the size, ``2 * (f - b / (p + b)) / (1 - b / (p + b))`` (at
  most 1): never against a player who does not fold, more on boards that
  missed the other player's range and with a smaller bet.

At 12 big blinds or fewer with nobody in before it, it pushes all in when
its equity against the callers' range (the best 25%) is 0.48 or more.

>>> from holdem import Hand, HandConfig
>>> hand = Hand(HandConfig(stacks=(100, 100), button=0, small_blind=1, big_blind=2),
...             hole_cards=["AsAh", "7c2d"])
>>> HardBot(seed=1).decide(hand.view(0), hand.legal_actions()).kind.value
'raise'
"""

from __future__ import annotations

import functools
import itertools

from ..actions import ActionKind, Decision, LegalActions, Phase, Street
from ..equities import Packed, share
from ..evaluator import evaluate_many
from ..views import PlayerView
from .base import Bot, board_category, passive, showdown, wager
from .opponents import Book
from .preflop import strength

__all__ = ["RANKED", "HardBot", "top"]

VALUE = 0.62
CROWD = 0.04
PUSH_DEPTH, PUSH_EQUITY = 12, 0.48
#: facing a raise before the flop: re-raise with this equity against the raisers
PRE_RERAISE = 0.60
#: the share of its equity a hand still to play is worth (position, what
#: comes later): before the flop, for a call or a raise that is not all in
REALIZE = 0.85
#: a player who goes all in this often before the flop re-raises all in
SHOVER = 0.5
#: the narrowest range it reads (a share of the starting hands)
MIN_WIDTH = 0.03
#: air kept at least, in a range that bet (a third of it: bluffs and draws)
#: and in one that called
MIN_AIR_BET, MIN_AIR_CALL = 0.08, 0.15
#: made hands kept at least in a range that checked (less the more the
#: player bets)
MIN_MADE_CHECK = 0.3
#: how a player's folds to bets turn into folding their air (folds of a
#: share of 0.6 or more: all of it)
FOLD_READ = 1.6
#: the bets it weighs with nobody betting, as shares of the pot
SIZES = (1 / 3, 2 / 3, 1.0)
#: the raises it weighs facing a bet, as shares of the pot after its call
RAISES = (1 / 2, 1.0)
MAX_TRIALS, MIN_TRIALS = 20_000, 300
#: deals against the ranges for each second of the budget (fixed, not timed:
#: the same seed must give the same decisions on any machine)
TRIALS_A_SECOND = 30_000
_BETS = (ActionKind.BET, ActionKind.RAISE)
_IN = (ActionKind.CALL, ActionKind.BET, ActionKind.RAISE)
_READ = (ActionKind.BET, ActionKind.RAISE, ActionKind.CALL, ActionKind.CHECK)
_PRE = Street.PREFLOP


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
    """Opponent models, ranges and expected value (the module's notes).

    :param budget: the seconds a decision may take (default 0.05).
    """

    def __init__(self, seed: int | None = None, budget: float = 0.05) -> None:
        super().__init__(seed)
        self.budget = budget
        #: what it has seen of the other players
        self.book = Book()
        # the ranges read this hand, by position and what they are read from
        self._hand: object = None
        self._hole: tuple[int, ...] | None = None
        self._read: dict[tuple[object, ...], Read] = {}

    def observe(self, view: PlayerView) -> None:
        self.book.read(view, over=True)

    def decide(self, view: PlayerView, legal: LegalActions) -> Decision:
        if view.phase is Phase.SHOWDOWN:
            return showdown(legal)
        self.book.read(view)
        me = view.config.seat_numbers.index(view.seat)
        to_call = 0 if legal.call is None else legal.call - view.bets[me]
        others = [p for p, s in enumerate(view.statuses) if p != me and s in ("active", "all_in")]
        big_blind = view.config.big_blind
        if not view.board:
            if view.stacks[me] + view.bets[me] <= PUSH_DEPTH * big_blind:
                nobody_in = not any(  # (no call nor raise before it: limpers are in too)
                    a.seat is not None and a.kind in _IN for a in view.log
                )
                if nobody_in and legal.all_in is not None:
                    return Decision.all_in() if self.push(view) else legal.check_or_fold()
            return self._preflop(view, legal, me, to_call, others)
        return self._postflop(view, legal, me, to_call, others)

    # ------------------------------------------------------------ preflop

    def _preflop(
        self, view: PlayerView, legal: LegalActions, me: int, to_call: int, others: list[int]
    ) -> Decision:
        """Before the flop, by expected value (the module's notes)."""
        big_blind = view.config.big_blind
        pot, mine, behind = view.pot, view.bets[me], view.stacks[me]
        if to_call and (to_call >= behind or any(view.statuses[p] == "all_in" for p in others)):
            # an all in to call: nothing more to play. Against the players in it
            # (all in, or in for more than the big blind) and those still to act
            # who go all in half the time or more (they come too, with chips);
            # the others fold to it
            coming = [
                p
                for p in others
                if view.bets[p] <= big_blind
                and view.statuses[p] == "active"
                and self.book.stats(view, p).share("shove") >= SHOVER
            ]
            in_it = [p for p in others if view.bets[p] > big_blind or view.statuses[p] == "all_in"]
            eq = self.equity(view, in_it + coming or others)
            more = sum(min(view.stacks[p], view.current_bet - view.bets[p]) for p in coming)
            calls = eq * (pot + more + to_call) > to_call
            return passive(legal) if calls else legal.check_or_fold()
        if view.current_bet <= big_blind:  # nobody raised
            if legal.wager is None:
                return passive(legal)
            to = 3 * big_blind + view.current_bet - big_blind
            opening = self._open_value(view, me, others, to)
            eq = self.equity(view, others)
            if to_call == 0:
                rest = REALIZE * eq * pot  # (checking)
            else:  # limping: it folds when somebody raises
                calm = 1.0
                for p in others:
                    calm *= 1 - self.book.stats(view, p).share("pfr")
                rest = max(0.0, calm * (REALIZE * eq * (pot + to_call) - to_call)
                           - (1 - calm) * to_call)  # fmt: skip
            if opening > rest:
                return wager(legal, to)
            if to_call and rest > 0:
                return passive(legal)
            return legal.check_or_fold() if to_call else passive(legal)
        raisers = [p for p in others if view.bets[p] > big_blind] or others
        eq = self.equity(view, others)
        calling = REALIZE * eq * (pot + to_call) - to_call
        best, choice = 0.0, legal.check_or_fold()
        if calling > best:
            best, choice = calling, passive(legal)
        if legal.wager is not None:
            to = 3 * view.current_bet
            folds = 1.0
            for p in raisers:
                folds *= self.book.stats(view, p).share("fold_back")
            going_on = self._equity_against(view, [self._continuing(view, p) for p in raisers])
            cost = min(to, behind + mine) - mine
            raised = cost + sum(min(to, view.bets[p] + view.stacks[p]) - view.bets[p]
                                for p in raisers)  # fmt: skip
            reraising = folds * pot + (1 - folds) * (REALIZE * going_on * (pot + raised) - cost)
            if eq >= PRE_RERAISE:
                return wager(legal, to)
            if reraising > best and (
                going_on >= 0.5 or self.rng.random() < _bluffs(folds, cost, pot)
            ):  # (for its folds: in measure, as after the flop)
                return wager(legal, to)
        return choice

    def _open_value(self, view: PlayerView, me: int, others: list[int], to: int) -> float:
        """What raising to ``to`` with nobody raising before earns: the others
        fold, re-raise or call, each as often as they have (the module's notes)."""
        pot, mine, behind = view.pot, view.bets[me], view.stacks[me]
        cost = min(to, behind + mine) - mine
        folds, calm = 1.0, 1.0
        loosest, reraiser, reraise_top = others[0], others[0], -1.0
        for p in others:
            stats = self.book.stats(view, p)
            fold = stats.folds(_PRE)
            folds *= fold
            reraise = min(stats.share("reraise"), 1 - fold)
            calm *= 1 - reraise
            if reraise > reraise_top:
                reraiser, reraise_top = p, reraise
            if stats.share("vpip") > self.book.stats(view, loosest).share("vpip"):
                loosest = p
        if folds >= 1.0:
            return pot
        reraises = min(1.0, (1 - calm) / (1 - folds))
        # called: its equity against the loosest player's calls, the hand to play
        caller = self.book.stats(view, loosest)
        width = max(caller.share("vpip") - caller.share("reraise") / 2, MIN_WIDTH)
        against = self._equity_against(view, [self._packed(view, width)])
        called_pot = pot + cost + (min(to, view.bets[loosest] + view.stacks[loosest])
                                   - view.bets[loosest])  # fmt: skip
        called = REALIZE * against * called_pot - cost
        # re-raised: all in by a player who shoves, else three times; it calls or folds
        stats = self.book.stats(view, reraiser)
        stack = view.bets[reraiser] + view.stacks[reraiser]
        shover = stats.share("shove") >= SHOVER
        reraise_to = stack if shover else 3 * to
        reraise_to = min(reraise_to, stack, behind + mine)
        width = max(stats.share("shove") if shover else stats.share("reraise"), MIN_WIDTH)
        versus = self._equity_against(view, [self._packed(view, width)])
        final = pot + (reraise_to - mine) + (reraise_to - view.bets[reraiser])
        share = versus if shover or reraise_to >= behind + mine else REALIZE * versus
        reraised = max(-cost, share * final - (reraise_to - mine))
        return folds * pot + (1 - folds) * (reraises * reraised + (1 - reraises) * called)

    # ----------------------------------------------------------- postflop

    def _postflop(
        self, view: PlayerView, legal: LegalActions, me: int, to_call: int, others: list[int]
    ) -> Decision:
        """After the flop, by expected value (the module's notes)."""
        pot = view.pot
        eq = self.equity(view, others)
        value = max(0.50, VALUE - CROWD * (len(others) - 1))
        if to_call:
            best, choice = 0.0, legal.check_or_fold()
            calling = eq * (pot + to_call) - to_call
            if calling > 0:
                best, choice = calling, passive(legal)
            if legal.wager is None or not any(view.statuses[p] == "active" for p in others):
                return choice
            if eq >= value:
                size = self.rng.choice((1 / 2, 2 / 3, 1))
                return wager(legal, view.bets[me] + to_call + int(size * (pot + to_call)))
            # a raise: each player folds their air as often as they fold to bets
            folds, against = self._folds(view, others)
            mine = view.bets[me]
            for size in RAISES:
                raise_to = min(view.current_bet + int(size * (pot + to_call)), legal.max_to or 0)
                if legal.min_to is None or raise_to < legal.min_to:
                    continue
                cost = raise_to - mine
                called = pot + cost + (raise_to - view.current_bet)
                raising = folds * pot + (1 - folds) * (against * called - cost)
                if raising > best and (
                    against >= 0.5 or self.rng.random() < _bluffs(folds, cost, pot)
                ):
                    return wager(legal, raise_to)
            return choice
        if legal.wager is None or not any(view.statuses[p] == "active" for p in others):
            return passive(legal)
        # what a bet earns: each player folds their air as often as they fold to
        # bets; the rest call (its equity against them)
        folds, against = self._folds(view, others)
        checking = eq * pot
        best, best_bet = checking, 0
        for size in SIZES:
            bet = min(max(1, int(size * pot)), view.stacks[me])
            betting = folds * pot + (1 - folds) * (against * (pot + 2 * bet) - bet)
            if betting > best:
                best, best_bet = betting, bet
        if not best_bet:
            return passive(legal)
        if against < 0.5 and self.rng.random() >= _bluffs(folds, best_bet, pot):
            return passive(legal)  # (a bet for its folds, in measure)
        return wager(legal, view.bets[me] + best_bet)

    def _folds(self, view: PlayerView, others: list[int]) -> tuple[float, float]:
        """How often all of ``others`` fold to a bet or raise now (each folds
        their air as often as they fold to bets), and its equity against
        the hands that call."""
        folds = 1.0
        callers = []
        for p in others:
            air, calling = self.split(view, p)
            folds *= air * min(1.0, FOLD_READ * self.book.stats(view, p).folds(view.street))
            callers.append(calling)
        return folds, self._equity_against(view, callers)

    # ------------------------------------------------------------- ranges

    def split(self, view: PlayerView, position: int) -> tuple[float, Packed]:
        """The share of player ``position``'s range with nothing of its own on
        this board (who may fold to a bet), and the range that calls a bet:
        the made hands whole, the air as often as the player does not fold."""
        read = self.range_of(view, position)
        if read.split is None:
            stats = self.book.stats(view, position)
            keep = max(0.0, 1 - FOLD_READ * stats.folds(view.street))
            items = list(read.weights.items())
            made = _made([c for c, _ in items], list(view.board))
            total = sum(w for _, w in items)
            calls = {c: w if m else w * keep for (c, w), m in zip(items, made, strict=True)}
            calls = {c: w for c, w in calls.items() if w > 0}
            held = sum(w for (_, w), m in zip(items, made, strict=True) if m)
            air = 1 - held / total if total else 0.0
            read.split = (air, Packed(calls) if calls else read.packed)
        return read.split

    def range_of(self, view: PlayerView, position: int) -> Read:
        """Player ``position``'s range after what the log shows they did, by
        what the book says of them (read again when they acted or a card came)."""
        self._this_hand(view)
        seat = view.config.seat_numbers[position]
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
            width, skip = self._width(view, position, seat)
            read = self._top(view, width, skip)
            if view.board:  # (narrowed by what they did after the flop)
                weights = self._narrow(view, position, seat, read.weights)
                if not weights:  # (nothing they could hold: any two cards still out)
                    weights = self._narrow(view, position, seat, self._top(view, 1.0).weights)
                read = Read(weights)
            self._read[key] = read
        return read

    def _top(self, view: PlayerView, fraction: float, skip: float = 0.0) -> Read:
        """The best ``fraction`` of starting hands less the best ``skip``
        (:func:`top`): its own cards in it are never dealt (the equity's
        deals draw again), and after the flop they are taken out."""
        return _top_read(_cut(skip), _cut(fraction))

    def _width(self, view: PlayerView, position: int, seat: int) -> tuple[float, float]:
        """The share of starting hands player ``position`` plays as they
        played before the flop, and the best share they would have played
        otherwise (the module's notes)."""
        stats = self.book.stats(view, position)
        big_blind = view.config.big_blind
        raises = calls = 0
        limped = raised = shoved = False  # (raised: somebody raised before this action)
        for action in view.log:
            if action.street is not Street.PREFLOP:
                break
            if action.kind in _BETS and action.to > big_blind:
                if action.seat == seat:
                    raises += 2 if raised else 1  # (a re-raise reads as two)
                    shoved = shoved or action.all_in
                    calls = 0
                raised = True
            elif action.kind is ActionKind.CALL and action.seat == seat:
                if raised:
                    calls += 1
                else:
                    limped = True
            elif action.kind is ActionKind.CHECK and action.seat == seat:
                limped = True
        vpip, pfr, reraise = stats.share("vpip"), stats.share("pfr"), stats.share("reraise")
        if raises:
            if raises >= 3:  # (a raise again over a re-raise)
                width = (reraise if raises > 3 else pfr) * stats.share("raise_back")
            else:
                width = reraise if raises == 2 else pfr
            if shoved:
                width = max(width, stats.share("shove"))
            return max(width, MIN_WIDTH), 0.0
        if calls:
            return max(vpip, MIN_WIDTH), reraise / 2
        if limped:
            return max(vpip, MIN_WIDTH), pfr * 0.7
        return 1.0, 0.0

    def _narrow(
        self, view: PlayerView, position: int, seat: int, start: dict[tuple[int, int], float]
    ) -> dict[tuple[int, int], float]:
        """A range after the flop: ``start`` without the board's cards, each
        action of player ``position`` after the flop weighing their made hands
        and the others (the module's notes)."""
        stats = self.book.stats(view, position)
        dealt = {*view.board, *(view.hole_cards or ())}
        weights = {c: w for c, w in start.items() if c[0] not in dealt and c[1] not in dealt}
        board: list[int] = []
        street = Street.PREFLOP
        for action in view.log:
            if action.kind is ActionKind.DEAL_BOARD:
                board.extend(action.cards)
                street = action.street
            elif action.seat == seat and len(board) >= 3 and action.kind in _READ:
                # (weights of the made hands and of the others)
                if action.kind is ActionKind.CHECK:  # (a player who bets made hands)
                    high, low = max(MIN_MADE_CHECK, 1 - stats.share("aggression")), 1.0
                elif action.kind is ActionKind.CALL:
                    high = 1.0
                    low = min(1.0, max(MIN_AIR_CALL, 1 - FOLD_READ * stats.folds(street)))
                else:
                    high = 1.0
                    low = min(1.0, max(MIN_AIR_BET, (stats.share("aggression") - 0.3) / 0.6))
                    if action.kind is ActionKind.RAISE:
                        low *= low
                if low >= 1.0 and high >= 1.0:
                    continue
                combos = list(weights)
                made = _made(combos, board)
                weights = {
                    c: weights[c] * (high if m else low) for c, m in zip(combos, made, strict=True)
                }
        return weights

    def _continuing(self, view: PlayerView, position: int) -> Packed:
        """What a raiser goes on with after a re-raise: the best of their
        range as often as they do not fold to one."""
        stats = self.book.stats(view, position)
        width = max(stats.share("pfr") * (1 - stats.share("fold_back")), MIN_WIDTH)
        return self._packed(view, width)

    def _packed(self, view: PlayerView, width: float) -> Packed:
        """The best ``width`` of starting hands, packed."""
        return self._top(view, width).packed

    def _this_hand(self, view: PlayerView) -> None:
        """Forgets the ranges read in another hand: another configuration, or
        the same one (a simulation deals hand after hand on one) with other
        hole cards."""
        if view.config is not self._hand or view.hole_cards != self._hole:
            self._hand, self._hole, self._read = view.config, view.hole_cards, {}

    # ------------------------------------------------------------- equity

    def _trials(self) -> int:
        return int(min(MAX_TRIALS, max(MIN_TRIALS, self.budget * TRIALS_A_SECOND)))

    def equity(self, view: PlayerView, others: list[int]) -> float:
        """Its share of the pot against the ranges of ``others`` (positions),
        all dealt at once."""
        if not others:
            return 1.0
        return self._equity_against(view, [self.range_of(view, p).packed for p in others])

    def _equity_against(self, view: PlayerView, ranges: list[Packed]) -> float:
        hole = view.hole_cards
        assert hole is not None
        return share(hole, ranges[:9], view.board, self._trials(), self.rng.getrandbits(63))

    def push(self, view: PlayerView) -> bool:
        """Whether its equity against the callers of a push (the best 25% of
        starting hands) is at least 0.48."""
        hole = view.hole_cards
        assert hole is not None
        return share(hole, [_CALLERS], (), 2_000, self.rng.getrandbits(63)) >= PUSH_EQUITY


class Read:
    """A range read for a hand: its weights, packed for the C core, and
    (once asked) its split into air and callers."""

    __slots__ = ("packed", "split", "weights")

    def __init__(self, weights: dict[tuple[int, int], float]) -> None:
        self.weights = weights
        self.packed = Packed(weights)
        self.split: tuple[float, Packed] | None = None


@functools.lru_cache(maxsize=1024)
def _top_read(start: int, end: int) -> Read:
    """The starting hands of :data:`RANKED` from ``start`` to ``end``, read
    once for every bot of the process (the cuts fall at the ends of starting
    hands: 169 places)."""
    return Read(dict.fromkeys(RANKED[start:end] or RANKED, 1.0))


def _bluffs(folds: float, bet: int, pot: int) -> float:
    """How often a bet or raise of ``bet`` into ``pot`` is made for its folds
    (a share ``folds`` of the time): never when folds do not pay for it
    (``b / (p + b)``), always when they pay twice over."""
    even = bet / (pot + bet)
    if folds <= even:
        return 0.0
    return min(1.0, 2 * (folds - even) / (1 - even))


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
_CALLERS = Packed(top(0.25))
