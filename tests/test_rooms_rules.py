"""RULES.md at a room's tables (issue 31): the fixed-limit cap a table is
made with (R8)."""

from __future__ import annotations

from typing import Any

from rooms_helpers import players

from holdem.rooms import Room


def raise_through_hand(people: list[Any], number: int) -> dict[str, int]:
    """Plays hand ``number`` raising at every turn the menu allows it (else
    calling or checking); the highest bet seen on each street, in units of
    that street's bet (10 preflop and on the flop, 20 after)."""
    highest: dict[str, int] = {}
    while True:
        pending = [(p, t) for p in people for t in p.turns() if t["hand"] == number]
        if not pending:
            return highest
        for player, turn in pending:
            turn["_answered"] = True
            view, legal = turn["view"], turn["view"]["legal"]
            unit = 10 if view["street"] in ("preflop", "flop") else 20
            street = view["street"]
            highest[street] = max(highest.get(street, 0), view["current_bet"] // unit)
            if legal["wager"] is not None:
                action = {"kind": legal["wager"], "to": legal["min_to"]}
            else:
                action = {"kind": "check"} if legal["check"] else {"kind": "call"}
            reply = player.ask("act", table=turn["table"], action=action)
            assert "result" in reply, reply


def test_r08_a_room_s_fixed_limit_table_caps_heads_up_as_its_settings_say() -> None:
    """R8 at a room: a cash table lifts the cap heads-up by default; one made
    with ``"heads_up_cap": "never"`` (a limit room with no heads-up exception)
    caps every round at a bet and three raises; a freezeout caps always."""
    seen = {}
    for policy in (None, "never"):
        room = Room(seed=4)
        ann, ben = players(room, 2)
        options = {} if policy is None else {"heads_up_cap": policy}
        made = ann.result("create_table", name="Ann", game="cash", structure="fixed_limit",
                          small_blind=5, big_blind=10, max_buy_in=400, pace=0, pause=0,
                          **options)  # fmt: skip
        settings = made["state"]["settings"]
        assert (settings["raise_cap"], settings["heads_up_cap"]) == (3, policy or "two_left")
        ben.result("join", code=made["code"], name="Ben")
        ann.result("start", table=made["table"])
        seen[policy] = raise_through_hand([ann, ben], 1)
    assert max(seen[None].values()) > 4  # (raised on and on)
    assert seen["never"] == {"preflop": 4, "flop": 4, "turn": 4, "river": 4}
    room = Room(seed=4)
    (ann,) = players(room, 1)
    made = ann.result("create_table", name="Ann", structure="fixed_limit", pace=0, pause=0)
    assert made["state"]["settings"]["heads_up_cap"] == "never"


def test_r08_a_cap_at_a_table_that_is_not_fixed_limit_is_refused_naming_it() -> None:
    room = Room(seed=4)
    (ann,) = players(room, 1)
    reply = ann.ask("create_table", name="Ann", heads_up_cap="never")
    assert reply["error"]["code"] == "bad_config"
    assert reply["error"]["message"] == (
        "request.heads_up_cap: only a fixed-limit table (structure fixed_limit) has a cap, "
        "not a no_limit one"
    )
    reply = ann.ask("create_table", name="Ann", structure="fixed_limit", heads_up_cap="maybe")
    assert reply["error"]["code"] == "invalid_field" and "heads_up_cap" in reply["error"]["message"]
    assert room.tables == {}
