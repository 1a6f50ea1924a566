"""Rooms (issue 14), in process: private tables made and joined by code,
bots filling seats, a freezeout played to its winner, players who drop and
come back with their token, a room made again from its store, and the
refusals of wrong codes, old tokens and floods."""

from __future__ import annotations

import json
import random
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rooms_helpers import FAST, check_stream, move, older_schema, play_out, players

from holdem.protocol.messages import encode
from holdem.rooms import Limits, Room, Store, hand_of
from holdem.rooms.codes import ALPHABET, Guesses, Rate, new_code, normal_code
from holdem.rooms.lobby import check
from holdem.rooms.store import SCHEMA, SCHEMA_VERSION, SeatRow


def test_a_private_freezeout_of_two_people_and_four_bots_plays_to_a_winner(tmp_path: Path) -> None:
    store = Store(tmp_path / "room.sqlite")
    room = Room(store, seed=7)
    ann, ben = players(room, 2)
    made = ann.result("create_table", name="Ann", **FAST)
    assert made["seat"] == 0 and made["public"] is False
    joined = ben.result("join", code=made["code"].lower(), name="Ben")  # (any case)
    assert joined["seat"] == 1
    assert ann.result("add_bots", table="t1", level="random", count=2)["seats"] == [2, 3]
    assert ann.result("add_bots", table="t1", level="easy")["seats"] == [4, 5]
    ann.result("start", table="t1")
    finished = lambda: any(m.get("event") == "table_finished" for m in ann.stream)  # noqa: E731
    play_out([ann, ben], random.Random(3), until=finished)
    assert finished()
    state = ann.result("state", table="t1")
    assert state["status"] == "finished"
    places = state["result"]["places"]
    assert len(places) == 6 and places[0]["place"] == 1
    assert sum(s["chips"] for s in state["seats"]) == 6 * 400  # (the winner has them all)
    # every hand is stored, and each player's stream held only what it may see
    count = store.hand_count("t1")
    assert count == state["hands_played"] > 0
    assert check_stream(store, "t1", ann.stream, 0) > count
    assert check_stream(store, "t1", ben.stream, 1) > count
    for seat, player in ((0, ann), (1, ben)):
        own = [m for m in player.stream if m.get("event") == "hole_cards"]
        assert own and all(m["seat"] == seat for m in own)
        assert all(m["seat"] == seat for m in player.stream if m.get("event") == "turn")


def test_a_spectator_sees_public_information_only(tmp_path: Path) -> None:
    store = Store(tmp_path / "room.sqlite")
    room = Room(store, seed=2)
    ann, eve = players(room, 2)
    made = ann.result("create_table", name="Ann", **FAST)
    ann.result("add_bots", table="t1", level="random")
    assert eve.result("watch", code=made["code"])["table"] == "t1"
    ann.result("start", table="t1")
    finished = lambda: any(m.get("event") == "table_finished" for m in ann.stream)  # noqa: E731
    play_out([ann], random.Random(1), until=finished)
    assert not [m for m in eve.stream if m.get("event") in ("hole_cards", "turn")]
    assert check_stream(store, "t1", eve.stream, None) > 0
    assert eve.ask("act", table="t1", action={"kind": "fold"})["error"]["code"] == "not_your_seat"


def test_a_player_who_drops_keeps_the_seat_and_comes_back_with_the_token() -> None:
    now = [0.0]
    room = Room(seed=4, clock=lambda: now[0])
    ann, ben = players(room, 2)
    made = ann.result("create_table", name="Ann", timer={"seconds": 5, "time_bank": 0}, **FAST)
    token = ben.result("join", code=made["code"], name="Ben")["token"]
    ann.result("add_bots", table="t1", level="calling-station", count=1)
    ann.result("start", table="t1")
    room.disconnect(ben.conn)  # (mid-hand: the hand goes on)
    for _ in range(200):  # the timer plays Ben's seat (check or fold) while he is away
        now[0] += 6
        for conn, line in room.tick():
            if conn == ann.conn:
                ann.take([json.loads(line)])
        play_out([ann], random.Random(2), until=lambda: False, most=50)
        state = ann.result("state", table="t1")
        if state["hands_played"] >= 3:
            break
    seats = {s["name"]: s for s in state["seats"]}
    assert seats["Ben"]["connected"] is False
    assert seats["Ben"]["status"] == "away"  # (two timeouts in a row: played at once)
    (back,) = players(room, 1)
    resumed = back.result("resume", token=token)
    assert resumed["seat"] == 1 and resumed["name"] == "Ben"
    assert resumed["missed"] and resumed["missed_dropped"] == 0
    assert {m["event"] for m in resumed["missed"]} >= {"hand_started", "action"}
    again = {s["name"]: s for s in resumed["state"]["seats"]}["Ben"]
    assert again["connected"] is True and again["status"] != "away"
    assert again["chips"] == seats["Ben"]["chips"]
    assert resumed["token"] != token  # a new one: the old one ends
    (other,) = players(room, 1)
    error = other.ask("resume", token=token)["error"]
    assert error["code"] == "token_expired" and "replaced" in error["message"]


def test_a_room_made_again_from_its_store_resumes_the_hand_that_was_cut(tmp_path: Path) -> None:
    path = tmp_path / "room.sqlite"
    room = Room(Store(path), seed=5)
    ann, ben = players(room, 2)
    made = ann.result("create_table", name="Ann", **FAST)
    joined = ben.result("join", code=made["code"], name="Ben")
    tokens = {"Ann": made["token"], "Ben": joined["token"]}
    ann.result("add_bots", table="t1", level="easy")
    ann.result("start", table="t1")
    play_out([ann, ben], random.Random(5), until=lambda: False, most=12)
    before = ann.result("state", table="t1")
    token = next(tokens[s["name"]] for s in before["seats"] if s["name"] in tokens)
    assert before["hand"] is not None  # cut in the middle of a hand
    started = [m for m in ann.stream if m.get("event") == "hand_started"][-1]
    # (the room is dropped without closing its store: a crash)
    again = Room(Store(path), seed=6)
    table = again.tables["t1"]
    assert table.status == "playing"
    (back,) = players(again, 1)
    resumed = back.result("resume", token=token)
    state = resumed["state"]
    assert state["hands_played"] == before["hands_played"]
    chips = {s["seat"]: s["chips"] for s in state["seats"]}
    assert chips == dict(zip(started["seats"], started["stacks"], strict=True))
    assert sum(chips.values()) == 6 * 400
    # the hand is dealt again (new cards) and the game goes on
    assert state["hand"] is not None and state["hand"]["log"][0]["kind"] == "small_blind"


