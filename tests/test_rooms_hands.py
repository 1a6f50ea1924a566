"""A player's hands from the room through a server on loopback (issue 29):
``history`` gives a seat its own hole cards in the hands it was dealt in,
and never another seat's that were not shown (a watcher: the cards shown
alone); ``hands`` lists a seat's hands with what it won or lost; a token,
connected or not, even one that ended when its player left, reads its own
hands (and only its own: not those of the next player at the seat); many
hands come as one text, as many as the limit says."""

from __future__ import annotations

import random
import sqlite3
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from rooms_helpers import Server, allowed_cards, older_schema, play, play_out, players, served

from holdem.cards import format_card
from holdem.clients import RoomClient
from holdem.errors import ProtocolError
from holdem.histories import DEAL_HOLE, SHOW, HandHistory, read_phh_text, read_pokerstars_text
from holdem.rooms import Limits, Room, Store
from holdem.rooms.codes import token_hash

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="signals and process groups")

Streams = dict[str, list[dict[str, Any]]]


def _refused(client: RoomClient, kind: str, **fields: Any) -> ProtocolError:
    with pytest.raises(ProtocolError) as refused:
        client.request(kind, **fields)
    return refused.value


def _ended(stream: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [m for m in stream if m.get("event") == "hand_ended"]


def _histories(text: str, form: str) -> list[HandHistory]:
    read = read_phh_text if form == "phh" else read_pokerstars_text
    hands = list(read(text))
    assert all(isinstance(h, HandHistory) for h in hands), hands
    return hands  # type: ignore[return-value]


def _known(history: HandHistory) -> dict[int, set[str]]:
    """The cards a history gives each table seat (dealt or shown)."""
    known: dict[int, set[str]] = {}
    for move in history.moves:
        if move.kind in (DEAL_HOLE, SHOW) and move.actor is not None:
            seat = history.players[move.actor].seat
            assert seat is not None
            cards = {format_card(c) for c in move.cards if c is not None}
            if cards:
                known.setdefault(seat - 1, set()).update(cards)
    return known


def _own(record: dict[str, Any], seat: int) -> set[str] | None:
    """A seat's hole cards in a stored hand (None: not dealt in)."""
    seats = record["config"]["seats"]
    return set(record["hole_cards"][seats.index(seat)]) if seat in seats else None


def _check_history(history: HandHistory, record: dict[str, Any], seat: int | None,
                   *, own: bool = True) -> None:  # fmt: skip
    """A seat's (None: a watcher's) history of a stored hand holds no card its
    reader may not see, and (``own``) the reader's hole cards if dealt in."""
    known = _known(history)
    allowed = allowed_cards(record, seat if own else None, over=True)
    for at, cards in known.items():
        assert cards <= allowed, (at, cards, seat)
    mine = None if seat is None or not own else _own(record, seat)
    if mine is not None:
        assert known.get(seat) == mine


def _cash_table(
    server: Server, *, bots: int = 2
) -> tuple[RoomClient, RoomClient, dict[str, Any], str]:
    """Ann's cash table t1, Ben at seat 1 and calling stations (not begun):
    their clients, what making it gave Ann (her ``token``) and Ben's token."""
    ann, ben = server.client("Ann"), server.client("Ben")
    made = ann.request("create_table", name="Ann", game="cash", pace=0, pause=0)
    token = ben.request("join", code=made["code"], name="Ben")["token"]
    ann.request("add_bots", table="t1", level="calling-station", count=bots)
    return ann, ben, made, token


def test_history_holds_a_seat_s_own_hole_cards_and_never_another_s_unshown_ones(
    server: Server,
) -> None:
    ann, ben, made, _ = _cash_table(server)
    cid = server.client("Cid")
    cid.request("watch", code=made["code"])
    ann.request("start", table="t1")
    streams: Streams = {"Ann": [], "Ben": []}
    play({"Ann": ann, "Ben": ben}, streams, random.Random(8),
         until=lambda: len(_ended(streams["Ann"])) >= 8)  # fmt: skip
    store = Store(server.data / "room.sqlite", read_only=True)
    checked = 0
    for number in range(1, 9):
        record = store.hand("t1", number)
        assert record is not None
        for client, seat in ((ann, 0), (ben, 1), (cid, None)):
            for form in ("phh", "pokerstars"):
                got = client.request("history", table="t1", hand=number, format=form)
                assert (got["hand"], got["seat"], got["format"]) == (number, seat, form)
                (history,) = _histories(got["text"], form)
                _check_history(history, record, seat)
                checked += 1
    assert checked == 8 * 3 * 2
    store.close()


def test_hands_lists_the_hands_a_seat_was_dealt_in_with_what_it_won(server: Server) -> None:
    ann, ben, made, _ = _cash_table(server, bots=1)
    cid = server.client("Cid")
    cid.request("watch", code=made["code"])
    ann.request("start", table="t1")
    streams: Streams = {"Ann": [], "Ben": []}
    rng = random.Random(2)
    play({"Ann": ann, "Ben": ben}, streams, rng, until=lambda: len(_ended(streams["Ann"])) >= 3)
    ben.request("sit_out", table="t1")  # (Ben is dealt out of the next hands)
    play({"Ann": ann, "Ben": ben}, streams, rng, until=lambda: len(_ended(streams["Ann"])) >= 7)
    started = {m["hand"]: m for m in streams["Ann"] if m.get("event") == "hand_started"}
    for client, seat in ((ann, 0), (ben, 1)):
        listed = client.request("hands", table="t1")
        assert listed["seat"] == seat and listed["more"] is False
        expected = []
        for ended in _ended(streams["Ann"]):
            n = ended["hand"]
            if seat in ended["seats"]:
                before = started[n]["stacks"][started[n]["seats"].index(seat)]
                net = ended["stacks"][ended["seats"].index(seat)] - before
                expected.append((n, net))
        got = [(h["hand"], h["net"]) for h in listed["hands"]]
        assert got[: len(expected)] == expected  # (and the hands ended since, if any)
        assert all(isinstance(h["finished"], float) for h in listed["hands"])
    ben_hands = [h["hand"] for h in ben.request("hands", table="t1")["hands"]]
    assert len(ben_hands) < len(_ended(streams["Ann"]))  # (sat out: dealt in fewer)
    watched = cid.request("hands", table="t1")
    assert watched["seat"] is None and {h["net"] for h in watched["hands"]} == {None}
    assert [h["hand"] for h in watched["hands"]][:7] == list(range(1, 8))


def test_an_ended_token_reads_its_own_hands_and_not_the_next_player_s(server: Server) -> None:
    ann, ben, made, ben_token = _cash_table(server, bots=1)
    ann.request("start", table="t1")
    streams: Streams = {"Ann": [], "Ben": []}
    rng = random.Random(5)
    play({"Ann": ann, "Ben": ben}, streams, rng, until=lambda: len(_ended(streams["Ann"])) >= 3)
    ben.request("leave", table="t1")
    freed = lambda: any(m.get("event") == "seat_freed" and m["seat"] == 1  # noqa: E731
                        for m in streams["Ann"])  # fmt: skip
    play({"Ann": ann}, streams, rng, until=freed)
    left_at = max(m["hand"] for m in _ended(streams["Ann"]) if 1 in m["seats"])
    # another "Ben" takes the seat, and plays hands there
    other = server.client("Ben")
    joined = other.request("join", code=made["code"], name="Ben", seat=1)
    streams["Other"] = []
    clients = {"Ann": ann, "Other": other}
    theirs_ended = lambda: [m for m in _ended(streams["Ann"])  # noqa: E731
                            if m["hand"] > left_at and 1 in m["seats"]]  # fmt: skip
    play(clients, streams, rng, until=lambda: len(theirs_ended()) >= 2)
    reader = server.client("Ben")  # (not at the table: the token alone)
    with pytest.raises(ProtocolError) as expired:
        reader.request("resume", token=ben_token)
    assert expired.value.code == "token_expired"
    mine = reader.request("hands", token=ben_token)
    numbers = [h["hand"] for h in mine["hands"]]
    assert mine["table"] == "t1" and mine["seat"] == 1
    assert numbers == [m["hand"] for m in _ended(streams["Ann"]) if 1 in m["seats"]
                       and m["hand"] <= left_at]  # fmt: skip
    got = reader.request("history", token=ben_token, hands="all")
    assert got["hands"] == numbers
    store = Store(server.data / "room.sqlite", read_only=True)
    histories = _histories(got["text"], "phh")
    assert [int(str(h.hand_id)) for h in histories] == numbers
    for number, history in zip(numbers, histories, strict=True):
        record = store.hand("t1", number)
        assert record is not None
        _check_history(history, record, 1)
    # the new Ben's hands are not the old one's, nor the old one's his
    theirs = [h["hand"] for h in other.request("hands", table="t1")["hands"]]
    assert theirs and min(theirs) > left_at
    for number in range(1, left_at + 1):
        record = store.hand("t1", number)
        assert record is not None
        text = other.request("history", table="t1", hand=number)["text"]
        _check_history(_histories(text, "phh")[0], record, 1, own=False)
    later = max(theirs)
    text = reader.request("history", token=ben_token, hand=later)["text"]
    record = store.hand("t1", later)
    assert record is not None
    _check_history(_histories(text, "phh")[0], record, 1, own=False)
    store.close()
    assert joined["seat"] == 1
    # a token replaced by a resume reads nothing; a wrong one is not known
    fresh = server.client("Ann")
    fresh.request("resume", token=made["token"])
    refused = _refused(reader, "hands", token=made["token"])
    assert refused.code == "token_expired" and "replaced" in str(refused)
    assert _refused(reader, "hands", token="nonsense").code == "unknown_token"
    refused = _refused(reader, "hands", token=ben_token, table="t2")
    assert refused.code == "invalid_field" and "at table t1" in str(refused)


def test_many_hands_come_as_one_text_as_many_as_the_limit_says() -> None:
    limits = Limits(history_hands=3, hands_listed=4, hands_per_second=1e9)  # (a few pass them)
    with served(Room(seed=4, limits=limits)) as port:
        ann = RoomClient("127.0.0.1", port, timeout=20, name="Ann")
        assert {k: ann.hello["limits"][k] for k in ("history_hands", "hands_listed")} == {
            "history_hands": 3, "hands_listed": 4}  # fmt: skip
        assert "hands" in ann.hello["requests"]
        ann.request("create_table", name="Ann", game="cash", pace=0, pause=0)
        ann.request("add_bots", table="t1", level="calling-station", count=2)
        ann.request("start", table="t1")
        streams: Streams = {"Ann": []}
        play(
            {"Ann": ann}, streams, random.Random(1), until=lambda: len(_ended(streams["Ann"])) >= 6
        )
        for form in ("phh", "pokerstars"):
            got = ann.request("history", table="t1", hands=[3, 1, 2, 1], format=form)
            assert got["hands"] == [3, 1, 2]
            histories = _histories(got["text"], form)
            assert [int(str(h.hand_id)) for h in histories] == [3, 1, 2]
        assert got["text"].count("Dealt to Ann") == 3  # (her own cards, in each hand)
        refused = _refused(ann, "history", table="t1", hands=[1, 2, 3, 4])
        assert refused.code == "invalid_field" and "at most 3 hands a request, not 4" in str(
            refused
        )
        refused = _refused(ann, "history", table="t1", hands="all")
        assert refused.code == "invalid_field" and "a request gets at most 3" in str(refused)
        refused = _refused(ann, "history", table="t1", hands=[2, 99])
        assert refused.code == "invalid_field" and "no hand 99 finished" in str(refused)
        refused = _refused(ann, "history", table="t1", hand=1, hands=[2])
        assert refused.code == "missing_field" and "one of them" in str(refused)
        refused = _refused(ann, "history", table="t1", hands=["1"])
        assert refused.code == "invalid_field" and "hands[0]" in str(refused)
        # hands lists the latest, and the older ones on asking
        first = ann.request("hands", table="t1")
        numbers = [h["hand"] for h in first["hands"]]
        assert len(numbers) == 4 and first["more"] is True
        assert numbers == list(range(numbers[0], numbers[0] + 4))
        older = ann.request("hands", table="t1", before=numbers[0])
        assert [h["hand"] for h in older["hands"]] == list(range(1, numbers[0]))
        assert older["more"] is False
        ann.close()


def test_a_token_that_ended_before_the_server_kept_its_hands_says_so(tmp_path: Path) -> None:
    path = tmp_path / "room.sqlite"
    with sqlite3.connect(path) as db:  # (a file of schema 3: its ended tokens have no name)
        db.executescript(older_schema(3))
        db.execute("INSERT INTO meta VALUES ('schema', '3')")
        db.execute("INSERT INTO tables VALUES ('t1', 'ABCD-EFGH', 'cash', 0, '{}', 'closed', NULL,"
                   " NULL, 0, 0)")  # fmt: skip
        db.execute("INSERT INTO old_tokens VALUES (?, 't1', 0, 'left', 0)", (token_hash("old"),))
    room = Room(Store(path))
    conn = room.connect("127.0.0.1")
    room.handle(conn, '{"type":"hello","version":1}')
    ((_, reply),) = room.handle(conn, '{"id":1,"type":"hands","token":"old"}')
    assert '"token_expired"' in reply and "before this server kept" in reply


def test_a_stored_hand_that_does_not_read_is_refused_with_why(tmp_path: Path) -> None:
    room = Room(Store(tmp_path / "room.sqlite"), seed=2)
    (ann,) = players(room, 1)
    ann.result("create_table", name="Ann", game="cash", pace=0, pause=0)
    ann.result("add_bots", table="t1", level="calling-station", count=1)
    ann.result("start", table="t1")
    ended = lambda: sum(m.get("event") == "hand_ended" for m in ann.stream) >= 3  # noqa: E731
    play_out([ann], random.Random(1), until=ended)  # (hands 1, 2 read from the file: not kept)
    assert room.store is not None
    damage = (('{"config": 1}', "hand 1: cannot be played again"), ("{cut", "hand 2: its record"))
    for number, (text, why) in enumerate(damage, 1):
        room.store._db.execute("UPDATE hands SET hand = ? WHERE number = ?", (text, number))
        error = ann.ask("history", table="t1", hand=number)["error"]
        assert error["code"] == "table_error" and f"table t1, {why}" in error["message"], error


def test_a_connection_reads_hands_at_a_bounded_rate_and_is_told_when_it_may_again() -> None:
    limits = Limits(history_hands=3, hands_per_second=1)  # (tiny: the wait is short)
    with served(Room(seed=4, limits=limits)) as port:
        ann = RoomClient("127.0.0.1", port, timeout=20, name="Ann")
        assert ann.hello["limits"]["hands_per_second"] == 1
        ann.request("create_table", name="Ann", game="cash", pace=0, pause=0)
        ann.request("add_bots", table="t1", level="calling-station", count=2)
        ann.request("start", table="t1")
        streams: Streams = {"Ann": []}
        play(
            {"Ann": ann}, streams, random.Random(1), until=lambda: len(_ended(streams["Ann"])) >= 3
        )
        ann.request("history", table="t1", hands=[1, 2, 3])  # (the first three at once)
        refused = _refused(ann, "history", table="t1", hands=[1, 2])
        assert refused.code == "rate_limited"
        message = str(refused)
        assert "at most 1 hands a second read after the first 3: 0 may be read" in message
        wait = float(message.rsplit(" in ", 1)[1].removesuffix(" s"))
        assert 0 < wait <= 2.0
        time.sleep(wait + 0.1)  # (the refusal said when: they are read then)
        assert ann.request("history", table="t1", hands=[1, 2])["hands"] == [1, 2]
        ann.close()
