"""The games the full screen drives, each run in the app's worker thread:
``holdem play``'s (:class:`ScreenLocalGame`: the table loop calls
``decide``, which waits for the player's line) and a room's
(:class:`ScreenRoomGame`: the connection read, the same :class:`RoomGame`
logic as line mode, the player's lines taken at their turn)."""

from __future__ import annotations

import contextlib
import io
import queue
import time
from collections.abc import Callable
from typing import Any

from holdem import ActionKind, Decision, LegalActions, PlayerView
from holdem.table import ActionTaken, Event, Table, TurnTimer

from ..commands import HELP, Refused, read_command, show_or_muck
from ..local import LocalGame
from ..model import TableModel
from ..room import RoomGame
from ..terminal import Console
from .app import TableApp

__all__ = ["ScreenLocalGame", "ScreenRoomGame"]


class _Stopped(Exception):
    """Ctrl-C on the full screen: the game's thread stops where it waits."""


class ScreenLocalGame(LocalGame):
    """``holdem play`` on the full screen: ``play`` (the table loop: a call
    of ``play_tournament`` or ``play_cash``) runs in the app's worker
    thread; the player's turn waits for the line the app sends."""

    def __init__(self, app: TableApp, table: Table, me: int, name: str, speed: float,
                 timer: TurnTimer | None) -> None:  # fmt: skip
        self.lines: queue.Queue[tuple[int | None, str]] = queue.Queue()
        self.app = app
        self.play: Callable[[], None] = lambda: None  # (the table loop: set before the app runs)
        self._turns = 0
        self._asking = False  # (a turn, or a question, waits for a line)
        self._stopped = False
        # (the screen drawn before the log's line and its pause: subscribed ahead of the teller)
        table.subscribe(self._draw)
        app.model.unit = table.unit  # (amounts drawn in the table's money, R9)
        super().__init__(table, me, name, app.teller, Console(io.StringIO()), speed, timer)

    def run(self, app: TableApp) -> None:
        with contextlib.suppress(_Stopped):  # (Ctrl-C)
            self.play()

    def stamp(self) -> int | None:
        return self._turns if self._asking else None

    def ending(self) -> contextlib.AbstractContextManager[None]:
        return self.app.ending()  # (the end panel)

    def takes(self, line: str) -> bool:
        return line in ("quit", "help", "table")

    def stop(self) -> None:
        self._stopped = True
        self.lines.put((None, ""))

    def _draw(self, event: Event) -> None:
        app = self.app
        if self._stopped or app.closed:
            raise _Stopped  # (Ctrl-C: the table loop ends here)
        own = None
        if isinstance(event, ActionTaken) and event.action.kind is ActionKind.DEAL_HOLE:
            hand = self.table.hand
            if hand is not None and self.me in hand.config.seat_numbers:
                own = hand.view(self.me).hole_cards

        def feed(model: TableModel) -> None:
            model.event(event, own)

        app.from_game(app.told, feed)

    def _line(self, deadline: float | None) -> tuple[int | None, str] | None:
        """The next line the player sent (None: the deadline passed first)."""
        left = None if deadline is None else max(0.0, deadline - time.monotonic())
        try:
            stamp, line = self.lines.get(timeout=left)
        except queue.Empty:
            return None
        if self._stopped:
            raise _Stopped
        return stamp, line

    def decide(self, view: PlayerView, legal: LegalActions) -> Decision:
        """The player's decision: sent from the screen at their turn (or the
        rooms' defaults at a showdown, and folds once leaving)."""
        if legal.show or legal.muck:
            return show_or_muck(view, legal)
        if self.leaving:
            return legal.check_or_fold()
        app = self.app
        deadline = self.timer.deadline(self.name) if self.timer is not None else None
        bank = self.timer.bank(self.name) if self.timer is not None else None
        self._turns += 1
        self._asking = True
        app.from_game(app.your_turn, view, legal, deadline, bank)
        mine = view.bets[view.config.seat_numbers.index(self.me)]
        try:
            while True:
                got = self._line(deadline)
                if got is None:
                    self.teller.say("Time is up.", fg="red")
                    return legal.check_or_fold()
                stamp, line = got
                if stamp != self._turns:
                    if stamp is not None and line:
                        self.teller.say(f"Not taken: {line!r} (typed for a turn that has "
                                        "ended).", fg="red")  # fmt: skip
                    continue
                command = read_command(line, legal, view.pot, mine, view)
                if isinstance(command, Decision):
                    return command
                if isinstance(command, Refused):
                    app.from_game(app.say, command.reason)
                    self.teller.say(command.reason, fg="red")
                elif command == "help":
                    self.teller.say(HELP)
                elif command == "table":
                    continue
                elif command == "show":
                    self.show_cards()
                elif command in ("twice on", "twice off"):
                    self.run_twice(command == "twice on")
                else:  # quit
                    self.teller.say("You leave the table after this hand (checking or folding).")
                    return self._leave(legal)
        finally:
            self._asking = False
            app.from_game(app.turn_over)

    def ask(self, question: str) -> bool:
        """A yes-or-no question between hands, answered with y or n."""
        self.teller.say(f"{question} Press y or n.", bold=True)
        self._turns += 1
        self._asking = True
        try:
            while True:
                got = self._line(None)
                assert got is not None
                answer = got[1].strip().lower()
                if answer in ("y", "yes"):
                    return True
                if answer in ("n", "no", "q", "quit"):
                    return False
        finally:
            self._asking = False


