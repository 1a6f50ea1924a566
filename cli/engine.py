"""``holdem engine``: the JSON-lines protocol on stdin and stdout, or on a
local TCP port."""

from __future__ import annotations

import asyncio
import contextlib
import os
import select
import signal
import sys
import time
from typing import Any

import click

from holdem.errors import ProtocolError
from holdem.protocol import Engine, encode
from holdem.protocol.messages import MAX_LINE, Lines, error_reply

from .signals import Terminated, sigterm_as_ctrl_c

__all__ = ["engine_command", "serve_stdio"]

_TOO_LONG = ProtocolError("line_too_long", f"a line longer than {MAX_LINE:,} bytes")


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


async def serve_tcp(host: str, port: int, ready: Any = None) -> None:
    """Serves clients on a TCP port: one engine, its tables shared by id."""
    engine = Engine()
    writers: dict[int, asyncio.StreamWriter] = {}
    wake = asyncio.Event()

    def deliver(messages: list[tuple[int, dict[str, Any]]]) -> None:
        for client, message in messages:
            writer = writers.get(client)
            if writer is not None and not writer.is_closing():
                writer.write(encode(message).encode("ascii") + b"\n")
        wake.set()

    async def timers() -> None:
        while True:
            if engine.busy():  # runs of hands: a slice, then the clients again
                await asyncio.sleep(0)
                deliver(engine.tick())
                continue
            deadline = engine.next_deadline()
            wait = None if deadline is None else max(0.0, deadline - time.monotonic())
            wake.clear()
            try:
                await asyncio.wait_for(wake.wait(), wait)
            except TimeoutError:
                deliver(engine.tick())

    async def client(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        ident = engine.connect()
        writers[ident] = writer
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
        for signum in (signal.SIGINT, signal.SIGTERM):
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
    raise Terminated if stopped_by[:1] == [signal.SIGTERM] else KeyboardInterrupt


def parse_address(text: str) -> tuple[str, int]:
    host, _, port = text.rpartition(":")
    if not host or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise click.BadParameter(
            f"{text!r}: HOST:PORT, e.g. 127.0.0.1:7777", param_hint="'--listen'"
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
@sigterm_as_ctrl_c
def engine_command(listen: str | None) -> None:
    """Serves the JSON-lines protocol: one JSON request a line in, replies and
    events out, one JSON object a line. Malformed input gets an error reply
    and the engine goes on.
    """
    if listen is None:
        serve_stdio(sys.stdin.fileno(), sys.stdout.buffer)
        return
    host, port = parse_address(listen)

    def ready(bound: int) -> None:
        click.echo(f"holdem engine: listening on {host}:{bound}", err=True)

    asyncio.run(serve_tcp(host, port, ready))