def test_wrong_codes_are_refused_and_guessing_is_limited() -> None:
    room = Room(seed=1, limits=Limits(guesses=3, guess_seconds=60))
    ann, mallory = players(room, 2)
    made = ann.result("create_table", name="Ann", **FAST)
    codes = [mallory.ask("join", code=new_code(), name="M")["error"]["code"] for _ in range(3)]
    assert codes == ["unknown_code"] * 3
    # now even the right code is refused for a while
    assert mallory.ask("join", code=made["code"], name="M")["error"]["code"] == "rate_limited"
    (other,) = players(room, 1, address="10.0.0.2")  # (another address is not held back)
    assert other.ask("join", code=made["code"], name="O")["result"]["seat"] == 1
    assert mallory.ask("join", table="t1", name="M")["error"]["code"] == "unknown_table"


def test_a_stolen_token_is_refused_while_its_player_is_connected() -> None:
    room = Room(seed=1)
    (ann,) = players(room, 1, address="10.0.0.1")
    made = ann.result("create_table", name="Ann", **FAST)
    (thief,) = players(room, 1, address="10.0.0.66")
    assert thief.ask("resume", token=made["token"])["error"]["code"] == "token_in_use"
    (phone,) = players(room, 1, address="10.0.0.1")  # (the same player, a new connection)
    taken = phone.result("resume", token=made["token"])
    assert taken["seat"] == 0
    assert any(m.get("event") == "seat_taken_over" for m in ann.stream)
    assert thief.ask("resume", token=made["token"])["error"]["code"] == "token_expired"


def test_tokens_of_seats_that_are_gone_are_expired(tmp_path: Path) -> None:
    room = Room(Store(tmp_path / "room.sqlite"), seed=1)
    ann, ben = players(room, 2)
    made = ann.result("create_table", name="Ann", game="cash", pace=0, pause=0)
    token = ben.result("join", code=made["code"], name="Ben")["token"]
    ben.result("leave", table="t1")
    (back,) = players(room, 1)
    error = back.ask("resume", token=token)["error"]
    assert error["code"] == "token_expired" and "left" in error["message"]


def test_floods_are_refused_and_the_other_tables_go_on() -> None:
    now = [0.0]
    room = Room(seed=1, clock=lambda: now[0], limits=Limits(lines_per_second=10, burst=20))
    ann, flood = players(room, 2)
    ann.result("create_table", name="Ann", game="cash", pace=0, pause=0)
    ann.result("add_bots", table="t1", level="calling-station")
    ann.result("start", table="t1")
    codes = []
    for _ in range(8):  # 100 lines a second from the flood; Ann plays on meanwhile
        codes += [flood.ask("list_tables").get("error", {}).get("code") for _ in range(100)]
        play_out([ann], random.Random(1), until=lambda: False, most=5)
        now[0] += 1
    assert codes.count(None) <= 20 + 8 * 10  # (the burst, then 10 a second)
    assert codes.count("rate_limited") == len(codes) - codes.count(None)
    assert ann.result("state", table="t1")["hands_played"] >= 3
    now[0] += 5  # the flood stops: its lines are served again
    assert "result" in flood.ask("list_tables")


@pytest.mark.parametrize(
    ("line", "code"),
    [
        ("not json", "malformed_json"),
        ('{"type": "fly"}', "unknown_request"),
        ('{"type": "join", "code": 7, "name": "x"}', "invalid_field"),
        ('{"type": "act", "table": "t1"}', "missing_field"),
        ('{"type": "create_table", "name": "A", "seats": 11}', "invalid_field"),
        ('{"type": "create_table", "name": "A", "colour": 1}', "unknown_field"),
        ('{"type": "start", "table": "t9"}', "unknown_table"),
        ('{"type": "resume", "token": "x"}', "unknown_token"),
        ("[1, 2]", "malformed_json"),
        ('{"type": "join", "code": "AAAA-AAAA", "name": "' + "n" * 50 + '"}', "unknown_code"),
    ],
)
def test_malformed_requests_get_their_documented_error_and_change_nothing(
    line: str, code: str
) -> None:
    room = Room(seed=1)
    (ann,) = players(room, 1)
    ann.result("create_table", name="Ann", **FAST)
    before = ann.result("state", table="t1")
    got = ann.send(line)
    assert got[0]["error"]["code"] == code, got
    assert ann.result("state", table="t1") == before


def test_the_limits_of_connections_and_tables_hold() -> None:
    room = Room(seed=1, limits=Limits(connections_per_address=2, tables_per_address=1))
    ann, _ = players(room, 2)
    with pytest.raises(Exception, match="at most 2 connections from one address"):
        room.connect("127.0.0.1")
    ann.result("create_table", name="Ann", **FAST)
    assert ann.ask("create_table", name="Ann", **FAST)["error"]["code"] == "limit"


def test_codes_are_read_back_and_the_counters_count() -> None:
    code = new_code()
    assert len(code) == 9 and all(ch in ALPHABET for ch in code.replace("-", ""))
    assert normal_code(f" {code.lower()} ") == code and normal_code("IIII-1111") is None
    guesses = Guesses(most=2, seconds=10)
    guesses.failed("a", 0)
    guesses.failed("a", 1)
    assert not guesses.allowed("a", 5) and guesses.wait("a", 5) == 5
    assert guesses.allowed("a", 10.5) and guesses.allowed("b", 5)
    rate = Rate(per_second=2, burst=2, now=0)
    assert [rate.take(0) for _ in range(3)] == [True, True, False]
    assert rate.take(0.5) and not rate.take(0.5)


def test_bots_move_at_the_table_s_pace_and_hands_wait_their_pause() -> None:
    now = [100.0]
    room = Room(seed=3, clock=lambda: now[0])
    (ann,) = players(room, 1)
    ann.result("create_table", name="Ann", game="cash", pace=2, pause=5)
    ann.result("add_bots", table="t1", level="calling-station", count=2)
    ann.result("start", table="t1")

    def actions() -> int:
        return sum(1 for m in ann.stream if m.get("event") == "action")

    def tick_to(when: float) -> None:
        now[0] = when
        for conn, line in room.tick():
            if conn == ann.conn:
                ann.take([json.loads(line)])

    play_out([ann], random.Random(1), until=lambda: False, most=1)  # (Ann, the button, first)
    posted = actions()
    assert room.next_time() == 102.0  # the next one, a bot, waits 2 seconds
    tick_to(101.9)
    assert actions() == posted
    tick_to(102.0)
    assert actions() == posted + 1
    play_out([ann], random.Random(1), until=lambda: False, most=30)  # (Ann's turns, the bots')
    for _ in range(40):  # to the end of the hand
        if any(m.get("event") == "hand_ended" for m in ann.stream):
            break
        tick_to(room.next_time() or now[0])
        play_out([ann], random.Random(1), until=lambda: False, most=5)
    ended = now[0]
    assert room.next_time() == ended + 5  # the next hand begins after the pause
    started = sum(1 for m in ann.stream if m.get("event") == "hand_started")
    tick_to(ended + 5)
    assert sum(1 for m in ann.stream if m.get("event") == "hand_started") == started + 1


