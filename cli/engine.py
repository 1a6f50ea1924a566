"""``holdem engine``: the JSON-lines protocol on stdin and stdout, or on a
local TCP port."""

from __future__ import annotations

import asyncio
import contextlib
import os
import select
import signal
import socket
import struct
import sys
import time
from typing import Any

import click

from holdem.errors import ProtocolError
from holdem.protocol import SOCKET_BUFFER, Engine, encode
from holdem.protocol.engine import MAX_TABLES
from holdem.protocol.messages import MAX_LINE, Lines, error_reply

from .signals import STOPS, Terminated, stopped_as_ctrl_c

__all__ = ["engine_command", "serve_stdio"]

_TOO_LONG = ProtocolError("line_too_long", f"a line longer than {MAX_LINE:,} bytes")
#: Bytes a client of ``--listen`` may leave unread before it is closed (``--max-queue``).
MAX_QUEUE = 1 << 20
#: The least ``--max-queue``: a slice of a run (50 hands, some 330 KB at ten
#: seats) told to a client that holds the run back must fit.
MIN_QUEUE = 512 * 1024
#: Bytes unread beyond which a client holds back the runs of its tables.
HOLD = 64 * 1024
#: Seconds between looks at the runs that wait for their clients to read.
HELD_POLL = 0.02


def _write(out: Any, messages: list[tuple[int, dict[str, Any]]]) -> None:
    if messages:
        out.write("".join(encode(m) + "\n" for _, m in messages).encode("ascii"))
        out.flush()


def serve_stdio(infd: int, out: Any, engine: Engine | None = None) -> None:
    """Serves one client on a file descriptor and a binary stream until the
    input ends; the turn timers fire while it waits."""
    engine = engine or Engine()
    client = engine.connect()
    lines = Lines()
    while True:
        deadline = engine.next_deadline()
        if engine.busy() or deadline is not None:
            wait = 0.0 if engine.busy() else max(0.0, (deadline or 0.0) - time.monotonic())
            if not select.select([infd], [], [], wait)[0]:
                _write(out, engine.tick())
                continue
        data = os.read(infd, 65536)
        found = lines.feed(data) if data else lines.end()
        for line in found:
            if line is None:
                _write(out, [(client, error_reply(None, _TOO_LONG))])
            elif line.strip():
                _write(out, engine.handle(client, line))
        if not data:  # (the runs under way are played to their end first)
            while engine.busy():
                _write(out, engine.tick())
            _write(out, engine.disconnect(client))
            return


async def serve_tcp(
    host: str,
    port: int,
    ready: Any = None,
    *,
    max_queue: int = MAX_QUEUE,
    max_tables: int = MAX_TABLES,
) -> None:
    """Serves clients on a TCP port: one engine, its tables shared by id.

    Nothing waits on a client: what it is told waits in its queue, and a
    client with more than ``max_queue`` bytes unread is closed (as if it
    left).  The runs of a table whose creator or players have more than
    :data:`HOLD` bytes unread wait for them to read (a watcher that falls
    behind is closed at the bound instead)."""
    engine = Engine(max_tables=max_tables)
    writers: dict[int, asyncio.StreamWriter] = {}
    wake = asyncio.Event()

    def deliver(messages: list[tuple[int, dict[str, Any]]]) -> None:
        for client, message in messages:
            writer = writers.get(client)
            if writer is not None and not writer.is_closing():
                writer.write(encode(message).encode("ascii") + b"\n")
                if writer.transport.get_write_buffer_size() > max_queue:
                    _drop(writer)  # (its coroutine sees it gone, and says so)
        wake.set()

    def behind() -> set[int]:
        """The clients with more than HOLD bytes unread."""
        return {c for c, w in writers.items() if w.transport.get_write_buffer_size() > HOLD}

    async def timers() -> None:
        while True:
            held = behind()
            if engine.busy(held):  # runs of hands: a slice of one, then the clients again
                await asyncio.sleep(0)
                deliver(engine.tick(held, runs=1))
                continue
            deadline = engine.next_deadline()
            wait = None if deadline is None else max(0.0, deadline - time.monotonic())
            if engine.busy():  # (runs waiting for their clients to read: looked at again soon)
                wait = HELD_POLL if wait is None else min(wait, HELD_POLL)
            wake.clear()
            try:
                await asyncio.wait_for(wake.wait(), wait)
            except TimeoutError:
                deliver(engine.tick(behind(), runs=1))

    async def client(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        ident = engine.connect()
        writers[ident] = writer
        sock = writer.get_extra_info("socket")
        if sock is not None:  # (the kernel's buffer bounded too: the queue is the bound)
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SOCKET_BUFFER)
        lines = Lines()
        try:
            while True:
                data = await reader.read(65536)
                for line in lines.feed(data) if data else lines.end():
                    if line is None:
                        deliver([(ident, error_reply(None, _TOO_LONG))])
                    elif line.strip():
                        deliver(engine.handle(ident, line))
                await writer.drain()
                if not data:
                    break
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            del writers[ident]
            deliver(engine.disconnect(ident))
            writer.close()

    server = await asyncio.start_server(client, host, port, limit=MAX_LINE)
    ticking = asyncio.create_task(timers())
    stop = asyncio.Event()
    stopped_by: list[int] = []
    loop = asyncio.get_running_loop()

    def stop_by(signum: int) -> None:
        stopped_by.append(signum)
        stop.set()

    with contextlib.suppress(NotImplementedError):  # (Windows: Ctrl-C raises as usual)
        for signum in (signal.SIGINT, *STOPS):
            loop.add_signal_handler(signum, stop_by, signum)
    if ready is not None:
        ready(server.sockets[0].getsockname()[1])
    try:
        await stop.wait()
    finally:  # Ctrl-C, SIGTERM: the clients are closed, then the command says why it stops
        ticking.cancel()
        server.close()
        for writer in list(writers.values()):
            writer.close()
        await server.wait_closed()
    if stopped_by and stopped_by[0] in STOPS:
        raise Terminated(stopped_by[0])
    raise KeyboardInterrupt


