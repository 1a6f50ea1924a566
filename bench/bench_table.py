"""Benchmark of holdem.table: what a table costs on top of the bare hand engine.

Run it from the repository root::

    pip install -e . && python bench/bench_table.py

``--quick`` gives a smoke run of a few seconds.  In one run, the same random
legal players (fold, check-or-call or bet/raise with equal chances, a bet or
raise to a uniform amount between the legal minimum and maximum: one
``decide(view, legal)`` function for every case) play 6-handed:

- ``bare``: hands straight on :class:`holdem.Hand`: a ``HandConfig`` of the
  6 stacks (blinds 1/2, 200 chips) each hand, the button moving one seat,
  the stacks carried from hand to hand, a busted player's stack reset to
  200 so that 6 always play; each decision from ``hand.view(actor)`` and
  ``hand.legal_actions()`` and applied with ``hand.act(decision, seat=)``,
  as ``Table.play_hand`` does;
- ``cash``: :class:`holdem.table.CashGame` (6 seats, blinds 1/2, buy-in 200):
  ``play_hand(decide)`` in a loop; a busted player rebuys between hands
  (``add_chips``: they keep the seat);
- ``freezeout``: :class:`holdem.table.Tournament` of 6 players
  (``stack=1500``, the default schedule), ``play_hand(decide)`` until it is
  finished, then a new one;
- ``bare_freezeout``: the freezeout's hands on the bare engine: 1,500
  chips, the same blinds by hands played, a player with no chips out, a new
  game when one is left (no places, eliminations or events kept).  A
  freezeout deals fewer players a hand as players bust, so its hands are
  cheaper than 6-handed ones: the freezeout's target compares it with this
  case, the same hands (its ratio to ``bare`` is given too).

Each figure is the best of ``--repeat`` rounds (default 30) of ``--hands``
hands (default 2,000); a round runs every case once on the same seeds, so
every round plays the same hands.  Many short rounds: on a shared machine
the noise comes in bursts of a second or more, and the best of many short
rounds finds each case a quiet one (three rounds of 30,000 hands gave ratios
from 0.77 to 0.99 on the same code).  The process is pinned to one
core (``--no-pin`` turns that off).  The garbage collector stays on (as in
real use) and is collected before each case.

Output: one JSON object a line on stdout: a ``header``, ``note`` lines, a
``result`` per case (``hands``, ``hands_per_sec``, ``us_per_hand``, players
dealt and decisions a hand), ``ratio`` lines (a table's hands/s over the
bare engine's, same run) and a ``target`` line per table case (the issue's
"the table keeps at least 80% of the bare engine's hands/s") with ``met``.
``--profile N`` adds ``profile`` lines: cProfile of N hands of each table
case, the functions with the most own time and the share of own time by
where it is spent (holdem.table, the engine's Python, C and builtins, the
players).
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import os
import platform
import pstats
import random
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from _common import cpu_model, emit, library_version, note, set_bench
from bench_eval import pin_to_one_core

import holdem
from holdem.actions import Decision, LegalActions
from holdem.config import HandConfig
from holdem.hand import Hand
from holdem.table import CashGame, Decide, Schedule, Tournament
from holdem.views import PlayerView

set_bench("table")  # after bench_eval's import, which names its own

SEED = 20240601
PLAYERS = 6
NAMES = tuple(f"p{i}" for i in range(PLAYERS))
SB, BB = 1, 2
STACK = 200  # the bare engine's stack and the cash buy-in (CashGame's default maximum)
TOURNAMENT_STACK = 1500  # Tournament's default
HANDS = 2_000  # hands per case and round; --quick divides by 10
REPEAT = 30  # rounds (each case's best counts)
TARGET = 0.8  # a table keeps at least 80% of the bare engine's hands/s


#: a case's runner: plays ``hands`` hands; returns the hands, the players dealt
#: in over all of them, the decisions and the games (tournaments) begun
Runner = Callable[[int], tuple[int, int, int, int]]


# -------------------------------------------------------------- the players


def random_players(rng: random.Random, count: list[int]) -> Decide:
    """One decide function for every seat: fold, check-or-call or bet/raise
    with equal chances, to a uniform amount between the legal minimum and
    maximum.  ``count[0]`` counts the decisions (the same cost in every case)."""
    choice, randint = rng.choice, rng.randint
    fold, check, call = Decision.fold(), Decision.check(), Decision.call()
    passive = ("fold", "check_or_call")
    with_wager = ("fold", "check_or_call", "wager")

    def decide(view: PlayerView, legal: LegalActions) -> Decision:
        count[0] += 1
        move = choice(passive if legal.wager is None else with_wager)
        if move == "wager":
            assert legal.min_to is not None and legal.max_to is not None
            return Decision(legal.wager, randint(legal.min_to, legal.max_to))  # type: ignore[arg-type]
        if move == "check_or_call":
            return check if legal.check else call
        return fold

    return decide


SCHEDULE = Schedule.default()


def level_blinds(hands_played: int) -> tuple[int, int, int]:
    """Small blind, big blind and ante of a freezeout's next hand: the default
    schedule's."""
    level = SCHEDULE.level_at(hands_played, 0.0)[1]
    return level.small_blind, level.big_blind, level.ante


