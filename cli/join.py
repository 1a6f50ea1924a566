"""``holdem join``: a game at a room server's table in the terminal, against
people and bots (``docs/rooms.md``): the same lines as ``holdem play``, the
turn timer counting down (the game itself: :mod:`holdem.clients.room`)."""

from __future__ import annotations

import json
import os
import sys
from decimal import Decimal
from typing import TYPE_CHECKING, Any

import click

from holdem.bots import BOTS
from holdem.clients import (
    Keyboard,
    RoomClient,
    RoomGame,
    Teller,
    come_back_command,
    end_seat,
    greet,
    keep_seat,
    kept_seats,
    listing,
    lobby_felt,
    play_room,
    seat_key,
    table_fields,
)
from holdem.config import Structure
from holdem.errors import ConfigError, ProtocolError
from holdem.rooms.settings import MOST_HANDS, MOST_PAUSE, MOST_SECONDS, MOST_TIMER
from holdem.units import ONE, to_chips, unit_text

from .engine import parse_address
from .play import cap_options, check_cap, parse_blinds, parse_chip

if TYPE_CHECKING:  # (Textual is imported only to draw)
    from holdem.clients.fullscreen import ScreenRoomGame, TableApp

__all__ = ["join_command"]


class JoinError(click.ClickException):
    """What stops ``holdem join`` before or during the game (a code the server
    does not know, a server that cannot be reached, a connection lost): one
    line, status 2 as bad input has (docs/errors.md)."""

    exit_code = 2


def connect(host: str, port: int, client: str) -> RoomClient:
    """A connection to the room server (``client``: the command's name); one
    that cannot be made stops the command as :class:`JoinError`."""
    try:
        return RoomClient(host, port, name=client)
    except (ConnectionError, TimeoutError) as exc:
        raise JoinError(str(exc)) from None


#: The options that make a table (``--create``), with what each is for:
#: "cash", "tournament", or None for both.
_CREATE_OPTIONS = {
    "game": None, "seats": None, "public": None, "structure": None, "raise_cap": None,
    "heads_up_cap": None, "no_show_after_hand": None, "aggressor_may_muck": None,
    "run_it_twice": None, "chip": "cash", "stack": None,
    "timer": None, "time_bank": None, "pace": None, "pause": None, "bots": None,
    "bot_level": None, "chat": None, "schedule": "tournament", "blinds": "cash", "protect": "cash",
    "hands": "cash", "minutes": "cash", "min_buy_in": "cash", "max_buy_in": "cash",
}  # fmt: skip
#: The ``create_table`` field a refusal names, as its option (the server's
#: limits are the ones that hold: a refusal is said as the option's).
_FIELD_OPTIONS = {
    "seats": "seats", "structure": "structure", "raise_cap": "raise-cap",
    "heads_up_cap": "heads-up-cap", "stack": "stack", "buy_in": "stack",
    "schedule": "schedule", "small_blind": "blinds", "big_blind": "blinds",
    "min_buy_in": "min-buy-in", "max_buy_in": "max-buy-in", "max_hands": "hands",
    "max_seconds": "minutes", "timer.seconds": "timer", "timer.time_bank": "time-bank",
    "pace": "pace", "pause": "pause", "chat": "chat", "unit": "chip",
}  # fmt: skip


def _option(name: str) -> str:
    return "--" + name.replace("_", "-")


