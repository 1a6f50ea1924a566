"""A table served over the protocol: its game, who plays each seat (a bot of
the engine's or a client), the hands it plays on its own, and who is told
what (``docs/protocol.md``, "Events").

Each table event goes to every client watching the table or playing a seat,
in its wire form with the table's id.  A message holds the engine's own
values where it has them (an ``action`` event's record, a ``turn``'s
view), so that whoever writes it writes them once, quickly
(:func:`~holdem.protocol.texts.message_text`,
:func:`~holdem.protocol.texts.plain`).  The hole cards go only to the client
playing the seat (``hole_cards``), and a ``turn`` event, the seat's view with
its menu, only to the client whose seat must act.  A table made with
``full_information`` tells everyone every hole card, and says so in every
event.
"""

from __future__ import annotations

import dataclasses
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from collections.abc import Set as AbstractSet
from json.encoder import encode_basestring_ascii
from typing import TYPE_CHECKING, Any, Self

from ..actions import PLAYER_KINDS, ActionKind, Decision, LegalActions
from ..bots import Bot
from ..bots.base import learns
from ..cards import format_card
from ..errors import HoldemError, IllegalActionError, ProtocolError, TableError
from ..hand import Hand
from ..table import (
    ActionTaken,
    CashGame,
    Event,
    HandResult,
    SeatFreed,
    Table,
    Tournament,
    TurnTimer,
)
from ..table.events import EVENT_TYPES
from .texts import action_line, event_line, hole_cards_line, turn_line

if TYPE_CHECKING:  # (the histories are imported when a history is asked for)
    from ..histories import HandHistory

__all__ = ["KEEP_HANDS", "SLICE", "ServedTable", "histories_text", "history_text"]

#: Finished hands a table keeps for ``history`` requests (the latest).
KEEP_HANDS = 500
#: Hands a table begins at one go before the engine serves its other work.
SLICE = 50

#: A message, or (with its line) what makes it when it is needed after all
#: (a player away keeps the message: the line alone goes to the others).
Message = dict[str, Any] | Callable[[], dict[str, Any]]
#: How a table's messages leave it: ``send(clients, message, line)``, the
#: clients in order; ``line``: the message's text when the table wrote it
#: (its events), else "" (written from the message, a dict then, if needed).
Send = Callable[[list[int], Message, str], None]


class Owners(dict[int, int]):
    """A served table's clients, by the seat each plays: each change calls
    ``changed`` (the table's audience is worked out again)."""

    __slots__ = ("_changed",)

    def __init__(self, changed: Callable[[], None]) -> None:
        super().__init__()
        self._changed = changed

    def __setitem__(self, seat: int, client: int) -> None:
        super().__setitem__(seat, client)
        self._changed()

    def __delitem__(self, seat: int) -> None:
        super().__delitem__(seat)
        self._changed()

    def pop(self, seat: int, *default: Any) -> Any:
        self._changed()
        return super().pop(seat, *default)

    def popitem(self) -> tuple[int, int]:
        self._changed()
        return super().popitem()

    def clear(self) -> None:
        super().clear()
        self._changed()

    def update(self, *args: Any, **kwargs: Any) -> None:
        super().update(*args, **kwargs)
        self._changed()

    def setdefault(self, seat: int, client: int) -> int:
        self._changed()
        return super().setdefault(seat, client)

    def __ior__(self, other: Any) -> Self:  # type: ignore[override,misc]
        self.update(other)
        return self


