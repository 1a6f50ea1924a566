"""``holdem watch``: a room server's table watched without a seat, told in
the same lines as ``holdem join`` (public information only)."""

from __future__ import annotations

import sys

import click

from holdem.clients import (
    Keyboard,
    RoomGame,
    Teller,
    greet_watcher,
    play_room,
    table_fields,
)
from holdem.errors import ProtocolError

from .engine import parse_address
from .join import JoinError, connect, full_screen

__all__ = ["watch_command"]


@click.command(
    "watch",
    epilog="""\b
Examples:
  holdem watch 7KQM-X2TP --server 192.168.1.20:7777    a friends' table, by its code
  holdem watch t3 --server HOST:PORT                    a public table, by its id
  holdem watch t3 --server HOST:PORT > t3.log           its lines to a file
  holdem watch t3 --server HOST:PORT --name Eve         Eve in the table's chat
\b
q (then Enter) or Ctrl-C stops. You see what everyone at the table sees:
the actions, the board, the cards shown; never a hand that is not shown.
The chat: 'say TEXT' (where the table lets spectators write), 'mute NAME',
'unmute NAME'; 'history' writes the table's hands so far.
""",
)
@click.argument("code")
@click.option("--server", "address", metavar="HOST:PORT", default="127.0.0.1:7777",
              show_default=True, help="The room server.")  # fmt: skip
@click.option("--name", default=None,
              help="Your name in the table's chat (default: Spectator 1, 2, ...).")  # fmt: skip
@click.option("--plain", is_flag=True,
              help="Line mode on a terminal too (what a pipe gets): no full screen.")  # fmt: skip
@click.option("--color/--no-color", default=None, help="Colours (default: on a terminal).")
def watch_command(code: str, address: str, name: str | None, plain: bool,
                  color: bool | None) -> None:  # fmt: skip
    """Watches a table of a room server (holdem serve) without a seat: CODE is
    its join code, or a public table's id (t3; holdem join --list lists
    them). It ends with the table, or when you stop it. On a terminal the
    table is drawn full screen (--plain: lines, as a pipe gets)."""
    host, port = parse_address(address)
    keyboard = Keyboard()
    teller = Teller(None, color=color)
    client = connect(host, port, "holdem watch")
    with client:
        try:
            state = client.request("watch", **table_fields(code),
                                   **({} if name is None else {"name": name}))  # fmt: skip
        except ProtocolError as exc:
            raise JoinError(f"{exc.code}: {exc}") from None
        except (ConnectionError, TimeoutError) as exc:
            raise JoinError(str(exc)) from None
        if not plain and keyboard.tty and sys.stdout.isatty() and sys.stderr.isatty() and \
                state["status"] not in ("finished", "closed"):  # fmt: skip
            from holdem.clients.fullscreen import ScreenRoomGame, TableApp  # (Textual: only here)

            app = TableApp(None, seats=state["max_seats"], title="holdem watch")
            screen = ScreenRoomGame.spectator(client, state, app.teller)
            assert isinstance(screen, ScreenRoomGame)
            greet_watcher(screen, state, address)
            try:
                full_screen(app, screen, state)
            except (ConnectionError, TimeoutError) as exc:
                raise JoinError(str(exc)) from None
            return
        game = RoomGame.spectator(client, state, teller)
        try:
            with keyboard.raw():  # (the greeting after it: what is typed once it is read counts)
                greet_watcher(game, state, address)
                if state["status"] not in ("finished", "closed"):
                    play_room(game, keyboard)
        except (ConnectionError, TimeoutError) as exc:
            raise JoinError(str(exc)) from None