def _check_options(ctx: click.Context, create: bool, options: dict[str, Any]) -> None:
    """Refuses a table option without ``--create``, or one for the other game."""
    given = [n for n in _CREATE_OPTIONS
             if ctx.get_parameter_source(n) is not click.core.ParameterSource.DEFAULT]  # fmt: skip
    if not create and given:
        raise click.UsageError(f"{_option(given[0])} is a new table's setting: it goes with "
                               "--create (a table joined has its own)")  # fmt: skip
    game = options["game"]
    for name in given:
        if _CREATE_OPTIONS[name] not in (None, game):
            raise click.UsageError(
                f"{_option(name)} is for a cash table (--game cash)" if game == "tournament"
                else f"{_option(name)} is for a freezeout: a cash table has fixed --blinds"
            )  # fmt: skip
    check_cap(options["structure"], options["raise_cap"], options["heads_up_cap"])
    low, high = options["min_buy_in"], options["max_buy_in"]
    if low is not None and high is not None and low > high:
        raise click.BadParameter(f"{low:,} is more than --max-buy-in {high:,}",
                                 param_hint="'--min-buy-in'")  # fmt: skip
    if options["bots"] > options["seats"] - 1:
        raise click.BadParameter(
            f"{options['bots']} bots, but a table of {options['seats']} seats has "
            f"{options['seats'] - 1} beside yours (--seats)", param_hint="'--bots'",
        )  # fmt: skip


def _create_fields(options: dict[str, Any]) -> dict[str, Any]:
    """The ``create_table`` request of the ``--create`` options."""
    timer: dict[str, Any] = {"seconds": options["timer"]}
    if options["time_bank"] is not None:
        timer["time_bank"] = options["time_bank"]
    if options["protect"]:
        timer["policy"] = "protect"
    fields: dict[str, Any] = {
        "game": options["game"],
        "seats": options["seats"],
        "public": options["public"],
        "structure": options["structure"],
        "timer": timer,
        "pace": options["pace"],
        "pause": options["pause"],
        "chat": options["chat"],
        **check_cap(options["structure"], options["raise_cap"], options["heads_up_cap"]),
    }
    if options["no_show_after_hand"]:
        fields["show_after_hand"] = False
    if options["aggressor_may_muck"]:
        fields["aggressor_may_muck"] = True
    if options["run_it_twice"]:
        fields["run_it_twice"] = True
    stack = options["stack"]
    if options["game"] == "tournament":
        if stack is not None:
            fields["stack"] = stack
        if options["schedule"] is not None:
            fields["schedule"] = options["schedule"]
    else:
        unit = parse_chip(options["chip"])
        small, big = parse_blinds(options["blinds"], unit, "--chip")
        fields.update(small_blind=small, big_blind=big)
        if unit is not ONE:  # (R9: the amounts below are the table's money, sent as chips)
            fields["unit"] = unit_text(unit)
        for name, field in (("stack", "buy_in"), ("min_buy_in", "min_buy_in"),
                            ("max_buy_in", "max_buy_in")):  # fmt: skip
            if options[name] is not None:
                fields[field] = _money(options[name], unit, name)
        if options["hands"] is not None:
            fields["max_hands"] = options["hands"]
        if options["minutes"] is not None:
            fields["max_seconds"] = options["minutes"] * 60
    return fields


def _money(amount: int, unit: Decimal, name: str) -> int:
    """An amount of a ``--create`` option in the table's money, as chips of
    ``unit`` (click's error naming the option when it is not whole chips)."""
    try:
        return to_chips(amount, unit)
    except ConfigError as exc:
        raise click.BadParameter(f"{amount}: {exc}", param_hint=f"'{_option(name)}'") from None


