"""What a room server keeps survives what can happen to it (issue 28): a
damaged data file is refused at start, checked (``holdem serve --check``)
and exported as far as it reads; one table's damaged row sets that table
aside, not the others; a crash in a hand keeps every seat's buy-ins and
cash-outs; the files that hold join codes, tokens and hole cards are the
user's alone."""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import shutil
import sqlite3
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from rooms_helpers import FAST, Server, play_out, players

from holdem.cli.main import main
from holdem.clients import keep_seat
from holdem.errors import ProtocolError, StoreError
from holdem.rooms import Room, Store
from holdem.rooms.handover import supported
from holdem.rooms.lobby import set_aside
from holdem.rooms.store import Damage, StoredHand

#: The hands each table of the room file has (at least).
HANDS = 12


@contextlib.contextmanager
def _umask(mask: int) -> Iterator[None]:
    """The process's umask (and its children's) while the block runs."""
    old = os.umask(mask)
    try:
        yield
    finally:
        os.umask(old)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _results_after_restart(path: Path, code: str, seed: int) -> dict[str, Any]:
    """The results a watcher of a room made again on the file is told."""
    again = Room(Store(path), seed=seed)  # (the room before it dropped: killed in the hand)
    (watcher,) = players(again, 1)
    results: dict[str, Any] = watcher.result("watch", code=code)["results"]
    return results


def test_a_player_who_joined_and_left_in_the_hand_a_crash_cut_stays_in_the_results(
    tmp_path: Path,
) -> None:
    path = tmp_path / "room.sqlite"
    room = Room(Store(path), seed=1)
    ann, ben, cat = players(room, 3)
    made = ann.result("create_table", name="Ann", game="cash", pace=0, pause=0, small_blind=1,
                      big_blind=2, min_buy_in=40, max_buy_in=400, buy_in=100)  # fmt: skip
    ann.result("add_bots", table="t1", level="calling-station", count=1)
    ann.result("start", table="t1")  # (Ann and the bot are dealt in; seat 2 is free)
    ben.result("join", code=made["code"], name="Ben", buy_in=150, seat=2)  # (not in the hand)
    assert ben.result("add_chips", table="t1", chips=30)["now"]
    assert ben.result("leave", table="t1")["left"]  # (at once: he was not dealt in)
    # the seat taken again in the same hand, by Cat: Ben's row is not hers
    cat.result("join", code=made["code"], name="Cat", buy_in=60, seat=2)
    told = ann.result("state", table="t1")["results"]
    assert told["Ben"] == {"bought_in": 180, "cashed_out": 180, "net": 0, "hands": 0}
    served = room.tables["t1"].served
    assert served is not None and served.table.hands_played == 0  # (the first hand goes on)
    for seed in (2, 3):  # (twice: what the first restart stored holds it too)
        results = _results_after_restart(path, made["code"], seed)
        assert results["Ben"] == told["Ben"]  # (the hand was cut: none of it happened)
        assert results["Cat"]["bought_in"] == 60
        assert sum(r["net"] for r in results.values()) == 0
    assert Store(path).seats_left("t1") == []  # (the snapshot after the restart holds them)


