"""Load benchmark of the room server's WebSockets (issue 30): ``holdem serve
--web`` in its own process on loopback, cash tables of 6 clients each over
WebSockets, and the same tables over TCP in the same run, side by side.

Run it from the repository root::

    pip install -e '.[web]' && python bench/bench_web.py

The players are those of ``bench_serve.py`` (half of the tables call-only,
half random players; a busted player buys in again), every seat a
connection of its own and every seat a client (no bots): each decision
goes through the server's network path, which is what is measured.  The
play is ``serve_clients.c`` (compiled here), one process for every
connection, as ``bench_serve`` plays it: over TCP a message a line, over
WebSockets (``--websocket``; the handshake made here) a message a text
frame, so the clients take little of the CPUs the server is measured on,
and the two transports' clients the same.  With ``--python-clients`` the
clients are Python in ``--clients N`` processes: over WebSockets aiohttp's
client, over TCP ``bench_serve``'s (a turn's JSON read by ``json.loads``
for both); they need more CPU a hand than the server, so they measure the
clients as much as the server.

Each case is a server of its own (``--workers 1`` and ``--workers 2`` by
default): first its tables over WebSockets, then the same tables over TCP,
each for ``--seconds``.  Measured in each: the hands a second, the time
from an action sent to the next ``turn`` event at that table (50th and 99th
percentile, as the clients see it), the server's CPU time a hand and its
peak memory, and the protocol errors, chips lost and cards leaked (all
zero).  With two workers a WebSocket lands at either worker, and one whose
table the other serves is carried there through the worker it landed at (a
relay; a TCP connection is handed on whole): the WebSockets relayed are
counted (from ``hello``'s ``client`` number, ``(client - 1) % workers`` the
worker it landed at, and the table's, ``t<n>``: ``(n - 1) % workers``), and
the latencies are given by the relays on their path (the acting seat's and
the next one's: 0, 1 or 2).

Output: one JSON object a line: ``result`` lines per case and transport,
``ratio`` lines (WebSockets over TCP, same case), the ``target`` lines last.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import multiprocessing
import os
import platform
import random
import re
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp
from _common import cpu_model, emit, library_version, set_bench
from bench_serve import (
    SEATS,
    TABLE,
    Client,
    Seat,
    _peak_memory,
    _start_server,
    _stored_hands,
    compile_clients,
    cpu_seconds,
    load,
    load_c,
    percentile,
)

set_bench("web")

#: Seconds a client process may take to seat its players (or to say why not).
SETUP_SECONDS = 300.0


def relayed(seat: Seat, workers: int) -> bool:
    """Whether a seat's WebSocket landed at a worker that does not serve its
    table (and so is carried there by a relay)."""
    return (seat.number - 1) % workers != (int(seat.table[1:]) - 1) % workers


class WebSocketClient(Client):
    """One seat's WebSocket on a plain socket, its handshake made here, for
    the C clients (which inherit the socket): a message a text frame."""

    program = ("--websocket",)

    def __init__(self, port: int, random_player: bool, rng: random.Random) -> None:
        super().__init__(port, random_player, rng)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                          f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                          "Sec-WebSocket-Version: 13\r\n\r\n".encode())  # fmt: skip
        while b"\r\n\r\n" not in self.buffer:
            self.buffer += self._recv()
        answer, _, self.buffer = self.buffer.partition(b"\r\n\r\n")
        if not answer.startswith(b"HTTP/1.1 101"):
            raise RuntimeError(f"no WebSocket: {answer.decode(errors='replace')[:200]}")

    def _recv(self) -> bytes:
        data = self.sock.recv(1 << 18)
        if not data:
            raise RuntimeError("the server closed a WebSocket")
        return data

    def write(self, message: bytes, opcode: int = 1) -> None:
        """Sends one message as a frame (masked, as a client's must be)."""
        mask = os.urandom(4)
        n = len(message)
        head = bytes([0x80 | opcode]) + (bytes([0x80 | n]) if n < 126 else bytes([0x80 | 126])
                                         + n.to_bytes(2, "big"))  # fmt: skip
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(message))
        self.sock.sendall(head + mask + masked)

    def read(self) -> bytes:
        """The next text frame's message (a ping answered on the way)."""
        while True:
            while len(self.buffer) < 2:
                self.buffer += self._recv()
            size, head = self.buffer[1] & 0x7F, 2
            if size >= 126:
                head = 4 if size == 126 else 10
                while len(self.buffer) < head:
                    self.buffer += self._recv()
                size = int.from_bytes(self.buffer[2:head], "big")
            while len(self.buffer) < head + size:
                self.buffer += self._recv()
            opcode = self.buffer[0] & 0x0F
            message = self.buffer[head : head + size]
            self.buffer = self.buffer[head + size :]
            if opcode == 1:
                return message
            if opcode == 9:
                self.write(message, opcode=10)
            elif opcode == 8:
                raise RuntimeError("the server closed a WebSocket")


