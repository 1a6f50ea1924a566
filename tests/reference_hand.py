"""The pure-Python rules engine of commit 47d9d87 (``holdem/hand.py``), kept
unchanged as a differential oracle for the shipped :class:`holdem.Hand`.

tests/test_hand_differential.py plays the same hands with both and asks them
to agree at every step.  Do not fix or improve this copy: it is the behaviour
the shipped engine must keep.  Only its relative imports became ``holdem.``
imports, so that it loads from tests/.  The original docstring follows.

The rules engine of one hand of Texas Hold'em (RULES.md R3-R10, R13, R14).

A :class:`Hand` is a state machine.  Players act through the
verify/can/do trio of each action (``verify_raise_to`` raises
:class:`~holdem.errors.IllegalActionError` with the reason,
``can_raise_to`` answers True/False, ``raise_to`` applies it and returns
the :class:`~holdem.actions.Action` record appended to the log).  Dealer
steps (posting forced bets, dealing, showdown defaults, awarding the pots)
run by themselves (``auto=True``) or one at a time with :meth:`Hand.step`.

>>> from holdem.config import HandConfig
>>> cfg = HandConfig(stacks=(200, 200, 200), button=0, small_blind=1, big_blind=2)
>>> hand = Hand(cfg, rng=7)
>>> hand.actor, hand.street.label
(0, 'preflop')
>>> print(hand.legal_actions())
seat 0: fold, call to 2, raise to 4..200, all-in to 200
>>> hand.raise_to(6).to
6
>>> hand.raise_to(7)
Traceback (most recent call last):
...
holdem.errors.IllegalActionError: illegal raise to 7 by seat 1: minimum raise is to 10 (preflop)
>>> _ = hand.fold(), hand.fold()
>>> hand.done, hand.outcome.net
(True, (3, -1, -2))
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

from holdem.actions import (
    PLAYER_KINDS,
    REFEREE_KINDS,
    STATUS_NAMES,
    Action,
    ActionKind,
    Decision,
    LegalActions,
    Phase,
    Street,
)
from holdem.cards import Card, Deck, format_cards, parse_board, parse_cards, parse_hole
from holdem.config import HandConfig, HeadsUpCap, Structure
from holdem.errors import ConfigError, HoldemError, IllegalActionError, InvalidCardError, quote
from holdem.evaluator import evaluate7
from holdem.pots import Outcome, Pot, ShownHand, build_pots, split
from holdem.views import PlayerView, _make_view

__all__ = ["STATUS_NAMES", "Hand", "Phase"]

# Player statuses (ints in a flat list: the hot loops compare small ints).
ACTIVE = 0  # in the hand and may still bet
ALL_IN = 1  # in the hand, no chips left
FOLDED = 2
PROTECTED = 3  # protected timeout: in the hand for what they put in, no more betting
MUCKED = 4  # gave up at showdown


_OUT = (FOLDED, MUCKED)
# where each street's cards sit in the stub that follows the hole cards:
# burn, flop x3, burn, turn, burn, river
_BURN_SLOT = (-1, 0, 4, 6)
_BOARD_SLOTS = ((), (1, 2, 3), (5,), (7,))
_STUB_BOARD = (1, 2, 3, 5, 7)
_STUB = 8


_K_ALL_IN = ActionKind.ALL_IN
_K_ANTE = ActionKind.ANTE
_K_BET = ActionKind.BET
_K_CALL = ActionKind.CALL
_K_CHECK = ActionKind.CHECK
_K_DEAL_BOARD = ActionKind.DEAL_BOARD
_K_DEAD_BLIND = ActionKind.DEAD_BLIND
_K_DEAL_HOLE = ActionKind.DEAL_HOLE
_K_FOLD = ActionKind.FOLD
_K_MUCK = ActionKind.MUCK
_K_RAISE = ActionKind.RAISE
_K_RETURN = ActionKind.RETURN
_K_SHOW = ActionKind.SHOW
_K_TIMEOUT = ActionKind.TIMEOUT
_K_WIN = ActionKind.WIN
_PH_AWARDING = Phase.AWARDING
_PH_BETTING = Phase.BETTING
_PH_BOARD = Phase.BOARD
_PH_COMPLETE = Phase.COMPLETE
_PH_DEALING = Phase.DEALING
_PH_POSTING = Phase.POSTING
_PH_SHOWDOWN = Phase.SHOWDOWN
_S_PREFLOP = Street.PREFLOP
_S_RIVER = Street.RIVER
_S_TURN = Street.TURN
_STREETS = tuple(Street)
_new = tuple.__new__


def _record(
    kind: ActionKind,
    seat: int | None,
    street: Street,
    amount: int = 0,
    to: int = 0,
    all_in: bool = False,
    cards: tuple[Card, ...] = (),
    pot: int = -1,
    run: int = 0,
) -> Action:
    """One log record, its fields by name (the one place that knows their order)."""
    return _new(Action, (kind, seat, amount, to, street, all_in, cards, pot, run))


_RINGS: dict[int, tuple[tuple[int, ...], ...]] = {}


def _rings(n: int) -> tuple[tuple[int, ...], ...]:
    """For each seat, the seats after it clockwise, ending with itself."""
    rings = _RINGS.get(n)
    if rings is None:
        rings = tuple(tuple((p + i) % n for i in range(1, n + 1)) for p in range(n))
        _RINGS[n] = rings
    return rings


def _deal_around(deck: Deck, taken: set[Card], need: int) -> list[Card]:
    """The next ``need`` cards of ``deck`` that are not in ``taken``."""
    out: list[Card] = []
    while len(out) < need:
        card = deck.deal(1)[0]
        if card not in taken:
            out.append(card)
    return out


#: The state of a hand, in one place: lists (copied by a snapshot), values
#: (immutable), the log and the cards dealt (cut back to their length on undo),
#: and what is fixed when the hand is made.  ``__slots__``, :meth:`Hand._snapshot`,
#: :meth:`Hand._restore` and :meth:`Hand.copy` are all derived from these.
_STATE_LISTS = (
    "_stacks",
    "_bets",
    "_contrib",
    "_status",
    "_faced",
    "_returned",
    "_shown",
    "_vals",
    "_hole",
)
_STATE_VALUES = (
    "_phase",
    "_street",
    "_actor",
    "_bet",
    "_nominal",
    "_full",
    "_level",
    "_count",
    "_capped",
    "_hu_round",
    "_aggressor",
    "_post_i",
    "_n_active",
    "_n_in",
    "_dealt",
    "_sd_order",
    "_sd_i",
    "_sd_best",
    "_face_up",
    "_outcome",
    "_awards",
)
_STATE_GROWING = ("_log", "_board", "_burns")
_FIXED = ("_auto", "_cfg", "_n", "_fixed", "_pot_limit", "_ring", "_first", "_stub", "_nos", "_pos")
_SLOTS = (*_STATE_LISTS, *_STATE_VALUES, *_STATE_GROWING, *_FIXED, "_history")


class Hand:
    """One hand of hold'em, from the forced bets to the awarded pots.

    :param config: the :class:`~holdem.config.HandConfig`.
    :param rng: where the cards come from: a seed or a
        :class:`random.Random` (None: unpredictable), shuffled as
        ``holdem.Deck(rng)`` shuffles.  The cards of the whole hand (hole
        cards, burns, board) are drawn when the hand is created, so undoing
        and redoing an action deals the same cards.
    :param deck: a :class:`~holdem.cards.Deck` to deal from instead of
        ``rng`` (its next cards; given cards are skipped).
    :param hole_cards: given hole cards, per seat (replay): two cards as
        text or ints, or None / ``"??"`` when unknown.  With ``rng`` or
        ``deck`` the unknown ones are dealt from the cards not given;
        without, they stay unknown and can be given later with :meth:`show`.
    :param board: given board cards (up to five).  Missing board cards and
        burns are drawn from ``rng`` when it is given, else they are unknown
        and dealing them raises :class:`~holdem.errors.HoldemError`.
    :param auto: run dealer steps and showdown defaults by themselves; with
        False call :meth:`step` (or :meth:`run`) for each of them.
    """

    __slots__ = _SLOTS

    def __init__(
        self,
        config: HandConfig,
        *,
        rng: int | random.Random | None = None,
        deck: Deck | None = None,
        hole_cards: Sequence[object] | None = None,
        board: str | Iterable[Card | str] | None = None,
        auto: bool = True,
    ) -> None:
        n = len(config.stacks)
        self._cfg = config
        self._n = n
        self._auto = auto
        self._fixed = config.structure is Structure.FIXED_LIMIT
        self._pot_limit = config.structure is Structure.POT_LIMIT
        self._ring = _rings(n)
        # table seat numbers by position, and positions by seat number (None: the same)
        self._nos = config.seat_numbers
        self._pos = {seat: i for i, seat in enumerate(config.seats)} if config.seats else None
        self._first = (config.button + 1) % n
        self._stacks = list(config.stacks)
        self._bets = [0] * n
        self._contrib = [0] * n
        self._status = [ACTIVE] * n
        self._faced = [-1] * n
        self._returned = [0] * n
        self._n_active = n
        self._n_in = n
        self._phase = _PH_POSTING
        self._street = _S_PREFLOP
        self._actor = -1
        self._bet = 0
        self._nominal = 0
        self._full = 0
        self._level = 0
        self._count = 0
        self._capped = False
        self._hu_round = False
        self._aggressor = -1
        self._post_i = 0
        self._log: list[Action] = []
        self._board: list[Card] = []
        self._burns: list[Card | None] = []
        self._dealt = False
        self._sd_order: tuple[int, ...] = ()
        self._sd_i = 0
        self._sd_best = 0
        self._face_up = False
        self._shown = [False] * n
        self._vals = [0] * n
        self._outcome: Outcome | None = None
        self._awards: list[tuple[int, tuple[int, ...], tuple[int, ...], tuple[int, ...]]] = []
        self._history: list[tuple[Any, ...]] = []
        if deck is not None:
            if rng is not None:
                raise ConfigError("give rng or deck, not both", field="deck", value=deck)
            if not isinstance(deck, Deck):
                raise ConfigError(
                    f"deck must be a holdem.Deck, not {type(deck).__name__}",
                    field="deck",
                    value=deck,
                )
        self._deal_cards(rng, deck, hole_cards, board)
        if auto:
            self._run()

    # ------------------------------------------------------------------ cards

    def _deal_cards(
        self,
        rng: int | random.Random | None,
        deck: Deck | None,
        hole_cards: Sequence[object] | None,
        board: str | Iterable[Card | str] | None,
    ) -> None:
        n = self._n
        given_board = parse_board(board)
        if hole_cards is None and not given_board:
            cards = (deck if deck is not None else Deck(rng)).deal(2 * n + _STUB)
            hole: list[tuple[Card, Card] | None] = [None] * n
            for i in range(n):
                hole[(self._first + i) % n] = (cards[i], cards[n + i])
            self._hole = hole
            self._stub: list[Card | None] = list(cards[2 * n :])
            return
        if hole_cards is not None:
            if isinstance(hole_cards, str) or len(hole_cards) != n:
                raise InvalidCardError(f"hole_cards: expected a list of {n} hands, one per seat")
            hole = [parse_hole(item, f"seat {seat}") for seat, item in enumerate(hole_cards)]
        else:
            hole = [None] * n
        known = [c for h in hole if h for c in h] + given_board
        clash = len(set(known)) != len(known)
        if clash:
            parse_cards(known)  # raises, naming the duplicate
        stub: list[Card | None] = [None] * _STUB
        for slot, c in zip(_STUB_BOARD, given_board, strict=False):
            stub[slot] = c
        if hole_cards is None or rng is not None or deck is not None:
            # the unknown hole cards (all, without hole_cards), then burns and board
            unknown = [
                (self._first + i) % n for i in range(n) if hole[(self._first + i) % n] is None
            ]
            need = stub.count(None) + 2 * len(unknown)
            if deck is None:
                drawn = iter(Deck(rng, exclude=known).deal(need))
            else:
                taken = set(known)
                drawn = iter(_deal_around(deck, taken, need))
            first = [next(drawn) for _ in unknown]  # round the table, one card at a time
            second = [next(drawn) for _ in unknown]
            for seat, a, b in zip(unknown, first, second, strict=True):
                hole[seat] = (a, b)
            stub = [c if c is not None else next(drawn) for c in stub]
        self._hole = hole
        self._stub = stub

    # ----------------------------------------------------------- public state

    @property
    def config(self) -> HandConfig:
        """The configuration of this hand."""
        return self._cfg

    @property
    def phase(self) -> Phase:
        """What the hand waits for."""
        return self._phase

    @property
    def street(self) -> Street:
        """The current street."""
        return self._street

    @property
    def done(self) -> bool:
        """True once the pots are awarded."""
        return self._phase is _PH_COMPLETE

    @property
    def actor(self) -> int | None:
        """The seat whose decision the hand waits for (betting or showdown), else None."""
        if self._phase is _PH_BETTING:
            return self._nos[self._actor]
        if self._phase is _PH_SHOWDOWN:
            return self._nos[self._sd_order[self._sd_i]]
        return None

    @property
    def stacks(self) -> tuple[int, ...]:
        """Chips behind, per player, in the order of the configuration's stacks
        (``config.seat_numbers`` gives their table seats)."""
        return tuple(self._stacks)

    @property
    def stacks_by_seat(self) -> dict[int, int]:
        """Chips behind by table seat: what ``HandConfig.at_table`` takes for the next
        hand (a table merges it with the seats that were not dealt in)."""
        return dict(zip(self._nos, self._stacks, strict=True))

    @property
    def bets(self) -> tuple[int, ...]:
        """Each seat's live bet in the current betting round (its to-amount)."""
        return tuple(self._bets)

    @property
    def contributions(self) -> tuple[int, ...]:
        """Chips each seat has put in during the hand (dead money included)."""
        return tuple(self._contrib)

    @property
    def pot(self) -> int:
        """Chips in the middle: all pots plus the bets of the current round."""
        return sum(self._contrib)

    @property
    def current_bet(self) -> int:
        """The to-amount a player must reach to call (preflop at least the big blind)."""
        return self._bet

    @property
    def to_call(self) -> int:
        """Chips the player to act needs to call (0 when checking is possible)."""
        p = self._actor
        if self._phase is not _PH_BETTING:
            return 0
        need = self._bet - self._bets[p]
        return need if need < self._stacks[p] else self._stacks[p]

    @property
    def board(self) -> tuple[Card, ...]:
        """The board cards dealt so far."""
        return tuple(self._board)

    @property
    def log(self) -> tuple[Action, ...]:
        """Every step so far.  Public information only (RULES.md R14)."""
        return tuple(self._log)

    @property
    def statuses(self) -> tuple[str, ...]:
        """Per seat: ``active``, ``all_in``, ``folded``, ``protected`` or ``mucked``."""
        return tuple(STATUS_NAMES[s] for s in self._status)

    @property
    def pending(self) -> ActionKind | None:
        """The dealer step :meth:`step` would do next, if any."""
        phase = self._phase
        if phase is _PH_POSTING:
            return self._cfg.forced_bets[self._post_i][0]
        if phase is _PH_DEALING:
            return _K_DEAL_HOLE
        if phase is _PH_BOARD:
            return _K_DEAL_BOARD
        if phase is _PH_SHOWDOWN:
            return self._default_showdown(self._sd_order[self._sd_i])
        if phase is _PH_AWARDING:
            return _K_WIN
        return None

    def in_hand(self, seat: int) -> bool:
        """Whether a seat still contends for a pot (not folded, not mucked)."""
        return self._status[self._seat(seat)] not in _OUT

    def hole_cards(self, seat: int) -> tuple[Card, Card] | None:
        """A seat's hole cards (None if unknown or not dealt yet).

        This is the referee's knowledge: give players :meth:`view` instead.
        Raises :class:`~holdem.errors.ConfigError` for a seat not at the table.
        """
        return self._hole[self._seat(seat)] if self._dealt else None

    def _seat(self, seat: object) -> int:
        """``seat`` if it is a seat of this hand: ``TypeError`` if it is no int,
        :class:`~holdem.errors.ConfigError` if it is not in 0..n-1."""
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise TypeError(f"a seat is an int, not {type(seat).__name__}")
        positions = self._pos
        if positions is None:
            if 0 <= seat < self._n:
                return seat
            where = f"seats are 0 to {self._n - 1}"
        else:
            position = positions.get(seat)
            if position is not None:
                return position
            where = f"seats are {', '.join(map(str, self._nos))}"
        raise ConfigError(
            f"seat {quote(seat)} is not at the table: {where}", field="seat", value=seat
        )

    @property
    def burns(self) -> tuple[Card | None, ...]:
        """Cards burnt so far (None where unknown).  The referee's knowledge."""
        return tuple(self._burns)

    # ------------------------------------------------------------ messages

    def _ctx(self) -> str:
        hid = self._cfg.hand_id
        street = self._street.label
        return f"(hand {hid}, {street})" if hid is not None else f"({street})"

    def _turn(self, name: str, seat: int | None) -> int:
        """The seat to act; raises unless a betting decision is pending (by ``seat``)."""
        if self._phase is not _PH_BETTING:
            who = f" by seat {seat}" if seat is not None else ""
            raise IllegalActionError(
                f"illegal {name}{who}: {self._not_betting()} {self._ctx()}",
                seat=seat,
                action=name,
            )
        p = self._actor
        if seat is not None and seat != self._nos[p]:
            raise IllegalActionError(
                f"illegal {name} by seat {seat}: it is seat {self._nos[p]}'s turn {self._ctx()}",
                seat=seat,
                action=name,
            )
        return p

    def _not_betting(self) -> str:
        phase = self._phase
        if phase is _PH_COMPLETE:
            return "the hand is over"
        if phase is _PH_SHOWDOWN:
            return (
                f"betting is over, seat {self._nos[self._sd_order[self._sd_i]]} must show or muck"
            )
        if phase in (_PH_POSTING, _PH_DEALING):
            return "the cards are not dealt yet"
        return "no player is to act (the dealer is next)"

    def _illegal(self, name: str, p: int, why: str) -> IllegalActionError:
        seat = self._nos[p]
        return IllegalActionError(
            f"illegal {name} by seat {seat}: {why} {self._ctx()}", seat=seat, action=name
        )

    # ------------------------------------------------------ legal actions

    def legal_actions(self) -> LegalActions | None:
        """Exactly what the player to act may do now, or None if nobody is to act.

        Amounts are to-amounts (the player's total bet of the round).
        """
        phase = self._phase
        if phase is _PH_SHOWDOWN:
            p = self._sd_order[self._sd_i]
            return LegalActions(seat=self._nos[p], show=True, muck=self._may_muck(p))
        if phase is not _PH_BETTING:
            return None
        p = self._actor
        bet = self._bet
        mine = self._bets[p]
        everything = mine + self._stacks[p]
        facing = mine < bet
        rng = self._wager_range(p)
        wager = None
        lo = hi = None
        all_in: int | None = None
        if isinstance(rng, tuple):
            lo, hi = rng
            wager = _K_RAISE if bet else _K_BET
            if everything <= hi:
                all_in = everything
            if lo > everything:  # only an all-in for less is left (R5)
                lo = hi = None
                wager = None
        elif everything <= bet:
            all_in = everything
        call = (bet if bet < everything else everything) if facing else None
        return LegalActions(
            seat=self._nos[p],
            fold=True,
            check=not facing,
            call=call,
            wager=wager,
            min_to=lo,
            max_to=hi,
            all_in=all_in,
            bet=bet,
        )

    def _wager_range(self, p: int) -> tuple[int, int] | str:
        """(min, max) to-amounts of a bet or raise by ``p``, or why there is none.

        The minimum may exceed what the player has: an all-in for less is
        then the only wager (checked by the callers).
        """
        bet = self._bet
        bets = self._bets
        stacks = self._stacks
        if stacks[p] <= bet - bets[p]:
            return f"calling {bet - bets[p]} takes all {stacks[p]} chips of seat {self._nos[p]}"
        status = self._status
        for q in self._ring[p]:
            if q != p and status[q] == ACTIVE and stacks[q] + bets[q] > bet:
                break
        else:
            return "no other player could call a raise (the others are all-in or out)"
        faced = self._faced[p]
        if self._fixed:
            if faced >= 0 and faced >= self._level:
                return (
                    f"seat {self._nos[p]} already acted and the betting was not reopened "
                    "(an all-in of less than half a bet does not reopen it)"
                )
            if self._count > self._cfg.raise_cap and not self._uncapped():
                raises = self._cfg.raise_cap
                return f"the betting is capped (a bet and {raises} raise{'s' * (raises != 1)})"
            unit = self._cfg.small_bet if self._street < _S_TURN else self._cfg.big_bet
            to = self._level + unit
            return to, to
        if faced >= 0 and bet - faced < self._full:
            return (
                f"seat {self._nos[p]} already acted and faces only {bet - faced} more, less than a "
                f"full raise of {self._full}: the betting was not reopened"
            )
        lo = bet + self._full
        if self._pot_limit:
            hi = bet + sum(self._contrib) + bet - bets[p]
            if hi < lo:
                hi = lo
        else:
            hi = bets[p] + stacks[p]
        everything = bets[p] + stacks[p]
        return lo, hi if hi < everything else everything

    def _uncapped(self) -> bool:
        policy = self._cfg.heads_up_cap
        if policy is HeadsUpCap.TWO_LEFT:
            return self._n_active <= 2 and not self._capped
        if policy is HeadsUpCap.ROUND_START:
            return self._hu_round
        return False

    # ------------------------------------------------------------- fold

    def verify_fold(self, seat: int | None = None) -> None:
        """Raises :class:`IllegalActionError` unless the player to act may fold."""
        self._turn("fold", seat)

    def can_fold(self, seat: int | None = None) -> bool:
        """Whether the player to act (``seat``, if given) may fold."""
        return self._phase is _PH_BETTING and (seat is None or seat == self._nos[self._actor])

    def fold(self, seat: int | None = None) -> Action:
        """Folds the hand of the player to act."""
        p = self._turn("fold", seat)
        self._status[p] = FOLDED
        self._n_active -= 1
        self._n_in -= 1
        record = _record(_K_FOLD, self._nos[p], self._street)
        self._log.append(record)
        self._advance(p)
        return record

    # ------------------------------------------------------------ check

    def verify_check(self, seat: int | None = None) -> None:
        """Raises :class:`IllegalActionError` unless the player to act may check."""
        p = self._turn("check", seat)
        if self._bets[p] < self._bet:
            raise self._illegal(
                "check",
                p,
                f"there is a bet of {self._bet} to call ({self._bet - self._bets[p]} more)",
            )

    def can_check(self, seat: int | None = None) -> bool:
        """Whether the player to act may check."""
        return (
            self._phase is _PH_BETTING
            and (seat is None or seat == self._nos[self._actor])
            and self._bets[self._actor] >= self._bet
        )

    def check(self, seat: int | None = None) -> Action:
        """Checks."""
        p = self._actor
        if (
            self._phase is not _PH_BETTING
            or (seat is not None and seat != self._nos[p])
            or self._bets[p] < self._bet
        ):
            self.verify_check(seat)
        self._faced[p] = self._level if self._fixed else self._bet
        record = _record(_K_CHECK, self._nos[p], self._street, to=self._bets[p])
        self._log.append(record)
        self._advance(p)
        return record

    # ------------------------------------------------- conveniences

    def check_or_call(self, seat: int | None = None) -> Action:
        """Checks if that is possible, else calls (a calling station's turn)."""
        p = self._actor
        if self._phase is _PH_BETTING and (seat is None or seat == self._nos[p]):
            if self._bets[p] < self._bet:
                return self._call(p)
            return self.check(seat)
        return self.check(seat)  # raises, saying why

    def check_or_fold(self, seat: int | None = None) -> Action:
        """Checks if that is possible, else folds (the plain timeout rule of R13)."""
        if self.can_check(seat):
            return self.check(seat)
        return self.fold(seat)

    # ------------------------------------------------------------- call

    def verify_call(self, seat: int | None = None) -> None:
        """Raises :class:`IllegalActionError` unless the player to act may call."""
        p = self._turn("call", seat)
        if self._bets[p] >= self._bet:
            raise self._illegal("call", p, "there is no bet to call: check instead")

    def can_call(self, seat: int | None = None) -> bool:
        """Whether the player to act may call."""
        return (
            self._phase is _PH_BETTING
            and (seat is None or seat == self._nos[self._actor])
            and self._bets[self._actor] < self._bet
        )

    def call(self, seat: int | None = None) -> Action:
        """Calls the current bet (all-in for less when the stack is short)."""
        p = self._actor
        if (
            self._phase is not _PH_BETTING
            or (seat is not None and seat != self._nos[p])
            or self._bets[p] >= self._bet
        ):
            self.verify_call(seat)
        return self._call(p)

    def _call(self, p: int) -> Action:
        bet = self._bet
        mine = self._bets[p]
        everything = mine + self._stacks[p]
        to = bet if everything > bet else everything
        chips = to - mine
        all_in = self._put_in(p, chips, live=True)
        self._faced[p] = self._level if self._fixed else bet
        record = _record(_K_CALL, self._nos[p], self._street, amount=chips, to=to, all_in=all_in)
        self._log.append(record)
        self._advance(p)
        return record

    # ------------------------------------------------------- bet / raise

    def _verify_wager(self, kind: ActionKind, to: object, seat: int | None) -> int:
        name = f"{kind.value} to {to}" if isinstance(to, int) else f"{kind.value} to {to!r}"
        p = self._turn(name, seat)
        if not isinstance(to, int) or isinstance(to, bool):
            raise self._illegal(name, p, "the amount must be an integer number of chips")
        why = self._wager_problem(kind, to, p)
        if why is not None:
            raise self._illegal(name, p, why)
        return to

    def _wager_problem(self, kind: ActionKind, to: int, p: int) -> str | None:
        """Why ``p`` may not bet or raise to ``to``, or None if they may."""
        bet = self._bet
        if kind is _K_BET and bet:
            if self._street is _S_PREFLOP:
                return f"the big blind is the bet preflop ({bet}): raise instead"
            return f"there is already a bet of {bet}: raise instead"
        if kind is _K_RAISE and not bet:
            return "there is no bet to raise: bet instead"
        everything = self._bets[p] + self._stacks[p]
        if to > everything:
            return (
                f"seat {self._nos[p]} has only {self._stacks[p]} chips (all-in is to {everything})"
            )
        rng = self._wager_range(p)
        if isinstance(rng, str):
            return rng
        lo, hi = rng
        if to == everything and bet < to < lo:
            return None  # all-in for less than a full bet or raise (R5)
        what = "raise" if kind is _K_RAISE else "bet"
        if lo > everything:
            return (
                f"a full {what} is to {lo}: seat {self._nos[p]} can only go all-in "
                f"(to {everything})"
            )
        if to < lo:
            if self._fixed:
                return f"a {what} in fixed-limit is to exactly {lo}"
            return f"minimum {what} is to {lo}"
        if to > hi:
            if self._fixed:
                return f"a {what} in fixed-limit is to exactly {lo}"
            return f"maximum {what} is to {hi} (pot-limit)"
        return None

    def verify_bet(self, to: int, seat: int | None = None) -> None:
        """Raises :class:`IllegalActionError` unless the player may bet ``to`` chips."""
        self._verify_wager(_K_BET, to, seat)

    def can_bet(self, to: int | None = None, seat: int | None = None) -> bool:
        """Whether the player may bet ``to`` (any amount, if None)."""
        return self._can_wager(_K_BET, to, seat)

    def bet(self, to: int, seat: int | None = None) -> Action:
        """Bets: the first chips of a round, ``to`` in total."""
        amount = self._verify_wager(_K_BET, to, seat)
        return self._wager(_K_BET, self._actor, amount)

    def verify_raise_to(self, to: int, seat: int | None = None) -> None:
        """Raises :class:`IllegalActionError` unless the player may raise to ``to``."""
        self._verify_wager(_K_RAISE, to, seat)

    def can_raise_to(self, to: int | None = None, seat: int | None = None) -> bool:
        """Whether the player may raise to ``to`` (to any amount, if None)."""
        return self._can_wager(_K_RAISE, to, seat)

    def raise_to(self, to: int, seat: int | None = None) -> Action:
        """Raises to ``to``: the player's total bet of the round afterwards."""
        amount = self._verify_wager(_K_RAISE, to, seat)
        return self._wager(_K_RAISE, self._actor, amount)

    def _can_wager(self, kind: ActionKind, to: int | None, seat: int | None) -> bool:
        if self._phase is not _PH_BETTING or (seat is not None and seat != self._nos[self._actor]):
            return False
        if to is None:
            legal = self.legal_actions()
            assert legal is not None
            if legal.wager is kind:
                return True
            wager_kind = _K_RAISE if self._bet else _K_BET
            return legal.all_in is not None and legal.all_in > self._bet and wager_kind is kind
        if not isinstance(to, int) or isinstance(to, bool):
            return False
        return self._wager_problem(kind, to, self._actor) is None

    def _wager(self, kind: ActionKind, p: int, to: int) -> Action:
        bet = self._bet
        chips = to - self._bets[p]
        all_in = self._put_in(p, chips, live=True)
        if self._fixed:
            unit = self._cfg.small_bet if self._street < _S_TURN else self._cfg.big_bet
            # a full raise, or an all-in of at least half a bet over the level (R7)
            if 2 * (to - self._level) >= unit:
                self._level = to
                self._count += 1
                if self._count > self._cfg.raise_cap and self._n_active + all_in > 2:
                    self._capped = True
            self._faced[p] = self._level
        else:
            if to - bet >= self._full:
                self._full = to - bet
            self._faced[p] = to
        self._bet = to
        self._aggressor = p
        record = _record(kind, self._nos[p], self._street, amount=chips, to=to, all_in=all_in)
        self._log.append(record)
        self._advance(p)
        return record

    # ------------------------------------------------------------ all-in

    def verify_all_in(self, seat: int | None = None) -> None:
        """Raises :class:`IllegalActionError` unless the player may go all-in now."""
        self._all_in_kind(seat)

    def _all_in_kind(self, seat: int | None) -> tuple[ActionKind, int]:
        p = self._turn("all-in", seat)
        everything = self._bets[p] + self._stacks[p]
        if everything <= self._bet:
            return _K_CALL, everything
        kind = _K_RAISE if self._bet else _K_BET
        why = self._wager_problem(kind, everything, p)
        if why is not None:
            raise self._illegal(f"all-in ({kind.value} to {everything})", p, why)
        return kind, everything

    def can_all_in(self, seat: int | None = None) -> bool:
        """Whether the player may go all-in now."""
        try:
            self._all_in_kind(seat)
        except IllegalActionError:
            return False
        return True

    def all_in(self, seat: int | None = None) -> Action:
        """Puts in every chip: a call, bet or raise, recorded as such with ``all_in``."""
        kind, to = self._all_in_kind(seat)
        if kind is _K_CALL:
            return self._call(self._actor)
        return self._wager(kind, self._actor, to)

    # ----------------------------------------------------------- timeout

    def verify_timeout(self, seat: int | None = None) -> None:
        """Raises :class:`IllegalActionError` unless a protected timeout is possible."""
        self._turn("timeout", seat)

    def can_timeout(self, seat: int | None = None) -> bool:
        """Whether the player to act may take a protected timeout."""
        return self.can_fold(seat)

    def timeout(self, seat: int | None = None) -> Action:
        """Protected timeout (RULES.md R13 disconnect protection).

        The player stops betting without folding: they stay in the hand,
        all-in for what they have already put in, and can win only the pots
        formed so far; the others go on betting into side pots.  (The plain
        timeout rule, check if possible else fold, is :meth:`check` or
        :meth:`fold`.)
        """
        p = self._turn("timeout", seat)
        self._status[p] = PROTECTED
        self._n_active -= 1
        record = _record(_K_TIMEOUT, self._nos[p], self._street, to=self._bets[p])
        self._log.append(record)
        self._advance(p)
        return record

    # --------------------------------------------------------- generic act

    def act(
        self,
        decision: Decision | ActionKind | str,
        to: int | None = None,
        *,
        seat: int | None = None,
        cards: str | Iterable[Card | str] | None = None,
    ) -> Action:
        """Applies a player's decision: a :class:`~holdem.actions.Decision` (what
        bots return and programs send), or its parts.

        ``decision`` is a Decision, or an :class:`~holdem.actions.ActionKind`
        or its value (``"raise"``) with ``to`` the to-amount of a bet or raise
        and ``cards`` the cards of a ``show`` when they were unknown.  ``seat``,
        when given, must be the player to act.  A ``timeout`` is a referee's
        step (R13): a table applies it for a player, a player never sends it.
        """
        if isinstance(decision, Decision):
            k = decision.kind
            to = decision.to
            if decision.cards:
                cards = decision.cards
        else:
            try:
                k = ActionKind(decision)
            except ValueError:
                k = _KIND_NAMES.get(decision) if isinstance(decision, str) else None  # type: ignore[assignment]
                if k is None:
                    names = ", ".join(k.value for k in _PLAYER_KINDS)
                    raise IllegalActionError(
                        f"unknown action {decision!r}: one of {names}",
                        seat=seat,
                        action=str(decision),
                    ) from None
        if k is _K_BET or k is _K_RAISE:
            if to is None:
                raise IllegalActionError(
                    f"illegal {k.value}: the to-amount is missing {self._ctx()}",
                    seat=seat,
                    action=k.value,
                )
            return self.bet(to, seat) if k is _K_BET else self.raise_to(to, seat)
        if to is not None:
            raise IllegalActionError(
                f"illegal {k.value} to {to}: only a bet or raise has a to-amount {self._ctx()}",
                seat=seat,
                action=k.value,
            )
        if k is _K_SHOW:
            return self.show(cards, seat)
        method = _SIMPLE_ACTIONS.get(k)
        if method is None:
            raise IllegalActionError(
                f"{k.value!r} is a dealer step, not a player action", seat=seat, action=k.value
            )
        record: Action = method(self, seat)
        return record

    # ------------------------------------------------------ turn order

    def _advance(self, p: int) -> None:
        """Finds the next player to act after ``p``, or ends the round (R4)."""
        if self._n_in > 1:
            status = self._status
            bets = self._bets
            faced = self._faced
            bet = self._bet
            several = self._n_active >= 2
            nominal = self._nominal
            for q in self._ring[p]:
                # ACTIVE is 0: a player who may bet, facing a bet or not yet acted
                if not status[q]:
                    if nominal:
                        bet = self._bet_for(q)
                    if bets[q] < bet or (faced[q] < 0 and several):
                        self._actor = q
                        self._bet = bet
                        return
        self._end_round()
        if self._auto:
            self._run()

    def _begin_round(self, street: Street) -> None:
        cfg = self._cfg
        n = self._n
        self._street = street
        if street is _S_PREFLOP:
            start = cfg.straddle_seat if cfg.straddle_seat is not None else cfg.big_blind_seat
            # the bet is what was posted (R3): a straddle only as far as it was
            # posted, and the big blind in full even when posted short (R6)
            big = cfg.big_blind
            top = max(self._bets)
            self._bet = top if top > big else big
            self._nominal = big if top < big else 0
            # a straddle posted in full counts as the big blind for the minimum raise
            self._full = top if cfg.straddle and top >= cfg.straddle else big
            self._level = big
            self._count = 1
        else:
            start = cfg.button
            self._bets = [0] * n
            self._faced = [-1] * n
            self._bet = 0
            self._nominal = 0
            self._full = cfg.big_blind
            self._level = 0
            self._count = 0
        self._capped = False
        self._hu_round = self._n_active == 2
        status = self._status
        bets = self._bets
        bet = self._bet
        nominal = self._nominal
        several = self._n_active >= 2
        for q in self._ring[start]:
            if not status[q]:
                if nominal:
                    bet = self._bet_for(q)
                if bets[q] < bet or several:
                    self._actor = q
                    self._bet = bet
                    self._phase = _PH_BETTING
                    self._aggressor = -1
                    return
        self._end_round()

    def _bet_for(self, q: int) -> int:
        """The bet ``q`` must match preflop while the big blind, posted short, is
        above every bet made (R3, R6): the full blind while another player can
        still put it in, else only as much as the others can reach."""
        bets = self._bets
        top = max(bets)
        nominal = self._nominal
        if top >= nominal:
            self._nominal = 0
            return top
        stacks = self._stacks
        status = self._status
        reach = 0
        for r in range(self._n):
            s = status[r]
            if r != q and s != FOLDED and s != MUCKED:
                most = bets[r] + stacks[r] if s == ACTIVE else bets[r]
                if most > reach:
                    reach = most
        if reach > nominal:
            reach = nominal
        return reach if reach > top else top

    def _end_round(self) -> None:
        self._actor = -1
        self._return_uncalled()
        if self._n_in == 1:
            self._phase = _PH_AWARDING
        elif self._street is _S_RIVER:
            self._start_showdown()
        else:
            self._phase = _PH_BOARD

    def _return_uncalled(self) -> None:
        bets = self._bets
        top = max(bets)
        if not top:
            return
        p = bets.index(top)
        if self._status[p] in _OUT:
            return
        second = 0
        for q, b in enumerate(bets):
            if q != p and b > second:
                second = b
        if second == top:
            return
        excess = top - second
        bets[p] = second
        self._stacks[p] += excess
        self._contrib[p] -= excess
        self._returned[p] += excess
        self._log.append(_record(_K_RETURN, self._nos[p], self._street, amount=excess, to=second))
        if self._status[p] == ALL_IN:
            self._status[p] = ACTIVE
            self._n_active += 1

    # ------------------------------------------------------- dealer steps

    def can_step(self) -> bool:
        """Whether a dealer step (or a showdown default) is pending."""
        phase = self._phase
        if phase is _PH_SHOWDOWN:
            return self._default_showdown(self._sd_order[self._sd_i]) is not None
        return phase is not _PH_BETTING and phase is not _PH_COMPLETE

    def step(self) -> Action | None:
        """Does the next dealer step; returns its last record.

        Posting does one forced bet per step (a post a stack of zero cannot
        make is skipped); dealing the hole cards, a street (with its burn),
        or awarding all pots is one step each.  At showdown it applies the
        default decision of the player to show (show if they can still win
        a pot, else muck; all hands face up once someone is all-in).
        """
        phase = self._phase
        if phase is _PH_POSTING:
            return self._post()
        if phase is _PH_DEALING:
            record = _record(_K_DEAL_HOLE, None, _S_PREFLOP)
            self._log.append(record)
            self._dealt = True
            self._begin_round(_S_PREFLOP)
            return record
        if phase is _PH_BOARD:
            return self._deal_street()
        if phase is _PH_SHOWDOWN:
            p = self._sd_order[self._sd_i]
            decision = self._default_showdown(p)
            if decision is None:
                raise IllegalActionError(
                    f"seat {self._nos[p]}'s hole cards are unknown: give them with show(cards) "
                    "or muck()",
                    seat=self._nos[p],
                    action="show",
                )
            return self._show(p) if decision is _K_SHOW else self._muck(p)
        if phase is _PH_AWARDING:
            return self._award()
        raise IllegalActionError(
            f"no dealer step is pending: {self._not_betting_or_turn()} {self._ctx()}"
        )

    def _not_betting_or_turn(self) -> str:
        if self._phase is _PH_BETTING:
            return f"seat {self._nos[self._actor]} is to act"
        return self._not_betting()

    def run(self) -> list[Action]:
        """Does dealer steps until a player must decide or the hand is over."""
        start = len(self._log)
        self._run()
        return self._log[start:]

    def _run(self) -> None:
        while True:
            phase = self._phase
            if phase is _PH_BETTING or phase is _PH_COMPLETE:
                return
            if phase is _PH_SHOWDOWN:
                self._auto_showdown()
                if self._phase is _PH_SHOWDOWN:
                    return  # waits for cards nobody knows
                continue
            if phase is _PH_POSTING:
                while self._phase is _PH_POSTING:
                    self._post()
                continue
            self.step()

    def _put_in(self, p: int, chips: int, live: bool) -> bool:
        """Moves ``chips`` from ``p``'s stack into the pot (into their bet of the
        round when ``live``); True when that was the last of the stack (all-in)."""
        stacks = self._stacks
        left = stacks[p] - chips
        stacks[p] = left
        self._contrib[p] += chips
        if live:
            self._bets[p] += chips
        if left:
            return False
        self._status[p] = ALL_IN
        self._n_active -= 1
        return True

    def _post(self) -> Action | None:
        forced = self._cfg.forced_bets
        stacks = self._stacks
        record = None
        while record is None and self._post_i < len(forced):
            kind, p, amount = forced[self._post_i]
            self._post_i += 1
            stack = stacks[p]
            if not stack:
                continue
            chips = amount if amount < stack else stack
            live = kind is not _K_ANTE and kind is not _K_DEAD_BLIND  # a live blind
            all_in = self._put_in(p, chips, live=live)
            to = self._bets[p] if live else 0
            record = _record(kind, self._nos[p], _S_PREFLOP, amount=chips, to=to, all_in=all_in)
            self._log.append(record)
        if self._post_i == len(forced):
            self._phase = _PH_DEALING
        return record

    def _deal_street(self) -> Action:
        street = _STREETS[self._street + 1]
        stub = self._stub
        cards = tuple([stub[i] for i in _BOARD_SLOTS[street]])
        if None in cards:
            raise HoldemError(
                f"the {street.label} is needed but its card{'s' * (len(cards) > 1)} "
                f"{'were' if len(cards) > 1 else 'was'} not given {self._ctx()}"
            )
        self._burns.append(stub[_BURN_SLOT[street]])
        dealt: tuple[Card, ...] = cards  # type: ignore[assignment]  # no None: checked above
        self._board.extend(dealt)
        record = _record(_K_DEAL_BOARD, None, street, cards=dealt)
        self._log.append(record)
        self._begin_round(street)
        return record

    # ---------------------------------------------------------- showdown

    def _start_showdown(self) -> None:
        status = self._status
        first = self._aggressor
        if first < 0 or status[first] in _OUT:
            first = self._first
        order = tuple(q for q in (first, *self._ring[first][:-1]) if status[q] not in _OUT)
        self._sd_order = order
        self._sd_i = 0
        self._face_up = any(status[q] == ALL_IN or status[q] == PROTECTED for q in order)
        self._phase = _PH_SHOWDOWN

    def _auto_showdown(self) -> None:
        """The default decisions in a row, until one needs unknown cards (see :meth:`step`)."""
        order = self._sd_order
        while self._phase is _PH_SHOWDOWN:
            p = order[self._sd_i]
            decision = self._default_showdown(p)
            if decision is None:
                return  # waits for cards nobody knows
            if decision is _K_SHOW:
                self._show(p)
            else:
                self._muck(p)

    def _value(self, p: int) -> int:
        value = self._vals[p]
        if not value:
            a, b = self._hole[p]  # type: ignore[misc]
            c, d, e, f, g = self._board
            value = self._vals[p] = evaluate7(a, b, c, d, e, f, g)
        return value

    def _default_showdown(self, p: int) -> ActionKind | None:
        """SHOW or MUCK as the default decision of ``p``; None if it needs their cards."""
        if self._hole[p] is None:
            return None
        if self._face_up:
            return _K_SHOW
        return _K_SHOW if self._value(p) >= self._sd_best else _K_MUCK

    def _may_muck(self, p: int) -> bool:
        if self._hole[p] is None:
            return True
        return not self._face_up and (self._cfg.aggressor_may_muck or p != self._aggressor)

    def _showdown_turn(self, name: str, seat: int | None) -> int:
        if self._phase is not _PH_SHOWDOWN:
            who = f" by seat {seat}" if seat is not None else ""
            reason = (
                self._not_betting_or_turn()
                if self._phase is not _PH_COMPLETE
                else ("the hand is over")
            )
            if self._phase is _PH_BETTING:
                reason = f"the betting is not over, seat {self._nos[self._actor]} is to act"
            raise IllegalActionError(
                f"illegal {name}{who}: {reason} {self._ctx()}", seat=seat, action=name
            )
        p = self._sd_order[self._sd_i]
        if seat is not None and seat != self._nos[p]:
            raise IllegalActionError(
                f"illegal {name} by seat {seat}: seat {self._nos[p]} shows or mucks first "
                f"{self._ctx()}",
                seat=seat,
                action=name,
            )
        return p

    def verify_show(
        self, cards: str | Iterable[Card | str] | None = None, seat: int | None = None
    ) -> None:
        """Raises :class:`IllegalActionError` unless the player may show (these cards)."""
        if self._phase is _PH_COMPLETE:
            self._shows_after(cards, seat)
            return
        p = self._showdown_turn("show", seat)
        self._check_shown_cards(p, cards)

    def _shows_after(
        self, cards: str | Iterable[Card | str] | None, seat: int | None
    ) -> tuple[int, tuple[Card, Card] | None]:
        """The position of ``seat``, who shows their cards after the hand (R10:
        after folding, or after winning uncontested), and the cards given
        where they were unknown; raises unless they may."""
        if seat is None:
            raise IllegalActionError(f"illegal show: the hand is over: a show after it "
                                     f"names the seat that shows {self._ctx()}",
                                     action="show")  # fmt: skip
        if seat not in self._nos or isinstance(seat, bool):
            raise IllegalActionError(f"illegal show by seat {seat}: no player of the hand sits "
                                     f"there {self._ctx()}", seat=seat, action="show")  # fmt: skip
        p = self._nos.index(seat)
        if self._status[p] == MUCKED:
            raise self._illegal("show", p, "they mucked at the showdown: a mucked hand is dead")
        if any(a.kind is _K_SHOW and a.seat == seat for a in self._log):
            raise self._illegal("show", p, "their cards are shown already")
        return p, self._check_shown_cards(p, cards)

    def _check_shown_cards(
        self, p: int, cards: str | Iterable[Card | str] | None
    ) -> tuple[Card, Card] | None:
        known = self._hole[p]
        if cards is None:
            if known is None:
                raise self._illegal("show", p, "the hole cards are unknown: give them")
            return None
        parsed = parse_cards(cards)
        if len(parsed) != 2:
            raise self._illegal("show", p, f"a hand has 2 hole cards, got {len(parsed)}")
        if known is not None:
            if set(parsed) != set(known):
                raise self._illegal(
                    "show", p, f"seat {self._nos[p]} holds other cards than {format_cards(parsed)}"
                )
            return None
        taken = set(self._board)
        for q, h in enumerate(self._hole):
            if h is not None and q != p:
                taken.update(h)
        clash = [c for c in parsed if c in taken]
        if clash:
            raise self._illegal("show", p, f"{format_cards(clash)} is already in play")
        return parsed[0], parsed[1]

    def can_show(
        self, cards: str | Iterable[Card | str] | None = None, seat: int | None = None
    ) -> bool:
        """Whether the player may show (these cards)."""
        try:
            self.verify_show(cards, seat)
        except (IllegalActionError, InvalidCardError):
            return False
        return True

    def show(
        self, cards: str | Iterable[Card | str] | None = None, seat: int | None = None
    ) -> Action:
        """Shows the hole cards at showdown; ``cards`` gives them when unknown (replay).
        Once the hand is over, a player who folded or won uncontested may show."""
        if self._phase is _PH_COMPLETE:
            p, given = self._shows_after(cards, seat)
            if given is not None:
                self._hole[p] = given
            known = self._hole[p]
            assert known is not None
            record = _record(_K_SHOW, self._nos[p], self._street, cards=known)
            self._log.append(record)
            return record
        p = self._showdown_turn("show", seat)
        hole = self._check_shown_cards(p, cards)
        if hole is not None:
            self._hole[p] = hole
        record = self._show(p)
        if self._auto:
            self._run()
        return record

    def _show(self, p: int) -> Action:
        value = self._value(p)
        if value > self._sd_best:
            self._sd_best = value
        self._shown[p] = True
        hole = self._hole[p]
        assert hole is not None
        record = _record(_K_SHOW, self._nos[p], self._street, cards=hole)
        self._log.append(record)
        self._next_shower()
        return record

    def verify_muck(self, seat: int | None = None) -> None:
        """Raises :class:`IllegalActionError` unless the player may muck."""
        p = self._showdown_turn("muck", seat)
        if not self._may_muck(p):
            if self._face_up:
                raise self._illegal("muck", p, "a player is all-in: every hand is shown face up")
            raise self._illegal("muck", p, "the last to bet or raise on the river was called: "
                                "they show first, and may not muck (R10)")  # fmt: skip

    def can_muck(self, seat: int | None = None) -> bool:
        """Whether the player may muck."""
        try:
            self.verify_muck(seat)
        except IllegalActionError:
            return False
        return True

    def muck(self, seat: int | None = None) -> Action:
        """Gives up at showdown without showing."""
        self.verify_muck(seat)
        record = self._muck(self._sd_order[self._sd_i])
        if self._auto:
            self._run()
        return record

    def _muck(self, p: int) -> Action:
        self._status[p] = MUCKED
        self._n_in -= 1
        record = _record(_K_MUCK, self._nos[p], self._street)
        self._log.append(record)
        self._next_shower()
        return record

    def _next_shower(self) -> None:
        self._sd_i += 1
        # the last one left after the others mucked wins without showing
        if self._sd_i >= len(self._sd_order) or self._n_in == 1:
            self._phase = _PH_AWARDING

    # ------------------------------------------------------------ award

    def _award(self) -> Action | None:
        n = self._n
        status = self._status
        pots: list[tuple[int, tuple[int, ...]]]
        if self._n_in == 1:  # everybody else folded: one pot, no showdown
            winner = 0
            while status[winner] == FOLDED or status[winner] == MUCKED:
                winner += 1
            pots = [(sum(self._contrib), (winner,))]
        elif ALL_IN not in status and PROTECTED not in status:
            # nobody all-in: build_pots would give one pot of everything for
            # everybody still in (none at all when nothing was put in)
            total = sum(self._contrib)
            live = tuple([q for q in range(n) if status[q] != FOLDED and status[q] != MUCKED])
            pots = [(total, live)] if total else []
        else:
            # antes and dead blinds too are their poster's money in the pots (R3, R9)
            in_hand = [s != FOLDED and s != MUCKED for s in status]
            all_in = [s in (ALL_IN, PROTECTED) for s in status]
            pots = build_pots(self._contrib, in_hand, all_in)
        stacks = self._stacks
        vals = self._vals
        log = self._log
        street = self._street
        awards: list[tuple[int, tuple[int, ...], tuple[int, ...], tuple[int, ...]]] = []
        record = None
        for i in range(len(pots) - 1, -1, -1):  # last-formed first (R9)
            amount, eligible = pots[i]
            if len(eligible) > 1:
                best = max([vals[q] for q in eligible])
                winners = [q for q in eligible if vals[q] == best]
            else:
                winners = list(eligible)
            if len(winners) == 1:
                q = winners[0]
                stacks[q] += amount
                record = _record(_K_WIN, self._nos[q], street, amount=amount, pot=i)
                log.append(record)
                awards.append((amount, eligible, (q,), (amount,)))
                continue
            shares = split(amount, winners, self._first, n)
            for q, chips in shares:
                stacks[q] += chips
                record = _record(_K_WIN, self._nos[q], street, amount=chips, pot=i)
                log.append(record)
            awards.append(
                (amount, eligible, tuple([q for q, _ in shares]), tuple([c for _, c in shares]))
            )
        awards.reverse()
        self._awards = awards
        self._contrib = [0] * n
        self._bets = [0] * n
        self._phase = _PH_COMPLETE
        return record

    @property
    def outcome(self) -> Outcome | None:
        """How the hand ended, once it has (:class:`~holdem.pots.Outcome`)."""
        if self._outcome is None and self._phase is _PH_COMPLETE:
            n = self._n
            order = self._sd_order
            shown = self._shown
            hole = self._hole
            vals = self._vals
            status = self._status
            start = self._cfg.stacks
            stacks = self._stacks
            no = self._nos
            self._outcome = Outcome(
                pots=tuple(
                    Pot(amount, tuple(no[q] for q in eligible), tuple(no[q] for q in won), shares)
                    for amount, eligible, won, shares in self._awards
                ),
                shown=tuple(ShownHand(no[q], hole[q], vals[q]) for q in order if shown[q]),  # type: ignore[arg-type]
                mucked=tuple(no[q] for q in order if status[q] == MUCKED),
                returned=tuple(self._returned),
                net=tuple(stacks[p] - start[p] for p in range(n)),
                stacks=tuple(stacks),
                showdown=bool(order),
            )
        return self._outcome

    # -------------------------------------------------------- undo, copy

    def _snapshot(self) -> tuple[Any, ...]:
        return (
            *[getattr(self, name)[:] for name in _STATE_LISTS],
            *[getattr(self, name) for name in _STATE_VALUES],
            *[len(getattr(self, name)) for name in _STATE_GROWING],
        )

    def _restore(self, snap: tuple[Any, ...]) -> None:
        for name, value in zip(_STATE_LISTS + _STATE_VALUES, snap, strict=False):
            setattr(self, name, value)
        lengths = snap[len(_STATE_LISTS) + len(_STATE_VALUES) :]
        for name, length in zip(_STATE_GROWING, lengths, strict=True):
            del getattr(self, name)[length:]

    def push(
        self,
        decision: Decision | ActionKind | str,
        to: int | None = None,
        *,
        seat: int | None = None,
        cards: str | Iterable[Card | str] | None = None,
    ) -> Action:
        """Like :meth:`act`, remembering the state before so :meth:`pop` can undo it.

        The snapshot is a few small lists (no deep copy); the dealer steps
        that follow the action in auto mode are undone with it.
        """
        snap = self._snapshot()
        try:
            record = self.act(decision, to, seat=seat, cards=cards)
        except BaseException:
            self._restore(snap)
            raise
        self._history.append(snap)
        return record

    def pop(self) -> None:
        """Undoes the last :meth:`push`."""
        if not self._history:
            raise HoldemError("nothing to undo: no push() is pending")
        self._restore(self._history.pop())

    def copy(self) -> Hand:
        """An independent copy of the current state (without the undo history)."""
        other = Hand.__new__(Hand)
        for name in _FIXED:
            setattr(other, name, getattr(self, name))
        for name in _STATE_GROWING:
            setattr(other, name, getattr(self, name)[:])
        other._history = []
        other._restore(self._snapshot())
        return other

    def __repr__(self) -> str:
        who = f", seat {self.actor} to act" if self.actor is not None else ""
        return (
            f"<Hand {self._street.label}, {self._phase.value}{who}, pot {self.pot}, "
            f"stacks {list(self._stacks)}>"
        )

    # ------------------------------------------------------------- views

    def view(self, seat: int | None) -> PlayerView:
        """What ``seat`` may know (RULES.md R14): a :class:`~holdem.views.PlayerView`.

        ``None`` gives a spectator's view (no hole cards at all); a seat not at
        the table raises :class:`~holdem.errors.ConfigError`, as in
        :meth:`hole_cards`.  The view is a snapshot: tuples of the public
        state, the viewer's own cards, and their legal actions on their turn.
        """
        if self._pos is not None or type(seat) is not int or not 0 <= seat < self._n:
            position = None if seat is None else self._seat(seat)
        else:
            position = seat
        phase = self._phase
        if phase is _PH_BETTING:
            actor: int | None = self._actor
        elif phase is _PH_SHOWDOWN:
            actor = self._sd_order[self._sd_i]
        else:
            actor = None
        outcome = self._outcome
        if outcome is None and phase is _PH_COMPLETE:
            outcome = self.outcome
        return _make_view(
            seat,
            self._hole[position] if position is not None and self._dealt else None,
            self._cfg,
            phase,
            self._street,
            tuple(self._board),
            tuple(self._stacks),
            tuple(self._bets),
            tuple(self._contrib),
            tuple(self._status),
            self._bet,
            None if actor is None else self._nos[actor],
            self.legal_actions() if actor == position and actor is not None else None,
            tuple(self._log),
            outcome,
        )


_PLAYER_KINDS = PLAYER_KINDS + REFEREE_KINDS
#: Names as earlier versions spelt them (``"all-in"``), still understood by act().
_KIND_NAMES = {k.value.replace("_", "-"): k for k in ActionKind} | {
    k.value.replace("_", " "): k for k in ActionKind
}
_SIMPLE_ACTIONS: dict[ActionKind, Any] = {
    _K_FOLD: Hand.fold,
    _K_CHECK: Hand.check,
    _K_CALL: Hand.call,
    _K_ALL_IN: Hand.all_in,
    _K_TIMEOUT: Hand.timeout,
    _K_MUCK: Hand.muck,
}
