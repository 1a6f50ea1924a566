"""RULES.md at a room's tables (issue 31): the fixed-limit cap a table is
made with (R8); disconnect protections and the operator's reset, and the
players public tables sit out or free for their timeouts (R13); public cash
sessions that end by their hands or their time (R12); cards shown after the
hand (R10) and the mucked hands a hand's players read once it is over (R14)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any, ClassVar

import pytest
from click.testing import CliRunner
from rooms_helpers import play_out, players

from holdem.actions import Action, ActionKind
from holdem.cards import format_card
from holdem.cli.main import main
from holdem.clients import RoomGame, Teller, listing
from holdem.errors import ProtocolError
from holdem.rooms import Limits, Room, Store
from holdem.table import event_from_dict

#: Lines a test's players may send at once (its clock stands still while they play).
MANY = Limits(lines_per_second=10**6, burst=10**6)


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


def _tick(room: Room, people: list[Any], now: list[float], seconds: float) -> None:
    """The room's clock moved on ``seconds``; its timers' lines to their players."""
    now[0] += seconds
    for conn, line in room.tick():
        for player in people:
            if conn == player.conn:
                player.take([json.loads(line)])


def test_r13_a_public_freezeout_blinds_off_a_player_who_timed_out_twice_and_lists_them_away() -> (
    None
):
    """R13 at a public freezeout: Ben's two turns in a row run out; he is out
    of the deal (told, and the table told why), his stack stays in play,
    posting its blinds and folded with no turn asked, and the lobby counts
    him away until he is back."""
    now = [0.0]
    room = Room(seed=6, clock=lambda: now[0], limits=MANY)
    ann, ben, eve = players(room, 3)
    made = ann.result("create_table", name="Ann", public=True, pace=0, pause=0, stack=5000,
                      timer={"seconds": 5, "time_bank": 0})  # fmt: skip
    ben.result("join", table=made["table"], name="Ben")
    ann.result("add_bots", table=made["table"], level="calling-station", count=1)
    ann.result("start", table=made["table"])
    listed = eve.result("list_tables")["tables"]
    assert [(t["table"], t["away"]) for t in listed] == [(made["table"], 0)]
    rng = random.Random(1)

    def away() -> bool:
        return any(m.get("event") == "away" for m in ben.stream)

    for _ in range(200):  # Ben lets his timer run out; Ann plays
        play_out([ann], rng, until=away)
        if away():
            break
        _tick(room, [ann, ben], now, 6)
    told = [m for m in ann.stream if m.get("event") == "seat_status" and m["status"] == "away"]
    assert [(m["name"], m["reason"]) for m in told] == [("Ben", "two timeouts in a row")]
    assert [t["away"] for t in eve.result("list_tables")["tables"]] == [1]
    state = eve.result("state", table=made["table"])
    assert {s["name"]: s["status"] for s in state["seats"]}["Ben"] == "away"
    # blinded off: dealt in the next hands, posting, folded or checked, never asked
    turns_before = sum(m.get("event") == "turn" for m in ben.stream)
    away_from = state["hands_played"] + 1
    play_out([ann], rng, until=lambda: state_hands(eve, made["table"]) >= away_from + 6)
    seat = next(s["seat"] for s in state["seats"] if s["name"] == "Ben")
    dealt = [m for m in ann.stream if m.get("event") == "hand_started" and m["hand"] > away_from]
    assert dealt and all(seat in m["seats"] for m in dealt)
    ben_acts = [m["action"] for m in ann.stream if m.get("event") == "action"
                and m["hand"] > away_from and m["action"].get("seat") == seat]  # fmt: skip
    assert not {a["kind"] for a in ben_acts} & {"call", "bet", "raise"}  # (checked or folded)
    assert any(a["kind"] in ("small_blind", "big_blind") for a in ben_acts)
    assert sum(m.get("event") == "turn" for m in ben.stream) == turns_before
    ben.result("back", table=made["table"])
    assert [t["away"] for t in eve.result("list_tables")["tables"]] == [0]


def state_hands(player: Any, table: str) -> int:
    return int(player.result("state", table=table)["hands_played"])


def test_r13_a_public_cash_table_frees_the_seat_of_a_player_who_timed_out_twice() -> None:
    """R13 at a public cash table: two timeouts in a row free the seat, and
    the player leaves with the stack (the results count it taken away)."""
    now = [0.0]
    room = Room(seed=3, clock=lambda: now[0], limits=MANY)
    ann, ben, eve = players(room, 3)
    made = ann.result("create_table", name="Ann", game="cash", public=True, pace=0, pause=0,
                      timer={"seconds": 5, "time_bank": 0})  # fmt: skip
    ben.result("join", table=made["table"], name="Ben")
    ann.result("add_bots", table=made["table"], level="calling-station", count=1)
    ann.result("start", table=made["table"])
    rng = random.Random(2)

    def freed() -> bool:
        return any(m.get("event") == "seat_freed" for m in ann.stream)

    for _ in range(200):
        play_out([ann], rng, until=freed)
        if freed():
            break
        _tick(room, [ann, ben], now, 6)
    freed = [m for m in ann.stream if m.get("event") == "seat_freed"]
    assert [(m["name"], m["reason"]) for m in freed] == [("Ben", "timeouts")]
    state = eve.result("state", table=made["table"])
    assert "Ben" not in {s["name"] for s in state["seats"]}
    assert state["results"]["Ben"]["cashed_out"] == freed[0]["chips"] > 0
    assert [t["players"] for t in eve.result("list_tables")["tables"]] == [2]
    assert ben.ask("act", table=made["table"], action={"kind": "fold"})["error"]["code"] == (
        "not_your_seat"
    )


@pytest.mark.parametrize("limit", [{"max_hands": 3}, {"max_seconds": 60}])
def test_r12_a_public_cash_session_ends_by_its_hands_or_its_time(limit: dict[str, Any]) -> None:
    """R12 at a public cash table: the session's ``max_hands`` or
    ``max_seconds`` (from its first hand) ends it after the hand that
    reaches it: everyone is told the results, and the lobby lists it no more."""
    now = [0.0]
    room = Room(seed=5, clock=lambda: now[0], limits=MANY)
    ann, ben, eve = players(room, 3)
    made = ann.result("create_table", name="Ann", game="cash", public=True, pace=0, pause=0,
                      **limit)  # fmt: skip
    assert made["state"]["settings"][next(iter(limit))] == next(iter(limit.values()))
    ben.result("join", table=made["table"], name="Ben")
    ann.result("start", table=made["table"])
    rng = random.Random(3)
    for _ in range(500):
        if any(m.get("event") == "table_finished" for m in eve.stream + ann.stream):
            break
        play_out([ann, ben], rng, until=lambda: False, most=1)
        now[0] += 7  # (a move every 7 seconds)
    finished = [m for m in ann.stream if m.get("event") == "table_finished"]
    assert len(finished) == 1 and set(finished[0]["results"]) == {"Ann", "Ben"}
    ended = [m["hand"] for m in ann.stream if m.get("event") == "hand_ended"]
    if "max_hands" in limit:
        assert ended == [1, 2, 3]
    else:  # over after the hand being played when the minute was up
        last_begun = max(m["hand"] for m in ann.stream if m.get("event") == "hand_started")
        assert ended[-1] == last_begun and len(ended) >= 2
    assert eve.result("list_tables")["tables"] == []
    assert ann.result("state", table=made["table"])["status"] == "finished"


def test_r13_holdem_join_list_says_how_many_players_are_away() -> None:
    table = {"table": "t2", "game": "tournament", "status": "playing", "players": 5,
             "max_seats": 6, "blinds": {"small_blind": 25, "big_blind": 50, "ante": 0},
             "structure": "no_limit", "hands_played": 40, "joinable": False, "stack": 1500,
             "away": 1}  # fmt: skip
    lines = listing([table, {**table, "table": "t3", "away": 0},
                     {**table, "table": "t4", "away": None}], "127.0.0.1:7777")  # fmt: skip
    assert lines[2].endswith("  no (playing), 1 away")
    assert lines[3].endswith("  no (playing)") and lines[4].endswith("  no (playing)")


def test_holdem_join_list_keeps_its_columns_under_a_long_stake() -> None:
    """A freezeout of a big blind ante says it whole, and the columns after
    the stakes stay under their heads (a stake past 22 letters pushed them)."""
    table = {"table": "t1", "game": "tournament", "status": "waiting", "players": 1,
             "max_seats": 6, "structure": "pot_limit", "hands_played": 0, "joinable": True,
             "stack": 20000, "away": 0,
             "blinds": {"small_blind": 250, "big_blind": 500, "ante": 500,
                        "big_blind_ante": True}}  # fmt: skip
    cash = {**table, "table": "t2", "game": "cash", "stack": None,
            "blinds": {"small_blind": 1, "big_blind": 2}}  # fmt: skip
    head, long, short = listing([table, cash], "127.0.0.1:7777")[1:4]
    assert "250/500 big blind ante 500, 20,000 stack" in long
    for line in (long, short):
        assert line.index("pot limit") == head.index("structure")
        assert line.index("yes") == head.index("joinable")


def _ended(player: Any, hand: int) -> bool:
    return any(m.get("event") == "hand_ended" and m["hand"] == hand for m in player.stream)


def test_r10_a_room_s_player_shows_their_cards_after_the_hand(tmp_path: Path) -> None:
    """R10 at a room: Ann, who folded, types ``show``: everyone at the table,
    a spectator too, is told ``cards_shown``; the stored hand keeps the show
    (read from the data file once newer hands are played); a show twice, a
    spectator's and one at a table that does not allow it are refused."""
    room = Room(Store(tmp_path / "room.sqlite"), seed=11, limits=MANY)
    ann, ben, eve = players(room, 3)
    made = ann.result("create_table", name="Ann", game="cash", pace=0, pause=0)
    ben.result("join", code=made["code"], name="Ben")
    eve.result("watch", code=made["code"])
    ann.result("start", table=made["table"])

    def fold_ann(player: Any, turn: dict[str, Any]) -> dict[str, Any]:
        legal = turn["view"]["legal"]
        if player is ann:
            return {"kind": "fold"}
        return {"kind": "check"} if legal["check"] else {"kind": "call"}

    play_out([ann, ben], decide=fold_ann, until=lambda: _ended(ann, 1))
    shown = ann.result("show", table=made["table"])
    dealt = room.tables[made["table"]].served.kept[1].hole_cards(0)  # type: ignore[union-attr]
    assert shown["hand"] == 1 and shown["cards"] == [format_card(c) for c in dealt]
    for player in (ben, eve, ann):
        told = [m for m in player.stream if m.get("event") == "cards_shown"]
        assert [(m["hand"], m["seat"], m["name"], m["action"]["cards"]) for m in told] == [
            (1, 0, "Ann", shown["cards"])
        ]
    refused = ann.ask("show", table=made["table"])
    assert refused["error"]["code"] == "table_error"
    assert "their cards are shown already" in refused["error"]["message"]
    assert eve.ask("show", table=made["table"])["error"]["code"] == "not_your_seat"
    # (hand 1 now from the file)
    play_out([ann, ben], decide=fold_ann, until=lambda: _ended(ann, 3))
    text = eve.result("history", table=made["table"], hand=1)["text"]
    assert f"p{_phh_player(text, 'Ann')} sm {''.join(shown['cards'])}" in text
    closed = Room(seed=11, limits=MANY)
    cid, dan = players(closed, 2)
    other = cid.result("create_table", name="Cid", game="cash", pace=0, pause=0,
                       show_after_hand=False)  # fmt: skip
    assert other["state"]["settings"]["show_after_hand"] is False
    dan.result("join", code=other["code"], name="Dan")
    cid.result("start", table=other["table"])
    play_out([cid, dan], decide=lambda p, t: {"kind": "fold"} if t["view"]["legal"]["call"] else
            {"kind": "check"}, until=lambda: _ended(cid, 1))  # fmt: skip
    refused = cid.ask("show", table=other["table"])
    assert refused["error"] == {"code": "table_error", "field": None, "message": (
        f"table {other['table']}: this table does not let players show their cards after "
        "the hand")}  # fmt: skip