def test_chips_added_in_the_cut_hand_by_players_who_left_in_it_stay_in_the_results(
    tmp_path: Path,
) -> None:
    # Ben, at the snapshot's table, sits out the hand being played (two
    # timeouts); Ann plays it (with a bot and Cat): both add chips and leave
    # during it
    path = tmp_path / "room.sqlite"
    now = [0.0]
    room = Room(Store(path), seed=1, clock=lambda: now[0])
    ann, ben, cat = players(room, 3)
    made = ann.result("create_table", name="Ann", game="cash", pace=0, pause=0, small_blind=1,
                      big_blind=2, min_buy_in=40, max_buy_in=400, buy_in=100,
                      timer={"seconds": 5, "time_bank": 0})  # fmt: skip
    ben.result("join", code=made["code"], name="Ben", buy_in=300, seat=2)
    cat.result("join", code=made["code"], name="Cat", buy_in=200, seat=3)
    ann.result("add_bots", table="t1", level="calling-station", count=1)
    ann.result("start", table="t1")
    served = room.tables["t1"].served
    assert served is not None
    by = {0: ann, 3: cat}
    while not (served.table.seats[2].status == "sitting_out" and served.table.hand is not None
               and 2 not in served.table.hand.config.seats):  # fmt: skip
        hand = served.table.hand
        assert hand is not None and hand.actor is not None
        if hand.actor in by:
            legal = hand.legal_actions()
            assert legal is not None
            by[hand.actor].result("act", table="t1",
                                  action={"kind": "check" if legal.check else "call"})  # fmt: skip
        else:
            now[0] += 6  # (Ben times out)
            room.tick()
    hand = served.table.hand
    assert hand is not None and 0 in hand.config.seats
    began = dict(zip(hand.config.names or (), hand.config.stacks, strict=True))
    ben_had = served.table.seats[2].chips
    assert ben.result("add_chips", table="t1", chips=50)["now"]  # (not in the hand: at once)
    assert ben.result("leave", table="t1")["left"]
    assert ann.result("add_chips", table="t1", chips=20)["now"] is False  # (after the hand)
    assert ann.result("leave", table="t1")["left"] is False
    assert served.table.hand is hand  # (the bot and Cat play on: the hand is cut)
    results = _results_after_restart(path, made["code"], 2)
    assert results["Ben"]["bought_in"] == 300 + 50
    assert results["Ben"]["cashed_out"] == ben_had + 50
    assert results["Ann"]["bought_in"] == 100 + 20
    assert results["Ann"]["cashed_out"] == began["Ann"] + 20  # (the hand cut: she had that)
    assert sum(r["net"] for r in results.values()) == 0


def test_the_room_s_data_is_its_owner_s_alone_from_the_start(tmp_path: Path) -> None:
    data = tmp_path / "room"
    with _umask(0o022):  # (the usual one: files readable by every user)
        server = Server(data).start()
    try:
        ann = server.client("Ann")
        made = ann.request("create_table", name="Ann", **FAST)
        ann.request("add_bots", table=made["table"], level="calling-station")
        file = data / "room.sqlite"
        beside = [data / "room.sqlite-wal", data / "room.sqlite-shm"]
        assert all(each.exists() for each in beside)  # (the server has the file open)
        assert _mode(data) == 0o700
        assert {each.name: _mode(each) for each in [file, *beside]} == {
            "room.sqlite": 0o600, "room.sqlite-wal": 0o600, "room.sqlite-shm": 0o600,
        }  # fmt: skip
        ann.close()
    finally:
        server.stop()


def test_a_data_file_found_open_to_others_is_closed_to_them(tmp_path: Path) -> None:
    path = tmp_path / "room.sqlite"
    Store(path).close()
    for each in (path, tmp_path / "room.sqlite-wal", tmp_path / "room.sqlite-shm"):
        each.touch()
        each.chmod(0o664)  # (made by an older server, or copied)
    store = Store(path)
    store.new_table("t1", "ABCD-EFGH", "cash", public=False, settings={"seats": 6})
    store.commit()
    assert [_mode(each) for each in sorted(tmp_path.iterdir())] == [0o600, 0o600, 0o600]
    store.close()


