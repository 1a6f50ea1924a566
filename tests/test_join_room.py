"""Every room feature from the line-mode clients (issue 29): ``holdem join
--create`` with every table option the server takes, the lobby of public
tables and joining one by its id, ``holdem watch``, rebuys and top-ups,
sitting out, the end of a freezeout and of a cash session, the notices and
the bell.  Through the clients on a pipe or a pseudo-terminal, against a
real ``holdem serve`` on loopback."""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from rooms_helpers import FAST, Joiner, Server, allowed_cards, play

from holdem.clients import RoomGame, Teller
from holdem.errors import ProtocolError
from holdem.rooms import Store

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="pipes and signals")


def holdem(*args: str, stdin: str = "", config: Path | None = None,
           seconds: float = 60) -> subprocess.CompletedProcess[str]:  # fmt: skip
    env = None
    if config is not None:
        env = dict(os.environ, XDG_CONFIG_HOME=str(config), TERM="dumb")
    return subprocess.run([sys.executable, "-m", "holdem", *args], input=stdin,
                          capture_output=True, text=True, timeout=seconds, env=env)  # fmt: skip


# ---------------------------------------------------------------- --create


def test_create_passes_every_table_option_to_the_server(
    server: Server, tmp_path: Path, joiners: list[Joiner]
) -> None:
    ann = Joiner(["--create", "--server", f"127.0.0.1:{server.port}", "--name", "Ann",
                  "--game", "cash", "--seats", "4", "--structure", "pot_limit", "--blinds",
                  "5/10", "--min-buy-in", "300", "--max-buy-in", "2000", "--stack", "1500",
                  "--hands", "50", "--minutes", "90", "--timer", "20", "--time-bank", "45",
                  "--protect", "--bots", "2", "--bot-level", "easy", "--pace", "0",
                  "--pause", "0.5"], tmp_path / "config")  # fmt: skip
    joiners.append(ann)
    code = ann.wait_for(r"Join code: (\S+)").group(1)
    ann.wait_for(r"Easy 2 \(easy bot\) sits at seat 3")
    with server.client("Eve") as eve:
        state = eve.request("watch", code=code)
    settings = state["settings"]
    wanted = {
        "seats": 4, "structure": "pot_limit", "small_blind": 5, "big_blind": 10,
        "min_buy_in": 300, "max_buy_in": 2000, "max_hands": 50, "max_seconds": 5400.0,
        "timer": {"seconds": 20.0, "time_bank": 45.0, "policy": "protect"},
        "pace": 0.0, "pause": 0.5,
    }  # fmt: skip
    assert {k: settings[k] for k in wanted} == wanted
    seats = {s["name"]: s for s in state["seats"]}
    assert seats["Ann"]["chips"] == 1500
    assert [s["bot"] for s in state["seats"] if s["bot"]] == ["easy", "easy"]


def test_create_s_limits_are_the_server_s(
    server: Server, tmp_path: Path, joiners: list[Joiner]
) -> None:
    """What the server takes, --create takes (an hour a decision, a minute's
    pace and pause), and past it the refusal names the server's limit:
    --pace stopped at 10 and --timer at 600, and named those."""
    ann = Joiner(["--create", "--server", f"127.0.0.1:{server.port}", "--name", "Ann",
                  "--timer", "3600", "--time-bank", "3600", "--pace", "60", "--pause", "60"],
                 tmp_path / "config")  # fmt: skip
    joiners.append(ann)
    code = ann.wait_for(r"Join code: (\S+)").group(1)
    with server.client("Eve") as eve:
        settings = eve.request("watch", code=code)["settings"]
    assert settings["timer"] == {"seconds": 3600.0, "time_bank": 3600.0, "policy": "check_fold"}
    assert (settings["pace"], settings["pause"]) == (60.0, 60.0)
    for option, value in (("--pace", "61"), ("--pause", "61"), ("--timer", "3601")):
        done = holdem("join", "--create", "--server", f"127.0.0.1:{server.port}", "--name",
                      "Bo", option, value)  # fmt: skip
        assert done.returncode == 2, done.stderr
        assert option in done.stderr and ("<=60" in done.stderr or "<=3600" in done.stderr)


