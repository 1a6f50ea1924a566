"""``holdem serve``: a room server where people and bots play at shared
tables over the network (``docs/rooms.md``)."""

from __future__ import annotations

import asyncio
import dataclasses
import datetime
import ipaddress
import json
import re
import sqlite3
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import click

from holdem.config import Structure
from holdem.errors import HistoryFormatError, HoldemError, ListenError, StoreError
from holdem.histories import PhhWriter, PokerStarsWriter, date_fields, record
from holdem.rooms import Limits, Room, Store, serve, serve_workers, table_number
from holdem.rooms.handover import supported
from holdem.rooms.lobby import check, set_aside
from holdem.rooms.site import Site
from holdem.rooms.store import Damage, passing, replay

from .engine import parse_address

__all__ = ["serve_command"]

#: The file of a room's data in its folder.
DATA_FILE = "room.sqlite"
#: The exit status of ``--check`` and ``--export`` when the file is damaged.
EXIT_DAMAGED = 1
_DEFAULTS = Limits()


def _open_store(data: str, *, read_only: bool = False) -> Store:
    """The store of the data folder ``data``: checked (a damaged file, or
    another program's, refused: ``'--data': ...``, exit status 2), made if
    new (the folder too); ``read_only``: an existing one read as it is."""
    folder = Path(data)
    try:
        if read_only:
            if not (folder / DATA_FILE).is_file():
                raise StoreError(f"no room data here ({DATA_FILE})")
            return Store(folder / DATA_FILE, read_only=True)
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)  # (made: its owner's alone)
        return Store(folder / DATA_FILE)
    except StoreError as exc:  # (it names the file)
        where = "" if str(exc).startswith(str(folder / DATA_FILE)) else f"{data}: "
        raise click.BadParameter(f"{where}{exc}", param_hint="'--data'") from None
    except (OSError, sqlite3.Error, ValueError) as exc:
        raise click.BadParameter(f"{data}: {exc}", param_hint="'--data'") from None


def _export(store: Store, out: Path, pokerstars: bool) -> tuple[int, Counter[str], list[Damage]]:
    """Every stored hand, to ``out`` (PHH, or PokerStars text): how many were
    written, how many the form cannot hold, by why (PHH has no pot-limit
    hold'em, no history a protected timeout), and those the file could not
    give (damaged: the others are written).  A PHH hand holds its table's
    chat of its time (``_chat``: what was said while it was played and
    until the next began; the first, what was said before it too).  The
    file appears whole or not at all."""
    written = 0
    skipped: Counter[str] = Counter()
    unread: list[Damage] = []
    chat: dict[int, list[list[str]]] = {}  # (by hand: the lines of one table's)
    chat_of = ""  # (that table)
    part = out.with_name(f".{out.name}.part")
    try:
        rows = {row.id: row for row in store.tables()}
    except sqlite3.DatabaseError:  # (each hand says so below)
        rows = {}
    try:
        with part.open("w", encoding="utf-8") as stream:
            writer: PhhWriter | PokerStarsWriter = (
                PokerStarsWriter(stream) if pokerstars else PhhWriter(stream, many=True)
            )
            for stored in store.read_hands():
                if isinstance(stored, Damage):
                    unread.append(stored)
                    continue
                hand = replay(stored)
                row = rows.get(stored.table)
                if row is None:  # (a cash game or a tournament? the header cannot say)
                    hand = Damage("its table's row cannot be read", stored.table, stored.number)
                if isinstance(hand, Damage):
                    unread.append(hand)
                    continue
                assert row is not None
                if not pokerstars and hand.config.structure is Structure.POT_LIMIT:
                    skipped["PHH cannot hold pot-limit hold'em (--pokerstars writes them)"] += 1
                    continue
                finished = datetime.datetime.fromtimestamp(stored.finished, datetime.UTC)
                fields: dict[str, Any] = {"table": stored.table, **date_fields(finished)}
                if isinstance(row.settings.get("seats"), int):
                    fields["seat_count"] = row.settings["seats"]
                tournament = row.game == "tournament"
                if tournament:  # (its number: the table's)
                    fields["tournament_id"] = str(table_number(stored.table))
                if not pokerstars:  # (PokerStars text: no place for it here)
                    if stored.table != chat_of:
                        chat_of, chat = stored.table, _chat_by_hand(store, stored.table, unread)
                        chat[stored.number] = chat.pop(0, []) + chat.get(stored.number, [])
                    said = chat.pop(stored.number, [])
                    if said:
                        fields["chat"] = said
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
    return written, skipped, unread