class Watchers(set[int]):
    """A served table's watching clients: each change calls ``changed``."""

    __slots__ = ("_changed",)

    def __init__(self, changed: Callable[[], None], clients: Iterable[int] = ()) -> None:
        super().__init__(clients)
        self._changed = changed

    def add(self, client: int) -> None:
        super().add(client)
        self._changed()

    def discard(self, client: object) -> None:
        super().discard(client)
        self._changed()

    def remove(self, client: int) -> None:
        super().remove(client)
        self._changed()

    def pop(self) -> int:
        self._changed()
        return super().pop()

    def clear(self) -> None:
        super().clear()
        self._changed()

    def update(self, *others: Iterable[int]) -> None:
        super().update(*others)
        self._changed()

    def difference_update(self, *others: Iterable[Any]) -> None:
        super().difference_update(*others)
        self._changed()

    def intersection_update(self, *others: Iterable[Any]) -> None:
        super().intersection_update(*others)
        self._changed()

    def symmetric_difference_update(self, other: Iterable[int]) -> None:
        super().symmetric_difference_update(other)
        self._changed()

    def __ior__(self, other: AbstractSet[int]) -> Self:  # type: ignore[override,misc]
        self.update(other)
        return self

    def __iand__(self, other: AbstractSet[object]) -> Self:
        self.intersection_update(other)
        return self

    def __isub__(self, other: AbstractSet[object]) -> Self:
        self.difference_update(other)
        return self

    def __ixor__(self, other: AbstractSet[int]) -> Self:  # type: ignore[override,misc]
        self.symmetric_difference_update(other)
        return self