def test_create_sends_a_freezeout_s_stack_schedule_and_structure(
    server: Server, tmp_path: Path, joiners: list[Joiner]
) -> None:
    ann = Joiner(["--create", "--server", f"127.0.0.1:{server.port}", "--name", "Ann",
                  "--stack", "3000", "--schedule", "@5h, 25/50, 50/100", "--structure",
                  "fixed_limit", "--timer", "15", "--time-bank", "0"],
                 tmp_path / "config")  # fmt: skip
    joiners.append(ann)
    code = ann.wait_for(r"Join code: (\S+)").group(1)
    with server.client("Eve") as eve:
        settings = eve.request("watch", code=code)["settings"]
    assert settings["stack"] == 3000 and settings["structure"] == "fixed_limit"
    assert settings["schedule"]["levels"][0]["big_blind"] == 50
    assert settings["timer"] == {"seconds": 15.0, "time_bank": 0.0, "policy": "check_fold"}


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--create", "--hands", "10"], "--hands is for a cash table (--game cash)"),
        (["--create", "--protect"], "--protect is for a cash table (--game cash)"),
        (["--create", "--blinds", "5/10"], "--blinds is for a cash table (--game cash)"),
        (["--create", "--game", "cash", "--schedule", "@5h, 10/20"],
         "--schedule is for a freezeout: a cash table has fixed --blinds"),
        (["AAAA-BBBB", "--seats", "3"], "--seats is a new table's setting: it goes with --create"),
        (["--create", "--bots", "3", "--seats", "3"],
         "invalid value for '--bots': 3 bots, but a table of 3 seats has 2 beside yours"),
        (["--create", "--game", "cash", "--min-buy-in", "500", "--max-buy-in", "100"],
         "invalid value for '--min-buy-in': 500 is more than --max-buy-in 100"),
    ],
)  # fmt: skip
def test_create_refuses_options_that_do_not_go_together(args: list[str], says: str) -> None:
    result = holdem("join", *args, "--server", "127.0.0.1:9")  # (refused before connecting)
    assert result.returncode == 2, result
    (line,) = result.stderr.splitlines()
    assert line.startswith("holdem join: error: ") and says in line, line


def test_create_says_a_setting_the_server_refuses_as_its_option(
    server: Server, tmp_path: Path
) -> None:
    result = holdem("join", "--create", "--server", f"127.0.0.1:{server.port}", "--game", "cash",
                    "--blinds", "5/10", "--stack", "5000", config=tmp_path / "config")  # fmt: skip
    assert result.returncode == 2, result
    (line,) = result.stderr.splitlines()
    assert line.startswith("holdem join: error: invalid value for '--stack': ") and (
        "from 400 to 1000, not 5000" in line), line  # fmt: skip


# ---------------------------------------------------------------- the lobby


