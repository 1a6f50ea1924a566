"""A table's chat: a line said by a player (or a spectator, where the table
lets them) goes to everyone at the table who has not muted its writer, and
to the store with the hands (``docs/rooms.md``, "Table chat").

The server does not rewrite a line: what a client sends, within the limits
(:attr:`Limits.chat_chars` characters, :attr:`Limits.chat_lines` lines in
:attr:`Limits.chat_seconds` seconds a connection), is what everyone is told,
control characters and all (JSON escapes them; a client shows them as
text)."""

from __future__ import annotations

from typing import Any

from ..errors import ProtocolError, quote
from ..wire import Fields
from .core import Connection, Core, RoomTable, Session

__all__ = ["Chat"]


class Chat(Core):
    """The requests of a table's chat (see :class:`~holdem.rooms.room.Room`)."""

    def _chat(self, connection: Connection, f: Fields) -> dict[str, Any]:
        table = self._table_of(connection, f, join=False)
        text = f.text("text")
        f.done()
        limits = self.limits
        if not text.strip():
            raise ProtocolError("invalid_field", "request.text: empty (a chat line says "
                                "something)", field="text")  # fmt: skip
        if len(text) > limits.chat_chars:
            raise ProtocolError("invalid_field", f"request.text: at most {limits.chat_chars} "
                                f"characters, not {len(text):,}", field="text")  # fmt: skip
        session, name = self._chatter(connection, table)
        who = table.settings.get("chat", "players")
        if who == "off":
            raise ProtocolError("table_error", f"table {table.id}: its chat is off (its "
                                "creator made it so)")  # fmt: skip
        if session is None and who != "everyone":
            raise ProtocolError("not_your_seat", f"table {table.id}: spectators read its chat, "
                                "and only its players write")  # fmt: skip
        now = self.clock()
        said = connection.said
        while said and said[0] <= now - limits.chat_seconds:
            said.popleft()
        if len(said) >= limits.chat_lines:
            wait = said[0] + limits.chat_seconds - now
            raise ProtocolError(
                "chat_flood",
                f"at most {limits.chat_lines} chat lines in {limits.chat_seconds:g} s: you may "
                f"write again in {max(wait, 0.1):.1f} s",
            )
        said.append(now)
        seat = None if session is None else session.seat
        hand = self._hand_number(table)
        if self.store is not None:
            self.store.save_chat(table.id, hand, seat, name, text)
        message = {"event": "chat", "table": table.id, "seat": seat, "name": name, "text": text,
                   "hand": hand}  # fmt: skip
        audience = self._audience(table)
        told = [t for t in audience if name not in self._muted_by(t, table.id)]
        self._send(told if len(told) < len(audience) else audience, message)
        return {"table": table.id, "hand": hand, "name": name}

    def _mute(self, connection: Connection, f: Fields) -> dict[str, Any]:
        """The connection's seat (or, watching, the connection) is told no
        more of a name's chat (``muted`` false: told again).  A seat's mutes
        are its session's: they last while its player comes and goes."""
        table = self._table_of(connection, f, join=False)
        name = f.text("name")
        muted = f.boolean("muted", default=True)
        f.done()
        session, mine = self._chatter(connection, table)
        if muted and name == mine:
            raise ProtocolError("invalid_field", f"request.name: {quote(name)} is you",
                                field="name")  # fmt: skip
        if muted and name not in self._chat_names(table):
            raise ProtocolError("invalid_field", f"request.name: nobody at table {table.id} "
                                f"is called {quote(name)}", field="name")  # fmt: skip
        names = (
            session.muted if session is not None else connection.muted.setdefault(table.id, set())
        )
        if muted:
            names.add(name)
        else:
            names.discard(name)
        return {"table": table.id, "name": name, "muted": muted, "muting": sorted(names)}

    def _chatter(self, connection: Connection, table: RoomTable) -> tuple[Session | None, str]:
        """Who a connection is at a table's chat: its seat's session and name,
        or (None and) its name as a spectator."""
        session = self._session_at(connection, table)
        if session is not None:
            return session, session.name
        if connection.id not in table.watchers:
            raise ProtocolError("not_your_seat", f"table {table.id}: you neither play nor "
                                "watch it", field="table")  # fmt: skip
        return None, self._spectator(table, connection.id)

    def _chat_names(self, table: RoomTable) -> set[str]:
        """The names at a table: its players' and its spectators'."""
        return self._names(table) | {self._spectator(table, c) for c in table.watchers}

    def _muted_by(self, target: int, ident: str) -> set[str]:
        """The names whose chat a target (a session, or a connection) is not told."""
        if target < 0:
            session = self._sessions.get(target)
            return set() if session is None else session.muted
        connection = self._connections.get(target)
        return _NONE if connection is None else connection.muted.get(ident, _NONE)


_NONE: set[str] = set()  # (nobody muted: shared, never changed)
