"""A room: tables that people make, share by a join code, fill with friends
and bots, and play to the end, over the JSON-lines protocol
(``docs/rooms.md``).  Pure, like the protocol's engine: lines come in through
:meth:`Room.handle` with the connection they came on, and what each
connection must be sent comes out as lines; the network loop is
:mod:`holdem.rooms.server`'s.

A player's seat belongs to a *session*, not to a connection: the seat's
token (given when the player sits down) brings a new connection back to it
(``resume``), and while nobody is connected to it, the table's turn timer
plays it (check or fold; two timeouts in a row take it out of the deal) and
the events it would have been told wait for it (the latest
:attr:`Limits.backlog`).

>>> room = Room(seed=1)
>>> ann = room.connect("127.0.0.1")
>>> def ask(conn, **request):
...     return [json.loads(line) for _, line in room.handle(conn, json.dumps(request))]
>>> _ = ask(ann, type="hello", version=1)
>>> made = ask(ann, id=1, type="create_table", name="Ann", pace=0, pause=0)[0]["result"]
>>> made["table"], made["seat"], len(made["code"])
('t1', 0, 9)
>>> ben = room.connect("127.0.0.1")
>>> _ = ask(ben, type="hello", version=1)
>>> ask(ben, id=2, type="join", code=made["code"], name="Ben")[0]["result"]["seat"]
1
"""

from __future__ import annotations

import heapq
import json
import random
import secrets
import time
from collections import deque
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from ..actions import Decision
from ..bots import BOTS, Bot, make_bot
from ..errors import ConfigError, HoldemError, ProtocolError, TableError, quote
from ..protocol.messages import VERSION, Request, answer, encode, error_reply
from ..protocol.tables import KEEP_HANDS, ServedTable, history_text
from ..protocol.texts import message_text, plain
from ..table import (
    CashGame,
    Event,
    HandResult,
    Schedule,
    SeatFreed,
    TimerRules,
    Tournament,
    TurnTimer,
)
from ..wire import Fields
from .codes import Guesses, Rate, new_code, new_token, normal_code, token_hash
from .settings import bot_name, check_buy_in, player_name, table_settings
from .store import SeatRow, Store, TableRow, hand_of

__all__ = ["REQUESTS", "Limits", "Room"]

#: A room's requests, in the order ``docs/rooms.md`` describes them.
REQUESTS = (
    "hello",
    "create_table",
    "join",
    "list_tables",
    "watch",
    "add_bots",
    "start",
    "act",
    "add_chips",
    "state",
    "view",
    "legal",
    "history",
    "leave",
    "resume",
    "close",
)
#: Hands a room table plays once started: until the game ends.
_FOREVER = 10**12
Outgoing = list[tuple[int, str]]


@dataclass(frozen=True, slots=True)
class Limits:
    """A room server's bounds (``docs/rooms.md`` lists them with their defaults)."""

    #: connections at once, and from one address
    connections: int = 500
    connections_per_address: int = 32
    #: tables at once (not finished), and made from one address
    tables: int = 200
    tables_per_address: int = 8
    #: the longest line read, in bytes
    line_bytes: int = 16_384
    #: lines a connection may send a second, and at once
    lines_per_second: float = 100.0
    burst: int = 200
    #: bytes waiting to be sent to a connection before it is closed (a client
    #: that does not read)
    queue_bytes: int = 1 << 20
    #: wrong join codes and tokens an address may try in ``guess_seconds``
    guesses: int = 10
    guess_seconds: float = 60.0
    #: events kept for a seat while nobody is connected to it
    backlog: int = 1000

    def __post_init__(self) -> None:
        for name, value in asdict(self).items():
            if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
                raise ConfigError(f"limit {name}: a positive number, not {value!r}", field=name)


@dataclass(slots=True)
class _Connection:
    id: int
    address: str
    rate: Rate
    hello: bool = False
    sessions: set[int] = field(default_factory=set)  # the seats it plays
    watching: set[str] = field(default_factory=set)  # the tables it watches


@dataclass(slots=True)
class _Session:
    """A player's hold on a seat (its id is negative: the table's owner id)."""

    id: int
    table: str
    seat: int
    name: str
    token_hash: str
    connection: int | None = None
    backlog: deque[dict[str, Any]] = field(default_factory=deque)
    dropped: int = 0  # events of the backlog lost (it was full)


@dataclass(slots=True)
class _Entry:
    """A seat of a tournament that has not begun: a player's or a bot's."""

    name: str
    bot: str | None = None
    session: int | None = None


@dataclass(slots=True)
class _RoomTable:
    id: str
    code: str
    game: str  # tournament | cash
    public: bool
    settings: dict[str, Any]
    address: str  # where it was made from (tables_per_address)
    creator: int | None  # the creator's session
    served: ServedTable | None = None  # (None: a tournament not begun)
    waiting: dict[int, _Entry] = field(default_factory=dict)
    sessions: dict[int, int] = field(default_factory=dict)  # seat -> session
    watchers: set[int] = field(default_factory=set)  # connections (before a tournament begins)
    status: str = "waiting"  # waiting | playing | finished | closed

    @property
    def seats(self) -> int:
        return int(self.settings["seats"])