def test_a_tournament_waiting_for_its_players_is_kept_across_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "room.sqlite"
    room = Room(Store(path), seed=1)
    ann, ben = players(room, 2)
    made = ann.result("create_table", name="Ann", **FAST)
    ben.result("join", code=made["code"], name="Ben")
    ann.result("add_bots", table="t1", level="easy", count=2)
    again = Room(Store(path), seed=2)
    (back,) = players(again, 1)
    resumed = back.result("resume", token=made["token"])
    names = [s["name"] for s in resumed["state"]["seats"]]
    assert resumed["state"]["status"] == "waiting" and names == ["Ann", "Ben", "Easy 1", "Easy 2"]
    assert resumed["state"]["creator"] == 0
    assert back.result("start", table="t1")["state"]["status"] == "playing"
    (late,) = players(again, 1)
    assert late.ask("join", code=made["code"], name="Cy")["error"]["code"] == "game_started"


def test_a_closed_table_ends_its_tokens_and_tells_its_players(tmp_path: Path) -> None:
    room = Room(Store(tmp_path / "room.sqlite"), seed=1)
    ann, ben = players(room, 2)
    made = ann.result("create_table", name="Ann", game="cash", pace=0, pause=0)
    token = ben.result("join", code=made["code"], name="Ben")["token"]
    assert ben.ask("close", table="t1")["error"]["code"] == "not_creator"
    assert ann.result("close", table="t1")["closed"] is True
    assert any(m.get("event") == "table_closed" for m in ben.stream)
    (back,) = players(room, 1)
    assert back.ask("resume", token=token)["error"]["code"] == "token_expired"
    state = ann.result("state", table="t1")  # (kept a while: its players watch it)
    assert state["status"] == "closed" and state["seats"] == []
    assert set(state["results"]) == {"Ann", "Ben"}
    assert sum(r["net"] for r in state["results"].values()) == 0


def test_disconnect_protection_keeps_an_absent_player_in_the_hand() -> None:
    now = [0.0]
    room = Room(seed=8, clock=lambda: now[0])
    ann, ben = players(room, 2)
    timer = {"seconds": 5, "time_bank": 0, "policy": "protect"}
    made = ann.result("create_table", name="Ann", game="cash", timer=timer, pace=0, pause=0)
    ben.result("join", code=made["code"], name="Ben")
    ann.result("start", table="t1")
    # Ann (the button) raises; Ben, gone, is protected instead of folding
    for turn in list(ann.turns()):
        turn["_answered"] = True
        legal = turn["view"]["legal"]
        ann.result("act", table="t1", action={"kind": legal["wager"], "to": legal["min_to"]})
    room.disconnect(ben.conn)
    now[0] += 6
    for conn, line in room.tick():
        if conn == ann.conn:
            ann.take([json.loads(line)])
    kinds = [m["action"]["kind"] for m in ann.stream if m.get("event") == "action"]
    assert "timeout" in kinds and "fold" not in kinds


