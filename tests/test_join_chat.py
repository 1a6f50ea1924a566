"""Table chat in the line-mode clients (issue 29): ``say``, ``mute`` and
``unmute`` in ``holdem join`` and ``holdem watch``, a line shown as
``[hand N] Ben: text``, the server's refusals said as it says them (a
flood, a table whose chat is off, a spectator at a players-only table), and
names and chat text shown escaped: nothing a player writes reaches the
terminal as a command (no ESC from it, no carriage return).  Through the
clients on a pseudo-terminal against a real ``holdem serve`` on loopback."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, ClassVar

import pytest
from rooms_helpers import Server
from terminal_helpers import Terminal

from holdem.clients import RoomClient, RoomGame, Teller, escaped

pytestmark = pytest.mark.skipif(
    sys.platform == "win32" or not hasattr(os, "openpty"), reason="pseudo-terminals"
)

#: What a player may write that a terminal would obey: clear the screen, set
#: the window's title (OSC, ended by BEL), go back to the line's start.
NASTY = ["\x1b[2J", "\x1b]0;title\x07", "gg\rYou win 1,000,000"]


def _terminal(tmp_path: Path, *args: str) -> Terminal:
    env = dict(os.environ, XDG_CONFIG_HOME=str(tmp_path / "config"), TERM="dumb")
    return Terminal([*args, "--plain", "--no-color"], env=env)  # (line mode: its lines read)


def _end(terminal: Terminal) -> None:
    """Stops a client still running (it would wait for its table) and closes
    its terminal."""
    if terminal.process.poll() is None:
        os.killpg(terminal.process.pid, signal.SIGKILL)
    terminal.end()


def _chat(client: RoomClient, got: list[dict[str, Any]], count: int) -> list[tuple[str, str]]:
    """The chat lines a client was told, read until there are ``count``."""
    deadline = time.monotonic() + 20
    while len(lines := [(m["name"], m["text"]) for m in got if m.get("event") == "chat"]) < count:
        assert time.monotonic() < deadline, got[-5:]
        got.extend(client.poll(0.05))
    return lines


def test_chat_is_said_and_shown_escaped_and_a_muted_player_does_not_reach_the_muter(
    server: Server, tmp_path: Path
) -> None:
    address = f"127.0.0.1:{server.port}"
    ann = _terminal(tmp_path, "join", "--create", "--server", address, "--name", "Ann", "--quiet")
    try:
        code = ann.wait_for(r"Join code: (\S+)").group(1)
        with server.client("Ben") as ben, server.client("Cid") as cid:
            ben.request("join", code=code, name="Ben")
            cid.request("join", code=code, name="Cid")
            ann.wait_for(r"Cid sits at seat 3")
            start = len(ann.seen)
            for text in NASTY:
                ben.request("chat", table="t1", text=text)
            ann.wait_for(r"Ben: gg\\rYou win 1,000,000", start=start)
            shown = ann._raw[len(ann.seen[:start].encode()) :]
            # (the lines say what was written, and nothing of it is a command)
            assert b"Ben: \\x1b[2J\r\n" in shown and b"Ben: \\x1b]0;title\\x07\r\n" in shown
            assert b"\x1b" not in shown and b"\x07" not in shown
            assert b"\r" not in shown.replace(b"\r\n", b""), shown
            # Ann writes; everyone is told, her own line as "You"
            got: list[dict[str, Any]] = []
            ann.type("say gl all\r")
            assert _chat(ben, got, 4)[-1] == ("Ann", "gl all")
            ann.wait_for(r"You: gl all")
            # Ann mutes Ben: his lines reach Cid, not her; Cid's reach her
            ann.type("mute Ben\r")
            ann.wait_for(r"Ben's chat lines no longer reach you \(unmute Ben: they do again\)\.")
            ben.request("chat", table="t1", text="spam spam")
            cid.request("chat", table="t1", text="after the spam")
            mark = ann.wait_for(r"Cid: after the spam").end()
            assert "spam spam" not in ann.seen
            assert _chat(cid, [], 6)[-2:] == [("Ben", "spam spam"), ("Cid", "after the spam")]
            ann.type("unmute Ben\r")
            ann.wait_for(r"Ben's chat lines reach you again\.", start=mark)
            ben.request("chat", table="t1", text="heard again")
            ann.wait_for(r"Ben: heard again", start=mark)
            ann.type("mute Zed\r")
            ann.wait_for(r"Not taken: nobody at table t1 is called 'Zed'\.")
            # a flood: refused as the server says it, with when to write again
            ann.type("".join(f"say line {n}\r" for n in range(5)))
            flood = ann.wait_for(r"Not said: at most 5 chat lines in 10 s: you may write again "
                                 r"in (\d+\.\d) s\.")  # fmt: skip
            assert 0 < float(flood.group(1)) <= 10
            assert re.findall(r"You: line (\d)", ann.seen) == ["0", "1", "2", "3"]
            ann.type("say " + "x" * 201 + "\r")
            ann.wait_for(r"Not said: a chat line is at most 200 characters, and this one has 201\.")
    finally:
        _end(ann)


def test_the_chat_setting_and_a_spectator_s_refusals_are_said_as_the_server_says_them(
    server: Server, tmp_path: Path
) -> None:
    address = f"127.0.0.1:{server.port}"
    ann = _terminal(tmp_path, "join", "--create", "--chat", "off", "--server", address, "--name",
                    "Ann", "--quiet")  # fmt: skip
    try:
        code = ann.wait_for(r"Join code: (\S+)").group(1)
        ann.type("say hi\r")
        ann.wait_for(r"Not said: table t1: its chat is off \(its creator made it so\)\.")
    finally:
        _end(ann)
    with server.client("Ben") as ben:
        assert ben.request("watch", code=code)["settings"]["chat"] == "off"
        made = ben.request("create_table", name="Ben")  # (chat: players, the default)
        eve = _terminal(tmp_path, "watch", made["code"], "--server", address, "--name", "Eve")
        try:
            eve.wait_for(r"waiting for its players")
            eve.type("say hi\r")
            eve.wait_for(r"Not said: table t2: spectators read its chat, and only its players "
                         r"write\.")  # fmt: skip
            ben.request("chat", table="t2", text="welcome, Eve")
            eve.wait_for(r"Ben: welcome, Eve")
            eve.type("mute Ben\r")
            eve.wait_for(r"Ben's chat lines no longer reach you")
        finally:
            _end(eve)
        everyone = ben.request("create_table", name="Ben", chat="everyone")
        fay = _terminal(tmp_path, "watch", everyone["code"], "--server", address, "--name", "Fay")
        try:
            fay.wait_for(r"waiting for its players")
            got: list[dict[str, Any]] = []
            ben.poll(0.1)  # (what Ben was told of the tables before)
            fay.type("say hello from the rail\r")
            assert _chat(ben, got, 1) == [("Fay", "hello from the rail")]
            fay.wait_for(r"You: hello from the rail")  # (her own line: the reply named her)
        finally:
            _end(fay)


class _Silent:
    """A room client that must not be asked anything."""

    hello: ClassVar[dict[str, Any]] = {"limits": {}}

    def request(self, kind: str, **fields: object) -> dict[str, object]:
        raise AssertionError(f"sent {kind} {fields}")


def test_names_from_the_server_are_shown_escaped_wherever_they_are_told() -> None:
    # (this server refuses such names; another, or an older one, may send them)
    said: list[str] = []
    teller = Teller(0, color=False, write=said.append)
    bad = {1: "Ben\x1b[2J", 2: "Cid\x1b]0;title\x07", 3: "Dan\rYou"}
    state = {"status": "waiting", "seats": [{"seat": 0, "name": "Ann"}] + [
        {"seat": s, "name": n} for s, n in bad.items() if s < 3]}  # fmt: skip
    game = RoomGame(_Silent(), {"table": "t1", "seat": 0, "token": "x", "name": "Ann",  # type: ignore[arg-type]
                                "state": state}, teller, "key")  # fmt: skip
    for message in [
        {"event": "player_joined", "seat": 3, "name": bad[3], "bot": "easy\x1b[31m"},
        {"event": "chat", "seat": 1, "name": bad[1], "text": "\x1b[2Jgg\x9b1m", "hand": 0},
        {"event": "chat", "seat": None, "name": "Eve\x1b[2J", "text": "hi", "hand": 0},
        {"event": "hand_started", "hand": 1, "button": 0, "seats": [0, 1, 2, 3],
         "names": ["Ann", *bad.values()], "stacks": [100] * 4, "small_blind": 1,
         "big_blind": 2, "small_blind_seat": 1, "big_blind_seat": 2},
        {"event": "seat_status", "seat": 1, "name": bad[1], "status": "disconnected"},
        {"event": "creator", "seat": 3, "name": bad[3]},
        {"event": "player_left", "seat": 2, "name": bad[2]},
        {"event": "player_eliminated", "seat": 1, "name": bad[1], "place": 4, "hand": 1,
         "by": [bad[3]]},
    ]:  # fmt: skip
        game.tell({**message, "table": "t1"})
    text = "\n".join(said)
    assert not re.search(r"[\x00-\x09\x0b-\x1f\x7f-\x9f]", text), said
    for name in (*bad.values(), "Eve\x1b[2J"):
        assert escaped(name) in text
    assert said[0] == "Dan\\rYou (easy\\x1b[31m bot) sits at seat 4"
    assert said[1] == "Ben\\x1b[2J: \\x1b[2Jgg\\x9b1m"
    assert said[2] == "Eve\\x1b[2J (watching): hi"


#: A room server that tells a watcher names and lines a terminal would obey
#: (this one's players cannot have such names: another server's might).
HOSTILE = r"""
import json, socket, sys
NAMES = ["Ann\x1b[2J", "Ben\x1b]0;title\x07", "Cid\rYou win"]
listener = socket.create_server(("127.0.0.1", 0))
print(listener.getsockname()[1], flush=True)
conn, _ = listener.accept()
reader = conn.makefile("rb")
def send(message):
    conn.sendall((json.dumps(message) + "\n").encode())