def _chat_by_hand(store: Store, ident: str, unread: list[Damage]) -> dict[int, list[list[str]]]:
    """A table's chat, ``[name, text]`` by hand (a chat the file cannot give
    is said in ``unread``)."""
    by_hand: dict[int, list[list[str]]] = {}
    try:
        lines = store.chat(ident)
    except sqlite3.DatabaseError as exc:
        unread.append(Damage(f"its chat cannot be read (its hands are written without it): "
                             f"{exc}", ident))  # fmt: skip
        return by_hand
    for line in lines:
        by_hand.setdefault(line.hand, []).append([line.name, line.text])
    return by_hand


def _check(data: str, as_json: bool) -> None:
    """``--check``: what of the data file a server could not read, a line
    each, and a summary (exit status 1: damaged)."""
    store = _open_store(data, read_only=True)
    path = Path(data) / DATA_FILE
    try:
        try:
            count = store.hand_count()
        except sqlite3.DatabaseError:  # (the check says why)
            count = 0
        show = not as_json and sys.stderr.isatty() and count > 0
        with click.progressbar(length=max(count, 1), label="checking", file=sys.stderr,
                               hidden=not show, show_pos=True) as bar:  # fmt: skip
            found = check(store, progress=bar.update)
    finally:
        store.close()
    damage = found.damage
    if as_json:
        click.echo(json.dumps({"file": str(path), "sound": not damage, "tables": found.tables,
                               "hands": found.hands,
                               "problems": [d.to_dict() for d in damage]}))  # fmt: skip
    else:
        for each in damage:
            click.echo(f"{path}: {each}")
        read = (f"{found.tables} table{'s' * (found.tables != 1)}, "
                f"{found.hands} hand{'s' * (found.hands != 1)}")  # fmt: skip
        if not damage:
            click.echo(f"{path}: sound: {read}")
        else:
            kinds = Counter("the file" if d.table is None else "table" if d.hand is None
                            else "hand" for d in damage)  # fmt: skip
            parts = ", ".join(
                f"{kinds[kind]} in the file" if kind == "the file"
                else f"{kinds[kind]} {kind}{'s' * (kinds[kind] != 1)}"
                for kind in ("the file", "table", "hand") if kinds[kind]
            )  # fmt: skip
            click.echo(f"{path}: DAMAGED: {len(damage)} problem{'s' * (len(damage) != 1)} "
                       f"({parts}); {read} read")  # fmt: skip
    if damage:
        sys.exit(EXIT_DAMAGED)


def _reset_protection(data: str, name: str) -> None:
    """``--reset-protection NAME``: the player's disconnect protections (R13)
    counted from none again at every table, written to the data file at once
    (a server serving it counts so from the player's next timeout)."""
    name = name.strip()
    if not name or len(name) > 40 or not name.isprintable():
        raise click.BadParameter(f"{name!r}: a player's name, 1 to 40 printable characters as "
                                 "typed at the table",
                                 param_hint="'--reset-protection'")  # fmt: skip
    path = Path(data) / DATA_FILE
    if not path.is_file():
        raise click.BadParameter(f"{data}: no room data here ({DATA_FILE})", param_hint="'--data'")
    store = _open_store(data)
    try:
        try:
            store.reset_protections(name)
            tables = store.seated(name)
        except sqlite3.Error as exc:
            raise click.ClickException(f"{path}: cannot be written now ({exc}): nothing "
                                       "was reset; try again") from None  # fmt: skip
    finally:
        _close(store)
    where = f"has a seat at {', '.join(tables)}" if tables else "has no seat at a table now"
    click.echo(f"{name}'s disconnect protections count from none again at every table of "
               f"{path} ({name} {where}); a server serving it counts so from their next "
               "timeout")  # fmt: skip


