"""A room's tables: made, joined by code, filled with bots, begun, listed,
watched and closed; what their games tell the room as they go (a hand over,
a seat freed, a player away); and a room's tables made again from its
store after a restart."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from typing import Any

from ..bots import BOTS, make_bot
from ..errors import ConfigError, HoldemError, ProtocolError, TableError, quote
from ..protocol.tables import KEEP_HANDS, ServedTable
from ..table import (
    CashGame,
    Event,
    HandResult,
    Level,
    Schedule,
    SeatFreed,
    TimerRules,
    Tournament,
    TurnTimer,
)
from ..wire import Fields
from .codes import new_code, new_token, token_hash
from .core import Connection, Core, Entry, RoomTable, Session
from .settings import MOST_CHIPS, bot_name, check_buy_in, player_name, table_settings
from .store import Checked, Damage, SeatRow, Store, TableRow, table_number

__all__ = ["Lobby", "check", "set_aside", "table_damage"]


class Lobby(Core):
    """The requests that make and run tables (see :class:`~holdem.rooms.room.Room`)."""

    # ------------------------------------------------------------ making tables

    def _create(self, connection: Connection, f: Fields) -> dict[str, Any]:
        limits = self.limits
        live = [t for t in self.tables.values() if t.live]
        held = len(live)
        if self.workers > 1 and self.store is not None:  # (every worker's)
            held = len(self.store.live_table_ids())
        if held >= limits.tables:
            raise ProtocolError("limit", f"this server holds at most {limits.tables} tables")
        if sum(1 for t in live if t.address == connection.address) >= limits.tables_per_address:
            raise ProtocolError(
                "limit", f"at most {limits.tables_per_address} tables made from one address"
            )
        settings = table_settings(f)
        name = player_name(f.text("name"), "name")
        buy_in = f.integer("buy_in", default=None, optional=True, minimum=1, maximum=MOST_CHIPS)
        f.done()
        ident = f"t{self._next_table}"
        code = new_code()
        while code in self._codes:
            code = new_code()
        table = RoomTable(ident, code, settings["game"], settings["public"], settings,
                          connection.address, creator=None)  # fmt: skip
        if table.game == "cash":
            self._start_cash(table, self._rng.getrandbits(64))
            check_buy_in(table.settings, buy_in)
        # (the creator sits first: a refusal leaves no table behind, nor a count)
        chips = self._sit(table, 0, name, buy_in)
        self._next_table += self.workers
        self.tables[ident] = table
        self._codes[code] = ident
        self._touched.add(ident)
        if self.store is not None:
            self.store.new_table(ident, code, table.game, public=table.public, settings=settings)
        session, token = self._keep_player(connection, table, 0, name, chips, creator=True)
        table.creator = session.id
        self._save(table)
        made = {
            "table": ident,
            "code": code,
            "public": table.public,
            "seat": 0,
            "token": token,
            "state": self._state(table),
        }
        if self.links is not None:  # (a server with a page: the links to share)
            made["link"] = f"{self.links}/t/{code}"
            made["watch_link"] = f"{self.links}/w/{code}"
        return made

    def _start_cash(self, table: RoomTable, seed: int) -> None:
        s = table.settings
        game = CashGame(s["seats"], small_blind=s["small_blind"], big_blind=s["big_blind"],
                        min_buy_in=s["min_buy_in"], max_buy_in=s["max_buy_in"],
                        max_hands=s.get("max_hands"), max_seconds=s.get("max_seconds"),
                        structure=s["structure"], raise_cap=s.get("raise_cap", 3),
                        heads_up_cap=s.get("heads_up_cap"), timer=self._timer(table),
                        clock=self.game_clock, rng=seed, **_showing(s))  # fmt: skip
        table.settings.update(min_buy_in=game.min_buy_in, max_buy_in=game.max_buy_in)
        self._serve_game(table, game)

    def _timer(self, table: RoomTable) -> TurnTimer:
        """A table's turn timer, on the tables' clock; its disconnect
        protections (R13) counted from the operator's last reset of each
        player's (``holdem serve --reset-protection``, in the store)."""
        rules = _timer_rules(table.game, table.public, table.settings)
        resets = None if self.store is None else self.store.protection_reset
        return TurnTimer(rules, clock=self.game_clock, resets=resets)

    def _serve_game(self, table: RoomTable, game: Tournament | CashGame) -> None:
        s = table.settings
        served = ServedTable(
            table.id, game, creator=0, bots={}, send=self._send, timer=game.table.timer,
            clock=self.game_clock, pace=s["pace"], pause=s["pause"],
            after_hand=lambda result: self._after_hand(table, result),
            keep=1 if self.store is not None else KEEP_HANDS,  # (the store has them all)
        )  # fmt: skip
        # (one set, the served table's, which tells it of each change; the
        # engine's creator, 0, is nobody here)
        served.watchers.clear()
        served.watchers.update(table.watchers)
        table.watchers = served.watchers
        table.served = served
        game.table.subscribe(lambda event: self._seat_freed(table, event), kinds=[SeatFreed])

    def _sit(self, table: RoomTable, seat: int, name: str, buy_in: int | None) -> int | None:
        """A player sits at a cash table's game with ``buy_in`` (default: the
        maximum): the chips (None: a tournament's waiting list, seated by
        :meth:`_keep_player`).  The only step of seating a player that may
        be refused, and the first: a refusal changes nothing."""
        if table.served is None:
            return None
        game = table.served.game
        assert isinstance(game, CashGame)
        chips = game.max_buy_in if buy_in is None else buy_in
        try:
            game.join(seat, name, chips)
        except (TableError, ConfigError) as exc:
            raise ProtocolError("table_error", str(exc)) from None
        return chips

    def _keep_player(
        self,
        connection: Connection,
        table: RoomTable,
        seat: int,
        name: str,
        chips: int | None,
        *,
        creator: bool = False,
    ) -> tuple[Session, str]:
        """The player :meth:`_sit` seated gets the seat (a new session, its
        token; a tournament's, in its waiting list).  The store keeps the seat
        with its buy-in, ``chips`` (a restart in the hand being played seats
        the player again)."""
        token = new_token()
        first = 1 if table.served is None else table.served.table.hands_played + 1
        session = Session(self._next_session, table.id, seat, name, token_hash(token),
                          connection=connection.id, first_hand=first)  # fmt: skip
        self._next_session -= 1
        if table.served is None:
            table.waiting[seat] = Entry(name, session=session.id)
        else:
            table.served.bots.pop(seat, None)
            table.served.levels.pop(seat, None)
            table.served.owners[seat] = session.id
        if self.store is not None:
            self.store.save_seat(table.id, seat, name, token_hash=session.token_hash,
                                 creator=creator, buy_in=chips, first_hand=first)  # fmt: skip
        self._sessions[session.id] = session
        self._rewired()
        self._by_token[session.token_hash] = session.id
        table.sessions[seat] = session.id
        connection.sessions.add(session.id)
        return session, token

    # ------------------------------------------------------------ joining

    def _join(self, connection: Connection, f: Fields) -> dict[str, Any]:
        table = self._table_of(connection, f, join=True)
        name = player_name(f.text("name"), "name")
        wanted = f.integer("seat", default=None, optional=True)
        buy_in = f.integer("buy_in", default=None, optional=True, minimum=1, maximum=MOST_CHIPS)
        f.done()
        if not table.live or table.closing:
            raise ProtocolError("game_over", f"table {table.id}: the game is over")
        if table.game == "tournament" and table.served is not None:
            raise ProtocolError("game_started", f"table {table.id}: the tournament has begun")
        if any(self._sessions[s].table == table.id for s in connection.sessions):
            raise ProtocolError("seat_taken", f"table {table.id}: you have a seat here already")
        if name in self._names(table):
            raise ProtocolError("name_taken", f"table {table.id}: {quote(name)} is at the table",
                                field="name")  # fmt: skip
        seat = self._free_seat(table, wanted)
        check_buy_in(table.settings, buy_in)
        chips = self._sit(table, seat, name, buy_in)
        _, token = self._keep_player(connection, table, seat, name, chips)
        self._save(table)
        self._tell_lobby(table, {"event": "player_joined", "seat": seat, "name": name,
                                 "hand": self._hand_number(table)})  # fmt: skip
        self._play_on(table)
        return {"table": table.id, "seat": seat, "token": token, "state": self._state(table)}

    def _taken(self, table: RoomTable) -> set[int]:
        if table.served is None:
            return set(table.waiting)
        return set(table.served.table.seats)

    def _free_seat(self, table: RoomTable, wanted: int | None) -> int:
        taken = self._taken(table)
        if wanted is not None:
            if wanted >= table.seats:
                raise ProtocolError(
                    "unknown_seat", f"table {table.id} has seats 0 to {table.seats - 1}",
                    field="seat",
                )  # fmt: skip
            if wanted in taken:
                raise ProtocolError("seat_taken", f"table {table.id}: seat {wanted} is taken",
                                    field="seat")  # fmt: skip
            return wanted
        free = [s for s in range(table.seats) if s not in taken]
        if not free:
            raise ProtocolError("table_full", f"table {table.id}: every seat is taken")
        return free[0]

    def _add_bots(self, connection: Connection, f: Fields) -> dict[str, Any]:
        table = self._table_of(connection, f, join=False)
        level = f.text("level", default="normal")
        count = f.integer("count", default=None, optional=True, minimum=1)
        f.done()
        self._creator(connection, table)
        if level not in BOTS:
            raise ProtocolError("invalid_field", f"request.level: no bot level {quote(level)}: "
                                f"one of {', '.join(BOTS)}", field="level")  # fmt: skip
        if table.game == "tournament" and table.served is not None:
            raise ProtocolError("game_started", f"table {table.id}: the tournament has begun")
        if not table.live or table.closing:
            raise ProtocolError("game_over", f"table {table.id}: the game is over")
        free = [s for s in range(table.seats) if s not in self._taken(table)]
        if not free:
            raise ProtocolError("table_full", f"table {table.id}: every seat is taken")
        seats = free[: count or len(free)]
        names = self._names(table)
        for seat in seats:
            name = bot_name(level, names)
            names.add(name)
            self._seat_bot(table, seat, name, level)
            self._tell_lobby(table, {"event": "player_joined", "seat": seat, "name": name,
                                     "bot": level, "hand": self._hand_number(table)})  # fmt: skip
        self._save(table)
        self._play_on(table)
        return {"table": table.id, "seats": seats, "state": self._state(table)}

    def _seat_bot(self, table: RoomTable, seat: int, name: str, level: str) -> None:
        buy_in = None
        if table.served is None:
            table.waiting[seat] = Entry(name, bot=level)
        else:
            game = table.served.game
            assert isinstance(game, CashGame)
            buy_in = game.max_buy_in
            game.join(seat, name, buy_in)
            table.served.bots[seat] = make_bot(level, seed=self._rng.getrandbits(32))
            table.served.levels[seat] = level
        if self.store is not None:
            self.store.save_seat(table.id, seat, name, bot=level, buy_in=buy_in)

    # ------------------------------------------------------------ beginning

    def _start(self, connection: Connection, f: Fields) -> dict[str, Any]:
        table = self._table_of(connection, f, join=False)
        f.done()
        self._creator(connection, table)
        if table.status != "waiting":
            raise ProtocolError("hand_in_progress", f"table {table.id}: it has begun already")
        if len(self._taken(table)) < 2:
            raise ProtocolError("table_error", f"table {table.id}: two players are needed")
        if table.served is None:
            self._begin_tournament(table, self._rng.getrandbits(64))
        table.status = "playing"
        if self.store is not None:
            self.store.set_status(table.id, "playing")
        self._save(table)
        self._play_on(table)
        return {"table": table.id, "state": self._state(table)}

    def _begin_tournament(self, table: RoomTable, seed: int) -> None:
        """The tournament of the players waiting: they sit from seat 0 in the
        order of their seats (their sessions and the store follow, and each
        player is told its seat: ``seated``)."""
        s = table.settings
        order = sorted(table.waiting.items())
        schedule = Schedule.from_dict(s["schedule"])
        game = Tournament([e.name for _, e in order], stack=s["stack"], seats=s["seats"],
                          schedule=schedule, structure=s["structure"], timer=self._timer(table),
                          raise_cap=s.get("raise_cap", 3), heads_up_cap=s.get("heads_up_cap"),
                          rng=seed, **_showing(s))  # fmt: skip
        self._serve_game(table, game)
        served = table.served
        assert served is not None
        table.sessions = {}
        for new, (_, entry) in enumerate(order):
            if entry.bot is not None:
                served.bots[new] = make_bot(entry.bot, seed=self._rng.getrandbits(32))
                served.levels[new] = entry.bot
            elif entry.session is not None:
                session = self._sessions[entry.session]
                session.seat = new
                table.sessions[new] = session.id
                served.owners[new] = session.id
        if self.store is not None:
            self.store.replace_seats(table.id, [
                SeatRow(seat=new, name=e.name, bot=e.bot,
                        token_hash=None if e.session is None
                        else self._sessions[e.session].token_hash,
                        creator=e.session is not None and e.session == table.creator)
                for new, (_, e) in enumerate(order)
            ])  # fmt: skip
        table.waiting = {}
        for seat, session_id in table.sessions.items():
            self._tell(session_id, {"event": "seated", "table": table.id, "seat": seat})

    # ------------------------------------------------------------ listing, watching

    def _list(self, connection: Connection, f: Fields) -> dict[str, Any]:
        """The public tables waiting or being played: this worker's as they
        are, the other workers' as they last committed them to the store."""
        f.done()
        tables = [
            _listed(table.id, table.game, table.status, table.settings,
                    len(self._taken(table)), begun=table.served is not None,
                    hands=0 if table.served is None else table.served.table.hands_played,
                    level=None if table.served is None else table.served.table.blinds,
                    away=_away(table))
            for table in self.tables.values()
            if table.public and table.live
        ]  # fmt: skip
        if self.workers > 1 and self.store is not None:
            tables += [
                _listed(row.id, row.game, row.status, row.settings, row.players,
                        begun=row.status != "waiting", hands=row.hands, level=None, away=None)
                for row in self.store.live_tables()
                if row.public and self._elsewhere(row.id) is not None
            ]  # fmt: skip
            tables.sort(key=lambda t: table_number(t["table"]))
        return {"tables": tables}

    def _watch(self, connection: Connection, f: Fields) -> dict[str, Any]:
        table = self._table_of(connection, f, join=True)
        raw = f.text("name", default=None)
        f.done()
        name = None if raw is None else player_name(raw, "name")
        if name is not None and table.spectators.get(connection.id) != name:
            others = {n for c, n in table.spectators.items() if c in table.watchers}
            if name in self._names(table) | others:
                raise ProtocolError("name_taken", f"table {table.id}: {quote(name)} is at the "
                                    "table", field="name")  # fmt: skip
        if not any(self._sessions[s].table == table.id for s in connection.sessions):
            connection.watching.add(table.id)  # (a player is told everything a watcher is)
            table.watchers.add(connection.id)
            if name is not None:
                table.spectators[connection.id] = name
        return self._state(table)

    def _close(self, connection: Connection, f: Fields) -> dict[str, Any]:
        table = self._table_of(connection, f, join=False)
        f.done()
        self._creator(connection, table)
        served = table.served
        if served is not None and served.table.hand is not None:  # (after this hand)
            table.closing = True
            served.to_play = 0
            return {"table": table.id, "closed": False}
        self._tell_lobby(table, {"event": "table_closed"})
        self._close_now(table)
        return {"table": table.id, "closed": True}

    # ------------------------------------------------------------ what the games say

    def _after_hand(self, table: RoomTable, result: HandResult) -> None:
        served = table.served
        assert served is not None
        if self.store is not None:
            names = dict(zip(result.plan.dealt, result.played.config.names or (), strict=False))
            self.store.save_hand(table.id, result, names)
        for seat in sorted(table.sitting_out):  # (asked during the hand: out from the next)
            self._sit_out_now(table, seat)
        table.sitting_out.clear()
        self._absent(table)
        if served.finished:
            self._over_now(table, "finished", served.results())
        elif table.closing:
            self._tell_lobby(table, {"event": "table_closed"})
            self._close_now(table)
        self._save(table)

    def _seat_freed(self, table: RoomTable, event: Event) -> None:
        """A seat freed (left, busted, timed out): the store forgets it, and
        its player's session ends (a connected player watches on, unless it
        left: ``docs/rooms.md``)."""
        assert isinstance(event, SeatFreed)  # (the only kind it is told)
        if self.store is not None:
            self.store.free_seat(table.id, event.seat, event.reason,
                                 self._last_hand(table, event.seat))  # fmt: skip
        session = self._sessions.get(table.sessions.get(event.seat, 0))
        if session is not None:
            self._end_session(session, table, event.reason, watch=event.reason != "left")

    def _absent(self, table: RoomTable) -> None:
        """Players out of the deal for timing out twice in a row are told
        (``away``; ``back`` brings them in again).  At a private cash table,
        where the timer keeps their seat, they sit out here."""
        served = table.served
        assert served is not None
        timer = served.table.timer
        for seat, session_id in table.sessions.items():
            session = self._sessions.get(session_id)
            info = served.table.seat(seat)
            if session is None or info is None:
                continue
            timed_out = timer is not None and timer.in_a_row(info.name) >= 2
            private_cash = table.game == "cash" and not table.public
            if private_cash and timed_out and info.status != "sitting_out":
                served.table.sit_out(seat)
            # (a cash player who lost every chip sits out too, until a rebuy: not away)
            away = seat in served.table.away or timed_out
            if away and not session.away:
                session.away = True
                self._tell(session_id, {"event": "away", "table": table.id, "seat": seat,
                                        "reason": "two timeouts in a row",
                                        "hand": self._hand_number(table)})  # fmt: skip
                self._tell_status(table, session, "away", "two timeouts in a row")

    # ------------------------------------------------------------ a new server

    def _resume_tables(self, store: Store) -> None:
        """The tables the store holds that were not over, each as it was before
        the hand being played when the server stopped (new cards); one that
        cannot be made again is set aside (:meth:`Store.set_aside`)."""
        for row in store.tables("waiting", "playing"):
            owner = self.owner(row.id)
            if (0 if owner is None else owner) != self.worker:  # (another worker's)
                continue
            why = table_damage(row)
            if why is None:
                try:
                    self._resume_table(store, row)
                except _UNREAD as exc:
                    why = _reason(exc)
            if why is not None:
                store.set_aside(row.id, why)
        self.commit()
        self._note_times()

    def _resume_table(self, store: Store, row: TableRow) -> None:
        """One table made again.  Its game is as it was before the hand being
        played, and what was asked during that hand is done again between
        hands (:meth:`_redo_cut_hand`)."""
        settings = {"chat": "players", **row.settings}  # (a table of an older server's)
        table = RoomTable(row.id, row.code, row.game, row.public, settings, "",
                          creator=None, status=row.status)  # fmt: skip
        kept_seats = store.seats(row.id)
        game = _stored_game(row, self._timer(table), self._rng.getrandbits(64), self.game_clock)
        if game is not None:
            kept_seats = self._redo_cut_hand(store, row.id, game, kept_seats)
            self._serve_game(table, game)
        for kept in kept_seats:
            if kept.bot is not None:
                self._seat_again(table, kept.seat, Entry(kept.name, bot=kept.bot))
            elif kept.token_hash is not None:
                session = Session(self._next_session, row.id, kept.seat, kept.name,
                                  kept.token_hash, first_hand=kept.first_hand or 1)  # fmt: skip
                self._next_session -= 1
                self._sessions[session.id] = session
                self._rewired()
                self._by_token[session.token_hash] = session.id
                table.sessions[kept.seat] = session.id
                if kept.creator:
                    table.creator = session.id
                self._seat_again(table, kept.seat, Entry(kept.name, session=session.id))
        self.tables[row.id] = table
        self._codes[row.code] = row.id
        self._touched.add(row.id)
        if table.creator is None:
            self._pass_creator(table)
        self._save(table)
        self._play_on(table)

    @staticmethod
    def _redo_cut_hand(
        store: Store, ident: str, game: Tournament | CashGame, rows: list[SeatRow]
    ) -> list[SeatRow]:
        """What was asked during the hand a restart cut, done again on the
        game of the snapshot taken before it (nobody is told: the game is not
        served yet); the stored seats that are at the game now.

        A stored seat is the snapshot's (no ``buy_in``: taken before it, the
        same player), taken during the hand (a ``buy_in``: at a cash table it
        is taken again with it), or left during it (no token, no bot: at a
        cash table the player leaves now, at a tournament the stack plays on
        away).  Chips added during the hand are added.  A cash seat freed
        during the hand that held chips the snapshot does not
        (:meth:`Store.seats_left`) is done again too: the chips added, and a
        seat taken then, and left, so that the results count them."""
        cash = isinstance(game, CashGame)
        seated = game.table.seats
        left = store.seats_left(ident) if cash else []

        def snapshots(r: SeatRow) -> bool:  # (the snapshot's player of the seat)
            return r.buy_in is None and r.seat in seated and seated[r.seat].name == r.name

        staying = {r.seat for r in rows
                   if snapshots(r) and (r.bot is not None or r.token_hash is not None)}  # fmt: skip
        for r in [*left, *rows]:  # (chips added in the hand by players who left in it)
            if isinstance(game, CashGame) and r.added and r.seat not in staying and snapshots(r):
                game.add_chips(r.seat, r.added)
        for seat in set(seated) - staying:  # (they left during the hand)
            if cash:
                game.table.leave(seat)
            else:
                game.table.away.add(seat)
        for r in left:  # (seats taken in the hand and left in it)
            if r.buy_in is None:
                continue
            assert isinstance(game, CashGame)
            try:
                game.join(r.seat, r.name, r.buy_in)
            except (TableError, ConfigError):  # (not a seat the table could have given)
                continue
            if r.added:
                game.add_chips(r.seat, r.added)
            game.leave(r.seat)
        kept = []
        for r in rows:
            held = r.bot is not None or r.token_hash is not None
            if r.seat not in staying:
                if not (cash and held and r.buy_in is not None):
                    if cash or held:  # (a tournament's stack left away keeps its row)
                        store.free_seat(ident, r.seat, "restarted" if held else "left",
                                        game.table.hands_played)  # fmt: skip
                    continue
                assert isinstance(game, CashGame)
                try:
                    game.join(r.seat, r.name, r.buy_in)
                except (TableError, ConfigError):  # (the table's limits refuse it now)
                    store.free_seat(ident, r.seat, "restarted", game.table.hands_played)
                    continue
            if r.added and isinstance(game, CashGame):
                game.add_chips(r.seat, r.added)
            kept.append(r)
        return kept

    def _seat_again(self, table: RoomTable, seat: int, entry: Entry) -> None:
        """A seat of the store, at a table made again (its player, or its bot)."""
        served = table.served
        if served is None:
            table.waiting[seat] = entry
        elif entry.bot is not None:
            served.bots[seat] = make_bot(entry.bot, seed=self._rng.getrandbits(32))
            served.levels[seat] = entry.bot
        elif entry.session is not None:
            served.owners[seat] = entry.session