class ServedTable:
    """One table of the engine: ``game`` (a tournament or a cash game) and its
    :class:`~holdem.table.Table`, the engine's ``bots`` by seat, the clients
    playing the other seats (``owners``) and those watching."""

    def __init__(
        self,
        ident: str,
        game: Tournament | CashGame,
        *,
        creator: int,
        bots: dict[int, Bot],
        send: Send,
        full_information: bool = False,
        timer: TurnTimer | None = None,
        clock: Callable[[], float] = time.monotonic,
        pace: float = 0.0,
        pause: float = 0.0,
        after_hand: Callable[[HandResult], None] | None = None,
        keep: int = KEEP_HANDS,
    ) -> None:
        self.id = ident
        self.game = game
        self.table: Table = game.table
        self.creator = creator
        self.bots = bots
        self.levels: dict[int, str] = {}  # seat -> the level of its bot
        self._audience: list[int] | None = None  # (worked out again after a change)
        self.owners: Owners = Owners(self._changed)  # seat -> client
        self.watchers: Watchers = Watchers(self._changed, (creator,))
        self.full_information = full_information
        self.timer = timer
        self._clock = clock
        self._send = send
        self.to_play = 0  # hands still to play on its own
        self.waiting = False  # hands of a run are left for the engine's next turn
        self.finished = False
        self.kept: OrderedDict[int, Hand] = OrderedDict()
        self.deadline: float | None = None  # when the client to act runs out of time
        self._told_turn: tuple[int, int] | None = None  # (hand, log length) last told
        #: by seat, the (hand, log length) of the view its last turn line held
        self._told_views: dict[int, tuple[int, int]] = {}
        #: seconds before each bot's decision, and after each hand, so that
        #: people see what happens (0: at once)
        self.pace, self.pause = pace, pause
        self.due: float | None = None  # when the paced bot decides, or the next hand begins
        self.after_hand = after_hand  # told of each hand as it ends
        self.keep = keep  # finished hands kept for history requests
        self._quoted_id = encode_basestring_ascii(ident)  # (in the lines it writes)
        self.table.subscribe(self._tell_action, kinds=[ActionTaken])
        self.table.subscribe(self._tell, kinds=[t for t in EVENT_TYPES if t is not ActionTaken])

    @property
    def kind(self) -> str:
        return "tournament" if isinstance(self.game, Tournament) else "cash"

    # ------------------------------------------------------------ who is told what

    def audience(self) -> list[int]:
        """The clients told the table's events (each once, in order; kept
        until the owners or the watchers change)."""
        audience = self._audience
        if audience is None:
            audience = self._audience = sorted({*self.watchers, *self.owners.values()})
        return audience

    def _changed(self) -> None:
        self._audience = None

    def _out(self, message: dict[str, Any], to: list[int] | None = None, line: str = "") -> None:
        message["table"] = self.id
        if self.full_information:
            message["full_information"] = True
            line = ""  # (written from the message, which says so)
        self._send(self.audience() if to is None else to, message, line)

    def _tell_action(self, event: Event) -> None:
        """A record of the hand: its line written at once (the most common event)."""
        assert type(event) is ActionTaken
        hand, action = event.hand, event.action
        self._out({"event": "action", "hand": hand, "action": action},
                  line=action_line(hand, action, self._quoted_id))  # fmt: skip
        if action.kind is ActionKind.DEAL_HOLE:
            self._tell_hole_cards(hand)

    def _tell(self, event: Event) -> None:
        if self.full_information:
            self._out(event.to_dict())  # type: ignore[union-attr]  # (set on every event type)
        else:  # (its line written at once; its message made only for a player away)
            ident = self.id

            def message() -> dict[str, Any]:
                return {**event.to_dict(), "table": ident}  # type: ignore[union-attr]

            self._send(self.audience(), message, event_line(event, self._quoted_id))
        if isinstance(event, SeatFreed):  # (left, busted or timed out: nobody plays it now)
            self.owners.pop(event.seat, None)
            self.bots.pop(event.seat, None)
            self.levels.pop(event.seat, None)

    def _tell_hole_cards(self, number: int) -> None:
        hand = self.table.hand
        assert hand is not None
        for seat in hand.config.seat_numbers:
            cards = hand.hole_cards(seat)
            if cards is None:
                continue
            owner = self.owners.get(seat)
            if not self.full_information and owner is None:
                continue
            names = [format_card(c) for c in cards]
            message = {"event": "hole_cards", "hand": number, "seat": seat, "cards": names}
            if self.full_information:
                self._out(message)
            elif owner is not None:
                self._out(message, [owner], hole_cards_line(number, seat, cards, self._quoted_id))

    # ------------------------------------------------------------ playing

    def start(self, hands: int) -> None:
        """Plays ``hands`` more hands, on its own but for the clients' decisions."""
        if self.finished:
            raise ProtocolError("game_over", f"table {self.id}: the game is over")
        if self.table.hand is not None or self.to_play:
            raise ProtocolError(
                "hand_in_progress",
                f"table {self.id}: hands are being played ({self.to_play} to go)",
            )
        if not self.table.can_deal():
            raise ProtocolError(
                "table_error", f"table {self.id}: fewer than two players can be dealt in"
            )
        self.to_play = hands
        self.advance()

    def advance(self, hands: int = SLICE) -> None:
        """Plays on: the bots' decisions, the ends of hands and the next hands
        of a run, until a client's seat must act, there is nothing to play,
        or ``hands`` hands have begun (then :attr:`waiting` says so: the
        engine goes on between requests, so that one long run does not keep
        the others waiting, nor its events in memory)."""
        table = self.table
        self.waiting = False
        while True:
            hand = table.hand
            if hand is None:
                if self.to_play <= 0 or self.finished:
                    return
                if hands <= 0:
                    self.waiting = True
                    return
                if not table.can_deal():
                    self.stop_run("fewer than two players can be dealt in")
                    return
                if self._wait(self.pause if table.hands_played else 0.0):
                    return
                hands -= 1
                self.game.start_hand()
                continue
            if hand.done:
                self._finish()
                continue
            seat = hand.actor
            assert seat is not None
            bot = self.bots.get(seat)
            if bot is None and seat not in table.away and seat in self.owners:
                self._tell_turn(hand, seat)
                return
            legal = hand.legal_actions()
            assert legal is not None
            if bot is not None:
                if self._wait(self.pace):
                    return
                table.act(bot.decide(hand.view(seat), legal))
            else:  # nobody plays the seat (left, or away): check or fold
                table.act(legal.check_or_fold())

    def stop_run(self, reason: str) -> None:
        """Ends the run of hands under way (``start``) after the hand being
        played, if any; everyone told the table's events is told
        ``run_stopped``, with the hands left unplayed and ``reason``."""
        left = self.to_play - (self.table.hand is not None)
        if left > 0:
            self.to_play -= left
            self._out({"event": "run_stopped", "hands_left": left, "reason": reason})

    def _wait(self, seconds: float) -> bool:
        """Whether the next step waits: ``seconds`` from its first try (then
        :meth:`tick` takes it), or none once that time has come."""
        if seconds <= 0:
            return False
        now = self._clock()
        if self.due is None:
            self.due = now + seconds
        if now < self.due:
            return True
        self.due = None
        return False

    def _finish(self) -> None:
        game = self.game
        hand = self.table.hand
        if hand is not None:  # (the bots that learn are told the hand's end, as at tables)
            for seat in hand.config.seat_numbers:
                bot = self.bots.get(seat)
                if learns(bot):
                    bot.observe(hand.view(seat))
        result: HandResult = (
            game.finish_hand() if isinstance(game, Tournament) else self.table.finish_hand()
        )
        self.deadline = None
        self.kept[result.hand] = result.played
        while len(self.kept) > self.keep:
            self.kept.popitem(last=False)
        self.to_play -= 1
        if game.finished if isinstance(game, Tournament) else game.over:
            self.finished = True
            self.to_play = 0
        if self.after_hand is not None:
            self.after_hand(result)
        if self.finished:
            self._out({"event": "table_finished", **self.results()})

    def results(self) -> dict[str, Any]:
        """The tournament's places (once over), or the cash players' results."""
        game = self.game
        if isinstance(game, Tournament):
            return {"result": game.result().to_dict() if game.finished else None}
        return {
            "results": {
                name: {
                    "bought_in": r.bought_in,
                    "cashed_out": r.cashed_out,
                    "net": r.net,
                    "hands": r.hands,
                }
                for name, r in game.results().items()
            }
        }

    def _tell_turn(self, hand: Hand, seat: int) -> None:
        number = self.table.hands_played + 1
        told = (number, len(hand.log))
        if self._told_turn == told:
            return
        self._told_turn = told
        if self.timer is not None:
            name = self.table.name(seat)
            self.timer.start(name)
            self.deadline = self.timer.deadline(name)
        self._turn_to(self.owners[seat], hand, number, seat)

    def _turn_to(
        self, owner: int, hand: Hand, number: int, seat: int, *, whole: bool = False
    ) -> None:
        """Tells ``owner`` it is ``seat``'s turn in hand ``number`` (its timer
        running as it is).  The line's view is a delta of the one the seat was
        told last in the hand (as programs are told, docs/protocol.md), or
        ``whole``; the message itself holds the whole view (a player told it
        later, a program)."""
        view = hand.view(seat)
        message: dict[str, Any] = {"event": "turn", "hand": number, "seat": seat, "view": view}
        seconds = bank = None
        if self.deadline is not None:
            seconds = message["seconds"] = round(max(0.0, self.deadline - self._clock()), 3)
            if self.timer is not None:  # (the time bank's part of them)
                left = self.timer.bank(self.table.name(seat))
                bank = message["bank"] = round(min(seconds, max(0.0, left)), 3)
        told = self._told_views.get(seat)
        since = told[1] if told is not None and told[0] == number and not whole else 0
        self._told_views[seat] = (number, view.log_length)
        line = turn_line(number, seat, view, self._quoted_id, seconds, since, bank)
        self._out(message, [owner], line)

    def tell_turn_again(self, seat: int) -> None:
        """Tells the client playing ``seat`` its turn again, whole, if it is to
        act (the timer is not started again)."""
        owner = self.owners.get(seat)
        hand = self.table.hand
        if owner is not None and hand is not None and not hand.done and hand.actor == seat:
            self._turn_to(owner, hand, self.table.hands_played + 1, seat, whole=True)

    def act(self, seat: int, decision: Decision) -> bool:
        """The decision of the client playing ``seat``, whose turn it is; False
        when it came too late (the timeout rule decided instead)."""
        hand = self.table.hand
        if hand is None:
            raise ProtocolError("no_hand", f"table {self.id}: no hand is being played")
        if hand.actor != seat:
            whose = "nobody" if hand.actor is None else f"seat {hand.actor}"
            raise ProtocolError(
                "not_your_turn", f"table {self.id}: it is {whose}'s turn, not seat {seat}'s"
            )
        legal = hand.legal_actions()
        assert legal is not None
        if not legal.__contains__(decision):  # (mypy reads `in` as a NamedTuple's)
            raise ProtocolError("illegal_action", _refusal(hand, seat, decision, legal),
                                field="action")  # fmt: skip
        in_time = True
        if self.timer is not None:
            in_time = self.timer.stop(self.table.name(seat))
        self.deadline = None
        if in_time:
            self.table.act(decision)
        else:
            self.table.time_out()
        self.advance()
        return in_time

    def tell(self, message: dict[str, Any]) -> None:
        """Tells everyone told this table's events ``message`` (an event)."""
        self._out(message)

    def tick(self, now: float) -> None:
        """Applies the timeout rule when the client to act is out of time, and
        takes the paced step that is due."""
        if self.due is not None and now >= self.due:
            self.advance()
            if self.due is not None and self.due <= now:
                self.due = None  # (not taken: the table stopped before the step)
            return
        if self.deadline is None or now < self.deadline or self.table.hand is None:
            return
        self.deadline = None
        self.table.time_out()
        self.advance()

    @property
    def next_time(self) -> float | None:
        """When :meth:`tick` has work next: a timer running out, a paced step."""
        deadline, due = self.deadline, self.due
        if deadline is None or (due is not None and due < deadline):
            return due
        return deadline


