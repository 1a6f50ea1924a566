"""Issue 31's table options at a room's tables: run it twice (R10: the
``create_table`` option ``run_it_twice``, the ``run_twice`` request, two
boards and four pot halves in the stored hand and in each player's events)
and the chip unit (R9: ``unit``, amounts in chips on the wire, told and
written in the table's money); both kept across a restart."""

from __future__ import annotations

import subprocess
import sys
from decimal import Decimal
from pathlib import Path
from typing import Any, ClassVar

import pytest
from rooms_helpers import Joiner, Server, play_out, players

from holdem.clients import RoomGame, TableModel, Teller, greet, greet_watcher, listing
from holdem.errors import ProtocolError
from holdem.rooms import Limits, Room, Store

#: Lines a test's players may send at once (its clock stands still while they play).
MANY = Limits(lines_per_second=10**6, burst=10**6)


def all_in(player: Any, turn: dict[str, Any]) -> dict[str, Any]:
    """Everyone all in (a call of an all-in for less)."""
    legal = turn["view"]["legal"]
    if legal["all_in"] is not None:
        return {"kind": "all_in"}
    return {"kind": "call"} if legal["call"] is not None else {"kind": "check"}


def _ended(player: Any, hand: int) -> bool:
    return any(m.get("event") == "hand_ended" and m["hand"] == hand for m in player.stream)


def three_all_in(tmp_path: Path, *, ben_agrees: bool) -> tuple[Room, list[Any], dict[str, Any]]:
    """A cash table that runs it twice, Ann with 200 and Ben and Cat with 400
    (a main pot and a side pot), watched by Eve, everyone all in at hand 1
    (Ben says no first when he does not agree)."""
    room = Room(Store(tmp_path / "room.sqlite"), seed=5, limits=MANY)
    ann, ben, cat, eve = players(room, 4)
    made = ann.result("create_table", name="Ann", game="cash", pace=0, pause=0, small_blind=1,
                      big_blind=2, min_buy_in=100, max_buy_in=400, buy_in=200,
                      run_it_twice=True)  # fmt: skip
    ben.result("join", code=made["code"], name="Ben", buy_in=400)
    cat.result("join", code=made["code"], name="Cat", buy_in=400)
    eve.result("watch", code=made["code"])
    ann.result("start", table=made["table"])
    said = ben.result("run_twice", table=made["table"], agree=ben_agrees)
    assert said == {"table": made["table"], "seat": 1, "agree": ben_agrees}
    # (hand 1 is dealt already: Ben's word counts from hand 2)
    play_out([ann, ben, cat], decide=all_in, until=lambda: _ended(eve, 1))
    for player in (ann, ben, cat):
        if not _ended(player, 1):
            pytest.fail("hand 1 did not end")
    return room, [ann, ben, cat, eve], made


def boards_told(stream: list[dict[str, Any]], hand: int) -> list[list[str]]:
    """The boards a stream's ``action`` events dealt in a hand, by run."""
    boards: list[list[str]] = [[], []]
    current = None
    for message in stream:
        if message.get("event") == "hand_started":
            current = message["hand"]
        if message.get("event") == "action" and current == hand:
            action = message["action"]
            if action["kind"] == "deal_board":
                boards[action.get("run", 0)].extend(action["cards"])
    return [b for b in boards if b]


def test_r10_a_room_s_table_runs_it_twice_where_all_in_players_agree(tmp_path: Path) -> None:
    _, people, made = three_all_in(tmp_path, ben_agrees=True)
    table = made["table"]
    assert made["state"]["settings"]["run_it_twice"] is True
    state = people[3].result("state", table=table)
    assert [s["run_twice"] for s in state["seats"]] == [True, True, True]
    record = Store(tmp_path / "room.sqlite").hand(table, 1)
    assert record is not None
    assert len(record["board"]) == 5 and len(record["second_board"]) == 5
    for player in people:  # (the three players and the spectator)
        first, second = boards_told(player.stream, 1)
        assert first == record["board"]
        assert len(first) + len(second) == 10  # (all in preflop: the whole board twice)
        ended = next(m for m in player.stream if m.get("event") == "hand_ended")
        pots = ended["outcome"]["pots"]
        assert [p.get("run", 0) for p in pots] == [0, 0, 1, 1]
        # (a main pot of 600 and a side pot of 400, each in halves)
        assert [p["amount"] for p in pots] == [300, 200, 300, 200]
        assert sum(ended["stacks"]) == 1000 and sum(ended["outcome"]["net"]) == 0
    stacks = {s["name"]: s["chips"] for s in people[0].result("state", table=table)["seats"]}
    assert sum(stacks.values()) == 1000
    text = people[3].result("history", table=table, hand=1, format="pokerstars")["text"]
    assert "*** FIRST FLOP ***" in text and "*** SECOND FLOP ***" in text
    # the stored hand is played again as it was (a fresh room reads it from the file)
    again = Room(Store(tmp_path / "room.sqlite"), seed=9, limits=MANY)
    (eve,) = players(again, 1)
    assert eve.result("watch", code=made["code"])
    assert eve.result("history", table=table, hand=1, format="pokerstars")["text"] == text


