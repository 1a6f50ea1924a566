"""A client's connection handed from one worker process of a room server to
another (``holdem serve --workers N``, ``docs/rooms.md``, "Workers").

Each worker has an inbox, one end of a Unix socket pair of packets
(``SOCK_SEQPACKET``: a message arrives whole or not at all) whose other
end every other worker writes to.  A worker hands a connection on by
sending its socket (``SCM_RIGHTS``: the kernel passes the open socket, the
sender then closes its own descriptor and the TCP connection goes on) with
what the receiver needs to serve it as if it had accepted it: the
connection's number, its address, whether it said hello, the lines it may
send at once (its rate goes on: a connection is limited, not its stay at a
worker), and the input read from it and not served (the line that named
the other worker's table, the lines after it, a line begun).  The channels
are the server's, not a worker's: a message sent to a worker being started
again waits for it.

The line begun goes with it: :meth:`Lines.take_rest
<holdem.protocol.messages.Lines.take_rest>` here, :meth:`Lines.restore
<holdem.protocol.messages.Lines.restore>` there.
"""

from __future__ import annotations

import array
import contextlib
import json
import os
import socket
import tempfile
from dataclasses import dataclass
from typing import Any

__all__ = ["INLINE", "Channels", "Moved", "channels_for", "supported"]

#: Bytes of unread input a message carries itself; more go in a file sent with it.
INLINE = 32 * 1024
#: The longest message read from an inbox (the unread input and its header).
_MESSAGE = INLINE + 64 * 1024


@dataclass(frozen=True, slots=True)
class Moved:
    """A connection on its way to another worker: its number, its address,
    whether it said hello, the lines it may send at once (``rate``: its
    :class:`~holdem.rooms.codes.Rate` goes on there), the lines read and not
    served (the first names the other worker's table, and was counted
    against the rate; None: a line too long, answered so), and the line
    begun (``part``; ``skipping``: the rest of a line too long, to be
    skipped)."""

    conn: int
    address: str
    hello: bool
    rate: float
    lines: list[bytes | None]
    part: bytes = b""
    skipping: bool = False


def supported() -> str | None:
    """Why this system cannot share a server between worker processes (no
    fork, no passing of sockets between processes, no Unix sockets of
    packets), or None when it can."""
    if not hasattr(os, "fork") or not hasattr(socket, "SCM_RIGHTS"):
        return "this system cannot fork processes and pass them sockets"
    try:
        first, second = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    except (AttributeError, OSError) as exc:
        return f"this system has no Unix sockets of packets ({exc})"
    first.close()
    second.close()
    return None


def channels_for(workers: int) -> list[tuple[socket.socket, socket.socket]]:
    """Each worker's inbox: the end it reads, and the end the others write to."""
    return [socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET) for _ in range(workers)]


class Channels:
    """A worker's view of the channels: its ``inbox``, and the ``outboxes``
    of the other workers by their number."""

    def __init__(self, inbox: socket.socket, outboxes: dict[int, socket.socket]) -> None:
        self.inbox = inbox
        self.outboxes = outboxes

    def send(self, worker: int, fd: int, moved: Moved) -> bool:
        """Sends the connection of the socket ``fd`` to ``worker``: True when
        it went (this process may close ``fd`` now), False when the worker's
        inbox is full (try again later).  :class:`OSError`: it cannot go."""
        body = b"".join(line for line in moved.lines if line is not None) + moved.part
        header: dict[str, Any] = {
            "conn": moved.conn,
            "address": moved.address,
            "hello": moved.hello,
            "rate": moved.rate,
            "lines": [-1 if line is None else len(line) for line in moved.lines],
            "part": len(moved.part),
            "skipping": moved.skipping,
            "file": len(body) > INLINE,
        }
        fds = [fd]
        with contextlib.ExitStack() as stack:
            if header["file"]:  # (too much for one message: in a file that goes with it)
                spill = stack.enter_context(tempfile.TemporaryFile())
                spill.write(body)
                spill.flush()
                fds.append(spill.fileno())
                body = b""
            data = json.dumps(header).encode("utf-8") + b"\n" + body
            rights = [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", fds))]
            try:  # (socket.send_fds of Python 3.11 waits: it drops its flags)
                self.outboxes[worker].sendmsg([data], rights, socket.MSG_DONTWAIT)
            except (BlockingIOError, InterruptedError):
                return False
        return True

    def receive(self) -> list[tuple[socket.socket, Moved]]:
        """The connections waiting in the inbox, each with its socket (a
        message that cannot be read is dropped, its sockets closed)."""
        out = []
        while True:
            try:
                data, fds, flags = _receive(self.inbox)
            except (BlockingIOError, InterruptedError):
                break
            if not data and not fds:
                break
            try:
                if flags & (socket.MSG_TRUNC | socket.MSG_CTRUNC) or not fds:
                    raise ValueError("a message cut short")
                moved = _decode(data, fds)
                out.append((socket.socket(fileno=fds[0]), moved))
            except (ValueError, KeyError, TypeError, OSError):
                for fd in fds:
                    with contextlib.suppress(OSError):
                        os.close(fd)
                continue
            for fd in fds[1:]:
                os.close(fd)
        return out


def _receive(inbox: socket.socket) -> tuple[bytes, list[int], int]:
    """A message of the inbox, without waiting: its data, the descriptors
    that came with it (theirs to close now), its flags."""
    fds = array.array("i")
    space = socket.CMSG_SPACE(2 * fds.itemsize)
    data, ancillary, flags, _ = inbox.recvmsg(_MESSAGE, space, socket.MSG_DONTWAIT)
    for level, kind, payload in ancillary:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            fds.frombytes(payload[: len(payload) - len(payload) % fds.itemsize])
    return data, list(fds), flags


def _decode(data: bytes, fds: list[int]) -> Moved:
    """A message of :meth:`Channels.send` (its body read from the file sent
    with it, when it has one)."""
    text, _, body = data.partition(b"\n")
    header = json.loads(text)
    if header["file"]:
        with os.fdopen(os.dup(fds[1]), "rb") as spill:
            spill.seek(0)
            body = spill.read()
    lines: list[bytes | None] = []
    at = 0
    for size in header["lines"]:
        if size < 0:
            lines.append(None)
            continue
        lines.append(body[at : at + size])
        at += size
    part = body[at : at + header["part"]]
    if at + header["part"] != len(body) or not lines:
        raise ValueError("the message's lengths do not add up")
    return Moved(
        conn=int(header["conn"]),
        address=str(header["address"]),
        hello=bool(header["hello"]),
        rate=float(header["rate"]),
        lines=lines,
        part=part,
        skipping=bool(header["skipping"]),
    )
