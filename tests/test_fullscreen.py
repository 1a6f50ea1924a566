"""The full-screen table (``holdem.clients.fullscreen``) through Textual's
pilot: a seeded ``holdem play`` game driven by keys, the refusals said as
in line mode, keys out of turn not taken, the countdown, a showdown's best
five and kicker, the end of a freezeout with its places and certificate."""

from __future__ import annotations

import asyncio
import contextlib
import os
import queue
import random
import sys
import threading
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from rich.text import Text
from textual.containers import Horizontal
from textual.widgets import Button, Input, RichLog, Static

from holdem import Decision, HandConfig
from holdem.bots import make_bot
from holdem.clients import Histories
from holdem.clients.fullscreen import EndPanel, ScreenLocalGame, TableApp
from holdem.clients.local import play_tournament
from holdem.clients.model import TableModel
from holdem.hand import Hand
from holdem.table import Decide, HandEnded, HandStarted, TimerRules, Tournament, TurnTimer

SIZE = (140, 42)


class Clock:
    """A clock the test sets (the countdown drawn without real time)."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def local_app(tmp_path: Path, *, seats: int = 4, seed: int = 3, stack: int = 1500,
              timer: float | None = None, bank: float = 0.0, clock: Clock | None = None,
              bots: str = "easy") -> tuple[TableApp, ScreenLocalGame]:  # fmt: skip
    """``holdem play``'s game on the full screen, as the command wires it;
    ``clock``: the timer's and the countdown's, frozen (started at
    ``time.monotonic()``, the clock the wait for the player's line reads)."""
    from contextlib import ExitStack

    names = ["Hero", "Ava", "Ben", "Cleo", "Dev", "Eli"][:seats]
    timed = {} if clock is None else {"clock": clock}
    rules = TurnTimer(TimerRules(seconds=timer, time_bank=bank, free_seat_after=None),
                      **timed) if timer else None  # fmt: skip
    event = Tournament(names, stack=stack, timer=rules, rng=random.Random(seed).getrandbits(64))
    app = TableApp(0, seats=seats, quiet=True, clock=clock or Clock())
    game = ScreenLocalGame(app, event.table, 0, "Hero", 0.0, rules)
    app.game = game
    files = ExitStack()
    saved = Histories(files, tmp_path, "play", phh=True, pokerstars=False)
    players: dict[str, Decide] = {"Hero": game.decide}
    players.update((n, make_bot(bots, seed=i)) for i, n in enumerate(names[1:], 1))
    levels = dict.fromkeys(names[1:], bots)

    def play() -> None:
        with files:
            play_tournament(event, game, saved, players, levels, seed, _started())

    game.play = play
    return app, game


def _started() -> Any:
    import datetime

    return datetime.datetime(2026, 1, 2, 3, 4, 5)


async def until(pilot: Any, condition: Callable[[], bool], seconds: float = 20) -> None:
    """Waits (the app running) until ``condition`` holds."""
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    while not condition():
        if loop.time() >= end:
            app = pilot.app
            said, notice = ["(the app ended, or shows a panel)"], ""
            with contextlib.suppress(Exception):
                said, notice = log_text(app).splitlines()[-25:], shown(app, "#notice")
            raise AssertionError(
                "the screen did not get there in time; its notice: "
                f"{notice!r}; its log's end:\n"
                + "\n".join(said)
                + "\nwhere the game's thread is:\n"
                + _game_stack()
            )
        await pilot.pause(0.02)


def _game_stack() -> str:
    """Where the app's game thread is (a failure's clue: waiting for what)."""
    frames = sys._current_frames()
    for thread in threading.enumerate():
        if thread.name == "game" and thread.ident in frames:
            return "".join(traceback.format_stack(frames[thread.ident])[-6:])
    return "(no game thread)"


def log_text(app: TableApp) -> str:
    return "\n".join(line.text for line in app.part("#log", RichLog).lines)


def shown(app: TableApp, ident: str) -> str:
    content = app.screen.query_one(ident, Static).render()
    return content.plain if isinstance(content, Text) else str(content)


def test_your_turn_keys_call_and_a_typed_amount_and_a_refusal_said(tmp_path: Path) -> None:
    app, game = local_app(tmp_path)

    async def run() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: app.model.legal is not None)
            legal = app.model.legal
            assert legal is not None and legal.call is not None
            await pilot.press("k")  # (a bet to call: check is refused, with the reason)
            await until(pilot, lambda: "you cannot check" in shown(app, "#notice"))
            assert f"you cannot check: there is a bet of {legal.bet}" in log_text(app)
            assert app.model.legal is not None  # (still the player's turn)
            turns = game._turns
            await pilot.press("c")
            await until(pilot, lambda: "You call " in log_text(app))
            await until(pilot, lambda: app.model.legal is not None and game._turns > turns)
            # a typed amount: r puts the minimum in the field, a refused one is said
            await pilot.press("r")
            field = app.query_one("#bet", Input)
            assert field.has_focus and field.value.startswith(("r ", "b "))
            field.value = field.value[0] + " 5"
            await pilot.press("enter")
            await until(pilot, lambda: "at least (you typed 5)" in shown(app, "#notice"))
            await pilot.press("r")
            wanted = int(field.value.split()[1])
            await pilot.press("enter")
            await until(pilot, lambda: f"to {wanted:,}" in log_text(app))
            app.action_interrupt()

    asyncio.run(run())


