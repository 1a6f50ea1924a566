"""The gauntlet: our bots against reference opponents (bench/gauntlet.py).

Run it from the repository root::

    pip install -e . && python bench/bench_gauntlet.py --deals 100 --jobs 1

Each of ``--ours`` (easy, normal, hard) plays each opponent of the gauntlet
in duplicate-dealt cash matches at 100 big blinds (``holdem.simulate``,
``duplicate=True``): heads-up (``--deals`` deals, each played from both
seats), six-max (three of ours and three of the opponent, alternating
around the table; each deal played in the six rotations), and one of ours
at a six-max table of one each of Maniac, PotBettor, MinRaiser,
TightAggressive and EquityBot ("mixed").  For each it gives our bot's big
blinds per 100 hands with the 95% interval of the deals, and where the
opponent can say it (the maniac heads-up) what the best response earns.

It prints a table (``--json``: one JSON object a line instead), with the
seconds of each match and, on one process (``--jobs 1``), the median and
99th percentile of our bot's decisions in milliseconds (each decision timed
alone, its view and menu made before the clock starts), and the 99th
percentile of the CPU time they took (a shared machine's clock also counts
the waits for a core).  The issue's
20,000 deals a match: see docs/bots.md, "The gauntlet", for the time they
take.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from _common import emit, set_bench

import holdem.bots
from holdem import simulate
from holdem.bots import Bot

set_bench("gauntlet")

FILE = Path(__file__).with_name("gauntlet.py")
OPPONENTS = ("Maniac", "CallingStation", "PotBettor", "MinRaiser", "TightAggressive",
             "EquityBot", "Nit")  # fmt: skip
MIXED = ("Maniac", "PotBettor", "MinRaiser", "TightAggressive", "EquityBot")


def seat(name: str) -> str:
    """The seat of a gauntlet opponent for ``holdem simulate`` (or of one of
    our own levels, named as ``holdem simulate`` names them)."""
    return name if name in holdem.bots.BOTS else f"py:{FILE}:{name}"


def tables(ours: str, opponent: str) -> list[tuple[str, list[str]]]:
    """The tables of a match: heads-up and six-max."""
    return [("heads-up", [ours, seat(opponent)]), ("6-max", [ours, seat(opponent)] * 3)]


#: our bots' decision times (seconds) of the match being played, by level:
#: the clock's, and the process's CPU time (on a shared machine the clock
#: counts the waits for a core as well)
TIMES: dict[str, list[float]] = {}
CPU_TIMES: dict[str, list[float]] = {}


def timed(level: str, make: Callable[..., Bot]) -> Callable[..., Bot]:
    """A maker of ``level``'s bots whose decisions are timed into
    :data:`TIMES` and :data:`CPU_TIMES` (in this process: ``--jobs 1``)."""

    def made(*args: Any, **options: Any) -> Bot:
        bot = make(*args, **options)
        decide, clock, cpu = bot.decide, time.perf_counter, time.process_time

        def timing(view: Any, legal: Any) -> Any:
            begun, used = clock(), cpu()
            decision = decide(view, legal)
            TIMES.setdefault(level, []).append(clock() - begun)
            CPU_TIMES.setdefault(level, []).append(cpu() - used)
            return decision

        bot.decide = timing  # type: ignore[method-assign]
        return bot

    return made


def percentiles(times: list[float]) -> tuple[float, float]:
    """The median and the 99th percentile of ``times``, in milliseconds."""
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return 1000 * statistics.median(ordered), 1000 * p99


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100, help="deals a match (default 100)")
    parser.add_argument("--jobs", type=int, default=1, help="processes a match (default 1)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the matches")
    parser.add_argument("--ours", default="easy,normal,hard", help="our bots, comma-separated")
    parser.add_argument("--opponents", default=",".join(OPPONENTS),
                        help="gauntlet opponents (or our levels: normal, random ...)")  # fmt: skip
    parser.add_argument("--tables", default="heads-up,6-max,mixed",
                        help="which tables: heads-up, 6-max, mixed (comma-separated)")  # fmt: skip
    parser.add_argument("--json", action="store_true", help="JSON lines instead of a table")
    args = parser.parse_args(argv)
    ours = args.ours.split(",")
    if args.jobs == 1:  # (the decisions are played here: time them)
        for level in ours:
            holdem.bots.BOTS[level] = timed(level, holdem.bots.BOTS[level])
    wanted = args.tables.split(",")
    matches = [(o, opp, table, seats) for o in ours for opp in args.opponents.split(",")
               for table, seats in tables(o, opp) if table in wanted]  # fmt: skip
    if "mixed" in wanted:
        matches += [(o, "mixed", "6-max", [o, *map(seat, MIXED)]) for o in ours]
    if not args.json:
        print(f"{args.deals:,} deals a match, duplicate, 100 big blinds, seed {args.seed}")
        print(f"{'ours':<7} {'opponent':<16} {'table':<9} {'bb/100':>9} {'95% CI':<9} "
              f"{'best response':>13} {'seconds':>8} {'p50 ms':>7} {'p99 ms':>7} "
              f"{'CPU p99':>7}")  # fmt: skip
    for mine, opponent, table, seats in matches:
        TIMES.clear()
        CPU_TIMES.clear()
        begun = time.perf_counter()
        result = simulate(seats, hands=args.deals, seed=args.seed, duplicate=True, jobs=args.jobs)
        seconds = time.perf_counter() - begun
        r = result.bots[mine]
        best = result.best_responses.get(1) if table == "heads-up" else None
        times = TIMES.get(mine, [])
        p50, p99 = percentiles(times) if times else (None, None)
        cpu99 = percentiles(CPU_TIMES[mine])[1] if times else None
        if args.json:
            emit(result="gauntlet", ours=mine, opponent=opponent, table=table, deals=args.deals,
                 hands=result.hands, bb_per_100=round(r.bb_per_100, 1), ci95=round(r.ci95, 1),
                 best_response=None if best is None else round(best, 1),
                 seconds=round(seconds, 1), decisions=len(times),
                 decision_ms_p50=None if p50 is None else round(p50, 3),
                 decision_ms_p99=None if p99 is None else round(p99, 3),
                 decision_cpu_ms_p99=None if cpu99 is None else round(cpu99, 3))  # fmt: skip
            continue
        shown = "" if best is None else f"{best:+.1f}"
        timing = "" if cpu99 is None else f"{p50:>7.2f} {p99:>7.2f} {cpu99:>7.2f}"
        print(f"{mine:<7} {opponent:<16} {table:<9} {r.bb_per_100:>+9.1f} ±{r.ci95:<8.1f} "
              f"{shown:>13} {seconds:>8.1f} {timing}", flush=True)  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