def _phh_player(text: str, name: str) -> int:
    """The PHH player number (p1 ...) of ``name`` in one hand's text."""
    line = next(line for line in text.splitlines() if line.startswith("players = "))
    return int(json.loads(line.partition("=")[2]).index(name)) + 1


def test_r14_a_hand_s_players_read_its_mucked_hands_once_it_is_over() -> None:
    """R14: once a hand is over its players read, in its history, the hands
    mucked at its showdown; a spectator, and a player who was not dealt in
    it, read only the cards shown."""
    room = Room(seed=2, limits=MANY)
    ann, ben, cid, eve = players(room, 4)
    made = ann.result("create_table", name="Ann", game="cash", pace=0, pause=0)
    for player, name in ((ben, "Ben"), (cid, "Cid")):
        player.result("join", code=made["code"], name=name)
    eve.result("watch", code=made["code"])
    ann.result("start", table=made["table"])

    def passive(player: Any, turn: dict[str, Any]) -> dict[str, Any]:
        return {"kind": "check"} if turn["view"]["legal"]["check"] else {"kind": "call"}

    served = room.tables[made["table"]].served
    assert served is not None

    def mucked() -> int | None:
        for number, hand in served.kept.items():
            if any(a.kind is ActionKind.MUCK for a in hand.log):
                return number
        return None

    play_out([ann, ben, cid], decide=passive, until=lambda: mucked() is not None)
    number = mucked()
    assert number is not None
    hand = served.kept[number]
    mucker = next(a.seat for a in hand.log if a.kind is ActionKind.MUCK)
    assert mucker is not None
    cards = "".join(format_card(c) for c in hand.hole_cards(mucker) or ())
    by_seat = {0: ann, 1: ben, 2: cid}
    for seat, player in by_seat.items():
        text = player.result("history", table=made["table"], hand=number)["text"]
        assert cards in text, (seat, text)  # (its players: the mucked hand too)
    watched = eve.result("history", table=made["table"], hand=number)["text"]
    assert cards not in watched
    # (a hand being played: no history, mucked or not)
    during = ann.ask("history", table=made["table"], hand=number + 1)
    assert during["error"]["code"] == "invalid_field"