def test_r10_a_player_who_says_no_runs_the_board_once(tmp_path: Path) -> None:
    room, people, made = three_all_in(tmp_path, ben_agrees=False)
    ann, ben, cat, eve = people
    table = made["table"]
    state = eve.result("state", table=table)
    assert [s["run_twice"] for s in state["seats"]] == [True, False, True]
    # hand 1 was dealt before Ben said no: hand 2 on, his no holds
    play_out([ann, ben, cat], decide=all_in, until=lambda: _ended(eve, 2))
    served = room.tables[table].served
    assert served is not None
    hand = served.kept[2]
    assert hand.config.run_twice == tuple(
        i for i, seat in enumerate(hand.config.seat_numbers) if seat != 1
    )
    assert hand.second_board == () and len(boards_told(eve.stream, 2)) == 1
    ended = [m for m in eve.stream if m.get("event") == "hand_ended"][-1]
    assert all("run" not in p for p in ended["outcome"]["pots"])
    assert ben.result("run_twice", table=table)["agree"] is True  # (yes again)
    assert [s["run_twice"] for s in eve.result("state", table=table)["seats"]][1] is True


def test_r10_run_twice_is_refused_where_the_table_does_not_run_it_twice() -> None:
    room = Room(seed=3, limits=MANY)
    ann, ben, eve = players(room, 3)
    made = ann.result("create_table", name="Ann", game="cash", pace=0, pause=0)
    assert made["state"]["settings"]["run_it_twice"] is False
    assert "run_twice" not in made["state"]["seats"][0]
    ben.result("join", code=made["code"], name="Ben")
    eve.result("watch", code=made["code"])
    ann.result("start", table=made["table"])
    refused = ann.ask("run_twice", table=made["table"], agree=False)
    assert refused["error"] == {"code": "table_error", "field": None, "message": f"table "
                                f"{made['table']}: this table does not run it twice "
                                "(run_it_twice is off)"}  # fmt: skip
    assert eve.ask("run_twice", table=made["table"])["error"]["code"] == "not_your_seat"
    bad = ann.ask("create_table", name="Ann", game="cash", run_it_twice="yes")
    assert bad["error"]["code"] == "invalid_field" and bad["error"]["field"] == "run_it_twice"


# ---------------------------------------------------------------- the chip unit