class Room:
    """A room server's tables, seats and connections.  ``store``: where the
    tables and hands are kept (None: nowhere); ``seed``: the cards' and the
    bots' seeds (None: from the system's random source); ``clock``: seconds,
    monotonic (the turn timers, the rates)."""

    def __init__(
        self,
        store: Store | None = None,
        *,
        limits: Limits | None = None,
        seed: int | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.store = store
        self.limits = limits or Limits()
        self.clock = clock
        self._rng = random.Random(secrets.randbits(64) if seed is None else seed)
        self.tables: dict[str, _RoomTable] = {}
        self._codes: dict[str, str] = {}  # code -> table
        self._connections: dict[int, _Connection] = {}
        self._sessions: dict[int, _Session] = {}
        self._by_token: dict[str, int] = {}  # token hash -> session
        self._next_connection = 1
        self._next_session = -1
        self._next_table = 1 if store is None else store.next_table_number()
        self._guesses = Guesses(self.limits.guesses, self.limits.guess_seconds)
        # when each table has work for tick() (a heap, stale entries skipped),
        # the tables with hands waiting, and those touched since the last flush
        self._times: list[tuple[float, str]] = []
        self._waiting: set[str] = set()
        self._touched: set[str] = set()
        self._out: Outgoing = []
        #: what :meth:`handle` and :meth:`tick` changed is committed before they
        #: return (False: the caller calls :meth:`commit` before it sends their
        #: lines, once for many: the server does)
        self.commit_at_once = True
        if store is not None:
            self._resume_tables(store)

    # ------------------------------------------------------------ connections

    def connect(self, address: str) -> int:
        """A new connection from ``address``: its number.  Refused past the
        limits (:class:`~holdem.errors.ProtocolError` ``too_many_connections``)."""
        limits = self.limits
        if len(self._connections) >= limits.connections:
            raise ProtocolError(
                "too_many_connections",
                f"this server takes {limits.connections} connections at once",
            )
        mine = sum(1 for c in self._connections.values() if c.address == address)
        if mine >= limits.connections_per_address:
            raise ProtocolError(
                "too_many_connections",
                f"at most {limits.connections_per_address} connections from one address",
            )
        ident = self._next_connection
        self._next_connection += 1
        rate = Rate(limits.lines_per_second, limits.burst, self.clock())
        self._connections[ident] = _Connection(ident, address, rate)
        return ident

    def disconnect(self, conn: int) -> Outgoing:
        """The connection is gone: its seats wait for their players (the timer
        plays them), and it watches nothing."""
        connection = self._connections.pop(conn, None)
        if connection is None:
            return self._flush()
        for session_id in connection.sessions:
            session = self._sessions.get(session_id)
            if session is not None and session.connection == conn:
                session.connection = None
        for ident in connection.watching:
            table = self.tables.get(ident)
            if table is not None:
                table.watchers.discard(conn)
        return self._flush()

    def address(self, conn: int) -> str | None:
        connection = self._connections.get(conn)
        return None if connection is None else connection.address

    # ------------------------------------------------------------ sending

    def _send(self, targets: list[int], message: dict[str, Any]) -> None:
        """To connections (positive numbers) and seats' sessions (negative);
        the message written once for all."""
        line = ""
        out = self._out
        for target in targets:
            if target > 0:
                if target not in self._connections:
                    continue
            else:
                session = self._sessions.get(target)
                if session is None:
                    continue
                if session.connection is None:  # (nobody there: kept for the player)
                    if len(session.backlog) >= self.limits.backlog:
                        session.backlog.popleft()
                        session.dropped += 1
                    session.backlog.append(message)
                    continue
                target = session.connection
            if not line:
                line = message_text(message)
            out.append((target, line))

    def _tell(self, target: int, message: dict[str, Any]) -> None:
        self._send([target], message)

    def _flush(self) -> Outgoing:
        if self._touched:
            self._note_times()
        out, self._out = self._out, []
        if self.commit_at_once:
            self.commit()
        return out

    def commit(self) -> None:
        """Writes to the store what was changed: before anybody is told of it."""
        if self.store is not None:
            self.store.commit()

    # ------------------------------------------------------------ requests

    def handle(self, conn: int, line: bytes | str) -> Outgoing:
        """Serves one line of a connection: its reply, then what it caused."""
        connection = self._connections.get(conn)
        if connection is None:
            return []

        def admit() -> None:
            if not connection.rate.take(self.clock()):
                raise ProtocolError(
                    "rate_limited",
                    f"more than {self.limits.lines_per_second:g} lines a second: "
                    "this one was not served",
                )

        message = answer(line, lambda request: self._serve(connection, request), REQUESTS, admit)
        self._out.insert(0, (conn, encode(message)))
        return self._flush()

    def refuse(self, conn: int, error: ProtocolError) -> str:
        """The line of an error that no request caused (a line too long)."""
        return encode(error_reply(None, error))

    def tick(self) -> Outgoing:
        """Applies the turn timers that ran out, takes the paced steps due and
        plays on the runs of hands left waiting."""
        now = self.clock()
        times = self._times
        while times and times[0][0] <= now:
            _, ident = heapq.heappop(times)
            table = self.tables.get(ident)
            if table is not None and table.served is not None:
                self._touched.add(ident)
                next_time = table.served.next_time
                if next_time is not None and next_time <= now:
                    table.served.tick(now)
        for ident in list(self._waiting):
            table = self.tables.get(ident)
            self._touched.add(ident)
            if table is not None and table.served is not None and table.served.waiting:
                table.served.advance()
        return self._flush()

    def next_time(self) -> float | None:
        """When :meth:`tick` has work next (on the clock), if ever."""
        times = self._times
        while times:
            when, ident = times[0]
            table = self.tables.get(ident)
            if table is not None and table.served is not None and table.served.next_time == when:
                return when
            heapq.heappop(times)  # (stale: the table's time is another now, or it is gone)
        return None

    def busy(self) -> bool:
        """Whether hands wait to be played on at once (:meth:`tick`)."""
        return bool(self._waiting)

    def _note_times(self) -> None:
        """The times of the tables that requests and timers touched, noted."""
        for ident in self._touched:
            table = self.tables.get(ident)
            served = None if table is None else table.served
            if served is None:
                self._waiting.discard(ident)
                continue
            when = served.next_time
            if when is not None:
                heapq.heappush(self._times, (when, ident))
            if served.waiting:
                self._waiting.add(ident)
            else:
                self._waiting.discard(ident)
        self._touched.clear()

    def _serve(self, connection: _Connection, request: Request) -> dict[str, Any]:
        f = request.fields
        kind = request.type
        if kind == "hello":
            return self._hello(connection, f)
        if not connection.hello:
            raise ProtocolError("hello_first", 'say hello first: {"type": "hello", "version": 1}')
        serve = _HANDLERS[kind]
        return serve(self, connection, f)

    def _hello(self, connection: _Connection, f: Fields) -> dict[str, Any]:
        version = f.integer("version")
        f.text("client", default=None)
        f.done()
        if version != VERSION:
            raise ProtocolError(
                "unsupported_version",
                f"this server speaks version {VERSION} of the protocol, not {version}",
                field="version",
            )
        connection.hello = True
        from .. import __version__

        return {
            "protocol": "holdem",
            "version": VERSION,
            "server": "room",
            "engine": __version__,
            "client": connection.id,
            "requests": list(REQUESTS),
            "limits": asdict(self.limits),
        }

    # ------------------------------------------------------------ finding

    def _table_of(self, connection: _Connection, f: Fields, *, join: bool) -> _RoomTable:
        """The table a request names: by ``code`` (any table), or by ``table``
        (a public one, or one the connection plays or watches)."""
        code = f.text("code", default=None)
        ident = f.text("table", default=None)
        if code is not None:
            table = self._by_code(connection, code)
            self._touched.add(table.id)
            return table
        if ident is None:
            raise ProtocolError("missing_field", "request.code or request.table: missing",
                                field="table")  # fmt: skip
        found = self.tables.get(ident)
        if found is not None and (
            found.public
            or any(self._sessions[s].table == ident for s in connection.sessions)
            or ident in connection.watching
        ):
            self._touched.add(ident)
            return found
        what = "no public table" if join else "no table you play or watch"
        raise ProtocolError("unknown_table", f"{what} {quote(ident)}", field="table")

    def _may_guess(self, connection: _Connection) -> float:
        """Refuses an address that guessed wrong too often; the time now."""
        now = self.clock()
        if not self._guesses.allowed(connection.address, now):
            wait = self._guesses.wait(connection.address, now)
            raise ProtocolError(
                "rate_limited", f"too many wrong codes and tokens: try again in {wait:.0f} s"
            )
        return now

    def _by_code(self, connection: _Connection, text: str) -> _RoomTable:
        now = self._may_guess(connection)
        address = connection.address
        code = normal_code(text)
        ident = None if code is None else self._codes.get(code)
        if ident is None or ident not in self.tables:
            self._guesses.failed(address, now)
            raise ProtocolError("unknown_code", f"no table has the code {quote(text)}",
                                field="code")  # fmt: skip
        return self.tables[ident]

    def _own(self, connection: _Connection, table: _RoomTable) -> _Session:
        """The connection's session at the table."""
        for session_id in connection.sessions:
            session = self._sessions.get(session_id)
            if session is not None and session.table == table.id:
                return session
        raise ProtocolError("not_your_seat", f"table {table.id}: you have no seat here",
                            field="table")  # fmt: skip

    def _creator(self, connection: _Connection, table: _RoomTable) -> None:
        if table.creator is None or table.creator not in connection.sessions:
            raise ProtocolError("not_creator", f"table {table.id}: only its creator may do that")

    # ------------------------------------------------------------ making tables

    def _create(self, connection: _Connection, f: Fields) -> dict[str, Any]:
        limits = self.limits
        live = [t for t in self.tables.values() if t.status in ("waiting", "playing")]
        if len(live) >= limits.tables:
            raise ProtocolError("limit", f"this server holds at most {limits.tables} tables")
        if sum(1 for t in live if t.address == connection.address) >= limits.tables_per_address:
            raise ProtocolError(
                "limit", f"at most {limits.tables_per_address} tables made from one address"
            )
        settings = table_settings(f)
        name = player_name(f.text("name"), "name")
        buy_in = f.integer("buy_in", default=None, optional=True, minimum=1)
        f.done()
        ident = f"t{self._next_table}"
        code = new_code()
        while code in self._codes:
            code = new_code()
        table = _RoomTable(ident, code, settings["game"], settings["public"], settings,
                           connection.address, creator=None)  # fmt: skip
        if table.game == "cash":
            self._start_cash(table, self._rng.getrandbits(64))
            check_buy_in(table.settings, buy_in)
        self._next_table += 1
        self.tables[ident] = table
        self._codes[code] = ident
        self._touched.add(ident)
        if self.store is not None:
            self.store.new_table(ident, code, table.game, public=table.public, settings=settings)
        session, token = self._seat_player(connection, table, 0, name, buy_in)
        table.creator = session.id
        if self.store is not None:
            self.store.save_seat(ident, 0, name, token_hash=session.token_hash, creator=True)
            self._save(table)
        return {
            "table": ident,
            "code": code,
            "public": table.public,
            "seat": 0,
            "token": token,
            "state": self._state(table),
        }

    def _start_cash(self, table: _RoomTable, seed: int) -> None:
        s = table.settings
        game = CashGame(s["seats"], small_blind=s["small_blind"], big_blind=s["big_blind"],
                        min_buy_in=s["min_buy_in"], max_buy_in=s["max_buy_in"],
                        structure=s["structure"], timer=self._timer(table),
                        rng=seed)  # fmt: skip
        table.settings.update(min_buy_in=game.min_buy_in, max_buy_in=game.max_buy_in)
        self._serve_game(table, game)

    def _timer(self, table: _RoomTable) -> TurnTimer:
        s = table.settings["timer"]
        # a private cash table keeps an absent friend's seat (sat out, not freed)
        free = None if table.game == "cash" and not table.public else 2
        rules = TimerRules(seconds=s["seconds"], time_bank=s["time_bank"], policy=s["policy"],
                           free_seat_after=free)  # fmt: skip
        return TurnTimer(rules, clock=self.clock)

    def _serve_game(self, table: _RoomTable, game: Tournament | CashGame) -> None:
        s = table.settings
        served = ServedTable(
            table.id, game, creator=0, bots={}, send=self._send, timer=game.table.timer,
            clock=self.clock, pace=s["pace"], pause=s["pause"],
            after_hand=lambda result: self._after_hand(table, result),
            keep=1 if self.store is not None else KEEP_HANDS,  # (the store has them all)
        )  # fmt: skip
        served.watchers = table.watchers  # (one set; the engine's creator, 0, is nobody here)
        table.served = served
        game.table.subscribe(lambda event: self._table_event(table, event))

    def _seat_player(
        self, connection: _Connection, table: _RoomTable, seat: int, name: str, buy_in: int | None
    ) -> tuple[_Session, str]:
        """Seats a player (a new session, its token): in the waiting list of a
        tournament, at a cash table with ``buy_in`` (default: the maximum)."""
        token = new_token()
        session = _Session(self._next_session, table.id, seat, name, token_hash(token),
                           connection=connection.id)  # fmt: skip
        self._next_session -= 1
        if table.served is None:
            table.waiting[seat] = _Entry(name, session=session.id)
        else:
            game = table.served.game
            assert isinstance(game, CashGame)
            chips = game.max_buy_in if buy_in is None else buy_in
            try:
                game.join(seat, name, chips)
            except (TableError, ConfigError) as exc:
                raise ProtocolError("table_error", str(exc)) from None
            table.served.owners[seat] = session.id
        self._sessions[session.id] = session
        self._by_token[session.token_hash] = session.id
        table.sessions[seat] = session.id
        connection.sessions.add(session.id)
        return session, token

    # ------------------------------------------------------------ joining

    def _join(self, connection: _Connection, f: Fields) -> dict[str, Any]:
        table = self._table_of(connection, f, join=True)
        name = player_name(f.text("name"), "name")
        wanted = f.integer("seat", default=None, optional=True)
        buy_in = f.integer("buy_in", default=None, optional=True, minimum=1)
        f.done()
        if table.status in ("finished", "closed"):
            raise ProtocolError("game_over", f"table {table.id}: the game is over")
        if table.game == "tournament" and table.served is not None:
            raise ProtocolError("game_started", f"table {table.id}: the tournament has begun")
        if any(self._sessions[s].table == table.id for s in connection.sessions):
            raise ProtocolError("seat_taken", f"table {table.id}: you have a seat here already")
        if name in self._names(table):
            raise ProtocolError("name_taken", f"table {table.id}: {quote(name)} is at the table",
                                field="name")  # fmt: skip
        seat = self._free_seat(table, wanted)
        check_buy_in(table.settings, buy_in)
        session, token = self._seat_player(connection, table, seat, name, buy_in)
        if self.store is not None:
            self.store.save_seat(table.id, seat, name, token_hash=session.token_hash)
            self._save(table)
        self._tell_lobby(table, {"event": "player_joined", "seat": seat, "name": name})
        self._play_on(table)
        return {"table": table.id, "seat": seat, "token": token, "state": self._state(table)}

    def _names(self, table: _RoomTable) -> set[str]:
        if table.served is None:
            return {e.name for e in table.waiting.values()}
        return {s.name for s in table.served.table.seats.values()}

    def _taken(self, table: _RoomTable) -> set[int]:
        if table.served is None:
            return set(table.waiting)
        return set(table.served.table.seats)

    def _free_seat(self, table: _RoomTable, wanted: int | None) -> int:
        taken = self._taken(table)
        if wanted is not None:
            if wanted >= table.seats:
                raise ProtocolError(
                    "unknown_seat", f"table {table.id} has seats 0 to {table.seats - 1}",
                    field="seat",
                )  # fmt: skip
            if wanted in taken:
                raise ProtocolError("seat_taken", f"table {table.id}: seat {wanted} is taken",
                                    field="seat")  # fmt: skip
            return wanted
        free = [s for s in range(table.seats) if s not in taken]
        if not free:
            raise ProtocolError("table_full", f"table {table.id}: every seat is taken")
        return free[0]

    def _tell_lobby(self, table: _RoomTable, message: dict[str, Any]) -> None:
        """Tells everyone at a table (playing, or waiting for it to begin)."""
        if table.served is not None:
            table.served.tell(message)
            return
        message["table"] = table.id
        self._send(sorted(table.sessions.values()) + sorted(table.watchers), message)

    def _add_bots(self, connection: _Connection, f: Fields) -> dict[str, Any]:
        table = self._table_of(connection, f, join=False)
        level = f.text("level", default="normal")
        count = f.integer("count", default=None, optional=True, minimum=1)
        f.done()
        self._creator(connection, table)
        if level not in BOTS:
            raise ProtocolError("invalid_field", f"request.level: no bot level {quote(level)}: "
                                f"one of {', '.join(BOTS)}", field="level")  # fmt: skip
        if table.game == "tournament" and table.served is not None:
            raise ProtocolError("game_started", f"table {table.id}: the tournament has begun")
        if table.status in ("finished", "closed"):
            raise ProtocolError("game_over", f"table {table.id}: the game is over")
        free = [s for s in range(table.seats) if s not in self._taken(table)]
        if not free:
            raise ProtocolError("table_full", f"table {table.id}: every seat is taken")
        seats = free[: count or len(free)]
        names = self._names(table)
        for seat in seats:
            name = bot_name(level, names)
            names.add(name)
            self._seat_bot(table, seat, name, level)
            self._tell_lobby(table, {"event": "player_joined", "seat": seat, "name": name,
                                     "bot": level})  # fmt: skip
        self._save(table)
        self._play_on(table)
        return {"table": table.id, "seats": seats, "state": self._state(table)}

    def _seat_bot(self, table: _RoomTable, seat: int, name: str, level: str) -> None:
        if table.served is None:
            table.waiting[seat] = _Entry(name, bot=level)
        else:
            game = table.served.game
            assert isinstance(game, CashGame)
            game.join(seat, name, game.max_buy_in)
            table.served.bots[seat] = make_bot(level, seed=self._rng.getrandbits(32))
            table.served.levels[seat] = level
        if self.store is not None:
            self.store.save_seat(table.id, seat, name, bot=level)

    # ------------------------------------------------------------ playing

    def _start(self, connection: _Connection, f: Fields) -> dict[str, Any]:
        table = self._table_of(connection, f, join=False)
        f.done()
        self._creator(connection, table)
        if table.status != "waiting":
            raise ProtocolError("hand_in_progress", f"table {table.id}: it has begun already")
        if len(self._taken(table)) < 2:
            raise ProtocolError("table_error", f"table {table.id}: two players are needed")
        if table.served is None:
            self._begin_tournament(table, self._rng.getrandbits(64))
        table.status = "playing"
        if self.store is not None:
            self.store.set_status(table.id, "playing")
        self._save(table)
        self._play_on(table)
        return {"table": table.id, "state": self._state(table)}

    def _begin_tournament(self, table: _RoomTable, seed: int) -> None:
        """The tournament of the players waiting: they sit from seat 0 in the
        order of their seats (their sessions and the store follow)."""
        s = table.settings
        order = sorted(table.waiting.items())
        schedule = Schedule.from_dict(s["schedule"])
        game = Tournament([e.name for _, e in order], stack=s["stack"], seats=s["seats"],
                          schedule=schedule, structure=s["structure"], timer=self._timer(table),
                          rng=seed)  # fmt: skip
        self._serve_game(table, game)
        served = table.served
        assert served is not None
        table.sessions = {}
        for new, (_, entry) in enumerate(order):
            if entry.bot is not None:
                served.bots[new] = make_bot(entry.bot, seed=self._rng.getrandbits(32))
                served.levels[new] = entry.bot
            elif entry.session is not None:
                session = self._sessions[entry.session]
                session.seat = new
                table.sessions[new] = session.id
                served.owners[new] = session.id
        if self.store is not None:
            self.store.replace_seats(table.id, [
                SeatRow(new, e.name, e.bot,
                        None if e.session is None else self._sessions[e.session].token_hash,
                        e.session is not None and e.session == table.creator)
                for new, (_, e) in enumerate(order)
            ])  # fmt: skip
        table.waiting = {}

    def _play_on(self, table: _RoomTable) -> None:
        """A table that has begun plays on when it can."""
        served = table.served
        if served is None or table.status != "playing" or served.finished:
            return
        if served.table.hand is None and not served.to_play and served.table.can_deal():
            served.start(_FOREVER)

    def _act(self, connection: _Connection, f: Fields) -> dict[str, Any]:
        table = self._table_of(connection, f, join=False)
        raw = f.raw("action", 'a decision ({"kind": ...})')
        decision = Decision.from_dict(raw, where="request.action")
        f.done()
        session = self._own(connection, table)
        served = self._served(table)
        in_time = served.act(session.seat, decision)
        return {"table": table.id, "seat": session.seat, "in_time": in_time}

    def _add_chips(self, connection: _Connection, f: Fields) -> dict[str, Any]:
        table = self._table_of(connection, f, join=False)
        chips = f.integer("chips", minimum=1)
        f.done()
        session = self._own(connection, table)
        game = self._served(table).game
        if not isinstance(game, CashGame):
            raise ProtocolError("table_error", f"table {table.id}: nobody adds chips in a "
                                "tournament")  # fmt: skip
        try:
            now = game.add_chips(session.seat, chips)
        except TableError as exc:
            raise ProtocolError("table_error", str(exc), field="chips") from None
        self._save(table)
        self._play_on(table)
        return {"table": table.id, "seat": session.seat, "chips": chips, "now": now}

    def _served(self, table: _RoomTable) -> ServedTable:
        if table.served is None:
            raise ProtocolError("no_hand", f"table {table.id}: the game has not begun")
        return table.served

    def _after_hand(self, table: _RoomTable, result: HandResult) -> None:
        served = table.served
        assert served is not None
        if self.store is not None:
            names = dict(zip(result.plan.dealt, result.played.config.names or (), strict=False))
            self.store.save_hand(table.id, result, names)
        self._sit_out_absent(table)
        game = served.game
        over = game.finished if isinstance(game, Tournament) else game.over
        if over:
            table.status = "finished"
            if self.store is not None:
                self.store.set_status(table.id, "finished", served.results())
        self._save(table)

    def _table_event(self, table: _RoomTable, event: Event) -> None:
        """A seat freed (left, busted, timed out): its player's session ends;
        a connected player watches on."""
        if not isinstance(event, SeatFreed):
            return
        session = self._sessions.get(table.sessions.get(event.seat, 0))
        if session is None:
            return
        if self.store is not None:
            self.store.free_seat(table.id, event.seat, event.reason)
        if session.connection is not None:
            connection = self._connections.get(session.connection)
            if connection is not None:
                connection.watching.add(table.id)
                table.watchers.add(connection.id)
        self._end_session(session, table)

    def _sit_out_absent(self, table: _RoomTable) -> None:
        """At a private cash table, a player who is not connected and timed out
        twice in a row sits out (the seat is kept)."""
        served = table.served
        assert served is not None
        timer = served.table.timer
        if table.game != "cash" or table.public or timer is None:
            return
        for seat, session_id in table.sessions.items():
            session = self._sessions.get(session_id)
            info = served.table.seat(seat)
            if (
                session is not None
                and session.connection is None
                and info is not None
                and info.status != "sitting_out"
                and timer.in_a_row(info.name) >= 2
            ):
                served.table.sit_out(seat)

    def _save(self, table: _RoomTable) -> None:
        """The table's game as it is between hands, to the store."""
        if self.store is None or table.served is None or table.served.table.hand is not None:
            return
        self.store.save_snapshot(table.id, table.served.game.snapshot())

    # ------------------------------------------------------------ telling

    def _state(self, table: _RoomTable) -> dict[str, Any]:
        s = table.settings
        out: dict[str, Any] = {
            "table": table.id,
            "game": table.game,
            "public": table.public,
            "status": table.status,
            "max_seats": table.seats,
            "creator": self._creator_seat(table),
            "settings": {k: v for k, v in s.items() if k not in ("game", "public")},
        }
        if table.served is None:
            out["seats"] = [
                {"seat": seat, "name": e.name, "bot": e.bot, "connected": self._connected(e)}
                for seat, e in sorted(table.waiting.items())
            ]
            out["hand"] = None
            out["hands_played"] = 0
            return out
        served = table.served
        t = served.table
        hand = t.hand
        out["seats"] = [
            {
                "seat": seat,
                "name": info.name,
                "chips": info.chips,
                "status": "away" if seat in t.away else info.status,
                "bot": served.levels.get(seat),
                "connected": self._seat_connected(table, seat),
            }
            for seat, info in sorted(t.seats.items())
        ]
        out["hands_played"] = t.hands_played
        out["blinds"] = t.blinds.to_dict()
        out["hand"] = hand.view(None).to_dict() if hand is not None else None
        out.update(served.results())
        return out

    def _creator_seat(self, table: _RoomTable) -> int | None:
        session = self._sessions.get(table.creator) if table.creator is not None else None
        return None if session is None else session.seat

    def _connected(self, entry: _Entry) -> bool | None:
        if entry.session is None:
            return None
        session = self._sessions.get(entry.session)
        return session is not None and session.connection is not None

    def _seat_connected(self, table: _RoomTable, seat: int) -> bool | None:
        session_id = table.sessions.get(seat)
        if session_id is None:
            return None
        session = self._sessions.get(session_id)
        return session is not None and session.connection is not None

    def _list(self, connection: _Connection, f: Fields) -> dict[str, Any]:
        f.done()
        tables = []
        for table in self.tables.values():
            if not table.public or table.status in ("finished", "closed"):
                continue
            s = table.settings
            blinds = (
                {"small_blind": s["small_blind"], "big_blind": s["big_blind"]}
                if table.game == "cash"
                else None
            )
            tables.append({
                "table": table.id, "game": table.game, "status": table.status,
                "players": len(self._taken(table)), "max_seats": table.seats,
                "blinds": blinds, "joinable": table.game == "cash" or table.served is None,
            })  # fmt: skip
        return {"tables": tables}

    def _watch(self, connection: _Connection, f: Fields) -> dict[str, Any]:
        table = self._table_of(connection, f, join=True)
        f.done()
        if any(self._sessions[s].table == table.id for s in connection.sessions):
            return self._state(table)  # (a player is told everything a watcher is)
        connection.watching.add(table.id)
        table.watchers.add(connection.id)
        return self._state(table)

    def _state_request(self, connection: _Connection, f: Fields) -> dict[str, Any]:
        table = self._table_of(connection, f, join=False)
        f.done()
        return self._state(table)

    def _view(self, connection: _Connection, f: Fields) -> dict[str, Any]:
        table = self._table_of(connection, f, join=False)
        f.done()
        session = self._own(connection, table)
        hand = self._served(table).table.hand
        if hand is None or session.seat not in hand.config.seat_numbers:
            raise ProtocolError("no_hand", f"table {table.id}: you are not in a hand now")
        return {"table": table.id, "view": hand.view(session.seat).to_dict()}

    def _legal(self, connection: _Connection, f: Fields) -> dict[str, Any]:
        table = self._table_of(connection, f, join=False)
        f.done()
        session = self._own(connection, table)
        hand = table.served.table.hand if table.served is not None else None
        legal = None
        if hand is not None and hand.actor == session.seat:
            menu = hand.legal_actions()
            legal = None if menu is None else menu.to_dict()
        return {"table": table.id, "seat": session.seat, "legal": legal}

    def _history(self, connection: _Connection, f: Fields) -> dict[str, Any]:
        table = self._table_of(connection, f, join=False)
        number = f.integer("hand", minimum=1)
        form = f.text("format", default="phh")
        f.done()
        if form not in ("phh", "pokerstars"):
            raise ProtocolError("invalid_field", f"request.format: 'phh' or 'pokerstars', "
                                f"not {quote(form)}", field="format")  # fmt: skip
        hand = None
        if table.served is not None:
            hand = table.served.kept.get(number)
        if hand is None and self.store is not None:
            stored = self.store.hand(table.id, number)
            if stored is not None:
                hand = hand_of(stored)
        if hand is None or hand.outcome is None:
            raise ProtocolError("invalid_field", f"table {table.id} has no hand {number} "
                                "finished", field="hand")  # fmt: skip
        return {"table": table.id, "hand": number, "format": form,
                "text": history_text(hand, number, tournament=table.game == "tournament",
                                     form=form)}  # fmt: skip

    # ------------------------------------------------------------ leaving, coming back

    def _leave(self, connection: _Connection, f: Fields) -> dict[str, Any]:
        table = self._table_of(connection, f, join=False)
        f.done()
        session = self._own(connection, table)
        seat = session.seat
        now = True
        if table.served is None:
            del table.waiting[seat]
            if self.store is not None:
                self.store.free_seat(table.id, seat, "left")
        elif table.game == "cash":
            game = table.served.game
            assert isinstance(game, CashGame)
            now = game.leave(seat)
            if self.store is not None:
                self.store.end_token(session.token_hash, "left")
        else:  # a tournament stack plays on, checking or folding, until it busts
            table.served.table.away.add(seat)
            table.served.owners.pop(seat, None)
            if self.store is not None:
                self.store.end_token(session.token_hash, "left")
            if table.served.table.hand is not None:
                table.served.advance()
        self._end_session(session, table)
        if table.creator == session.id:
            table.creator = None
        self._tell_lobby(table, {"event": "player_left", "seat": seat, "name": session.name})
        self._save(table)
        return {"table": table.id, "seat": seat, "left": now}

    def _end_session(self, session: _Session, table: _RoomTable) -> None:
        self._sessions.pop(session.id, None)
        self._by_token.pop(session.token_hash, None)
        if table.sessions.get(session.seat) == session.id:
            del table.sessions[session.seat]
        for connection in self._connections.values():
            connection.sessions.discard(session.id)

    def _resume(self, connection: _Connection, f: Fields) -> dict[str, Any]:
        token = f.text("token")
        f.done()
        now = self._may_guess(connection)
        address = connection.address
        hashed = token_hash(token)
        session_id = self._by_token.get(hashed)
        if session_id is None:
            self._guesses.failed(address, now)
            why = None if self.store is None else self.store.old_token(hashed)
            if why is not None:
                raise ProtocolError("token_expired", f"this token no longer gives a seat: {why}",
                                    field="token")  # fmt: skip
            raise ProtocolError("unknown_token", "no seat has this token", field="token")
        session = self._sessions[session_id]
        table = self.tables[session.table]
        self._touched.add(table.id)
        held = self._connections.get(session.connection) if session.connection else None
        if held is not None and held.id != connection.id and held.address != address:
            raise ProtocolError("token_in_use", "the seat is connected from another address",
                                field="token")  # fmt: skip
        if held is not None:
            held.sessions.discard(session.id)
            self._tell(held.id, {"event": "seat_taken_over", "table": table.id,
                                 "seat": session.seat})  # fmt: skip
        # a new token for the seat: the one used no longer works
        new = new_token()
        del self._by_token[session.token_hash]
        if self.store is not None:
            self.store.end_token(session.token_hash, "replaced")
            self.store.save_seat(table.id, session.seat, session.name, token_hash=token_hash(new),
                                 creator=table.creator == session.id)  # fmt: skip
        session.token_hash = token_hash(new)
        self._by_token[session.token_hash] = session.id
        session.connection = connection.id
        connection.sessions.add(session.id)
        missed, dropped = [plain(m) for m in session.backlog], session.dropped
        session.backlog.clear()
        session.dropped = 0
        view = None
        served = table.served
        if served is not None:
            t = served.table
            if session.seat in t.away:
                t.come_back(session.seat)
            info = t.seat(session.seat)
            if info is not None and info.status == "sitting_out" and info.chips:
                t.sit_in(session.seat)
            hand = t.hand
            if hand is not None and session.seat in hand.config.seat_numbers:
                view = hand.view(session.seat).to_dict()
            self._play_on(table)
        result = {
            "table": table.id,
            "seat": session.seat,
            "name": session.name,
            "token": new,
            "state": self._state(table),
            "view": view,
            "missed": missed,
            "missed_dropped": dropped,
        }
        if served is not None:  # (after the reply: the turn it has, if any)
            served.tell_turn_again(session.seat)
        return result

    def _close(self, connection: _Connection, f: Fields) -> dict[str, Any]:
        table = self._table_of(connection, f, join=False)
        f.done()
        self._creator(connection, table)
        self._tell_lobby(table, {"event": "table_closed"})
        self._forget(table, "closed")
        return {"table": table.id, "closed": True}

    def _forget(self, table: _RoomTable, status: str) -> None:
        served = table.served
        if served is not None and isinstance(served.game, CashGame):
            for seat in list(served.table.seats):
                served.table.leave(seat)
        for session_id in list(table.sessions.values()):
            session = self._sessions.get(session_id)
            if session is not None:
                if self.store is not None:
                    self.store.end_token(session.token_hash, status)
                self._end_session(session, table)
        for conn in table.watchers:
            connection = self._connections.get(conn)
            if connection is not None:
                connection.watching.discard(table.id)
        table.status = status
        if self.store is not None:
            self.store.set_status(table.id, status)
        del self.tables[table.id]
        self._codes.pop(table.code, None)

    # ------------------------------------------------------------ a new server

    def _resume_tables(self, store: Store) -> None:
        """The tables the store holds that were not over, each as it was before
        the hand being played when the server stopped (new cards)."""
        for row in store.tables("waiting", "playing"):
            try:
                self._resume_table(store, row)
            except (HoldemError, KeyError, TypeError, ValueError) as exc:
                store.set_status(row.id, "closed", {"error": f"could not be resumed: {exc}"})
        store.commit()
        self._note_times()

    def _resume_table(self, store: Store, row: TableRow) -> None:
        table = _RoomTable(row.id, row.code, row.game, row.public, row.settings, "",
                           creator=None, status=row.status)  # fmt: skip
        seats = store.seats(row.id)
        if row.snapshot is not None:
            game_type = Tournament if row.game == "tournament" else CashGame
            game = game_type.from_snapshot(
                row.snapshot, rng=self._rng.getrandbits(64), timer=self._timer(table)
            )
            self._serve_game(table, game)
        for seat_row in seats:
            if seat_row.bot is not None:
                if table.served is None:
                    table.waiting[seat_row.seat] = _Entry(seat_row.name, bot=seat_row.bot)
                else:
                    bot: Bot = make_bot(seat_row.bot, seed=self._rng.getrandbits(32))
                    table.served.bots[seat_row.seat] = bot
                    table.served.levels[seat_row.seat] = seat_row.bot
                continue
            if seat_row.token_hash is None:
                continue
            session = _Session(self._next_session, row.id, seat_row.seat, seat_row.name,
                               seat_row.token_hash)  # fmt: skip
            self._next_session -= 1
            self._sessions[session.id] = session
            self._by_token[session.token_hash] = session.id
            table.sessions[seat_row.seat] = session.id
            if seat_row.creator:
                table.creator = session.id
            if table.served is None:
                table.waiting[seat_row.seat] = _Entry(seat_row.name, session=session.id)
            elif table.served.table.seat(seat_row.seat) is not None:
                table.served.owners[seat_row.seat] = session.id
        self.tables[row.id] = table
        self._codes[row.code] = row.id
        self._touched.add(row.id)
        self._play_on(table)


_HANDLERS: dict[str, Callable[[Room, _Connection, Fields], dict[str, Any]]] = {
    "create_table": Room._create,
    "join": Room._join,
    "list_tables": Room._list,
    "watch": Room._watch,
    "add_bots": Room._add_bots,
    "start": Room._start,
    "act": Room._act,
    "add_chips": Room._add_chips,
    "state": Room._state_request,
    "view": Room._view,
    "legal": Room._legal,
    "history": Room._history,
    "leave": Room._leave,
    "resume": Room._resume,
    "close": Room._close,
}
assert set(_HANDLERS) | {"hello"} == set(REQUESTS)
_ = json  # (the doctest's)
