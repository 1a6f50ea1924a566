"""Whose seat, coming back, and what the others are told (issue 29): two
``holdem join`` on one login each keep their own seat, a seat connected
elsewhere is taken over only when the player says so, the creator is told
the command that returns to the table, the others are told when a player
disconnects, is away or comes back, a player back is told what was missed,
and a player who left is told nothing more of the table.  In process, and
through ``holdem join`` against ``holdem serve`` on loopback."""

from __future__ import annotations

import random
import shlex
import signal
import sys
import time
from pathlib import Path

import pytest
from rooms_helpers import FAST, Joiner, Server, play_out, players

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
    assert _status(ann.stream, 1)[-2:] == ["connected", "back"]
    # connected, Ben lets the timer play twice again; back deals him in, and Ann is told
    again = lambda: _status(ann.stream, 1).count("away") == 2  # noqa: E731
    for _ in range(200):
        if again():
            break
        play_out([ann], rng, until=again)
        now[0] += 1.5
        ann._route(room.tick())
    assert again()
    assert cid.result("back", table="t1")["back"] is True
    assert _status(ann.stream, 1)[-1] == "back"


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


# ------------------------------------------------------------ through holdem join


def _create(server: Server, config: Path, joiners: list[Joiner], *more: str) -> tuple[Joiner, str]:
    ann = Joiner(["--create", "--server", f"127.0.0.1:{server.port}", "--name", "Ann",
                  "--pace", "0", "--pause", "0", *more], config)  # fmt: skip
    joiners.append(ann)
    return ann, ann.wait_for(r"Join code: (\S+)").group(1)


def test_another_name_on_the_same_login_joins_as_a_new_player(
    server: Server, tmp_path: Path, joiners: list[Joiner]
) -> None:
    config = tmp_path / "config"  # (one login: one seats.json)
    ann, code = _create(server, config, joiners)
    ben = Joiner([code, "--server", f"127.0.0.1:{server.port}", "--name", "Ben"], config)
    joiners.append(ben)
    ben.wait_for(r"Ben at seat 2 of a freezeout")
    ann.wait_for(r"Ben sits at seat 2")
    ben.type("quit\n")
    assert ben.exit_status() == 0
    ann.wait_for(r"Ben leaves the table")
    assert "taken over" not in ann.seen and ann.process.poll() is None  # (Ann plays on)


def test_a_seat_connected_elsewhere_is_taken_over_only_when_the_player_says_so(
    server: Server, tmp_path: Path, joiners: list[Joiner]
) -> None:
    config = tmp_path / "config"
    ann, code = _create(server, config, joiners)
    again = [code, "--server", f"127.0.0.1:{server.port}", "--name", "Ann"]
    # from a pipe: refused, and the first client keeps the seat
    refused = Joiner(again, config)
    joiners.append(refused)
    refused.process.stdin.close()  # type: ignore[union-attr]
    assert refused.exit_status() == 1
    assert "connected from another client of yours: --take-over takes it over" in refused.seen
    assert "Traceback" not in refused.seen
    # on a terminal: asked, and no keeps it too
    asked = Joiner(again, config, tty=True)
    joiners.append(asked)
    asked.wait_for(r"Take it over \(that client stops\)\? \[y/N\]")
    asked.type("n\r")
    assert asked.exit_status() == 1
    assert "stays with the other client" in asked.seen
    time.sleep(0.5)  # (what Ann might have been told has come)
    ann.read()
    assert "taken over" not in ann.seen and ann.process.poll() is None
    # --take-over: the first client is told it was replaced, and stops
    taker = Joiner([*again, "--take-over"], config)
    joiners.append(taker)
    taker.wait_for(r"Ann at seat 1 of a freezeout")
    taker.wait_for(r"Back in your seat")
    ann.wait_for(r"Your seat at table t1 was taken over by another client of yours")
    assert ann.exit_status() == 1
    taker.type("who\n")
    taker.wait_for(r"seat 1: Ann")  # (the seat answers here: it is this client's)


def test_the_creator_is_told_the_command_that_returns_to_the_table(
    server: Server, tmp_path: Path, joiners: list[Joiner]
) -> None:
    config = tmp_path / "config"
    ann, code = _create(server, config, joiners)
    line = ann.wait_for(r"To come back to this seat: (.+)\n").group(1)
    assert line == f"holdem join {code} --server 127.0.0.1:{server.port} --name Ann"
    ann.process.send_signal(signal.SIGKILL)  # (the connection lost)
    ann.process.wait()
    back = Joiner(shlex.split(line)[2:], config)  # (the command as printed)
    joiners.append(back)
    back.wait_for(r"Ann at seat 1 of a freezeout")
    back.wait_for(r"Back in your seat: no hand ended while you were away")
    back.type("bots 1 easy\n")  # (still the creator: her lobby words work)
    back.wait_for(r"sits at seat 2")


@pytest.mark.slow
def test_the_others_are_told_who_goes_and_comes_back_and_the_player_what_was_missed(
    server: Server, tmp_path: Path, joiners: list[Joiner]
) -> None:
    config = tmp_path / "config"
    ann = server.client("Ann")  # (she makes the table with a short timer, and leaves)
    made = ann.request("create_table", name="Ann", pace=0, pause=0, stack=5000,
                       timer={"seconds": 1, "time_bank": 0})  # fmt: skip
    code = made["code"]
    cid = Joiner([code, "--server", f"127.0.0.1:{server.port}", "--name", "Cid"], config)
    joiners.append(cid)
    cid.wait_for(r"Cid at seat 2")
    command = [code, "--server", f"127.0.0.1:{server.port}", "--name", "Ben"]
    ben = Joiner(command, config)
    joiners.append(ben)
    ben.wait_for(r"Ben at seat 3")
    cid.type("c\n" * 2000)  # (Cid calls at every turn, at once)
    ann.request("add_bots", table=made["table"], level="calling-station", count=1)
    ann.request("start", table=made["table"])
    ann.request("leave", table=made["table"])
    ann.close()
    ben.wait_for(r"Your cards")
    ben.process.send_signal(signal.SIGKILL)
    ben.process.wait()
    cid.wait_for(r"Ben is disconnected \(the timer checks or folds for them")
    cid.wait_for(r"Ben is out of the deal \(two timeouts in a row\) until they are back")
    cid.wait_for(r"(?s)out of the deal.*Hand #\d+.*Hand #\d+")  # (hands go on without Ben)
    back = Joiner(command, config)
    joiners.append(back)
    summary = back.wait_for(r"Back in your seat: (\d+) hands? ended while you were away")
    assert int(summary.group(1)) >= 1
    back.wait_for(r"Stacks (now|as this hand began): Ann [\d,]+, Cid [\d,]+, Ben [\d,]+")
    cid.wait_for(r"Ben is connected again")
