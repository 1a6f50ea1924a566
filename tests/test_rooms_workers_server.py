"""``holdem serve --workers 2`` over loopback: the tables end on both
workers and every join works whichever worker accepted it; every connection
lists every public table; a token resumes from a new connection; a worker
killed mid-hand is started again and its table resumes with every chip; a
second table on the other worker is ``other_worker``; Ctrl-C stops every
process and one process then resumes every table; a supervisor killed takes
its workers with it."""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import sqlite3
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from rooms_helpers import Server, play

from holdem.clients import RoomClient
from holdem.errors import ProtocolError

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="fork, passed sockets, /proc"
)

CASH = {"game": "cash", "pace": 0, "pause": 0, "small_blind": 1, "big_blind": 2,
        "min_buy_in": 100, "max_buy_in": 100}  # fmt: skip


def _gone(pid: int) -> bool:
    """Whether a process has ended (a zombie nobody reaps has ended too)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0] == "Z"
    except FileNotFoundError:
        return True


def _wait_gone(pids: list[int], seconds: float = 10) -> None:
    deadline = time.monotonic() + seconds
    while not all(_gone(pid) for pid in pids):
        assert time.monotonic() < deadline, [p for p in pids if not _gone(p)]
        time.sleep(0.05)


def _tables(server: Server, count: int, public: bool = True,
            first: int = 0) -> list[dict[str, Any]]:  # fmt: skip
    """``count`` cash tables, each made by its own client (Ann0, Ann1, ...
    from ``first``) with a friend who joined by code from a new connection;
    ``start`` sent."""
    made = []
    for k in range(first, first + count):
        ann = server.client(f"Ann{k}")
        table = ann.request("create_table", name=f"Ann{k}", public=public, **CASH)
        ben = server.client(f"Ben{k}")
        joined = ben.request("join", code=table["code"], name=f"Ben{k}")
        assert joined["table"] == table["table"] and joined["seat"] == 1
        ann.request("start", table=table["table"])
        tokens = {f"Ann{k}": table["token"], f"Ben{k}": joined["token"]}
        made.append({**table, "clients": {f"Ann{k}": ann, f"Ben{k}": ben}, "tokens": tokens})
    return made


def _play_hands(tables: list[dict[str, Any]], hands: int, seed: int = 1) -> None:
    """Every table plays ``hands`` more hands (its two players calling)."""
    clients = {n: c for t in tables for n, c in t["clients"].items()}
    streams: dict[str, list[dict[str, Any]]] = {name: [] for name in clients}
    first = {t["table"]: next(iter(t["clients"])) for t in tables}

    def ended(ident: str) -> int:
        return sum(m.get("event") == "hand_ended" for m in streams[first[ident]])

    play(clients, streams, random.Random(seed), passive=True, seconds=30,
         until=lambda: all(ended(t["table"]) >= hands for t in tables))  # fmt: skip


def _nets(client: RoomClient, ident: str) -> int:
    return sum(r["net"] for r in client.request("state", table=ident)["results"].values())


def test_two_workers_share_the_tables_and_every_join_and_resume_works(tmp_path: Path) -> None:
    server = Server(tmp_path / "room", "--workers", "2").start()
    try:
        tables = _tables(server, 4)
        tables += _tables(server, 1, public=False, first=4)
        idents = [t["table"] for t in tables]
        numbers = [int(ident[1:]) for ident in idents]
        assert len(set(numbers)) == 5 and {n % 2 for n in numbers} == {0, 1}  # (both workers)
        assert sorted(numbers)[:4] == [1, 2, 3, 4]  # (the fewest tables: each its next)
        _play_hands(tables, 2)
        for t in tables:
            assert _nets(next(iter(t["clients"].values())), t["table"]) == 0
        for _ in range(3):  # any connection lists every public table
            listed = server.client().request("list_tables")["tables"]
            assert [x["table"] for x in listed] == sorted(idents[:4])  # (by number)
            assert all(x["players"] == 2 and x["joinable"] for x in listed)
        # a player comes back from a new connection with the token
        ben = tables[1]["clients"]["Ben1"]
        ben.close()
        back = server.client("Ben")
        resumed = back.request("resume", token=tables[1]["tokens"]["Ben1"])
        assert resumed["table"] == tables[1]["table"] and resumed["seat"] == 1
        assert back.request("state", table=tables[1]["table"])["seats"][1]["connected"]
        # a second table on the other worker: a new connection is needed
        other = next(t for t in tables if (int(t["table"][1:]) - numbers[1]) % 2)
        with pytest.raises(ProtocolError) as refused:
            back.request("watch", table=other["table"])
        assert refused.value.code == "other_worker"
        assert server.client().request("watch", table=other["table"])["table"] == other["table"]
    finally:
        assert server.stop() == 130


def test_a_worker_killed_mid_hand_is_started_again_and_its_table_resumes(
    tmp_path: Path,
) -> None:
    server = Server(tmp_path / "room", "--workers", "2").start()
    try:
        tables = _tables(server, 2)
        _play_hands(tables, 2)
        workers = server.workers()
        assert len(workers) == 2
        victim = workers[0]
        hands = {t["table"]: next(iter(t["clients"].values())).request(
            "state", table=t["table"])["hands_played"] for t in tables}  # fmt: skip
        os.kill(victim, signal.SIGKILL)  # mid-hand: the tables play without pauses
        said = server.said(rf"worker \d \(pid {victim}\) was killed by SIGKILL")
        assert "started again" in said
        deadline = time.monotonic() + 10
        while len(server.workers()) < 2 or victim in server.workers():
            assert time.monotonic() < deadline
            time.sleep(0.05)
        for t in tables:  # every player comes back with the token
            for name, token in t["tokens"].items():
                client = server.client(name)
                resumed = client.request("resume", token=token)
                assert resumed["table"] == t["table"]
                t["clients"][name].close()
                t["clients"][name] = client
            state = client.request("state", table=t["table"])
            assert state["status"] == "playing"
            assert state["hands_played"] >= hands[t["table"]] - 1
            assert sum(s["chips"] for s in state["seats"]) == 200  # (every chip)
            assert _nets(client, t["table"]) == 0
        _play_hands(tables, 1)
    finally:
        assert server.stop() == 130


def test_ctrl_c_stops_every_worker_and_one_process_resumes_every_table(tmp_path: Path) -> None:
    server = Server(tmp_path / "room", "--workers", "2").start()
    tables = _tables(server, 4)
    _play_hands(tables, 1)
    workers = server.workers()
    assert server.stop() == 130
    _wait_gone(workers, 1)  # (the supervisor waited for them: no zombie, no orphan)
    with sqlite3.connect(tmp_path / "room" / "room.sqlite") as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert db.execute("SELECT COUNT(*) FROM tables WHERE status = 'playing'").fetchone()[0] == 4
    alone = Server(tmp_path / "room").start()
    try:
        for t in tables:
            name, token = next(iter(t["tokens"].items()))
            state = alone.client(name).request("resume", token=token)["state"]
            assert state["status"] == "playing"
            assert sum(s["chips"] for s in state["seats"]) == 200
    finally:
        alone.stop()


def test_a_killed_supervisor_takes_its_workers_with_it(tmp_path: Path) -> None:
    server = Server(tmp_path / "room", "--workers", "2").start()
    workers = server.workers()
    client = server.client("Ann")
    client.request("create_table", name="Ann", **CASH)
    server.kill()
    _wait_gone(workers)
    store = sqlite3.connect(tmp_path / "room" / "room.sqlite")
    assert len(store.execute("SELECT id FROM tables").fetchall()) == 1  # (the file readable after)
    store.close()


def test_lines_sent_at_once_are_all_answered_in_order_across_a_handover(tmp_path: Path) -> None:
    server = Server(tmp_path / "room", "--workers", "2", "--rate", "1000").start()
    try:
        made = [server.client(f"Ann{k}").request("create_table", name=f"Ann{k}", **CASH)
                for k in range(2)]  # fmt: skip
        assert {int(m["table"][1:]) % 2 for m in made} == {0, 1}  # (one is elsewhere)
        for m in made:
            sock = _accepted_by_other_worker(server.port, (int(m["table"][1:]) - 1) % 2)
            lines = [{"id": 2, "type": "join", "code": m["code"], "name": "Ben"},
                     {"id": 3, "type": "state", "table": m["table"]}]  # fmt: skip
            lines += [{"id": 10 + k, "type": "legal", "table": m["table"], "pad": "x" * 9000}
                      for k in range(5)]  # fmt: skip  # (45 KB: more than a message holds)
            text = "".join(json.dumps(line) + "\n" for line in lines)
            text += '{"id": 4, "x": "' + "y" * 20000 + '"}\n'  # (too long: answered so)
            sock.sendall(text.encode() + b'{"id": 5, "type": "le')
            time.sleep(0.2)
            sock.sendall(f'ave", "table": "{m["table"]}"}}\n'.encode())
            data = b""
            replies: list[dict[str, Any]] = []
            while len(replies) < 9:  # (the replies; the table's events come between)
                chunk = sock.recv(1 << 16)
                assert chunk, data
                data += chunk
                whole = data[: data.rfind(b"\n") + 1]
                replies = [json.loads(line) for line in whole.splitlines()
                           if line.startswith(b'{"id"')]  # fmt: skip
            assert [r["id"] for r in replies] == [2, 3, 10, 11, 12, 13, 14, None, 5]
            assert replies[0]["result"]["table"] == m["table"]
            assert replies[1]["result"]["seats"][1]["name"] == "Ben"
            assert {r["error"]["code"] for r in replies[2:7]} == {"unknown_field"}
            assert replies[7]["error"]["code"] == "line_too_long"
            assert replies[8]["result"]["seat"] == 1
            sock.close()
    finally:
        server.stop()


def _accepted_by_other_worker(port: int, owner: int) -> socket.socket:
    """A connection that said hello to the worker that is not ``owner`` (of
    two): the one whose table it names is then handed on (the system gives
    each new connection to either)."""
    for _ in range(200):
        sock = socket.create_connection(("127.0.0.1", port), timeout=20)
        sock.sendall(b'{"id": 1, "type": "hello", "version": 1}\n')
        data = b""
        while not data.endswith(b"\n"):
            chunk = sock.recv(1 << 16)
            assert chunk, data
            data += chunk
        client = json.loads(data.splitlines()[0])["result"]["client"]
        if (client - 1) % 2 != owner:
            return sock
        sock.close()
    raise AssertionError("every connection went to the table's own worker")


def test_a_ctrl_c_at_the_terminal_stops_every_process_and_starts_none_again(
    tmp_path: Path,
) -> None:
    import subprocess

    # (a terminal's Ctrl-C goes to the whole process group: the workers too)
    server = subprocess.Popen(
        [sys.executable, "-m", "holdem", "serve", "--listen", "127.0.0.1:0",
         "--data", str(tmp_path / "room"), "--workers", "2"],
        stderr=subprocess.PIPE, text=True, start_new_session=True,
    )  # fmt: skip
    assert server.stderr is not None
    assert "listening on" in server.stderr.readline()
    pid = server.pid
    workers = [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    os.killpg(pid, signal.SIGINT)
    assert server.wait(timeout=15) == 130
    rest = server.stderr.read()
    assert "started again" not in rest and "Traceback" not in rest, rest
    assert rest.strip() == "holdem serve: interrupted"
    _wait_gone(workers, 1)


def test_a_connection_that_hops_between_workers_keeps_its_rate(tmp_path: Path) -> None:
    rate, burst = 50, 100  # (--rate 50: 100 at once)
    server = Server(tmp_path / "room", "--workers", "2", "--rate", str(rate)).start()
    try:
        idents = [t["table"] for t in _tables(server, 2)]
        assert {int(ident[1:]) % 2 for ident in idents} == {0, 1}  # (one at each worker)
        sock = socket.create_connection(("127.0.0.1", server.port), timeout=20)
        sock.sendall(b'{"type": "hello", "version": 1}\n')
        # as fast as it can, each line names the table of the worker it is not at
        # (the connection holds none: it is handed on at every line served)
        lines = [{"id": k, "type": "state", "table": idents[k % 2]} for k in range(600)]
        began = time.monotonic()
        sock.sendall("".join(json.dumps(line) + "\n" for line in lines).encode())
        data = b""
        replies: dict[int, dict[str, Any]] = {}
        while len(replies) < len(lines):
            chunk = sock.recv(1 << 16)
            assert chunk, data[-300:]
            data += chunk
            whole, _, data = data.rpartition(b"\n")
            for line in whole.splitlines():
                message = json.loads(line)
                if isinstance(message.get("id"), int):
                    replies[message["id"]] = message
        seconds = time.monotonic() - began
        served = [r["result"]["table"] for r in replies.values() if "result" in r]
        refused = [r["error"]["code"] for r in replies.values() if "error" in r]
        assert set(served) == set(idents)  # (both workers served it)
        assert len(served) <= burst + rate * seconds + 1, (len(served), seconds)
        assert set(refused) == {"rate_limited"} and len(refused) + len(served) == len(lines)
        sock.close()
    finally:
        server.stop()


def test_wrong_codes_are_counted_by_address_across_the_workers(tmp_path: Path) -> None:
    server = Server(tmp_path / "room", "--workers", "2").start()
    try:
        codes = []
        for k in (0, 1):  # (a connection at each worker, from one address)
            sock = _accepted_by_other_worker(server.port, 1 - k)
            text = "".join(json.dumps({"id": n, "type": "join", "code": f"ZZZZ-ZZZ{n + 2}",
                                       "name": "M"}) + "\n" for n in range(6))  # fmt: skip
            sock.sendall(text.encode())
            data = b""
            while data.count(b"\n") < 6:
                chunk = sock.recv(1 << 16)
                assert chunk, data
                data += chunk
            codes += [json.loads(line)["error"]["code"] for line in data.splitlines()]
            sock.close()
        # (the tenth wrong code in a minute refuses the address's guesses, at every worker)
        assert codes == ["unknown_code"] * 10 + ["rate_limited"] * 2
    finally:
        server.stop()
