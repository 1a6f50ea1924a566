"""``holdem play``: a game against bots in the terminal, a freezeout tournament
or a cash game, every hand saved as a hand history."""

from __future__ import annotations

import datetime
import math
import random
import re
import sys
from contextlib import ExitStack
from decimal import Decimal
from pathlib import Path
from typing import Any

import click

from holdem.bots import BOTS
from holdem.clients import (
    Console,
    Histories,
    LocalGame,
    Teller,
    bot_deciders,
    play_cash,
    play_tournament,
    quiet_ctrl_c,
)
from holdem.config import HeadsUpCap, Structure
from holdem.errors import ConfigError
from holdem.protocol.programs import PREFIX, parse_command, secret_seed
from holdem.table import CashGame, Decide, Schedule, TimerRules, Tournament, TurnTimer
from holdem.units import ONE, check_unit, to_chips, unit_text

from .signals import stopped_as_ctrl_c

#: levels ``--bots mix`` draws from, and the names the bots sit under
MIX = ("easy", "normal", "hard")
NAMES = ("Ava", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jun", "Kai")


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


def parse_blinds(text: str, unit: Decimal = ONE, chip: str | None = None) -> tuple[int, int]:
    """SMALL/BIG of ``--blinds`` in chips of ``unit`` (money amounts, ``2.5/5``
    with a chip of 0.5; click's error for anything else, naming ``chip``, the
    option that declares the chip, when a blind is not whole chips)."""
    parts = text.replace(" ", "").split("/")
    if len(parts) != 2 or not all(_AMOUNT.fullmatch(p) for p in parts):
        raise click.BadParameter(
            f"{text!r}: write the blinds as SMALL/BIG, e.g. 1/2", param_hint="'--blinds'"
        )
    try:
        small, big = (to_chips(p, unit) for p in parts)
    except ConfigError as exc:
        hint = ""
        if chip is not None and unit is ONE:
            hint = f": declare the chip, e.g. {chip} {unit_text(_chip_of(parts))}"
        raise click.BadParameter(f"{text!r}: {exc}{hint}", param_hint="'--blinds'") from None
    if not 0 < small <= big:
        raise click.BadParameter(
            f"{text!r}: the small blind must be positive and at most the big blind",
            param_hint="'--blinds'",
        )
    return small, big


#: An amount as typed: digits, with a decimal point.
_AMOUNT = re.compile(r"\d+(?:\.\d+)?")


def _chip_of(amounts: list[str]) -> Decimal:
    """The largest chip that writes every amount whole (``2.5`` and ``5``: 0.5)."""
    values = [Decimal(a) for a in amounts]
    places = max(-v.normalize().as_tuple().exponent for v in values)  # type: ignore[operator]
    scaled = [int(v.scaleb(places)) for v in values]
    return Decimal(math.gcd(*scaled)).scaleb(-places)


def parse_chip(text: str | None) -> Decimal:
    """``--chip``: what one chip is worth (click's error naming the option)."""
    if text is None:
        return ONE
    try:
        return check_unit(text.strip(), "--chip")
    except ConfigError as exc:
        raise click.BadParameter(f"{text!r}: {str(exc).partition(': ')[2]}",
                                 param_hint="'--chip'") from None  # fmt: skip


def cap_options(command: Any) -> Any:
    """The fixed-limit cap's options (R8) of a command that makes a table:
    ``--raise-cap`` and ``--heads-up-cap`` (None when not given)."""
    command = click.option(
        "--heads-up-cap", type=click.Choice([cap.value for cap in HeadsUpCap]), default=None,
        help="Fixed-limit: when two players lift the cap: never (it always applies; a "
        "tournament's default), round_start (in a round that begins with two), two_left "
        "(once two are left; a cash game's default).",
    )(command)  # fmt: skip
    return click.option(
        "--raise-cap", type=click.IntRange(min=0), default=None, metavar="N",
        help="Fixed-limit: raises after the bet in a round (default 3: a bet and three "
        "raises).",
    )(command)  # fmt: skip


def check_cap(structure: str, raise_cap: int | None, heads_up_cap: str | None) -> dict[str, Any]:
    """The cap options given, as a table takes them (a usage error at a table
    that is not fixed-limit: it has no cap)."""
    given = {"raise_cap": raise_cap, "heads_up_cap": heads_up_cap}
    given = {name: value for name, value in given.items() if value is not None}
    if given and structure != Structure.FIXED_LIMIT.value:
        option = "--" + next(iter(given)).replace("_", "-")
        raise click.UsageError(f"{option} is for fixed-limit tables (--structure fixed_limit): "
                               f"a {structure} table has no cap")  # fmt: skip
    return given


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
              show_default=True, help="A freezeout tournament, or a cash game.")  # fmt: skip
