"""``holdem serve --web``: the page and its WebSocket, a connection of the
room like a TCP one (the same replies, errors and limits), checked with a
WebSocket client of aiohttp's on loopback (the page itself: test_web_*)."""

from __future__ import annotations

import asyncio
import base64
import dataclasses
import json
import os
import random
import re
import socket
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from rooms_helpers import Joiner, Server, cards_in, joined_app, move, served

from holdem.rooms import Limits, Room
from holdem.rooms.site import Site, client_address
from holdem.rooms.web import frame

aiohttp = pytest.importorskip("aiohttp")


@pytest.fixture
def page(tmp_path: Path) -> Path:
    """A page's folder: its index and a script."""
    folder = tmp_path / "page"
    folder.mkdir()
    (folder / "index.html").write_text("<!doctype html><title>holdem</title><p>the table</p>")
    (folder / "app.js").write_text("var Holdem = {};\n")
    return folder


class Page:
    """A WebSocket of the room's, as a page holds it: requests with ids, the
    events kept."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.events: list[dict[str, Any]] = []
        self._id = 0

    async def ask(self, kind: str, **fields: Any) -> dict[str, Any]:
        self._id += 1
        await self.ws.send_str(json.dumps({"id": self._id, "type": kind, **fields}))
        while True:
            message = await self.next()
            if message.get("id") == self._id:
                return message

    async def result(self, kind: str, **fields: Any) -> dict[str, Any]:
        reply = await self.ask(kind, **fields)
        assert "result" in reply, reply
        result: dict[str, Any] = reply["result"]
        return result

    async def next(self, seconds: float = 20) -> dict[str, Any]:
        message = await asyncio.wait_for(self.ws.receive(), seconds)
        assert message.type is aiohttp.WSMsgType.TEXT, message
        parsed: dict[str, Any] = json.loads(message.data)
        if "event" in parsed:
            self.events.append(parsed)
        return parsed


@asynccontextmanager
async def pages(base: str) -> AsyncIterator[Any]:
    """Opens pages' WebSockets (``await open_page()``) on a session closed at the end."""
    async with aiohttp.ClientSession() as session:

        async def open_page(hello: bool = True, **options: Any) -> Page:
            ws = await session.ws_connect(base + "/ws", **options)
            made = Page(ws)
            if hello:
                await made.result("hello", version=1, client="web")
            return made

        open_page.session = session  # type: ignore[attr-defined]
        yield open_page


def test_the_page_is_served_on_every_route_with_its_security_headers(page: Path) -> None:
    room = Room(seed=1)
    with served(room, Site("127.0.0.1", 0, page)):
        base = room.links
        assert base is not None and base.startswith("http://127.0.0.1:")

        async def main() -> None:
            async with aiohttp.ClientSession() as session:
                for path in ("/", "/t/7KQM-X2TP", "/w/7KQM-X2TP"):
                    async with session.get(base + path) as response:
                        assert response.status == 200
                        assert "the table" in await response.text()
                        policy = response.headers["Content-Security-Policy"]
                        assert "script-src 'self'" in policy and "default-src 'none'" in policy
                        assert response.headers["X-Content-Type-Options"] == "nosniff"
                async with session.get(base + "/static/app.js") as response:
                    assert response.status == 200
                    assert response.content_type == "application/javascript"
                for path in ("/static/../../etc/passwd", "/static/%2e%2e/%2e%2e/etc/passwd",
                             "/nothing", "/t/"):  # fmt: skip
                    async with session.get(base + path) as response:
                        assert response.status in (403, 404), path

        asyncio.run(main())


