"""Bot programs under abuse (issue 28): a program that floods stale answers,
one that leaves a process behind holding its output, one that ignores
SIGTERM; a run ends every process it started, on SIGTERM too; and no
program can learn the seed of the deal."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from holdem.bots import make_bot
from holdem.protocol.programs import Program
from holdem.table import CashGame

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="reads /proc; process groups")

#: A bot program that misbehaves as its first argument says, writing the pid
#: of each process it starts (itself first) to the file its second names:
#: flood: at its first turn, writes stale and garbage answers for ever;
#: orphan: starts a process that keeps its output open, and exits at once;
#: daemon: starts such a process, which ignores SIGTERM, and plays (calls);
#: stubborn: ignores SIGTERM and the end of its input, and plays.
ABUSER = r'''
import json, os, signal, subprocess, sys, time

how, pids = sys.argv[1], sys.argv[2]

def note(pid):
    with open(pids, "a") as out:
        out.write(f"{pid}\n")

note(os.getpid())
if how in ("orphan", "daemon"):
    child = subprocess.Popen([sys.executable, "-c", "import signal, time; "
                              "signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(1000)"])
    note(child.pid)  # (it holds this program's stdin and stdout: they are inherited)
    if how == "orphan":
        sys.exit(0)
if how == "stubborn":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
for line in sys.stdin:
    turn = json.loads(line)
    if turn.get("event") != "turn":
        continue
    if how == "flood":
        block = (b'{"id": 0, "action": {"kind": "fold"}}\n' * 50
                 + b'{"id": "x", "action": {"kind": "call"}}\n') * 100
        while True:
            os.write(1, block)
    kind = "check" if turn["view"]["legal"]["check"] else "call"
    print(json.dumps({"id": turn["id"], "action": {"kind": kind}}), flush=True)
if how == "stubborn":
    time.sleep(1000)
'''


@pytest.fixture
def abuser(tmp_path: Path) -> Path:
    path = tmp_path / "abuser.py"
    path.write_text(ABUSER, encoding="utf-8")
    return path


def running(pid: int) -> bool:
    """Whether the process runs (a zombie, ended but not yet reaped, does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return False
    return stat[stat.rfind(")") + 2] not in "ZX"


def recorded(path: Path, count: int, seconds: float = 20.0) -> list[int]:
    """The pids the programs wrote to ``path``, once there are ``count``."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pids = [int(p) for p in path.read_text().split()] if path.exists() else []
        if len(pids) >= count:
            return pids
        time.sleep(0.02)
    raise AssertionError(f"{path} holds fewer than {count} pids")


def gone(pids: list[int], seconds: float = 5.0) -> list[int]:
    """The pids still running after ``seconds`` at most (none, if all end)."""
    end = time.monotonic() + seconds
    left = [p for p in pids if running(p)]
    while left and time.monotonic() < end:
        time.sleep(0.02)
        left = [p for p in left if running(p)]
    return left


def cash_with(program: Program, hands: int = 2) -> CashGame:
    game = CashGame(seats=2, small_blind=1, big_blind=2, max_hands=hands, rng=4)
    for seat in range(2):
        game.join(seat, f"p{seat}", 200)
    game.play({0: program, 1: make_bot("calling-station")})
    return game


def holdem(
    *args: str, input: bytes = b"", timeout: float = 60
) -> subprocess.CompletedProcess[bytes]:
    """``holdem ARGS`` in a session of its own; killed with all of it if it
    does not end within ``timeout`` seconds (a failure)."""
    child = subprocess.Popen([sys.executable, "-m", "holdem", *args], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             start_new_session=True)  # fmt: skip
    try:
        out, err = child.communicate(input, timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, signal.SIGKILL)
        child.communicate()
        raise
    return subprocess.CompletedProcess(child.args, child.returncode, out, err)


# ---------------------------------------------------------------- the programs


def test_a_program_flooding_stale_answers_has_its_seconds_and_no_more(
    abuser: Path, tmp_path: Path
) -> None:
    from holdem import Hand, HandConfig

    pids = tmp_path / "pids"
    hand = Hand(HandConfig((100, 100), 0, 1, 2), rng=1)
    with Program([sys.executable, str(abuser), "flood", str(pids)], budget=0.5) as program:
        begun = time.monotonic()
        for turn in range(1, 4):
            assert program(hand.view(hand.actor), hand.legal_actions()).kind.value == "fold"
            assert program.timeouts == turn and program.failure is None
        assert time.monotonic() - begun < 3  # (0.5 s a turn, and the lines read meanwhile)
    assert gone(recorded(pids, 1)) == []


def test_play_and_its_flooding_program_end_in_time(abuser: Path, tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    begun = time.monotonic()
    done = holdem("play", "--game", "cash", "--seats", "2", "--hands", "2", "--speed", "0",
                  "--seed", "1", "--timer", "0.5", "--histories", str(tmp_path / "hands"),
                  "--bots", f"cmd:{sys.executable} {abuser} flood {pids}",
                  input=b"c\n" * 50, timeout=40)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Session over after 2 hands" in done.stdout.decode()
    assert "sits out" not in done.stdout.decode()  # (it only ran out of time, turn after turn)
    assert time.monotonic() - begun < 15
    assert gone(recorded(pids, 1)) == []


def test_a_program_that_exits_is_seen_to_though_a_child_holds_its_output(
    abuser: Path, tmp_path: Path
) -> None:
    pids = tmp_path / "pids"
    program = Program([sys.executable, str(abuser), "orphan", str(pids)], budget=4)
    with program:
        begun = time.monotonic()
        game = cash_with(program, hands=3)
        assert time.monotonic() - begun < 3  # (not 4 s a turn: its exit was seen at once)
        assert program.failure == "exited with status 0"
    assert game.hands_played == 3
    assert gone(recorded(pids, 2)) == []  # the child it left behind ended with it


def test_closing_a_program_ends_what_it_started_and_what_ignores_sigterm(
    abuser: Path, tmp_path: Path
) -> None:
    daemon, stubborn = tmp_path / "daemon", tmp_path / "stubborn"
    first = Program([sys.executable, str(abuser), "daemon", str(daemon)], budget=5)
    second = Program([sys.executable, str(abuser), "stubborn", str(stubborn)], budget=5)
    with first, second:
        game = CashGame(seats=2, small_blind=1, big_blind=2, max_hands=2, rng=4)
        for seat in range(2):
            game.join(seat, f"p{seat}", 200)
        game.play({0: first, 1: second})
        assert first.failure is None and second.failure is None
        started = recorded(daemon, 2) + recorded(stubborn, 1)
        assert all(running(pid) for pid in started)
    assert gone(started, seconds=0.5) == []  # (ended by the close itself)


# ---------------------------------------------------------------- SIGTERM


def terminated(
    args: list[str], pids: Path, count: int, *, group: bool = False
) -> tuple[str, list[int]]:
    """Starts ``holdem ARGS`` (its input a pipe left open), waits until its
    programs wrote ``count`` pids to ``pids``, sends it SIGTERM (``group``:
    to every process of its group, as a service manager does) and checks that
    it stops within 10 s with status 143: its last line on stderr, and every
    pid its programs wrote."""
    child = subprocess.Popen([sys.executable, "-m", "holdem", *args], stdin=subprocess.PIPE,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             start_new_session=True)  # fmt: skip
    try:
        recorded(pids, count)
        time.sleep(0.3)  # (playing: a hand or so under way)
        assert child.poll() is None, "ended before it could be terminated"
        if group:
            os.killpg(child.pid, signal.SIGTERM)
        else:
            os.kill(child.pid, signal.SIGTERM)
        sent = time.monotonic()
        _, err = child.communicate(timeout=10)
        assert time.monotonic() - sent < 10
    finally:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)
            child.communicate()
    assert child.returncode == 143, (child.returncode, err)
    return err.decode().strip().splitlines()[-1], recorded(pids, count)


@pytest.mark.parametrize(("jobs", "group"), [(1, False), (2, False), (2, True)])
def test_sigterm_stops_a_simulation_its_workers_and_every_program_they_started(
    abuser: Path, tmp_path: Path, jobs: int, group: bool
) -> None:
    daemon, stubborn = tmp_path / "daemon", tmp_path / "stubborn"
    seats = (f"cmd:{sys.executable} {abuser} daemon {daemon},"
             f"cmd:{sys.executable} {abuser} stubborn {stubborn},easy")  # fmt: skip
    args = ["simulate", "--seats", seats, "--hands", "100000", "--seed", "1",
            "--jobs", str(jobs)]  # fmt: skip
    line, started = terminated(args, daemon, 2 * jobs, group=group)
    assert line == "holdem simulate: terminated"
    started += recorded(stubborn, jobs)
    assert gone(started) == []


def test_sigterm_stops_play_and_its_programs_keeping_the_hands(
    abuser: Path, tmp_path: Path
) -> None:
    daemon, stubborn = tmp_path / "daemon", tmp_path / "stubborn"
    bots = (f"cmd:{sys.executable} {abuser} daemon {daemon},"
            f"cmd:{sys.executable} {abuser} stubborn {stubborn}")  # fmt: skip
    args = ["play", "--game", "cash", "--seats", "3", "--speed", "0", "--seed", "1",
            "--bots", bots, "--histories", str(tmp_path / "hands")]  # fmt: skip
    line, started = terminated(args, daemon, 2)
    assert line == "holdem play: terminated"
    started += recorded(stubborn, 1)
    assert gone(started) == []
    assert list((tmp_path / "hands").glob("*.phhs"))  # (the file of the hands, if none ended)
