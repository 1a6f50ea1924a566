"""Your hands from the room (issue 29): ``history`` in ``holdem join`` writes
the hands the player played at the table (PHH, or PokerStars text), and
``holdem history CODE`` writes them with the seat's token that ``holdem
join`` kept in seats.json, also after the player left, sat down again, or
the table finished.  The files validate, PokerKit reads the PHH, and they
hold the player's own cards and those shown, no other.  Against a real
``holdem serve`` on loopback."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import warnings
from pathlib import Path
from typing import Any, ClassVar

import pytest
from rooms_helpers import Joiner, Server, allowed_cards

from holdem.clients import RoomGame, Teller
from holdem.histories import HandHistory, read_phh_text
from holdem.rooms import Store

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="pipes and signals")

#: A card as PHH and PokerStars text write it.
CARD = re.compile(r"\b[2-9TJQKA][cdhs]\b")


def holdem(*args: str, config: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, XDG_CONFIG_HOME=str(config), TERM="dumb")
    return subprocess.run([sys.executable, "-m", "holdem", *args], capture_output=True,
                          text=True, timeout=60, env=env)  # fmt: skip


def validated(path: Path) -> None:
    """``holdem validate`` finds every hand of the file good."""
    done = subprocess.run([sys.executable, "-m", "holdem", "validate", str(path)],
                          capture_output=True, text=True, timeout=60)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr


def phh_hands(path: Path) -> list[int]:
    """The hands of a PHH set, by their number at the table (checked read by
    PokerKit, the PHH reference, when it is here)."""
    text = path.read_text(encoding="utf-8")
    hands = list(read_phh_text(text))
    assert all(isinstance(h, HandHistory) for h in hands), hands
    try:
        import pokerkit
    except ImportError:
        pass
    else:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            read = list(pokerkit.HandHistory.loads_all(text))
            assert len(read) == len(hands) and all(list(h) for h in read)
    return [int(str(h.hand_id).rsplit(".", 1)[-1].lstrip("0") or 0) for h in hands]  # type: ignore[union-attr]


def seen_cards(store: Store, table: str, seat: int, numbers: list[int]) -> set[str]:
    """The cards a seat may see of the hands' histories: its own, the board,
    those shown, and the hands mucked at the showdowns it was in (R14)."""
    out: set[str] = set()
    for number in numbers:
        record = store.hand(table, number)
        assert record is not None
        out |= allowed_cards(record, seat, over=True)
    return out


def kept(config: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((config / "holdem" / "seats.json").read_text())
    return data


@pytest.mark.slow  # (two sessions of a few hands, and the commands: 5 to 10 s)
def test_join_history_and_holdem_history_after_leaving_and_sitting_down_again(
    server: Server, tmp_path: Path, joiners: list[Joiner]
) -> None:
    config, address = tmp_path / "config", f"127.0.0.1:{server.port}"
    ann = Joiner(["--create", "--server", address, "--name", "Ann", "--game", "cash", "--bots",
                  "1", "--bot-level", "calling-station", "--pace", "0", "--pause", "0.1"],
                 config)  # fmt: skip
    joiners.append(ann)
    code = ann.wait_for(r"Join code: (\S+)").group(1)
    ben = Joiner([code, "--server", address, "--name", "Ben"], tmp_path / "ben")  # (he stays)
    joiners.append(ben)
    ann.wait_for(r"Ben sits at seat 3")
    ben.type("c\n" * 300)
    ann.type("start\n" + "c\n" * 40)
    ann.wait_for(r"── Hand #4 ")
    mine, theirs = tmp_path / "mine.phhs", tmp_path / "mine.txt"
    ann.type(f"history {mine}\nhistory '{theirs}' --format pokerstars\nhistory a b\n")
    said = ann.wait_for(r"(\d+) hands of yours at table t1 written to (\S+) \(PHH: your cards "
                        r"and those shown\)\.")  # fmt: skip
    assert said.group(2) == str(mine) and int(said.group(1)) >= 3
    ann.wait_for(r"\d+ hands of yours at table t1 written to \S+mine\.txt \(PokerStars text: ")
    ann.wait_for(r"Not taken: 'history a b': history \[FILE\] \[--format phh\|pokerstars\]\.")
    validated(mine)
    validated(theirs)
    numbers = phh_hands(mine)
    assert len(numbers) == int(said.group(1)) and numbers == sorted(numbers)
    store = Store(server.data / "room.sqlite", read_only=True)
    assert set(CARD.findall(mine.read_text())) <= seen_cards(store, "t1", 0, numbers)
    assert numbers[0] == 1 and "Ann" in mine.read_text()
    ann.type("quit\n")
    ann.wait_for(r"You left the table")
    assert ann.exit_status() == 0
    # the seat is over, its token kept (marked ended) to read its hands
    key = f"{address}/{code}/Ann"
    entry = kept(config)[key]
    assert entry["ended"] is True and entry["token"]
    with server.client("Eve") as eve:  # (the seat is gone from the table)
        deadline = time.monotonic() + 30
        while any(s["name"] == "Ann" for s in eve.request("watch", code=code)["seats"]):
            assert time.monotonic() < deadline
            time.sleep(0.1)
    left = holdem("history", code, "--server", address, "--name", "Ann", "-o",
                  str(tmp_path / "left.phhs"), config=config)  # fmt: skip
    assert left.returncode == 0, left.stderr
    first = phh_hands(tmp_path / "left.phhs")
    assert first[: len(numbers)] == numbers
    assert left.stdout == (f"{len(first)} hands of Ann at table t1 on {address} written to "
                           f"{tmp_path / 'left.phhs'} (PHH)\n")  # fmt: skip
    # Ann sits down again at the table: a new seat, the old token kept beside it
    again = Joiner([code, "--server", address, "--name", "Ann"], config)
    joiners.append(again)
    again.wait_for(r"holdem join: Ann at seat \d+ of a cash table")
    again.type("c\n" * 40)
    again.wait_for(r"── Hand #\d+ [\s\S]*── Hand #\d+ ")
    last = int(re.findall(r"── Hand #(\d+) ", again.seen)[-1])
    again.type("quit\n")
    again.wait_for(r"You left the table")
    assert again.exit_status() == 0
    entry = kept(config)[key]
    assert entry["earlier"] == [kept_token := entry["earlier"][0]] and entry["ended"]
    assert kept_token != entry["token"]
    both = holdem("history", code, "--server", address, "--name", "Ann", "--json",
                  config=config)  # fmt: skip
    assert both.returncode == 0, both.stderr
    listed = json.loads(both.stdout)
    hands = [h["hand"] for h in listed["hands"]]
    assert hands[: len(first)] == first and hands[-1] >= last - 1 > first[-1]
    assert listed["table"] == "t1" and listed["format"] == "phh"
    (tmp_path / "both.phhs").write_text(listed["text"], encoding="utf-8")
    validated(tmp_path / "both.phhs")
    assert phh_hands(tmp_path / "both.phhs") == hands
    store.close()
    # a wrong name: exit 2, naming what to pass
    wrong = holdem("history", code, "--server", address, "--name", "Zed", config=config)
    assert wrong.returncode == 2 and not wrong.stdout
    assert re.fullmatch(
        rf"holdem history: error: no seat of Zed at table {code} on {re.escape(address)} is "
        rf"remembered in \S+seats\.json \(holdem join keeps it\): pass the CODE, --server and "
        rf"--name you joined with; remembered there: {code} --name Ann "
        r"\(see 'holdem history --help'\)\n", wrong.stderr), wrong.stderr  # fmt: skip


def test_holdem_history_reads_your_hands_after_the_table_finished(
    server: Server, tmp_path: Path, joiners: list[Joiner]
) -> None:
    config, address = tmp_path / "config", f"127.0.0.1:{server.port}"
    ann = Joiner(["--create", "--server", address, "--name", "Ann", "--stack", "400",
                  "--schedule", "@5h, 10/20, 20/40, 40/80", "--bots", "2", "--bot-level",
                  "easy", "--pace", "0", "--pause", "0"], config)  # fmt: skip
    joiners.append(ann)
    code = ann.wait_for(r"Join code: (\S+)").group(1)
    ann.wait_for(r"Easy 2 \(easy bot\) sits at seat 3")
    ann.type("start\n" + "a\nc\n" * 300)
    assert ann.exit_status(seconds=120) == 0, ann.seen[-2000:]
    assert "Final places:" in ann.seen
    assert kept(config)[f"{address}/{code}/Ann"]["ended"] is True
    out = tmp_path / "freezeout.txt"
    done = holdem("history", code, "--server", address, "--name", "Ann", "--format",
                  "pokerstars", "-o", str(out), config=config)  # fmt: skip
    assert done.returncode == 0, done.stderr
    count = int(re.fullmatch(r"(\d+) hands? of Ann .* \(PokerStars\)\n", done.stdout).group(1))  # type: ignore[union-attr]
    validated(out)
    text = out.read_text(encoding="utf-8")
    assert text.count("PokerStars Hand #") == count >= 1
    again = holdem("history", code, "--server", address, "--name", "Ann", "-o", str(out),
                   config=config)  # fmt: skip
    assert again.returncode == 2 and "exists: add --force to replace it" in again.stderr
    assert out.read_text(encoding="utf-8") == text  # (left as it was)


class _Hands:
    """A room client that answers ``hands`` and ``history`` with a table of
    250 finished hands, refusing what goes past the rate of hands read."""

    hello: ClassVar[dict[str, Any]] = {"limits": {"history_hands": 100, "hands_per_second": 50}}

    def __init__(self) -> None:
        self.asked: list[tuple[str, dict[str, Any]]] = []
        self.limited = 1  # (the requests refused rate_limited still to come)

    def request(self, kind: str, **fields: Any) -> dict[str, Any]:
        from holdem.errors import ProtocolError

        self.asked.append((kind, fields))
        if kind == "hands":
            top = fields.get("before", 251)
            listed = [{"hand": n, "finished": 0.0, "net": 0} for n in range(1, top)][-200:]
            return {"table": "t1", "seat": 0, "hands": listed, "more": listed[0]["hand"] > 1}
        assert kind == "history" and len(fields["hands"]) <= 100
        if len(self.asked) > 3 and self.limited:
            self.limited -= 1
            raise ProtocolError("rate_limited", "at most 50 hands a second ...")
        text = "".join(f"[{i + 1}]\nhand = {n}\n\n" for i, n in enumerate(fields["hands"]))
        return {"table": "t1", "seat": 0, "hands": fields["hands"], "format": "phh", "text": text}


def test_join_history_reads_every_hand_a_request_s_most_at_a_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    said: list[str] = []
    client = _Hands()
    state = {"status": "playing", "seats": [{"seat": 0, "name": "Ann"}]}
    game = RoomGame(client, {"table": "t1", "seat": 0, "token": "x", "name": "Ann",  # type: ignore[arg-type]
                             "state": state}, Teller(0, color=False, write=said.append),
                    "key")  # fmt: skip
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("time.sleep", lambda seconds: None)
    game.typed("history", None)
    assert said[-1] == ("250 hands of yours at table t1 written to holdem-t1.phhs (PHH: your "
                        "cards and those shown).")  # fmt: skip
    text = (tmp_path / "holdem-t1.phhs").read_text()
    assert re.findall(r"^\[(\d+)\]$", text, re.M) == [str(n) for n in range(1, 251)]
    assert re.findall(r"^hand = (\d+)$", text, re.M) == [str(n) for n in range(1, 251)]
    kinds = [(k, f.get("before"), len(f.get("hands", ()))) for k, f in client.asked]
    assert kinds == [("hands", None, 0), ("hands", 51, 0), ("history", None, 100),
                     ("history", None, 100), ("history", None, 100),
                     ("history", None, 50)]  # fmt: skip
