"""Benchmark of the JSON-lines protocol (issue 13's target).

Run it from the repository root::

    pip install -e . && python bench/bench_protocol.py

In one run, a 6-handed cash game (100 big blinds, rebuys) in which every seat
is an external call-only program over pipes
(:class:`holdem.protocol.programs.Program`), with three kinds of program:

- ``c``: ``bench/call_only.c``, compiled here with the system's C compiler
  (skipped with a note when there is none): it finds ``"check":true`` in the
  line and answers, so it measures the engine's side of the pipes;
- ``python``: a Python script that reads each turn with ``json.loads``;
- ``helper``: a Python script written with the helper
  (``holdem.protocol.player.play``: each view rebuilt as a ``PlayerView``);

each played twice: ``spread`` (the system places the processes) and
``one_cpu`` (this process and the programs it starts on one CPU, as
``holdem simulate`` places a game of programs:
:func:`holdem.protocol.programs.share_cpu`; a game is played one decision at
a time, and on a virtual machine a wake-up across CPUs costs more than the
work of a turn).  Beside them:

- ``simulate_c``: ``holdem.simulate`` of six ``cmd:`` seats of the C program
  (one process): the way a user runs such a match, statistics and all;
- ``in_process``: the same game with the engine's own call-only players;
- ``round_trip``: the floor of any program over pipes: a line to a program
  that answers at once (no JSON), and back, for both placements;
- ``request_overhead``: ``Engine.handle`` per request in process.

Output: one JSON object a line; the ``target`` lines say whether a 6-handed
game of external call-only programs reaches 1,000 hands a second.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import cpu_model, emit, library_version, set_bench

from holdem import Decision, simulate
from holdem.protocol import Engine
from holdem.protocol.programs import Program, share_cpu
from holdem.table import CashGame

set_bench("protocol")

PLAYERS = 6
RAW = """\
import json, sys
out = sys.stdout
for line in sys.stdin:
    turn = json.loads(line)
    if turn["event"] == "turn":
        kind = "check" if turn["view"]["legal"]["check"] else "call"
        out.write(json.dumps({"id": turn["id"], "action": {"kind": kind}}) + "\\n")
        out.flush()
"""
HELPER = """\
from holdem import Decision, simulate
from holdem.protocol.player import play
play(lambda view, legal: Decision.check() if legal.check else Decision.call())
"""
ECHO = """\
import os
while True:
    data = os.read(0, 65536)
    if not data:
        break
    os.write(1, b'{"action":{"kind":"call"}}\\n')