def test_r9_a_room_s_table_at_a_chip_of_half_tells_and_writes_money(tmp_path: Path) -> None:
    """A cash table of 2.5/5 at a chip of 0.5: its blinds are 5 and 10 chips
    on the wire (as the engine protocol says them), ``holdem join`` tells
    2.5 where the chips are 5, and the stored history is in money."""
    room = Room(Store(tmp_path / "room.sqlite"), seed=7, limits=MANY)
    ann, ben = players(room, 2)
    made = ann.result("create_table", name="Ann", game="cash", pace=0, pause=0, small_blind=5,
                      big_blind=10, buy_in=1000, unit="0.5")  # fmt: skip
    assert made["state"]["settings"]["unit"] == "0.5"
    ben.result("join", code=made["code"], name="Ben", buy_in=1000)
    listed = {**ann.result("create_table", name="Cid", game="cash", public=True, unit="0.25")}
    assert listed["state"]["settings"]["unit"] == "0.25"
    (row,) = ann.result("list_tables")["tables"]
    assert row["unit"] == "0.25" and row["blinds"] == {"small_blind": 1, "big_blind": 2}
    lines: list[str] = []
    teller = Teller(0, color=False, symbols=False, write=lines.append)
    game = RoomGame(_Asks(ann), {**made, "name": "Ann"}, teller, "")  # type: ignore[arg-type]
    model = TableModel(0)
    model.state(made["state"])
    assert teller.unit == model.unit == Decimal("0.5")
    ann.result("start", table=made["table"])
    play_out([ann, ben], decide=all_in, until=lambda: _ended(ann, 1))
    for message in ann.stream:
        game.tell(message)
        model.message(message)
    started = next(m for m in ann.stream if m.get("event") == "hand_started")
    assert (started["small_blind"], started["big_blind"]) == (5, 10)
    assert "── Hand #1 · blinds 2.5/5 ──" in lines
    assert "   You 500 (D, SB) · Ben 500 (BB)" in lines
    assert "You post the small blind 2.5" in lines
    assert any(line.startswith("   stacks: ") for line in lines)
    text = ann.result("history", table=made["table"], hand=1, format="pokerstars")["text"]
    assert "Ann: posts small blind 2.5" in text and "Ben: posts big blind 5" in text
    phh = ann.result("history", table=made["table"], hand=1)["text"]
    assert "blinds_or_straddles = [2.5, 5]" in phh or "blinds_or_straddles = [5, 2.5]" in phh
    # the stored hand, read from the data file by a room made again, writes the same money
    record = Store(tmp_path / "room.sqlite").hand(made["table"], 1)
    assert record is not None and record["config"]["unit"] == "0.5"
    again = Room(Store(tmp_path / "room.sqlite"), seed=8, limits=MANY)
    (eve,) = players(again, 1)
    eve.result("watch", code=made["code"])
    stored = eve.result("history", table=made["table"], hand=1, format="pokerstars")["text"]
    assert "Ann: posts small blind 2.5" in stored and "Ben: posts big blind 5" in stored


def test_r9_a_room_refuses_a_unit_that_is_no_chip() -> None:
    room = Room(seed=1, limits=MANY)
    (ann,) = players(room, 1)
    for unit, code in (("0", "bad_config"), ("-1", "bad_config"), ("half", "bad_config"),
                       ("0.0000001", "bad_config"), (0.5, "invalid_field")):  # fmt: skip
        reply = ann.ask("create_table", name="Ann", game="cash", unit=unit)
        assert reply["error"]["code"] == code, (unit, reply)
        assert reply["error"]["field"] == "unit" and "unit" in reply["error"]["message"]


def test_r9_r10_a_restart_keeps_the_unit_and_who_said_no(tmp_path: Path) -> None:
    path = tmp_path / "room.sqlite"
    room = Room(Store(path), seed=2, limits=MANY)
    ann, ben = players(room, 2)
    made = ann.result("create_table", name="Ann", game="cash", pace=0, pause=0, small_blind=5,
                      big_blind=10, buy_in=1000, unit="0.5", run_it_twice=True)  # fmt: skip
    ben.result("join", code=made["code"], name="Ben", buy_in=1000)
    ann.result("start", table=made["table"])
    ben.result("run_twice", table=made["table"], agree=False)
    play_out([ann, ben], decide=all_in, until=lambda: _ended(ann, 1))
    again = Room(Store(path), seed=3, limits=MANY)
    served = again.tables[made["table"]].served
    assert served is not None
    assert served.table.run_it_twice and str(served.table.unit) == "0.5"
    assert not served.table.agrees_to_run_twice(1) and served.table.agrees_to_run_twice(0)
    (back,) = players(again, 1)
    resumed = back.result("resume", token=made["token"])
    assert resumed["state"]["settings"]["unit"] == "0.5"
    assert resumed["state"]["settings"]["run_it_twice"] is True
    assert [s["run_twice"] for s in resumed["state"]["seats"]] == [True, False]


class _Asks:
    """A RoomClient that asks an in-process room through a test's player."""

    hello: ClassVar[dict[str, Any]] = {}

    def __init__(self, player: Any) -> None:
        self.player = player

    def request(self, kind: str, **fields: Any) -> dict[str, Any]:
        reply = self.player.ask(kind, **fields)
        if "error" in reply:
            raise ProtocolError(reply["error"]["code"], reply["error"]["message"])
        return reply["result"]  # type: ignore[no-any-return]


