"""The full screen of ``holdem join`` and ``holdem watch`` against a real
``holdem serve`` on loopback: the app built as the commands build it, with a
real :class:`RoomClient`, driven by Textual's pilot (the lobby's words typed
in its field, a hand played against a bot by keys, keys out of turn not
taken), a spectator's screen that never holds a card not shown, and the
commands on a pseudo-terminal (full screen; ``--plain`` keeps the lines)."""

from __future__ import annotations

import asyncio
import os
import re
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from rooms_helpers import FAST, Server, joined_app, typed
from test_fullscreen import SIZE, log_text, shown, until
from textual.widgets import Input

from holdem import Card
from holdem.cards import parse_cards
from holdem.clients import greet_watcher
from holdem.clients.fullscreen import EndPanel, ScreenRoomGame, TableApp

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="pipes and signals")


def test_join_on_the_full_screen_lobby_then_a_hand_against_a_bot(server: Server) -> None:
    """The creator's lobby in the field (bots, who, start), then a hand
    against a calling station played with keys; a key out of turn is not
    taken (and not kept for the next turn)."""
    with server.client("holdem join") as client:
        app, game = joined_app(client, f"127.0.0.1:{server.port}")

        async def run() -> None:
            async with app.run_test(size=SIZE) as pilot:
                field = app.part("#bet", Input)
                assert field.has_focus and "bots N LEVEL" in field.placeholder
                assert "Join code" in shown(app, "#felt")
                await typed(pilot, app, "bots 1 calling-station")
                await until(pilot, lambda: len(app.model.seats) == 2)
                assert field.has_focus  # (the lobby's words one after another)
                await typed(pilot, app, "who")
                said = re.compile(r"^  seat 2: .+ \(calling-station bot\)$", re.M)
                await until(pilot, lambda: bool(said.search(log_text(app))))
                await typed(pilot, app, "start")
                await until(pilot, lambda: app.model.legal is not None)
                assert not field.has_focus  # (the game began: keys are moves)
                out_of_turn = False
                while not app.model.reviews:
                    await until(pilot, lambda: app.model.legal is not None
                                or bool(app.model.reviews))  # fmt: skip
                    legal = app.model.legal
                    if legal is None:
                        break
                    await pilot.press("c" if legal.call is not None else "k")
                    await until(pilot, lambda asked=legal: app.model.legal is not asked)
                    bot = app.model.actor
                    if not out_of_turn and app.model.legal is None and bot not in (None, 0):
                        await pilot.press("f")  # (the bot's turn: it takes 0.5 s)
                        assert shown(app, "#notice") == "Not taken: 'f': it is not your turn."
                        out_of_turn = True
                assert out_of_turn
                review = app.model.reviews[0]
                assert review.hand == 1 and review.net is not None
                text = log_text(app)
                assert "You fold" not in text  # (the f out of turn was not kept)
                assert "You call" in text or "You check" in text
                await pilot.press("q")  # (leaves the table: the screen ends)
                await until(pilot, lambda: not app.is_running)

        asyncio.run(run())
    assert app.return_value == 0
    assert game.leaving and game.error is None


def test_a_key_is_for_the_turn_the_screen_shows_not_one_come_in_unseen(server: Server) -> None:
    """A turn the server sent that the screen has not drawn yet (the game's
    thread read it a moment before the key) is not the one a key was pressed
    for: the key is not taken for it, and the player is told why."""
    with server.client("holdem join") as client:
        app, game = joined_app(client, f"127.0.0.1:{server.port}")

        async def run() -> None:
            async with app.run_test(size=SIZE) as pilot:
                app.set_focus(None)
                await pilot.pause()
                game.turns += 1
                game.turn = {"event": "your_turn"}  # (read by the game, not yet drawn)
                await pilot.press("c")
                said = "Not taken: 'c' (typed before your turn)."
                await until(pilot, lambda: said in log_text(app))
                game.turn = None
                await pilot.press("q")
                await until(pilot, lambda: not app.is_running)

        asyncio.run(run())
    assert app.return_value == 0


