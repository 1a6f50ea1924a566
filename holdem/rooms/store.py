"""What a room server keeps: its tables, their seats and every finished hand,
in one SQLite file (``docs/rooms.md``, "The data kept", gives the schema).

Each finished hand is a row of ``hands`` (the hand in the engine's wire
forms: configuration, hole cards, board and public log; and its result);
each table keeps, in ``tables.snapshot``, its game as it was before the
hand being played began (``Tournament.snapshot()``, ``CashGame.snapshot()``),
so that a server started again resumes it at the start of that hand.  A
seat's token is kept only as its SHA-256; a token replaced or ended is
kept as such, so that its use is refused as expired, not unknown.  What the
snapshot cannot hold yet, because a hand was being played when it was
asked, is kept beside it: the chips a seat taken since the snapshot sat
down with (``seats.buy_in``), the chips added since the snapshot
(``seats.added``), and both for each such seat freed since the snapshot
(``seats_left``: its player's buy-in and cash-out stay in the results); each
snapshot clears them.

A file that is not a room's, damaged (SQLite's own check of its pages),
or of another schema is refused when a store opens it (:class:`StoreError`);
:meth:`Store.check` lists what of a file cannot be read, each a
:class:`Damage`, and the readers give a row that does not read as such
(:attr:`TableRow.damage`, :meth:`Store.read_hands`) rather than failing
the rest.

Writes wait in memory until :meth:`Store.commit`, which runs them in order
in one short transaction (the server commits before it sends what a request
or a timer caused: a hand a player saw end is on disk).  So several
processes (``holdem serve --workers N``) share the file: each holds its
lock only for the moment of its commit, never while it serves.  A read
commits what waits first: it sees every write made before it.

Each write is a table's.  When the file cannot be written now (the disk
full, the file busy: :func:`passing`), the commit raises and its writes
wait for the next.  When it refuses a write (a constraint, a damaged page),
that table's writes from the refused one on are dropped and its other
tables' are written: :meth:`Store.take_refused` says which tables, and the
room stops them (a table's game never goes on past what the file kept).

>>> store = Store(":memory:")
>>> store.new_table("t1", "ABCD-EFGH", "cash", public=False, settings={"seats": 6})
>>> [row.code for row in store.tables()], store.next_table_number()
(['ABCD-EFGH'], 2)
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import sqlite3
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..actions import PLAYER_KINDS, REFEREE_KINDS, Action, ActionKind, Decision
from ..cards import format_card
from ..config import HandConfig
from ..errors import HoldemError, StoreError
from ..hand import Hand
from ..protocol.messages import encode
from ..protocol.texts import config_text, records_text
from ..table import HandResult
from ..wire import Fields

__all__ = [
    "BUSY_SECONDS",
    "SCHEMA",
    "SCHEMA_VERSION",
    "ChatLine",
    "Checked",
    "Damage",
    "LiveRow",
    "SeatRow",
    "Store",
    "StoredHand",
    "TableRow",
    "TokenSeat",
    "hand_of",
    "hand_record",
    "hand_text",
    "make_private",
    "passing",
    "replay",
]

SCHEMA_VERSION = 5
#: The most seconds a commit waits for another process's to end.
BUSY_SECONDS = 10.0
#: SQLite's primary result codes of a failure that passes (no permission, the
#: file busy or locked, no memory, read-only, an I/O error, the disk full,
#: a file that cannot be opened, a lock protocol error): the writes are
#: tried again.  Any other failure is the file's refusal of a write.
PASSING = frozenset({3, 5, 6, 7, 8, 10, 13, 14, 15})
#: The changes that take a file of each older schema to the next one.
MIGRATIONS = {
    1: (
        "ALTER TABLE seats ADD COLUMN buy_in INTEGER",
        "ALTER TABLE seats ADD COLUMN added INTEGER NOT NULL DEFAULT 0",
    ),
    2: (),  # (seats_left: made by SCHEMA, which makes the tables a file lacks)
    3: (  # (and chat: made by SCHEMA)
        "ALTER TABLE seats ADD COLUMN first_hand INTEGER",
        "ALTER TABLE old_tokens ADD COLUMN name TEXT",
        "ALTER TABLE old_tokens ADD COLUMN first_hand INTEGER",
        "ALTER TABLE old_tokens ADD COLUMN last_hand INTEGER",
    ),
    4: (),  # (protection_resets: made by SCHEMA)
}
#: The schema (``docs/rooms.md`` explains each column).
SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    code TEXT UNIQUE NOT NULL,
    game TEXT NOT NULL CHECK (game IN ('tournament', 'cash')),
    public INTEGER NOT NULL,
    settings TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('waiting', 'playing', 'finished', 'closed')),
    snapshot TEXT,
    result TEXT,
    created REAL NOT NULL,
    updated REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL REFERENCES tables (id),
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    bot TEXT,
    token_hash TEXT UNIQUE,
    creator INTEGER NOT NULL DEFAULT 0,
    buy_in INTEGER,
    added INTEGER NOT NULL DEFAULT 0,
    first_hand INTEGER,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS seats_left (
    table_id TEXT NOT NULL REFERENCES tables (id),
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    buy_in INTEGER,
    added INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS old_tokens (
    token_hash TEXT PRIMARY KEY,
    table_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    reason TEXT NOT NULL,
    ended REAL NOT NULL,
    name TEXT,
    first_hand INTEGER,
    last_hand INTEGER
);
CREATE TABLE IF NOT EXISTS hands (
    table_id TEXT NOT NULL REFERENCES tables (id),
    number INTEGER NOT NULL,
    finished REAL NOT NULL,
    hand TEXT NOT NULL,
    result TEXT NOT NULL,
    PRIMARY KEY (table_id, number)
);
CREATE TABLE IF NOT EXISTS chat (
    table_id TEXT NOT NULL REFERENCES tables (id),
    hand INTEGER NOT NULL,
    seat INTEGER,
    name TEXT NOT NULL,
    text TEXT NOT NULL,
    time REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS chat_by_table ON chat (table_id, hand);
CREATE TABLE IF NOT EXISTS protection_resets (
    name TEXT NOT NULL,
    at REAL NOT NULL
);
"""