def test_a_freezeout_plays_over_websockets_and_each_page_sees_only_its_own_cards(
    page: Path,
) -> None:
    room = Room(seed=3)
    with served(room, Site("127.0.0.1", 0, page)):
        base = room.links
        assert base is not None

        async def main() -> None:
            async with pages(base) as open_page:
                ann, ben, eve = await open_page(), await open_page(), await open_page()
                made = await ann.result("create_table", name="Ann", stack=300, pace=0, pause=0,
                                        schedule="50/100")  # fmt: skip
                table, code = made["table"], made["code"]
                assert made["link"] == f"{base}/t/{code}"
                assert made["watch_link"] == f"{base}/w/{code}"
                joined = await ben.result("join", code=code, name="Ben")
                assert joined["seat"] == 1
                await eve.result("watch", code=code)
                await ann.result("add_bots", table=table, level="easy", count=2)
                await ann.result("start", table=table)
                rng = random.Random(5)
                finished = False
                deadline = time.monotonic() + 120
                while not finished and time.monotonic() < deadline:
                    for player in (ann, ben):
                        try:
                            message = await player.next(0.05)
                        except TimeoutError:
                            continue
                        if message.get("event") == "turn":
                            await player.ws.send_str(json.dumps({
                                "type": "act", "table": table,
                                "action": move(message, rng)}))  # fmt: skip
                        finished = finished or message.get("event") == "table_finished"
                assert finished, "the freezeout did not end"
                while True:  # (the spectator's events, to the end)
                    if (await eve.next()).get("event") == "table_finished":
                        break
                for who, seat in ((ann, 0), (ben, 1), (eve, None)):
                    assert _seen_only_what_it_may(who.events, seat) >= 5
                assert not any(e.get("event") == "hole_cards" for e in eve.events)

        asyncio.run(main())


def _seen_only_what_it_may(events: list[dict[str, Any]], seat: int | None) -> int:
    """Asserts that a page was told no card but its seat's own, the board's and
    those shown, hand by hand (each hand's are known once it ends: what the
    stream told of it is checked then); the hands checked."""
    hands: dict[int, list[dict[str, Any]]] = {}
    checked = 0
    for event in events:
        number = event.get("hand")
        if not isinstance(number, int):
            continue
        hands.setdefault(number, []).append(event)
        if event.get("event") != "hand_ended":
            continue
        told = hands.pop(number)
        allowed: set[str] = set()
        for each in told:
            record = each.get("action") or {}
            if each.get("event") == "hole_cards":
                assert each["seat"] == seat, each
                allowed.update(each["cards"])
            elif record.get("kind") in ("deal_board", "show"):
                allowed.update(record.get("cards", ()))
        leaked = set(cards_in(told)) - allowed
        assert not leaked, (number, leaked)
        checked += 1
    return checked


def test_a_page_of_another_origin_may_not_open_the_websocket(page: Path) -> None:
    room = Room(seed=1)
    site = Site("127.0.0.1", 0, page, origins=("https://friends.example.org",))
    with served(room, site):
        base = room.links
        assert base is not None

        async def main() -> None:
            async with pages(base) as open_page:
                with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                    await open_page(origin="http://evil.example")
                assert refused.value.status == 403
                async with open_page.session.get(base + "/ws", headers={
                        "Origin": "http://evil.example", "Upgrade": "websocket",
                        "Connection": "Upgrade", "Sec-WebSocket-Version": "13",
                        "Sec-WebSocket-Key": base64.b64encode(os.urandom(16)).decode()
                }) as response:  # fmt: skip
                    assert response.status == 403
                    said = await response.text()
                    assert "a page of http://evil.example may not open" in said
                    assert "--web-origin" in said
                await open_page(origin=base)  # (its own)
                await open_page(origin="https://friends.example.org")  # (allowed)
                await open_page()  # (not a browser: no origin)

        asyncio.run(main())


