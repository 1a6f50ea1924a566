"""A player's seat at a room's table: what the player does with it (act, add
chips, come back from being away), what they may see of it (state, view,
menu, histories), leaving it, and taking it up again with its token."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from json.encoder import encode_basestring_ascii
from typing import Any

from ..actions import Decision
from ..config import HandConfig
from ..errors import ProtocolError, TableError, WireError, quote
from ..hand import Hand
from ..protocol.messages import encode, error_reply, internal_error, quick_object
from ..protocol.tables import histories_text, show_cards
from ..protocol.texts import plain
from ..table import CashGame
from ..wire import Fields
from .codes import Rate, new_token, token_hash
from .core import Connection, Core, RoomTable, Session
from .settings import MOST_CHIPS
from .store import Damage, replay

__all__ = ["Seats"]

#: The fields an ``act`` may have (the one request :meth:`Seats._act_at_once` reads).
_ACT_FIELDS = frozenset(("id", "type", "table", "action"))


class Seats(Core):
    """The requests of a seat's player (see :class:`~holdem.rooms.room.Room`)."""

    # ------------------------------------------------------------ playing

    def _act_at_once(self, connection: Connection, line: bytes | str) -> str | None:
        """The reply to an ``act`` in its usual form (the table of a seat this
        connection plays, a decision, an integer id or none), served without
        the general reader of requests: a player's every decision comes so.
        None for any other line, and for one whose error the general reader
        must answer (nothing was done: it reads the line again, and finds the
        same).  The reply is the one :meth:`_act` gives, word for word."""
        if not connection.hello or not connection.sessions:
            return None
        data = quick_object(line)
        if type(data) is not dict or data.get("type") != "act" or not _ACT_FIELDS.issuperset(data):
            return None
        ident = data.get("id")
        if ident is not None and (type(ident) is not int or not -(2**63) <= ident < 2**63):
            return None
        table_id = data.get("table")
        if type(table_id) is not str:
            return None
        session = None
        for session_id in connection.sessions:
            found = self._sessions.get(session_id)
            if found is not None and found.table == table_id:
                session = found
                break
        table = self.tables.get(table_id)
        if session is None or table is None or table.served is None or table.stopped:
            return None  # (a stopped table: the general reader refuses it)
        try:
            decision = Decision.from_dict(data.get("action"), where="request.action")
        except WireError:
            return None
        self._evict(self.clock())
        self._touched.add(table.id)
        try:
            in_time = table.served.act(session.seat, decision)
        except ProtocolError:
            return None
        except Exception as exc:  # a bug: answered as the general reader answers it
            return encode(error_reply(ident, internal_error(exc)))
        return (
            f'{{"id":{"null" if ident is None else ident},"result":{{"table":'
            f'{encode_basestring_ascii(table.id)},"seat":{session.seat},'
            f'"in_time":{"true" if in_time else "false"}}}}}'
        )

    def _act(self, connection: Connection, f: Fields) -> dict[str, Any]:
        table = self._table_of(connection, f, join=False)
        raw = f.raw("action", 'a decision ({"kind": ...})')
        decision = Decision.from_dict(raw, where="request.action")
        f.done()
        session = self._own(connection, table)
        in_time = self._served(table).act(session.seat, decision)
        return {"table": table.id, "seat": session.seat, "in_time": in_time}

    def _add_chips(self, connection: Connection, f: Fields) -> dict[str, Any]:
        table = self._table_of(connection, f, join=False)
        chips = f.integer("chips", minimum=1, maximum=MOST_CHIPS)
        f.done()
        session = self._own(connection, table)
        game = self._served(table).game
        if not isinstance(game, CashGame):
            raise ProtocolError("table_error", f"table {table.id}: nobody adds chips in a "
                                "tournament")  # fmt: skip
        try:
            now = game.add_chips(session.seat, chips)
        except TableError as exc:
            raise ProtocolError("table_error", str(exc), field="chips") from None
        if self.store is not None and game.table.hand is not None:  # (no snapshot holds them)
            self.store.add_chips(table.id, session.seat, chips)
        self._save(table)
        self._play_on(table)
        return {"table": table.id, "seat": session.seat, "chips": chips, "now": now}

    def _sit_out(self, connection: Connection, f: Fields) -> dict[str, Any]:
        """The player is out of the deal from the next hand (the one being
        played, if dealt in it, is theirs to play): a cash seat sits out, a
        tournament stack is dealt in and checks or folds at once, until
        ``back``.  The others are told (``seat_status`` ``away``, ``sat
        out``)."""
        table = self._table_of(connection, f, join=False)
        f.done()
        session = self._own(connection, table)
        seat = session.seat
        hand = self._served(table).table.hand
        if not session.away:
            if hand is not None and seat in hand.config.seat_numbers:
                table.sitting_out.add(seat)
            else:
                self._sit_out_now(table, seat)
            session.away = True
            self._tell_status(table, session, "away", "sat out")
            self._save(table)
        session.sat_out = True  # (away for timeouts too: out until back now)
        return {"table": table.id, "seat": seat, "status": "away",
                "now": seat not in table.sitting_out}  # fmt: skip

    def _back(self, connection: Connection, f: Fields) -> dict[str, Any]:
        table = self._table_of(connection, f, join=False)
        post = f.boolean("post", default=False)
        f.done()
        session = self._own(connection, table)
        table.sitting_out.discard(session.seat)  # (asked during the hand: not now)
        self._come_back(table, session.seat, post=post)
        session.away = session.sat_out = False
        served = table.served
        info = None if served is None else served.table.seat(session.seat)
        return {"table": table.id, "seat": session.seat, "back": True,
                "status": None if info is None else info.status}  # fmt: skip

    def _come_back(self, table: RoomTable, seat: int, *, post: bool = False,
                   must: bool = True) -> None:  # fmt: skip
        """A player away (two timeouts) or sitting out is dealt in again, their
        timeouts in a row counted from none (else the count that sat them out
        sits them out again after the next hand); at a cash table, one who owes
        blinds waits for the big blind, or with ``post`` posts them to be dealt
        in at once (R3).  A seat with no chips
        cannot be: refused (``table_error``) when it ``must``, else it sits
        out until the player adds chips."""
        served = table.served
        if served is None:
            return
        t = served.table
        info = t.seat(seat)
        if info is not None:
            t.come_back(seat)  # (away, or sat out by timeouts: their count starts again)
        if info is not None and (
            info.status == "sitting_out" or (post and info.status == "waiting")
        ):
            try:
                t.sit_in(seat, post=post)
            except TableError as exc:  # (no chips: add_chips first)
                if must:
                    raise ProtocolError("table_error", str(exc)) from None
        self._save(table)
        self._play_on(table)

    # ------------------------------------------------------------ seeing

    def _state_request(self, connection: Connection, f: Fields) -> dict[str, Any]:
        table = self._table_of(connection, f, join=False)
        f.done()
        return self._state(table)

    def _view(self, connection: Connection, f: Fields) -> dict[str, Any]:
        table = self._table_of(connection, f, join=False)
        f.done()
        session = self._own(connection, table)
        hand = self._served(table).table.hand
        if hand is None or session.seat not in hand.config.seat_numbers:
            raise ProtocolError("no_hand", f"table {table.id}: you are not in a hand now")
        return {"table": table.id, "view": hand.view(session.seat).to_dict()}

    def _legal(self, connection: Connection, f: Fields) -> dict[str, Any]:
        table = self._table_of(connection, f, join=False)
        f.done()
        session = self._own(connection, table)
        hand = table.served.table.hand if table.served is not None else None
        legal = None
        if hand is not None and hand.actor == session.seat:
            menu = hand.legal_actions()
            legal = None if menu is None else menu.to_dict()
        return {"table": table.id, "seat": session.seat, "legal": legal}

    def _show(self, connection: Connection, f: Fields) -> dict[str, Any]:
        """The player shows their cards of the table's last finished hand (R10:
        having folded or won it uncontested), where the table allows it:
        everyone at the table is told ``cards_shown``, and the stored hand
        keeps the show (its history has it).  Only the player dealt in it."""
        table = self._table_of(connection, f, join=False)
        f.done()
        session = self._own(connection, table)
        served = self._served(table)
        last = served.table.last_hand
        tenure = Tenure(session.seat, session.name, session.first_hand, None)
        if last is not None and not tenure.dealt(last.hand, last.played.config):
            raise ProtocolError("table_error", f"table {table.id}: you were not dealt in hand "
                                f"{last.hand}, the last hand played: nothing to show")  # fmt: skip
        shown = show_cards(served, session.seat)
        if self.store is not None and last is not None:
            self.store.save_shown(table.id, last.hand, last.played)
        return shown

    def _run_twice(self, connection: Connection, f: Fields) -> dict[str, Any]:
        """Whether the player agrees to run it twice (R10: ``agree``, default
        true), from the next hand on, at a table made with ``run_it_twice``
        (everyone agrees until they say no); the table's snapshot keeps it."""
        table = self._table_of(connection, f, join=False)
        agree = f.boolean("agree", default=True)
        f.done()
        session = self._own(connection, table)
        served = self._served(table)
        try:
            served.table.agree_to_run_twice(session.seat, agree)
        except TableError as exc:
            raise ProtocolError("table_error", f"table {table.id}: {exc}") from None
        self._save(table)
        return {"table": table.id, "seat": session.seat, "agree": agree}

    def _history(self, connection: Connection, f: Fields) -> dict[str, Any]:
        """Finished hands as text: the cards shown, and the asking seat's own
        hole cards in the hands its player was dealt in (a watcher: the
        cards shown alone).  ``hand``: one hand; ``hands``: a list of hands,
        or ``"all"`` (those ``hands`` lists), as one text of many hands."""
        ident, table, tenure, game = self._reader(connection, f)
        number = f.integer("hand", default=None, optional=True, minimum=1)
        asked = f.raw("hands", 'a list of hand numbers, or "all"', default=None)
        form = f.text("format", default="phh")
        f.done()
        if form not in ("phh", "pokerstars"):
            raise ProtocolError("invalid_field", f"request.format: 'phh' or 'pokerstars', "
                                f"not {quote(form)}", field="format")  # fmt: skip
        if (number is None) == (asked is None):
            raise ProtocolError("missing_field", "request.hand or request.hands: one of them",
                                field="hand")  # fmt: skip
        most = self.limits.history_hands
        if number is not None:
            numbers = [number]
        elif asked == "all":
            numbers = [n for n, _, _ in self._hands_of(ident, table, tenure)][::-1]
            if len(numbers) > most:
                raise ProtocolError("invalid_field", f'request.hands: "all" is {len(numbers):,} '
                                    f"hands, and a request gets at most {most}: ask for them by "
                                    "number (the hands request lists them)",
                                    field="hands")  # fmt: skip
        else:
            numbers = _numbers(asked, most)
        self._may_read(connection, len(numbers))
        hands = []
        for n in numbers:
            hand = self._finished_hand(ident, table, n)
            hero = tenure.seat if tenure is not None and tenure.dealt(n, hand.config) else None
            hands.append((hand, n, hero))
        text = histories_text(hands, tournament=game == "tournament", form=form,
                              many=number is None)  # fmt: skip
        seat = None if tenure is None else tenure.seat
        if number is not None:
            return {"table": ident, "seat": seat, "hand": number, "format": form, "text": text}
        return {"table": ident, "seat": seat, "hands": numbers, "format": form, "text": text}

    def _may_read(self, connection: Connection, count: int) -> None:
        """Refuses a ``history`` request for more hands than the connection may
        read now (:attr:`Limits.history_hands` at once, then
        :attr:`Limits.hands_per_second`: each costs the server about a
        millisecond), and counts those it may."""
        limits, now = self.limits, self.clock()
        if connection.reads is None:
            connection.reads = Rate(limits.hands_per_second, limits.history_hands, now)
        reads = connection.reads
        if not reads.take(now, count):
            left = reads.left(now)
            wait = (count - left) / limits.hands_per_second
            raise ProtocolError(
                "rate_limited",
                f"at most {limits.hands_per_second:g} hands a second read after the first "
                f"{limits.history_hands}: {int(left)} may be read now, not {count}; try again "
                f"in {max(wait, 0.1):.1f} s",
            )

    def _hands(self, connection: Connection, f: Fields) -> dict[str, Any]:
        """The finished hands the asking seat's player was dealt in (a
        watcher: every finished hand), the latest :attr:`Limits.hands_listed`
        (``before``: those numbered below it), each with when it finished
        and the chips the seat won or lost in it (``net``)."""
        ident, table, tenure, _ = self._reader(connection, f)
        before = f.integer("before", default=None, optional=True, minimum=1)
        f.done()
        most = self.limits.hands_listed
        listed: list[dict[str, Any]] = []
        more = False
        for n, finished, net in self._hands_of(ident, table, tenure, before):
            if len(listed) == most:
                more = True  # (older ones: before=the first listed)
                break
            listed.append({"hand": n, "finished": finished, "net": net})
        return {"table": ident, "seat": None if tenure is None else tenure.seat,
                "hands": listed[::-1], "more": more}  # fmt: skip

    def _reader(
        self, connection: Connection, f: Fields
    ) -> tuple[str, RoomTable | None, Tenure | None, str]:
        """Whose hands a ``history`` or ``hands`` request reads: the table (its
        id; the table itself when it is here), the seat's time there (None: a
        watcher) and the table's game.  With ``token``, the seat of that
        token, connected or not, played now or left (a token that ended
        reads its own hands and does nothing else; one replaced by a
        ``resume`` does not: the token that replaced it does)."""
        token = f.text("token", default=None)
        if token is None:
            table = self._table_of(connection, f, join=False)
            return table.id, table, _tenure_of(self._session_at(connection, table)), table.game
        named = f.text("table", default=None)
        now = self._may_guess(connection)
        hashed = token_hash(token)
        session = self._sessions.get(self._by_token.get(hashed, 0))
        if session is not None:
            ident, tenure = session.table, _tenure_of(session)
        else:
            found = None if self.store is None else self.store.token_seat(hashed)
            if found is None:
                self._guesses.failed(connection.address, now)
                if hashed in self._old_tokens:
                    raise ProtocolError("token_expired", "this token no longer gives a seat: "
                                        f"{self._old_tokens[hashed]}", field="token")  # fmt: skip
                raise ProtocolError("unknown_token", "no seat has this token", field="token")
            if found.reason == "replaced" or found.name is None:
                why = ("it was replaced by the token a resume gave (that one reads the seat's "
                       "hands)" if found.name is not None else "it ended before this server "
                       "kept which hands were its seat's")  # fmt: skip
                raise ProtocolError("token_expired", f"this token reads no hands: {why}",
                                    field="token")  # fmt: skip
            last = found.last_hand if found.reason is not None else None
            ident, tenure = found.table, Tenure(found.seat, found.name, found.first_hand, last)
        if named is not None and named != ident:
            raise ProtocolError("invalid_field", f"request.table: this token's seat is at table "
                                f"{ident}, not {quote(named)}", field="table")  # fmt: skip
        here = self.tables.get(ident)
        if here is not None:
            return ident, self._going(here), tenure, here.game
        game = None if self.store is None else self.store.game(ident)
        if game is None:  # (a table of a worker's that has no store: gone)
            raise ProtocolError("unknown_table", f"no table {quote(ident)}", field="table")
        return ident, None, tenure, game

    def _hands_of(
        self, ident: str, table: RoomTable | None, tenure: Tenure | None,
        before: int | None = None,
    ) -> Iterator[tuple[int, float | None, int | None]]:  # fmt: skip
        """The finished hands of a seat's time at a table (None: every one),
        the latest first (``before``: those numbered below it): each one's
        number, when it finished (None: not known, a room without a store)
        and the seat's chips won or lost in it (None: a watcher's)."""
        if self.store is not None:
            rows: Iterable[tuple[int, float | None, dict[str, Any]]] = self.store.hand_results(
                ident, before=before)  # fmt: skip
        else:
            kept = {} if table is None or table.served is None else table.served.kept
            rows = (
                (n, None, _result_of(hand)) for n, hand in reversed(kept.items())
                if before is None or n < before
            )  # fmt: skip
        for number, finished, result in rows:
            if tenure is None:
                yield number, finished, None
                continue
            seats = result.get("seats")
            if not isinstance(seats, list) or not tenure.dealt(number, result):
                continue
            i = seats.index(tenure.seat)
            try:
                net = int(result["chips_after"][i]) - int(result["chips_before"][i])
            except (KeyError, IndexError, TypeError, ValueError):
                net = None
            yield number, finished, net

    def _finished_hand(self, ident: str, table: RoomTable | None, number: int) -> Hand:
        """A finished hand of a table (``invalid_field`` when there is none)."""
        hand = None
        if table is not None and table.served is not None:
            hand = table.served.kept.get(number)
        if hand is None and self.store is not None:
            stored = self.store.stored_hand(ident, number)
            if stored is not None:
                played = stored if isinstance(stored, Damage) else replay(stored)
                if isinstance(played, Damage):  # (the data file's copy: damaged)
                    raise ProtocolError("table_error", str(played), field="hand")
                hand = played
        if hand is None or hand.outcome is None:
            raise ProtocolError("invalid_field", f"table {ident} has no hand {number} "
                                "finished", field="hand")  # fmt: skip
        return hand

    # ------------------------------------------------------------ leaving, coming back

    def _leave(self, connection: Connection, f: Fields) -> dict[str, Any]:
        """The player leaves: a waiting tournament's seat at once; a cash seat
        after the hand (the table checks or folds for it until then); a
        tournament stack plays on, checking or folding, until it busts."""
        table = self._table_of(connection, f, join=False)
        f.done()
        session = self._own(connection, table)
        seat = session.seat
        now = True
        served = table.served
        if served is None:
            del table.waiting[seat]
            if self.store is not None:
                self.store.free_seat(table.id, seat, "left", 0)
        elif table.game == "cash":
            game = served.game
            assert isinstance(game, CashGame)
            now = game.leave(seat)
        else:
            served.table.away.add(seat)
        self._end_session(session, table, "left")  # (left: not told the table from now on)
        if served is not None and served.table.hand is not None:
            served.advance()  # (nobody plays the seat now)
        self._tell_lobby(table, {"event": "player_left", "seat": seat, "name": session.name,
                                 "hand": self._hand_number(table)})  # fmt: skip
        self._save(table)
        return {"table": table.id, "seat": seat, "left": now}

    def _resume(self, connection: Connection, f: Fields) -> dict[str, Any]:
        token = f.text("token")
        take_over = f.boolean("take_over", default=True)
        f.done()
        now = self._may_guess(connection)
        hashed = token_hash(token)
        session_id = self._by_token.get(hashed)
        if session_id is None and self.workers > 1 and self._holds(connection):
            found = None if self.store is None else self.store.token_table(hashed)
            if found is not None and found[1] and self._elsewhere(found[0]) is not None:
                raise self._other_worker(f"the seat of this token (table {found[0]})")
        if session_id is None:
            self._guesses.failed(connection.address, now)
            why = self._old_tokens.get(hashed)
            if why is None and self.store is not None:
                why = self.store.old_token(hashed)
            if why is not None:
                raise ProtocolError("token_expired", f"this token no longer gives a seat: {why}",
                                    field="token")  # fmt: skip
            raise ProtocolError("unknown_token", "no seat has this token", field="token")
        session = self._sessions[session_id]
        table = self._going(self.tables[session.table])
        self._touched.add(table.id)
        held = self._connections.get(session.connection) if session.connection else None
        if held is not None and held.id != connection.id:
            if held.address != connection.address:
                raise ProtocolError("token_in_use", "the seat is connected from another address",
                                    field="token")  # fmt: skip
            if not take_over:
                raise ProtocolError("token_in_use", "the seat is connected from another "
                                    "client of yours (take_over: true takes it)",
                                    field="token")  # fmt: skip
            held.sessions.discard(session.id)
            self._tell(held.id, {"event": "seat_taken_over", "table": table.id,
                                 "seat": session.seat})  # fmt: skip
        # a new token for the seat: the one used no longer works
        new = new_token()
        del self._by_token[session.token_hash]
        self._old_tokens[session.token_hash] = "replaced"
        if self.store is not None:
            self.store.end_token(table.id, session.token_hash, "replaced")
            self.store.set_token(table.id, session.seat, token_hash(new))
        session.token_hash = token_hash(new)
        self._by_token[session.token_hash] = session.id
        session.connection = connection.id
        self._rewired()
        connection.sessions.add(session.id)
        if held is None:  # (the others are told the player is back)
            self._tell_status(table, session, "connected")
        missed, dropped = [plain(m) for m in session.backlog], session.dropped
        session.backlog.clear()
        session.dropped = 0
        if not session.sat_out:  # (one who sat out stays out until back)
            if session.away:  # (dealt in again: below)
                self._tell_status(table, session, "back")
            session.away = False
            self._come_back(table, session.seat, must=False)  # (a busted seat is taken up too)
        view = None
        served = table.served
        hand = None if served is None else served.table.hand
        if hand is not None and session.seat in hand.config.seat_numbers:
            view = hand.view(session.seat).to_dict()
        result = {
            "table": table.id,
            "seat": session.seat,
            "name": session.name,
            "token": new,
            "state": self._state(table),
            "view": view,
            "missed": missed,
            "missed_dropped": dropped,
        }
        if served is not None:  # (after the reply: the turn it has, if any)
            served.tell_turn_again(session.seat)
        return result