class Idle:
    """A game that asks nothing: every key is out of turn."""

    def __init__(self) -> None:
        self.lines: queue.Queue[tuple[int | None, str]] = queue.Queue()
        self.done = False

    def run(self, app: TableApp) -> None:
        while not self.done:
            with contextlib.suppress(queue.Empty):
                self.lines.get(timeout=0.05)

    def stamp(self) -> int | None:
        return None

    def stop(self) -> None:
        self.done = True

    def takes(self, line: str) -> bool:
        return line in ("quit", "help")


def test_keys_out_of_turn_do_nothing_and_the_screen_says_so() -> None:
    app = TableApp(0, seats=4, quiet=True, clock=Clock())
    idle = Idle()
    app.game = idle

    async def run() -> None:
        async with app.run_test(size=SIZE) as pilot:
            for key in ("f", "c", "k", "a"):
                await pilot.press(key)
                assert shown(app, "#notice") == f"Not taken: '{key}': it is not your turn."
            assert idle.lines.empty()  # (nothing went to the game)
            idle.stop()

    asyncio.run(run())


def test_a_tick_of_the_countdown_as_the_app_ends_draws_nothing() -> None:
    """The countdown's timer may tick once more as the app is taken down:
    it draws nothing (it raised NoMatches, the table's parts gone, and the
    test or the command failed at its end)."""
    app = TableApp(0, seats=2, quiet=True, clock=Clock())
    idle = Idle()
    app.game = idle

    async def run() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            idle.stop()

    asyncio.run(run())
    app._tick()
    app.redraw()


def test_the_turn_timer_counts_down_then_the_time_bank(tmp_path: Path) -> None:
    app, _game = local_app(tmp_path, timer=30)
    clock = app.clock
    assert isinstance(clock, Clock)

    async def run() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: app.model.legal is not None)
            deadline = app.model.deadline
            assert deadline is not None
            app.model.deadline, app.model.bank = clock.now + 30, 10.0  # (a 20 s turn, 10 s bank)
            app._tick()
            assert "Your turn · 20s + time bank 10s" in shown(app, "#clock")
            clock.now += 15
            app._tick()
            assert "Your turn · 5s + time bank 10s" in shown(app, "#clock")
            clock.now += 12
            app._tick()
            assert "time bank 3s" in shown(app, "#clock")
            app.action_interrupt()

    asyncio.run(run())


def test_a_showdown_shows_each_hands_best_five_and_the_kicker_that_decided() -> None:
    app = TableApp(0, seats=2, quiet=True, clock=Clock())
    app.game = Idle()
    config = HandConfig(stacks=(1000, 1000), small_blind=5, big_blind=10, button=0)
    hand = Hand(config, hole_cards=["AsKc", "AhQd"], board="Ad 7h 5d 3c 2h")
    while not hand.done:
        legal = hand.legal_actions()
        hand.act(Decision.check() if legal.check else Decision.call())
    outcome = hand.outcome
    assert outcome is not None

    def feed(model: TableModel) -> None:
        model.event(HandStarted(hand=1, button=0, small_blind_seat=0, big_blind_seat=1,
                                seats=(0, 1), stacks=(1000, 1000), names=("Hero", "Ben"),
                                small_blind=5, big_blind=10))  # fmt: skip
        for record in hand.log:
            model.action(record, hand.view(0).hole_cards)
        model.event(HandEnded(hand=1, outcome=outcome, seats=(0, 1), stacks=outcome.stacks))

    async def run() -> None:
        async with app.run_test(size=SIZE) as pilot:
            app.told(feed)
            await pilot.pause()
            felt = shown(app, "#felt")
            assert "You: A♠ A♦ K♣ 7♥ 5♦  One Pair, Aces, King kicker decided  wins 20" in felt
            assert "Ben: A♥ A♦ Q♦ 7♥ 5♦  One Pair, Aces" in felt
            review = shown(app, "#review")
            assert "#1 A♠ K♣ [A♦ 7♥ 5♦ 3♣ 2♥] You 20 (+10)" in review
            assert "won at showdown 1" in review
            app.game.stop()  # type: ignore[union-attr]

    asyncio.run(run())


