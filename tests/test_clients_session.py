"""A session as players live it (issue 29), over a real ``holdem serve`` on
loopback: Ann makes a private freezeout on her terminal and fills two seats
with bots, Ben joins from a script (a pipe), loses his connection and comes
back, Eve watches (``holdem watch``), and the game is played to a winner.  What each
one was shown holds only what that seat may see: its own cards, the board,
the cards shown (checked hand by hand against the hands the server kept)."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from rooms_helpers import Server, allowed_cards, joined_app, typed
from terminal_helpers import Terminal
from test_fullscreen import SIZE, log_text, shown, until

from holdem.cards import format_card
from holdem.clients.fullscreen import EndPanel, ScreenRoomGame
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


def kept_hands(data: Path) -> tuple[Store, str, dict[str, int]]:
    """The room's store, its one table and the seats of its first hand's
    players, by name."""
    store = Store(data / "room.sqlite")
    (table,) = [row.id for row in store.tables()]
    kept = sqlite3.connect(data / "room.sqlite")
    (first,) = kept.execute(
        "SELECT result FROM hands WHERE table_id = ? AND number = 1", (table,)
    ).fetchone()
    kept.close()
    return store, table, dict(zip(json.loads(first)["names"], json.loads(first)["seats"],
                                  strict=True))  # fmt: skip


def terminal_env(tmp_path: Path) -> dict[str, str]:
    """The environment of a test's line clients: their own seats file, a
    plain UTF-8 terminal."""
    return dict(os.environ, XDG_CONFIG_HOME=str(tmp_path / "config"), TERM="dumb",
                PYTHONIOENCODING="utf-8")  # fmt: skip


async def fill_and_start(
    pilot: Any, app: Any, code: str, terminal: Callable[..., Terminal]
) -> tuple[Terminal, Terminal]:
    """Ann's full-screen lobby: two calling stations, Ben (``holdem join`` on
    a terminal) and Eve watching (``holdem watch``), then the start."""
    await typed(pilot, app, "bots 2 calling-station")
    await until(pilot, lambda: len(app.model.seats) == 3)
    ben = terminal("join", code, "--name", "Ben")
    await until(pilot, lambda: "Ben sits at seat" in log_text(app))
    eve = terminal("watch", code)
    await until(pilot, lambda: eve.read(0.02) or "seat 4: Ben" in eve.seen)
    await typed(pilot, app, "start")
    return ben, eve


def test_a_private_freezeout_with_a_reconnect_and_a_spectator_is_played_to_a_winner(
    tmp_path: Path, terminals: list[Terminal]
) -> None:
    server = Server(tmp_path / "room").start()
    env = terminal_env(tmp_path)
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

    store, table, seats = kept_hands(tmp_path / "room")
    assert assert_sees_only_its_own(ann.seen, store, table, seats["Ann"]) >= 2
    assert assert_sees_only_its_own(ben_text, store, table, seats["Ben"]) >= 2
    assert assert_sees_only_its_own(eve.seen, store, table, None) >= 2  # (the spectator)


class Checked(ScreenRoomGame):
    """A full-screen player's game whose screen is looked at after each
    event: the cards its model holds (own, board, shown) and its review's,
    by hand, kept to be checked against the stored hands."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.held: list[tuple[int, set[str]]] = []  # (hand, the cards the screen holds)

    def _message(self, message: dict[str, Any]) -> None:
        super()._message(message)
        model = self.app.model  # type: ignore[union-attr]
        if model.hand:
            self.held.append((model.hand, {format_card(c) for c in model.visible_cards()}))
        for review in model.reviews:
            cards = {*review.cards, *review.board, *(c for s in review.shown for c in s.cards)}
            self.held.append((review.hand, {format_card(c) for c in cards}))

    def assert_sees_only_its_own(self, store: Store, table: str) -> int:
        """What :func:`assert_sees_only_its_own` checks of a line client's
        output, at every event; the events checked."""
        checked = 0
        for number, cards in self.held:
            record = store.hand(table, number)
            if record is None:
                continue  # (a hand cut short by the end of the test: not kept)
            leaked = cards - allowed_cards(record, self.seat)
            assert not leaked, f"hand {number}: {sorted(leaked)} held by seat {self.seat}"
            checked += 1
        return checked


