"""Load benchmark of the room server (issue 14): ``holdem serve`` in its own
process on loopback, and 50 cash tables of 6 clients each over TCP.

Run it from the repository root::

    pip install -e . && python bench/bench_serve.py

The clients are bots that play over the protocol, half of the tables
call-only players (they read a turn as text, as a script in any language
might) and half random players (they read each turn's menu and pick a legal
move, raises and all-ins included); a busted player buys in again.  Each
connection is a client of its own with its own seat.  This script opens
them, makes the tables and seats the players; then the play is the C
program ``serve_clients.c`` (compiled here; one process for every
connection, so that the clients take little of the CPUs the server is
measured on), or with ``--python-clients`` this script itself (a turn's
JSON read by ``json.loads``), in ``--clients N`` processes.  Without a C
compiler the Python clients play.

Measured, in one run: the hands a second across the server; the time from
an action sent to the next player's ``turn`` event (50th and 99th
percentile, as the clients see it); the server's memory (peak resident
set); and the protocol errors, chips lost (each table's results add up to
zero) and cards leaked (a client told another seat's hole cards), all of
which must be zero.  The goal: 1,000 hands a second with a 99th percentile
under 50 ms on a 2-core machine.

``--workers N`` runs the server as ``holdem serve --workers N`` (one
server, its tables shared out between N processes).  ``--servers N`` is an
experiment: N independent servers, the tables shared out between them
(each server both kinds), which bounds what one server in N processes
could do; it prints no ``target`` lines.

Output: one JSON object a line, the ``target`` lines last.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import platform
import random
import re
import selectors
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from _common import cpu_model, emit, library_version, set_bench

set_bench("serve")

SEATS = 6
TIMER = 30.0


#: The tables' settings (besides a name): cash, blinds 1/2, no pauses.
TABLE = {"game": "cash", "seats": SEATS, "small_blind": 1, "big_blind": 2, "pace": 0, "pause": 0,
         "timer": {"seconds": TIMER, "time_bank": 0}}  # fmt: skip


class Seat:
    """One seat's player, whatever carries its lines: reads them
    (:meth:`answer`), answers its turns, and keeps the lines it has to send
    in :attr:`out`."""

    def __init__(self, random_player: bool, rng: random.Random) -> None:
        self.random = random_player
        self.rng = rng
        self.table = ""
        self.index = 0  # the table's number in the benchmark (whatever its server)
        self.seat = -1
        self.number = 0  # the server's number of the connection (hello's client)
        self.errors: list[str] = []
        self.leaks = 0
        self.hands = 0
        self.out: list[bytes] = []

    def send(self, kind: str, **fields: Any) -> None:
        """A request without an id (its reply is not waited for), sent with the rest."""
        self.out.append(json.dumps({"type": kind, "table": self.table, **fields}).encode())

    def answer(self, line: bytes) -> bool:
        """Reads one line; True when it was this seat's turn (answered)."""
        if b'"turn"' in line[:40]:
            if b'"seat":%d,' % self.seat not in line[:80]:  # (another seat's view)
                self.leaks += 1
                return False
            if not self.random:
                kind = b"check" if b'"check":true' in line else b"call"
                self.out.append(b'{"type":"act","table":"%s","action":{"kind":"%s"}}'
                                % (self.table.encode(), kind))  # fmt: skip
                return True
            legal = json.loads(line)["view"]["legal"]
            self.send("act", action=pick(legal, self.rng))
            return True
        if b'"hole_cards"' in line[:40]:
            if json.loads(line)["seat"] != self.seat:
                self.leaks += 1
        elif b'"error"' in line[:20]:
            self.errors.append(line.decode()[:200])
        elif b'"hand_ended"' in line[:40]:
            ended = json.loads(line)
            self.hands += 1
            stack = dict(zip(ended["seats"], ended["stacks"], strict=True)).get(self.seat)
            if stack == 0:
                self.send("add_chips", chips=200)
        return False


