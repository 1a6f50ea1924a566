"""A room server's bounds on its connections (issue 28): a connection that
says no hello in time, or that plays and watches nothing and says nothing
for long, is told ``idle`` and closed, so that silent connections cannot
fill the server; one that plays a seat or watches a table may be silent
as long as it likes.  The workers' shared count of wrong guesses is the
one process's."""

from __future__ import annotations

import json
import socket
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rooms_helpers import Player, Server, served

from holdem.clients import RoomClient
from holdem.rooms import Limits, Room
from holdem.rooms.codes import Guesses, SharedGuesses


def _idle(room: Room) -> dict[int, str]:
    """The connections the room would close for their silence now, and why."""
    out = {}
    for conn, line in room.idle():
        message = json.loads(line)
        assert message["id"] is None and message["error"]["code"] == "idle", message
        out[conn] = message["error"]["message"]
    return out


def test_a_connection_is_idle_when_it_holds_nothing_and_says_nothing() -> None:
    now = [0.0]
    limits = Limits(hello_seconds=5, idle_seconds=60, keep_finished=30)
    room = Room(seed=1, clock=lambda: now[0], limits=limits)
    mute = room.connect("10.0.0.1")
    ann, ben, browser = Player(room), Player(room), Player(room)
    made = ann.result("create_table", name="Ann")  # (she waits in the lobby, silent)
    ben.result("watch", code=made["code"])
    now[0] = 4.9
    assert _idle(room) == {}
    now[0] = 5
    assert _idle(room) == {mute: "no hello in the 5 s after connecting: the connection is closed"}
    room.disconnect(mute)  # (as the server does, once the line is written)
    now[0] = 50
    browser.result("list_tables")  # (a line: its silence counts from it)
    now[0] = 109.9
    assert _idle(room) == {}
    now[0] = 110
    assert _idle(room) == {browser.conn: "nothing sent for 60 s, and no table played or "
                                         "watched: the connection is closed"}  # fmt: skip
    room.disconnect(browser.conn)
    now[0] = 1000  # (a seat and a table watched hold their connections)
    assert _idle(room) == {}
    ann.result("close", table=made["table"])  # (she watches on, until it leaves memory)
    now[0] = 1029
    assert _idle(room) == {}
    now[0] = 1030
    room.tick()  # (the table over leaves memory: nobody watches it now)
    now[0] = 1088.9
    assert _idle(room) == {}  # (their silence counts from when they last held it)
    now[0] = 1089
    assert set(_idle(room)) == {ann.conn, ben.conn}


def _until_closed(sock: socket.socket) -> list[dict[str, Any]]:
    """The lines a connection is sent until the server closes it."""
    sock.settimeout(20)
    data = b""
    while chunk := sock.recv(1 << 16):
        data += chunk
    return [json.loads(line) for line in data.splitlines()]


def test_silent_connections_are_closed_and_make_room_for_others() -> None:
    limits = Limits(connections=5, hello_seconds=0.5, idle_seconds=1.0)
    with served(Room(seed=2, limits=limits)) as port:
        ann = RoomClient("127.0.0.1", port, timeout=20, name="Ann")
        made = ann.request("create_table", name="Ann")  # (she waits in the lobby, silent)
        watcher = RoomClient("127.0.0.1", port, timeout=20)
        watcher.request("watch", code=made["code"])
        began = time.monotonic()
        mute = [socket.create_connection(("127.0.0.1", port)) for _ in range(2)]
        greeted = socket.create_connection(("127.0.0.1", port))
        greeted.sendall(b'{"type":"hello","version":1}\n')
        # the server is full
        (refused,) = _until_closed(socket.create_connection(("127.0.0.1", port)))
        assert refused["error"]["code"] == "too_many_connections"
        # the silent ones are told why, and closed
        for sock in mute:
            (told,) = _until_closed(sock)
            assert told["id"] is None and told["error"]["code"] == "idle"
            assert "no hello in the 0.5 s" in told["error"]["message"]
        assert time.monotonic() - began >= 0.5
        hello, told = _until_closed(greeted)
        assert hello["result"]["limits"]["idle_seconds"] == 1.0
        assert told["error"]["code"] == "idle"
        assert "nothing sent for 1 s" in told["error"]["message"]
        assert time.monotonic() - began >= 1.0
        # there is room again
        newcomer = RoomClient("127.0.0.1", port, timeout=20)
        assert newcomer.request("list_tables")["tables"] == []
        # Ann and the watcher, silent all along, are still served
        while time.monotonic() < began + 3 * limits.idle_seconds:
            for client in (ann, watcher):
                assert client.poll(0.05) == []  # (ConnectionError: it was closed)
        assert ann.request("state", table=made["table"])["status"] == "waiting"
        assert watcher.request("state", table=made["table"])["creator"] == 0
        for client in (ann, watcher, newcomer):
            client.close()


@pytest.mark.skipif(sys.platform == "win32", reason="the server is stopped by a signal")
def test_holdem_serve_takes_the_limits_of_silence(tmp_path: Path) -> None:
    server = Server(tmp_path / "room", "--hello-seconds", "1.5", "--idle-seconds", "2").start()
    try:
        (told,) = _until_closed(socket.create_connection(("127.0.0.1", server.port)))
        assert "no hello in the 1.5 s after connecting" in told["error"]["message"]
        greeted = socket.create_connection(("127.0.0.1", server.port))
        greeted.sendall(b'{"type":"hello","version":1}\n')
        hello, told = _until_closed(greeted)
        assert hello["result"]["limits"]["hello_seconds"] == 1.5
        assert "nothing sent for 2 s" in told["error"]["message"]
    finally:
        server.stop()


@settings(max_examples=200)
@given(st.lists(st.tuples(st.sampled_from(["10.0.0.1", "10.0.0.2", "2001:db8::1",
                                           "2001:db8::2", "2001:db9::1"]),
                          st.floats(0, 30)), max_size=60))  # fmt: skip
def test_the_workers_shared_count_of_guesses_is_the_one_of_a_process(
    tries: list[tuple[str, float]],
) -> None:
    one, shared = Guesses(most=3, seconds=60), SharedGuesses(most=3, seconds=60, slots=4)
    now = 1000.0
    for address, later in tries:  # (each a wrong guess, when it may guess)
        now += later
        assert shared.allowed(address, now) == one.allowed(address, now)
        assert shared.wait(address, now) == one.wait(address, now)
        if one.allowed(address, now):
            one.failed(address, now)
            shared.failed(address, now)