@dataclass(frozen=True, slots=True)
class TableRow:
    """A table as the store has it; ``damage``: why a JSON field of its row
    cannot be read (that field is then empty: ``{}`` or None)."""

    id: str
    code: str
    game: str
    public: bool
    settings: dict[str, Any]
    status: str
    snapshot: dict[str, Any] | None
    result: dict[str, Any] | None
    damage: str | None = None


@dataclass(frozen=True, slots=True)
class Damage:
    """A part of a room's data file that cannot be read, and why: the file
    itself (no ``table``), a table's row (no ``hand``), or a stored hand."""

    why: str
    table: str | None = None
    hand: int | None = None

    def __str__(self) -> str:
        if self.table is None:
            return f"the file: {self.why}"
        where = f"table {self.table}" + ("" if self.hand is None else f", hand {self.hand}")
        return f"{where}: {self.why}"

    def to_dict(self) -> dict[str, Any]:
        return {"table": self.table, "hand": self.hand, "why": self.why}


@dataclass(frozen=True, slots=True)
class Checked:
    """What :meth:`Store.check` found: the file's :class:`Damage` (none:
    sound), and how many tables and hands it read (damaged ones counted)."""

    damage: list[Damage]
    tables: int
    hands: int


@dataclass(frozen=True, slots=True)
class LiveRow:
    """A table waiting or being played, as the store has it, with the number
    of its seats taken (``players``)."""

    id: str
    game: str
    public: bool
    status: str
    settings: dict[str, Any]
    players: int
    hands: int = 0  # (the hands it has played, as stored)


@dataclass(frozen=True, slots=True)
class SeatRow:
    """A seat as the store has it: a player (``token_hash``; None: the player
    left during the hand being played) or a bot (``bot``); at a cash table,
    since the table's snapshot, the chips it sat down with (``buy_in``:
    None, it was taken before) and those added (``added``); the first hand
    its player could be dealt in (``first_hand``: None, the table's first)."""

    seat: int
    name: str
    bot: str | None
    token_hash: str | None
    creator: bool
    buy_in: int | None = None
    added: int = 0
    first_hand: int | None = None


@dataclass(frozen=True, slots=True)
class StoredHand:
    """A finished hand as the store has it: its table, its number there, when
    it finished (Unix time) and its record (:func:`hand_of` plays it again)."""

    table: str
    number: int
    finished: float
    record: dict[str, Any]

    @property
    def hand_id(self) -> str:
        """The hand's number in the whole file, digits only (what PokerStars
        text needs): the table's number, then the hand's in nine digits
        (``t12``'s hand 5: ``12000000005``)."""
        return f"{table_number(self.table)}{self.number:09d}"


@dataclass(frozen=True, slots=True)
class TokenSeat:
    """The seat a token gives or gave (:meth:`Store.token_seat`): its table,
    seat and player's name, the hands its player could be dealt in there
    (from ``first_hand``, to ``last_hand``: None, to the last one), and why
    the token ended (``reason``; None: it gives the seat now).  ``name`` is
    None for a token that ended before the store kept it (schema 3)."""

    table: str
    seat: int
    name: str | None
    first_hand: int
    last_hand: int | None
    reason: str | None


@dataclass(frozen=True, slots=True)
class ChatLine:
    """A line of a table's chat as the store has it: the hand being played
    when it was said (or the last one; 0: before the first), who said it
    (``seat`` None: a spectator), the text and when (Unix time)."""

    hand: int
    seat: int | None
    name: str
    text: str
    time: float


def passing(exc: sqlite3.Error) -> bool:
    """Whether a failure of the file passes (the disk full, the file busy:
    what failed may be tried again) rather than refuses what was written."""
    code = getattr(exc, "sqlite_errorcode", None)
    if code is None:  # (no code: a failure of the connection, not of a write)
        return isinstance(exc, sqlite3.OperationalError)
    return code & 0xFF in PASSING


def make_private(path: Path) -> None:
    """Makes a data file, new, readable and writable by its owner alone (it
    holds join codes and every hole card); one found open to others, and the
    files SQLite keeps beside it (``-wal``, ``-shm``: SQLite makes them with
    the file's mode), is closed to them.  A file of another owner is left as
    it is (its owner chose)."""
    os.close(os.open(path, os.O_RDONLY | os.O_CREAT, 0o600))
    for each in (path, path.with_name(f"{path.name}-wal"), path.with_name(f"{path.name}-shm")):
        with contextlib.suppress(FileNotFoundError, PermissionError):
            mode = each.stat().st_mode & 0o777
            if mode & 0o077:
                each.chmod(mode & 0o700)


def table_number(ident: str) -> int:
    """The number of a room's table id (``t12``: 12)."""
    return int(ident.removeprefix("t"))


