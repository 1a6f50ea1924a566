"""Benchmark of holdem's bots and batch matches: speed (issue 12's speed goals).

Run it from the repository root::

    pip install -e . && python bench/bench_bots.py

``--quick`` gives a smoke run.  In one run:

- ``call_only``: the engine's own speed, 6-handed hands of call-only players
  on :class:`holdem.Hand` (100 big blinds each, the button moving), each
  decision from ``hand.view(actor)`` and ``hand.legal_actions()`` as a
  bot's is;
- ``easy``: ``holdem.simulate`` of six easy bots, the same number of hands
  (every hand at 100 big blinds; the bots, the statistics and all);
- ``easy_jobs_1``, ``easy_jobs_2``: ten times as many hands of it on 1 and
  on 2 processes;
- ``hard``: a hard bot in a 6-handed cash game of normal bots: the time of
  each of its decisions (median and 99th percentile).

Each speed figure is the best of ``--repeat`` rounds (default 3).  Output:
one JSON object a line: a ``header``, ``result`` lines, and a ``target``
line per goal with ``met``: easy bots within 2x of the call-only engine
(ratio at least 0.5), ``--jobs 2`` at least 1.8x ``--jobs 1``.

``--strength`` measures the strength order instead (a few minutes on two
processes): hard > normal > easy > calling-station > random, each step in
a duplicate heads-up match and in a 6-handed duplicate game of three of
each bot in turn around the table.  A step holds when the stronger bot's
big blinds per 100 hands, with its 95% confidence interval (of the deals:
a deal's rotations together, in which the luck of the cards cancels), are
above zero.  ``--deals`` scales the number of deals.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time

from _common import cpu_model, emit, library_version, set_bench

from holdem import Decision, Hand, HandConfig, simulate
from holdem.bots import HardBot, make_bot
from holdem.table import CashGame

set_bench("bots")

HANDS = 3_000  # hands a round; --quick divides by 10
PLAYERS = 6


def call_only(hands: int) -> float:
    """Seconds for ``hands`` 6-handed hands of call-only players on the engine."""
    check, call = Decision.check(), Decision.call()
    rng = random.Random(1)
    start = time.perf_counter()
    for deal in range(hands):
        hand = Hand(HandConfig((200,) * PLAYERS, deal % PLAYERS, 1, 2), rng=rng)
        while not hand.done:
            seat = hand.actor
            legal = hand.legal_actions()
            assert seat is not None and legal is not None
            hand.view(seat)
            hand.act(check if legal.check else call, seat=seat)
    return time.perf_counter() - start


def easy(hands: int, jobs: int = 1) -> float:
    """Seconds for ``hands`` hands of six easy bots through ``holdem.simulate``."""
    start = time.perf_counter()
    simulate(["easy"] * PLAYERS, hands=hands, seed=1, jobs=jobs)
    return time.perf_counter() - start


def hard_decisions(hands: int) -> list[float]:
    """The seconds of each decision of a hard bot among five normal bots."""
    times: list[float] = []

    class Timed(HardBot):
        def decide(self, view, legal):  # type: ignore[no-untyped-def]
            begun = time.perf_counter()
            decision = super().decide(view, legal)
            times.append(time.perf_counter() - begun)
            return decision

    game = CashGame(seats=PLAYERS, small_blind=1, big_blind=2, rng=3)
    bots = {s: Timed(seed=s) if s == 0 else make_bot("normal", seed=s) for s in range(PLAYERS)}
    for seat in range(PLAYERS):
        game.join(seat, f"p{seat}", 200)
    for _ in range(hands):
        result = game.play_hand(bots)
        for seat in result.busted:
            game.add_chips(seat, 200)
    return times


#: the steps of the strength order, the stronger first, and the deals each
#: step's heads-up match and 6-handed game play (enough for the intervals to
#: tell them apart on this machine; the hard bot's are fewer: it is slower)
STEPS = (
    ("hard", "normal", 4_000, 4_000),
    ("normal", "easy", 20_000, 20_000),
    ("easy", "calling-station", 20_000, 10_000),
    ("calling-station", "random", 20_000, 10_000),
)


def strength(scale: float, jobs: int, seed: int) -> None:
    """The strength order: each step heads-up and 6-handed, duplicate."""
    for strong, weak, heads_up, six in STEPS:
        for table, seats, deals in (
            ("heads-up", [strong, weak], heads_up),
            ("6-max", [strong, weak] * 3, six),
        ):
            count = max(100, int(deals * scale))
            begun = time.perf_counter()
            result = simulate(seats, hands=count, seed=seed, duplicate=True, jobs=jobs)
            r = result.bots[strong]
            emit(result="strength", table=table, stronger=strong, weaker=weak, deals=count,
                 hands=result.hands, bb_per_100=round(r.bb_per_100, 1),
                 ci95=round(r.ci95, 1), seconds=round(time.perf_counter() - begun, 1))  # fmt: skip
            emit(target=f"{strong} beats {weak} ({table})",
                 value=f"{r.bb_per_100:+.1f} ± {r.ci95:.1f}",
                 met=r.bb_per_100 - r.ci95 > 0)  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run (10x fewer hands)")
    parser.add_argument("--repeat", type=int, default=3, help="rounds; the best counts")
    parser.add_argument("--strength", action="store_true", help="the strength order instead")
    parser.add_argument("--deals", type=float, default=1.0, help="scale of --strength's deals")
    parser.add_argument("--jobs", type=int, default=2, help="processes for --strength")
    parser.add_argument("--seed", type=int, default=1, help="seed of --strength's matches")
    args = parser.parse_args(argv)
    if args.strength:
        emit(header="bots-strength", python=platform.python_version(), cpu=cpu_model(),
             cpus=os.cpu_count(), holdem=library_version("holdem"), seed=args.seed,
             jobs=args.jobs, scale=args.deals / (10 if args.quick else 1))  # fmt: skip
        strength(args.deals / (10 if args.quick else 1), args.jobs, args.seed)
        return 0
    hands = HANDS // 10 if args.quick else HANDS
    emit(header="bots", python=platform.python_version(), cpu=cpu_model(),
         cpus=os.cpu_count(), holdem=library_version("holdem"), hands=hands,
         repeat=args.repeat)  # fmt: skip
    best: dict[str, float] = {}
    long = 10 * hands  # the processes' match: long enough that starting them is not all
    cases = (("call_only", hands, lambda: call_only(hands)), ("easy", hands, lambda: easy(hands)),
             ("easy_jobs_1", long, lambda: easy(long)),
             ("easy_jobs_2", long, lambda: easy(long, jobs=2)))  # fmt: skip
    for _ in range(max(1, args.repeat)):
        for case, _count, run in cases:
            seconds = run()
            best[case] = min(best.get(case, seconds), seconds)
    for case, count, _run in cases:
        emit(result="hands_per_second", case=case, hands=count,
             hands_per_sec=round(count / best[case], 1))  # fmt: skip
    ratio = best["call_only"] / best["easy"]
    speedup = best["easy_jobs_1"] / best["easy_jobs_2"]
    emit(ratio="easy/call_only", value=round(ratio, 3))
    emit(ratio="jobs_2/jobs_1", value=round(speedup, 3))
    times = sorted(hard_decisions(max(30, hands // 10)))
    median = statistics.median(times)
    p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
    emit(result="hard_decision_ms", decisions=len(times), median=round(1000 * median, 2),
         p99=round(1000 * p99, 2), max=round(1000 * times[-1], 2))  # fmt: skip
    emit(target="easy bots within 2x of the call-only engine", value=round(ratio, 3),
         met=ratio >= 0.5)  # fmt: skip
    emit(target="simulate --jobs 2 at least 1.8x --jobs 1", value=round(speedup, 3),
         met=speedup >= 1.8)  # fmt: skip
    emit(target="hard bot within its 50 ms budget (99th percentile)", value=round(1000 * p99, 2),
         met=p99 <= 0.05)  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
