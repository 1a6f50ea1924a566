"""Rooms: a server where people and bots play at shared tables over the
network (``holdem serve``, ``docs/rooms.md``).

:class:`~holdem.rooms.room.Room` serves the requests (pure, like the
protocol's engine); :func:`~holdem.rooms.server.serve` puts it on a TCP
port; :class:`~holdem.rooms.store.Store` keeps the tables and every hand in
SQLite; :func:`~holdem.rooms.workers.serve_workers` serves one room in
several processes.  The clients that talk to a server are
:mod:`holdem.clients`.
"""

from .room import REQUESTS, Limits, Room
from .server import RoomServer, serve
from .store import Store, StoredHand, hand_of, hand_record, table_number
from .workers import serve_workers

__all__ = [
    "REQUESTS",
    "Limits",
    "Room",
    "RoomServer",
    "Store",
    "StoredHand",
    "hand_of",
    "hand_record",
    "serve",
    "serve_workers",
    "table_number",
]