class WebSeat(Seat):
    """One seat's WebSocket of aiohttp's client (``--python-clients``)."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse, random_player: bool,
                 rng: random.Random) -> None:  # fmt: skip
        super().__init__(random_player, rng)
        self.ws = ws
        self.next_id = 1

    async def request(self, kind: str, **fields: Any) -> dict[str, Any]:
        """A request answered before the game (or after it: events read past)."""
        ident = self.next_id
        self.next_id += 1
        await self.ws.send_json({"id": ident, "type": kind, **fields})
        while True:
            message = await self.ws.receive(timeout=60)
            if message.type is not aiohttp.WSMsgType.TEXT:
                raise RuntimeError(f"{kind}: the server closed the WebSocket ({message.type})")
            if message.data.startswith(f'{{"id":{ident},'):
                reply: dict[str, Any] = message.json()
                if "error" in reply:
                    raise RuntimeError(f"{kind}: {reply['error']}")
                return reply["result"]  # type: ignore[no-any-return]


async def seated_web(session: aiohttp.ClientSession, base: str, first: int,
                     tables: int, seed: int) -> list[list[WebSeat]]:  # fmt: skip
    """The WebSockets of ``tables`` tables (numbered from ``first``), seated
    as ``bench_serve.seated`` seats its clients."""
    rng = random.Random(seed)
    clients: list[list[WebSeat]] = []
    for t in range(tables):
        random_table = (first + t) % 2 == 1
        seats = []
        for _ in range(SEATS):
            ws = await session.ws_connect(base + "/ws", max_msg_size=0)
            seat = WebSeat(ws, random_table, random.Random(rng.random()))
            seat.index = first + t
            seat.number = (await seat.request("hello", version=1))["client"]
            seats.append(seat)
        made = await seats[0].request("create_table", name=f"p{first + t}-0", **TABLE)
        seats[0].table, seats[0].seat = made["table"], 0
        for i, seat in enumerate(seats[1:], 1):
            joined = await seat.request("join", code=made["code"], name=f"p{first + t}-{i}")
            seat.table, seat.seat = joined["table"], joined["seat"]
        clients.append(seats)
    return clients


async def load_web(base: str, first: int, tables: int, seconds: float, seed: int,
                   workers: int, mark: Any) -> dict[str, Any]:  # fmt: skip
    """Plays ``tables`` tables (numbered from ``first``) for ``seconds`` over
    aiohttp's WebSockets, the clients in this process: their counts and
    latencies (``mark``: called once they are seated and as the play ends)."""
    connector = aiohttp.TCPConnector(limit=0)  # (no cap on the WebSockets open at once)
    async with aiohttp.ClientSession(connector=connector) as session:
        clients = await seated_web(session, base, first, tables, seed)
        everyone = [s for seats in clients for s in seats]
        flags = {id(s): relayed(s, workers) for s in everyone}
        acted: dict[int, tuple[float, WebSeat]] = {}  # table -> when its last action went, by whom
        latencies: list[float] = []
        relays: list[int] = []  # (each latency's: the relays on its path)

        async def read(seat: WebSeat) -> None:
            ws = seat.ws
            while True:
                message = await ws.receive()
                now = time.perf_counter()
                if message.type is not aiohttp.WSMsgType.TEXT:
                    raise RuntimeError(f"the server closed a WebSocket ({message.type})")
                refused = len(seat.errors)
                if seat.answer(message.data.encode()):
                    sent = acted.pop(seat.index, None)
                    if sent is not None:
                        latencies.append(now - sent[0])
                        relays.append(flags[id(sent[1])] + flags[id(seat)])
                if len(seat.errors) > refused:  # (a refused action: no turn follows it)
                    acted.pop(seat.index, None)
                if seat.out:
                    for line in seat.out:
                        await ws.send_str(line.decode())
                    seat.out.clear()
                    acted[seat.index] = (time.perf_counter(), seat)

        mark()
        for seats in clients:
            await seats[0].ws.send_json({"type": "start", "table": seats[0].table})
        start = time.perf_counter()
        readers = [asyncio.ensure_future(read(seat)) for seat in everyone]
        done, _ = await asyncio.wait(readers, timeout=seconds, return_when=asyncio.FIRST_EXCEPTION)
        elapsed = time.perf_counter() - start
        for reader in readers:
            reader.cancel()
        await asyncio.gather(*readers, return_exceptions=True)
        mark()
        for reader in done:
            reader.result()  # (a reader that failed: its error)
        nets = []
        for seats in clients:  # (each table's results added up: zero, no chip lost)
            state = await seats[0].request("state", table=seats[0].table)
            nets.append(sum(r["net"] for r in state["results"].values()))
        for seat in everyone:
            await seat.ws.close()
    return {
        "hands": sum(seats[0].hands for seats in clients),
        "seconds": elapsed,
        "latencies": latencies,
        "relays": relays,
        "relayed": sum(flags.values()),
        "sockets": len(everyone),
        "errors": [e for s in everyone for e in s.errors],
        "leaks": sum(s.leaks for s in everyone),
        "nets": nets,
    }


def _client(web: bool, address: Any, first: int, tables: int, seconds: float, seed: int,
            workers: int, barrier: Any, results: Any) -> None:  # fmt: skip
    """A process of Python clients: plays its share of the tables (over
    WebSockets, or over TCP) and puts what it counted in ``results`` (or its
    error)."""

    def mark() -> None:
        barrier.wait(SETUP_SECONDS)

    try:
        if web:
            part = asyncio.run(load_web(address, first, tables, seconds, seed, workers, mark))
        else:
            part = load([address], first, tables, seconds, seed, mark)
            part["relays"], part["relayed"], part["sockets"] = [], 0, tables * SEATS
    except Exception as exc:
        barrier.abort()
        results.put({"error": f"{type(exc).__name__}: {exc}"})
        return
    results.put(part)


def python_clients(web: bool, address: Any, workers: int, tables: int, seconds: float,
                   processes: int, mark: Any) -> list[dict[str, Any]]:  # fmt: skip
    """The tables played by ``processes`` processes of Python clients, which
    begin and end together (``mark``: called then): what each counted."""
    shares = [tables // processes + (i < tables % processes) for i in range(processes)]
    context = multiprocessing.get_context("fork")
    barrier = context.Barrier(processes + 1)
    results = context.Queue()
    clients = [context.Process(target=_client, args=(web, address, sum(shares[:i]), share,
                                                     seconds, i, workers, barrier, results))
               for i, share in enumerate(shares)]  # fmt: skip
    for process in clients:
        process.start()
    try:
        for _ in range(2):
            barrier.wait(SETUP_SECONDS)
            mark()
    except Exception:  # (a client failed: its error is in the results)
        pass
    parts = [results.get(timeout=SETUP_SECONDS) for _ in clients]
    for process in clients:
        process.join()
    failed = [p["error"] for p in parts if "error" in p]
    if failed:
        raise RuntimeError(f"a client process failed: {failed[0]}")
    return parts


def run_case(web: bool, data: Path, workers: int, tables: int, seconds: float,
             binary: str | None, processes: int) -> dict[str, Any]:  # fmt: skip
    """One server (``workers``; with its page) and ``tables`` tables played
    over WebSockets (``web``) or TCP, by the C clients (``binary``) or by
    ``processes`` processes of Python clients: the counts, latencies and
    the server's costs."""
    server, port = _start_server(data, workers, "--web", "127.0.0.1:0")
    assert server.stderr is not None
    said = server.stderr.readline()
    found = re.search(r"the page at http://127\.0\.0\.1:(\d+)/ ", said)
    readings: list[tuple[float, float]] = []

    def mark() -> None:  # (the server's CPU time as the play begins and as it ends)
        readings.append(cpu_seconds(server.pid))

    try:
        if found is None:
            raise RuntimeError(f"holdem serve --web gave no page: {said.strip()}")
        page = int(found.group(1))
        if binary is not None:
            part = load_c(binary, [page if web else port], tables, seconds, 0, mark,
                          WebSocketClient if web else Client)  # fmt: skip
            flags = [web and relayed(s, workers) for s in part["seats"]]
            part["relays"] = [flags[a] + flags[b] for a, b in part["paths"]]
            part["relayed"], part["sockets"] = sum(flags), len(flags)
            parts = [part]
        else:
            address = f"http://127.0.0.1:{page}" if web else port
            parts = python_clients(web, address, workers, tables, seconds, processes, mark)
        memory = _peak_memory(server.pid)
        load = round(os.getloadavg()[0], 2)  # (the machine's, the server and clients in it)
    finally:
        server.terminate()
        server.wait()
    user, system = (b - a for a, b in zip(readings[0], readings[1], strict=True))
    hands = sum(p["hands"] for p in parts)
    elapsed = max(p["seconds"] for p in parts)
    return {
        "hands": hands,
        "seconds": elapsed,
        "latencies": [x for p in parts for x in p["latencies"]],
        "relays": [x for p in parts for x in p["relays"]],
        "relayed": sum(p["relayed"] for p in parts),
        "sockets": sum(p["sockets"] for p in parts),
        "errors": [e for p in parts for e in p["errors"]],
        "leaks": sum(p["leaks"] for p in parts),
        "lost": sum(abs(n) for p in parts for n in p["nets"]),
        "cpu_ms_per_hand": 1000 * (user + system) / hands if hands else 0.0,
        "cpus_busy": (user + system) / elapsed,
        "memory": memory,
        "load": load,
        "stored": _stored_hands(data / "room.sqlite"),
    }