def test_malformed_frames_get_the_protocols_errors_and_the_server_goes_on(page: Path) -> None:
    room = Room(seed=1, limits=Limits(line_bytes=1024))
    with served(room, Site("127.0.0.1", 0, page)):
        base = room.links
        assert base is not None

        async def main() -> None:
            async with pages(base) as open_page:
                one = await open_page()
                await one.ws.send_bytes(b'{"type": "list_tables"}')
                error = (await one.next())["error"]
                assert error["code"] == "malformed_json" and "binary frame" in error["message"]
                await one.ws.send_str("not json")
                assert (await one.next())["error"]["code"] == "malformed_json"
                await one.ws.send_str(json.dumps({"type": "list_tables", "x": "y" * 2000}))
                error = (await one.next())["error"]
                assert error == {"code": "line_too_long", "field": None,
                                 "message": "a line longer than 1,024 bytes"}  # fmt: skip
                # (a JSON text's line breaks are whitespace: one frame, one message)
                assert "result" in await one.ask("list_tables\n".strip(), **{})
                await one.ws.send_str('{"id": 9,\n "type":\n "list_tables"}')
                assert (await one.next())["id"] == 9
                await one.ws.send_str("z" * 5000)  # (past four times the longest line)
                closing = await asyncio.wait_for(one.ws.receive(), 10)
                assert closing.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
                assert one.ws.close_code == 1009
                other = await open_page()  # (the server serves on)
                assert (await other.result("list_tables"))["tables"] == []

        asyncio.run(main())


def test_the_servers_limits_hold_for_websockets(page: Path) -> None:
    limits = Limits(connections_per_address=2, lines_per_second=5, burst=5, hello_seconds=0.5)
    room = Room(seed=1, limits=limits)
    with served(room, Site("127.0.0.1", 0, page)):
        base = room.links
        assert base is not None

        async def main() -> None:
            async with pages(base) as open_page:
                one, _two = await open_page(), await open_page(hello=False)
                third = await open_page(hello=False)
                refused = json.loads((await third.ws.receive()).data)
                assert refused["error"]["code"] == "too_many_connections"
                assert "from one address" in refused["error"]["message"]
                assert (await third.ws.receive()).type in (aiohttp.WSMsgType.CLOSE,
                                                           aiohttp.WSMsgType.CLOSED)  # fmt: skip
                codes = []
                for _ in range(12):
                    await one.ws.send_str(json.dumps({"type": "list_tables"}))
                for _ in range(12):
                    reply = await one.next()
                    codes.append(reply.get("error", {}).get("code"))
                assert codes.count("rate_limited") >= 5, codes
                # (the one that said no hello is closed, told why)
                said = json.loads((await asyncio.wait_for(_two.ws.receive(), 10)).data)
                assert said["error"]["code"] == "idle"

        asyncio.run(main())


def test_behind_a_trusted_proxy_the_limits_count_each_forwarded_address(page: Path) -> None:
    """``--web-proxy``: a WebSocket from a trusted proxy counts as the address
    its ``X-Forwarded-For`` ends with, so two players behind the proxy are two
    addresses, while a page that writes the header itself, from an address
    that is not a proxy's, is counted by its own address."""
    limits = Limits(connections_per_address=1)
    for proxies, second_refused in ((("127.0.0.0/8",), False), ((), True)):
        room = Room(seed=1, limits=limits)
        with served(room, Site("127.0.0.1", 0, page, proxies=proxies)):
            base = room.links
            assert base is not None

            async def main(base: str, second_refused: bool) -> None:
                async with pages(base) as open_page:
                    ann = {"X-Forwarded-For": "203.0.113.7"}
                    first = await open_page(headers=ann)
                    # (a made-up hop before the proxy's own: the proxy's is the one counted)
                    ben = {"X-Forwarded-For": "203.0.113.7, 198.51.100.4"}
                    second = await open_page(hello=False, headers=ben)
                    await second.ws.send_str(json.dumps({"id": 1, "type": "hello", "version": 1}))
                    said = json.loads((await asyncio.wait_for(second.ws.receive(), 10)).data)
                    refused = said.get("error", {}).get("code") == "too_many_connections"
                    assert refused or "result" in said, said
                    assert refused is second_refused, said
                    if not refused:  # (a third from Ann's address: one too many)
                        third = await open_page(hello=False, headers=ann)
                        said = json.loads((await asyncio.wait_for(third.ws.receive(), 10)).data)
                        assert said["error"]["code"] == "too_many_connections"
                    assert not first.ws.closed

            asyncio.run(main(base, second_refused))


