"""The room store writes behind (``holdem serve --workers``: several
processes share its file): a write waits in memory until commit, which runs
the writes in order in one short transaction; a read sees every write made
before it; two connections to one file commit in turn."""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from holdem.rooms import Store
from holdem.rooms.store import LiveRow, SeatRow


def _rows(path: Path, query: str) -> list[tuple[Any, ...]]:
    """What another connection reads in the file (committed data only)."""
    with contextlib.closing(sqlite3.connect(path)) as db:
        return db.execute(query).fetchall()


def test_a_write_is_in_the_file_only_once_committed(tmp_path: Path) -> None:
    path = tmp_path / "room.sqlite"
    store = Store(path)
    store.new_table("t1", "ABCD-EFGH", "cash", public=True, settings={"seats": 6})
    store.save_seat("t1", 0, "Ann", token_hash="a" * 64, creator=True)
    assert store.dirty
    assert _rows(path, "SELECT id FROM tables") == []
    store.commit()
    assert not store.dirty
    assert _rows(path, "SELECT id FROM tables") == [("t1",)]
    assert _rows(path, "SELECT table_id, seat, name FROM seats") == [("t1", 0, "Ann")]


def test_a_read_sees_the_writes_made_before_it(tmp_path: Path) -> None:
    store = Store(tmp_path / "room.sqlite")
    store.new_table("t1", "ABCD-EFGH", "tournament", public=False, settings={"seats": 6})
    assert [row.id for row in store.tables()] == ["t1"]  # (it committed them)
    assert not store.dirty
    store.save_seat("t1", 0, "Ann")
    assert [row.name for row in store.seats("t1")] == ["Ann"]


def test_the_writes_run_in_the_order_they_were_made(tmp_path: Path) -> None:
    path = tmp_path / "room.sqlite"
    store = Store(path)
    store.new_table("t1", "ABCD-EFGH", "cash", public=False, settings={"seats": 6})
    store.save_seat("t1", 2, "Ann", buy_in=100)
    store.set_status("t1", "playing")
    store.save_seat("t1", 2, "Ben", buy_in=80)  # (the seat taken again: the last one stays)
    store.add_chips("t1", 2, 5)
    store.add_chips("t1", 2, 7)
    store.set_status("t1", "closed", {"results": {}})
    store.commit()
    assert _rows(path, "SELECT name, buy_in, added FROM seats") == [("Ben", 80, 12)]
    assert _rows(path, "SELECT status, result FROM tables") == [("closed", '{"results": {}}')]


def test_tokens_ended_and_seats_freed_leave_the_rows_they_always_did(tmp_path: Path) -> None:
    now = [100.0]
    store = Store(tmp_path / "room.sqlite", clock=lambda: now[0])
    store.new_table("t1", "ABCD-EFGH", "cash", public=False, settings={"seats": 6})
    for seat, name in enumerate(("Ann", "Ben", "Cy")):
        store.save_seat("t1", seat, name, token_hash=name * 10, creator=seat == 0)
    store.save_seat("t1", 3, "Bot 1", bot="easy")
    # Ann comes back (a new token), Ben's seat is freed, a bot's too, Cy leaves
    store.end_token("t1", "Ann" * 10, "replaced")
    store.set_token("t1", 0, "Ann2" * 10)
    store.free_seat("t1", 1, "busted")
    store.free_seat("t1", 3, "left")
    now[0] = 200.0
    store.end_token("t1", "Cy" * 10, "left")
    store.end_token("t1", "nobody", "left")  # (no seat has it: nothing)
    assert store.dirty
    assert store.seats("t1") == [
        SeatRow(seat=0, name="Ann", bot=None, token_hash="Ann2" * 10, creator=True),
        SeatRow(seat=2, name="Cy", bot=None, token_hash=None, creator=False),
    ]
    old = _rows(tmp_path / "room.sqlite", "SELECT token_hash, table_id, seat, reason, ended"
                " FROM old_tokens ORDER BY token_hash")  # fmt: skip
    assert old == [("Ann" * 10, "t1", 0, "replaced", 100.0), ("Ben" * 10, "t1", 1, "busted", 100.0),
                   ("Cy" * 10, "t1", 2, "left", 200.0)]  # fmt: skip
    assert store.old_token("Ben" * 10) == "busted" and store.old_token("nobody") is None
    assert store.token_table("Ann2" * 10) == ("t1", True)
    assert store.token_table("Cy" * 10) == ("t1", False)
    assert store.token_table("nobody") is None