def test_an_export_leaves_out_a_protected_hand_and_says_why(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from holdem.cli.main import main

    now = [0.0]
    room = Room(Store(tmp_path / "room.sqlite"), seed=8, clock=lambda: now[0])
    ann, ben = players(room, 2)
    timer = {"seconds": 5, "time_bank": 0, "policy": "protect"}
    made = ann.result("create_table", name="Ann", game="cash", timer=timer, pace=0, pause=0)
    ben.result("join", code=made["code"], name="Ben")
    ann.result("start", table="t1")
    served = room.tables["t1"].served
    assert served is not None
    while served.table.hands_played < 1:  # (a hand both play)
        hand = served.table.hand
        assert hand is not None
        legal = hand.legal_actions()
        assert legal is not None
        (ann if hand.actor == 0 else ben).result(
            "act", table="t1", action={"kind": "check" if legal.check else "call"})  # fmt: skip
    room.disconnect(ben.conn)
    while served.table.hand is not None:  # (Ben, gone, is protected, then away: it stops)
        hand = served.table.hand
        if hand.actor == 0:
            legal = hand.legal_actions()
            assert legal is not None
            kind = legal.wager.value if legal.wager and hand.street.label == "preflop" else (
                "check" if legal.check else "call")  # fmt: skip
            action: dict[str, object] = {"kind": kind}
            if kind in ("bet", "raise"):
                action["to"] = legal.min_to
            ann.result("act", table="t1", action=action)
        else:
            now[0] += 6
            room.tick()
    assert room.store is not None
    played = served.table.hands_played
    logs = [r["log"] for r in (room.store.hand("t1", n) for n in range(1, played + 1)) if r]
    protected = sum(any(a["kind"] == "timeout" for a in log) for log in logs)
    assert len(logs) == played >= 2 and 1 <= protected < played
    out = tmp_path / "hands.phhs"
    result = CliRunner().invoke(main, ["serve", "--data", str(tmp_path), "--export", str(out)])
    assert result.exit_code == 0, result.output
    assert f"{played - protected} hand" in result.output and out.exists()
    assert (f"{protected} hand{'s' * (protected != 1)} left out: a protected timeout has no "
            "hand-history notation") in result.output  # fmt: skip


# ---------------------------------------------------------------- review findings


def _card_runs(text: str) -> set[str]:
    """Every card a PHH or PokerStars text names ("6c3c" and "[6c 3c]" alike)."""
    import re

    runs = re.findall(r"(?<![A-Za-z])((?:[2-9TJQKA][cdhs])+)(?![a-z])", text)
    return {run[i : i + 2] for run in runs for i in range(0, len(run), 2)}


def test_a_hand_s_history_shows_only_the_cards_shown_whatever_seats_are_empty() -> None:
    from rooms_helpers import allowed_cards

    store = Store(":memory:")
    room = Room(store, seed=5)
    ann, ben, cat, eve = players(room, 4)
    made = ann.result("create_table", name="Ann", game="cash", pace=0, pause=0)
    ben.result("join", code=made["code"], name="Ben", seat=2)
    cat.result("join", code=made["code"], name="Cat", seat=4)
    eve.result("watch", code=made["code"])
    ann.result("start", table="t1")
    served = room.tables["t1"].served
    assert served is not None
    by_seat = {0: ann, 2: ben, 4: cat}
    while served.table.hands_played < 20:
        hand = served.table.hand
        assert hand is not None and hand.actor is not None
        legal = hand.legal_actions()
        assert legal is not None
        kind = (
            "muck" if legal.muck else "show" if legal.show else "check" if legal.check else "call"
        )
        by_seat[hand.actor].result("act", table="t1", action={"kind": kind})
    for number in range(1, 21):
        record = store.hand("t1", number)
        assert record is not None
        for form in ("phh", "pokerstars"):
            text = eve.result("history", table="t1", hand=number, format=form)["text"]
            assert _card_runs(text) <= allowed_cards(record, None), (number, form)


def test_a_table_that_stops_in_its_pause_leaves_no_step_due_in_the_past() -> None:
    now = [100.0]
    room = Room(seed=3, clock=lambda: now[0])
    ann, ben = players(room, 2)
    made = ann.result("create_table", name="Ann", game="cash", pace=0, pause=3)
    ben.result("join", code=made["code"], name="Ben")
    ann.result("start", table="t1")
    served = room.tables["t1"].served
    assert served is not None
    while served.table.hands_played < 1:
        hand = served.table.hand
        assert hand is not None
        (ann if hand.actor == 0 else ben).result("act", table="t1", action={"kind": "fold"})
    ben.result("leave", table="t1")  # (in the pause: one player is left)
    now[0] += 5
    room.tick()
    when = room.next_time()
    assert when is None or when > now[0]  # (else the server's loop would spin)


def test_seats_taken_and_chips_added_during_the_hand_a_server_stopped_in_are_kept(
    tmp_path: Path,
) -> None:
    path = tmp_path / "room.sqlite"
    room = Room(Store(path), seed=1)
    ann, ben = players(room, 2)
    made = ann.result("create_table", name="Ann", game="cash", pace=0, pause=0,
                      small_blind=1, big_blind=2, min_buy_in=40, max_buy_in=400,
                      buy_in=100)  # fmt: skip
    ann.result("add_bots", table="t1", level="calling-station", count=1)
    ann.result("start", table="t1")
    served = room.tables["t1"].served
    assert served is not None and served.table.hand is not None
    token = ben.result("join", code=made["code"], name="Ben", buy_in=150)["token"]  # (mid-hand)
    ann.result("add_bots", table="t1", level="hard", count=1)  # (mid-hand)
    added = ann.result("add_chips", table="t1", chips=50)
    assert added["now"] is False  # (Ann is in the hand: after it)
    stacks = {s: p.chips for s, p in served.table.seats.items() if s in (2, 3)}
    assert stacks == {2: 150, 3: 400}
    again = Room(Store(path), seed=2)  # (the first one killed in that hand)
    ann2, ben2, cat = players(again, 3)
    ann2.result("resume", token=made["token"])
    resumed = again.tables["t1"].served
    assert resumed is not None
    seats = resumed.table.seats
    assert {s: (p.name, p.chips) for s, p in seats.items()} == {
        0: ("Ann", 150),  # (100 when the hand began, and the 50 added in it)
        1: (seats[1].name, 400),
        2: ("Ben", 150),
        3: (seats[3].name, 400),
    }
    assert set(resumed.bots) == {1, 3} and resumed.levels[3] == "hard"
    assert ben2.result("resume", token=token)["seat"] == 2
    assert cat.result("join", code=made["code"], name="Cat")["seat"] == 4
    # the chips added were counted once: the snapshot holds them now, nothing waits
    assert all(row.added == 0 for row in Store(path).seats("t1"))
    third = Room(Store(path), seed=3)
    third_table = third.tables["t1"].served
    assert third_table is not None and third_table.table.seats[0].chips == 150


def _cut_hand_room(path: Path) -> tuple[Room, list[Any], dict[str, Any], list[float]]:
    """A cash table (Ann, a bot, Ben at seat 2) whose hand being played Ben
    is not in (he timed out twice and sits out): what a test then asks
    happens during that hand."""
    now = [0.0]
    room = Room(Store(path), seed=1, clock=lambda: now[0])
    ann, ben, cat = players(room, 3)
    made = ann.result("create_table", name="Ann", game="cash", pace=0, pause=0, small_blind=1,
                      big_blind=2, min_buy_in=40, max_buy_in=400, buy_in=100,
                      timer={"seconds": 5, "time_bank": 0})  # fmt: skip
    ann.result("add_bots", table="t1", level="calling-station", count=1)
    ben.result("join", code=made["code"], name="Ben", buy_in=300, seat=2)
    ann.result("start", table="t1")
    served = room.tables["t1"].served
    assert served is not None
    while not (served.table.seats[2].status == "sitting_out" and served.table.hand is not None
               and 2 not in served.table.hand.config.seats):  # fmt: skip
        hand = served.table.hand
        assert hand is not None
        if hand.actor == 0:
            legal = hand.legal_actions()
            assert legal is not None
            ann.result("act", table="t1", action={"kind": "check" if legal.check else "fold"})
        else:
            now[0] += 6  # (Ben times out)
            room.tick()
    return room, [ann, ben, cat], made, now


@pytest.mark.parametrize("who", ["Cat", "Ben"])
def test_a_seat_left_and_taken_again_in_the_hand_a_restart_cut_is_the_new_player_s(
    tmp_path: Path, who: str
) -> None:
    path = tmp_path / "room.sqlite"
    room, (_, ben, cat), made, now = _cut_hand_room(path)
    served = room.tables["t1"].served
    assert served is not None
    before = served.table.seats[2].chips
    assert ben.result("leave", table="t1")["left"]  # (not in the hand: at once)
    token = cat.result("join", code=made["code"], name=who, buy_in=50, seat=2)["token"]
    for restart in (2, 3):  # (twice: what the first one stored is right too)
        again = Room(Store(path), seed=restart, clock=lambda: now[0])
        resumed = again.tables["t1"].served
        assert resumed is not None
        assert (resumed.table.seats[2].name, resumed.table.seats[2].chips) == (who, 50)
        results = resumed.results()["results"]
        assert sum(r["net"] for r in results.values()) == 0
        ben_in = 300 + (50 if who == "Ben" else 0)
        assert (results["Ben"]["bought_in"], results["Ben"]["cashed_out"]) == (
            ben_in, before + (50 if who == "Ben" else 0))  # fmt: skip
        (player,) = players(again, 1)
        token = player.result("resume", token=token)["token"]
        assert [r.name for r in Store(path).seats("t1") if r.seat == 2] == [who]


def test_a_player_who_left_in_the_hand_a_restart_cut_is_gone_after_it(tmp_path: Path) -> None:
    path = tmp_path / "room.sqlite"
    room = Room(Store(path), seed=1)
    ann, ben = players(room, 2)
    ann.result("create_table", name="Ann", game="cash", pace=0, pause=0, small_blind=1,
               big_blind=2, min_buy_in=40, max_buy_in=400, buy_in=100)  # fmt: skip
    made_code = room.tables["t1"].code
    ben.result("join", code=made_code, name="Ben", buy_in=300)
    ann.result("add_bots", table="t1", level="calling-station", count=1)
    ann.result("start", table="t1")
    assert ben.result("leave", table="t1")["left"] is False  # (in the hand: after it)
    again = Room(Store(path), seed=2)
    resumed = again.tables["t1"].served
    assert resumed is not None
    assert {p.name for p in resumed.table.seats.values()} == {"Ann", "Station 1"}
    results = resumed.results()["results"]
    assert results["Ben"]["cashed_out"] == 300 and sum(r["net"] for r in results.values()) == 0
    assert [r.name for r in Store(path).seats("t1")] == ["Ann", "Station 1"]
    # a tournament's stack plays on, away
    tour = Room(Store(tmp_path / "t.sqlite"), seed=1)
    ann, ben = players(tour, 2)
    made = ann.result("create_table", name="Ann", game="tournament", **FAST)
    ben.result("join", code=made["code"], name="Ben")
    ann.result("add_bots", table="t1", level="calling-station", count=1)
    ann.result("start", table="t1")
    ben.result("leave", table="t1")
    back = Room(Store(tmp_path / "t.sqlite"), seed=2).tables["t1"].served
    assert back is not None and {back.table.seats[s].name for s in back.table.away} == {"Ben"}


def test_a_migration_cut_short_leaves_the_file_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sqlite3

    import holdem.rooms.store as store_module

    path = tmp_path / "room.sqlite"
    with sqlite3.connect(path) as db:
        db.executescript(older_schema(1))
        db.execute("INSERT INTO meta VALUES ('schema', '1')")
    broken = {1: (store_module.MIGRATIONS[1][0], "ALTER TABLE nowhere ADD COLUMN x INTEGER")}
    monkeypatch.setattr(store_module, "MIGRATIONS", broken)
    with pytest.raises(sqlite3.OperationalError):
        Store(path)
    monkeypatch.undo()
    with sqlite3.connect(path) as db:  # (the first change was rolled back with the rest)
        columns = [row[1] for row in db.execute("PRAGMA table_info(seats)")]
        assert "buy_in" not in columns
        assert db.execute("SELECT value FROM meta").fetchone() == ("1",)
    Store(path).close()  # (and it migrates whole now)
    other = tmp_path / "newer.sqlite"
    with sqlite3.connect(other) as db:
        db.executescript(SCHEMA)
        db.execute("INSERT INTO meta VALUES ('schema', '3.0')")
    newer = rf"schema 3\.0, this server writes schema {SCHEMA_VERSION}"
    with pytest.raises(ValueError, match=newer):
        Store(other)
    with sqlite3.connect(other) as db:
        assert db.execute("SELECT value FROM meta").fetchone() == ("3.0",)


def test_a_cash_player_back_from_sitting_out_waits_for_the_big_blind_or_posts(
    tmp_path: Path,
) -> None:
    room, (ann, ben, _), _, _ = _cut_hand_room(tmp_path / "room.sqlite")
    served = room.tables["t1"].served
    assert served is not None
    while not served.table.seats[2].missed_big:  # (the big blind passes Ben, away)
        hand = served.table.hand
        assert hand is not None
        legal = hand.legal_actions()
        assert legal is not None
        ann.result("act", table="t1", action={"kind": "check" if legal.check else "fold"})
    assert ben.result("back", table="t1")["status"] == "waiting"
    assert ben.result("back", table="t1", post=True)["status"] == "posting"
    error = ben.ask("back", table="t1", post="yes")["error"]
    assert error["code"] == "invalid_field" and error["field"] == "post"


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 2**32))
def test_random_cash_sessions_with_restarts_keep_every_chip_and_every_seat(seed: int) -> None:
    """Joins, leaves, top-ups, decisions and timeouts at random, and servers
    killed at random (a room made again on the same file): after each
    restart the results add up to zero, every seat at the game is played by
    somebody (a session or a bot) and is in the store, and each player has
    the chips they had when the cut hand began, and those they added in it."""
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "room.sqlite"
        now = [0.0]
        room = Room(Store(path), seed=seed, clock=lambda: now[0])
        (ann,) = players(room, 1)
        made = ann.result("create_table", name="Ann", game="cash", pace=0, pause=0,
                          small_blind=1, big_blind=2, min_buy_in=40, max_buy_in=400,
                          buy_in=200, timer={"seconds": 5, "time_bank": 0})  # fmt: skip
        ann.result("add_bots", table="t1", level="calling-station", count=1)
        ann.result("start", table="t1")
        tokens = {"Ann": made["token"]}
        added: dict[str, tuple[int, int]] = {}  # name -> (hand, chips added in it for after it)
        names = iter(f"P{i}" for i in range(1000))
        conn = None
        for _ in range(150):
            table = room.tables.get("t1")
            if table is None or not table.live:  # (everybody left: closed)
                break
            served = table.served
            assert served is not None
            if conn is not None and conn.conn in room._connections:
                room.disconnect(conn.conn)  # (one connection a step: gone after it)
            (conn,) = players(room, 1)
            roll = rng.random()
            if roll < 0.08:
                name = next(names)
                reply = conn.ask("join", code=made["code"], name=name, buy_in=rng.randint(40, 400))
                if "result" in reply:
                    tokens[name] = reply["result"]["token"]
            elif roll < 0.25 and tokens:
                name = rng.choice(sorted(tokens))
                reply = conn.ask("resume", token=tokens.pop(name))
                if "result" in reply:
                    tokens[name] = reply["result"]["token"]
                    if roll < 0.14:
                        conn.ask("leave", table="t1")
                        tokens.pop(name)
                    else:
                        chips = rng.randint(1, 200)
                        reply = conn.ask("add_chips", table="t1", chips=chips)
                        number = served.table.hands_played + 1
                        if "result" in reply and not reply["result"]["now"]:
                            before = added.get(name, (number, 0))
                            added[name] = (
                                number,
                                chips + (before[1] if before[0] == number else 0),
                            )
            elif roll < 0.28:  # (a turn's time runs out)
                now[0] += 6
                room.tick()
            elif roll < 0.34:
                # what each player should have: the chips they began the cut hand with
                # (those not in it: what they have), and those they added in it
                hand = served.table.hand
                number = served.table.hands_played + 1
                began = (
                    {}
                    if hand is None
                    else dict(zip(hand.config.names or (), hand.config.stacks, strict=True))
                )
                due = {p.name: began.get(p.name, p.chips) for p in served.table.seats.values()}
                for name, (when, chips) in added.items():
                    if when == number and name in due:
                        due[name] += chips
                room = Room(Store(path), seed=rng.randrange(2**32), clock=lambda: now[0])
                conn, added = None, {}  # (what was added is on the stacks again now)
                served = room.tables["t1"].served
                assert served is not None
                results = served.results()["results"]
                assert sum(r["net"] for r in results.values()) == 0
                stored = {r.seat for r in Store(path).seats("t1")}
                for seat, player in served.table.seats.items():
                    assert seat in served.owners or seat in served.bots, seat
                    assert seat in stored, seat
                    assert player.chips == due[player.name], (player.name, due)
            else:  # the player to act decides, or the timer plays the seat
                hand = served.table.hand
                actor = None if hand is None else hand.actor
                session = None if actor is None else served.owners.get(actor)
                owner = next((n for n in tokens if session is not None
                              and room._sessions[session].name == n), None)  # fmt: skip
                if hand is None or owner is None:
                    now[0] += 6
                    room.tick()
                    continue
                reply = conn.ask("resume", token=tokens.pop(owner))
                tokens[owner] = reply["result"]["token"]
                legal = hand.legal_actions()
                assert legal is not None
                kind = "check" if legal.check else "call" if rng.random() < 0.7 else "fold"
                conn.ask("act", table="t1", action={"kind": kind})