@click.command(
    "serve",
    epilog="""\b
Examples:
  holdem serve                               on 127.0.0.1:7777, data in ./holdem-room
  holdem serve --listen 0.0.0.0:7777         friends on other machines can join
  holdem serve --data ~/poker/room --max-tables 20
  holdem serve --data ~/poker/room --export hands.phhs
  holdem serve --data ~/poker/room --check   is the data file sound?
  holdem serve --data ~/poker/room --reset-protection Ann   two protections again
  holdem serve --listen 0.0.0.0:7777 --workers 2   a busy server, on 2 CPUs
  holdem serve --listen 0.0.0.0:7777 --web 0.0.0.0:8080   friends play in a browser
\b
Then: holdem join --create --server HOST:7777 (prints a join code and, with
--web, a link), and friends: holdem join CODE --server HOST:7777, or the
link in a browser. See docs/rooms.md.
\b
Exit status: 0 done, 1 a damaged data file (--check; --export wrote the
hands it could read), 2 bad input (a data file that is damaged or not a
room's is refused at start), 130 interrupted.
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
@click.option("--hello-seconds", type=click.FloatRange(min=0, min_open=True),
              default=_DEFAULTS.hello_seconds, show_default=True, metavar="SECONDS",
              help="Seconds a connection has to say hello before it is closed.")  # fmt: skip
@click.option("--idle-seconds", type=click.FloatRange(min=0, min_open=True),
              default=_DEFAULTS.idle_seconds, show_default=True, metavar="SECONDS",
              help="Seconds a connection that plays no seat and watches no table may send "
              "nothing before it is closed.")  # fmt: skip
@click.option("--max-queue", type=click.IntRange(min=1024), default=_DEFAULTS.queue_bytes,
              show_default=True, metavar="BYTES",
              help="Bytes a connection's client may leave unread before it is sent "
              "nothing more; still past it a second later, it is closed (a client that "
              "does not read).")  # fmt: skip
@click.option(
    "--export",
    "export",
    type=click.Path(dir_okay=False),
    default=None,
    metavar="FILE",
    help="Write every stored hand to FILE as PHH, then exit.",
)
@click.option("--pokerstars", is_flag=True, help="With --export: PokerStars text instead.")
@click.option("--check", "check_only", is_flag=True,
              help="Check the data file (every page, the schema, each table, each hand), "
              "print each problem and a verdict, then exit (1: damaged).")  # fmt: skip
@click.option("--json", "as_json", is_flag=True, help="With --check: one JSON object.")
@click.option("--reset-protection", "reset_protection", metavar="NAME", default=None,
              help="Give the player NAME their disconnect protections again (R13: two in any "
              "24 hours), at every table of the data file, then exit; a server serving it "
              "counts so from NAME's next timeout.")  # fmt: skip
@click.option("--web", "web", metavar="HOST:PORT", default=None,
              help="Serve the table in the browser too: a page and its WebSocket on HOST:PORT "
              "(127.0.0.1:8080 for this machine alone; 0.0.0.0:8080 for friends; port 0: any "
              "free port). A table made then has a link to share. Needs pip install "
              "'holdem-toolkit[web]'.")  # fmt: skip
@click.option("--web-url", metavar="URL", default=None,
              help="With --web: how friends reach the page (https://poker.example.org behind "
              "a proxy): the links begin so, and its pages may open the WebSocket. Default: "
              "http://HOST:PORT of --web.")  # fmt: skip
@click.option("--web-origin", "web_origins", metavar="ORIGIN", multiple=True,
              help="With --web: another origin (scheme://host:port) whose pages may open "
              "the WebSocket; repeat for more. A page of any other origin is refused.")  # fmt: skip
@click.option("--web-proxy", "web_proxies", metavar="ADDRESS", multiple=True,
              help="With --web: the address or network (10.0.0.0/8) of a reverse proxy in "
              "front of the page; a connection from it counts as the address its "
              "X-Forwarded-For names, so that the limits by address (--max-per-address, "
              "--tables-per-address) count each player, not the proxy. Repeat for more; "
              "never a network that others can connect from.")  # fmt: skip
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
    hello_seconds: float,
    idle_seconds: float,
    max_queue: int,
    export: str | None,
    pokerstars: bool,
    check_only: bool,
    as_json: bool,
    reset_protection: str | None,
    web: str | None,
    web_url: str | None,
    web_origins: tuple[str, ...],
    web_proxies: tuple[str, ...],
    workers: int,
) -> None:
    """Serves a room: people create private tables and share their join codes,
    friends join by code, bots fill the empty seats, and the game runs to the
    end; public tables take anyone. Every finished hand is kept, and a server
    started again resumes each table at the start of the hand it was playing.
    """
    if as_json and not check_only:
        raise click.UsageError("--json goes with --check")
    if reset_protection is not None:
        if check_only or export is not None:
            raise click.UsageError("--reset-protection, --check or --export: one at a time")
        _reset_protection(data, reset_protection)
        return
    if web is None and (web_url or web_origins or web_proxies):
        raise click.UsageError("--web-url, --web-origin and --web-proxy go with --web")
    site = None if web is None or check_only or export is not None else _site(
        web, web_url, web_origins, web_proxies)  # fmt: skip
    if check_only:
        if export is not None:
            raise click.UsageError("--check or --export, not both")
        _check(data, as_json)
        return
    if export is not None:
        path = Path(export)
        if path.exists():
            raise click.BadParameter(f"{export} exists: give a new file", param_hint="'--export'")
        store = _open_store(data, read_only=True)
        try:
            try:
                store.hand_count()
            except sqlite3.DatabaseError as exc:  # (not a hand can be listed)
                raise click.BadParameter(f"{Path(data) / DATA_FILE}: cannot be read: {exc}",
                                         param_hint="'--data'") from None  # fmt: skip
            count, skipped, unread = _export(store, path, pokerstars)
        finally:
            store.close()
        click.echo(f"{count} hand{'s' * (count != 1)} written to {export}")
        for why, left in sorted(skipped.items()):
            click.echo(f"{left} hand{'s' * (left != 1)} left out: {why}", err=True)
        for damage in unread:
            click.echo(f"{damage}", err=True)
        lost = [d for d in unread if d.hand is not None or d.table is None]  # (not a chat)
        if lost:
            click.echo(f"{len(lost)} hand{'s' * (len(lost) != 1)} left out: the data file "
                       "could not give them (each above)", err=True)  # fmt: skip
        if unread:
            sys.exit(EXIT_DAMAGED)
        return
    store = _open_store(data)
    try:
        try:
            aside = set_aside(store)  # (every worker's: before they start)
        except sqlite3.DatabaseError as exc:  # (damage SQLite's quick check does not see)
            if passing(exc):  # (not damage: the disk full, the file held by another server)
                raise click.ClickException(
                    f"{Path(data) / DATA_FILE}: cannot be written now "
                    f"({exc}): start again once it can"
                ) from None
            raise click.BadParameter(f"{Path(data) / DATA_FILE}: damaged: {exc}",
                                     param_hint="'--data'") from None  # fmt: skip
        for damage in aside:
            click.echo(f"holdem serve: table {damage.table} set aside (closed, not served): "
                       f"{damage.why}", err=True)  # fmt: skip
        limits = dataclasses.replace(
            Limits(), connections=max_connections, connections_per_address=max_per_address,
            tables=max_tables, tables_per_address=tables_per_address, lines_per_second=rate,
            burst=max(int(2 * rate), 1), hello_seconds=hello_seconds, idle_seconds=idle_seconds,
            queue_bytes=max_queue,
        )  # fmt: skip
        host, port = parse_address(listen)
        if workers > 1:
            store.close()  # (each worker opens its own: no connection crosses a fork)
            _serve_workers(data, host, port, workers, limits, site)
            return
        room = Room(store, limits=limits, log=_log)
        resumed = len(room.tables)

        def ready(bound: int) -> None:
            _listening(host, bound, data, resumed, links=room.links)

        try:
            asyncio.run(serve(room, host, port, ready=ready, web=site))
        except ListenError as exc:  # (the port taken, or not this machine's address)
            web_at = None if site is None else f"{site.host or '*'}:{site.port}:"
            hint = "'--web'" if web_at and str(exc).startswith(web_at) else "'--listen'"
            raise click.BadParameter(str(exc), param_hint=hint) from None
    finally:
        _close(store)


def _close(store: Store) -> None:
    left = store.close()
    if left:
        _log(f"{left} writes could not be stored before the server stopped (nobody was told "
             "what they hold): their tables resume from what was stored")  # fmt: skip


def _site(web: str, url: str | None, origins: tuple[str, ...],
          proxies: tuple[str, ...] = ()) -> Site:  # fmt: skip
    """What ``--web`` serves (a :class:`holdem.rooms.web.Site`): its address,
    the page (:data:`holdem.clients.web.PAGE`), the links' beginning, the
    origins allowed besides its own and the proxies trusted to say who a
    connection is from."""
    host, port = parse_address(web, "--web")
    for proxy in proxies:
        try:
            ipaddress.ip_network(proxy, strict=False)
        except ValueError:
            raise click.BadParameter(f"{proxy!r}: an address or a network, e.g. 10.0.0.5 "
                                     "or 10.0.0.0/8",
                                     param_hint="'--web-proxy'") from None  # fmt: skip
    for given, option in ((url, "--web-url"), *((o, "--web-origin") for o in origins)):
        if given is not None and not re.fullmatch(r"https?://[^/\s]+(/\S*)?", given):
            raise click.BadParameter(f"{given!r}: a URL, e.g. https://poker.example.org",
                                     param_hint=f"'{option}'")  # fmt: skip
    try:
        import aiohttp  # noqa: F401  (the web extra's: holdem.rooms.web serves with it)
    except ImportError:
        raise click.UsageError("--web needs the web extra: pip install 'holdem-toolkit[web]' "
                               "(aiohttp is missing)") from None  # fmt: skip
    from holdem.clients.web import PAGE

    return Site(host=host, port=port, page=PAGE, url=url, origins=origins, proxies=proxies)


def _serve_workers(data: str, host: str, port: int, workers: int, limits: Limits,
                   site: Site | None) -> None:  # fmt: skip
    """The room served by ``workers`` processes (``--workers``)."""
    why = supported()
    if why is not None:
        raise click.BadParameter(f"{workers}: {why} (only --workers 1 here)",
                                 param_hint="'--workers'")  # fmt: skip

    def ready(bound: int, resumed: int, links: str | None) -> None:
        _listening(host, bound, data, resumed, workers, links=links)

    try:
        serve_workers(Path(data) / DATA_FILE, host, port, workers=workers, limits=limits,
                      ready=ready, log=_log, web=site)  # fmt: skip
    except ListenError as exc:
        raise click.BadParameter(str(exc), param_hint="'--listen'") from None
    except RuntimeError as exc:
        raise click.ClickException(str(exc)) from None


def _log(line: str) -> None:
    """A line of the server's on stderr (a failure of the store, a recovery)."""
    click.echo(f"holdem serve: {line}", err=True)


def _listening(host: str, bound: int, data: str, resumed: int, workers: int = 1, *,
               links: str | None = None) -> None:  # fmt: skip
    """The lines that say the server is ready (tests and the benchmark read
    them): where it listens, and where its page is (``--web``)."""
    again = f", {resumed} table{'s' * (resumed != 1)} resumed" if resumed else ""
    processes = f", {workers} workers" if workers > 1 else ""
    click.echo(f"holdem serve: listening on {host}:{bound}, data in "
               f"{Path(data) / DATA_FILE}{again}{processes}", err=True)  # fmt: skip
    if links is not None:
        click.echo(f"holdem serve: the page at {links}/ (a table's link: {links}/t/CODE)",
                   err=True)  # fmt: skip
