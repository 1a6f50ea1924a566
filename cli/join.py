"""``holdem join``: a game at a room server's table in the terminal, against
people and bots (``docs/rooms.md``): the same screen as ``holdem play``, the
turn timer counting down."""

from __future__ import annotations

import contextlib
import json
import os
import select
import shlex
import sys
import time
from collections import deque
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click

from holdem import Action, ActionKind, Decision, LegalActions, PlayerView
from holdem.cards import parse_cards
from holdem.errors import ProtocolError
from holdem.rooms import RoomClient
from holdem.rooms.codes import normal_code
from holdem.table import event_from_dict

from .commands import HELP, Refused, read_command
from .engine import parse_address
from .play import parse_blinds, show_or_muck
from .screen import Screen, ordinal

__all__ = ["join_command"]

#: Seconds left at which the prompt says how long is left.
WARNINGS = (20, 10, 5)
_LOBBY_WORDS = frozenset(
    {"start", "bots", "who", "close", "back", "post", "help", "q", "quit", "exit"}
)
#: What ``back`` (and ``post``) did, by the seat's status in the reply: the
#: blinds rule of a cash table (R3) said as it holds for the player.
_BACK_SAID = {
    "playing": "You are dealt in again from the next hand.",
    "waiting": "You are back, waiting for the big blind: blinds passed you while you were "
    "out, and you are dealt in when the big blind reaches you. Type post to post them "
    "(the big blind live, the small blind dead) and be dealt in at the next hand.",
    "posting": "You post the blinds you missed and are dealt in at the next hand.",
}
LOBBY_HELP = """\
While the table waits for its players:
  start            begin the game (the table's creator)
  bots N [LEVEL]   fill N empty seats with bots (creator; LEVEL: easy, normal, hard, ...)
  who              the players so far
  close            close the table (the creator; after the hand being played)
  quit             leave the table"""


class JoinError(click.ClickException):
    """What stops ``holdem join`` before or during the game (a code the server
    does not know, a server that cannot be reached, a connection lost): one
    line, status 2 as bad input has (docs/errors.md)."""

    exit_code = 2


def seats_file() -> Path:
    """Where the tokens of the seats this user holds are kept."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "holdem" / "seats.json"


def _saved() -> dict[str, Any]:
    try:
        data = json.loads(seats_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def seat_key(address: str, code: str, name: str) -> str:
    """What a seat is remembered by: the server, the table's code and the
    player's name (two players on one login each keep their own)."""
    return f"{address}/{normal_code(code) or code}/{name}"


