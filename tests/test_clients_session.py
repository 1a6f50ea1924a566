"""A session as players live it (issue 29), over a real ``holdem serve`` on
loopback: Ann makes a private freezeout on her terminal and fills two seats
with bots, Ben joins from a script (a pipe), loses his connection and comes
back, Eve watches (``holdem watch``), and the game is played to a winner.  What each
one was shown holds only what that seat may see: its own cards, the board,
the cards shown (checked hand by hand against the hands the server kept)."""

from __future__ import annotations

import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from rooms_helpers import Server, allowed_cards
from terminal_helpers import Terminal

from holdem.rooms import Store

pytestmark = [
    pytest.mark.skipif(
        sys.platform == "win32" or not hasattr(os, "openpty"), reason="pseudo-terminals"
    ),
    pytest.mark.slow,  # (a freezeout of four played out: 10 to 30 s)
]

#: A card as the clients draw it on a UTF-8 terminal: rank, suit symbol.
CARD = re.compile(r"([2-9TJQKA])([♣♦♥♠])")
SUITS = {"♣": "c", "♦": "d", "♥": "h", "♠": "s"}
HAND = re.compile(r"Hand #(\d+) ")


def seen_by_hand(text: str) -> dict[int, set[str]]:
    """The cards a client's output shows, by the hand whose lines they are in."""
    out: dict[int, set[str]] = {}
    marks = list(HAND.finditer(text))
    for n, mark in enumerate(marks):
        end = marks[n + 1].start() if n + 1 < len(marks) else len(text)
        cards = {rank + SUITS[suit] for rank, suit in CARD.findall(text[mark.end() : end])}
        out.setdefault(int(mark.group(1)), set()).update(cards)
    return out


def assert_sees_only_its_own(text: str, store: Store, table: str, seat: int | None) -> int:
    """Every card shown in ``text`` is one ``seat`` may see in its hand; the
    hands checked."""
    checked = 0
    for number, cards in seen_by_hand(text).items():
        record = store.hand(table, number)
        if record is None:
            continue  # (a hand cut short by the end of the test: not kept)
        leaked = cards - allowed_cards(record, seat)
        assert not leaked, f"hand {number}: {sorted(leaked)} shown to seat {seat}"
        checked += 1
    return checked


def test_a_private_freezeout_with_a_reconnect_and_a_spectator_is_played_to_a_winner(
    tmp_path: Path, terminals: list[Terminal]
) -> None:
    server = Server(tmp_path / "room").start()
    env = dict(os.environ, XDG_CONFIG_HOME=str(tmp_path / "config"), TERM="dumb",
               PYTHONIOENCODING="utf-8")  # fmt: skip
    address = f"127.0.0.1:{server.port}"
    ben: subprocess.Popen[bytes] | None = None
    try:
        ann = Terminal(["join", "--create", "--server", address, "--name", "Ann", "--no-color",
                        "--plain", "--stack", "300", "--schedule",
                        "@2h, 20/40, 40/80, 80/160, 160/320, rise", "--pace", "0", "--pause",
                        "0.2", "--timer", "30"], env)  # fmt: skip
        terminals.append(ann)
        code = ann.wait_for(r"Join code: (\S+)").group(1)
        ann.type("bots 2 calling-station\r")
        ann.wait_for(r"\(calling-station bot\) sits at seat")

        def join_ben(log: Path) -> subprocess.Popen[bytes]:
            process = subprocess.Popen(
                [sys.executable, "-m", "holdem", "join", code, "--server", address,
                 "--name", "Ben", "--no-color"],
                stdin=subprocess.PIPE, stdout=log.open("wb"), stderr=subprocess.STDOUT, env=env,
            )  # fmt: skip
            assert process.stdin is not None
            process.stdin.write(b"c\n" * 400)  # (a script's moves: each waits for a turn)
            process.stdin.flush()
            return process

        ben = join_ben(tmp_path / "ben-1.txt")
        ann.wait_for(r"Ben sits at seat")
        eve = Terminal(["watch", code, "--server", address, "--no-color", "--plain"], env)
        terminals.append(eve)
        eve.wait_for(r"seat 4: Ben")
        ann.type("start\r")

        # Ann and Ben call at each turn; Ben's connection is cut at
        # his second hand and he comes back with the command he was given
        moves, cut = 0, False
        deadline = time.monotonic() + 120
        while "Final places" not in ann.seen:
            assert time.monotonic() < deadline, ann.seen[-2000:]
            ann.read(0.1)
            asked = ann.seen.count("Your move")
            if asked > moves:
                moves = asked
                ann.type("c\r")
            first = (tmp_path / "ben-1.txt").read_text(encoding="utf-8", errors="replace")
            if not cut and "Hand #2 " in first:
                ben.send_signal(signal.SIGKILL)  # (as a dropped connection: no goodbye)
                ben.wait()
                cut = True
                ben = join_ben(tmp_path / "ben-2.txt")
        assert cut
        ann.wait_for(r"CERTIFICATE OF VICTORY(.|\n)*won the freezeout")
        assert ben.wait(timeout=30) == 0
        ben_text = "".join(
            (tmp_path / name).read_text(encoding="utf-8", errors="replace")
            for name in ("ben-1.txt", "ben-2.txt")
        )
        assert "Back in your seat" in ben_text
        assert "Final places" in ben_text
        eve.wait_for(r"CERTIFICATE OF VICTORY(.|\n)*won the freezeout")
    finally:
        if ben is not None and ben.poll() is None:
            ben.kill()
            ben.wait()
        server.stop()

    store = Store(tmp_path / "room" / "room.sqlite")
    (table,) = [row.id for row in store.tables()]
    kept = sqlite3.connect(tmp_path / "room" / "room.sqlite")
    (first,) = kept.execute(
        "SELECT result FROM hands WHERE table_id = ? AND number = 1", (table,)
    ).fetchone()
    seats = dict(zip(json.loads(first)["names"], json.loads(first)["seats"], strict=True))
    assert assert_sees_only_its_own(ann.seen, store, table, seats["Ann"]) >= 2
    assert assert_sees_only_its_own(ben_text, store, table, seats["Ben"]) >= 2
    assert assert_sees_only_its_own(eve.seen, store, table, None) >= 2  # (the spectator)
