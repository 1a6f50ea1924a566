"""``holdem join``: a game at a room server's table in the terminal, against
people and bots (``docs/rooms.md``): the same lines as ``holdem play``, the
turn timer counting down (the game itself: :mod:`holdem.clients.room`)."""

from __future__ import annotations

import os
from typing import Any

import click

from holdem.clients import (
    Keyboard,
    RoomClient,
    RoomGame,
    Teller,
    come_back_command,
    greet,
    keep_seat,
    kept_seats,
    play_room,
    seat_key,
)
from holdem.errors import ProtocolError

from .engine import parse_address
from .play import parse_blinds

__all__ = ["join_command"]


class JoinError(click.ClickException):
    """What stops ``holdem join`` before or during the game (a code the server
    does not know, a server that cannot be reached, a connection lost): one
    line, status 2 as bad input has (docs/errors.md)."""

    exit_code = 2


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
    keyboard = Keyboard()
    teller = Teller(None, color=color)
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
        session = RoomGame(client, joined, teller, key)
        session.keyboard = keyboard if keyboard.tty else None
        session.remember()
        again = come_back_command(address, code or joined["code"], session.name)
        greet(session, joined, address, create, again)
        try:
            with keyboard.raw():
                play_room(session, keyboard)
        except (ConnectionError, TimeoutError) as exc:
            raise JoinError(f"{exc} (to come back to your seat: {again})") from None
    if session.replaced:
        raise click.exceptions.Exit(1)  # (the seat is the other client's now: kept)
    if session.over and not session.leaving:
        keep_seat(key, None)


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
    if isinstance(kept, dict) and isinstance(kept.get("token"), str):
        try:
            back = _resume(client, kept["token"], code, name, take_over=take_over, ask=ask)
            back["creator"] = back["state"].get("creator") == back["seat"]
            return back, key
        except ProtocolError as exc:
            if exc.code not in ("token_expired", "unknown_token"):
                raise
            keep_seat(key, None)
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
