"""The players' clients, ``holdem play`` and ``holdem join``, driven as a
player drives them: on a pseudo-terminal (or a pipe where a thing shows
there), ``join`` against a real ``holdem serve`` on loopback (issue 29,
bugs 1 and 8): what is typed belongs to a turn, Ctrl-C, the lines a player
reads."""

from __future__ import annotations

import os
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import with_ctrl_c
from rooms_helpers import Server, players
from terminal_helpers import Terminal

from holdem.cli.main import main
from holdem.clients import RoomGame, Teller
from holdem.rooms import Room

pytestmark = pytest.mark.skipif(
    sys.platform == "win32" or not hasattr(os, "openpty"), reason="pseudo-terminals, signals"
)


def play_on_terminal(terminals: list[Terminal], tmp_path: Path, *args: str) -> Terminal:
    terminal = Terminal(
        ["play", "--plain", "--histories", str(tmp_path / "hands"), "--no-color", *args]
    )
    terminals.append(terminal)
    return terminal


# ---------------------------------------------------------------- holdem play


def test_play_takes_no_move_typed_before_the_turn_and_says_so(
    terminals: list[Terminal], tmp_path: Path
) -> None:
    # (typed at once: the game has not begun, so it is before the first turn)
    terminal = play_on_terminal(terminals, tmp_path, "--seats", "2", "--seed", "1", "--speed", "0")
    terminal.type("f\r")
    terminal.wait_for(r"Your move: ")
    terminal.read(0.5)
    assert "Not taken: 'f' (typed before your turn)." in terminal.seen, terminal.seen
    assert "You fold" not in terminal.seen  # (the move waits for what is typed now)
    terminal.type("c\r")
    terminal.wait_for(r"You (call|check)")
    terminal.type("\x03")
    assert terminal.end() == 130


def test_play_drops_a_move_half_typed_when_the_time_is_up(
    terminals: list[Terminal], tmp_path: Path
) -> None:
    terminal = play_on_terminal(terminals, tmp_path, "--seats", "2", "--seed", "1", "--speed",
                                "0", "--timer", "1.5", "--game", "cash")  # fmt: skip
    first = terminal.wait_for(r"Your move")
    terminal.type("c")  # (no Enter before the time is up)
    up = terminal.wait_for(r"Time is up\.", start=first.end())
    later = terminal.wait_for(r"Your move", start=up.end())
    terminal.type("\r")  # (Enter at the next turn: the 'c' of the last one is gone)
    terminal.wait_for(r"type a command \(help lists them\)", start=later.end())
    assert not re.search(r"You (call|check)", terminal.seen[up.end() :]), terminal.seen
    terminal.type("\x03")
    assert terminal.end() == 130


def test_ctrl_c_at_the_prompt_ends_its_line_and_draws_no_caret_c(
    terminals: list[Terminal], tmp_path: Path
) -> None:
    terminal = play_on_terminal(terminals, tmp_path, "--seats", "3", "--seed", "1", "--speed", "0")
    terminal.wait_for(r"Your move: .*\r\n> ")
    terminal.type("\x03")
    assert terminal.end() == 130
    after = terminal.seen[terminal.seen.rindex("Your move: ") :]
    assert "^C" not in after, after
    *_, prompt, last = after.splitlines()
    assert last == "holdem play: interrupted", after  # (a line of its own,
    assert prompt.startswith("> "), after  # right below the prompt's: no blank line)


def test_ctrl_c_before_the_first_hand_ends_leaves_no_empty_history(tmp_path: Path) -> None:
    child = subprocess.Popen(
        [sys.executable, "-m", "holdem", "play", "--seats", "3", "--seed", "1", "--speed", "0",
         "--histories", str(tmp_path / "hands")],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        start_new_session=True, preexec_fn=with_ctrl_c,
    )  # fmt: skip
    assert child.stdout is not None
    said = b""
    end = time.monotonic() + 30
    while b"> " not in said:  # (the first prompt: no hand has ended)
        assert time.monotonic() < end and child.poll() is None, said
        if select.select([child.stdout], [], [], 0.1)[0]:
            said += os.read(child.stdout.fileno(), 65536)
    os.killpg(child.pid, signal.SIGINT)
    try:
        _, err = child.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, signal.SIGKILL)
        raise
    assert child.returncode == 130 and err.decode().strip() == "holdem play: interrupted"
    assert list((tmp_path / "hands").iterdir()) == []  # (no empty .phhs)


