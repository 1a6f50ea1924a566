"""Benchmark of the JSON-lines protocol (issue 13's target).

Run it from the repository root::

    pip install -e . && python bench/bench_protocol.py

In one run:

- ``programs_raw``: a 6-handed cash game (100 big blinds, rebuys) in which
  every seat is an external call-only program over pipes
  (:class:`holdem.protocol.programs.Program`), each a Python script that
  reads its turn with ``json.loads`` and answers;
- ``programs_helper``: the same with each program written with the Python
  helper (``holdem.protocol.player.play``: the whole view rebuilt as a
  ``PlayerView``, deltas and all);
- ``in_process``: the same game with the same call-only players in-process
  (the engine's own speed: what the pipes cost is the difference);
- ``round_trip``: the floor of any program over pipes on this machine: a
  line to a program that answers at once (no JSON), and back;
- ``request_overhead``: the protocol layer's cost per request in process
  (``Engine.handle`` for ``legal`` and ``state``, JSON in and out).

Output: one JSON object a line; the ``target`` line says whether a 6-handed
game of external call-only programs reaches 1,000 hands a second.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import cpu_model, emit, library_version, set_bench

from holdem import Decision
from holdem.protocol import Engine
from holdem.protocol.programs import Program
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
from holdem import Decision
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


def programs(code: str, hands: int, folder: Path) -> tuple[float, int]:
    script = folder / f"bot{abs(hash(code))}.py"
    script.write_text(code, encoding="utf-8")
    players = {s: Program([sys.executable, str(script)], budget=30) for s in range(PLAYERS)}
    try:
        speed, decisions = game_speed(hands, players)  # type: ignore[arg-type]
        failures = [p.failure for p in players.values() if p.failure]
        if failures:
            raise RuntimeError(f"a program failed: {failures[0]}")
        return speed, decisions
    finally:
        for player in players.values():
            player.close()


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
    decisions = {}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for _ in range(max(1, args.repeat)):
            for case, run in (
                ("in_process", lambda: game_speed(hands, dict.fromkeys(range(PLAYERS), call_only))),
                ("programs_raw", lambda: programs(RAW, hands, folder)),
                ("programs_helper", lambda: programs(HELPER, hands, folder)),
            ):
                speed, made = run()
                best[case] = max(best.get(case, 0.0), speed)
                decisions[case] = made
            trip = round_trip(2000 if args.quick else 20000, folder)
            best["round_trip_us"] = min(best.get("round_trip_us", trip), trip)
    for case in ("in_process", "programs_raw", "programs_helper"):
        emit(result="hands_per_second", case=case, hands=hands,
             hands_per_sec=round(best[case], 1))  # fmt: skip
    per_hand = decisions["programs_raw"] / (hands + 10)  # (the last round's programs)
    emit(result="round_trip", microseconds=round(best["round_trip_us"], 1),
         decisions_per_hand=round(per_hand, 1),
         floor_hands_per_sec=round(1e6 / (best["round_trip_us"] * per_hand), 1))  # fmt: skip
    emit(result="request_overhead_us", **request_overhead(2000 if args.quick else 20000))
    emit(target="6-max game of external call-only programs: 1,000 hands/s",
         value=round(best["programs_raw"], 1), met=best["programs_raw"] >= 1000)  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