#: What a stored table that does not make its game raises.
_UNREAD = (HoldemError, KeyError, TypeError, ValueError)


def _showing(settings: dict[str, Any]) -> dict[str, Any]:
    """A table's options of R10 and its chip unit (R9) (a table of an older
    server's has their defaults)."""
    return {
        "show_after_hand": settings.get("show_after_hand", True),
        "aggressor_may_muck": settings.get("aggressor_may_muck", False),
        "run_it_twice": settings.get("run_it_twice", False),
        "unit": settings.get("unit", "1"),
    }


def _timer_rules(game: str, public: bool, settings: dict[str, Any]) -> TimerRules:
    """The turn timer's rules of a table of these settings."""
    s = settings["timer"]
    # a private cash table keeps an absent friend's seat (sat out, not freed:
    # _absent), a public one frees it (R13); a tournament stack plays on
    free = None if game == "cash" and not public else 2
    return TimerRules(seconds=s["seconds"], time_bank=s["time_bank"], policy=s["policy"],
                      free_seat_after=free)  # fmt: skip


def _stored_game(
    row: TableRow, timer: TurnTimer, rng: int, clock: Callable[[], float] = time.monotonic
) -> Tournament | CashGame | None:
    """The game of a stored table, as its snapshot has it (None: none yet, a
    tournament waiting for its players); a cash session's time (``max_seconds``)
    on ``clock``, from the seconds it had played."""
    if row.snapshot is None:
        return None
    game_type = Tournament if row.game == "tournament" else CashGame
    return game_type.from_snapshot(row.snapshot, rng=rng, timer=timer, clock=clock)