def test_a_room_file_of_the_first_schema_is_taken_to_this_one(tmp_path: Path) -> None:
    import sqlite3

    path = tmp_path / "room.sqlite"
    db = sqlite3.connect(path)
    db.executescript(older_schema(1))
    db.execute("INSERT INTO meta VALUES ('schema', '1')")
    db.execute("INSERT INTO tables VALUES ('t1', 'ABCD-EFGH', 'cash', 0, '{}', 'closed', NULL, "
               "NULL, 0, 0)")  # fmt: skip
    db.execute("INSERT INTO seats VALUES ('t1', 0, 'Ann', NULL, NULL, 1)")
    db.commit()
    db.close()
    store = Store(path)
    assert store.seats("t1") == [SeatRow(seat=0, name="Ann", bot=None, token_hash=None,
                                         creator=True, buy_in=None, added=0)]  # fmt: skip
    store.close()
    with sqlite3.connect(path) as check:
        assert check.execute("SELECT value FROM meta").fetchone() == (str(SCHEMA_VERSION),)


def test_a_data_file_of_schema_3_is_taken_to_this_one_and_checks_clean(tmp_path: Path) -> None:
    import sqlite3

    folder = tmp_path / "room"
    folder.mkdir()
    path = folder / "room.sqlite"
    with sqlite3.connect(path) as db:  # (a server of schema 3 wrote it)
        db.executescript(older_schema(3))
        db.execute("INSERT INTO meta VALUES ('schema', '3')")
        db.execute("INSERT INTO tables VALUES ('t1', 'ABCD-EFGH', 'cash', 0, '{}', 'closed', NULL,"
                   " NULL, 0, 0)")  # fmt: skip
        db.execute("INSERT INTO old_tokens VALUES ('a', 't1', 0, 'left', 0)")
    store = Store(path)
    store.save_chat("t1", 0, 0, "Ann", "hi")
    assert [c.text for c in store.chat("t1")] == ["hi"]
    old = store.token_seat("a")
    assert old is not None and old.name is None and old.reason == "left"
    store.close()
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT value FROM meta").fetchone() == (str(SCHEMA_VERSION),)
    checked = check(Store(path, read_only=True))  # (what holdem serve --check says)
    assert checked.damage == [] and checked.tables == 1


