"""``holdem serve``: a room server where people and bots play at shared
tables over the network (``docs/rooms.md``)."""

from __future__ import annotations

import asyncio
import dataclasses
import datetime
import sqlite3
from collections import Counter
from pathlib import Path
from typing import Any

import click

from holdem.config import Structure
from holdem.errors import HistoryFormatError, HoldemError, ListenError
from holdem.histories import PhhWriter, PokerStarsWriter, date_fields, record
from holdem.rooms import Limits, Room, Store, hand_of, serve, serve_workers, table_number
from holdem.rooms.handover import supported

from .engine import parse_address

__all__ = ["serve_command"]

#: The file of a room's data in its folder.
DATA_FILE = "room.sqlite"
_DEFAULTS = Limits()


def _open_store(data: str) -> Store:
    folder = Path(data)
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)  # (made: its owner's alone)
        return Store(folder / DATA_FILE)
    except (OSError, sqlite3.Error, ValueError) as exc:
        raise click.BadParameter(f"{data}: {exc}", param_hint="'--data'") from None


def _export(store: Store, out: Path, pokerstars: bool) -> tuple[int, Counter[str]]:
    """Every stored hand, to ``out`` (PHH, or PokerStars text): how many were
    written, and how many the form cannot hold, by why (PHH has no pot-limit
    hold'em, no history a protected timeout).  The file appears whole or not
    at all."""
    written = 0
    skipped: Counter[str] = Counter()
    part = out.with_name(f".{out.name}.part")
    try:
        with part.open("w", encoding="utf-8") as stream:
            writer: PhhWriter | PokerStarsWriter = (
                PokerStarsWriter(stream) if pokerstars else PhhWriter(stream, many=True)
            )
            rows = {row.id: row for row in store.tables()}
            for stored in store.hands():
                hand = hand_of(stored.record)
                if not pokerstars and hand.config.structure is Structure.POT_LIMIT:
                    skipped["PHH cannot hold pot-limit hold'em (--pokerstars writes them)"] += 1
                    continue
                row = rows.get(stored.table)
                finished = datetime.datetime.fromtimestamp(stored.finished, datetime.UTC)
                fields: dict[str, Any] = {"table": stored.table, **date_fields(finished)}
                if row is not None and isinstance(row.settings.get("seats"), int):
                    fields["seat_count"] = row.settings["seats"]
                tournament = row is not None and row.game == "tournament"
                if tournament:  # (its number: the table's)
                    fields["tournament_id"] = str(table_number(stored.table))
                try:
                    writer.write(record(hand, hand_id=stored.hand_id, tournament=tournament,
                                        fields=fields))  # fmt: skip
                except HoldemError as exc:  # (nothing of the hand written)
                    skipped[exc.reason if isinstance(exc, HistoryFormatError) else str(exc)] += 1
                    continue
                written += 1
        part.replace(out)
    finally:
        part.unlink(missing_ok=True)
    return written, skipped


@click.command(
    "serve",
    epilog="""\b
Examples:
  holdem serve                               on 127.0.0.1:7777, data in ./holdem-room
  holdem serve --listen 0.0.0.0:7777         friends on other machines can join
  holdem serve --data ~/poker/room --max-tables 20
  holdem serve --data ~/poker/room --export hands.phhs
  holdem serve --listen 0.0.0.0:7777 --workers 2   a busy server, on 2 CPUs
\b
Then: holdem join --create --server HOST:7777 (prints a join code), and
friends: holdem join CODE --server HOST:7777. See docs/rooms.md.
""",
)
@click.option("--listen", metavar="HOST:PORT", default="127.0.0.1:7777", show_default=True,
              help="Where to listen (0.0.0.0:PORT: every interface; port 0: any free port, "
              "printed).")  # fmt: skip
@click.option("--data", metavar="DIR", default="holdem-room", show_default=True,
              help=f"Folder of the room's data ({DATA_FILE}: tables, seats, every hand); "
              "a server started again resumes its tables.")  # fmt: skip
@click.option("--max-connections", type=click.IntRange(1), default=_DEFAULTS.connections,
              show_default=True, help="Connections at once.")  # fmt: skip
@click.option("--max-per-address", type=click.IntRange(1),
              default=_DEFAULTS.connections_per_address, show_default=True,
              help="Connections at once from one address.")  # fmt: skip
