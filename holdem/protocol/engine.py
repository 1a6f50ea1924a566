"""The protocol's dispatch: clients, their requests, the tables they make
and play (``docs/protocol.md``).  Pure: lines come in through
:meth:`Engine.handle`, and the messages for each client come out as data;
the loop that reads and writes them (stdin and stdout, a socket) is the
caller's.

>>> engine = Engine()
>>> me = engine.connect()
>>> for client, message in engine.handle(me, '{"id": 1, "type": "hello", "version": 1}'):
...     print(client, message["result"]["protocol"], message["result"]["version"])
1 holdem 1
>>> [m["error"]["code"] for _, m in engine.handle(me, '{"id": 2, "type": "fly"}')]
['unknown_request']

A run of many hands is played a slice at a time: the caller's loop calls
:meth:`Engine.tick` while :meth:`Engine.busy` (and its input is quiet), so
that other clients are served meanwhile; a loop that writes to clients
which may read slowly names those behind (``held``), whose runs then wait
for them.  A client that leaves takes its tables with it (they are closed),
and the runs it started stop.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from collections.abc import Set as AbstractSet
from typing import Any

from ..actions import Decision
from ..bots import BOTS, Bot, make_bot
from ..config import Structure
from ..errors import ConfigError, ProtocolError, TableError, quote
from ..table import CashGame, Schedule, TimerRules, Tournament, TurnTimer
from ..units import ONE, unit_text
from ..wire import Fields
from .messages import VERSION, Request, answer, read_cap, read_showing, read_timer, read_unit
from .tables import Message, ServedTable, history_text, show_cards
from .texts import plain

__all__ = ["MAX_TABLES", "Engine"]

#: Tables one engine holds at once.
MAX_TABLES = 1000
#: Hands one ``start`` request may ask for.
MAX_RUN = 10_000_000

Outgoing = list[tuple[int, dict[str, Any]]]
#: A player of ``create_table``: the seat, the name, the chips (None: the
#: maximum buy-in) and the bot's level (None: the creating client plays it).
_Entry = tuple[int, str, int | None, str | None]


class _Client:
    __slots__ = ("hello", "id")

    def __init__(self, ident: int) -> None:
        self.id = ident
        self.hello = False


class Engine:
    """Tables and the clients that make, play and watch them.  ``clock``
    (seconds, monotonic) times the turn timers; ``max_tables``: the tables
    it holds at once."""

    def __init__(
        self, *, clock: Callable[[], float] = time.monotonic, max_tables: int = MAX_TABLES
    ) -> None:
        self.clock = clock
        self.max_tables = max_tables
        self.tables: dict[str, ServedTable] = {}
        self._clients: dict[int, _Client] = {}
        self._next_client = 1
        self._next_table = 1
        self._out: Outgoing = []
        self._starters: dict[str, int] = {}  # table -> the client that started its run
        self._played: dict[str, int] = {}  # table -> when its run was last played on
        self._round = 0

    # ------------------------------------------------------------ clients

    def connect(self) -> int:
        """A new client; its number."""
        ident = self._next_client
        self._next_client += 1
        self._clients[ident] = _Client(ident)
        return ident

    def disconnect(self, client: int) -> Outgoing:
        """The client is gone: the tables it made are closed, the runs it
        started elsewhere stop after their hand, it watches nothing, and its
        seats are played for it (check or fold) until they leave (cash) or
        bust (tournament)."""
        self._clients.pop(client, None)
        for table in list(self.tables.values()):
            if table.creator == client:
                self._close(table)
                continue
            if self._starters.get(table.id) == client:
                table.stop_run("the client that started it left")
            table.watchers.discard(client)
            for seat in [s for s, c in table.owners.items() if c == client]:
                del table.owners[seat]
                if table.kind == "cash":
                    table.table.leave(seat)
                else:
                    table.table.away.add(seat)
            if table.table.hand is not None:
                table.advance()
        return self._flush()

    def _send(self, clients: list[int], message: Message, line: str = "") -> None:
        if not isinstance(message, dict):
            message = message()  # (its clients read messages, not lines)
        written = plain(message)  # (made plain once for all)
        self._out.extend([(client, written) for client in clients if client in self._clients])

    def _flush(self) -> Outgoing:
        out, self._out = self._out, []
        return out

    # ------------------------------------------------------------ requests

    def handle(self, client: int, line: bytes | str) -> Outgoing:
        """Serves one line of ``client``: its reply first, then the events it
        caused, each as (client, message)."""
        me = self._clients[client]
        message = answer(line, lambda request: self._serve(me, request))
        events = self._flush()
        return [(client, message), *events]

    def tick(self, held: AbstractSet[int] = frozenset(), runs: int | None = None) -> Outgoing:
        """Applies the turn timers that ran out, and plays on the runs of hands
        left waiting (:meth:`busy`), a slice of each (of ``runs`` at most:
        those played on longest ago), but for the tables whose creator or
        players are ``held`` (behind in reading what they are told); what
        it caused."""
        now = self.clock()
        for table in list(self.tables.values()):
            table.tick(now)
        waiting = [t for t in self.tables.values() if t.waiting and not self._held(t, held)]
        if runs is not None:
            waiting = sorted(waiting, key=lambda t: self._played.get(t.id, -1))[:runs]
        for table in waiting:
            self._played[table.id] = self._round
            self._round += 1
            table.advance()
        return self._flush()

    def busy(self, held: AbstractSet[int] = frozenset()) -> bool:
        """Whether runs of hands wait to be played on (:meth:`tick` does it),
        at tables none of whose creator and players is ``held``."""
        return any(t.waiting and not self._held(t, held) for t in self.tables.values())

    @staticmethod
    def _held(table: ServedTable, held: AbstractSet[int]) -> bool:
        """Whether the table's creator or a client playing it is ``held``."""
        return bool(held) and (table.creator in held or not held.isdisjoint(table.owners.values()))

    def next_deadline(self) -> float | None:
        """The earliest turn timer running or paced step (on ``clock``), if any."""
        times = [t.next_time for t in self.tables.values()]
        return min([t for t in times if t is not None], default=None)

    def _serve(self, client: _Client, request: Request) -> dict[str, Any]:
        f = request.fields
        if request.type == "hello":
            return self._hello(client, f)
        if not client.hello:
            raise ProtocolError("hello_first", 'say hello first: {"type": "hello", "version": 1}')
        if request.type == "create_table":
            return self._create(client, f)
        table = self._table(f)
        kind = request.type
        if kind == "watch":
            f.done()
            table.watchers.add(client.id)
            return self._state(table)
        if kind == "state":
            f.done()
            return self._state(table)
        if kind == "sit":
            return self._sit(client, table, f)
        if kind == "leave":
            return self._leave(client, table, f)
        if kind == "start":
            hands = f.integer("hands", default=1, minimum=1)
            f.done()
            if hands > MAX_RUN:
                raise ProtocolError("limit", f"at most {MAX_RUN:,} hands a start", field="hands")
            table.start(hands)
            self._starters[table.id] = client.id
            return {"table": table.id, "hands": hands}
        if kind == "act":
            seat = self._own_seat(client, table, f)
            raw = f.raw("action", 'a decision ({"kind": ...})')
            decision = Decision.from_dict(raw, where="request.action")
            f.done()
            in_time = table.act(seat, decision)
            return {"table": table.id, "seat": seat, "in_time": in_time}
        if kind == "view":
            seat = self._seat_shown(client, table, f)
            f.done()
            hand = table.table.hand
            if hand is None:
                raise ProtocolError("no_hand", f"table {table.id}: no hand is being played")
            if seat not in hand.config.seat_numbers:
                raise ProtocolError(
                    "no_hand", f"table {table.id}: seat {seat} is not dealt in this hand",
                    field="seat",
                )  # fmt: skip
            return {"table": table.id, "view": hand.view(seat).to_dict()}
        if kind == "legal":
            seat = self._seat_shown(client, table, f)
            f.done()
            hand = table.table.hand
            legal = None
            if hand is not None and hand.actor == seat:
                menu = hand.legal_actions()
                legal = menu.to_dict() if menu is not None else None
            return {"table": table.id, "seat": seat, "legal": legal}
        if kind == "show":
            seat = self._own_seat(client, table, f)
            f.done()
            return show_cards(table, seat)
        if kind == "run_twice":
            seat = self._own_seat(client, table, f)
            agree = f.boolean("agree", default=True)
            f.done()
            try:
                table.table.agree_to_run_twice(seat, agree)
            except TableError as exc:
                raise ProtocolError("table_error", f"table {table.id}: {exc}") from None
            return {"table": table.id, "seat": seat, "agree": agree}
        if kind == "history":
            return self._history(table, f)
        # close
        f.done()
        if client.id != table.creator:
            raise ProtocolError("not_your_seat", f"table {table.id}: only its creator closes it")
        self._close(table)
        return {"table": table.id, "closed": True}

    def _close(self, table: ServedTable) -> None:
        """Closes a table: it is gone, and its clients are told so."""
        del self.tables[table.id]
        self._starters.pop(table.id, None)
        self._played.pop(table.id, None)
        table.tell({"event": "table_closed"})

    def _hello(self, client: _Client, f: Fields) -> dict[str, Any]:
        version = f.integer("version")
        f.text("client", default=None)  # (a name the client gives itself: kept in logs)
        f.done()
        if version != VERSION:
            raise ProtocolError(
                "unsupported_version",
                f"this engine speaks version {VERSION} of the protocol, not {version}",
                field="version",
            )
        client.hello = True
        from .. import __version__

        return {
            "protocol": "holdem",
            "version": VERSION,
            "engine": __version__,
            "client": client.id,
        }

    def _table(self, f: Fields) -> ServedTable:
        ident = f.text("table")
        table = self.tables.get(ident)
        if table is None:
            raise ProtocolError("unknown_table", f"no table {quote(ident)}", field="table")
        return table

    def _seat_number(self, table: ServedTable, f: Fields) -> int:
        seat = f.integer("seat")
        if seat >= table.table.max_seats:
            raise ProtocolError(
                "unknown_seat",
                f"table {table.id} has seats 0 to {table.table.max_seats - 1}, not {seat}",
                field="seat",
            )
        return int(seat)

    def _own_seat(self, client: _Client, table: ServedTable, f: Fields) -> int:
        seat = self._seat_number(table, f)
        if table.owners.get(seat) != client.id:
            raise ProtocolError(
                "not_your_seat", f"table {table.id}: you do not play seat {seat}", field="seat"
            )
        return seat

    def _seat_shown(self, client: _Client, table: ServedTable, f: Fields) -> int:
        """A seat whose private view the client may see: its own (any seat at a
        table of full information)."""
        if table.full_information:
            return self._seat_number(table, f)
        return self._own_seat(client, table, f)

    def _state(self, table: ServedTable) -> dict[str, Any]:
        t = table.table
        hand = t.hand
        blinds = t.blinds
        seats = [
            {
                "seat": seat,
                "name": s.name,
                "chips": s.chips,
                "status": s.status,
                "bot": table.levels.get(seat),
                "client": seat in table.owners,
                **({"run_twice": t.agrees_to_run_twice(seat)} if t.run_it_twice else {}),
            }
            for seat, s in sorted(t.seats.items())
        ]
        return {
            "table": table.id,
            "game": table.kind,
            "seats": seats,
            "max_seats": t.max_seats,
            "hands_played": t.hands_played,
            "blinds": blinds.to_dict(),
            **({"unit": unit_text(t.unit)} if t.unit != ONE else {}),
            **({"run_it_twice": True} if t.run_it_twice else {}),
            "to_play": table.to_play,
            "finished": table.finished,
            "full_information": table.full_information,
            "hand": hand.view(None).to_dict() if hand is not None else None,
            **table.results(),
        }

    # ------------------------------------------------------------ tables

    def _create(self, client: _Client, f: Fields) -> dict[str, Any]:
        if len(self.tables) >= self.max_tables:
            raise ProtocolError(
                "limit", f"this engine holds at most {self.max_tables:,} tables at once"
            )
        game_kind = f.text("game", default="cash")
        if game_kind not in ("cash", "tournament"):
            raise ProtocolError(
                "invalid_field", f"request.game: 'cash' or 'tournament', not {quote(game_kind)}",
                field="game",
            )  # fmt: skip
        seed = f.integer("seed", default=None, optional=True)
        rng = random.Random(seed)
        structure = f.token("structure", Structure, default=Structure.NO_LIMIT)
        full = f.boolean("full_information", default=False)
        timer = self._timer(f)
        players = f.raw("players", "a list of players", default=[])
        if not isinstance(players, list) or len(players) > 10:
            raise ProtocolError(
                "invalid_field", "request.players: a list of at most 10 players", field="players"
            )
        ident = f"t{self._next_table}"
        try:
            make = self._tournament if game_kind == "tournament" else self._cash
            game, entries = make(f, players, structure, timer, rng)
            f.done()
            if isinstance(game, CashGame):
                for seat, name, chips, _ in entries:
                    game.join(seat, name, chips if chips is not None else game.max_buy_in)
        except (ConfigError, TableError) as exc:
            raise ProtocolError("bad_config", str(exc), field=getattr(exc, "field", None)) from None
        levels = {seat: level for seat, _, _, level in entries if level is not None}
        bots: dict[int, Bot] = {
            seat: make_bot(level, seed=rng.getrandbits(32)) for seat, level in levels.items()
        }
        table = ServedTable(ident, game, creator=client.id, bots=bots, send=self._send,
                            full_information=full, timer=timer, clock=self.clock)  # fmt: skip
        table.levels.update(levels)
        for seat, _, _, level in entries:
            if level is None:
                table.owners[seat] = client.id
        self._next_table += 1
        self.tables[ident] = table
        return self._state(table)

    def _tournament(
        self,
        f: Fields,
        players: list[Any],
        structure: Structure,
        timer: TurnTimer | None,
        rng: random.Random,
    ) -> tuple[Tournament | CashGame, list[_Entry]]:
        """A tournament's fields: the table's size, the stack, the schedule, a
        fixed-limit cap."""
        seats = f.integer("seats", default=None, optional=True, minimum=2)
        stack = f.integer("stack", default=1500, minimum=1)
        text = f.raw("schedule", "a schedule", default=None)
        schedule = None
        if isinstance(text, str):
            schedule = Schedule.parse(text)
        elif text is not None:
            schedule = Schedule.from_dict(text)
        entries = [self._player(p, i, tournament=True) for i, p in enumerate(players)]
        game = Tournament(
            [name for _, name, _, _ in entries],
            stack=stack,
            seats=seats,
            schedule=schedule,
            structure=structure,
            timer=timer,
            rng=rng.getrandbits(64),
            **read_cap(f, structure, tournament=True),
            **read_showing(f),
            unit=read_unit(f),
        )
        return game, entries

    def _cash(
        self,
        f: Fields,
        players: list[Any],
        structure: Structure,
        timer: TurnTimer | None,
        rng: random.Random,
    ) -> tuple[Tournament | CashGame, list[_Entry]]:
        """A cash table's fields: its seats, blinds, buy-ins and length, a
        fixed-limit cap."""
        game = CashGame(
            f.integer("seats", default=6, minimum=2),
            small_blind=f.integer("small_blind", minimum=0),
            big_blind=f.integer("big_blind", minimum=1),
            min_buy_in=f.integer("min_buy_in", default=None, optional=True, minimum=1),
            max_buy_in=f.integer("max_buy_in", default=None, optional=True, minimum=1),
            max_hands=f.integer("max_hands", default=None, optional=True, minimum=1),
            structure=structure,
            timer=timer,
            rng=rng.getrandbits(64),
            **read_cap(f, structure, tournament=False),
            **read_showing(f),
            unit=read_unit(f),
        )
        entries = [self._player(p, i, tournament=False) for i, p in enumerate(players)]
        return game, entries

    def _player(self, data: object, index: int, *, tournament: bool) -> _Entry:
        f = Fields(data, f"request.players[{index}]")
        name = f.text("name")
        level = f.text("bot", default=None)
        if level is not None and level not in BOTS:
            raise ProtocolError(
                "invalid_field",
                f"request.players[{index}].bot: no bot level {quote(level)}: "
                f"one of {', '.join(BOTS)}",
                field=f"players[{index}].bot",
            )
        seat = index if tournament else f.integer("seat")
        chips = None if tournament else f.integer("chips", default=None, optional=True, minimum=1)
        f.done()
        return seat, name, chips, level

    def _timer(self, f: Fields) -> TurnTimer | None:
        data = f.raw("timer", "a timer", default=None)
        if data is None:
            return None
        spec = read_timer(data, seconds=None, time_bank=0.0)
        rules = TimerRules(**spec, free_seat_after=None)
        return TurnTimer(rules, clock=self.clock)

    def _sit(self, client: _Client, table: ServedTable, f: Fields) -> dict[str, Any]:
        seat = self._seat_number(table, f)
        name = f.text("name")
        chips = f.integer("chips", minimum=1)
        level = f.text("bot", default=None)
        f.done()
        if level is not None and level not in BOTS:
            raise ProtocolError(
                "invalid_field", f"request.bot: no bot level {quote(level)}", field="bot"
            )
        game = table.game
        if table.finished:
            raise ProtocolError("game_over", f"table {table.id}: the session is over")
        if not isinstance(game, CashGame):
            raise ProtocolError(
                "table_error", f"table {table.id}: nobody joins a tournament after it starts"
            )
        if table.table.seat(seat) is not None:
            raise ProtocolError(
                "seat_taken", f"table {table.id}: seat {seat} is taken", field="seat"
            )
        try:
            game.join(seat, name, chips)
        except TableError as exc:
            raise ProtocolError("table_error", str(exc)) from None
        if level is None:
            table.owners[seat] = client.id
        else:
            seed = random.Random(f"{table.id}/{seat}/{name}").getrandbits(32)
            table.bots[seat] = make_bot(level, seed=seed)
            table.levels[seat] = level
        return {"table": table.id, "seat": seat}

    def _leave(self, client: _Client, table: ServedTable, f: Fields) -> dict[str, Any]:
        seat = self._seat_number(table, f)
        f.done()
        if table.owners.get(seat) != client.id and not (
            seat in table.bots and client.id == table.creator
        ):
            raise ProtocolError(
                "not_your_seat", f"table {table.id}: you do not play seat {seat}", field="seat"
            )
        if not isinstance(table.game, CashGame):
            raise ProtocolError(
                "table_error", f"table {table.id}: a tournament player plays until out"
            )
        try:
            now = table.game.leave(seat)
        except TableError as exc:  # (an empty seat)
            raise ProtocolError("unknown_seat", str(exc), field="seat") from None
        if now:
            table.owners.pop(seat, None)
            table.bots.pop(seat, None)
            table.levels.pop(seat, None)
        return {"table": table.id, "seat": seat, "left": now}

    def _history(self, table: ServedTable, f: Fields) -> dict[str, Any]:
        number = f.integer("hand", minimum=1)
        form = f.text("format", default="phh")
        f.done()
        if form not in ("phh", "pokerstars"):
            raise ProtocolError(
                "invalid_field",
                f"request.format: 'phh' or 'pokerstars', not {quote(form)}",
                field="format",
            )
        hand = table.kept.get(number)
        if hand is None:
            kept = f"{min(table.kept)} to {max(table.kept)}" if table.kept else "none yet"
            raise ProtocolError(
                "invalid_field", f"table {table.id} keeps no hand {number} (hands kept: {kept})",
                field="hand",
            )  # fmt: skip
        text = history_text(hand, number, tournament=table.kind == "tournament", form=form,
                            show_all=table.full_information)  # fmt: skip
        return {"table": table.id, "hand": number, "format": form, "text": text}