def test_a_cash_player_who_leaves_mid_hand_is_not_waited_for() -> None:
    now = [0.0]
    room = Room(seed=4, clock=lambda: now[0])
    ann, ben, cat = players(room, 3)
    made = ann.result("create_table", name="Ann", game="cash", pace=0, pause=0)
    ben.result("join", code=made["code"], name="Ben")
    cat.result("join", code=made["code"], name="Cat")
    ann.result("start", table="t1")
    served = room.tables["t1"].served
    assert served is not None
    by = {0: ann, 1: ben, 2: cat}
    while served.table.hand is not None and served.table.hand.actor != 1:
        by[served.table.hand.actor].result("act", table="t1", action={"kind": "call"})
    assert ben.result("leave", table="t1")["left"] is False  # (after the hand)
    hand = served.table.hand
    assert hand is None or hand.actor != 1  # (checked or folded for at once)


def test_the_creator_s_rights_go_to_another_player_when_the_creator_leaves() -> None:
    room = Room(seed=1)
    ann, ben = players(room, 2)
    made = ann.result("create_table", name="Ann", **FAST)
    ben.result("join", code=made["code"], name="Ben")
    ann.result("leave", table="t1")
    assert ben.result("state", table="t1")["creator"] == 1
    assert any(m.get("event") == "creator" and m["seat"] == 1 for m in ben.stream)
    ben.result("add_bots", table="t1", level="easy")
    ben.result("leave", table="t1")  # (nobody is left to start it: it closes)
    assert room.tables["t1"].status == "closed"


def test_a_player_away_is_told_and_comes_back_with_back() -> None:
    now = [0.0]
    room = Room(seed=6, clock=lambda: now[0])
    ann, ben = players(room, 2)
    timer = {"seconds": 5, "time_bank": 0}
    made = ann.result("create_table", name="Ann", timer=timer, **FAST)
    ben.result("join", code=made["code"], name="Ben")
    ann.result("add_bots", table="t1", level="calling-station", count=1)
    ann.result("start", table="t1")
    seated = [m for m in ben.stream if m.get("event") == "seated"]
    assert seated and seated[-1]["seat"] == 1
    for _ in range(100):  # Ben, connected, lets his timer run out
        if any(m.get("event") == "away" for m in ben.stream):
            break
        play_out([ann], random.Random(1), until=lambda: False, most=3)
        now[0] += 6
        for conn, line in room.tick():
            for player in (ann, ben):
                if conn == player.conn:
                    player.take([json.loads(line)])
    assert any(m.get("event") == "away" and m["seat"] == 1 for m in ben.stream)
    assert ben.result("back", table="t1")["back"] is True
    state = ben.result("state", table="t1")
    assert {s["name"]: s["status"] for s in state["seats"]}.get("Ben") != "away"