@dataclass(frozen=True, slots=True)
class Tenure:
    """A player's time at a seat: the hands numbered ``first`` to ``last``
    (None: to now) that the seat was dealt in under the player's ``name``
    (another's before or after them at the seat are not theirs)."""

    seat: int
    name: str
    first: int
    last: int | None

    def dealt(self, number: int, hand: HandConfig | dict[str, Any]) -> bool:
        """Whether the player was dealt in hand ``number``: its configuration,
        or its stored result (``seats``, ``names``)."""
        if number < self.first or (self.last is not None and number > self.last):
            return False
        if isinstance(hand, HandConfig):
            seats: Any = hand.seat_numbers
            names: Any = hand.names
        else:
            seats, names = hand.get("seats"), hand.get("names")
        if not isinstance(seats, list | tuple) or self.seat not in seats:
            return False
        i = seats.index(self.seat)
        return isinstance(names, list | tuple) and i < len(names) and names[i] == self.name


def _tenure_of(session: Session | None) -> Tenure | None:
    return None if session is None else Tenure(session.seat, session.name, session.first_hand,
                                               None)  # fmt: skip


def _result_of(hand: Hand) -> dict[str, Any]:
    """What a hand kept in memory did to its seats, as the store keeps it
    (:func:`~holdem.rooms.store.result_record`'s ``seats``, ``names``,
    ``chips_before``, ``chips_after``)."""
    config, outcome = hand.config, hand.outcome
    return {
        "seats": list(config.seat_numbers),
        "names": list(config.names or ()),
        "chips_before": list(config.stacks),
        "chips_after": [] if outcome is None else list(outcome.stacks),
    }


def _numbers(asked: Any, most: int) -> list[int]:
    """The hand numbers of a ``history`` request's ``hands`` list, each once."""
    if not isinstance(asked, list) or not asked:
        raise ProtocolError("invalid_field", 'request.hands: a list of hand numbers, or "all"',
                            field="hands")  # fmt: skip
    for i, n in enumerate(asked):
        if type(n) is not int or n < 1:
            raise ProtocolError("invalid_field", f"request.hands[{i}]: a hand number (1 or "
                                f"more), not {quote(n)}", field="hands")  # fmt: skip
    numbers = list(dict.fromkeys(asked))
    if len(numbers) > most:
        raise ProtocolError("invalid_field", f"request.hands: at most {most} hands a request, "
                            f"not {len(numbers):,}", field="hands")  # fmt: skip
    return numbers
