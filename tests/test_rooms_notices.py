"""What a room's notices carry, through a server on loopback (issue 29): the
events a client says a line for (a player came, left, dropped, is away or
back; the blinds went up; a player is out) each carry the number of the hand
they happened at, and an elimination its place and who knocked the player
out, so that every client can say the same true thing."""

from __future__ import annotations

import random
import sys
from typing import Any

import pytest
from rooms_helpers import FAST, Server, play

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="signals and process groups")

NOTICES = ("player_joined", "player_left", "seat_status", "level_up", "player_eliminated")


def test_every_notice_carries_its_hand_and_an_elimination_its_place_and_by(
    server: Server,
) -> None:
    ann, ben, cid = server.client("Ann"), server.client("Ben"), server.client("Cid")
    made = ann.request("create_table", name="Ann", **FAST)
    cid.request("watch", code=made["code"])
    ben_token = ben.request("join", code=made["code"], name="Ben")["token"]
    ann.request("add_bots", table="t1", level="calling-station", count=2)
    ann.request("start", table="t1")
    streams: dict[str, list[dict[str, Any]]] = {"Ann": [], "Ben": [], "Cid": []}
    clients = {"Ann": ann, "Ben": ben, "Cid": cid}
    started = lambda: [m for m in streams["Cid"] if m.get("event") == "hand_started"]  # noqa: E731
    rng = random.Random(6)
    play(clients, streams, rng, until=lambda: len(started()) >= 2, passive=True)
    # Ben drops mid-game and comes back, then leaves (his stack plays on, away)
    ben.close()
    del clients["Ben"]
    dropped = lambda: any(m.get("event") == "seat_status" for m in streams["Cid"])  # noqa: E731
    play(clients, streams, rng, until=dropped, passive=True)
    back = server.client("Ben")
    back.request("resume", token=ben_token)
    state = back.request("state", table="t1")
    leaving_at = state["hands_played"] + (state["hand"] is not None)
    back.request("leave", table="t1")
    over = lambda: any(m.get("event") == "table_finished" for m in streams["Cid"])  # noqa: E731
    play(clients, streams, rng, until=over, seconds=120)
    stream = streams["Cid"]
    notices = [m for m in stream if m.get("event") in NOTICES]
    kinds = {m["event"] for m in notices}
    assert kinds == set(NOTICES), kinds
    assert all(isinstance(m.get("hand"), int) for m in notices), notices
    joined = [m for m in notices if m["event"] == "player_joined"]
    assert [(m["name"], m["hand"]) for m in joined] == [("Ben", 0), ("Station 1", 0),
                                                        ("Station 2", 0)]  # fmt: skip
    (left,) = [m for m in notices if m["event"] == "player_left"]
    # (a hand may begin between the state and the leave: then the leave is at it)
    assert left["name"] == "Ben" and left["hand"] in (leaving_at, leaving_at + 1), left
    leaving_at = left["hand"]
    statuses = [(m["status"], m["hand"]) for m in notices if m["event"] == "seat_status"]
    assert [s for s, _ in statuses][:2] == ["disconnected", "connected"]
    assert all(1 <= n <= leaving_at for _, n in statuses[:2])
    # the blinds go up at the hand dealt next; a player is out at the hand that busted them
    for i, m in enumerate(stream):
        if m.get("event") == "level_up":
            after = next(x for x in stream[i:] if x.get("event") == "hand_started")
            assert after["hand"] == m["hand"]
        if m.get("event") == "player_eliminated":
            before = [x for x in stream[:i] if x.get("event") == "hand_ended"][-1]
            assert before["hand"] == m["hand"]
            assert isinstance(m["place"], int) and 2 <= m["place"] <= 4
            assert m["by"] and set(m["by"]) <= {"Ann", "Ben", "Station 1", "Station 2"}
            assert m["name"] not in m["by"]
    places = sorted(m["place"] for m in notices if m["event"] == "player_eliminated")
    assert places == [2, 3, 4]
