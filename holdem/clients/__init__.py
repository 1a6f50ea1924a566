"""The players' clients: what a person at a table sees and types, above the
rooms and the tables, below the command line.

One presentation of a table's events, :class:`Teller`, serves every client
(what a line says is what a screen draws); :mod:`~holdem.clients.commands`
reads what a player types into decisions; :class:`RoomClient` talks to a
room server (``docs/rooms.md``); :class:`RoomGame` is a player's game at a
room's table (``holdem join``) and :class:`LocalGame` one against bots on
this machine (``holdem play``); :mod:`~holdem.clients.terminal` reads the
terminal; :mod:`~holdem.clients.seats` remembers the seats a player holds;
:class:`TableModel` is a table as one player sees it (what a screen draws),
and :mod:`holdem.clients.fullscreen` draws it in the terminal (Textual,
imported only by the commands that draw it).
"""

from .commands import HELP, Refused, menu, read_command, show_or_muck
from .connection import RoomClient
from .lobby import listing, table_fields
from .local import Histories, LocalGame, bot_deciders, certificate, play_cash, play_tournament
from .model import TableModel
from .room import (
    LOBBY_HELP,
    WARNINGS,
    WATCH_HELP,
    RoomGame,
    come_back_command,
    greet,
    greet_watcher,
    lobby_felt,
    play_room,
)
from .seats import end_seat, keep_seat, kept_seats, reading_tokens, seat_key, seats_file
from .telling import Teller, escaped, ordinal
from .terminal import Console, Keyboard, quiet_ctrl_c

__all__ = [
    "HELP",
    "LOBBY_HELP",
    "WARNINGS",
    "WATCH_HELP",
    "Console",
    "Histories",
    "Keyboard",
    "LocalGame",
    "Refused",
    "RoomClient",
    "RoomGame",
    "TableModel",
    "Teller",
    "bot_deciders",
    "certificate",
    "come_back_command",
    "end_seat",
    "escaped",
    "greet",
    "greet_watcher",
    "keep_seat",
    "kept_seats",
    "listing",
    "lobby_felt",
    "menu",
    "ordinal",
    "play_cash",
    "play_room",
    "play_tournament",
    "quiet_ctrl_c",
    "read_command",
    "reading_tokens",
    "seat_key",
    "seats_file",
    "show_or_muck",
    "table_fields",
]
