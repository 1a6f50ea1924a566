"""The full-screen table in the terminal (Textual) of ``holdem play``,
``holdem join`` and ``holdem watch``: what a player sees and does at a
table, drawn from :class:`~holdem.clients.model.TableModel`, the log the
Teller's lines.  Imported only by the commands that draw it (``holdem
eval`` starts without Textual)."""

from .app import EndPanel, Game, ReplayPanel, TableApp
from .games import ScreenLocalGame, ScreenRoomGame

__all__ = ["EndPanel", "Game", "ReplayPanel", "ScreenLocalGame", "ScreenRoomGame", "TableApp"]
