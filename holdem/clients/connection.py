"""A client of a room server, over a plain socket: requests that wait for
their reply, and the events the server sends between them
(``docs/rooms.md``).  ``holdem join`` plays through it; so can a script:

.. code-block:: python

    from holdem.clients import RoomClient

    with RoomClient("127.0.0.1", 7777) as client:
        made = client.request("create_table", name="Ann", game="tournament")
        print("tell your friends:", made["code"])

A refused request raises :class:`~holdem.errors.ProtocolError` with the
server's code and message.  A ``turn`` event's view is whole at a hand's
first turn and a delta of the seat's last one after it
(``PlayerView.from_dict(view, previous)`` puts it together; ``holdem join``
does so).
"""

from __future__ import annotations

import json
import select
import socket
import time
from collections import deque
from typing import Any

from ..errors import ProtocolError
from ..protocol.messages import VERSION, Lines, encode

__all__ = ["RoomClient"]


class RoomClient:
    """A connection to a room server at ``host:port``, greeted (``hello``)."""

    def __init__(self, host: str, port: int, *, timeout: float = 10.0, name: str = "") -> None:
        self.timeout = timeout
        try:
            self.socket = socket.create_connection((host, port), timeout=timeout)
        except OSError as exc:
            raise ConnectionError(f"cannot reach a room server at {host}:{port}: "
                                  f"{exc.strerror or exc}") from None  # fmt: skip
        self.socket.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._lines = Lines()
        self._ready: deque[dict[str, Any]] = deque()
        self.events: deque[dict[str, Any]] = deque()  # (received while waiting for a reply)
        self._next = 1
        self.closed = False
        self.hello = self.request("hello", version=VERSION, client=name or "holdem")

    def fileno(self) -> int:
        return self.socket.fileno()

    def send(self, kind: str, **fields: Any) -> int:
        """Sends a request without waiting; its id."""
        ident = self._next
        self._next += 1
        line = encode({"id": ident, "type": kind, **fields}) + "\n"
        try:
            self.socket.sendall(line.encode("ascii"))
        except OSError as exc:
            self.closed = True
            raise ConnectionError(f"the server closed the connection ({exc})") from None
        return ident

    def request(self, kind: str, **fields: Any) -> dict[str, Any]:
        """Sends a request and waits for its reply: its result (the events that
        came first wait in :attr:`events`)."""
        ident = self.send(kind, **fields)
        deadline = time.monotonic() + self.timeout
        while True:
            message = self._next_message(deadline)
            if message is None:
                raise TimeoutError(f"no reply to {kind} in {self.timeout:g} s")
            if "event" in message or message.get("id") != ident:
                if "event" in message:
                    self.events.append(message)
                continue
            if "error" in message:
                error = message["error"]
                raise ProtocolError(error["code"], error["message"], field=error.get("field"))
            result: dict[str, Any] = message["result"]
            return result

    def poll(self, timeout: float = 0.0) -> list[dict[str, Any]]:
        """The events received so far, waiting up to ``timeout`` seconds for one."""
        deadline = time.monotonic() + timeout
        out = list(self.events)
        self.events.clear()
        if not out:
            message = self._next_message(deadline)
            if message is not None:
                out.append(message)
        while self._ready or self._pending():
            message = self._next_message(time.monotonic())
            if message is None:
                break
            out.append(message)
        return out

    def _pending(self) -> bool:
        return not self.closed and bool(select.select([self.socket], [], [], 0)[0])

    def _next_message(self, deadline: float) -> dict[str, Any] | None:
        while not self._ready:
            if self.closed:
                raise ConnectionError("the server closed the connection")
            left = deadline - time.monotonic()
            if left <= 0 and not self._pending():
                return None
            if left > 0 and not select.select([self.socket], [], [], left)[0]:
                return None
            try:
                data = self.socket.recv(1 << 16)
            except OSError as exc:
                self.closed = True
                raise ConnectionError(f"the connection failed ({exc})") from None
            if not data:
                self.closed = True
                for line in self._lines.end():
                    if line is not None and line.strip():
                        # (a line cut by the close is no message: the server
                        # closed the connection, it is not another program)
                        try:
                            self._ready.append(_message(line))
                        except ConnectionError:
                            raise ConnectionError(
                                "the server closed the connection in the middle of a line"
                            ) from None
                if not self._ready:
                    raise ConnectionError("the server closed the connection")
                break
            for line in self._lines.feed(data):
                if line is not None and line.strip():
                    self._ready.append(_message(line))
        return self._ready.popleft()

    def close(self) -> None:
        self.closed = True
        self.socket.close()

    def __enter__(self) -> RoomClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _message(line: bytes) -> dict[str, Any]:
    """A line of the server as its message (ConnectionError: it is no room server)."""
    try:
        message = json.loads(line)
    except ValueError:
        message = None
    if not isinstance(message, dict):
        text = line[:80].decode("utf-8", "replace")
        raise ConnectionError(f"the other end is not a room server: it sent {text!r}")
    return message