@click.command(
    "join",
    epilog="""\b
Examples:
  holdem join --create --server 127.0.0.1:7777 --name Ann      a private freezeout
  holdem join 7KQM-X2TP --server 192.168.1.20:7777 --name Ben   a friend's table
  holdem join --create --game cash --blinds 5/10 --public --server HOST:PORT
  holdem join --create --bots 3 --bot-level hard --stack 3000 --timer 20 --time-bank 60
  holdem join --create --game cash --blinds 1/2 --max-buy-in 400 --hands 100 --protect
  holdem join --list --server HOST:PORT                        the public tables
  holdem join t3 --server HOST:PORT                            a public table, by its id
  holdem join --create --chat everyone                         spectators chat too
  holdem join --create --game cash --chip 0.5 --blinds 2.5/5 --run-it-twice
\b
In the lobby the creator types 'bots 4 hard' and 'start'. At your turn:
f (fold), k (check), c (call), b 300, r 900, a (all in), help, quit.
At any time: 'say gl all' (the table's chat), 'mute Ben', 'unmute Ben',
'history' (your hands here to holdem-TABLE.phhs; 'history FILE --format
pokerstars'), 'sitout', 'back', 'twice off' (no to running it twice).
Your seat is remembered (by server, code and name): 'holdem join CODE
--server HOST:PORT --name NAME' takes you back to it; --create makes a new
table.
""",
)
@click.argument("code", required=False)
@click.option("--list", "listing_", is_flag=True,
              help="Print the server's public tables (id, game, stakes, seats, hands) and "
              "exit.")  # fmt: skip
@click.option("--json", "as_json", is_flag=True, help="With --list: the tables as JSON.")
@click.option("--server", "address", metavar="HOST:PORT", default="127.0.0.1:7777",
              show_default=True, help="The room server.")  # fmt: skip
@click.option("--name", default=None, help="Your name at the table (default: your login).")
@click.option("--create", is_flag=True, help="Make a new table (you are its creator).")
@click.option("--game", type=click.Choice(["tournament", "cash"]), default="tournament",
              show_default=True, help="With --create: a freezeout or a cash table.")  # fmt: skip
@click.option("--seats", type=click.IntRange(2, 10), default=6, show_default=True,
              help="With --create: the table's seats.")  # fmt: skip
@click.option("--structure", type=click.Choice([s.value for s in Structure]),
              default=Structure.NO_LIMIT.value, show_default=True,
              help="With --create: the betting structure.")  # fmt: skip
@cap_options
@click.option("--stack", type=click.IntRange(min=1), default=None,
              help="With --create: a tournament's stack (1,500), a cash buy-in (yours: the "
              "maximum buy-in).")  # fmt: skip
@click.option("--schedule", default=None, metavar="TEXT",
              help="With --create: a tournament's blinds by hands, e.g. '@5h, 10/20, 20/40, "
              "50/100' (default 10/20 rising every 10 hands).")  # fmt: skip
@click.option("--blinds", default="1/2", show_default=True, metavar="SMALL/BIG",
              help="With --create --game cash: the blinds (2.5/5 with --chip 0.5).")  # fmt: skip
@click.option("--chip", default=None, metavar="AMOUNT",
              help="With --create --game cash: what one chip is worth (R9), for stakes "
              "with decimals: --chip 0.5 --blinds 2.5/5; --blinds, --stack and the buy-ins "
              "are then in that money (default 1).")  # fmt: skip
@click.option("--min-buy-in", type=click.IntRange(min=1), default=None,
              help="With --create --game cash: the smallest buy-in (40 big blinds).")  # fmt: skip
@click.option("--max-buy-in", type=click.IntRange(min=1), default=None,
              help="With --create --game cash: the largest buy-in, and the most a stack "
              "is topped up to (100 big blinds).")  # fmt: skip
@click.option("--hands", type=click.IntRange(1, MOST_HANDS), default=None,
              help="With --create --game cash: the session ends after N hands.")  # fmt: skip
@click.option("--minutes", type=click.FloatRange(0, MOST_SECONDS / 60, min_open=True), default=None,
              help="With --create --game cash: the session ends after the hand being played "
              "when these minutes (from the first hand) are up.")  # fmt: skip
@click.option("--public", is_flag=True, help="With --create: list the table for anyone.")
@click.option("--no-show-after-hand", is_flag=True,
              help="With --create: players may not show their cards after the hand (by "
              "default one who folded or won uncontested may: R10).")  # fmt: skip
@click.option("--aggressor-may-muck", is_flag=True,
              help="With --create: the last to bet or raise on the river, once called, may "
              "muck (by default they show first: R10).")  # fmt: skip
