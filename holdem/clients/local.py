"""A game against bots on this machine (``holdem play``): the table's events
told to the player, the player's decisions read at the prompt, the bots
and programs in the other seats, every hand written as it ends."""

from __future__ import annotations

import contextlib
import datetime
import time
from collections.abc import Iterable
from contextlib import ExitStack
from pathlib import Path

import click

from holdem import ActionKind, Decision, LegalActions, PlayerView
from holdem.bots import make_bot
from holdem.errors import TableError
from holdem.histories import PhhWriter, PokerStarsWriter, date_fields, record
from holdem.protocol.programs import PREFIX, Program, stop
from holdem.table import (
    ActionTaken,
    CashGame,
    CashResult,
    Decide,
    Event,
    HandEnded,
    HandResult,
    PlayerEliminated,
    Table,
    Tournament,
    TournamentResult,
    TurnTimer,
)
from holdem.units import signed_text

from .commands import HELP, TWICE_SAID, Refused, read_command, show_or_muck
from .telling import Teller, ordinal
from .terminal import Console

__all__ = [
    "Histories",
    "LocalGame",
    "bot_deciders",
    "cash_results",
    "certificate",
    "places",
    "play_cash",
    "play_tournament",
]

_DECISIONS = frozenset(
    {ActionKind.FOLD, ActionKind.CHECK, ActionKind.CALL, ActionKind.BET, ActionKind.RAISE}
)


class LocalGame:
    """One game at one table: the player at ``me``, bots in the other seats,
    the teller, the pace and the hand histories."""

    def __init__(
        self,
        table: Table,
        me: int,
        name: str,
        teller: Teller,
        console: Console,
        speed: float,
        timer: TurnTimer | None,
    ) -> None:
        self.table, self.me, self.name = table, me, name
        self.teller, self.console = teller, console
        self.speed, self.timer = speed, timer
        teller.my_name = name
        teller.unit = table.unit  # (amounts told in the table's money, R9)
        self.programs: dict[int, Program] = {}  # the seats played by programs
        self._told: set[int] = set()  # programs whose sitting out was told
        self.leaving = False  # asked to leave: folds until the hand is over
        self.watching = True  # tells every event (False once the player is out)
        self.bell = False  # the terminal's bell rung at each turn
        table.subscribe(self.tell)

    # ------------------------------------------------------------ events

    def tell(self, event: Event) -> None:
        teller = self.teller
        if not self.watching:
            if isinstance(event, PlayerEliminated):
                teller.event(event)
            return
        if isinstance(event, ActionTaken):
            action = event.action
            own = None
            if action.kind is ActionKind.DEAL_HOLE:
                hand = self.table.hand
                if hand is not None and self.me in hand.config.seat_numbers:
                    own = hand.view(self.me).hole_cards
            teller.action(action, own)
            if self.speed and (
                action.kind is ActionKind.DEAL_BOARD
                or (action.seat != self.me and action.kind in _DECISIONS)
            ):
                time.sleep(self.speed)
            return
        teller.event(event)
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
        bank = None if left is None or self.timer is None else min(left, self.timer.bank(self.name))
        for early in self.console.discard():
            self.teller.say(f"Not taken: {early!r} (typed before your turn).", fg="red")
        if self.bell:
            click.echo("\a", nl=False)
        self.teller.turn(view, legal, left, bank)
        mine = view.bets[view.config.seat_numbers.index(self.me)]
        while True:
            click.echo("> ", nl=False)
            try:
                line = self.console.read(deadline)
            except EOFError:
                self.teller.say("(input ended: you leave the table after this hand)")
                return self._leave(legal)
            if line is None:
                click.echo()
                self.teller.say("Time is up.", fg="red")
                self.console.discard()  # (a move half typed is not the next turn's)
                return legal.check_or_fold()
            command = read_command(line, legal, view.pot, mine, view)
            if isinstance(command, Decision):
                return command
            if isinstance(command, Refused):
                self.teller.say(command.reason, fg="red")
            elif command == "help":
                self.teller.say(HELP)
            elif command == "table":
                left = None if deadline is None else max(0.0, deadline - time.monotonic())
                self.teller.turn(view, legal, left, None if left is None else min(left, bank or 0))
            elif command == "show":
                self.show_cards()
            elif command in ("twice on", "twice off"):
                self.run_twice(command == "twice on")
            else:  # quit
                self.teller.say("You leave the table after this hand (checking or folding).")
                return self._leave(legal)

    def run_twice(self, agree: bool) -> None:
        """``twice on`` or ``twice off``: whether the player agrees to run it
        twice (R10) from the next hand (the bots always do), or why not."""
        try:
            self.table.agree_to_run_twice(self.me, agree)
        except TableError as exc:
            self.teller.say(f"Not taken: {exc}: holdem play --run-it-twice makes a table "
                            "that does.", fg="red")  # fmt: skip
            return
        self.teller.say(TWICE_SAID[agree])

    def show_cards(self) -> None:
        """``show``: the player's cards of the last hand shown to the table (R10:
        having folded or won it uncontested; the ``cards_shown`` event tells
        it), or why not.  The hand's history was saved as it ended, before."""
        try:
            self.table.show_cards(self.me)
        except TableError as exc:
            self.teller.say(f"Not shown: {exc}.", fg="red")

    def programs_out(self) -> list[int]:
        """Tells, once, each program that sits out from now on, and why; their seats."""
        out = []
        for seat, program in self.programs.items():
            if program.failure is not None and seat not in self._told:
                self._told.add(seat)
                who = self.teller.who(seat)
                self.teller.say(f"{who} (a program) sits out: {program.failure}", fg="red")
                out.append(seat)
        return out

    def ending(self) -> contextlib.AbstractContextManager[None]:
        """Where the game's end is told (the places and the certificate, a
        session's results): a full screen shows those lines apart."""
        return contextlib.nullcontext()

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
            self.teller.say("y or n, please", fg="red")


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


