"""Helpers of the room tests: clients that play scripted moves, the check
that a client's stream never holds a card it should not see, ``holdem
serve`` in its own process, and a room served in a thread of the test's."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import re
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from textual.widgets import Input

from holdem.clients import RoomClient, greet, lobby_felt
from holdem.clients.fullscreen import ScreenRoomGame, TableApp
from holdem.errors import ProtocolError
from holdem.rooms import Room, Store
from holdem.rooms.server import RoomServer
from holdem.rooms.store import SCHEMA


def older_schema(version: int) -> str:
    """The room file's :data:`~holdem.rooms.store.SCHEMA` as a server of an
    older schema ``version`` wrote it (1: no buy-ins; 3: no chat, and no
    hands kept with the seats' tokens; 4: no resets of disconnect protections)."""
    text = SCHEMA
    if version < 5:
        text = text[: text.index("CREATE TABLE IF NOT EXISTS protection_resets")]
    if version < 4:
        text = text.replace("    first_hand INTEGER,\n    PRIMARY KEY", "    PRIMARY KEY")
        text = text.replace(",\n    name TEXT,\n    first_hand INTEGER,\n    last_hand INTEGER\n",
                            "\n")  # fmt: skip
        text = text[: text.index("CREATE TABLE IF NOT EXISTS chat")]
    if version < 2:
        text = text.replace("    buy_in INTEGER,\n    added INTEGER NOT NULL DEFAULT 0,\n", "")
    assert text != SCHEMA
    return text


#: A quick freezeout: blinds that rise fast, small stacks, no pauses.
FAST = {"pace": 0, "pause": 0, "stack": 400, "schedule": "@5h, 10/20, 20/40, 40/80"}


class Player:
    """A connection to an in-process room, with everything it was sent."""

    def __init__(self, room: Room, address: str = "127.0.0.1") -> None:
        self.room = room
        self.conn = room.connect(address)
        self.stream: list[dict[str, Any]] = []
        self._next = 1
        self.ask("hello", version=1)

    def send(self, line: str) -> list[dict[str, Any]]:
        """The messages of this player's own that a line caused (the rest go
        to the streams of the players they are for)."""
        return self._route(self.room.handle(self.conn, line))

    def take(self, messages: list[dict[str, Any]]) -> None:
        self.stream.extend(m for m in messages if "event" in m)

    def _route(self, out: list[tuple[int, str]]) -> list[dict[str, Any]]:
        mine = []
        for conn, text in out:
            message = json.loads(text)
            if conn == self.conn:
                mine.append(message)
            owner = next((p for p in PLAYERS.get(id(self.room), ()) if p.conn == conn), None)
            if owner is not None:
                owner.take([message])
        return mine

    def ask(self, kind: str, **fields: Any) -> dict[str, Any]:
        """The reply (``result`` or ``error``) to a request."""
        ident = self._next
        self._next += 1
        mine = self.send(json.dumps({"id": ident, "type": kind, **fields}))
        reply = next((m for m in mine if "event" not in m and m.get("id") == ident), None)
        assert reply is not None, mine
        return reply

    def result(self, kind: str, **fields: Any) -> dict[str, Any]:
        reply = self.ask(kind, **fields)
        assert "result" in reply, reply
        return reply["result"]  # type: ignore[no-any-return]

    def turns(self) -> Iterator[dict[str, Any]]:
        """The turns not answered yet."""
        for m in self.stream:
            if m.get("event") == "turn" and not m.get("_answered"):
                yield m


#: The players of each room (by the room's id), so that what one request
#: causes reaches every player's stream.
PLAYERS: dict[int, list[Player]] = {}


def players(room: Room, count: int, address: str = "127.0.0.1") -> list[Player]:
    made = [Player(room, address) for _ in range(count)]
    PLAYERS.setdefault(id(room), []).extend(made)
    return made


def move(turn: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A legal decision for a turn: check, call, fold, a raise now and then."""
    legal = turn["view"]["legal"]
    roll = rng.random()
    if legal["wager"] is not None and roll < 0.15:
        return {"kind": legal["wager"], "to": legal["min_to"]}
    if legal["check"]:
        return {"kind": "check"}
    if legal["call"] is not None and roll < 0.75:
        return {"kind": "call"}
    return {"kind": "fold"}


def play_out(
    people: list[Player], rng: random.Random | None = None, *, until: Callable[[], bool],
    most: int = 20000, decide: Callable[[Player, dict[str, Any]], dict[str, Any]] | None = None,
) -> int:  # fmt: skip
    """Answers every turn the players are given until ``until()`` (each with
    ``decide(player, turn)``, else :func:`move` by ``rng``); the moves made."""
    if decide is None:
        assert rng is not None, "a decide function, or an rng for move()"
        decide = lambda player, turn: move(turn, rng)  # noqa: E731
    made = 0
    while not until() and made < most:
        pending = [(p, t) for p in people for t in p.turns()]
        if not pending:
            break
        for player, turn in pending:
            turn["_answered"] = True
            reply = player.ask("act", table=turn["table"], action=decide(player, turn))
            assert "result" in reply or reply["error"]["code"] in (
                "not_your_turn", "table_stopped"), reply  # fmt: skip
            made += 1
    return made


def cards_in(value: Any) -> Iterator[str]:
    """Every card a message holds (in ``cards``, ``hole_cards``, ``board``)."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key in ("cards", "hole_cards", "board") and isinstance(item, list):
                yield from (c for c in item if isinstance(c, str))
            else:
                yield from cards_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from cards_in(item)


def allowed_cards(record: dict[str, Any], seat: int | None, *, over: bool = False) -> set[str]:
    """What a seat (None: a spectator) may see of a stored hand: its own hole
    cards, the board and the cards shown; ``over`` (its history, once it is
    over), when dealt in: the hands mucked at its showdown too (R14)."""
    seats = record["config"].get("seats") or list(range(len(record["config"]["stacks"])))
    out = set(record["board"])
    for action in record["log"]:
        if action["kind"] == "show":
            out.update(action.get("cards", ()))
    if seat is not None and seat in seats:
        out.update(record["hole_cards"][seats.index(seat)])
        if over:
            for action in record["log"]:
                if action["kind"] == "muck" and action.get("seat") in seats:
                    out.update(record["hole_cards"][seats.index(action["seat"])])
    return out


def check_stream(store: Store, table: str, stream: list[dict[str, Any]], seat: int | None) -> int:
    """Asserts that no message of a stream holds a card its reader may not
    see; the messages about stored hands checked."""
    checked = 0
    for message in stream:
        number = message.get("hand")
        if not isinstance(number, int) or message.get("table") != table:
            continue
        record = store.hand(table, number)
        if record is None:
            continue  # (the hand not finished, not stored)
        leaked = set(cards_in(message)) - allowed_cards(record, seat)
        assert not leaked, (message, leaked)
        checked += 1
    return checked


class Server:
    """``holdem serve`` on a free loopback port, its data in ``data``."""

    def __init__(self, data: Path, *options: str) -> None:
        self.data = data
        self.options = options
        self.process: subprocess.Popen[str] | None = None
        self.port = 0
        self.page = ""  # (with --web: where the page is, http://127.0.0.1:PORT)
        self._said = b""

    def start(self) -> Server:
        command = [sys.executable, "-m", "holdem", "serve", "--listen", "127.0.0.1:0",
                   "--data", str(self.data), *self.options]  # fmt: skip
        self.process = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
        line = self.said(r"listening on|error", seconds=60)
        found = re.search(r"listening on 127\.0\.0\.1:(\d+)", line)
        assert found, line
        self.port = int(found.group(1))
        if "--web" in self.options:
            page = re.search(r"the page at (\S+)/ ", self.said("the page at"))
            assert page, "no page"
            self.page = page.group(1)
        return self

    def client(self, name: str = "") -> RoomClient:
        return RoomClient("127.0.0.1", self.port, timeout=20, name=name)

    def kill(self) -> None:
        assert self.process is not None
        self.process.kill()  # (SIGKILL: nothing is flushed or closed)
        self.process.wait()

    def workers(self) -> list[int]:
        """The worker processes of a ``--workers`` server (Linux), by pid."""
        assert self.process is not None
        pid = self.process.pid
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        return sorted(int(child) for child in children)

    def said(self, pattern: str, seconds: float = 20) -> str:
        """The next line the server writes on stderr that holds ``pattern``."""
        assert self.process is not None and self.process.stderr is not None
        fd = self.process.stderr.fileno()  # (read past the text buffer: nothing waits in it)
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            while b"\n" in self._said:
                line, _, self._said = self._said.partition(b"\n")
                if re.search(pattern, line.decode()):
                    return line.decode()
            if select.select([fd], [], [], 0.1)[0]:
                self._said += os.read(fd, 4096)
        raise AssertionError(f"the server did not say {pattern!r}")

    def stop(self) -> int:
        assert self.process is not None
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        return self.process.returncode


def play(clients: dict[str, RoomClient], streams: dict[str, list[dict[str, Any]]],
         rng: random.Random, *, until: Any, seconds: float = 60,
         passive: bool = False) -> None:  # fmt: skip
    """Every client answers its turns until ``until()`` (``passive``: checking
    or calling, so that nobody busts)."""
    deadline = time.monotonic() + seconds
    while not until():
        assert time.monotonic() < deadline, "the game did not get there in time"
        for name, client in clients.items():
            for message in client.poll(0.005):
                streams[name].append(message)
                if message.get("event") == "turn":
                    decision = move(message, rng)
                    if passive:
                        legal = message["view"]["legal"]
                        decision = {"kind": "check" if legal["check"] else "call"}
                    try:
                        client.request("act", table=message["table"], action=decision)
                    except ProtocolError as exc:
                        assert exc.code == "not_your_turn", exc
            streams[name].extend(client.events)
            client.events.clear()


@contextlib.contextmanager
def served(room: Room, web: Any = None) -> Iterator[int]:
    """``room`` served on a free loopback port by a :class:`RoomServer` in a
    thread of its own (with the room's limits and clock, which a test sets):
    the port.  ``web``: its page and WebSocket too (a ``holdem.rooms.site.Site``;
    ``room.links`` says where).  Stopped, and the thread ended, at the end."""
    ready = threading.Event()
    held: dict[str, Any] = {}

    async def main() -> None:
        server = RoomServer(room)
        try:
            held["port"] = await server.start("127.0.0.1", 0, web=web)
            held["loop"], held["stop"] = asyncio.get_running_loop(), asyncio.Event()
        finally:
            ready.set()
        await server.serve_until(held["stop"])

    thread = threading.Thread(target=asyncio.run, args=(main(),))
    thread.start()
    ready.wait(30)
    try:
        assert "stop" in held, "the room could not be served"
        yield held["port"]
    finally:
        if "stop" in held:
            held["loop"].call_soon_threadsafe(held["stop"].set)
        thread.join(30)


class Joiner:
    """``holdem join`` (or another client's ``command``: ``watch``) in its own
    process, its input a pipe kept open (or a pseudo-terminal: ``tty``), all
    it writes kept in :attr:`seen`."""

    def __init__(self, args: list[str], config: Path, *, tty: bool = False,
                 command: str = "join") -> None:  # fmt: skip
        env = dict(os.environ, XDG_CONFIG_HOME=str(config), TERM="dumb")
        command_line = [sys.executable, "-m", "holdem", command, *args, "--no-color"]
        if tty:
            command_line.append("--plain")  # (line mode: the full screen is tested apart)
        if tty:
            self.fd, side = os.openpty()
            self.process = subprocess.Popen(command_line, stdin=side, stdout=side, stderr=side,
                                            env=env, close_fds=True)  # fmt: skip
            os.close(side)
            self.write_fd = self.fd
        else:
            self.process = subprocess.Popen(command_line, stdin=subprocess.PIPE,
                                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                            env=env)  # fmt: skip
            assert self.process.stdout is not None and self.process.stdin is not None
            self.fd = self.process.stdout.fileno()
            self.write_fd = self.process.stdin.fileno()
        self.seen = ""

    def type(self, text: str) -> None:
        os.write(self.write_fd, text.encode())

    def read(self, seconds: float = 0.1) -> bool:
        """Reads what is there (False: the output ended)."""
        if select.select([self.fd], [], [], seconds)[0]:
            try:
                data = os.read(self.fd, 65536)
            except OSError:  # (a pseudo-terminal whose other side closed)
                data = b""
            if not data:
                return False
            self.seen += data.decode("utf-8", "replace").replace("\r", "")
        return True

    def wait_for(self, pattern: str, seconds: float = 30) -> re.Match[str]:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            found = re.search(pattern, self.seen)
            if found:
                return found
            if not self.read():
                break
        found = re.search(pattern, self.seen)
        assert found, f"not said: {pattern!r} in\n{self.seen[-2000:]}"
        return found

    def exit_status(self, seconds: float = 30) -> int:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and self.read():
            pass
        return self.process.wait(timeout=max(1.0, deadline - time.monotonic()))

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        for fd in {self.fd, self.write_fd}:
            with contextlib.suppress(OSError):
                os.close(fd)


async def typed(pilot: Any, app: TableApp, line: str) -> None:
    """Types ``line`` in the full screen's field and sends it (Enter)."""
    field = app.part("#bet", Input)
    field.focus()  # (after the start the keys are moves: the field is clicked first)
    await pilot.pause()  # (focused before the Enter: else Enter only goes to the field)
    field.value = line
    await pilot.press("enter")


def joined_app(client: RoomClient, address: str, playing: type[ScreenRoomGame] = ScreenRoomGame,
               **settings: Any) -> tuple[TableApp, ScreenRoomGame]:  # fmt: skip
    """``holdem join --create`` on the full screen, as the command wires it
    (``settings``: the table's, past a quick one's of 4 seats; ``playing``:
    the class of the game, a test's that checks each event)."""
    asked = {"seats": 4, "pace": 0.5, "pause": 0, "timer": {"seconds": 120}, **settings}
    made = client.request("create_table", name="Ann", **asked)
    made["name"], made["creator"] = "Ann", True
    app = TableApp(made["seat"], seats=made["state"]["max_seats"], quiet=True)
    screen = playing(client, made, app.teller, "")
    greet(screen, made, address, True, "holdem join ...")
    screen.show(app, made["state"], lobby_felt(made, address))
    return app, screen
