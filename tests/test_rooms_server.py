"""Rooms over loopback (issue 14): ``holdem serve`` in its own process, the
clients over TCP.  Two people and four bots play a private freezeout to its
winner; a player who disconnects mid-hand comes back to the seat with the
token; a server killed mid-hand and started again resumes the table with
every chip; oversized lines, floods and wrong codes are refused while the
other tables go on."""

from __future__ import annotations

import datetime
import json
import os
import random
import re
import select
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from rooms_helpers import FAST, Server, check_stream, play

from holdem.errors import ProtocolError
from holdem.protocol.messages import Lines
from holdem.rooms import Store
from holdem.rooms.handover import supported
from holdem.rooms.server import BEHIND_SECONDS, FLUSH

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="signals and process groups")


def test_a_private_freezeout_over_tcp_plays_to_a_winner_and_hides_the_cards(
    server: Server,
) -> None:
    ann, ben = server.client("Ann"), server.client("Ben")
    made = ann.request("create_table", name="Ann", **FAST)
    assert ben.request("join", code=made["code"], name="Ben")["seat"] == 1
    ann.request("add_bots", table="t1", level="random", count=2)
    ann.request("add_bots", table="t1", level="easy", count=2)
    ann.request("start", table="t1")
    streams: dict[str, list[dict[str, Any]]] = {"Ann": [], "Ben": []}
    over = lambda: any(m.get("event") == "table_finished" for m in streams["Ann"])  # noqa: E731
    play({"Ann": ann, "Ben": ben}, streams, random.Random(11), until=over)
    for name, client in (("Ann", ann), ("Ben", ben)):  # what is still on its way
        while got := client.poll(0.3):
            streams[name].extend(got)
    state = ann.request("state", table="t1")
    assert state["status"] == "finished" and len(state["result"]["places"]) == 6
    server.stop()
    store = Store(server.data / "room.sqlite")
    assert store.hand_count("t1") == state["hands_played"]
    for seat, name in ((0, "Ann"), (1, "Ben")):
        assert check_stream(store, "t1", streams[name], seat) > state["hands_played"]
        own = [m for m in streams[name] if m.get("event") == "hole_cards"]
        assert own and {m["seat"] for m in own} == {seat}


def test_a_client_that_disconnects_mid_hand_comes_back_to_its_seat(server: Server) -> None:
    ann, ben = server.client("Ann"), server.client("Ben")
    made = ann.request("create_table", name="Ann", timer={"seconds": 0.3, "time_bank": 0}, **FAST)
    token = ben.request("join", code=made["code"], name="Ben")["token"]
    ann.request("add_bots", table="t1", level="calling-station", count=2)
    ann.request("start", table="t1")
    streams: dict[str, list[dict[str, Any]]] = {"Ann": [], "Ben": []}
    ben_turn = lambda: any(m.get("event") == "turn" for m in ben.events)  # noqa: E731
    deadline = time.monotonic() + 20
    while not ben_turn():  # Ann plays until Ben must act
        assert time.monotonic() < deadline
        ben.events.extend(ben.poll(0.01))
        for message in ann.poll(0.01):
            if message.get("event") == "turn":
                ann.request("act", table="t1", action={"kind": "call"})
    chips = {s["name"]: s["chips"] for s in ann.request("state", table="t1")["seats"]}
    ben.close()  # mid-hand, at his turn
    seen = len(streams["Ann"])

    def timed_out() -> bool:  # his timer ran out: he checked or folded
        return any(
            m.get("event") == "action" and m["action"].get("seat") == 1
            for m in streams["Ann"][seen:]
        )

    play({"Ann": ann}, streams, random.Random(2), until=timed_out)
    back = server.client("Ben")
    resumed = back.request("resume", token=token)
    assert resumed["seat"] == 1 and resumed["name"] == "Ben"
    seats = {s["name"]: s for s in resumed["state"]["seats"]}
    assert seats["Ben"]["connected"] is True and seats["Ben"]["chips"] == chips["Ben"]
    assert any(m.get("event") == "action" and m["action"].get("seat") == 1
               for m in resumed["missed"])  # fmt: skip  # (what the timer did for him)
    # (the seats' chips are those of the start of the hand being played)
    assert sum(s["chips"] for s in seats.values()) == sum(chips.values()) == 4 * 400
    with pytest.raises(ProtocolError) as refused:
        server.client("Ben").request("resume", token=token)
    assert refused.value.code == "token_expired"


