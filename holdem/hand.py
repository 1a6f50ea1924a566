"""The rules engine of one hand of Texas Hold'em (RULES.md R3-R10, R13, R14).

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
from dataclasses import fields
from typing import Any

from . import _engine
from ._core import ffi, lib
from .actions import (
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
from .cards import Card, Deck, format_cards, parse_board, parse_cards, parse_hole
from .config import HandConfig, HeadsUpCap, Structure
from .errors import ConfigError, HoldemError, IllegalActionError, InvalidCardError, quote
from .pots import Outcome, Pot, ShownHand
from .views import _VIEW_FIELDS, PlayerView

__all__ = ["STATUS_NAMES", "Hand", "Phase"]

# The statuses Python reads, as the C core numbers them (indexes into STATUS_NAMES).
FOLDED = STATUS_NAMES.index("folded")
MUCKED = STATUS_NAMES.index("mucked")

_OUT = (FOLDED, MUCKED)
# where the board cards sit in the stub that follows the hole cards:
# burn, flop x3, burn, turn, burn, river
_STUB_BOARD = (1, 2, 3, 5, 7)
_STUB = 8
#: the core's codes of the betting structures and of the heads-up cap policies
_STRUCTURES = {Structure.NO_LIMIT: 0, Structure.POT_LIMIT: 1, Structure.FIXED_LIMIT: 2}
_CAPS = {HeadsUpCap.NEVER: 0, HeadsUpCap.ROUND_START: 1, HeadsUpCap.TWO_LEFT: 2}

_K_BET = ActionKind.BET
_K_CALL = ActionKind.CALL
_K_DEAL_BOARD = ActionKind.DEAL_BOARD
_K_DEAL_HOLE = ActionKind.DEAL_HOLE
_K_FOLD = ActionKind.FOLD
_K_CHECK = ActionKind.CHECK
_K_ALL_IN = ActionKind.ALL_IN
_K_MUCK = ActionKind.MUCK
_K_RAISE = ActionKind.RAISE
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
_S_FLOP = Street.FLOP
#: The board cards dealt before a street (where a second run starts from).
_RUN_FROM = {Street.FLOP: 0, Street.TURN: 3, Street.RIVER: 4}
_S_PREFLOP = Street.PREFLOP

# The C core builds records, menus and views of these types, and values hands
# with the evaluator's tables.
_engine.bind(
    int(ffi.cast("uintptr_t", lib.hd_tables_address())),
    tuple(ActionKind),
    tuple(Phase),
    tuple(Street),
    Action,
    LegalActions,
    PlayerView,
    _VIEW_FIELDS,
)
# The C core makes the outcome's records too, setting their slots by name.
_POT_SLOTS = ("amount", "eligible", "winners", "shares", "run")
_SHOWN_SLOTS = ("seat", "cards", "value", "run")
_OUTCOME_SLOTS = ("pots", "shown", "mucked", "returned", "net", "stacks", "showdown")
if any(
    set(names) != {f.name for f in fields(record)}
    for record, names in ((Pot, _POT_SLOTS), (ShownHand, _SHOWN_SLOTS), (Outcome, _OUTCOME_SLOTS))
):  # a field the C core would leave unset
    raise ImportError("holdem.hand: Pot, ShownHand or Outcome has fields the C core does not fill")
_engine.bind_outcome(Pot, _POT_SLOTS, ShownHand, _SHOWN_SLOTS, Outcome, _OUTCOME_SLOTS)


def _deal_around(deck: Deck, taken: set[Card], need: int) -> list[Card]:
    """The next ``need`` cards of ``deck`` that are not in ``taken``."""
    out: list[Card] = []
    while len(out) < need:
        card = deck.deal(1)[0]
        if card not in taken:
            out.append(card)
    return out


def _deal_cards(
    n: int,
    first: int,
    rng: int | random.Random | None,
    deck: Deck | None,
    hole_cards: Sequence[object] | None,
    board: str | Iterable[Card | str] | None,
    more: int = 0,
) -> tuple[list[tuple[Card, Card] | None] | None, Sequence[Card | None]]:
    """The hole cards by position and the stub (burns and board) of a new hand:
    dealt from ``deck`` or ``Deck(rng)``, or given (None where unknown).  When
    everything is dealt: (None, the 2n + 8 cards in the order of the deal).
    ``more`` cards are dealt after the stub, and follow it (None when nothing is
    drawn): the second run's, where the board may be run twice."""
    given_board = parse_board(board)
    if hole_cards is None and not given_board:
        cards = (deck if deck is not None else Deck(rng)).deal(2 * n + _STUB + more)
        return None, cards  # the C core deals them out
    if hole_cards is not None:
        if isinstance(hole_cards, str) or len(hole_cards) != n:
            raise InvalidCardError(f"hole_cards: expected a list of {n} hands, one per seat")
        hole: list[tuple[Card, Card] | None] = [
            parse_hole(item, f"seat {seat}") for seat, item in enumerate(hole_cards)
        ]
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
        unknown = [(first + i) % n for i in range(n) if hole[(first + i) % n] is None]
        need = stub.count(None) + 2 * len(unknown)
        if deck is None:
            drawn = iter(Deck(rng, exclude=known).deal(need))
        else:
            taken = set(known)
            drawn = iter(_deal_around(deck, taken, need))
        ones = [next(drawn) for _ in unknown]  # round the table, one card at a time
        twos = [next(drawn) for _ in unknown]
        for seat, a, b in zip(unknown, ones, twos, strict=True):
            hole[seat] = (a, b)
        stub = [c if c is not None else next(drawn) for c in stub]
        if more:
            taken = {c for h in hole if h for c in h} | set(stub)  # type: ignore[arg-type]
            extra = Deck(rng, exclude=taken) if deck is None else None
            stub += extra.deal(more) if extra is not None else _deal_around(deck, taken, more)  # type: ignore[arg-type]
    elif more:
        stub += [None] * more
    return hole, stub


