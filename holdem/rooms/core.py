"""What a room holds, and what every one of its requests works with: the
connections, the players' sessions and the tables; sending a message to
whoever may read it; finding the table a request names; a table's state as
its players and watchers see it; the timers; and a seat's end.

The requests themselves are :mod:`~holdem.rooms.lobby`'s (tables made,
joined, filled, begun, closed) and :mod:`~holdem.rooms.seats`'s (a seat
played, left, taken up again); :class:`~holdem.rooms.room.Room` puts them
together.

A room may be one *worker* of several that share a server's tables out
(``holdem serve --workers N``, :mod:`~holdem.rooms.workers`): worker ``k`` of
``N`` makes and serves the tables ``t<n>`` with ``(n - 1) % N == k``, and
finds in the store (which they share) the table of a code or a token that
is another's.
"""

from __future__ import annotations

import heapq
import json
import random
import secrets
import sqlite3
from collections import deque
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from ..errors import ConfigError, ProtocolError, quote
from ..protocol.messages import error_reply
from ..protocol.tables import Message, ServedTable
from ..protocol.texts import message_text
from ..wire import Fields
from .codes import Guesses, SharedGuesses, Tally, normal_code
from .settings import free_name
from .store import Store, passing, table_number

__all__ = ["Core", "Limits", "Outgoing"]

#: Hands a room table plays once started: until the game ends.
FOREVER = 10**12
#: Tokens that ended kept in memory, for the error that tells why.
_OLD_TOKENS = 100_000
#: the most lists of targets kept resolved (Core._send)
_RESOLVED = 4096
#: Seconds between tries of a store that cannot write (a full disk).
RETRY = 1.0
Outgoing = list[tuple[int, str]]


@dataclass(frozen=True, slots=True)
class Limits:
    """A room server's bounds (``docs/rooms.md`` lists them with their defaults)."""

    #: connections at once, and from one address
    connections: int = 500
    connections_per_address: int = 32
    #: tables at once (not finished), and made from one address
    tables: int = 200
    tables_per_address: int = 8
    #: the longest line read, in bytes
    line_bytes: int = 16_384
    #: lines a connection may send a second, and at once
    lines_per_second: float = 100.0
    burst: int = 200
    #: seconds a connection has to say hello; and seconds one that plays no
    #: seat and watches no table may send nothing (both: then it is closed)
    hello_seconds: float = 10.0
    idle_seconds: float = 600.0
    #: bytes sent to a connection that its client has not read (past the
    #: system's buffer) before it is sent nothing more, its lines kept; closed
    #: when it stays so (a client that does not read: server.BEHIND_SECONDS)
    queue_bytes: int = 1 << 20
    #: wrong join codes and tokens an address may try in ``guess_seconds``
    guesses: int = 10
    guess_seconds: float = 60.0
    #: events kept for a seat while nobody is connected to it
    backlog: int = 1000
    #: seconds a finished or closed table is kept in memory (the store keeps it)
    keep_finished: float = 600.0
    #: the most characters of a chat line; the lines a connection may say in
    #: ``chat_seconds``
    chat_chars: int = 200
    chat_lines: int = 5
    chat_seconds: float = 10.0
    #: the hands one ``history`` request may ask for, and a connection at
    #: once (``hands_per_second`` after them: each costs the server about a
    #: millisecond); the hands a ``hands`` reply lists (the latest:
    #: ``before`` asks for older ones)
    history_hands: int = 100
    hands_per_second: float = 50.0
    hands_listed: int = 1000

    def __post_init__(self) -> None:
        for name, value in asdict(self).items():
            if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
                raise ConfigError(f"limit {name}: a positive number, not {value!r}", field=name)


@dataclass(slots=True)
class Connection:
    id: int
    address: str
    rate: Any  # (codes.Rate)
    hello: bool = False
    sessions: set[int] = field(default_factory=set)  # the seats it plays
    watching: set[str] = field(default_factory=set)  # the tables it watches
    out: list[str] = field(default_factory=list)  # its lines not taken yet (Core.told)
    held: list[str] = field(default_factory=list)  # its lines not stored yet (Core.stalled)
    opened: float = 0.0  # when it was made (here), on the room's clock
    active: float = 0.0  # when it last sent a line, or was seen holding a table
    said: deque[float] = field(default_factory=deque)  # when its last chat lines were said
    reads: Any = None  # (codes.Rate: the hands its history requests may read; made at the first)
    muted: dict[str, set[str]] = field(default_factory=dict)  # a watcher's, by table