def show_cards(table: ServedTable, seat: int) -> dict[str, Any]:
    """A ``show`` request's: the player at ``seat`` shows their cards of the
    table's last finished hand (R10: having folded or won it uncontested),
    where the table allows it; everyone told the table's events is told
    ``cards_shown``.  Refused ``table_error``, saying why."""
    try:
        record = table.table.show_cards(seat)
    except TableError as exc:
        raise ProtocolError("table_error", f"table {table.id}: {exc}") from None
    last = table.table.last_hand
    assert last is not None  # (a show is of it)
    return {"table": table.id, "seat": seat, "hand": last.hand,
            "cards": [format_card(c) for c in record.cards]}  # fmt: skip


def _refusal(hand: Hand, seat: int, decision: Decision, legal: LegalActions) -> str:
    """Why ``decision`` is not on the menu: the engine's own reason, found on a
    copy of the hand (nothing changes), or the menu."""
    if decision.kind in PLAYER_KINDS:
        try:
            hand.copy().act(decision, seat=seat)
        except (IllegalActionError, TableError) as exc:
            return str(exc)
    return f"{decision} is not a player's decision here: the menu is {legal}"


def _with_mucked(history: HandHistory, hand: Hand) -> HandHistory:
    """``history`` with the hole cards of the players who mucked at the
    showdown, as the deal gave them (a history counts seats from 1)."""
    from ..histories import DEAL_HOLE

    mucked = {a.seat for a in hand.log if a.kind is ActionKind.MUCK}
    if not mucked:
        return history
    moves = list(history.moves)
    for i, move in enumerate(moves):
        seat = None if move.actor is None else history.players[move.actor].seat
        if move.kind == DEAL_HOLE and seat is not None and seat - 1 in mucked:
            moves[i] = move._replace(cards=hand.hole_cards(seat - 1) or move.cards)
    return dataclasses.replace(history, moves=tuple(moves))