@pytest.mark.slow  # (5 to 7 s: a freezeout of bots to its end)
def test_watch_on_the_full_screen_never_holds_a_card_not_shown(server: Server) -> None:
    """A spectator's screen through a freezeout of bots (its creator gone):
    at every event it holds no card but the board's and those shown, never
    a hole card; its keys are refused as a spectator's; the end panel."""
    ann = server.client("Ann")
    made = ann.request("create_table", name="Ann", seats=3, **{**FAST, "stack": 100})
    ann.request("add_bots", table=made["table"], level="calling-station", count=2)
    seen: list[str] = []
    leaks: list[tuple[int, set[Card]]] = []

    class Watched(ScreenRoomGame):
        """The spectator's game, its screen's cards checked at each event."""

        def __init__(self, *args: Any) -> None:
            super().__init__(*args)
            self.public: set[Card] = set()  # (the hand's board and cards shown)

        def _message(self, message: dict[str, Any]) -> None:
            if message.get("event") == "hand_started":
                self.public = set()
            action = message.get("action") or {}
            if action.get("kind") in ("show", "deal_board"):
                self.public |= set(parse_cards(" ".join(action.get("cards") or ())))
            super()._message(message)
            model = self.app.model  # type: ignore[union-attr]
            seen.append(str(message.get("event")))
            held = model.visible_cards() - self.public
            if held or model.hole:
                leaks.append((model.hand, held | set(model.hole)))

    with server.client("holdem watch") as client:
        state = client.request("watch", code=made["code"])
        app = TableApp(None, seats=state["max_seats"], quiet=True)
        game = Watched.spectator(client, state, app.teller)
        assert isinstance(game, Watched)
        greet_watcher(game, state, f"127.0.0.1:{server.port}")
        game.show(app, state)

        async def run() -> None:
            async with app.run_test(size=SIZE) as pilot:
                # (before the game: bots at no pace may end it before a key is read;
                # a spectator's line goes to the game, which says in the log why
                # it is refused, as line mode does; the log wraps its lines)
                await pilot.press("c")
                refused = "Not taken: 'c': you are watching, with no seat (q stops)."
                await until(pilot, lambda: refused in " ".join(log_text(app).split()))
                assert shown(app, "#hole") == "Watching (a spectator sees no hole cards)"
                with ann:  # (the game begins as the spectator watches)
                    ann.request("start", table=made["table"])
                    ann.request("leave", table=made["table"])  # (her stack checks or folds)
                await until(pilot, lambda: isinstance(app.screen, EndPanel), 60)
                assert "CERTIFICATE OF VICTORY" in shown(app, "#end-text")
                await pilot.press("q")

        asyncio.run(run())
    assert not leaks, leaks[:3]
    assert seen.count("hand_ended") >= 1 and "action" in seen
    assert any(r.shown for r in app.model.reviews)  # (showdowns were seen: cards were shown)


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="a pseudo-terminal")
def test_join_and_watch_on_a_terminal_are_full_screen_and_plain_is_lines(
    server: Server, tmp_path: Path
) -> None:
    """On a terminal ``holdem join`` and ``holdem watch`` draw the table full
    screen (Ctrl-C stops them as in line mode); ``--plain`` keeps the lines."""
    from test_clients_input import Terminal

    env = dict(os.environ, TERM="xterm-256color", COLUMNS="140", LINES="42",
               XDG_CONFIG_HOME=str(tmp_path / "config"))  # fmt: skip
    address = f"127.0.0.1:{server.port}"
    join = Terminal(["join", "--create", "--server", address, "--name", "Ann", "--quiet"],
                    env=env)  # fmt: skip
    try:
        join.wait_for(r"bots N LEVEL")  # (the lobby's field)
        assert "\x1b[?1049h" in join.seen  # (the alternate screen: full screen)
        code = join.wait_for(r"Join code ([A-Z0-9]{4}-[A-Z0-9]{4})").group(1)
        watch = Terminal(["watch", code, "--server", address], env=env)
        try:
            watch.wait_for(r"Watching \(a spectator sees no hole cards\)")
            assert "\x1b[?1049h" in watch.seen
            watch.type("\x03")
            assert watch.end() == 130
            assert "holdem watch: interrupted" in watch.seen
        finally:
            if watch.process.poll() is None:
                watch.process.kill()
        join.type("\x03")
        assert join.end() == 130
        assert "holdem join: interrupted" in join.seen
    finally:
        if join.process.poll() is None:
            join.process.kill()
    plain = Terminal(["join", code, "--server", address, "--name", "Ben", "--plain"], env=env)
    try:
        plain.wait_for(r"Waiting for the creator to start the game")
        assert "\x1b[?1049h" not in plain.seen
    finally:
        plain.process.kill()
        plain.end()


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="a pseudo-terminal")
def test_a_lost_connection_on_the_full_screen_is_one_line_with_the_way_back(
    server: Server, tmp_path: Path
) -> None:
    """The server gone under a full-screen ``holdem join``: the screen says the
    game is over, and once left the command ends as line mode does (status
    2, one line with the command that takes the player back to the seat)."""
    from test_clients_input import Terminal

    env = dict(os.environ, TERM="xterm-256color", COLUMNS="140", LINES="42",
               XDG_CONFIG_HOME=str(tmp_path / "config"))  # fmt: skip
    join = Terminal(["join", "--create", "--server", f"127.0.0.1:{server.port}", "--name", "Ann"],
                    env=env)  # fmt: skip
    try:
        join.wait_for(r"bots N LEVEL")
        code = join.wait_for(r"Join code ([A-Z0-9]{4}-[A-Z0-9]{4})").group(1)
        server.kill()
        join.wait_for(r"The game is over: press q to leave\.")
        join.type("q")
        assert join.end() == 2
    finally:
        if join.process.poll() is None:
            join.process.kill()
    after = join.seen[join.seen.rindex("\x1b[?1049l") :]  # (the full screen closed)
    line = re.search(r"holdem join: error: .*", after)
    assert line is not None, after
    assert "the server closed the connection" in line.group(0)
    assert f"(to come back to your seat: holdem join {code} --server 127.0.0.1:" in line.group(0)


