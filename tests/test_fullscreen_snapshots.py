"""Snapshots of the full-screen table (pytest-textual-snapshot): the key
states drawn the same every run, and compared with the SVGs kept under
``tests/__snapshots__/`` (``pytest --snapshot-update`` writes them again
after a change that is meant; look at them before committing).

Each state is made without chance or time: a seeded ``holdem play`` game
(the player's turn, the end of a freezeout), or a hand of fixed cards told
to the screen as ``holdem play``'s game tells it (a showdown, an all-in
run-out); the terminal's size fixed and the clock frozen (the countdown
reads the same)."""

from __future__ import annotations

import inspect
import queue
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

from test_fullscreen import SIZE, Clock, local_app, until
from textual.widgets import Input

from holdem import ActionKind, Decision, HandConfig
from holdem.clients import greet
from holdem.clients.fullscreen import EndPanel, ScreenRoomGame, TableApp
from holdem.clients.model import TableModel
from holdem.hand import Hand
from holdem.table import ActionTaken, Event, HandEnded, HandStarted

Compare = Callable[..., bool]


class Told:
    """A game that tells the screen one hand of fixed cards, event by event
    from its own thread as ``holdem play``'s does (the model fed, the
    Teller's lines in the log), up to ``upto`` of them; then waits."""

    def __init__(self, names: tuple[str, ...], hand: Hand, upto: int | None = None) -> None:
        self.lines: queue.Queue[tuple[int | None, str]] = queue.Queue()
        self.names, self.hand, self.upto = names, hand, upto
        self.told = threading.Event()  # (everything told: the screen is still)

    def events(self) -> Iterator[Event]:
        hand, config = self.hand, self.hand.config
        seats = tuple(range(len(config.stacks)))
        yield HandStarted(hand=7, button=config.button, small_blind_seat=(config.button + 1) % 3,
                          big_blind_seat=(config.button + 2) % 3, seats=seats,
                          stacks=config.stacks, names=self.names,
                          small_blind=config.small_blind, big_blind=config.big_blind)  # fmt: skip
        yield from (ActionTaken(hand=7, action=record) for record in hand.log)
        outcome = hand.outcome
        assert outcome is not None
        yield HandEnded(hand=7, outcome=outcome, seats=seats, stacks=outcome.stacks)

    def run(self, app: TableApp) -> None:
        own = self.hand.view(0).hole_cards
        for i, event in enumerate(self.events()):
            if self.upto is not None and i >= self.upto:
                break

            def feed(model: TableModel, event: Event = event) -> None:
                model.event(event, own)

            app.from_game(app.told, feed)
            if isinstance(event, ActionTaken):
                app.teller.action(event.action, own)
            else:
                app.teller.event(event)
        self.told.set()
        self.lines.get()  # (until stopped)

    def stamp(self) -> int | None:
        return None

    def takes(self, line: str) -> bool:
        return False

    def stop(self) -> None:
        self.lines.put((None, ""))


def played(config: HandConfig, hole: list[str], board: str,
           moves: Callable[[Any], Decision]) -> Hand:  # fmt: skip
    """A hand of these cards played to its end with ``moves`` (of the legal actions)."""
    hand = Hand(config, hole_cards=hole, board=board)
    while not hand.done:
        hand.act(moves(hand.legal_actions()))
    return hand


def snap(snap_compare: Compare, app: TableApp,
         ready: Callable[[], bool] | Callable[[Any], Awaitable[None]]) -> bool:  # fmt: skip
    """The app's screen once ``ready`` holds (or once ``ready(pilot)`` has
    played up to the state), compared with its snapshot; the game stopped after."""

    async def wait(pilot: Any) -> None:
        if inspect.iscoroutinefunction(ready):
            await ready(pilot)
        else:
            await until(pilot, ready, 30)  # type: ignore[arg-type]
        await pilot.pause()

    try:
        return snap_compare(app, terminal_size=SIZE, run_before=wait)
    finally:
        app.closed = True
        assert app.game is not None
        app.game.stop()
        if app._thread is not None:
            app._thread.join(10)