def test_the_seats_file_is_never_readable_by_others(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    seats = tmp_path / "holdem" / "seats.json"

    def refused(*args: Any, **kwargs: Any) -> None:  # (a file system that keeps its modes)
        raise PermissionError("chmod refused")

    monkeypatch.setattr(Path, "chmod", refused)
    monkeypatch.setattr(os, "chmod", refused)
    with _umask(0o022):
        keep_seat("127.0.0.1:7777 ABCD-EFGH", {"token": "secret"})
        assert _mode(seats) == 0o600
        assert json.loads(seats.read_text()) == {"127.0.0.1:7777 ABCD-EFGH": {"token": "secret"}}
        monkeypatch.undo()
        seats.chmod(0o644)  # (written by an older holdem join)
        monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
        keep_seat("127.0.0.1:7777 ABCD-EFGH", None)
    assert _mode(seats) == 0o600 and json.loads(seats.read_text()) == {}
    assert [p.name for p in seats.parent.iterdir()] == ["seats.json"]  # (no part left)


# ------------------------------------------------------------ damaged data files


@pytest.fixture(scope="module")
def room_file(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """A room's data file as a server leaves it: three cash tables of a
    player and two bots each, being played, each with its hands stored;
    the players' tokens by table."""
    path = tmp_path_factory.mktemp("room") / "room.sqlite"
    store = Store(path)
    room = Room(store, seed=7)
    people = players(room, 3)
    tokens = {}
    for person in people:
        made = person.result("create_table", name="Ann", game="cash", pace=0, pause=0,
                             small_blind=1, big_blind=2, min_buy_in=40, max_buy_in=400,
                             buy_in=400)  # fmt: skip
        person.result("add_bots", table=made["table"], level="calling-station", count=2)
        person.result("start", table=made["table"])
        tokens[made["table"]] = made["token"]
    play_out(people, random.Random(7),
             until=lambda: min(store.hand_count(t) for t in tokens) >= HANDS)  # fmt: skip
    store.close()
    return path, tokens


def _copy(room_file: tuple[Path, dict[str, str]], folder: Path) -> Path:
    """A copy of the room file in ``folder`` (made): the file's path."""
    folder.mkdir()
    return Path(shutil.copy(room_file[0], folder / "room.sqlite"))


def _sql(path: Path, *statements: str) -> None:
    """Statements run on the file as another program would (SQLite's own)."""
    with contextlib.closing(sqlite3.connect(path)) as db:
        for statement in statements:
            db.execute(statement)
        db.commit()


def _garbage_in_hand(path: Path, table: str, number: int) -> None:
    """Garbage bytes written over the page of the file that holds a stored
    hand's row (a disk's damage in the middle of the file)."""
    with contextlib.closing(sqlite3.connect(path)) as db:
        (text,) = db.execute("SELECT hand FROM hands WHERE table_id = ? AND number = ?",
                             (table, number)).fetchone()  # fmt: skip
        (size,) = db.execute("PRAGMA page_size").fetchone()
    data = path.read_bytes()
    mark = text[text.index('"hole_cards"') :][:200].encode()  # (this hand's cards and board)
    at = data.index(mark)
    assert data.find(mark, at + 1) == -1
    page = at // size
    with path.open("r+b") as file:
        file.seek(page * size)
        file.write(bytes(random.Random(page).randrange(256) for _ in range(size)))


def _serve(data: Path, *options: str) -> subprocess.CompletedProcess[str]:
    """``holdem serve`` on a data folder that it is expected to refuse."""
    return subprocess.run([sys.executable, "-m", "holdem", "serve", "--listen", "127.0.0.1:0",
                           "--data", str(data), *options],
                          capture_output=True, text=True, timeout=60)  # fmt: skip


def _damaged(kind: str, path: Path) -> str:
    """Damages the file at ``path`` as ``kind`` says: what the refusal says."""
    if kind == "not a database":
        path.write_bytes(random.Random(1).randbytes(20000))
        return "not a database"
    if kind == "a damaged page":
        _garbage_in_hand(path, "t2", 5)
        return "damaged: "
    if kind == "cut short":
        path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
        return "damaged: "
    if kind == "another program's":
        path.unlink()
        _sql(path, "CREATE TABLE moz_places (id INTEGER PRIMARY KEY, url TEXT)")
        return "not a room's data file (its tables: moz_places)"
    assert kind == "a wrong schema"
    _sql(path, "ALTER TABLE hands DROP COLUMN result")
    return "not a room's data file: its table hands has the columns"


KINDS = ["not a database", "a damaged page", "cut short", "another program's", "a wrong schema"]
WORKERS = ["1", pytest.param("2", marks=pytest.mark.skipif(supported() is not None,
                                                           reason="no workers"))]  # fmt: skip


@pytest.mark.parametrize("kind", KINDS)
def test_a_damaged_data_file_is_refused_at_start_in_one_line(
    room_file: tuple[Path, dict[str, str]], tmp_path: Path, kind: str
) -> None:
    path = _copy(room_file, tmp_path / "room")
    said = _damaged(kind, path)
    before = path.read_bytes()
    with pytest.raises(StoreError, match=re.escape(said)):
        Store(path)
    for workers in ("1", "2") if supported() is None else ("1",):
        result = _serve(path.parent, "--workers", workers)
        assert result.returncode == 2, result.stderr
        (line,) = result.stderr.splitlines()
        assert line.startswith("holdem serve: error: invalid value for '--data': ")
        assert f"{path}: " in line and said in line, line
    assert path.read_bytes() == before  # (nothing written to it)


@pytest.mark.parametrize("kind", ["a damaged page", "a table's settings", "a hand's record"])
def test_check_names_each_problem_and_exits_1(
    room_file: tuple[Path, dict[str, str]], tmp_path: Path, kind: str
) -> None:
    path = _copy(room_file, tmp_path / "room")
    command = [sys.executable, "-m", "holdem", "serve", "--data", str(path.parent), "--check"]
    sound = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert sound.returncode == 0, sound.stderr
    hands = Store(path, read_only=True).hand_count()
    assert sound.stdout == f"{path}: sound: 3 tables, {hands} hands\n"
    if kind == "a damaged page":
        _garbage_in_hand(path, "t2", 5)
        wanted = {
            "table": "t2",
            "hand": 5,
            "why": "cannot be read: database disk image is malformed",
        }
    elif kind == "a table's settings":
        _sql(path, "UPDATE tables SET settings = '{\"seats\": 6,' WHERE id = 't3'")
        wanted = {"table": "t3", "hand": None,
                  "why": "settings: not JSON (Expecting property name enclosed in double quotes:"
                  " line 1 column 13 (char 12))"}  # fmt: skip
    else:
        _sql(path, "UPDATE hands SET hand = '{\"config\": 7}' WHERE table_id = 't1' AND number = 3")
        wanted = {
            "table": "t1",
            "hand": 3,
            "why": "cannot be played again: config: expected an object, not an integer",
        }
    before = path.read_bytes()
    text = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert text.returncode == 1, text.stderr
    lines = text.stdout.splitlines()
    where = f"table {wanted['table']}" + (f", hand {wanted['hand']}" if wanted["hand"] else "")
    assert f"{path}: {where}: {wanted['why']}" in lines, lines
    assert lines[-1].startswith(f"{path}: DAMAGED: {len(lines) - 1} problem")
    assert "Traceback" not in text.stderr
    data = subprocess.run([*command, "--json"], capture_output=True, text=True, timeout=60)
    assert data.returncode == 1
    report = json.loads(data.stdout)
    assert report["sound"] is False and report["tables"] == 3 and wanted in report["problems"]
    assert path.read_bytes() == before  # (a check writes nothing)


def test_check_of_a_folder_without_a_data_file_is_a_usage_error(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "holdem", "serve", "--data", str(tmp_path),
                             "--check"], capture_output=True, text=True, timeout=60)  # fmt: skip
    assert result.returncode == 2
    assert "'--data'" in result.stderr and "no room data here (room.sqlite)" in result.stderr
    assert not (tmp_path / "room.sqlite").exists()  # (a check makes nothing)


def test_one_table_s_damaged_row_sets_it_aside_and_the_others_resume(
    room_file: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    path = _copy(room_file, tmp_path / "room")
    _sql(path, "UPDATE tables SET settings = 'not json' WHERE id = 't2'")
    room = Room(Store(path), seed=1)  # (the library: before, one bad row stopped them all)
    assert sorted(room.tables) == ["t1", "t3"]
    (row,) = [r for r in Store(path).tables() if r.id == "t2"]
    assert row.status == "closed" and row.result is None  # (the row's JSON does not read)
    with contextlib.closing(sqlite3.connect(path)) as db:
        (result,) = db.execute("SELECT result FROM tables WHERE id = 't2'").fetchone()
    assert json.loads(result) == {"error": "could not be resumed: settings: not JSON "
                                  "(Expecting value: line 1 column 1 (char 0))"}  # fmt: skip


@pytest.mark.parametrize("workers", WORKERS)
@pytest.mark.parametrize("damage", ["bad JSON", "not a game"])
def test_serve_sets_aside_a_damaged_table_says_why_and_serves_the_others(
    room_file: tuple[Path, dict[str, str]], tmp_path: Path, damage: str, workers: str
) -> None:
    path = _copy(room_file, tmp_path / "room")
    tokens = room_file[1]
    if damage == "bad JSON":
        _sql(path, "UPDATE tables SET snapshot = '{\"version\": 1, ' WHERE id = 't2'")
        why = "snapshot: not JSON (Expecting property name enclosed in double quotes"
    else:
        _sql(path, "UPDATE tables SET snapshot = json_set(snapshot, '$.table.seats', 'six')"
                   " WHERE id = 't2'")  # fmt: skip
        why = "cash_game.table.seats: expected an integer, not a string"
    server = _LoudServer(path.parent, "--workers", workers).start()
    try:
        (line,) = server.before
        assert line.startswith("holdem serve: table t2 set aside (closed, not served): ")
        assert why in line, line
        assert "2 tables resumed" in server.listening
        for table in ("t1", "t3"):
            state = server.client("Ann").request("resume", token=tokens[table])["state"]
            assert state["table"] == table and state["status"] == "playing"
        with pytest.raises(ProtocolError) as refused:
            server.client("Ann").request("resume", token=tokens["t2"])
        assert refused.value.code == "token_expired" and "damaged" in str(refused.value)
    finally:
        assert server.stop() in (0, 130)
    (row,) = [r for r in Store(path, read_only=True).tables() if r.id == "t2"]
    assert row.status == "closed"


def test_damage_found_past_sqlite_s_quick_check_is_refused_all_the_same(
    room_file: tuple[Path, dict[str, str]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _copy(room_file, tmp_path / "room")

    def malformed(self: Store, *statuses: str) -> list[Any]:  # (a page that reads wrong)
        raise sqlite3.DatabaseError("database disk image is malformed")

    monkeypatch.setattr(Store, "tables", malformed)
    result = CliRunner().invoke(main, ["serve", "--data", str(path.parent),
                                       "--listen", "127.0.0.1:0"])  # fmt: skip
    assert result.exit_code == 2 and result.stdout == ""
    said = f"invalid value for '--data': {path}: damaged: database disk image is malformed"
    assert result.stderr == f"holdem serve: error: {said} (see 'holdem serve --help')\n"


def test_export_of_a_damaged_file_writes_every_hand_it_reads_and_names_the_others(
    room_file: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    path = _copy(room_file, tmp_path / "room")
    total = Store(path, read_only=True).hand_count()
    _garbage_in_hand(path, "t2", 5)
    _sql(path, "UPDATE hands SET hand = '[1' WHERE table_id = 't3' AND number = 2")
    out = tmp_path / "hands.phhs"
    result = subprocess.run([sys.executable, "-m", "holdem", "serve", "--data", str(path.parent),
                             "--export", str(out)], capture_output=True, text=True,
                            timeout=60)  # fmt: skip
    assert result.returncode == 1, result.stderr
    unread = [line for line in result.stderr.splitlines() if line.startswith("table ")]
    assert "table t2, hand 5: cannot be read: database disk image is malformed" in unread
    assert ("table t3, hand 2: its record: not JSON (Expecting ',' delimiter: line 1 column 3 "
            "(char 2))") in unread  # fmt: skip
    assert result.stderr.splitlines()[-1] == (
        f"{len(unread)} hands left out: the data file could not give them (each above)"
    )
    written = int(result.stdout.split()[0])
    assert written + len(unread) == total
    checked = subprocess.run([sys.executable, "-m", "holdem", "validate", "--json", str(out)],
                             capture_output=True, text=True, timeout=60)  # fmt: skip
    assert checked.returncode == 0 and json.loads(checked.stdout)["summary"]["hands"] == written


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_no_table_a_room_made_is_ever_set_aside(data: st.DataObject) -> None:
    """Whatever ``create_table`` took, before its start and while it plays,
    its stored row makes its table again: the check at start sets aside
    damaged tables only."""
    game = data.draw(st.sampled_from(["cash", "tournament"]))
    seconds = st.one_of(st.integers(0, 60), st.floats(0, 60).map(lambda x: round(x, 3)))
    fields: dict[str, Any] = {
        "game": game,
        "public": data.draw(st.booleans()),
        "seats": data.draw(st.integers(2, 10)),
        "structure": data.draw(st.sampled_from(["no_limit", "pot_limit", "fixed_limit"])),
        "pace": 0,
        "pause": data.draw(seconds),
        "timer": data.draw(st.fixed_dictionaries({}, optional={
            "seconds": st.integers(1, 3600), "time_bank": seconds,
            "policy": st.sampled_from(["check_fold", "protect"])})),
    }  # fmt: skip
    if game == "cash":
        big = data.draw(st.integers(1, 50))
        fields.update(small_blind=data.draw(st.integers(1, big)), big_blind=big)
        limits = {"min_buy_in": st.integers(1, 40 * big),
                  "max_buy_in": st.integers(40 * big, 200 * big)}  # fmt: skip
        fields.update(data.draw(st.fixed_dictionaries({}, optional=limits)))
    else:
        fields["stack"] = data.draw(st.integers(100, 5000))
        fields["schedule"] = data.draw(st.sampled_from(["@5h, 10/20, 20/40", "@3h, 5/10/1"]))
    store = Store(":memory:")
    room = Room(store, seed=data.draw(st.integers(0, 2**32)))
    (ann,) = players(room, 1)
    reply = ann.ask("create_table", name="Ann", **fields)
    assume("result" in reply)
    ident = reply["result"]["table"]
    assert set_aside(store) == []
    ann.result("add_bots", table=ident, level="calling-station")
    ann.result("start", table=ident)
    assert set_aside(store) == []
    for _ in range(data.draw(st.integers(0, 3))):  # (Ann folds: hands end, snapshots follow)
        hand = room.tables[ident].served.table.hand  # type: ignore[union-attr]
        if hand is not None and hand.actor == 0:
            ann.ask("act", table=ident, action={"kind": "fold"})
    assert set_aside(store) == []
    assert ident in Room(store, seed=1).tables


@pytest.mark.parametrize("kind", ["not a database", "cut short"])
def test_export_of_a_file_no_hand_can_be_read_from_is_refused_in_one_line(
    room_file: tuple[Path, dict[str, str]], tmp_path: Path, kind: str
) -> None:
    path = _copy(room_file, tmp_path / "room")
    _damaged(kind, path)
    out = tmp_path / "hands.phhs"
    result = subprocess.run([sys.executable, "-m", "holdem", "serve", "--data", str(path.parent),
                             "--export", str(out)], capture_output=True, text=True,
                            timeout=60)  # fmt: skip
    assert result.returncode == 2 and result.stdout == ""
    (line,) = result.stderr.splitlines()
    assert line.startswith(f"holdem serve: error: invalid value for '--data': {path}: cannot be "
                           "read: ")  # fmt: skip
    assert not out.exists()


def test_a_store_reads_past_a_damaged_page_hand_by_hand(
    room_file: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    path = _copy(room_file, tmp_path / "room")
    keys = [(h.table, h.number) for h in Store(path, read_only=True).hands()]
    _garbage_in_hand(path, "t1", 7)
    store = Store(path, read_only=True)
    read = list(store.read_hands())
    found = [(h.table, h.hand if isinstance(h, Damage) else h.number) for h in read]
    assert found == keys  # (each hand, read or not, in order)
    bad = [h for h in read if isinstance(h, Damage)]
    assert 1 <= len(bad) <= 4 and ("t1", 7) in [(d.table, d.hand) for d in bad]
    assert all(isinstance(h, StoredHand) for h in read if h not in bad)
    with pytest.raises(StoreError, match=r"table t1, hand \d+: cannot be read"):
        list(store.hands())


class _LoudServer(Server):
    """``holdem serve`` whose lines before its ``listening on`` line are kept."""

    def start(self) -> _LoudServer:
        command = [sys.executable, "-m", "holdem", "serve", "--listen", "127.0.0.1:0",
                   "--data", str(self.data), *self.options]  # fmt: skip
        self.process = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
        assert self.process.stderr is not None
        self.before: list[str] = []
        for line in self.process.stderr:
            found = re.search(r"listening on 127\.0\.0\.1:(\d+)", line)
            if found:
                self.port = int(found.group(1))
                self.listening = line
                return self
            self.before.append(line.rstrip("\n"))
        raise AssertionError(f"the server did not start: {self.before}")