def test_chat_from_the_full_screen_by_a_player_and_a_spectator(server: Server) -> None:
    """Enter goes to the field; ``say`` there chats: the player's full screen
    and a spectator's (at a table whose chat is everyone's) each write a
    line the other end reads, and tell the other's; a spectator's move key
    is refused with the reason."""
    with server.client("holdem join") as client, server.client("holdem watch") as eye:
        made = client.request("create_table", name="Ann", seats=3, chat="everyone")
        made["name"], made["creator"] = "Ann", True
        eye.request("watch", code=made["code"], name="Eve")
        app = TableApp(made["seat"], seats=3, quiet=True)
        game = ScreenRoomGame(client, made, app.teller, "")
        game.show(app, made["state"], "")

        async def player() -> None:
            async with app.run_test(size=SIZE) as pilot:
                await typed(pilot, app, "say hello Eve")
                await until(pilot, lambda: "You: hello Eve" in log_text(app))
                eye.request("chat", table=made["table"], text="hi Ann")
                await until(pilot, lambda: "Eve (watching): hi Ann" in log_text(app))
                await pilot.press("escape")
                game.stop()

        asyncio.run(player())
        told: list[tuple[str, str]] = []
        end = time.monotonic() + 10
        while len(told) < 2:  # (the spectator is told both lines, in the order said)
            assert time.monotonic() < end, told
            told += [(m["name"], m["text"]) for m in eye.poll(0.2) if m.get("event") == "chat"]
        assert told[:2] == [("Ann", "hello Eve"), ("Eve", "hi Ann")]

    with server.client("Ann") as ann, server.client("holdem watch") as eye:
        made = ann.request("create_table", name="Ann", seats=3, chat="everyone")
        state = eye.request("watch", code=made["code"], name="Eve")
        viewer = TableApp(None, seats=3, quiet=True)
        watcher = ScreenRoomGame.spectator(eye, state, viewer.teller)
        watcher.show(viewer, state, "")

        async def spectator() -> None:
            async with viewer.run_test(size=SIZE) as eyes:
                ann.request("chat", table=made["table"], text="hello Eve")
                await until(eyes, lambda: "Ann: hello Eve" in log_text(viewer))
                await eyes.press("f")  # (a move key: a spectator has no seat)
                await until(eyes, lambda: "you are watching" in log_text(viewer))
                await eyes.press("enter")
                assert viewer.part("#bet", Input).has_focus
                await typed(eyes, viewer, "say hi Ann")
                await until(eyes, lambda: "You: hi Ann" in log_text(viewer))
                await eyes.press("escape")
                await eyes.press("q")
                await until(eyes, lambda: not viewer.is_running)

        asyncio.run(spectator())
        said: list[tuple[str, str]] = []
        end = time.monotonic() + 10
        while ("Eve", "hi Ann") not in said:  # (Ann's own line may come first, then Eve's)
            assert time.monotonic() < end, said
            said += [(m["name"], m["text"]) for m in ann.poll(0.2) if m.get("event") == "chat"]