@dataclass(slots=True)
class Session:
    """A player's hold on a seat (its id is negative: the table's owner id)."""

    id: int
    table: str
    seat: int
    name: str
    token_hash: str
    connection: int | None = None
    backlog: deque[dict[str, Any]] = field(default_factory=deque)
    dropped: int = 0  # events of the backlog lost (it was full)
    away: bool = False  # told it is out of the deal (two timeouts in a row, or sat out)
    sat_out: bool = False  # out by its own sit_out (a resume keeps it out)
    first_hand: int = 1  # the first hand the player could be dealt in
    muted: set[str] = field(default_factory=set)  # the names whose chat it is not told


@dataclass(slots=True)
class Entry:
    """A seat of a tournament that has not begun: a player's or a bot's."""

    name: str
    bot: str | None = None
    session: int | None = None


@dataclass(slots=True)
class RoomTable:
    id: str
    code: str
    game: str  # tournament | cash
    public: bool
    settings: dict[str, Any]
    address: str  # where it was made from (tables_per_address)
    creator: int | None  # the creator's session
    served: ServedTable | None = None  # (None: a tournament not begun)
    waiting: dict[int, Entry] = field(default_factory=dict)
    sessions: dict[int, int] = field(default_factory=dict)  # seat -> session
    watchers: set[int] = field(default_factory=set)  # connections
    spectators: dict[int, str] = field(default_factory=dict)  # a watcher's name, by connection
    sitting_out: set[int] = field(default_factory=set)  # seats out from the next hand
    status: str = "waiting"  # waiting | playing | finished | closed | stopped
    closing: bool = False  # closes when the hand being played ends
    stopped: str = ""  # why the table stopped (the store refused its game)

    @property
    def seats(self) -> int:
        return int(self.settings["seats"])

    @property
    def live(self) -> bool:
        return self.status in ("waiting", "playing")