def test_a_server_killed_mid_hand_resumes_the_table_with_every_chip(tmp_path: Path) -> None:
    server = Server(tmp_path / "room").start()
    try:
        ann, ben = server.client("Ann"), server.client("Ben")
        made = ann.request("create_table", name="Ann", **FAST)
        tokens = {"Ann": made["token"]}
        tokens["Ben"] = ben.request("join", code=made["code"], name="Ben")["token"]
        ann.request("add_bots", table="t1", level="calling-station")
        ann.request("start", table="t1")
        streams: dict[str, list[dict[str, Any]]] = {"Ann": [], "Ben": []}
        started = lambda: [m for m in streams["Ann"] if m.get("event") == "hand_started"]  # noqa: E731
        play({"Ann": ann, "Ben": ben}, streams, random.Random(4),
             until=lambda: len(started()) >= 3, passive=True)  # fmt: skip
        last = started()[-1]  # the hand being played when the server dies
        server.kill()
        ann.close()
        ben.close()
        server.start()
        state = None
        for name, token in tokens.items():
            try:
                state = server.client(name).request("resume", token=token)["state"]
                break
            except ProtocolError as exc:  # (a player busted before the kill)
                assert exc.code == "token_expired"
        assert state is not None
        assert state["status"] == "playing"
        assert state["hands_played"] == last["hand"] - 1
        chips = {s["seat"]: s["chips"] for s in state["seats"]}
        assert chips == dict(zip(last["seats"], last["stacks"], strict=True))
        assert sum(chips.values()) == 6 * 400
    finally:
        server.stop()


def test_bad_lines_floods_and_wrong_codes_are_refused_while_other_tables_go_on(
    tmp_path: Path,
) -> None:
    server = Server(tmp_path / "room", "--rate", "20").start()
    try:
        ann = server.client("Ann")
        ann.request("create_table", name="Ann", game="cash", pace=0, pause=0)
        ann.request("add_bots", table="t1", level="calling-station")
        ann.request("start", table="t1")
        mallory = socket.create_connection(("127.0.0.1", server.port), timeout=10)
        mallory.sendall(b'{"type":"hello","version":1}\n')
        mallory.sendall(b'{"id":1,"type":"list_tables","x":"' + b"y" * 20000 + b'"}\n')
        mallory.sendall(b"".join(b'{"id":%d,"type":"list_tables"}\n' % i for i in range(300)))
        for i in range(12):
            mallory.sendall(b'{"id":"c%d","type":"join","code":"ZZZZ-ZZZZ","name":"M"}\n' % i)
        replies = _read_lines(mallory, 1 + 1 + 300 + 12)
        codes = [r.get("error", {}).get("code") for r in replies[1:]]
        assert codes[0] == "line_too_long"
        assert codes[1:301].count("rate_limited") > 200
        assert set(codes[301:]) <= {"unknown_code", "rate_limited"}
        streams: dict[str, list[dict[str, Any]]] = {"Ann": []}
        hands = lambda: ann.request("state", table="t1")["hands_played"]  # noqa: E731
        before = hands()
        play({"Ann": ann}, streams, random.Random(1), until=lambda: hands() >= before + 5)
        mallory.close()
    finally:
        server.stop()


def _read_lines(sock: socket.socket, count: int) -> list[dict[str, Any]]:
    import json

    data = b""
    deadline = time.monotonic() + 20
    while data.count(b"\n") < count and time.monotonic() < deadline:
        chunk = sock.recv(1 << 16)
        if not chunk:
            break
        data += chunk
    return [json.loads(line) for line in data.splitlines()[:count]]


