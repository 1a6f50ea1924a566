"""Bot programs under abuse (issue 28): a program that floods stale answers,
one that leaves a process behind holding its output, one that ignores
SIGTERM; a run ends every process it started, on SIGTERM too; and no
program can learn the seed of the deal."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from holdem.bots import make_bot
from holdem.protocol.programs import ENVIRONMENT, Program
from holdem.table import CashGame

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="reads /proc; process groups")

#: A bot program that misbehaves as its first argument says, writing the pid
#: of each process it starts (itself first) to the file its second names:
#: flood: at its first turn, writes stale and garbage answers for ever;
#: orphan: starts a process that keeps its output open, and exits at once;
#: daemon: starts such a process, which ignores SIGTERM, and plays (calls);
#: stubborn: ignores SIGTERM and the end of its input, and plays;
#: escaper: does so too, after leaving its process group for its parent's.
ABUSER = r"""
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
if how == "escaper":
    os.setpgid(0, os.getpgid(os.getppid()))
if how in ("stubborn", "escaper"):
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
if how in ("stubborn", "escaper"):
    time.sleep(1000)
"""


@pytest.fixture
def abuser(tmp_path: Path) -> Iterator[Path]:
    """The ABUSER program; after the test, whatever of it still runs is
    killed (the test has failed then: nothing is left behind)."""
    path = tmp_path / "abuser.py"
    path.write_text(ABUSER, encoding="utf-8")
    yield path
    for name in ("pids", "daemon", "stubborn"):
        if (tmp_path / name).exists():
            for pid in map(int, (tmp_path / name).read_text().split()):
                if running(pid):
                    os.kill(pid, signal.SIGKILL)


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
        assert time.monotonic() - begun < 5  # (0.5 s a turn, and the lines read meanwhile)
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
    program = Program([sys.executable, str(abuser), "orphan", str(pids)], budget=8)
    with program:
        begun = time.monotonic()
        game = cash_with(program, hands=3)
        assert time.monotonic() - begun < 6  # (not 8 s a turn: its exit was seen at once)
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


def test_closing_a_program_that_left_its_group_ends_it_and_returns(
    abuser: Path, tmp_path: Path
) -> None:
    pids = tmp_path / "escaper"
    program = Program([sys.executable, str(abuser), "escaper", str(pids)], budget=5)
    (pid,) = recorded(pids, 1)
    time.sleep(0.2)  # (it has left its group: the group's signals miss it)
    began = time.monotonic()
    program.close()
    assert time.monotonic() - began < 8  # (its stop's graces, not for ever)
    assert gone([pid], seconds=0.5) == []


# ---------------------------------------------------------------- SIGTERM


def terminated(
    args: list[str], pids: Path, count: int, *, group: bool = False, signum: int = signal.SIGTERM
) -> tuple[str, list[int]]:
    """Starts ``holdem ARGS`` (its input a pipe left open), waits until its
    programs wrote ``count`` pids to ``pids``, sends it ``signum`` (``group``:
    to every process of its group, as a service manager or a closing
    terminal does) and checks that it stops within 10 s with status 128 +
    ``signum``: its last line on stderr, and every pid its programs wrote."""
    child = subprocess.Popen([sys.executable, "-m", "holdem", *args], stdin=subprocess.PIPE,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             start_new_session=True)  # fmt: skip
    try:
        recorded(pids, count)
        time.sleep(0.3)  # (playing: a hand or so under way)
        assert child.poll() is None, "ended before it could be terminated"
        if group:
            os.killpg(child.pid, signum)
        else:
            os.kill(child.pid, signum)
        sent = time.monotonic()
        _, err = child.communicate(timeout=10)
        assert time.monotonic() - sent < 10
    finally:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)
            child.communicate()
    assert child.returncode == 128 + signum, (child.returncode, err)
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


@pytest.mark.parametrize(
    ("signum", "says"), [(signal.SIGTERM, "terminated"), (signal.SIGHUP, "hung up")]
)
def test_sigterm_stops_play_and_its_programs_keeping_the_hands(
    abuser: Path, tmp_path: Path, signum: int, says: str
) -> None:
    daemon, stubborn = tmp_path / "daemon", tmp_path / "stubborn"
    bots = (f"cmd:{sys.executable} {abuser} daemon {daemon},"
            f"cmd:{sys.executable} {abuser} stubborn {stubborn}")  # fmt: skip
    args = ["play", "--game", "cash", "--seats", "3", "--speed", "0", "--seed", "1",
            "--bots", bots, "--histories", str(tmp_path / "hands")]  # fmt: skip
    # (SIGHUP to the whole group, as a terminal that closes sends it)
    line, started = terminated(args, daemon, 2, group=signum == signal.SIGHUP, signum=signum)
    assert line == f"holdem play: {says}"
    started += recorded(stubborn, 1)
    assert gone(started) == []
    # (the file of the hands kept if one ended; none, not an empty one, if none did)
    assert all(path.stat().st_size > 0 for path in (tmp_path / "hands").glob("*.phhs"))


# ---------------------------------------------------------------- the seed

#: A bot program that looks for the seed of the deal wherever a process of
#: its user can: its arguments and environment, its caller's command line,
#: environment, open files and folder; it writes what it saw to the file its
#: first argument names, then calls.
SPY = r"""
import json, os, sys