def test_your_turn(snap_compare: Compare, tmp_path: Path) -> None:
    """A seeded freezeout at the player's first turn: the seats, the blinds,
    the menu with its amounts, the countdown and the pot odds."""
    clock = Clock(time.monotonic())
    app, _game = local_app(tmp_path, seats=6, seed=11, timer=60, bank=30, clock=clock)
    assert snap(snap_compare, app, lambda: app.model.legal is not None)


def test_a_showdown_with_the_best_five_and_the_deciding_kicker(snap_compare: Compare) -> None:
    """Three hands to the river: each shown with its best five, the winner's
    deciding kicker named, the review and the session's statistics."""
    config = HandConfig(stacks=(1500, 1500, 1500), small_blind=10, big_blind=20, button=0)
    hand = played(config, ["AsKc", "AhQd", "8c8d"], "Ad 7h 5d 3c 2h",
                  lambda legal: Decision.check() if legal.check else Decision.call())  # fmt: skip
    app = TableApp(0, seats=3, quiet=True, clock=Clock())
    game = Told(("Hero", "Ava", "Ben"), hand)
    app.game = game
    assert snap(snap_compare, app, game.told.is_set)


def test_all_in_with_a_run_out(snap_compare: Compare) -> None:
    """The player all in before the flop, called by two with more chips: the
    main pot and a side pot, the flop dealt with nobody left to bet."""
    config = HandConfig(stacks=(400, 1500, 900), small_blind=10, big_blind=20, button=2)

    def moves(legal: Any) -> Decision:
        return Decision.all_in() if legal.all_in is not None else Decision.call()

    hand = played(config, ["QsQh", "AhKd", "JcTc"], "Qd 9c 4h 8s 2c", moves)
    flop = next(i for i, r in enumerate(hand.log) if r.kind is ActionKind.DEAL_BOARD)
    app = TableApp(0, seats=3, quiet=True, clock=Clock())
    game = Told(("Hero", "Ava", "Ben"), hand, upto=flop + 2)  # (the hand's start, up to the flop)
    app.game = game
    assert snap(snap_compare, app, game.told.is_set)


def test_the_end_of_a_freezeout(snap_compare: Compare, tmp_path: Path) -> None:
    """A seeded three-player freezeout played to its end (all in at every
    turn): the panel over the table with the final places and the certificate."""
    app, _game = local_app(tmp_path, seats=3, stack=200, bots="calling-station")

    async def play(pilot: Any) -> None:
        while not app.finished:
            await until(pilot, lambda: app.model.legal is not None or app.finished)
            legal = app.model.legal
            if legal is not None:
                await pilot.press("a" if legal.all_in else "c")
                await until(pilot, lambda asked=legal: app.model.legal is not asked)
        await until(pilot, lambda: isinstance(app.screen, EndPanel))

    assert snap(snap_compare, app, play)


class Quiet:
    """A room connection on which nothing comes (the lobby waits as drawn)."""

    def poll(self, timeout: float = 0.0) -> list[dict[str, Any]]:
        time.sleep(min(timeout, 0.05))
        return []


def test_a_room_lobby(snap_compare: Compare) -> None:
    """``holdem join --create`` on the full screen before the start: the join
    code on the felt, who is in, the field ready for the lobby's words (its
    cursor still)."""
    seats = [{"seat": 0, "name": "Ann", "bot": None, "connected": True},
             {"seat": 1, "name": "Easy 1", "bot": "easy", "connected": True}]  # fmt: skip
    made = {"table": "t1", "code": "7KQM-X2TP", "seat": 0, "token": "x", "name": "Ann",
            "creator": True, "state": {"table": "t1", "game": "tournament", "status": "waiting",
                                       "max_seats": 6, "seats": seats}}  # fmt: skip
    app = TableApp(0, seats=6, quiet=True, clock=Clock())
    game = ScreenRoomGame(Quiet(), made, app.teller, "")
    again = "holdem join 7KQM-X2TP --server 127.0.0.1:7777 --name Ann"
    greet(game, made, "127.0.0.1:7777", True, again)
    game.show(app, made["state"], "Join code 7KQM-X2TP: your friends type holdem join "
              "7KQM-X2TP --server 127.0.0.1:7777")  # fmt: skip

    def still() -> bool:
        app.part("#bet", Input).cursor_blink = False
        return True

    assert snap(snap_compare, app, still)
