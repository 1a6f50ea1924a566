"""``holdem play``: a game against bots in the terminal, a freezeout tournament
or a cash session, every hand saved as a hand history."""

from __future__ import annotations

import contextlib
import datetime
import os
import random
import select
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import TextIO

import click

from holdem import ActionKind, Decision, LegalActions, PlayerView, evaluate
from holdem.bots import BOTS, make_bot
from holdem.config import Structure
from holdem.histories import PhhWriter, PokerStarsWriter, date_fields, record
from holdem.protocol.programs import PREFIX, Program, parse_command, secret_seed, stop
from holdem.table import (
    ActionTaken,
    CashGame,
    Decide,
    Event,
    HandEnded,
    HandResult,
    PlayerEliminated,
    Schedule,
    Table,
    TimerRules,
    Tournament,
    TournamentResult,
    TurnTimer,
)

from .commands import HELP, Refused, read_command
from .screen import Screen, ordinal
from .signals import stopped_as_ctrl_c

#: levels ``--bots mix`` draws from, and the names the bots sit under
MIX = ("easy", "normal", "hard")
NAMES = ("Ava", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jun", "Kai")
_DECISIONS = frozenset(
    {ActionKind.FOLD, ActionKind.CHECK, ActionKind.CALL, ActionKind.BET, ActionKind.RAISE}
)


class _Leave(Exception):
    """The player asked to leave (or their input ended)."""


class Console:
    """Reads the player's lines, with a deadline when the turn timer runs.

    On a real stream (a terminal, a pipe) it reads the file descriptor itself,
    so a deadline can interrupt the wait; elsewhere (a test runner's stream)
    it reads lines and leaves a late answer to the table's timer."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = sys.stdin if stream is None else stream
        try:
            self.fd: int | None = self.stream.fileno()
        except (OSError, ValueError, AttributeError):
            self.fd = None
        self._buffer = b""
        self._ended = False
        #: a terminal (POSIX: termios) whose input typed out of turn is dropped (:meth:`discard`)
        self.tty = self.fd is not None and os.isatty(self.fd) and os.name == "posix"

    def discard(self) -> list[str]:
        """On a terminal, drops what was typed before now and returns its whole
        lines (a line typed out of turn, or for a turn that has ended, is
        never taken as a later turn's move); elsewhere (a script's moves
        typed ahead) keeps it all and returns nothing."""
        if not self.tty or self.fd is None:
            return []
        import termios

        data, self._buffer = self._buffer, b""
        while not self._ended and select.select([self.fd], [], [], 0)[0]:
            chunk = os.read(self.fd, 4096)  # (a whole line: the terminal's line discipline)
            self._ended = not chunk
            data += chunk
        termios.tcflush(self.fd, termios.TCIFLUSH)  # (and a line half typed)
        lines = data.decode("utf-8", "replace").split("\n")
        return [line.strip() for line in lines if line.strip()]

    def read(self, deadline: float | None = None) -> str | None:
        """The next line (without its end); None when ``deadline`` (a
        ``time.monotonic`` reading) passed first.  EOFError at the end."""
        if self.fd is None:
            line = self.stream.readline()
            if not line:
                raise EOFError
            return line.rstrip("\r\n")
        while b"\n" not in self._buffer:
            if self._ended:
                if not self._buffer:
                    raise EOFError
                break
            if deadline is not None:
                left = deadline - time.monotonic()
                if left <= 0 or not select.select([self.fd], [], [], left)[0]:
                    return None
            chunk = os.read(self.fd, 4096)
            if not chunk:
                self._ended = True
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line.decode("utf-8", "replace").rstrip("\r")


class Session:
    """One game at one table: the player at ``me``, bots in the other seats,
    the screen, the pace and the hand histories."""

    def __init__(
        self,
        table: Table,
        me: int,
        name: str,
        screen: Screen,
        console: Console,
        speed: float,
        timer: TurnTimer | None,
    ) -> None:
        self.table, self.me, self.name = table, me, name
        self.screen, self.console = screen, console
        self.speed, self.timer = speed, timer
        screen.my_name = name
        self.programs: dict[int, Program] = {}  # the seats played by programs
        self._told: set[int] = set()  # programs whose sitting out was told
        self.leaving = False  # asked to leave: folds until the hand is over
        self.watching = True  # tells every event (False once the player is out)
        table.subscribe(self.tell)

    # ------------------------------------------------------------ events

    def tell(self, event: Event) -> None:
        screen = self.screen
        if not self.watching:
            if isinstance(event, PlayerEliminated):
                screen.event(event)
            return
        if isinstance(event, ActionTaken):
            action = event.action
            own = None
            if action.kind is ActionKind.DEAL_HOLE:
                hand = self.table.hand
                if hand is not None and self.me in hand.config.seat_numbers:
                    own = hand.view(self.me).hole_cards
            screen.action(action, own)
            if self.speed and (
                action.kind is ActionKind.DEAL_BOARD
                or (action.seat != self.me and action.kind in _DECISIONS)
            ):
                time.sleep(self.speed)
            return
        screen.event(event)
        if isinstance(event, HandEnded) and self.speed:
            time.sleep(2 * self.speed)

    # ------------------------------------------------------------ the player

    def decide(self, view: PlayerView, legal: LegalActions) -> Decision:
        """The player's decision: typed at the prompt (or the rooms' defaults
        at a showdown, and folds once leaving)."""
        if legal.show or legal.muck:
            return show_or_muck(view, legal)
        if self.leaving:
            return legal.check_or_fold()
        deadline = self.timer.deadline(self.name) if self.timer is not None else None
        left = None if deadline is None else max(0.0, deadline - time.monotonic())
        for early in self.console.discard():
            self.screen.say(f"Not taken: {early!r} (typed before your turn).", fg="red")
        self.screen.turn(view, legal, left)
        mine = view.bets[view.config.seat_numbers.index(self.me)]
        while True:
            click.echo("> ", nl=False)
            try:
                line = self.console.read(deadline)
            except EOFError:
                self.screen.say("(input ended: you leave the table after this hand)")
                return self._leave(legal)
            if line is None:
                click.echo()
                self.screen.say("Time is up.", fg="red")
                self.console.discard()  # (a move half typed is not the next turn's)
                return legal.check_or_fold()
            command = read_command(line, legal, view.pot, mine, view)
            if isinstance(command, Decision):
                return command
            if isinstance(command, Refused):
                self.screen.say(command.reason, fg="red")
            elif command == "help":
                self.screen.say(HELP)
            elif command == "table":
                self.screen.turn(
                    view, legal, None if deadline is None else deadline - time.monotonic()
                )
            else:  # quit
                self.screen.say("You leave the table after this hand (checking or folding).")
                return self._leave(legal)

    def programs_out(self) -> list[int]:
        """Tells, once, each program that sits out from now on, and why; their seats."""
        out = []
        for seat, program in self.programs.items():
            if program.failure is not None and seat not in self._told:
                self._told.add(seat)
                who = self.screen.who(seat)
                self.screen.say(f"{who} (a program) sits out: {program.failure}", fg="red")
                out.append(seat)
        return out

    def _leave(self, legal: LegalActions) -> Decision:
        self.leaving = True
        return legal.check_or_fold()

    def ask(self, question: str) -> bool:
        """A yes-or-no question between hands (no at the end of the input)."""
        while True:
            click.echo(f"{question} [y/n] ", nl=False)
            try:
                line = self.console.read()
            except EOFError:
                click.echo()
                return False
            answer = (line or "").strip().lower()
            if answer in ("y", "yes"):
                return True
            if answer in ("n", "no", "q", "quit"):
                return False
            self.screen.say("y or n, please", fg="red")


@contextlib.contextmanager
def quiet_ctrl_c(fd: int | None) -> Iterator[None]:
    """On a terminal (``fd``), Ctrl-C drawn as nothing (no ``^C`` on the
    prompt's line, where it reads as typed); the terminal as it was after."""
    if fd is None or not os.isatty(fd) or os.name != "posix":  # (termios: POSIX only)
        yield
        return
    import termios

    saved = termios.tcgetattr(fd)
    quiet = [*saved[:3], saved[3] & ~termios.ECHOCTL, *saved[4:]]
    try:
        termios.tcsetattr(fd, termios.TCSANOW, quiet)
        yield
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


def show_or_muck(view: PlayerView, legal: LegalActions) -> Decision:
    """Shows, or mucks a hand a hand already shown beats (rooms' auto-muck)."""
    if not legal.muck or view.hole_cards is None or len(view.board) < 5:
        return Decision.show()
    mine = evaluate([*view.hole_cards, *view.board])
    best = max((evaluate([*cards, *view.board]) for _, cards in view.shown), default=-1)
    return Decision.muck() if best > mine else Decision.show()


class Histories:
    """Every finished hand written at once to the session's files (PHH, and
    PokerStars text on request), so a game cut short loses no hand."""

    def __init__(
        self, stack: ExitStack, folder: Path, stem: str, *, phh: bool, pokerstars: bool
    ) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        suffixes = [s for s, wanted in ((".phhs", phh), (".txt", pokerstars)) if wanted]
        taken = 1  # a name no earlier session's files have (never written over)
        while any((folder / f"{stem}{_nth(taken)}{s}").exists() for s in suffixes):
            taken += 1
        self.files = [folder / f"{stem}{_nth(taken)}{s}" for s in suffixes]
        stack.callback(self._drop_empty)  # (after the files close: entered after it)
        streams = [stack.enter_context(p.open("x", encoding="utf-8")) for p in self.files]
        self._phh = PhhWriter(streams[0], many=True) if phh else None
        self._stars = PokerStarsWriter(streams[-1]) if pokerstars else None
        self.count = 0

    def write(self, result: HandResult, *, tournament: bool, fields: dict[str, object]) -> None:
        fields = {**fields, **date_fields(datetime.datetime.now(datetime.UTC))}
        history = record(
            result.played,
            hand_id=str(result.hand),
            tournament=tournament,
            fields=fields,
            rake=result.raked,
        )
        if self._phh is not None:
            self._phh.write(history)
            self._phh.out.flush()
        if self._stars is not None:
            self._stars.write(history)
            self._stars.out.flush()
        self.count += 1

    def _drop_empty(self) -> None:
        """Removes the files of a session that ended before its first hand did
        (Ctrl-C at the first prompt): no empty history is left behind."""
        if self.count:
            return
        for path in self.files:
            with contextlib.suppress(FileNotFoundError):
                path.unlink()


def _nth(n: int) -> str:
    return "" if n == 1 else f"-{n}"


def _levels(bots: str, count: int, rng: random.Random) -> list[str]:
    """The bots' levels: one for all, one per bot seat, or ``mix``."""
    words = [word.strip() for word in bots.split(",") if word.strip()]
    if words == ["mix"]:
        return [rng.choice(MIX) for _ in range(count)]
    for word in words:
        if word not in BOTS and not word.startswith(PREFIX):
            raise click.BadParameter(
                f"no bot level {word!r}: one of {', '.join(BOTS)}, mix, or cmd:PROGRAM",
                param_hint="'--bots'",
            )
        if word.startswith(PREFIX):
            parse_command(word)  # (a bad one is refused before the game starts)
    if len(words) == 1:
        return words * count
    if len(words) != count:
        raise click.BadParameter(
            f"{len(words)} levels for {count} bot seats: give one level, or one per bot seat",
            param_hint="'--bots'",
        )
    return words


def parse_blinds(text: str) -> tuple[int, int]:
    """SMALL/BIG of ``--blinds`` (click's error for anything else)."""
    parts = text.replace(" ", "").split("/")
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        raise click.BadParameter(
            f"{text!r}: write the blinds as SMALL/BIG, e.g. 1/2", param_hint="'--blinds'"
        )
    small, big = int(parts[0]), int(parts[1])
    if not 0 < small <= big:
        raise click.BadParameter(
            f"{text!r}: the small blind must be positive and at most the big blind",
            param_hint="'--blinds'",
        )
    return small, big


def _certificate(screen: Screen, winner: str, lines: list[str]) -> None:
    width = max(len(winner) + 10, *(len(line) for line in lines), 34) + 4
    top, side, bottom = ("╔" + "═" * width + "╗", "║", "╚" + "═" * width + "╝")
    if not screen.symbols:
        top, side, bottom = "+" + "=" * width + "+", "|", "+" + "=" * width + "+"
    body = ["", "CERTIFICATE OF VICTORY", "", f"{winner}", "won the freezeout", "", *lines, ""]
    screen.say(top, fg="yellow", bold=True)
    for line in body:
        screen.say(f"{side}{line.center(width)}{side}", fg="yellow", bold=True)
    screen.say(bottom, fg="yellow", bold=True)


@click.command(
    "play",
    epilog="""\b
Examples:
  holdem play                                  a freezeout against five bots
  holdem play --seats 3 --bots hard            three-handed against two hard bots
  holdem play --game cash --blinds 1/2 --hands 100
  holdem play --bots easy,easy,normal,hard,hard --speed 0.3 --timer 30
  holdem play --histories ~/poker/hands --pokerstars
\b
At your turn type f (fold), k (check), c (call), b 300 (bet to 300),
r 900 (raise to 900), a (all in), help, or quit. See docs/play.md.
""",
)
@click.option("--seats", type=click.IntRange(2, 10), default=6, show_default=True,
              help="Players at the table, you included.")  # fmt: skip
@click.option("--bots", default="mix", show_default=True, metavar="LEVEL[,LEVEL...]",
              help="The bots' level: one for all, one per bot seat (clockwise from yours), "
              f"or mix (each one of {', '.join(MIX)}). Levels: {', '.join(BOTS)}; "
              "or cmd:PROGRAM, a program playing by docs/protocol.md.")  # fmt: skip
@click.option("--game", type=click.Choice(["tournament", "cash"]), default="tournament",
              show_default=True, help="A freezeout tournament, or a cash session.")  # fmt: skip
@click.option("--structure", type=click.Choice([s.value for s in Structure]),
              default=Structure.NO_LIMIT.value, show_default=True,
              help="Betting structure.")  # fmt: skip
@click.option("--stack", type=click.IntRange(min=1), default=None,
              help="Starting chips: each player's in a tournament (default 1,500); "
              "the buy-in in a cash game (default 100 big blinds).")  # fmt: skip
@click.option("--schedule", default=None, metavar="TEXT",
              help="Tournament blinds, e.g. '10/20, 15/30, 25/50/5' or '@5m, 10/20, 20/40' "
              "(default: 10/20 rising about 25% every 10 hands; docs/tables.md).")  # fmt: skip
@click.option("--blinds", default="1/2", show_default=True, metavar="SMALL/BIG",
              help="Cash game blinds.")  # fmt: skip
@click.option("--hands", type=click.IntRange(min=1), default=None,
              help="Cash game: end the session after this many hands "
              "(default: until you quit).")  # fmt: skip
@click.option("--timer", type=click.FloatRange(min=0, max=86_400, min_open=True), default=None,
              metavar="SECONDS", help="Seconds for each decision; out of time you check "
              "or fold (default: no timer).")  # fmt: skip
@click.option("--time-bank", type=click.FloatRange(min=0, max=86_400), default=0.0,
              metavar="SECONDS",
              help="Extra seconds for the whole game, used when a decision runs over.")  # fmt: skip
@click.option("--speed", type=click.FloatRange(min=0, max=10), default=1.0, show_default=True,
              metavar="SECONDS", help="Pause after each bot action (0: no pause).")  # fmt: skip
@click.option("--seed", type=click.IntRange(min=0), default=None,
              help="Seed of the cards and bots (printed; the same seed, the same "
              "deals; default: a secret one). With cmd: programs, for trusted ones only: "
              "a program can read it from this command line.")  # fmt: skip
@click.option("--name", default="Hero", show_default=True, help="Your name in the hand histories.")
@click.option("--histories", type=click.Path(file_okay=False), default="holdem-hands",
              show_default=True, metavar="DIR",
              help="Folder the hand histories go to.")  # fmt: skip
@click.option("--pokerstars", is_flag=True, help="Also write the hands as PokerStars text.")
@click.option("--color/--no-color", default=None, help="Colours (default: on a terminal).")
@stopped_as_ctrl_c
def play_command(
    seats: int,
    bots: str,
    game: str,
    structure: str,
    stack: int | None,
    schedule: str | None,
    blinds: str,
    hands: int | None,
    timer: float | None,
    time_bank: float,
    speed: float,
    seed: int | None,
    name: str,
    histories: str,
    pokerstars: bool,
    color: bool | None,
) -> None:
    """Plays Texas Hold'em against bots in the terminal: a freezeout until one
    player has every chip, or a cash session until you quit. Every hand is
    saved as a hand history (PHH) as soon as it ends.
    """
    name = name.strip()
    if not name or len(name) > 40 or not name.isprintable():
        raise click.BadParameter("a name of 1 to 40 printable characters", param_hint="'--name'")
    tournament = game == "tournament"
    if tournament and (hands is not None or blinds != "1/2"):
        raise click.UsageError("--hands and --blinds are for cash games (--game cash); "
                               "a tournament's blinds follow --schedule")  # fmt: skip
    if not tournament and schedule is not None:
        raise click.UsageError("--schedule is for tournaments; a cash game has --blinds")
    seed = secret_seed() if seed is None else seed
    rng = random.Random(seed)
    levels = _levels(bots, seats - 1, rng)
    programs = any(level.startswith(PREFIX) for level in levels)
    names = [n for n in NAMES if n.lower() != name.lower()][: seats - 1]
    turn = (
        TurnTimer(TimerRules(seconds=timer, time_bank=time_bank, free_seat_after=None))
        if timer
        else None
    )
    started = datetime.datetime.now()
    if tournament:
        levels_by_name = dict(zip(names, levels, strict=True))
        event = _new_tournament([name, *names], stack, schedule, structure, turn, rng)
        table = event.table
    else:
        cash, buy_in = _new_cash([name, *names], blinds, stack, hands, structure, turn, rng)
        table = cash.table
    screen = Screen(0, color=color)
    for seat, level in enumerate(levels, 1):
        screen.labels[seat] = "program" if level.startswith(PREFIX) else level
    seeds = [rng.getrandbits(32) for _ in levels]
    console = Console()
    session = Session(table, 0, name, screen, console, speed, turn)
    what = "a freezeout" if tournament else f"a cash game at {blinds}"
    betting = Structure(structure).value.replace("_", " ")
    # with programs at the table, the seed is told once the game is over, and is
    # not in the files' names: nothing a program could read tells it meanwhile
    told = "seed told at the end" if programs else f"seed {seed}"
    screen.say(f"holdem play: {what}, {seats} seats, {betting}, {told}", bold=True)
    screen.say("Type help at your turn for the commands.")
    stem = f"play-{started:%Y%m%d-%H%M%S}" + ("" if programs else f"-seed{seed}")
    with ExitStack() as files:
        files.enter_context(quiet_ctrl_c(console.fd))
        # (PHH has no pot-limit hold'em: those hands are kept as PokerStars text)
        phh = Structure(structure) is not Structure.POT_LIMIT
        if not phh:
            screen.say("Pot-limit hold'em has no PHH form: the hands go to PokerStars text.")
        saved = Histories(files, Path(histories), stem, phh=phh, pokerstars=pokerstars or not phh)
        deciders = _deciders(levels, seeds, names, session, files,
                             Path(histories) / stem, timer or 5.0)  # fmt: skip
        try:
            if tournament:
                by_name: dict[str, Decide] = {name: session.decide}
                by_name.update((n, deciders[s]) for s, n in enumerate(names, 1))
                _tournament(event, session, saved, by_name, levels_by_name, seed, started)
            else:
                _cash(cash, session, saved, {0: session.decide, **deciders}, buy_in)
        finally:
            if saved.count:
                where = " and ".join(str(p) for p in saved.files)
                screen.say(f"{saved.count} hand{'s' * (saved.count != 1)} saved to {where}")
            if programs:
                screen.say(f"The seed of this game: {seed}")


def _new_tournament(
    players: list[str],
    stack: int | None,
    schedule: str | None,
    structure: str,
    turn: TurnTimer | None,
    rng: random.Random,
) -> Tournament:
    """The freezeout: everybody with ``stack`` chips (default 1,500)."""
    return Tournament(
        players,
        stack=1500 if stack is None else stack,
        schedule=Schedule.parse(schedule) if schedule is not None else None,
        structure=structure,
        timer=turn,
        rng=rng.getrandbits(64),
    )


def _new_cash(
    players: list[str],
    blinds: str,
    stack: int | None,
    hands: int | None,
    structure: str,
    turn: TurnTimer | None,
    rng: random.Random,
) -> tuple[CashGame, int]:
    """The cash table with everybody seated (the player at seat 0 for ``stack``,
    default 100 big blinds; the bots for the table's maximum), and the
    player's buy-in."""
    small, big = parse_blinds(blinds)
    game = CashGame(
        len(players),
        small_blind=small,
        big_blind=big,
        max_buy_in=max(100 * big, stack or 0),
        min_buy_in=min(40 * big, stack or 40 * big),
        structure=structure,
        max_hands=hands,
        timer=turn,
        rng=rng.getrandbits(64),
    )
    buy_in = 100 * big if stack is None else stack
    game.join(0, players[0], buy_in)
    for seat, bot_name in enumerate(players[1:], 1):
        game.join(seat, bot_name, game.max_buy_in)
    return game, buy_in


def _deciders(
    levels: list[str],
    seeds: list[int],
    names: list[str],
    session: Session,
    files: ExitStack,
    logs: Path,
    budget: float,
) -> dict[int, Decide]:
    """The bots by seat (from 1); a program's stderr goes to ``logs-seatN.log``
    beside the histories, and the programs are stopped when ``files`` close."""
    deciders: dict[int, Decide] = {}
    files.callback(stop, session.programs.values())  # (all at once: one grace for all)
    for seat, (level, bot_seed) in enumerate(zip(levels, seeds, strict=True), 1):
        if not level.startswith(PREFIX):
            deciders[seat] = make_bot(level, seed=bot_seed)
            continue
        log = logs.with_name(f"{logs.name}-seat{seat + 1}.log")
        program = Program(level, budget=budget, log=log, name=names[seat - 1])
        session.programs[seat] = program
        deciders[seat] = program
    return deciders


def _tournament(
    event: Tournament,
    session: Session,
    saved: Histories,
    players: dict[str, Decide],
    levels: dict[str, str],
    seed: int,
    started: datetime.datetime,
) -> None:
    screen = session.screen
    table = event.table
    stack = table.stack(0)
    count = len(players)
    while not event.finished:
        played = event.play_hand(players)
        level = event.level_index + 1  # (the level it was played at: levels change before a deal)
        session.programs_out()  # (in a tournament its chips play on: it checks or folds)
        saved.write(
            played,
            tournament=True,
            fields={"table": "holdem play", "seat_count": table.max_seats, "level": level},
        )
        if session.watching and 0 not in table.seats:  # (the event told the place)
            session.watching = False
            screen.say("The others play on to the end...", dim=True)
        if session.leaving and not event.finished:
            screen.say("You left the tournament. Chips now:")
            for _, info in sorted(table.seats.items()):
                screen.say(f"  {screen.named(info.name):<12} {info.chips:>9,}")
            return
    result = event.result()
    _places(screen, result, session.name, levels)
    winner = result.winner
    label = f" ({levels[winner]} bot)" if winner in levels else ""
    _certificate(
        screen,
        screen.named(winner) + label,
        [
            f"{count} players · {stack:,} chips each · {result.hands} hands",
            f"{started:%Y-%m-%d} · seed {seed}",
        ],
    )


def _places(screen: Screen, result: TournamentResult, me: str, levels: dict[str, str]) -> None:
    screen.say()
    screen.say("Final places:", bold=True)
    for placing in result.places:
        out = placing.elimination
        how = ""
        if out is not None:
            by = [screen.named(n, you="you") for n in out.eliminated_by]
            how = f"out on hand {out.hand_number}" + (f" by {', '.join(by)}" if by else "")
        who = screen.named(placing.player)
        if placing.player in levels:
            who = f"{who} ({levels[placing.player]})"
        screen.say(f"  {ordinal(placing.place):>5}  {who:<20} {how}".rstrip())


def _cash(
    game: CashGame,
    session: Session,
    saved: Histories,
    players: dict[int, Decide],
    buy_in: int,
) -> None:
    screen, table = session.screen, game.table
    while not game.over and not session.leaving and table.can_deal():
        result = game.play_hand(players)
        saved.write(
            result, tournament=False, fields={"table": "holdem play", "seat_count": table.max_seats}
        )
        for seat in session.programs_out():
            table.sit_out(seat)
        for seat in result.busted:
            if seat in session.programs and session.programs[seat].failure is not None:
                continue
            if seat != 0:  # a bot rebuys at once
                game.add_chips(seat, game.max_buy_in)
        if 0 in result.busted and not session.leaving:
            again = min(buy_in, game.max_buy_in)
            if not session.ask(f"You have no chips left. Buy in again for {again:,}?"):
                break
            game.add_chips(0, again)
    session.watching = False  # (everyone leaves: the results tell it)
    for seat in list(table.seats):
        table.leave(seat)
    screen.say()
    screen.say(f"Session over after {game.hands_played} hands:", bold=True)
    screen.say(f"  {'player':<12} {'bought in':>10} {'cashed out':>11} {'net':>9} {'hands':>6}")
    for result_ in game.results().values():
        who = screen.named(result_.name)
        screen.say(f"  {who:<12} {result_.bought_in:>10,} {result_.cashed_out:>11,} "
                   f"{result_.net:>+9,} {result_.hands:>6}")  # fmt: skip
