"""The room server soaked (issue 28; slow: ``python -m pytest -m slow -k soak``):
many clients play freezeouts at a ``holdem serve`` whose disk fills and
empties again, which is killed (SIGKILL) and started again, while a client
that never reads and one that floods share it.  Throughout: every hand a
player was told ended is in the store with the stacks it was told, the
chips of every table are conserved across the restarts (each stored hand
begins with the stacks the one before it ended with), and every table plays
on in every calm spell, whatever the others do.

``HOLDEM_SOAK_ROUNDS`` sets the rounds of faults (3 by default)."""

from __future__ import annotations

import contextlib
import json
import os
import random
import resource
import socket
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest
from rooms_helpers import Server

from holdem.clients import RoomClient
from holdem.errors import ProtocolError
from holdem.rooms.handover import supported

pytestmark = pytest.mark.slow

TABLES = 6
STACK = 5000
PEOPLE = 2  # (a table's; two calling-station bots beside them)


class Seat:
    """A person at a table: the client, its latest token, what it was told."""

    def __init__(self, name: str, table: str, token: str, client: RoomClient) -> None:
        self.name, self.table, self.token, self.client = name, table, token, client
        self.told: dict[int, dict[int, int]] = {}  # hand -> the stacks hand_ended told
        self.action: dict[str, Any] | None = None  # (the last, sent again when refused)
        self.again = 0.0
        self.out = False  # (busted, or the game over: the seat is nobody's now)
        self.seat: int | None = None

    def pump(self, rng: random.Random) -> None:
        """Reads what came and answers its turns (check or call, now and then a
        raise), without waiting for the replies; an act the server could not
        store then, or took too fast, is sent again a little later, as a
        player would."""
        try:
            messages = self.client.poll(0)
        except ConnectionError:
            return
        for message in messages:
            event = message.get("event")
            if event == "hand_ended" and message["table"] == self.table:
                stacks = dict(zip(message["seats"], message["stacks"], strict=True))
                self.told[message["hand"]] = stacks
                self.action = None
                self.out = self.out or stacks.get(self.seat) == 0
            elif event == "seated":
                self.seat = message["seat"]
            elif event == "turn":
                legal = message["view"]["legal"]
                self.action = {"kind": "check" if legal["check"] else "call"}
                if legal["wager"] is not None and rng.random() < 0.1:
                    self.action = {"kind": legal["wager"], "to": legal["min_to"]}
                self._act()
            elif event in ("table_finished", "table_closed"):
                self.out = True
            elif message.get("error", {}).get("code") in ("store_unavailable", "rate_limited"):
                self.again = time.monotonic() + 0.3
        if self.again and time.monotonic() > self.again:
            self.again = 0.0
            self._act()

    def _act(self) -> None:
        if self.action is not None:
            with contextlib.suppress(ConnectionError):
                self.client.send("act", table=self.table, action=self.action)

    def come_back(self, server: Server) -> None:
        """A new connection to the server, taking the seat up with the token
        (a seat busted is not: its token no longer gives it)."""
        with contextlib.suppress(OSError):
            self.client.close()
        if self.out:
            return
        self.client = server.client(self.name)
        try:
            self.token = self.client.request("resume", token=self.token)["token"]
        except ProtocolError as exc:  # (busted before the kill: not a seat now)
            assert exc.code == "token_expired", exc
            self.out = True


def _stored(path: Path) -> dict[tuple[str, int], dict[str, Any]]:
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT table_id, number, result FROM hands").fetchall()
    return {(table, number): json.loads(result) for table, number, result in rows}


def _played(path: Path) -> dict[str, int]:
    counts: dict[str, int] = {}
    for table, _ in _stored(path):
        counts[table] = counts.get(table, 0) + 1
    return counts