@pytest.mark.parametrize(
    ("peer", "forwarded", "proxies", "client"),
    [
        ("10.0.0.2", "203.0.113.7", ("10.0.0.0/8",), "203.0.113.7"),
        ("10.0.0.2", "1.1.1.1, 203.0.113.7, 10.0.0.9", ("10.0.0.0/8",), "203.0.113.7"),
        ("10.0.0.2", "203.0.113.7:4711", ("10.0.0.2",), "203.0.113.7"),
        ("10.0.0.2", "[2001:db8::1]:4711", ("10.0.0.2",), "2001:db8::1"),
        ("::ffff:10.0.0.2", "203.0.113.7", ("10.0.0.0/8",), "203.0.113.7"),
        ("10.0.0.2", "unknown, 203.0.113.7", ("10.0.0.0/8",), "203.0.113.7"),
        ("10.0.0.2", "203.0.113.7, unknown", ("10.0.0.0/8",), "10.0.0.2"),
        ("10.0.0.2", None, ("10.0.0.0/8",), "10.0.0.2"),
        ("10.0.0.2", "10.0.0.3", ("10.0.0.0/8",), "10.0.0.2"),
        ("198.51.100.4", "203.0.113.7", ("10.0.0.0/8",), "198.51.100.4"),
        ("10.0.0.2", "203.0.113.7", (), "10.0.0.2"),
    ],
)
def test_the_address_a_connection_counts_as(
    peer: str, forwarded: str | None, proxies: tuple[str, ...], client: str
) -> None:
    assert client_address(peer, forwarded, proxies) == client


def test_holdem_serve_web_proxy_is_checked() -> None:
    from click.testing import CliRunner

    from holdem.cli.main import main

    done = CliRunner().invoke(main, ["serve", "--web", "127.0.0.1:0", "--web-proxy", "10.0.0.300"])
    assert done.exit_code == 2 and "'10.0.0.300': an address or a network" in done.output
    done = CliRunner().invoke(main, ["serve", "--web-proxy", "10.0.0.1"])
    assert done.exit_code == 2 and "go with --web" in done.output


def _handshake(port: int) -> socket.socket:
    """A WebSocket opened by hand that will never read (its receive buffer small)."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall((f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                  f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                  "Sec-WebSocket-Version: 13\r\n\r\n").encode())  # fmt: skip
    answer = b""
    while b"\r\n\r\n" not in answer:
        answer += sock.recv(1)
    assert answer.startswith(b"HTTP/1.1 101"), answer
    return sock


def _frame(text: str) -> bytes:
    """A client's text frame (masked, as a browser sends it)."""
    data = text.encode()
    mask = os.urandom(4)
    head = bytes([0x81, 0x80 | len(data)]) if len(data) < 126 else bytes(
        [0x81, 0x80 | 126]) + len(data).to_bytes(2, "big")  # fmt: skip
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data))