def test_list_shows_the_public_tables_and_one_is_joined_by_its_id(
    server: Server, tmp_path: Path, joiners: list[Joiner]
) -> None:
    with server.client("Ann") as ann, server.client("Tom") as tom:
        cash = ann.request("create_table", name="Ann", game="cash", public=True, seats=4,
                           small_blind=5, big_blind=10, pace=0, pause=0)  # fmt: skip
        ann.request("add_bots", table=cash["table"], level="calling-station", count=1)
        ann.request("start", table=cash["table"])
        streams: dict[str, list[dict[str, Any]]] = {"Ann": []}
        ended = lambda: sum(m.get("event") == "hand_ended" for m in streams["Ann"]) >= 2  # noqa: E731
        play({"Ann": ann}, streams, random.Random(1), until=ended, passive=True)
        tom.request("create_table", name="Tom", public=True, stack=3000,
                    structure="pot_limit")  # fmt: skip
        tom.request("create_table", name="Tom", public=False)  # (private: not listed)
        address = f"127.0.0.1:{server.port}"
        listed = holdem("join", "--list", "--json", "--server", address)
        assert listed.returncode == 0, listed.stderr
        tables = json.loads(listed.stdout)["tables"]
        assert [t["table"] for t in tables] == [cash["table"], "t2"]
        shown = holdem("join", "--list", "--server", address)
        assert shown.returncode == 0, shown.stderr
        lines = shown.stdout.splitlines()
        assert lines[0] == f"Public tables on {address}:"
        hands = re.match(r"  t1 +cash +5/10 +no limit +2/4 +(\d+)  yes$", lines[2])
        assert hands and int(hands.group(1)) >= 2, lines
        assert re.match(r"  t2 +freezeout +10/20, 3,000 stack +pot limit +1/6 +0  yes$", lines[3])
        ben = Joiner(["t2", "--server", address, "--name", "Ben"], tmp_path / "config")
        joiners.append(ben)
        ben.wait_for(r"holdem join: Ben at seat 2 of a freezeout \(t2\)")
        ben.wait_for(rf"To come back to this seat: holdem join t2 --server {address} --name Ben")
        assert [s["name"] for s in tom.request("state", table="t2")["seats"]] == ["Tom", "Ben"]
        unknown = holdem("join", "t99", "--server", address, config=tmp_path / "config")
        assert unknown.returncode == 2
        assert "unknown_table: no public table 't99'" in unknown.stderr, unknown.stderr


def test_list_of_a_server_without_public_tables_says_how_to_make_one(server: Server) -> None:
    address = f"127.0.0.1:{server.port}"
    shown = holdem("join", "--list", "--server", address)
    assert shown.returncode == 0 and shown.stdout == (
        f"No public table on {address} now: holdem join --create --public "
        f"--server {address} makes one.\n")  # fmt: skip
    for args in (["--list", "AAAA-BBBB"], ["--list", "--create"], ["--json", "--create"]):
        refused = holdem("join", *args, "--server", address)
        assert refused.returncode == 2 and "--list" in refused.stderr, refused.stderr


# ---------------------------------------------------------------- holdem watch


def test_watch_tells_a_table_s_public_events_to_its_end(
    server: Server, tmp_path: Path, joiners: list[Joiner]
) -> None:
    with server.client("Ann") as ann:
        made = ann.request("create_table", name="Ann", public=True, **FAST)
        eve = Joiner([made["code"], "--server", f"127.0.0.1:{server.port}"], tmp_path / "config",
                     command="watch")  # fmt: skip
        joiners.append(eve)
        eve.wait_for(r"holdem watch: a freezeout \(t1\) on \S+, waiting for its players")
        ann.request("add_bots", table=made["table"], level="easy")
        ann.request("start", table=made["table"])
        ann.request("leave", table=made["table"])  # (her stack plays on, checking or folding)
        assert eve.exit_status(seconds=120) == 0, eve.seen[-2000:]
    seen = eve.seen
    assert "Easy 1 (easy bot) sits at seat 2" in seen and "── Hand #1 " in seen
    assert "Final places:" in seen, seen[-2000:]
    # (public information only: no hole cards, nobody called You)
    assert "Your cards" not in seen and not re.search(r"^You ", seen, re.M)
    # (the cards told are the board's and those shown: the stored hands say which)
    told = {c[0] + {"♣": "c", "♦": "d", "♥": "h", "♠": "s"}[c[1]]
            for c in re.findall(r"\b[2-9TJQKA][♣♦♥♠]", seen)}  # fmt: skip
    store = Store(server.data / "room.sqlite")
    allowed: set[str] = set()
    number = 1
    while (record := store.hand("t1", number)) is not None:
        allowed |= allowed_cards(record, None)
        number += 1
    assert number > 2 and told and told <= allowed


