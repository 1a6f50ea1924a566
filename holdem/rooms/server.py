"""The room server's network loop (asyncio, TCP): each connection's lines go
to the :class:`~holdem.rooms.room.Room`, and what it answers goes back, a
write a connection for all that one read caused.

Nothing waits on a client: writes are buffered by the transport.  A
connection with more than :attr:`Limits.queue_bytes` unsent (not read by its
client: past what the system holds) is written nothing more until its
client has read most of it, its lines waiting in the room; one still so
:data:`BEHIND_SECONDS` later is closed (its seats wait for it, played by the
turn timer).  A burst the server writes at once (a busy table's
:data:`FLUSH` seconds) does not close a client that reads.  The timers run
on the loop's own clock, whatever the clients do.  Lines longer than
:attr:`Limits.line_bytes` are answered ``line_too_long`` and skipped.  A
connection that says no hello in time, or holds no table and says nothing
for long, is told ``idle`` and closed (:meth:`Room.idle
<holdem.rooms.room.Room.idle>`): silent connections cannot fill the server.

As one of a server's workers (``channels``), it hands a connection whose
line is another worker's on to that worker (:mod:`~holdem.rooms.handover`),
and takes up those the others hand to it.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import gc
import signal
import socket
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..errors import ListenError, ProtocolError
from ..protocol.messages import SOCKET_BUFFER, Lines
from .handover import Channels, Moved
from .room import Room

if TYPE_CHECKING:
    from .site import Site
    from .web import WebServer

__all__ = ["FLUSH", "Client", "RoomServer", "serve", "tune_collector"]

#: The most seconds a line waits to be written with others (see deliver): a
#: turn takes the lines before it at once; the others (the events of a hand a
#: player folded, a watcher's) go in fewer, larger writes, which a busy
#: server's system time and its clients' wake-ups pay for by the write.
FLUSH = 0.2
#: Seconds a connection may stay behind (more than Limits.queue_bytes unsent)
#: before it is closed: its client does not read, or reads slower than its
#: tables speak.
BEHIND_SECONDS = 1.0
#: Seconds between looks at a connection being handed on (its output written?),
#: and the most it waits (a client that does not read is closed).
_HANDOVER_POLL = 0.005
_HANDOVER_SECONDS = 10.0
#: The most seconds between looks for connections silent too long (fewer
#: when the limits are shorter: a quarter of the shortest), and the least.
_SWEEP_SECONDS = 1.0
_SWEEP_LEAST = 0.05
#: The most seconds a server that stops waits for its clients to read their
#: last lines (a client that does not read is cut then).
CLOSE_SECONDS = 5.0
#: The signals that stop a server of one process (SIGTERM: a service manager's).
_STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
#: Allocations between collections of the garbage collector's youngest
#: generation in a serving process (Python's default: 700).
GC_YOUNG = 5000


def tune_collector() -> None:
    """The garbage collector of a process that serves a room: what it holds
    once loaded is never scanned again, and its youngest objects are looked
    at every :data:`GC_YOUNG` allocations.  A room makes and drops many
    small objects an action, nearly none in cycles: with the defaults, a
    busy worker spent 2.3% of its time collecting, 0.7% with these."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(GC_YOUNG, *gc.get_threshold()[1:])