def test_play_names_your_hand_when_it_is_mucked_for_you(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        main,
        ["play", "--speed", "0", "--histories", str(tmp_path), "--game", "cash", "--seats", "2",
         "--hands", "30", "--seed", "0", "--bots", "calling-station"],
        input="c\n" * 200,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    mucks = [line for line in result.output.splitlines() if line.startswith("You muck")]
    assert mucks, result.output
    for line in mucks:  # ("You muck 7♠ 7♥ (One Pair, Sevens)")
        assert re.fullmatch(r"You muck \S\S \S\S \([\w ]+, [\w ]+\)", line), line


def test_play_calls_the_player_you_on_every_line(tmp_path: Path) -> None:
    # (the default name, Hero, is the one the hand histories give the player)
    tournament = CliRunner().invoke(
        main, ["play", "--speed", "0", "--histories", str(tmp_path / "a"), "--seats", "4",
               "--seed", "11", "--bots", "easy"], input="c\n" * 3000,
    )  # fmt: skip
    cash = CliRunner().invoke(
        main, ["play", "--speed", "0", "--histories", str(tmp_path / "b"), "--game", "cash",
               "--seats", "2", "--seed", "4", "--bots", "calling-station"],
        input="a\n" * 40 + "n\n",
    )  # fmt: skip
    for result in (tournament, cash):
        assert result.exit_code == 0, result.output
        assert "Hero" not in result.output, result.output
    assert re.search(r"^\s+\d(st|nd|rd|th)\s+You\s+out on hand \d+ by ", tournament.output, re.M)
    assert re.search(r"^\s+You\s+200\s+0\s+-200", cash.output, re.M)


# ---------------------------------------------------------------- holdem join


def join_env(tmp_path: Path) -> dict[str, str]:
    return dict(os.environ, XDG_CONFIG_HOME=str(tmp_path / "config"), TERM="dumb")


@pytest.mark.slow
def test_join_says_time_is_up_first_and_takes_no_move_typed_for_another_turn(
    server: Server, terminals: list[Terminal], tmp_path: Path
) -> None:
    ann = server.client("Ann")
    made = ann.request("create_table", name="Ann", pace=0, pause=3,
                       timer={"seconds": 2, "time_bank": 0})  # fmt: skip
    ben = Terminal(["join", made["code"], "--server", f"127.0.0.1:{server.port}", "--name",
                    "Ben", "--no-color", "--plain"], env=join_env(tmp_path))  # fmt: skip
    terminals.append(ben)
    ben.wait_for(r"Waiting for the creator")
    ann.request("add_bots", table=made["table"], level="calling-station", count=1)
    ann.request("start", table=made["table"])
    ann.request("leave", table=made["table"])  # (her stack plays on, checking or folding at once)
    first = ben.wait_for(r"Your move")
    ben.type("c")  # (typed, not sent: the time is up first)
    up = ben.wait_for(r"Time is up: you check or fold\.\r\n(.*)\r\n(.*)\r\n", start=first.end())
    assert up.group(1) == "Not taken: 'c' (typed for the turn that ended).", up.group(0)
    assert re.fullmatch(r"You (check|fold)", up.group(2)), up.group(0)  # (after, not before)
    assert not re.search(r"You (check|fold)", ben.seen[first.end() : up.start()])
    second = ben.wait_for(r"Your move", start=up.end())
    ben.type("\r")  # (the 'c' of the turn that ended is not in this one's line)
    empty = ben.wait_for(r"type a command \(help lists them\)", start=second.end())
    assert not re.search(r"You (call|check)", ben.seen[second.end() : empty.start()])
    ben.type("f\r")
    folded = ben.wait_for(r"You fold", start=empty.end())
    ben.type("c\r")  # (out of turn: the next hand is 3 s away)
    ben.wait_for(r"Not taken: 'c': it is not your turn\.", start=folded.end())
    assert not re.search(r"You (call|check)", ben.seen[folded.end() :])
    ben.type("\x03")
    assert ben.end() == 130
    # (keys are read in cbreak mode, not echoed by the terminal: no ^C at the prompt)
    assert "^C" not in ben.seen and ben.seen.splitlines()[-1] == "holdem join: interrupted"


def test_join_bots_says_how_many_it_added_and_why_not_more(server: Server, tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "holdem", "join", "--create", "--server",
         f"127.0.0.1:{server.port}", "--name", "Ann", "--seats", "3", "--no-color"],
        input="bots 5 calling-station\nquit\n", capture_output=True, text=True, timeout=60,
        env=join_env(tmp_path),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "2 bots added, not 5: the table had 2 empty seats." in result.stdout, result.stdout


@pytest.mark.parametrize("reachable", [True, False])
def test_join_errors_are_one_line_and_exit_2(
    server: Server, tmp_path: Path, reachable: bool
) -> None:
    port = server.port
    if not reachable:
        server.stop()  # (nobody listens there now)
    result = subprocess.run(
        [sys.executable, "-m", "holdem", "join", "ZZZZ-ZZZZ", "--server", f"127.0.0.1:{port}"],
        input="", capture_output=True, text=True, timeout=60, env=join_env(tmp_path),
    )  # fmt: skip
    assert result.returncode == 2, result.stderr
    (line,) = result.stderr.splitlines()
    expected = "unknown_code: " if reachable else "cannot reach a room server"
    assert line.startswith("holdem join: error: ") and expected in line, line


class _Connection:
    """A room client that must not be asked anything (a move would be sent)."""

    def request(self, kind: str, **fields: object) -> dict[str, object]:
        raise AssertionError(f"sent {kind} {fields}")


def test_join_takes_no_line_typed_for_a_turn_the_server_already_ended() -> None:
    # (the line typed at one turn is read as the next one comes: Enter pressed
    # as the server timed the first out and dealt on)
    room = Room(seed=1)
    (ann,) = players(room, 1)
    made = ann.result("create_table", name="Ann", pace=0, pause=0)
    ann.result("add_bots", table=made["table"], level="calling-station")
    ann.result("start", table=made["table"])
    turn = next(ann.turns())
    said: list[str] = []
    screen = Teller(0, write=said.append)
    game = RoomGame(_Connection(), {**made, "name": "Ann"}, screen, "key")  # type: ignore[arg-type]
    game.tell(turn)
    typed_at = game.stamp()
    game.tell(turn)  # (the next turn: the same view, a new turn)
    game.typed("c", typed_at)
    assert said[-1] == "Not taken: 'c' (typed for a turn that has ended).", said
    game.typed("c", None)  # (typed while it was nobody's turn)
    assert said[-1] == "Not taken: 'c' (typed before your turn).", said


def test_join_names_your_hand_when_it_is_mucked_for_you() -> None:
    room = Room(seed=1)
    (ann,) = players(room, 1)
    made = ann.result("create_table", name="Ann", pace=0, pause=0)
    said: list[str] = []
    screen = Teller(0, color=False, symbols=True, write=said.append)
    game = RoomGame(_Connection(), {**made, "name": "Ann"}, screen, "key")  # type: ignore[arg-type]
    game.tell({"event": "hole_cards", "table": made["table"], "seat": 0, "cards": ["7s", "7h"]})
    river = {"kind": "deal_board", "street": "river", "seat": None,
             "cards": ["Ac", "Kd", "Qh", "2c", "3d"]}  # fmt: skip
    for action in (river, {"kind": "muck", "street": "river", "seat": 0}):
        game.tell({"event": "action", "table": made["table"], "action": action})
    assert said[-1] == "You muck 7♠ 7♥ (One Pair, Sevens)", said
