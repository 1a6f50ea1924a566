"""The full-screen table (Textual): the seats around the felt, the player's
cards, the menu as keys and buttons with a bet-size field (a room's lobby
typed there too), the turn's countdown, the log of the Teller's lines, the
last hands and the session; the game's end in a panel over the table.

The game itself runs in a worker thread (:mod:`.games`): ``holdem play``'s
table loop, or a room's connection; it tells the app what to draw
(:meth:`TableApp.told`, :meth:`TableApp.your_turn`) and takes what the
player typed from :meth:`TableApp.submit` through its ``lines`` queue.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, ClassVar, Protocol, TypeVar

import click
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Button, Input, RichLog, Static

from holdem import ActionKind, LegalActions, PlayerView
from holdem.units import chips_text

from ..model import REVIEWS, TableModel
from ..telling import Teller
from .widgets import Felt, Hole, Review, SeatBox

__all__ = ["EndPanel", "Game", "ReplayPanel", "TableApp", "streets"]

_Part = TypeVar("_Part", bound=Widget)
_PLACEHOLDER = "amount or command (r 300, help)"
_LOBBY_PLACEHOLDER = "bots N LEVEL · start · who · quit"
#: Keys that are moves: said "not your turn" when pressed out of it.
_MOVES = {"f": "f", "k": "k", "c": "c", "a": "a"}
#: The menu's buttons by key, as they read out of the player's turn.
_ACTIONS = {"f": "Fold", "k": "Check", "c": "Call", "r": "Raise", "a": "All in"}


class Game(Protocol):
    """What the app drives: a game run in a worker thread."""

    lines: queue.Queue[tuple[int | None, str]]

    def run(self, app: TableApp) -> None: ...  # (the worker: returns when the game ends)

    def stamp(self) -> int | None: ...  # (the turn a line typed now is for)

    def stop(self) -> None: ...  # (Ctrl-C: end at once)

    def takes(self, line: str) -> bool: ...  # (a line typed out of the player's turn is for it)


class EndPanel(ModalScreen[None]):
    """The end of the game over the table: a freezeout's final places and its
    certificate, a cash session's results (the Teller's lines, as the log has
    them).  Escape goes back to the table; q or Enter leaves."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss", "back to the table", show=False),
    ]

    def __init__(self, lines: list[str]) -> None:
        super().__init__()
        while lines and not lines[0]:  # (the blank line the log has before them)
            lines = lines[1:]
        self.lines = lines

    def on_key(self, event: Any) -> None:
        if event.key in ("q", "enter"):  # (the game is over: even before its thread has ended)
            event.stop()
            app = self.app
            assert isinstance(app, TableApp)
            app.exit(app.status)

    def compose(self) -> ComposeResult:
        with Vertical(id="end"):
            yield Static(Text("\n").join(Text.from_ansi(line) for line in self.lines),
                         id="end-text")  # fmt: skip
            yield Static(Text("q or Enter: leave · Escape: back to the table", style="dim"),
                         id="end-keys")  # fmt: skip


#: The lines that begin a street in the Teller's telling of a hand (a board
#: run twice: the second run's too, R10).
_STREETS = ("*** FLOP ***", "*** TURN ***", "*** RIVER ***", "*** SECOND FLOP ***",
            "*** SECOND TURN ***", "*** SECOND RIVER ***")  # fmt: skip


def streets(lines: list[str]) -> list[list[str]]:
    """A hand's lines (the Teller's) cut where each street begins: the deal and
    the preflop betting, then the flop, the turn, the river with the showdown."""
    out: list[list[str]] = [[]]
    for line in lines:
        if Text.from_ansi(line).plain.startswith(_STREETS):
            out.append([])
        out[-1].append(line)
    return out