@click.option("--structure", type=click.Choice([s.value for s in Structure]),
              default=Structure.NO_LIMIT.value, show_default=True,
              help="Betting structure.")  # fmt: skip
@cap_options
@click.option("--stack", default=None, metavar="AMOUNT",
              help="Starting chips: each player's in a tournament (default 1,500); "
              "the buy-in in a cash game (default 100 big blinds; in the table's money "
              "with --chip).")  # fmt: skip
@click.option("--schedule", default=None, metavar="TEXT",
              help="Tournament blinds, e.g. '10/20, 15/30, 25/50/5' or '@5m, 10/20, 20/40' "
              "(default: 10/20 rising about 25% every 10 hands; docs/tables.md).")  # fmt: skip
@click.option("--blinds", default="1/2", show_default=True, metavar="SMALL/BIG",
              help="Cash game blinds.")  # fmt: skip
@click.option("--chip", default=None, metavar="AMOUNT",
              help="Cash game: what one chip is worth, so that the stakes may be decimals "
              "(--blinds 2.5/5 --chip 0.5: blinds of 5 and 10 chips; default 1). Amounts "
              "are typed and told in the table's money.")  # fmt: skip
@click.option("--run-it-twice", is_flag=True,
              help="Run it twice (R10): where everyone left is all in before the river and "
              "all agree (the bots do; you do unless you type 'twice off'), the rest of the "
              "board is dealt twice, each pot split in halves.")  # fmt: skip