def test_two_connections_to_one_file_commit_in_turn_and_both_land(tmp_path: Path) -> None:
    path = tmp_path / "room.sqlite"
    first, second = Store(path), Store(path)
    for n in range(1, 21):
        store = first if n % 2 else second
        store.new_table(f"t{n}", f"CODE-{n:04d}", "cash", public=n % 4 == 1,
                        settings={"seats": 6, "small_blind": 1, "big_blind": 2})  # fmt: skip
        store.save_seat(f"t{n}", 0, "Ann", token_hash=f"{n:064d}")
        if n % 3 == 0:  # (each commits now and then: the other's writes wait meanwhile)
            first.commit()
            second.commit()
    first.commit()
    second.commit()
    assert [row.id for row in first.tables()] == [f"t{n}" for n in range(1, 21)]
    assert second.next_table_number() == 21
    assert first.table_with_code("CODE-0004") == "t4" and first.table_with_code("NONE") is None
    live = second.live_tables()
    assert [row.id for row in live] == [f"t{n}" for n in range(1, 21)]  # (by number)
    assert live[0] == LiveRow(id="t1", game="cash", public=True, status="waiting",
                              settings={"seats": 6, "small_blind": 1, "big_blind": 2},
                              players=1)  # fmt: skip
    assert first.public("t2") is False and first.public("t99") is None


def test_a_commit_that_waits_too_long_keeps_its_writes_for_the_next(tmp_path: Path) -> None:
    path = tmp_path / "room.sqlite"
    store = Store(path, busy=0.05)
    store.new_table("t1", "ABCD-EFGH", "cash", public=False, settings={"seats": 6})
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # (another process holds the file's write lock)
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        store.commit()
    assert store.dirty
    other.execute("COMMIT")
    other.close()
    store.commit()
    assert _rows(path, "SELECT id FROM tables") == [("t1",)]


def test_a_refused_write_drops_its_table_s_writes_from_it_on_and_keeps_the_rest(
    tmp_path: Path,
) -> None:
    path = tmp_path / "room.sqlite"
    store = Store(path)
    for ident, code in (("t1", "ABCD-EFGH"), ("t2", "JKMN-PQRS")):
        store.new_table(ident, code, "cash", public=False, settings={"seats": 6})
        store.save_seat(ident, 0, "Ann", token_hash=ident * 32, creator=True, buy_in=200)
    store.commit()
    store.save_snapshot("t1", {"hands": 1})  # (kept: before the refused write)
    store.save_snapshot("t2", {"hands": 1})
    store.new_table("t1", "ABCD-EFGH", "cash", public=False, settings={"seats": 6})  # (refused)
    store.save_snapshot("t1", {"hands": 2})  # (dropped: after it)
    store.save_snapshot("t2", {"hands": 2})
    store.commit()
    refused = store.take_refused()
    assert list(refused) == ["t1"] and isinstance(refused["t1"], sqlite3.IntegrityError)
    assert store.take_refused() == {} and not store.dirty
    assert _rows(path, "SELECT id, snapshot FROM tables ORDER BY id") == [
        ("t1", '{"hands":1}'), ("t2", '{"hands":2}')]  # fmt: skip
    # (the seats' buy-ins cleared by the snapshots kept; a later snapshot clears no more)
    assert _rows(path, "SELECT buy_in, added FROM seats") == [(None, 0), (None, 0)]
    store.save_seat("t1", 1, "Ben", token_hash="b" * 64, buy_in=100)
    store.save_snapshot("t1", {"hands": 3})
    store.commit()
    assert _rows(path, "SELECT seat, buy_in FROM seats WHERE table_id = 't1'") == [
        (0, None), (1, None)]  # fmt: skip