"""


def call_only(view: object, legal: object) -> Decision:
    return Decision.check() if legal.check else Decision.call()  # type: ignore[attr-defined]


def game_speed(hands: int, players: dict[int, object]) -> tuple[float, int]:
    """Hands a second of a 6-handed cash game of ``players``, and their decisions."""
    game = CashGame(seats=PLAYERS, small_blind=1, big_blind=2, rng=1)
    for seat in range(PLAYERS):
        game.join(seat, f"p{seat}", 200)
    for _ in range(10):  # (the programs started and warm)
        game.play_hand(players)  # type: ignore[arg-type]
    start = time.perf_counter()
    for _ in range(hands):
        result = game.play_hand(players)  # type: ignore[arg-type]
        for seat in result.busted:
            game.add_chips(seat, 200)
    seconds = time.perf_counter() - start
    decisions = sum(getattr(p, "decisions", 0) for p in players.values())
    return hands / seconds, decisions


def programs(command: list[str], hands: int) -> tuple[float, int]:
    players = {s: Program(command, budget=30) for s in range(PLAYERS)}
    try:
        speed, decisions = game_speed(hands, players)  # type: ignore[arg-type]
        failures = [p.failure for p in players.values() if p.failure]
        if failures:
            raise RuntimeError(f"a program failed: {failures[0]}")
        return speed, decisions
    finally:
        for player in players.values():
            player.close()


def compile_c(folder: Path) -> list[str] | None:
    """The command of ``call_only.c`` compiled in ``folder``; None without a compiler."""
    compiler = shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc")
    if compiler is None:
        emit(note="no C compiler (cc, gcc): the C programs are skipped")
        return None
    binary = folder / "call_only"
    source = Path(__file__).with_name("call_only.c")
    subprocess.run([compiler, "-O2", "-o", str(binary), str(source)], check=True)
    return [str(binary)]


def placed(case: str) -> contextlib.AbstractContextManager[object]:
    """The processes of a case on one CPU (``..._one_cpu``), or where the system puts them."""
    return share_cpu() if case.endswith("one_cpu") else contextlib.nullcontext()


def simulated(command: list[str], hands: int) -> tuple[float, int]:
    """Hands a second of ``holdem.simulate`` with six seats of ``command``."""
    seat = "cmd:" + shlex.join(command)
    start = time.perf_counter()
    result = simulate([seat] * PLAYERS, hands=hands, seed=0, seconds=30)
    seconds = time.perf_counter() - start
    if result.failures:
        raise RuntimeError(f"a program failed: {result.failures}")
    return hands / seconds, 0


def round_trip(count: int, folder: Path) -> float:
    """Microseconds a line takes to a program that answers at once, and back."""
    script = folder / "echo.py"
    script.write_text(ECHO, encoding="utf-8")
    child = subprocess.Popen([sys.executable, str(script)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, bufsize=0)  # fmt: skip
    assert child.stdin is not None and child.stdout is not None
    write, read = child.stdin.fileno(), child.stdout.fileno()
    line = b"x" * 2000 + b"\n"  # about a turn's size
    for _ in range(200):
        os.write(write, line)
        os.read(read, 65536)
    start = time.perf_counter()
    for _ in range(count):
        os.write(write, line)
        os.read(read, 65536)
    seconds = time.perf_counter() - start
    child.stdin.close()
    child.wait()
    return 1e6 * seconds / count


def request_overhead(count: int) -> dict[str, float]:
    """Microseconds of ``Engine.handle`` per request, by request."""
    engine = Engine()
    client = engine.connect()
    engine.handle(client, json.dumps({"type": "hello", "version": 1}))
    players = [{"seat": 0, "name": "me", "chips": 200}] + [
        {"seat": s, "name": f"b{s}", "bot": "calling-station"} for s in range(1, PLAYERS)
    ]
    engine.handle(client, json.dumps({"type": "create_table", "seats": PLAYERS, "small_blind": 1,
                                      "big_blind": 2, "seed": 1, "players": players}))  # fmt: skip
    engine.handle(client, json.dumps({"type": "start", "table": "t1"}))
    out = {}
    for kind, request in (
        ("legal", {"id": 1, "type": "legal", "table": "t1", "seat": 0}),
        ("state", {"id": 1, "type": "state", "table": "t1"}),
        ("bad_json", "not json"),
    ):
        line = request if isinstance(request, str) else json.dumps(request)
        start = time.perf_counter()
        for _ in range(count):
            engine.handle(client, line)
        out[kind] = round(1e6 * (time.perf_counter() - start) / count, 1)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run (10x fewer hands)")
    parser.add_argument("--repeat", type=int, default=3, help="rounds; the best counts")
    args = parser.parse_args(argv)
    hands = 100 if args.quick else 1000
    emit(header="protocol", python=platform.python_version(), cpu=cpu_model(),
         cpus=os.cpu_count(), holdem=library_version("holdem"), hands=hands,
         repeat=args.repeat)  # fmt: skip
    best: dict[str, float] = {}
    decisions = 0
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        commands = {"c": compile_c(folder)}
        for name, code in (("python", RAW), ("helper", HELPER)):
            script = folder / f"{name}.py"
            script.write_text(code, encoding="utf-8")
            commands[name] = [sys.executable, str(script)]
        cases = {"in_process": lambda: game_speed(hands, dict.fromkeys(range(PLAYERS), call_only))}
        for name, command in commands.items():
            if command is not None:
                for placement in ("spread", "one_cpu"):
                    cases[f"{name}_{placement}"] = lambda c=command: programs(c, hands)
        c_program = commands["c"]
        if c_program is not None:
            cases["simulate_c"] = lambda: simulated(c_program, hands)
        for _ in range(max(1, args.repeat)):
            for case, run in cases.items():
                with placed(case):
                    speed, made = run()
                best[case] = max(best.get(case, 0.0), speed)
                if case.startswith("python"):
                    decisions = made
            for placement in ("spread", "one_cpu"):
                with placed(placement):
                    trip = round_trip(2000 if args.quick else 20000, folder)
                key = f"round_trip_{placement}"
                best[key] = min(best.get(key, trip), trip)
    for case in cases:
        emit(result="hands_per_second", case=case, hands=hands,
             hands_per_sec=round(best[case], 1))  # fmt: skip
    per_hand = decisions / (hands + 10)  # (the last round's programs)
    for placement in ("spread", "one_cpu"):
        trip = best[f"round_trip_{placement}"]
        emit(result="round_trip", placement=placement, microseconds=round(trip, 1),
             decisions_per_hand=round(per_hand, 1),
             floor_hands_per_sec=round(1e6 / (trip * per_hand), 1))  # fmt: skip
    emit(result="request_overhead_us", **request_overhead(2000 if args.quick else 20000))
    for case in cases:  # (the target is the engine's: every kind of program is shown)
        if case != "in_process":
            emit(target="6-max game of external call-only programs: 1,000 hands/s", case=case,
                 value=round(best[case], 1), met=best[case] >= 1000)  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