class Client:
    """What the server knows of one client's connection, however it comes (a
    TCP connection, :class:`_Connection`; a WebSocket, :mod:`~holdem.rooms.web`):
    its number, whether it is behind (more than :attr:`Limits.queue_bytes`
    unsent: its lines wait in the room), and how its lines are written."""

    def __init__(self, server: RoomServer) -> None:
        self.server = server
        self.id = 0
        #: whether more than Limits.queue_bytes wait unsent (its lines wait in
        #: the room), and the timer that closes it if it stays so
        self.behind = False
        self._cut: asyncio.TimerHandle | None = None

    # (what each kind of connection does its own way)
    def closing(self) -> bool:
        """Whether it is closed or closing (nothing more is written to it)."""
        raise NotImplementedError

    def send(self, lines: list[str]) -> None:
        """Writes the lines (buffered: nothing waits on the client)."""
        raise NotImplementedError

    def unsent(self) -> int:
        """The bytes written to it that its client has not read yet."""
        raise NotImplementedError

    def end(self) -> None:
        """Closes it once what was written to it is sent."""
        raise NotImplementedError

    def cut(self) -> None:
        """Closes it at once (what was not sent is lost)."""
        raise NotImplementedError

    def move(self, worker: int, moved: Moved) -> None:
        """Goes on to another worker, the room here having let it go
        (:meth:`RoomServer.hand_over`): ``moved`` says what it was."""
        raise NotImplementedError

    def serve(self, lines: list[bytes | None], *, moved: bool = False) -> None:
        """Serves the lines read (``moved``: the first came with the
        connection from another worker), up to one that another worker must
        serve: that one and the rest go there with the connection."""
        server = self.server
        room = server.room
        several = server.channels is not None
        for index, line in enumerate(lines):
            if line is None:
                room.too_long(self.id)
            elif line.strip():
                room.handle(self.id, line, moved=moved and index == 0)
                if several and (worker := room.moving_to(self.id)) is not None:
                    server.deliver()
                    if server.hand_over(self, worker, lines[index:]):
                        return
                    room.handle(self.id, line)  # (it stays: refused here, the store stalled)
        server.deliver()

    def pause_writing(self) -> None:
        """More than :attr:`Limits.queue_bytes` wait unsent: the client is
        behind, and is written nothing more until it reads (its lines wait in
        the room); closed if it is still behind :data:`BEHIND_SECONDS` later."""
        self.behind = True
        if not self.server.stopping:  # (a server that stops gives it CLOSE_SECONDS)
            self._cut = asyncio.get_running_loop().call_later(BEHIND_SECONDS, self._too_slow)

    def _too_slow(self) -> None:
        if self.behind and not self.closing():
            self.cut()  # (its end tells the room)

    def resume_writing(self) -> None:
        """The client read most of what it was written: what waits for it goes."""
        self.behind = False
        self.stop_timer()
        room = self.server.room
        if self.id and room.outbox(self.id):
            room.told.add(self.id)
            room.urgent.add(self.id)  # (it waited: a turn may be among them)
            self.server.deliver()

    def stop_timer(self) -> None:
        """Stops the timer that closes a client behind."""
        if self._cut is not None:
            self._cut.cancel()
            self._cut = None

    def gone(self) -> None:
        """The connection is gone: the room is told (its seats wait)."""
        self.stop_timer()
        if self.id and self.server.connections.pop(self.id, None) is not None:
            self.server.room.disconnect(self.id)
            self.server.deliver()


class _Connection(Client, asyncio.Protocol):
    """One client's TCP connection (``moved``: one another worker handed on)."""

    def __init__(self, server: RoomServer, moved: Moved | None = None) -> None:
        super().__init__(server)
        self.transport: asyncio.Transport | None = None
        self.lines = Lines(server.room.limits.line_bytes)
        self.moved = moved

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        stream: asyncio.Transport = transport  # type: ignore[assignment]  # (a socket's)
        self.transport = stream
        sock = stream.get_extra_info("socket")
        if sock is not None:  # (the kernel's buffer bounded too: the queue is the bound)
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SOCKET_BUFFER)
        room = self.server.room
        stream.set_write_buffer_limits(high=room.limits.queue_bytes)  # (pause_writing past it)
        moved, self.moved = self.moved, None
        if moved is not None:
            try:
                room.adopt(moved.conn, moved.address, hello=moved.hello, rate=moved.rate)
            except ProtocolError as exc:  # (its address holds its limit here)
                stream.write((room.refuse(exc) + "\n").encode("ascii"))
                stream.close()
                return
            self.id = moved.conn
            self.server.connections[self.id] = self
            self.lines.restore(moved.part, moved.skipping)
            self.serve(moved.lines, moved=True)
            return
        peer = stream.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, tuple) else str(peer)
        try:
            self.id = room.connect(address)
        except ProtocolError as exc:
            stream.write((room.refuse(exc) + "\n").encode("ascii"))
            stream.close()
            return
        self.server.connections[self.id] = self

    def data_received(self, data: bytes) -> None:
        if self.id:
            self.serve(self.lines.feed(data))

    def closing(self) -> bool:
        return self.transport is None or self.transport.is_closing()

    def send(self, lines: list[str]) -> None:
        assert self.transport is not None
        self.transport.write(("\n".join(lines) + "\n").encode("ascii"))

    def unsent(self) -> int:
        return 0 if self.transport is None else self.transport.get_write_buffer_size()

    def end(self) -> None:
        if self.transport is not None:
            self.transport.close()

    def cut(self) -> None:
        if self.transport is not None:
            self.transport.abort()

    def move(self, worker: int, moved: Moved) -> None:
        """Reading stops, and once what it was written is sent its socket goes
        to the worker, with the line begun."""
        assert self.transport is not None and self.server._loop is not None
        self.transport.pause_reading()
        part, skipping = self.lines.take_rest()
        moved = dataclasses.replace(moved, part=part, skipping=skipping)
        self.server.send_on(self, worker, moved, self.server._loop.time() + _HANDOVER_SECONDS)

    def connection_lost(self, exc: Exception | None) -> None:
        self.gone()