class ReplayPanel(ModalScreen[None]):
    """One of the last hands told again street by street, over the table:
    the lines the log had, up to the street shown.  Right (or space) the
    next street, Left the one before, Up and Down another hand, Escape back
    to the table."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss", "back to the table", show=False),
        Binding("right,space", "street(1)", "next street", show=False),
        Binding("left", "street(-1)", "street before", show=False),
        Binding("up", "hand(-1)", "hand before", show=False),
        Binding("down", "hand(1)", "next hand", show=False),
    ]

    def __init__(self, hands: dict[int, list[str]], hand: int) -> None:
        super().__init__()
        self.hands, self.hand, self.street = hands, hand, 0

    def compose(self) -> ComposeResult:
        with Vertical(id="replay"):
            yield Static(id="replay-text")
            yield Static(Text("Right: next street · Left: back · Up, Down: another hand · "
                              "Escape: the table", style="dim"), id="replay-keys")  # fmt: skip

    def on_mount(self) -> None:
        self._draw()

    def action_street(self, step: int) -> None:
        last = len(streets(self.hands[self.hand])) - 1
        self.street = max(0, min(last, self.street + step))
        self._draw()

    def action_hand(self, step: int) -> None:
        kept = sorted(self.hands)
        at = kept.index(self.hand) + step
        if 0 <= at < len(kept):
            self.hand, self.street = kept[at], 0
            self._draw()

    def _draw(self) -> None:
        parts = streets(self.hands[self.hand])
        shown = [line for part in parts[: self.street + 1] for line in part]
        while shown and not Text.from_ansi(shown[0]).plain.strip():
            shown = shown[1:]
        where = f"street {self.street + 1} of {len(parts)}"
        text = Text(f"Hand #{self.hand} again · {where}\n\n", style="bold")
        text.append_text(Text("\n").join(Text.from_ansi(line) for line in shown))
        self.query_one("#replay-text", Static).update(text)


class TableApp(App[int]):
    """The table of one player (``me``; None: a spectator) playing ``game``;
    ``quiet``: no bell at the player's turn; ``clock``: the countdown's
    (tests freeze it).  The app's return value is the exit status the
    command ends with (0, or 130 after Ctrl-C)."""

    CSS_PATH = Path(__file__).with_name("table.tcss")
    AUTO_FOCUS = None  # (keys are moves: the bet field takes them once focused, r or a click)
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+c", "interrupt", "stop", priority=True, show=False),
        Binding("escape", "unfocus", "", show=False),
    ]

    def __init__(
        self,
        me: int | None,
        *,
        seats: int = 6,
        quiet: bool = False,
        clock: Callable[[], float] = time.monotonic,
        title: str = "holdem",
    ) -> None:
        super().__init__()
        self.game: Game | None = None  # (set before the app runs: the game needs its teller)
        self.model = TableModel(me)
        self.teller = Teller(me, color=True, symbols=True, write=self.write)
        self.seat_count = seats
        self.quiet = quiet
        self.clock = clock
        self.title = title
        self.notice = ""  # (the status line: why a key did nothing)
        #: the Teller's lines of the last hands, by hand (the replay's)
        self.hand_lines: dict[int, list[str]] = {}
        self.finished = False  # (the game ended: any key leaves)
        self.shown_turn: int | None = None  # (the game's stamp of the turn on the screen)
        self.status = 0
        self.lobby = False  # (a room's table before its start: the field takes the lobby's words)
        self.waiting = ""  # (what the felt says before the first hand: a room's join code)
        self.closed = False  # (the app has ended: the teller's lines are printed)
        self._pending: list[str] = []  # (lines told before the log was there)
        self._ending: list[str] | None = None  # (the end's lines, being told)
        self.ended: list[str] = []  # (the end's lines: the panel's, printed once the app ends)
        self._thread: threading.Thread | None = None

    def play(self, *, size: tuple[int, int] | None = None) -> int:
        """Runs the table until the player leaves; the exit status (130:
        Ctrl-C).  The game's thread is waited for (a few seconds at most)."""
        try:
            status = self.run(size=size)
        finally:
            self.closed = True
            if self._thread is not None:
                self._thread.join(10)
        for line in self.ended:  # (the results stay on the terminal)
            click.echo(line)
        return self.status if status is None else status

    # ------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        with Horizontal(id="main"):
            with Vertical(id="table"):
                with Horizontal(id="top", classes="row"):
                    for i in range(self._top()):
                        yield SeatBox(id=f"seat{i}", classes="seat")
                yield Felt(id="felt")
                with Horizontal(id="bottom", classes="row"):
                    for i in reversed(range(self._top(), self.seat_count)):
                        yield SeatBox(id=f"seat{i}", classes="seat")
                yield Hole(id="hole")
                with Horizontal(id="actions"):
                    for key, label in _ACTIONS.items():
                        yield Button(label, id=f"do-{key}", disabled=True)
                with Horizontal(id="sizing"):
                    yield Input(placeholder=_PLACEHOLDER, id="bet")
                    for key, label in (("min", "Min"), ("half", "½ pot"), ("pot", "Pot"),
                                       ("max", "All in")):  # fmt: skip
                        yield Button(label, id=f"size-{key}", disabled=True)
                yield Static(id="clock")
                yield Static(id="notice")
            with Vertical(id="side"):
                # (min_width: lines wrap at the log's width; RichLog's default of 78 cut them off)
                yield RichLog(id="log", wrap=True, markup=False, max_lines=2000, min_width=1)
                yield Review(id="review")

    def _top(self) -> int:
        return (self.seat_count + 1) // 2

    def on_mount(self) -> None:
        log = self.part("#log", RichLog)
        for line in self._pending:
            log.write(Text.from_ansi(line))
        self._pending.clear()
        if self.lobby:
            field = self.part("#bet", Input)
            field.placeholder = _LOBBY_PLACEHOLDER
            field.focus()
        self.redraw()
        self.set_interval(0.25, self._tick)
        self._thread = threading.Thread(target=self._run_game, name="game", daemon=True)
        self._thread.start()

    def _run_game(self) -> None:
        assert self.game is not None
        try:
            self.game.run(self)
        finally:
            if not self.closed and self.is_running:
                self.call_from_thread(self._game_over)

    def _game_over(self) -> None:
        self.finished = True
        self.lobby = False
        self.set_focus(None)  # (the keys leave: the field typed into may be the lobby's)
        self.model.end_turn()
        self.shown_turn = None
        self.notice = "The game is over: press q to leave."
        self.redraw()

    # ------------------------------------------------------------ told by the game

    def write(self, line: str) -> None:
        """A line of the Teller's, into the log (from the game's thread or
        this one); before the app runs it waits, after it ends it is printed."""
        if self._ending is not None:
            self._ending.append(line)
        elif self.teller.hand:
            self.hand_lines.setdefault(self.teller.hand, []).append(line)
            while len(self.hand_lines) > REVIEWS:
                del self.hand_lines[min(self.hand_lines)]
        if self.closed:
            click.echo(line)
            return
        if not self.is_running or not self.screen_stack:
            self._pending.append(line)
            return
        log = self.part("#log", RichLog)
        text = Text.from_ansi(line) if line else Text("")
        if self._thread_id == threading.get_ident():
            log.write(text)
        else:
            self.call_from_thread(log.write, text)

    @contextmanager
    def ending(self) -> Iterator[None]:
        """The game's end told (by the game's thread): its lines go to the log
        and to the :class:`EndPanel` shown over the table once told."""
        if self._ending is not None:  # (within an end being told: one panel)
            yield
            return
        self._ending = []
        try:
            yield
        finally:
            self.ended, self._ending = self._ending, None
            if self.ended:
                self.from_game(self.push_screen, EndPanel(self.ended))

    def part(self, selector: str, kind: type[_Part]) -> _Part:
        """A part of the table (the end panel may be over it)."""
        return self.screen_stack[0].query_one(selector, kind)

    def from_game(self, callback: Callable[..., Any], *args: Any) -> None:
        """Runs ``callback`` on the app's thread for the game's (and waits for
        it); nothing once the app has ended (the game is being stopped)."""
        if not self.closed and self.is_running:
            self.call_from_thread(callback, *args)

    def told(self, feed: Callable[[TableModel], None]) -> None:
        """The model fed (by the game, on this thread), then the table drawn."""
        feed(self.model)
        if self.lobby and self.model.hand:  # (the game has begun: the keys are moves again)
            self.lobby = False
            field = self.part("#bet", Input)
            field.placeholder = _PLACEHOLDER
            if field.has_focus and not field.value:
                self.set_focus(None)
        self.redraw()

    def your_turn(self, view: PlayerView, legal: LegalActions, deadline: float | None,
                  bank: float | None = None) -> None:  # fmt: skip
        self.model.turn(view, legal, deadline, bank)
        # (read while the game waits for this call: the turn these keys are for)
        self.shown_turn = self.game.stamp() if self.game is not None else None
        self.notice = ""
        if not self.quiet:
            self.bell()
        self.redraw()

    def turn_over(self) -> None:
        self.model.end_turn()
        self.shown_turn = None
        self.redraw()

    def say(self, text: str) -> None:
        """A notice under the menu (why a key did nothing)."""
        self.notice = text
        self.part("#notice", Static).update(Text(text, style="bold red"))

    # ------------------------------------------------------------ drawing

    def drawn(self) -> bool:
        """Whether the table's parts are on the screen (not yet, or no more
        as the app ends: a tick of the countdown then draws nothing)."""
        return bool(self.screen_stack) and bool(self.screen_stack[0].query("#clock"))

    def redraw(self) -> None:
        if not self.drawn():
            return
        model = self.model
        order = sorted(model.seats)
        for i in range(self.seat_count):
            box = self.part(f"#seat{i}", SeatBox)
            box.draw(model.seats.get(order[i]) if i < len(order) else None, model, self.teller)
        self.part("#felt", Felt).draw(model, self.teller, self.waiting)
        self.part("#hole", Hole).draw(model, self.teller)
        self.part("#review", Review).draw(model, self.teller)
        self._menu()
        self._tick()
        self.part("#notice", Static).update(Text(self.notice, style="bold red"))

    def _menu(self) -> None:
        legal, mine = self.model.legal, self.model.seats.get(self.model.me or 0)
        bet = mine.bet if mine is not None and legal is not None else 0
        labels: dict[str, str | None] = dict.fromkeys(("f", "k", "c", "r", "a"))
        if legal is not None:
            labels["f"] = "f Fold" if legal.fold else None
            labels["k"] = "k Check" if legal.check else None
            if legal.call is not None:
                labels["c"] = f"c Call {chips_text(legal.call - bet, self.model.unit)}"
            if legal.wager is not None and legal.min_to is not None:
                verb = "Bet" if legal.wager is ActionKind.BET else "Raise to"
                labels["r"] = f"r {verb} {chips_text(legal.min_to, self.model.unit)}+"
            if legal.all_in is not None:
                labels["a"] = f"a All in {chips_text(legal.all_in, self.model.unit)}"
        for key, label in labels.items():
            button = self.part(f"#do-{key}", Button)
            button.disabled = label is None
            button.label = label or _ACTIONS[key]  # (no amount of a turn that is over)
        sizing = legal is not None and legal.wager is not None
        for key in ("min", "half", "pot", "max"):
            self.part(f"#size-{key}", Button).disabled = not sizing

    def _tick(self) -> None:
        """The turn's countdown (the time bank apart once the turn's own time is up)."""
        if not self.drawn():
            return
        model = self.model
        clock = self.part("#clock", Static)
        if model.legal is None:
            waiting = ("" if model.actor is None or model.actor == model.me
                       else f"Waiting for {model.name(model.actor)}")  # fmt: skip
            clock.update(Text(waiting, style="dim"))
            return
        left = float("inf") if model.deadline is None else max(0.0, model.deadline - self.clock())
        bank = model.bank or 0.0
        text = Text("Your turn · ", style="bold cyan")
        if model.deadline is None:
            text.append("no timer", style="dim")
        elif left > bank:
            text.append(f"{left - bank:.0f}s", style="bold yellow" if left - bank <= 10 else "")
            if bank:
                text.append(f" + time bank {bank:.0f}s")
        else:
            text.append(f"time bank {left:.0f}s", style="bold red")
        odds = model.pot_odds()
        if odds is not None:
            call, pot = odds
            calls, wins = chips_text(call, model.unit), chips_text(pot, model.unit)
            text.append(f" · pot odds: {calls} to win {wins} ({100 * call / pot:.0f}%)")
        clock.update(text)

    # ------------------------------------------------------------ the player

    def on_key(self, event: Any) -> None:
        if self.focused is not None and isinstance(self.focused, Input):
            return
        key = event.key
        if self.finished and key in ("q", "enter", "escape"):
            self.exit(self.status)
            return
        if key == "q":
            self.submit("quit")
        elif key == "h":
            self.action_replay()
        elif key in ("enter", "slash"):  # (the field, for any command: say hi, add 100, history)
            self.query_one("#bet", Input).focus()
        elif key in _MOVES:
            self.submit(_MOVES[key])
        elif key in ("r", "b"):
            self.action_size("min")
        else:
            return
        event.stop()

    def action_replay(self) -> None:
        """The last hand that ended, told again street by street (the panel
        goes to the others)."""
        ended = [n for n in self.hand_lines if n != self.model.hand or not self.model.playing]
        if not ended:
            self.say("No hand has ended yet: h replays the last hands once they have.")
            return
        self.push_screen(ReplayPanel(self.hand_lines, max(ended)))

    def submit(self, line: str) -> None:
        """A line the player typed (a key's, a button's, the field's): at
        their turn it goes to the game; a move out of turn does nothing and
        the screen says so (issue 29, bug 1)."""
        if self.finished or self.game is None:
            return
        # (the turn the screen shows, not the game's: a turn come in but not yet
        # drawn, or one ended but still drawn, is not the one this key was for)
        stamp = self.shown_turn if self.model.legal is not None else None
        if self.model.legal is None and not self.game.takes(line):
            why = "you are watching, with no seat (q stops)" if self.model.me is None else \
                "it is not your turn"  # fmt: skip
            self.say(f"Not taken: {line!r}: {why}.")
            return
        self.say("")
        self.game.lines.put((stamp, line))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        line = event.value.strip()
        event.input.value = ""
        if line:
            self.submit(line)
        if not self.lobby:  # (the lobby's words are typed one after another)
            self.set_focus(None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        ident = event.button.id or ""
        if ident.startswith("do-r"):
            self.action_size("min")
        elif ident.startswith("do-"):
            self.submit(ident[3:])
        elif ident.startswith("size-"):
            self.action_size(ident[5:])

    def action_size(self, size: str) -> None:
        """Puts a bet's amount in the field (min, half, pot, max), to be sent with Enter."""
        legal = self.model.legal
        if legal is None or legal.wager is None or legal.min_to is None or legal.max_to is None:
            self.say("Not taken: no bet or raise now" if legal else "It is not your turn.")
            return
        key = "b" if legal.wager is ActionKind.BET else "r"
        call = legal.bet
        pot_after = self.model.pot + self.model.to_call()
        to = {
            "min": legal.min_to,
            "max": legal.max_to,
            "pot": call + pot_after,
            "half": call + pot_after // 2,
        }[size]
        to = min(legal.max_to, max(legal.min_to, to))
        field = self.part("#bet", Input)
        field.value = f"{key} {to}"
        field.focus()

    def action_unfocus(self) -> None:
        self.set_focus(None)

    def action_interrupt(self) -> None:
        """Ctrl-C: the game stops at once, as in line mode (status 130)."""
        self.status = 130
        if self.game is not None:
            self.game.stop()
        self.exit(130)
