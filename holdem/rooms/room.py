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
from .codes import Rate
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
    "back",
    "state",
    "view",
    "legal",
    "history",
    "leave",
    "resume",
    "close",
)


class Room(Lobby, Seats):
    """A room server's tables, seats and connections.  ``store``: where the
    tables and hands are kept (None: nowhere), its tables resumed at once;
    ``seed``: the cards' and the bots' seeds (None: from the system's random
    source); ``clock``: seconds, monotonic (the turn timers, the rates)."""

    def __init__(
        self,
        store: Store | None = None,
        *,
        limits: Limits | None = None,
        seed: int | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__(store, limits, seed, clock)
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
        self._connections[ident] = Connection(ident, address, rate)
        return ident

    def disconnect(self, conn: int) -> Outgoing:
        """The connection is gone: its seats wait for their players (the timer
        plays them), and it watches nothing."""
        connection = self._connections.pop(conn, None)
        if connection is not None:
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
        """The address a connection came from (None: it is gone)."""
        connection = self._connections.get(conn)
        return None if connection is None else connection.address

    # ------------------------------------------------------------ requests

    def handle(self, conn: int, line: bytes | str) -> Outgoing:
        """Serves one line of a connection: its reply, then what it caused.
        Past the connection's rate the line is answered ``rate_limited`` and
        not served (whatever it holds)."""
        connection = self._connections.get(conn)
        if connection is None:
            return []
        if not connection.rate.take(self.clock()):
            message = error_reply(_id_of(line), self._too_fast())
        else:
            message = answer(line, lambda request: self._serve(connection, request), REQUESTS)
        self._out.insert(0, (conn, encode(message)))
        return self._flush()

    def too_long(self, conn: int) -> Outgoing:
        """The answer to a line longer than :attr:`Limits.line_bytes` (it counts
        against the connection's rate like any line)."""
        connection = self._connections.get(conn)
        if connection is None:
            return []
        limit = self.limits.line_bytes
        error = ProtocolError("line_too_long", f"a line longer than {limit:,} bytes")
        if not connection.rate.take(self.clock()):
            error = self._too_fast()
        return [(conn, encode(error_reply(None, error)))]

    def refuse(self, error: ProtocolError) -> str:
        """The line of an error that no request caused (a connection refused)."""
        return encode(error_reply(None, error))

    def _too_fast(self) -> ProtocolError:
        return ProtocolError(
            "rate_limited",
            f"more than {self.limits.lines_per_second:g} lines a second: this one was not served",
        )

    def _serve(self, connection: Connection, request: Request) -> dict[str, Any]:
        f = request.fields
        kind = request.type
        self._evict(self.clock())
        if kind == "hello":
            return self._hello(connection, f)
        if not connection.hello:
            raise ProtocolError("hello_first", 'say hello first: {"type": "hello", "version": 1}')
        serve = _HANDLERS[kind]
        return serve(self, connection, f)

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
    "back": Room._back,
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