def test_the_end_of_a_freezeout_shows_the_places_and_the_certificate(tmp_path: Path) -> None:
    """The end of a freezeout: a panel over the table with the final places and
    the certificate (the log's lines); Escape shows the table again, q leaves."""
    app, _game = local_app(tmp_path, seats=3, stack=200, bots="calling-station")

    async def run() -> None:
        async with app.run_test(size=SIZE) as pilot:
            while not app.finished:
                await until(pilot, lambda: app.model.legal is not None or app.finished)
                if not app.finished:
                    await pilot.press("a" if app.model.legal.all_in else "c")  # type: ignore[union-attr]
                    await pilot.pause(0.02)
            await until(pilot, lambda: isinstance(app.screen, EndPanel))
            panel = shown(app, "#end-text")
            assert panel.startswith("Final places:")
            assert "CERTIFICATE OF VICTORY" in panel
            assert "won the freezeout" in panel
            assert "3 players · 200 chips each" in panel
            assert "CERTIFICATE OF VICTORY" in log_text(app)  # (and the log has it)
            buttons = list(app.part("#actions", Horizontal).query(Button))
            assert all(button.disabled for button in buttons)
            assert [str(b.label) for b in buttons] == ["Fold", "Check", "Call", "Raise", "All in"]
            await pilot.press("escape")
            await until(pilot, lambda: not isinstance(app.screen, EndPanel))
            assert "The game is over" in shown(app, "#notice")
            await pilot.press("q")

    asyncio.run(run())
    assert app.return_value == 0
    assert list(tmp_path.glob("play*.phhs"))  # (every hand saved as in line mode)


def test_q_leaves_the_tournament_after_the_hand(tmp_path: Path) -> None:
    app, _game = local_app(tmp_path, seats=2)

    async def run() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: app.model.legal is not None)
            await pilot.press("q")
            await until(pilot, lambda: app.finished)
            assert "You leave the table after this hand" in log_text(app)
            assert "You left the tournament" in log_text(app)
            await pilot.press("q")

    asyncio.run(run())


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="a pseudo-terminal")
def test_play_on_a_terminal_is_full_screen_and_plain_is_lines(tmp_path: Path) -> None:
    """On a terminal ``holdem play`` draws the table full screen (the terminal's
    alternate screen) and Ctrl-C stops it as in line mode; ``--plain`` keeps
    the lines."""
    from test_clients_input import Terminal

    env = dict(os.environ, TERM="xterm-256color", COLUMNS="140", LINES="42")
    args = ["play", "--seats", "3", "--seed", "1", "--speed", "0", "--quiet",
            "--histories", str(tmp_path / "hands")]  # fmt: skip
    screen = Terminal(args, env=env)
    try:
        screen.wait_for(r"Your turn")
        assert "\x1b[?1049h" in screen.seen  # (the alternate screen: full screen)
        assert "Your move:" not in screen.seen  # (line mode's prompt)
        screen.type("\x03")  # (Ctrl-C)
        assert screen.end() == 130
        assert "holdem play: interrupted" in screen.seen
    finally:
        if screen.process.poll() is None:
            screen.process.kill()
    plain = Terminal([*args, "--plain"], env=env)
    try:
        plain.wait_for(r"Your move:")
        assert "\x1b[?1049h" not in plain.seen
    finally:
        plain.process.kill()
        plain.end()


