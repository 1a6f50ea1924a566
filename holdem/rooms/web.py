"""The room in a browser (``holdem serve --web HOST:PORT``, ``docs/rooms.md``,
"In the browser"): an HTTP server (aiohttp, the ``web`` extra) in the room
server's own process and loop, serving the page (the files of
:mod:`holdem.clients.web`, given by the caller) and a WebSocket that speaks
the room protocol, one message a text frame each way.

A WebSocket is a connection of the room like a TCP one (:class:`WebClient`,
a :class:`~holdem.rooms.server.Client`): the same limits hold (connections at
once and from an address, the rate, the longest message, the unsent queue,
hello and idle), the same replies and errors come back.  A frame that is not
text is answered ``malformed_json``; a frame over the longest line is
answered ``line_too_long`` (one over four times that closes the connection,
1009, before it is read whole).  A WebSocket from a page of another origin
is refused (403): a page elsewhere cannot play a visitor's seat.

As one worker of several (``--workers N``), every worker serves the page on
the one listening socket; a WebSocket whose line names another worker's
table goes there as a socket pair (:meth:`WebClient.move`): the other end is
handed on as a TCP connection would be, and this worker carries its lines to
and from the browser unread.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from aiohttp import WSCloseCode, WSMsgType, web

from ..errors import ListenError, ProtocolError
from ..protocol.messages import SOCKET_BUFFER
from .handover import Moved
from .server import Client
from .site import Site, client_address, link_base

if TYPE_CHECKING:
    from .server import RoomServer

__all__ = ["WebClient", "WebServer", "frame"]

#: A frame up to this many times the longest line is read and answered
#: ``line_too_long``; a longer one closes the connection (1009) unread.
TOO_BIG = 4
#: Seconds between pings to a WebSocket (a page gone without a close is seen).
HEARTBEAT = 30.0
#: Seconds an HTTP connection may stay open between requests.
KEEPALIVE = 15.0
#: Seconds between looks at a WebSocket behind (more than Limits.queue_bytes
#: unsent): has it read?
_BEHIND_POLL = 0.01
#: The most bytes the relay of a WebSocket handed on reads at once.
_RELAY_READ = 1 << 16
#: Seconds a handed-on WebSocket's socket pair waits for a full inbox.
_HANDOVER_SECONDS = 10.0
_HANDOVER_POLL = 0.005
#: The headers of every reply: the page runs only its own scripts, talks only
#: to its own server, is framed by nobody, and says nothing of where it is
#: to the pages it links to.
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; media-src 'self' data:; base-uri 'none'; form-action 'none'; "
        "frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-cache",
}


class WebClient(Client):
    """A WebSocket of the room: each text frame a line, each line a frame.

    What it is written waits in a queue that one task sends, a frame at a
    time; past :attr:`Limits.queue_bytes` unsent it is behind, as a TCP
    connection is (written nothing more until it reads, closed if it stays
    so).  Handed on to another worker, it carries lines between the browser
    and that worker (a socket pair)."""

    def __init__(self, server: RoomServer, ws: web.WebSocketResponse,
                 transport: asyncio.Transport | None) -> None:  # fmt: skip
        super().__init__(server)
        self.ws = ws
        self.transport = transport
        self._limit = server.room.limits.queue_bytes
        self._ending = False
        self._closer: asyncio.Task[None] | None = None
        #: once handed on: the writer of the socket pair to the other worker
        self._far: asyncio.StreamWriter | None = None
        self._relay: asyncio.Task[None] | None = None
        self._early: list[bytes] = []  # (lines the page sent while it was being handed on)
        self._read = asyncio.Event()  # (set: not behind, the relay may read on)
        self._read.set()

    # ------------------------------------------------------------ writing

    def closing(self) -> bool:
        return self._ending or self.ws.closed or self.transport is None or (
            self.transport.is_closing())  # fmt: skip

    def send(self, lines: list[str]) -> None:
        """Writes the lines, a text frame each, in one write (as a TCP
        connection's are: a frame a write cost the server 15 system calls
        a hand for 1; aiohttp writes a frame a call, so its writer is left
        for the pings and the close).  Past :attr:`Limits.queue_bytes`
        unsent it is behind, and looked at until it reads."""
        transport = self.transport
        if transport is None or self.closing():
            return
        transport.write(b"".join(map(frame, lines)))
        if not self.behind and transport.get_write_buffer_size() > self._limit:
            self.pause_writing()

    def unsent(self) -> int:
        return 0 if self.transport is None else self.transport.get_write_buffer_size()

    def end(self) -> None:
        if self._ending:
            return
        self._ending = True  # (what was written goes first, then the close frame)
        if not self.ws.closed:
            self._closer = asyncio.get_running_loop().create_task(self._close())

    async def _close(self) -> None:
        with contextlib.suppress(Exception):  # (the page went already)
            await self.ws.close()

    def cut(self) -> None:
        self._ending = True
        if self.transport is not None:
            self.transport.abort()

    def pause_writing(self) -> None:
        self._read.clear()
        super().pause_writing()
        self._look_later()

    def _look_later(self) -> None:
        asyncio.get_running_loop().call_later(_BEHIND_POLL, self._look)

    def _look(self) -> None:
        """While it is behind: whether it read most of what it was written."""
        if not self.behind or self.closing() or self.transport is None:
            return
        if self.transport.get_write_buffer_size() <= self._limit // 4:
            self.resume_writing()
        else:
            self._look_later()

    def resume_writing(self) -> None:
        self._read.set()
        if self._far is not None:  # (handed on: nothing of this room waits for it)
            self.behind = False
            self.stop_timer()
            return
        super().resume_writing()

    # ------------------------------------------------------------ reading

    def frame(self, message: object) -> None:
        """Serves a frame the page sent (an aiohttp message)."""
        kind = getattr(message, "type", None)
        data = getattr(message, "data", None)
        if self._relay is not None:  # (handed on: the other worker serves it)
            text = kind is WSMsgType.TEXT and isinstance(data, str)
            # (a frame not text: as a line that is not JSON, so answered there)
            line = _line(data.encode("utf-8")) + b"\n" if text else b"\x00\n"  # type: ignore[union-attr]
            if self._far is None:
                self._early.append(line)
            else:
                self._far.write(line)
            return
        room = self.server.room
        if kind is WSMsgType.TEXT and isinstance(data, str):
            line = _line(data.encode("utf-8"))
            self.serve([None if len(line) > room.limits.line_bytes else line])
        else:
            binary = "a binary frame: the protocol's messages are text frames"
            room.refused(self.id, ProtocolError("malformed_json", binary))
            self.server.deliver()

    # ------------------------------------------------------------ handed on

    def move(self, worker: int, moved: Moved) -> None:
        """Hands the connection on to ``worker`` as one end of a socket pair
        (with what it was: its number, address, rate and the lines to serve
        there) and carries the lines between the page and the other end."""
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        ours.setblocking(False)
        loop = asyncio.get_running_loop()
        self._relay = loop.create_task(self._carry(ours, theirs, worker, moved))

    async def _carry(self, ours: socket.socket, theirs: socket.socket, worker: int,
                     moved: Moved) -> None:  # fmt: skip
        channels = self.server.channels
        assert channels is not None
        loop = asyncio.get_running_loop()
        deadline = loop.time() + _HANDOVER_SECONDS
        try:
            while not channels.send(worker, theirs.fileno(), moved):  # (its inbox full)
                if loop.time() > deadline:
                    raise OSError("the worker does not take connections")
                await asyncio.sleep(_HANDOVER_POLL)
        except OSError:
            ours.close()
            self.cut()
            return
        finally:
            theirs.close()  # (it lives on in the other worker)
        reader, self._far = await asyncio.open_unix_connection(sock=ours)
        self._far.writelines(self._early)
        self._early.clear()
        begun = b""
        try:
            while True:
                await self._read.wait()  # (behind: the other worker's queue fills, and it cuts)
                data = await reader.read(_RELAY_READ)
                if not data:
                    break  # (the other worker closed it)
                *lines, begun = (begun + data).split(b"\n")
                if lines:  # (all that came, a write)
                    self.send([line.decode("ascii", "replace") for line in lines])
        except ConnectionError:
            pass
        finally:
            self._far.close()
            self.end()


class _Busy(asyncio.Protocol):
    """An HTTP connection past the limit: told so (503), and closed."""

    def __init__(self, why: str) -> None:
        self.why = why.encode("utf-8")

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        head = (f"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
                f"Content-Length: {len(self.why)}\r\nConnection: close\r\n\r\n")  # fmt: skip
        stream: asyncio.Transport = transport  # type: ignore[assignment]  # (a socket's)
        stream.write(head.encode("ascii") + self.why)
        stream.close()


def frame(line: str) -> bytes:
    """A line as a WebSocket text frame from the server (RFC 6455, 5.2: FIN
    and the text opcode, the payload's length in 7, 16 or 64 bits, no mask,
    no extension: the server takes none).  The lines are ASCII JSON."""
    payload = line.encode("ascii")
    size = len(payload)
    if size < 126:
        head = bytes((0x81, size))
    elif size < 1 << 16:
        head = bytes((0x81, 126)) + size.to_bytes(2, "big")
    else:
        head = bytes((0x81, 127)) + size.to_bytes(8, "big")
    return head + payload


def _line(data: bytes) -> bytes:
    """A frame as one line: a JSON text's line breaks are whitespace (a string
    may not hold one unescaped), so they become spaces, and whether the
    frame is read here or by another worker, it is read the same."""
    return data.replace(b"\r", b" ").replace(b"\n", b" ")


class WebServer:
    """The page and the WebSocket of a :class:`RoomServer` (``--web``)."""

    def __init__(self, server: RoomServer, site: Site) -> None:
        self.server = server
        self.site = site
        self.clients: set[WebClient] = set()
        self._runner: web.AppRunner | None = None
        self._listening: list[asyncio.Server] = []
        self._index = (site.page / "index.html").read_bytes()

    def app(self) -> web.Application:
        app = web.Application(client_max_size=4096, middlewares=[_headers])
        app.router.add_get("/", self._page)
        app.router.add_get("/t/{code}", self._page)
        app.router.add_get("/w/{code}", self._page)
        app.router.add_get("/ws", self._socket)
        app.router.add_static("/static/", self.site.page, follow_symlinks=False)
        return app

    async def start(self, sockets: list[socket.socket] | None = None) -> int:
        """Serves on the site's address (or the listening ``sockets`` given:
        a server's workers share them); the port.  :class:`ListenError`
        when the address cannot be had."""
        runner = self._runner = web.AppRunner(self.app(), access_log=None,
                                              keepalive_timeout=KEEPALIVE,
                                              handle_signals=False)  # fmt: skip
        await runner.setup()
        loop = asyncio.get_running_loop()
        try:
            if sockets is None:
                self._listening = [await loop.create_server(
                    self._accept, self.site.host or None, self.site.port,
                    reuse_address=True)]  # fmt: skip
            else:
                self._listening = [await loop.create_server(self._accept, sock=sock)
                                   for sock in sockets]  # fmt: skip
        except OSError as exc:
            await runner.cleanup()
            raise ListenError.at(self.site.host, self.site.port, exc) from None
        port = int(self._listening[0].sockets[0].getsockname()[1])
        self.server.room.links = link_base(self.site, port)
        return port

    def _accept(self) -> asyncio.BaseProtocol:
        """A new HTTP connection's protocol: aiohttp's, or, past the room's
        :attr:`Limits.connections` open here (pages, WebSockets and silent
        ones; a silent one is closed after :data:`KEEPALIVE` seconds), one
        that answers 503 and closes."""
        assert self._runner is not None and self._runner.server is not None
        most = self.server.room.limits.connections
        if len(self._runner.server.connections) >= most:
            return _Busy(f"this server takes {most} connections at once: try again later\n")
        return self._runner.server()

    async def close(self) -> None:
        """Stops serving (the WebSockets are closed by the room server)."""
        for listening in self._listening:
            listening.close()
        if self._runner is not None:
            await self._runner.cleanup()

    # ------------------------------------------------------------ requests

    async def _page(self, request: web.Request) -> web.Response:
        return web.Response(body=self._index, content_type="text/html", charset="utf-8")

    def _allowed(self, request: web.Request) -> str | None:
        """Why a WebSocket may not be opened from where it comes (None: it may).
        A browser says which page opens it (``Origin``): the server's own,
        one of ``Site.origins``, or none (not a browser)."""
        origin = request.headers.get("Origin")
        if origin is None:
            return None
        own = f"{request.scheme}://{request.host}"
        allowed = {own.lower(), *(o.rstrip("/").lower() for o in self.site.origins)}
        if self.site.url:
            parts = urlsplit(self.site.url)
            allowed.add(f"{parts.scheme}://{parts.netloc}".lower())
        if origin.rstrip("/").lower() in allowed:
            return None
        return (f"a page of {origin} may not open this server's WebSocket (its own pages are "
                f"at {own}; holdem serve --web-origin allows others)")  # fmt: skip

    async def _socket(self, request: web.Request) -> web.StreamResponse:
        why = self._allowed(request)
        if why is not None:
            raise web.HTTPForbidden(text=why + "\n")
        server = self.server
        room = server.room
        ws = web.WebSocketResponse(max_msg_size=TOO_BIG * room.limits.line_bytes,
                                   heartbeat=HEARTBEAT, compress=False)  # fmt: skip
        await ws.prepare(request)
        transport = request.transport
        sock = None if transport is None else transport.get_extra_info("socket")
        if sock is not None:  # (the kernel's buffer bounded, as a TCP client's)
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SOCKET_BUFFER)
        client = WebClient(server, ws, transport)
        try:
            address = client_address(request.remote or "",
                                     request.headers.get("X-Forwarded-For"),
                                     self.site.proxies)  # fmt: skip
            client.id = room.connect(address)
        except ProtocolError as exc:  # (too many connections: said, then closed)
            await ws.send_str(room.refuse(exc))
            await ws.close()
            return ws
        server.connections[client.id] = client
        self.clients.add(client)
        try:
            async for message in ws:
                if message.type in (WSMsgType.TEXT, WSMsgType.BINARY):
                    client.frame(message)
                elif message.type is WSMsgType.ERROR:  # (a frame too big: closed, 1009)
                    break
                if client.closing():
                    break
        finally:
            self.clients.discard(client)
            client.end()
            if client._relay is None:
                client.gone()
            elif client._far is not None:
                client._far.close()  # (the other worker's connection ends)
            if ws.close_code is None and not ws.closed:
                with contextlib.suppress(Exception):
                    await ws.close(code=WSCloseCode.GOING_AWAY)
        return ws


@web.middleware
async def _headers(request: web.Request, handler: object) -> web.StreamResponse:
    """Every reply with :data:`SECURITY_HEADERS`."""
    try:
        response: web.StreamResponse = await handler(request)  # type: ignore[operator]
    except web.HTTPException as exc:
        exc.headers.update(SECURITY_HEADERS)
        raise
    if not response.prepared:
        response.headers.update(SECURITY_HEADERS)
    return response