# ---------------------------------------------------------------- the cases


def play_bare(hand: Hand, decide: Decide) -> None:
    """A hand to its end as ``Table.play_hand`` plays it: the actor's legal
    actions and view, the decision applied for that seat."""
    while not hand.done:
        seat = hand.actor
        legal = hand.legal_actions()
        assert seat is not None and legal is not None
        hand.act(decide(hand.view(seat), legal), seat=seat)


def run_bare(hands: int) -> tuple[int, int, int, int]:
    cards, count = random.Random(SEED), [0]
    decide = random_players(random.Random(SEED + 1), count)
    stacks = [STACK] * PLAYERS
    button = PLAYERS - 1
    for _ in range(hands):
        button = (button + 1) % PLAYERS
        hand = Hand(HandConfig(tuple(stacks), button, SB, BB), rng=cards)
        play_bare(hand, decide)
        stacks = [chips or STACK for chips in hand.stacks]
    return hands, hands * PLAYERS, count[0], 1


def run_bare_freezeout(hands: int) -> tuple[int, int, int, int]:
    cards, count = random.Random(SEED), [0]
    decide = random_players(random.Random(SEED + 1), count)
    stacks = [0] * PLAYERS
    button = played = dealt = games = 0
    for _ in range(hands):
        seats = [s for s in range(PLAYERS) if stacks[s]]
        if len(seats) < 2:  # a new freezeout
            stacks = [TOURNAMENT_STACK] * PLAYERS
            seats = list(range(PLAYERS))
            button, played = PLAYERS - 1, 0
            games += 1
        after = [s for s in seats if s > button]
        button = after[0] if after else seats[0]
        sb, bb, ante = level_blinds(played)
        config = HandConfig(tuple(stacks[s] for s in seats), seats.index(button), sb, bb, ante=ante)
        hand = Hand(config, rng=cards)
        play_bare(hand, decide)
        for seat, chips in zip(seats, hand.stacks, strict=True):
            stacks[seat] = chips
        played += 1
        dealt += len(seats)
    return hands, dealt, count[0], games


def run_cash(hands: int) -> tuple[int, int, int, int]:
    count = [0]
    decide = random_players(random.Random(SEED + 1), count)
    game = CashGame(seats=PLAYERS, small_blind=SB, big_blind=BB, rng=random.Random(SEED))
    for seat, name in enumerate(NAMES):
        game.join(seat, name, STACK)
    dealt = 0
    for _ in range(hands):
        result = game.play_hand(decide)
        dealt += len(result.plan.dealt)
        for seat in result.busted:  # a rebuy: the busted player keeps the seat
            game.add_chips(seat, STACK)
    return hands, dealt, count[0], 1


def run_freezeout(hands: int) -> tuple[int, int, int, int]:
    count = [0]
    decide = random_players(random.Random(SEED + 1), count)
    cards = random.Random(SEED)
    dealt = games = 0
    game = None
    for _ in range(hands):
        if game is None or game.finished:
            game = Tournament(NAMES, stack=TOURNAMENT_STACK, rng=cards)
            games += 1
        dealt += len(game.play_hand(decide).plan.dealt)
    return hands, dealt, count[0], games


CASES: dict[str, Runner] = {
    "bare": run_bare,
    "cash": run_cash,
    "freezeout": run_freezeout,
    "bare_freezeout": run_bare_freezeout,
}
WHAT = {
    "bare": "holdem.Hand, 6 players, blinds 1/2, 200 chips, busted stacks reset",
    "cash": "CashGame 6 seats, blinds 1/2, buy-in 200, busted players rebuy",
    "freezeout": "Tournament 6 players, 1500 chips, until finished, then a new one",
    "bare_freezeout": "holdem.Hand, the freezeout's hands (busted players out, blinds by level)",
}
#: each table case and the bare case its target compares it with
TARGETS = {"cash": "bare", "freezeout": "bare_freezeout"}


# ------------------------------------------------------------------ profile


def where(filename: str) -> str:
    """Where a profiled function's own time is spent."""
    if filename == "~":
        return "C and builtins (the engine's C calls included)"
    path = Path(filename).as_posix()
    if "/holdem/table/" in path:
        return "holdem.table"
    if "/holdem/" in path:
        return "holdem engine (Python)"
    if path.endswith("bench_table.py") or path.endswith("/random.py"):
        return "players (bench_table.py, random)"
    return "stdlib and generated code (dataclasses.replace, dataclass __init__s)"