@click.option("--run-it-twice", is_flag=True,
              help="With --create: run it twice (R10): where every player left is all in "
              "before the river and all agree (each does unless they type 'twice off'), "
              "the rest of the board is dealt twice, each pot split in halves.")  # fmt: skip
@click.option("--timer", type=click.FloatRange(0, MOST_TIMER, min_open=True), default=30.0,
              show_default=True,
              metavar="SECONDS", help="With --create: seconds a decision.")  # fmt: skip
@click.option("--time-bank", type=click.FloatRange(0, MOST_TIMER), default=None, metavar="SECONDS",
              help="With --create: each player's extra seconds, spent when a decision runs "
              "over (30).")  # fmt: skip
@click.option("--protect", is_flag=True,
              help="With --create --game cash: disconnect protection: a player out of time "
              "is all in for what they put in, twice in any 24 hours (R13), not "
              "folded.")  # fmt: skip
@click.option("--bots", type=click.IntRange(0, 9), default=0,
              help="With --create: fill this many seats with bots at once.")  # fmt: skip
@click.option("--bot-level", type=click.Choice(list(BOTS)), default="normal", show_default=True,
              help="With --create --bots: the bots' level.")  # fmt: skip
@click.option("--pace", type=click.FloatRange(0, MOST_PAUSE), default=1.0, show_default=True,
              metavar="SECONDS", help="With --create: the bots' pause a move.")  # fmt: skip
@click.option("--pause", type=click.FloatRange(0, MOST_PAUSE), default=3.0, show_default=True,
              metavar="SECONDS", help="With --create: the pause between hands.")  # fmt: skip
@click.option("--chat", type=click.Choice(["players", "everyone", "off"]), default="players",
              show_default=True,
              help="With --create: who writes in the table's chat (everyone: spectators "
              "too; off: nobody).")  # fmt: skip
@click.option("--take-over", is_flag=True,
              help="Take your seat over when another client of yours is connected to it "
              "(that one stops; on a terminal you are asked).")  # fmt: skip
@click.option("--quiet", is_flag=True, help="No bell at your turn (it rings on a terminal).")
@click.option("--plain", is_flag=True,
              help="Line mode on a terminal too (what a pipe gets): no full screen.")  # fmt: skip