def _reason(exc: BaseException) -> str:
    """What an error of a stored table says (a missing key named as such)."""
    return f"no {exc}" if isinstance(exc, KeyError) else str(exc)


def table_damage(row: TableRow) -> str | None:
    """Why a stored table cannot be made again (None: it can): a field of its
    row that does not read, settings that ``create_table`` would not have
    made (they are read again as it reads them), or a snapshot that is not a
    game of its kind."""
    if row.damage is not None:
        return row.damage
    try:
        f = Fields(dict(row.settings), "settings")
        settings = table_settings(f)
        f.done()
        if settings["game"] != row.game:
            return (f"settings.game: {quote(settings['game'])}, but the table's game is "
                    f"{quote(row.game)}")  # fmt: skip
        _stored_game(row, TurnTimer(_timer_rules(row.game, row.public, settings)), 0)
    except _UNREAD as exc:
        return _reason(exc)
    return None


def set_aside(store: Store) -> list[Damage]:
    """The tables waiting or being played that cannot be made again
    (:func:`table_damage`), each set aside (:meth:`Store.set_aside`; the
    others are served): what was, and why.  A server calls it before it
    resumes its tables (every worker's, ``--workers``)."""
    aside = [Damage(why, row.id) for row in store.tables("waiting", "playing")
             if (why := table_damage(row)) is not None]  # fmt: skip
    for damage in aside:
        assert damage.table is not None
        store.set_aside(damage.table, damage.why)
    store.commit()
    return aside