class Store:
    """The SQLite file of a room server (``":memory:"``: kept in memory),
    readable by its owner alone (:func:`make_private`).  ``busy``: the most
    seconds a commit waits for another process's.  A file that is not a
    room's, that SQLite finds damaged, or of another schema is refused
    (:class:`StoreError`, ``PATH: why``).  ``read_only``: an existing file
    read as it is (nothing checked, made or changed; a damaged file read as
    far as it can be: ``holdem serve --export`` and ``--check``)."""

    def __init__(
        self,
        path: str | Path,
        *,
        clock: Any = time.time,
        busy: float = BUSY_SECONDS,
        read_only: bool = False,
    ) -> None:
        self.path = str(path)
        self._clock = clock
        #: the writes not committed: (the table's id, the statement, its arguments)
        self._pending: list[tuple[str, str, tuple[Any, ...]]] = []
        #: the tables whose writes the file refused, with why (take_refused)
        self._refused: dict[str, sqlite3.Error] = {}
        if read_only:
            if not Path(self.path).is_file():
                raise StoreError(f"{self.path}: no such file")
            self._db = sqlite3.connect(f"{Path(self.path).resolve().as_uri()}?mode=ro",
                                       uri=True, isolation_level=None, timeout=busy)  # fmt: skip
            self._beside: set[str] = set()
            return
        if self.path not in ("", ":memory:"):
            make_private(Path(self.path))
        # (one thread, the server's loop; transactions begun and ended by hand:
        # a read outside one sees what every process committed)
        self._db = sqlite3.connect(self.path, isolation_level=None, timeout=busy)
        try:
            self._open()
        except BaseException:
            self._db.close()
            raise
        #: the tables whose seats hold a buy-in or chips added since their
        #: snapshot (the next snapshot clears them; the others have none)
        self._beside = self._tables_beside()

    def _open(self) -> None:
        """The file checked (its pages, its schema: nothing is written to a
        file refused), then made or migrated."""
        try:
            pages = page_damage(self._db)
        except sqlite3.DatabaseError as exc:
            if isinstance(exc, sqlite3.OperationalError):  # (locked, cannot open: not damage)
                raise
            if exc.sqlite_errorcode == sqlite3.SQLITE_NOTADB:
                why = "not a database (or its header is damaged)"
                raise StoreError(f"{self.path}: {why}") from None
            pages = [str(exc)]
        if pages:
            more = f" (and {len(pages) - 1} more problems)" if len(pages) > 1 else ""
            raise StoreError(f"{self.path}: damaged: {pages[0]}{more}")
        found = self._schema()
        if found is not None and found != str(SCHEMA_VERSION):
            if not found.isdigit() or int(found) not in MIGRATIONS:
                raise StoreError(
                    f"{self.path}: a room data file of schema {found}, "
                    f"this server writes schema {SCHEMA_VERSION}"
                )
        elif found is not None:
            self._refuse_schema()
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA foreign_keys=ON")
        if found is not None and found != str(SCHEMA_VERSION):
            self._migrate(int(found))
        self._db.executescript(SCHEMA)
        if found is None:
            self._db.execute("INSERT OR IGNORE INTO meta VALUES ('schema', ?)",
                             (str(SCHEMA_VERSION),))  # fmt: skip
        self._refuse_schema()

    def _refuse_schema(self) -> None:
        """:class:`StoreError` if the file's tables are not this schema's."""
        wrong = schema_damage(self._db)
        if wrong:
            raise StoreError(f"{self.path}: not a room's data file: {wrong[0]}")

    def _schema(self) -> str | None:
        """The schema of the file, as it says it (None: a new file;
        :class:`StoreError`: another program's)."""
        if not self._db.execute("SELECT 1 FROM sqlite_master WHERE name = 'meta'").fetchone():
            others = sorted(_columns(self._db))
            if others:
                listed = ", ".join(others[:5]) + ", ..." * (len(others) > 5)
                raise StoreError(f"{self.path}: not a room's data file (its tables: {listed})")
            return None
        found = self._db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        return None if found is None else str(found[0])

    def _migrate(self, version: int) -> None:
        """Takes a file of an older schema to this one, in one transaction
        (its changes of the schema too: a migration cut short leaves the file
        as it was)."""
        self._db.execute("BEGIN IMMEDIATE")
        try:
            while version in MIGRATIONS:
                for statement in MIGRATIONS[version]:
                    self._db.execute(statement)
                version += 1
            self._db.execute("UPDATE meta SET value = ? WHERE key = 'schema'", (str(version),))
        except BaseException:
            self._db.rollback()
            raise
        self._db.commit()

    def check(self, *, progress: Callable[[int], object] | None = None) -> Checked:
        """What of the file cannot be read: SQLite's check of every page and
        index, the schema, each table's row, and each stored hand (its
        record, played again: :func:`replay`).  ``progress(n)``: ``n`` more
        hands read.  A file read as far as it can be, nothing changed."""
        damage: list[Damage] = []
        try:
            damage += [Damage(line) for line in page_damage(self._db, thorough=True)]
        except sqlite3.DatabaseError as exc:
            damage.append(Damage(str(exc)))
        try:
            found = self._schema()
        except StoreError as exc:
            return Checked(damage=[*damage, Damage(str(exc).removeprefix(f"{self.path}: "))],
                           tables=0, hands=0)  # fmt: skip
        except sqlite3.DatabaseError as exc:  # (not a database: said once)
            unread = [] if damage else [Damage(f"its schema cannot be read: {exc}")]
            return Checked(damage=[*damage, *unread], tables=0, hands=0)
        if found is None:  # (made, never used: nothing in it)
            return Checked(damage=damage, tables=0, hands=0)
        if found == str(SCHEMA_VERSION):
            damage += [Damage(line) for line in schema_damage(self._db)]
        elif not found.isdigit() or int(found) not in MIGRATIONS:
            why = f"a room data file of schema {found}, this holdem reads schema {SCHEMA_VERSION}"
            return Checked(damage=[*damage, Damage(why)], tables=0, hands=0)
        try:
            rows = self.tables()
        except sqlite3.DatabaseError as exc:
            damage.append(Damage(f"its tables cannot be read: {exc}"))
            rows = []
        damage += [Damage(row.damage, row.id) for row in rows if row.damage is not None]
        hands = 0
        for stored in self.read_hands():
            hands += isinstance(stored, StoredHand) or stored.hand is not None
            played = stored if isinstance(stored, Damage) else replay(stored)
            if isinstance(played, Damage):
                damage.append(played)
            if progress is not None:
                progress(1)
        return Checked(damage=damage, tables=len(rows), hands=hands)

    @property
    def dirty(self) -> bool:
        """Whether writes wait for :meth:`commit`."""
        return bool(self._pending)

    def _write(self, ident: str, sql: str, args: tuple[Any, ...]) -> None:
        self._pending.append((ident, sql, args))

    def _read(self, sql: str, args: tuple[Any, ...] = ()) -> sqlite3.Cursor:
        """A query, once the writes waiting are in the file (it sees them;
        when they cannot be written now, it reads without them)."""
        with contextlib.suppress(sqlite3.Error):
            self.commit()
        return self._db.execute(sql, args)

    def commit(self) -> None:
        """Writes what waits to the file, in order, in one transaction (which
        waits up to ``busy`` seconds for another process's commit to end).

        When the file cannot be written now (:func:`passing`: busy longer,
        the disk full), raises that error and the writes wait for the next
        commit.  When it refuses a write, each table's writes are written
        apart: a table's from the refused one on are dropped (the others
        of the batch kept), and :meth:`take_refused` names it."""
        if not self._pending:
            return
        pending, self._pending = self._pending, []
        try:
            try:
                self._run(pending, apart=False)
            except sqlite3.Error as exc:
                if passing(exc):
                    raise
                self._refused.update(self._run(pending, apart=True))
        except sqlite3.Error as exc:
            if passing(exc):
                self._pending[:0] = pending
                raise
            # (refused where no table's write can be told: the whole batch)
            self._refused.update({ident: exc for ident, _, _ in pending})
        if self._refused:  # (the seats' clearing of a refused table dropped, maybe)
            with contextlib.suppress(sqlite3.Error):
                self._beside = self._tables_beside()

    def _run(
        self, pending: list[tuple[str, str, tuple[Any, ...]]], *, apart: bool
    ) -> dict[str, sqlite3.Error]:
        """Runs writes in one transaction; ``apart``: each in a savepoint of
        its own, a table's writes stopping at its first refused one.  The
        tables refused (the file's passing failures raise: nothing written)."""
        db = self._db
        refused: dict[str, sqlite3.Error] = {}
        try:
            db.execute("BEGIN IMMEDIATE")
            if not apart:
                for _, sql, args in pending:
                    db.execute(sql, args)
            else:
                for ident, sql, args in pending:
                    if ident in refused:
                        continue
                    db.execute("SAVEPOINT write")
                    try:
                        db.execute(sql, args)
                    except sqlite3.Error as exc:
                        if passing(exc):
                            raise
                        db.execute("ROLLBACK TO write")
                        refused[ident] = exc
                    db.execute("RELEASE write")
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    db.rollback()
            raise
        return refused

    def take_refused(self) -> dict[str, sqlite3.Error]:
        """The tables whose writes the file refused since the last call, with
        the file's error (their writes from the refused one on are dropped)."""
        refused, self._refused = self._refused, {}
        return refused

    def _tables_beside(self) -> set[str]:
        """The tables whose seats hold, in the file, a buy-in or chips added
        (or that have seats left since their snapshot)."""
        rows = self._db.execute(
            "SELECT table_id FROM seats WHERE buy_in IS NOT NULL OR added"
            " UNION SELECT table_id FROM seats_left"
        )
        return {str(row[0]) for row in rows}

    def close(self) -> int:
        """Commits what waits and closes the file: the writes it could not
        store (the disk full; nobody was told of what they hold)."""
        try:
            with contextlib.suppress(sqlite3.Error):  # (passing: what is left is counted)
                self.commit()
        finally:
            self._db.close()
        return len(self._pending)

    # ------------------------------------------------------------ tables

    def next_table_number(self) -> int:
        """The number of the next table's id (``t<number>``)."""
        row = self._read("SELECT MAX(CAST(SUBSTR(id, 2) AS INTEGER)) FROM tables").fetchone()
        return int(row[0] or 0) + 1

    def new_table(
        self, ident: str, code: str, game: str, *, public: bool, settings: dict[str, Any]
    ) -> None:
        now = self._clock()
        self._write(
            ident,
            "INSERT INTO tables (id, code, game, public, settings, status, created, updated)"
            " VALUES (?, ?, ?, ?, ?, 'waiting', ?, ?)",
            (ident, code, game, int(public), json.dumps(settings), now, now),
        )

    def set_status(self, ident: str, status: str, result: dict[str, Any] | None = None) -> None:
        self._write(
            ident,
            "UPDATE tables SET status = ?, result = COALESCE(?, result), updated = ? WHERE id = ?",
            (status, None if result is None else json.dumps(result), self._clock(), ident),
        )

    def save_snapshot(self, ident: str, snapshot: dict[str, Any]) -> None:
        """The game of the table as it is between hands (it holds every chip
        added before it)."""
        self._write(
            ident,
            "UPDATE tables SET snapshot = ?, updated = ? WHERE id = ?",
            (encode(snapshot), self._clock(), ident),
        )
        if ident in self._beside:
            self._beside.discard(ident)
            self._write(
                ident,
                "UPDATE seats SET buy_in = NULL, added = 0"
                " WHERE table_id = ? AND (buy_in IS NOT NULL OR added)",
                (ident,),
            )
            self._write(ident, "DELETE FROM seats_left WHERE table_id = ?", (ident,))

    def set_aside(self, ident: str, why: str) -> None:
        """A table that cannot be made again is closed (its result
        ``{"error": "could not be resumed: <why>"}``) and its seats' tokens
        end (``damaged``): the file keeps the rest of it as it is."""
        self.set_status(ident, "closed", {"error": f"could not be resumed: {why}"})
        self._end_tokens(ident, "table_id = ? AND token_hash IS NOT NULL", (ident,), "damaged")
        self._write(ident, "UPDATE seats SET token_hash = NULL WHERE table_id = ?", (ident,))

    def add_chips(self, ident: str, seat: int, chips: int) -> None:
        """Chips added to a seat's stack while the snapshot cannot hold them
        (a hand is being played)."""
        self._write(
            ident,
            "UPDATE seats SET added = added + ? WHERE table_id = ? AND seat = ?",
            (chips, ident, seat),
        )
        self._beside.add(ident)

    def tables(self, *statuses: str) -> list[TableRow]:
        """The tables (of the statuses given), oldest first; a row whose JSON
        does not read says so (:attr:`TableRow.damage`)."""
        query = "SELECT id, code, game, public, settings, status, snapshot, result FROM tables"
        args: tuple[str, ...] = ()
        if statuses:
            query += f" WHERE status IN ({', '.join('?' * len(statuses))})"
            args = statuses
        rows = self._read(query + " ORDER BY created, id", args).fetchall()
        return [_table_row(r) for r in rows]

    # ------------------------------------------------------------ seats

    def save_seat(
        self,
        ident: str,
        seat: int,
        name: str,
        *,
        bot: str | None = None,
        token_hash: str | None = None,
        creator: bool = False,
        buy_in: int | None = None,
        first_hand: int | None = None,
    ) -> None:
        """A seat taken (``first_hand``: the first hand its player can be dealt
        in; None, the table's first)."""
        self._write(
            ident,
            "INSERT OR REPLACE INTO seats (table_id, seat, name, bot, token_hash, creator, buy_in,"
            " first_hand) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (ident, seat, name, bot, token_hash, int(creator), buy_in, first_hand),
        )
        if buy_in is not None:
            self._beside.add(ident)

    def set_token(self, ident: str, seat: int, token_hash: str) -> None:
        """The seat's token is this one now (the old one ended first)."""
        self._write(
            ident,
            "UPDATE seats SET token_hash = ? WHERE table_id = ? AND seat = ?",
            (token_hash, ident, seat),
        )

    def replace_seats(self, ident: str, seats: list[SeatRow]) -> None:
        """The table's seats are these now (a tournament that begins seats its
        players from seat 0): their tokens stay theirs."""
        self._write(ident, "DELETE FROM seats WHERE table_id = ?", (ident,))
        for row in seats:
            self.save_seat(ident, row.seat, row.name, bot=row.bot, token_hash=row.token_hash,
                           creator=row.creator, buy_in=row.buy_in,
                           first_hand=row.first_hand)  # fmt: skip

    def set_creator(self, ident: str, seat: int) -> None:
        """The table's creator is the player at ``seat`` now."""
        self._write(ident, "UPDATE seats SET creator = (seat = ?) WHERE table_id = ?",
                    (seat, ident))  # fmt: skip

    def seats(self, ident: str) -> list[SeatRow]:
        rows = self._read(
            "SELECT seat, name, bot, token_hash, creator, buy_in, added, first_hand FROM seats"
            " WHERE table_id = ? ORDER BY seat",
            (ident,),
        ).fetchall()
        return [
            SeatRow(seat=r[0], name=r[1], bot=r[2], token_hash=r[3], creator=bool(r[4]),
                    buy_in=r[5], added=r[6], first_hand=r[7])
            for r in rows
        ]  # fmt: skip

    def seats_left(self, ident: str) -> list[SeatRow]:
        """The seats freed since the table's snapshot that held chips it does
        not, as they were when freed, in the order they were: the player sat
        down since the snapshot (``buy_in``), or added chips since it
        (``added``), and left."""
        rows = self._read(
            "SELECT seat, name, buy_in, added FROM seats_left WHERE table_id = ? ORDER BY rowid",
            (ident,),
        ).fetchall()
        return [
            SeatRow(seat=r[0], name=r[1], bot=None, token_hash=None, creator=False,
                    buy_in=r[2], added=r[3])
            for r in rows
        ]  # fmt: skip

    def end_token(self, ident: str, token_hash: str, reason: str,
                  last_hand: int | None = None) -> None:  # fmt: skip
        """The token of a seat of table ``ident`` no longer gives it (replaced,
        the seat left, ...); ``last_hand``: the last hand its player could be
        dealt in there (None: not known)."""
        self._end_tokens(ident, "token_hash = ?", (token_hash,), reason, last_hand)
        self._write(ident, "UPDATE seats SET token_hash = NULL WHERE token_hash = ?",
                    (token_hash,))  # fmt: skip

    def free_seat(self, ident: str, seat: int, reason: str,
                  last_hand: int | None = None) -> None:  # fmt: skip
        """The seat is nobody's now (its token, if any, ends with ``reason``;
        ``last_hand``: as :meth:`end_token`).  A seat that held chips the
        snapshot does not (a buy-in, chips added) is kept in ``seats_left``
        until the next snapshot (:meth:`seats_left`)."""
        self._end_tokens(ident, "table_id = ? AND seat = ? AND token_hash IS NOT NULL",
                         (ident, seat), reason, last_hand)  # fmt: skip
        if ident in self._beside:
            self._write(
                ident,
                "INSERT INTO seats_left (table_id, seat, name, buy_in, added)"
                " SELECT table_id, seat, name, buy_in, added FROM seats"
                " WHERE table_id = ? AND seat = ? AND (buy_in IS NOT NULL OR added)",
                (ident, seat),
            )
        self._write(ident, "DELETE FROM seats WHERE table_id = ? AND seat = ?", (ident, seat))

    def _end_tokens(self, ident: str, where: str, args: tuple[Any, ...], reason: str,
                    last_hand: int | None = None) -> None:  # fmt: skip
        """The tokens of the seats ``where`` says kept as ended, with ``reason``
        and the hands their players could be dealt in (in SQL alone: it reads
        the seats as the writes before it left them)."""
        self._write(
            ident,
            "INSERT OR REPLACE INTO old_tokens SELECT token_hash, table_id, seat, ?, ?, name,"
            f" COALESCE(first_hand, 1), ? FROM seats WHERE {where}",
            (reason, self._clock(), last_hand, *args),
        )

    def old_token(self, token_hash: str) -> str | None:
        """Why a token that gave a seat no longer does (None: never one)."""
        row = self._read(
            "SELECT reason FROM old_tokens WHERE token_hash = ?", (token_hash,)
        ).fetchone()
        return None if row is None else str(row[0])

    def token_seat(self, token_hash: str) -> TokenSeat | None:
        """The seat a token gives, or gave (None: no seat ever had it)."""
        row = self._read(
            "SELECT table_id, seat, name, COALESCE(first_hand, 1), NULL, NULL FROM seats"
            " WHERE token_hash = ? UNION ALL SELECT table_id, seat, name,"
            " COALESCE(first_hand, 1), last_hand, reason FROM old_tokens WHERE token_hash = ?"
            " LIMIT 1",
            (token_hash, token_hash),
        ).fetchone()
        if row is None:
            return None
        return TokenSeat(table=str(row[0]), seat=int(row[1]), name=row[2],
                         first_hand=int(row[3]), last_hand=row[4], reason=row[5])  # fmt: skip

    # ------------------------------------------------------------ finding (other workers')

    def table_with_code(self, code: str) -> str | None:
        """The id of the table of a join code (None: no table has it)."""
        row = self._read("SELECT id FROM tables WHERE code = ?", (code,)).fetchone()
        return None if row is None else str(row[0])

    def token_table(self, token_hash: str) -> tuple[str, bool] | None:
        """The id of the table of a seat's token, and whether it still gives
        the seat (False: it ended; None: no seat ever had it)."""
        row = self._read(
            "SELECT table_id, 1 FROM seats WHERE token_hash = ?"
            " UNION ALL SELECT table_id, 0 FROM old_tokens WHERE token_hash = ? LIMIT 1",
            (token_hash, token_hash),
        ).fetchone()
        return None if row is None else (str(row[0]), bool(row[1]))

    def public(self, ident: str) -> bool | None:
        """Whether the table is public (None: no such table)."""
        row = self._read("SELECT public FROM tables WHERE id = ?", (ident,)).fetchone()
        return None if row is None else bool(row[0])

    def game(self, ident: str) -> str | None:
        """The table's game (``tournament``, ``cash``; None: no such table)."""
        row = self._read("SELECT game FROM tables WHERE id = ?", (ident,)).fetchone()
        return None if row is None else str(row[0])

    def live_table_ids(self) -> list[str]:
        """The ids of the tables waiting or being played (what counts them)."""
        rows = self._read("SELECT id FROM tables WHERE status IN ('waiting', 'playing')")
        return [str(row[0]) for row in rows]

    def live_tables(self) -> list[LiveRow]:
        """The tables waiting or being played, with their seats taken and hands
        played, by number."""
        rows = self._read(
            "SELECT t.id, t.game, t.public, t.status, t.settings,"
            " (SELECT COUNT(*) FROM seats s WHERE s.table_id = t.id),"
            " (SELECT COALESCE(MAX(h.number), 0) FROM hands h WHERE h.table_id = t.id)"
            " FROM tables t WHERE t.status IN ('waiting', 'playing')"
            " ORDER BY CAST(SUBSTR(t.id, 2) AS INTEGER)"
        ).fetchall()
        return [
            LiveRow(id=r[0], game=r[1], public=bool(r[2]), status=r[3],
                    settings=json.loads(r[4]), players=int(r[5]), hands=int(r[6]))
            for r in rows
        ]  # fmt: skip

    # ------------------------------------------------------------ chat

    def save_chat(self, ident: str, hand: int, seat: int | None, name: str, text: str) -> None:
        """A line of the table's chat (:class:`ChatLine`)."""
        self._write(ident, "INSERT INTO chat VALUES (?, ?, ?, ?, ?, ?)",
                    (ident, hand, seat, name, text, self._clock()))  # fmt: skip

    def chat(self, ident: str) -> list[ChatLine]:
        """The table's chat, in the order it was said."""
        rows = self._read(
            "SELECT hand, seat, name, text, time FROM chat WHERE table_id = ? ORDER BY rowid",
            (ident,),
        ).fetchall()
        return [ChatLine(hand=r[0], seat=r[1], name=r[2], text=r[3], time=r[4]) for r in rows]

    # ------------------------------------------------------------ disconnect protections

    def reset_protections(self, name: str) -> float:
        """The room's operator resets the count of the disconnect protections
        (R13) the player ``name`` used, at every table: written at once (a
        server serving the file reads it at the player's next timeout);
        when, in seconds since the epoch."""
        self.commit()
        at = float(self._clock())
        self._run([("", "INSERT INTO protection_resets VALUES (?, ?)", (name, at))], apart=False)
        return at

    def protection_reset(self, name: str) -> float | None:
        """When the player's count of protections was last reset (None: never)."""
        row = self._read("SELECT MAX(at) FROM protection_resets WHERE name = ?",
                         (name,)).fetchone()  # fmt: skip
        return None if row is None or row[0] is None else float(row[0])

    def seated(self, name: str) -> list[str]:
        """The tables waiting or being played where ``name`` has a seat."""
        rows = self._read(
            "SELECT DISTINCT s.table_id FROM seats s JOIN tables t ON t.id = s.table_id"
            " WHERE s.name = ? AND t.status IN ('waiting', 'playing') ORDER BY s.table_id",
            (name,),
        ).fetchall()
        return sorted((str(r[0]) for r in rows), key=table_number)

    # ------------------------------------------------------------ hands

    def save_hand(self, ident: str, result: HandResult, names: dict[int, str | None]) -> None:
        """A finished hand of the table (its number is the table's count)."""
        self._write(
            ident,
            "INSERT OR REPLACE INTO hands VALUES (?, ?, ?, ?, ?)",
            (
                ident,
                result.hand,
                self._clock(),
                hand_text(result.played),
                encode(result_record(result, names)),
            ),
        )

    def save_shown(self, ident: str, number: int, hand: Hand) -> None:
        """A stored hand's record again, with the cards a player showed after
        it (R10: :meth:`Hand.show` once it is over)."""
        self._write(ident, "UPDATE hands SET hand = ? WHERE table_id = ? AND number = ?",
                    (hand_text(hand), ident, number))  # fmt: skip

    def hand(self, ident: str, number: int) -> dict[str, Any] | None:
        """A stored hand's record (:func:`hand_record`), or None."""
        row = self._read(
            "SELECT hand FROM hands WHERE table_id = ? AND number = ?", (ident, number)
        ).fetchone()
        return None if row is None else dict(json.loads(row[0]))

    def stored_hand(self, ident: str, number: int) -> StoredHand | Damage | None:
        """A stored hand, or why it cannot be read (None: there is none)."""
        try:
            row = self._read(
                "SELECT finished, hand FROM hands WHERE table_id = ? AND number = ?",
                (ident, number),
            ).fetchone()
        except sqlite3.DatabaseError as exc:
            return Damage(f"cannot be read: {exc}", ident, number)
        return None if row is None else _stored_hand(ident, number, *row)

    def hands(self, ident: str | None = None) -> Iterator[StoredHand]:
        """Every stored hand (of one table), in order (:class:`StoreError`
        at one that cannot be read: :meth:`read_hands` reads past it)."""
        for stored in self.read_hands(ident):
            if isinstance(stored, Damage):
                raise StoreError(f"{self.path}: {stored}")
            yield stored

    def read_hands(self, ident: str | None = None) -> Iterator[StoredHand | Damage]:
        """Every stored hand (of one table), in order, or the :class:`Damage`
        of one that cannot be read.  A damaged file is read past the damage
        hand by hand, by the keys its index lists (a hand it cannot list is
        not named: the last one listed says so)."""
        where, args = ("", ()) if ident is None else (" AND table_id = ?", (ident,))
        last = ("", 0)  # (before every hand: numbers start at 1)
        try:
            for table, number, finished, text in self._read(
                "SELECT table_id, number, finished, hand FROM hands WHERE 1" + where
                + " ORDER BY table_id, number", args
            ):  # fmt: skip
                last = (str(table), int(number))
                yield _stored_hand(table, number, finished, text)
            return
        except sqlite3.DatabaseError:
            pass
        keys: list[tuple[str, int]] = []
        unlisted = None
        try:
            for table, number in self._db.execute(
                "SELECT table_id, number FROM hands WHERE (table_id, number) > (?, ?)" + where
                + " ORDER BY table_id, number", (*last, *args)
            ):  # fmt: skip
                keys.append((str(table), int(number)))
        except sqlite3.DatabaseError as exc:
            unlisted = exc
        for table, number in keys:
            try:
                row = self._db.execute(
                    "SELECT finished, hand FROM hands WHERE table_id = ? AND number = ?",
                    (table, number),
                ).fetchone()
            except sqlite3.DatabaseError as exc:
                yield Damage(f"cannot be read: {exc}", table, number)
                continue
            if row is not None:
                yield _stored_hand(table, number, *row)
        if unlisted is not None:
            table, number = keys[-1] if keys else last
            if not table:
                yield Damage(f"its hands cannot be listed: {unlisted}")
            else:
                yield Damage(f"the hands after it cannot be listed: {unlisted}", table, number)

    def hand_results(self, ident: str, *, before: int | None = None) -> Iterator[
            tuple[int, float, dict[str, Any]]]:  # fmt: skip
        """A table's stored hands, the latest first (those numbered below
        ``before``): each one's number, when it finished and its result
        (:func:`result_record`; ``{}`` when it does not read)."""
        where, args = ("", (ident,)) if before is None else (" AND number < ?", (ident, before))
        rows = self._read(
            "SELECT number, finished, result FROM hands WHERE table_id = ?" + where
            + " ORDER BY number DESC", args
        )  # fmt: skip
        for number, finished, text in rows:
            try:
                result = _json_object(text, "its result") or {}
            except ValueError:
                result = {}
            yield int(number), float(finished), result

    def hand_count(self, ident: str | None = None) -> int:
        """The stored hands of a table (None: of every table)."""
        if ident is None:
            return int(self._read("SELECT COUNT(*) FROM hands").fetchone()[0])
        row = self._read("SELECT COUNT(*) FROM hands WHERE table_id = ?", (ident,))
        return int(row.fetchone()[0])