def test_watch_stops_at_q_and_refuses_moves(
    server: Server, tmp_path: Path, joiners: list[Joiner]
) -> None:
    with server.client("Ann") as ann:
        ann.request("create_table", name="Ann", public=True, **FAST)
        eve = Joiner(["t1", "--server", f"127.0.0.1:{server.port}"], tmp_path / "config",
                     command="watch", tty=True)  # fmt: skip
        joiners.append(eve)
        eve.wait_for(r"waiting for its players")
        eve.type("c\r")
        eve.wait_for(r"Not taken: 'c': you are watching, with no seat \(q stops\)\.")
        eve.type("q\r")
        eve.wait_for(r"You stop watching\.")
        assert eve.exit_status() == 0
    unknown = holdem("watch", "ZZZZ-ZZZZ", "--server", f"127.0.0.1:{server.port}")
    assert unknown.returncode == 2 and "unknown_code" in unknown.stderr, unknown.stderr


# ---------------------------------------------------------------- rebuys and top-ups


def test_a_busted_cash_player_is_told_how_to_rebuy_and_a_pipe_rebuys_within_the_limits(
    server: Server, tmp_path: Path, joiners: list[Joiner]
) -> None:
    ben = Joiner(["--create", "--server", f"127.0.0.1:{server.port}", "--name", "Ben", "--game",
                  "cash", "--seats", "2", "--blinds", "1/2", "--stack", "40", "--min-buy-in",
                  "40", "--max-buy-in", "200", "--pace", "0", "--pause", "0.3"],
                 tmp_path / "config")  # fmt: skip
    joiners.append(ben)
    code = ben.wait_for(r"Join code: (\S+)").group(1)
    with server.client("Ann") as ann:
        made = ann.request("join", code=code, name="Ann", buy_in=200)
        ben.wait_for(r"Ann sits at seat 2")
        ben.type("add 10\nadd 160\n")  # (a top-up within the maximum; then one past it)
        ben.wait_for(r"You add 10 chips")
        ben.wait_for(r"Not taken: you have 50 and this table's maximum buy-in is 200: add 150 "
                     r"at most\.")  # fmt: skip
        ben.type("start\n" + "a\n" * 300)  # (all in every hand, until busted)
        deadline = time.monotonic() + 90
        while "You have no chips left" not in ben.seen:
            assert time.monotonic() < deadline, ben.seen[-2000:]
            for message in ann.poll(0.05):
                if message.get("event") == "turn" and message["seat"] == made["seat"]:
                    legal = message["view"]["legal"]
                    kind = "check" if legal["check"] else "call"
                    with contextlib.suppress(ProtocolError):
                        ann.request("act", table=made["table"], action={"kind": kind})
                elif message.get("event") == "sat_out" and message["seat"] == made["seat"]:
                    ann.request("add_chips", table=made["table"], chips=200)  # (Ann rebuys)
            ben.read(0)
        told = ben.wait_for(
            r"You have no chips left: type rebuy to buy in again for 200 "
            r"\(rebuy N: from 40 to 200\), or quit to leave with nothing\."
        )
        ben.type("rebuy 500\nrebuy 10\nrebuy\nrebuy\nquit\n")
        ben.wait_for(r"You left the table")
    after = ben.seen[told.end() :]
    refusals = re.findall(r"Not taken: (?:you have|a rebuy).*", after)
    assert refusals[:2] == [
        "Not taken: you have 0 and this table's maximum buy-in is 200: add 200 at most.",
        "Not taken: a rebuy is a buy-in, from 40 to 200 at this table.",
    ], after
    assert re.search(r"^\[hand \d+\] You add 200 chips", after, re.M), after
    assert re.search(
        r"Not taken: you have [\d,]+ chips: rebuy is for an empty stack; add N "
        r"tops it up to this table's maximum buy-in of 200",
        after,
    ), after


# ---------------------------------------------------------------- the end of a table


