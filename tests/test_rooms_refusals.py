"""A refused request changes nothing (issue 28): whatever a client sends to a
room, a request answered with an error leaves the tables, seats, tokens and
the data file as they were, holds no table nor count, and is never an
``internal_error``; every amount has a bound, checked at the door."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st
from rooms_helpers import Player, players

from holdem.protocol.messages import encode
from holdem.rooms import REQUESTS, Room, Store
from holdem.rooms.settings import MOST_BLIND, MOST_CHIPS


class _Room:
    """A room in a state with something of everything: a cash table in a hand
    (two people and a bot), a tournament waiting, a public cash table, a
    watcher, a connection with nothing, and tokens used and current."""

    def __init__(self) -> None:
        self.now = [100.0]
        self.room = Room(Store(":memory:"), seed=9, clock=lambda: self.now[0])
        self.ann, self.ben, self.eve, self.wes = players(self.room, 4)
        made = self.ann.result("create_table", name="Ann", game="cash", pace=0, pause=0)
        self.code = made["code"]
        self.ann_token = made["token"]
        self.ben_token = self.ben.result("join", code=self.code, name="Ben")["token"]
        self.ann.result("add_bots", table="t1", level="calling-station", count=1)
        self.ann.result("start", table="t1")
        self.wes.result("watch", code=self.code)
        waiting = self.ben.result("create_table", name="Ben", **{"pace": 0, "pause": 0})
        self.waiting_code = waiting["code"]
        self.ben.result("add_bots", table=waiting["table"], level="easy", count=1)
        self.ann.result("create_table", name="Ann", game="cash", public=True)
        old = Player(self.room)
        self.old_token = old.result("resume", token=self.ben_token)["token"]  # (Ben's moved)
        self.ben_token, self.old_token = self.old_token, self.ben_token
        self.ben = old

    def seen(self) -> tuple[Any, ...]:
        """What a request may change: the file, the tables as told, the
        sessions and tokens, the codes, the ids to come, each connection's
        seats and tables watched."""
        room = self.room
        assert room.store is not None
        return (
            list(room.store._db.iterdump()),
            {ident: encode(room._state(table)) for ident, table in room.tables.items()},
            sorted(
                (s.id, s.table, s.seat, s.token_hash, s.connection, s.away, s.sat_out, *muted)
                for s in room._sessions.values()
                for muted in [sorted(s.muted)]
            ),
            sorted(room._by_token.items()),
            sorted(room._codes.items()),
            room._next_table,
            {c.id: (sorted(c.sessions), sorted(c.watching)) for c in room._connections.values()},
        )


_AMOUNTS = st.sampled_from([0, 1, 3, 80, 200, MOST_BLIND + 1, MOST_CHIPS, MOST_CHIPS + 1,
                            10**17, 10**18, 2**63, -5, 1.5, "100", None])  # fmt: skip
_FIELDS: dict[str, Any] = {
    "table": st.sampled_from(["t1", "t2", "t3", "t9", "x", 1, None]),
    "code": st.sampled_from(["CODE", "WAIT", "AAAA-BBBB", "", 7]),
    "name": st.sampled_from(["Ann", "Ben", "Cy", "Calling 1", "", " ", "x" * 41, "\x00", 3]),
    "seat": st.sampled_from([0, 1, 2, 5, 9, 10, -1, "1", None]),
    "buy_in": _AMOUNTS,
    "chips": _AMOUNTS,
    "stack": _AMOUNTS,
    "small_blind": _AMOUNTS,
    "big_blind": _AMOUNTS,
    "min_buy_in": _AMOUNTS,
    "max_buy_in": _AMOUNTS,
    "level": st.sampled_from(["easy", "hard", "nope", 1]),
    "count": st.sampled_from([1, 3, 0, 99, -1, "2"]),
    "game": st.sampled_from(["cash", "tournament", "poker", None]),
    "public": st.sampled_from([True, False, "yes"]),
    "seats": st.sampled_from([2, 6, 10, 11, 1, 0]),
    "action": st.sampled_from(
        [
            {"kind": "fold"},
            {"kind": "call"},
            {"kind": "check"},
            {"kind": "raise", "to": 10**18},
            {"kind": "bet", "to": 5},
            {"kind": "raise", "to": 2**64},
            {"kind": "fly"},
            "fold",
            None,
        ]
    ),
    "token": st.sampled_from(["ANN", "BEN", "OLD", "nope", "", 5]),
    "hand": st.sampled_from([1, 0, 99, -1, "1"]),
    "format": st.sampled_from(["phh", "pokerstars", "txt"]),
    "post": st.sampled_from([True, False, 0]),
    "version": st.sampled_from([1, 2, "1"]),
    "schedule": st.sampled_from(
        [
            "@5h, 10/20, 20/40",
            "@5h, 10/20, 10**17/2*10**17",
            "@5h, 10/20, 40000000000000000/80000000000000000",
            "nope",
        ]
    ),
    "timer": st.sampled_from([{"seconds": 5}, {"seconds": -1}, {"policy": "protect"}, "x"]),
    "text": st.sampled_from(["gl", "", " ", "x" * 201, "\x1b[2J", 5]),
    "muted": st.sampled_from([True, False, "no"]),
    "chat": st.sampled_from(["players", "everyone", "off", "x", 1]),
    "hands": st.sampled_from([[1], [1, 2], "all", [], [0], ["1"], [1] * 101, "x"]),
    "before": st.sampled_from([1, 2, 0, "1"]),
}


@st.composite
def _requests(draw: st.DrawFn) -> tuple[int, dict[str, Any]]:
    who = draw(st.integers(0, 3))
    kind = draw(st.sampled_from(REQUESTS))
    names = draw(st.lists(st.sampled_from(sorted(_FIELDS)), max_size=5, unique=True))
    request: dict[str, Any] = {"type": kind}
    for name in names:
        request[name] = draw(_FIELDS[name])
    return who, request


@settings(max_examples=300, deadline=None)
@given(st.lists(_requests(), min_size=1, max_size=6))
@example(
    [
        (
            2,
            {
                "type": "create_table",
                "name": "Cy",
                "game": "cash",
                "max_buy_in": 10**18,
                "buy_in": 10**18,
            },
        )
    ]
)  # (it left a table waiting, counted against the limits)
@example(
    [
        (2, {"type": "create_table", "name": "Cy", "stack": 10**18}),
        (2, {"type": "start", "table": "t4"}),
    ]
)  # (an internal_error at the start)
def test_a_refused_request_changes_nothing_and_no_request_fails_inside(
    requests: list[tuple[int, dict[str, Any]]],
) -> None:
    state = _Room()
    values = {"CODE": state.code, "WAIT": state.waiting_code, "ANN": state.ann_token,
              "BEN": state.ben_token, "OLD": state.old_token}  # fmt: skip
    people = [state.ann, state.ben, state.eve, state.wes]
    for who, request in requests:
        for name in ("code", "token"):
            if isinstance(request.get(name), str):
                request[name] = values.get(request[name], request[name])
        before = state.seen()
        reply = people[who].ask(request.pop("type"), **request)
        if "error" in reply:
            assert reply["error"]["code"] != "internal_error", reply
            assert state.seen() == before, (request, reply)


def test_a_resume_of_a_busted_cash_seat_gives_the_seat_back_for_a_rebuy() -> None:
    room = Room(Store(":memory:"), seed=1)
    ann, ben = players(room, 2)
    made = ann.result("create_table", name="Ann", game="cash", pace=0, pause=0,
                      min_buy_in=40, max_buy_in=40)  # fmt: skip
    joined = ben.result("join", code=made["code"], name="Ben")
    tokens = {"Ann": made["token"], "Ben": joined["token"]}
    ann.result("start", table="t1")
    for player in (ann, ben, ann, ben):  # (both all in: one of them busts)
        for turn in list(player.turns()):
            turn["_answered"] = True
            player.ask("act", table="t1", action={"kind": "all_in"})
    state = ann.result("state", table="t1")
    (busted,) = [s for s in state["seats"] if s["chips"] == 0]
    assert busted["status"] == "sitting_out"
    room.disconnect((ann if busted["name"] == "Ann" else ben).conn)
    (back,) = players(room, 1)
    resumed = back.result("resume", token=tokens[busted["name"]])  # (the seat is theirs to rebuy)
    assert resumed["seat"] == busted["seat"] and resumed["name"] == busted["name"]
    assert back.result("add_chips", table="t1", chips=40)["chips"] == 40
    (other,) = players(room, 1)
    error = other.ask("resume", token=tokens[busted["name"]])["error"]
    assert error["code"] == "token_expired" and "replaced" in error["message"]


def test_every_amount_past_its_bound_is_refused_at_the_door_with_its_field() -> None:
    room = Room(seed=1)
    (ann,) = players(room, 1)
    cases = [
        ({"stack": MOST_CHIPS + 1}, "stack"),
        ({"game": "cash", "big_blind": MOST_BLIND + 1}, "big_blind"),
        ({"game": "cash", "small_blind": 10**17, "big_blind": 10**17}, "small_blind"),
        ({"game": "cash", "max_buy_in": 10**18}, "max_buy_in"),
        ({"game": "cash", "buy_in": 10**18}, "buy_in"),
    ]
    for fields, field in cases:
        error = ann.ask("create_table", name="Ann", **fields)["error"]
        assert error["code"] == "invalid_field" and error["field"] == field, error
        assert f"{MOST_BLIND if 'blind' in field else MOST_CHIPS:,}" in error["message"]
    assert room.tables == {}
    # at the bounds, a table is made, played and kept
    made = ann.result("create_table", name="Ann", game="cash", small_blind=MOST_BLIND,
                      big_blind=MOST_BLIND, pace=0, pause=0)  # fmt: skip
    ann.result("add_bots", table=made["table"], level="calling-station", count=1)
    ann.result("start", table=made["table"])
    error = ann.ask("add_chips", table=made["table"], chips=MOST_CHIPS + 1)["error"]
    assert error["code"] == "invalid_field" and error["field"] == "chips"
    assert json.loads(encode(ann.result("state", table=made["table"])))["status"] == "playing"