def _json_object(text: Any, name: str, *, null: bool = False) -> dict[str, Any] | None:
    """A row's field of JSON text, read: an object (or None, if ``null``
    allows it); ValueError: why it cannot be."""
    if text is None and null:
        return None
    if not isinstance(text, str):
        raise ValueError(f"{name}: not JSON text but {type(text).__name__}")
    try:
        value = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise ValueError(f"{name}: not JSON ({exc})") from None
    if not isinstance(value, dict):
        raise ValueError(f"{name}: not a JSON object")
    return value


def _table_row(r: tuple[Any, ...]) -> TableRow:
    """A row of ``tables`` (its JSON fields read, or its damage said)."""
    try:
        settings = _json_object(r[4], "settings")
        snapshot = _json_object(r[6], "snapshot", null=True)
        result = _json_object(r[7], "result", null=True)
    except ValueError as exc:
        return TableRow(id=str(r[0]), code=str(r[1]), game=str(r[2]), public=bool(r[3]),
                        settings={}, status=str(r[5]), snapshot=None, result=None,
                        damage=str(exc))  # fmt: skip
    assert settings is not None
    return TableRow(id=r[0], code=r[1], game=r[2], public=bool(r[3]), settings=settings,
                    status=r[5], snapshot=snapshot, result=result)  # fmt: skip