def _drop(writer: asyncio.StreamWriter) -> None:
    """Closes a client's connection at once, a reset: what it has not read is
    dropped, the kernel's part too (a closing connection would keep it until
    the client read it)."""
    sock = writer.get_extra_info("socket")
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    writer.transport.abort()


def parse_address(text: str, option: str = "--listen") -> tuple[str, int]:
    host, _, port = text.rpartition(":")
    if not host or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise click.BadParameter(
            f"{text!r}: HOST:PORT, e.g. 127.0.0.1:7777", param_hint=f"'{option}'"
        )
    return host.strip("[]"), int(port)


@click.command(
    "engine",
    epilog="""\b
Examples:
  holdem engine < requests.jsonl
  echo '{"id": 1, "type": "hello", "version": 1}' | holdem engine
  holdem engine --listen 127.0.0.1:7777
See docs/protocol.md for every request, event and error code.
""",
)
@click.option("--listen", metavar="HOST:PORT",
              help="Serve on a TCP port instead of stdin and stdout (port 0: any free port, "
              "printed on stderr).")  # fmt: skip
@click.option("--max-queue", type=click.IntRange(min=MIN_QUEUE), default=None, metavar="BYTES",
              help=f"With --listen: a client with more than BYTES unread is closed (default "
              f"{MAX_QUEUE:,}; at least {MIN_QUEUE:,}).")  # fmt: skip
@click.option("--max-tables", type=click.IntRange(min=1), default=MAX_TABLES, show_default=True,
              metavar="N", help="Tables the engine holds at once (those a client made close "
              "when it leaves).")  # fmt: skip
@stopped_as_ctrl_c
def engine_command(listen: str | None, max_queue: int | None, max_tables: int) -> None:
    """Serves the JSON-lines protocol: one JSON request a line in, replies and
    events out, one JSON object a line. Malformed input gets an error reply
    and the engine goes on.
    """
    if listen is None:
        if max_queue is not None:
            raise click.UsageError(
                "--max-queue is for --listen (on stdin and stdout the engine waits for its reader)"
            )
        serve_stdio(sys.stdin.fileno(), sys.stdout.buffer, Engine(max_tables=max_tables))
        return
    host, port = parse_address(listen)

    def ready(bound: int) -> None:
        click.echo(f"holdem engine: listening on {host}:{bound}", err=True)

    asyncio.run(serve_tcp(host, port, ready, max_queue=max_queue or MAX_QUEUE,
                          max_tables=max_tables))  # fmt: skip