def test_rate_limits_count_every_line_and_guesses_by_network() -> None:
    now = [0.0]
    room = Room(seed=1, clock=lambda: now[0], limits=Limits(lines_per_second=10, burst=10))
    (flood,) = players(room, 1)
    replies = [json.loads(text)["error"]["code"] for text in
               (room.handle(flood.conn, b"not json")[0][1] for _ in range(30))]  # fmt: skip
    assert replies.count("rate_limited") >= 19  # (lines that are not JSON count too)
    guesses = Guesses(most=3, seconds=60)
    for host in range(5):  # one machine's IPv6 addresses are one network
        guesses.failed(f"2001:db8::{host + 1:x}", 0)
    assert not guesses.allowed("2001:db8::99", 1) and guesses.allowed("2001:db9::1", 1)


def test_tables_over_are_let_go_after_a_while() -> None:
    now = [0.0]
    room = Room(seed=1, clock=lambda: now[0], limits=Limits(keep_finished=60))
    (ann,) = players(room, 1)
    ann.result("create_table", name="Ann", game="cash", pace=0, pause=0)
    ann.result("close", table="t1")
    assert "t1" in room.tables
    now[0] += 61
    room.tick()
    assert "t1" not in room.tables


def test_a_table_closed_mid_hand_closes_when_the_hand_ends() -> None:
    room = Room(seed=2)
    ann, ben = players(room, 2)
    made = ann.result("create_table", name="Ann", game="cash", pace=0, pause=0)
    ben.result("join", code=made["code"], name="Ben")
    ann.result("start", table="t1")
    assert ann.result("close", table="t1")["closed"] is False  # (a hand is on)
    play_out([ann, ben], random.Random(2), until=lambda: room.tables["t1"].status == "closed")
    state = ann.result("state", table="t1")
    assert state["status"] == "closed" and state["hands_played"] == 1
    assert sum(r["net"] for r in state["results"].values()) == 0


def test_a_stored_hand_is_its_record_and_plays_again_the_same() -> None:
    from holdem.bots import make_bot
    from holdem.cards import format_card
    from holdem.rooms.store import hand_record
    from holdem.table import CashGame

    game = CashGame(seats=6, small_blind=1, big_blind=2, rng=9)
    for seat in range(6):
        game.join(seat, f"p{seat}", 200)
    bots = {seat: make_bot("random", seed=seat) for seat in range(6)}
    for _ in range(150):
        result = game.play_hand(bots)
        for seat in result.busted:
            game.add_chips(seat, 200)
        hand = result.played
        record = hand_record(hand)  # (the engine's wire forms, as the store keeps them)
        assert record["config"] == hand.config.to_dict()
        assert record["log"] == [a.to_dict() for a in hand.log]
        assert record["board"] == [format_card(c) for c in hand.board]
        assert record["hole_cards"] == [
            [format_card(c) for c in hand.hole_cards(seat) or ()]
            for seat in hand.config.seat_numbers
        ]
        again = hand_of(json.loads(json.dumps(record)))
        assert again.log == result.played.log and again.outcome == result.played.outcome


def test_a_table_the_store_cannot_make_again_is_closed_with_the_reason(tmp_path: Path) -> None:
    path = tmp_path / "room.sqlite"
    room = Room(Store(path), seed=1)
    (ann,) = players(room, 1)
    ann.result("create_table", name="Ann", game="cash", pace=0, pause=0)
    store = Store(path)
    store.save_snapshot("t1", {"version": 99})  # (damaged)
    store.commit()
    again = Room(Store(path), seed=2)
    assert "t1" not in again.tables
    (row,) = Store(path).tables()
    assert row.status == "closed" and "could not be resumed" in row.result["error"]


def _lockstep_rooms(seed: int) -> tuple[list[Room], list[list[int]], str]:
    """Two rooms alike (seed, clock), each with a cash table of four players
    begun: the second never serves an ``act`` at once (the general reader
    only).  Their connections by room, and the table's id."""
    now = [100.0]
    rooms = [Room(seed=seed, clock=lambda: now[0]) for _ in range(2)]
    rooms[1]._act_at_once = lambda connection, line: None  # type: ignore[method-assign]
    conns: list[list[int]] = []
    table = ""
    for room in rooms:
        mine = [room.connect(f"10.0.0.{i}") for i in range(4)]
        for conn in mine:
            room.handle(conn, '{"type":"hello","version":1}')
        made = json.loads(room.handle(mine[0], json.dumps(
            {"type": "create_table", "name": "p0", "game": "cash", "pace": 0, "pause": 0}
        ))[0][1])["result"]  # fmt: skip
        for i, conn in enumerate(mine[1:], 1):
            room.handle(conn, json.dumps({"type": "join", "code": made["code"], "name": f"p{i}"}))
        room.handle(mine[0], json.dumps({"type": "start", "table": made["table"]}))
        conns.append(mine)
        table = made["table"]
    return rooms, conns, table


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.lists(st.integers(0, 2**16), min_size=20, max_size=60))
def test_an_act_served_at_once_answers_and_does_what_the_general_reader_does(
    seed: int, rolls: list[int]
) -> None:
    """Every line of a random stream of acts, good and bad, gets the same
    reply and the same events from a room that serves the usual ones at once
    as from one that reads each with the general reader."""
    rooms, conns, table = _lockstep_rooms(seed)
    view = rooms[0].tables[table].served
    assert view is not None
    for roll in rolls:
        hand = view.table.hand
        actor = hand.actor if hand is not None and hand.actor is not None else 0
        legal = hand.legal_actions() if hand is not None else None
        who = actor if roll % 5 else (actor + 1) % 4  # (now and then a seat out of turn)
        action: Any = {"kind": "check"} if legal is not None and legal.check else {"kind": "call"}
        if legal is not None and legal.wager is not None and roll % 7 == 0:
            action = {"kind": legal.wager.value, "to": legal.min_to + roll % 3}
        ident: Any = [None, roll, str(roll), True, 2**70, -1][roll % 6]
        request: Any = {"type": "act", "table": table, "action": action}
        if ident is not None:
            request["id"] = ident
        variant = roll % 23
        if variant == 1:
            request["table"] = "t99"
        elif variant == 2:
            request["table"] = [table]
        elif variant == 3:
            request["action"] = {"kind": "raise", "to": 10**9}
        elif variant == 4:
            request["extra"] = 1
        elif variant == 5:
            request["action"] = {"kind": "deal_board"}
        elif variant == 6:
            del request["action"]
        line = json.dumps(request)
        if variant == 7:
            line = line[:-3]
        elif variant == 8:
            line = line.replace('"act"', '"\\u0061ct"')  # (the same request, escaped)
        outs = [room.handle(mine[who], line) for room, mine in zip(rooms, conns, strict=True)]
        positions = [[(mine.index(c), text) for c, text in out] for out, mine in zip(
            outs, conns, strict=True)]  # fmt: skip
        assert positions[0] == positions[1], line
        for _, text in outs[0]:  # (each line as the encoder writes its message)
            assert encode(json.loads(text)) == text
        raised = legal is not None and legal.wager is not None and roll % 7 == 0
        if roll % 5 and not 1 <= variant <= 8 and roll % 6 < 2 and not raised and legal:
            # (a good decision of the seat to act, with a good id: taken)
            assert '"in_time":true' in outs[0][0][1], (line, outs[0][0])


