"""A table as one player (or a spectator) may see it, kept up to date by the
events the :class:`~holdem.clients.telling.Teller` tells: what a screen
draws (the full screen of ``holdem play``, ``join`` and ``watch``; the
browser's table later).

:class:`TableModel` holds the seats (names, stacks, bets, folded, all in,
sitting out), the button and the blinds, whose turn it is, the board, every
pot (main and side pots, built from what each seat put in), the player's own
cards, the legal actions at the player's turn with the timer's deadline,
the hands shown at showdown (their best five cards and the kicker that
decided), a review of the last hands and the player's statistics.  It holds
no card the player may not see: its own hole cards come from the game, never
from an event, and another seat's only as shown (R14).

It is fed a table's events (``holdem play``: :meth:`TableModel.event`,
:meth:`TableModel.action`) or a room's event messages
(:meth:`TableModel.message`), and the player's turn (:meth:`TableModel.turn`).

>>> from holdem.table import HandStarted
>>> model = TableModel(me=0)
>>> model.event(HandStarted(hand=1, button=0, small_blind_seat=0, big_blind_seat=1,
...     seats=(0, 1), stacks=(100, 100), names=("Ann", "Ben"), small_blind=1, big_blind=2))
>>> model.action(Action(ActionKind.SMALL_BLIND, 0, 1, 1))
>>> model.action(Action(ActionKind.BIG_BLIND, 1, 2, 2))
>>> model.seats[0].stack, model.seats[1].bet, model.pots, model.actor
(99, 2, [(3, (0, 1))], 0)
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from holdem import (
    Action,
    ActionKind,
    Card,
    LegalActions,
    PlayerView,
    best_five,
    deciding_kicker,
    describe,
    evaluate,
)
from holdem.cards import RANK_NAMES, parse_cards
from holdem.pots import Outcome, build_pots
from holdem.table import (
    ActionTaken,
    ChipsAdded,
    Event,
    HandEnded,
    HandStarted,
    LevelUp,
    PlayerEliminated,
    SatIn,
    SatOut,
    SeatFreed,
    SeatTaken,
    event_from_dict,
)
from holdem.units import ONE

from .telling import escaped, second_run, table_unit

__all__ = ["Review", "SeatState", "Shown", "Stats", "TableModel"]

#: The last hands a review keeps.
REVIEWS = 10
_BETS = frozenset({ActionKind.CALL, ActionKind.BET, ActionKind.RAISE})
_POSTS = frozenset(
    {
        ActionKind.SMALL_BLIND,
        ActionKind.BIG_BLIND,
        ActionKind.ANTE,
        ActionKind.STRADDLE,
        ActionKind.LIVE_POST,
        ActionKind.DEAD_BLIND,
    }
)
#: The room's events that are a table's (read by :func:`event_from_dict`).
_TABLE_EVENTS = frozenset({"seat_taken", "seat_freed", "sat_out", "sat_in", "chips_added",
                           "hand_started", "hand_ended", "level_up",
                           "player_eliminated"})  # fmt: skip


@dataclass(slots=True)
class SeatState:
    """One seat as the table shows it."""

    seat: int
    name: str
    label: str = ""  # (what shows after the name: a bot's level)
    stack: int = 0
    bet: int = 0  # (this betting round)
    put_in: int = 0  # (this hand: the pots are built of it)
    #: ``waiting`` (not dealt in), ``active``, ``folded``, ``all_in``, ``protected``
    #: (a timeout's), ``mucked``
    status: str = "waiting"
    #: ``away`` (out of the deal), ``disconnected``, or ``""``
    presence: str = ""
    cards: tuple[Card, ...] = ()  # (shown at showdown; the player's own)
    acted: bool = False  # (acted in this betting round)
    last: str = ""  # (the seat's last move this hand, as the table shows it)

    @property
    def in_hand(self) -> bool:
        return self.status in ("active", "all_in", "protected")


@dataclass(frozen=True, slots=True)
class Shown:
    """A hand shown at showdown: its five best cards, what they make, and the
    kicker that decided a pot it won against a hand of the same rank."""

    seat: int
    name: str
    cards: tuple[Card, ...]
    best: tuple[Card, ...]
    description: str
    kicker: str | None = None  # ("King": the kicker that decided, when one did)
    won: int = 0
    run: int = 0  # (a board run twice, R10: 1 on the second run's board)


@dataclass(frozen=True, slots=True)
class Review:
    """One hand as the review of the last hands tells it."""

    hand: int
    cards: tuple[Card, ...]  # (the player's; none for a spectator)
    board: tuple[Card, ...]
    won: tuple[tuple[str, int], ...]  # (who won how much, pot by pot)
    net: int | None  # (the player's result; None: not dealt in)
    shown: tuple[Shown, ...] = ()
    second_board: tuple[Card, ...] = ()  # (a board run twice: the second run's, R10)


@dataclass(slots=True)
class Stats:
    """The player's session: hands dealt in, chips won or lost, hands won at
    a showdown, and how often they put chips in before the flop of their own
    will (VPIP) and raised before it (PFR)."""

    hands: int = 0
    net: int = 0
    showdowns_won: int = 0
    vpip: int = 0
    pfr: int = 0

    def percent(self, count: int) -> str:
        return f"{100 * count / self.hands:.0f}%" if self.hands else "-"


class TableModel:
    """The table as the player at seat ``me`` (None: a spectator) sees it."""

    def __init__(self, me: int | None, *, reviews: int = REVIEWS) -> None:
        self.me = me
        self.seats: dict[int, SeatState] = {}
        self.hand = 0  # (the number of the hand being played, or the last one)
        self.playing = False  # (a hand is under way)
        self.button: int | None = None
        self.small_blind_seat: int | None = None
        self.big_blind_seat: int | None = None
        self.blinds = (0, 0, 0)  # (small blind, big blind, ante)
        self.big_blind_ante = False  # (the ante is the big blind's, not each player's)
        self.unit: Decimal = ONE  # (the table's chip unit: amounts read in its money, R9)
        self.level = 0
        self.board: tuple[Card, ...] = ()
        self.second_board: tuple[Card, ...] = ()  # (a board run twice: the second run's, R10)
        self.hole: tuple[Card, ...] = ()  # (the player's own, set by the game)
        self.actor: int | None = None
        self.current_bet = 0
        self.legal: LegalActions | None = None  # (the player's menu at their turn)
        self.view: PlayerView | None = None
        self.deadline: float | None = None  # (the turn's, on time.monotonic's clock)
        self.bank: float | None = None  # (seconds of the time bank in that deadline)
        self.shown: list[Shown] = []
        self.reviews: deque[Review] = deque(maxlen=reviews)
        self.stats = Stats()
        self.won: list[tuple[int, int, int]] = []  # (seat, chips, pot) of this hand's awards
        self.result: dict[str, Any] | None = None  # (a finished table's places or results)
        self._voluntary = self._raised = False  # (the player's preflop, this hand)

    # ------------------------------------------------------------ reading

    def name(self, seat: int | None) -> str:
        if seat is None:
            return "the dealer"
        info = self.seats.get(seat)
        return info.name if info is not None else f"seat {seat + 1}"

    @property
    def pots(self) -> list[tuple[int, tuple[int, ...]]]:
        """Every pot of the hand, the main pot first: ``[(chips, seats that
        can win it), ...]`` (R9: built from what each seat put in)."""
        dealt = [s for s in self.seats.values() if s.status != "waiting"]
        if not any(s.put_in for s in dealt):
            return []
        pots = build_pots(
            [s.put_in for s in dealt],
            [s.in_hand for s in dealt],
            [s.status in ("all_in", "protected") or s.stack == 0 for s in dealt],
        )
        return [(chips, tuple(dealt[i].seat for i in where)) for chips, where in pots]

    @property
    def pot(self) -> int:
        """Chips in the middle: every pot and the bets of the round."""
        return sum(s.put_in for s in self.seats.values())

    def to_call(self) -> int:
        """What a call adds for the player at their turn (0: none)."""
        legal, mine = self.legal, self.seats.get(self.me) if self.me is not None else None
        if legal is None or legal.call is None or mine is None:
            return 0
        return max(0, legal.call - mine.bet)

    def pot_odds(self) -> tuple[int, int] | None:
        """At the player's turn with a bet to call: (the call, the pot it
        wins with the call in), e.g. (50, 200): 25% of the pot to call."""
        call = self.to_call()
        return (call, self.pot + call) if call else None

    def visible_cards(self) -> set[Card]:
        """Every card the model holds: the player's, the board, the shown."""
        cards = {*self.hole, *self.board, *self.second_board}
        for info in self.seats.values():
            cards.update(info.cards)
        for shown in self.shown:
            cards.update(shown.cards)
        return cards

    # ------------------------------------------------------------ feeding

    def seat(self, seat: int, name: str, chips: int | None = None, label: str = "") -> SeatState:
        name, label = escaped(name), escaped(label)  # (drawn as text: telling.escaped)
        info = self.seats.get(seat)
        if info is None or info.name != name:
            info = self.seats[seat] = SeatState(seat=seat, name=name, label=label)
        if chips is not None:
            info.stack = chips
        if label:
            info.label = label
        return info

    def state(self, state: dict[str, Any]) -> None:
        """A room's table ``state`` (the seats, their chips and presence)."""
        for data in state.get("seats") or ():
            info = self.seat(data["seat"], data["name"], data.get("chips"), data.get("bot") or "")
            if data.get("connected") is False:
                info.presence = "disconnected"
            elif data.get("status") == "away":
                info.presence = "away"
        if state.get("settings") is not None:  # (a room's: the table's chip unit, R9)
            self.unit = table_unit(state["settings"])

    def event(self, event: Event, own: tuple[Card, ...] | None = None) -> None:
        """One table event (an action's record: :meth:`action`, with ``own``)."""
        if isinstance(event, HandStarted):
            self._hand_started(event)
        elif isinstance(event, HandEnded):
            self._hand_ended(event)
        elif isinstance(event, SeatTaken):
            self.seat(event.seat, event.name, event.chips)
        elif isinstance(event, SeatFreed):
            self.seats.pop(event.seat, None)
        elif isinstance(event, SatOut):
            self.seat(event.seat, event.name).presence = "away"
        elif isinstance(event, SatIn):
            self.seat(event.seat, event.name).presence = ""
        elif isinstance(event, ChipsAdded):
            if not event.deferred:
                topped = self.seat(event.seat, event.name)
                if topped.presence == "away" and not topped.stack:  # (a busted seat bought in
                    topped.presence = ""  # again: dealt in from then on, no sat_in told)
                topped.stack = event.stack
        elif isinstance(event, LevelUp):
            self.level = event.level
            self.blinds = (event.small_blind, event.big_blind, event.ante)
            self.big_blind_ante = event.big_blind_ante
        elif isinstance(event, PlayerEliminated):
            info = self.seats.get(event.seat)
            if info is not None:
                info.status, info.presence = "waiting", "out"
        elif isinstance(event, ActionTaken):  # (not a show after the hand: a hand over)
            self.action(event.action, own)

    def message(self, message: dict[str, Any]) -> None:
        """One event message of a room server (``docs/rooms.md``)."""
        kind = message.get("event")
        if kind == "action":
            self.action(Action.from_dict(message["action"]))
        elif kind == "hole_cards" and message.get("seat") == self.me and self.me is not None:
            self.hole = tuple(parse_cards(message["cards"]))
            self.seats[self.me].cards = self.hole if self.me in self.seats else ()
        elif kind in _TABLE_EVENTS:
            data = {k: v for k, v in message.items() if k not in ("table", "full_information")}
            self.event(event_from_dict(data))
        elif kind == "player_joined":
            self.seat(message["seat"], message["name"], None, message.get("bot") or "")
        elif kind == "player_left":
            seat = message.get("seat")
            if isinstance(seat, int) and seat in self.seats and not self.playing:
                del self.seats[seat]
        elif kind == "seat_status":
            info = self.seats.get(message["seat"])
            if info is not None:
                status = message["status"]
                info.presence = status if status in ("away", "disconnected") else ""
        elif kind == "seated":
            self.me = message["seat"]
        elif kind == "table_finished":
            self.result = {k: message[k] for k in ("result", "results") if message.get(k)}

    def action(self, a: Action, own: tuple[Card, ...] | None = None) -> None:
        """One record of the hand's log; ``own``: the player's hole cards (at the deal)."""
        kind = a.kind
        info = self.seats.get(a.seat) if a.seat is not None else None
        if kind is ActionKind.DEAL_HOLE:
            if own and self.me is not None:  # (the player's own: never a record's cards)
                self.hole = tuple(own)
                if self.me in self.seats:
                    self.seats[self.me].cards = self.hole
            return
        if kind is ActionKind.DEAL_BOARD and a.run:  # (the second run's street, R10)
            self.second_board = second_run(self.board, self.second_board, a)
            return
        if kind is ActionKind.DEAL_BOARD:
            self.board = (*self.board, *a.cards)
            self.current_bet = 0
            for s in self.seats.values():
                s.bet, s.acted = 0, False
                if s.in_hand and s.status == "active":
                    s.last = ""
            self.actor = self._next(self.button)
            return
        if info is None:
            return
        if kind in _POSTS or kind in _BETS:
            info.stack -= a.amount
            info.put_in += a.amount
            info.bet = a.to if a.to else info.bet + a.amount
            self.current_bet = max(self.current_bet, info.bet)
            if a.all_in:
                info.status = "all_in"
        if kind is ActionKind.FOLD:
            info.status = "folded"
        elif kind is ActionKind.TIMEOUT:
            info.status = "protected"
        elif kind is ActionKind.RETURN:
            info.stack += a.amount
            info.put_in -= a.amount
            info.bet = max(0, info.bet - a.amount)
        elif kind is ActionKind.SHOW:
            info.cards = tuple(a.cards)
        elif kind is ActionKind.MUCK:
            info.status = "mucked"
            if a.seat != self.me:
                info.cards = ()
        elif kind is ActionKind.WIN:
            info.stack += a.amount
            self.won.append((info.seat, a.amount, a.pot))
        if kind in _BETS and a.seat == self.me and a.street.value == 0:
            self._voluntary = True
            self._raised = self._raised or kind is ActionKind.RAISE or kind is ActionKind.BET
        if kind in _BETS or kind in (ActionKind.FOLD, ActionKind.CHECK, ActionKind.TIMEOUT):
            info.acted = True
            info.last = {
                ActionKind.FOLD: "fold",
                ActionKind.CHECK: "check",
                ActionKind.CALL: "call",
                ActionKind.BET: "bet",
                ActionKind.RAISE: "raise",
                ActionKind.TIMEOUT: "timeout",
            }[kind] + (" (all in)" if a.all_in else "")
            if kind in (ActionKind.BET, ActionKind.RAISE):
                for other in self.seats.values():  # (a raise reopens the round)
                    other.acted = other is info
            self.actor = self._next(info.seat)
        elif kind is ActionKind.BIG_BLIND or kind is ActionKind.STRADDLE:
            self.actor = self._next(info.seat)
        elif kind in (ActionKind.SHOW, ActionKind.MUCK, ActionKind.WIN, ActionKind.RETURN):
            self.actor = None

    def turn(self, view: PlayerView, legal: LegalActions, deadline: float | None,
             bank: float | None = None) -> None:  # fmt: skip
        """The player's turn: their view, menu and the timer's deadline (with
        ``bank`` seconds of the time bank in it)."""
        self.view, self.legal, self.deadline, self.bank = view, legal, deadline, bank
        self.actor = view.actor
        for i, seat in enumerate(view.config.seat_numbers):  # (the view is the truth)
            info = self.seats.get(seat)
            if info is not None:
                info.stack, info.bet = view.stacks[i], view.bets[i]
                info.put_in = view.contributions[i]
        if view.hole_cards:
            self.hole = tuple(view.hole_cards)

    def end_turn(self) -> None:
        self.legal = self.view = None
        self.deadline = self.bank = None

    # ------------------------------------------------------------ the hand

    def _hand_started(self, e: HandStarted) -> None:
        self.hand, self.playing = e.hand, True
        self.button, self.small_blind_seat = e.button, e.small_blind_seat
        self.big_blind_seat = e.big_blind_seat
        self.blinds = (e.small_blind, e.big_blind, e.ante)
        self.big_blind_ante = e.big_blind_ante
        self.board, self.hole, self.shown, self.won = (), (), [], []
        self.second_board = ()
        self.current_bet = 0
        self._voluntary = self._raised = False
        for info in self.seats.values():
            info.status, info.bet, info.put_in, info.cards = "waiting", 0, 0, ()
            info.acted, info.last = False, ""
        for seat in [s for s, info in self.seats.items()
                     if s not in e.seats and info.name in map(escaped, e.names)]:  # fmt: skip
            del self.seats[seat]  # (a player seated again elsewhere: a room's freezeout begins)
        for seat, name, chips in zip(e.seats, e.names, e.stacks, strict=True):
            info = self.seat(seat, name, chips)
            info.status = "active"
        self.actor = None

    def _next(self, after: int | None) -> int | None:
        """The seat to act after ``after`` (None: the round is over): the next
        one clockwise still able to bet that has not acted or owes chips."""
        able = [s for s in sorted(self.seats) if self.seats[s].status == "active"]
        if after is None or not able:
            return None
        owing = [s for s in able
                 if not self.seats[s].acted or self.seats[s].bet < self.current_bet]  # fmt: skip
        if not owing or (len(able) == 1 and self.seats[able[0]].bet >= self.current_bet):
            return None
        later = [s for s in owing if s > after]
        return later[0] if later else owing[0]

    def _hand_ended(self, e: HandEnded) -> None:
        self.playing, self.actor = False, None
        outcome = e.outcome
        for seat, chips in zip(e.seats, e.stacks, strict=True):
            if seat in self.seats:
                self.seats[seat].stack = chips
        self.shown = self._showdown(outcome)
        dealt = self.me is not None and self.me in e.seats
        net = None
        if dealt:
            assert self.me is not None
            net = outcome.net[e.seats.index(self.me)]
            stats = self.stats
            stats.hands += 1
            stats.net += net
            stats.vpip += self._voluntary
            stats.pfr += self._raised
            if outcome.showdown and any(self.me in pot.winners for pot in outcome.pots):
                stats.showdowns_won += 1
        won = tuple((self.name(seat), chips) for seat, chips, _ in self.won if chips)
        review = Review(hand=e.hand, cards=self.hole, board=self.board, won=won, net=net,
                        shown=tuple(self.shown), second_board=self.second_board)  # fmt: skip
        self.reviews.appendleft(review)
        for info in self.seats.values():
            info.bet, info.put_in = 0, 0

    def _showdown(self, outcome: Outcome) -> list[Shown]:
        """The hands shown, each with its best five and the kicker that decided
        a pot it won (against the best hand it beat there); where the board
        ran twice, each hand on each run's board (R10)."""
        boards = (self.board, self.second_board)
        if len(self.board) < 5 or not outcome.shown:
            return []
        values = {(h.seat, h.run): h.value for h in outcome.shown}
        won: dict[tuple[int, int], int] = {}
        kickers: dict[tuple[int, int], str] = {}
        for pot in outcome.pots:
            run = pot.run
            for seat, share in zip(pot.winners, pot.shares, strict=False):
                won[seat, run] = won.get((seat, run), 0) + share
            beaten = [values[s, run] for s in pot.eligible
                      if (s, run) in values and s not in pot.winners]  # fmt: skip
            for seat in pot.winners:
                if (seat, run) in values and beaten and (seat, run) not in kickers:
                    rank = deciding_kicker(values[seat, run], max(beaten))
                    if rank is not None:
                        kickers[seat, run] = RANK_NAMES[rank]
        out = []
        for h in outcome.shown:
            cards = (*h.cards, *boards[h.run])
            out.append(
                Shown(
                    seat=h.seat,
                    name=self.name(h.seat),
                    cards=tuple(h.cards),
                    best=tuple(best_five(cards)),
                    description=describe(evaluate(cards)),
                    kicker=kickers.get((h.seat, h.run)),
                    won=won.get((h.seat, h.run), 0),
                    run=h.run,
                )
            )
        return out
