"""Table chat through a room server on loopback (issue 29): a line reaches the
players and the watchers, as it was written; who may write is the table's
setting; overlong lines and floods are refused with the limit named; a
muted player's lines reach everyone but the one who muted them, also after
a resume; the lines are stored with the hands, and told in ``missed``."""

from __future__ import annotations

import json
import random
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

import pytest
from rooms_helpers import Server, play, served

from holdem.clients import RoomClient
from holdem.errors import ProtocolError
from holdem.histories import read_phh_text
from holdem.rooms import Limits, Room, Store

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="signals and process groups")


def _refused(client: RoomClient, kind: str, **fields: Any) -> ProtocolError:
    with pytest.raises(ProtocolError) as refused:
        client.request(kind, **fields)
    return refused.value


def _wait(client: RoomClient, got: list[dict[str, Any]],
          until: Callable[[list[dict[str, Any]]], bool], seconds: float = 20) -> None:  # fmt: skip
    """Reads the client's events into ``got`` until ``until(got)``."""
    deadline = time.monotonic() + seconds
    while not until(got):
        assert time.monotonic() < deadline, got[-5:]
        got.extend(client.poll(0.05))


def _read_until(sock: socket.socket, mark: bytes, data: bytes = b"") -> bytes:
    """What a raw connection sends, read until ``mark`` is in it."""
    deadline = time.monotonic() + 20
    while mark not in data:
        assert time.monotonic() < deadline, data
        data += sock.recv(1 << 16)
    return data


def _disconnected(stream: list[dict[str, Any]]) -> bool:
    """Whether a stream was told that a player's connection dropped."""
    return any(m.get("event") == "seat_status" and m["status"] == "disconnected" for m in stream)


def _chat(stream: list[dict[str, Any]]) -> list[tuple[str, str]]:
    return [(m["name"], m["text"]) for m in stream if m.get("event") == "chat"]


def _table(server: Server) -> tuple[RoomClient, RoomClient, dict[str, Any]]:
    """Ann's table t1 (cash, not begun) with Ben at it: their clients, and
    what making it gave Ann (its ``code``, her ``token``)."""
    ann, ben = server.client("Ann"), server.client("Ben")
    made = ann.request("create_table", name="Ann", game="cash", pace=0, pause=0)
    ben.request("join", code=made["code"], name="Ben")
    return ann, ben, made


def test_a_line_reaches_the_players_and_the_watchers_as_it_was_written(server: Server) -> None:
    ann, ben, made = _table(server)
    code = made["code"]
    cid = server.client("Cid")
    assert cid.request("watch", code=code)["status"] == "waiting"
    raw = socket.create_connection(("127.0.0.1", server.port), timeout=20)  # (a watcher's lines)
    raw.sendall(b'{"type":"hello","version":1}\n' + b'{"id":"w","type":"watch","code":"%s"}\n'
                % code.encode())  # fmt: skip
    data = _read_until(raw, b'"id":"w"')
    text = 'gl \x1b[31mall\x07 \u2660 "quoted" \\ end'  # (control characters go through)
    assert ben.request("chat", table="t1", text=text) == {"table": "t1", "hand": 0, "name": "Ben"}
    told = {"event": "chat", "table": "t1", "seat": 1, "name": "Ben", "text": text, "hand": 0}
    for client in (ann, ben, cid):
        got: list[dict[str, Any]] = []
        _wait(client, got, lambda g: bool(_chat(g)))
        assert [m for m in got if m.get("event") == "chat"] == [told]
    data = _read_until(raw, b'"event":"chat"', data)
    raw.close()
    line = next(x for x in data.splitlines() if b'"event":"chat"' in x)
    assert b"\\u001b[31mall\\u0007" in line and b"\x1b" not in line and b"\x07" not in line
    assert json.loads(line)["text"] == text
    # the hand a line is said at: the one being played, or the last one
    ann.request("add_bots", table="t1", level="calling-station", count=1)
    ann.request("start", table="t1")
    streams: dict[str, list[dict[str, Any]]] = {"Ann": [], "Ben": []}
    ended = lambda: [m for m in streams["Ann"] if m.get("event") == "hand_ended"]  # noqa: E731
    play({"Ann": ann, "Ben": ben}, streams, random.Random(3), until=lambda: len(ended()) >= 2,
         passive=True)  # fmt: skip
    state = ann.request("state", table="t1")
    said = ann.request("chat", table="t1", text="nh")
    assert said["hand"] == state["hands_played"] + (state["hand"] is not None) >= 2