def test_r9_holdem_join_s_add_is_typed_in_the_table_s_money() -> None:
    """At a table of a chip of 0.5, ``add 10`` adds 20 chips (told as 10), an
    amount of no whole chips is refused naming the chip, and the limits are
    said in money."""
    room = Room(seed=4, limits=MANY)
    (ann,) = players(room, 1)
    made = ann.result("create_table", name="Ann", game="cash", pace=0, pause=0, small_blind=5,
                      big_blind=10, min_buy_in=100, max_buy_in=1000, buy_in=900,
                      unit="0.5")  # fmt: skip
    said: list[str] = []
    game = RoomGame(_Asks(ann), {**made, "name": "Ann"},  # type: ignore[arg-type]
                    Teller(0, color=False, write=said.append), "key")  # fmt: skip
    game.typed("add 10", None)
    (added,) = [m for m in ann.stream if m.get("event") == "chips_added"]
    assert added["chips"] == 20
    game.tell(added)
    assert said[-1] == "You add 10"
    game.typed("add 0.25", None)
    assert said[-1] == ("Not taken: 'add 0.25': 'add N' adds N to your stack, in the table's "
                        "money (a whole number of chips of 0.5); 'rebuy' (or 'rebuy N') buys "
                        "in again.")  # fmt: skip
    game.typed("add 100", None)
    assert said[-1] == ("Not taken: you have 460 and this table's maximum buy-in is 500: add 40 "
                        "at most.")  # fmt: skip


# ---------------------------------------------------------------- holdem join


def test_r9_r10_holdem_join_creates_a_table_in_money_that_runs_it_twice(
    server: Server, tmp_path: Path, joiners: list[Joiner]
) -> None:
    """``holdem join --create --game cash --chip 0.5 --blinds 2.5/5
    --run-it-twice``, as ``holdem play`` reads them: the table's blinds are 5
    and 10 chips, its buy-in typed in money (``--stack 150``: 300 chips), and
    the player's ``twice off`` is the room's ``run_twice`` no."""
    ann = Joiner(["--create", "--server", f"127.0.0.1:{server.port}", "--name", "Ann",
                  "--game", "cash", "--chip", "0.5", "--blinds", "2.5/5", "--stack", "150",
                  "--min-buy-in", "50", "--max-buy-in", "200", "--run-it-twice", "--pace", "0",
                  "--pause", "0"],
                 tmp_path / "config")  # fmt: skip
    joiners.append(ann)
    # (the greeting says the table's terms in its money)
    ann.wait_for(r"Blinds 2\.5/5; buy-in 50 to 200; in chips of 0\.5; runs it twice where "
                 r"everyone left is all in and agrees\.")  # fmt: skip
    code = ann.wait_for(r"Join code: (\S+)").group(1)
    with server.client("Eve") as eve:
        state = eve.request("watch", code=code)
    wanted = {"unit": "0.5", "small_blind": 5, "big_blind": 10, "min_buy_in": 100,
              "max_buy_in": 400, "run_it_twice": True}  # fmt: skip
    assert {k: state["settings"][k] for k in wanted} == wanted
    assert state["seats"][0]["chips"] == 300
    ann.type("twice off\n")
    ann.wait_for(r"You said no to running it twice: from the next hand, the board is run once\.")
    with server.client("Eve") as eve:
        assert eve.request("watch", code=code)["seats"][0]["run_twice"] is False
    ann.type("twice maybe\n")
    ann.wait_for(r"Not taken: 'twice maybe': 'twice off' says no")
    ann.type("twice on\n")
    ann.wait_for(r"You agree to run it twice from the next hand")


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--create", "--chip", "0.5"], "--chip is for a cash table (--game cash)"),
        (["--create", "--game", "cash", "--chip", "half"], "invalid value for '--chip': 'half'"),
        (["--create", "--game", "cash", "--chip", "0"],
         "invalid value for '--chip': '0': a chip unit is a positive number"),
        (["--create", "--game", "cash", "--blinds", "2.5/5"],
         "invalid value for '--blinds': '2.5/5': 2.5 is not a whole number of chips of 1: "
         "declare the chip, e.g. --chip 2.5"),
        (["--create", "--game", "cash", "--chip", "0.5", "--blinds", "2.25/5"],
         "invalid value for '--blinds': '2.25/5': 2.25 is not a whole number of chips of 0.5"),
        (["--create", "--game", "cash", "--chip", "25", "--blinds", "25/50", "--stack", "30"],
         "invalid value for '--stack': 30: 30 is not a whole number of chips of 25"),
        (["AAAA-BBBB", "--run-it-twice"],
         "--run-it-twice is a new table's setting: it goes with --create"),
    ],
)  # fmt: skip
def test_r9_r10_holdem_join_refuses_a_bad_chip_or_run_it_twice_clearly(
    args: list[str], says: str
) -> None:
    result = subprocess.run([sys.executable, "-m", "holdem", "join", *args, "--server",
                             "127.0.0.1:9"], capture_output=True, text=True,
                            timeout=60)  # fmt: skip  # (refused before connecting)
    assert result.returncode == 2, result
    (line,) = result.stderr.splitlines()
    assert line.startswith("holdem join: error: ") and says in line, line


