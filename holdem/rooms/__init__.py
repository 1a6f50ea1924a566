"""Rooms: a server where people and bots play at shared tables over the
network (``holdem serve``, ``docs/rooms.md``).

:class:`~holdem.rooms.room.Room` serves the requests (pure, like the
protocol's engine); :func:`~holdem.rooms.server.serve` puts it on a TCP
port; :class:`~holdem.rooms.store.Store` keeps the tables and every hand in
SQLite; :class:`~holdem.rooms.client.RoomClient` talks to a server;
:func:`~holdem.rooms.workers.serve_workers` serves one room in several
processes.
"""

from .client import RoomClient
from .room import REQUESTS, Limits, Room
from .server import RoomServer, serve
from .store import Store, StoredHand, hand_of, hand_record, table_number
from .workers import serve_workers

__all__ = [
    "REQUESTS",
    "Limits",
    "Room",
    "RoomClient",
    "RoomServer",
    "Store",
    "StoredHand",
    "hand_of",
    "hand_record",
    "serve",
    "serve_workers",
    "table_number",
]
