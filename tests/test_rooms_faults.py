"""A room whose store fails (issue 28): a hand the data file refuses is never
told and stops only its own table; a full disk holds what it cannot store,
answers every request with an error meanwhile, says so in one line, and
stores and tells it all once there is room again."""

from __future__ import annotations

import json
import random
import resource
import socket
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest
from rooms_helpers import FAST, Player, Server, play_out, players, served

from holdem.clients import RoomClient
from holdem.errors import ProtocolError
from holdem.rooms import Room, Store
from holdem.rooms.core import RETRY


def _refuse_hand(path: Path, table: str, number: int) -> None:
    """The data file refuses one hand (a trigger: as a constraint would)."""
    with sqlite3.connect(path) as db:
        db.execute(
            f"CREATE TRIGGER refuse BEFORE INSERT ON hands WHEN NEW.table_id = '{table}'"
            f" AND NEW.number = {number} BEGIN SELECT RAISE(ABORT, 'refused by the test'); END"
        )


def _told_ended(stream: list[dict[str, Any]], table: str) -> list[int]:
    return [m["hand"] for m in stream if m.get("event") == "hand_ended" and m["table"] == table]


def _stored(path: Path, table: str) -> list[int]:
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT number FROM hands WHERE table_id = ? ORDER BY number", (table,))
        return [row[0] for row in rows]


def _tournament(player: Player, name: str) -> dict[str, Any]:
    made = player.result("create_table", name=name, **FAST)
    player.result("add_bots", table=made["table"], level="calling-station", count=2)
    player.result("start", table=made["table"])
    return made


def _heads_up(store: Store, now: list[float], lines: list[str]) -> tuple[Room, Player, Player]:
    """A room on ``store`` (its clock ``now``, its log ``lines``) where Ann and
    Ben play a cash table, 30 s a decision."""
    room = Room(store, seed=5, clock=lambda: now[0], log=lines.append)
    ann, ben = players(room, 2)
    made = ann.result("create_table", name="Ann", game="cash", pace=0, pause=0,
                      timer={"seconds": 30, "time_bank": 0})  # fmt: skip
    ben.result("join", code=made["code"], name="Ben")
    ann.result("start", table="t1")
    return room, ann, ben


def test_a_hand_the_store_refuses_is_never_told_and_stops_its_table_alone(tmp_path: Path) -> None:
    path = tmp_path / "room.sqlite"
    Store(path).close()
    _refuse_hand(path, "t1", 3)
    lines: list[str] = []
    room = Room(Store(path), seed=3, log=lines.append)
    ann, ben, eve = players(room, 3)
    made = _tournament(ann, "Ann")
    first, second = made["table"], _tournament(ben, "Ben")["table"]
    eve.result("watch", code=made["code"])
    play_out([ann, ben], random.Random(1), until=lambda: len(_stored(path, second)) >= 6)
    # the table whose hand 3 was refused told hands 1 and 2 ended, then why it stopped
    assert _told_ended(ann.stream, first) == [1, 2] == _stored(path, first)
    stopped = [m for m in ann.stream if m.get("event") == "table_stopped"]
    assert len(stopped) == 1 and "refused by the test" in stopped[0]["reason"]
    assert [m for m in eve.stream if m.get("event") == "table_stopped"] == stopped
    assert _told_ended(eve.stream, first) == [1, 2]
    assert "started again" in stopped[0]["reason"]
    assert ann.ask("state", table=first)["error"]["code"] == "table_stopped"
    for action in ({"kind": "check"}, {"kind": "fold"}):  # (a move sent blind, as at a turn)
        reply = ann.send(json.dumps({"id": 7, "type": "act", "table": first, "action": action}))
        assert reply == [
            {
                "id": 7,
                "error": {"code": "table_stopped", "message": stopped[0]["reason"], "field": None},
            }
        ]
    assert _stored(path, first) == [1, 2]
    # the other table, whose hands were in the same batches, played on and kept each one
    assert _told_ended(ben.stream, second) == _stored(path, second)
    assert len(_stored(path, second)) >= 6
    assert sum("t1 stopped" in line for line in lines) == 1
    # a server started again (the file mended) resumes it at hand 3, with the stacks after hand 2
    with sqlite3.connect(path) as db:
        db.execute("DROP TRIGGER refuse")
        after_two = json.loads(db.execute("SELECT result FROM hands WHERE table_id = 't1' AND "
                                          "number = 2").fetchone()[0])["chips_after"]  # fmt: skip
    again = Room(Store(path), seed=4)
    served = again.tables[first].served
    assert served is not None and served.table.hands_played == 2
    assert sorted(s.chips for s in served.table.seats.values()) == sorted(after_two)