def test_r9_r10_holdem_join_s_list_tells_a_table_s_money_and_that_it_runs_it_twice() -> None:
    room = Room(seed=6, limits=MANY)
    (ann,) = players(room, 1)
    ann.result("create_table", name="Ann", game="cash", public=True, small_blind=5, big_blind=10,
               unit="0.5", run_it_twice=True)  # fmt: skip
    tables = ann.result("list_tables")["tables"]
    lines = listing(tables, "127.0.0.1:7777")
    assert lines[2].split()[:3] == ["t1", "cash", "2.5/5"]
    assert lines[2].endswith("  yes, runs it twice")


def test_a_freezeout_s_greeting_says_its_stacks_and_first_level(server: Server) -> None:
    """Who joins (and who watches) is told a freezeout's stacks and blinds."""
    address = f"127.0.0.1:{server.port}"
    with server.client("Ann") as ann:
        made = ann.request("create_table", name="Ann", stack=2000,
                           schedule="@8h, 25/50/5, 50/100/10")  # fmt: skip
        told: list[str] = []
        teller = Teller(0, write=told.append)
        game = RoomGame(ann, {**made, "name": "Ann", "creator": True}, teller, "")
        greet(game, {**made, "name": "Ann"}, address, True, "holdem join ...")
        greet_watcher(game, made["state"], address)
    terms = "Stacks of 2,000; blinds 25/50 ante 5 for 8 hands, then rising."
    assert told[1] == terms and told.count(terms) == 2


@pytest.mark.parametrize(("schedule", "terms"), [
    # (the big blind posts one ante for the table: the hand's header says so, and so do the terms)
    ("@8h, 25/50/50bba, 50/100/100bba",
     "Stacks of 1,500; blinds 25/50 big blind ante 50 for 8 hands, then rising."),
    # (one level that stays: the blinds never go up)
    ("@10h, 10/20, stay", "Stacks of 1,500; blinds 10/20, never rising."),
    ("@10h, 10/20, 20/40, stay", "Stacks of 1,500; blinds 10/20 for 10 hands, then rising."),
])  # fmt: skip
def test_a_freezeout_s_terms_say_a_big_blind_ante_and_blinds_that_never_rise(
    schedule: str, terms: str
) -> None:
    """The greeting's terms are what the game does: a big blind ante is
    named as the hand's header names it (not an ante each player posts),
    and a schedule of one level that stays is not said to rise."""
    room = Room(seed=9, limits=MANY)
    (ann,) = players(room, 1)
    made = ann.result("create_table", name="Ann", schedule=schedule)
    told: list[str] = []
    teller = Teller(0, write=told.append)
    greet_watcher(RoomGame(ann, {**made, "name": "Ann"}, teller, ""), made["state"], "here")
    assert told[1] == terms


def test_r10_a_room_s_freezeout_runs_it_twice_too() -> None:
    room = Room(seed=8, limits=MANY)
    ann, ben, eve = players(room, 3)
    made = ann.result("create_table", name="Ann", pace=0, pause=0, stack=400,
                      run_it_twice=True)  # fmt: skip
    ben.result("join", code=made["code"], name="Ben")
    eve.result("watch", code=made["code"])
    refused = ben.ask("run_twice", table=made["table"], agree=False)  # (no seats dealt yet)
    assert refused["error"]["code"] == "no_hand" and "has not begun" in refused["error"]["message"]
    ann.result("start", table=made["table"])
    assert [s["run_twice"] for s in eve.result("state", table=made["table"])["seats"]] == [True] * 2
    play_out([ann, ben], decide=all_in, until=lambda: _ended(eve, 1))
    (ended,) = [m for m in eve.stream if m.get("event") == "hand_ended"]
    assert [p.get("run", 0) for p in ended["outcome"]["pots"]] == [0, 1]
    assert len(boards_told(eve.stream, 1)) == 2 and sum(ended["stacks"]) == 800