def history_text(
    hand: Hand,
    number: int,
    *,
    tournament: bool,
    form: str,
    show_all: bool = False,
    hero: int | None = None,
) -> str:
    """A finished hand as PHH (``form="phh"``) or PokerStars text, for a
    ``history`` request: the cards shown (``show_all``: every one), and the
    hole cards of the table seat ``hero`` (a player's own); ``table_error``
    when the form cannot hold it."""
    return histories_text([(hand, number, hero)], tournament=tournament, form=form,
                          show_all=show_all, many=False)  # fmt: skip


def histories_text(
    hands: Iterable[tuple[Hand, int, int | None]],
    *,
    tournament: bool,
    form: str,
    show_all: bool = False,
    many: bool = True,
) -> str:
    """Finished hands, each with its number and its ``hero`` seat (as
    :func:`history_text`), as one text: a PHH set (``[1]``, ``[2]`` ...;
    ``many`` False: one hand, a ``.phh`` file's form) or PokerStars hands
    one after another.  A hand with a ``hero`` (a player dealt in it) holds
    the hands mucked at its showdown too (R14: its players may read them
    once it is over).  ``table_error`` naming the first hand the form
    cannot hold."""
    import io

    from ..histories import PhhWriter, PokerStarsWriter, record

    out = io.StringIO()
    writer = PhhWriter(out, many=many) if form == "phh" else PokerStarsWriter(out)
    for hand, number, hero in hands:
        try:
            history = record(hand, hand_id=str(number), tournament=tournament,
                             show_all=show_all, hero=hero)  # fmt: skip
            writer.write(history if hero is None else _with_mucked(history, hand))
        except HoldemError as exc:
            raise ProtocolError("table_error", f"hand {number}: {exc}", field="hand") from None
    return out.getvalue()