def _remember(key: str, entry: dict[str, Any] | None) -> None:
    """Keeps (or forgets, with None) the seat of ``key`` (:func:`seat_key`)."""
    data = _saved()
    if entry is None:
        data.pop(key, None)
    else:
        data[key] = entry
    path = seats_file()
    part = path.with_name(f".{path.name}.{os.getpid()}")
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        # (a token is a seat: the user's alone from the start; the file whole
        # or as it was, never half written)
        with contextlib.suppress(FileNotFoundError):
            part.unlink()
        with open(os.open(part, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w",
                  encoding="utf-8") as out:  # fmt: skip
            out.write(json.dumps(data, indent=1))
        part.replace(path)
    except OSError:
        with contextlib.suppress(OSError):
            part.unlink()


class _Keyboard:
    """The player's lines, read without blocking (a real stdin is needed).

    On a terminal the keys are read one by one (the terminal in cbreak mode
    while the game lasts: :meth:`raw`), so that the prompt can count the
    seconds down while the player types: :attr:`typing` is the line so far,
    echoed by :meth:`Game.countdown`'s redraws."""

    def __init__(self) -> None:
        try:
            self.fd = sys.stdin.fileno()
        except (OSError, ValueError, AttributeError):
            raise click.UsageError("holdem join reads a terminal or a pipe on stdin") from None
        self.tty = os.isatty(self.fd)
        self._buffer = b""
        self.typing = ""  # (a terminal's line being typed)
        self.ended = False

    @contextlib.contextmanager
    def raw(self) -> Iterator[None]:
        """Keys as they are typed (a terminal; Ctrl-C still interrupts)."""
        if not self.tty:
            yield
            return
        import termios
        import tty

        saved = termios.tcgetattr(self.fd)
        try:
            tty.setcbreak(self.fd)
            yield
        finally:
            termios.tcsetattr(self.fd, termios.TCSADRAIN, saved)

    def lines(self) -> list[str]:
        data = os.read(self.fd, 4096)
        if not data:
            self.ended = True
            data = b"\n" if self._buffer or self.typing else b""
        if self.tty:
            return self._keys(data.decode("utf-8", "replace"))
        self._buffer += data
        *whole, self._buffer = self._buffer.split(b"\n")
        return [line.decode("utf-8", "replace").strip() for line in whole]

    def _keys(self, text: str) -> list[str]:
        """The lines ended by these keys (a terminal's), the rest kept and echoed."""
        done = []
        for key in text:
            if key in "\r\n":
                done.append(self.typing.strip())
                self.typing = ""
                click.echo()
            elif key in "\x7f\x08":  # (backspace)
                if self.typing:
                    self.typing = self.typing[:-1]
                    click.echo("\b \b", nl=False)
            elif key == "\x04":  # (Ctrl-D: the end of input)
                self.ended = True
            elif key.isprintable():
                self.typing += key
                click.echo(key, nl=False)
        return done


class Game:
    """One player's game at a room table: the screen, the turn, the lobby."""

    def __init__(self, client: RoomClient, joined: dict[str, Any], screen: Screen,
                 key: str) -> None:  # fmt: skip
        self.client, self.screen, self.key = client, screen, key
        self.table: str = joined["table"]
        self.seat: int = joined["seat"]
        self.name: str = joined.get("name") or ""
        self.token: str = joined["token"]
        self.creator = bool(joined.get("creator"))
        self.turn: dict[str, Any] | None = None  # the turn being asked
        self.turns = 0  # the turns asked so far (the number of the one being asked)
        self.keyboard: _Keyboard | None = None  # (a terminal's: the line being typed)
        #: its view (a turn's view is a delta of the seat's last one in the hand)
        self.view: PlayerView | None = None
        self.deadline: float | None = None
        self.warned: set[int] = set()
        self.own: tuple[int, ...] = ()
        self.over = False
        self.leaving = False
        self.replaced = False  # (another client of the player's took the seat up)
        self.away = False  # out of the deal (two timeouts in a row) until back
        screen.me = self.seat
        screen.my_name = self.name
        self._state(joined["state"])

    def _state(self, state: dict[str, Any]) -> None:
        for info in state["seats"]:
            self.screen.names[info["seat"]] = info["name"]
            if info.get("bot"):
                self.screen.labels[info["seat"]] = info["bot"]
        self.started = state["status"] != "waiting"

    def remember(self) -> None:
        _remember(self.key, {"table": self.table, "token": self.token, "name": self.name})

    # ------------------------------------------------------------ events

    def tell(self, message: dict[str, Any]) -> None:
        kind = message.get("event")
        screen = self.screen
        if kind == "action":
            action = Action.from_dict(message["action"])
            timed_out = (ActionKind.CHECK, ActionKind.FOLD, ActionKind.TIMEOUT)
            if action.seat == self.seat and self.turn is not None and action.kind in timed_out:
                self._end_turn(timed_out=True)  # (said before the move the timer made)
            if action.kind is not ActionKind.DEAL_HOLE:
                screen.action(action)
        elif kind == "hole_cards" and message.get("seat") == self.seat:
            self.own = screen.hole = tuple(parse_cards(message["cards"]))
            screen.say(f"Your cards: {screen.cards(self.own)}", bold=True)
        elif kind == "turn" and message.get("seat") == self.seat:
            self._start_turn(message)
        elif kind == "player_joined":
            who = message["name"] + (f" ({message['bot']} bot)" if message.get("bot") else "")
            screen.names[message["seat"]] = message["name"]
            if message.get("bot"):
                screen.labels[message["seat"]] = message["bot"]
            screen.say(f"{who} sits at seat {message['seat'] + 1}")
        elif kind == "player_left":
            screen.say(f"{message['name']} leaves the table")
        elif kind == "table_finished":
            self._finished(message)
        elif kind == "table_closed":
            screen.say("The table's creator closed it.", bold=True)
            self.over = True
        elif kind == "seat_taken_over":
            screen.say()
            screen.say(f"Your seat at table {self.table} was taken over by another client of "
                       "yours (holdem join for the same name, or the same token): this one "
                       "stops here, and the seat plays on there.", fg="red", bold=True)  # fmt: skip
            self.replaced = self.over = True
        elif kind == "seat_status" and message.get("seat") != self.seat:
            screen.say(_seat_status(message))
        elif kind == "seated":  # (a tournament begins: its players sit from seat 0)
            self.seat = message["seat"]
            screen.me = self.seat
        elif kind == "away" and message.get("seat") == self.seat:
            self.away = True
            screen.say("You are out of the deal: two timeouts in a row. Type back (or any "
                       "move) to be dealt in again.", fg="red")  # fmt: skip
        elif kind == "creator":
            self.creator = message["seat"] == self.seat
            who = "You are" if self.creator else f"{message['name']} is"
            screen.say(f"{who} the table's creator now.")
        elif kind in ("seat_taken", "seat_freed", "sat_out", "sat_in", "chips_added",
                      "hand_started", "hand_ended", "level_up", "player_eliminated"):  # fmt: skip
            if kind == "hand_started":
                self.started = True
            data = {k: v for k, v in message.items() if k not in ("table", "full_information")}
            screen.event(event_from_dict(data))

    def missed(self, joined: dict[str, Any]) -> None:
        """What happened while the player was away (a ``resume``'s ``missed``):
        the hands that ended, who came and went, and the stacks now."""
        screen = self.screen
        missed = [m for m in joined.get("missed") or () if isinstance(m, dict)]
        hands = [m["hand"] for m in missed if m.get("event") == "hand_ended"]
        if not hands:
            screen.say("Back in your seat: no hand ended while you were away.")
        elif len(hands) == 1:
            screen.say(f"Back in your seat: hand {hands[0]} ended while you were away.")
        else:
            screen.say(f"Back in your seat: {len(hands)} hands ended while you were away "
                       f"(hands {hands[0]} to {hands[-1]}).")  # fmt: skip
        if joined.get("missed_dropped"):
            screen.say(f"  ({joined['missed_dropped']:,} older events were not kept)")
        for message in missed:
            if message.get("event") in _MISSED_TOLD:
                self.tell(message)
        state = joined["state"]
        if any("chips" in info for info in state["seats"]):
            stacks = ", ".join(f"{info['name']} {info['chips']:,}" for info in state["seats"])
            when = "as this hand began" if state.get("hand") else "now"
            screen.say(f"Stacks {when}: {stacks}")

    def _finished(self, message: dict[str, Any]) -> None:
        screen = self.screen
        self.over = True
        result = message.get("result")
        screen.say()
        if result is not None:
            screen.say("Final places:", bold=True)
            for placing in result["places"]:
                mark = " <- you" if placing["player"] == self.name else ""
                screen.say(f"  {ordinal(placing['place']):>5}  {placing['player']}{mark}")
            winner = result["places"][0]["player"]
            won = "You win the freezeout!" if winner == self.name else f"{winner} wins."
            screen.say(won, fg="yellow", bold=True)
        for name, r in (message.get("results") or {}).items():
            screen.say(f"  {name:<14} bought in {r['bought_in']:>8,}  net {r['net']:>+8,}")

    # ------------------------------------------------------------ the turn

    def stamp(self) -> int | None:
        """The turn a line typed now is for: its number, or None out of turn."""
        return self.turns if self.turn is not None else None

    def _drop_typing(self, why: str, *, newline: bool) -> None:
        """Drops the line being typed on a terminal, and says so (``why``)."""
        keyboard = self.keyboard
        if keyboard is None or not keyboard.typing.strip():
            return
        line, keyboard.typing = keyboard.typing.strip(), ""
        if newline:
            click.echo()  # (the line being typed ends where it is)
        self.screen.say(f"Not taken: {line!r} ({why}).", fg="red")

    def _start_turn(self, message: dict[str, Any]) -> None:
        self.turns += 1
        self.turn = message
        seconds = message.get("seconds")
        self.deadline = None if seconds is None else time.monotonic() + float(seconds)
        self.warned = {w for w in WARNINGS if seconds is not None and w >= seconds}
        data = message["view"]
        view = PlayerView.from_dict(data, self.view if data.get("log_start") else None)
        self.view = view
        legal = view.legal
        assert legal is not None
        if legal.show or legal.muck:  # (the rooms' showdown: show, or muck a beaten hand)
            self._act(show_or_muck(view, legal))
            return
        self._drop_typing("typed before your turn", newline=True)
        self.screen.turn(view, legal, seconds)
        self._prompt()

    def _prompt(self) -> None:
        left = ""
        if self.deadline is not None:
            left = f"({max(0.0, self.deadline - time.monotonic()):.0f}s) "
        click.echo(f"{left}> ", nl=False)

    def _end_turn(self, *, timed_out: bool) -> None:
        if timed_out:
            click.echo()
            self.screen.say("Time is up: you check or fold.", fg="red")
            self._drop_typing("typed for the turn that ended", newline=False)
        self.turn = None
        self.deadline = None

    def countdown(self, typing: str | None = None) -> float | None:
        """Says how long is left: on a terminal (``typing``: the line typed so
        far) the prompt again every second, elsewhere a line when a warning is
        due; the seconds to the next one."""
        if self.deadline is None:
            return None
        left = self.deadline - time.monotonic()
        if typing is not None:
            clock = f"({max(0.0, left):.0f}s)"
            if self.screen.color and left <= WARNINGS[-2]:
                clock = click.style(clock, fg="yellow")
            click.echo(f"\r\x1b[K{clock} > {typing}", nl=False)
            return max(0.05, min(1.0, left - int(left) + 0.01))
        for mark in WARNINGS:
            if left <= mark and mark not in self.warned:
                self.warned.add(mark)
                click.echo()
                self.screen.say(f"{mark} seconds left", fg="yellow")
                self._prompt()
        due = [left - mark for mark in WARNINGS if mark not in self.warned]
        return max(0.05, min(due)) if due else max(0.05, left + 1)

    def wants(self, line: str) -> bool:
        """Whether a line typed ahead is for now: at a turn, or a word of the lobby."""
        word = line.split()[0] if line.split() else ""
        return self.turn is not None or word in _LOBBY_WORDS

    def typed(self, line: str, stamp: int | None) -> None:
        """A line the player typed, for the turn ``stamp`` (:meth:`stamp` when
        it was typed): a move typed out of turn, or for a turn that has
        ended, is not taken, and the player is told."""
        if line in ("q", "quit", "exit"):
            self.leave()
            return
        if self.away and line:
            self.away = False
            self._back(post=line == "post", away=True)
            if line in ("back", "post"):
                return
        if self.turn is None:
            self._lobby(line, late=stamp is not None)
            return
        if stamp != self.turns:
            why = "typed before your turn" if stamp is None else "typed for a turn that has ended"
            if line:
                self.screen.say(f"Not taken: {line!r} ({why}).", fg="red")
            self._prompt()
            return
        view = self.view
        assert view is not None  # (read with the turn)
        legal = view.legal
        assert isinstance(legal, LegalActions)
        mine = view.bets[view.config.seat_numbers.index(self.seat)]
        command = read_command(line, legal, view.pot, mine, view)
        if isinstance(command, Decision):
            self._act(command)
        elif isinstance(command, Refused):
            self.screen.say(command.reason, fg="red")
            self._prompt()
        elif command == "help":
            self.screen.say(HELP)
            self._prompt()
        elif command == "table":
            left = None if self.deadline is None else self.deadline - time.monotonic()
            self.screen.turn(view, legal, left)
            self._prompt()

    def _ask(self, kind: str, **fields: Any) -> dict[str, Any] | None:
        """A request's result; None when it was refused (the reason said)."""
        try:
            return self.client.request(kind, **fields)
        except ProtocolError as exc:
            self.screen.say(str(exc), fg="red")
        except TimeoutError as exc:
            self.screen.say(f"{exc}: the server is slow to answer", fg="red")
        return None

    def _back(self, *, post: bool = False, away: bool = False) -> None:
        """Back in the deal (``post``: the blinds owed posted to be dealt in at
        once; ``away``: the player was out of it), and how: at once, waiting
        for the big blind, or posting."""
        back = self._ask("back", table=self.table, post=post)
        if back is None:
            return
        status = back.get("status") or ""
        if status == "playing" and not away:
            self.screen.say("You are in the deal already.")
        else:
            self.screen.say(_BACK_SAID.get(status, "You are back in your seat."))

    def _act(self, decision: Decision) -> None:
        turn = self.turn
        self.turn, self.deadline = None, None
        try:
            done = self.client.request("act", table=self.table, action=decision.to_dict())
        except (ProtocolError, TimeoutError) as exc:
            self.screen.say(f"Not taken: {exc}", fg="red")
            code = getattr(exc, "code", None)
            if turn is not None and code not in ("not_your_turn", "no_hand"):
                self.turn = turn
                self._prompt()
            return
        if not done.get("in_time", True):
            self.screen.say("Too late: the timer checked or folded for you.", fg="red")

    def _lobby(self, line: str, *, late: bool = False) -> None:
        words = line.split()
        if not words:
            return
        if words[0] == "start":
            if self._ask("start", table=self.table) is not None:
                self.started = True
        elif words[0] == "bots" and len(words) in (2, 3) and words[1].isdigit():
            level = words[2] if len(words) == 3 else "normal"
            wanted = int(words[1])
            added = self._ask("add_bots", table=self.table, count=wanted, level=level)
            if added is not None and len(added["seats"]) < wanted:
                count = len(added["seats"])
                self.screen.say(f"{count} bot{'s' * (count != 1)} added, not {wanted}: the "
                                f"table had {count} empty seat{'s' * (count != 1)}.")  # fmt: skip
        elif words[0] == "close":
            closed = self._ask("close", table=self.table)
            if closed is not None and not closed["closed"]:
                self.screen.say("The table closes at the end of this hand.")
        elif words[0] in ("back", "post") and self.started:
            self._back(post=words[0] == "post")
        elif words[0] == "who":
            state = self._ask("state", table=self.table)
            for info in [] if state is None else state["seats"]:
                bot = f" ({info['bot']} bot)" if info.get("bot") else ""
                self.screen.say(f"  seat {info['seat'] + 1}: {info['name']}{bot}")
        elif words[0] == "help":
            self.screen.say(LOBBY_HELP if not self.started else HELP)
        elif not self.started:
            self.screen.say(f"{line!r}? Type help for the commands.", fg="red")
        elif late:
            self.screen.say(f"Not taken: {line!r} (typed for a turn that has ended).", fg="red")
        else:
            self.screen.say(f"Not taken: {line!r}: it is not your turn.", fg="red")

    def leave(self) -> None:
        """Leaves the table: a cash seat after the hand; a tournament stack plays
        on, checking or folding, until it is out."""
        if self.leaving:
            return
        self.leaving = True
        try:
            self.client.request("leave", table=self.table)
        except (ProtocolError, ConnectionError, TimeoutError) as exc:
            self.screen.say(f"leaving: {exc}", fg="red")
        _remember(self.key, None)
        self.screen.say("You left the table.")
        self.over = True


#: The events a player back in a seat is told of again (the rest: the hands).
_MISSED_TOLD = frozenset({"player_joined", "player_left", "seat_status", "creator",
                          "player_eliminated", "level_up", "table_closed"})  # fmt: skip


def _seat_status(message: dict[str, Any]) -> str:
    """A ``seat_status`` event as the others at the table read it."""
    name, status = message["name"], message["status"]
    if status == "disconnected":
        return f"{name} is disconnected (the timer checks or folds for them until they are back)"
    if status == "away":
        why = message.get("reason") or "the timer"
        return f"{name} is out of the deal ({why}) until they are back"
    if status == "connected":
        return f"{name} is connected again"
    if status == "back":
        return f"{name} is dealt in again"
    return f"{name}: {status}"


def _again(address: str, code: str, name: str) -> str:
    """The command that takes the player back to this seat."""
    words = ["holdem", "join", code, "--server", address, "--name", name]
    return " ".join(shlex.quote(word) for word in words)


def _play(game: Game, keyboard: _Keyboard) -> None:
    """Tells the server's events and reads the player's lines until the game
    ends for the player.  From a terminal a line belongs to the turn it was
    typed at: typed out of turn, or for a turn that has ended before it was
    read (the server's next turn may come in the same moment), it is not
    taken and the player is told; from a pipe it waits for the next turn (a
    script's moves)."""
    client = game.client
    typed: deque[tuple[int | None, str]] = deque()  # (the turn each was typed for, the line)
    for message in client.poll(0):
        game.tell(message)
    while not game.over:
        wait = game.countdown(keyboard.typing if keyboard.tty else None)
        watched = [client.fileno()] + ([] if keyboard.ended else [keyboard.fd])
        ready = select.select(watched, [], [], wait)[0]
        if keyboard.fd in ready:
            stamp = game.stamp()
            typed.extend((stamp, line) for line in keyboard.lines())
        if client.fileno() in ready or client.events:
            for message in client.poll(0):
                game.tell(message)
        while typed and not game.over and (keyboard.tty or game.wants(typed[0][1])):
            stamp, line = typed.popleft()
            game.typed(line, stamp if keyboard.tty else game.stamp())  # (a pipe's: typed ahead)
            for message in client.poll(0):  # (what the move caused: a turn may follow)
                game.tell(message)
        if keyboard.ended and not typed and not game.over and (game.turn or not game.started):
            game.screen.say("(input ended)")
            game.leave()


def _create_fields(options: dict[str, Any]) -> dict[str, Any]:
    """The ``create_table`` request of the ``--create`` options."""
    fields: dict[str, Any] = {
        "game": options["game"],
        "seats": options["seats"],
        "public": options["public"],
        "timer": {"seconds": options["timer"]},
        "pace": options["pace"],
        "pause": options["pause"],
    }
    stack = options["stack"]
    if options["game"] == "tournament":
        if stack is not None:
            fields["stack"] = stack
        if options["schedule"] is not None:
            fields["schedule"] = options["schedule"]
    else:
        small, big = parse_blinds(options["blinds"])
        fields.update(small_blind=small, big_blind=big)
        if stack is not None:
            fields["buy_in"] = stack
    return fields


@click.command(
    "join",
    epilog="""\b
Examples:
  holdem join --create --server 127.0.0.1:7777 --name Ann      a private freezeout
  holdem join 7KQM-X2TP --server 192.168.1.20:7777 --name Ben   a friend's table
  holdem join --create --game cash --blinds 5/10 --public --server HOST:PORT
\b
In the lobby the creator types 'bots 4 hard' and 'start'. At your turn:
f (fold), k (check), c (call), b 300, r 900, a (all in), help, quit.
Your seat is remembered (by server, code and name): 'holdem join CODE
--server HOST:PORT --name NAME' takes you back to it; --create makes a new
table.
""",
)
@click.argument("code", required=False)
@click.option("--server", "address", metavar="HOST:PORT", default="127.0.0.1:7777",
              show_default=True, help="The room server.")  # fmt: skip
@click.option("--name", default=None, help="Your name at the table (default: your login).")
@click.option("--create", is_flag=True, help="Make a new table (you are its creator).")
@click.option("--game", type=click.Choice(["tournament", "cash"]), default="tournament",
              show_default=True, help="With --create: a freezeout or a cash table.")  # fmt: skip
@click.option("--seats", type=click.IntRange(2, 10), default=6, show_default=True,
              help="With --create: the table's seats.")  # fmt: skip
@click.option("--stack", type=click.IntRange(min=1), default=None,
              help="With --create: a tournament's stack (1,500), a cash buy-in.")  # fmt: skip
@click.option("--schedule", default=None, metavar="TEXT",
              help="With --create: a tournament's blinds (default 10/20 rising every 10 "
              "hands).")  # fmt: skip
@click.option("--blinds", default="1/2", show_default=True, metavar="SMALL/BIG",
              help="With --create --game cash: the blinds.")  # fmt: skip
@click.option("--public", is_flag=True, help="With --create: list the table for anyone.")
@click.option("--timer", type=click.FloatRange(1, 600), default=30.0, show_default=True,
              metavar="SECONDS", help="With --create: seconds a decision.")  # fmt: skip
@click.option("--pace", type=click.FloatRange(0, 10), default=1.0, show_default=True,
              metavar="SECONDS", help="With --create: the bots' pause a move.")  # fmt: skip
@click.option("--pause", type=click.FloatRange(0, 60), default=3.0, show_default=True,
              metavar="SECONDS", help="With --create: the pause between hands.")  # fmt: skip
@click.option("--take-over", is_flag=True,
              help="Take your seat over when another client of yours is connected to it "
              "(that one stops; on a terminal you are asked).")  # fmt: skip
@click.option("--color/--no-color", default=None, help="Colours (default: on a terminal).")
def join_command(
    code: str | None,
    address: str,
    name: str | None,
    create: bool,
    take_over: bool,
    color: bool | None,
    **options: Any,
) -> None:
    """Plays at a table of a room server (holdem serve) in the terminal: makes
    one with --create (and prints its join code for your friends), or joins
    one by its CODE. A dropped connection can be taken up again: holdem join
    CODE with the same --server and --name (the command it prints) takes you
    back to your seat."""
    if create == (code is not None):
        raise click.UsageError("give a table's CODE to join it, or --create to make one")
    host, port = parse_address(address)
    name = (name or os.environ.get("USER") or "Player").strip()
    keyboard = _Keyboard()
    screen = Screen(None, color=color)
    try:
        client = RoomClient(host, port, name="holdem join")
    except (ConnectionError, TimeoutError) as exc:
        raise JoinError(str(exc)) from None
    with client:
        try:
            fields = _create_fields(options) if create else {}
            ask = keyboard.tty and not take_over
            joined, key = _enter(client, address, code, name, create, fields,
                                 take_over=take_over, ask=ask)  # fmt: skip
        except ProtocolError as exc:
            raise JoinError(f"{exc.code}: {exc}") from None
        except (ConnectionError, TimeoutError) as exc:
            raise JoinError(str(exc)) from None
        session = Game(client, joined, screen, key)
        session.keyboard = keyboard if keyboard.tty else None
        session.remember()
        again = _again(address, code or joined["code"], session.name)
        _greet(session, joined, address, create, again)
        try:
            with keyboard.raw():
                _play(session, keyboard)
        except (ConnectionError, TimeoutError) as exc:
            raise JoinError(f"{exc} (to come back to your seat: {again})") from None
    if session.replaced:
        raise click.exceptions.Exit(1)  # (the seat is the other client's now: kept)
    if session.over and not session.leaving:
        _remember(key, None)


def _enter(client: RoomClient, address: str, code: str | None, name: str, create: bool,
           fields: dict[str, Any], *, take_over: bool = False,
           ask: bool = False) -> tuple[dict[str, Any], str]:  # fmt: skip
    """Makes the table, comes back to a seat kept, or joins: the reply, and the
    key the seat is remembered by.  A seat kept that another client of the
    player's is connected to is taken over with ``take_over``, or when the
    player says yes (``ask``: on a terminal); else refused."""
    if create:
        made = client.request("create_table", name=name, **fields)
        made["name"], made["creator"] = name, True
        return made, seat_key(address, made["code"], name)
    assert code is not None
    key = seat_key(address, code, name)
    kept = _saved().get(key)
    if isinstance(kept, dict) and isinstance(kept.get("token"), str):
        try:
            back = _resume(client, kept["token"], code, name, take_over=take_over, ask=ask)
            back["creator"] = back["state"].get("creator") == back["seat"]
            return back, key
        except ProtocolError as exc:
            if exc.code not in ("token_expired", "unknown_token"):
                raise
            _remember(key, None)
    joined = client.request("join", code=code, name=name)
    joined["name"] = name
    return joined, key


def _resume(client: RoomClient, token: str, code: str, name: str, *, take_over: bool,
            ask: bool) -> dict[str, Any]:  # fmt: skip
    """Takes the seat of ``token`` up again: over from another client of the
    player's only with ``take_over``, or the player's yes (``ask``)."""
    try:
        return client.request("resume", token=token, take_over=take_over)
    except ProtocolError as exc:
        if exc.code != "token_in_use" or take_over or "another address" in str(exc):
            raise
    where = f"the seat of {name} at table {code}"
    if not ask:
        raise click.ClickException(f"{where} is connected from another client of yours: "
                                   "--take-over takes it over (that client stops)")  # fmt: skip
    if not click.confirm(f"The seat of {name} at table {code} is connected from another client "
                         "of yours. Take it over (that client stops)?", default=False):  # fmt: skip
        raise click.ClickException(f"{where} stays with the other client (not taken over)")
    return client.request("resume", token=token, take_over=True)


def _greet(game: Game, joined: dict[str, Any], address: str, create: bool, again: str) -> None:
    screen = game.screen
    state = joined["state"]
    what = "freezeout" if state["game"] == "tournament" else "cash table"
    screen.say(f"holdem join: {game.name} at seat {game.seat + 1} of a {what} "
               f"({game.table}) on {address}", bold=True)  # fmt: skip
    if create:
        screen.say(f"Join code: {joined['code']}", fg="green", bold=True)
        screen.say(f"Your friends type: holdem join {joined['code']} --server {address}")
        screen.say("Type 'bots N LEVEL' to fill seats, 'start' when everyone is in.")
    elif "missed" in joined:
        game.missed(joined)
    elif state["status"] == "waiting":
        screen.say("Waiting for the creator to start the game...")
    screen.say(f"To come back to this seat: {again}")
    for info in state["seats"]:
        bot = f" ({info['bot']} bot)" if info.get("bot") else ""
        screen.say(f"  seat {info['seat'] + 1}: {info['name']}{bot}")
    view = joined.get("view")
    if view and view.get("hole_cards"):
        game.own = screen.hole = tuple(parse_cards(view["hole_cards"]))
        screen.say(f"Your cards: {screen.cards(game.own)}", bold=True)