def test_who_writes_is_the_table_s_setting_and_spectators_have_names(server: Server) -> None:
    ann, _, made = _table(server)  # (chat: players, the default)
    cid = server.client("Cid")
    cid.request("watch", code=made["code"])
    refused = _refused(cid, "chat", table="t1", text="hi")
    assert refused.code == "not_your_seat" and "only its players write" in str(refused)
    assert ann.request("state", table="t1")["settings"]["chat"] == "players"
    # a table where everyone writes: a spectator's line has no seat, and a name
    dan, eve = server.client("Dan"), server.client("Eve")
    dans = dan.request("create_table", name="Dan", chat="everyone")
    eve.request("watch", code=dans["code"], name="Eve")
    fay = server.client("Fay")
    fay.request("watch", code=dans["code"])
    assert _refused(fay, "watch", code=dans["code"], name="Dan").code == "name_taken"
    eve.request("chat", table=dans["table"], text="hello from the rail")
    fay.request("chat", table=dans["table"], text="me too")
    got: list[dict[str, Any]] = []
    _wait(dan, got, lambda g: len(_chat(g)) == 2)
    assert [(m["seat"], m["name"]) for m in got if m.get("event") == "chat"] == [
        (None, "Eve"), (None, "Spectator 1")]  # fmt: skip
    # a table without chat
    off = ann.request("create_table", name="Ann", chat="off")
    refused = _refused(ann, "chat", table=off["table"], text="hi")
    assert refused.code == "table_error" and "chat is off" in str(refused)
    refused = _refused(ann, "create_table", name="Ann", chat="some")
    assert refused.code == "invalid_field" and "players, everyone, off" in str(refused)
    # nobody who neither plays nor watches
    gus = server.client("Gus")
    assert _refused(gus, "chat", table="t1", text="hi").code == "unknown_table"


def test_overlong_empty_and_flooding_lines_are_refused_naming_the_limit() -> None:
    limits = Limits(chat_lines=3, chat_seconds=3.0)  # (tiny: the wait is short)
    with served(Room(limits=limits)) as port:
        ann = RoomClient("127.0.0.1", port, timeout=20)
        assert {k: ann.hello["limits"][k] for k in ("chat_chars", "chat_lines", "chat_seconds")} \
            == {"chat_chars": 200, "chat_lines": 3, "chat_seconds": 3.0}  # fmt: skip
        assert {"chat", "mute"} <= set(ann.hello["requests"])
        ann.request("create_table", name="Ann")
        refused = _refused(ann, "chat", table="t1", text="x" * 201)
        assert refused.code == "invalid_field" and refused.field == "text"
        assert "at most 200 characters, not 201" in str(refused)
        ann.request("chat", table="t1", text="y" * 200)
        for empty in ("", "   "):
            refused = _refused(ann, "chat", table="t1", text=empty)
            assert refused.code == "invalid_field" and "empty" in str(refused)
        ann.request("chat", table="t1", text="two")
        ann.request("chat", table="t1", text="three")
        refused = _refused(ann, "chat", table="t1", text="four")
        assert refused.code == "chat_flood"
        assert "at most 3 chat lines in 3 s: you may write again in" in str(refused)
        wait = float(str(refused).rsplit(" in ", 1)[1].removesuffix(" s"))
        assert 0 < wait <= 3.0
        time.sleep(wait + 0.2)  # (the limit said when: the line is taken then)
        assert ann.request("chat", table="t1", text="four")["table"] == "t1"
        ann.close()


