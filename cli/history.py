"""``holdem history``: the hands a player played at a room server's table,
written as PHH or PokerStars text, read with the seat's token that ``holdem
join`` remembered (``docs/rooms.md``, "Your hands"): while the seat is
played, after its player left, after the table finished."""

from __future__ import annotations

import json
import os
from typing import Any

import click

from holdem.clients import RoomClient, kept_seats, reading_tokens, seat_key, seats_file
from holdem.clients.hands import FORMS, YourHands, read_hands
from holdem.errors import ProtocolError

from .convert import STDIO, _check_output, _safe_output
from .engine import parse_address
from .join import JoinError

__all__ = ["history_command"]


@click.command(
    "history",
    epilog="""\b
Examples:
  holdem history 7KQM-X2TP --server 192.168.1.20:7777 --name Ann
                                           your hands there, PHH, to standard output
  holdem history t3 --server HOST:PORT -o t3.phhs
  holdem history t3 --server HOST:PORT --format pokerstars -o t3.txt
  holdem history t3 --server HOST:PORT --json    the hands listed, and the text
\b
The seat is the one holdem join remembered for that server, table and name
(~/.config/holdem/seats.json), also after you left or the table finished.
The hands hold your hole cards and the cards that were shown, never
another's that were not. Exit status: 0 written (or none finished yet), 2
no seat remembered, a server that cannot be reached or refuses, a file
that cannot be written.
""",
)
@click.argument("code")
@click.option("--server", "address", metavar="HOST:PORT", default="127.0.0.1:7777",
              show_default=True, help="The room server.")  # fmt: skip
@click.option("--name", default=None,
              help="Your name at the table (default: your login), as you joined.")  # fmt: skip
@click.option("--format", "form", type=click.Choice(sorted(FORMS)), default="phh",
              show_default=True, help="PHH, or PokerStars text.")  # fmt: skip
@click.option("--output", "-o", type=click.Path(dir_okay=False, allow_dash=True), default=STDIO,
              help="Where to write (default: standard output).")  # fmt: skip
@click.option("--force", "-f", is_flag=True, help="Replace OUTPUT if it exists.")
@click.option("--json", "as_json", is_flag=True,
              help="Print the hands as JSON (each hand, when it finished, your net; the text "
              "too unless -o has it).")  # fmt: skip
def history_command(code: str, address: str, name: str | None, form: str, output: str,
                    force: bool, as_json: bool) -> None:  # fmt: skip
    """Writes the hands you played at a table of a room server (holdem serve):
    CODE is the table's join code, or a public table's id, as you gave it to
    holdem join. Read with your seat's token, which holdem join kept."""
    host, port = parse_address(address)
    name = (name or os.environ.get("USER") or "Player").strip()
    tokens = reading_tokens(kept_seats().get(seat_key(address, code, name)))
    if not tokens:
        raise click.UsageError(_no_seat(address, code, name))
    if output != STDIO:
        _check_output(STDIO, output, force)
    try:
        with RoomClient(host, port, name="holdem history") as client:
            yours = read_hands(client, form, tokens=tokens)
    except ProtocolError as exc:
        raise JoinError(f"{exc.code}: {exc}") from None
    except (ConnectionError, TimeoutError) as exc:
        raise JoinError(str(exc)) from None
    count = len(yours.hands)
    said = (f"{count:,} hand{'s' * (count != 1)} of {name} at table {yours.table} on "
            f"{address}")  # fmt: skip
    if count and not (as_json and output == STDIO):  # (--json alone: the text in it)
        with _safe_output(output) as sink:
            sink.out.write(yours.text)
    if as_json:
        click.echo(json.dumps(_as_json(yours, address, code, name, output), indent=1))
    elif not count:
        click.echo(f"holdem history: no hand of {name} at table {yours.table} on {address} has "
                   "finished yet: nothing written", err=True)  # fmt: skip
    elif output != STDIO:
        click.echo(f"{said} written to {output} ({'PHH' if form == 'phh' else 'PokerStars'})")
    else:
        click.echo(f"holdem history: {said}", err=True)


def _as_json(yours: YourHands, address: str, code: str, name: str,
             output: str) -> dict[str, Any]:  # fmt: skip
    """What ``--json`` prints: the table, the seat, the hands listed (each
    ``hand``, ``finished``, ``net``), and the text unless a file has it."""
    out: dict[str, Any] = {
        "server": address, "code": code, "table": yours.table, "name": name,
        "seat": yours.seat, "format": yours.form, "hands": list(yours.hands),
    }  # fmt: skip
    if output != STDIO:
        out["output"] = output if yours.hands else None
    else:
        out["text"] = yours.text
    return out


def _no_seat(address: str, code: str, name: str) -> str:
    """Why no seat is remembered, and what to pass: the names and tables kept
    for that server."""
    here = [key.removeprefix(f"{address}/") for key in kept_seats()
            if key.startswith(f"{address}/")]  # fmt: skip
    kept = ", ".join(f"{t} --name {n}" for t, _, n in (k.partition("/") for k in sorted(here)))
    known = f"; remembered there: {kept}" if kept else f"; none is remembered for {address}"
    return (f"no seat of {name} at table {code} on {address} is remembered in {seats_file()} "
            f"(holdem join keeps it): pass the CODE, --server and --name you joined with"
            f"{known}")  # fmt: skip