def _stored_hand(table: Any, number: Any, finished: Any, text: Any) -> StoredHand | Damage:
    """A row of ``hands`` (its record read), or why it does not read."""
    try:
        record = _json_object(text, "its record")
        when = float(finished)
    except (ValueError, TypeError) as exc:
        return Damage(str(exc), str(table), int(number))
    assert record is not None
    return StoredHand(table=str(table), number=int(number), finished=when, record=record)


def replay(stored: StoredHand) -> Hand | Damage:
    """The hand of a stored one, played again (:func:`hand_of`), or why it
    cannot be."""
    try:
        return hand_of(stored.record)
    except (HoldemError, KeyError, TypeError, ValueError) as exc:
        return Damage(f"cannot be played again: {exc}", stored.table, stored.number)


def page_damage(db: sqlite3.Connection, *, thorough: bool = False) -> list[str]:
    """What SQLite's own check finds wrong with a file's pages, a line each
    (none: sound): ``PRAGMA quick_check``; ``thorough``: ``integrity_check``
    too, which holds each index to its rows.  A file too damaged to be
    checked raises its :class:`sqlite3.DatabaseError`."""
    for pragma in ("quick_check", "integrity_check")[: 1 + thorough]:
        lines = [line for (text,) in db.execute(f"PRAGMA {pragma}")
                 for line in str(text).splitlines() if not line.startswith("*** ")]  # fmt: skip
        if lines != ["ok"]:
            return lines
    return []


