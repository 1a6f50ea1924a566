"""The table in the browser (``holdem serve --web``): one page of plain
HTML, CSS and JavaScript, shipped in the package and served as it is (no
build step, nothing fetched from elsewhere).  The server gives
``index.html`` for every route (``/``, the lobby; ``/t/CODE``, a seat;
``/w/CODE``, a spectator) and the folder's files under ``/static/``; the
page speaks the room protocol over a WebSocket (``docs/web.md``).

Its scripts mirror the Python they are tested against: ``cards.js`` the
evaluator (:func:`holdem.evaluate`, :func:`holdem.describe`,
:func:`holdem.best_five`), ``tell.js`` the lines of
:class:`~holdem.clients.telling.Teller` and
:class:`~holdem.clients.room.RoomGame`, ``model.js`` the
:class:`~holdem.clients.model.TableModel`.
"""

from pathlib import Path

__all__ = ["PAGE"]

#: The folder the server serves: ``index.html``, ``table.css``, the scripts.
PAGE = Path(__file__).parent / "page"