@click.option("--hands", type=click.IntRange(min=1), default=None,
              help="Cash game: end it after this many hands "
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
@click.option("--plain", is_flag=True,
              help="Line mode on a terminal too (what a pipe gets): no full screen.")  # fmt: skip
@click.option("--quiet", is_flag=True,
              help="No bell at your turn (on a terminal: lines, full screen).")  # fmt: skip
@stopped_as_ctrl_c
def play_command(
    seats: int,
    bots: str,
    game: str,
    structure: str,
    raise_cap: int | None,
    heads_up_cap: str | None,
    stack: str | None,
    schedule: str | None,
    blinds: str,
    chip: str | None,
    run_it_twice: bool,
    hands: int | None,
    timer: float | None,
    time_bank: float,
    speed: float,
    seed: int | None,
    name: str,
    histories: str,
    pokerstars: bool,
    color: bool | None,
    plain: bool,
    quiet: bool,
) -> None:
    """Plays Texas Hold'em against bots in the terminal: a freezeout until one
    player has every chip, or a cash game until you quit. Every hand is
    saved as a hand history (PHH) as soon as it ends. On a terminal the
    table is drawn full screen (--plain: lines, as a pipe gets).
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
    if tournament and chip is not None:
        raise click.UsageError("--chip is for cash games (--game cash): a freezeout's chips are "
                               "whole, its blinds follow --schedule")  # fmt: skip
    unit = parse_chip(chip)
    chips = _stack(stack, unit)
    cap = check_cap(structure, raise_cap, heads_up_cap)
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
        event = _new_tournament([name, *names], chips, schedule, structure, cap, turn, rng,
                                twice=run_it_twice)  # fmt: skip
        table = event.table
    else:
        cash, buy_in = _new_cash([name, *names], blinds, chips, hands, structure, cap, turn,
                                 rng, unit, twice=run_it_twice)  # fmt: skip
        table = cash.table
    seeds = [rng.getrandbits(32) for _ in levels]
    console = Console()
    app = None
    local: LocalGame
    if not plain and console.tty and sys.stdout.isatty() and sys.stderr.isatty():
        from holdem.clients.fullscreen import ScreenLocalGame, TableApp  # (Textual: only here)

        app = TableApp(0, seats=seats, quiet=quiet, title="holdem play")
        teller = app.teller
        screen = ScreenLocalGame(app, table, 0, name, speed, turn)
        app.game, local = screen, screen
    else:
        teller = Teller(0, color=color)
        local = LocalGame(table, 0, name, teller, console, speed, turn)
        local.bell = not quiet and sys.stdout.isatty()
    for seat, level in enumerate(levels, 1):
        teller.labels[seat] = "program" if level.startswith(PREFIX) else level
        if app is not None:
            app.model.seat(seat, names[seat - 1], label=teller.labels[seat])
    what = "a freezeout" if tournament else f"a cash game at {blinds}"
    if unit is not ONE:
        what += f" (a chip is {unit_text(unit)})"
    if run_it_twice:
        what += ", run it twice"
    betting = Structure(structure).value.replace("_", " ")
    # with programs at the table, the seed is told once the game is over, and is
    # not in the files' names: nothing a program could read tells it meanwhile
    told = "seed told at the end" if programs else f"seed {seed}"
    teller.say(f"holdem play: {what}, {seats} seats, {betting}, {told}", bold=True)
    teller.say("Type help at your turn for the commands.")
    stem = f"play-{started:%Y%m%d-%H%M%S}" + ("" if programs else f"-seed{seed}")
    with ExitStack() as files:
        if app is None:
            files.enter_context(quiet_ctrl_c(console.fd))
        # (PHH has no pot-limit hold'em: those hands are kept as PokerStars text)
        phh = Structure(structure) is not Structure.POT_LIMIT
        if not phh:
            teller.say("Pot-limit hold'em has no PHH form: the hands go to PokerStars text.")
        saved = Histories(files, Path(histories), stem, phh=phh, pokerstars=pokerstars or not phh)
        deciders = bot_deciders(levels, seeds, names, local, files,
                             Path(histories) / stem, timer or 5.0)  # fmt: skip

        def play() -> None:
            if tournament:
                by_name: dict[str, Decide] = {name: local.decide}
                by_name.update((n, deciders[s]) for s, n in enumerate(names, 1))
                play_tournament(event, local, saved, by_name, levels_by_name, seed, started)
            else:
                play_cash(cash, local, saved, {0: local.decide, **deciders}, buy_in)

        try:
            if app is None:
                play()
            else:
                screen.play = play
                if app.play() == 130:
                    raise KeyboardInterrupt  # (Ctrl-C on the full screen: as in line mode)
        finally:
            if saved.count:
                where = " and ".join(str(p) for p in saved.files)
                teller.say(f"{saved.count} hand{'s' * (saved.count != 1)} saved to {where}")
            if programs:
                teller.say(f"The seed of this game: {seed}")


def _stack(text: str | None, unit: Decimal) -> int | None:
    """``--stack`` in chips of ``unit`` (click's error naming the option)."""
    if text is None:
        return None
    try:
        chips = to_chips(text, unit, "--stack")
    except ConfigError as exc:
        raise click.BadParameter(str(exc).partition(": ")[2], param_hint="'--stack'") from None
    if chips < 1:
        raise click.BadParameter(f"{text!r} is not a stack: at least one chip",
                                 param_hint="'--stack'")  # fmt: skip
    return chips


def _new_tournament(
    players: list[str],
    stack: int | None,
    schedule: str | None,
    structure: str,
    cap: dict[str, Any],
    turn: TurnTimer | None,
    rng: random.Random,
    *,
    twice: bool = False,
) -> Tournament:
    """The freezeout: everybody with ``stack`` chips (default 1,500), the
    fixed-limit ``cap`` options given (:func:`check_cap`); ``twice``: it runs
    it twice (R10)."""
    return Tournament(
        players,
        stack=1500 if stack is None else stack,
        schedule=Schedule.parse(schedule) if schedule is not None else None,
        structure=structure,
        timer=turn,
        rng=rng.getrandbits(64),
        run_it_twice=twice,
        **cap,
    )


def _new_cash(
    players: list[str],
    blinds: str,
    stack: int | None,
    hands: int | None,
    structure: str,
    cap: dict[str, Any],
    turn: TurnTimer | None,
    rng: random.Random,
    unit: Decimal = ONE,
    *,
    twice: bool = False,
) -> tuple[CashGame, int]:
    """The cash table with everybody seated (the player at seat 0 for ``stack``,
    default 100 big blinds; the bots for the table's maximum), and the
    player's buy-in; every amount in chips of ``unit``; ``twice``: it runs it
    twice (R10)."""
    small, big = parse_blinds(blinds, unit, "--chip")
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
        unit=unit,
        run_it_twice=twice,
        **cap,
    )
    buy_in = 100 * big if stack is None else stack
    game.join(0, players[0], buy_in)
    for seat, bot_name in enumerate(players[1:], 1):
        game.join(seat, bot_name, game.max_buy_in)
    return game, buy_in