def test_a_freezeout_with_the_full_screen_a_plain_terminal_a_sit_out_and_a_reconnect(
    tmp_path: Path,
) -> None:
    """Ann on the full screen (the app as ``holdem join --create`` builds it,
    driven by the pilot, a real connection) fills two seats with bots, sits
    out for a hand and comes back; Ben (``holdem join --plain`` on a
    terminal) is cut off at his second hand and comes back; Eve watches
    (``holdem watch --plain``); played to the certificate.  Ann's screen at
    every event, and the others' output hand by hand, hold only what each
    may see."""
    server = Server(tmp_path / "room").start()
    env = terminal_env(tmp_path)
    address = f"127.0.0.1:{server.port}"
    started: list[Terminal] = []  # (Ben's, Eve's, Ben's again)

    def terminal(*args: str) -> Terminal:
        started.append(Terminal([*args, "--server", address, "--no-color", "--plain"], env))
        return started[-1]

    try:
        with server.client("holdem join") as client:
            app, game = joined_app(client, address, Checked, pace=0, pause=0.2, stack=400,
                                   schedule="@3h, 20/40, 40/80, 80/160, 160/320, rise",
                                   timer={"seconds": 30})  # fmt: skip
            assert isinstance(game, Checked)
            code = app.waiting.removeprefix("Join code ")  # (on the felt until the start)
            out: dict[str, Any] = {}  # (the hands Ann sat out at and came back at; her log)

            async def run() -> None:
                async with app.run_test(size=SIZE) as pilot:
                    ben, eve = await fill_and_start(pilot, app, code, terminal)
                    answered, pressed = 0, None
                    deadline = time.monotonic() + 120
                    while not isinstance(app.screen, EndPanel):
                        assert time.monotonic() < deadline, (out, log_text(app)[-2000:])
                        await pilot.pause(0.02)
                        for other in (ben, eve):
                            other.read(0.01)
                        if ben.seen.count("Your move") > answered:
                            answered = ben.seen.count("Your move")
                            ben.type("c\r")
                        if ben is started[0] and "Hand #2 " in ben.seen:
                            os.killpg(ben.process.pid, signal.SIGKILL)  # (no goodbye)
                            ben.end()
                            ben, answered = terminal("join", code, "--name", "Ben"), 0
                        legal = app.model.legal
                        if legal is not None and game.turns != pressed:
                            pressed = game.turns  # (the turn's number: one key for each)
                            await pilot.press("c" if legal.call is not None else "k")
                        elif legal is None and app.model.hand >= 2 and "sitout" not in out:
                            out["sitout"] = app.model.hand
                            await typed(pilot, app, "sitout")
                        elif legal is None and app.model.hand >= out.get("sitout", 99) + 2 and (
                            "back" not in out
                        ):  # fmt: skip
                            out["back"] = app.model.hand
                            await typed(pilot, app, "back")
                    assert "CERTIFICATE OF VICTORY" in shown(app, "#end-text")
                    assert "won the freezeout" in shown(app, "#end-text")
                    out["log"] = log_text(app)  # (the log as the app ends)
                    await pilot.press("q")

            asyncio.run(run())
        ben_1, eve, ben_2 = started
        ben_2.wait_for(r"CERTIFICATE OF VICTORY(.|\n)*won the freezeout")
        eve.wait_for(r"CERTIFICATE OF VICTORY(.|\n)*won the freezeout")
        assert ben_2.end() == 0 and eve.end() == 0
    finally:
        for other in started:
            if other.process.poll() is None:
                other.end(0)
        server.stop()

    text = out["log"]
    assert "You sit out from the next hand" in text
    assert "Back in your seat" in ben_2.seen
    assert re.search(r"Ann is out of the deal \(sat out\) until they are back", ben_2.seen)
    assert "Ann is dealt in again" in ben_2.seen and "Ann is dealt in again" in eve.seen
    store, table, seats = kept_hands(tmp_path / "room")
    assert seats["Ann"] == game.seat
    assert game.assert_sees_only_its_own(store, table) >= 20
    assert assert_sees_only_its_own(text, store, table, game.seat) >= 2  # (her log's cards)
    assert assert_sees_only_its_own(ben_1.seen + ben_2.seen, store, table, seats["Ben"]) >= 2
    assert assert_sees_only_its_own(eve.seen, store, table, None) >= 2  # (the spectator)