def report(kind: str, workers: int, got: dict[str, Any]) -> dict[str, float]:
    """Prints one case's result lines; its figures for the ratios."""
    rate = got["hands"] / got["seconds"]
    latencies = got["latencies"]
    p50, p99 = 1000 * percentile(latencies, 50), 1000 * percentile(latencies, 99)
    emit(result="throughput", transport=kind, workers=workers, hands=got["hands"],
         seconds=round(got["seconds"], 2), hands_per_second=round(rate, 1),
         stored_hands=got["stored"], load_average=got["load"])  # fmt: skip
    emit(result="latency_ms", transport=kind, workers=workers, samples=len(latencies),
         p50=round(p50, 2), p99=round(p99, 2),
         max=round(1000 * max(latencies, default=0), 2))  # fmt: skip
    if kind == "web" and workers > 1:
        emit(result="relayed", workers=workers, websockets=got["sockets"],
             relayed=got["relayed"])  # fmt: skip
        for hops in (0, 1, 2):
            some = [x for x, r in zip(latencies, got["relays"], strict=True) if r == hops]
            emit(result="latency_ms_by_relays", transport=kind, workers=workers, relays=hops,
                 samples=len(some), p50=round(1000 * percentile(some, 50), 2),
                 p99=round(1000 * percentile(some, 99), 2))  # fmt: skip
    cpu = got["cpu_ms_per_hand"]
    emit(result="server_cpu", transport=kind, workers=workers, ms_per_hand=round(cpu, 3),
         cpus_busy=round(got["cpus_busy"], 2))  # fmt: skip
    emit(result="server_memory_mb", transport=kind, workers=workers, peak_rss=got["memory"])
    emit(result="faults", transport=kind, workers=workers, protocol_errors=len(got["errors"]),
         chips_lost=got["lost"], cards_leaked=got["leaks"],
         first_error=got["errors"][0] if got["errors"] else None)  # fmt: skip
    return {"hands_per_second": rate, "p50_ms": p50, "p99_ms": p99, "cpu_ms_per_hand": cpu}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50, help="tables (default 50)")
    parser.add_argument("--seconds", type=float, default=15.0,
                        help="seconds of play a case and transport (default 15)")  # fmt: skip
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2],
                        help="the server's processes, a case each (default: 1 2)")  # fmt: skip
    parser.add_argument("--python-clients", action="store_true",
                        help="the clients in Python (aiohttp's WebSockets; bench_serve's "
                        "TCP clients), not the C program")  # fmt: skip
    parser.add_argument("--clients", type=int, default=2,
                        help="processes of Python clients (with --python-clients; default "
                        "2)")  # fmt: skip
    parser.add_argument("--quick", action="store_true", help="10 tables for 5 seconds")
    args = parser.parse_args(argv)
    tables, seconds = (10, 5.0) if args.quick else (args.tables, args.seconds)
    faults = 0
    p99s: list[float] = []
    with tempfile.TemporaryDirectory() as data:
        binary = None if args.python_clients else compile_clients(data)
        emit(header="web", python=platform.python_version(), cpu=cpu_model(),
             cpus=os.cpu_count(), holdem=library_version("holdem"),
             aiohttp=library_version("aiohttp"), tables=tables, seats=SEATS, seconds=seconds,
             clients="c" if binary else "python", client_processes=1 if binary else args.clients,
             workers=args.workers)  # fmt: skip
        for workers in args.workers:
            figures = {}
            for kind in ("web", "tcp"):
                got = run_case(kind == "web", Path(data) / f"{kind}-{workers}", workers, tables,
                               seconds, binary, args.clients)  # fmt: skip
                figures[kind] = report(kind, workers, got)
                faults += len(got["errors"]) + got["lost"] + got["leaks"]
                if kind == "web":
                    p99s.append(figures[kind]["p99_ms"])
            for name, value in figures["web"].items():
                tcp = figures["tcp"][name]
                emit(ratio=f"web/tcp {name}", workers=workers,
                     value=round(value / tcp, 3) if tcp else None)  # fmt: skip
    worst = max(p99s)
    emit(target="p99 action to next turn under 50 ms over WebSockets (as over TCP)",
         value=round(worst, 2), met=worst < 50)  # fmt: skip
    emit(target="no protocol errors, lost chips or leaked cards over either", value=faults,
         met=faults == 0)  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