class Core:
    """A room's state and the work its requests share."""

    def __init__(
        self,
        store: Store | None,
        limits: Limits | None,
        seed: int | None,
        clock: Callable[[], float],
        worker: int = 0,
        workers: int = 1,
        generation: int = 0,
        tally: Tally | None = None,
        guesses: SharedGuesses | None = None,
    ) -> None:
        if not 0 <= worker < workers or generation < 0:
            raise ConfigError(f"worker {worker} of {workers} (generation {generation}): "
                              "a worker is 0 to workers - 1")  # fmt: skip
        self.store = store
        self.limits = limits or Limits()
        self.clock = clock
        #: the beginning of the tables' links in a browser (``holdem serve
        #: --web``: ``http://HOST:PORT``; None: no page is served)
        self.links: str | None = None
        #: what the room says of its store's failures, a line each (the
        #: server's stderr)
        self.log: Callable[[str], object] = lambda line: None
        #: why the store cannot write now (None: it can); meanwhile the
        #: tables wait, their clock stopped (game_clock), and requests are
        #: refused: what they caused could not be kept
        self.stalled: str | None = None
        self._stalled_since = 0.0  # (on the room's clock)
        self._said: set[str] = set()  # the reasons logged in this stall
        self._paused = 0.0  # seconds the tables' clock stood still
        self._retry_at = 0.0
        #: this room's number among the server's workers, and their number
        self.worker, self.workers = worker, workers
        self.tally = tally  # (the connections of every worker, when they are several)
        self._rng = random.Random(secrets.randbits(64) if seed is None else seed)
        self.tables: dict[str, RoomTable] = {}
        self._codes: dict[str, str] = {}  # code -> table
        self._connections: dict[int, Connection] = {}
        self._sessions: dict[int, Session] = {}
        self._by_token: dict[str, int] = {}  # token hash -> session
        self._old_tokens: dict[str, str] = {}  # token hash -> why it ended (the latest)
        # a worker's connections are numbered apart from the others' (and from
        # those of the worker it started again after: its generation)
        self._next_connection = worker + 1 + workers * (generation << 32)
        self._next_session = -1
        first = 1 if store is None else store.next_table_number()
        self._next_table = first + (worker - (first - 1)) % workers  # (the first of its own)
        #: the connections whose line is for another worker (it serves them
        #: from that line on; see Room.moving_to)
        self._moving: dict[int, int] = {}
        # (the wrong codes and tokens of every worker, when they are several)
        self._guesses: Guesses | SharedGuesses = guesses or Guesses(
            self.limits.guesses, self.limits.guess_seconds
        )
        # when each table has work for tick() (a heap: a table's earliest time
        # noted, which is checked when it comes and put off if it moved later;
        # one entry or so a table, not one a decision),
        # the tables with hands waiting, those touched since the last flush,
        # and the tables over, by when they leave memory
        self._times: list[tuple[float, str]] = []
        self._queued: dict[str, float] = {}  # each table's earliest time in the heap
        self._waiting: set[str] = set()
        self._touched: set[str] = set()
        self._over: deque[tuple[float, str]] = deque()
        #: the connections that have lines waiting in their outboxes
        #: (``Connection.out``), and those of them with a line somebody waits
        #: for (a turn, a reply to a request with an id, an error)
        self.told: set[int] = set()
        self.urgent: set[int] = set()
        #: by id, lists of targets (a table's audience, kept until it changes)
        #: each resolved to its connections' outboxes and numbers, while all
        #: are connected: emptied by _rewired at every change of who a
        #: session's connection is, or which connections and sessions exist
        self._resolved: dict[int, tuple[list[int], list[list[str]], list[int]]] = {}
        #: what handle() and tick() changed is committed before they return
        #: (False: the caller calls commit() before it sends their lines, once
        #: for many: the server does)
        self.commit_at_once = True
        #: whether handle(), tick() and disconnect() return the lines they
        #: caused (False: they stay in the outboxes for the caller to take,
        #: Core.told and Core.urgent saying whose: the server does)
        self.returns_lines = True

    # ------------------------------------------------------------ sending

    def _send(self, targets: list[int], message: Message, line: str = "") -> None:
        """To connections (positive numbers) and seats' sessions (negative):
        into their outboxes, the message written once for all (``line``: as
        written already; ``message`` may then be what makes it, for a player
        away)."""
        connections, sessions, told = self._connections, self._sessions, self.told
        if line:
            urgent = line.startswith('{"event":"turn"')
        else:
            assert isinstance(message, dict)  # (a message made later comes with its line)
            urgent = message.get("event") == "turn"
        known = self._resolved.get(id(targets))
        if known is not None and known[0] is targets:  # (all connected, as last time)
            if not line:
                line = message_text(message)  # type: ignore[arg-type]  # (a dict: above)
            for box in known[1]:
                box.append(line)
            told.update(known[2])
            if urgent:
                self.urgent.update(known[2])
            return
        boxes: list[list[str]] | None = [] if len(targets) > 1 else None
        numbers: list[int] = []
        for target in targets:
            if target < 0:
                session = sessions.get(target)
                if session is None:
                    boxes = None
                    continue
                if session.connection is None:  # (nobody there: kept for the player)
                    boxes = None
                    if len(session.backlog) >= self.limits.backlog:
                        session.backlog.popleft()
                        session.dropped += 1
                    if not isinstance(message, dict):
                        message = message()
                    session.backlog.append(message)
                    continue
                target = session.connection
            connection = connections.get(target)
            if connection is None:
                boxes = None
                continue
            if not line:
                line = message_text(message)  # type: ignore[arg-type]  # (a dict: above)
            connection.out.append(line)
            told.add(target)
            if urgent:
                self.urgent.add(target)
            if boxes is not None:
                boxes.append(connection.out)
                numbers.append(target)
        if boxes is not None:  # (every target connected: kept for the next lines)
            if len(self._resolved) >= _RESOLVED:
                self._resolved.clear()
            self._resolved[id(targets)] = (targets, boxes, numbers)

    def _rewired(self) -> None:
        """A session's connection, or the connections or sessions there are,
        changed: the targets resolved before are resolved again."""
        self._resolved.clear()

    def _put(self, connection: Connection, line: str, *, at: int | None = None,
             urgent: bool = True) -> None:  # fmt: skip
        """A line into a connection's outbox (``at``: in that place)."""
        if at is None:
            connection.out.append(line)
        else:
            connection.out.insert(at, line)
        self.told.add(connection.id)
        if urgent:
            self.urgent.add(connection.id)

    def outbox(self, conn: int) -> list[str] | None:
        """The lines waiting for a connection, to be written and emptied by
        whoever takes them (:attr:`returns_lines` False); None: it is gone."""
        connection = self._connections.get(conn)
        return None if connection is None else connection.out

    def _take(self, first: int | None = None) -> Outgoing:
        """The lines of every outbox, in order (those of connection ``first``
        first), the outboxes emptied."""
        told = sorted(self.told, key=lambda conn: (conn != first, conn))
        out: Outgoing = []
        for conn in told:
            connection = self._connections.get(conn)
            if connection is not None:
                out.extend([(conn, line) for line in connection.out])
                connection.out.clear()
        self.told.clear()
        self.urgent.clear()
        return out

    def _tell(self, target: int, message: dict[str, Any]) -> None:
        self._send([target], message)

    def _tell_lobby(self, table: RoomTable, message: dict[str, Any]) -> None:
        """Tells everyone at a table (playing, or waiting for it to begin)."""
        if table.served is not None:
            table.served.tell(message)
            return
        message["table"] = table.id
        self._send(self._audience(table), message)

    def _tell_status(self, table: RoomTable, session: Session, status: str,
                     reason: str = "") -> None:  # fmt: skip
        """Tells the table that a player's seat is ``status`` now (``seat_status``:
        ``disconnected``, ``connected``, ``away``, ``back``), and why."""
        message = {"event": "seat_status", "seat": session.seat, "name": session.name,
                   "status": status, "hand": self._hand_number(table)}  # fmt: skip
        if reason:
            message["reason"] = reason
        self._tell_lobby(table, message)

    @staticmethod
    def _hand_number(table: RoomTable) -> int:
        """The number of the hand being played at a table, or of the last one
        (0: none yet)."""
        served = table.served
        if served is None:
            return 0
        return served.table.hands_played + (served.table.hand is not None)

    @staticmethod
    def _last_hand(table: RoomTable, seat: int) -> int:
        """The last hand a seat's player is dealt in if they go now: the hand
        being played if the seat is in it, else the last one."""
        served = table.served
        if served is None:
            return 0
        hand = served.table.hand
        dealt = hand is not None and seat in hand.config.seat_numbers
        return served.table.hands_played + dealt

    def _flush(self, first: int | None = None) -> Outgoing:
        """The end of a request or a tick: the tables' times noted, the store
        committed (when at once), and the lines it caused taken (when returned)."""
        if self._touched:
            self._note_times()
        if self.commit_at_once:
            self.commit()
        return self._take(first) if self.returns_lines else []

    def commit(self) -> bool:
        """Writes to the store what was changed: before anybody is told of it.
        Whether all of it is stored: a table whose game the store refuses is
        stopped (:meth:`_stop_table`); when the store cannot write now (a full
        disk), the room stalls (:attr:`stalled`) until :meth:`tick` finds it
        can, and the lines waiting are held until then."""
        store = self.store
        if store is None:
            return True
        if self.stalled is None:
            try:
                store.commit()
            except sqlite3.Error as exc:
                if not passing(exc):
                    raise
                self._stall(str(exc))
        for ident, refused in store.take_refused().items():
            self._stop_table(ident, refused)
        return self.stalled is None

    @property
    def uncommitted(self) -> bool:
        """Whether the store has changes :meth:`commit` has not written (and
        would try to write now: not while the room is stalled)."""
        return self.store is not None and self.store.dirty and self.stalled is None

    # ------------------------------------------------------------ a store that fails

    def game_clock(self) -> float:
        """The tables' clock (their turn timers, paced steps, pauses): the
        room's, standing still while the room is stalled."""
        if self.stalled is not None:
            return self._stalled_since - self._paused
        return self.clock() - self._paused

    def _stall(self, why: str) -> None:
        """The store cannot write now: every line not yet sent is held (what
        caused it is not stored), and the tables wait."""
        self.stalled = why
        self._said = {why}
        self._stalled_since = self.clock()
        self._retry_at = self._stalled_since + RETRY
        for connection in self._connections.values():
            if connection.out:
                connection.held.extend(connection.out)
                connection.out.clear()
        self.told.clear()
        self.urgent.clear()
        self.log(f"cannot store the tables' games ({why}): every table waits and requests "
                 f"are refused until it can; trying again every {RETRY:g} s")  # fmt: skip

    def _try_store_again(self) -> bool:
        """Tries a stalled store again: whether it wrote (the lines held are
        sent then, and the tables play on where they stood)."""
        assert self.store is not None
        now = self.clock()
        if now < self._retry_at:
            return False
        try:
            self.store.commit()
        except sqlite3.Error as exc:
            if not passing(exc):
                raise
            self._retry_at = now + RETRY
            self.stalled = why = str(exc)
            if why not in self._said:  # (another reason: a line of its own, once)
                self._said.add(why)
                self.log(f"cannot store the tables' games ({why}): still trying")
            return False
        waited = now - self._stalled_since
        self._paused += waited
        self.stalled = None
        for connection in self._connections.values():
            if connection.held:
                connection.out[:0] = connection.held
                connection.held.clear()
                self.told.add(connection.id)
                self.urgent.add(connection.id)
        self.log(f"storing again after {waited:.0f} s: the tables play on")
        for ident, refused in self.store.take_refused().items():
            self._stop_table(ident, refused)
        return True

    def _stop_table(self, ident: str, exc: sqlite3.Error) -> None:
        """The store refused a write of the table's game: the table stops
        where the store kept it.  What was not kept is not told (its events
        waiting are dropped, the replies about it turned into the error), its
        players and watchers are told why in one line, and every request
        about it is refused (``table_stopped``); a server started again
        resumes it from the store."""
        table = self.tables.get(ident)
        self.log(f"table {ident} stopped: the data file refused its game ({exc})")
        if table is None or table.status == "stopped":
            return
        table.stopped = (
            f"table {ident} stopped: the server could not store its game ({exc}); it "
            "resumes at its last stored hand when the server is started again"
        )
        table.status = "stopped"
        if table.served is not None:
            table.served.to_play = 0
        self._waiting.discard(ident)
        self._queued.pop(ident, None)  # (its timers are never looked at again)
        self._unsay(ident, table.stopped)
        for seat_session in table.sessions.values():
            session = self._sessions.get(seat_session)
            if session is not None:
                session.backlog.clear()
                session.dropped = 0
        self._tell_lobby(table, {"event": "table_stopped", "reason": table.stopped})
        self._over.append((self.clock() + self.limits.keep_finished, ident))

    def _unsay(self, ident: str, why: str) -> None:
        """Takes back the lines about table ``ident`` not yet sent: its events
        are dropped, a reply about it becomes the error ``table_stopped``."""
        mark = f'"table":"{ident}"'
        for connection in self._connections.values():
            for box in (connection.out, connection.held):
                if not any(mark in line for line in box):
                    continue
                kept = []
                for line in box:
                    if mark in line:
                        message = json.loads(line)
                        result = message.get("result")
                        if isinstance(result, dict) and result.get("table") == ident:
                            error = ProtocolError("table_stopped", why)
                            line = message_text(error_reply(message.get("id"), error))
                        elif message.get("table") == ident:
                            continue
                    kept.append(line)
                box[:] = kept

    # ------------------------------------------------------------ timers

    def tick(self) -> Outgoing:
        """Applies the turn timers that ran out, takes the paced steps due,
        plays on the runs of hands left waiting, and lets go of the tables
        over long enough."""
        if self.stalled is not None and not self._try_store_again():
            return self._flush()
        now = self.game_clock()
        times = self._times
        while times and times[0][0] <= now:
            when, ident = heapq.heappop(times)
            if self._queued.get(ident) != when:
                continue  # (superseded by an earlier time of the table)
            del self._queued[ident]
            table = self.tables.get(ident)
            if table is not None and table.served is not None and not table.stopped:
                self._touched.add(ident)  # (its next time is noted again)
                next_time = table.served.next_time
                if next_time is not None and next_time <= now:
                    table.served.tick(now)
        for ident in list(self._waiting):
            table = self.tables.get(ident)
            self._touched.add(ident)
            if (table is not None and table.served is not None and table.served.waiting
                    and not table.stopped):  # fmt: skip
                table.served.advance()
        self._evict(self.clock())
        return self._flush()

    def next_time(self) -> float | None:
        """When :meth:`tick` has work next (on the room's clock), if ever."""
        if self.stalled is not None:  # (the store tried again)
            return self._retry_at
        times, queued = self._times, self._queued
        while times:
            when, ident = times[0]
            if queued.get(ident) == when:
                table = self.tables.get(ident)
                served = None if table is None else table.served
                actual = None if served is None else served.next_time
                if actual == when:
                    return when + self._paused  # (the tables' clock is behind)
                if actual is not None:  # (put off: a turn answered, another begun)
                    heapq.heapreplace(times, (actual, ident))
                    queued[ident] = actual
                    continue
                del queued[ident]  # (none now, or the table is gone)
            heapq.heappop(times)  # (stale: superseded, or the table's time is gone)
        return None

    def busy(self) -> bool:
        """Whether hands wait to be played on at once (:meth:`tick`)."""
        return bool(self._waiting) and self.stalled is None

    def _note_times(self) -> None:
        """The times of the tables that requests and timers touched, noted."""
        for ident in self._touched:
            table = self.tables.get(ident)
            served = None if table is None or table.stopped else table.served
            if served is None:
                self._waiting.discard(ident)
                continue
            when = served.next_time
            if when is not None:
                queued = self._queued.get(ident)
                if queued is None or when < queued:  # (a later time waits its turn)
                    heapq.heappush(self._times, (when, ident))
                    self._queued[ident] = when
            if served.waiting:
                self._waiting.add(ident)
            else:
                self._waiting.discard(ident)
        self._touched.clear()

    def _evict(self, now: float) -> None:
        """Lets go of the tables over for :attr:`Limits.keep_finished` seconds."""
        over = self._over
        while over and over[0][0] <= now:
            _, ident = over.popleft()
            table = self.tables.pop(ident, None)
            if table is not None:
                self._codes.pop(table.code, None)
                if table.stopped:
                    self._forget_sessions(table)
                for conn in table.watchers:
                    connection = self._connections.get(conn)
                    if connection is not None:
                        connection.watching.discard(ident)

    def _forget_sessions(self, table: RoomTable) -> None:
        """A stopped table let go: its players' holds are forgotten here (not
        in the store: a server started again gives them their seats), their
        tokens told as ended for why it stopped."""
        for session_id in table.sessions.values():
            session = self._sessions.pop(session_id, None)
            if session is None:
                continue
            self._by_token.pop(session.token_hash, None)
            self._old_tokens[session.token_hash] = table.stopped
            connection = self._connections.get(session.connection or 0)
            if connection is not None:
                connection.sessions.discard(session_id)
        table.sessions.clear()
        self._rewired()

    def _over_now(self, table: RoomTable, status: str, result: dict[str, Any] | None) -> None:
        """The table is over (finished, closed): its players' tokens end (the
        connected ones watch on), and it is kept in memory a while."""
        table.status = status
        self._end_sessions(table, status)
        if self.store is not None:
            self.store.set_status(table.id, status, result)
        self._over.append((self.clock() + self.limits.keep_finished, table.id))

    # ------------------------------------------------------------ finding

    def owner(self, ident: str) -> int | None:
        """The worker that serves the table ``ident`` (None: not a table's id)."""
        if not ident.startswith("t") or not ident[1:].isdigit() or ident[1:2] == "0":
            return None
        return (table_number(ident) - 1) % self.workers

    def _elsewhere(self, ident: str | None) -> int | None:
        """The worker of the table ``ident`` when it is another's (else None)."""
        if ident is None or self.workers == 1 or ident in self.tables:
            return None
        owner = self.owner(ident)
        return None if owner == self.worker else owner

    @staticmethod
    def _holds(connection: Connection) -> bool:
        """Whether the connection plays or watches a table here (it stays here)."""
        return bool(connection.sessions or connection.watching)

    def _other_worker(self, what: str) -> ProtocolError:
        return ProtocolError(
            "other_worker",
            f"{what} is served by another worker process of this server than the tables "
            "this connection plays or watches: open a new connection for it",
        )

    def _table_of(self, connection: Connection, f: Fields, *, join: bool) -> RoomTable:
        """The table a request names: by ``code`` (any table), or by ``table``
        (a public one, or one the connection plays or watches)."""
        code = f.text("code", default=None)
        ident = f.text("table", default=None)
        if code is not None:
            table = self._by_code(connection, code)
            self._touched.add(table.id)
            return self._going(table)
        if ident is None:
            raise ProtocolError("missing_field", "request.code or request.table: missing",
                                field="table")  # fmt: skip
        found = self.tables.get(ident)
        if found is not None and (
            found.public
            or any(self._sessions[s].table == ident for s in connection.sessions)
            or ident in connection.watching
        ):
            self._touched.add(ident)
            return self._going(found)
        if (
            self._elsewhere(ident) is not None
            and self._holds(connection)
            and self.store is not None
            and self.store.public(ident)
        ):
            raise self._other_worker(f"table {ident}")
        what = "no public table" if join else "no table you play or watch"
        raise ProtocolError("unknown_table", f"{what} {quote(ident)}", field="table")

    @staticmethod
    def _going(table: RoomTable) -> RoomTable:
        """The table, unless it stopped (``table_stopped``: the store refused
        its game)."""
        if table.stopped:
            raise ProtocolError("table_stopped", table.stopped)
        return table

    def _may_guess(self, connection: Connection) -> float:
        """Refuses an address that guessed wrong too often; the time now."""
        now = self.clock()
        if not self._guesses.allowed(connection.address, now):
            wait = self._guesses.wait(connection.address, now)
            raise ProtocolError(
                "rate_limited", f"too many wrong codes and tokens: try again in {wait:.0f} s"
            )
        return now

    def _by_code(self, connection: Connection, text: str) -> RoomTable:
        now = self._may_guess(connection)
        code = normal_code(text)
        ident = None if code is None else self._codes.get(code)
        if ident is None and code is not None and self.workers > 1 and self.store is not None:
            elsewhere = self.store.table_with_code(code)
            if self._elsewhere(elsewhere) is not None and self._holds(connection):
                raise self._other_worker(f"table {elsewhere}")
        if ident is None or ident not in self.tables:
            self._guesses.failed(connection.address, now)
            raise ProtocolError("unknown_code", f"no table has the code {quote(text)}",
                                field="code")  # fmt: skip
        return self.tables[ident]

    def _own(self, connection: Connection, table: RoomTable) -> Session:
        """The connection's session at the table."""
        session = self._session_at(connection, table)
        if session is None:
            raise ProtocolError("not_your_seat", f"table {table.id}: you have no seat here",
                                field="table")  # fmt: skip
        return session

    def _session_at(self, connection: Connection, table: RoomTable) -> Session | None:
        """The connection's session at the table, if it has one."""
        for session_id in connection.sessions:
            session = self._sessions.get(session_id)
            if session is not None and session.table == table.id:
                return session
        return None

    def _creator(self, connection: Connection, table: RoomTable) -> None:
        if table.creator is None or table.creator not in connection.sessions:
            raise ProtocolError("not_creator", f"table {table.id}: only its creator may do that")

    def _served(self, table: RoomTable) -> ServedTable:
        if table.served is None:
            raise ProtocolError("no_hand", f"table {table.id}: the game has not begun")
        return table.served

    # ------------------------------------------------------------ a seat's end

    def _end_session(self, session: Session, table: RoomTable, reason: str, *,
                     watch: bool = False) -> None:  # fmt: skip
        """The player's hold on the seat ends: the token stops giving it (with
        ``reason``), nobody plays it from now on (the table checks or folds
        for it), and the creator's rights go to another player.  ``watch``:
        the player's connection watches the table on."""
        self._sessions.pop(session.id, None)
        self._rewired()
        self._by_token.pop(session.token_hash, None)
        if len(self._old_tokens) >= _OLD_TOKENS:
            del self._old_tokens[next(iter(self._old_tokens))]
        self._old_tokens[session.token_hash] = reason
        if self.store is not None:
            self.store.end_token(session.table, session.token_hash, reason,
                                 self._last_hand(table, session.seat))  # fmt: skip
        if table.sessions.get(session.seat) == session.id:
            del table.sessions[session.seat]
        served = table.served
        if served is not None and served.owners.get(session.seat) == session.id:
            del served.owners[session.seat]
        for connection in self._connections.values():
            connection.sessions.discard(session.id)
        table.sitting_out.discard(session.seat)
        if watch and session.connection in self._connections:
            self._connections[session.connection].watching.add(table.id)
            table.watchers.add(session.connection)
            table.spectators[session.connection] = session.name
        if table.creator == session.id:
            self._pass_creator(table)

    def _end_sessions(self, table: RoomTable, reason: str) -> None:
        """Every player's hold on the table ends (the connected ones watch on)."""
        for session_id in list(table.sessions.values()):
            session = self._sessions.get(session_id)
            if session is not None:
                self._end_session(session, table, reason, watch=True)

    def _pass_creator(self, table: RoomTable) -> None:
        """The creator is gone: the rights go to the next player at the table
        (one connected first); a live table with nobody left is closed."""
        table.creator = None
        if not table.live:
            return
        sessions = [self._sessions[s] for _, s in sorted(table.sessions.items())]
        if not sessions:
            if table.served is None or table.game == "cash":  # (bots alone: nobody to play for)
                self._tell_lobby(table, {"event": "table_closed"})
                self._close_now(table)
            return
        heir = min(sessions, key=lambda s: (s.connection is None, s.seat))
        table.creator = heir.id
        if self.store is not None:
            self.store.set_creator(table.id, heir.seat)
        self._tell_lobby(table, {"event": "creator", "seat": heir.seat, "name": heir.name,
                                 "hand": self._hand_number(table)})  # fmt: skip

    def _close_now(self, table: RoomTable) -> None:
        """The table closes: its players' tokens end, cash players leave with
        their chips (the results are kept)."""
        served = table.served
        result = None
        table.status = "closed"
        self._end_sessions(table, "closed")  # (before the leaves: the tokens end as closed)
        if served is not None:
            if table.game == "cash":
                for seat in list(served.table.seats):
                    served.table.leave(seat)
            served.to_play = 0
            result = served.results()
        self._over_now(table, "closed", result)

    @staticmethod
    def _names(table: RoomTable) -> set[str]:
        """The names of a table's players (and bots)."""
        if table.served is None:
            return {e.name for e in table.waiting.values()}
        return {s.name for s in table.served.table.seats.values()}

    def _spectator(self, table: RoomTable, conn: int) -> str:
        """A watching connection's name at the table: the one it gave
        (``watch``), its own if it played there, else ``Spectator N``."""
        name = table.spectators.get(conn)
        if name is None:
            taken = self._names(table) | set(table.spectators.values())
            name = table.spectators[conn] = free_name("Spectator", taken)
        return name

    def _audience(self, table: RoomTable) -> list[int]:
        """Who is told a table's events: its players' sessions and its watchers."""
        if table.served is not None:
            return table.served.audience()
        return sorted(table.sessions.values()) + sorted(table.watchers)

    def _sit_out_now(self, table: RoomTable, seat: int) -> None:
        """A seat that sits out is out of the deal from now: a cash seat sits
        out (the blinds that pass it are owed: R3), a tournament stack is
        dealt in and checks or folds at once (away)."""
        served = table.served
        if served is None or served.table.seat(seat) is None:
            return
        if table.game == "cash":
            served.table.sit_out(seat)
        else:
            served.table.away.add(seat)

    # ------------------------------------------------------------ what is seen

    def _state(self, table: RoomTable) -> dict[str, Any]:
        s = table.settings
        out: dict[str, Any] = {
            "table": table.id,
            "game": table.game,
            "public": table.public,
            "status": table.status,
            "max_seats": table.seats,
            "creator": self._seat_of(table.creator),
            "settings": {k: v for k, v in s.items() if k not in ("game", "public")},
        }
        if table.served is None:
            out["seats"] = [
                {"seat": n, "name": e.name, "bot": e.bot, "connected": self._connected(e.session)}
                for n, e in sorted(table.waiting.items())
            ]
            out["hand"] = None
            out["hands_played"] = 0
            return out
        served = table.served
        t = served.table
        hand = t.hand
        out["seats"] = [
            {
                "seat": seat,
                "name": info.name,
                "chips": info.chips,
                "status": "away" if seat in t.away else info.status,
                "bot": served.levels.get(seat),
                "connected": self._connected(table.sessions.get(seat)),
                **({"run_twice": t.agrees_to_run_twice(seat)} if t.run_it_twice else {}),
            }
            for seat, info in sorted(t.seats.items())
        ]
        out["hands_played"] = t.hands_played
        out["blinds"] = t.blinds.to_dict()
        out["hand"] = hand.view(None).to_dict() if hand is not None else None
        out.update(served.results())
        return out

    def _seat_of(self, session_id: int | None) -> int | None:
        session = self._sessions.get(session_id) if session_id is not None else None
        return None if session is None else session.seat

    def _connected(self, session_id: int | None) -> bool | None:
        """Whether a seat's player is connected (None: no player's seat)."""
        if session_id is None:
            return None
        session = self._sessions.get(session_id)
        return session is not None and session.connection is not None

    # ------------------------------------------------------------ playing on

    def _save(self, table: RoomTable) -> None:
        """The table's game as it is between hands, to the store."""
        if self.store is None or table.served is None or table.served.table.hand is not None:
            return
        self.store.save_snapshot(table.id, table.served.game.snapshot())

    def _play_on(self, table: RoomTable) -> None:
        """A table that has begun plays on when it can."""
        served = table.served
        if served is None or table.status != "playing" or served.finished or table.closing:
            return
        if served.table.hand is None and not served.to_play and served.table.can_deal():
            served.start(FOREVER)