def test_a_room_freezeout_ends_with_the_places_and_the_winner_s_certificate(
    server: Server, tmp_path: Path, joiners: list[Joiner]
) -> None:
    ann = Joiner(["--create", "--server", f"127.0.0.1:{server.port}", "--name", "Ann", "--stack",
                  "400", "--schedule", "@5h, 10/20, 20/40, 40/80", "--bots", "2", "--bot-level",
                  "easy", "--pace", "0", "--pause", "0"], tmp_path / "config")  # fmt: skip
    joiners.append(ann)
    ann.wait_for(r"Easy 2 \(easy bot\) sits at seat 3")
    ann.type("start\n" + "a\nc\n" * 300)  # (all in, or the call that is)
    assert ann.exit_status(seconds=120) == 0, ann.seen[-2000:]
    end = ann.seen[ann.seen.index("Final places:") :]
    places = re.findall(r"^ +(1st|2nd|3rd) +(.+?)(?: +out on hand (\d+) by (.+))?$", end, re.M)
    assert len(places) == 3 and places[0][0] == "1st", end  # (two out on one hand tie: 2nd)
    assert not places[0][2] and all(p[2] and p[3] for p in places[1:]), places
    hands = int(re.findall(r"── Hand #(\d+) ", ann.seen)[-1])
    assert int(places[1][2]) == hands  # (the last one out went out on the last hand)
    # (each told as it happened, with the hand)
    assert re.search(rf"^\[hand {hands}\] .+ (is|are) out in 2nd place, knocked out by ", ann.seen,
                     re.M)  # fmt: skip
    plural = "s" * (hands != 1)
    assert (
        "CERTIFICATE OF VICTORY" in end
        and f"3 players · 400 chips each · {hands} hand{plural}" in end
    )
    winner = places[0][1].replace(" (easy)", " (easy bot)")
    assert re.search(rf"║ +{re.escape(winner)} +║", end), end


def test_a_cash_session_at_its_hands_ends_with_the_results(
    server: Server, tmp_path: Path, joiners: list[Joiner]
) -> None:
    ann = Joiner(["--create", "--server", f"127.0.0.1:{server.port}", "--name", "Ann", "--game",
                  "cash", "--hands", "2", "--bots", "1", "--bot-level", "calling-station",
                  "--pace", "0", "--pause", "0"], tmp_path / "config")  # fmt: skip
    joiners.append(ann)
    ann.wait_for(r"Station 1 \(calling-station bot\) sits at seat 2")
    ann.type("start\n" + "c\n" * 50)
    assert ann.exit_status(seconds=60) == 0, ann.seen[-2000:]
    end = ann.seen[ann.seen.index("Session over after 2 hands:") :]
    rows = re.findall(r"^  (You|Station 1) +200 +(\d+) +([+-]\d+|0) +2$", end, re.M)
    assert sorted(r[0] for r in rows) == ["Station 1", "You"], end
    assert sum(int(r[2]) for r in rows) == 0 and "── Hand #3 " not in ann.seen


# ---------------------------------------------------------------- notices and the bell


class _Silent:
    """A room client that must not be asked anything."""

    def request(self, kind: str, **fields: object) -> dict[str, object]:
        raise AssertionError(f"sent {kind} {fields}")


def test_every_notice_says_the_hand_it_belongs_to() -> None:
    said: list[str] = []
    teller = Teller(0, color=False, write=said.append)
    state = {"status": "playing", "seats": [{"seat": 0, "name": "Ann"}, {"seat": 1, "name": "Ben"}]}
    game = RoomGame(_Silent(), {"table": "t1", "seat": 0, "token": "x", "name": "Ann",  # type: ignore[arg-type]
                                "state": state}, teller, "key")  # fmt: skip
    game.tell({"event": "player_joined", "table": "t1", "seat": 2, "name": "Cid"})
    assert said[-1] == "Cid sits at seat 3"  # (before the first hand: none)
    game.tell({"event": "hand_started", "table": "t1", "hand": 7, "button": 0, "seats": [0, 1],
               "names": ["Ann", "Ben"], "stacks": [100, 100], "small_blind": 1, "big_blind": 2,
               "small_blind_seat": 0, "big_blind_seat": 1})  # fmt: skip
    notices = [
        ({"event": "seat_status", "seat": 1, "name": "Ben", "status": "disconnected"},
         "[hand 7] Ben is disconnected (the timer checks or folds for them until they are back)"),
        ({"event": "seat_status", "seat": 1, "name": "Ben", "status": "away",
          "reason": "two timeouts in a row"},
         "[hand 7] Ben is out of the deal (two timeouts in a row) until they are back"),
        ({"event": "player_left", "seat": 2, "name": "Cid", "hand": 9},
         "[hand 9] Cid leaves the table"),
        ({"event": "sat_out", "seat": 1, "name": "Ben"}, "[hand 7] Ben sits out"),
        ({"event": "away", "seat": 0, "reason": "timeouts"},
         "[hand 7] You are out of the deal: two timeouts in a row. Type back (or any move) to be "
         "dealt in again."),
        ({"event": "level_up", "level": 1, "hand": 8, "small_blind": 15, "big_blind": 30},
         "[hand 8] Blinds go up: 15/30 (level 2)"),
        ({"event": "player_eliminated", "seat": 1, "name": "Ben", "place": 2, "hand": 7,
          "by": ["Ann"]}, "[hand 7] Ben is out in 2nd place, knocked out by you"),
    ]  # fmt: skip
    for message, line in notices:
        game.tell({**message, "table": "t1"})
        assert said[-1] == line, said[-3:]