def test_a_long_line_of_the_log_wraps_at_its_width_with_nothing_cut_off() -> None:
    """The log is narrower than 78 columns: a six-seat hand's line of stacks
    wraps within it (RichLog drew lines 78 wide, the rest out of sight)."""
    app = TableApp(0, seats=6, quiet=True, clock=Clock())
    app.game = Idle()
    names = ("Hero", "Ava", "Ben", "Cleo", "Dev", "Eli")

    async def run() -> None:
        async with app.run_test(size=SIZE) as pilot:
            app.teller.event(HandStarted(hand=1, button=0, small_blind_seat=1, big_blind_seat=2,
                                         seats=tuple(range(6)), stacks=(1500,) * 6, names=names,
                                         small_blind=10, big_blind=20))  # fmt: skip
            await pilot.pause()
            log = app.query_one("#log", RichLog)
            width = log.scrollable_content_region.width
            assert width < 78
            assert max(strip.cell_length for strip in log.lines) <= width
            assert log.virtual_size.width <= width  # (nothing to scroll sideways to)
            assert "Cleo 1,500 · Dev 1,500 · Eli 1,500" in " ".join(log_text(app).split())
            app.game.stop()  # type: ignore[union-attr]

    asyncio.run(run())


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="a pseudo-terminal")
def test_the_results_of_a_freezeout_stay_on_the_terminal_after_the_full_screen(
    tmp_path: Path,
) -> None:
    """Once the player leaves the full screen at the end of a freezeout, its
    final places and certificate are printed on the terminal (the screen
    took them away with it)."""
    from test_clients_input import Terminal

    env = dict(os.environ, TERM="xterm-256color", COLUMNS="140", LINES="42")
    screen = Terminal(["play", "--seats", "2", "--seed", "5", "--speed", "0", "--quiet",
                       "--stack", "40", "--bots", "calling-station",
                       "--histories", str(tmp_path / "hands")], env=env)  # fmt: skip
    try:
        while "q or Enter: leave" not in screen.seen:
            screen.wait_for(r"Your turn|q or Enter: leave", start=len(screen.seen))
            screen.type("a")
        screen.type("q")
        assert screen.end() == 0
    finally:
        if screen.process.poll() is None:
            screen.process.kill()
    after = screen.seen[screen.seen.rindex("\x1b[?1049l") :]  # (the full screen closed)
    assert "Final places:" in after
    assert "CERTIFICATE OF VICTORY" in after
    assert "won the freezeout" in after
    assert "1 hand saved to" in after


class Ending(Idle):
    """A game that tells its end, then takes its time to return (a slow
    machine closing its files)."""

    def run(self, app: TableApp) -> None:
        with app.ending():
            app.teller.say("Final places:")
            app.teller.say("  1st  You")
        super().run(app)


def test_q_on_the_end_panel_leaves_at_once() -> None:
    """q pressed as soon as the end panel shows leaves, though the game's
    thread has not returned yet (it was taken as quit, for a game over, and
    the screen stayed)."""
    app = TableApp(0, seats=2, quiet=True, clock=Clock())
    game = app.game = Ending()

    async def run() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: isinstance(app.screen, EndPanel))
            assert shown(app, "#end-text") == "Final places:\n  1st  You"
            assert not app.finished
            await pilot.press("q")
            await until(pilot, lambda: not app.is_running)

    try:
        asyncio.run(run())
    finally:
        game.stop()
    assert app.return_value == 0
    assert app.ended == ["Final places:", "  1st  You"]  # (printed once the screen is gone)


def test_h_replays_the_last_hand_street_by_street(tmp_path: Path) -> None:
    """h tells the hand that ended again, a street at a time (Right adds
    the next, Left takes it back, Up another hand), from the log's lines."""
    from holdem.clients.fullscreen import ReplayPanel

    app, _ = local_app(tmp_path, seats=2, bots="calling-station")

    async def run() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: app.model.legal is not None)
            await pilot.press("h")  # (no hand has ended yet)
            await until(pilot, lambda: "No hand has ended yet" in shown(app, "#notice"))
            while len(app.model.reviews) < 2:  # (calls and checks: each hand to the river)
                await until(pilot, lambda: app.model.legal is not None
                            or len(app.model.reviews) >= 2)  # fmt: skip
                legal = app.model.legal
                if legal is not None and len(app.model.reviews) < 2:
                    await pilot.press("c" if legal.call is not None else "k")
                    await until(pilot, lambda asked=legal: app.model.legal is not asked)
            await pilot.press("h")
            await until(pilot, lambda: isinstance(app.screen, ReplayPanel))
            panel = app.screen
            assert isinstance(panel, ReplayPanel)
            hand = panel.hand
            text = shown(app, "#replay-text")
            assert f"Hand #{hand} again · street 1 of" in text and "Your cards: " in text
            assert "*** FLOP ***" not in text
            await pilot.press("right")
            text = shown(app, "#replay-text")
            assert "*** FLOP ***" in text and "*** TURN ***" not in text
            await pilot.press("right", "right", "right")  # (past the river: stays there)
            text = shown(app, "#replay-text")
            assert "*** RIVER ***" in text and " from the pot" in text
            await pilot.press("left")
            assert "*** RIVER ***" not in shown(app, "#replay-text")
            await pilot.press("up")
            assert f"Hand #{hand - 1} again · street 1 of" in shown(app, "#replay-text")
            await pilot.press("escape")
            await until(pilot, lambda: not isinstance(app.screen, ReplayPanel))
            app.action_interrupt()

    asyncio.run(run())
