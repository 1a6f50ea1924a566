"""``back`` at a private cash table (issue 29): a player sat out by two
timeouts who comes back follows the blinds rule (R3): dealt in at once when
they owe nothing, else waiting for the big blind (or ``post``: the blinds
posted, dealt in at the next hand), and told which; the timeouts that sat
them out do not sit them out again.  Driven through ``holdem join`` on a
pseudo-terminal against ``holdem serve`` on loopback."""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest
from rooms_helpers import Server

pytestmark = [
    pytest.mark.skipif(not hasattr(os, "openpty"), reason="a pseudo-terminal"),
    pytest.mark.slow,  # (four timeouts of a second, then a round of hands: about 8 s)
]

AWAY = b"You are out of the deal"
WAITING = b"You are back, waiting for the big blind"
POSTING = b"You post the blinds you missed and are dealt in at the next hand."
DEALT = b"Your cards: "


class Terminal:
    """``holdem join`` on a pseudo-terminal, Ben at Ann's private cash table
    (a second a decision, no time bank, two calling stations, a fifth of a
    second between hands; Ann gone after the start): what it wrote, and keys typed."""

    def __init__(self, server: Server, tmp_path: Path) -> None:
        ann = server.client("Ann")
        made = ann.request("create_table", name="Ann", game="cash", pace=0, pause=0.2,
                           timer={"seconds": 1, "time_bank": 0})  # fmt: skip
        self.main, side = os.openpty()
        env = dict(os.environ, XDG_CONFIG_HOME=str(tmp_path / "config"), TERM="dumb")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "holdem", "join", made["code"], "--server",
             f"127.0.0.1:{server.port}", "--name", "Ben", "--no-color", "--plain"],
            stdin=side, stdout=side, stderr=side, env=env, close_fds=True,
        )  # fmt: skip
        os.close(side)
        self.seen = b""
        self.until(b"Ben at seat 2")
        ann.request("add_bots", table=made["table"], level="calling-station", count=2)
        ann.request("start", table=made["table"])
        ann.close()  # (her seat times out twice and sits out too)

    def type(self, keys: bytes) -> None:
        os.write(self.main, keys)

    def until(self, text: bytes, after: int = 0, seconds: float = 30) -> int:
        """Where ``text`` is in what was written (from ``after`` on), read until it is."""
        end = time.monotonic() + seconds
        while (found := self.seen.find(text, after)) < 0:
            assert time.monotonic() < end, self.seen[-1500:]
            if select.select([self.main], [], [], 0.1)[0]:
                try:
                    self.seen += os.read(self.main, 65536)
                except OSError:  # (the program ended)
                    assert self.seen.find(text, after) >= 0, self.seen[-1500:]
        return found

    def close(self) -> None:
        self.process.kill()
        self.process.wait()
        os.close(self.main)


def sat_out(terminal: Terminal) -> int:
    """The player's seat sat out by two timeouts, and blinds gone past it: where
    the screen said the player was out of the deal."""
    away = terminal.until(AWAY)  # (two turns let run out: a second each)
    later = away
    for _ in range(5):  # five hands without the player: both blinds passed the seat
        later = terminal.until(b"Hand #", later) + 1
    return away


def test_back_waits_for_the_big_blind_then_deals_the_player_in(
    server: Server, tmp_path: Path
) -> None:
    terminal = Terminal(server, tmp_path)
    try:
        away = sat_out(terminal)
        terminal.type(b"back\r")
        said = terminal.until(WAITING, away)
        assert b"You are dealt in again" not in terminal.seen[away:]  # (it is not: it waits)
        # the big blind reaches the seat within a round, and the player is dealt
        # in before any timeout of theirs: not sat out again by the old ones
        dealt = terminal.until(DEALT, said)
        assert terminal.seen.find(AWAY, said) in (-1, *range(dealt, len(terminal.seen)))
        hand = terminal.seen.rfind(b"Hand #", said, dealt)
        assert b"You post the big blind" in terminal.seen[hand:dealt]
    finally:
        terminal.close()


def test_post_deals_the_player_in_at_the_next_hand(server: Server, tmp_path: Path) -> None:
    terminal = Terminal(server, tmp_path)
    try:
        away = sat_out(terminal)
        terminal.type(b"post\r")
        said = terminal.until(POSTING, away)
        dealt = terminal.until(DEALT, said)
        # dealt in at the next hand, posting (a hand begun before the server had
        # the request may be told after its answer: at most one before it)
        hand = terminal.seen.rfind(b"Hand #", said, dealt)
        assert hand > said and terminal.seen.count(b"Hand #", said, dealt) <= 2
        assert b"You post" in terminal.seen[hand:dealt]
    finally:
        terminal.close()
