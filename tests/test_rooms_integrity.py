"""What a room server keeps survives what can happen to it (issue 28): a
crash in a hand keeps every seat's buy-ins and cash-outs; the files that
hold join codes, tokens and hole cards are the user's alone."""

from __future__ import annotations

import contextlib
import json
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rooms_helpers import FAST, Server, players

import holdem.cli.join as join_module
from holdem.rooms import Room, Store


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
        join_module._remember("127.0.0.1:7777 ABCD-EFGH", {"token": "secret"})
        assert _mode(seats) == 0o600
        assert json.loads(seats.read_text()) == {"127.0.0.1:7777 ABCD-EFGH": {"token": "secret"}}
        monkeypatch.undo()
        seats.chmod(0o644)  # (written by an older holdem join)
        monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
        join_module._remember("127.0.0.1:7777 ABCD-EFGH", None)
    assert _mode(seats) == 0o600 and json.loads(seats.read_text()) == {}
    assert [p.name for p in seats.parent.iterdir()] == ["seats.json"]  # (no part left)
