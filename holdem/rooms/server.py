"""The room server's network loop (asyncio, TCP): each connection's lines go
to the :class:`~holdem.rooms.room.Room`, and what it answers goes back, a
write a connection for all that one read caused.

Nothing waits on a client: writes are buffered by the transport, and a
connection with more than :attr:`Limits.queue_bytes` unsent is closed (its
seats wait for it, played by the turn timer).  The timers run on the loop's
own clock, whatever the clients do.  Lines longer than
:attr:`Limits.line_bytes` are answered ``line_too_long`` and skipped.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import socket
from collections.abc import Callable
from typing import Any

from ..errors import ProtocolError
from ..protocol.messages import Lines
from .core import Outgoing
from .room import Room

__all__ = ["FLUSH", "URGENT", "RoomServer", "serve"]

#: Bytes the kernel holds for a connection's output (beyond them, the queue).
SOCKET_BUFFER = 128 * 1024
#: The most seconds a line waits to be written with others (see deliver).
FLUSH = 0.05
#: The lines written at once begin so: a turn, a reply to a request with an
#: id (its client waits for it), an error.  The rest (the table's events, the
#: reply to a request without an id) wait up to FLUSH seconds.
URGENT = ('{"event":"turn"', '{"id":')
_NOT_URGENT = '{"id":null,"result"'


class _Connection(asyncio.Protocol):
    """One client's connection."""

    def __init__(self, server: RoomServer) -> None:
        self.server = server
        self.transport: asyncio.Transport | None = None
        self.id = 0
        self.lines = Lines(server.room.limits.line_bytes)
        self.pending: list[str] = []  # lines not written yet

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        stream: asyncio.Transport = transport  # type: ignore[assignment]  # (a socket's)
        self.transport = stream
        sock = stream.get_extra_info("socket")
        if sock is not None:  # (the kernel's buffer bounded too: the queue is the bound)
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SOCKET_BUFFER)
        peer = stream.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, tuple) else str(peer)
        try:
            self.id = self.server.room.connect(address)
        except ProtocolError as exc:
            stream.write((self.server.room.refuse(exc) + "\n").encode("ascii"))
            stream.close()
            return
        self.server.connections[self.id] = self

    def data_received(self, data: bytes) -> None:
        if not self.id:
            return
        room = self.server.room
        out: Outgoing = []
        for line in self.lines.feed(data):
            if line is None:
                out += room.too_long(self.id)
            elif line.strip():
                out += room.handle(self.id, line)
        self.server.deliver(out)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.id and self.server.connections.pop(self.id, None) is not None:
            self.server.deliver(self.server.room.disconnect(self.id))


class RoomServer:
    """A :class:`Room` served on a TCP port."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.connections: dict[int, _Connection] = {}
        self._timer: asyncio.TimerHandle | None = None
        self._timer_at: float | None = None
        self._flusher: asyncio.TimerHandle | None = None
        self._urgent: set[int] = set()  # connections with lines to write at once
        self._draining = False
        room.commit_at_once = False  # (the loop commits, before it writes: _drain, _flush)
        self._loop: asyncio.AbstractEventLoop | None = None
        self.server: asyncio.Server | None = None

    async def start(self, host: str, port: int) -> int:
        """Listens on ``host:port`` (port 0: any free one); the port."""
        self._loop = asyncio.get_running_loop()
        self.server = await self._loop.create_server(lambda: _Connection(self), host, port)
        self.deliver([])  # (the tables resumed from the store play on)
        return int(self.server.sockets[0].getsockname()[1])

    def deliver(self, out: Outgoing) -> None:
        """Queues each connection its lines.  Those that somebody waits for
        (:data:`URGENT`) are written at once, or, when the store has changes
        to commit first, once the loop has served what else is ready (one
        commit for all); the rest within :data:`FLUSH` seconds, many lines a
        write.  Then sets the timer for the next work of the room."""
        for conn, line in out:
            client = self.connections.get(conn)
            if client is None:
                continue
            client.pending.append(line)
            if line.startswith(URGENT) and not line.startswith(_NOT_URGENT):
                self._urgent.add(conn)
            elif self._flusher is None:
                assert self._loop is not None
                self._flusher = self._loop.call_later(FLUSH, self._flush)
        if self._urgent and not self.room.uncommitted:  # (nothing to commit first: now)
            self._drain()
        elif self._urgent and not self._draining:
            assert self._loop is not None
            self._draining = True
            self._loop.call_soon(self._drain)
        elif self._flusher is None and self.room.uncommitted:  # (hands nobody was told of)
            assert self._loop is not None
            self._flusher = self._loop.call_later(FLUSH, self._flush)
        self._arm()

    def _drain(self) -> None:
        """Commits the store, then writes the lines somebody waits for."""
        self._draining = False
        self.room.commit()
        urgent, self._urgent = self._urgent, set()
        for conn in urgent:
            client = self.connections.get(conn)
            if client is not None:
                self._write(client)

    def _write(self, client: _Connection) -> None:
        lines, client.pending = client.pending, []
        transport = client.transport
        if not lines or transport is None or transport.is_closing():
            return
        transport.write(("\n".join(lines) + "\n").encode("ascii"))
        if transport.get_write_buffer_size() > self.room.limits.queue_bytes:
            transport.abort()  # (connection_lost tells the room)

    def _flush(self) -> None:
        self._flusher = None
        self.room.commit()
        for client in list(self.connections.values()):
            if client.pending:
                self._write(client)

    def _arm(self) -> None:
        loop = self._loop
        if loop is None:
            return
        when = 0.0 if self.room.busy() else self.room.next_time()
        if when is None:
            return
        if self._timer is not None:
            if self._timer_at is not None and self._timer_at <= when:
                return
            self._timer.cancel()
        self._timer_at = when
        if when == 0.0:
            self._timer = loop.call_soon(self._tick)  # type: ignore[assignment]
        else:
            self._timer = loop.call_at(when, self._tick)

    def _tick(self) -> None:
        self._timer = None
        self._timer_at = None
        self.deliver(self.room.tick())

    def close(self) -> None:
        self._flush()
        if self._timer is not None:
            self._timer.cancel()
        if self.server is not None:
            self.server.close()
        for client in list(self.connections.values()):
            if client.transport is not None:
                client.transport.close()


async def serve(
    room: Room,
    host: str,
    port: int,
    *,
    ready: Callable[[int], Any] | None = None,
    stop: asyncio.Event | None = None,
) -> None:
    """Serves ``room`` on ``host:port`` until ``stop`` is set (or Ctrl-C:
    then :class:`KeyboardInterrupt` once the clients are closed)."""
    server = RoomServer(room)
    bound = await server.start(host, port)
    interrupted = stop is None
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    with contextlib.suppress(NotImplementedError, RuntimeError):  # (Windows; not the main thread)
        loop.add_signal_handler(signal.SIGINT, stop.set)
    if ready is not None:
        ready(bound)
    try:
        await stop.wait()
    finally:
        server.close()
        assert server.server is not None
        await server.server.wait_closed()
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.remove_signal_handler(signal.SIGINT)
    if interrupted:
        raise KeyboardInterrupt
