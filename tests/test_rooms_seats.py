"""Whose seat, coming back, and what the others are told (issue 29): two
``holdem join`` on one login each keep their own seat, a seat connected
elsewhere is taken over only when the player says so, the creator is told
the command that returns to the table, the others are told when a player
disconnects, is away or comes back, a player back is told what was missed,
and a player who left is told nothing more of the table.  In process, and
through ``holdem join`` against ``holdem serve`` on loopback."""

from __future__ import annotations

import random
import sys

import pytest
from rooms_helpers import FAST, play_out, players

from holdem.rooms import Limits, Room

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="pipes and signals")


def _status(stream: list[dict[str, object]], seat: int) -> list[object]:
    return [m["status"] for m in stream if m.get("event") == "seat_status" and m["seat"] == seat]


# ------------------------------------------------------------ in process


def test_the_others_are_told_when_a_player_disconnects_comes_back_or_is_away() -> None:
    now = [0.0]
    fast = Limits(lines_per_second=10**6, burst=10**6)  # (the clock stands still meanwhile)
    room = Room(seed=5, clock=lambda: now[0], limits=fast)
    ann, ben, cid = players(room, 3)
    made = ann.result("create_table", name="Ann", pace=0, pause=0,
                      timer={"seconds": 1, "time_bank": 0})  # fmt: skip
    token = ben.result("join", code=made["code"], name="Ben")["token"]
    ann.result("add_bots", table="t1", level="calling-station")
    ann.result("start", table="t1")
    ben._route(room.disconnect(ben.conn))
    assert _status(ann.stream, 1) == ["disconnected"]
    assert ann.stream[-1]["name"] == "Ben"
    # Ben times out twice in a row: the others are told he is out of the deal
    rng = random.Random(1)
    away = lambda: "away" in _status(ann.stream, 1)  # noqa: E731
    for _ in range(200):
        if away():
            break
        play_out([ann], rng, until=away)  # (Ann answers at once: never late)
        now[0] += 1.5
        ann._route(room.tick())
    told = [m for m in ann.stream if m.get("event") == "seat_status" and m["status"] == "away"]
    assert told and told[0]["reason"] == "two timeouts in a row"
    back = cid.result("resume", token=token)
    assert back["seat"] == 1
    assert _status(ann.stream, 1)[-1] == "connected"


def test_a_resume_that_does_not_take_over_refuses_a_connected_seat_and_changes_nothing() -> None:
    room = Room(seed=3)
    ann, ben, again = players(room, 3)  # (one address: a second client of Ben's)
    made = ann.result("create_table", name="Ann", **FAST)
    token = ben.result("join", code=made["code"], name="Ben")["token"]
    refused = again.ask("resume", token=token, take_over=False)
    assert refused["error"]["code"] == "token_in_use"
    assert "another client of yours" in refused["error"]["message"]
    assert "take_over" in refused["error"]["message"]
    # Ben's first client still plays the seat, and the token still works
    assert not any(m.get("event") == "seat_taken_over" for m in ben.stream)
    assert ben.result("state", table="t1")["seats"][1]["connected"] is True
    taken = again.result("resume", token=token)  # (take_over: true, the default)
    assert taken["seat"] == 1
    assert any(m.get("event") == "seat_taken_over" for m in ben.stream)


def test_a_player_who_leaves_is_told_nothing_more_of_the_table() -> None:
    now = [0.0]
    room = Room(seed=9, clock=lambda: now[0])
    ann, ben, cid = players(room, 3)
    made = ann.result("create_table", name="Ann", game="cash", pace=0, pause=5)
    ben.result("join", code=made["code"], name="Ben")
    cid.result("join", code=made["code"], name="Cid")
    ann.result("add_bots", table="t1", level="calling-station", count=2)
    ann.result("start", table="t1")
    assert ben.result("leave", table="t1")["left"] is False  # (in the hand: after it)
    told = len(ben.stream)
    hands = lambda: sum(m.get("event") == "hand_ended" for m in ann.stream)  # noqa: E731
    rng = random.Random(2)
    play_out([ann, cid], rng, until=lambda: hands() >= 1)
    assert hands() == 1
    assert cid.result("leave", table="t1")["left"] is True  # (between hands: at once)
    cid_told = len(cid.stream)
    for _ in range(100):
        if hands() >= 3:
            break
        now[0] += 6
        ann._route(room.tick())
        play_out([ann], rng, until=lambda: hands() >= 3)
    assert hands() >= 3
    assert ben.stream[told:] == [] and cid.stream[cid_told:] == []  # (not watchers: they left)
    assert ben.ask("state", table="t1")["error"]["code"] == "unknown_table"