def test_a_page_that_does_not_read_is_closed_and_its_table_plays_on(page: Path) -> None:
    room = Room(seed=2, limits=dataclasses.replace(Limits(), queue_bytes=16_384))
    with served(room, Site("127.0.0.1", 0, page)):
        base = room.links
        assert base is not None
        port = int(base.rsplit(":", 1)[1])

        async def main() -> None:
            async with pages(base) as open_page:
                ann = await open_page()
                timer = {"seconds": 0.05, "time_bank": 0}
                made = await ann.result("create_table", name="Ann", pace=0, pause=0, seats=10,
                                        timer=timer)  # fmt: skip
                await ann.result("add_bots", table=made["table"], level="easy")
                deaf = await asyncio.to_thread(_handshake, port)
                deaf.sendall(_frame(json.dumps({"type": "hello", "version": 1})))
                deaf.sendall(_frame(json.dumps({"type": "watch", "code": made["code"]})))
                await ann.result("start", table=made["table"])
                await ann.ws.close()  # (the timer plays her seat, the bots theirs: fast)
                deaf.setblocking(False)
                deadline = time.monotonic() + 60
                while time.monotonic() < deadline:
                    await asyncio.sleep(0.2)
                    if not any(c.watching for c in room._connections.values()):
                        break
                closed = not any(c.watching for c in room._connections.values())
                assert closed, "the page that does not read was not closed"
                deaf.close()
                ben = await open_page()
                await ben.result("watch", code=made["code"])
                played = (await ben.result("state", table=made["table"]))["hands_played"]
                while time.monotonic() < deadline:
                    state = await ben.result("state", table=made["table"])
                    if state["hands_played"] > played or state["status"] == "finished":
                        break
                    await asyncio.sleep(0.1)
                assert state["hands_played"] > played or state["status"] == "finished"

        asyncio.run(main())


def test_workers_carry_a_websocket_to_the_worker_whose_table_it_names(tmp_path: Path) -> None:
    """With ``--workers 2`` a page's WebSocket lands at either worker: one that
    names a table of the other is carried there (a socket pair), and plays
    as if it had landed there: replies, events, its turns and its moves."""
    server = Server(tmp_path / "room", "--workers", "2", "--web", "127.0.0.1:0").start()
    try:
        base = server.page

        async def hand_played(player: Page, table: str) -> None:
            while True:
                message = await player.next()
                if message.get("event") == "turn":
                    action = move(message, random.Random(1))
                    await player.ws.send_str(json.dumps({"type": "act", "table": table,
                                                         "action": action}))  # fmt: skip
                if message.get("event") == "hand_ended":
                    return

        async def main() -> None:
            async with pages(base) as open_page:
                tables = set()
                for _ in range(6):  # (the joiners land at either worker: some cross)
                    ann, ben = await open_page(), await open_page()
                    made = await ann.result("create_table", name="Ann", pace=0, pause=0)
                    table = made["table"]
                    tables.add(int(table[1:]) % 2)
                    assert (await ben.result("join", code=made["code"], name="Ben"))["seat"] == 1
                    said = await ben.result("chat", table=table, text="gl")
                    assert said["name"] == "Ben"
                    while (await ann.next()).get("event") != "chat":
                        pass
                    await ann.result("add_bots", table=table, level="easy", count=1)
                    await ann.result("start", table=table)
                    await asyncio.gather(hand_played(ann, table), hand_played(ben, table))
                    await ann.ws.close()
                    await ben.ws.close()
                assert tables == {0, 1}  # (both workers made tables)

        asyncio.run(main())
    finally:
        assert server.stop() in (0, 130)


def test_http_connections_past_the_limit_are_told_so_and_closed(page: Path) -> None:
    room = Room(seed=1, limits=Limits(connections=3))
    with served(room, Site("127.0.0.1", 0, page)):
        base = room.links
        assert base is not None
        port = int(base.rsplit(":", 1)[1])
        held = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(3)]
        try:
            deadline = time.monotonic() + 10
            while True:  # (the server takes them up: then the fourth is past the limit)
                with socket.create_connection(("127.0.0.1", port), timeout=10) as extra:
                    extra.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
                    answer = extra.recv(4096)
                if b" 503 " in answer.split(b"\r\n")[0] or time.monotonic() > deadline:
                    break
            assert answer.startswith(b"HTTP/1.1 503"), answer
            assert b"this server takes 3 connections at once" in answer
        finally:
            for sock in held:
                sock.close()

        async def main() -> None:  # (once they are gone, the page is served again)
            async with aiohttp.ClientSession() as session:
                for _ in range(100):
                    async with session.get(base + "/") as response:
                        if response.status == 200:
                            return
                    await asyncio.sleep(0.05)
                raise AssertionError("the page was not served again")

        asyncio.run(main())