parent = os.getppid()

def read(path):
    try:
        with open(path, "rb") as f:
            return f.read().decode("utf-8", "replace")
    except OSError as exc:
        return f"({exc})"

def links(folder):
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    seen = []
    for name in names:
        try:
            seen.append(os.readlink(os.path.join(folder, name)))
        except OSError:
            pass
    return seen

seen = {
    "argv": sys.argv, "environ": dict(os.environ),
    "parent_cmdline": read(f"/proc/{parent}/cmdline"),
    "parent_environ": read(f"/proc/{parent}/environ"),
    "own_files": links("/proc/self/fd"), "parent_files": links(f"/proc/{parent}/fd"),
    "parent_folder": [os.path.join(d, f) for d, _, fs in os.walk(f"/proc/{parent}/cwd")
                      for f in fs],
}
with open(sys.argv[1], "w") as out:
    json.dump(seen, out)
for line in sys.stdin:
    turn = json.loads(line)
    if turn.get("event") == "turn":
        kind = "check" if turn["view"]["legal"]["check"] else "call"
        print(json.dumps({"id": turn["id"], "action": {"kind": kind}}), flush=True)
"""


def spied(tmp_path: Path, command: list[str]) -> tuple[str, dict[str, object]]:
    """Runs ``holdem COMMAND`` (a SPY seat in it, written ``{spy}``) in
    ``tmp_path`` with a secret of its own in its environment: its stdout,
    and what the spy saw."""
    spy, seen = tmp_path / "spy.py", tmp_path / "seen.json"
    spy.write_text(SPY, encoding="utf-8")
    seat = f"cmd:{sys.executable} {spy} {seen}"
    done = subprocess.run(
        [sys.executable, "-m", "holdem", *(arg.replace("{spy}", seat) for arg in command)],
        input=b"c\n" * 100, capture_output=True, cwd=tmp_path, timeout=60,
        env={**os.environ, "HOLDEM_TEST_SECRET": "kept from the programs"},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout.decode(), json.loads(seen.read_text())


def test_a_simulation_without_a_seed_draws_a_secret_one_no_program_sees(tmp_path: Path) -> None:
    out, seen = spied(tmp_path, ["simulate", "--seats", "{spy},easy", "--hands", "3", "--json",
                                 "--histories", "hands", "--logs", "logs"])  # fmt: skip
    seed = json.loads(out)["seed"]
    assert seed > 2**32  # (drawn from many: not to be found by trying)
    assert str(seed) not in json.dumps(seen)
    assert {n for n in seen["environ"] if not n.startswith("LC_")} <= set(ENVIRONMENT)
    assert "HOLDEM_TEST_SECRET" not in seen["environ"]  # (given a few variables, no more)


def test_play_with_programs_tells_the_seed_only_at_the_end(tmp_path: Path) -> None:
    import re

    out, seen = spied(tmp_path, ["play", "--game", "cash", "--seats", "2", "--hands", "2",
                                 "--speed", "0", "--bots", "{spy}",
                                 "--histories", "hands"])  # fmt: skip
    (seed,) = set(re.findall(r"seed (?:of this game: )?(\d+)", out))
    assert seed not in json.dumps(seen)  # (not in the names of the files either)
    assert any(name.endswith(".phhs") for name in seen["parent_folder"])  # (it looked there)
    assert "HOLDEM_TEST_SECRET" not in seen["environ"]  # (given a few variables, no more)
    lines = out.splitlines()
    assert lines[0].endswith("seed told at the end") and lines[-1].endswith(f": {seed}")
    assert int(seed) > 2**32  # (drawn from many: not to be found by trying)


def test_a_secret_seed_is_given_with_the_result_and_plays_the_run_again() -> None:
    from holdem import simulate

    first, second = (simulate(["easy", "random"], hands=120) for _ in range(2))
    assert first.seed != second.seed and first != second
    assert simulate(["easy", "random"], hands=120, seed=first.seed) == first


def _sleep_through_sigterm(ready: Any) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    ready.set()
    time.sleep(1000)


def test_a_pool_whose_ending_would_wait_for_ever_is_ended_all_the_same(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import multiprocessing

    import holdem.histories.parallel as parallel

    # (what hung a simulation: Pool.terminate waiting on a worker that never heard it)
    fork = multiprocessing.get_context("fork")
    ready = fork.Event()
    worker = fork.Process(target=_sleep_through_sigterm, args=(ready,))
    worker.start()
    assert ready.wait(10)

    class Pool:
        def __init__(self) -> None:
            self._pool = [worker]

        def terminate(self) -> None:
            worker.terminate()  # (SIGTERM: ignored)
            worker.join()  # (as the pool's own waits: for ever, but for the kill)

    monkeypatch.setattr(parallel, "STOP_SECONDS", 0.5)
    began = time.monotonic()
    parallel.stop_pool(Pool())
    assert time.monotonic() - began < 5
    assert worker.exitcode == -signal.SIGKILL