def test_a_turn_s_view_is_a_delta_of_the_seat_s_last_one_and_reads_back_whole() -> None:
    """Within a hand a turn's view holds only the records since the seat's
    last turn (and no configuration): read with the view before, it is the
    view the seat would be given whole (``view``), and the first turn of each
    hand, or one told again after a resume, is whole."""
    from holdem import PlayerView

    room = Room(seed=5)
    people = players(room, 3)
    made = people[0].result("create_table", name="p0", game="cash", pace=0, pause=0)
    for i, person in enumerate(people[1:], 1):
        person.result("join", code=made["code"], name=f"p{i}")
    people[0].result("start", table=made["table"])
    kept: dict[int, PlayerView] = {}
    deltas = wholes = 0
    rng = random.Random(3)
    for _ in range(60):
        pending = [(p, t) for p in people for t in p.turns()]
        if not pending:
            break
        person, turn = pending[0]
        turn["_answered"] = True
        data = turn["view"]
        delta = data["log_start"] > 0
        assert delta == ("config" not in data)
        view = PlayerView.from_dict(data, kept.get(person.conn) if delta else None)
        kept[person.conn] = view
        deltas, wholes = deltas + delta, wholes + (not delta)
        whole = person.result("view", table=made["table"])["view"]
        assert view.to_dict() == whole
        person.ask("act", table=made["table"], action=move(turn, rng))
    assert deltas > 10 and wholes > 3


def test_a_cash_player_who_loses_every_chip_sits_out_and_is_not_told_away() -> None:
    """Busted at a cash table: the player sits out until a rebuy, which is not
    being away for timing out (``away`` says two timeouts in a row)."""
    room = Room(seed=3)
    ann, ben = players(room, 2)
    made = ann.result("create_table", name="Ann", game="cash", pace=0, pause=0, seats=2)
    ben.result("join", code=made["code"], name="Ben")
    ann.result("start", table=made["table"])
    busted = None
    for _ in range(60):
        for person in (ann, ben):
            for turn in list(person.turns()):
                turn["_answered"] = True
                legal = turn["view"]["legal"]
                action = {"kind": "all_in"} if legal["all_in"] is not None else {"kind": "call"}
                person.ask("act", table=made["table"], action=action)
        out = [p for p in (ann, ben) if any(m.get("event") == "sat_out" for m in p.stream)]
        if out:
            busted = out[0]
            break
    assert busted is not None
    assert not any(m.get("event") == "away" for p in (ann, ben) for m in p.stream)
    assert busted.result("add_chips", table=made["table"], chips=200)["now"]


def test_a_cash_session_ends_at_its_hands_or_its_minutes_with_the_results(tmp_path: Path) -> None:
    """A cash table made with ``max_hands`` or ``max_seconds`` is over after
    the hand that reaches the limit: ``table_finished`` with the results,
    the limit kept by the store across a restart."""
    now = [0.0]
    path = tmp_path / "room.sqlite"
    room = Room(Store(path), seed=2, clock=lambda: now[0])
    ann, ben = players(room, 2)
    made = ann.result("create_table", name="Ann", game="cash", pace=0, pause=0, max_hands=3)
    assert made["state"]["settings"]["max_hands"] == 3
    ann.result("add_bots", table=made["table"], level="calling-station", count=1)
    ann.result("start", table=made["table"])
    finished = lambda: any(m.get("event") == "table_finished" for m in ann.stream)  # noqa: E731
    play_out([ann], random.Random(1), until=finished)
    (over,) = [m for m in ann.stream if m.get("event") == "table_finished"]
    assert set(over["results"]) == {"Ann", "Station 1"}
    assert ann.result("state", table=made["table"])["hands_played"] == 3
    # by time: the hand being played when the minutes run out is the last
    timed = ben.result("create_table", name="Ben", game="cash", pace=0, pause=0,
                       max_seconds=60)  # fmt: skip
    ben.result("add_bots", table=timed["table"], level="calling-station", count=1)
    ben.result("start", table=timed["table"])
    play_out([ben], random.Random(1), until=lambda: False, most=6)
    played = ben.result("state", table=timed["table"])["hands_played"]
    assert played >= 1 and ben.result("state", table=timed["table"])["status"] == "playing"
    again = Room(Store(path), seed=3, clock=lambda: now[0])  # (the limit kept)
    (back,) = players(again, 1)
    back.result("resume", token=timed["token"])
    now[0] += 61
    done = lambda: any(m.get("event") == "table_finished" for m in back.stream)  # noqa: E731
    for _ in range(50):
        again.tick()
        play_out([back], random.Random(2), until=done, most=10)
        if done():
            break
    assert done()
    assert again.store is not None
    assert {row.id for row in again.store.tables("finished")} == {made["table"], timed["table"]}
    for bad in ({"max_hands": 0}, {"max_seconds": 0}, {"max_seconds": -1}):
        error = ann.ask("create_table", name="Cid", game="cash", **bad)["error"]
        assert error["code"] == "invalid_field" and error["field"] in bad, error
    error = ann.ask("create_table", name="Cid", max_hands=5)["error"]  # (a tournament's: none)
    assert error["code"] == "unknown_field" and error["field"] == "max_hands", error