def _run(seats: list[Seat], rng: random.Random, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for seat in seats:
            seat.pump(rng)
        time.sleep(0.002)


def _pests(server: Server, code: str) -> list[socket.socket]:
    """A client that watches a table and never reads, and one that floods
    lines (both raw sockets: nothing of them waits on the test)."""
    silent = socket.create_connection(("127.0.0.1", server.port))
    silent.sendall(b'{"type":"hello","version":1}\n{"type":"watch","code":"' + code.encode()
                   + b'"}\n')  # fmt: skip
    flood = socket.create_connection(("127.0.0.1", server.port))
    flood.setblocking(False)
    with contextlib.suppress(OSError):
        flood.send(b'{"type":"hello","version":1}\n' + b'{"type":"list_tables"}\n' * 2000)
    return [silent, flood]


def _disk(server: Server, workers: int, limit: int) -> None:
    """Every file the server's processes write may grow to ``limit`` bytes."""
    assert server.process is not None
    pids = server.workers() if workers > 1 else [server.process.pid]
    for pid in pids:
        resource.prlimit(pid, resource.RLIMIT_FSIZE, (limit, resource.RLIM_INFINITY))


@pytest.mark.skipif(not hasattr(resource, "prlimit"), reason="needs prlimit (Linux)")
@pytest.mark.parametrize("workers", [1, 2])
def test_the_room_server_keeps_every_told_hand_and_every_chip_through_faults(
    tmp_path: Path, workers: int
) -> None:
    if workers > 1 and supported() is not None:
        pytest.skip(str(supported()))
    rounds = int(os.environ.get("HOLDEM_SOAK_ROUNDS", "3"))
    rng = random.Random(28)
    data = tmp_path / "data"
    path = data / "room.sqlite"
    options = ("--workers", str(workers))
    server = Server(data, *options).start()
    seats: list[Seat] = []
    pests: list[socket.socket] = []
    try:
        for n in range(TABLES):
            first = server.client(f"A{n}")
            made = first.request("create_table", name=f"A{n}", stack=STACK, seats=4, pace=0,
                                 pause=0, schedule="@50h, 10/20, 20/40, 30/60")  # fmt: skip
            table = made["table"]
            seats.append(Seat(f"A{n}", table, made["token"], first))
            for k in range(1, PEOPLE):
                other = server.client(f"P{n}{k}")
                joined = other.request("join", code=made["code"], name=f"P{n}{k}")
                seats.append(Seat(f"P{n}{k}", table, joined["token"], other))
            first.request("add_bots", table=table, level="calling-station")
            first.request("start", table=table)
            if n == 0:
                code = made["code"]
                pests = _pests(server, code)
        for _ in range(rounds):
            # a calm spell: every table plays on, whatever the pests do
            before = _played(path)
            _run(seats, rng, 3)
            after = _played(path)
            playing = {s.table for s in seats if not s.out}
            assert all(after.get(t, 0) > before.get(t, 0) for t in playing), (before, after)
            # the disk fills, then empties again
            _disk(server, workers, 1)  # (no write to a file of the data goes through)
            _run(seats, rng, 2)
            assert "every table waits" in server.said("cannot store", seconds=5)
            _disk(server, workers, resource.RLIM_INFINITY)
            _run(seats, rng, 2)
            server.said("storing again", seconds=5)
            # killed mid-hand, and started again: everyone comes back with the token
            server.kill()
            for pest in pests:
                pest.close()
            server = Server(data, *options).start()
            for seat in seats:
                seat.come_back(server)
            pests = _pests(server, code)
        _run(seats, rng, 2)
    finally:
        for pest in pests:
            pest.close()
        server.stop()
    stored = _stored(path)
    # every hand a player was told ended is stored, with the stacks told
    told = 0
    for seat in seats:
        for hand, stacks in seat.told.items():
            record = stored.get((seat.table, hand))
            assert record is not None, (seat.table, hand)
            after = dict(zip(record["seats"], record["chips_after"], strict=True))
            assert after == stacks, (seat.table, hand)
            told += 1
    assert told > TABLES * PEOPLE * rounds
    # the chips of every table conserved, each hand beginning where the last ended
    for n in range(1, TABLES + 1):
        hands = sorted((number, r) for (table, number), r in stored.items() if table == f"t{n}")
        assert [number for number, _ in hands] == list(range(1, len(hands) + 1))
        chips = dict.fromkeys(range(PEOPLE + 2), STACK)
        for number, record in hands:
            assert dict(zip(record["seats"], record["chips_before"], strict=True)) == {
                seat: chips[seat] for seat in record["seats"]
            }, (n, number)
            chips.update(zip(record["seats"], record["chips_after"], strict=True))
            assert sum(chips.values()) == (PEOPLE + 2) * STACK