class Client(Seat):
    """One seat's TCP connection: reads the server's lines, answers its turns."""

    #: The arguments that tell ``serve_clients.c`` what its connections are.
    program: tuple[str, ...] = ()

    def __init__(self, port: int, random_player: bool, rng: random.Random) -> None:
        super().__init__(random_player, rng)
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buffer = b""
        self.next_id = 1

    def write(self, message: bytes) -> None:
        """Sends one message (blocking)."""
        self.sock.sendall(message + b"\n")

    def read(self) -> bytes:
        """The next message (blocking)."""
        while b"\n" not in self.buffer:
            self.buffer += self.sock.recv(1 << 18)
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line

    def request(self, kind: str, **fields: Any) -> dict[str, Any]:
        """A request answered before the game (blocking)."""
        ident = self.next_id
        self.next_id += 1
        self.write(json.dumps({"id": ident, "type": kind, **fields}).encode())
        while True:
            message = json.loads(self.read())
            if message.get("id") == ident:
                if "error" in message:
                    raise RuntimeError(f"{kind}: {message['error']}")
                return message["result"]  # type: ignore[no-any-return]

    def lines(self, data: bytes) -> list[bytes]:
        self.buffer += data
        *whole, self.buffer = self.buffer.split(b"\n")
        return whole