def flat(app: Any) -> str:
    """The full screen's log as one line (its lines wrap at the log's width)."""
    return " ".join(log_text(app).split())


def test_a_rebuy_at_a_cash_table_on_the_full_screen_is_told_to_the_others(
    tmp_path: Path,
) -> None:
    """Ann on the full screen buys in short at a cash table (40, the least)
    and goes all in at each turn against Ben (``holdem join --plain`` on a
    terminal, calling) and two calling stations, until she has no chips; she
    is told how to rebuy, a rebuy past the table's maximum is refused naming
    it, ``rebuy 100`` buys her in again: her screen draws the 100 and Ben
    and Eve (``holdem watch --plain``) are told.  Each one's screen holds
    only what it may see."""
    server = Server(tmp_path / "room").start()
    env = terminal_env(tmp_path)
    address = f"127.0.0.1:{server.port}"
    started: list[Terminal] = []

    def terminal(*args: str) -> Terminal:
        started.append(Terminal([*args, "--server", address, "--no-color", "--plain"], env))
        return started[-1]

    try:
        with server.client("holdem join") as client:
            app, game = joined_app(client, address, Checked, game="cash", seats=4, small_blind=1,
                                   big_blind=2, min_buy_in=40, max_buy_in=1000, buy_in=40,
                                   pace=0, pause=0.2, timer={"seconds": 30})  # fmt: skip
            assert isinstance(game, Checked)
            code = app.waiting.removeprefix("Join code ")
            out: dict[str, Any] = {}

            async def run() -> None:
                async with app.run_test(size=SIZE) as pilot:
                    ben, eve = await fill_and_start(pilot, app, code, terminal)
                    answered, pressed = 0, None
                    deadline = time.monotonic() + 90
                    while "You have no chips left" not in flat(app):
                        assert time.monotonic() < deadline, log_text(app)[-2000:]
                        await pilot.pause(0.02)
                        for other in (ben, eve):
                            other.read(0.01)
                        if ben.seen.count("Your move") > answered:
                            answered = ben.seen.count("Your move")
                            ben.type("c\r")
                        legal = app.model.legal
                        if legal is not None and game.turns != pressed:
                            pressed = game.turns
                            await pilot.press("a" if legal.all_in else "c")
                    out["busted"] = app.model.hand
                    await typed(pilot, app, "rebuy 5000")
                    await until(pilot, lambda: "this table's maximum buy-in is 1,000" in flat(app))
                    await typed(pilot, app, "rebuy 100")
                    await until(pilot, lambda: "You add 100 chips" in flat(app))
                    mine = game.seat
                    await until(pilot, lambda: app.model.hand > out["busted"]
                                and any(s.seat == mine and s.stack + s.put_in == 100
                                        for s in app.model.seats.values()))  # fmt: skip
                    for other in (ben, eve):
                        other.wait_for(r"Ann adds 100 chips")
                    out["log"] = log_text(app)
                    await pilot.press("escape")
                    await pilot.press("q")

            asyncio.run(run())
    finally:
        for other in started:
            if other.process.poll() is None:
                os.killpg(other.process.pid, signal.SIGKILL)
                other.end(0)
        server.stop()

    ben, eve = started
    store, table, seats = kept_hands(tmp_path / "room")
    assert game.assert_sees_only_its_own(store, table) >= 5
    assert assert_sees_only_its_own(out["log"], store, table, game.seat) >= 1
    assert assert_sees_only_its_own(ben.seen, store, table, seats["Ben"]) >= 1
    assert assert_sees_only_its_own(eve.seen, store, table, None) >= 1