class _Asks:
    """A RoomClient that asks an in-process room (through a test's player)."""

    hello: ClassVar[dict[str, Any]] = {"limits": {}}

    def __init__(self, player: Any) -> None:
        self.player = player

    def request(self, kind: str, **fields: Any) -> dict[str, Any]:
        reply = self.player.ask(kind, **fields)
        if "error" in reply:
            raise ProtocolError(reply["error"]["code"], reply["error"]["message"])
        return reply["result"]  # type: ignore[no-any-return]


def test_r10_holdem_join_s_show_word_asks_the_room_and_tells_the_show() -> None:
    """R10 in ``holdem join``'s line mode: ``show`` asks the room; the table's
    ``cards_shown`` is told ``[hand 1] You show ... after the hand`` (another
    player's: by name); a refusal is said as the room says it."""
    room = Room(seed=11, limits=MANY)
    ann, ben = players(room, 2)
    made = ann.result("create_table", name="Ann", game="cash", pace=0, pause=0)
    ben.result("join", code=made["code"], name="Ben")
    said: list[str] = []
    game = RoomGame(_Asks(ann), {**made, "name": "Ann"},  # type: ignore[arg-type]
                    Teller(0, color=False, write=said.append), "key")  # fmt: skip
    game.started = True
    game.typed("show", None)
    assert said[-1].startswith("Not shown: table t1: no hand has ended here since the table")
    ann.result("start", table=made["table"])
    play_out([ann, ben], decide=lambda p, t: {"kind": "fold"} if p is ann else
            {"kind": "check"} if t["view"]["legal"]["check"] else {"kind": "call"},
            until=lambda: _ended(ann, 1))  # fmt: skip
    game.typed("show", None)
    told = [m for m in ann.stream if m.get("event") == "cards_shown"]
    assert len(told) == 1
    game.tell(told[0])
    cards = " ".join(format_card(c) for c in Action.from_dict(told[0]["action"]).cards)
    plain = said[-1].translate(str.maketrans("♣♦♥♠", "cdhs"))
    assert plain == f"[hand 1] You show {cards} after the hand"
    other: list[str] = []
    Teller(1, color=False, write=other.append).event(
        event_from_dict({k: v for k, v in told[0].items() if k != "table"})
    )
    assert other[-1].translate(str.maketrans("♣♦♥♠", "cdhs")) == (
        f"[hand 1] seat 1 shows {cards} after the hand"
    )
