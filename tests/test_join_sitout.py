"""Sitting out end to end (issue 29): ``sitout`` in ``holdem join`` on a
terminal against a real ``holdem serve`` on loopback.  At a cash table the
hands are dealt without the player, the others are told, and ``back``
follows the blinds rule (waiting for the big blind, then dealt in posting
it); at a freezeout the stack is dealt in and checked or folded for, with
no turn asked, until ``back``."""

from __future__ import annotations

import os
import re
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from rooms_helpers import Joiner, Server

from holdem.clients import RoomClient

pytestmark = pytest.mark.skipif(
    sys.platform == "win32" or not hasattr(os, "openpty"), reason="pseudo-terminals"
)

HAND = re.compile(r"── Hand #(\d+) [^\n]*\n([^\n]*)\n")
SAT_OUT = "You sit out from the next hand: your seat is kept, the blinds pass you by."


def _sit_out_at_the_first_turn(ann: Joiner) -> int:
    """Ann types ``sitout`` at her first turn, then plays the hand out (``c``
    at each turn): where the screen said she sits out."""
    ann.wait_for(r"Your move")
    ann.type("sitout\r")
    said = ann.wait_for(re.escape(SAT_OUT)).start()
    turns = ann.seen.count("Your move") - 1  # (the turn being asked: still hers)
    deadline = time.monotonic() + 30
    while not HAND.search(ann.seen, said):  # (the hand being played is hers to finish)
        assert time.monotonic() < deadline, ann.seen[-2000:]
        if ann.seen.count("Your move") > turns:
            turns += 1
            ann.type("c\r")
        ann.read()
    return said


def _hands_after(ann: Joiner, start: int, count: int) -> list[tuple[int, str]]:
    """The next ``count`` hands begun after ``start``: each one's number and
    the line of who is dealt in."""
    deadline = time.monotonic() + 60
    while len(found := HAND.findall(ann.seen, start)) < count:
        assert time.monotonic() < deadline, ann.seen[-2000:]
        ann.read()
    return [(int(n), seats) for n, seats in found[:count]]


def _after(ann: Joiner, pattern: str, start: int, seconds: float = 60) -> re.Match[str]:
    """The first match of ``pattern`` written after ``start``, read until there is one."""
    deadline = time.monotonic() + seconds
    while not (found := re.compile(pattern).search(ann.seen, start)):
        assert time.monotonic() < deadline, ann.seen[-2000:]
        ann.read()
    return found


def _told(watcher: RoomClient, stream: list[dict[str, Any]]) -> list[tuple[str, str | None]]:
    """The seat statuses of seat 0 a spectator was told."""
    stream.extend(watcher.poll(0.2))
    return [(m["status"], m.get("reason")) for m in stream
            if m.get("event") == "seat_status" and m["seat"] == 0]  # fmt: skip


def test_a_cash_player_sits_out_is_dealt_no_hand_and_comes_back_waiting_for_the_big_blind(
    server: Server, tmp_path: Path
) -> None:
    ann = Joiner(["--create", "--server", f"127.0.0.1:{server.port}", "--name", "Ann", "--game",
                  "cash", "--bots", "2", "--bot-level", "calling-station", "--pace", "0",
                  "--pause", "0.1", "--quiet", "--plain"], tmp_path / "config",
                 tty=True)  # fmt: skip
    try:
        code = ann.wait_for(r"Join code: (\S+)").group(1)
        ann.wait_for(r"Station 2 \(calling-station bot\) sits at seat 3")
        with server.client("Eve") as eve:
            eve.request("watch", code=code)
            ann.type("start\r")
            said = _sit_out_at_the_first_turn(ann)
            out = _hands_after(ann, said, 5)
            first = out[0][0]
            # (the hand after the one she sat out in, and on: dealt without her)
            assert all("You" not in seats for _, seats in out[1:]), out
            assert "Your cards" not in ann.seen[ann.seen.index(f"── Hand #{out[1][0]} ") :]
            assert "Your move" not in ann.seen[ann.seen.index(f"── Hand #{out[1][0]} ") :]
            # back: both blinds passed her, so she waits for the big blind
            ann.type("back\r")
            back = ann.wait_for(r"You are back, waiting for the big blind").start()
            dealt = _after(ann, r"Your cards: ", back).start()
            hand = ann.seen.rindex("── Hand #", back, dealt)
            assert "You post the big blind" in ann.seen[hand:dealt]
            stream: list[dict[str, Any]] = []
            deadline = time.monotonic() + 20
            while ("back", None) not in _told(eve, stream):
                assert time.monotonic() < deadline, stream[-5:]
            assert _told(eve, stream)[0] == ("away", "sat out")
            sat = next(m for m in stream if m.get("event") == "seat_status")
            assert sat["hand"] == first - 1  # (told at the hand she sat out in)
    finally:
        ann.stop()


def test_a_freezeout_stack_that_sits_out_is_checked_or_folded_for_until_back(
    server: Server, tmp_path: Path
) -> None:
    ann = Joiner(["--create", "--server", f"127.0.0.1:{server.port}", "--name", "Ann", "--stack",
                  "3000", "--bots", "2", "--bot-level", "calling-station", "--pace", "0",
                  "--pause", "0.1", "--quiet", "--plain"], tmp_path / "config",
                 tty=True)  # fmt: skip
    try:
        ann.wait_for(r"Station 2 \(calling-station bot\) sits at seat 3")
        ann.type("start\r")
        said = _sit_out_at_the_first_turn(ann)
        out = _hands_after(ann, said, 4)
        assert all("You" in seats for _, seats in out), out  # (dealt in, blinded away)
        later = ann.seen[ann.seen.index(f"── Hand #{out[1][0]} ") :]
        assert "Your move" not in later
        assert re.search(r"^You (fold|check)", later, re.M), later
        assert not re.search(r"^You (call|bet|raise)", later, re.M), later
        ann.type("back\r")
        back = ann.wait_for(r"You are dealt in again from the next hand\.").end()
        _after(ann, r"Your move", back)
    finally:
        ann.stop()