def test_a_table_made_by_holdem_join_says_its_links(tmp_path: Path) -> None:
    """``holdem join --create`` on a server with a page prints the table's
    link and its spectators' beside the join code."""
    server = Server(tmp_path / "room", "--web", "127.0.0.1:0").start()
    try:
        ann = Joiner(["--create", "--server", f"127.0.0.1:{server.port}", "--name", "Ann"],
                     tmp_path / "config")  # fmt: skip
        try:
            code = ann.wait_for(r"Join code: (\S+)").group(1)
            link = ann.wait_for(r"Or they open: (\S+) \(spectators: (\S+)\)")
            assert link.group(1) == f"{server.page}/t/{code}"
            assert link.group(2) == f"{server.page}/w/{code}"
        finally:
            ann.stop()
    finally:
        server.stop()


def test_the_full_screen_felt_says_the_links_beside_the_join_code(tmp_path: Path) -> None:
    """``holdem join --create`` on the full screen, on a server with a page:
    until the first hand its felt shows the join code and the two links to
    share, as line mode prints them."""
    from test_fullscreen import SIZE, shown

    server = Server(tmp_path / "room", "--web", "127.0.0.1:0").start()
    try:
        with server.client("holdem join") as client:
            app, _ = joined_app(client, f"127.0.0.1:{server.port}")

            async def run() -> None:
                async with app.run_test(size=SIZE):
                    felt = " ".join(shown(app, "#felt").split())
                    code = re.search(r"Join code (\S+):", felt)
                    assert code, felt
                    links = (f"or they open {server.page}/t/{code.group(1)} (spectators: "
                             f"{server.page}/w/{code.group(1)})")  # fmt: skip
                    assert links in felt

            asyncio.run(run())
    finally:
        server.stop()


def _unframe(data: bytes) -> list[tuple[int, bytes]]:
    """The frames of a server's bytes, read as RFC 6455 (5.2) says: each
    (its first byte, its payload); a server's frames are not masked."""
    found = []
    while data:
        first, second = data[0], data[1]
        assert not second & 0x80, "a server's frame is not masked"
        size, at = second & 0x7F, 2
        if size == 126:
            size, at = int.from_bytes(data[2:4], "big"), 4
        elif size == 127:
            size, at = int.from_bytes(data[2:10], "big"), 10
        found.append((first, data[at : at + size]))
        assert len(data) >= at + size, "a frame cut short"
        data = data[at + size :]
    return found


@pytest.mark.parametrize("size", [0, 1, 125, 126, 127, 65535, 65536, 70000])
def test_a_line_is_one_text_frame_whatever_its_length(size: int) -> None:
    """The server's frames (written many a write, past aiohttp's writer: one
    write a frame cost the server 15 system calls a hand for 1) hold the
    lines whole, final text frames, at each of RFC 6455's three lengths."""
    lines = ["x" * size, '{"event":"turn"}', "y" * (size // 2)]
    read = _unframe(b"".join(frame(line) for line in lines))
    assert [first for first, _ in read] == [0x81] * 3  # (FIN, text)
    assert [payload.decode() for _, payload in read] == lines


def test_a_page_whose_files_cannot_be_read_is_said_so(tmp_path: Path, monkeypatch: Any) -> None:
    """``holdem serve --web`` with the page's files gone (a damaged install)
    names the file and the system's reason (it said "cannot write" a file it
    read), status 2."""
    from click.testing import CliRunner

    import holdem.clients.web
    from holdem.cli.main import main

    monkeypatch.setattr(holdem.clients.web, "PAGE", tmp_path / "gone")
    ran = CliRunner().invoke(main, ["serve", "--data", str(tmp_path / "room"), "--listen",
                                   "127.0.0.1:0", "--web", "127.0.0.1:0"])  # fmt: skip
    assert ran.exit_code == 2
    missing = tmp_path / "gone" / "index.html"
    assert f"holdem serve: error: {missing}: No such file or directory" in ran.output