def certificate(teller: Teller, winner: str, lines: list[str]) -> None:
    """The winner's certificate of a freezeout, with ``lines`` about it."""
    width = max(len(winner) + 10, *(len(line) for line in lines), 34) + 4
    top, side, bottom = ("╔" + "═" * width + "╗", "║", "╚" + "═" * width + "╝")
    if not teller.symbols:
        top, side, bottom = "+" + "=" * width + "+", "|", "+" + "=" * width + "+"
    body = ["", "CERTIFICATE OF VICTORY", "", f"{winner}", "won the freezeout", "", *lines, ""]
    teller.say(top, fg="yellow", bold=True)
    for line in body:
        teller.say(f"{side}{line.center(width)}{side}", fg="yellow", bold=True)
    teller.say(bottom, fg="yellow", bold=True)


def bot_deciders(
    levels: list[str],
    seeds: list[int],
    names: list[str],
    local: LocalGame,
    files: ExitStack,
    logs: Path,
    budget: float,
) -> dict[int, Decide]:
    """The bots by seat (from 1); a program's stderr goes to ``logs-seatN.log``
    beside the histories, and the programs are stopped when ``files`` close."""
    deciders: dict[int, Decide] = {}
    files.callback(stop, local.programs.values())  # (all at once: one grace for all)
    for seat, (level, bot_seed) in enumerate(zip(levels, seeds, strict=True), 1):
        if not level.startswith(PREFIX):
            deciders[seat] = make_bot(level, seed=bot_seed)
            continue
        log = logs.with_name(f"{logs.name}-seat{seat + 1}.log")
        program = Program(level, budget=budget, log=log, name=names[seat - 1])
        local.programs[seat] = program
        deciders[seat] = program
    return deciders