@click.option("--color/--no-color", default=None, help="Colours (default: on a terminal).")
def join_command(
    code: str | None,
    address: str,
    name: str | None,
    create: bool,
    listing_: bool,
    as_json: bool,
    take_over: bool,
    quiet: bool,
    plain: bool,
    color: bool | None,
    **options: Any,
) -> None:
    """Plays at a table of a room server (holdem serve) in the terminal: makes
    one with --create (and prints its join code for your friends), or joins
    one by its CODE (a join code, or a public table's id: t3; --list lists
    them). A dropped connection can be taken up again: holdem join
    CODE with the same --server and --name (the command it prints) takes you
    back to your seat. On a terminal the table is drawn full screen (--plain:
    lines, as a pipe gets)."""
    host, port = parse_address(address)
    if listing_:
        if create or code is not None:
            raise click.UsageError("--list prints the public tables: it takes no CODE or --create")
        _list_tables(host, port, address, as_json=as_json)
        return
    if as_json:
        raise click.UsageError("--json goes with --list")
    if create == (code is not None):
        raise click.UsageError("give a table's CODE to join it, or --create to make one")
    _check_options(click.get_current_context(), create, options)
    fields = _create_fields(options) if create else {}  # (refused before connecting)
    name = (name or os.environ.get("USER") or "Player").strip()
    keyboard = Keyboard()
    teller = Teller(None, color=color)
    client = connect(host, port, "holdem join")
    with client:
        try:
            ask = keyboard.tty and not take_over
            joined, key = _enter(client, address, code, name, create, fields,
                                 take_over=take_over, ask=ask)  # fmt: skip
            if create and options["bots"]:
                client.request("add_bots", table=joined["table"], level=options["bot_level"],
                               count=options["bots"])  # fmt: skip
        except ProtocolError as exc:
            if create and exc.field in _FIELD_OPTIONS:  # (a setting the server refuses)
                hint = f"'--{_FIELD_OPTIONS[exc.field]}'"
                chips = f" (in chips of {fields['unit']})" if "unit" in fields else ""
                raise click.BadParameter(f"{exc}{chips}", param_hint=hint) from None
            raise JoinError(f"{exc.code}: {exc}") from None
        except (ConnectionError, TimeoutError) as exc:
            raise JoinError(str(exc)) from None
        app = None
        if not plain and keyboard.tty and sys.stdout.isatty() and sys.stderr.isatty():
            from holdem.clients.fullscreen import ScreenRoomGame, TableApp  # (Textual: only here)

            app = TableApp(joined["seat"], seats=joined["state"]["max_seats"], quiet=quiet,
                           title="holdem join")  # fmt: skip
            session: RoomGame = ScreenRoomGame(client, joined, app.teller, key)
        else:
            session = RoomGame(client, joined, teller, key)
            session.keyboard = keyboard if keyboard.tty else None
            session.bell = not quiet and sys.stdout.isatty()
        session.remember()
        table_code = code or joined["code"]
        again = come_back_command(address, table_code, session.name)
        greet(session, joined, address, create, again)
        try:
            if app is None:
                with keyboard.raw():
                    play_room(session, keyboard)
            else:
                assert isinstance(session, ScreenRoomGame)
                waiting = lobby_felt(joined, address) if create else ""
                full_screen(app, session, joined["state"], waiting)
        except (ConnectionError, TimeoutError) as exc:
            raise JoinError(f"{exc} (to come back to your seat: {again})") from None
    if session.replaced:
        raise click.exceptions.Exit(1)  # (the seat is the other client's now: kept)
    if session.over and not session.leaving:
        end_seat(key)  # (its token kept to read the seat's hands: holdem history)


def full_screen(app: TableApp, game: ScreenRoomGame, state: dict[str, Any],
                 waiting: str = "") -> None:  # fmt: skip
    """Plays (or watches) ``game`` on the full screen ``app`` until the player
    leaves: Ctrl-C as in line mode, a lost connection raised."""
    if not waiting and state.get("hand"):  # (come in during a hand: drawn from the next)
        waiting = "A hand is under way: the table is drawn from the next one."
    game.show(app, state, waiting)
    if app.play() == 130:
        raise KeyboardInterrupt  # (Ctrl-C on the full screen: as in line mode)
    if game.error is not None:
        raise game.error


def _list_tables(host: str, port: int, address: str, *, as_json: bool) -> None:
    """Prints the server's public tables (``--list``)."""
    try:
        with RoomClient(host, port, name="holdem join") as client:
            tables = client.request("list_tables")["tables"]
    except ProtocolError as exc:
        raise JoinError(f"{exc.code}: {exc}") from None
    except (ConnectionError, TimeoutError) as exc:
        raise JoinError(str(exc)) from None
    if as_json:
        click.echo(json.dumps({"server": address, "tables": tables}, indent=1))
        return
    for line in listing(tables, address):
        click.echo(line)


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
    kept = kept_seats().get(key)
    if isinstance(kept, dict) and isinstance(kept.get("token"), str) and not kept.get("ended"):
        try:
            back = _resume(client, kept["token"], code, name, take_over=take_over, ask=ask)
            back["creator"] = back["state"].get("creator") == back["seat"]
            return back, key
        except ProtocolError as exc:
            if exc.code not in ("token_expired", "unknown_token"):
                raise
            if exc.code == "token_expired":
                end_seat(key)  # (the seat is over: its token may still read its hands)
            else:
                keep_seat(key, None)  # (a token the server does not know reads nothing)
    joined = client.request("join", **table_fields(code), name=name)
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