class ScreenRoomGame(RoomGame):
    """``holdem join`` (and ``watch``) on the full screen: the connection read
    in the app's worker thread, its events fed to the model and told by the
    Teller, the player's lines taken at their turn (only then), the lobby's
    words and the table's (``bots 3``, ``start``, ``who``, ``add 100``) at
    any time.  Made as a :class:`RoomGame` is (its teller the app's), then
    put on the app's screen with :meth:`show`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.lines: queue.Queue[tuple[int | None, str]] = queue.Queue()
        self.app: TableApp | None = None
        self.error: ConnectionError | TimeoutError | None = None  # (what ended the connection)
        self._stopped = False
        super().__init__(*args, **kwargs)

    def show(self, app: TableApp, state: dict[str, Any], waiting: str = "") -> None:
        """The game on ``app`` (after the greeting): the table's ``state`` (the
        seats, their chips) drawn, the player's cards of a hand under way,
        and ``waiting``: what the felt says until the first hand (the join code)."""
        self.app, app.game = app, self
        app.model.state(state)
        app.model.hole = self.own
        app.waiting = waiting
        app.lobby = not self.started and not self.watching  # (the field takes the lobby's words)

    def stop(self) -> None:
        self._stopped = True

    def takes(self, line: str) -> bool:
        """Whether a line typed out of the player's turn goes to the game: the
        lobby's and the table's words; a spectator's every line (its chat,
        mutes and hands, the rest refused there with the reason)."""
        if self.watching:
            return bool(line.strip())
        return self.wants(line) or line in ("help", "quit")

    def run(self, app: TableApp) -> None:
        """Reads the server's events and the player's lines until the game
        ends (a lost connection ends it: :attr:`error`)."""
        try:
            self._run(app)
        except (ConnectionError, TimeoutError) as exc:
            self.error = exc
            self.teller.say(f"{exc}", fg="red", bold=True)
        if self.leaving:  # (the player left, or stopped watching: nothing more to see)
            app.from_game(app.exit, app.status)

    def _run(self, app: TableApp) -> None:
        client = self.client
        for message in client.poll(0):
            self._message(message)
        while not self.over and not self._stopped:
            for message in client.poll(0.1):
                self._message(message)
            while not self.lines.empty() and not self.over:
                stamp, line = self.lines.get()
                self.typed(line, stamp)
                for message in client.poll(0):  # (what the move caused: a turn may follow)
                    self._message(message)
            if self.turn is None and app.model.legal is not None:
                app.from_game(app.turn_over)

    def _message(self, message: dict[str, Any]) -> None:
        app = self.app
        assert app is not None

        def feed(model: TableModel) -> None:
            model.message(message)

        app.from_game(app.told, feed)
        self.tell(message)

    def _finished(self, message: dict[str, Any]) -> None:
        assert self.app is not None
        with self.app.ending():  # (the places and the certificate, or the results: the panel)
            super()._finished(message)

    def _cash_results(self, results: dict[str, Any]) -> None:
        assert self.app is not None
        with self.app.ending():
            super()._cash_results(results)

    # ------------------------------------------------------------ what line mode prints

    def _show_turn(self, view: PlayerView, legal: LegalActions, seconds: float | None) -> None:
        assert self.app is not None
        self.app.from_game(self.app.your_turn, view, legal, self.deadline, self.bank)

    def _prompt(self) -> None:
        pass  # (the screen's menu stays while the turn lasts)

    def _end_line(self) -> None:
        pass

    def _drop_typing(self, why: str, *, newline: bool) -> None:
        pass  # (the screen takes no line out of turn: nothing half typed to drop)
