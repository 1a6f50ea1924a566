"""``holdem engine`` under abuse (issue 28): SIGTERM stops it as Ctrl-C does;
on TCP a client that does not read is closed past a bound, a client's
tables close and its runs stop when it leaves."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from typing import Any

import pytest

from holdem.protocol import Engine

pytestmark = pytest.mark.skipif(os.name == "nt", reason="signals and process groups are POSIX")

HELLO = {"id": 1, "type": "hello", "version": 1}


def engine(*args: str) -> subprocess.Popen[bytes]:
    """``holdem engine ARGS`` in a session of its own, its stdin a pipe."""
    return subprocess.Popen([sys.executable, "-m", "holdem", "engine", *args],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True)  # fmt: skip


def port_of(server: subprocess.Popen[bytes]) -> int:
    assert server.stderr is not None
    line = server.stderr.readline().decode()
    assert line.startswith("holdem engine: listening on 127.0.0.1:"), line
    return int(line.rsplit(":", 1)[1])


def stopped(server: subprocess.Popen[bytes], seconds: float = 10) -> tuple[int, str]:
    """The status and the stderr of a server that must stop within ``seconds``."""
    try:
        _, err = server.communicate(timeout=seconds)
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGKILL)
            server.communicate()
    return server.returncode, err.decode()


class Connection:
    """A client of ``holdem engine --listen``: requests, and what it is told."""

    def __init__(self, port: int, receive_buffer: int | None = None) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if receive_buffer is not None:  # (before connecting: the window is set then)
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        self.sock.settimeout(20)
        self.sock.connect(("127.0.0.1", port))
        self.stream = self.sock.makefile("rb")

    def send(self, request: dict[str, Any]) -> None:
        self.sock.sendall(json.dumps(request).encode() + b"\n")

    def ask(self, request: dict[str, Any]) -> list[dict[str, Any]]:
        """Sends a request; the messages up to its reply."""
        self.send(request)
        seen = []
        while True:
            line = self.stream.readline()
            assert line, "the engine closed the connection"
            seen.append(json.loads(line))
            if "event" not in seen[-1] and seen[-1].get("id") == request["id"]:
                return seen

    def close(self) -> None:
        self.stream.close()
        self.sock.close()


# ---------------------------------------------------------------- SIGTERM


def test_sigterm_stops_the_engine_on_stdin_as_ctrl_c_does() -> None:
    server = engine()
    assert server.stdin is not None and server.stdout is not None
    server.stdin.write(json.dumps(HELLO).encode() + b"\n")
    server.stdin.flush()
    assert json.loads(server.stdout.readline())["result"]["protocol"] == "holdem"
    server.send_signal(signal.SIGTERM)
    code, err = stopped(server)
    assert code == 143 and err.strip().splitlines() == ["holdem engine: terminated"]


def test_sigterm_stops_the_engine_on_tcp_and_closes_its_clients() -> None:
    server = engine("--listen", "127.0.0.1:0")
    client = Connection(port_of(server))
    client.ask(HELLO)
    server.send_signal(signal.SIGTERM)
    code, err = stopped(server)
    assert code == 143 and err.strip().splitlines() == ["holdem engine: terminated"]
    assert client.stream.readline() == b""  # (closed)
    client.close()


# ---------------------------------------------------------------- a client leaves


def table_of_bots(players: int = 2, **extra: Any) -> dict[str, Any]:
    """A create_table request: a cash table of calling stations with deep stacks."""
    seated = [{"seat": s, "name": f"b{s}", "bot": "calling-station"} for s in range(players)]
    return {"id": 2, "type": "create_table", "seats": players, "small_blind": 1, "big_blind": 2,
            "max_buy_in": 1_000_000, "seed": 1, "players": seated, **extra}  # fmt: skip


def test_the_tables_a_client_made_close_when_it_leaves() -> None:
    engine = Engine()
    maker, watcher = engine.connect(), engine.connect()
    for client in (maker, watcher):
        engine.handle(client, json.dumps(HELLO))
    made = engine.handle(maker, json.dumps(table_of_bots()))
    table = made[0][1]["result"]["table"]
    engine.handle(watcher, json.dumps({"id": 2, "type": "watch", "table": table}))
    told = engine.disconnect(maker)
    assert told == [(watcher, {"event": "table_closed", "table": table})]
    assert engine.tables == {}
    state = engine.handle(watcher, json.dumps({"id": 3, "type": "state", "table": table}))
    assert state[0][1]["error"]["code"] == "unknown_table"


def test_the_table_limit_is_freed_by_a_client_that_leaves() -> None:
    engine = Engine(max_tables=2)
    first, second = engine.connect(), engine.connect()
    for client in (first, second):
        engine.handle(client, json.dumps(HELLO))
    for _ in range(2):
        assert "result" in engine.handle(first, json.dumps(table_of_bots()))[0][1]
    refused = engine.handle(second, json.dumps(table_of_bots()))[0][1]["error"]
    assert refused["code"] == "limit"
    assert refused["message"] == "this engine holds at most 2 tables at once"
    engine.disconnect(first)
    assert "result" in engine.handle(second, json.dumps(table_of_bots()))[0][1]


def test_a_run_stops_when_the_client_that_started_it_leaves() -> None:
    engine = Engine()
    maker, starter = engine.connect(), engine.connect()
    for client in (maker, starter):
        engine.handle(client, json.dumps(HELLO))
    table = engine.handle(maker, json.dumps(table_of_bots()))[0][1]["result"]["table"]
    engine.handle(starter, json.dumps({"id": 3, "type": "start", "table": table, "hands": 10**6}))
    assert engine.busy()
    told = [m for c, m in engine.disconnect(starter) if c == maker]
    (stopped,) = [m for m in told if m.get("event") == "run_stopped"]
    assert stopped["reason"] == "the client that started it left"
    assert 0 < stopped["hands_left"] < 10**6
    engine.tick()
    assert not engine.busy() and engine.tables[table].to_play == 0
    played = engine.tables[table].table.hands_played
    assert stopped["hands_left"] + played == 10**6


def test_runs_wait_for_a_creator_behind_in_reading_and_not_for_others() -> None:
    engine = Engine()
    maker, watcher = engine.connect(), engine.connect()
    for client in (maker, watcher):
        engine.handle(client, json.dumps(HELLO))
    table = engine.handle(maker, json.dumps(table_of_bots()))[0][1]["result"]["table"]
    engine.handle(watcher, json.dumps({"id": 2, "type": "watch", "table": table}))
    engine.handle(maker, json.dumps({"id": 3, "type": "start", "table": table, "hands": 500}))
    played = engine.tables[table].table.hands_played
    assert not engine.busy(held={maker}) and engine.busy(held={watcher})
    assert engine.tick(held={maker}) == []
    assert engine.tables[table].table.hands_played == played
    engine.tick(held={watcher})
    assert engine.tables[table].table.hands_played > played


# ---------------------------------------------------------------- on TCP


def rss(pid: int) -> int:
    """The process's resident memory, in bytes."""
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