@pytest.mark.parametrize("quiet", [False, True])
def test_the_bell_rings_at_your_turn_unless_quiet(
    server: Server, tmp_path: Path, joiners: list[Joiner], quiet: bool
) -> None:
    more = ["--quiet"] if quiet else []
    play = Joiner(["--plain", "--seats", "2", "--seed", "1", "--speed", "0", "--histories",
                   str(tmp_path / "hands"), *more], tmp_path / "config", tty=True,
                  command="play")  # fmt: skip
    ann = Joiner(["--create", "--server", f"127.0.0.1:{server.port}", "--name", "Ann", "--bots",
                  "1", "--pace", "0", "--pause", "0", *more], tmp_path / "config",
                 tty=True)  # fmt: skip
    joiners.extend([play, ann])
    ann.wait_for(r"sits at seat 2")
    ann.type("start\r")
    for client in (play, ann):
        turn = client.wait_for(r"Your move").start()
        board = client.seen.rindex("Board", 0, turn)
        assert ("\a" in client.seen) is not quiet, client.seen[-500:]
        if not quiet:  # (rung as the turn is drawn)
            assert client.seen[client.seen.rindex("\a", 0, turn) : board] == "\a\n"


# ---------------------------------------------------------------- sitting out


class _Answers:
    """A room client that answers ``sit_out`` and ``back`` as the server does,
    and keeps what it was asked."""

    def __init__(self) -> None:
        self.asked: list[tuple[str, dict[str, object]]] = []

    def request(self, kind: str, **fields: object) -> dict[str, object]:
        self.asked.append((kind, fields))
        if kind == "sit_out":
            return {"table": "t1", "seat": 0, "status": "sitting_out"}
        if kind == "back":
            return {"table": "t1", "seat": 0, "back": True, "status": "playing"}
        raise AssertionError(f"sent {kind} {fields}")


def test_sitout_asks_the_server_and_back_deals_the_player_in_again() -> None:
    # (the client's side: the server's sit_out is another engineer's, tested there)
    said: list[str] = []
    client = _Answers()
    state = {"status": "playing", "seats": [{"seat": 0, "name": "Ann"}, {"seat": 1, "name": "Ben"}]}
    joined = {"table": "t1", "seat": 0, "token": "x", "name": "Ann", "state": state}
    teller = Teller(0, color=False, write=said.append)
    game = RoomGame(client, joined, teller, "key")  # type: ignore[arg-type]
    game.typed("sit out", None)
    assert client.asked == [("sit_out", {"table": "t1"})]
    assert said[-1] == ("You sit out from the next hand: your seat is kept, the blinds pass you "
                        "by. Type back (or any move) to be dealt in again.")  # fmt: skip
    game.typed("sit down", None)
    assert (
        said[-1]
        == "Not taken: 'sit down': 'sitout' (or 'sit out') sits you out from the next hand."
    )
    game.typed("back", None)
    assert client.asked[-1] == ("back", {"table": "t1", "post": False})
    assert said[-1] == "You are dealt in again from the next hand."
