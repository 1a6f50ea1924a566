"""Sitting out through a room server on loopback (issue 29): a cash seat is
out of the deal from the next hand and comes back with ``back`` by the
blinds rule (wait for the big blind, or post); a tournament stack is dealt
in and checked or folded for at once; the others are told (``seat_status``
``away``, ``sat out``); a resume does not deal in a player who sat out."""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from typing import Any

import pytest
from rooms_helpers import FAST, Server, play

from holdem.clients import RoomClient

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="signals and process groups")

Streams = dict[str, list[dict[str, Any]]]


def _started(stream: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [m for m in stream if m.get("event") == "hand_started"]


def _table(
    server: Server, **settings: Any
) -> tuple[dict[str, RoomClient], Streams, dict[str, Any]]:
    """Ann's table t1 with Ben and two calling stations, begun: the clients,
    their streams and what making it gave Ann (her ``token``)."""
    ann, ben = server.client("Ann"), server.client("Ben")
    made = ann.request("create_table", name="Ann", **{"pace": 0, "pause": 0, **settings})
    ben.request("join", code=made["code"], name="Ben")
    ann.request("add_bots", table="t1", level="calling-station", count=2)
    ann.request("start", table="t1")
    return {"Ann": ann, "Ben": ben}, {"Ann": [], "Ben": []}, made


def _hand_now(client: RoomClient) -> int:
    """The number of the hand being played at t1, or of the last one."""
    state = client.request("state", table="t1")
    return int(state["hands_played"]) + (state["hand"] is not None)


def _play_until(clients: dict[str, RoomClient], streams: Streams,
                until: Callable[[], bool]) -> None:  # fmt: skip
    play(clients, streams, random.Random(7), until=until, passive=True)


def test_a_cash_seat_sits_out_from_the_next_hand_and_comes_back_by_the_blinds_rule(
    server: Server,
) -> None:
    clients, streams, made = _table(server, game="cash")
    ann, ben = clients["Ann"], clients["Ben"]
    assert "sit_out" in ann.hello["requests"]
    # Ann sits out while she is dealt in: the hand is hers to finish
    deadline = time.monotonic() + 30
    while not any(m.get("event") == "turn" for m in ann.events):
        assert time.monotonic() < deadline, "Ann was not given a turn"
        ann.events.extend(ann.poll(0.05))
        for message in ben.poll(0.01):
            streams["Ben"].append(message)
            if message.get("event") == "turn":
                ben.request("act", table="t1", action={"kind": "call"})
    number = _hand_now(ann)
    out = ann.request("sit_out", table="t1")
    assert out == {"table": "t1", "seat": 0, "status": "away", "now": False}
    _play_until(clients, streams, lambda: len(_started(streams["Ben"])) >= 5)
    told = [m for m in streams["Ben"] if m.get("event") == "seat_status" and m["seat"] == 0]
    assert told[0] | {"table": "t1"} == {"event": "seat_status", "table": "t1", "seat": 0,
                                         "name": "Ann", "status": "away", "reason": "sat out",
                                         "hand": number}  # fmt: skip
    later = [m for m in _started(streams["Ben"]) if m["hand"] > number]
    assert len(later) >= 4 and all(0 not in m["seats"] for m in later)
    assert not [m for m in streams["Ann"] if m.get("event") == "turn" and m["hand"] > number]
    seats = ann.request("state", table="t1")["seats"]
    assert seats[0]["status"] == "sitting_out"
    assert ann.request("sit_out", table="t1")["now"] is True  # (asked again: as it is)
    # a resume does not deal her in: she sat out, she says when she is back
    ann.close()
    ann = clients["Ann"] = server.client("Ann")
    resumed = ann.request("resume", token=made["token"])
    assert resumed["state"]["seats"][0]["status"] == "sitting_out"
    # four hands passed her: she owes the big blind, and waits for it or posts it
    assert ann.request("back", table="t1")["status"] == "waiting"
    assert ann.request("back", table="t1", post=True)["status"] == "posting"
    seen = len(_started(streams["Ben"]))
    _play_until(clients, streams, lambda: len(_started(streams["Ben"])) >= seen + 2)
    assert any(0 in m["seats"] for m in _started(streams["Ben"])[seen:])
    statuses = [m["status"] for m in streams["Ben"]
                if m.get("event") == "seat_status" and m["seat"] == 0]  # fmt: skip
    assert statuses == ["away", "disconnected", "connected", "back"]


def test_a_tournament_stack_that_sits_out_is_dealt_in_and_folded_for(server: Server) -> None:
    clients, streams, _ = _table(server, **FAST)
    ann = clients["Ann"]
    number = _hand_now(ann)
    out = ann.request("sit_out", table="t1")
    assert out["status"] == "away" and out["seat"] == 0
    _play_until(clients, streams, lambda: len(_started(streams["Ben"])) >= number + 4)
    assert ann.request("state", table="t1")["seats"][0]["status"] == "away"
    told = [m for m in streams["Ben"] if m.get("event") == "seat_status" and m["seat"] == 0]
    assert [(m["status"], m["reason"], m["hand"]) for m in told] == [("away", "sat out", number)]
    later = [m for m in _started(streams["Ben"]) if m["hand"] > number]
    assert len(later) >= 3 and all(0 in m["seats"] for m in later)  # (dealt in, blinded away)
    turns = [m["hand"] for m in streams["Ann"] if m.get("event") == "turn"]
    assert all(n <= number for n in turns), turns
    moves = [m["action"]["kind"] for m in streams["Ben"] if m.get("event") == "action"
             and m["hand"] > number and m["action"].get("seat") == 0]  # fmt: skip
    assert not {"call", "bet", "raise"} & set(moves)
    assert {"fold", "check"} & set(moves)
    # back: her turns come again
    assert ann.request("back", table="t1")["back"] is True
    seen = len(streams["Ann"])
    _play_until(clients, streams, lambda: any(m.get("event") == "turn"
                                              for m in streams["Ann"][seen:]))  # fmt: skip