class RoomServer:
    """A :class:`Room` served on a TCP port (``channels``: as one worker of
    several, :mod:`~holdem.rooms.workers`)."""

    def __init__(self, room: Room, channels: Channels | None = None) -> None:
        self.room = room
        self.channels = channels
        self.connections: dict[int, Client] = {}
        self._adopting: set[asyncio.Task[Any]] = set()
        self._timer: asyncio.TimerHandle | None = None
        self._timer_at: float | None = None
        self._flusher: asyncio.TimerHandle | None = None
        self._sweeper: asyncio.TimerHandle | None = None
        self._draining = False
        self._arming = False
        self._closed = False
        room.commit_at_once = False  # (the loop commits, before it writes: _drain, _flush)
        room.returns_lines = False  # (the lines wait in the room's outboxes: deliver)
        self._loop: asyncio.AbstractEventLoop | None = None
        self.servers: list[asyncio.Server] = []
        self.web: WebServer | None = None
        self.web_port = 0

    async def start(
        self, host: str | None = None, port: int = 0, *,
        sockets: list[socket.socket] | None = None, web: Site | None = None,
        web_sockets: list[socket.socket] | None = None,
    ) -> int:  # fmt: skip
        """Listens on ``host:port`` (port 0: any free one; :class:`ListenError`
        when it cannot), or on the listening ``sockets`` given (a server's
        workers share them); the port.  ``web``: the page and its WebSocket
        served too (:mod:`~holdem.rooms.web`; on ``web_sockets``, when given):
        :attr:`web_port` says where."""
        loop = self._loop = asyncio.get_running_loop()
        if sockets is None:
            try:
                self.servers = [await loop.create_server(lambda: _Connection(self), host, port)]
            except OSError as exc:
                raise ListenError.at(host, port, exc) from None
        else:
            self.servers = [await loop.create_server(lambda: _Connection(self), sock=sock)
                            for sock in sockets]  # fmt: skip
        if web is not None:
            from .web import WebServer  # (aiohttp: only a server with a page needs it)

            self.web = WebServer(self, web)
            try:
                self.web_port = await self.web.start(web_sockets)
            except ListenError:
                for server in self.servers:
                    server.close()
                raise
        if self.channels is not None:
            loop.add_reader(self.channels.inbox.fileno(), self._take_handed)
        self.deliver()  # (the tables resumed from the store play on)
        self._sweep()
        return int(self.servers[0].sockets[0].getsockname()[1])

    # ------------------------------------------------------------ between workers

    def hand_over(self, client: Client, worker: int, lines: list[bytes | None]) -> bool:
        """Hands a connection on to another worker with the lines it has not
        served (the first is that worker's): what the client was owed is
        written, then it goes (:meth:`Client.move`).  False when the store
        stalled as it committed what the client was owed (held,
        :meth:`Room.commit`): the connection stays, to be answered."""
        assert self.channels is not None
        room = self.room
        self._write_now(client.id)  # (what it was owed, before the room lets it go)
        if room.stalled is not None:
            room.stay(client.id)
            return False
        connection = room.release(client.id)
        self.connections.pop(client.id, None)
        if connection is None:  # (cannot be: it sent the line)
            client.cut()
            return True
        client.move(worker, Moved(conn=client.id, address=connection.address,
                                  hello=connection.hello, rate=connection.rate.left(room.clock()),
                                  lines=lines))  # fmt: skip
        return True

    def send_on(self, client: _Connection, worker: int, moved: Moved, deadline: float) -> None:
        """Sends a TCP connection's socket to another worker once what it was
        written is sent (:data:`_HANDOVER_SECONDS` at most: then it is cut)."""
        transport = client.transport
        assert transport is not None and self.channels is not None and self._loop is not None
        if transport.is_closing():  # (the client went, or did not read: nothing to hand on)
            return
        if self._loop.time() > deadline:  # (it does not read what it was sent)
            transport.abort()
            return
        sent = False
        if not transport.get_write_buffer_size():
            sock = transport.get_extra_info("socket")
            try:
                sent = self.channels.send(worker, sock.fileno(), moved)
            except OSError:  # (it cannot go: the client connects again)
                transport.abort()
                return
        if sent:
            transport.abort()  # (the socket lives on in the other worker)
        else:  # (its output not all written yet, or the worker's inbox full)
            self._loop.call_later(_HANDOVER_POLL, self.send_on, client, worker, moved, deadline)

    def _take_handed(self) -> None:
        """Takes up the connections other workers handed on to this one."""
        assert self.channels is not None and self._loop is not None
        for sock, moved in self.channels.receive():
            task = self._loop.create_task(self._adopt(sock, moved))
            self._adopting.add(task)
            task.add_done_callback(self._adopting.discard)

    async def _adopt(self, sock: socket.socket, moved: Moved) -> None:
        assert self._loop is not None
        try:
            await self._loop.connect_accepted_socket(lambda: _Connection(self, moved), sock)
        except OSError:  # (the client is gone already)
            sock.close()

    # ------------------------------------------------------------ writing

    def deliver(self) -> None:
        """Writes what the room's last work caused (the lines wait in its
        outboxes).  The lines somebody waits for (a turn, a reply to a request
        with an id, an error: :attr:`Room.urgent`) are written at once, or,
        when the store has changes to commit first, once the loop has served
        what else is ready (one commit for all); the rest within
        :data:`FLUSH` seconds, many lines a write.  Then sets the timer for
        the next work of the room."""
        room = self.room
        loop = self._loop
        assert loop is not None
        if room.urgent:
            if not room.uncommitted:  # (nothing to commit first: now)
                self._drain()
            elif not self._draining:
                self._draining = True
                loop.call_soon(self._drain)
        if self._flusher is None and (room.told or room.uncommitted):  # (and hands nobody saw)
            self._flusher = loop.call_later(FLUSH, self._flush)
        if not self._arming:  # (once for all the loop served in one pass)
            self._arming = True
            loop.call_soon(self._arm)

    def _drain(self) -> None:
        """Commits the store, then writes the lines somebody waits for."""
        self._draining = False
        room = self.room
        self._commit()
        for conn in room.urgent:
            self._write(conn)
        room.urgent.clear()

    def _write(self, conn: int, *, behind: bool = False) -> None:
        """Writes a connection's lines waiting (a client gone: they go too).
        A client behind (more than :attr:`Limits.queue_bytes` unsent) is
        written nothing more: its lines wait in the room until it reads
        (``behind``: they are written all the same)."""
        room = self.room
        room.told.discard(conn)
        lines = room.outbox(conn)
        if not lines:
            return
        client = self.connections.get(conn)
        if client is None or client.closing():
            lines.clear()
            return
        if client.behind and not behind:
            return  # (they wait: resume_writing)
        client.send(lines)
        lines.clear()

    def _write_now(self, conn: int) -> None:
        """Writes a connection's lines at once, behind or not, the store
        committed first (what they tell is on disk before: a room that cannot
        store holds them, :meth:`Room.commit`)."""
        if self.room.outbox(conn):
            self._commit()
            self._write(conn, behind=True)

    @property
    def stopping(self) -> bool:
        """Whether the server stops (:meth:`close` was called)."""
        return self._closed

    def _commit(self) -> None:
        """Commits the store.  One that cannot write now stalls the room
        (:meth:`Room.commit`), which the timer tries again: it is set."""
        if not self.room.commit() and not self._arming and self._loop is not None:
            self._arming = True
            self._loop.call_soon(self._arm)

    def _flush(self) -> None:
        self._flusher = None
        room = self.room
        self._commit()
        for conn in list(room.told):
            self._write(conn)
        room.urgent.clear()

    def _arm(self) -> None:
        """Sets the timer for the room's next work (its turn timers, paced
        steps, hands waiting)."""
        self._arming = False
        loop = self._loop
        if loop is None or self._closed:
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

    def _sweep(self) -> None:
        """Closes the connections silent too long (:meth:`Room.idle`), each
        once what it was owed and the line that says why are written; looks
        again in a while."""
        assert self._loop is not None
        if self._closed:
            return
        limits = self.room.limits
        shortest = min(limits.hello_seconds, limits.idle_seconds) / 4
        every = max(_SWEEP_LEAST, min(_SWEEP_SECONDS, shortest))
        self._sweeper = self._loop.call_later(every, self._sweep)
        for conn, line in self.room.idle():
            client = self.connections.get(conn)
            if client is None or client.closing():
                continue
            self._write_now(conn)
            client.send([line])
            if client.unsent():  # (it does not read either)
                client.cut()
            else:
                client.end()  # (its end tells the room)

    def _tick(self) -> None:
        self._timer = None
        self._timer_at = None
        self.room.tick()
        self.deliver()

    def close(self) -> None:
        """Stops serving: the store committed, the lines waiting written,
        the listening sockets and the connections closed (the room's work
        stops: no timer is set again)."""
        self._closed = True
        self._flush()
        for conn, client in list(self.connections.items()):  # (those behind: their last chance)
            client.stop_timer()
            self._write(conn, behind=True)
        if self._timer is not None:
            self._timer.cancel()
        if self._sweeper is not None:
            self._sweeper.cancel()
        if self.channels is not None and self._loop is not None:
            self._loop.remove_reader(self.channels.inbox.fileno())
        for server in self.servers:
            server.close()
        for client in list(self.connections.values()):
            client.end()

    async def wait_closed(self) -> None:
        """Waits until the listening sockets are closed (the page's too)."""
        for server in self.servers:
            await server.wait_closed()
        if self.web is not None:
            await self.web.close()

    async def serve_until(self, stop: asyncio.Event) -> None:
        """Serves until ``stop`` is set (or the task is cancelled), then
        closes: the listening sockets, and every connection once its last
        lines are written (a client that has not read them in
        :data:`CLOSE_SECONDS` is cut)."""
        try:
            await stop.wait()
        finally:
            self.close()
            await self._let_go()
            await self.wait_closed()

    async def _let_go(self) -> None:
        """Waits until the connections closed have written their last lines
        and gone, :data:`CLOSE_SECONDS` at most; cuts those left."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + CLOSE_SECONDS
        while self.connections and loop.time() < deadline:
            await asyncio.sleep(_HANDOVER_POLL)
        for client in list(self.connections.values()):
            client.cut()
        await asyncio.sleep(0)  # (their ends told)


async def serve(
    room: Room,
    host: str,
    port: int,
    *,
    ready: Callable[[int], Any] | None = None,
    stop: asyncio.Event | None = None,
    web: Site | None = None,
) -> None:
    """Serves ``room`` on ``host:port`` until ``stop`` is set, or SIGTERM
    (then it returns), or Ctrl-C (then :class:`KeyboardInterrupt`; with a
    ``stop`` of the caller's, it returns): each way the store is committed,
    the clients' last lines written and the listening socket closed, as
    the workers' supervisor does (:mod:`~holdem.rooms.workers`).  The
    process is the server's: its collector is tuned (:func:`tune_collector`).
    ``web``: the page and its WebSocket served too (:mod:`~holdem.rooms.web`;
    ``room.links`` says where, once ``ready`` is called)."""
    tune_collector()
    server = RoomServer(room)
    bound = await server.start(host, port, web=web)
    interrupted = stop is None
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    signals: list[int] = []

    def stop_on(sig: int) -> None:
        signals.append(sig)
        stop.set()

    for sig in _STOP_SIGNALS:  # (none on Windows, nor outside the main thread)
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop_on, sig)
    if ready is not None:
        ready(bound)
    try:
        await server.serve_until(stop)
    finally:
        for sig in _STOP_SIGNALS:
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.remove_signal_handler(sig)
    if interrupted and signals[:1] != [signal.SIGTERM]:
        raise KeyboardInterrupt