def test_a_full_disk_holds_the_lines_answers_with_errors_and_stores_them_once_it_can(
    tmp_path: Path,
) -> None:
    now = [1000.0]
    lines: list[str] = []
    store = Store(tmp_path / "room.sqlite")
    room, ann, ben = _heads_up(store, now, lines)
    rng = random.Random(2)
    play_out([ann, ben], rng, until=lambda: len(_told_ended(ann.stream, "t1")) >= 2)
    # the disk is full from now on: play until a commit fails
    pages = store._db.execute("PRAGMA page_count").fetchone()[0]
    store._db.execute(f"PRAGMA max_page_count = {pages}")
    for _ in range(500):
        turns = [(p, t) for p in (ann, ben) for t in p.turns()]
        player, turn = turns[0]
        turn["_answered"] = True
        legal = turn["view"]["legal"]
        kind = "check" if legal["check"] else "call"
        player.send(json.dumps({"id": 99, "type": "act", "table": "t1", "action": {"kind": kind}}))
        if room.stalled is not None:
            break
    assert room.stalled is not None and "full" in room.stalled
    told = _told_ended(ann.stream, "t1")
    assert set(told) <= set(_stored(tmp_path / "room.sqlite", "t1"))
    # meanwhile every request is answered, with the reason, and the table waits
    for kind, fields in (("state", {}), ("act", {"action": {"kind": "fold"}}), ("view", {})):
        error = ann.ask(kind, table="t1", **fields)["error"]
        assert error["code"] == "store_unavailable" and "full" in error["message"]
    for _ in range(10):
        now[0] += 50  # (500 s: far past the turn's 30 s)
        assert room.tick() == []
    assert ann.ask("hello", version=1)["result"]["server"] == "room"
    assert [line for line in lines if "cannot store" in line] == lines  # (one line, said once)
    assert len(lines) == 1
    # room on the disk again: what was held is stored, then told, and the table plays on
    store._db.execute("PRAGMA max_page_count = 1073741823")
    now[0] += RETRY
    out = room.tick()
    for player in (ann, ben):
        player.take([json.loads(text) for conn, text in out if conn == player.conn])
    assert len(lines) == 2 and "storing again" in lines[1]
    assert _told_ended(ann.stream, "t1") == _stored(tmp_path / "room.sqlite", "t1")
    assert len(_told_ended(ann.stream, "t1")) > len(told)
    # the clock stood still for the table: the turn waiting has its time, not 500 s less
    waiting = [t for p in (ann, ben) for t in p.turns()]
    assert waiting
    player = ann if waiting[-1]["seat"] == 0 else ben
    reply = player.ask("act", table="t1", action={"kind": "fold"})
    assert reply["result"]["in_time"] is True
    ended = len(_told_ended(ann.stream, "t1"))
    play_out([ann, ben], rng, until=lambda: len(_told_ended(ann.stream, "t1")) >= ended + 3)
    assert _told_ended(ann.stream, "t1") == _stored(tmp_path / "room.sqlite", "t1")


def _pump(
    client: RoomClient, stream: list[dict[str, Any]], until: Any, seconds: float = 30
) -> None:
    """Reads the client's lines and answers its turns (check, else call)
    without waiting for the replies, until ``until()``."""
    deadline = time.monotonic() + seconds
    while not until():
        assert time.monotonic() < deadline, "it did not happen in time"
        for message in client.poll(0.05):
            stream.append(message)
            if message.get("event") == "turn":
                legal = message["view"]["legal"]
                kind = "check" if legal["check"] else "call"
                client.send("act", table=message["table"], action={"kind": kind})


def _says(server: Server, pattern: str, said: list[str]) -> bool:
    """Whether the server said a line with ``pattern`` on stderr (kept in ``said``)."""
    try:
        said.append(server.said(pattern, seconds=0.01))
    except AssertionError:
        return False
    return True


def test_a_server_on_a_full_disk_says_so_once_answers_errors_and_stores_it_all_later(
    tmp_path: Path,
) -> None:
    server = Server(tmp_path / "data").start()
    assert server.process is not None
    path = tmp_path / "data" / "room.sqlite"
    try:
        ann = server.client("Ann")
        ann.request("create_table", name="Ann", game="cash", pace=0, pause=0)
        ann.request("add_bots", table="t1", level="calling-station")
        ann.request("start", table="t1")
        stream: list[dict[str, Any]] = []
        _pump(ann, stream, lambda: len(_told_ended(stream, "t1")) >= 3)
        # the disk is full: no file of the server may grow from now on
        most = max(f.stat().st_size for f in path.parent.iterdir())
        resource.prlimit(server.process.pid, resource.RLIMIT_FSIZE, (most, resource.RLIM_INFINITY))
        said: list[str] = []
        _pump(ann, stream, lambda: _says(server, "cannot store", said))
        assert "every table waits" in said[0]
        told = _told_ended(stream, "t1")
        assert set(told) <= set(_stored(path, "t1"))
        with pytest.raises(ProtocolError) as refused:  # (answered, not silence)
            ann.request("state", table="t1")
        assert refused.value.code == "store_unavailable"
        time.sleep(1.5)  # (the server tries again, and fails again, quietly)
        assert set(_told_ended(stream + list(ann.events), "t1")) <= set(_stored(path, "t1"))
        # room again: the hands held are stored, then told, and the game goes on
        resource.prlimit(server.process.pid, resource.RLIMIT_FSIZE,
                         (resource.RLIM_INFINITY, resource.RLIM_INFINITY))  # fmt: skip
        _pump(ann, stream, lambda: _says(server, "storing again", said))
        _pump(ann, stream, lambda: len(_told_ended(stream, "t1")) >= len(told) + 3)
        assert set(_told_ended(stream, "t1")) <= set(_stored(path, "t1"))
    finally:
        code = server.stop()
    assert server.process.stderr is not None
    rest = server._said.decode() + server.process.stderr.read()
    assert "Traceback" not in rest and "cannot store" not in rest  # (said once: above)
    assert code in (0, 130), rest