def cpu(pid: int) -> float:
    """The process's CPU time so far, in seconds."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def read_all(connection: Connection, seconds: float) -> tuple[int, str]:
    """Reads until the engine closes the connection: the bytes read, and how
    it ended ('closed', 'reset', or 'open' after ``seconds``)."""
    connection.sock.settimeout(0.5)
    count, end = 0, time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            data = connection.sock.recv(1 << 16)
        except TimeoutError:
            continue
        except ConnectionResetError:
            return count, "reset"
        if not data:
            return count, "closed"
        count += len(data)
    return count, "open"


def connected(connection: Connection) -> bool:
    """Whether the connection is established still, as its own side sees it
    (looked at without reading from it)."""
    import struct

    info = connection.sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 1)
    return struct.unpack("B", info)[0] == 1  # (TCP_ESTABLISHED)


@pytest.mark.skipif(sys.platform != "linux", reason="reads /proc; TCP_INFO")
def test_a_client_that_stops_reading_is_closed_and_the_engine_stays_small() -> None:
    import threading

    server = engine("--listen", "127.0.0.1:0")
    try:
        port = port_of(server)
        maker, silent = Connection(port), Connection(port, receive_buffer=4096)
        maker.ask(HELLO)
        silent.ask(HELLO)
        table = maker.ask(table_of_bots(6))[-1]["result"]["table"]
        silent.ask({"id": 2, "type": "watch", "table": table})
        before = rss(server.pid)
        maker.ask({"id": 3, "type": "start", "table": table, "hands": 10**6})
        reading = threading.Thread(target=read_all, args=(maker, 60), daemon=True)
        reading.start()  # (the maker reads all it is told: its run goes on)
        end = time.monotonic() + 30
        while connected(silent) and time.monotonic() < end:  # (it reads nothing meanwhile)
            time.sleep(0.05)
        assert not connected(silent), "a client that reads nothing was never closed"
        assert read_all(silent, 10)[1] in ("reset", "closed")
        assert rss(server.pid) - before < 64 << 20  # (its queue went with it)
        assert reading.is_alive()  # (the maker is served on)
        maker.sock.shutdown(socket.SHUT_RDWR)
    finally:
        server.send_signal(signal.SIGTERM)
        stopped(server)


def test_a_client_that_reads_slowly_holds_its_run_back_and_misses_nothing() -> None:
    server = engine("--listen", "127.0.0.1:0")
    try:
        maker = Connection(port_of(server), receive_buffer=16384)
        maker.ask(HELLO)
        table = maker.ask(table_of_bots(6))[-1]["result"]["table"]
        hands = 500  # (2.3 MB of events: twice the queue's bound)
        maker.send({"id": 3, "type": "start", "table": table, "hands": hands})
        ended = lines = 0
        while ended < hands:
            line = maker.stream.readline()
            assert line, "the engine closed the connection of a client that reads"
            ended += b'"event":"hand_ended"' in line
            lines += 1
            if lines % 100 == 0:
                time.sleep(0.01)  # (slower than the engine plays)
        state = maker.ask({"id": 4, "type": "state", "table": table})[-1]["result"]
        assert state["hands_played"] == hands and state["to_play"] == 0
        maker.close()
    finally:
        server.send_signal(signal.SIGTERM)
        stopped(server)


@pytest.mark.skipif(sys.platform != "linux", reason="reads /proc")
def test_a_client_that_leaves_takes_its_tables_and_runs_with_it() -> None:
    server = engine("--listen", "127.0.0.1:0")
    try:
        port = port_of(server)
        maker, other = Connection(port), Connection(port)
        maker.ask(HELLO)
        other.ask(HELLO)
        table = maker.ask(table_of_bots(6))[-1]["result"]["table"]
        maker.ask({"id": 3, "type": "start", "table": table, "hands": 10**6})
        maker.close()  # (gone, in the middle of its run)
        asked = other.ask({"id": 2, "type": "state", "table": table})[-1]
        assert asked["error"]["code"] == "unknown_table"
        begun, used = time.monotonic(), cpu(server.pid)
        time.sleep(1.5)
        assert cpu(server.pid) - used < 0.3 * (time.monotonic() - begun)  # (idle: no run goes on)
        other.close()
    finally:
        server.send_signal(signal.SIGTERM)
        stopped(server)


def test_the_queue_s_bound_is_an_option_of_listen_alone() -> None:
    from click.testing import CliRunner

    from holdem.cli.main import main

    result = CliRunner().invoke(main, ["engine", "--max-queue", "600000"], input="")
    assert result.exit_code == 2
    assert "--max-queue is for --listen" in result.output
    result = CliRunner().invoke(main, ["engine", "--listen", "127.0.0.1:0", "--max-queue", "1000"])
    assert result.exit_code == 2 and "1000 is not in the range x>=524288" in result.output
