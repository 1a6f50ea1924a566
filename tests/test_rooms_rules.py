"""RULES.md at a room's tables (issue 31): the fixed-limit cap a table is
made with (R8); disconnect protections and the operator's reset (R13)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from rooms_helpers import players

from holdem.cli.main import main
from holdem.rooms import Room, Store


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


def test_r13_the_operator_gives_a_player_their_protections_again(tmp_path: Path) -> None:
    """R13 at a room: Ben, away at every other hand, is protected twice, then
    folded (two in any 24 hours); ``holdem serve --data DIR --reset-protection
    Ben``, run beside the server, gives them back from his next timeout."""
    now = [0.0]
    data = tmp_path / "room"
    data.mkdir()
    room = Room(Store(data / "room.sqlite"), seed=8, clock=lambda: now[0])
    ann, ben = players(room, 2)
    timer = {"seconds": 5, "time_bank": 0, "policy": "protect"}
    made = ann.result("create_table", name="Ann", game="cash", timer=timer, pace=0, pause=0)
    ben.result("join", code=made["code"], name="Ben")
    ann.result("start", table=made["table"])

    def play(hand: int, away: bool) -> list[str]:
        """Hand ``hand`` played to its end: Ann raises when she may; Ben lets
        his first turn run out when ``away``, else calls or checks.  What
        Ben did in it."""
        timed_out = False
        while not any(m.get("event") == "hand_ended" and m["hand"] == hand for m in ann.stream):
            player, turn = next((p, t) for p in (ann, ben) for t in p.turns() if t["hand"] == hand)
            turn["_answered"] = True
            legal = turn["view"]["legal"]
            if player is ben and away and not timed_out:
                timed_out = True
                now[0] += 6
                for conn, line in room.tick():
                    for who in (ann, ben):
                        if conn == who.conn:
                            who.take([json.loads(line)])
                continue
            action = (
                {"kind": legal["wager"], "to": legal["min_to"]}
                if player is ann and legal["wager"] is not None
                else {"kind": "check" if legal["check"] else "call"}
            )
            player.result("act", table=made["table"], action=action)
        actions = [m["action"] for m in ann.stream if m.get("event") == "action"
                   and m["hand"] == hand and m["action"].get("seat") == 1]  # fmt: skip
        return [a["kind"] for a in actions if a["kind"] in ("timeout", "fold")]

    assert [play(n, away=n % 2 == 1) for n in range(1, 6)] == [
        ["timeout"], [], ["timeout"], [], ["fold"],
    ]  # fmt: skip
    reset = CliRunner().invoke(main, ["serve", "--data", str(data), "--reset-protection", "Ben"])
    assert reset.exit_code == 0, reset.output
    assert reset.output == (
        f"Ben's disconnect protections count from none again at every table of "
        f"{data / 'room.sqlite'} (Ben has a seat at t1); a server serving it counts so from "
        "their next timeout\n"
    )
    assert [play(n, away=n % 2 == 1) for n in (6, 7)] == [[], ["timeout"]]


def test_r13_a_reset_names_what_it_cannot_do(tmp_path: Path) -> None:
    runner = CliRunner()
    missing = runner.invoke(main, ["serve", "--data", str(tmp_path), "--reset-protection", "Ben"])
    assert missing.exit_code == 2
    assert f"{tmp_path}: no room data here (room.sqlite)" in missing.output
    Store(tmp_path / "room.sqlite").close()
    blank = runner.invoke(main, ["serve", "--data", str(tmp_path), "--reset-protection", " "])
    assert blank.exit_code == 2 and "a player's name, 1 to 40 printable characters" in blank.output
    both = runner.invoke(main, ["serve", "--data", str(tmp_path), "--reset-protection", "Ben",
                                "--check"])  # fmt: skip
    assert both.exit_code == 2 and "one at a time" in both.output
    nobody = runner.invoke(main, ["serve", "--data", str(tmp_path), "--reset-protection", "Zed"])
    assert nobody.exit_code == 0 and "(Zed has no seat at a table now)" in nobody.output