def test_a_muted_player_is_not_heard_by_the_muter_even_after_a_resume(server: Server) -> None:
    ann, ben, made = _table(server)
    cid, dan = server.client("Cid"), server.client("Dan")
    cid.request("join", code=made["code"], name="Cid")
    dan.request("watch", code=made["code"])
    muted = ann.request("mute", table="t1", name="Ben", muted=True)
    assert muted == {"table": "t1", "name": "Ben", "muted": True, "muting": ["Ben"]}
    assert dan.request("mute", table="t1", name="Cid")["muting"] == ["Cid"]  # (a watcher too)
    refused = _refused(ann, "mute", table="t1", name="Zed")
    assert refused.code == "invalid_field" and "nobody at table t1 is called 'Zed'" in str(refused)
    assert "is you" in str(_refused(ann, "mute", table="t1", name="Ann"))
    ben.request("chat", table="t1", text="spam")
    cid.request("chat", table="t1", text="hi")  # (after Ben's: when it comes, his would have)
    seen: dict[str, list[dict[str, Any]]] = {}
    for name, client, lines in (("Ann", ann, 1), ("Ben", ben, 2), ("Cid", cid, 2), ("Dan", dan, 1)):
        seen[name] = []
        _wait(client, seen[name], lambda g, n=lines: len(_chat(g)) >= n)  # type: ignore[misc]
    assert _chat(seen["Ann"]) == [("Cid", "hi")]
    assert _chat(seen["Cid"]) == [("Ben", "spam"), ("Cid", "hi")]
    assert _chat(seen["Dan"]) == [("Ben", "spam")]
    # Ann's connection drops: what she misses of the chat is Cid's, not Ben's
    ann.close()
    _wait(cid, seen["Cid"], _disconnected)
    ben.request("chat", table="t1", text="while you were out")
    cid.request("chat", table="t1", text="wb soon")
    back = server.client("Ann")
    resumed = back.request("resume", token=made["token"])
    assert _chat(resumed["missed"]) == [("Cid", "wb soon")]
    ben.request("chat", table="t1", text="again")
    cid.request("chat", table="t1", text="welcome back")
    got: list[dict[str, Any]] = []
    _wait(back, got, lambda g: bool(_chat(g)))
    assert _chat(got) == [("Cid", "welcome back")]
    assert back.request("mute", table="t1", name="Ben", muted=False)["muting"] == []
    ben.request("chat", table="t1", text="heard now")
    _wait(back, got, lambda g: len(_chat(g)) == 2)
    assert _chat(got)[1] == ("Ben", "heard now")


def test_chat_is_stored_with_the_hands_told_in_missed_and_exported(server: Server) -> None:
    ann, ben, made = _table(server)
    ann.request("chat", table="t1", text="before we start")
    ann.request("add_bots", table="t1", level="calling-station", count=1)
    ann.request("start", table="t1")
    streams: dict[str, list[dict[str, Any]]] = {"Ann": [], "Ben": []}
    ended = lambda: [m for m in streams["Ann"] if m.get("event") == "hand_ended"]  # noqa: E731
    play({"Ann": ann, "Ben": ben}, streams, random.Random(5), until=lambda: len(ended()) >= 2,
         passive=True)  # fmt: skip
    during = ben.request("chat", table="t1", text="nice \u2663 hand\n")["hand"]
    ann.close()  # (Ann drops, and comes back)
    _wait(ben, streams["Ben"], _disconnected)
    away = ben.request("chat", table="t1", text="are you there?")["hand"]
    back = server.client("Ann")
    missed = back.request("resume", token=made["token"])["missed"]
    assert [(m["name"], m["text"], m["hand"]) for m in missed if m.get("event") == "chat"] == [
        ("Ben", "are you there?", away)]  # fmt: skip
    store = Store(server.data / "room.sqlite", read_only=True)  # (the server's, as it runs)
    lines = [(c.hand, c.seat, c.name, c.text) for c in store.chat("t1")]
    assert lines == [(0, 0, "Ann", "before we start"), (during, 1, "Ben", "nice \u2663 hand\n"),
                     (away, 1, "Ben", "are you there?")]  # fmt: skip
    store.close()
    # the export keeps each hand's chat with it (PHH's _chat), the first hand what came before
    back.request("leave", table="t1")
    ben.request("leave", table="t1")
    server.stop()
    out = server.data.parent / "hands.phhs"
    command = [sys.executable, "-m", "holdem", "serve", "--data", str(server.data), "--export",
               str(out)]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    hands = list(read_phh_text(out.read_text(encoding="utf-8")))
    said = {int(str(h.hand_id)[-9:]): h.fields.get("chat") for h in hands}
    expected: dict[int, list[list[str]]] = {1: [["Ann", "before we start"]]}
    expected.setdefault(during, []).append(["Ben", "nice \u2663 hand\n"])
    expected.setdefault(away, []).append(["Ben", "are you there?"])
    assert {n: chat for n, chat in said.items() if chat is not None} == expected