def test_serve_refuses_a_data_folder_it_cannot_use(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    result = subprocess.run([sys.executable, "-m", "holdem", "serve", "--data", str(blocker)],
                            capture_output=True, text=True, timeout=30)  # fmt: skip
    assert result.returncode == 2
    assert "error" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize("workers", [
    "1", pytest.param("2", marks=pytest.mark.skipif(supported() is not None, reason="no workers")),
])  # fmt: skip
def test_serve_on_a_port_taken_says_so(tmp_path: Path, workers: str) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run(
            [sys.executable, "-m", "holdem", "serve", "--data", str(tmp_path / "room"),
             "--listen", f"127.0.0.1:{port}", "--workers", workers],
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip
    assert result.returncode == 2
    assert f"'--listen': 127.0.0.1:{port}: Address already in use" in result.stderr
    assert "Traceback" not in result.stderr and "output" not in result.stderr


def test_holdem_join_plays_a_freezeout_and_the_hands_export_as_phh(
    server: Server, tmp_path: Path
) -> None:
    env = dict(os.environ, XDG_CONFIG_HOME=str(tmp_path / "config"))
    typed = "bots 5 random\nstart\n" + "c\n" * 400
    result = subprocess.run(
        [sys.executable, "-m", "holdem", "join", "--create", "--server",
         f"127.0.0.1:{server.port}", "--name", "Ann", "--pace", "0", "--pause", "0",
         "--stack", "300", "--no-color"],
        input=typed, capture_output=True, text=True, timeout=120, env=env,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Join code: " in out and "Random 5 (random bot) sits at seat 6" in out
    assert "Your cards: " in out and "Final places:" in out and "CERTIFICATE OF VICTORY" in out
    assert re.search(r"^ +\d+(st|nd|rd|th) +You\b", out, re.M)  # (the player's place)
    assert "Traceback" not in result.stderr
    seats = tmp_path / "config" / "holdem" / "seats.json"
    # (the game is over: the seat's token kept, marked ended, to read its hands)
    assert [entry["ended"] for entry in json.loads(seats.read_text()).values()] == [True]
    assert server.stop() == 130  # (Ctrl-C)
    export = tmp_path / "hands.phhs"
    done = subprocess.run(
        [sys.executable, "-m", "holdem", "serve", "--data", str(server.data),
         "--export", str(export)],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    count = int(done.stdout.split()[0])
    assert count >= 1
    checked = subprocess.run([sys.executable, "-m", "holdem", "validate", "--json", str(export)],
                             capture_output=True, text=True, timeout=60)  # fmt: skip
    assert checked.returncode == 0, checked.stdout
    assert json.loads(checked.stdout)["summary"]["hands"] == count
    text = tmp_path / "hands.txt"
    done = subprocess.run(
        [sys.executable, "-m", "holdem", "serve", "--data", str(server.data),
         "--export", str(text), "--pokerstars"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    headers = [line for line in text.read_text().splitlines() if line.startswith("PokerStars")]
    # each hand its own number (a tracker keeps one hand of a number), the
    # tournament the table's number, the time it finished
    numbers = [line.split("#")[1].split(":")[0] for line in headers]
    assert len(set(numbers)) == len(headers) == count and numbers[0] == "1000000001"
    year = datetime.datetime.now(datetime.UTC).year
    assert all(": Tournament #1, " in line and f" - {year}/" in line and line.endswith(" UTC")
               for line in headers)  # fmt: skip


def test_holdem_join_without_a_server_says_so(tmp_path: Path) -> None:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    result = subprocess.run(
        [sys.executable, "-m", "holdem", "join", "ABCD-EFGH", "--server", f"127.0.0.1:{port}"],
        input="", capture_output=True, text=True, timeout=30,
        env=dict(os.environ, XDG_CONFIG_HOME=str(tmp_path)),
    )  # fmt: skip
    assert result.returncode == 2  # (bad input: the --server given)
    assert "cannot reach a room server" in result.stderr and "Traceback" not in result.stderr


def test_a_client_that_does_not_read_is_closed_and_stalls_nothing(tmp_path: Path) -> None:
    # (Ann plays fast; the watcher is closed past 64 KiB waiting for it)
    server = Server(tmp_path / "room", "--rate", "100000", "--max-queue", "65536").start()
    try:
        _silent_watcher(server)
    finally:
        server.stop()


def _silent_watcher(server: Server) -> None:
    ann = server.client("Ann")
    # (a hundredth of a second between hands: Ann keeps up on a loaded machine,
    # and the watcher still falls past its limit within a few hands)
    ann.request("create_table", name="Ann", game="cash", public=True, pace=0, pause=0.01)
    ann.request("add_bots", table="t1", level="calling-station")
    silent = socket.socket()
    silent.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # (it fills at once)
    silent.settimeout(10)
    silent.connect(("127.0.0.1", server.port))
    silent.sendall(b'{"type":"hello","version":1}\n{"type":"watch","table":"t1"}\n')
    ann.request("start", table="t1")
    # Ann plays on while the watcher reads nothing: its queue passes the limit,
    # and stays past it (Ann's stream is kept short: a client as slow as the
    # watcher is closed too)
    hands = 0
    began = time.monotonic()
    while hands < 200 or time.monotonic() < began + 2 * BEHIND_SECONDS + 1:
        assert time.monotonic() < began + 120
        for message in ann.poll(0.01) + list(ann.events):
            hands += message.get("event") == "hand_ended"
            if message.get("event") == "turn":
                legal = message["view"]["legal"]
                ann.send("act", table="t1", action={"kind": "check" if legal["check"] else "call"})
        ann.events.clear()
    silent.settimeout(10)
    received = 0
    while True:  # what the server had sent before it closed the connection, then the end
        try:
            chunk = silent.recv(1 << 16)
        except TimeoutError:
            pytest.fail("the server kept a client that does not read")
        if not chunk:
            break
        received += len(chunk)
    assert received < 8 << 20  # (not the whole game: it was cut off)
    assert ann.request("state", table="t1")["hands_played"] >= 200


def test_hands_nobody_is_told_of_are_stored_all_the_same(tmp_path: Path) -> None:
    server = Server(tmp_path / "room").start()
    try:
        ann = server.client("Ann")
        ann.request("create_table", name="Ann", game="cash", pace=0, pause=0,
                    timer={"seconds": 0.2, "time_bank": 0})  # fmt: skip
        ann.request("add_bots", table="t1", level="calling-station")
        ann.request("start", table="t1")
        ann.close()  # (nobody is connected: every event waits in Ann's backlog)
        time.sleep(2.5)
        server.kill()  # (SIGKILL: nothing is flushed at the end)
        store = Store(server.data / "room.sqlite")
        assert store.hand_count("t1") >= 3
    finally:
        server.stop()


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="a pseudo-terminal")
def test_holdem_join_on_a_terminal_counts_the_seconds_down(server: Server, tmp_path: Path) -> None:
    import select as select_

    main, side = os.openpty()
    env = dict(os.environ, XDG_CONFIG_HOME=str(tmp_path / "config"), TERM="dumb")
    process = subprocess.Popen(
        [sys.executable, "-m", "holdem", "join", "--create", "--server",
         f"127.0.0.1:{server.port}", "--name", "Ann", "--pace", "0", "--pause", "0",
         "--timer", "4", "--no-color", "--plain"],
        stdin=side, stdout=side, stderr=side, env=env, close_fds=True,
    )  # fmt: skip
    os.close(side)
    seen = b""

    def read_for(seconds: float) -> None:
        nonlocal seen
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if select_.select([main], [], [], 0.1)[0]:
                try:
                    seen += os.read(main, 65536)
                except OSError:
                    return

    try:
        read_for(2)
        os.write(main, b"bots 2 calling-station\rstart\r")
        read_for(4)  # Ann's first turn: the prompt is drawn again each second
        clocks = [int(m) for m in re.findall(rb"\r\x1b\[K\((\d+)s\) > ", seen)]
        assert len(clocks) >= 3 and clocks == sorted(clocks, reverse=True), seen[-500:]
        os.write(main, b"f\r")  # (typed keys are echoed, and taken)
        read_for(1)
        assert b"You fold" in seen or b"You check" in seen, seen[-500:]
    finally:
        process.kill()
        process.wait()
        os.close(main)


@pytest.mark.parametrize("workers", [
    "1", pytest.param("2", marks=pytest.mark.skipif(supported() is not None, reason="no workers")),
])  # fmt: skip
def test_sigterm_stops_the_server_as_cleanly_as_ctrl_c(tmp_path: Path, workers: str) -> None:
    server = Server(tmp_path / "room", "--workers", workers).start()
    try:
        ann, ben = server.client("Ann"), server.client("Ben")
        made = ann.request("create_table", name="Ann", **FAST)
        ben.request("join", code=made["code"], name="Ben")
        ann.request("add_bots", table=made["table"], level="calling-station")
        ann.request("start", table=made["table"])
        streams: dict[str, list[dict[str, Any]]] = {"Ann": [], "Ben": []}
        ended = lambda: sum(m.get("event") == "hand_ended" for m in streams["Ann"])  # noqa: E731
        play({"Ann": ann, "Ben": ben}, streams, random.Random(3), until=lambda: ended() >= 3,
             passive=True)  # fmt: skip
        seen = ended()
        assert server.process is not None and server.process.stderr is not None
        server.process.send_signal(signal.SIGTERM)  # (mid-hand: the table plays on at once)
        assert server.process.wait(timeout=15) == 0  # (a service manager's stop: no error)
        assert server.process.stderr.read() == ""  # (no traceback, nothing to say)
        with pytest.raises(ConnectionError, match="the server closed the connection"):
            while True:  # (every line whole before the end)
                streams["Ann"] += ann.poll(1)
        assert not (server.data / "room.sqlite-wal").exists()  # (the file closed)
        server.start()
        state = server.client("Ann").request("resume", token=made["token"])["state"]
        assert state["status"] == "playing" and state["hands_played"] >= seen
        assert sum(s["chips"] for s in state["seats"]) == 6 * 400  # (every chip)
    finally:
        server.stop()


def test_clients_that_read_are_not_cut_however_fast_their_table_plays(tmp_path: Path) -> None:
    # (4 KiB may wait for a client: a table of bots without pauses says far
    # more in the 0.2 s the server's writes wait for each other)
    server = Server(tmp_path / "room", "--max-queue", "4096").start()
    try:
        ann = server.client("Ann")
        made = ann.request("create_table", name="Ann", game="cash", pace=0, pause=0,
                           timer={"seconds": 0.2, "time_bank": 0})  # fmt: skip
        table = made["table"]
        ann.request("add_bots", table=table, level="calling-station")
        watcher = server.client("Watcher")
        watcher.request("watch", code=made["code"])
        stalled = socket.socket()  # (it reads nothing)
        stalled.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        stalled.connect(("127.0.0.1", server.port))
        stalled.sendall(b'{"type":"hello","version":1}\n{"type":"watch","code":"%s"}\n'
                        % made["code"].encode())  # fmt: skip
        # (Ann, the creator, plays nothing: two timeouts, and she sits out, her seat kept)
        ann.request("start", table=table)
        readers = {"Ann": ann.socket, "Watcher": watcher.socket}
        split = {name: Lines() for name in readers}
        got = dict.fromkeys(readers, 0)
        hands = 0
        began = time.monotonic()
        # (every line read as it comes, the hands the watcher saw counted)
        while hands < 3000 or time.monotonic() < began + 2 * BEHIND_SECONDS + 1:
            assert time.monotonic() < began + 60, "the table did not play on"
            for sock in select.select(list(readers.values()), [], [], 1)[0]:
                name = next(n for n, s in readers.items() if s is sock)
                data = sock.recv(1 << 20)
                assert data, f"{name}, who reads, was cut off"
                got[name] += len(data)
                if name == "Watcher":
                    hands += sum(line.startswith(b'{"event":"hand_ended"')
                                 for line in split[name].feed(data) if line)  # fmt: skip
        seconds = time.monotonic() - began
        assert got["Watcher"] / seconds * FLUSH > 8 * 4096  # (a write of the server's passes it)
        for sock in readers.values():  # both are still served
            sock.sendall(b'{"id":"s","type":"state","table":"%s"}\n' % table.encode())
        for name, sock in readers.items():
            reply = b""
            while b'{"id":"s","result"' not in reply:
                data = sock.recv(1 << 20)
                assert data, f"{name}, who reads, was cut off"
                reply = reply[-100:] + data
        stalled.settimeout(20)
        received = 0
        while chunk := stalled.recv(1 << 16):  # (what it was sent before it was cut, then the end)
            received += len(chunk)
        assert received < 1 << 20
    finally:
        server.stop()