def schema_damage(db: sqlite3.Connection) -> list[str]:
    """How a file's tables differ from this schema's (:data:`SCHEMA`), a
    line each (none: as they should be; a table the schema does not have
    is no matter)."""
    found = _columns(db)
    lines = []
    for table, columns in _schema_columns().items():
        have = found.get(table)
        if have is None:
            lines.append(f"it has no table {table}")
        elif have != columns:
            lines.append(f"its table {table} has the columns ({', '.join(have)}), "
                         f"not ({', '.join(columns)})")  # fmt: skip
    return lines


def _columns(db: sqlite3.Connection) -> dict[str, list[str]]:
    """Each table's columns (name and type), by table."""
    names = [str(r[0]) for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    return {
        name: [f"{r[1]} {r[2]}".strip() for r in db.execute(f"PRAGMA table_info('{name}')")]
        for name in names
        if "'" not in name
    }


@functools.cache
def _schema_columns() -> dict[str, list[str]]:
    """The columns of :data:`SCHEMA`'s tables."""
    with contextlib.closing(sqlite3.connect(":memory:")) as db:
        db.executescript(SCHEMA)
        return _columns(db)


def hand_record(hand: Hand) -> dict[str, Any]:
    """A finished hand as data: its configuration, every player's hole cards
    (by position), the board (and a board run twice, its second run's:
    ``second_board``) and the public log (the engine's wire forms);
    :func:`hand_of` plays it again.  The store keeps it as :func:`hand_text`
    writes it."""
    record: dict[str, Any] = json.loads(hand_text(hand))
    return record


def hand_text(hand: Hand) -> str:
    """:func:`hand_record` as JSON text, written from the parts the protocol
    already wrote for the hand's events."""
    config = hand.config
    hole = ",".join(
        "[" + ",".join(f'"{format_card(c)}"' for c in hand.hole_cards(seat) or ()) + "]"
        for seat in config.seat_numbers
    )
    board = "[" + ",".join(f'"{format_card(c)}"' for c in hand.board) + "]"
    second = ""  # (a board run twice, R10: the second run's, its five cards)
    if hand.second_board:
        second = ',"second_board":[' + ",".join(f'"{format_card(c)}"' for c in hand.second_board)
        second += "]"
    return (
        f'{{"config":{config_text(config)},"hole_cards":[{hole}],"board":{board}{second},'
        f'"log":{records_text(hand.log)}}}'
    )


def result_record(result: HandResult, names: dict[int, str | None]) -> dict[str, Any]:
    """What a hand did to the table: chips before and after by seat, the
    names, the busted seats, the rake and the blinds."""
    return {
        "seats": list(result.plan.dealt),
        "names": [names.get(seat, "") for seat in result.plan.dealt],
        "chips_before": list(result.chips_before),
        "chips_after": list(result.chips_after),
        "busted": list(result.busted),
        "rake": result.rake,
        "blinds": result.blinds.to_dict(),
    }


_DECIDED = frozenset(PLAYER_KINDS + REFEREE_KINDS)
_WAGERS = frozenset((ActionKind.BET, ActionKind.RAISE))
_SHOWDOWN = frozenset((ActionKind.SHOW, ActionKind.MUCK))


def hand_of(data: Any) -> Hand:
    """The hand of a :func:`hand_record`, played again from its cards and the
    players' decisions in its log (a :class:`~holdem.errors.WireError` or
    the engine's own error when it does not hold together)."""
    f = Fields(data, "hand")
    config = HandConfig.from_dict(f.raw("config", "a configuration"))
    hole = f.raw("hole_cards", "a list of hole cards")
    board = f.cards("board")
    second = f.cards("second_board", default=None, optional=True)
    raw_log = f.raw("log", "a list of records")
    f.done()
    if not isinstance(raw_log, list):
        raise f.error("log", raw_log, "expected a list of records")
    log = [Action.from_dict(r) for r in raw_log]
    hand = Hand(config, hole_cards=hole, board=board, second_board=second)
    for record in log:
        if record.kind not in _DECIDED:
            continue
        if hand.done:  # (a show after the hand, R10: the showdown's are played already)
            if record.kind is ActionKind.SHOW and hand.can_show(seat=record.seat):
                hand.show(seat=record.seat)
            continue
        if record.kind in _SHOWDOWN:  # (all-in hands are shown by the dealer, not asked)
            legal = hand.legal_actions()
            if legal is None or legal.seat != record.seat:
                continue
        to = record.to if record.kind in _WAGERS else None
        hand.act(Decision(record.kind, to), seat=record.seat)
    return hand