def pick(legal: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A random legal decision (the engine's random bot's mix, roughly)."""
    options: list[dict[str, Any]] = []
    if legal["check"]:
        options.append({"kind": "check"})
    if legal["call"] is not None:
        options.append({"kind": "call"})
    if legal["fold"] and not legal["check"]:
        options.append({"kind": "fold"})
    if legal["wager"] is not None and rng.random() < 0.3:
        to = rng.randint(legal["min_to"], legal["max_to"])
        return {"kind": legal["wager"], "to": to}
    if legal["all_in"] is not None and rng.random() < 0.05:
        return {"kind": "all_in"}
    return rng.choice(options)


def seated(ports: list[int], first: int, tables: int, seed: int,
           make: type[Client] = Client) -> list[list[Client]]:  # fmt: skip
    """The clients of ``tables`` tables (numbered from ``first``), seated, the
    tables shared out between the servers of ``ports`` (``make``: the class
    of the clients)."""
    rng = random.Random(seed)
    clients: list[list[Client]] = []
    for t in range(tables):
        random_table = (first + t) % 2 == 1
        port = ports[(first + t) // 2 % len(ports)]  # (each server both kinds of tables)
        seats = [make(port, random_table, random.Random(rng.random())) for _ in range(SEATS)]
        for client in seats:
            client.index = first + t
        for client in seats:
            client.number = client.request("hello", version=1)["client"]
        made = seats[0].request("create_table", name=f"p{first + t}-0", **TABLE)
        seats[0].table, seats[0].seat = made["table"], 0
        for i, client in enumerate(seats[1:], 1):
            joined = client.request("join", code=made["code"], name=f"p{first + t}-{i}")
            client.table, client.seat = joined["table"], joined["seat"]
        clients.append(seats)
    return clients


def load(
    ports: list[int], first: int, tables: int, seconds: float, seed: int,
    mark: Callable[[], None] = lambda: None,
) -> dict[str, Any]:  # fmt: skip
    """Plays ``tables`` tables (numbered from ``first``) for ``seconds``, the
    clients in this process: their counts and latencies (``mark``: called
    once they are seated, before the tables start, and as the play ends)."""
    clients = seated(ports, first, tables, seed)
    selector = selectors.DefaultSelector()
    everyone = [c for seats in clients for c in seats]
    for client in everyone:
        client.sock.setblocking(False)
        selector.register(client.sock, selectors.EVENT_READ, client)
    acted: dict[int, float] = {}  # table (its index) -> when its last action was sent
    latencies: list[float] = []
    mark()
    for seats in clients:
        seats[0].write(b'{"type":"start","table":"%s"}' % seats[0].table.encode())
    start = time.perf_counter()
    end = start + seconds
    while time.perf_counter() < end:
        for key, _ in selector.select(0.5):
            client = key.data
            try:
                data = client.sock.recv(1 << 18)
            except BlockingIOError:
                continue
            if not data:
                raise RuntimeError("the server closed a connection")
            now = time.perf_counter()
            refused = len(client.errors)
            for line in client.lines(data):
                if client.answer(line):
                    sent = acted.pop(client.index, None)
                    if sent is not None:
                        latencies.append(now - sent)
            if len(client.errors) > refused:  # (a refused action: no turn follows it)
                acted.pop(client.index, None)
            if client.out:
                client.sock.sendall(b"\n".join(client.out) + b"\n")
                client.out.clear()
                acted[client.index] = time.perf_counter()
    elapsed = time.perf_counter() - start
    mark()
    return {
        "hands": sum(seats[0].hands for seats in clients),
        "seconds": elapsed,
        "latencies": latencies,
        "errors": [e for c in everyone for e in c.errors],
        "leaks": sum(c.leaks for c in everyone),
        "nets": _nets(clients),
    }


def load_c(
    binary: str, ports: list[int], tables: int, seconds: float, seed: int,
    mark: Callable[[], None] = lambda: None, make: type[Client] = Client,
) -> dict[str, Any]:  # fmt: skip
    """Plays ``tables`` tables for ``seconds``, the clients those of the C
    program ``binary`` (their sockets inherited, of class ``make``): their
    counts and latencies, each latency's ``paths`` (the clients, in
    ``seats``, that sent the action and that was told the turn) (``mark``:
    called as the play begins and as it ends)."""
    clients = seated(ports, 0, tables, seed, make)
    everyone = [c for seats in clients for c in seats]
    lines = [f"{seconds} {seed}"]
    for seats in clients:
        for i, client in enumerate(seats):
            client.sock.setblocking(False)
            lines.append(f"{client.sock.fileno()} {client.index} {client.table} {client.seat} "
                         f"{int(client.random)} {int(i == 0)}")  # fmt: skip
    for seats in clients:
        seats[0].write(b'{"type":"start","table":"%s"}' % seats[0].table.encode())
    mark()
    start = time.perf_counter()
    done = subprocess.run([binary, *make.program], input="\n".join(lines) + "\n",
                          capture_output=True, text=True,
                          pass_fds=[c.sock.fileno() for c in everyone])  # fmt: skip
    elapsed = time.perf_counter() - start
    mark()
    if done.returncode != 0:
        raise RuntimeError(f"the C clients failed: {done.stderr.strip()}")
    counts: dict[str, int] = {}
    latencies: list[float] = []
    paths: list[tuple[int, int]] = []
    first_error = ""
    for line in done.stdout.splitlines():
        key, _, value = line.partition(" ")
        if key == "latency":
            seconds_taken, sender, told = value.split()
            latencies.append(float(seconds_taken))
            paths.append((int(sender), int(told)))
        elif key == "first_error":
            first_error = value
        else:
            counts[key] = int(value)
    for client in everyone:  # (the C program left each at a message's end)
        client.buffer = b""
    return {
        "hands": counts["hands"],
        "seconds": elapsed,
        "latencies": latencies,
        "paths": paths,
        "seats": everyone,
        "errors": [first_error] * counts["errors"],
        "leaks": counts["leaks"],
        "nets": _nets(clients),
    }


def _nets(clients: list[list[Client]]) -> list[int]:
    """Each table's results added up, once the play has stopped (zero: no chip lost)."""
    nets = []
    for seats in clients:
        seats[0].sock.setblocking(True)
        state = _state(seats[0])
        nets.append(sum(r["net"] for r in state["results"].values()))
    return nets