@click.option("--max-tables", type=click.IntRange(1), default=_DEFAULTS.tables, show_default=True,
              help="Tables being played or waiting, at once.")  # fmt: skip
@click.option("--tables-per-address", type=click.IntRange(1), default=_DEFAULTS.tables_per_address,
              show_default=True, help="Such tables made from one address.")  # fmt: skip
@click.option("--rate", type=click.FloatRange(min=1), default=_DEFAULTS.lines_per_second,
              show_default=True, help="Lines a connection may send a second.")  # fmt: skip
@click.option("--max-queue", type=click.IntRange(min=1024), default=_DEFAULTS.queue_bytes,
              show_default=True, metavar="BYTES",
              help="Bytes waiting to be sent to a connection before it is closed "
              "(a client that does not read).")  # fmt: skip
@click.option(
    "--export",
    "export",
    type=click.Path(dir_okay=False),
    default=None,
    metavar="FILE",
    help="Write every stored hand to FILE as PHH, then exit.",
)
@click.option("--pokerstars", is_flag=True, help="With --export: PokerStars text instead.")
@click.option("--workers", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Processes that share the tables out, on one port and one data file: "
              "for a busy server, one per CPU (one process serves on one CPU).")  # fmt: skip
def serve_command(
    listen: str,
    data: str,
    max_connections: int,
    max_per_address: int,
    max_tables: int,
    tables_per_address: int,
    rate: float,
    max_queue: int,
    export: str | None,
    pokerstars: bool,
    workers: int,
) -> None:
    """Serves a room: people create private tables and share their join codes,
    friends join by code, bots fill the empty seats, and the game runs to the
    end; public tables take anyone. Every finished hand is kept, and a server
    started again resumes each table at the start of the hand it was playing.
    """
    store = _open_store(data)
    try:
        if export is not None:
            path = Path(export)
            if path.exists():
                raise click.BadParameter(f"{export} exists: give a new file",
                                         param_hint="'--export'")  # fmt: skip
            count, skipped = _export(store, path, pokerstars)
            click.echo(f"{count} hand{'s' * (count != 1)} written to {export}")
            for why, left in sorted(skipped.items()):
                click.echo(f"{left} hand{'s' * (left != 1)} left out: {why}", err=True)
            return
        limits = dataclasses.replace(
            Limits(), connections=max_connections, connections_per_address=max_per_address,
            tables=max_tables, tables_per_address=tables_per_address, lines_per_second=rate,
            burst=max(int(2 * rate), 1), queue_bytes=max_queue,
        )  # fmt: skip
        host, port = parse_address(listen)
        if workers > 1:
            store.close()  # (each worker opens its own: no connection crosses a fork)
            _serve_workers(data, host, port, workers, limits)
            return
        room = Room(store, limits=limits)
        resumed = len(room.tables)

        def ready(bound: int) -> None:
            _listening(host, bound, data, resumed)

        try:
            asyncio.run(serve(room, host, port, ready=ready))
        except ListenError as exc:  # (the port taken, or not this machine's address)
            raise click.BadParameter(str(exc), param_hint="'--listen'") from None
    finally:
        store.close()


def _serve_workers(data: str, host: str, port: int, workers: int, limits: Limits) -> None:
    """The room served by ``workers`` processes (``--workers``)."""
    why = supported()
    if why is not None:
        raise click.BadParameter(f"{workers}: {why} (only --workers 1 here)",
                                 param_hint="'--workers'")  # fmt: skip

    def ready(bound: int, resumed: int) -> None:
        _listening(host, bound, data, resumed, workers)

    def log(line: str) -> None:
        click.echo(f"holdem serve: {line}", err=True)

    try:
        serve_workers(Path(data) / DATA_FILE, host, port, workers=workers, limits=limits,
                      ready=ready, log=log)  # fmt: skip
    except ListenError as exc:
        raise click.BadParameter(str(exc), param_hint="'--listen'") from None
    except RuntimeError as exc:
        raise click.ClickException(str(exc)) from None


def _listening(host: str, bound: int, data: str, resumed: int, workers: int = 1) -> None:
    """The line that says the server is ready (tests and the benchmark read it)."""
    again = f", {resumed} table{'s' * (resumed != 1)} resumed" if resumed else ""
    processes = f", {workers} workers" if workers > 1 else ""
    click.echo(f"holdem serve: listening on {host}:{bound}, data in "
               f"{Path(data) / DATA_FILE}{again}{processes}", err=True)  # fmt: skip