def emit_profile(case: str, hands: int, top: int = 20) -> None:
    """cProfile of ``hands`` hands of ``case``: the functions with the most own
    time, and the share of own time by where it is spent."""
    profiler = cProfile.Profile()
    profiler.enable()
    CASES[case](hands)
    profiler.disable()
    stats = pstats.Stats(profiler)
    total = stats.total_tt  # type: ignore[attr-defined]
    rows = sorted(stats.stats.items(), key=lambda item: item[1][2], reverse=True)  # type: ignore[attr-defined]
    note(
        f"profile: {case} on {hands} hands, {total:.3f} s under cProfile "
        f"({total / hands * 1e6:.0f} us a hand with the profiler's overhead)"
    )
    shares: dict[str, float] = {}
    for (filename, _line, _name), (_cc, _n, tottime, _cum, _callers) in rows:
        shares[where(filename)] = shares.get(where(filename), 0.0) + tottime
    emit(profile_case=case, shares={k: round(v / total, 3) for k, v in sorted(shares.items())})
    # ``profile``: the most own time; ``profile_cumulative``: the steps of a
    # table hand with what they call (holdem's Python functions by cumulative time)
    steps = [row for row in rows if where(row[0][0]) in ("holdem.table", "holdem engine (Python)")]
    steps.sort(key=lambda item: item[1][3], reverse=True)
    for kind, listed in (("profile", rows[:top]), ("profile_cumulative", steps[: top // 2])):
        for (filename, line, name), (_cc, ncalls, tottime, cumtime, _callers) in listed:
            place = filename if filename == "~" else f"{Path(filename).name}:{line}"
            emit(
                **{kind: f"{place}({name})"},
                case=case,
                calls_per_hand=round(ncalls / hands, 2),
                tottime=round(tottime, 4),
                tottime_share=round(tottime / total, 3),
                cumtime=round(cumtime, 4),
                cumtime_share=round(cumtime / total, 3),
            )


# --------------------------------------------------------------------- main


def commit_of_holdem() -> str | None:
    """The short commit of the holdem tree imported, ``+dirty`` if holdem/ or csrc/ changed."""
    root = Path(holdem.__file__).resolve().parent.parent
    git = ["git", "-C", str(root)]
    try:
        head = subprocess.run([*git, "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True, timeout=10).stdout.strip()  # fmt: skip
        dirty = subprocess.run([*git, "status", "--porcelain", "--", "holdem", "csrc"],
                               capture_output=True, text=True, check=True,
                               timeout=10).stdout  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return None
    return head + ("+dirty" if dirty.strip() else "")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run (10x fewer hands)")
    parser.add_argument("--repeat", type=int, default=REPEAT, help="rounds; the best counts")
    parser.add_argument("--hands", type=int, default=0, help=f"hands a case and round ({HANDS:,})")
    parser.add_argument("--no-pin", action="store_true", help="do not pin to one core")
    parser.add_argument("--profile", type=int, default=0, metavar="N",
                        help="also profile N hands of each table case")  # fmt: skip
    args = parser.parse_args(argv)
    hands = args.hands or (HANDS // 10 if args.quick else HANDS)
    emit(
        header="table",
        python=platform.python_version(),
        cpu=cpu_model(),
        cpus=os.cpu_count(),
        holdem=library_version("holdem"),
        holdem_commit=commit_of_holdem(),
        players=PLAYERS,
        blinds=[SB, BB],
        stack=STACK,
        tournament_stack=TOURNAMENT_STACK,
        hands=hands,
        repeat=max(1, args.repeat),
    )
    cpu = None if args.no_pin else pin_to_one_core()
    note(f"pinned to CPU {cpu}" if cpu is not None else "not pinned")

    for run in CASES.values():  # warm-up: imports, first calls
        run(max(1, hands // 50))
    best: dict[str, float] = {}
    stats: dict[str, tuple[int, int, int, int]] = {}
    for _ in range(max(1, args.repeat)):
        for case, run in CASES.items():
            gc.collect()
            start = time.perf_counter()
            played = run(hands)
            seconds = time.perf_counter() - start
            stats[case] = played  # the same seeds every round: the same hands
            best[case] = min(best.get(case, seconds), seconds)
    for case, seconds in best.items():
        played, dealt, decisions, games = stats[case]
        emit(result="hands_per_second", case=case, what=WHAT[case], hands=played,
             seconds=round(seconds, 4), hands_per_sec=round(played / seconds, 1),
             us_per_hand=round(seconds / played * 1e6, 2), dealt_per_hand=round(dealt / played, 2),
             decisions_per_hand=round(decisions / played, 2), games=games)  # fmt: skip
    rate = {case: stats[case][0] / seconds for case, seconds in best.items()}
    for case, base in (*TARGETS.items(), ("freezeout", "bare")):
        us = (best[case] / stats[case][0] - best[base] / stats[base][0]) * 1e6
        emit(ratio=f"{case}/{base}", value=round(rate[case] / rate[base], 3),
             table_us_per_hand=round(us, 2))  # fmt: skip
    for case, base in TARGETS.items():
        ratio = rate[case] / rate[base]
        emit(target=f"{case}: the table keeps at least {TARGET:.0%} of the bare engine's "
             f"hands/s ({base}: the same kind of hands)",
             value=round(ratio, 3), met=ratio >= TARGET)  # fmt: skip
    if args.profile:
        for case in TARGETS:
            emit_profile(case, args.profile)
    return 0


if __name__ == "__main__":
    sys.exit(main())