def play_tournament(
    event: Tournament,
    local: LocalGame,
    saved: Histories,
    players: dict[str, Decide],
    levels: dict[str, str],
    seed: int,
    started: datetime.datetime,
) -> None:
    teller = local.teller
    table = event.table
    stack = table.stack(0)
    count = len(players)
    while not event.finished:
        played = event.play_hand(players)
        level = event.level_index + 1  # (the level it was played at: levels change before a deal)
        local.programs_out()  # (in a tournament its chips play on: it checks or folds)
        saved.write(
            played,
            tournament=True,
            fields={"table": "holdem play", "seat_count": table.max_seats, "level": level},
        )
        if local.watching and 0 not in table.seats:  # (the event told the place)
            local.watching = False
            teller.say("The others play on to the end...", dim=True)
        if local.leaving and not event.finished:
            with local.ending():
                teller.say("You left the tournament. Chips now:")
                for _, info in sorted(table.seats.items()):
                    teller.say(f"  {teller.named(info.name):<12} {info.chips:>9,}")
            return
    result = event.result()
    with local.ending():
        places(teller, result, local.name, levels)
        winner = result.winner
        label = f" ({levels[winner]} bot)" if winner in levels else ""
        certificate(
            teller,
            teller.named(winner) + label,
            [
                f"{count} players · {teller.money(stack)} chips each · {result.hands} hands",
                f"{started:%Y-%m-%d} · seed {seed}",
            ],
        )


def places(teller: Teller, result: TournamentResult, me: str, levels: dict[str, str]) -> None:
    """A freezeout's end: every place, and how and when each player went out
    (``levels``: the bots' by name)."""
    teller.say()
    teller.say("Final places:", bold=True)
    for placing in result.places:
        out = placing.elimination
        how = ""
        if out is not None:
            by = [teller.named(n, you="you") for n in out.eliminated_by]
            how = f"out on hand {out.hand_number}" + (f" by {', '.join(by)}" if by else "")
        who = teller.named(placing.player)
        if placing.player in levels:
            who = f"{who} ({levels[placing.player]})"
        teller.say(f"  {ordinal(placing.place):>5}  {who:<20} {how}".rstrip())


def play_cash(
    game: CashGame,
    local: LocalGame,
    saved: Histories,
    players: dict[int, Decide],
    buy_in: int,
) -> None:
    teller, table = local.teller, game.table
    while not game.over and not local.leaving and table.can_deal():
        result = game.play_hand(players)
        saved.write(
            result, tournament=False, fields={"table": "holdem play", "seat_count": table.max_seats}
        )
        for seat in local.programs_out():
            table.sit_out(seat)
        for seat in result.busted:
            if seat in local.programs and local.programs[seat].failure is not None:
                continue
            if seat != 0:  # a bot rebuys at once
                game.add_chips(seat, game.max_buy_in)
        if 0 in result.busted and not local.leaving:
            again = min(buy_in, game.max_buy_in)
            if not local.ask(f"You have no chips left. Buy in again for {teller.money(again)}?"):
                break
            game.add_chips(0, again)
    local.watching = False  # (everyone leaves: the results tell it)
    for seat in list(table.seats):
        table.leave(seat)
    with local.ending():
        cash_results(teller, game.hands_played, game.results().values())


def cash_results(teller: Teller, hands: int, results: Iterable[CashResult]) -> None:
    """A cash session's end: each player's buy-ins, cash-out, net and hands."""
    teller.say()
    teller.say(f"Session over after {hands} hand{'s' * (hands != 1)}:", bold=True)
    teller.say(f"  {'player':<12} {'bought in':>10} {'cashed out':>11} {'net':>9} {'hands':>6}")
    for result in results:
        who = teller.named(result.name)
        money, net = teller.money, signed_text(result.net, teller.unit)
        teller.say(f"  {who:<12} {money(result.bought_in):>10} {money(result.cashed_out):>11} "
                   f"{net:>9} {result.hands:>6}")  # fmt: skip