def check(store: Store, *, progress: Callable[[int], object] | None = None) -> Checked:
    """What of a room's data file a server could not read (:meth:`Store.check`),
    and each table waiting or being played that it could not make again
    (:func:`table_damage`).  Nothing is changed."""
    checked = store.check(progress=progress)
    known = {d.table for d in checked.damage if d.hand is None}
    try:
        rows = store.tables("waiting", "playing")
    except sqlite3.DatabaseError:  # (said by the check already)
        rows = []
    more = [Damage(why, row.id) for row in rows
            if row.id not in known and (why := table_damage(row)) is not None]  # fmt: skip
    return Checked(damage=[*checked.damage, *more], tables=checked.tables, hands=checked.hands)


def _away(table: RoomTable) -> int:
    """How many of a table's players are out of the deal now: away (two
    timeouts in a row, or sat out: a tournament's stack is blinded off until
    they are back, R13) or sitting out (a cash seat)."""
    served = table.served
    if served is None:
        return 0
    t = served.table
    return sum(seat in t.away or info.status == "sitting_out" for seat, info in t.seats.items())


def _listed(ident: str, game: str, status: str, settings: dict[str, Any], players: int, *,
            begun: bool, hands: int, level: Level | None,
            away: int | None) -> dict[str, Any]:  # fmt: skip
    """A table as ``list_tables`` tells of it: a tournament's ``blinds`` are
    its level's now (``level``; the first before it begins, none when not
    known here: another worker's), with its ``stack``; ``away``: its players
    out of the deal (:func:`_away`; None when not known here)."""
    if game == "cash":
        blinds = {"small_blind": settings["small_blind"], "big_blind": settings["big_blind"]}
    elif level is not None or not begun:
        now = Schedule.from_dict(settings["schedule"]).levels[0] if level is None else level
        blinds = {"small_blind": now.small_blind, "big_blind": now.big_blind, "ante": now.ante,
                  "big_blind_ante": now.big_blind_ante}  # fmt: skip
    else:
        blinds = None
    listed = {
        "table": ident, "game": game, "status": status, "players": players,
        "max_seats": int(settings["seats"]), "blinds": blinds,
        "structure": settings["structure"], "hands_played": hands,
        "joinable": game == "cash" or not begun, "away": away,
    }  # fmt: skip
    if game == "tournament":
        listed["stack"] = settings["stack"]
    listed["unit"] = settings.get("unit", "1")  # (the amounts are chips of it, R9)
    listed["run_it_twice"] = settings.get("run_it_twice", False)
    return listed
