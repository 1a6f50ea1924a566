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

One of a server's workers (``worker=k, workers=N``) serves the tables it
owns and sends a connection that names another's table, and has no table
here, on to that worker (:meth:`Room.moving_to`, :meth:`Room.release`,
:meth:`Room.adopt`).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import asdict
from typing import Any

from ..errors import ProtocolError
from ..protocol.messages import (
    VERSION,
    Request,
    answer,
    encode,
    error_reply,
    parse_line,
    request_id,
)
from ..wire import Fields
from .chat import Chat
from .codes import Rate, SharedGuesses, Tally, normal_code, token_hash
from .core import Connection, Limits, Outgoing
from .lobby import Lobby
from .seats import Seats
from .store import Store

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
    "sit_out",
    "back",
    "state",
    "view",
    "legal",
    "show",
    "run_twice",
    "history",
    "hands",
    "chat",
    "mute",
    "leave",
    "resume",
    "close",
)


class Room(Lobby, Seats, Chat):
    """A room server's tables, seats and connections.  ``store``: where the
    tables and hands are kept (None: nowhere), its tables resumed at once;
    ``seed``: the cards' and the bots' seeds (None: from the system's random
    source); ``clock``: seconds, monotonic (the turn timers, the rates).

    ``worker`` of ``workers``: the share of a server's tables this room
    serves (its own, ``t<n>`` with ``(n - 1) % workers == worker``; the
    store shared with the other workers); ``generation``: how many times
    this worker was started before (its connections' numbers stay new);
    ``tally``: the connections every worker holds (the server's limit);
    ``guesses``: the wrong codes and tokens of every worker, by address;
    ``log``: takes a line for each failure of the store, and each recovery
    (the server's stderr)."""

    def __init__(
        self,
        store: Store | None = None,
        *,
        limits: Limits | None = None,
        seed: int | None = None,
        clock: Callable[[], float] = time.monotonic,
        worker: int = 0,
        workers: int = 1,
        generation: int = 0,
        tally: Tally | None = None,
        guesses: SharedGuesses | None = None,
        log: Callable[[str], object] | None = None,
    ) -> None:
        super().__init__(store, limits, seed, clock, worker, workers, generation, tally, guesses)
        if log is not None:
            self.log = log
        self._count_connections()
        if store is not None:
            self._resume_tables(store)

    # ------------------------------------------------------------ connections

    def connect(self, address: str) -> int:
        """A new connection from ``address``: its number.  Refused past the
        limits (:class:`~holdem.errors.ProtocolError` ``too_many_connections``)."""
        limits = self.limits
        held = len(self._connections) if self.tally is None else self.tally.total()
        if held >= limits.connections:
            raise ProtocolError(
                "too_many_connections",
                f"this server takes {limits.connections} connections at once",
            )
        self._room_for(address)
        ident = self._next_connection
        self._next_connection += self.workers
        self._add_connection(ident, address, hello=False)
        return ident

    def adopt(self, conn: int, address: str, *, hello: bool, rate: float) -> None:
        """A connection another worker of the server sent on (:meth:`release`),
        with its number, whether it said hello and the lines its rate allows
        at once there (it goes on from them: ``Rate.left``).  The server's
        limit does not refuse it (it counts there already), but its
        address's does, as here it counts (else an address could heap its
        connections up at one worker, sent on one at a time)."""
        if conn in self._connections:
            raise ProtocolError("internal_error", f"connection {conn} is here already")
        self._room_for(address)
        self._add_connection(conn, address, hello=hello, rate=rate)

    def _room_for(self, address: str) -> None:
        """Refuses a connection from an address that holds its limit here."""
        most = self.limits.connections_per_address
        if sum(1 for c in self._connections.values() if c.address == address) >= most:
            raise ProtocolError(
                "too_many_connections", f"at most {most} connections from one address"
            )

    def _add_connection(self, conn: int, address: str, *, hello: bool,
                        rate: float | None = None) -> None:  # fmt: skip
        now = self.clock()
        limits = self.limits
        bucket = Rate(limits.lines_per_second, limits.burst, now, left=rate)
        self._connections[conn] = Connection(id=conn, address=address, rate=bucket, hello=hello,
                                             opened=now, active=now)  # fmt: skip
        self._count_connections()

    def moving_to(self, conn: int) -> int | None:
        """The worker the connection's last line is for (None: it was served
        here).  That line was not answered: the connection, its line and what
        follows go to that worker (:meth:`release`), which serves them."""
        return self._moving.get(conn)

    def stay(self, conn: int) -> None:
        """The connection :meth:`moving_to` named a worker for stays here (the
        store stalled before it could go): its line is served here again."""
        self._moving.pop(conn, None)

    def release(self, conn: int) -> Connection | None:
        """Lets go of a connection that moves to another worker, without the
        end of a disconnection (it plays and watches nothing here): what it
        was (its address, its hello), or None when it is gone."""
        self._moving.pop(conn, None)
        connection = self._connections.pop(conn, None)
        self._rewired()
        self._count_connections()
        return connection

    def _count_connections(self) -> None:
        if self.tally is not None:
            self.tally.set(self.worker, len(self._connections))

    def disconnect(self, conn: int) -> Outgoing:
        """The connection is gone: its seats wait for their players (the timer
        plays them), and it watches nothing."""
        connection = self.release(conn)
        if connection is not None:
            for session_id in connection.sessions:
                session = self._sessions.get(session_id)
                if session is not None and session.connection == conn:
                    session.connection = None
                    table = self.tables.get(session.table)
                    if table is not None and table.live and not table.stopped:
                        self._tell_status(table, session, "disconnected")
            for ident in connection.watching:
                table = self.tables.get(ident)
                if table is not None:
                    table.watchers.discard(conn)
                    table.spectators.pop(conn, None)
        return self._flush()

    def _back_told(self, connection: Connection, f: Fields) -> dict[str, Any]:
        """``back`` (:meth:`Seats._back`), and the others told that a player
        who was away is dealt in again (``seat_status`` ``back``)."""
        was = {s for s in connection.sessions if s in self._sessions and self._sessions[s].away}
        result = self._back(connection, f)
        for session_id in was & connection.sessions:
            session = self._sessions[session_id]
            if session.table == result["table"] and not session.away:
                self._tell_status(self.tables[session.table], session, "back")
        return result

    def idle(self) -> Outgoing:
        """The connections to close for their silence, each with the line
        that tells it why (the caller writes it after what the connection
        was owed, then closes it): one that has not said hello
        :attr:`Limits.hello_seconds` after it was made, and one that plays
        no seat and watches no table and has sent nothing for
        :attr:`Limits.idle_seconds` (counted from its last line, or from
        when it was last seen playing or watching)."""
        now = self.clock()
        limits = self.limits
        closing: Outgoing = []
        for connection in self._connections.values():
            if not connection.hello:
                if now - connection.opened < limits.hello_seconds:
                    continue
                why = (f"no hello in the {limits.hello_seconds:g} s after connecting: "
                       "the connection is closed")  # fmt: skip
            elif self._holds(connection):
                connection.active = now  # (it is not idle: its silence counts from now)
                continue
            elif now - connection.active < limits.idle_seconds:
                continue
            else:
                why = (f"nothing sent for {limits.idle_seconds:g} s, and no table played or "
                       "watched: the connection is closed")  # fmt: skip
            closing.append((connection.id, encode(error_reply(None, ProtocolError("idle", why)))))
        return closing

    def address(self, conn: int) -> str | None:
        """The address a connection came from (None: it is gone)."""
        connection = self._connections.get(conn)
        return None if connection is None else connection.address

    # ------------------------------------------------------------ requests

    def handle(self, conn: int, line: bytes | str, *, moved: bool = False) -> Outgoing:
        """Serves one line of a connection: its reply, then what it caused.
        Past the connection's rate the line is answered ``rate_limited`` and
        not served (whatever it holds).

        A line of a connection that holds no table here and names another
        worker's table is not answered: :meth:`moving_to` says where it
        goes.  ``moved``: the line came here so (it is served here, whatever
        it names, and not counted again against the rate)."""
        connection = self._connections.get(conn)
        if connection is None:
            return []
        mark = len(connection.out)  # (the reply goes before what the request caused)
        connection.active = now = self.clock()
        if not moved and not connection.rate.take(now):
            reply = encode(error_reply(_id_of(line), self._too_fast()))
        elif self.stalled is not None or (done := self._act_at_once(connection, line)) is None:
            message = answer(
                line, lambda request: self._serve(connection, request, moved), REQUESTS
            )
            if self._moving and conn in self._moving:
                return self._flush(conn)
            reply = encode(message)
        else:
            reply = done
        # (a reply is waited for but a result without an id's: that one goes with the rest)
        self._put(connection, reply, at=mark, urgent=not reply.startswith('{"id":null,"result"'))
        return self._flush(conn)

    def too_long(self, conn: int) -> Outgoing:
        """The answer to a line longer than :attr:`Limits.line_bytes` (it counts
        against the connection's rate like any line)."""
        limit = self.limits.line_bytes
        return self.refused(conn, ProtocolError("line_too_long",
                                                f"a line longer than {limit:,} bytes"))  # fmt: skip

    def refused(self, conn: int, error: ProtocolError) -> Outgoing:
        """The answer to what a connection sent that is not a line to serve
        (one too long, a WebSocket's binary frame): ``error``, counted
        against the connection's rate like any line."""
        connection = self._connections.get(conn)
        if connection is None:
            return []
        connection.active = now = self.clock()
        if not connection.rate.take(now):
            error = self._too_fast()
        self._put(connection, encode(error_reply(None, error)))
        return self._flush(conn)

    def refuse(self, error: ProtocolError) -> str:
        """The line of an error that no request caused (a connection refused)."""
        return encode(error_reply(None, error))

    def _too_fast(self) -> ProtocolError:
        return ProtocolError(
            "rate_limited",
            f"more than {self.limits.lines_per_second:g} lines a second: this one was not served",
        )

    def _serve(self, connection: Connection, request: Request, moved: bool) -> dict[str, Any]:
        f = request.fields
        kind = request.type
        self._evict(self.clock())
        if kind == "hello":
            return self._hello(connection, f)
        if self.stalled is not None:  # (what it would change could not be kept)
            raise ProtocolError(
                "store_unavailable",
                f"the server cannot store the games now ({self.stalled}): every table "
                "waits, and requests are refused until it can; try again in a few seconds",
            )
        if not connection.hello:
            raise ProtocolError("hello_first", 'say hello first: {"type": "hello", "version": 1}')
        if self.workers > 1 and not moved and not self._holds(connection):
            owner = self._owner_of(connection, kind, f)  # (another worker, or None)
            if owner is not None:
                self._moving[connection.id] = owner
                return {}  # (not sent: the owner answers)
        serve = _HANDLERS[kind]
        return serve(self, connection, f)

    def _owner_of(self, connection: Connection, kind: str, f: Fields) -> int | None:
        """The other worker that serves what a request names (None: here, or nothing
        it names is known: the request is answered here).  A new table goes
        to the worker with the fewest tables; an address refused its guesses
        is answered here (``rate_limited``)."""
        if kind == "create_table":
            return self._least_loaded()
        if kind == "list_tables":
            return None
        store = self.store
        if kind == "resume":
            hashed = token_hash(f.text("token"))
            if hashed in self._by_token or store is None or not self._may_guess_now(connection):
                return None
            found = store.token_table(hashed)
            return None if found is None else self._elsewhere(found[0])
        code = f.text("code", default=None)
        if code is not None:
            normal = normal_code(code)
            if normal is None or normal in self._codes or store is None:
                return None
            if not self._may_guess_now(connection):
                return None
            return self._elsewhere(store.table_with_code(normal))
        ident = f.text("table", default=None)
        return self._elsewhere(ident)

    def _may_guess_now(self, connection: Connection) -> bool:
        return self._guesses.allowed(connection.address, self.clock())

    def _least_loaded(self) -> int | None:
        """The worker a new table goes to: the one with the fewest tables
        waiting or being played (this one when it has as few as any)."""
        if self.store is None:
            return None
        counts = [0] * self.workers
        for ident in self.store.live_table_ids():
            owner = self.owner(ident)
            if owner is not None:
                counts[owner] += 1
        fewest = min(range(self.workers), key=lambda k: counts[k])
        return None if counts[fewest] >= counts[self.worker] else fewest

    def _hello(self, connection: Connection, f: Fields) -> dict[str, Any]:
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


def _id_of(line: bytes | str) -> int | str | None:
    """The id of a line's request, if it has one that can be read."""
    try:
        return request_id(parse_line(line))
    except ProtocolError:
        return None


_HANDLERS: dict[str, Callable[[Room, Connection, Fields], dict[str, Any]]] = {
    "create_table": Room._create,
    "join": Room._join,
    "list_tables": Room._list,
    "watch": Room._watch,
    "add_bots": Room._add_bots,
    "start": Room._start,
    "act": Room._act,
    "add_chips": Room._add_chips,
    "sit_out": Room._sit_out,
    "back": Room._back_told,
    "state": Room._state_request,
    "view": Room._view,
    "legal": Room._legal,
    "show": Room._show,
    "run_twice": Room._run_twice,
    "history": Room._history,
    "hands": Room._hands,
    "chat": Room._chat,
    "mute": Room._mute,
    "leave": Room._leave,
    "resume": Room._resume,
    "close": Room._close,
}
assert set(_HANDLERS) | {"hello"} == set(REQUESTS)
_ = json  # (the doctest's)