def _check_second_board(
    given: Sequence[Card],
    hole: Sequence[tuple[Card, Card] | None] | None,
    stub: Sequence[Card | None],
) -> None:
    """Raises :class:`InvalidCardError` for a second run's board (run it twice)
    that deals a card twice: a hole card, or a card of the first run's board
    other than at its own place (the cards before the run-out are shared)."""
    board = [stub[slot] for slot in _STUB_BOARD]
    taken = {c for h in hole or () if h for c in h}
    for i, c in enumerate(given):
        if c in taken or given.index(c) != i or (c in board and board.index(c) != i):
            raise InvalidCardError(
                f"second_board: {format_cards([c])} is dealt twice (the second run's board "
                "deals a card of the hand again)"
            )


class Hand(_engine.HandCore):
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
    :param second_board: where the players may run it twice
        (``config.run_twice``): the second run's board as given (replay), up
        to five cards of which those after the run-out begins are dealt; else
        the second run's cards are drawn with the hand's (eight more: burns and
        board), or unknown when nothing is drawn.

    The state and the rules that change it (posting, dealing, betting,
    turn order, showdown defaults, pots) are in the C base class
    ``holdem._engine.HandCore``; this class checks what it is given, parses
    cards, explains every refusal, and builds views and the outcome.
    """

    __slots__ = ("_cfg", "_history", "_nos", "_outcome", "_pos")

    def __init__(
        self,
        config: HandConfig,
        *,
        rng: int | random.Random | None = None,
        deck: Deck | None = None,
        hole_cards: Sequence[object] | None = None,
        board: str | Iterable[Card | str] | None = None,
        auto: bool = True,
        second_board: str | Iterable[Card | str] | None = None,
    ) -> None:
        n = len(config.stacks)
        if deck is not None:
            if rng is not None:
                raise ConfigError("give rng or deck, not both", field="deck", value=deck)
            if not isinstance(deck, Deck):
                raise ConfigError(
                    f"deck must be a holdem.Deck, not {type(deck).__name__}",
                    field="deck",
                    value=deck,
                )
        twice = bool(config.run_twice)
        hole, stub = _deal_cards(
            n, (config.button + 1) % n, rng, deck, hole_cards, board, _STUB * twice
        )
        auto = bool(auto)
        if twice:  # (the second run's stub: given, dealt after the hand's cards, or unknown)
            stub, second = stub[: len(stub) - _STUB], list(stub[len(stub) - _STUB :])
            if second_board is not None:
                given = parse_board(second_board)
                _check_second_board(given, hole, stub)
                second = [None] * _STUB
                for slot, c in zip(_STUB_BOARD, given, strict=False):
                    second[slot] = c
        elif second_board is not None:
            raise ConfigError(
                "second_board: nobody runs it twice (config.run_twice is empty)",
                field="second_board",
                value=second_board,
            )
        self._begin(config, auto, hole, stub)
        if twice:
            mask = sum(1 << p for p in config.run_twice)
            self._set_second_run(mask, second)
        if auto:
            self._run()

    def _begin(
        self,
        config: HandConfig,
        auto: bool,
        hole: list[tuple[Card, Card] | None] | None,
        stub: Sequence[Card | None],
    ) -> None:
        """Sets the hand up with its cards, as :func:`_deal_cards` gives them."""
        self._cfg = config
        # table seat numbers by position, and positions by seat number (None: the same)
        self._nos = config.seat_numbers
        self._pos: dict[int, int] | None = None  # positions by table seat (see _seat)
        self._outcome: Outcome | None = None
        self._history: list[tuple[bytes, Outcome | None]] = []
        straddle_seat = config.straddle_seat
        self._setup(
            self._nos,
            config.stacks,
            auto,
            _STRUCTURES[config.structure],
            config.button,
            (config.button + 1) % len(config.stacks),
            config.big_blind_seat,
            -1 if straddle_seat is None else straddle_seat,
            config.big_blind,
            config.straddle,
            config.small_bet,
            config.big_bet,
            config.raise_cap,
            _CAPS[config.heads_up_cap],
            config.forced_bets,
            hole,
            stub,
            config.rule_bits if config.rule_variants else 0,
            config.aggressor_may_muck,
        )

    @classmethod
    def _replayed(
        cls, config: HandConfig, moves: tuple[Any, ...], kinds: tuple[str, ...]
    ) -> Hand | None:
        """The hand a replay of a hand history starts from (``auto=False``), its
        forced bets posted and hole cards dealt: the known cards are those of
        ``moves`` (a history's moves, their kinds named by ``kinds``: see
        ``_engine.script_cards``).  None when a card needs the checks and messages
        of ``Hand(config, hole_cards=..., board=..., auto=False)``."""
        cards = _engine.script_cards(moves, len(config.stacks), kinds)
        if cards is None:
            return None
        hand = cls.__new__(cls)
        hand._begin(config, False, *cards)
        hand._deal_in()
        return hand

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
        """The board cards dealt so far (where it is run twice, the first run's)."""
        return tuple(self._board)

    @property
    def second_board(self) -> tuple[Card, ...]:
        """Where the rest of the board is run twice (R10, ``config.run_twice``): the
        second run's board as far as it is dealt, its cards before the run-out the
        board's own; else ().  Its deals are in the log as ``deal_board`` records
        of ``pot`` 1."""
        second = [a for a in self.log if a.kind is _K_DEAL_BOARD and a.run]
        if not second:
            return ()
        start = _RUN_FROM[second[0].street]
        return tuple(self._board[:start]) + tuple(c for a in second for c in a.cards)

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
        if positions is None and self._cfg.seats:  # (made when first needed: the C core
            # finds a table seat's position itself)
            positions = self._pos = {s: i for i, s in enumerate(self._cfg.seats)}
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

    def _wager_range(self, p: int, you: bool = False) -> tuple[int, int] | str:
        """(min, max) to-amounts of a bet or raise by ``p``, or why there is none
        (``you``: said to the player, not of their seat).

        The minimum may exceed what the player has: an all-in for less is
        then the only wager (checked by the callers).  The numbers come from
        the C core (its ``_range``); the reasons are worded here.
        """
        code, lo, hi = self._range(p)
        if not code:
            return lo, hi
        seat = self._nos[p]
        who = "you" if you else f"seat {seat}"
        if code == 1:
            owed = self._bet - self._bets[p]
            if you:
                return f"calling {owed} takes all {self._stacks[p]} of your chips"
            return f"calling {owed} takes all {self._stacks[p]} chips of seat {seat}"
        if code == 2:
            return "no other player could call a raise (the others are all-in or out)"
        if code == 3:
            return (
                f"{who} already acted and the betting was not reopened "
                "(an all-in of less than half a bet does not reopen it)"
            )
        if code == 4:
            raises = self._cfg.raise_cap
            return f"the betting is capped (a bet and {raises} raise{'s' * (raises != 1)})"
        return (
            f"{who} already acted and {'face' if you else 'faces'} only "
            f"{self._bet - self._faced[p]} more, less "
            f"than a full raise of {self._full}: the betting was not reopened"
        )

    def why_no_wager(self, seat: int | None = None) -> str | None:
        """Why the player to act (``seat``, if given) may make no full bet or
        raise now, said to them ("you already acted and ..."); None when they may.

        >>> hand = Hand(HandConfig((100, 100), 0, 1, 2), rng=1)
        >>> hand.why_no_wager() is None
        True
        """
        p = self._turn("bet or raise", seat)
        why = self._wager_range(p, you=True)
        return why if isinstance(why, str) else None

    # ------------------------------------------------------------- fold

    def verify_fold(self, seat: int | None = None) -> None:
        """Raises :class:`IllegalActionError` unless the player to act may fold."""
        self._turn("fold", seat)

    def can_fold(self, seat: int | None = None) -> bool:
        """Whether the player to act (``seat``, if given) may fold."""
        return self._phase is _PH_BETTING and (seat is None or seat == self._nos[self._actor])

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

    # ------------------------------------------------- conveniences

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

    def verify_raise_to(self, to: int, seat: int | None = None) -> None:
        """Raises :class:`IllegalActionError` unless the player may raise to ``to``."""
        self._verify_wager(_K_RAISE, to, seat)

    def can_raise_to(self, to: int | None = None, seat: int | None = None) -> bool:
        """Whether the player may raise to ``to`` (to any amount, if None)."""
        return self._can_wager(_K_RAISE, to, seat)

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

    # ----------------------------------------------------------- timeout

    def verify_timeout(self, seat: int | None = None) -> None:
        """Raises :class:`IllegalActionError` unless a protected timeout is possible."""
        self._turn("timeout", seat)

    def can_timeout(self, seat: int | None = None) -> bool:
        """Whether the player to act may take a protected timeout."""
        return self.can_fold(seat)

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
        if phase is _PH_BETTING or phase is _PH_COMPLETE:
            raise IllegalActionError(
                f"no dealer step is pending: {self._not_betting_or_turn()} {self._ctx()}"
            )
        return self._step()

    def _not_betting_or_turn(self) -> str:
        if self._phase is _PH_BETTING:
            return f"seat {self._nos[self._actor]} is to act"
        return self._not_betting()

    def run(self) -> list[Action]:
        """Does dealer steps until a player must decide or the hand is over."""
        log = self._log
        start = len(log)
        self._run()
        return log[start:]

    def _missing_board(self, street: Street, run: int = 0) -> None:
        """Raises: the cards of ``street`` (of the second run: ``run`` 1) are needed
        but were not given (the C core calls this before dealing the street)."""
        many = street is _S_FLOP
        which = "the second run's " if run else "the "
        raise HoldemError(
            f"{which}{street.label} is needed but its card{'s' * many} "
            f"{'were' if many else 'was'} not given {self._ctx()}"
        )

    # ---------------------------------------------------------- showdown

    def _may_muck(self, p: int) -> bool:
        """Whether ``p`` may muck at the showdown: not when every hand is face
        up, nor as the river's last aggressor, once called (R10); always when
        their cards are unknown (a replay)."""
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
        where they were unknown; raises unless they may.  Whoever showed or
        mucked at the showdown may not (a mucked hand is dead)."""
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

        Once the hand is over, a player who folded or won it uncontested may
        show their cards (R10: a table says whether it allows it), ``seat``
        named: a record of the show is appended to the log, the outcome
        unchanged."""
        if self._phase is _PH_COMPLETE:
            p, hole = self._shows_after(cards, seat)
            if hole is not None:
                self._set_hole(p, *hole)
            known = self._hole[p]
            assert known is not None  # (given, or known: checked)
            record = Action(_K_SHOW, self._nos[p], 0, 0, self._street, False, known, -1, 0)
            self._log.append(record)
            return record
        p = self._showdown_turn("show", seat)
        hole = self._check_shown_cards(p, cards)
        if hole is not None:
            self._set_hole(p, *hole)
        record = self._show(p)
        if self._auto:
            self._run()
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

    # ------------------------------------------------------------ award

    @property
    def outcome(self) -> Outcome | None:
        """How the hand ended, once it has (:class:`~holdem.pots.Outcome`)."""
        if self._outcome is None and self._phase is _PH_COMPLETE:
            self._outcome = self._make_outcome()
        return self._outcome

    # -------------------------------------------------------- undo, copy

    def _snapshot(self) -> tuple[bytes, Outcome | None]:
        return self._snap(), self._outcome

    def _restore(self, snap: tuple[bytes, Outcome | None]) -> None:
        self._load(snap[0])
        self._outcome = snap[1]

    def push(
        self,
        decision: Decision | ActionKind | str,
        to: int | None = None,
        *,
        seat: int | None = None,
        cards: str | Iterable[Card | str] | None = None,
    ) -> Action:
        """Like :meth:`act`, remembering the state before so :meth:`pop` can undo it.

        The snapshot is one copy of the C core's state (no deep copy); the
        dealer steps that follow the action in auto mode are undone with it.
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
        self._copy_to(other)
        other._cfg = self._cfg
        other._nos = self._nos
        other._pos = self._pos
        other._outcome = self._outcome
        other._history = []
        return other

    def __repr__(self) -> str:
        who = f", seat {self.actor} to act" if self.actor is not None else ""
        return (
            f"<Hand {self._street.label}, {self._phase.value}{who}, pot {self.pot}, "
            f"stacks {list(self._stacks)}>"
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