def compile_clients(folder: str) -> str | None:
    """``serve_clients.c`` compiled in ``folder``; None without a C compiler."""
    compiler = shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc")
    if compiler is None:
        return None
    binary = str(Path(folder) / "serve_clients")
    source = Path(__file__).with_name("serve_clients.c")
    subprocess.run([compiler, "-O2", "-o", binary, str(source)], check=True)
    return binary


def _state(client: Client) -> dict[str, Any]:
    """The table's state, once the play has stopped (events read past)."""
    client.next_id += 1
    ident = client.next_id
    client.write(json.dumps({"id": ident, "type": "state", "table": client.table}).encode())
    while True:
        line = client.read()
        if line.startswith(b'{"id":%d,' % ident):
            return json.loads(line)["result"]  # type: ignore[no-any-return]


def _start_server(data: Path, workers: int = 1, *options: str) -> tuple[subprocess.Popen[str], int]:
    """``holdem serve`` (``--workers``, and any more ``options``) on a free
    loopback port, its data in ``data``: the process and its port."""
    data.mkdir()
    server = subprocess.Popen(
        [sys.executable, "-m", "holdem", "serve", "--listen", "127.0.0.1:0", "--data", str(data),
         "--max-connections", "2000", "--max-per-address", "2000", "--max-tables", "1000",
         "--tables-per-address", "1000", "--rate", "1000", "--workers", str(workers), *options],
        stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert server.stderr is not None
    said = server.stderr.readline()
    found = re.search(r"listening on .*:(\d+),", said)
    if found is None:
        server.kill()
        raise RuntimeError(f"holdem serve did not start: {said.strip() or server.stderr.read()}")
    return server, int(found.group(1))


def cpu_seconds(pid: int) -> tuple[float, float]:
    """The user and system seconds a process and its children (a server's
    workers) have run (Linux; zeros elsewhere)."""
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return 0.0, 0.0
    user, system = int(fields[11]) / tick, int(fields[12]) / tick
    for child in children:
        u, k = cpu_seconds(int(child))
        user, system = user + u, system + k
    return user, system


def _load(args: tuple[list[int], int, int, float, int]) -> dict[str, Any]:
    return load(*args)


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] if ordered else 0.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50, help="tables (default 50)")
    parser.add_argument("--seconds", type=float, default=20.0, help="seconds of play")
    parser.add_argument(
        "--clients", type=int, default=1, help="processes of Python clients (with --python-clients)"
    )
    parser.add_argument(
        "--python-clients",
        action="store_true",
        help="the clients in Python (json.loads), not the C program",
    )
    parser.add_argument(
        "--servers",
        type=int,
        default=1,
        help="independent servers, the tables shared out between them (an "
        "experiment: what a server in N processes could do; not the target)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=os.cpu_count() or 1,
        help="processes of the server (holdem serve --workers N; default: one a CPU, "
        "as a busy server runs)",
    )
    parser.add_argument("--quick", action="store_true", help="10 tables for 5 seconds")
    args = parser.parse_args(argv)
    tables, seconds = (10, 5.0) if args.quick else (args.tables, args.seconds)
    with tempfile.TemporaryDirectory() as data:
        binary = None if args.python_clients else compile_clients(data)
        emit(header="serve", python=platform.python_version(), cpu=cpu_model(),
             cpus=os.cpu_count(), holdem=library_version("holdem"), tables=tables, seats=SEATS,
             seconds=seconds, clients="c" if binary else "python",
             client_processes=1 if binary else args.clients, servers=args.servers,
             workers=args.workers)  # fmt: skip
        servers = [_start_server(Path(data) / str(k), args.workers) for k in range(args.servers)]
        ports = [port for _, port in servers]
        try:
            shares = [tables // args.clients + (i < tables % args.clients)
                      for i in range(args.clients)]  # fmt: skip
            firsts = [sum(shares[:i]) for i in range(args.clients)]
            jobs = [(ports, first, share, seconds, i) for i, (first, share)
                    in enumerate(zip(firsts, shares, strict=True))]  # fmt: skip
            readings: list[tuple[float, float]] = []

            def mark() -> None:  # (the servers' CPU time as the play begins and ends)
                times = [cpu_seconds(server.pid) for server, _ in servers]
                readings.append((sum(u for u, _ in times), sum(k for _, k in times)))

            if binary is not None:
                parts = [load_c(binary, ports, tables, seconds, 0, mark)]
            elif args.clients == 1:
                parts = [_load(jobs[0])]
            else:
                with multiprocessing.Pool(args.clients) as pool:
                    parts = pool.map(_load, jobs)
            peaks = [_peak_memory(server.pid) for server, _ in servers]
            memory = None if None in peaks else round(sum(p for p in peaks if p is not None), 1)
            stored = sum(_stored_hands(Path(data) / str(k) / "room.sqlite")
                         for k in range(args.servers))  # fmt: skip
        finally:
            for server, _ in servers:
                server.terminate()
                server.wait()
    hands = sum(p["hands"] for p in parts)
    elapsed = max(p["seconds"] for p in parts)
    latencies = [x for p in parts for x in p["latencies"]]
    errors = [e for p in parts for e in p["errors"]]
    leaks = sum(p["leaks"] for p in parts)
    lost = sum(abs(n) for p in parts for n in p["nets"])
    rate = hands / elapsed
    p50, p99 = 1000 * percentile(latencies, 50), 1000 * percentile(latencies, 99)
    emit(result="throughput", hands=hands, seconds=round(elapsed, 2),
         hands_per_second=round(rate, 1), stored_hands=stored)  # fmt: skip
    emit(result="latency_ms", samples=len(latencies), p50=round(p50, 2), p99=round(p99, 2),
         max=round(1000 * max(latencies, default=0), 2))  # fmt: skip
    emit(result="server_memory_mb", peak_rss=memory)
    if len(readings) == 2 and hands:  # (the C clients: the play timed alone)
        user, system = (b - a for a, b in zip(readings[0], readings[1], strict=True))
        emit(result="server_cpu", user_seconds=round(user, 2), system_seconds=round(system, 2),
             ms_per_hand=round(1000 * (user + system) / hands, 3),
             cpus_busy=round((user + system) / elapsed, 2))  # fmt: skip
    emit(result="faults", protocol_errors=len(errors), chips_lost=lost, cards_leaked=leaks,
         first_error=errors[0] if errors else None)  # fmt: skip
    if args.servers > 1:
        n = args.servers
        emit(note=f"{n} independent servers, the tables shared out: what a server in {n} "
             "processes could do at most; the targets are one server's")  # fmt: skip
        return 0
    emit(target="1,000 hands/s across the server", value=round(rate, 1), met=rate >= 1000)
    emit(target="p99 action to next turn under 50 ms", value=round(p99, 2), met=p99 < 50)
    emit(target="no protocol errors, lost chips or leaked cards",
         value=len(errors) + lost + leaks, met=not (errors or lost or leaks))  # fmt: skip
    return 0


def _peak_memory(pid: int) -> float | None:
    """The peak resident set of the process and its children (a server's
    workers), in MB (Linux)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return None
    found = re.search(r"VmHWM:\s+(\d+) kB", status)
    if found is None:
        return None
    mine = round(int(found.group(1)) / 1024, 1)
    theirs = [_peak_memory(int(child)) for child in children]
    return None if None in theirs else round(mine + sum(t for t in theirs if t), 1)


def _stored_hands(path: Path) -> int:
    import sqlite3

    with sqlite3.connect(path) as db:
        return int(db.execute("SELECT COUNT(*) FROM hands").fetchone()[0])


if __name__ == "__main__":
    sys.exit(main())