def _failing(store: Store) -> list[str | None]:
    """The store's commits fail while the list holds a reason (as the file's
    passing failures do: the disk full, an I/O error)."""
    reason: list[str | None] = [None]
    run = store._run

    def failing(pending: Any, *, apart: bool) -> Any:
        if reason[0] is not None:
            raise sqlite3.OperationalError(reason[0])
        return run(pending, apart=apart)

    store._run = failing  # type: ignore[method-assign]
    return reason


def test_a_stall_whose_reason_changes_keeps_the_tables_clock_still_and_says_each_once() -> None:
    now = [1000.0]
    lines: list[str] = []
    store = Store(":memory:")
    reason = _failing(store)
    room, ann, ben = _heads_up(store, now, lines)
    began = room.game_clock()
    reason[0] = "database or disk is full"
    (turn,) = [t for p in (ann, ben) for t in p.turns()]
    player = ann if turn["seat"] == 0 else ben
    player.send(json.dumps({"type": "act", "table": "t1", "action": {"kind": "fold"}}))
    assert room.stalled == "database or disk is full"
    for n in range(100):  # (100 s of a disk full, then failing to be read, by turns)
        now[0] += 1
        reason[0] = ("disk I/O error", "database or disk is full")[n // 10 % 2]
        room.tick()
    assert room.game_clock() == began
    assert len(lines) == 2 and "disk I/O error" in lines[1]  # (each reason said once)
    reason[0] = None
    now[0] += 1
    room.tick()
    assert room.stalled is None and "storing again after 101 s" in lines[-1]
    assert room.game_clock() == began  # (the tables play on where they stood)


def test_a_stall_begun_by_a_batch_the_server_writes_later_is_tried_again_by_itself(
    tmp_path: Path,
) -> None:
    lines: list[str] = []
    store = Store(tmp_path / "room.sqlite")
    store._db.close()  # (the server's thread uses it: a connection of any thread)
    store._db = sqlite3.connect(store.path, isolation_level=None, check_same_thread=False)
    reason = _failing(store)
    room = Room(store, seed=1, log=lines.append)
    with served(room) as port, socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        reader = sock.makefile("rb")
        sock.sendall(b'{"id":1,"type":"hello","version":1}\n')
        assert b'"result"' in reader.readline()
        reason[0] = "database or disk is full"
        # (no id: its reply is not waited for, and goes with the batch the server writes later)
        sock.sendall(b'{"type":"create_table","name":"Ann","pace":0,"pause":0}\n')
        deadline = time.monotonic() + 10
        while room.stalled is None:
            assert time.monotonic() < deadline, "it did not stall"
            time.sleep(0.05)
        reason[0] = None  # (room again: nobody sends a line, the server tries again alone)
        made = json.loads(reader.readline())
        assert made.get("result", {}).get("table") == "t1", made
        assert "storing again" in lines[-1]


def test_a_stopped_table_is_let_go_after_a_while_and_holds_no_connection(tmp_path: Path) -> None:
    now = [0.0]
    path = tmp_path / "room.sqlite"
    Store(path).close()
    _refuse_hand(path, "t1", 1)
    room = Room(Store(path), seed=3, clock=lambda: now[0])
    (ann,) = players(room, 1)
    made = _tournament(ann, "Ann")
    play_out([ann], random.Random(1), until=lambda: False, most=200)
    assert room.tables["t1"].stopped and room._holds(room._connections[ann.conn])
    now[0] += room.limits.keep_finished + 1
    room.tick()
    assert "t1" not in room.tables and not room._holds(room._connections[ann.conn])
    (back,) = players(room, 1)
    error = back.ask("resume", token=made["token"])["error"]
    assert error["code"] == "token_expired" and "t1 stopped" in error["message"]