for line in reader:
    request = json.loads(line)
    if request["type"] == "hello":
        send({"id": request["id"], "result": {"server": "room", "limits": {}, "requests": []}})
    elif request["type"] == "watch":
        seats = [{"seat": 0, "name": NAMES[0], "chips": 1500},
                 {"seat": 1, "name": NAMES[1], "chips": 1500, "bot": "easy\x1b[31m"}]
        send({"id": request["id"], "result": {"table": "t1", "status": "waiting",
              "game": "tournament", "seats": seats, "settings": {}, "hands_played": 0}})
        for event in [
            {"event": "player_joined", "seat": 2, "name": NAMES[2], "hand": 0},
            {"event": "chat", "seat": 1, "name": NAMES[1], "text": "\x1b[2J\x1b[31mred", "hand": 0},
            {"event": "seat_status", "seat": 0, "name": NAMES[0], "status": "disconnected"},
            {"event": "creator", "seat": 2, "name": NAMES[2], "hand": 0},
            {"event": "player_left", "seat": 0, "name": NAMES[0], "hand": 0},
            {"event": "table_closed"},
        ]:
            send({**event, "table": "t1"})
"""


def test_names_a_server_sends_reach_a_terminal_as_text(tmp_path: Path) -> None:
    script = tmp_path / "hostile.py"
    script.write_text(HOSTILE, encoding="utf-8")
    server = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        port = int(server.stdout.readline())
        eve = _terminal(tmp_path, "watch", "t1", "--server", f"127.0.0.1:{port}")
        eve.wait_for(r"The table's creator closed it\.")
        assert eve.end() == 0
    finally:
        server.kill()
        server.wait()
    shown = eve._raw
    lines = shown.decode().split("\r\n")
    assert "  seat 1: Ann\\x1b[2J 1,500" in lines
    assert "  seat 2: Ben\\x1b]0;title\\x07 (easy\\x1b[31m bot) 1,500" in lines
    assert "Cid\\rYou win sits at seat 3" in lines
    assert "Ben\\x1b]0;title\\x07: \\x1b[2J\\x1b[31mred" in lines
    assert "Ann\\x1b[2J leaves the table" in lines
    assert b"\x1b" not in shown and b"\x07" not in shown
    assert b"\r" not in shown.replace(b"\r\n", b""), shown
